"""Assaults for the tests of the game's decisions: units as they may stand when they meet, and a round the
table gives over them."""

from hypothesis import strategies as st

from republic.play.assault import Round, Taking
from republic.rules.assault_sides import Contact
from republic.rules.assault_table import Struck
from republic.rules.dice import d10
from republic.rules.morale import MAX_M_HITS
from republic.rules.troops import BatteryType, Cover, Formation, Grade, UnitKind
from republic.rules.units import UnitState

BRIGADE_KINDS = [k for k in UnitKind if k is not UnitKind.ARTILLERY]


@st.composite
def brigades(draw, id: str) -> UnitState:
    bases_start = draw(st.integers(1, 8))
    bases = draw(st.integers(1, bases_start))
    panic = draw(st.integers(0, 4))
    return UnitState(
        id,
        draw(st.sampled_from(BRIGADE_KINDS)),
        draw(st.sampled_from(list(Grade))),
        bases,
        bases_start,
        m_hits=draw(st.integers(0, MAX_M_HITS)),
        p_hits_assault=panic,
        p_hits_turn=panic + draw(st.integers(0, 2)),
        base_hits_turn=draw(st.integers(0, bases_start - bases)),
        formation=draw(st.sampled_from([Formation.TWO_LINE, Formation.SINGLE_LINE, Formation.BRIGADE_COLUMN])),
    )


@st.composite
def batteries(draw, id: str) -> UnitState:
    return UnitState(
        id,
        UnitKind.ARTILLERY,
        draw(st.sampled_from(list(Grade))),
        1,
        1,
        m_hits=draw(st.integers(0, MAX_M_HITS)),
        battery_type=draw(st.sampled_from(list(BatteryType))),
        damage=draw(st.integers(0, 2)),
        saved_fire=draw(st.booleans()),
        fired_this_turn=draw(st.booleans()),
    )


@st.composite
def taking(draw, unit: UnitState) -> Taking:
    return Taking(
        unit,
        draw(st.sampled_from(list(Contact))),
        draw(st.sampled_from(list(Cover))),
        fresh=unit.battery and not unit.fired_this_turn,
        retreat_blocked=draw(st.booleans()),
        out_of_town=draw(st.booleans()),
        across_water=draw(st.booleans()),
    )


@st.composite
def sides(draw, name: str) -> tuple[UnitState, ...]:
    """A side's units: the attackers brigades, the defenders brigades with perhaps a battery."""
    units = [draw(brigades(f"{name}{i}")) for i in range(draw(st.integers(1, 3)))]
    if name == "d" and draw(st.booleans()):
        units.append(draw(batteries(f"{name}-bty")))
    return tuple(units)


@st.composite
def rounds(draw, attackers: tuple[UnitState, ...], defenders: tuple[UnitState, ...]) -> Round:
    """The table's answers for a round over these units as they stand."""
    return Round(
        tuple(draw(taking(u)) for u in attackers),
        tuple(draw(taking(u)) for u in defenders),
        d10(draw(st.integers(1, 10))),
        d10(draw(st.integers(1, 10))),
        struck=draw(st.sampled_from(list(Struck))),
        attacker_leaders=draw(st.integers(0, 2)),
        defender_leaders=draw(st.integers(0, 2)),
        stalled=draw(st.booleans()),
    )


def first_round(attackers: tuple[UnitState, ...], defenders: tuple[UnitState, ...], a: int, d: int) -> Round:
    return Round(
        tuple(Taking(u, Contact.ALL_OUT) for u in attackers),
        tuple(Taking(u, Contact.GENERAL) for u in defenders),
        d10(a),
        d10(d),
    )
