"""The turn log: its page, a hundred events a page, and the whole log (or the filtered one) as a PDF made on the
server. Each is the copy of the device's side: a seated player's holds his side's messages, the game master's
every side's."""

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.text import slugify
from django.views.decorators.http import require_safe
from reportlab.lib.pagesizes import A4

from republic.games.pace import paces
from republic.games.steps.base import Who
from republic.games.views import lookup, query
from republic.games.views.access import HtmxHttpRequest, Role, allowed
from republic.games.views.log_pdf import FONTS, PAPERS, LogCopy, drawn
from republic.games.views.turn_log import LOG_PAGE, chosen, events, grouped, letters

NO_PDF = (
    f"This server cannot make the PDF: the DejaVu Sans font it is set in is missing from {FONTS} (make "
    "system-packages installs Debian's fonts-dejavu-core). The log's page prints as it is from the browser."
)


def _role(request: HtmxHttpRequest) -> Role:
    role: Role = request.role
    return role


@allowed(Who.SEATED)
def game_log(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The turn log, the newest page first (``?page=N`` for another), filtered by ``side``, ``division`` and
    ``phase``."""
    game = lookup.game_or_404(game_id)
    role, asked = _role(request), chosen(request.GET, game)
    pages = Paginator(events(game, asked), LOG_PAGE)
    shown = pages.get_page(query.whole(request.GET, "page", pages.num_pages))
    found = list(shown)
    told = letters(game, role.master, role.side_id, asked, found, last=not shown.has_next())
    pace = paces([game], timezone.now())[game.pk]
    turns = grouped(game, found, told, pace.turns)
    context = {"game": game, "turns": turns, "shown": shown, "filters": asked, "role": role, "pace": pace}
    return render(request, "games/log.html", context)


@allowed(Who.SEATED)
@require_safe
def game_log_pdf(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The whole turn log (or the filtered one) as a PDF, grouped as the page is, on A4 or (``?paper=letter``)
    Letter."""
    game = lookup.game_or_404(game_id)
    role, asked = _role(request), chosen(request.GET, game)
    paper = query.choice(request.GET, "paper", PAPERS, A4)
    found = list(events(game, asked))
    told = letters(game, role.master, role.side_id, asked, found, last=True)
    pace = paces([game], timezone.now())[game.pk]
    pdf = drawn(LogCopy(game, grouped(game, found, told, pace.turns), role, asked, pace), paper)
    if pdf is None:
        return HttpResponse(NO_PDF, status=503, content_type="text/plain; charset=utf-8")
    response = HttpResponse(pdf, content_type="application/pdf")
    # a filtered log saved under the whole log's name would be taken for it
    copy = "game master" if role.master else role.seat.side.name if role.seat else ""
    name = slugify(f"{game.name} turn log {asked.named} {copy}") or "turn-log"
    response["Content-Disposition"] = f'attachment; filename="{name}.pdf"'
    return response
