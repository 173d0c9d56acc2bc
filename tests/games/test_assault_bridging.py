"""A bridging formation at the table (5.2, R:1448-1477): the attacker may split a unit facing two defending groups
between two assaults; it gives its bases in each, and a round's hits on it are not cumulative."""

from republic.games.models import Event
from tests.games.assault_helpers import declare, declared, post_round
from tests.games.conftest import brigade, fresh, payload, state_matches_events


def test_only_the_attacker_splits_a_unit_and_into_two_assaults_at_most(client, game, two):
    """R:1455-1460: the attacker may split a bridging unit; "the defender for the turn may not"."""
    davis, cutler = two
    archer, iron = brigade(game, "Archer's Brigade"), brigade(game, "Iron Brigade (Meredith)")
    declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    unsplit = declare(client, game, [(davis, "general")], [(iron, "all_out")]).content.decode()
    assert "unless the attacker splits a bridging formation (5.2)" in unsplit
    defender = declare(client, game, [(archer, "all_out")], [(cutler, "general")], bridging="on").content.decode()
    assert "Cutler&#x27;s Brigade is already in open assault 1" in defender
    assert Event.objects.filter(game=game, kind="AssaultDeclared").count() == 1
    declared(client, game, [(davis, "general")], [(iron, "all_out")], bridging="on")
    third = declare(client, game, [(davis, "general")], [(brigade(game, "Gamble's Brigade"), "all_out")], bridging="on")
    assert "Davis&#x27;s Brigade already split between two assaults (5.2)" in third.content.decode()
    assert Event.objects.filter(game=game, kind="AssaultDeclared").count() == 2


def test_a_split_unit_takes_the_worst_of_each_type_of_its_two_assaults_rounds(client, game, two):
    """R:1465-1471: "Only the worst single cases per assault round will apply, although the worst cases for each
    type ... may originate from different assaults"; and R:1451-1453: its bases split between the two."""
    davis, cutler = two
    iron = brigade(game, "Iron Brigade (Meredith)")
    first = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    second = declared(client, game, [(davis, "general")], [(iron, "all_out")], bridging="on")
    bases = f"bases-{davis.piece.name}"
    missing = post_round(client, game, first, die="1", die2="10").content.decode()
    assert "Davis&#x27;s Brigade is split between two assaults: give its bases in this one (5.2)." in missing
    post_round(client, game, first, die="1", die2="10", **{bases: "5"})
    one = payload(Event.objects.filter(game=game, kind="AssaultRoundResolved").last())
    assert one.inputs.attacker.units[0].bases == 5  # of Davis's 8
    taken = one.on_units.loss(davis.key)
    assert taken is not None and taken.m_taken > 0
    after_first = fresh(davis)
    post_round(client, game, second, die="1", die2="10", **{bases: "3"})
    two_ = payload(Event.objects.filter(game=game, kind="AssaultRoundResolved").last())
    again = two_.on_units.loss(davis.key)
    assert again is not None
    assert two_.inputs.attacker.units[0].bases == 3
    # 3M 1B 3P in the first, 3M 1B 4P in the second: of the second it takes only the 1P more, and answers to
    # the round's worst, 4P: it routs where the first made it retreat
    assert (str(one.result.outcome), str(two_.result.outcome)) == ("attacker 1B 3P", "attacker 1B 4P")
    assert "3M 1B 3P in its other assault, 3M 1B 4P here; it takes the worst of each type, 3M 1B 4P, so 1P more" in (
        " ".join(again.notes)
    )
    assert (again.m_taken, again.base_hits, again.panic_hits, again.panic_level) == (0, 0, 1, 4)
    davis = fresh(davis)
    assert (davis.m_hits, davis.forced_move) == (after_first.m_hits, "Rt")
    assert davis.p_hits_assault == 4
    assert state_matches_events(game)
