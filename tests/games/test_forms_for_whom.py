"""Every control is drawn only for a seat that may use it (``views/access.py`` ``Mine``, read from each action's
``who`` in its step's declaration): a seat of the other side sees a step's rows (what is happening and who acts) but
no form it would be refused for; the side that acts and the game master see theirs. Each step below is set up with
work in the demo battle, every row and folded part of its page drawn open, and every form found on it sent empty by
the device it was drawn for: none may be refused (403), and none changes the game."""

import re
from urllib.parse import urlencode

import pytest

from republic.games.models import Game
from republic.rules.morale import MAX_M_HITS
from tests.devices import seated_device
from tests.games.conftest import at_step, brigade, fresh, leader, set_state

FORM = re.compile(r'<form[^>]*action="(/games/\d+/act/[^"]+/)"')


def _rally(game: Game) -> Game:
    set_state(game, brigade(game, "Davis's Brigade"), m_hits=1)
    return at_step(game, "rally")


def _replace(game: Game) -> Game:
    set_state(game, leader(game, "Henry Heth"), hors_de_combat=True)
    return at_step(game, "replace_leaders")


def _skirmish(game: Game) -> Game:
    set_state(game, brigade(game, "Davis's Brigade"), skirmishers_deployed=2)
    set_state(game, brigade(game, "Cutler's Brigade"), skirmishers_deployed=1)
    return at_step(game, "skirmish")


def _demoralized(game: Game) -> Game:
    set_state(game, brigade(game, "Davis's Brigade"), m_hits=MAX_M_HITS, p_hits_turn=2)
    set_state(game, brigade(game, "Cutler's Brigade"), m_hits=MAX_M_HITS, p_hits_turn=2)
    return at_step(game, "demoralized_panic")


def _internal_panic(game: Game) -> Game:
    set_state(game, brigade(game, "Cutler's Brigade"), p4_event=True)
    return at_step(game, "internal_panic")


# each step with work waiting, and the sides that have a form in it: the attacker's, the defender's or both
STEPS = {
    "rally": (_rally, {"Confederate"}),
    "replace_leaders": (_replace, {"Confederate"}),
    "move": (lambda game: at_step(game, "move"), {"Confederate", "Union"}),  # the Union's batteries' passing fire
    "skirmish": (_skirmish, {"Union"}),  # both sides have markers out: the defenders declare their blocks first
    "artillery_fire": (lambda game: at_step(game, "artillery_fire"), {"Confederate", "Union"}),
    "fire_hors_de_combat": (lambda game: at_step(game, "fire_hors_de_combat"), {"Confederate", "Union"}),
    "demoralized_panic": (_demoralized, {"Confederate", "Union"}),
    # the attackers declare the assaults, the defenders enter a supporting brigade's hit
    "assaults": (lambda game: at_step(game, "assaults"), {"Confederate", "Union"}),
    "charge_disorder": (lambda game: at_step(game, "charge_disorder"), {"Confederate"}),
    "internal_panic": (_internal_panic, {"Union"}),
}


def forms_drawn(device, game: Game) -> tuple[str, set[str]]:
    """The page with every row and folded part of the step drawn open, and the folds of the rows' forms, and the
    address of every form on it."""
    page = device.get(f"/games/{game.pk}/").content.decode()
    opened = re.findall(r'<li class="work-row[^"]*" id="row-([a-z]+-\d+)"', page)
    opened += re.findall(r'id="part-([a-z-]+)" data-part', page)
    whole = device.get(f"/games/{game.pk}/?{urlencode([('open', name) for name in opened])}").content.decode()
    folds = sorted(set(re.findall(r'\?fold=([a-z-]+)"', whole)))
    asked = [*(("open", name) for name in opened), *(("fold", fold) for fold in folds)]
    whole = device.get(f"/games/{game.pk}/?{urlencode(asked)}").content.decode()
    return whole, set(FORM.findall(whole))


@pytest.mark.parametrize("step", list(STEPS))
def test_each_device_is_drawn_only_the_forms_it_may_send(client, demo, step):
    setup, acting = STEPS[step]
    game = setup(demo)
    version = fresh(game).version
    devices = {
        "master": client,
        "Confederate": seated_device(game, "Confederate"),
        "Union": seated_device(game, "Union"),
    }
    drawn = {}
    for name, device in devices.items():
        page, forms = forms_drawn(device, game)
        for action in forms:
            assert device.post(action, {}).status_code != 403, f"{name} was drawn {action} at {step}"
        drawn[name] = (page, forms)
    assert fresh(game).version == version  # the empty forms changed nothing
    for side in ("Confederate", "Union"):
        page, forms = drawn[side]
        assert bool(forms) == (side in acting), f"{side} at {step}: {sorted(forms)}"
        assert forms <= drawn["master"][1]  # the game master sees every form a seat sees
        if side not in acting and '<li class="work-row' in page:
            other = ({"Confederate", "Union"} - {side}).pop()
            assert f"For the {other} players" in page  # a row of theirs says who acts on it


def test_a_row_of_the_other_side_opens_to_no_form(demo):
    game = _rally(demo)
    davis = brigade(game, "Davis's Brigade")
    union = seated_device(game, "Union")
    row = union.get(f"/games/{game.pk}/rows/unit-{davis.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert "<form" not in row and "For the Confederate players: rally" in row
    mine = seated_device(game, "Confederate").get(f"/games/{game.pk}/rows/unit-{davis.pk}/", HTTP_HX_REQUEST="true")
    assert f'action="/games/{game.pk}/act/rally/unit-{davis.pk}/"' in mine.content.decode()


def test_a_folded_part_of_the_other_side_is_not_drawn_open(demo):
    game = at_step(demo, "assaults")
    union = seated_device(game, "Union")
    body = union.get(f"/games/{game.pk}/parts/declare-assault/", HTTP_HX_REQUEST="true").content.decode()
    assert "the other side&#x27;s to do" in body and "/act/declare-assault/" not in body
