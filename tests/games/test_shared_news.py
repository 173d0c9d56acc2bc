"""The news a poll brings is drawn once for the phones that ask the same (views/shared_news.py): the second phone
of a side with the same screen gets the first one's answer for one query, at every size; each device's answer is
what it would be drawn alone, whoever asked first; another side, another screen or a seat taken away never gets
an answer kept for someone else. News of rows below a phone's full screen is the step's pieces, shared too, not
its whole live part. The live part drawn whole after Next step is shared as well, with each device's own messages
drawn into it."""

import html
import itertools
import re

from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from republic.games.models import Command, Dispatch, Seat, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.games.views.page import ROWS_SHOWN
from tests.club_battle import club_scenario
from tests.devices import master_device, seated_device
from tests.games.conftest import HTMX, at_step
from tests.games.move_helpers import roll_post
from tests.games.phone_screen import Screen, seen
from tests.games.test_live import rows_on
from tests.games.test_phone_equals_reload import same_screen


def moving(units: int):
    return at_step(create_game(parse_scenario(club_scenario(units))), "move")


def screen(device, game) -> tuple[str, list[str]]:
    """The address a device's page polls and the rows it lists."""
    page = device.get(f"/games/{game.pk}/").content.decode()
    return html.unescape(re.search(r'id="poll"[^>]*hx-get="([^"]+)"', page).group(1)), rows_on(page)


def polled(device, poll: str, shown: list[str], opened: list[str] = ()):
    headers = {**HTMX, "HTTP_ROWS_SHOWN": " ".join(shown), "HTTP_ROWS_OPEN": " ".join(opened)}
    return device.get(poll, **headers)


def tokens(content: bytes) -> set[bytes]:
    return set(re.findall(rb'name="csrfmiddlewaretoken" value="([^"]*)"', content))


def untokened(content: bytes) -> bytes:
    """An answer with its forms' security tokens left out: each drawing masks the device's token anew."""
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", content)


def a_die_rolled(game, shown: list[str]) -> None:
    unit = Unit.objects.get(pk=int(shown[0].split("-")[1]))
    assert roll_post(master_device(), game, unit, die="7").status_code == 200


def commanding(game, division: Command) -> Client:
    """A player's phone seated on one division with the join link: it follows its division, listed first."""
    device = Client()
    device.post(f"/join/{game.join_code}/", {"name": f"For {division.name}", "seat": f"command-{division.pk}"})
    return device


def test_phones_of_a_side_following_other_divisions_share_one_drawing_for_two_queries_at_every_size(db):
    for units in (20, 60):
        game = moving(units)
        divisions = Command.objects.filter(game=game, side__name="Confederate", parent__isnull=False)
        first, second = (commanding(game, division) for division in divisions.order_by("-pk")[:2])
        (poll, shown), (_, listed) = screen(first, game), screen(second, game)
        assert shown != listed  # each lists his own division first
        a_die_rolled(game, shown)
        drawn = polled(first, poll, shown)
        assert drawn.status_code == 200 and drawn["HX-Reswap"] == "none" and rows_on(drawn.content.decode())
        with CaptureQueriesContext(connection) as queries:
            shared = polled(second, poll, listed)
        assert untokened(shared.content) == untokened(drawn.content) and shared["HX-Reswap"] == "none"
        # the glance at the game, and the rows the events since the screen was drawn are about
        assert len(queries) == 2, (units, [q["sql"] for q in queries.captured_queries])


