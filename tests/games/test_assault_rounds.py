"""A round of an assault at the table (5.4): typed dice or "Roll for me", htmx and plain POST, the results written
onto the units and the moves they must make shown; bad input at its field, stale forms, an assault of another
game."""

import html
import re

import pytest

from republic.games.events.assault import AssaultRoundResolved
from republic.games.models import Event, Leader, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.rules.dice import RollSource
from republic.scenarios import DEMO_SCENARIO
from tests.club_battle import club_scenario
from tests.games.assault_helpers import declared, last_payload, last_round, outcome, post_round, round_data
from tests.games.conftest import (
    HTMX,
    at_step,
    brigade,
    fresh,
    payload,
    rolled_for_assault,
    set_state,
    slot,
    state_matches_events,
)

# --- a round --------------------------------------------------------------------------------------------


def test_a_round_over_htmx_applies_the_results_to_the_units_and_shows_the_moves(client, game, two):
    """Davis 10 against Cutler 2: modified 10 to 3 (+7, Pitched Battle): defender 3P 1B carry; Cutler also
    loses the natural roll by 8 (veteran, 3 points a hit: 3M) and the All Out Win/Win adds 1M."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    response = post_round(client, game, seq, die="10", die2="2")
    body = response.content.decode()
    # the assaults are drawn in the step's panel: the answer is the panel, the assault's row still open for the
    # next round, with the moves of this one
    assert (
        response.status_code == 200 and response["HX-Retarget"] == "#step-head" and response["HX-Reswap"] == "outerHTML"
    )
    assert f'<li class="work-row is-open" id="row-assault-{seq}">' in body
    event = last_round(game)
    p: AssaultRoundResolved = payload(event)
    assert [(r.label, r.roll.faces, r.roll.source) for r in p.rolls()] == [
        ("attacker", (10,), "typed"),
        ("defender", (2,), "typed"),
    ]
    assert outcome(p.result.outcome) == {"to": "defender", "hits": "1B 3P", "action": "carry"}
    assert p.result.defender.natural_m == 3
    assert p.result.win_win is True
    unit = p.on_units.defender.units[0]
    cutler = fresh(cutler)
    assert (cutler.bases, cutler.base_hits_turn) == (unit.bases_after, 1) == (6, 1)
    assert cutler.m_hits == unit.m_after == 4
    assert cutler.p_hits_turn == unit.phase_panic_hits == 3
    assert cutler.forced_move == unit.move == "F"
    assert not cutler.retreated
    assert fresh(davis).m_hits == 0
    assert event.provisional and p.result.provisional  # the assault tables are provisional
    assert "Used a provisional chart cell" in body
    assert "Fall back: move 10&quot; away from the enemy, facing the enemy" in body
    assert "Defender: die 2, +1 troop grade: veteran (greatest share of bases) = <strong>3</strong>" in body
    assert "The attackers may carry the position" in body
    assert "Assault 1 · round 2" in body  # follow-up round offered
    assert "C&quot; bonus from the last round" in body
    assert state_matches_events(game)


def test_a_brigade_in_open_order_with_a_marker_out_per_base_takes_part_in_a_round(client, game, two):
    """R:269-270: in open order a brigade may deploy one skirmish marker per combat base, more than its troop
    list's: a round it takes part in is resolved, its markers out counted against the markers it may have out."""
    davis, cutler = two
    set_state(game, davis, formation="open_order", skirmishers_deployed=8)  # 8 bases, a troop list of 2
    seq = declared(client, fresh(game), [(fresh(davis), "general")], [(cutler, "general")])
    response = post_round(client, fresh(game), seq, die="6", die2="6")
    assert response.status_code == 200 and "Choose" not in response.content.decode()
    p: AssaultRoundResolved = last_payload(game)
    assert p.inputs.attacker.units[0].skirmishers_available == 8
    quarters = [m for m in p.result.attacker.modifiers if m.label == "each 1/4 of available skirmishers deployed"]
    assert [m.value for m in quarters] == [-4]  # all 8 of 8 out: four quarters


