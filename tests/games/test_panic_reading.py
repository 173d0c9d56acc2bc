"""The division panic reads every unit of the battle as a test sees it (``division_panic._as_tested``), as plain
columns: each unit as the rules make it from the unit itself, whatever its state."""

from republic.games.models import Unit
from republic.games.steps.division_panic import _as_tested
from republic.rules.division_panic import DivisionUnit
from tests.games.conftest import brigade, set_state


def test_every_unit_is_read_as_the_rules_make_it_from_the_unit(demo):
    set_state(demo, brigade(demo, "Davis's Brigade"), m_hits=3, forced_move="Re", p4_event=True)
    set_state(demo, brigade(demo, "Archer's Brigade"), destroyed=True, m_hits=2)
    set_state(demo, brigade(demo, "Iron Brigade (Meredith)"), bases=2, m_hits=1)
    units, internal = _as_tested(demo)
    expected: dict[str, list[DivisionUnit]] = {}
    for unit in sorted(Unit.objects.filter(game=demo), key=lambda u: (u.battery, u.order, u.pk)):
        expected.setdefault(str(unit.division_id), []).append(DivisionUnit.of(unit.to_rules()))
    assert units == {division: tuple(members) for division, members in expected.items()}
    davis, archer = brigade(demo, "Davis's Brigade"), brigade(demo, "Archer's Brigade")
    assert internal == {str(davis.division_id)}
    tested = {unit.id: unit for members in units.values() for unit in members}
    assert tested[davis.key].already_moved is not None and tested[davis.key].condition.value != "formed"
    assert tested[archer.key].bases == 0 and not tested[archer.key].present
