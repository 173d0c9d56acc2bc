"""What a round of an assault reads and does (5.4, 5.5): the modifiers the state fills in, saved fire, the "C"
bonus of an All Out win, Panic 4 and a must-breakthrough, break off, surrender, a battery forced back; and a
result read from the players' printed chart."""

import re

from republic.games.events.assault import AssaultRoundResolved
from republic.games.models import Command, Event
from republic.games.text.assault import round_orders
from republic.rules.results import Modifier
from tests.games.assault_helpers import assault_page, declared, last_payload, last_round, outcome, post_round
from tests.games.conftest import HTMX, battery, brigade, fresh, payload, set_state, slot, state_matches_events, summary


def test_the_state_fills_in_losses_panic_skirmishers_leaders_and_fresh_batteries(client, game, two):
    davis, cutler = two
    hall, calef = battery(game, "2nd Maine Light, Battery B (Hall)"), battery(game, "2nd U.S., Battery A (Calef)")
    # three P this turn, one of them in this assault phase: the worst-P modifier counts that one (R:1591-1593)
    set_state(game, davis, base_hits_turn=2, p_hits_turn=3, p_hits_assault=1, skirmishers_deployed=1)
    set_state(game, calef, fired_this_turn=True)
    seq = declared(
        client, game, [(davis, "all_out")], [(cutler, "all_out"), (hall, "general"), (calef, "general")], primary=cutler
    )
    page = assault_page(client, game)
    assert "attacker: 8 bases, 2 lost this turn, worst P 1, skirmishers out 1/2" in page
    assert f'value="{slot(hall)}"  id="id_round-assault-{seq}-fresh_0" checked' in page
    assert f'value="{slot(calef)}"  id="id_round-assault-{seq}-fresh_1">' in page
    heth = game.leaders.get(name="Henry Heth")
    post_round(client, game, seq, die="5", die2="5", fresh=[slot(hall)], attacker_leaders=[str(heth.pk)])
    p = last_payload(game)
    attacker, defender = p.result.attacker.modifiers, p.result.defender.modifiers
    assert Modifier("each own base lost this player turn", -2, "5.4") in attacker
    assert Modifier("each P hit on the worst single unit this phase", -1, "5.4") in attacker
    assert Modifier("each 1/4 of available skirmishers deployed", -2, "5.4") in attacker
    assert Modifier('each E or P leader within 2"', 1, "5.4") in attacker
    assert Modifier("each fresh artillery battery (did not fire this turn)", 1, "5.4") in defender
    assert p.inputs.defender.fresh_batteries == 1


def test_saved_fire_gives_its_bonus_once_and_is_used_up(client, game, two):
    davis, cutler = two
    garnett = battery(game, "Garnett's Battalion")
    set_state(game, garnett, saved_fire=True)
    seq = declared(client, game, [(davis, "all_out"), (garnett, "general")], [(cutler, "all_out")])
    post_round(client, game, seq, die="5", die2="5")
    assert (
        Modifier("tactical bonus: each battery with saved fire", 1, "4.2")
        in last_payload(game).result.attacker.modifiers
    )
    assert fresh(garnett).saved_fire is False
    assert state_matches_events(game)


def test_an_all_out_win_win_carries_the_c_bonus_into_the_next_round(client, game, two):
    """Davis 7 against Cutler 4: 7 to 5 (+2, defender 1P) and the natural roll won by 3: Win/Win."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="7", die2="4")
    first = last_payload(game)
    assert first.result.next_round_tactical_bonus is True
    assert first.result.defender.all_out_extra_m == 1
    post_round(client, game, seq, die="5", die2="5")
    second = last_payload(game)
    assert second.round == 2 and second.inputs.attacker.tactical_bonus is True
    assert Modifier('tactical bonus "C" from an All Out win', 1, "5.1") in second.result.attacker.modifiers


def test_a_mixed_assault_keeps_the_extra_m_but_wins_no_c_bonus(client, game, two):
    davis, cutler = two
    archer = brigade(game, "Archer's Brigade")
    seq = declared(client, game, [(davis, "all_out"), (archer, "general")], [(cutler, "all_out")])
    post_round(client, game, seq, die="7", die2="3")
    p = last_payload(game)
    assert p.result.assault_type == "mixed" and p.result.win_win
    assert p.result.defender.all_out_extra_m == 1
    assert p.result.next_round_tactical_bonus is False


def test_a_general_assault_wins_no_c_bonus(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "general")], [(cutler, "all_out")])
    post_round(client, game, seq, die="7", die2="4")
    assert last_payload(game).result.next_round_tactical_bonus is False
    post_round(client, game, seq, die="5", die2="5")
    assert last_payload(game).inputs.attacker.tactical_bonus is False


def test_panic_4_marks_the_unit_and_its_division_and_a_must_breakthrough_uses_the_charge_bonus(client, game, two):
    """Davis 10 against a demoralized Cutler's 1: 10 to -2 (+12): defender 4P 2B must breakthrough."""
    davis, cutler = two
    set_state(game, cutler, m_hits=4)
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="10", die2="1")
    assert last_payload(game).result.outcome.action == "must_breakthrough"
    cutler = fresh(cutler)
    assert cutler.p4_event and Command.objects.get(pk=cutler.division_id).p4_event
    assert cutler.forced_move == "Re" and cutler.retreated and cutler.bases == 5
    assert fresh(davis).charge_bonus_used
    page = assault_page(client, game)
    assert "Retreat: move 12&quot; away from the enemy, turning away from the enemy" in page
    assert "must break through" in page
    assert state_matches_events(game)


