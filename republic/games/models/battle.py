"""A game's state: thin records that the engine's values are read from and written back to.

The current state lives in these rows so screens can query it directly; every change to them is made
through an Event (see ledger.py), so the state always equals the setup plus the events. ``Unit.to_rules``
is the one place a row becomes an engine value."""

import secrets
from functools import cached_property
from typing import Any, NamedTuple

from django.db import models

from republic.games.models.charts import loaded
from republic.games.pieces import Piece
from republic.prepared import prepared
from republic.rules.chart import Chart
from republic.rules.forced_moves import ForcedMove
from republic.rules.morale import MAX_M_HITS, Condition, condition_for
from republic.rules.scale import GroundScale
from republic.rules.sequence import Actor, StepKey, step_for
from republic.rules.troops import BatteryFunction, BatteryType, Formation, Grade, LeaderClass, UnitKind
from republic.rules.troops import Leader as LeaderValue
from republic.rules.units import UnitState

ADVANCED_RULES = {"101": "Cavalry Skirmishers", "102": "Grand Tactical Inexperience"}
"""The advanced rules known to the app, by number; a game lists those its players use (the app applies
none of them yet: the table plays them by hand)."""

BATTERY_LABELS = {
    BatteryType.H_RIFLE: "Heavy Rifle",
    BatteryType.M_RIFLE: "Medium Rifle",
    BatteryType.M_SB: "Medium Smoothbore",
    BatteryType.L_SB: "Light Smoothbore",
}


def stored_label(value: str) -> str:
    """A stored word as a player reads it: 'two_line' is 'two line'."""
    return value.replace("_", " ")


def battery_type_label(value: str) -> str:
    return BATTERY_LABELS[BatteryType(value)] if value else ""


def _choices(enum: Any) -> list[tuple[str, str]]:
    return [(m.value, stored_label(m.value)) for m in enum]


def new_join_code() -> str:
    """A game's join code: what its join link and QR code carry, hard to guess, short enough to type."""
    return secrets.token_urlsafe(9)


class Game(models.Model):
    class Status(models.TextChoices):
        SETTING_UP = "setting_up", "setting up"
        IN_PROGRESS = "in_progress", "in progress"
        FINISHED = "finished", "finished"

    name = models.CharField(max_length=120)
    scenario = models.CharField(max_length=200)
    demo = models.BooleanField(default=False)
    chart_version = models.CharField(max_length=80, help_text="a shipped chart's file name or a club chart's version")
    chart_name = models.CharField(max_length=120, blank=True)
    chart_checksum = models.CharField(max_length=64, blank=True, help_text="sha256 of the chart's text")
    ground_scale = models.CharField(max_length=10, choices=_choices(GroundScale), default=GroundScale.MEDIUM.value)
    game_turn = models.PositiveIntegerField(default=1)
    player_turn = models.PositiveSmallIntegerField(default=1)
    step = models.CharField(max_length=40, choices=_choices(StepKey), default=StepKey.MESSAGES.value)
    first_attacker = models.ForeignKey("Side", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    advanced_rules = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SETTING_UP)
    # the result the game master gave when he ended the game: no winner is a draw
    winner = models.ForeignKey("Side", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    result_note = models.CharField(max_length=200, blank=True, help_text="what decided the game, in a few words")
    version = models.PositiveIntegerField(default=0, help_text="sequence number of the latest event")
    join_code = models.CharField(max_length=24, unique=True, default=new_join_code)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    loaded_at = models.DateTimeField(null=True, blank=True, help_text="when it was made from a saved game's file")
    last_turn = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        default=None,
        help_text="the last game turn the day holds (the scenario's, 40 minutes a turn, 1.1)",
    )
    day_ends = models.DateTimeField(null=True, blank=True, default=None, help_text="when the club's day of play ends")

    class Meta:
        ordering = ["-updated"]

    def __str__(self) -> str:
        return self.name

    @property
    def piece(self) -> Piece:
        return Piece("game", self.pk)

    @property
    def advanced_rule_names(self) -> list[str]:
        return [f"{number} {ADVANCED_RULES.get(str(number), '')}".strip() for number in self.advanced_rules]

    @property
    def chart(self) -> Chart:
        return loaded(self.chart_checksum, self.chart_version)[0]

    @property
    def scale(self) -> GroundScale:
        return GroundScale(self.ground_scale)

    @property
    def step_key(self) -> StepKey:
        return StepKey(self.step)

    @property
    def in_progress(self) -> bool:
        return self.status == Game.Status.IN_PROGRESS

    @property
    def over(self) -> bool:
        return self.status == Game.Status.FINISHED

    @cached_property
    def _sides(self) -> list["Side"]:
        if "sides" in getattr(self, "_prefetched_objects_cache", ()):  # a list of games reads them all at once
            return list(self.sides.all())
        sides = _SIDES(self.pk)
        for side in sides:
            side.game = self
        return sides

    @property
    def attacker(self) -> "Side | None":
        """The side attacking this player turn: the first attacker in player turn 1, the other in turn 2."""
        if self.first_attacker_id is None:
            return None
        first = [s for s in self._sides if s.pk == self.first_attacker_id]
        others = [s for s in self._sides if s.pk != self.first_attacker_id]
        attacking = first if self.player_turn == 1 else others
        return attacking[0] if attacking else None

    @property
    def defender(self) -> "Side | None":
        attacker = self.attacker
        return None if attacker is None else next((s for s in self._sides if s.pk != attacker.pk), None)

    @property
    def acting_side(self) -> "Side | None":
        """The side the rules give the step the game is at (1.7); None when both sides act in it."""
        actor = step_for(self.step_key).actor
        return {Actor.ATTACKER: self.attacker, Actor.DEFENDER: self.defender}.get(actor)


