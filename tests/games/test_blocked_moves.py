"""A unit's forced move blocked by another unit where it would end, from its card at any step (3.3, R:695-701): it
becomes the next move down the list, recorded through the ledger so the log, undo and replay know it; a rout, last
of the list, stands; a unit with no forced move this turn, or out of play, is refused with the reason; open to the
unit's own side and the game master."""

from django.utils.html import escape

from republic.games.models import Event, Game, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.scenarios import DEMO_SCENARIO
from tests.devices import seated_device
from tests.games.conftest import HTMX, at_step, brigade, division, fresh, set_state, state_matches_events, summary

BLOCKED = "ForcedMoveBlocked"


def block(client, game: Game, unit: Unit, htmx=True, version=None):
    """The block sent from the unit's division page, as its card's form sends it."""
    data = {"version": fresh(game).version if version is None else version}
    headers = {**HTMX, "HTTP_HX_TARGET": f"division-{unit.division_id}"} if htmx else {}
    return client.post(f"/games/{game.pk}/blocked/{unit.pk}/", data, **headers)


def blocked(game: Game) -> int:
    return Event.objects.filter(game=game, kind=BLOCKED).count()


def card(client, game: Game, unit: Unit) -> str:
    body = client.get(f"/games/{game.pk}/divisions/{unit.division_id}/").content.decode()
    start = body.index(f'aria-label="{escape(unit.name)}"')
    return body[start : body.index("</article>", start)]


def test_a_units_card_offers_the_next_move_down_when_its_move_is_blocked(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, forced_move="W")
    shown = card(client, demo, davis)
    assert "withdraw this turn" in shown and "Its move is blocked by another unit</summary>" in shown
    assert "Blocked: fall back instead, 10&quot;</button>" in shown
    assert f'action="/games/{demo.pk}/blocked/{davis.pk}/"' in shown


def test_a_unit_with_no_forced_move_is_offered_nothing_to_block(client, demo):
    shown = card(client, demo, brigade(demo, "Archer's Brigade"))
    assert "Its move is blocked" not in shown and "this turn" not in shown


def test_a_withdraw_blocked_by_another_unit_becomes_a_fall_back_and_the_log_says_how_far(client, demo):
    """R:699-701: "A withdrawing unit stacked on another unit becomes a fall back in order to clear to the rear of
    that other unit" (withdraw 8", fall back 10", R:702-704)."""
    davis, heth = brigade(demo, "Davis's Brigade"), division(demo, "Heth's Division")
    set_state(demo, davis, forced_move="W")
    response = block(client, demo, davis)
    answer = response.content.decode()
    said = (
        "Davis's Brigade's withdraw would end on another unit: it falls back instead, 10\" in all (2\" beyond the "
        "withdraw), facing the enemy"
    )
    assert answer.lstrip().startswith(f'<div id="division-{heth.pk}"') and "<html" not in answer
    assert escape(said) in answer
    assert "fall back this turn" in answer and "Blocked: retreat instead, 12&quot;" in answer
    assert fresh(davis).forced_move == "F" and fresh(davis).m_hits == 0
    event = Event.objects.get(game=demo, kind=BLOCKED)
    assert summary(event) == said
    assert event.changes == [{"model": "unit", "id": davis.pk, "field": "forced_move", "before": "W", "after": "F"}]
    assert event.step == fresh(demo).step
    assert state_matches_events(demo)


def test_a_move_blocked_again_goes_down_again_and_a_retreat_that_routs_takes_the_m(client, demo):
    """R:699 the next move down each time; R:1651-1653: a unit that routs takes an M at the end of its rout move.
    A unit that now retreats or routs suffers the charge disorder of 5.6 too."""
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, forced_move="F", m_hits=1)
    block(client, demo, davis)
    assert (fresh(davis).forced_move, fresh(davis).m_hits, fresh(davis).retreated) == ("Re", 1, True)
    block(client, demo, davis)
    assert (fresh(davis).forced_move, fresh(davis).m_hits) == ("Rt", 2)
    event = Event.objects.filter(game=demo, kind=BLOCKED).latest("seq")
    assert summary(event).endswith("turning away from the enemy; the M at the end of its rout leaves it Rattled")
    assert state_matches_events(demo)


def test_a_batterys_retreat_that_becomes_a_rout_abandons_it(client, demo):
    """R:1657-1658: "Artillery batteries required to rout are abandoned (captured/lost) regardless of other
    results"."""
    hall = Unit.objects.get(game=demo, name__startswith="2nd Maine")
    set_state(demo, hall, forced_move="Re", limbered=True)
    block(client, demo, hall)
    found = fresh(hall)
    assert (found.forced_move, found.abandoned, found.damage) == ("Rt", True, 0)
    assert summary(Event.objects.get(game=demo, kind=BLOCKED)).endswith("a battery required to rout is abandoned")
    assert "Its move is blocked" not in card(client, demo, hall)