def test_a_break_off_costs_each_attacking_brigade_1m_unless_stalled(client, game, two):
    """Davis 3 against Cutler 5: 3 to 6 (-3 on Pitched Battle): attacker break off; Davis also loses the
    natural roll by 2 (average: 1M), then takes the break-off 1M."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="3", die2="5")
    p = last_payload(game)
    assert p.result.outcome.action == "break_off"
    assert fresh(davis).m_hits == 2 and p.on_units.broke_off[0].result.m_after == 2
    page = assault_page(client, game)
    assert "The attackers broke off: contact has ended." in page
    # contact has ended: the card offers closing as its main action, and no further round
    assert "Assault 1 · contact ended" in page and 'aria-label="Round 2 of assault 1"' not in page
    assert '<button class="btn btn-primary w-100" type="submit">Close assault 1</button>' in page
    version = fresh(game).version
    refused = post_round(client, game, seq, die="9", die2="1").content.decode()
    assert "The attackers broke off in round 1: assault 1&#x27;s contact has ended" in refused
    assert fresh(game).version == version and fresh(davis).m_hits == 2
    client.post(f"/games/{game.pk}/undo/", {"version": game.version}, **HTMX)
    assert fresh(davis).m_hits == 0
    post_round(client, game, seq, die="3", die2="5", stalled="on")
    assert fresh(davis).m_hits == 1 and last_payload(game).on_units.broke_off == ()
    # stalled attackers fight on while within 2" (R:1775-1778): the next round is offered
    assert 'aria-label="Round 2 of assault 1"' in assault_page(client, game)


def test_a_surrounded_unit_forced_back_surrenders(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="10", die2="1", surrounded=[slot(cutler)])
    cutler = fresh(cutler)
    assert cutler.surrendered and cutler.bases == 0 and cutler.out_of_play
    page = assault_page(client, game)
    assert "surrenders" in page
    ended = "No defending unit of assault 1 is left in play: its contact has ended"
    assert ended in page and 'aria-label="Round 2 of assault 1"' not in page
    version = fresh(game).version
    response = post_round(client, game, seq)
    assert ended in response.content.decode() and fresh(game).version == version


def test_a_battery_forced_back_limbers_or_is_abandoned(client, game, two):
    davis = two[0]
    hall = battery(game, "2nd Maine Light, Battery B (Hall)")
    seq = declared(client, game, [(davis, "all_out")], [(hall, "all_out")])
    post_round(client, game, seq, die="10", die2="1")
    loss = last_payload(game).on_units.defender.units[0]
    hall = fresh(hall)
    assert hall.damage == loss.damage_after and hall.limbered == loss.limbered_after
    assert hall.abandoned == loss.abandoned
    assert hall.forced_move == (loss.move or "")
    assert state_matches_events(game)


# --- the players' printed chart -------------------------------------------------------------------------


def test_the_printed_chart_outcome_is_applied_with_the_engine_s_natural_m(client, game, two):
    """Davis 5 against Cutler 4 reads 5 to 5, 'both 1M roll again' in the app; the table's printed chart says
    'defender 2P drive away'. The natural roll, won by the attacker by 1, still costs Cutler 1M."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="5", die2="4", printed="defender 2P drive away")
    event = last_round(game)
    p: AssaultRoundResolved = payload(event)
    assert event.printed_chart and not event.provisional
    assert outcome(p.app_outcome) == {"to": "both", "hits": "1M", "action": "roll_again"}  # the app's
    assert str(p.result.outcome) == "defender 2P drive away"
    assert p.conditions.printed == "defender 2P drive away"
    assert fresh(davis).m_hits == 0
    loss = p.on_units.defender.units[0]
    assert loss.m_taken == 2  # 1M natural + 1M All Out Win/Win, as the engine works them out
    assert fresh(cutler).p_hits_turn == 2
    page = assault_page(client, game)
    assert "printed chart: defender 2P drive away" in page
    assert "Result read from the players&#x27; printed chart." in page


