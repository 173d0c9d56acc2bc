"""The battle report: the demo played through two game turns and its report held to the state the players saw at
the end of each player turn, to the fallen leader, the panics and the assaults of the story; the page's charts
parsed as XML and read back against the tables beside them; a rout and a turn taken back; both sides reading the
same report; and the same number of queries at two sizes of a club battle."""

import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from django.core.cache import cache
from django.test import Client

from republic.games.events.assault import AssaultRoundResolved
from republic.games.ledger import undo_last
from republic.games.models import Event, Game, Unit
from republic.games.report.walk import Strength, read
from republic.games.text import report_words as said
from republic.rules.morale import condition_for
from tests.devices import seated_device
from tests.games.conftest import brigade, fresh, payload, set_state
from tests.games.playthrough_game_turn_1 import confederate_turn_1, union_turn_1
from tests.games.playthrough_game_turn_2 import confederate_turn_2, union_turn_2
from tests.games.playthrough_table import Table
from tests.games.query_helpers import Costs, battles, brigades_of, go_to, set_each

SVG = "{http://www.w3.org/2000/svg}"


def strength_now(game: Game) -> list[tuple[int, dict[str, int], int]]:
    """Each side's bases, brigades by state and batteries as the rows hold them now (the order of the sides)."""
    found = []
    for side in game.sides.order_by("order"):
        units = list(Unit.objects.filter(game=game, division__side=side))
        brigades = [u for u in units if not u.battery]
        states: Counter[str] = Counter()
        for u in brigades:
            if u.surrendered:
                states[said.SURRENDERED] += 1
            elif u.out_of_play or not u.bases:
                states[said.DESTROYED] += 1
            else:
                states[condition_for(u.m_hits).value] += 1
        bases = sum(u.bases for u in brigades if not u.out_of_play)
        batteries = sum(1 for u in units if u.battery and not u.out_of_play)
        found.append((bases, {s: states[s] for s in said.BRIGADE_STATES}, batteries))
    return found


def as_seen(strengths: tuple[Strength, ...]) -> list[tuple[int, dict[str, int], int]]:
    return [(s.bases, s.brigades, s.batteries) for s in strengths]


@pytest.fixture
def played(client, demo) -> tuple[Game, list]:
    """The demo played through two game turns, with the state the rows held at the start and after each player
    turn."""
    t = Table(client, demo)
    seen = [strength_now(demo)]
    for player_turn in (confederate_turn_1, union_turn_1, confederate_turn_2, union_turn_2):
        player_turn(t)
        seen.append(strength_now(t.game))
    return fresh(t.game), seen


def test_the_report_of_the_playthrough_holds_the_state_of_every_player_turn(played):
    game, seen = played
    report = read(game)

    assert report.sides == ("Confederate", "Union")
    assert [m.short for m in report.moments] == ["Start", "1·1", "1·2", "2·1", "2·2"]  # nothing played in 3·1 yet
    assert [m.whose for m in report.moments] == ["", "Confederate", "Union", "Confederate", "Union"]
    assert [as_seen(m.sides) for m in report.moments] == seen
    # the story's losses: Cutler's base to Pegram's rifles in the first turn, more to the assault and the panic
    assert [m.sides[1].bases for m in report.moments] == [31, 29, 28, 26, 26]
    last = report.moments[-1]
    for side, strength in zip(game.sides.order_by("order"), last.sides, strict=True):
        in_play = Unit.objects.filter(game=game, division__side=side).in_play().brigades()
        assert strength.bases == sum(u.bases for u in in_play)

    # Wadsworth fell to the fire of the first Confederate turn and came back a rating lower
    (wadsworth,) = report.leaders
    assert (wadsworth.name, wadsworth.game_turn, wadsworth.player_turn) == ("James S. Wadsworth", 1, 1)
    assert wadsworth.when == "Game turn 1, Confederate turn, fire phase"
    assert wadsworth.fate == "James S. Wadsworth returns to Wadsworth's Division as E0"

    # Wadsworth's Division held the first time and fell back the second; Buford's, adjoining it, held
    assert [(p.division, p.panicked) for p in report.panics] == [
        ("Wadsworth's Division", False),
        ("Wadsworth's Division", True),
        ("Buford's Cavalry Division", False),
    ]
    assert report.panics[1].result.startswith("panics (") and report.panics[1].result.endswith("every unit falls back")
    assert report.panics[2].test == "Adjoining panic, round 2"

    # both assaults, the larger first, each with every round's outcome as the table read it
    assert len(report.assaults) == 2
    assert report.assaults[0].bases >= report.assaults[1].bases
    assert {a.attackers for a in report.assaults} == {"Davis's Brigade", "Iron Brigade (Meredith)"}
    rounds = [payload(e) for e in Event.objects.filter(game=game, kind="AssaultRoundResolved").order_by("seq")]
    assert all(isinstance(r, AssaultRoundResolved) for r in rounds)
    for r in rounds:
        assert any(said.round_outcome(r)[1:] in a.outcome for a in report.assaults)  # "round 1: …" begins "Round"
    iron = next(a for a in report.assaults if a.attackers.startswith("Iron"))
    assert iron.attacking_bases == brigade(game, "Iron Brigade (Meredith)").bases_start

    # the bases a division lost are those its brigades are short of at the end
    for losses in report.divisions:
        units = Unit.objects.filter(game=game, division__name=losses.name).brigades()
        assert losses.bases_lost == sum(u.bases_start - u.bases for u in units)
        assert losses.bases_start == sum(u.bases_start for u in units)
    assert report.routs == ()


