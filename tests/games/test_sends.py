"""A send repeated applies once: a phone whose answer was lost sends the same action again with the same key, and
the game applies it once, answering the repeat with the game as it stands; a key that is not one the app makes is
refused with a clear message; and the repeat costs the same at every size of battle."""

from typing import Any

import pytest

from republic.games.models import Event, Game
from republic.games.steps.walk import advance
from republic.games.views.sends import BAD_KEY
from tests.games.conftest import HTMX, brigade, fresh, set_state, state_matches_events
from tests.games.query_helpers import Costs, Table, battles, brigades_of, go_to, set_each
from tests.games.test_query_counts import to_rally

KEY = "3b0d6e52-4c2f-4c11-9a53-0a8e2f1c9d11"


def shaken(game: Game, *names: str) -> Game:
    for name in names:
        set_state(game, brigade(game, name), m_hits=1)
    advance(game, None, "test")  # messages -> rally
    return fresh(game)


def rally(client, game: Game, name: str, key: str = KEY, version: int | None = None, die: str = "6") -> Any:
    unit = brigade(game, name)
    prefix = f"rally-{unit.piece.name}"
    data = {
        f"{prefix}-version": game.version if version is None else version,
        f"{prefix}-die": die,
        f"{prefix}-division_leader_distance": "3",
        "roll": "typed",
        "sent": key,
    }
    headers = {**HTMX, "HTTP_HX_TARGET": f"row-{unit.piece.name}"}
    return client.post(f"/games/{game.pk}/act/rally/unit-{unit.pk}/", data, **headers)


def test_a_die_sent_twice_with_one_key_is_applied_once_and_both_answers_show_it(client, demo):
    game = shaken(demo, "Davis's Brigade")
    drawn = game.version
    first = rally(client, game, "Davis's Brigade", version=drawn)
    again = rally(client, fresh(game), "Davis's Brigade", version=drawn)
    assert first.status_code == again.status_code == 200
    rallies = Event.objects.filter(game=game, kind="RallyResolved")
    assert [event.sent for event in rallies] == [KEY]
    assert fresh(game).version == drawn + 1
    body = again.content.decode()
    assert "Davis" in body and "moved on" not in body
    assert state_matches_events(game)


def test_a_repeat_after_another_players_action_is_answered_with_its_result_not_refused(client, demo):
    game = shaken(demo, "Davis's Brigade", "Archer's Brigade")
    drawn = game.version
    assert rally(client, game, "Davis's Brigade", version=drawn).status_code == 200
    # another phone rallies Archer, then Davis's phone, whose first answer was lost, sends its die again
    rally(client, fresh(game), "Archer's Brigade", key="another-phone-1")
    again = rally(client, fresh(game), "Davis's Brigade", version=drawn).content.decode()
    assert Event.objects.filter(game=game, kind="RallyResolved").count() == 2
    assert "moved on" not in again and "Davis" in again


def test_a_send_without_a_key_is_taken_as_before(client, demo):
    game = shaken(demo, "Davis's Brigade")
    assert rally(client, game, "Davis's Brigade", key="").status_code == 200
    assert Event.objects.get(game=game, kind="RallyResolved").sent == ""


@pytest.mark.parametrize("key", ["x" * 41, "a b", "<script>", "key;drop", "ключ"])
def test_a_key_the_app_does_not_make_is_refused_with_a_clear_message_and_nothing_changed(client, demo, key):
    game = shaken(demo, "Davis's Brigade")
    before = game.version
    response = rally(client, game, "Davis's Brigade", key=key)
    assert response.status_code == 400
    assert response.content.decode() == BAD_KEY
    assert fresh(game).version == before


def test_an_undo_sent_twice_takes_back_one_action(client, demo):
    game = shaken(demo, "Davis's Brigade", "Archer's Brigade")
    rally(client, game, "Davis's Brigade", key="")
    rally(client, fresh(game), "Archer's Brigade", key="")
    drawn = fresh(game).version
    answers = [client.post(f"/games/{game.pk}/undo/", {"version": drawn, "sent": KEY}, **HTMX) for _ in range(2)]
    assert all("moved on" not in answer.content.decode() for answer in answers)
    assert Event.objects.filter(game=game, kind="EventUndone").count() == 1
    assert Event.objects.filter(game=game, kind="RallyResolved", undone_by__isnull=True).count() == 1


@pytest.fixture
def costs(db) -> Costs:
    return Costs(battles())


def test_a_repeated_send_costs_the_same_at_every_size(costs):
    sent: dict[int, dict[str, Any]] = {}

    def rallied_once(t: Table) -> None:
        set_each(t.game, brigades_of(t.game, "attacker"), m_hits=1)
        go_to(t.game, "rally")
        unit = to_rally(t)[0]
        prefix = f"rally-{unit.piece.name}"
        data = {
            f"{prefix}-version": fresh(t.game).version,
            f"{prefix}-die": "6",
            f"{prefix}-division_leader_distance": "3",
            "roll": "typed",
            "sent": f"send-{t.units}",
        }
        sent[t.units] = {"unit": unit, "data": data}
        t.post(f"act/rally/unit-{unit.pk}/", data)()

    costs.each(rallied_once)

    def again(t: Table) -> Any:
        unit = sent[t.units]["unit"]
        return t.post(f"act/rally/unit-{unit.pk}/", sent[t.units]["data"], f"row-unit-{unit.pk}")

    costs.measure("a rally sent again", again, events=0)
    costs.check()