def test_a_brigade_in_open_order_that_lost_a_base_to_fire_with_its_markers_out_assaults(client, game, two):
    """R:269-270 limits deploying, and no rule takes a marker away with a base: a brigade in open order with a
    marker out per base that then loses a base has more markers out than bases. Its round resolves, every
    marker it has out: four quarters (5.3, R:1595-1599)."""
    davis, cutler = two
    set_state(game, davis, formation="open_order", skirmishers_deployed=8)
    set_state(fresh(game), fresh(davis), bases=7, base_hits_turn=1)  # a base lost to fire: 7 bases, 8 markers out
    seq = declared(client, fresh(game), [(fresh(davis), "general")], [(cutler, "general")])
    response = post_round(client, fresh(game), seq, die="6", die2="6")
    body = response.content.decode()
    assert response.status_code == 200 and "available, got" not in body
    p: AssaultRoundResolved = last_payload(game)
    davis_in_round = p.inputs.attacker.units[0]
    assert (p.assault, davis_in_round.bases, davis_in_round.skirmishers_available) == (seq, 7, 8)
    quarters = [m for m in p.result.attacker.modifiers if m.label == "each 1/4 of available skirmishers deployed"]
    assert [m.value for m in quarters] == [-4]


def test_a_round_by_plain_post_redirects(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    response = post_round(client, game, seq, htmx=False, die="6", die2="6")
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert last_round(game) is not None


def test_roll_for_me_rolls_both_dice_and_says_so(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="", die2="", roll="app")
    rolls = last_payload(game).rolls()
    assert [r.roll.source for r in rolls] == [RollSource.APP, RollSource.APP]
    assert all(1 <= r.roll.faces[0] <= 10 for r in rolls)
    assert state_matches_events(game)


@pytest.mark.parametrize(("die", "die2"), [("7", ""), ("", "4"), ("7", "4")])
def test_roll_for_me_with_a_typed_die_is_refused_naming_it_and_changes_nothing(client, game, two, die, die2):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    version = game.version
    response = post_round(client, game, seq, die=die, die2=die2, roll="app")
    body = html.unescape(response.content.decode())
    assert response.status_code == 200
    for typed in (die, die2):
        if typed:
            assert f"You chose {typed} on this die, so the app did not roll: tap the face you rolled" in body
    assert body.count("You chose") == len([t for t in (die, die2) if t])
    assert " checked>" not in body.split("die-pad")[1]  # no face chosen: Roll for me again rolls
    assert game.version == version and last_round(game) is None and fresh(cutler).m_hits == 0


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("die", "0", "A d10 shows 1 to 10."),
        ("die", "11", "A d10 shows 1 to 10."),
        ("die2", "0", "A d10 shows 1 to 10."),
        ("die2", "11", "A d10 shows 1 to 10."),
        ("die", "", "Tap the die you rolled (1-10), or press Roll for me."),
        ("die2", "six", "A d10 shows a whole number, 1 to 10."),
        ("struck", "sideways", "Select a valid choice"),
        ("printed", "defender 3Q carry", "Not an assault result"),
        ("printed", "attacker carry", "follows a defender loss"),
    ],
)
def test_bad_round_input_is_refused_at_the_field_and_changes_nothing(client, game, two, field, value, message):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    version = game.version
    kwargs = {"die": "5", "die2": "5", field: value}
    response = post_round(client, game, seq, **kwargs)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert game.version == version and fresh(cutler).m_hits == 0


