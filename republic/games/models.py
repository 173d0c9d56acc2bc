"""A game's state: thin records that the engine's values are read from and written back to.

The current state lives in these rows so screens can query it directly; every change to them is made
through an Event (see ledger.py), so the state always equals the setup plus the events.
"""

from django.db import models

from republic.charts import shipped_chart
from republic.rules.forced_moves import ForcedMove
from republic.rules.morale import condition_for
from republic.rules.scale import GroundScale
from republic.rules.sequence import StepKey
from republic.rules.troops import BatteryType, Formation, Grade, LeaderClass, UnitKind
from republic.rules.troops import Leader as LeaderValue

ADVANCED_RULES = {
    "101": "Cavalry Skirmishers",
    "102": "Grand Tactical Inexperience",
}
"""The advanced rules known to the app, by number; a game lists those its players use (the app applies
none of them yet: the table plays them by hand)."""

BATTERY_LABELS = {BatteryType.H_RIFLE: "H Rifle", BatteryType.M_RIFLE: "M Rifle", BatteryType.M_SB: "M Sb",
                  BatteryType.L_SB: "L Sb"}


def _choices(enum) -> list[tuple[str, str]]:
    return [(m.value, m.value.replace("_", " ")) for m in enum]


class Game(models.Model):
    class Status(models.TextChoices):
        SETTING_UP = "setting_up", "setting up"
        IN_PROGRESS = "in_progress", "in progress"
        FINISHED = "finished", "finished"

    name = models.CharField(max_length=120)
    scenario = models.CharField(max_length=200)
    demo = models.BooleanField(default=False)
    chart_version = models.CharField(max_length=80)
    ground_scale = models.CharField(max_length=10, choices=_choices(GroundScale), default=GroundScale.MEDIUM.value)
    game_turn = models.PositiveIntegerField(default=1)
    player_turn = models.PositiveSmallIntegerField(default=1)
    step = models.CharField(max_length=40, choices=_choices(StepKey), default=StepKey.MESSAGES.value)
    first_attacker = models.ForeignKey("Side", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    advanced_rules = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SETTING_UP)
    setup = models.JSONField(default=dict, blank=True, help_text="the state as imported, before any event")
    version = models.PositiveIntegerField(default=0, help_text="sequence number of the latest event")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated"]

    def __str__(self) -> str:
        return self.name

    @property
    def advanced_rule_names(self) -> list[str]:
        return [f"{number} {ADVANCED_RULES.get(str(number), '')}".strip() for number in self.advanced_rules]

    @property
    def chart(self):
        return shipped_chart(self.chart_version)

    @property
    def attacker(self) -> "Side | None":
        if self.first_attacker is None:
            return None
        if self.player_turn == 1:
            return self.first_attacker
        return self.sides.exclude(pk=self.first_attacker_id).first()

    @property
    def defender(self) -> "Side | None":
        attacker = self.attacker
        return None if attacker is None else self.sides.exclude(pk=attacker.pk).first()


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

    def units_in_play(self) -> list["Brigade | Battery"]:
        """The side's brigades, then its batteries, division by division, not destroyed, taken or abandoned."""
        order = ("division__order", "order")
        brigades = Brigade.objects.filter(division__side=self, destroyed=False, surrendered=False)
        batteries = Battery.objects.filter(division__side=self, abandoned=False)
        return [*brigades.select_related("division").order_by(*order),
                *batteries.select_related("division").order_by(*order)]


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
    p4_event = models.BooleanField(default=False, help_text="a unit had a Panic 4 event this player turn")
    panicked = models.BooleanField(default=False, help_text="panicked in this panic phase")

    class Meta:
        ordering = ["order"]

    def __str__(self) -> str:
        return self.name

    @property
    def leader(self) -> "Leader | None":
        return next((leader for leader in self.leaders.all() if not leader.removed), None)

    def chain(self) -> list["Command"]:
        """This command and those above it, nearest first."""
        found, node = [], self
        while node is not None:
            found.append(node)
            node = node.parent
        return found


class Leader(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="leaders")
    command = models.ForeignKey(Command, on_delete=models.CASCADE, related_name="leaders")
    name = models.CharField(max_length=120)
    leader_class = models.CharField(max_length=1, choices=[(c.value, c.name.lower()) for c in LeaderClass])
    rating = models.SmallIntegerField()
    hors_de_combat = models.BooleanField(default=False)
    replaced_this_turn = models.BooleanField(default=False)
    removed = models.BooleanField(default=False, help_text="out of play: replaced by the next in the chain")

    def __str__(self) -> str:
        return f"{self.name} ({self.value})"

    @property
    def value(self) -> LeaderValue:
        return LeaderValue(LeaderClass(self.leader_class), self.rating)


