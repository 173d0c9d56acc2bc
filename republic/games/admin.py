"""The game master's admin: every record of a game, editable while the game is being set up.

Events are the truth: they are shown and never added, changed or deleted here. Once play has begun (the game
is in progress or finished, or its log holds an event) its state rows are read-only here too, because a change
made in the admin would bypass the event log; changes are then made on the game page, where each is an event.
While the game is set up, every admin change retakes the game's setup snapshot, the state that events start from.
"""

from django import forms
from django.contrib import admin, messages

from republic.games.ledger import snapshot
from republic.games.models import ADVANCED_RULES, Command, Event, Game, Leader, Side, Unit, keep_setup
from republic.games.text.describe import describe
from republic.rules.morale import MAX_M_HITS
from republic.rules.troops import UnitKind

LOCKED_MESSAGE = (
    "{game} is under way (status {status}; events in its log: {events}): its state is read-only "
    "in the admin, because a change here would bypass the event log. Make changes on the game page, "
    "where each one is recorded as an event (and can be undone)."
)


def is_locked(game: Game | None) -> bool:
    """Play has begun: the game's state changes only through events from now on."""
    if game is None or game.pk is None:
        return False
    return game.status != Game.Status.SETTING_UP or game.events.exists()


def _retake_setup(games) -> None:
    for game in {g.pk: g for g in games if g is not None}.values():
        fresh = Game.objects.filter(pk=game.pk).first()
        if fresh is not None and not is_locked(fresh):
            keep_setup(fresh, snapshot(fresh))


class SetUpOnly:
    """Admin permissions of a game's state rows: change and delete only while the game is set up."""

    def game_of(self, obj) -> Game | None:
        return None if obj is None else obj.game

    def locked(self, obj) -> bool:
        return obj is not None and is_locked(self.game_of(obj))

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and not self.locked(obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and not self.locked(obj)


class StateAdmin(SetUpOnly, admin.ModelAdmin):
    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, admin.utils.unquote(object_id))
        if self.locked(obj):
            game = self.game_of(obj)
            self.message_user(
                request,
                LOCKED_MESSAGE.format(game=game, status=game.get_status_display(), events=game.events.count()),
                messages.WARNING,
            )
        return super().change_view(request, object_id, form_url, extra_context)

    def get_actions(self, request):
        # "delete selected" would reach rows of games under way; delete one row at a time from its page
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def parent_of(self, obj):
        """The row the game is taken from: a brigade's division, a leader's command, a command's side."""
        raise NotImplementedError

    def save_model(self, request, obj, form, change):
        obj.game = self.parent_of(obj).game
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        _retake_setup([form.instance.game])

    def delete_model(self, request, obj):
        game = obj.game
        super().delete_model(request, obj)
        _retake_setup([game])


class SetUpForm(forms.ModelForm):
    """Rows are attached only to games being set up, and only within one game."""

    def clean(self):
        data = super().clean()
        for name in ("division", "command", "side", "parent"):
            parent = data.get(name)
            if parent is None:
                continue
            if is_locked(parent.game):
                self.add_error(name, f"{parent.game} is under way: its order of battle cannot change here.")
            elif self.instance.pk and getattr(self.instance, "game_id", None) not in (None, parent.game_id):
                self.add_error(name, f"{parent} is in another game: a row stays in its own game.")
        return data


# --- games and sides ---------------------------------------------------------------------------------------------


class GameForm(forms.ModelForm):
    class Meta:
        model = Game
        fields = (
            "name",
            "scenario",
            "demo",
            "chart_version",
            "ground_scale",
            "first_attacker",
            "advanced_rules",
            "status",
            "game_turn",
            "player_turn",
            "step",
        )

    advanced_rules = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Advanced rules in use",
        choices=[(number, f"{number} {title}") for number, title in ADVANCED_RULES.items()],
        help_text="Played by hand at the table: the app shows them but does not apply them.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "first_attacker" in self.fields:
            self.fields["first_attacker"].queryset = Side.objects.filter(game=self.instance.pk or 0)

    def clean(self):
        data = super().clean()
        if data.get("status") not in (None, Game.Status.SETTING_UP) and data.get("first_attacker") is None:
            self.add_error(
                "first_attacker",
                "Play starts with a first attacker: choose one (or let the sides choose on the game page).",
            )
        if data.get("player_turn") not in (None, 1, 2):
            self.add_error("player_turn", "A game turn has player turns 1 and 2.")
        if data.get("game_turn") == 0:
            self.add_error("game_turn", "Game turns count from 1.")
        return data


