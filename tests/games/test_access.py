"""Who may see and do what: every address of the app, with every method, for every role, held to a matrix
written here; and the seat a player takes with the join code, the game master's seats page, undo for one's own
side only, and the side each action is recorded for."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.html import escape

from republic.games.models import Command, Event, Game, Leader, Objective, Seat, Unit
from republic.games.pieces import Piece
from republic.games.steps import ACTIONS
from republic.games.views.access import NO_SEAT, REVOKED
from tests.devices import seated_device
from tests.games.conftest import HTMX, at_step, brigade, fresh

ROLES = ("outsider", "attacker", "defender", "revoked", "master")

# What each role may do at each address of a game, in the demo battle at its assault step, with the attacking
# side's unit, leader and division in the address. "yes": the request reaches its view (which may still find the
# form incomplete or the step elsewhere); "no": refused with 403 and the reason, whatever the method.
#                                    outsider attacker defender revoked master
GAME_ADDRESSES: dict[str, tuple[str, ...]] = {
    "games:game": ("no", "yes", "yes", "no", "yes"),
    "games:more_rows": ("no", "yes", "yes", "no", "yes"),
    "games:poll": ("no", "yes", "yes", "no", "yes"),
    "games:send_message": ("no", "no", "yes", "no", "yes"),
    "games:row": ("no", "yes", "yes", "no", "yes"),
    "games:part": ("no", "yes", "yes", "no", "yes"),
    "games:next_step": ("no", "yes", "no", "no", "yes"),
    "games:next_step_anyway": ("no", "no", "no", "no", "yes"),
    "games:undo": ("no", "yes", "yes", "no", "yes"),
    "games:game_log": ("no", "yes", "yes", "no", "yes"),
    "games:game_log_pdf": ("no", "yes", "yes", "no", "yes"),
    "games:save_game": ("no", "no", "no", "no", "yes"),
    "games:battle_report": ("no", "yes", "yes", "no", "yes"),
    "games:game_chart": ("no", "yes", "yes", "no", "yes"),
    "games:units": ("no", "yes", "yes", "no", "yes"),
    "games:follow": ("no", "yes", "yes", "no", "yes"),
    "games:division": ("no", "yes", "yes", "no", "yes"),
    "games:go_back": ("no", "no", "no", "no", "yes"),
    "games:end_game": ("no", "no", "no", "no", "yes"),
    "games:set_day": ("no", "no", "no", "no", "yes"),
    "games:correct_unit": ("no", "yes", "no", "no", "yes"),
    "games:blocked_move": ("no", "yes", "no", "no", "yes"),
    "games:set_orders": ("no", "yes", "no", "no", "yes"),
    "games:reassign_unit": ("no", "yes", "no", "no", "yes"),
    "games:take_objective": ("no", "yes", "yes", "no", "yes"),
    "games:seats": ("no", "no", "no", "no", "yes"),
    "games:revoke_seat": ("no", "no", "no", "no", "yes"),
    "games:new_join_code": ("no", "no", "no", "no", "yes"),
    "games:join_qr": ("no", "no", "no", "no", "yes"),
    "games:maneuver_movement": ("no", "yes", "no", "no", "yes"),
    "games:assault_column": ("no", "yes", "yes", "no", "yes"),
}
# What each role may do with each action a step offers (steps.base.Act), all sent to the one address of actions
# ("games:act"), about the attacking side's unit, leader or division, assault 1, or the game.
#                                    outsider attacker defender revoked master
STEP_ACTIONS: dict[str, tuple[str, ...]] = {
    "first-attacker": ("no", "yes", "yes", "no", "yes"),
    "first-attacker-roll": ("no", "yes", "yes", "no", "yes"),
    "rally": ("no", "yes", "no", "no", "yes"),
    "leader-move": ("no", "yes", "no", "no", "yes"),
    "replace-leader": ("no", "yes", "no", "no", "yes"),
    "check-leader": ("no", "yes", "no", "no", "yes"),
    "pass-over-leader": ("no", "yes", "no", "no", "yes"),
    "panic-test": ("no", "yes", "no", "no", "yes"),
    "adjoining": ("no", "yes", "yes", "no", "yes"),
    "declare-assault": ("no", "yes", "no", "no", "yes"),
    "assault-round": ("no", "yes", "yes", "no", "yes"),
    "end-assault": ("no", "yes", "yes", "no", "yes"),
    "charge-disorder": ("no", "yes", "no", "no", "yes"),
    "supporting-hit": ("no", "no", "yes", "no", "yes"),
    "passage-of-lines": ("no", "yes", "yes", "no", "yes"),
    "follow-up": ("no", "yes", "no", "no", "yes"),
    "local-breakthrough": ("no", "yes", "no", "no", "yes"),
    "maneuver-roll": ("no", "yes", "no", "no", "yes"),
    "charge-bonus": ("no", "yes", "no", "no", "yes"),
    "formation": ("no", "yes", "no", "no", "yes"),
    "mount": ("no", "yes", "no", "no", "yes"),
    "skirmishers": ("no", "yes", "no", "no", "yes"),
    "battery-functions": ("no", "yes", "no", "no", "yes"),
    "passing-fire": ("no", "no", "yes", "no", "yes"),
    "declare-blocks": ("no", "no", "yes", "no", "yes"),
    "roll-blocks": ("no", "yes", "yes", "no", "yes"),
    "skirmish-attack": ("no", "yes", "no", "no", "yes"),
    "artillery-fire": ("no", "yes", "no", "no", "yes"),
    "save-fire": ("no", "yes", "no", "no", "yes"),
    "demoralized-panic-test": ("no", "yes", "no", "no", "yes"),
}
# Addresses of no one game: open to everyone, or the game master's alone.
OTHER_ADDRESSES: dict[str, tuple[str, ...]] = {
    "games:home": ("yes", "yes", "yes", "yes", "yes"),
    "games:new_game": ("no", "no", "no", "no", "yes"),
    "games:start_scenario": ("no", "no", "no", "no", "yes"),
    "games:load_game": ("no", "no", "no", "no", "yes"),
    "games:join": ("yes", "yes", "yes", "yes", "yes"),
    "games:dashboard": ("no", "no", "no", "no", "yes"),
    "games:make_room_link": ("no", "no", "no", "no", "yes"),
    "games:revoke_room_link": ("no", "no", "no", "no", "yes"),
    "games:room": ("no", "no", "no", "no", "yes"),
    "games:room_by_link": ("yes", "yes", "yes", "yes", "yes"),  # an unknown link is a 404 to all, a live one open
    "chart": ("yes", "yes", "yes", "yes", "yes"),
    "manifest": ("yes", "yes", "yes", "yes", "yes"),
    "worker": ("yes", "yes", "yes", "yes", "yes"),
    "club_charts": ("no", "no", "no", "no", "yes"),
    "club_chart": ("no", "no", "no", "no", "yes"),
}


def names(patterns: list[Any], namespace: str = "") -> list[str]:
    found = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin" or pattern.app_name == "admin" or "accounts" in str(pattern.pattern):
                continue  # Django's own: the admin asks for staff, sign-in is open to all
            inner = f"{pattern.namespace}:" if pattern.namespace else namespace
            found += names(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            found.append(namespace + pattern.name)
    return found


def test_the_matrix_names_every_address_of_the_app_and_every_action():
    assert sorted(names(get_resolver().url_patterns)) == sorted([*GAME_ADDRESSES, *OTHER_ADDRESSES, "games:act"])
    assert sorted(ACTIONS) == sorted(STEP_ACTIONS)


@pytest.fixture
def table(client, demo) -> dict[str, Any]:
    game = at_step(demo, "assaults")
    assert game.in_progress and game.attacker.name == "Confederate"
    devices = {
        "outsider": Client(),
        "attacker": seated_device(game, "Confederate"),
        "defender": seated_device(game, "Union"),
        "revoked": seated_device(game, "Confederate", revoked=True),
        "master": client,
    }
    return {"game": fresh(game), "devices": devices}


def address(name: str, game: Game) -> str:
    """A concrete address for each name: the attacking side's unit, leader and division."""
    unit = Unit.objects.filter(game=game, division__side=game.attacker).first()
    leader = Leader.objects.filter(game=game, command__side=game.attacker).first()
    division = Command.objects.filter(game=game, side=game.attacker, level="division").first()
    seat = Seat.objects.filter(game=game).first()
    objective = Objective.objects.filter(game=game).first()
    ids = {
        "objective_id": objective.pk,
        "game_id": game.pk,
        "unit_id": unit.pk,
        "leader_id": leader.pk,
        "division_id": division.pk,
        "seat_id": seat.pk,
        "seq": 1,
        "row": f"unit-{unit.pk}",
        "part": "declare-assault",
        "change": "m_plus",
        "code": game.join_code,
        "link_id": 1,
        "key": "shiloh-1862-04-06",  # a shipped battle's, and no room link's: the room's screen is a 404 to all
        "chart_id": 1,  # the game master is refused nothing: no such chart is his 404
    }
    pattern = next(p for p in _all_patterns() if p[0] == name)[1]
    for key, value in ids.items():
        pattern = pattern.replace(f"<{key}>", str(value))
    return "/" + pattern