class Unit(models.Model):
    """What brigades and batteries share: a place in a division, bases, morale and this turn's hits."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE)
    division = models.ForeignKey(Command, on_delete=models.CASCADE)
    name = models.CharField(max_length=120)
    order = models.PositiveIntegerField(default=0)
    grade = models.CharField(max_length=10, choices=_choices(Grade), default=Grade.AVERAGE.value)
    m_hits = models.PositiveSmallIntegerField(default=0)
    p_hits_turn = models.PositiveSmallIntegerField(default=0, help_text="P hits this player turn")
    base_hits_turn = models.PositiveSmallIntegerField(default=0, help_text="bases lost this player turn")
    p4_event = models.BooleanField(default=False, help_text="Panic 4 event this player turn")
    forced_move = models.CharField(max_length=2, blank=True, choices=[(m.value, m.title) for m in ForcedMove],
                                   help_text="the longest forced move made this player turn")

    class Meta:
        abstract = True
        ordering = ["order"]

    def __str__(self) -> str:
        return self.name

    @property
    def key(self) -> str:
        """How events name the unit: 'brigade:12', 'battery:3'."""
        return f"{self._meta.model_name}:{self.pk}"

    @property
    def condition(self):
        return condition_for(self.m_hits)

    @property
    def side_id(self) -> int:
        return self.division.side_id


class Brigade(Unit):
    kind = models.CharField(max_length=30, choices=_choices(UnitKind), default=UnitKind.INFANTRY.value)
    bases_start = models.PositiveSmallIntegerField()
    bases = models.PositiveSmallIntegerField()
    formation = models.CharField(max_length=20, choices=_choices(Formation), default=Formation.TWO_LINE.value)
    skirmishers_available = models.PositiveSmallIntegerField(default=0)
    skirmishers_deployed = models.PositiveSmallIntegerField(default=0)
    skirmisher_grade = models.CharField(max_length=10, choices=_choices(Grade), blank=True)
    repeaters = models.BooleanField(default=False)
    charge_bonus_used = models.BooleanField(default=False)
    retreated = models.BooleanField(default=False, help_text="retreated or routed this player turn")
    destroyed = models.BooleanField(default=False)
    surrendered = models.BooleanField(default=False)

    class Meta(Unit.Meta):
        default_related_name = "brigades"

    @property
    def out_of_play(self) -> bool:
        return self.destroyed or self.surrendered


class Battery(Unit):
    battery_type = models.CharField(max_length=10, choices=[(b.value, BATTERY_LABELS[b]) for b in BatteryType])
    horse = models.BooleanField(default=False)
    bases = models.PositiveSmallIntegerField(default=1)
    damage = models.PositiveSmallIntegerField(default=0)
    limbered = models.BooleanField(default=False)
    packed = models.BooleanField(default=False)
    saved_fire = models.BooleanField(default=False)
    fired_this_turn = models.BooleanField(default=False)
    functions_used = models.JSONField(default=list, blank=True)
    abandoned = models.BooleanField(default=False)

    class Meta(Unit.Meta):
        default_related_name = "batteries"
        verbose_name_plural = "batteries"

    @property
    def out_of_play(self) -> bool:
        return self.abandoned


class Event(models.Model):
    """One recorded action: its inputs, dice, result and the exact change of state it made."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=40)
    actor = models.CharField(max_length=80, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    game_turn = models.PositiveIntegerField()
    player_turn = models.PositiveSmallIntegerField()
    step = models.CharField(max_length=40)
    subject = models.CharField(max_length=160, blank=True, help_text="the unit, leader or division acted on")
    summary = models.TextField()
    inputs = models.JSONField(default=dict, blank=True)
    dice = models.JSONField(default=list, blank=True)
    result = models.JSONField(default=dict, blank=True)
    changes = models.JSONField(default=list, blank=True)
    provisional = models.BooleanField(default=False, help_text="the result read a provisional chart cell")
    printed_chart = models.BooleanField(default=False, help_text="the result was read from the players' own chart")
    undoes = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="undone_by")

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="unique_event_seq")]
        indexes = [models.Index(fields=["game", "game_turn", "player_turn", "step"])]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}: {self.summary}"
