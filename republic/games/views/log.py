"""The turn log: its page, a hundred events a page, and the whole log (or the filtered one) as a PDF made on the
server. Each is the copy of the device's side: a seated player's holds his side's messages, the game master's
every side's."""

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from republic.games.pace import paces
from republic.games.steps.base import Who
from republic.games.views import lookup, query
from republic.games.views.access import HtmxHttpRequest, Role, allowed
from republic.games.views.turn_log import LOG_PAGE, chosen, events, grouped, letters

PRINT_CSS = "css/print.css"
PAPERS = {"a4": "A4", "letter": "letter"}
NO_PDF = (
    "This server cannot make the PDF: WeasyPrint or the pango library it needs is missing (make system-packages "
    "installs them). The log's page prints as it is from the browser."
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
    found = list(events(game, asked))
    told = letters(game, role.master, role.side_id, asked, found, last=True)
    copy = "game master" if role.master else role.seat.side.name if role.seat else ""
    pace = paces([game], timezone.now())[game.pk]
    turns = grouped(game, found, told, pace.turns)
    context = {"game": game, "turns": turns, "filters": asked, "role": role, "copy": copy, "pace": pace}
    html = render_to_string("games/log_pdf.html", context, request=request)
    pdf = _pdf(html, query.choice(request.GET, "paper", PAPERS, "A4"))
    if pdf is None:
        return HttpResponse(NO_PDF, status=503, content_type="text/plain; charset=utf-8")
    response = HttpResponse(pdf, content_type="application/pdf")
    # a filtered log saved under the whole log's name would be taken for it
    name = slugify(f"{game.name} turn log {asked.named} {copy}") or "turn-log"
    response["Content-Disposition"] = f'attachment; filename="{name}.pdf"'
    return response


def _pdf(html: str, paper: str) -> bytes | None:
    """The page drawn as a PDF; None where WeasyPrint cannot be loaded."""
    try:
        # imported here, not as the app starts: a server without pango serves every page but this one
        from weasyprint import CSS, HTML, URLFetcher
    except (ImportError, OSError):
        return None

    sheets = [CSS(string=_static_text(PRINT_CSS)), CSS(string=f"@page {{ size: {paper}; }}")]
    # the log draws no image and links no sheet: an address in it could only be someone's words taken for one
    nothing_fetched = URLFetcher(allowed_protocols=("data",))
    pdf: bytes = HTML(string=html, url_fetcher=nothing_fetched).write_pdf(stylesheets=sheets)
    return pdf


def _static_text(name: str) -> str:
    """A static file's text, read where the app keeps it (its finders, else the collected files): the PDF is
    made without asking any server for anything, its own included."""
    path = finders.find(name)
    if isinstance(path, str):
        with open(path, encoding="utf-8") as found:
            return found.read()
    with staticfiles_storage.open(name) as collected:
        text: bytes = collected.read()
        return text.decode("utf-8")
