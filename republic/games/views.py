"""The game's own pages and actions; each phase's actions live in republic/games/phases/."""

from django import forms
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from republic.games import answers
from republic.games.forms import VersionForm
from republic.games.ledger import ActionRefused, StaleGame, act_on, undo_last, undo_to
from republic.games.models import Battery, Brigade, Command, Event, Game
from republic.games.page import page_context, result_view
from republic.games.scenario import ScenarioError, create_game, parse_csv, parse_scenario
from republic.games.text import condition_label
from republic.games.walk import advance, choose_first_attacker
from republic.rules.scale import GroundScale


def game_list(request: HttpRequest) -> HttpResponse:
    games = Game.objects.prefetch_related("sides").order_by("-updated")
    return render(request, "games/list.html", {"games": games, "upload": ScenarioUploadForm()})


def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    return render(request, "games/game.html", page_context(request, game))



def _version(request: HttpRequest) -> int | None:
    form = VersionForm(request.POST)
    return form.cleaned_data["version"] if form.is_valid() else None


@require_POST
def next_step(request: HttpRequest, game_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    form = VersionForm(request.POST)
    return answers.form_action(request, game, form, None,
                               lambda: advance(game, form.cleaned_data["version"], answers.actor_of(request)))


@require_POST
def undo(request: HttpRequest, game_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    form = VersionForm(request.POST)
    return answers.form_action(request, game, form, None,
                               lambda: undo_last(game, form.cleaned_data["version"], answers.actor_of(request)))


@staff_member_required
@require_POST
def go_back(request: HttpRequest, game_id: int, seq: int) -> HttpResponse:
    """A game master takes the game back to just after event ``seq``; every undo is recorded."""
    game = answers.game_or_404(game_id)
    version = _version(request)
    try:
        undone = undo_to(game, seq, version, answers.actor_of(request))
    except StaleGame as exc:
        return answers.stale(request, exc.game, str(exc))
    messages.success(request, f"Back to event #{seq}: {len(undone)} event(s) undone.")
    return redirect("game_log", game_id=game.pk)


def game_log(request: HttpRequest, game_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    events = [result_view(e) for e in game.events.order_by("seq")]
    return render(request, "games/log.html", {"game": game, "entries": events})


CORRECTIONS = {
    "m_plus": ("m_hits", +1, "adds an M hit"),
    "m_minus": ("m_hits", -1, "removes an M hit"),
    "base_minus": ("bases", -1, "removes a base"),
    "base_plus": ("bases", +1, "adds a base"),
    "damage_plus": ("damage", +1, "adds a damage"),
    "damage_minus": ("damage", -1, "removes a damage"),
    "packed": ("packed", True, "is packed (closer than double frontage, 1.3)"),
    "unpacked": ("packed", False, "is at normal frontage"),
}


@require_POST
def correct_unit(request: HttpRequest, game_id: int, kind: str, unit_id: int, change: str) -> HttpResponse:
    """One-tap manual corrections on a unit card; each is an event like any other."""
    game = answers.game_or_404(game_id)
    model = {"brigade": Brigade, "battery": Battery}.get(kind)
    if model is None or change not in CORRECTIONS:
        return answers.stale(request, game, "No such correction.")
    unit = answers.unit_of_game(model, game, unit_id)
    field, step, words = CORRECTIONS[change]
    version = _version(request)
    if version is None:
        return answers.stale(request, game, "The form was incomplete: nothing was changed.")
    if not hasattr(unit, field):
        return answers.stale(request, game, f"{unit.name} has no {field.replace('_', ' ')} to correct.")
    if isinstance(step, bool):
        new = step
    else:
        limit = {"m_hits": 4, "bases": getattr(unit, "bases_start", 1), "damage": 9}[field]
        new = getattr(unit, field) + step
        if not 0 <= new <= limit:
            return answers.stale(request, game, f"{unit.name} cannot go to {new} {field.replace('_', ' ')} "
                                                f"(0 to {limit}): nothing was changed.")
    try:
        with act_on(game, version, answers.actor_of(request)) as action:
            fresh = model.objects.get(pk=unit.pk)
            action.set(fresh, field, new)
            if field == "bases":
                action.set(fresh, "destroyed", new == 0)
            if isinstance(step, bool):
                summary = f"Correction: {fresh.name} {words}"
            else:
                after = condition_label(fresh.m_hits) if field == "m_hits" else f"{new} {field.replace('_', ' ')}"
                summary = f"Correction: {fresh.name} {words} (now {after})"
            event = action.record("CorrectionMade", summary, subject=fresh.name,
                                  inputs={"unit": fresh.key, "field": field, "to": new})
    except StaleGame as exc:
        return answers.stale(request, exc.game, str(exc))
    return answers.done(request, game, event)


class OrdersForm(VersionForm):
    orders = forms.ChoiceField(choices=Command.Orders.choices)


@require_POST
def set_orders(request: HttpRequest, game_id: int, division_id: int) -> HttpResponse:
    """A division's orders, as its player gives them (a panicked division is reset to Defend, 6.1)."""
    game = answers.game_or_404(game_id)
    division = answers.unit_of_game(Command, game, division_id)
    form = OrdersForm(request.POST)

    def change() -> Event:
        with act_on(game, form.cleaned_data["version"], answers.actor_of(request)) as action:
            fresh = Command.objects.get(pk=division.pk)
            if fresh.level != Command.Level.DIVISION:
                raise ActionRefused(f"{fresh.name} is not a division: orders go to divisions.")
            if fresh.orders == form.cleaned_data["orders"]:
                raise ActionRefused(f"{fresh.name} already has orders to {fresh.orders}.")
            action.set(fresh, "orders", form.cleaned_data["orders"])
            return action.record("OrdersChanged", f"{fresh.name}: orders now {fresh.get_orders_display()}",
                                 subject=fresh.name, inputs={"division": fresh.pk, "orders": fresh.orders})

    return answers.form_action(request, game, form, None, change)


class FirstAttackerForm(VersionForm):
    side = forms.IntegerField()
    how = forms.ChoiceField(choices=[("agreed", "agreed by all"), ("die roll", "high roller's choice")])


@require_POST
def first_attacker(request: HttpRequest, game_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    form = FirstAttackerForm(request.POST)
    if not form.is_valid() or not game.sides.filter(pk=form.cleaned_data["side"]).exists():
        return answers.stale(request, game, "Choose one of this game's sides: nothing was changed.")
    if game.status != Game.Status.SETTING_UP:
        return answers.stale(request, game, "The first attacker is already chosen.")
    try:
        event = choose_first_attacker(game, form.cleaned_data["side"], form.cleaned_data["version"],
                                      answers.actor_of(request), form.cleaned_data["how"])
    except StaleGame as exc:
        return answers.stale(request, exc.game, str(exc))
    return answers.done(request, game, event)


class ActorForm(forms.Form):
    name = forms.CharField(max_length=80, label="Who is playing on this device?")


@require_POST
def set_actor(request: HttpRequest, game_id: int) -> HttpResponse:
    form = ActorForm(request.POST)
    if form.is_valid():
        request.session[answers.ACTOR_SESSION_KEY] = form.cleaned_data["name"].strip()
    return redirect("game", game_id=game_id)


class ScenarioUploadForm(forms.Form):
    file = forms.FileField(label="Scenario file (YAML, JSON) or order of battle (CSV)")
    name = forms.CharField(max_length=120, required=False, label="Name of this game")
    ground_scale = forms.ChoiceField(choices=[(s.value, s.value) for s in GroundScale], initial="medium",
                                     label="Ground scale (CSV only)")


@require_POST
def new_game(request: HttpRequest) -> HttpResponse:
    form = ScenarioUploadForm(request.POST, request.FILES)
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            text = upload.read().decode("utf-8-sig")
            if upload.name.lower().endswith(".csv"):
                title = form.cleaned_data["name"] or upload.name.rsplit(".", 1)[0]
                scenario = parse_csv(text, title, GroundScale(form.cleaned_data["ground_scale"]))
            else:
                scenario = parse_scenario(text)
        except UnicodeDecodeError:
            form.add_error("file", "The file is not UTF-8 text.")
        except ScenarioError as exc:
            form.add_error("file", f"{upload.name}, {exc}")
        else:
            game = create_game(scenario, form.cleaned_data["name"])
            return answers.client_redirect(request, f"/games/{game.pk}/")
    games = Game.objects.prefetch_related("sides").order_by("-updated")
    return render(request, "games/list.html", {"games": games, "upload": form})