def _all_patterns() -> list[tuple[str, str]]:
    found = []

    def walk(patterns: list[Any], prefix: str, namespace: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern), f"{p.namespace}:" if p.namespace else namespace)
            elif p.name:
                route = str(p.pattern)
                for converter in ("int:", "slug:", "str:"):
                    route = route.replace(f"<{converter}", "<")
                found.append((namespace + p.name, prefix + route))

    walk(get_resolver().url_patterns, "", "")
    return found


def action_address(name: str, game: Game) -> str:
    """The address of an action about the attacking side's unit, leader or division, assault 1, or the game."""
    kind = ACTIONS[name][1].about
    found = {
        "unit": Unit.objects.filter(game=game, division__side=game.attacker).first(),
        "leader": Leader.objects.filter(game=game, command__side=game.attacker).first(),
        "command": Command.objects.filter(game=game, side=game.attacker, level="division").first(),
        "game": game,
    }
    piece = found[kind].piece if kind in found else Piece(kind, 1)
    return f"/games/{game.pk}/act/{name}/{piece.name}/"


@pytest.mark.parametrize("name", sorted([*GAME_ADDRESSES, *OTHER_ADDRESSES, *STEP_ACTIONS]))
def test_every_address_answers_every_role_as_the_matrix_says(table, name):
    game = table["game"]
    expected = {**GAME_ADDRESSES, **OTHER_ADDRESSES, **STEP_ACTIONS}[name]
    url = action_address(name, game) if name in STEP_ACTIONS else address(name, game)
    for role, allowed in zip(ROLES, expected, strict=True):
        device = table["devices"][role]
        for method in ("get", "post"):
            before = fresh(game).version
            response = getattr(device, method)(url)
            refused = response.status_code == 403
            assert response.status_code < 500, f"{method.upper()} {url} as {role}: {response.status_code}"
            assert refused == (allowed == "no"), f"{method.upper()} {url} as {role}: {response.status_code}"
            if refused:
                body = response.content.decode()
                assert "Not for this device" in body and 'role="alert"' in body
                assert fresh(game).version == before, f"a refused {method.upper()} {url} changed the game"


