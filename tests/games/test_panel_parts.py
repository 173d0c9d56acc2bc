"""The folded parts of a step's panel (the assault step's declaration, supporting hit, passage of lines and local
breakthrough) and the folds of a row's form (a round's rare cases and leaders beyond the units' own commands): drawn
only once open, so that an answer carries no form nobody has open; fetched open by a tap, a panel's parts kept open
in the answers to a phone that has them open, and drawn open without scripts."""

import republic.games.steps.assaults as assault_step
from tests.games.assault_helpers import declare_data, declared, from_assault, round_data
from tests.games.conftest import HTMX, at_step

DECLARE_FORM = 'aria-label="Declare an assault"'


def test_a_folded_part_is_drawn_only_once_opened(client, game, two):
    davis, cutler = two
    declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    page = client.get(f"/games/{game.pk}/").content.decode()
    address = f"/games/{game.pk}/parts/declare-assault/"
    # an assault is open: the declaration of another is folded, its summary and its address alone
    assert 'id="part-declare-assault"' in page and f'hx-get="{address}"' in page
    assert DECLARE_FORM not in page and 'data-pick="declare-attackers"' not in page
    opened = client.get(address, **HTMX).content.decode()
    assert opened.lstrip().startswith('<details class="declare" id="part-declare-assault" data-part open>')
    assert DECLARE_FORM in opened and 'data-pick="declare-attackers"' in opened
    # without scripts, the summary's link draws the page with the part open
    assert DECLARE_FORM in client.get(f"/games/{game.pk}/?open=declare-assault").content.decode()


def test_the_answer_to_a_phone_brings_back_open_the_parts_it_has_open(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    url = f"/games/{game.pk}/act/assault-round/assault-{seq}/"
    # a round both sides hold: contact goes on, and the card offers the next round
    folded = client.post(url, round_data(game, seq, die="5", die2="5"), **from_assault(seq)).content.decode()
    assert 'id="part-supporting-hit"' in folded and 'aria-label="A supporting brigade' not in folded
    open_on_phone = {**from_assault(seq), "HTTP_PARTS_OPEN": "supporting-hit"}
    kept = client.post(url, round_data(game, seq, die="5", die2="5"), **open_on_phone).content.decode()
    assert game.events.filter(kind="AssaultRoundResolved").count() == 2
    assert 'aria-label="A supporting brigade' in kept and DECLARE_FORM not in kept


def test_a_part_folds_again_once_its_action_is_taken(client, game, two):
    """A declaration recorded: the phone that had the declaration open gets it folded, as a reload draws it while an
    assault is open, and its answers stop carrying the battle's lists of units."""
    davis, cutler = two
    data = declare_data(game, [(davis, "all_out")], [(cutler, "all_out")], None, None, None)
    url = f"/games/{game.pk}/act/declare-assault/game-{game.pk}/"
    answer = client.post(url, data, **HTMX, HTTP_PARTS_OPEN="declare-assault supporting-hit").content.decode()
    assert game.events.filter(kind="AssaultDeclared").count() == 1
    assert 'id="part-declare-assault"' in answer and DECLARE_FORM not in answer
    assert 'aria-label="A supporting brigade' in answer  # the other part the phone has open stays open


def test_a_part_the_step_does_not_have_answers_with_the_step_as_it_stands(client, demo):
    game = at_step(demo, "rally")
    response = client.get(f"/games/{game.pk}/parts/declare-assault/", **HTMX, HTTP_HX_TARGET="part-declare-assault")
    assert response.status_code == 200 and response["HX-Retarget"] == "#live"
    assert "That is not part of this step" in response.content.decode()


def test_a_round_s_rare_cases_are_folded_until_opened_and_kept_open_once_ticked(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    row = f"/games/{game.pk}/rows/assault-{seq}/"
    opened = client.get(row, **HTMX).content.decode()
    box = f'name="round-assault-{seq}-surrounded"'
    assert f'hx-get="{row}?fold=rare"' in opened and box not in opened
    unfolded = client.get(f"{row}?fold=rare", **HTMX).content.decode()
    assert unfolded.lstrip().startswith(f'<details class="printed small mb-2" id="fold-round-assault-{seq}-rare" open>')
    assert box in unfolded
    # without scripts, the fold's link draws the page with the row and the fold open
    assert box in client.get(f"/games/{game.pk}/?open=assault-{seq}&fold=rare").content.decode()
    # a round refused for its die keeps what was ticked, its fold open
    refused = client.post(
        f"/games/{game.pk}/act/assault-round/assault-{seq}/",
        round_data(game, seq, die="", surrounded=[cutler.piece.name]),
        **from_assault(seq),
    ).content.decode()
    assert f'{box} value="{cutler.piece.name}" checked' in refused


def test_a_fold_of_a_row_the_step_no_longer_has_answers_with_the_step_as_it_stands(client, game):
    response = client.get(f"/games/{game.pk}/rows/assault-99999/?fold=rare", **HTMX, HTTP_HX_TARGET="fold")
    assert response.status_code == 200 and response["HX-Retarget"] == "#live"
    assert "not part of this step" in response.content.decode()


def test_the_offers_of_a_folded_part_are_not_even_made_until_it_is_opened(client, game, two, monkeypatch):
    """The supporting hit's and the local breakthrough's forms list the side's units (a thousand at a convention):
    a page, an answer or another part drawn with them folded does not make them at all."""
    made: list[str] = []
    for name in ("supporting_form", "local_breakthrough_form"):
        real = getattr(assault_step, name)
        monkeypatch.setattr(assault_step, name, lambda s, *a, real=real, name=name: made.append(name) or real(s, *a))
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="part-supporting-hit"' in page and 'id="part-local-breakthrough"' in page
    client.get(f"/games/{game.pk}/parts/declare-assault/", **HTMX)
    assert made == []
    opened = client.get(f"/games/{game.pk}/parts/supporting-hit/", **HTMX).content.decode()
    assert 'aria-label="A supporting brigade' in opened and made == ["supporting_form"]
    opened = client.get(f"/games/{game.pk}/parts/local-breakthrough/", **HTMX).content.decode()
    assert 'id="part-local-breakthrough" data-part open' in opened and made[-1] == "local_breakthrough_form"
