"""Artillery hits on the targets (4.5, 4.6): the main target, the tandem and the adjacent target sharing the
hits, packed batteries and skirmish markers, base hits conserved, and bad input."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.rules.codec import decode, encode
from republic.rules.errors import RulesInputError
from republic.rules.fire_results import (
    ArtilleryHitsInput,
    FireTarget,
    TargetKind,
    TargetRole,
    resolve_artillery_hits,
    share_hits,
)
from republic.rules.hits import Hits
from republic.rules.morale import Condition
from republic.rules.troops import Grade

# --- hits on the targets -----------------------------------------------------------------------------


def unit(bases, m_hits=0):
    return FireTarget(TargetKind.UNIT, bases, m_hits)


def by_role(result):
    return {t.role: t for t in result.targets}


def test_a_rattled_unit_taking_3m_1b_is_demoralized_with_one_panic_hit(chart):
    """T9 (R:1275-1278)."""
    result = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=3, b=1), unit(4, m_hits=2)))
    main = by_role(result)[TargetRole.MAIN]
    assert (main.condition, main.panic_hits, main.bases_lost) == (Condition.DEMORALIZED, 1, 1)


def test_a_demoralized_unit_taking_3m_takes_3p(chart):
    """T10 (R:1276-1278)."""
    main = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=3), unit(4, m_hits=4))).targets[0]
    assert main.panic_hits == 3 and main.m_after == 4


def test_a_packed_battery_takes_its_share_doubled(chart):
    """T11 (R:1279-1281)."""
    battery = FireTarget(TargetKind.BATTERY, packed_battery=True)
    main = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=1, b=1), battery)).targets[0]
    assert main.share == Hits(m=1, b=1) and main.taken == Hits(m=2, b=2)
    assert main.damage == 2 and main.bases_lost == 0 and not main.destroyed


@pytest.mark.parametrize(("main_m", "tandem_m"), [(2, 1), (3, 1), (4, 2), (1, 0)])
def test_the_tandem_takes_half_the_main_targets_m_rounded_down(chart, main_m, tandem_m):
    """T12 (R:1255-1258)."""
    result = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=main_m), unit(4), tandem=unit(4)))
    roles = by_role(result)
    assert roles[TargetRole.MAIN].share.m == main_m
    assert roles[TargetRole.TANDEM].share.m == tandem_m


def test_main_destroyed_by_three_b_and_the_tandem_loses_one_base(chart):
    """R:1258-1259: unit A suffers three base hits, is destroyed, and unit C loses one base."""
    result = resolve_artillery_hits(
        chart, ArtilleryHitsInput(Hits(m=4, b=3), unit(2), tandem=unit(3), adjacent=unit(3))
    )
    roles = by_role(result)
    assert roles[TargetRole.MAIN].destroyed and roles[TargetRole.MAIN].bases_lost == 2
    assert roles[TargetRole.TANDEM].bases_lost == 1 and not roles[TargetRole.TANDEM].destroyed
    assert roles[TargetRole.ADJACENT].share == Hits()
    assert roles[TargetRole.TANDEM].share.m == 2


def test_one_base_main_and_tandem_both_go_and_the_adjacent_loses_one(chart):
    """R:1259-1262: A and C of one base each are removed, along with one base from B."""
    result = resolve_artillery_hits(
        chart, ArtilleryHitsInput(Hits(m=4, b=3), unit(1), tandem=unit(1), adjacent=unit(4))
    )
    roles = by_role(result)
    assert roles[TargetRole.MAIN].destroyed and roles[TargetRole.TANDEM].destroyed
    assert roles[TargetRole.ADJACENT].bases_lost == 1
    assert result.unassigned_b == 0


def test_the_adjacent_target_takes_nothing_while_the_main_target_stands(chart):
    result = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=3, b=2), unit(4), adjacent=unit(4)))
    roles = by_role(result)
    assert roles[TargetRole.ADJACENT].share == Hits()
    assert roles[TargetRole.MAIN].share == Hits(m=3, b=2)


def test_the_adjacent_target_takes_the_balance_and_the_m_in_place_of_a_wiped_out_main_target(chart):
    result = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=3, b=3), unit(2), adjacent=unit(4)))
    roles = by_role(result)
    assert roles[TargetRole.MAIN].share == Hits(m=0, b=2)
    assert roles[TargetRole.ADJACENT].share == Hits(m=3, b=1)


def test_a_wiped_out_main_target_with_no_adjacent_keeps_its_m_and_the_extra_b_are_lost(chart):
    """R:1270-1272: panic hits count even if B hits destroy the unit."""
    result = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=2, b=3), unit(1, m_hits=3)))
    main = result.targets[0]
    assert main.destroyed and main.panic_hits == 1 and result.unassigned_b == 2


def test_a_packed_skirmish_marker_passes_m_to_its_parent_and_b_lowers_the_type(chart):
    """R:1241-1248, R:1272-1274."""
    marker = FireTarget(TargetKind.SKIRMISH_MARKER, m_hits=1, skirmisher_type=Grade.VETERAN)
    main = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=1, b=1), marker)).targets[0]
    assert main.m_after == 2 and main.condition is Condition.RATTLED
    assert main.skirmisher_type is Grade.GREEN
    assert main.bases_lost == 0 and not main.destroyed


def test_a_battery_main_target_absorbs_all_the_b_as_damage(chart):
    result = resolve_artillery_hits(
        chart, ArtilleryHitsInput(Hits(b=4), FireTarget(TargetKind.BATTERY), adjacent=unit(3))
    )
    roles = by_role(result)
    assert roles[TargetRole.MAIN].damage == 4 and roles[TargetRole.ADJACENT].share == Hits()


targets = st.builds(
    FireTarget,
    kind=st.sampled_from([TargetKind.UNIT, TargetKind.BATTERY]),
    bases=st.integers(1, 8),
    m_hits=st.integers(0, 4),
)


@given(st.integers(0, 8), st.integers(0, 10), targets, st.none() | targets, st.none() | targets)
def test_base_hits_are_conserved_and_m_never_negative(m, b, main, tandem, adjacent):
    rolled = Hits(m=m, b=b)
    shares, unassigned = share_hits(rolled, main, tandem, adjacent)
    assert sum(share.b for share in shares.values()) + unassigned == b
    assert unassigned >= 0
    assert all(share.m >= 0 and share.b >= 0 for share in shares.values())
    if tandem is not None:
        assert shares[TargetRole.TANDEM].m == m // 2
        assert shares[TargetRole.TANDEM].b >= 0
    given_targets = {TargetRole.MAIN: main, TargetRole.TANDEM: tandem, TargetRole.ADJACENT: adjacent}
    for role, share in shares.items():
        capacity = given_targets[role].capacity
        assert capacity is None or share.b <= capacity
    if unassigned:
        assert all(given_targets[r].capacity is not None and shares[r].b == given_targets[r].capacity for r in shares)


@given(st.integers(0, 8), st.integers(0, 10), targets, st.none() | targets)
def test_the_adjacent_target_is_hit_only_once_main_and_tandem_are_wiped_out(m, b, main, tandem):
    shares, _ = share_hits(Hits(m=m, b=b), main, tandem, FireTarget(TargetKind.UNIT, 8))
    if shares[TargetRole.ADJACENT]:
        wiped = [
            shares[r].b == t.capacity
            for r, t in ((TargetRole.MAIN, main), (TargetRole.TANDEM, tandem))
            if t is not None
        ]
        assert all(wiped)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"rolled": "2M 1P", "main": {}}, "rolled"),
        ({"rolled": "2M", "main": {"bases": 0}}, "main.bases"),
        ({"rolled": "2M", "main": {"m_hits": 5}}, "main.m_hits"),
        ({"rolled": "2M", "main": {"packed_battery": True}}, "main.packed_battery"),
        ({"rolled": "2M", "main": {"kind": "skirmish_marker"}}, "main.skirmisher_type"),
        ({"rolled": "2M", "main": {}, "tandem": {"skirmisher_type": "green"}}, "tandem.skirmisher_type"),
        ({"rolled": 2, "main": {}}, "rolled"),
    ],
)
def test_bad_hits_input_names_the_field(data, field):
    with pytest.raises(RulesInputError) as err:
        decode(ArtilleryHitsInput, data)
    assert err.value.field == field


def test_hits_results_encode_for_the_log(chart):
    inputs = decode(ArtilleryHitsInput, {"rolled": "3M 1B", "main": {"bases": 4, "m_hits": 2}, "tandem": {"bases": 3}})
    data = encode(resolve_artillery_hits(chart, inputs))
    assert data["targets"][0]["panic_hits"] == 1 and data["targets"][1]["share"] == "1M"
    assert data["provisional"] is False


# --- uncovered bases and compound targets (4.3, 4.5) ---------------------------------------------------------


def test_fire_at_the_uncovered_bases_puts_no_b_on_the_bases_still_in_cover(chart):
    """R:1132-1136: two bases out of cover of six take at most 2B; the rest find no target, and the unit, not wiped
    out, passes none to its tandem."""
    covered = FireTarget(TargetKind.UNIT, bases=6, covered=4)
    alone = by_role(resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=1, b=3), covered)))
    assert alone[TargetRole.MAIN].taken == Hits(m=1, b=2)
    with_tandem = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(b=6), covered, tandem=unit(4)))
    roles = by_role(with_tandem)
    assert roles[TargetRole.MAIN].bases_lost == 2 and roles[TargetRole.TANDEM].bases_lost == 2
    assert with_tandem.unassigned_b == 2 and not roles[TargetRole.MAIN].destroyed
    assert any("4 bases in cover take no B" in note for note in with_tandem.notes)


def test_batteries_within_an_inch_fired_at_as_one_share_its_hits_the_odd_one_to_the_main_target(chart):
    """R:1201-1203: one compound target, so the fire does no more than to one battery."""
    main, other = FireTarget(TargetKind.BATTERY), FireTarget(TargetKind.BATTERY, packed_battery=True)
    roles = by_role(resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=3, b=1), main, compound=other)))
    assert roles[TargetRole.MAIN].share == Hits(m=2, b=1) and roles[TargetRole.COMPOUND].share == Hits(m=1)
    assert roles[TargetRole.COMPOUND].taken == Hits(m=2)  # packed: doubled as it takes it (4.6)
    with pytest.raises(RulesInputError) as refused:
        ArtilleryHitsInput(Hits(m=1), unit(4), compound=other)
    assert refused.value.field == "compound"