def test_an_address_naming_the_other_sides_unit_is_refused_to_the_attacker(table):
    game, devices = table["game"], table["devices"]
    union, before = Unit.objects.filter(game=game, division__side=game.defender).first(), game.version
    response = devices["attacker"].post(f"/games/{game.pk}/units/{union.pk}/m_plus/", {"version": before})
    assert response.status_code == 403 and "other side" in response.content.decode()
    response = devices["defender"].post(f"/games/{game.pk}/units/{union.pk}/m_plus/", {"version": before})
    assert response.status_code == 302 and fresh(game).version == before + 1


def test_a_refusal_over_htmx_says_why_where_the_player_looks(table):
    game, devices = table["game"], table["devices"]
    response = devices["defender"].post(f"/games/{game.pk}/next/", {"version": game.version}, **HTMX)
    assert response.status_code == 403 and response["HX-Retarget"] == "#refusal-slot"
    body = response.content.decode()
    assert body.startswith('<div class="alert alert-danger" role="alert"') and "attacking side" in body
    assert "<html" not in body


def test_a_device_without_a_seat_and_a_revoked_seat_are_told_how_to_get_one(table):
    game, devices = table["game"], table["devices"]
    assert escape(NO_SEAT) in devices["outsider"].get(f"/games/{game.pk}/").content.decode()
    assert escape(REVOKED) in devices["revoked"].get(f"/games/{game.pk}/").content.decode()
    # another game's seat is no seat here
    other = Game.objects.create(name="Another table", scenario="x", chart_version=game.chart_version)
    assert devices["attacker"].get(f"/games/{other.pk}/").status_code == 403