def test_each_device_is_given_what_it_would_be_drawn_alone_whoever_asked_first(db):
    game = moving(20)
    confederate_division = Command.objects.filter(game=game, side__name="Confederate", parent__isnull=False).last()
    devices = {
        "master": master_device(),
        "confederate": seated_device(game, "Confederate"),
        "a confederate division": commanding(game, confederate_division),
        "union": seated_device(game, "Union"),
    }
    poll, shown = screen(devices["confederate"], game)
    opened = {"confederate with a row open": [shown[1]]}
    a_die_rolled(game, shown)
    alone = {}
    for name, device in devices.items():
        caches["news"].clear()
        alone[name] = untokened(polled(device, poll, shown, opened.get(name, [])).content)
    assert alone["union"] != alone["confederate"]
    for order in itertools.permutations(devices):
        caches["news"].clear()
        for name in order:
            assert untokened(polled(devices[name], poll, shown, opened.get(name, [])).content) == alone[name], order


def test_a_seat_taken_away_is_refused_though_its_side_has_news_kept(db):
    game = moving(20)
    kept, revoked = seated_device(game, "Confederate"), seated_device(game, "Confederate")
    poll, shown = screen(kept, game)
    a_die_rolled(game, shown)
    assert polled(kept, poll, shown).status_code == 200
    seat = Seat.objects.filter(game=game).latest("pk")
    seat.revoked = True
    seat.save()
    refused = polled(revoked, poll, shown)
    assert refused.status_code == 403 and "taken this device's seat away" in html.unescape(refused.content.decode())


def test_a_shared_answer_holds_the_asking_devices_own_security_token_never_the_first_ones(db):
    game = moving(20)
    first = seated_device(game, "Confederate")
    second = seated_device(game, "Confederate")
    second.handler.enforce_csrf_checks = True
    poll, shown = screen(first, game)
    screen(second, game)  # the page gives the device its token's secret, as a phone's browser keeps it
    a_die_rolled(game, shown)
    drawn, shared = polled(first, poll, shown).content, polled(second, poll, shown).content
    assert tokens(drawn) and tokens(shared) and not tokens(drawn) & tokens(shared)
    assert untokened(drawn) == untokened(shared)
    undo = re.search(rb'hx-post="(/games/\d+/undo/)"[^>]*>(.*?)</form>', shared, re.S)
    fields = dict(re.findall(rb'<input type="hidden" name="([^"]+)" value="([^"]*)"', undo.group(2)))
    sent = {k.decode(): v.decode() for k, v in fields.items()}
    assert second.post(undo.group(1).decode(), sent).status_code == 302  # taken: the token is its own
    sent["csrfmiddlewaretoken"] = next(iter(tokens(drawn))).decode()
    assert second.post(undo.group(1).decode(), sent).status_code == 403  # the first phone's is not


def test_news_of_rows_below_a_full_screen_is_the_step_pieces_and_leaves_the_phone_as_a_reload(db):
    """At 400 units the defender's phone lists its own batteries first, a full screen of them, and the attacker's
    brigades below: a die for one of those changes its counts and the step bar, not its list."""
    game = moving(400)
    union = seated_device(game, "Union")
    phone = Screen(union, f"/games/{game.pk}/")
    theirs = screen(seated_device(game, "Confederate"), game)[1]
    listed = [row.get("id", "")[4:] for row in phone.rows()]
    assert len(listed) == ROWS_SHOWN and theirs[0] not in listed
    a_die_rolled(game, theirs)
    poll = phone.by_id("poll").get("hx-get")
    answer = union.get(poll, **phone.headers(None))
    assert answer["HX-Reswap"] == "none" and not rows_on(answer.content.decode())
    phone.swap(answer, None, "none")
    # a poll brings the latest result to every phone, which a reload shows only to the device that acted
    shows, reload = phone.seen(), seen(phone.drawn())
    assert "1st Brigade, Division 1" in shows["result"] and not reload["result"]
    assert not same_screen({**shows, "result": "", "versions": []}, {**reload, "versions": []})


