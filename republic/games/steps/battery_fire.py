"""One battery's fire at the enemy (4.2-4.6), as the artillery step resolves it and as the move step resolves a
defending battery's passing fire (R:1229-1237): the form the table fills in, and the fire worked out by the engine,
its hits shared over its targets."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms

from republic.games.events.payload import NamedUnit
from republic.games.forms import DiceForm, Pick, PickField, PicksField, die_field, inches_field, offer_picks
from republic.games.models import Game, Unit, UnitChoice
from republic.games.text.terms import inches, signed, unit_options
from republic.rules.artillery import ArtilleryFireInput, ArtilleryFireResult, point_blank_limits, resolve_artillery_fire
from republic.rules.battery_functions import fired_before_hit
from republic.rules.chart import Chart
from republic.rules.errors import RulesInputError
from republic.rules.fire_results import (
    ArtilleryHitsInput,
    ArtilleryHitsResult,
    FireHits,
    FireTarget,
    TargetRole,
    fire_hits,
    resolve_artillery_hits,
)
from republic.rules.hits import Hits
from republic.rules.scale import GroundScale
from republic.rules.troops import Cover

COVER_CHOICES = [(c.value, c.value) for c in Cover]
ROLE_FIELDS = (
    (TargetRole.MAIN, "target"),
    (TargetRole.TANDEM, "tandem"),
    (TargetRole.ADJACENT, "adjacent"),
    (TargetRole.COMPOUND, "compound"),
)
TARGET_FIELDS = tuple(name for _, name in ROLE_FIELDS)


class ArtilleryFireForm(DiceForm):
    joined = PicksField(
        label="Joint battery fire with",
        required=False,
        what="battery of the side",
        help_text="Batteries firing at the same target at the same range (4.2). The group fires as this "
        "battery's type and range: the others downgrade to join.",
    )
    target = PickField(label="Main target", what="enemy unit")
    range = inches_field("Range to the main target (inches)")
    deep_target = forms.BooleanField(
        label='Deep target: three or more combat bases within 4" depth, in the open', required=False
    )
    deep_range = inches_field("At point blank: range to where the fire enters the third base", required=False)
    square = forms.BooleanField(label="The target is infantry in square", required=False)
    moving_cavalry = forms.BooleanField(label="Over half the target is moving cavalry", required=False)
    cover = forms.ChoiceField(label="Half or more of the target in cover", choices=COVER_CHOICES, initial="none")
    uncovered_bases = forms.IntegerField(
        label="Fire at its uncovered bases only: how many are out of cover",
        required=False,
        min_value=1,
        max_value=99,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*", "min": 1}),
        help_text="When the center of fire is closest to them: no cover modifier, and its bases in cover take no B "
        "(4.3).",
    )
    enfilade = forms.BooleanField(label="Enfilade fire", required=False)
    packed_skirmishers = forms.BooleanField(
        label="Firing at the target's packed skirmish markers (under 2\" apart)",
        required=False,
        help_text="M go to the brigade, each B lowers its skirmisher type (4.5).",
    )
    open_order = forms.BooleanField(
        label="At open order",
        required=False,
        help_text="Set for you when the target brigade is in open order; not taken when another target named is not "
        "(4.5).",
    )
    tandem = PickField(
        label="Tandem target (within 3\" of the main target's front, in the open)", required=False, what="enemy unit"
    )
    adjacent = PickField(
        label="Adjacent target (next to the main target, same range bracket)", required=False, what="enemy unit"
    )
    compound = PickField(
        label='Another enemy battery within 1" of the main target battery, fired at with it as one target',
        required=False,
        help_text="The two share the fire's hits, the odd hit to the main target (4.5).",
        what="enemy battery",
    )
    die = die_field()
    printed = forms.CharField(
        label="Or: the result from your printed chart",
        required=False,
        max_length=20,
        help_text="Written as on the chart, like 2M 1B, or - for no effect.",
    )

    def __init__(
        self,
        *args: Any,
        partners: Sequence[Pick] = (),
        targets: Sequence[UnitChoice] = (),
        point_blank: str = "",
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["deep_range"].help_text = point_blank
        offer_picks(self, ["joined"], partners)
        # the enemy's units in play; only a battery is fired at with another as one compound target (4.5)
        picks = list(map(Pick._make, unit_options(targets)))
        offer_picks(self, TARGET_FIELDS[:-1], picks)
        batteries = {t.key for t in targets if t.battery}
        offer_picks(self, ["compound"], [p for p in picks if p.key in batteries])

    @property
    def secondary_sent(self) -> bool:
        """A secondary or compound target was sent, or refused: its fold is drawn open."""
        names = TARGET_FIELDS[1:]
        return self.is_bound and any(self[name].value() or self.errors.get(name) for name in names)

    def clean_printed(self) -> Hits | None:
        text = self.cleaned_data.get("printed", "").strip()
        if not text:
            return None
        try:
            hits = Hits.parse(text)
        except ValueError:
            raise forms.ValidationError("Write the hits as on the chart, like 2M 1B, or - for no effect.") from None
        if hits.p:
            raise forms.ValidationError("Artillery fire scores M and B hits, not P.")
        return hits

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        main, tandem, adjacent = cleaned.get("target"), cleaned.get("tandem"), cleaned.get("adjacent")
        if tandem and tandem == main:
            self.add_error("tandem", "The tandem target is another unit than the main target.")
        if adjacent and adjacent in (main, tandem):
            self.add_error("adjacent", "The adjacent target is another unit than the main and tandem targets.")
        compound = cleaned.get("compound")
        if compound and compound in (main, tandem, adjacent):
            self.add_error("compound", "The compound target is another battery than the other targets.")
        return cleaned


def point_blank(chart: Chart, scale: GroundScale) -> str:
    """What the point blank question asks, in the game's scale (4.3, R:1099-1104)."""
    (near, near_out), (far, far_out) = point_blank_limits(chart, scale)
    return (
        f"Asked only for a deep target at point blank, a range up to {inches(far)}: the three bases count only if "
        f"they line up within the next bracket out, {inches(near_out)} at a range up to {inches(near)}, "
        f"{inches(far_out)} at a range up to {inches(far)} (4.3)."
    )


