"""Each side's copy of the turn log, on the page and in the PDF made on the server: a seated player's holds his own
side's messages in their game turn and player turn, the other side's copy never does on any address, and the game
master's holds them all, each marked with its side. The PDF is the whole log (or the filtered one), grouped like
the page, with its title line, read back with pdftotext."""

import re

import pytest

from republic.games.models import Dispatch, Seat
from republic.games.text.describe import result_card
from republic.games.views import log_pdf
from tests.games.conftest import HTMX, division
from tests.games.log_helpers import SECRET, Played, pdf_info, pdf_text, play
from tests.games.test_access import GAME_ADDRESSES, OTHER_ADDRESSES, address


@pytest.fixture
def played(client, demo) -> Played:
    return play(client, demo)


def turn_of(page: str, text: str) -> str:
    """The headings of the game turn and player turn a piece of text sits in, in reading order before it."""
    before = page[: page.index(text)]
    game_turn = re.findall(r"Game turn \d+", before)[-1]
    player_turn = re.findall(r"Player turn \d+", before)[-1]
    return f"{game_turn}, {player_turn}"


def test_a_seated_players_copy_holds_his_sides_messages_in_their_player_turn(played):
    game = played.game
    for phone in (played.bob, played.carl):  # the writer, the reader: both of the Union
        page = phone.get(f"/games/{game.pk}/log/").content.decode()
        assert SECRET in page and turn_of(page, SECRET) == "Game turn 1, Player turn 1"
        assert "Bob to Carl" in page and "The Union copy" in page
        text = pdf_text(phone.get(f"/games/{game.pk}/log/pdf/"))
        assert SECRET in text and turn_of(text, SECRET) == "Game turn 1, Player turn 1"


def test_the_game_masters_copy_holds_every_message_marked_with_its_side(played):
    game = played.game
    page = played.master.get(f"/games/{game.pk}/log/").content.decode()
    assert '<span class="letter-side">Union</span> · Bob to Carl' in page and SECRET in page
    text = pdf_text(played.master.get(f"/games/{game.pk}/log/pdf/"))
    assert f"Union · Bob to Carl {SECRET}" in text and "The game master's copy" in text


def test_the_other_sides_copy_never_holds_a_message_on_any_address(played):
    game, ann = played.game, played.ann
    assert Dispatch.objects.filter(game=game).count() == 1
    for name in [*GAME_ADDRESSES, *OTHER_ADDRESSES]:
        url = address(name, game)
        for headers in ({}, HTMX):
            response = ann.get(url, **headers)
            pdf = response.get("Content-Type") == "application/pdf"
            body = pdf_text(response) if pdf else response.content.decode()
            assert SECRET not in body and "Bob to Carl" not in body, f"{url} shows the Union's message to Ann"
    heth = division(game, "Heth's Division")
    filters = ["", *(f"?side={s.pk}" for s in game.sides.all()), f"?division={heth.pk}", "?phase=command", "?page=1"]
    for query in filters:
        page = ann.get(f"/games/{game.pk}/log/{query}").content.decode()
        assert SECRET not in page and "Messages</h4>" not in page, query
        assert SECRET not in pdf_text(ann.get(f"/games/{game.pk}/log/pdf/{query}")), query


def test_a_filtered_pdf_is_saved_under_a_name_that_says_its_filter(client, demo):
    heth = division(demo, "Heth's Division")
    whole = client.get(f"/games/{demo.pk}/log/pdf/")["Content-Disposition"]
    assert whole.endswith('turn-log-game-master.pdf"')
    filtered = client.get(f"/games/{demo.pk}/log/pdf/?division={heth.pk}&phase=command")["Content-Disposition"]
    assert filtered.endswith('turn-log-heths-division-command-phase-game-master.pdf"')


def test_the_pdf_is_the_whole_log_grouped_like_the_page_with_its_title_line(played):
    game = played.game
    response = played.master.get(f"/games/{game.pk}/log/pdf/")
    assert (
        response["Content-Disposition"].startswith('attachment; filename="')
        and ".pdf" in response["Content-Disposition"]
    )
    text = pdf_text(response)
    first = text.split("\f")[0]
    assert f"{game.name} · chart {game.chart_version} · begun" in first
    card = result_card(played.typed)
    assert card is not None and card["modifiers"]
    assert "Modifiers: " + "; ".join(card["modifiers"]) in text and "Dice: maneuver 3, typed" in text
    assert "Used a provisional chart cell" in text and "†" in text
    assert f"(undone by #{played.undo.seq})" in text
    order = ["Game turn 1", "Player turn 1: Confederate attacking", "MESSAGES", "COMMAND PHASE", "MANEUVER PHASE"]
    assert [text.index(words) for words in order] == sorted(text.index(words) for words in order)
    # each game turn starts a page, even when the one before is short
    buford = division(game, "Buford's Cavalry Division")
    short = pdf_text(played.master.get(f"/games/{game.pk}/log/pdf/?division={buford.pk}")).split("\f")
    assert "Game turn 1" in short[0] and "Game turn 2" not in short[0] and short[1].startswith("Game turn 2")
    # each page says which it is of how many, at its foot
    pages = [page for page in short if page]
    feet = [found.groups() if (found := re.search(r"(\d+) ?/ ?(\d+)$", page)) else None for page in pages]
    assert len(pages) > 1 and feet == [(str(n), str(len(pages))) for n in range(1, len(pages) + 1)]
    # nothing to tap on paper
    assert "Go back to here" not in text and "Show" not in text.split()


def test_the_pdf_comes_on_a4_or_letter_and_filtered_like_the_page(played):
    game = played.game
    assert "595.276 x 841.89 pts (A4)" in pdf_info(played.master.get(f"/games/{game.pk}/log/pdf/"))
    assert "612 x 792 pts (letter)" in pdf_info(played.master.get(f"/games/{game.pk}/log/pdf/?paper=letter"))
    heth = division(game, "Heth's Division")
    text = pdf_text(played.master.get(f"/games/{game.pk}/log/pdf/?division={heth.pk}&page=2"))
    assert "Brockenbrough's Brigade maneuver" in text and "Cutler" not in text and "Game turn 2" not in text
    assert "Showing the actions naming Heth's Division" in text


def test_the_pdf_is_read_with_get_alone(played):
    assert played.master.post(f"/games/{played.game.pk}/log/pdf/").status_code == 405


def test_a_server_that_cannot_make_the_pdf_says_so_and_serves_the_page(played, monkeypatch, tmp_path):
    monkeypatch.setattr(log_pdf, "FONTS", tmp_path)  # as where fonts-dejavu-core is missing: no font to read
    response = played.master.get(f"/games/{played.game.pk}/log/pdf/")
    assert response.status_code == 503 and "make system-packages" in response.content.decode()
    assert played.master.get(f"/games/{played.game.pk}/log/").status_code == 200


def test_a_messages_words_are_printed_as_written_whatever_signs_they_hold(played):
    game = played.game
    bob, carl = Seat.objects.get(game=game, name="Bob"), Seat.objects.get(game=game, name="Carl")
    words = "Guns < 3 & <b>hold</b> the ford’s bank\nthen fall back × 2"
    Dispatch.objects.create(game=game, game_turn=2, player_turn=1, sender=bob, recipient=carl, text=words)
    text = pdf_text(played.carl.get(f"/games/{game.pk}/log/pdf/"))
    assert "Guns < 3 & <b>hold</b> the ford’s bank then fall back × 2" in text
