"""``make taps``: one whole game turn of the demo battle played in chromium on two seated phones (360x740) and the
game master's device, counting what the players do at the table.

    python -m tests.taps [--tree DIR]

The tree (this one by default, or a worktree of another commit) is served by its own manage.py on a temporary
SQLite file; the phones join their seats with the game's join link and play the fixed plan of tests/taps/plan.py.
It prints, per kind of action and for the whole game turn, the taps (a native select's choice is two: open it,
choose; a text box is one tap into it), the characters typed and the names typed (a unit's, leader's or
division's), the screens scrolled to reach each control, the Next-step taps, the refusals the player did not cause
(the game moved on under his form) and the wall time; then the steps whose first work a phone had to scroll to,
and axe-core's findings on every page it passed. Exit status 1 when the plan could not be played or axe found a
problem."""

import argparse
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from tests.browser.checks import take_seat
from tests.chromium import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.taps.counts import Tally
from tests.taps.driver import Device, PlanFailed
from tests.taps.plan import ONE_DIE, TWO_DICE, Steps, Table, confederate_turn, union_turn
from tests.taps.tree import GM_PASSWORD, GM_USER, Served, serve

ROOT = Path(__file__).resolve().parents[2]
TABLET = {"width": 1024, "height": 768}


def seated(browser: Browser, served: Served, side: str, name: str, tally: Tally) -> Device:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    take_seat(page, f"{served.address}/join/{served.join_code}/", side, name)
    return Device(page, tally, f"{name} ({side})")


def game_master(browser: Browser, served: Served, tally: Tally) -> Device:
    context = browser.new_context(viewport=TABLET)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{served.address}/accounts/login/")
    page.get_by_label("Username").fill(GM_USER)
    page.get_by_label("Password").fill(GM_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{served.address}/games/{served.game}/")
    return Device(page, tally, "game master")


def play(served: Served) -> tuple[Tally, float]:
    tally = Tally()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        ann = seated(browser, served, "Confederate", "Ann", tally)
        bob = seated(browser, served, "Union", "Bob", tally)
        gm = game_master(browser, served, tally)
        for device in (ann, bob):
            device.page.reload()  # both seats taken: each page as a player opens it
        table = Table(ann, bob, gm, ann)
        began = time.monotonic()
        try:
            steps = Steps(table, tally)
            confederate_turn(table, steps)
            union_turn(table, steps)
        except (PlanFailed, PlaywrightError) as failed:
            for device in table.devices:
                device.page.screenshot(path=f"{served.log.parent}/{device.who.split()[0]}.png", full_page=True)
            raise PlanFailed(f"at {table.last.who}'s '{table.last.title()}': {failed}") from failed
        elapsed = time.monotonic() - began
        browser.close()
    return tally, elapsed


def report(tree: Path, tally: Tally, elapsed: float) -> str:
    lines = [f"One game turn of the demo on {tree}", "", tally.table(), ""]
    whole = tally.total()
    lines.append(
        f"Goals: names typed {whole.names_typed} (none); most taps of a die entry from the step's page "
        f"{tally.most_taps(ONE_DIE)} (2), of two dice {tally.most_taps(TWO_DICE)} (3); taps of the 2 v 1 assault "
        f"declared {tally.most_taps({'assault declared, 2 v 1'})} (6); taps of the game turn {whole.taps} (half of the "
        f"old code's); refusals not caused {whole.not_caused} (none)"
    )
    lines.append("Given as: " + ", ".join(f"{n} {way}" for way, n in sorted(tally.ways.items())))
    lines.append(f"Elapsed, with the phones waiting for each other's news and axe's checks: {elapsed:.0f} s")
    below: dict[str, list[str]] = {}
    for page in tally.below_fold:
        who, step = page.split(" · ", 1)
        below.setdefault(step, []).append(who.split()[0])
    lines.append(f"Steps whose first work lies below a phone's first screen: {len(below)} of {tally.steps}")
    lines.extend(f"  {step} ({', '.join(who)})" for step, who in below.items())
    lines.append(f"Steps the app passed by itself: {len(tally.passed)}" + "".join(f"\n  {s}" for s in tally.passed))
    lines.append("Refusals the player did not cause: " + ("; ".join(tally.refusals) if tally.refusals else "none"))
    problems = {page: found for page, found in tally.axe.items() if found}
    lines.append(f"axe: {len(tally.axe)} pages, {sum(map(len, problems.values()))} problems")
    lines.extend(f"  {page}: {problem}" for page, found in problems.items() for problem in found)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.taps", description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the tree to serve and measure (default: this one)")
    parser.add_argument("--keep", action="store_true", help="keep the database and the server's log")
    args = parser.parse_args(argv)
    tree = args.tree.resolve()
    work = Path(tempfile.mkdtemp(prefix="taps-"))
    served = serve(tree, work)
    try:
        tally, elapsed = play(served)
    except PlanFailed as failed:
        traceback.print_exc()
        print(f"taps: the plan stopped: {failed}\n(screenshots and the server log in {work})", file=sys.stderr)
        return 1
    finally:
        served.stop()
    print(report(tree, tally, elapsed))
    if args.keep:
        print(f"The database and the server's log are in {work}")
    else:
        shutil.rmtree(work)  # kept when the plan stops, for its screenshots
    return 1 if any(tally.axe.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
