"""The order of battle, on pages of its own: the sides and their divisions in a few lines each, and one
division at a time with its units, their corrections and the division's orders."""

from collections import Counter
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from republic.games.models import Command, Game, Objective, Side, Unit
from republic.games.steps.base import Who
from republic.games.views import lookup
from republic.games.views.access import HtmxHttpRequest, Role, allowed
from republic.games.views.follow import FOLLOW_KEY, followed
from republic.games.views.order_of_battle import division_context
from republic.rules.morale import Condition


@allowed(Who.SEATED)
def units_page(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = lookup.game_or_404(game_id)
    divisions = (
        Command.objects.filter(game=game, level=Command.Level.DIVISION)
        .select_related("side", "parent")
        .prefetch_related("leaders")
        .order_by("side__order", "order")
    )
    standing: dict[int, Counter[Condition]] = {}
    out: Counter[int] = Counter()
    fields = ("division_id", "m_hits", "destroyed", "surrendered", "abandoned")
    for unit in Unit.objects.filter(game=game).only(*fields):
        if unit.out_of_play:
            out[unit.division_id] += 1
        else:
            standing.setdefault(unit.division_id, Counter())[unit.condition] += 1
    sides: dict[int, dict[str, Any]] = {}
    for division in divisions:
        side = sides.setdefault(division.side_id, {"side": division.side, "groups": {}})
        corps = division.parent if division.parent and division.parent.level == Command.Level.CORPS else None
        group = side["groups"].setdefault(corps.pk if corps else None, {"corps": corps, "divisions": []})
        counts = standing.get(division.pk, Counter())
        group["divisions"].append(
            {
                "division": division,
                "leader": division.leader,
                "conditions": [(c, counts[c]) for c in Condition if counts[c]],
                "out": out[division.pk],
            }
        )
    context = {
        "game": game,
        "objectives": objectives(game, request.role),
        "sides": [{**side, "groups": list(side["groups"].values())} for side in sides.values()],
        "attacker": game.attacker,
        "following": followed(request, game).name,
    }
    return render(request, "games/units.html", context)


def objectives(game: Game, role: Role) -> list[dict[str, Any]]:
    """The scenario's objectives, who holds each, and the changes this device may record: a player his own
    side taking one or giving it up, the game master any."""
    sides = list(Side.objects.filter(game=game))
    shown = []
    for objective in Objective.objects.filter(game=game):
        holder = next((s for s in sides if s.pk == objective.holder_id), None)
        choices = [
            (str(s.pk), f"{s.name} holds it")
            for s in sides
            if s.pk != objective.holder_id and (role.master or s.pk == role.side_id)
        ]
        if holder is not None and (role.master or holder.pk == role.side_id):
            choices.append(("", "No one holds it"))
        shown.append({"objective": objective, "holder": holder, "choices": choices})
    return shown


@allowed(Who.SEATED)
def division_page(request: HtmxHttpRequest, game_id: int, division_id: int) -> HttpResponse:
    game = lookup.game_or_404(game_id)
    division = lookup.command_of(game, division_id)
    return render(request, "games/division.html", division_context(game, division))


class FollowForm(forms.Form):
    follow = forms.RegexField(regex=r"^((side|command)-\d+)?$", required=False)


@allowed(Who.SEATED)
@require_POST
def follow(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Follow a side ('side-3'), a command ('command-12') or, with nothing, the whole battle again."""
    game = lookup.game_or_404(game_id)
    form = FollowForm(request.POST)
    chosen = form.cleaned_data["follow"] if form.is_valid() else None
    kind, _, number = (chosen or "").partition("-")
    known = chosen == "" or (
        game.sides.filter(pk=int(number)).exists()
        if kind == "side"
        else kind == "command" and Command.objects.filter(game=game, pk=int(number)).exists()
    )
    if chosen is None or not known:
        messages.error(request, "There is no such side or command in this game: nothing was changed.")
        return redirect("games:units", game_id=game.pk)
    request.session[FOLLOW_KEY] = {**request.session.get(FOLLOW_KEY, {}), str(game.pk): chosen}
    return redirect("games:game", game_id=game.pk)