def test_a_printed_surrender_takes_the_side_s_units(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="6", die2="5", printed="defender surrender")
    cutler = fresh(cutler)
    assert cutler.surrendered and cutler.bases == 0 and cutler.base_hits_turn == 7
    assert round_orders(last_payload(game))[0]["text"] == "surrenders"
    assert state_matches_events(game)


def test_a_supporting_defender_counts_only_the_bases_the_table_gives(client, game, two):
    """R:1431-1435: a defender "supported by a friendly defending unit that has bases partly or wholly within the
    attacker's assault window ... may apply only those Supporting Bases toward the overall strength total"."""
    davis, cutler = two
    iron = brigade(game, "Iron Brigade (Meredith)")
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out"), (iron, "general")], primary=cutler)
    page = assault_page(client, game)
    assert f'name="round-assault-{seq}-bases-{slot(iron)}"' in page and 'placeholder="all 7"' in page
    assert f'name="round-assault-{seq}-bases-{slot(davis)}"' not in page  # the attackers count every base
    response = post_round(client, game, seq, **{f"bases-{slot(iron)}": "0"})
    assert "Ensure this value is greater than or equal to 1" in response.content.decode()
    assert not Event.objects.filter(game=game, kind="AssaultRoundResolved").exists()
    post_round(client, game, seq, die="5", die2="5", **{f"bases-{slot(iron)}": "2"})
    p = last_payload(game)
    assert [u.bases for u in p.inputs.defender.units] == [7, 2]  # Cutler all 7, Iron 2 of 7
    assert p.conditions.bases_of(iron.key) == 2 and p.conditions.bases_of(cutler.key) is None
    # the next round's form keeps the count the table gave
    assert f'name="round-assault-{seq}-bases-{slot(iron)}" value="2"' in assault_page(client, fresh(game))


def supporting(client, game, unit, primary, bases="2", move="W"):
    data = {
        "supporting-version": fresh(game).version,
        "supporting-unit": unit.name,
        "supporting-supporting_bases": bases,
        "supporting-primary": primary.name,
        "supporting-move": move,
    }
    return client.post(f"/games/{game.pk}/act/supporting-hit/game-{game.pk}/", data, **HTMX)


def test_a_supporting_brigade_takes_its_hit_when_the_primary_defender_retreats(client, game, two):
    """R:1784-1792: a unit supporting with a minority of its bases takes a hit and disengages, withdraws or
    falls back when the primary defender retreats or routs; nothing when it held."""
    davis, cutler = two
    iron = brigade(game, "Iron Brigade (Meredith)")
    declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    page = assault_page(client, game)
    assert 'aria-label="A supporting brigade\'s hit"' in page
    # the primary defender supported is chosen among this turn's assaults' primary defenders
    primaries = re.search(r'data-pick="supporting-primary".*?</fieldset>', page, re.S).group(0)
    assert ">Cutler&#x27;s Brigade<small>" in primaries and "Iron Brigade" not in primaries
    assert "Supporting brigade (5.5)" not in page  # no longer left to the table's corrections
    response = supporting(client, game, iron, cutler, bases="4")
    assert "4 of 7 bases is not a minority" in response.content.decode()
    held = supporting(client, game, iron, cutler)
    assert "no hit" in summary(Event.objects.filter(game=game, kind="SupportingBrigadeHit").get())
    assert held.status_code == 200 and fresh(iron).m_hits == 0
    set_state(game, cutler, forced_move="Re")
    supporting(client, game, iron, cutler, move="W")
    hit = Event.objects.filter(game=game, kind="SupportingBrigadeHit").last()
    iron = fresh(iron)
    assert (iron.m_hits, iron.forced_move) == (1, "W")
    assert summary(hit).startswith("Iron Brigade (Meredith), supporting Cutler's Brigade: 1M, now Unformed")
    assert state_matches_events(game)


def test_a_square_assaulted_by_cavalry_alone_is_told_to_the_engine(client, game, two):
    """R:1583-1586: infantry in square assaulted by cavalry alone suffers at most the 3:2 modifier; the table says
    the defenders are in square, and only mounted cavalry may be the attackers then."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    refused = post_round(client, game, seq, die="5", die2="5", square_vs_solo_cavalry="on").content.decode()
    assert "the attackers must all be mounted cavalry" in refused
    assert not Event.objects.filter(game=game, kind="AssaultRoundResolved").exists()
    set_state(game, davis, kind="cavalry_mounted")
    post_round(client, game, seq, die="5", die2="5", square_vs_solo_cavalry="on")
    assert last_payload(game).inputs.square_vs_solo_cavalry
