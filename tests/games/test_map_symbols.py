"""Every unit the table reads, in a step's rows and on its card in the order of battle, shows its type's military
map symbol (a frame with an X for infantry, one diagonal for cavalry, a dot for artillery) named for a screen
reader, its condition by colour and word, and a brigade's bases; the symbols are drawn once a page and each unit
only points to its own, so a page of 40 rows pays a few bytes a row."""

import re

from republic.games.models import Unit
from tests.games.conftest import at_step, battery, brigade, page, row_of, set_state


def symbol(html: str) -> tuple[str, str]:
    """The words and the drawing of the map symbol in a piece of a page."""
    found = re.search(r'<svg class="map-symbol" role="img" aria-label="([^"]+)"><use href="#(sym-\w+)"/></svg>', html)
    assert found, html[:300]
    return found.group(1), found.group(2)


def test_a_rally_row_shows_the_brigades_symbol_condition_and_bases(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=1, bases=6)
    body = page(client, at_step(demo, "rally"))
    row = row_of(body, davis)
    assert symbol(row) == ("Infantry", "sym-inf")
    assert '<span class="condition-badge">Unformed</span>' in row and "6/8 bases" in row
    # the drawings are on the page once, each unit's symbol a reference to one
    assert body.count('<symbol id="sym-inf"') == 1 and body.count("<symbol ") == 3


def test_the_move_and_artillery_rows_show_each_units_own_symbol(client, demo):
    body = page(client, at_step(demo, "move"))
    assert symbol(row_of(body, brigade(demo, "Davis's Brigade"))) == ("Infantry", "sym-inf")
    assert symbol(row_of(body, battery(demo, "Pegram's Battalion (rifles)"))) == ("Artillery", "sym-art")
    body = page(client, at_step(demo, "artillery_fire"))
    hall = battery(demo, "2nd Maine Light, Battery B (Hall)")
    assert symbol(row_of(body, hall)) == ("Artillery", "sym-art")
    assert "bases" not in row_of(body, hall)  # a battery's strength is its damage, on its card


def test_a_units_card_in_the_order_of_battle_shows_its_symbol(client, demo):
    gamble = brigade(demo, "Gamble's Brigade")
    body = client.get(f"/games/{demo.pk}/divisions/{gamble.division_id}/").content.decode()
    card = re.search(r'<article class="unit-card[^"]*" aria-label="Gamble&#x27;s Brigade">.*?</article>', body, re.S)
    assert card and symbol(card.group(0)) == ("Cavalry, dismounted", "sym-cav")
    drawn = {symbol(c)[0] for c in re.findall(r"<article class=\"unit-card.*?</article>", body, re.S)}
    kinds = {u.kind for u in Unit.objects.filter(division_id=gamble.division_id)}
    assert len(drawn) == len(kinds)
    assert body.count('<symbol id="sym-cav"') == 1