# --- joining ------------------------------------------------------------------------------------------------


def test_a_player_joins_with_the_code_and_the_page_opens_on_his_command(demo):
    phone = Client()
    page = phone.get(f"/join/{demo.join_code}/").content.decode()
    division = Command.objects.get(game=demo, name="Heth's Division")
    assert "Confederate: the whole side" in page and f'value="command-{division.pk}"' in page
    response = phone.post(f"/join/{demo.join_code}/", {"name": "  Ann  Lee ", "seat": f"command-{division.pk}"})
    assert response.status_code == 302 and response["Location"] == f"/games/{demo.pk}/"
    seat = Seat.objects.get(game=demo)
    assert (seat.name, seat.side.name, seat.command) == ("Ann Lee", "Confederate", division)
    body = phone.get(f"/games/{demo.pk}/").content.decode()
    assert "Playing as Ann Lee · Heth&#x27;s Division" in body
    # the games list shows the seated device its game
    assert demo.name in phone.get("/").content.decode()


def test_a_device_that_takes_another_seat_gives_up_the_one_it_held(client, demo):
    phone = Client()
    sides = {side.name: side.pk for side in demo.sides.all()}
    phone.post(f"/join/{demo.join_code}/", {"name": "Ann", "seat": f"side-{sides['Confederate']}"})
    phone.post(f"/join/{demo.join_code}/", {"name": "Ann", "seat": f"side-{sides['Union']}"})
    first, second = Seat.objects.filter(game=demo).order_by("pk")
    assert (first.revoked, second.revoked) == (True, False) and second.side.name == "Union"
    assert "Playing as Ann · Union" in phone.get(f"/games/{demo.pk}/").content.decode()
    seats = client.get(f"/games/{demo.pk}/seats/").content.decode()
    assert seats.count("no longer in use") == 1 and seats.count("/revoke/") == 1


@pytest.mark.parametrize(
    "data, problem",
    [
        ({"name": "   ", "seat": "side-0"}, "This field is required"),
        ({"name": "Ann", "seat": "command-999999"}, "Select a valid choice"),
        ({"name": "Ann"}, "This field is required"),
    ],
)
def test_a_bad_join_form_takes_no_seat_and_says_why(demo, data, problem):
    if data.get("seat") == "side-0":
        data["seat"] = f"side-{demo.sides.first().pk}"
    response = Client().post(f"/join/{demo.join_code}/", data)
    assert response.status_code == 400 and problem in response.content.decode()
    assert not Seat.objects.exists()


