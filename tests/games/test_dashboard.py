"""The game master's dashboard: every game with where it stands and how each side holds, a game idle for five
minutes marked, and the same queries for five games as for fifty."""

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from republic.games.models import Event, Game, Leader, Unit
from republic.games.report.walk import read
from republic.games.scenario import create_game, parse_scenario
from republic.rules.morale import condition_for
from republic.scenarios import DEMO_SCENARIO
from tests.devices import seated_device
from tests.games.conftest import at_step, brigade, fresh, set_state


def demo_game() -> Game:
    return create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))


def card_of(page: str, game: Game) -> str:
    start = page.index(f'href="/games/{game.pk}/"')
    return page[start : page.find("</li>", start)]


def test_each_game_says_where_it_stands_and_how_each_side_holds(client, demo):
    game = at_step(demo, "rally")
    seated_device(game, "Confederate", name="Ann")
    set_state(game, brigade(game, "Davis's Brigade"), m_hits=2, p4_event=True)
    set_state(game, brigade(game, "Archer's Brigade"), bases=3)
    set_state(game, Leader.objects.get(game=game, name="Henry Heth"), hors_de_combat=True)
    quiet = demo_game()
    at_step(quiet, "move")
    Event.objects.filter(game=quiet).update(created=timezone.now() - timedelta(minutes=9))
    page = client.get("/dashboard/").content.decode()
    card = card_of(page, game)
    assert "Game turn 1 · player turn 1 · attacker Confederate" in card
    assert "Attacker rallies units" in card and "waiting on Confederate (Ann)" in card
    assert "1 division to test for panic" in card and "1 leader hors de combat" in card
    units = Unit.objects.filter(game=game, division__side__name="Confederate").exclude(kind="artillery")
    bases, start = sum(u.bases for u in units), sum(u.bases_start for u in units)
    assert bases < start and f'Confederate</span> <span class="small">{bases} of {start} bases' in card
    hit = condition_for(2).value
    assert f'condition-badge condition-{hit}">1 {hit.capitalize()}' in card and "Idle" not in card
    assert "Idle" in card_of(page, quiet) and "waiting on Confederate (no seat taken)" in card_of(page, quiet)
    assert "Last action just now" in card and "0 minutes" not in card
    assert "Last action 9\xa0minutes ago" in card_of(page, quiet)


def test_each_sides_bases_are_the_battle_reports_at_the_same_moment(client, demo):
    game = at_step(demo, "rally")
    davis = brigade(game, "Davis's Brigade")
    battery = Unit.objects.filter(game=game, division=davis.division, kind="artillery").first()
    set_state(game, davis, bases=2)
    set_state(fresh(game), brigade(game, "Archer's Brigade"), surrendered=True)
    set_state(fresh(game), battery, bases=battery.bases - 1)
    report = read(fresh(game))
    card = card_of(client.get("/dashboard/").content.decode(), game)
    for side, now, start in zip(report.sides, report.moments[-1].sides, report.moments[0].sides, strict=True):
        assert f'{side}</span> <span class="small">{now.bases} of {start.bases} bases' in card


def test_fifty_games_cost_the_queries_of_five(client, db):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/dashboard/").status_code == 200
        return len(captured)

    games = [at_step(demo_game(), "move") for _ in range(5)]
    five = queries()
    games += [at_step(demo_game(), "move") for _ in range(45)]
    set_state(games[-1], brigade(games[-1], "Davis's Brigade"), p4_event=True)
    assert queries() == five


def test_each_card_offers_the_join_link_and_its_qr_code_which_loads_when_opened(client, demo):
    card = card_of(client.get("/dashboard/").content.decode(), demo)
    link = f"http://testserver/join/{demo.join_code}/"
    image = f"/games/{demo.pk}/seats/qr.svg?code={demo.join_code}"
    assert f'id="join-{demo.pk}-{demo.join_code}" hx-preserve' in card and f'href="{link}"' in card
    assert f'src="{image}" loading="lazy"' in card  # fetched once the card's join details are opened
    response = client.get(image)
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')
    old = demo.join_code
    client.post(f"/games/{demo.pk}/seats/new-code/")
    demo.refresh_from_db()
    assert client.get(f"/games/{demo.pk}/seats/qr.svg?code={old}").status_code == 404
    assert f'id="join-{demo.pk}-{demo.join_code}"' in client.get("/dashboard/").content.decode()
