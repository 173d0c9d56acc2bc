"""The order of battle, on pages of its own: the sides and their divisions in a few lines each, and one
division at a time with its units, their corrections and the division's orders."""

from collections import Counter
from typing import Any

from django.http import HttpResponse
from django.shortcuts import render

from republic.games.models import Command, Unit
from republic.games.views import answers
from republic.games.views.answers import HtmxHttpRequest
from republic.games.views.order_of_battle import division_context
from republic.rules.morale import Condition


def units_page(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
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
        side = sides.setdefault(division.side_id, {"side": division.side, "divisions": []})
        counts = standing.get(division.pk, Counter())
        side["divisions"].append(
            {
                "division": division,
                "leader": division.leader,
                "conditions": [(c, counts[c]) for c in Condition if counts[c]],
                "out": out[division.pk],
            }
        )
    context = {"game": game, "sides": list(sides.values()), "attacker": game.attacker}
    return render(request, "games/units.html", context)


def division_page(request: HtmxHttpRequest, game_id: int, division_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    division = answers.command_of(game, division_id)
    return render(request, "games/division.html", division_context(game, division))
