"""What one assault round does to the units taking part (5.5): each side's losses or its surrender, the
attackers' break off or breakthrough, and the saved fire the assault uses up.

The round's outcome (``assault.resolve_assault_round``) says what each side takes; here it lands on the
units as they stand, in the rules' order: each side's losses (or its surrender) first, then the attackers'
break off, which finds them in the condition their losses left them in.

Readings chosen for the table:
- Attackers that must break through use their assault bonus move (5.5), unless the round already forced
  them back.
- A break off gives each attacking brigade its 1M unless the attackers are stalled, with no movement left
  to break off (5.5 Stalled Assaults).
- An assault uses up the saved fire of every battery in it (4.2).
"""

from dataclasses import dataclass, replace

from republic.rules.assault import AssaultRoundResult
from republic.rules.assault_fixed_hits import NO_HITS, BreakOffInput, UnitHitsResult, after_hits, resolve_break_off
from republic.rules.assault_results import (
    AssaultLossesInput,
    AssaultLossesResult,
    UnitLoss,
    UnitTakingHits,
    resolve_assault_losses,
)
from republic.rules.assault_sides import Contact
from republic.rules.assault_table import OutcomeAction, Struck
from republic.rules.chart import Chart
from republic.rules.hits import Hits
from republic.rules.scale import GroundScale
from republic.rules.troops import UnitKind
from republic.rules.units import UnitState, after_move, after_p4_event, after_surrender, gone_in_assault, with_morale


@dataclass(frozen=True)
class RoundUnit:
    """A unit taking part in the round, as it stands, with what only the table knows of it."""

    unit: UnitState
    contact: Contact
    retreat_blocked: bool = False
    out_of_town: bool = False
    across_bridge_or_ford: bool = False
    taken_elsewhere: Hits = NO_HITS  # a bridging formation's hits in its other assault's round (5.2)


@dataclass(frozen=True)
class BrokeOff:
    unit: str
    result: UnitHitsResult


@dataclass(frozen=True)
class RoundOnUnits:
    """Each side's losses (None when it took no hits), the units that surrendered, the attackers that broke
    off or must break through, and the batteries whose saved fire the assault used up. The reasons are in
    the side's losses and each break off."""

    attacker: AssaultLossesResult | None
    defender: AssaultLossesResult | None
    surrendered: tuple[str, ...]
    surrendered_bases: tuple[int, ...]  # the bases each surrendering unit gave up
    broke_off: tuple[BrokeOff, ...]
    break_through: tuple[str, ...]
    saved_fire_used: tuple[str, ...]

    def loss(self, unit: str) -> UnitLoss | None:
        losses = [*(self.attacker.units if self.attacker else ()), *(self.defender.units if self.defender else ())]
        return next((loss for loss in losses if loss.id == unit), None)


def resolve_round_on_units(
    chart: Chart,
    round_: AssaultRoundResult,
    attackers: tuple[RoundUnit, ...],
    defenders: tuple[RoundUnit, ...],
    *,
    struck: Struck = Struck.FRONT,
    stalled: bool = False,
    scale: GroundScale = GroundScale.MEDIUM,
) -> RoundOnUnits:
    surrendering = round_.outcome.action is OutcomeAction.SURRENDER
    losses: dict[str, AssaultLossesResult] = {}
    surrendered: list[UnitState] = []
    for name, members in (("attacker", attackers), ("defender", defenders)):
        side = getattr(round_, name)
        if surrendering and round_.outcome.to.value == name:
            surrendered.extend(m.unit for m in members)
            continue
        if not side.hits:
            continue
        units = tuple(
            UnitTakingHits.of(
                m.unit,
                m.contact,
                natural_m=side.natural_m_by_unit[i],
                retreat_blocked=m.retreat_blocked,
                out_of_town=m.out_of_town,
                across_bridge_or_ford=m.across_bridge_or_ford,
                away_from_rear_assault=name == "defender" and struck is Struck.REAR,
                taken_elsewhere=m.taken_elsewhere,
            )
            for i, m in enumerate(members)
        )
        losses[name] = resolve_assault_losses(
            chart, AssaultLossesInput(units, side.table_hits, side.natural_m, side.all_out_extra_m, scale)
        )
    partial = RoundOnUnits(
        losses.get("attacker"),
        losses.get("defender"),
        tuple(u.id for u in surrendered),
        tuple(u.bases for u in surrendered),
        (),
        (),
        (),
    )
    broke_off, break_through = [], []
    action = round_.outcome.action
    for member in attackers:
        unit = _after_losses(member.unit, partial)
        if unit.battery or not unit.in_play:
            continue
        if action is OutcomeAction.BREAK_OFF and not stalled:
            broke_off.append(
                BrokeOff(
                    unit.id, resolve_break_off(chart, BreakOffInput(unit.grade, unit.m_hits, unit.kind.horse, scale))
                )
            )
        elif _breaks_through(action, unit) and not _forced_back(partial.loss(unit.id)):
            break_through.append(unit.id)
    return replace(
        partial,
        broke_off=tuple(broke_off),
        break_through=tuple(break_through),
        saved_fire_used=tuple(m.unit.id for m in (*attackers, *defenders) if m.unit.battery),
    )


def _breaks_through(action: OutcomeAction, unit: UnitState) -> bool:
    """Must break through: on that result, and beside mounted cavalry that overruns (5.5)."""
    overrun = action is OutcomeAction.OVERRUN and unit.kind is not UnitKind.CAVALRY_MOUNTED
    return action is OutcomeAction.MUST_BREAKTHROUGH or overrun


def _forced_back(loss: UnitLoss | None) -> bool:
    return loss is not None and loss.move is not None


def _after_losses(unit: UnitState, result: RoundOnUnits) -> UnitState:
    if unit.id in result.surrendered:
        taken = after_surrender(unit)
        return after_p4_event(taken) if gone_in_assault(unit, True) else taken
    loss = result.loss(unit.id)
    return unit if loss is None else after_assault_loss(unit, loss)


def after_round(unit: UnitState, result: RoundOnUnits) -> UnitState:
    """A unit taking part, after the round."""
    after = _after_losses(unit, result)
    broke = next((b.result for b in result.broke_off if b.unit == unit.id), None)
    if broke is not None:
        after = after_hits(after, broke)
    if unit.id in result.break_through:
        after = replace(after, charge_bonus_used=True)
    if unit.id in result.saved_fire_used:
        after = replace(after, saved_fire=False)
    return after


def after_assault_loss(unit: UnitState, loss: UnitLoss) -> UnitState:
    """A unit after its side's losses of one round: its bases, morale, P hits of the phase, forced move and
    any Panic 4 event; a battery's damage and limbers, a brigade destroyed or taken."""
    lost = loss.bases_before - loss.bases_after
    after = replace(
        with_morale(unit, loss.m_after),
        p_hits_turn=unit.p_hits_turn + loss.phase_panic_hits - unit.p_hits_assault,
        p_hits_assault=loss.phase_panic_hits,
        bases=loss.bases_after,
        base_hits_turn=unit.base_hits_turn + lost,
    )
    if loss.p4_event or gone_in_assault(unit, loss.destroyed or loss.surrendered):
        after = after_p4_event(after)
    after = after_move(after, loss.move)
    if unit.battery:
        return replace(
            after,
            damage=loss.damage_after,
            limbered=loss.limbered_after,
            abandoned=after.abandoned or loss.abandoned or loss.surrendered,
        )
    return replace(after, destroyed=loss.destroyed, surrendered=loss.surrendered)
