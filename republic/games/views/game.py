"""The game's own pages and the actions that belong to no step: moving on, undo, corrections, a blocked forced move,
orders."""

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from republic.games.forms import MOST_WHOLE, VersionForm
from republic.games.ledger import ActionRefused, StaleGame, standing, undo_to
from republic.games.models import Event, Game, Objective
from republic.games.pace import paces
from republic.games.scenario import ScenarioError, create_game, parse_scenario
from republic.games.scenario_csv import parse_csv
from republic.games.shipped_scenarios import shipped, shipped_one
from republic.games.steps import anytime, game_over, step_of, walk
from republic.games.steps.base import Row, Who
from republic.games.text.describe import describe
from republic.games.text.game import game_result
from republic.games.uploads import SCENARIO_MOST, LimitedFileField
from republic.games.views import answers, lookup, query
from republic.games.views.access import SEATS_KEY, HtmxHttpRequest, allowed, is_master, master_only
from republic.games.views.charts import chart_choices, chosen_chart
from republic.games.views.follow import followed
from republic.games.views.page import ROWS_SHOWN, drawn, first_rows, work
from republic.games.views.seats import join_link, qr_code
from republic.rules.scale import GroundScale
from republic.rules.sequence import step_for
from republic.rules.units import Correction


def game_list(request: HtmxHttpRequest) -> HttpResponse:
    """The game master's every game and the form to start one; a player's the games this device has a seat in."""
    games = Game.objects.prefetch_related("sides").order_by("-updated")
    if not is_master(request):
        games = games.filter(pk__in=[int(pk) for pk in request.session.get(SEATS_KEY, {})])
    context = {"games": listed(games), "upload": ScenarioUploadForm(), "shipped": shipped()}
    return render(request, "games/list.html", context)


def listed(games: "QuerySet[Game]") -> list[tuple[Game, str]]:
    """Each game with its result, once it is over."""
    found = games.select_related("winner")
    return [(g, game_result(g.winner.name if g.winner else "", g.result_note) if g.over else "") for g in found]


