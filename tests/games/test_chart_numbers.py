"""The numbers the forms and notes show the table come from the game's chart and ground scale: a chart with
other values, or a larger scale, shows other numbers."""

import html

import pytest

from republic.charts import shipped_chart
from republic.games.models import Game
from republic.games.steps import demoralized_panic, division_panic
from republic.rules.panic_phase import PanicTrigger
from tests.games.assault_helpers import PARTS, declared
from tests.games.conftest import brigade, rolled_for_assault, set_state
from tests.games.move_helpers import CARD_FOLDS

OTHER_VALUES = {
    "maneuver_modifiers": 3,
    "movement_box": 5,
    "panic_loss_modifiers": 2,
    "passage_of_lines_hits": "3M",
    "passage_of_lines_reach": 5,
    "assault_fixed_hits": "2M",
}


@pytest.fixture
def other_chart(monkeypatch):
    chart = shipped_chart().overlay(OTHER_VALUES)
    monkeypatch.setattr(Game, "chart", property(lambda game: chart))
    return chart


def page(client, game: Game, step: str, opened: str = "", parts: tuple[str, ...] = ()) -> str:
    """The game page at a step, with the row of the unit named ``opened`` open (and the folds of a unit's card), and
    the folded ``parts`` of its panel."""
    set_state(game, game, step=step)
    shown = [f"unit-{brigade(game, opened).pk}"] if opened else []
    folds = [f"fold={fold}" for fold in CARD_FOLDS] if opened else []
    query = "&".join([*(f"open={name}" for name in [*shown, *parts]), *folds])
    return html.unescape(client.get(f"/games/{game.pk}/?{query}").content.decode())


def test_the_maneuver_and_movement_help_read_the_chart(client, demo):
    shipped = page(client, demo, "move", opened="Davis's Brigade")
    assert "+1 toward that action only (3.2)." in shipped and "proficient +1, energetic +2 each" in shipped
    assert '+2" each (3.4).' in shipped


def test_the_maneuver_and_movement_help_follow_another_chart(client, demo, other_chart):
    shown = page(client, demo, "move", opened="Davis's Brigade")
    assert "+3 toward that action only (3.2)." in shown and "proficient +3, energetic +3 each" in shown
    assert '+5" each (3.4).' in shown and '+2" each' not in shown


def test_the_assault_cases_at_the_table_read_the_chart_and_the_scale(client, demo):
    shown = page(client, demo, "assaults", parts=PARTS)
    assert 'within 3" (horse 6") behind it gives them 1M if Shaken, 2M if Demoralized, 1P if it retreats, 2P' in shown
    set_state(demo, demo, ground_scale="large")
    assert 'within 4.5" (horse 9")' in page(client, demo, "assaults", parts=PARTS)


def test_the_assault_cases_follow_another_chart(client, demo, other_chart):
    shown = page(client, demo, "assaults", parts=PARTS)
    assert 'within 5" (horse 5") behind it gives them 3M if Shaken, 3M if Demoralized' in shown
    # a supporting brigade's hit is the game's chart's too
    cutler, iron = brigade(demo, "Cutler's Brigade"), brigade(demo, "Iron Brigade (Meredith)")
    # Cutler's, the primary defender Iron supported, retreats from its assault
    declared(client, rolled_for_assault(demo), [(brigade(demo, "Davis's Brigade"), "all_out")], [(cutler, "all_out")])
    set_state(demo, cutler, forced_move="Re")
    demo.refresh_from_db()
    data = {
        "supporting-version": demo.version,
        "supporting-unit": iron.name,
        "supporting-supporting_bases": "2",
        "supporting-primary": cutler.name,
        "supporting-move": "D",
    }
    client.post(f"/games/{demo.pk}/act/supporting-hit/game-{demo.pk}/", data)
    iron.refresh_from_db()
    assert iron.m_hits == 2


def test_the_skirmish_reach_follows_the_scale(client, demo):
    set_state(demo, brigade(demo, "Davis's Brigade"), skirmishers_deployed=1)
    set_state(demo, brigade(demo, "Cutler's Brigade"), skirmishers_deployed=1)
    assert 'closest attacking marker within 5"' in page(client, demo, "skirmish")
    set_state(demo, demo, ground_scale="large")
    assert 'closest attacking marker within 7.5"' in page(client, demo, "skirmish")


@pytest.mark.parametrize("bases, words", [(1, "+1 base lost"), (2, "+2 bases lost")])
def test_the_panic_loss_conditions_say_the_chart_s_bases(demo, monkeypatch, bases, words):
    chart = shipped_chart() if bases == 1 else shipped_chart().overlay({"panic_loss_modifiers": bases})
    monkeypatch.setattr(Game, "chart", property(lambda game: chart))
    division = division_panic.panic_form(demo, "1", (PanicTrigger.INTERNAL,))
    unit = demoralized_panic.panic_form(demo, brigade(demo, "Davis's Brigade"))
    for form in (division, unit):
        assert form.fields["out_of_town"].label.endswith(f"({words})")
        assert form.fields["across_bridge_or_ford"].label.endswith(f"({words})")
    assert division.fields["away_from_rear_assault"].label == f"Away from an assault in its rear ({words})"


@pytest.mark.parametrize(
    "values, words",
    [
        ({}, "(-2 on the die); saved fire used now (1 column left)."),
        (
            {"artillery_die_modifiers": -2, "artillery_column_modifiers": -2},
            "(-4 on the die); saved fire used now (2 columns left).",
        ),
    ],
)
def test_a_firing_battery_s_own_hits_and_saved_fire_read_the_chart(client, demo, monkeypatch, values, words):
    chart = shipped_chart().overlay(values)
    monkeypatch.setattr(Game, "chart", property(lambda game: chart))
    set_state(demo, brigade(demo, "Garnett's Battalion"), m_hits=1, damage=1, saved_fire=True)
    shown = page(client, demo, "artillery_fire", opened="Garnett's Battalion")
    assert f"From the state: average, 1 M, damage 1 {words}" in shown
