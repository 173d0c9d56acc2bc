"""A die's pad as the server draws and reads it: each face a button (one die) or a radio (several), the face a tap
sends resolves the action, a face out of 1-10 is refused with no write, and a face refused for another field
comes back chosen, so that "Roll for me" pressed next does not throw the table's die away."""

import html
import re

import pytest

from republic.games.models import Event, Game
from republic.games.scenario import create_game, parse_scenario
from republic.rules.dice import RollSource
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import HTMX, brigade, opened_row, payload, set_state
from tests.games.test_rally import at_rally

FACE = re.compile(r"<button class=die-face name=([\w-]+) value=(\d+)( aria-pressed=true)?>(\d+)</button>")
RADIO = re.compile(r"<label class=die-face><input type=radio name=([\w-]+) value=(\d+)( checked)?>(\d+)</label>")


@pytest.fixture
def rallying(demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=2)
    return at_rally(demo), davis


def tapped(client, game, unit, face: str, distance: str = "3", **extra):
    """What a face button sends: the form's fields and the face, with no Resolve pressed."""
    prefix = f"rally-{unit.piece.name}"
    data = {f"{prefix}-version": game.version, f"{prefix}-division_leader_distance": distance, **extra}
    data[f"{prefix}-die"] = face
    return client.post(f"/games/{game.pk}/act/rally/unit-{unit.pk}/", data, **HTMX)


def test_a_one_die_form_draws_ten_face_buttons_and_the_face_tapped_resolves(client, rallying):
    game, davis = rallying
    drawn = opened_row(client, game, davis)
    pad = drawn[drawn.index('<div class="die-pad"') :]
    assert 'role=group aria-label="Die (1-10)"' in pad[:80]
    faces = FACE.findall(pad)
    assert [(value, text) for _, value, _, text in faces] == [(str(n), str(n)) for n in range(1, 11)]
    assert {name for name, *_ in faces} == {f"rally-{davis.piece.name}-die"} and not any(p for _, _, p, _ in faces)
    # Enter in a field sends Resolve, not the face 1: the first submit button of the form is a hidden Resolve
    form = drawn[drawn.index("<form") :]
    assert form.index('<button type="submit" name="roll" value="typed" hidden>') < form.index("class=die-face")
    tapped(client, game, davis, "9")
    rolled = payload(Event.objects.get(game=game, kind="RallyResolved")).inputs.roll
    assert rolled.faces == (9,) and rolled.source is RollSource.TYPED


@pytest.mark.parametrize(
    ("face", "said"),
    [
        ("0", "A d10 shows 1 to 10."),
        ("11", "A d10 shows 1 to 10."),
        ("x", "A d10 shows a whole number, 1 to 10."),
        ("", "Tap the die you rolled (1-10), or press Roll for me."),
    ],
)
def test_a_face_out_of_the_die_is_refused_at_its_pad_and_writes_nothing(client, rallying, face, said):
    game, davis = rallying
    version = game.version
    body = tapped(client, game, davis, face).content.decode()
    pad = body[body.index(f"id=div_id_rally-{davis.piece.name}-die") :]
    assert html.unescape(said) in html.unescape(pad[: pad.index("</div></div>") + 200])
    assert '<div class="die-pad is-invalid"' in pad and not re.search("aria-pressed", pad.split("</div>")[1])
    game.refresh_from_db()
    assert game.version == version and not Event.objects.filter(game=game, kind="RallyResolved").exists()


def test_a_face_refused_for_another_field_comes_back_chosen_and_roll_for_me_then_keeps_it(client, rallying):
    game, davis = rallying
    die = f"rally-{davis.piece.name}-die"
    body = tapped(client, game, davis, "7", distance="").content.decode()
    assert "This field is required." in body
    chosen = [value for name, value, pressed, _ in FACE.findall(body) if pressed]
    assert chosen == ["7"] and f"<input type=hidden name={die} value=7>" in body
    assert not Event.objects.filter(game=game, kind="RallyResolved").exists()
    # the table filled the distance and pressed Roll for me: the hidden face rides along and is not thrown away
    body = tapped(client, game, davis, "7", roll="app").content.decode()
    assert "You chose 7 on this die, so the app did not roll" in html.unescape(body)
    assert not any(pressed for *_, pressed, _ in FACE.findall(body)) and f"type=hidden name={die}" not in body
    assert not Event.objects.filter(game=game, kind="RallyResolved").exists()
    # pressed again, with the face no longer chosen, the app rolls
    prefix = f"rally-{davis.piece.name}"
    data = {f"{prefix}-version": game.version, f"{prefix}-division_leader_distance": "3", "roll": "app"}
    client.post(f"/games/{game.pk}/act/rally/unit-{davis.pk}/", data, **HTMX)
    assert payload(Event.objects.get(game=game, kind="RallyResolved")).inputs.roll.source is RollSource.APP


@pytest.fixture
def setting_up(db) -> Game:
    return create_game(parse_scenario(DEMO_SCENARIO.read_text().replace("first_attacker: Confederate\n", "")))


def test_two_dice_are_two_pads_of_radios_and_a_face_refused_for_the_other_die_comes_back_checked(client, setting_up):
    game = setting_up
    page = client.get(f"/games/{game.pk}/").content.decode()
    radios = RADIO.findall(page)
    assert [name.rsplit("-", 1)[1] for name, *_ in radios] == ["die"] * 10 + ["die2"] * 10
    assert [value for _, value, _, _ in radios] == [str(n) for n in range(1, 11)] * 2
    assert 'aria-label="Confederate&#x27;s die (1-10)"' in page and 'aria-label="Union&#x27;s die (1-10)"' in page
    assert "Enter the dice</button>" in page  # without scripts, Resolve sends the two faces
    p = "first-attacker"
    body = client.post(
        f"/games/{game.pk}/act/first-attacker-roll/game-{game.pk}/", {f"{p}-version": game.version, f"{p}-die": "4"}
    ).content.decode()
    assert "Tap the die you rolled (1-10), or press Roll for me." in body
    assert [(n.rsplit("-", 1)[1], v) for n, v, checked, _ in RADIO.findall(body) if checked] == [("die", "4")]
    assert not Event.objects.filter(game=game).exists()
