"""One device at the table (a seated phone, or the game master's) driven through Playwright, every tap and every
character counted in one place. Each form is looked at as it is drawn and filled the fastest way it offers: a die
pad's face tapped, or a die typed and Resolve pressed; a name's label tapped in a picker, or the name typed in a
text box (counted as a name typed)."""

import re
import time
from collections.abc import Callable

from playwright.sync_api import Locator, Page

from tests.browser.checks import axe_problems
from tests.taps.counts import SCREEN, Count, Tally, moved_on, screens_to

SETTLED = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
DRAWN_AT = "() => Number(/since=(\\d+)/.exec(document.querySelector('#poll')?.getAttribute('hx-get'))?.[1] ?? -1)"
PROBLEMS = "#live .alert-danger:visible, #live .invalid-feedback:visible, #refusal:visible, #error:visible"


class PlanFailed(Exception):
    """The fixed plan met a page it did not expect: what the device showed is in the message."""


class Device:
    def __init__(self, page: Page, tally: Tally, who: str):
        self.page, self.tally, self.who = page, tally, who
        self.kind = ""
        self.seen: set[str] = set()

    # --- counting -------------------------------------------------------------------------------------------

    @property
    def counting(self) -> Count:
        return self.tally.count(self.kind)

    def act(self, kind: str, gestures: Callable[[], None]) -> None:
        """One action a player takes, of a kind: its taps, typing and time are counted under that kind. Refused
        because the game moved on under the form (counted as not caused by the player), it is done again once, as
        the player does with the form drawn afresh."""
        self.kind = kind
        self.catch_up()
        began = time.monotonic()
        self.counting.actions += 1
        taps = self.counting.taps
        for _ in range(2):
            gestures()
            self.settle()
            if not self.refused_moved_on():
                break
        else:
            raise PlanFailed(f"{self.who} ({kind}): refused twice as the game moved on")
        self.counting.seconds += time.monotonic() - began
        self.tally.taps_of.append((kind, self.counting.taps - taps))
        self.tally.latest = max(self.tally.latest, self.version())

    def version(self) -> int:
        """The game's version the device's page was drawn at (its poll asks for news since it)."""
        return int(self.page.evaluate(DRAWN_AT))

    def catch_up(self) -> None:
        """Wait until the page shows every other device's action, as a player waits for the table to say it is done
        (the poll brings it within 3 s): the refusals counted are then the ones the player could not avoid."""
        self.page.wait_for_function(f"v => ({DRAWN_AT})() >= v", arg=self.tally.latest, timeout=10_000)
        self.settle()

    def settle(self) -> None:
        self.page.wait_for_function(SETTLED)

    def refused_moved_on(self) -> bool:
        """Whether the answer refused the action as the game moved on; any other refusal, or a form drawn again
        with its errors, stops the plan."""
        shown = self.page.locator("#refusal:visible, #error:visible")
        text = " ".join(shown.all_inner_texts()).strip()
        if text and moved_on(text):
            self.counting.not_caused += 1
            self.tally.refusals.append(f"{self.who} ({self.kind} at {self.title()}): {text}")
            return True
        if text:
            raise PlanFailed(f"{self.who} was refused ({self.kind}): {text}")
        problems = [t.strip() for t in self.page.locator(PROBLEMS).all_inner_texts() if t.strip()]
        if problems:
            raise PlanFailed(f"{self.who} ({self.kind}): {' | '.join(problems)}")
        return False

    def reach(self, target: Locator) -> None:
        """Count the screens a thumb scrolls to bring the control into view."""
        target.wait_for(state="visible")
        box = target.bounding_box()
        if box is not None:
            self.counting.screens += screens_to(box["y"], box["y"] + box["height"], SCREEN)

    # --- the gestures ---------------------------------------------------------------------------------------

    def tap(self, target: Locator, posts: bool = False) -> None:
        """One tap; ``posts``: the tap sends an action, and the answer is waited for."""
        self.reach(target)
        self.counting.taps += 1
        if posts:
            with self.page.expect_response(lambda r: r.request.method == "POST"):
                target.click()
            self.settle()
        else:
            target.click()

    def type(self, target: Locator, text: str, name: bool = False) -> None:
        """A tap into the box and the text typed; ``name``: the text is a unit's, leader's or division's name."""
        self.reach(target)
        self.counting.taps += 1
        self.counting.typed += len(text)
        self.counting.names_typed += int(name)
        target.fill(text)

    def choose(self, target: Locator, label: str) -> None:
        """A choice by the words it starts with: in a native select (open it, tap the choice: 2 taps), or among
        radio buttons (their group is the target's name: the label's tap), none when it is already chosen."""
        starts = re.compile(rf"^\s*{re.escape(label)}", re.IGNORECASE)
        if target.evaluate("el => el.tagName") == "SELECT":
            options = [o.strip() for o in target.locator("option").all_inner_texts()]
            wanted = next(o for o in options if starts.match(o))
            if target.evaluate("el => el.options[el.selectedIndex]?.text.trim()") == wanted:
                return
            self.reach(target)
            self.counting.taps += 2
            target.select_option(label=wanted)
            return
        name = target.get_attribute("name")
        for radio in self.page.locator(f"input[type=radio][name='{name}']").all():
            words = self.page.locator(f"label[for='{radio.get_attribute('id')}']")
            if words.count() and starts.match(words.first.inner_text()):
                if not radio.is_checked():
                    self.tap(words.first)
                return
        raise PlanFailed(f"{self.who}: no choice '{label}' for {name}")

    def next_step(self) -> None:
        before = self.title()

        def press() -> None:
            self.counting.next_steps += 1
            self.tap(self.page.get_by_role("button", name="Next step"), posts=True)

        self.act("next step", press)
        if self.title() == before:
            raise PlanFailed(f"{self.who}: Next step did not move on from '{before}'")

    # --- the page -------------------------------------------------------------------------------------------

    def title(self) -> str:
        return self.page.locator("#step-title").inner_text().strip()

    def wait_for_step(self, title: str, timeout: float = 10_000) -> None:
        """The device's page shows the step (its poll brings it within 3 s of another device's Next step)."""
        self.page.wait_for_function(
            "t => document.querySelector('#step-title')?.innerText.includes(t)", arg=title, timeout=timeout
        )
        self.settle()

    def row(self, title: str) -> Locator:
        return self.page.locator(".work-row", has=self.page.locator(".work-title", has_text=title))

    def open_row(self, title: str) -> Locator:
        """The step's row of that title with its form open: a tap on it when it is closed."""
        row = self.row(title)
        if not row.locator(".work-form").count():
            self.tap(row.locator("a.work-open"))
            row.locator(".work-form").wait_for()
            self.settle()
            self.look(f"{self.title()} · a row open")
        return row

    def form(self, name: str, row: str = "") -> Locator:
        found = self.page.get_by_role("form", name=name)
        if not found.count() and row:
            self.open_row(row)
        if not found.count():
            raise PlanFailed(f"{self.who}: no form '{name}' at '{self.title()}'")
        return found.first

    def look(self, page: str) -> None:
        """axe on a page as the device shows it, once per distinct page (its step, a row open or not)."""
        key = f"{self.who} · {page}"
        if key in self.seen:
            return
        self.seen.add(key)
        # as the accessibility tests run it: the page at its top (where the sticky step bar covers nothing the
        # check would read through it), and no pointer hovering where the last tap was, which a phone does not keep
        self.page.mouse.move(0, 0)
        self.page.wait_for_timeout(300)  # the control left fades from its hover colours (0.15 s)
        scrolled = self.page.evaluate("() => { const y = window.scrollY; window.scrollTo(0, 0); return y; }")
        self.tally.axe[key] = axe_problems(self.page)
        self.page.evaluate("y => window.scrollTo(0, y)", scrolled)

    def first_work_below_fold(self) -> bool:
        """Whether the step's first work (its first row, or the panel's first control) lies below the first screen
        of the page as it is drawn, scrolled to its top."""
        return bool(
            self.page.evaluate(
                """(screen) => {
                  const first = document.querySelector(
                    '#work-list .work-row, #step-head form button, #step-head details > summary');
                  if (!first) return false;
                  const box = first.getBoundingClientRect();
                  return box.top + window.scrollY + Math.min(box.height, 44) > screen;
                }""",
                SCREEN,
            )
        )

    # --- the fastest way each form offers -------------------------------------------------------------------

    def die(self, form: Locator, *faces: int, resolve: str = "Resolve") -> None:
        """The dice of a form: the faces tapped on its pads (the last completing one resolves), or typed into its
        die boxes and the form's Resolve pressed."""
        pads = form.locator(".die-pad")
        if pads.count():
            for number, face in enumerate(faces):
                last = number == len(faces) - 1
                pad = pads.nth(number)
                self.tap(pad.locator(".die-face", has_text=re.compile(rf"^\s*{face}\s*$")), posts=last)
                self.tally.ways["dice tapped on a pad"] += 1
            return
        boxes = form.locator(".die-input")
        for number, face in enumerate(faces):
            self.type(boxes.nth(number), str(face))
            self.tally.ways["dice typed"] += 1
        self.tap(form.get_by_role("button", name=resolve, exact=True), posts=True)

    def pick(self, form: Locator, name: str, field: str) -> None:
        """Name a unit, leader or division: its label tapped in the form's picker (its division's group opened
        first when closed), or its name typed into the text box of that field."""
        pickers = form.locator("fieldset.pick")
        if pickers.count():
            starts = re.compile(rf"^\s*{re.escape(name)}")
            label = pickers.locator("label", has_text=starts).first
            group = pickers.locator("details.pick-group", has=self.page.locator("label", has_text=starts))
            if group.count() and not group.first.evaluate("d => d.open"):
                self.tap(group.first.locator("summary"))
            box = form.locator(f"#{label.get_attribute('for')}") if label.get_attribute("for") else None
            if box is None or not box.is_checked():
                self.tap(label)
            self.tally.ways["names picked"] += 1
            return
        self.type(form.locator(f"[name$='-{field}'], [name='{field}']").first, name, name=True)
        self.tally.ways["names typed"] += 1

    def left_to_do(self) -> list[str]:
        """What the step bar lists as left before moving on."""
        return [" ".join(t.split()) for t in self.page.locator("#step-bar .step-left li").all_text_contents()]

    def wait_for_row(self, title: str) -> None:
        """The row is on the device's page (its poll brings another device's news within 3 s)."""
        self.row(title).first.wait_for(timeout=10_000)
