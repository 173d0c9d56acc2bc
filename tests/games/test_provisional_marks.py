"""Results that used a provisional chart cell say so on screen and in logs, quietly: the position header says once
that the game's chart has provisional cells and links to the chart that marks them; a result says it in one plain
line and marks each provisional cell of its reasons with a dagger; the turn log carries the dagger too. A result
read from the players' printed chart keeps its "printed chart" mark."""

import re

from republic.games.models import Event
from republic.games.views.page import has_provisional_cells
from tests.games.conftest import brigade, page
from tests.games.move_helpers import at_move, roll_post


def text(response) -> str:
    return response.content.decode()


def section(body: str, start: str) -> str:
    """The HTML of one section of the page, from its opening tag to its closing one."""
    found = re.search(rf"{start}.*?</section>", body, re.S)
    assert found, start
    return found.group(0)


def test_the_header_says_once_that_the_chart_has_provisional_cells(client, demo):
    assert has_provisional_cells(demo.chart_checksum, demo.chart_version)
    body = page(client, demo)
    header = re.search(r'<header class="turn-bar.*?</header>', body, re.S).group(0)
    assert "This game's chart has provisional cells" in header and f'href="/games/{demo.pk}/chart/"' in header
    assert body.count("This game's chart has provisional cells") == 1


def test_a_result_that_used_a_provisional_cell_says_so_quietly(client, demo):
    game = at_move(demo)
    body = text(roll_post(client, game, brigade(game, "Brockenbrough's Brigade"), die="3"))
    assert Event.objects.get(game=game, kind="ManeuverRolled").provisional
    card = section(body, '<section class="card result-card')
    assert "provenance-provisional" not in card and "has-warning" not in card  # no orange badge, no orange frame
    assert re.search(r'class="provisional-note[^"]*">.*Used a provisional chart cell', card)
    # the cell's line, with the dagger in place of "(provisional)", which a screen reader still hears
    cells = re.findall(r"<li>(Maneuver table:.*?)</li>", card, re.S)
    assert cells and all("(provisional)" not in c and "†" in c and "(provisional cell)" in c for c in cells)

    turn_log = text(client.get(f"/games/{game.pk}/log/"))
    assert re.search(r'class="small mb-0 provisional-note">.*Used a provisional chart cell', turn_log)
    assert "(provisional cell)" in turn_log


def test_a_result_read_from_the_printed_chart_keeps_its_mark(client, demo):
    game = at_move(demo)
    body = text(roll_post(client, game, brigade(game, "Archer's Brigade"), die="1", printed=["advance", "pull_back"]))
    card = section(body, '<section class="card result-card')
    assert '<span class="provenance provenance-derived">printed chart</span>' in card
    assert "Result read from the players&#x27; printed chart." in card and "provisional-note" not in card
