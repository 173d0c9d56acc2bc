"""The fixed plan of one whole game turn of the demo battle, both player turns, every step, with fixed die faces so
that runs compare. Confederate player turn: three maneuver rolls, a skirmish attack, a battery on each side fires,
the leaders hit check or are passed over, two assaults (Davis's and Pettigrew's brigades against Cutler's, Archer's
against the Iron Brigade), then whatever the dice leave to do in the hors de combat, charge disorder and panic
steps. Union player turn: the rallies and the leader replaced that the Confederate turn left, a maneuver roll, a
battery fires, the Iron Brigade assaults, and the steps after it. Ann holds the Confederate seat, Bob the Union's;
the game master's device follows the game page."""

import re
from dataclasses import dataclass
from functools import partial

from playwright.sync_api import Locator

from tests.taps.counts import Tally
from tests.taps.driver import Device

CONFEDERATE = (
    "Archer's",
    "Davis's",
    "Pettigrew's",
    "Brockenbrough's",
    "Garnett's",
    "Pegram's",
    "A. P. Hill",
    "Henry Heth",
    "Heth's Division",
    "Third Corps",
)
STEPS_A_TURN = 13
# actions whose only input is dice: one die, or two (a leader's check)
ONE_DIE, TWO_DICE = {"maneuver roll", "rally", "panic test"}, {"leader check"}
ALL_OUT = "all-out"  # an assaulting unit's contact, as its choice's words begin
# the faces rolled where the dice decide nothing the plan depends on: a rally, a leader's check (never a double),
# a panic test, an adjoining division's test
FACES = {"rally": (6,), "leader check": (3, 7), "panic test": (9,)}


@dataclass
class Table:
    ann: Device  # the Confederate seat
    bob: Device  # the Union seat
    gm: Device  # the game master's device
    last: Device  # the device that acted last: its page is the game as it stands

    def owner(self, title: str) -> Device:
        return self.ann if any(name in title for name in CONFEDERATE) else self.bob

    @property
    def devices(self) -> tuple[Device, ...]:
        return (self.ann, self.bob, self.gm)


class Steps:
    """Walks the turn sequence: the mover's Next step brings each step, every device's page follows, and each
    page is measured as it arrives (its first work on the first screen, axe)."""

    def __init__(self, table: Table, tally: Tally):
        self.table, self.tally = table, tally
        self.first = True
        self.landed = ""  # the step a Next step landed on when the steps before it passed by themselves
        self.at = ""  # the step the table is working in

    def step(self, title: str, mover: Device) -> bool:
        """Whether the step was reached for its work: False when the app passed it by itself (nobody had anything to
        do in it), as the code that passes such steps does; the old code stops at every step."""
        self.tally.steps += 1
        if self.first:
            self.first = False
        elif self.landed:
            if title not in self.landed:
                self.tally.passed.append(self.named(title))
                return False
            self.landed = ""
        else:
            if self.at in mover.title():  # else the step's last action moved the game on by itself
                mover.next_step()
            if title not in mover.title():
                self.landed = mover.title()
                self.tally.passed.append(self.named(title))
                return False
        self.at = title
        self.table.last = mover
        for device in self.table.devices:
            device.wait_for_step(title)
            device.look(device.title())
        for phone in (self.table.ann, self.table.bob):
            if phone.first_work_below_fold():
                self.tally.below_fold.append(f"{phone.who} · {self.named(phone.title())}")
        return True

    def named(self, title: str) -> str:
        """A step's title with the player turn it is in (the two turns pass the same steps)."""
        return f"{'first' if self.tally.steps <= STEPS_A_TURN else 'second'} player turn: {title}"

    def finish(self, mover: Device) -> None:
        if not self.landed:  # else the last steps passed by themselves into the next player turn
            mover.next_step()


def maneuver(device: Device, unit: str, face: int) -> None:
    def gestures() -> None:
        device.die(device.form(f"Maneuver roll for {unit}", row=unit), face)

    device.act("maneuver roll", gestures)


