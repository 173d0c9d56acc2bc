"""Lose/lose passage of lines at the table (5.5, R:1679-1701): the losers driven back by a round are offered to
their own side, which names the friend they passed through and how far; the engine gives it their hits."""

from republic.games.models import Event
from tests.devices import seated_device
from tests.games.assault_helpers import assault_page, declared, post_round
from tests.games.conftest import HTMX, brigade, fresh, payload, set_state, state_matches_events, summary


def pass_through(client, game, friend, *passers, side="defender"):
    game.refresh_from_db()
    data = {"passage-version": game.version, "passage-side": side, "passage-unit": friend.key}
    data["passage-passers"] = [unit.key for unit, _ in passers]
    for unit, distance in passers:
        data[f"passage-distance-{unit.piece.name}"] = distance
    return client.post(f"/games/{game.pk}/act/passage-of-lines/game-{game.pk}/", data, **HTMX)


def driven_back(client, game, two):
    """Davis 10 against Cutler 2: Cutler loses the table's result and the natural roll, and is driven back."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="10", die2="2")
    return fresh(cutler)


def test_a_loser_that_lost_both_rolls_gives_the_friend_behind_it_its_hits(client, game, two):
    """R:1686-1694: a loser with P hits passing through friends within 3" behind inflicts M for its condition and
    P for its move, read from the table of the rule."""
    cutler = driven_back(client, game, two)
    assert (cutler.forced_move, cutler.condition.value) == ("F", "demoralized")  # veteran: 3P falls back
    shown = assault_page(client, game)
    assert (
        "Union losers pass through friends" in shown
        and ">Cutler&#x27;s Brigade<small>Demoralized, must fall back</small>" in shown
    )
    iron = brigade(game, "Iron Brigade (Meredith)")
    assert pass_through(client, game, iron, (cutler, "2.5")).status_code == 200
    event = Event.objects.filter(game=game, kind="LinesPassedThrough").get()
    p = payload(event)
    # Demoralized: 2M; a fall back: no P
    assert str(p.result.hits_taken) == "2M" and p.inputs.passers[0].lost_both_rolls
    assert fresh(iron).m_hits == 2
    assert summary(event).startswith("Iron Brigade (Meredith), passed through by Cutler's Brigade: 2M, now ")
    assert state_matches_events(game)
    # routing and Demoralized: 2M and 2P, and the friend's panic response
    set_state(game, cutler, forced_move="Rt")
    pass_through(client, game, iron, (fresh(cutler), "3"))
    p = payload(Event.objects.filter(game=game, kind="LinesPassedThrough").last())
    assert (p.result.hits_taken.m, p.result.hits_taken.p) == (2, 2) and p.result.panic_level >= 2
    assert fresh(iron).p_hits_assault == p.result.panic_hits


def test_a_friend_beyond_the_reach_takes_nothing_and_only_the_two_worst_count(client, game, two):
    """R:1686-1689, R:1698-1701: nothing beyond 3" for infantry; two worst results of each kind."""
    cutler = driven_back(client, game, two)
    iron = brigade(game, "Iron Brigade (Meredith)")
    pass_through(client, game, iron, (cutler, "3.5"))
    p = payload(Event.objects.filter(game=game, kind="LinesPassedThrough").get())
    assert not p.result.hits_taken and any('beyond its 3" reach' in note for note in p.result.notes)
    assert fresh(iron).m_hits == 0


def test_only_units_driven_back_this_turn_pass_through_and_only_into_their_own_side(client, game, two):
    cutler = driven_back(client, game, two)
    iron, archer = brigade(game, "Iron Brigade (Meredith)"), brigade(game, "Archer's Brigade")
    not_driven_back = pass_through(client, game, cutler, (iron, "1")).content.decode()
    assert "That loser of this turn&#x27;s assaults is not one to choose here" in not_driven_back
    itself = pass_through(client, game, cutler, (cutler, "1"))
    assert "A loser does not pass through itself." in itself.content.decode()
    other_side = pass_through(client, game, archer, (cutler, "1"))
    assert "That unit of that side is not one to choose here" in other_side.content.decode()
    no_distance = pass_through(client, game, iron, (cutler, ""))
    assert "How far was it?" in no_distance.content.decode()
    assert not Event.objects.filter(game=game, kind="LinesPassedThrough").exists()