def test_a_missing_cover_field_or_a_round_without_a_defender_is_refused(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    version = game.version
    data = round_data(game, seq)
    del data[f"round-assault-{seq}-cover-{slot(cutler)}"]
    response = client.post(f"/games/{game.pk}/act/assault-round/assault-{seq}/", data, **HTMX)
    assert "This field is required." in response.content.decode()
    response = post_round(client, game, seq, cover={cutler: "out"})
    assert "At least one defender unit must be in the round." in response.content.decode()
    game.refresh_from_db()
    assert game.version == version


def test_a_stale_round_changes_nothing(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    old = game.version
    post_round(client, game, seq, die="8", die2="3")
    response = post_round(client, game, seq, die="8", die2="3", version=old)
    assert "The game moved on since this page was drawn" in response.content.decode()
    assert Event.objects.filter(game=game, kind="AssaultRoundResolved").count() == 1


def test_an_assault_of_another_game_or_no_assault_is_not_found(client, game):
    other = at_step(
        rolled_for_assault(create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))), "assaults"
    )
    theirs = declared(
        client,
        other,
        [(brigade(other, "Davis's Brigade"), "all_out")],
        [(brigade(other, "Cutler's Brigade"), "all_out")],
    )
    assert not Event.objects.filter(game=game, seq=theirs, kind="AssaultDeclared").exists()
    data = round_data(other, theirs)
    assert client.post(f"/games/{game.pk}/act/assault-round/assault-{theirs}/", data).status_code == 404
    assert (
        client.post(f"/games/{game.pk}/act/end-assault/assault-{theirs}/", {"version": game.version}).status_code == 404
    )
    assert (
        client.post(f"/games/{game.pk}/act/assault-round/assault-1/", data).status_code == 404
    )  # event 1 is no assault


def test_a_club_battle_offers_its_units_own_leaders_first_and_the_side_s_others_one_tap_further(client, db):
    """R:670-675: any E or P leader within 2" adds, "not ... within the brigade's direct chain of command": the
    leaders of the units' own commands are boxes, the side's dozens of others a list fetched when its fold opens."""
    game = at_step(rolled_for_assault(create_game(parse_scenario(club_scenario(200)))), "assaults")
    attackers = Unit.objects.filter(game=game, division__side=game.first_attacker, kind="infantry")
    defenders = Unit.objects.filter(game=game, division__side=game.defender, kind="infantry")
    davis, cutler = attackers.first(), defenders.first()
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    opened = client.get(f"/games/{game.pk}/rows/assault-{seq}/", **HTMX).content.decode()
    name = f"round-assault-{seq}-attacker_leaders"
    own = davis.division.leader
    assert own.leader_class in ("E", "P")
    assert f'type="checkbox" name="{name}" value="{own.pk}"' in opened
    assert f'<select class="form-select picklist mt-1" name="{name}"' not in opened  # the others are folded
    assert len(opened) < 16_000, len(opened)
    fold = re.search(rf'id="fold-{name}" hx-get="([^"]+)"', opened)
    assert fold and fold.group(1) == f"/games/{game.pk}/rows/assault-{seq}/?fold=attacker-leaders"
    unfolded = client.get(fold.group(1), **HTMX).content.decode()
    picked = re.search(rf'<select [^>]*name="{name}"[^>]*>(.*?)</select>', unfolded)
    other = Leader.objects.filter(game=game, command__side=game.first_attacker, leader_class="E").last()
    assert picked and f'<option value="{other.pk}">{other.name} ({other.value})</option>' in picked.group(1)
    assert f'value="{own.pk}"' not in picked.group(1)
    post_round(client, game, seq, attacker_leaders=[str(own.pk), str(other.pk)])
    assert last_payload(game).conditions.attacker_leaders == (own.pk, other.pk)
    # the next round starts from this one's leaders: the fold holding one of them is drawn open, chosen
    again = client.get(f"/games/{game.pk}/rows/assault-{seq}/", **HTMX).content.decode()
    assert f'<option value="{other.pk}" selected>' in again


def test_the_rare_cases_are_one_box_a_unit_and_case_and_a_refused_round_keeps_them(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    body = post_round(
        client, game, seq, die="", out_of_town=[cutler.piece.name], across_water=[cutler.piece.name]
    ).content.decode()
    assert last_round(game) is None  # no die: nothing was resolved
    table = re.search(r'<table class="table table-sm rare-cases.*?</table>', body, re.S).group(0)
    assert table.count('type="checkbox"') == 6  # two units, three cases
    kept = [(v, html.unescape(name)) for v, name in re.findall(r'value="([^"]+)" checked aria-label="([^"]+)"', table)]
    assert kept == [
        (cutler.piece.name, f"{cutler.name}: Leaves town"),
        (cutler.piece.name, f"{cutler.name}: Over water"),
    ]