def field(form: Locator, name: str) -> Locator:
    """The form's field of that name (a step's forms prefix their fields)."""
    return form.locator(f"[name$='-{name}'], [name='{name}']").first


def skirmishers(device: Device, unit: str, deployed: int) -> None:
    def gestures() -> None:
        row = device.open_row(unit)
        form = row.get_by_role("form", name=f"Skirmishers of {unit}")
        if not form.is_visible():
            device.tap(row.locator("summary", has_text="skirmishers"))
        count = form.locator(".count-pad button", has_text=re.compile(rf"^{deployed}$"))
        if count.count():  # the markers out as a count to tap
            device.tap(count.first, posts=True)
            return
        device.type(field(form, "deployed"), str(deployed))
        device.tap(form.get_by_role("button", name="Set skirmishers"), posts=True)

    device.act("skirmishers", gestures)


def fire(device: Device, kind: str, unit: str, form: str, target: str, inches: str, face: int) -> None:
    def gestures() -> None:
        found = device.form(f"{form} {unit}", row=unit)
        device.pick(found, target, "target")
        device.type(field(found, "range"), inches)
        device.die(found, face)

    device.act(kind, gestures)


def declare(device: Device, attackers: list[str], defenders: list[str]) -> None:
    def gestures() -> None:
        fold = device.page.locator("details.declare")
        if not fold.evaluate("d => d.open"):
            device.tap(fold.locator("summary"))
        form = device.page.get_by_role("form", name="Declare an assault")
        form.wait_for()
        for side, units in (("a", attackers), ("d", defenders)):
            for number, unit in enumerate(units, start=1):
                device.pick(form, unit, f"{side}{number}")
                contact = field(form, f"{side}{number}_contact")
                if contact.count():
                    device.choose(contact.first, ALL_OUT)
        device.tap(form.get_by_role("button", name="Declare the assault"), posts=True)

    device.act(f"assault declared, {len(attackers)} v {len(defenders)}", gestures)


def assault_round(device: Device, number: int, attacker: int, defender: int) -> None:
    def gestures() -> None:
        card = f"Assault {number}"
        form = device.page.get_by_role("form", name=f"Round 1 of assault {number}")
        if not form.count():
            device.open_row(card)
        device.die(form.first, attacker, defender)

    device.act("assault round", gestures)


def close_assault(device: Device, number: int) -> None:
    def gestures() -> None:
        button = device.page.get_by_role("button", name=re.compile(rf"[Cc]lose assault {number}$"))
        if not button.count():
            device.open_row(f"Assault {number}")
        device.tap(button.first, posts=True)

    device.act("assault closed", gestures)


def named(title: str, item: str) -> bool:
    """Whether an item left to do is about the row of that title (a leader's row adds his rating: "(E3)")."""
    return title.strip() in item or title_name(title) in item


def title_name(title: str) -> str:
    """A row's title without the rating a leader's row adds to his name."""
    return re.sub(r" \([A-Z]\d\)$", "", title.strip())


def do_row(device: Device, title: str, faces: tuple[int, ...]) -> None:
    """A row opened and done: its dice, or its one button."""
    row = device.open_row(title)
    form = row.locator(".work-form form").first
    if form.locator(".die-pad, .die-input").count():
        device.die(form, *faces)
    else:
        device.tap(form.locator("button[type=submit]").first, posts=True)


def rows_to_do(table: Table, kind: str, faces: dict[str, tuple[int, ...]] | None = None) -> None:
    """Every row the step bar lists as left to do, done by the side it belongs to: its dice (the plan's faces for
    the kind, or for that row's title in ``faces``) or its one button."""
    done: list[str] = []
    while True:
        left = table.last.left_to_do()
        shown = table.last.page.locator("#work-list .work-row:not(.is-done) .work-title").all_inner_texts()
        titles = [t.strip() for t in shown if t.strip() not in done and any(named(t, item) for item in left)]
        if not titles:
            return
        title = titles[0]
        done.append(title)
        device = table.owner(title)
        device.wait_for_row(title)
        table.last = device

        device.act(kind, partial(do_row, device, title, (faces or {}).get(title_name(title), FACES[kind])))