class Side(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sides")
    name = models.CharField(max_length=60)
    players = models.CharField(max_length=300, blank=True)
    order = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["order"]
        constraints = [models.UniqueConstraint(fields=["game", "name"], name="unique_side_name")]

    def __str__(self) -> str:
        return self.name


# a game's sides, read by most requests (who attacks, who defends): their SQL is made once per process
_SIDES = prepared(lambda game: Side.objects.filter(game=game))


class Command(models.Model):
    """An army, corps or division: one level of the chain of command, with its leader."""

    class Level(models.TextChoices):
        ARMY = "army"
        CORPS = "corps"
        DIVISION = "division"

    class Orders(models.TextChoices):
        ATTACK = "attack"
        DEFEND = "defend"
        HOLD = "hold"
        MANEUVER = "maneuver"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="commands")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="commands")
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="children")
    level = models.CharField(max_length=10, choices=Level.choices)
    name = models.CharField(max_length=120)
    order = models.PositiveIntegerField(default=0)
    # division state (6.1)
    orders = models.CharField(max_length=10, choices=Orders.choices, default=Orders.DEFEND)
    panicked = models.BooleanField(default=False, help_text="panicked in this panic phase")

    class Meta:
        ordering = ["order"]

    def __str__(self) -> str:
        return self.name

    @property
    def piece(self) -> Piece:
        return Piece("command", self.pk)

    @property
    def leader(self) -> "Leader | None":
        return next((leader for leader in self.leaders.all() if not leader.removed), None)

    @property
    def p4_event(self) -> bool:
        """A unit of the division had a Panic 4 event this player turn: it tests for internal panic (6.2)."""
        return any(unit.p4_event for unit in self.units.all())

    def chain(self) -> list["Command"]:
        """This command and those above it, nearest first."""
        found: list[Command] = []
        node: Command | None = self
        while node is not None:
            found.append(node)
            node = node.parent
        return found


class LeaderQuerySet(models.QuerySet["Leader"]):
    def of_side(self, side: "Side | int | None") -> "LeaderQuerySet":
        return self.filter(command__side=side) if side is not None else self.none()

    def in_action(self) -> "LeaderQuerySet":
        """Neither hors de combat nor replaced."""
        return self.filter(removed=False, hors_de_combat=False)

    def energetic_or_proficient(self) -> "LeaderQuerySet":
        """The leaders whose class adds to a maneuver roll or an assault within 2" (cautious ones add nothing)."""
        return (
            self.filter(leader_class__in=[LeaderClass.ENERGETIC, LeaderClass.PROFICIENT])
            .select_related("command")
            .order_by("command__order", "pk")
        )


