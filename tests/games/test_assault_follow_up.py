"""The attackers' moves after a round and before any, and a local breakthrough, at the table (5.2, 5.5)."""

from republic.games.models import Event
from tests.games.assault_helpers import assault_page, declared, post_round
from tests.games.conftest import HTMX, brigade, fresh, payload, set_state, state_matches_events, summary


def follow(client, game, seq, **moves):
    game.refresh_from_db()
    data = {f"follow-assault-{seq}-version": game.version}
    for slot, (move, bonus) in moves.items():
        data[f"follow-assault-{seq}-move-{slot}"] = move
        if bonus:
            data[f"follow-assault-{seq}-bonus-{slot}"] = "on"
    return client.post(f"/games/{game.pk}/act/follow-up/assault-{seq}/", data, **HTMX)


def test_after_a_carry_result_the_attacker_carries_with_its_bonus_and_keeps_the_1m_for_the_turns_end(client, game, two):
    """R:1721-1735: attackers allowed to carry advance into the position, using their assault bonus move if they
    must; the bonus costs 1M at the end of the turn (3.1)."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    assert "What each attacker did after the round" not in assault_page(client, game)
    post_round(client, game, seq, die="10", die2="2")  # defender 1B 3P carry
    shown = assault_page(client, game)
    assert "What each attacker did after the round (5.5)" in shown
    assert '<option value="carry" selected>Carries the position</option>' in shown
    assert '<option value="hold"' not in shown  # a carry result is no drive away
    refused = follow(client, game, seq, **{davis.piece.name: ("hold", False)}).content.decode()
    assert "Select a valid choice" in refused and not Event.objects.filter(kind="AssaultFollowedUp").exists()
    assert follow(client, game, seq, **{davis.piece.name: ("carry", True)}).status_code == 200
    event = Event.objects.filter(game=game, kind="AssaultFollowedUp").get()
    assert summary(event) == (
        "Assault 1, after round 1: Davis's Brigade carries the position with its assault move bonus "
        "(1M at the end of the turn)"
    )
    assert fresh(davis).charge_bonus_used
    assert "What each attacker did after the round" not in assault_page(client, game)  # recorded once a round
    again = follow(client, game, seq, **{davis.piece.name: ("carry", False)}).content.decode()
    assert "has no move of the attackers to record now" in again
    assert state_matches_events(game)


def test_a_stalled_attacker_spends_no_bonus(client, game, two):
    """R:1775-1778: units with too little movement left to carry are stalled and fight on."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="10", die2="2")
    response = follow(client, game, seq, **{davis.piece.name: ("stalled", True)}).content.decode()
    assert "a unit that is stalled, with no movement left spends no assault move bonus" in response
    follow(client, game, seq, **{davis.piece.name: ("stalled", False)})
    p = payload(Event.objects.filter(game=game, kind="AssaultFollowedUp").get())
    assert p.moves[0].result.fights_on and not fresh(davis).charge_bonus_used


def test_when_every_defender_fell_back_before_the_rounds_the_attackers_may_carry(client, game, two):
    """R:1320-1323: "For pending assaults in which all targeted defending brigades route, retreat and otherwise
    disengage, the attacking brigades may automatically carry the position"."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    assert "Every defender fell back before the rounds" not in assault_page(client, game)
    set_state(game, cutler, forced_move="Re")
    assert "Every defender fell back before the rounds" in assault_page(client, game)
    follow(client, game, seq, **{davis.piece.name: ("carry", False)})
    event = Event.objects.filter(game=game, kind="AssaultFollowedUp").get()
    assert summary(event) == "Assault 1, before any round, every defender gone: Davis's Brigade carries the position"


def breakthrough(client, game, unit, bonus=True):
    game.refresh_from_db()
    data = {"breakthrough-version": game.version, "breakthrough-unit": unit.name}
    if bonus:
        data["breakthrough-used_bonus"] = "on"
    return client.post(f"/games/{game.pk}/act/local-breakthrough/game-{game.pk}/", data, **HTMX)


def test_a_local_breakthrough_is_declared_before_any_round(client, game, two):
    """R:1436-1446: declared at the start of the assault phase and moved before assault resolution begins."""
    davis, cutler = two
    assert 'aria-label="A local breakthrough"' in assault_page(client, game)
    breakthrough(client, game, davis)
    event = Event.objects.filter(game=game, kind="LocalBreakthroughDeclared").get()
    assert summary(event) == (
        "Davis's Brigade makes a local breakthrough to fresh targets with its assault move bonus "
        "(1M at the end of the turn) (5.2)"
    )
    assert fresh(davis).charge_bonus_used
    union = breakthrough(client, game, cutler).content.decode()
    assert "No attacking brigade to choose here is called" in union
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="5", die2="5")
    assert 'aria-label="A local breakthrough"' not in assault_page(client, game)
    late = breakthrough(client, game, brigade(game, "Archer's Brigade")).content.decode()
    assert "a local breakthrough is declared at the start of the assault phase" in late
    assert Event.objects.filter(game=game, kind="LocalBreakthroughDeclared").count() == 1
