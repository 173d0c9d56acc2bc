"""The turn log on its own page: a hundred events a page, the newest first; grouped by game turn, player turn and
phase, each action in the words the phones showed with its dice, modifiers and chart cells; filtered by side,
division and phase."""

import re

import pytest
from django.utils.html import escape

from republic.games.models import Event
from republic.games.text.describe import describe, result_card
from tests.games.conftest import brigade, division, set_state
from tests.games.drawn_dice import dice_line, die
from tests.games.log_helpers import SECRET, Played, play


def test_a_long_log_is_paged_newest_first(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    for n in range(250):
        set_state(demo, davis, m_hits=n % 4)
    newest = client.get(f"/games/{demo.pk}/log/").content.decode()
    assert "Events 201–250 of 250" in newest and "#250 " in newest and "#200 " not in newest
    assert 'href="?page=2"' in newest and "Later →" not in newest
    first = client.get(f"/games/{demo.pk}/log/?page=1").content.decode()
    assert "Events 1–100 of 250" in first and "#1 " in first and "#101 " not in first


def test_a_page_that_is_not_there_shows_the_last_one_and_one_that_is_no_number_is_refused(client, demo):
    set_state(demo, brigade(demo, "Davis's Brigade"), m_hits=1)
    assert "#1 " in client.get(f"/games/{demo.pk}/log/?page=99").content.decode()
    for page in ("nonsense", "-1", "²"):
        response = client.get(f"/games/{demo.pk}/log/?page={page}")
        assert response.status_code == 400 and "?page= takes a whole number" in response.content.decode()


# --- grouped, in the phones' words, filtered ----------------------------------------------------------------


@pytest.fixture
def played(client, demo) -> Played:
    return play(client, demo)


def log(device, game, query: str = "") -> str:
    response = device.get(f"/games/{game.pk}/log/{query}")
    assert response.status_code == 200
    return response.content.decode()


def headings(page: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<h[234][^>]*>(.*?)</h[234]>", page)]


def test_the_log_is_grouped_by_game_turn_player_turn_and_phase(played):
    page = log(played.master, played.game)
    assert headings(page) == [
        "Game turn 1",
        "Player turn 1: Confederate attacking",
        "Messages",
        "Command phase",
        "Maneuver phase",
        "Fire phase",
        "Panic phase",
        "Game turn 2",
        "Player turn 1: Confederate attacking",
        "Command phase",
    ]


def test_each_action_is_in_the_words_the_phones_showed_with_its_dice_modifiers_and_chart_cells(played):
    page = log(played.master, played.game)
    for event in (played.typed, played.app):
        card = result_card(event)
        assert card["modifiers"] and card["cells"] and card["warning"]
        entry = page[page.index(f"#{event.seq} ") :]
        entry = entry[: entry.index("</li>")]
        assert (
            escape(describe(event)) in entry
            and "Dice: " in entry
            and all(die(f) in entry for r in card["rolls"] for f in r.roll.faces)
        )
        assert "Modifiers: " + escape("; ".join(card["modifiers"])) in entry
        for cell in card["cells"]:
            assert escape(cell["line"].removesuffix(" (provisional)")) in entry
        assert 'class="provisional-mark"' in entry and escape(card["warning"]) in entry
    assert dice_line(("maneuver", 3, "typed")) in page
    assert re.search(re.escape(dice_line(("maneuver", 0, "rolled by the app"))).replace("0", r"\d+"), page)


def test_an_undone_action_and_its_undo_are_shown_as_such(played):
    page = log(played.master, played.game)
    undone = re.search(rf'<li class="log-entry is-undone">\s*<p[^>]*><span[^>]*>#{played.app.seq} .*?</li>', page, re.S)
    assert undone and f"(undone by #{played.undo.seq})" in undone.group(0)
    undo = re.search(rf'<li class="log-entry is-undo">\s*<p[^>]*><span[^>]*>#{played.undo.seq} .*?</li>', page, re.S)
    assert undo and escape(f"Undone: {describe(played.app)}") in undo.group(0)
    assert "Go back to here" not in undo.group(0)


def seqs(page: str) -> set[int]:
    return {int(n) for n in re.findall(r'<span class="text-muted">#(\d+) ', page)}


def by_kind(game, kind: str) -> set[int]:
    return set(Event.objects.filter(game=game, kind=kind).values_list("seq", flat=True))


def test_a_division_keeps_the_actions_naming_its_units_leaders_or_itself(played):
    game = played.game
    heth, wadsworth, buford = (
        division(game, n) for n in ("Heth's Division", "Wadsworth's Division", "Buford's Cavalry Division")
    )
    # a maneuver roll names its brigade; its undo goes with it
    assert seqs(log(played.master, game, f"?division={heth.pk}")) == {played.typed.seq, played.app.seq, played.undo.seq}
    # a unit's correction, a leader passed over (his number), a division's adjoining ones (its number as text)
    cutler = last_of(game, "CorrectionMade", "Cutler's Brigade")
    wadsworth_seqs = {cutler, *by_kind(game, "HorsDeCombatSkipped"), *by_kind(game, "AdjoiningDeclared")}
    assert seqs(log(played.master, game, f"?division={wadsworth.pk}")) == wadsworth_seqs
    # its orders (its number), its leader corrected by hand (his key), its brigade in game turn 2
    buford_seqs = {
        *by_kind(game, "OrdersChanged"),
        last_of(game, "CorrectionMade", "John Buford"),
        last_of(game, "CorrectionMade", "Gamble's Brigade"),
    }
    assert seqs(log(played.master, game, f"?division={buford.pk}")) == buford_seqs


def last_of(game, kind: str, name: str) -> int:
    found = [e.seq for e in Event.objects.filter(game=game, kind=kind) if name in describe(e)]
    assert found, f"no {kind} names {name}"
    return found[-1]


def test_a_side_keeps_what_its_players_did_and_what_was_done_to_it(played):
    game = played.game
    union, confederate = game.sides.get(name="Union"), game.sides.get(name="Confederate")
    union_page = log(played.master, game, f"?side={union.pk}")
    assert seqs(union_page) == {
        last_of(game, "CorrectionMade", "Cutler's Brigade"),  # by a Union player
        *by_kind(game, "OrdersChanged"),
        last_of(game, "CorrectionMade", "John Buford"),
        *by_kind(game, "HorsDeCombatSkipped"),
        *by_kind(game, "AdjoiningDeclared"),
        last_of(game, "CorrectionMade", "Gamble's Brigade"),
    }
    assert SECRET in union_page  # the game master's copy: the Union's message with the Union's actions
    confederate_page = log(played.master, game, f"?side={confederate.pk}")
    assert seqs(confederate_page) == {played.typed.seq, played.app.seq, played.undo.seq}
    assert SECRET not in confederate_page


def test_a_phase_keeps_its_steps_actions(played):
    game = played.game
    fire = log(played.master, game, "?phase=fire")
    assert headings(fire) == ["Game turn 1", "Player turn 1: Confederate attacking", "Fire phase"]
    assert seqs(fire) == set(
        Event.objects.filter(game=game, step__in=["skirmish", "artillery_fire"]).values_list("seq", flat=True)
    )
    assert SECRET not in fire  # a message belongs to the command phase
    assert SECRET in log(played.master, game, "?phase=command")
    maneuver = log(played.master, game, "?phase=maneuver")
    assert {played.typed.seq, played.app.seq, played.undo.seq} <= seqs(maneuver)


def test_the_form_shows_the_filters_and_a_value_of_no_such_thing_is_refused_naming_it(played):
    game = played.game
    heth = division(game, "Heth's Division")
    page = log(played.master, game, f"?division={heth.pk}&phase=maneuver")
    assert f'<option value="{heth.pk}" selected>' in page and '<option value="maneuver" selected>' in page
    assert f'href="/games/{game.pk}/log/pdf/?division={heth.pk}&amp;phase=maneuver"' in page
    assert seqs(log(played.master, game, "?division=&side=&phase=")) == seqs(log(played.master, game))
    refused = {
        "?division=999999": "?division= takes one of this game&#x27;s divisions; got &#x27;999999&#x27;.",
        "?side=nonsense": "?side= takes one of this game&#x27;s sides; got &#x27;nonsense&#x27;.",
        "?phase=breakfast": "?phase= takes a phase; got &#x27;breakfast&#x27;.",
    }
    for query, said in refused.items():
        for address in (f"/games/{game.pk}/log/{query}", f"/games/{game.pk}/log/pdf/{query}"):
            response = played.master.get(address)
            assert response.status_code == 400 and said in response.content.decode(), address


def test_the_pages_of_a_filtered_log_keep_its_filters(client, demo):
    davis, cutler = brigade(demo, "Davis's Brigade"), brigade(demo, "Cutler's Brigade")
    for n in range(220):
        set_state(demo, davis if n % 2 else cutler, m_hits=n % 4)
    heth = division(demo, "Heth's Division")
    newest = log(client, demo, f"?division={heth.pk}&phase=command")
    assert "Events 101–110 of 110" in newest
    assert f'href="?division={heth.pk}&amp;phase=command&amp;page=1"' in newest
    first = log(client, demo, f"?division={heth.pk}&phase=command&page=1")
    assert "Events 1–100 of 110" in first and f'href="?division={heth.pk}&amp;phase=command&amp;page=2"' in first
    assert all("Davis" in describe(e) for e in Event.objects.filter(game=demo, seq__in=seqs(first)))