class Leader(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="leaders")
    command = models.ForeignKey(Command, on_delete=models.CASCADE, related_name="leaders")
    name = models.CharField(max_length=120)
    leader_class = models.CharField(max_length=1, choices=[(c.value, c.name.lower()) for c in LeaderClass])
    rating = models.SmallIntegerField()
    hors_de_combat = models.BooleanField(default=False)
    replaced_this_turn = models.BooleanField(default=False)
    removed = models.BooleanField(default=False, help_text="out of play: replaced by the next in the chain")

    objects = LeaderQuerySet.as_manager()

    def __str__(self) -> str:
        return f"{self.name} ({self.value})"

    @property
    def piece(self) -> Piece:
        return Piece("leader", self.pk)

    @property
    def value(self) -> LeaderValue:
        return LeaderValue(LeaderClass(self.leader_class), self.rating)

    @property
    def in_action(self) -> bool:
        return not self.removed and not self.hors_de_combat

    @property
    def adds(self) -> bool:
        """Whether the leader's class adds to a maneuver roll or an assault within 2" (cautious ones add nothing)."""
        return self.leader_class in (LeaderClass.ENERGETIC, LeaderClass.PROFICIENT)


IN_PLAY = models.Q(destroyed=False, surrendered=False, abandoned=False)
"""A unit not destroyed, taken or abandoned, as a query says it (UnitState.out_of_play, the other way round)."""


class UnitQuerySet(models.QuerySet["Unit"]):
    def in_play(self) -> "UnitQuerySet":
        """Not destroyed, taken or abandoned."""
        return self.filter(IN_PLAY)

    def of_side(self, side: "Side | int | None") -> "UnitQuerySet":
        return self.filter(division__side=side) if side is not None else self.none()

    def brigades(self) -> "UnitQuerySet":
        return self.exclude(kind=UnitKind.ARTILLERY)

    def batteries(self) -> "UnitQuerySet":
        return self.filter(kind=UnitKind.ARTILLERY)

    def may_fire(self) -> "UnitQuerySet":
        """Batteries that may fire now: not abandoned, limbered or silenced (demoralized, 2.3), and not fired yet
        this player turn (4.2)."""
        return self.batteries().filter(abandoned=False, limbered=False, fired_this_turn=False, m_hits__lt=MAX_M_HITS)

    def choices(self) -> list["UnitChoice"]:
        """The units as a list to choose from shows them: a few columns each, not a row of the model (a battery
        chooses its target among 200)."""
        return list(map(UnitChoice._make, self.values_list(*CHOICE_COLUMNS)))

    def in_battle_order(self) -> "UnitQuerySet":
        """Brigades before batteries, division by division, as an order of battle lists them."""
        battery = models.Case(models.When(kind=UnitKind.ARTILLERY, then=1), default=0)
        return self.select_related("division").order_by(battery, "division__order", "order")


CHOICE_COLUMNS = ("pk", "name", "division__name", "kind", "battery_type", "packed", "bases", "formation", "m_hits")


class UnitChoice(NamedTuple):
    """A unit among those to choose from: its name, division and what a player sees of how it stands. A tuple:
    a club battle's list to choose from makes a thousand of them."""

    pk: int
    name: str
    division_name: str
    kind: str
    battery_type: str
    packed: bool
    bases: int
    formation: str
    m_hits: int

    @property
    def piece(self) -> Piece:
        return Piece("unit", self.pk)

    @property
    def key(self) -> str:
        return self.piece.key

    @property
    def battery(self) -> bool:
        return self.kind == UnitKind.ARTILLERY

    @property
    def battery_label(self) -> str:
        return battery_type_label(self.battery_type)