def test_the_other_sides_player_may_not_put_the_hits_on(game, two, client):
    cutler = driven_back(client, game, two)
    iron = brigade(game, "Iron Brigade (Meredith)")
    confederate = seated_device(game, "Confederate")
    refused = pass_through(confederate, game, iron, (cutler, "1"))
    assert "the other side" in refused.content.decode()
    assert not Event.objects.filter(game=game, kind="LinesPassedThrough").exists()
    union = seated_device(game, "Union")
    assert pass_through(union, game, iron, (cutler, "1")).status_code == 200
    assert Event.objects.filter(game=game, kind="LinesPassedThrough").exists()


def test_a_loser_that_did_not_lose_both_rolls_gives_no_hits(client, game, two):
    """R:1686-1688: only "lose/lose assault results" pass through with hits: a defender beaten on the table but
    winning the natural roll falls back through its friends without hurting them."""
    davis, cutler = two
    set_state(game, cutler, base_hits_turn=3, p_hits_assault=3, m_hits=3)
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="9", die2="10")  # 9 to 2: defender 1B 3P carry; natural roll lost by Davis
    assert fresh(cutler).forced_move == "F"
    assert (
        ">Cutler&#x27;s Brigade<small>Shaken, must fall back (did not lose both rolls: no pass-through hits)</small>"
        in assault_page(client, game)
    )
    iron = brigade(game, "Iron Brigade (Meredith)")
    pass_through(client, game, iron, (cutler, "1"))
    p = payload(Event.objects.filter(game=game, kind="LinesPassedThrough").get())
    assert not p.inputs.passers[0].lost_both_rolls
    assert not p.result.hits_taken and fresh(iron).m_hits == 0


def test_a_packed_battery_is_not_passed_through_and_the_losers_blocked_move_is_offered(client, game, two):
    """R:842-845: "Batteries posted at packed frontages block all movement through their position": a loser does
    not pass through one to give it hits; its forced move is blocked there (3.3), which its card offers."""
    cutler = driven_back(client, game, two)
    hall = brigade(game, "2nd Maine Light, Battery B (Hall)")
    set_state(game, hall, packed=True)
    refused = pass_through(client, game, hall, (cutler, "1")).content.decode()
    assert "Battery B (Hall) takes no hits: a battery at packed frontage blocks all movement" in refused
    assert "Cutler&#x27;s Brigade&#x27;s move is blocked there: on its card, “Blocked: retreat instead" in refused
    assert not Event.objects.filter(game=game, kind="LinesPassedThrough").exists()
    assert fresh(hall).m_hits == 0
    set_state(game, hall, packed=False)  # at normal frontage it is passed through normally
    assert pass_through(client, game, hall, (cutler, "1")).status_code == 200
    assert Event.objects.filter(game=game, kind="LinesPassedThrough").exists()


def test_a_passage_sent_wrong_is_drawn_in_its_own_sides_form_and_one_naming_no_side_is_refused(client, game, two):
    cutler = driven_back(client, game, two)
    iron = brigade(game, "Iron Brigade (Meredith)")
    response = pass_through(client, game, iron, (cutler, "not a distance"))
    shown = response.content.decode()
    # the error is drawn in the form of the side that sent it (both sides' forms share a prefix)
    form = shown[shown.index("Union losers pass through friends") :]
    assert response.status_code == 200 and "is-invalid" in form and 'value="not a distance"' in form
    response = pass_through(client, game, iron, (cutler, "2"), side="")
    assert "say which side&#x27;s losers passed through" in response.content.decode()
    assert not Event.objects.filter(game=game, kind="LinesPassedThrough").exists()
