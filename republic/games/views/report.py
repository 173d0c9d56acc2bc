"""The battle report page: how each side's strength went over the turns, its losses, its fallen leaders, routs and
panics, and the largest assaults. Both sides read the same report: it holds nothing one side may not know."""

from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from republic.games.models import Game
from republic.games.pace import paces
from republic.games.report.charts import line_chart, stack_chart
from republic.games.report.walk import BattleReport, read
from republic.games.steps.base import Who
from republic.games.text import report_words as said
from republic.games.text.game import game_result
from republic.games.views import lookup
from republic.games.views.access import allowed

LARGEST_ASSAULTS = 5


def report_of(game: Game) -> BattleReport:
    """The report at the game's version: every event bumps it, so a report kept under it is never stale, and a
    game read by forty phones after the battle is walked once."""
    key = f"republic:battle-report:{game.pk}:{game.version}"
    found = cache.get(key)
    if not isinstance(found, BattleReport):
        found = read(game)
        cache.set(key, found, 60 * 60)
    return found


@allowed(Who.SEATED)
def battle_report(request: HttpRequest, game_id: int) -> HttpResponse:
    game = lookup.game_or_404(game_id)
    report = report_of(game)
    pace = paces([game], timezone.now())[game.pk]
    return render(request, "games/report.html", {"game": game, "pace": pace, **context(game, report)})


def context(game: Game, report: BattleReport) -> dict[str, Any]:
    moments = report.moments
    sides = [
        {
            "name": name,
            "chart": stack_chart(f"{name} brigades by state, over the turns", i, moments),
            "chart_id": f"chart-brigades-{i + 1}",
            "rows": [(m, m.sides[i]) for m in moments],
            "divisions": [d for d in report.divisions if d.side == name],
        }
        for i, name in enumerate(report.sides)
    ]
    return {
        "report": report,
        "result": game_result(game.winner.name if game.winner else "", game.result_note) if game.over else "",
        "bases_chart": line_chart("Bases left in play", "bases", report.sides, moments, "bases"),
        "batteries_chart": line_chart("Batteries left in play", "batteries", report.sides, moments, "batteries"),
        "sides": sides,
        "states": [(s, said.STATE_LABELS[s], said.STATE_MARKS[s]) for s in said.BRIGADE_STATES],
        "routed_label": said.ROUTED,
        "assaults": report.assaults[:LARGEST_ASSAULTS],
    }