def confederate_turn(t: Table, at: Steps) -> None:
    ann, bob = t.ann, t.bob
    at.step("Defenders exchange messages", ann)
    at.step("Attacker rallies units", ann)
    at.step("Attacker replaces hors de combat leaders", ann)
    at.step("Attacker moves units", ann)
    for unit in ("Davis's Brigade", "Pettigrew's Brigade", "Archer's Brigade"):
        maneuver(ann, unit, 6)
    skirmishers(ann, "Davis's Brigade", 2)
    at.step("Skirmish fire", ann)
    fire(ann, "skirmish fire", "Davis's Brigade", "Skirmish attack by", "Iron Brigade (Meredith)", "2", 8)
    at.step("Artillery fire", ann)
    fire(ann, "artillery fire", "Pegram's Battalion (rifles)", "Fire", "Cutler's Brigade", "3", 10)
    bob.wait_for_step("Artillery fire")
    fire(bob, "artillery fire", "2nd U.S., Battery A (Calef)", "Fire", "Davis's Brigade", "12", 5)
    if at.step("Hors de combat checks", ann):
        rows_to_do(t, "leader check", {"James S. Wadsworth": (9, 9)})  # a double: he falls, and is replaced
    if at.step("Demoralized panic test", ann):
        rows_to_do(t, "panic test")
    at.step("Resolve all assaults", ann)
    declare(ann, ["Davis's Brigade", "Pettigrew's Brigade"], ["Cutler's Brigade"])
    assault_round(ann, 1, 10, 1)
    close_assault(ann, 1)
    declare(ann, ["Archer's Brigade"], ["Iron Brigade (Meredith)"])
    assault_round(ann, 2, 5, 5)
    close_assault(ann, 2)
    after_the_assaults(t, at, ann)


def after_the_assaults(t: Table, at: Steps, mover: Device) -> None:
    """The steps of a player turn after its assaults: what their losses and charges leave to do."""
    if at.step("Hors de combat checks", mover):
        rows_to_do(t, "leader check")
    if at.step("Attacker applies charge disorder", mover):
        charge_disorder(mover)
    if at.step("Divisional panic tests", mover):
        rows_to_do(t, "panic test")
    if at.step("Inter-divisional panic tests", mover):
        rows_to_do(t, "panic test")


def union_turn(t: Table, at: Steps) -> None:
    bob = t.bob
    at.step("Defenders exchange messages", t.ann)  # the Confederate players end their turn
    if at.step("Attacker rallies units", bob):
        rows_to_do(t, "rally")
    if at.step("Attacker replaces hors de combat leaders", bob):
        replace(bob, "James S. Wadsworth")
    at.step("Attacker moves units", bob)
    maneuver(bob, "Iron Brigade (Meredith)", 8)
    at.step("Skirmish fire", bob)
    at.step("Artillery fire", bob)
    fire(bob, "artillery fire", "2nd Maine Light, Battery B (Hall)", "Fire", "Pettigrew's Brigade", "5", 5)
    if at.step("Hors de combat checks", bob):
        rows_to_do(t, "leader check")
    if at.step("Demoralized panic test", bob):
        rows_to_do(t, "panic test")
    at.step("Resolve all assaults", bob)
    declare(bob, ["Iron Brigade (Meredith)"], ["Archer's Brigade"])
    assault_round(bob, 1, 1, 10)
    close_assault(bob, 1)
    after_the_assaults(t, at, bob)
    at.finish(bob)


def replace(device: Device, leader: str) -> None:
    def gestures() -> None:
        device.tap(device.page.get_by_role("button", name=f"Replace {leader}"), posts=True)

    device.act("leader replaced", gestures)


def charge_disorder(device: Device) -> None:
    """Charge disorder applied, when the step lists it as left to do."""
    button = device.page.locator("#step-head form button[type=submit]")
    if button.count() and device.page.locator("#step-bar .step-left").count():

        def gestures() -> None:
            device.tap(button.first, posts=True)

        device.act("charge disorder", gestures)