def test_screens_drawn_a_few_dice_ago_share_one_answer_and_one_drawn_before_them_gets_its_own(db):
    game = moving(20)
    devices = [seated_device(game, "Confederate") for _ in range(3)]
    poll, shown = screen(devices[0], game)
    asked = [(devices[0], poll)]
    for die, row in enumerate(shown[:6]):
        unit = Unit.objects.get(pk=int(row.split("-")[1]))
        assert roll_post(master_device(), game, unit, die=str(die + 2)).status_code == 200
        if die in (2, 4):
            asked.append((devices[len(asked)], screen(devices[len(asked)], game)[0]))  # drawn after the 3rd, 5th
    alone = []
    for device, address in asked:
        caches["news"].clear()
        alone.append(untokened(polled(device, address, shown).content))
    # drawn at most SHARED_SINCE dice ago: the rows of the last four dice again, whichever the screen showed
    assert alone[1] == alone[2] and set(rows_on(alone[1].decode())) == set(shown[2:6])
    assert set(rows_on(alone[0].decode())) == set(shown[:6])  # drawn before them: each die's row
    for order in itertools.permutations(range(3)):
        caches["news"].clear()
        for i in order:
            device, address = asked[i]
            assert untokened(polled(device, address, shown).content) == alone[i], order


def test_the_news_of_an_undone_die_is_shared_too(db):
    game = moving(20)
    first, second = seated_device(game, "Confederate"), seated_device(game, "Confederate")
    poll, shown = screen(first, game)
    a_die_rolled(game, shown)
    master = master_device()
    assert master.post(f"/games/{game.pk}/undo/", {"version": game.events.count()}, **HTMX).status_code == 200
    assert game.events.last().undoes_id is not None
    drawn = polled(first, poll, shown)
    assert drawn["HX-Reswap"] == "none" and rows_on(drawn.content.decode()) == [shown[0]]
    with CaptureQueriesContext(connection) as queries:
        shared = polled(second, poll, shown)
    assert untokened(shared.content) == untokened(drawn.content) and len(queries) == 2


def test_after_next_step_each_device_gets_the_live_part_it_would_be_drawn_alone_with_its_own_messages(db):
    game = moving(20)
    devices = {
        "master": master_device(),
        "confederate": seated_device(game, "Confederate"),
        "confederate with a message": seated_device(game, "Confederate"),
        "a confederate division": commanding(game, Command.objects.filter(game=game, parent__isnull=False).last()),
        "another confederate division": commanding(
            game, Command.objects.filter(game=game, side__name="Confederate", parent__isnull=False).first()
        ),
        "union": seated_device(game, "Union"),
        "master with a row open": master_device(),
    }
    seats = list(Seat.objects.filter(game=game).order_by("pk"))  # in the order the devices above took them
    Dispatch.objects.create(  # from the division's player to the second confederate
        game=game, game_turn=1, player_turn=1, sender=seats[2], recipient=seats[1], text="Hold the sunken road"
    )
    screens = {name: screen(device, game) for name, device in devices.items()}
    game.refresh_from_db()
    assert master_device().post(f"/games/{game.pk}/next/", {"version": game.version}).status_code == 302
    # a battery's row, open on the phone at the maneuver step, is a row of the artillery fire step too
    now_listed = screen(master_device(), game)[1]
    opened = {"master with a row open": [row for row in screens["master"][1] if row in now_listed][:1]}
    assert opened["master with a row open"]

    def asked(name):
        poll, shown = screens[name]
        return polled(devices[name], poll, shown, opened.get(name, []))

    alone = {}
    for name in devices:
        caches["news"].clear()
        drawn = asked(name)
        assert drawn.status_code == 200 and b'id="live"' in drawn.content and "HX-Reswap" not in drawn, name
        alone[name] = untokened(drawn.content)
    assert len(set(alone.values())) == len(alone)  # each is its own: side, messages, open row, division, master
    assert b"Hold the sunken road" in alone["confederate with a message"] and b"sunken" not in alone["confederate"]
    for first in devices:
        caches["news"].clear()
        for name in [first, *(other for other in devices if other != first)]:
            answer = asked(name)
            assert untokened(answer.content) == alone[name], (first, name)
    caches["news"].clear()
    asked("confederate")
    shared = polled(seated_device(game, "Confederate"), *screens["confederate"])
    assert untokened(shared.content) == alone["confederate"]
    assert [template.name for template in shared.templates] == ["games/parts/dispatches.html"]  # not drawn again
    # a device that follows a division is given the side's live part with its own list of rows drawn into it
    division = polled(devices["another confederate division"], *screens["another confederate division"])
    assert untokened(division.content) == alone["another confederate division"]
    assert "games/game.html" not in {template.name for template in division.templates}
    assert "games/parts/rows.html" in {template.name for template in division.templates}


