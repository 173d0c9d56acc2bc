"""The leaders a rally asks about (2.2, 2.3): only those whose rating reaches the rallying unit are offered, and each
one chosen adds his rating as his place in the chain of command allows."""

import re

import pytest

from republic.games.models import Event, Game
from republic.games.scenario import create_game, parse_scenario
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import brigade, leader, opened_row, payload, set_state
from tests.games.test_rally import at_rally, rally_post

# Lee's army above Hill's corps, beside Heth's: two divisions of Hill's and two of another corps, rated so that one of
# each pair reaches a brigade of Heth's and the other does not
ARMY = """      - level: army
        name: Army of Northern Virginia
        leader: {name: Robert E. Lee, value: E4}
        commands:
          - level: corps
            name: Third Corps
            leader: {name: A. P. Hill, value: P1}
            commands:
              - level: division
                name: Heth's Division
                orders: attack
                leader: {name: Henry Heth, value: E1}
                brigades:
                  - {name: Davis's Brigade, grade: average, bases: 8, formation: two_line, skirmishers: 2}
              - level: division
                name: Pender's Division
                orders: attack
                leader: {name: W. Dorsey Pender, value: P1}
                brigades:
                  - {name: Lane's Brigade, grade: veteran, bases: 6, formation: two_line}
              - level: division
                name: Anderson's Division
                orders: attack
                leader: {name: Richard H. Anderson, value: P2}
                brigades:
                  - {name: Wilcox's Brigade, grade: veteran, bases: 6, formation: two_line}
          - level: corps
            name: Second Corps
            leader: {name: Richard S. Ewell, value: C1}
            commands:
              - level: division
                name: Rodes's Division
                orders: attack
                leader: {name: Robert E. Rodes, value: E2}
                brigades:
                  - {name: Iverson's Brigade, grade: average, bases: 6, formation: two_line}
              - level: division
                name: Early's Division
                orders: attack
                leader: {name: Jubal A. Early, value: E3}
                brigades:
                  - {name: Gordon's Brigade, grade: veteran, bases: 6, formation: two_line}
"""
REACHING = ["Robert E. Lee (E4)", "A. P. Hill (P1)", "Richard H. Anderson (P2)", "Jubal A. Early (E3)"]
NOT_OFFERED = [
    "<strong>A leader rated 1 or less helps only the units of his own command (2.2)</strong>: W. Dorsey Pender (P1), "
    "Richard S. Ewell (C1)",
    "<strong>A leader rated 2 helps only the units of his own corps (2.2)</strong>: Robert E. Rodes (E2)",
]


def with_army() -> Game:
    """The demo battle with Lee's army on the Confederate side (``ARMY``), Davis's Brigade shaken, at the rally."""
    text = DEMO_SCENARIO.read_text(encoding="utf-8")
    start, end = text.index("      - level: corps\n        name: Third Corps"), text.index("  - name: Union\n")
    game = create_game(parse_scenario(text[:start] + ARMY + text[end:]))
    set_state(game, brigade(game, "Davis's Brigade"), m_hits=2)
    return at_rally(game)


@pytest.fixture
def army(db) -> Game:
    return with_army()


def test_a_rally_offers_only_the_leaders_whose_rating_reaches_the_unit_and_says_why_not_the_others(client, army):
    form = opened_row(client, army, brigade(army, "Davis's Brigade"))
    assert re.findall(r'name="rally-unit-\d+-leaders_within_4" value="\d+">([^<]+)</label>', form) == REACHING
    assert re.findall(r"<li>(.+?)</li>", form.split("Not offered (3)")[1]) == NOT_OFFERED
    assert "Henry Heth" not in form.split("Other leaders within")[1]  # his own division leader, asked apart


def test_each_leader_chosen_adds_his_rating_by_his_place_in_the_chain_of_command(client, army):
    davis = brigade(army, "Davis's Brigade")
    chosen = [str(leader(army, name).pk) for name in ("Robert E. Lee", "Richard H. Anderson", "Jubal A. Early")]
    rally_post(client, army, davis, die="1", **{f"rally-{davis.piece.name}-leaders_within_4": chosen})
    rallied = payload(Event.objects.get(game=army, kind="RallyResolved"))
    assert [(m.label, m.value) for m in rallied.result.modifiers[1:]] == [
        ('corps or army leader in the chain of command within 4" (E4)', 4),
        ('rating 2+ leader of an adjoining formation of the same corps within 4" (P2)', 2),
        ('rating 3+ leader of the same side within 4" (E3)', 3),
    ]
    assert rallied.leaders_within_4 == ("Robert E. Lee (E4)", "Richard H. Anderson (P2)", "Jubal A. Early (E3)")


def test_a_leader_out_of_reach_is_refused_by_name_and_nothing_is_recorded(client, army):
    davis = brigade(army, "Davis's Brigade")
    pender = str(leader(army, "W. Dorsey Pender").pk)
    response = rally_post(client, army, davis, **{f"rally-{davis.piece.name}-leaders_within_4": [pender]})
    assert response.status_code == 200
    told = "W. Dorsey Pender (P1) is not offered: a leader rated 1 or less helps only the units of his own command"
    assert told in response.content.decode()
    assert not Event.objects.filter(game=army, kind="RallyResolved").exists()
