"""Twenty phones submit at the same moment, over real HTTP to the server a club runs (``manage.py serve``) on its own
database (SQLite by default, PostgreSQL when the suite runs on it): exactly one submission is applied, every other
one is refused with the fresh state, and no player ever sees a server error or a locked database."""

import json
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.databases import manage, migrated_database
from tests.games.drawn_dice import dice_line, die
from tests.page_forms import forms_of
from tests.served import Answer, Phone, Server, ledger, rows_in

PHONES = 20
ARCHER = "unit-1"  # the demo's first attacking brigade, a row of the move step


@dataclass
class Served:
    server: Server
    database: str
    game: int
    code: str

    def phones(self, count: int = PHONES) -> list[Phone]:
        return [Phone(self.server.address, self.game, self.code, name=f"Phone {i}") for i in range(count)]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """The app served by a real server on a free port, with the demo battle loaded."""
    with migrated_database(tmp_path) as database:
        loaded = manage(database, "load_demo")
        game = int(re.search(r"/games/(\d+)/", loaded).group(1))
        code = re.search(r"/join/([^/]+)/", loaded).group(1)
        server = Server(database, tmp_path)
        server.start()
        try:
            yield Served(server, database, game, code)
        finally:
            server.stop()


def at_once(phones: list[Phone], send: Callable[[int, Phone], Answer]) -> list[Answer]:
    """Every phone sends at the same moment (``send`` gets the phone's place and the phone); their answers."""
    start = threading.Barrier(len(phones))
    answers: list[Answer | None] = [None] * len(phones)

    def press(i: int, phone: Phone) -> None:
        start.wait()
        answers[i] = send(i, phone)

    threads = [threading.Thread(target=press, args=(i, phone)) for i, phone in enumerate(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    got = [answer for answer in answers if answer is not None]
    assert len(got) == len(phones), "a phone got no answer within two minutes"
    return got


def no_locked_database_reached_anyone(served: Served, answers: list[Answer]) -> None:
    assert [a.status for a in answers] == [200] * len(answers)
    log = served.server.stderr()
    assert "locked" not in log.lower() and "Traceback" not in log, log[-3000:]


def at_the_move_step(served: Served) -> int:
    """The demo moved on by its attacker to the move step (one Next step from the messages: the rally and the
    replacement of leaders have no work and pass by themselves); the version the phones' pages are then drawn at."""
    mover = Phone(served.server.address, served.game, served.code, name="Mover")
    moved = mover.next_step()
    assert moved.recorded(mover.version) == mover.version + 3, moved.error
    mover.version += 3
    assert ledger(served.database, served.game).step == "move"
    return mover.version


def maneuver_roll(phone: Phone) -> tuple[str, dict[str, list[str]], str]:
    """Archer's maneuver roll form as the phone draws it once it opened the row: its address, its fields as
    drawn, and the rows the phone shows."""
    page = phone.page()
    assert "no roll yet" in archer_row(page.body)
    opened = phone.row(ARCHER)
    assert opened.status == 200
    roll = next(form for form in forms_of(opened.body) if "/act/maneuver-roll/" in form.action)
    drawn = {f.name: [f.value] for f in roll.fields if f.kind == "hidden"}
    return roll.action, drawn, " ".join(rows_in(page.body))


def archer_row(body: str) -> str:
    """Archer's row as a page or fragment draws it."""
    found = re.search(rf'<li class="work-row[^"]*" id="row-{ARCHER}".*?</li>', body, re.S)
    assert found, "Archer's row is not drawn"
    return found.group(0)


def test_twenty_phones_pressing_next_step_at_once_move_the_game_exactly_once(served):
    phones = served.phones()
    # a phone of the side not at work, whose page has no form: it is seated all the same, with the page's token
    union = Phone(served.server.address, served.game, served.code, side="Union", name="Union")
    assert len({phone.version for phone in [*phones, union]}) == 1

    answers = at_once(phones, lambda _, phone: phone.next_step())

    no_locked_database_reached_anyone(served, answers)
    drawn = phones[0].version
    moved = [a for a in answers if a.recorded(drawn)]
    refused = [a for a in answers if a.moved_on]
    assert (len(moved), len(refused)) == (1, PHONES - 1)
    # the one tap moved on from the messages, and the rally and the replacement of leaders passed by themselves
    assert all(f'name="version" value="{drawn + 3}"' in a.body for a in refused)  # drawn for the fresh state
    assert all("Attacker moves units" in a.body for a in answers)
    assert Phone(served.server.address, served.game, served.code).version == drawn + 3


def test_twenty_identical_dice_entries_from_a_row_apply_once(served):
    drawn = at_the_move_step(served)
    phones = served.phones()
    forms = [maneuver_roll(phone) for phone in phones]
    assert {f"{form[1]['roll-unit-1-version'][0]}" for form in forms} == {str(drawn)}

    def roll(i: int, phone: Phone) -> Answer:
        action, fields, shown = forms[i]
        return phone.post(action, {**fields, "roll-unit-1-die": ["6"], "roll": ["typed"]}, row=ARCHER, shown=shown)

    answers = at_once(phones, roll)

    no_locked_database_reached_anyone(served, answers)
    applied = [a for a in answers if a.recorded(drawn)]
    refused = [a for a in answers if a.moved_on]
    assert (len(applied), len(refused)) == (1, PHONES - 1)
    assert applied[0].recorded(drawn) == drawn + 1 and dice_line(("maneuver", 6, "typed")) in applied[0].body
    # a refusal is the live part drawn afresh and put where the live part is: Archer's row in it has the roll the
    # phone's page did not, and no result card says the phone's own entry was rolled
    assert all(a.headers.get("HX-Retarget") == "#live" for a in refused)
    assert all(f'name="version" value="{drawn + 1}"' in a.body for a in refused)
    assert all("no roll yet" not in archer_row(a.body) and f"Dice: maneuver {die(6)}" not in a.body for a in refused)
    after = ledger(served.database, served.game)
    assert after.version == drawn + 1 and after.replays
    assert [(kind, subject) for seq, kind, _, subject, _ in after.events if seq > drawn] == [("ManeuverRolled", ARCHER)]


def test_twenty_different_dice_entries_for_one_unit_on_one_version_apply_one_and_lose_none(served):
    drawn = at_the_move_step(served)
    phones = served.phones()
    forms = [maneuver_roll(phone) for phone in phones]
    together = ["", "assault", "maneuver", "advance", "pull_back"]

    def sent(i: int) -> dict[str, list[str]]:
        """Each phone's own entry: its die, what acts together with the brigade, which leaders stand near."""
        _, fields, _ = forms[i]
        leaders = [["1"], ["2"], ["1", "2"], []][i % 4]
        return {
            **fields,
            "roll-unit-1-die": [str(i % 10 + 1)],
            "roll-unit-1-acting_together": [together[i % 5]],
            "roll-unit-1-leaders_within_2": leaders,
            "roll": ["typed"],
        }

    answers = at_once(phones, lambda i, phone: phone.post(forms[i][0], sent(i), row=ARCHER, shown=forms[i][2]))

    no_locked_database_reached_anyone(served, answers)
    applied = [a for a in answers if a.recorded(drawn)]
    refused = [a for a in answers if a.moved_on]
    assert (len(applied), len(refused)) == (1, PHONES - 1)
    assert all(f'name="version" value="{drawn + 1}"' in a.body for a in refused)
    after = ledger(served.database, served.game)
    assert after.version == drawn + 1 and after.replays
    new = [event for event in after.events if event[0] > drawn]
    assert [(seq, kind, subject) for seq, kind, _, subject, _ in new] == [(drawn + 1, "ManeuverRolled", ARCHER)]
    # the event holds the entry of the phone whose answer said it was applied, not a blend of two, and is his
    winner = answers.index(applied[0])
    _, _, actor, _, payload = new[0]
    inputs = json.loads(payload)["inputs"]
    assert actor == f"Phone {winner}"
    assert inputs["roll"]["faces"] == [int(sent(winner)["roll-unit-1-die"][0])]
    assert dice_line(("maneuver", sent(winner)["roll-unit-1-die"][0], "typed")) in applied[0].body
    assert (inputs["acting_together"] or "") == sent(winner)["roll-unit-1-acting_together"][0]