def test_horse_moves_double_at_the_games_scale(client, demo):
    """R:1650-1651: cavalry moves 200% of the foot distances; 1.2: at the game's scale."""
    gamble = brigade(demo, "Gamble's Brigade")
    set_state(demo, gamble, forced_move="D", kind="cavalry_mounted")
    set_state(demo, demo, ground_scale="large")
    block(client, demo, gamble)
    ratio, _ = fresh(demo).chart.entry("ground_scale", "large")
    beyond = round(16 * ratio * 4) / 4 - round(12 * ratio * 4) / 4
    assert f'withdraws instead, {round(16 * ratio * 4) / 4:g}" in all ({beyond:g}" beyond the disengage)' in summary(
        Event.objects.get(game=demo, kind=BLOCKED)
    )


def test_undo_gives_the_unit_its_move_back(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, forced_move="Re", m_hits=2)
    block(client, demo, davis)
    client.post(f"/games/{demo.pk}/undo/", {"version": fresh(demo).version}, **HTMX)
    assert (fresh(davis).forced_move, fresh(davis).m_hits) == ("Re", 2)
    assert Event.objects.get(game=demo, kind="EventUndone").undoes.kind == BLOCKED
    assert state_matches_events(demo)


def test_a_move_is_blocked_at_any_step_and_the_event_keeps_which(client, demo):
    game = at_step(demo, "demoralized_panic")
    davis = brigade(game, "Davis's Brigade")
    set_state(game, davis, forced_move="D")
    block(client, game, davis)
    assert Event.objects.get(game=game, kind=BLOCKED).step == "demoralized_panic"


def test_a_plain_post_blocks_the_move_and_goes_back_to_the_game(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, forced_move="W")
    response = block(client, demo, davis, htmx=False)
    assert response.status_code == 302 and response["Location"] == f"/games/{demo.pk}/"
    assert fresh(davis).forced_move == "F"


def refused(client, game: Game, unit: Unit, problem: str) -> None:
    before, version = unit.forced_move, fresh(game).version
    response = block(client, game, unit)
    assert response.status_code == 200 and problem in response.content.decode()
    assert fresh(unit).forced_move == before and fresh(game).version == version and blocked(game) == 0


def test_a_unit_with_no_forced_move_this_turn_is_refused_with_the_reason(client, demo):
    refused(
        client,
        demo,
        brigade(demo, "Archer's Brigade"),
        "Archer&#x27;s Brigade has made no forced move this player turn: there is no move to block. Nothing was "
        "changed.",
    )


def test_a_rout_blocked_by_another_unit_stands_and_nothing_changes(client, demo):
    """Nothing is further down the list than a rout (R:702-707); only enemy bases in its way make a unit surrender
    (R:1673-1678, R:1774-1775)."""
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, forced_move="Rt", m_hits=3)
    said = (
        "Davis&#x27;s Brigade routs, the last move of the list: it goes on past the unit in its way until it is clear "
        "of its rear (3.3)"
    )
    assert said in card(client, demo, davis) and "Blocked:" not in card(client, demo, davis)
    refused(client, demo, davis, said)
    assert fresh(davis).m_hits == 3 and not fresh(davis).surrendered


def test_a_unit_out_of_play_is_refused(client, demo):
    devin = brigade(demo, "Devin's Brigade")
    set_state(demo, devin, forced_move="W", destroyed=True)
    refused(client, demo, devin, "Devin&#x27;s Brigade is out of play (destroyed): it makes no move")
    assert "Its move is blocked" not in card(client, demo, devin)


def test_a_stale_page_changes_nothing(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, forced_move="W")
    block(client, demo, davis)
    response = block(client, demo, davis, version=fresh(demo).version - 1)
    assert "The game moved on" in response.content.decode() and fresh(davis).forced_move == "F"


def test_the_units_own_side_blocks_its_move_and_the_other_side_may_not(demo):
    cutler = brigade(demo, "Cutler's Brigade")
    set_state(demo, cutler, forced_move="W")
    theirs = block(seated_device(demo, "Confederate"), demo, cutler)
    assert theirs.status_code == 403 and "other side" in theirs.content.decode() and blocked(demo) == 0
    assert block(seated_device(demo, "Union"), demo, cutler).status_code == 200
    event = Event.objects.get(game=demo, kind=BLOCKED)
    assert event.side.name == "Union" and fresh(cutler).forced_move == "F"


def test_a_unit_of_another_game_is_not_found(client, demo):
    other = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    theirs = brigade(other, "Davis's Brigade")
    set_state(other, theirs, forced_move="W")
    assert block(client, demo, theirs, htmx=False).status_code == 404
    assert fresh(theirs).forced_move == "W" and blocked(demo) == blocked(other) == 0