class SideInline(admin.TabularInline):
    model = Side
    fields = ("name", "players", "order")
    extra = 0

    def has_add_permission(self, request, obj=None):
        return super().has_add_permission(request, obj) and not is_locked(obj)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and not is_locked(obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and not is_locked(obj)


@admin.register(Game)
class GameAdmin(StateAdmin):
    form = GameForm
    list_display = ("name", "status", "game_turn", "player_turn", "step", "version", "demo", "updated")
    list_filter = ("status", "demo")
    search_fields = ("name", "scenario")
    readonly_fields = ("version", "created", "updated")
    inlines = [SideInline]

    def game_of(self, obj):
        return obj

    def get_changeform_initial_data(self, request):
        from django.conf import settings

        return {"chart_version": settings.REPUBLIC_CHART, **super().get_changeform_initial_data(request)}

    def get_actions(self, request):
        return admin.ModelAdmin.get_actions(self, request)  # deleting whole games is housekeeping, not play

    def has_delete_permission(self, request, obj=None):
        return admin.ModelAdmin.has_delete_permission(self, request, obj)

    def save_model(self, request, obj, form, change):
        admin.ModelAdmin.save_model(self, request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        admin.ModelAdmin.save_related(self, request, form, formsets, change)
        _retake_setup([form.instance])

    def delete_model(self, request, obj):
        admin.ModelAdmin.delete_model(self, request, obj)


class SideForm(SetUpForm):
    class Meta:
        model = Side
        fields = ("game", "name", "players", "order")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "game" in self.fields:
            self.fields["game"].queryset = Game.objects.filter(status=Game.Status.SETTING_UP, events__isnull=True)


@admin.register(Side)
class SideAdmin(StateAdmin):
    form = SideForm
    list_display = ("name", "game", "players", "order")
    search_fields = ("name", "players", "game__name")
    list_filter = ("game",)

    def get_readonly_fields(self, request, obj=None):
        return ("game",) if obj is not None else ()  # a side stays in its game

    def parent_of(self, obj):
        return obj


# --- the chain of command ----------------------------------------------------------------------------------------


def _open_commands(**filters):
    return Command.objects.filter(
        game__status=Game.Status.SETTING_UP, game__events__isnull=True, **filters
    ).select_related("game", "side")


class CommandForm(SetUpForm):
    class Meta:
        model = Command
        fields = ("side", "parent", "level", "name", "order", "orders", "panicked")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "side" in self.fields:
            self.fields["side"].queryset = Side.objects.filter(
                game__status=Game.Status.SETTING_UP, game__events__isnull=True
            ).select_related("game")
            self.fields["side"].label_from_instance = lambda s: f"{s.name} ({s.game})"
        if "parent" in self.fields:
            self.fields["parent"].queryset = _open_commands(level__in=("army", "corps"))

    def clean(self):
        data = super().clean()
        side, parent, level = data.get("side"), data.get("parent"), data.get("level")
        if (
            side is not None
            and self.instance.pk
            and side.pk != self.instance.side_id
            and self.instance.children.exists()
        ):
            self.add_error(
                "side", "Its commands serve on its side: move them first (a chain of command is on one side)."
            )
        if parent is not None and side is not None and parent.side_id != side.pk:
            self.add_error("parent", f"{parent} belongs to {parent.side}, not {side}.")
        levels = list(Command.Level.values)
        if parent is not None and level and levels.index(level) <= levels.index(parent.level):
            self.add_error("level", f"a {level} cannot serve under a {parent.level} (2.1)")
        return data


class LeaderInline(admin.TabularInline):
    model = Leader
    fields = ("name", "leader_class", "rating", "hors_de_combat", "replaced_this_turn", "removed")
    extra = 0

    def has_add_permission(self, request, obj=None):
        return super().has_add_permission(request, obj) and not is_locked(getattr(obj, "game", None))

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and not is_locked(getattr(obj, "game", None))

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and not is_locked(getattr(obj, "game", None))


@admin.register(Command)
class CommandAdmin(StateAdmin):
    form = CommandForm
    list_display = ("name", "level", "side", "parent", "orders", "game")
    list_filter = ("game", "level", "orders")
    readonly_fields = ("game",)
    search_fields = ("name", "side__name", "leaders__name")
    inlines = [LeaderInline]

    def parent_of(self, obj):
        return obj.side

    def save_formset(self, request, form, formset, change):
        leaders = formset.save(commit=False)
        for leader in leaders:
            leader.game = form.instance.game
            leader.save()
        for gone in formset.deleted_objects:
            gone.delete()
        formset.save_m2m()


class LeaderForm(SetUpForm):
    class Meta:
        model = Leader
        fields = ("command", "name", "leader_class", "rating", "hors_de_combat", "replaced_this_turn", "removed")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "command" in self.fields:
            self.fields["command"].queryset = _open_commands()


@admin.register(Leader)
class LeaderAdmin(StateAdmin):
    form = LeaderForm
    list_display = ("name", "leader_class", "rating", "command", "hors_de_combat", "removed", "game")
    list_filter = ("game", "leader_class", "hors_de_combat", "removed")
    readonly_fields = ("game",)
    search_fields = ("name", "command__name")

    def parent_of(self, obj):
        return obj.command


# --- units ---------------------------------------------------------------------------------------------------------


class UnitForm(SetUpForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "division" in self.fields:
            self.fields["division"].queryset = _open_commands(level=Command.Level.DIVISION)
            self.fields["division"].label_from_instance = lambda d: f"{d.name} ({d.side.name}, {d.game})"


UNIT_FIELDS = ("division", "name", "order", "kind", "grade", "bases_start", "bases")
TURN_FIELDS = ("m_hits", "p_hits_turn", "p_hits_assault", "base_hits_turn", "p4_event", "forced_move")
BRIGADE_FIELDS = (
    "formation",
    "skirmishers_available",
    "skirmishers_deployed",
    "skirmisher_grade",
    "repeaters",
    "charge_bonus_used",
    "destroyed",
    "surrendered",
)
BATTERY_FIELDS = (
    "battery_type",
    "horse",
    "damage",
    "limbered",
    "packed",
    "saved_fire",
    "fired_this_turn",
    "functions_used",
    "abandoned",
)
EITHER_KIND = (
    "damage",
    "skirmishers_available",
    "skirmishers_deployed",
    "p_hits_turn",
    "p_hits_assault",
    "base_hits_turn",
)
"""Fields a brigade or a battery leaves empty: a brigade has no damage, a battery no skirmishers."""


class UnitRowForm(UnitForm):
    class Meta:
        model = Unit
        fields = (*UNIT_FIELDS, *TURN_FIELDS, *BRIGADE_FIELDS, *BATTERY_FIELDS)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in EITHER_KIND:
            if name in self.fields:
                self.fields[name].required = False

    def clean(self):
        data = super().clean()
        for name in EITHER_KIND:
            if name in self.fields and data.get(name) is None:
                data[name] = 0
        start, bases = data.get("bases_start"), data.get("bases")
        if start is not None and bases is not None and bases > start:
            self.add_error("bases", f"a unit has at most the {start} bases it started with")
        if (data.get("m_hits") or 0) > MAX_M_HITS:
            self.add_error("m_hits", f"a unit carries 0 to {MAX_M_HITS} M hits")
        battery = data.get("kind") == UnitKind.ARTILLERY
        if battery and not data.get("battery_type"):
            self.add_error("battery_type", "a battery (kind artillery) has a battery type")
        if not battery and data.get("battery_type"):
            self.add_error("battery_type", "only a battery (kind artillery) has a battery type")
        return data


@admin.register(Unit)
class UnitAdmin(StateAdmin):
    form = UnitRowForm
    fieldsets = (
        (None, {"fields": UNIT_FIELDS}),
        ("This player turn", {"fields": TURN_FIELDS}),
        ("Brigade", {"fields": BRIGADE_FIELDS}),
        ("Battery", {"fields": BATTERY_FIELDS}),
    )
    list_display = ("name", "division", "kind", "grade", "bases", "bases_start", "m_hits", "condition", "game")
    list_filter = ("game", "kind", "grade", "destroyed", "abandoned")
    readonly_fields = ("game",)
    search_fields = ("name", "division__name")

    def parent_of(self, obj):
        return obj.division

    @admin.display(description="condition")
    def condition(self, obj):
        return obj.condition.value


# --- the log -------------------------------------------------------------------------------------------------------


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """The log, read-only: events are the truth. Take a game back from its log page, as an event."""

    list_display = (
        "seq",
        "kind",
        "summary",
        "provisional",
        "printed_chart",
        "game",
        "game_turn",
        "player_turn",
        "step",
        "actor",
        "created",
    )
    list_display_links = ("seq", "kind")
    list_filter = ("game", "kind", "provisional", "printed_chart")
    search_fields = ("kind", "actor", "payload")
    readonly_fields = ("summary",)
    ordering = ("game", "seq")
    list_select_related = ("game",)

    @admin.display(description="what happened")
    def summary(self, obj):
        return describe(obj)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
