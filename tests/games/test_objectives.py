"""The scenario's objectives at the table: who holds each is recorded as an event (a player for his own side,
taking one or giving it up; the game master anything), undone like any other, shown on the order of battle page,
told in the battle report with each change of hands, and carried in a saved game."""

from republic.games.archive.export import dumps, export_game
from republic.games.archive.load import import_game
from republic.games.ledger import undo_last
from republic.games.models import Event, Game, Objective
from republic.games.scenario import create_game, parse_scenario
from republic.scenarios import DEMO_SCENARIO
from tests.devices import seated_device
from tests.games.conftest import fresh, state_matches_events


def objective(game: Game, name: str) -> Objective:
    return Objective.objects.select_related("holder").get(game=game, name=name)


def take(device, game: Game, name: str, holder: str, version: int | None = None):
    side = game.sides.get(name=holder).pk if holder else ""
    data = {"holder": side, "version": fresh(game).version if version is None else version}
    return device.post(f"/games/{game.pk}/objectives/{objective(game, name).pk}/", data, follow=True)


def holders(game: Game) -> dict[str, str]:
    return {o.name: o.holder.name if o.holder else "" for o in Objective.objects.filter(game=game)}


def said(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def test_a_player_takes_an_objective_for_his_side_and_undo_gives_it_back(demo):
    confederate = seated_device(demo, "Confederate", "Pettigrew")
    answer = take(confederate, demo, "McPherson's Ridge", "Confederate")
    assert answer.status_code == 200 and answer.redirect_chain[-1][0].endswith("/units/#objectives")
    assert "McPherson's Ridge now held by Confederate" in said(answer)
    assert holders(demo)["McPherson's Ridge"] == "Confederate"
    event = Event.objects.get(game=demo, kind="ObjectiveTaken")
    assert event.actor == "Pettigrew" and event.side.name == "Confederate"
    assert state_matches_events(demo)
    undo_last(demo, fresh(demo).version, "gm")
    assert holders(demo)["McPherson's Ridge"] == "Union" and state_matches_events(demo)


def test_a_player_gives_up_his_sides_objective_but_records_nothing_for_the_other_side(demo):
    union = seated_device(demo, "Union")
    before = fresh(demo).version
    refused = take(union, demo, "Herr's Ridge", "Union", version=before)
    assert refused.status_code == 200 and fresh(demo).version == before + 1  # taking it for his own side: done
    assert holders(demo)["Herr's Ridge"] == "Union"
    confederate = seated_device(demo, "Confederate")
    for name, holder in (("McPherson's Ridge", "Union"), ("McPherson's Ridge", ""), ("Seminary Ridge", "Union")):
        version = fresh(demo).version
        answer = take(confederate, demo, name, holder)
        assert "A player records what his own side does" in said(answer) or "already" in said(answer), name
        assert fresh(demo).version == version, f"{name} to {holder or 'no one'} was recorded for the other side"
    answer = take(union, demo, "McPherson's Ridge", "")
    assert "McPherson's Ridge now held by no one" in said(answer)
    assert holders(demo) == {"McPherson's Ridge": "", "Herr's Ridge": "Union", "Seminary Ridge": ""}


def test_the_game_master_records_anything_and_a_stale_or_bad_form_changes_nothing(client, demo):
    version = fresh(demo).version
    assert "Seminary Ridge now held by Union" in said(take(client, demo, "Seminary Ridge", "Union"))
    stale = take(client, demo, "Herr's Ridge", "Union", version=version - 1 if version else 0)
    assert fresh(demo).version == version + 1
    assert "already" in said(take(client, demo, "Seminary Ridge", "Union"))
    bad = client.post(f"/games/{demo.pk}/objectives/{objective(demo, 'Seminary Ridge').pk}/", {"holder": "99999"})
    assert bad.status_code == 302 and fresh(demo).version == version + 1
    incomplete = client.post(f"/games/{demo.pk}/objectives/{objective(demo, 'Seminary Ridge').pk}/", {}, follow=True)
    assert "The form was incomplete" in said(incomplete) and fresh(demo).version == version + 1
    assert stale.status_code == 200


def test_an_objective_of_another_game_is_not_found(client, demo):
    other = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")), "Another table")
    theirs = objective(other, "Seminary Ridge")
    answer = client.post(f"/games/{demo.pk}/objectives/{theirs.pk}/", {"holder": "", "version": 0})
    assert answer.status_code == 404 and holders(other)["Seminary Ridge"] == ""


def test_the_order_of_battle_offers_each_device_what_it_may_record(client, demo):
    confederate = seated_device(demo, "Confederate")
    page = confederate.get(f"/games/{demo.pk}/units/").content.decode()
    mcpherson = page[page.index("McPherson&#x27;s Ridge") : page.index("Herr&#x27;s Ridge")]
    assert "held by Union" in mcpherson and "Confederate holds it" in mcpherson
    assert "No one holds it" not in mcpherson and "Union holds it" not in mcpherson
    herr = page[page.index("Herr&#x27;s Ridge") : page.index("Seminary Ridge")]
    assert "No one holds it" in herr and "Confederate holds it" not in herr
    master = client.get(f"/games/{demo.pk}/units/").content.decode()
    mcpherson = master[master.index("McPherson&#x27;s Ridge") : master.index("Herr&#x27;s Ridge")]
    assert "Confederate holds it" in mcpherson and "No one holds it" in mcpherson


def test_the_report_tells_who_holds_each_objective_and_when_it_changed_hands(client, demo):
    take(client, demo, "McPherson's Ridge", "Confederate")
    take(client, demo, "McPherson's Ridge", "Union")
    page = client.get(f"/games/{demo.pk}/report/").content.decode()
    section = page[page.index('id="list-objectives"') :]
    assert "McPherson&#x27;s Ridge</strong>: held by Union. " in section
    assert section.count("held by Confederate") >= 1 and "Held by Union at the start" in section
    assert "Seminary Ridge</strong>: held by no one, as at the start." in section


def test_a_saved_game_carries_its_objectives_and_who_holds_them(client, demo):
    take(client, demo, "Seminary Ridge", "Confederate")
    copy = import_game(dumps(export_game(demo.pk)))
    assert holders(copy) == holders(demo) and holders(copy)["Seminary Ridge"] == "Confederate"
    assert state_matches_events(copy)
    undo_last(copy, fresh(copy).version, "gm")
    assert holders(copy)["Seminary Ridge"] == ""
