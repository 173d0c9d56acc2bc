"""What the phone tests measure in the browser: axe-core's findings, the controls too small for a thumb, whether
an element is on screen; and a tap the tests share."""

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

AXE = Axe()  # axe-core as the package bundles it: nothing is fetched

# Serious and critical findings fail; so does a skipped heading level (moderate for axe): a screen reader user
# moves through the page by its headings.
FAILING_IMPACTS = {"serious", "critical"}
FAILING_RULES = {"heading-order"}

# How long a test waits for another phone's action to reach a phone without a reload: the next poll (every 3 s,
# static/js/live.js) and its answer, on a machine that runs a test pass beside this one
NEWS = 7_000  # ms


def axe_problems(page) -> list[str]:
    """Every failing axe-core finding on the page as it stands: the rule, the element and what is wrong."""
    found = AXE.run(page).response["violations"]
    return [
        f"{rule['id']} ({rule['impact']}) at {', '.join(map(str, node['target']))}: "
        + " ".join(node.get("failureSummary", rule["help"]).split())
        for rule in found
        if rule["impact"] in FAILING_IMPACTS or rule["id"] in FAILING_RULES
        for node in rule["nodes"]
    ]


MIN_TARGET = 44  # px, both ways (WCAG 2.5.5)

# Each visible control and the box a thumb can hit it by: a check box or radio with its label, a link stretched
# over its list item by the list item.
_SMALL_TARGETS = """(least) => {
  const controls = ['a[href]', 'button', 'summary', 'input:not([type=hidden])', 'select', 'textarea',
    '[tabindex]:not([tabindex="-1"])'].join(', ');
  const union = (boxes) => {
    const left = Math.min(...boxes.map(b => b.left)), top = Math.min(...boxes.map(b => b.top));
    return {width: Math.max(...boxes.map(b => b.right)) - left, height: Math.max(...boxes.map(b => b.bottom)) - top};
  };
  const small = [];
  for (const el of document.querySelectorAll(controls)) {
    const own = el.getBoundingClientRect();
    if (!own.width || !own.height || !el.checkVisibility({visibilityProperty: true})) continue;
    let hit = [el];
    if (el.matches('input[type=checkbox], input[type=radio]')) hit = hit.concat([...el.labels]);
    if (el.matches('.stretched-link')) hit = [el.closest('.list-group-item, .card') || el];
    const box = union(hit.map(e => e.getBoundingClientRect()));
    if (box.width < least || box.height < least) {
      const name = (el.innerText || el.getAttribute('aria-label') || el.value || el.name || '').trim();
      const classes = el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
      small.push(`${el.tagName.toLowerCase()}${classes} "${name.replace(/\\s+/g, ' ').slice(0, 40)}"`
        + ` ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return small;
}"""


def small_targets(page, open_details: bool = True) -> list[str]:
    """The visible controls a thumb cannot hit, each with its size; with every disclosure opened first, so that
    what a tap reveals is measured too."""
    if open_details:
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    return page.evaluate(_SMALL_TARGETS, MIN_TARGET)


def on_screen(page, selector: str, whole: bool = True) -> bool:
    """The element is inside the viewport: all of it, or with whole=False its top at least."""
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    if box is None:
        return False
    return box["y"] >= 0 and (box["y"] + box["height"] <= height if whole else box["y"] < height)


def open_row(page, title: str) -> None:
    """Tap the step's row of that title (a unit's name) open, as a player does to get its form, unless it is open
    already: a player's next work is drawn open by itself."""
    row = page.locator(".work-row", has=page.locator(".work-title", has_text=title))
    page.wait_for_function("() => !document.querySelector('[data-next]')")  # the next work fetched open, if any
    if not row.locator(".work-form").count():
        row.locator("a.work-open").click()
    row.locator(".work-form").wait_for()


def roll_for_me(page, form: str, row: str) -> None:
    """Press "Roll for me" in the form of that name (a maneuver roll, a rally), opening its row first."""
    found = page.get_by_role("form", name=form)
    if not found.count():
        open_row(page, row)
    found.get_by_role("button", name="Roll for me").click()


def tap_face(form, face: int, die: str = "Die (1-10)") -> None:
    """Tap a face of a die's pad in the form (its faces are buttons where the form takes one die, radios where it
    takes several): one tap sends a form that takes one die."""
    form.get_by_role("group", name=die).locator(".die-face").get_by_text(str(face), exact=True).click()


def pick(within, field: str, name: str) -> None:
    """Tap a unit (leader, division) by its name in the picker of that form field, opening its division's group
    first when it is folded: a name is never typed."""
    item = within.locator(f'fieldset.pick[data-pick="{field}"] .pick-item > label', has_text=name).first
    # the group is found by what it holds, asked from inside it
    held = within.page.locator(".pick-item > label", has_text=name)
    group = within.locator(f'fieldset.pick[data-pick="{field}"] details.pick-group', has=held).first
    if group.count() and not group.evaluate("d => d.open"):
        group.locator("summary").click()
    item.click()


def take_seat(page, join: str, side: str, name: str) -> None:
    """Take a seat of the whole side with the game's join link, as a player's phone does."""
    page.goto(join)
    page.get_by_label("Your name").fill(name)
    page.get_by_label(f"{side}: the whole side").check()
    page.get_by_role("button", name="Take this seat").click()
    expect(page.locator("#actor-line")).to_contain_text(f"Playing as {name}")