class CorpsTable:
    """A 400-unit battle at its move step, the phones of a corps with two divisions (listed late: off the other
    corps' screens) and of those divisions, each division with a die rolled on its own first row; each phone's
    news drawn alone (``alone``), with nothing kept."""

    def __init__(self) -> None:
        game = moving(400)
        every_corps = Command.objects.filter(game=game, side__name="Confederate", level="corps")
        corps = next(corps for corps in every_corps.order_by("-order", "-pk") if corps.children.count() >= 2)
        self.first, self.second = corps.children.order_by("order", "pk")[:2]
        self.corps = corps
        self.phones = {command.pk: commanding(game, command) for command in (self.first, self.second, corps)}
        self.screens = {pk: screen(device, game) for pk, device in self.phones.items()}
        self.rolled = []
        for division in (self.first, self.second):
            row = next(
                row
                for row in self.screens[division.pk][1]
                if Unit.objects.get(pk=row.split("-")[1]).division == division
            )
            self.rolled.append(row)
            a_die_rolled(game, [row])
        self.alone = {}
        for pk in self.phones:
            caches["news"].clear()
            self.alone[pk] = untokened(self.asked(pk).content)
        caches["news"].clear()

    def asked(self, pk):
        poll, shown = self.screens[pk]
        return polled(self.phones[pk], poll, shown)


def test_each_row_drawn_again_is_shared_by_every_screen_of_its_side_that_shows_it(db):
    """At 400 units each division's player lists his own division first: two dice in two divisions of one corps
    are news of one row to each division's phone and of both to the corps commander's, whose answer is then put
    together from the rows the first two drew, drawing nothing."""
    table = CorpsTable()
    first, second, corps, rolled, screens = table.first, table.second, table.corps, table.rolled, table.screens
    assert rolled[1] not in screens[first.pk][1] and rolled[0] not in screens[second.pk][1]
    assert set(rolled) <= set(screens[corps.pk][1])
    alone = table.alone
    assert [set(rows_on(alone[pk].decode())) for pk in table.phones] == [{rolled[0]}, {rolled[1]}, set(rolled)]
    table.asked(first.pk), table.asked(second.pk)
    with CaptureQueriesContext(connection) as queries:
        shared = table.asked(corps.pk)
    assert untokened(shared.content) == alone[corps.pk] and shared["HX-Reswap"] == "none"
    assert not shared.templates and len(queries) == 2, [q["sql"] for q in queries.captured_queries]


def test_a_row_no_screen_of_its_side_showed_yet_is_drawn_alone_into_the_kept_news(db):
    """At 400 units the corps commander's phone shows the rows of two divisions: once one division's phone has had
    its news, the corps phone's is the kept news with the other division's row drawn alone, and it is what the
    corps phone is drawn alone; the other division's phone then draws nothing."""
    table = CorpsTable()
    table.asked(table.first.pk)
    shared = table.asked(table.corps.pk)
    assert untokened(shared.content) == table.alone[table.corps.pk] and shared["HX-Reswap"] == "none"
    assert shared.templates and {t.name for t in shared.templates} <= {"games/parts/row.html"}
    other = table.asked(table.second.pk)
    assert untokened(other.content) == table.alone[table.second.pk] and not other.templates