def from_state(chart: Chart, battery: Unit) -> str:
    """What the app fills in for a firing battery: its own hits on the die, its saved fire's column shift."""
    hits = battery.m_hits + battery.damage
    on_die = hits * chart.entry("artillery_die_modifiers", "battery_hit")[0]
    shift = chart.entry("artillery_column_modifiers", "saved_fire")[0]
    columns = f"{abs(shift)} column{'' if abs(shift) == 1 else 's'} {'left' if shift < 0 else 'right'}"
    return (
        f"From the state: {battery.get_grade_display()}, {battery.m_hits} M, damage {battery.damage}"
        + (f" ({signed(on_die)} on the die)" if hits else "")
        + f"; saved fire {f'used now ({columns})' if battery.saved_fire else 'none'}."
    )


class PassingFireForm(ArtilleryFireForm):
    """Passing fire: a battery fires it alone (see ``republic.rules.artillery``), so it has no joint fire."""

    def __init__(self, *args: Any, targets: Sequence[UnitChoice] = (), **kwargs: Any) -> None:
        super().__init__(*args, targets=targets, **kwargs)
        del self.fields["joined"]


@dataclass(frozen=True)
class Aimed:
    """One fire as the engine worked it out: its targets by role, what it was given, its result, its hits shared."""

    roles: dict[TargetRole, Unit]
    inputs: ArtilleryFireInput
    printed: Hits | None
    result: ArtilleryFireResult
    shared: ArtilleryHitsResult

    @property
    def named(self) -> dict[TargetRole, NamedUnit]:
        return {role: NamedUnit(unit.key, unit.name) for role, unit in self.roles.items()}

    def hits(self, *, at_once: bool = False) -> tuple[FireHits, ...]:
        """The hits that wait for the end of the artillery step (``at_once``: those that land now)."""
        return fire_hits(self.shared, {role: unit.key for role, unit in self.roles.items()}, at_once=at_once)

    def landing(self) -> list[tuple[Unit, FireHits]]:
        """The units the hits that land now go on, with their hits."""
        units = {unit.key: unit for unit in self.roles.values()}
        return [(units[hit.unit], hit) for hit in self.hits(at_once=True)]


def aim(
    game: Game,
    form: ArtilleryFireForm,
    firing: Unit,
    joined: Sequence[Unit],
    enemies: Mapping[str, Unit],
    waiting: Mapping[str, FireHits],
    *,
    passing_fire: bool = False,
) -> Aimed:
    """The fire of ``firing`` (with the batteries ``joined``) at the targets the form names among ``enemies``, the
    units as they stand with the hits ``waiting`` on them this phase, resolved over the table's printed result
    when it gave one."""
    data = form.cleaned_data
    roles = {role: enemies[key] for role, name in ROLE_FIELDS if (key := data.get(name) or "") in enemies}
    target = roles.get(TargetRole.MAIN)
    if target is None:
        raise RulesInputError("target", "Choose one of the enemy's units in play.")
    if TargetRole.COMPOUND in roles and not (target.battery and roles[TargetRole.COMPOUND].battery):
        raise RulesInputError("compound", 'Only two enemy batteries within 1" of each other are one compound target.')
    for role, name in ROLE_FIELDS:
        late = fired_before_hit(roles[role].to_rules()) if role in roles else ""
        if late:
            raise RulesInputError(name, f"{roles[role].name}: {late}.")
    inputs = ArtilleryFireInput.of(
        firing.to_rules(),
        tuple(b.to_rules() for b in joined),
        target.to_rules(),
        range=float(data["range"]),
        roll=form.rolls("die")[0],
        scale=game.scale,
        deep_target=data["deep_target"],
        square=data["square"],
        moving_cavalry=data["moving_cavalry"],
        cover=Cover(data["cover"]),
        enfilade=data["enfilade"],
        packed_skirmishers=data["packed_skirmishers"],
        open_order=data["open_order"],
        passing_fire=passing_fire,
        deep_range=None if data["deep_range"] is None else float(data["deep_range"]),
        uncovered_bases=data["uncovered_bases"],
        secondary=tuple(unit.to_rules() for role, unit in roles.items() if role is not TargetRole.MAIN),
    )
    printed: Hits | None = data.get("printed")
    chart = game.chart.overlay({"artillery": str(printed)}) if printed is not None else game.chart
    result = resolve_artillery_fire(chart, inputs)
    aimed = {
        role: FireTarget.of(
            unit.to_rules(),
            waiting.get(unit.key),
            packed_skirmishers=role is TargetRole.MAIN and data["packed_skirmishers"],
            uncovered=data["uncovered_bases"] if role is TargetRole.MAIN else None,
        )
        for role, unit in roles.items()
    }
    shared = resolve_artillery_hits(
        chart,
        ArtilleryHitsInput(
            result.result,
            aimed[TargetRole.MAIN],
            aimed.get(TargetRole.TANDEM),
            aimed.get(TargetRole.ADJACENT),
            passing_fire=passing_fire,
            compound=aimed.get(TargetRole.COMPOUND),
        ),
    )
    return Aimed(roles, inputs, printed, result, shared)