def test_a_code_that_is_no_games_takes_no_seat(demo):
    response = Client().post("/join/not-a-code/", {"name": "Ann", "seat": f"side-{demo.sides.first().pk}"})
    assert response.status_code == 404 and "ask for it" in response.content.decode()
    assert not Seat.objects.exists()


def test_the_game_master_gives_a_new_code_and_takes_a_seat_away(client, demo):
    phone = seated_device(demo, "Union")
    old = demo.join_code
    page = client.get(f"/games/{demo.pk}/seats/").content.decode()
    assert f"/join/{old}/" in page and "<svg" in page and "A Union player" in page
    client.post(f"/games/{demo.pk}/seats/new-code/")
    demo.refresh_from_db()
    assert demo.join_code != old
    assert Client().get(f"/join/{old}/").status_code == 404
    assert phone.get(f"/games/{demo.pk}/").status_code == 200  # seats already taken stay
    seat = Seat.objects.get(game=demo)
    client.post(f"/games/{demo.pk}/seats/{seat.pk}/revoke/")
    assert phone.get(f"/games/{demo.pk}/").status_code == 403


def test_the_game_page_shows_the_join_link_and_its_code(client, demo):
    body = client.get(f"/games/{demo.pk}/").content.decode()
    assert f"http://testserver/join/{demo.join_code}/" in body and "<svg" in body


# --- acting for a side --------------------------------------------------------------------------------------


def test_an_action_is_the_seats_and_the_undo_reaches_only_its_own_sides(table):
    game, devices = table["game"], table["devices"]
    davis, cutler = brigade(game, "Davis's Brigade"), brigade(game, "Cutler's Brigade")
    devices["attacker"].post(f"/games/{game.pk}/units/{davis.pk}/m_plus/", {"version": game.version})
    event = Event.objects.filter(game=game).latest("seq")
    assert (event.actor, event.side.name) == ("A Confederate player", "Confederate")
    # the defender may not take back the attacker's correction
    response = devices["defender"].post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
    assert "not your side" in response.content.decode() and fresh(game).version == event.seq
    devices["defender"].post(f"/games/{game.pk}/units/{cutler.pk}/m_plus/", {"version": fresh(game).version})
    devices["defender"].post(f"/games/{game.pk}/undo/", {"version": fresh(game).version})
    undone = Event.objects.filter(game=game, undoes__isnull=False).get()
    assert undone.undoes.side.name == "Union" and undone.side.name == "Union"
    # the game master may take back anyone's
    devices["master"].post(f"/games/{game.pk}/undo/", {"version": fresh(game).version})
    assert Event.objects.filter(game=game, undoes__isnull=False).count() == 2
    assert Event.objects.filter(game=game, undoes__isnull=False).latest("seq").side is None


def test_a_signed_in_account_that_is_not_staff_is_no_game_master(db):
    master = get_user_model().objects.create_user("someone")
    device = Client()
    device.force_login(master)
    assert device.get("/games/new/").status_code == 403  # signed in is not enough: staff only


@pytest.mark.parametrize("step, watcher", [("move", "Union"), ("messages", "Confederate"), ("skirmish", None)])
def test_a_player_is_told_when_a_step_is_the_other_sides(client, demo, step, watcher):
    game = at_step(demo, step)
    for side in ("Confederate", "Union"):
        body = seated_device(game, side).get(f"/games/{game.pk}/").content.decode()
        assert ('id="watching"' in body) == (side == watcher), side
    assert 'id="watching"' not in client.get(f"/games/{game.pk}/").content.decode()
    if watcher:
        acting = "Union" if watcher == "Confederate" else "Confederate"
        body = seated_device(game, watcher).get(f"/games/{game.pk}/").content.decode()
        # the attacking side moves the defenders' step on: it is told to press Next step, not to follow
        then = "press Next step once they are done." if step == "messages" else "your phone follows it as they play."
        assert f"The {acting} players act in this step; {then}" in body