@allowed(Who.SEATED)
def game_page(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game page; for a phone without scripts, ``?open=unit-12`` draws that row of the step open and
    ``?shown=80`` draws more of its rows."""
    game = lookup.game_or_404(game_id)
    opened = tuple(query.texts(request.GET, "open"))
    count = query.whole(request.GET, "shown", ROWS_SHOWN, most=10_000)
    context = answers.context(request, game, opened=opened, shown=count)
    link = join_link(request, game)
    pace = paces([game], timezone.now())[game.pk]
    return render(request, "games/game.html", {**context, "join_link": link, "join_qr": qr_code(link), "pace": pace})


@allowed(Who.SEATED)
def more_rows(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The step's next rows after the first ``?after=N``, as "Show more" appends them."""
    game = lookup.game_or_404(game_id)
    start = query.whole(request.GET, "after", 0)
    handler = step_of(game)
    shown: list[Row] = []
    left = 0
    if game.in_progress and handler.rows is not None:
        state = handler.state(game)
        shown, left = first_rows(work(game, state, followed(request, game))[start:])
        drawn(game, state, shown, {}, (), answers.own(request, game))
    context = {"game": game, "rows": shown, "rows_left": left, "rows_more": min(left, ROWS_SHOWN)}
    return render(request, "games/parts/rows_more.html", {**context, "rows_after": start + len(shown)})


@allowed(Who.SEATED)
def game_row(request: HtmxHttpRequest, game_id: int, row: str) -> HttpResponse:
    """One row of the step's work, its form open (or closed again with ``?close=1``; ``?next=1``: opened as the
    player's next work, by itself), or one fold of its form (``?fold=rare``)."""
    game = lookup.game_or_404(game_id)
    fold = request.GET.get("fold")
    if fold is not None:
        return answers.open_fold(request, game, row, fold)
    closed, by_itself = query.flag(request.GET, "close"), query.flag(request.GET, "next")
    return answers.open_row(request, game, row, closed=closed, by_itself=by_itself)


@allowed(Who.SEATED)
def game_part(request: HtmxHttpRequest, game_id: int, part: str) -> HttpResponse:
    """A folded part of the step's panel, drawn open (``steps.base.Step.parts``)."""
    return answers.open_part(request, lookup.game_or_404(game_id), part)


@allowed(Who.PHASING)
@require_POST
def next_step(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = lookup.game_or_404(game_id)
    return answers.versioned_action(request, game, lambda version, actor: walk.move_on(game, version, actor))


@allowed(Who.MASTER)
@require_POST
def next_step_anyway(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game master moves a stuck step on, leaving its work undone (the log names it)."""
    game = lookup.game_or_404(game_id)
    return answers.versioned_action(
        request, game, lambda version, actor: walk.move_on(game, version, actor, anyway=True)
    )


@allowed(Who.SEATED)
@require_POST
def undo(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = lookup.game_or_404(game_id)
    return answers.versioned_action(request, game, lambda version, actor: walk.undo(game, version, actor))


@allowed(Who.MASTER)
def go_back(request: HtmxHttpRequest, game_id: int, seq: int) -> HttpResponse:
    """A game master takes the game back to just after event ``seq`` (0: to its start); every undo is recorded.
    Going back takes every phone with it, so the address first asks, naming how many actions it undoes; its
    confirmation posts the version the question was drawn at, and a game that moved on since is asked again."""
    game = lookup.game_or_404(game_id)
    target = None if seq == 0 or seq > MOST_WHOLE else game.events.filter(seq=seq).first()
    if seq != 0 and target is None:
        return render(request, "games/go_back.html", {"game": game, "seq": seq, "missing": True}, status=404)
    if request.method != "POST":
        return _ask_to_go_back(request, game, seq, target)
    form = VersionForm(request.POST)
    if not form.is_valid():
        return _ask_to_go_back(request, game, seq, target, answers.INCOMPLETE)
    try:
        undone = undo_to(game, seq, form.cleaned_data["version"], lookup.actor_of(request))
    except StaleGame as exc:
        return _ask_to_go_back(request, exc.game, seq, target, f"{exc} Check what going back undoes now.")
    messages.success(request, f"Back to event #{seq}: {len(undone)} action{pluralize(len(undone))} undone.")
    return redirect("games:game_log", game_id=game.pk)


def _ask_to_go_back(
    request: HtmxHttpRequest, game: Game, seq: int, target: Event | None, error: str = ""
) -> HttpResponse:
    undoes = standing(game).filter(seq__gt=seq).count()
    context = {"game": game, "seq": seq, "target": target, "undoes": undoes, "error": error}
    return render(request, "games/go_back.html", {**context, "summary": describe(target) if target else ""})


@allowed(Who.OWNER)
@require_POST
def correct_unit(request: HtmxHttpRequest, game_id: int, unit_id: int, change: str) -> HttpResponse:
    game = lookup.game_or_404(game_id)
    unit = lookup.unit_of(game, unit_id)
    if change not in set(Correction):
        return answers.stale(request, game, "No such correction.")
    return answers.versioned_action(
        request, game, lambda version, actor: anytime.correct(game, unit, Correction(change), version, actor)
    )


@allowed(Who.OWNER)
@require_POST
def blocked_move(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    """A unit's forced move blocked by another unit where it would end (3.3), from its card at any step."""
    game = lookup.game_or_404(game_id)
    unit = lookup.unit_of(game, unit_id)
    return answers.versioned_action(
        request, game, lambda version, actor: anytime.blocked_move(game, unit, version, actor)
    )


@allowed(Who.OWNER)
@require_POST
def set_orders(request: HtmxHttpRequest, game_id: int, division_id: int) -> HttpResponse:
    game = lookup.game_or_404(game_id)
    division = lookup.command_of(game, division_id)
    form = anytime.OrdersForm(request.POST)
    return answers.form_action(
        request,
        game,
        form,
        lambda: anytime.give_orders(
            game, division, form.cleaned_data["orders"], form.cleaned_data["version"], lookup.actor_of(request)
        ),
    )


@allowed(Who.SEATED)
@require_POST
def take_objective(request: HtmxHttpRequest, game_id: int, objective_id: int) -> HttpResponse:
    """An objective of the scenario changes hands, from the order of battle page, which the answer opens again
    with what was done or why not."""
    game = lookup.game_or_404(game_id)
    objective = get_object_or_404(Objective, pk=objective_id, game=game)
    form = anytime.ObjectiveForm(request.POST)
    if not form.is_valid():
        messages.error(request, answers.INCOMPLETE)
    else:
        side = request.role.side_id
        data = form.cleaned_data
        try:
            event = anytime.take_objective(
                game, objective, data["holder"], side, data["version"], lookup.actor_of(request)
            )
        except (StaleGame, ActionRefused) as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, describe(event))
    return redirect(reverse("games:units", args=[game.pk]) + "#objectives")


@allowed(Who.OWNER)
@require_POST
def reassign_unit(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    """A unit put under another division of its side (2.1), from its card on its division's page."""
    game = lookup.game_or_404(game_id)
    unit = lookup.unit_of(game, unit_id)
    form = anytime.ReassignForm(request.POST)
    return answers.form_action(
        request,
        game,
        form,
        lambda: anytime.reassign(
            game, unit, form.cleaned_data["division"], form.cleaned_data["version"], lookup.actor_of(request)
        ),
        unit.piece.name,
    )


@allowed(Who.MASTER)
def end_game(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game master ends the game with its result. A form drawn before the game moved on is drawn again as
    it was sent, with the game's new version, for him to check and send once more."""
    game = lookup.game_or_404(game_id)
    sides = list(game.sides.all())
    form = game_over.end_form(game, sides, request.POST if request.method == "POST" else None)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            event = game_over.end(game, form, lookup.actor_of(request))
        except StaleGame as exc:
            data = request.POST.copy()
            data["version"] = str(exc.game.version)
            game, form, error = exc.game, game_over.end_form(exc.game, sides, data), str(exc)
        except ActionRefused as exc:
            game, error = lookup.game_or_404(game_id), str(exc)
        else:
            return answers.done(request, game, event)
    elif "version" in form.errors:
        error = answers.INCOMPLETE
    context = {"game": game, "step": step_for(game.step_key), "form": form, "error": error}
    return render(request, "games/end.html", {**context, **(game_over.panel(game) if game.over else {})})


class ScenarioUploadForm(forms.Form):
    file = LimitedFileField(
        label="Scenario file (YAML, JSON) or order of battle (CSV)", most=SCENARIO_MOST, what="a scenario"
    )
    name = forms.CharField(max_length=120, required=False, label="Name of this game")
    ground_scale = forms.ChoiceField(
        choices=[(s.value, s.value) for s in GroundScale], initial="medium", label="Ground scale (CSV only)"
    )
    chart = forms.ChoiceField(required=False, label="Chart the game is played on")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["chart"]).choices = chart_choices()


@master_only
@require_POST
def new_game(request: HtmxHttpRequest) -> HttpResponse:
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
            game = create_game(scenario, form.cleaned_data["name"], chosen_chart(form.cleaned_data["chart"]))
            return answers.client_redirect(request, reverse("games:game", args=[game.pk]))
    games = Game.objects.prefetch_related("sides").order_by("-updated")
    return render(request, "games/list.html", {"games": listed(games), "upload": form, "shipped": shipped()})


@master_only
@require_POST
def start_scenario(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """A game of a scenario shipped with the app, in one tap."""
    found = shipped_one(key)
    if found is None or found.scenario is None:
        messages.error(request, found.problem if found else f"No scenario called {key!r} ships with the app.")
        return answers.client_redirect(request, reverse("games:home"))
    game = create_game(found.scenario)
    return answers.client_redirect(request, reverse("games:game", args=[game.pk]))