class Unit(models.Model):
    """A brigade or a battery (kind artillery): its place in a division, and the state the engine reads."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="units")
    division = models.ForeignKey(Command, on_delete=models.CASCADE, related_name="units")
    name = models.CharField(max_length=120)
    order = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=30, choices=_choices(UnitKind), default=UnitKind.INFANTRY.value)
    grade = models.CharField(max_length=10, choices=_choices(Grade), default=Grade.AVERAGE.value)
    bases_start = models.PositiveSmallIntegerField(default=1)
    bases = models.PositiveSmallIntegerField(default=1)
    m_hits = models.PositiveSmallIntegerField(default=0)
    p_hits_turn = models.PositiveSmallIntegerField(default=0, help_text="P hits this player turn")
    p_hits_assault = models.PositiveSmallIntegerField(default=0, help_text="P hits this player turn's assault phase")
    base_hits_turn = models.PositiveSmallIntegerField(default=0, help_text="bases lost this player turn")
    p4_event = models.BooleanField(default=False, help_text="Panic 4 event this player turn")
    forced_move = models.CharField(
        max_length=2,
        blank=True,
        choices=[(m.value, m.title) for m in ForcedMove],
        help_text="the longest forced move made this player turn",
    )
    # brigades
    formation = models.CharField(max_length=20, choices=_choices(Formation), default=Formation.TWO_LINE.value)
    skirmishers_available = models.PositiveSmallIntegerField(default=0)
    skirmishers_deployed = models.PositiveSmallIntegerField(default=0)
    skirmisher_grade = models.CharField(max_length=10, choices=_choices(Grade), blank=True)
    repeaters = models.BooleanField(default=False)
    charge_bonus_used = models.BooleanField(default=False)
    destroyed = models.BooleanField(default=False)
    surrendered = models.BooleanField(default=False)
    # batteries
    battery_type = models.CharField(
        max_length=10, blank=True, choices=[(b.value, BATTERY_LABELS[b]) for b in BatteryType]
    )
    horse = models.BooleanField(default=False)
    damage = models.PositiveSmallIntegerField(default=0)
    limbered = models.BooleanField(default=False)
    packed = models.BooleanField(default=False)
    saved_fire = models.BooleanField(default=False)
    fired_this_turn = models.BooleanField(default=False)
    functions_used = models.JSONField(default=list, blank=True)
    abandoned = models.BooleanField(default=False)

    objects = UnitQuerySet.as_manager()

    class Meta:
        ordering = ["order"]
        indexes = [models.Index(fields=["game", "division"])]

    def __str__(self) -> str:
        return self.name

    @property
    def piece(self) -> Piece:
        return Piece("unit", self.pk)

    @property
    def key(self) -> str:
        """How events and the engine name the unit: 'unit:12'."""
        return self.piece.key

    @property
    def battery(self) -> bool:
        return self.kind == UnitKind.ARTILLERY

    # what get_FIELD_display says, read at once: a step lists 200 rows, and Django's lookup through the choices
    # costs more than the rest of a row
    @property
    def grade_label(self) -> str:
        return stored_label(self.grade)

    @property
    def formation_label(self) -> str:
        return stored_label(self.formation)

    @property
    def battery_label(self) -> str:
        return battery_type_label(self.battery_type)

    @property
    def condition(self) -> Condition:
        return condition_for(self.m_hits)

    @property
    def out_of_play(self) -> bool:
        return self.destroyed or self.surrendered or self.abandoned

    @property
    def side_id(self) -> int:
        return self.division.side_id

    @property
    def retreated(self) -> bool:
        """It retreated or routed this player turn."""
        return self.forced_move in (ForcedMove.RETREAT, ForcedMove.ROUT)

    def to_rules(self) -> UnitState:
        """The unit as the engine knows it."""
        return UnitState(
            id=self.key,
            kind=UnitKind(self.kind),
            grade=Grade(self.grade),
            bases=self.bases,
            bases_start=self.bases_start,
            m_hits=self.m_hits,
            p_hits_turn=self.p_hits_turn,
            p_hits_assault=self.p_hits_assault,
            base_hits_turn=self.base_hits_turn,
            p4_event=self.p4_event,
            forced_move=ForcedMove(self.forced_move) if self.forced_move else None,
            formation=Formation(self.formation),
            skirmishers_available=self.skirmishers_available,
            skirmishers_deployed=self.skirmishers_deployed,
            skirmisher_grade=Grade(self.skirmisher_grade) if self.skirmisher_grade else None,
            repeaters=self.repeaters,
            charge_bonus_used=self.charge_bonus_used,
            destroyed=self.destroyed,
            surrendered=self.surrendered,
            battery_type=BatteryType(self.battery_type) if self.battery_type else None,
            horse=self.horse,
            damage=self.damage,
            limbered=self.limbered,
            packed=self.packed,
            saved_fire=self.saved_fire,
            fired_this_turn=self.fired_this_turn,
            functions_used=tuple(BatteryFunction(f) for f in self.functions_used),
            abandoned=self.abandoned,
        )
