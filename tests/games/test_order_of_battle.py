"""The order of battle on its own pages: the sides, corps and divisions in a few lines, one division with its
units, corrections and orders answered in place; and following a side, corps or division from a device."""

import pytest

from republic.games.models import Command, Game, Unit
from republic.games.scenario import create_game, parse_scenario
from tests.club_battle import club_scenario
from tests.games.conftest import HTMX, brigade, division, fresh, has_row, page, set_state
from tests.games.test_rally import at_rally


@pytest.fixture
def club(db) -> Game:
    return create_game(parse_scenario(club_scenario(40)))


def test_the_units_page_lists_every_division_with_its_units_by_condition(client, demo):
    set_state(demo, brigade(demo, "Davis's Brigade"), m_hits=3)
    set_state(demo, brigade(demo, "Archer's Brigade"), destroyed=True)
    body = client.get(f"/games/{demo.pk}/units/").content.decode()
    for name in ("Heth&#x27;s Division", "Wadsworth&#x27;s Division", "Buford&#x27;s Cavalry Division"):
        assert name in body
    assert "Third Corps" in body and "I Corps" in body  # divisions under their corps
    assert ">1 Shaken</span>" in body and ">5 Formed</span>" in body and ">1 gone</span>" in body
    assert "Davis&#x27;s Brigade" not in body  # units are on their division's page


def test_the_game_page_no_longer_draws_every_unit(client, demo):
    body = page(client, demo)
    assert "Davis&#x27;s Brigade" not in body and "Correct</summary>" not in body
    assert f'href="/games/{demo.pk}/units/"' in body and f'href="/games/{demo.pk}/log/"' in body


def test_a_division_page_corrects_a_unit_in_place(client, demo):
    heth = division(demo, "Heth's Division")
    davis = brigade(demo, "Davis's Brigade")
    body = client.get(f"/games/{demo.pk}/divisions/{heth.pk}/").content.decode()
    assert 'aria-label="Davis&#x27;s Brigade"' in body and "Cutler" not in body
    response = client.post(
        f"/games/{demo.pk}/units/{davis.pk}/m_plus/",
        {"version": fresh(demo).version},
        **HTMX,
        HTTP_HX_TARGET=f"division-{heth.pk}",
    )
    answer = response.content.decode()
    assert answer.lstrip().startswith(f'<div id="division-{heth.pk}"') and "<html" not in answer
    assert fresh(davis).m_hits == 1 and "Unformed" in answer
    stale = client.post(
        f"/games/{demo.pk}/units/{davis.pk}/m_plus/",
        {"version": fresh(demo).version - 1},
        **HTMX,
        HTTP_HX_TARGET=f"division-{heth.pk}",
    )
    assert "The game moved on" in stale.content.decode() and fresh(davis).m_hits == 1


def test_orders_are_given_from_the_division_page(client, demo):
    heth = division(demo, "Heth's Division")
    response = client.post(
        f"/games/{demo.pk}/divisions/{heth.pk}/orders/",
        {"version": fresh(demo).version, "orders": "defend"},
        **HTMX,
        HTTP_HX_TARGET=f"division-{heth.pk}",
    )
    assert response.content.decode().lstrip().startswith(f'<div id="division-{heth.pk}"')
    assert fresh(heth).orders == "defend"


def test_a_division_of_another_game_is_not_found(client, demo, club):
    theirs = Command.objects.filter(game=club, level="division").first()
    assert client.get(f"/games/{demo.pk}/divisions/{theirs.pk}/").status_code == 404


def test_a_device_following_a_division_sees_its_work_first(client, club):
    attackers = list(Unit.objects.filter(game=club, division__side=club.first_attacker).order_by("order"))
    for unit in attackers:
        set_state(club, unit, m_hits=1)
    game = at_rally(club)
    last = attackers[-1].division
    response = client.post(f"/games/{game.pk}/follow/", {"follow": f"command-{last.pk}"})
    assert response.status_code == 302
    body = page(client, game)
    assert f"This device follows <strong>{last.name}</strong>" in body
    ours = [u for u in attackers if u.division_id == last.pk]
    first_rows = body.index(f'id="row-unit-{ours[0].pk}"')
    assert first_rows < body.index(f'id="row-unit-{attackers[0].pk}"')
    others = body.index('<li class="work-others small text-muted">Others')
    assert others < body.index(f'id="row-unit-{attackers[0].pk}"')
    assert all(has_row(body, u) for u in attackers)  # the others are still there, after
    client.post(f"/games/{game.pk}/follow/", {"follow": ""})
    body = page(client, game)
    assert "This device follows" not in body and body.index(f'id="row-unit-{attackers[0].pk}"') < first_rows


def test_following_a_corps_or_a_side_takes_every_division_under_it(client, club):
    game = at_rally(club)
    corps = Command.objects.filter(game=game, level="corps").first()
    client.post(f"/games/{game.pk}/follow/", {"follow": f"command-{corps.pk}"})
    assert f"follows <strong>{corps.name}</strong>" in page(client, game)
    client.post(f"/games/{game.pk}/follow/", {"follow": f"side-{game.first_attacker.pk}"})
    assert f"follows <strong>{game.first_attacker.name}</strong>" in page(client, game)


@pytest.mark.parametrize("follow", ["command-99999", "side-99999", "division-1", "everything"])
def test_following_something_not_in_the_game_is_refused(client, demo, club, follow):
    if follow == "command-99999":
        follow = f"command-{Command.objects.filter(game=club).first().pk}"  # a command of another game
    response = client.post(f"/games/{demo.pk}/follow/", {"follow": follow}, follow=True)
    body = response.content.decode()
    assert "There is no such side or command in this game: nothing was changed." in body
    assert "This device follows" not in body