def _svgs(body: str) -> dict[str, ET.Element]:
    """Every chart of the page, parsed as XML (a chart that is not well-formed fails here), by its id."""
    found = {}
    for text in re.findall(r"<svg\b.*?</svg>", body, re.S):
        svg = ET.fromstring(text)
        found[svg.get("id") or svg.get("class", "")] = svg
    return found


def _table(body: str, table_id: str) -> list[list[str]]:
    """A table's body as text, a list of cells a row (the row's header first)."""
    table = re.search(rf'<table[^>]*id="{table_id}".*?</table>', body, re.S)
    assert table, table_id
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(0).split("<tbody>")[1], re.S)
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, re.S)]
        for r in rows
    ]


def _line_values(svg: ET.Element) -> list[list[int]]:
    """The values a line chart draws, read back from its markers' heights against its y axis' numbers."""
    ticks = [(float(t.get("y")), int(t.text)) for t in svg.iter(f"{SVG}text") if t.get("text-anchor") == "end"]
    (y0, v0), (y1, v1) = ticks[0], ticks[-1]
    lines = []
    for group in svg.iter(f"{SVG}g"):
        if group.get("class") != "chart-series":
            continue
        ys = [float(c.get("cy")) for c in group.iter(f"{SVG}circle")]
        ys += [float(r.get("y")) + 4 for r in group.iter(f"{SVG}rect")]
        lines.append([round(v0 + (y - y0) * (v1 - v0) / (y1 - y0)) for y in ys])
    return lines


def test_the_report_page_draws_well_formed_charts_with_their_numbers_in_tables(played, client):
    game, _ = played
    report = read(game)
    response = client.get(f"/games/{game.pk}/report/")
    assert response.status_code == 200
    body = response.content.decode()
    # the Content Security Policy forbids inline style: the charts use SVG attributes and the stylesheet's classes
    assert "style=" not in body and "<style" not in body
    charts = _svgs(body)
    assert {"chart-bases", "chart-batteries", "chart-brigades-1", "chart-brigades-2"} <= set(charts)

    for chart, table, field in (
        ("chart-bases", "table-bases", "bases"),
        ("chart-batteries", "table-batteries", "batteries"),
    ):
        drawn = _line_values(charts[chart])
        written = [[int(n) for n in row[1:]] for row in _table(body, table)]
        assert drawn == [list(side) for side in zip(*written, strict=True)]
        assert drawn == [[getattr(m.sides[i], field) for m in report.moments] for i in range(2)]

    marks = {label: mark for mark, label in ((said.STATE_MARKS[s], said.STATE_LABELS[s]) for s in said.BRIGADE_STATES)}
    for i in (1, 2):
        written = _table(body, f"table-brigades-{i}")
        header = re.search(rf'id="table-brigades-{i}".*?<thead>(.*?)</thead>', body, re.S).group(1)
        columns = re.findall(r"<abbr[^>]*>([^<]+)</abbr>", header)
        assert columns == [*said.STATE_MARKS.values(), "Rt"]
        bars = [g for g in charts[f"chart-brigades-{i}"].iter(f"{SVG}g") if g.get("class") == "chart-bar"]
        assert len(bars) == len(written) == len(report.moments)
        for bar, row in zip(bars, written, strict=True):
            drawn = {}
            for title in bar.iter(f"{SVG}title"):
                count, label = title.text.split(" ", 1)
                drawn[marks[label]] = int(count)
            in_table = {mark: int(n) for mark, n in zip(columns, row[1:], strict=False) if mark != "Rt" and n != "0"}
            assert drawn == in_table
    assert "James S. Wadsworth</strong> (E1, Wadsworth&#x27;s Division, Union) hors de combat: Game turn 1" in body


def test_a_rout_is_listed_with_its_turn_and_one_taken_back_is_not(demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, forced_move="Rt", m_hits=4)
    (rout,) = read(fresh(demo)).routs
    assert (rout.unit, rout.division, rout.side) == ("Davis's Brigade", "Heth's Division", "Confederate")
    assert rout.when == "Game turn 1, Confederate turn, command phase"
    assert rout.cause == "a correction by hand"
    assert read(demo).moments[-1].sides[0].routed == 1
    undo_last(fresh(demo), None)
    assert read(fresh(demo)).routs == ()


def test_a_divisions_brigades_routed_counts_each_brigade_once_and_no_battery(demo):
    davis = brigade(demo, "Davis's Brigade")
    battery = Unit.objects.filter(game=demo, division=davis.division, kind="artillery").first()
    set_state(demo, davis, forced_move="Rt")
    set_state(fresh(demo), davis, forced_move="")
    set_state(fresh(demo), davis, forced_move="Rt")  # routed again: still one brigade
    set_state(fresh(demo), battery, forced_move="Rt")
    (heth,) = [d for d in read(fresh(demo)).divisions if d.name == davis.division.name]
    assert heth.routed == {davis.pk}


def test_a_player_turn_taken_back_leaves_the_report(demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, bases=davis.bases - 1)
    go_to(demo, "messages", player_turn=2)
    report = read(fresh(demo))
    assert [m.short for m in report.moments] == ["Start", "1·1"]  # nothing happened in 1·2 yet
    assert report.moments[1].sides[0].bases == report.moments[0].sides[0].bases - 1
    undo_last(fresh(demo), None)
    assert [m.short for m in read(fresh(demo)).moments] == ["Start", "Now"]


def test_both_sides_read_the_same_report_and_an_outsider_none(demo):
    set_state(demo, brigade(demo, "Cutler's Brigade"), m_hits=2, bases=5)

    def main(device: Client) -> str:
        response = device.get(f"/games/{demo.pk}/report/")
        assert response.status_code == 200
        return response.content.decode().split("<main", 1)[1]

    confederate, union = seated_device(demo, "Confederate"), seated_device(demo, "Union")
    assert main(confederate) == main(union)
    assert Client().get(f"/games/{demo.pk}/report/").status_code == 403


def test_the_report_costs_the_same_queries_at_two_sizes(db):
    costs = Costs(battles())

    def battle(t) -> None:
        set_each(t.game, brigades_of(t.game, "defender")[:6], m_hits=2)
        set_each(t.game, brigades_of(t.game, "attacker"), bases=1)
        go_to(t.game, "messages", player_turn=2)
        set_each(t.game, brigades_of(t.game, "defender"), m_hits=3)

    costs.each(battle)

    def uncached(t):
        def send():
            cache.clear()
            return t.client.get(t.path("report/"))

        return send

    costs.measure("the report, walked", uncached, events=0)
    for t in costs.tables:
        t.client.get(t.path("report/"))
    costs.measure("the report, kept for its version", lambda t: lambda: t.client.get(t.path("report/")), events=0)
    costs.check()
    # the walk reads three things (the setup, the events' changes, the payloads it needs) beyond the page's own
    walked, kept = (int(line.split(": ")[1].split(" / ")[0]) for line in costs.seen)
    assert walked == kept + 3
