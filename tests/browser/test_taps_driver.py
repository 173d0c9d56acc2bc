"""The taps script's driver (tests/taps/driver.py) on forms drawn as the new controls' DOM contract says, and as
the typed ones are: a die tapped on its pad is one tap and sends the form, a name picked in a folded division is
two taps and nothing typed, a typed die is a tap into the box, its digit and Resolve."""

from urllib.parse import parse_qs

import pytest

from tests.taps.counts import Tally
from tests.taps.driver import Device

SENT = "http://taps.test/act/"
PAD = "".join(f'<button class="die-face" type="submit" name="die" value="{n}">{n}</button>' for n in range(1, 11))
CONTRACT = f"""<div id="live"><span id="poll" hidden hx-get="/games/1/poll/?since=4"></span>
<form method="post" action="{SENT}" aria-label="Declare an assault">
  <fieldset class="pick" data-pick="attackers"><legend>Attacking units</legend>
    <input type="search" class="pick-filter" aria-label="Filter">
    <details class="pick-group"><summary>Heth's Division</summary>
      <input type="checkbox" id="a1" name="attackers" value="unit-2"><label for="a1">Davis's Brigade (Average)</label>
      <input type="checkbox" id="a2" name="attackers" value="unit-3"><label for="a2">Pettigrew's Brigade</label>
    </details>
  </fieldset>
  <fieldset><legend>Contact</legend>
    <input type="radio" id="c1" name="unit-2_contact" value="general"><label for="c1">General, 2" to 4"</label>
    <input type="radio" id="c2" name="unit-2_contact" value="all_out"><label for="c2">All-out, within 2"</label>
  </fieldset>
</form>
<form method="post" action="{SENT}" aria-label="Maneuver roll for Davis's Brigade">
  <div class="die-pad" role="group" aria-label="Die">{PAD}</div>
</form></div>"""
TYPED = f"""<div id="live"><form method="post" action="{SENT}" aria-label="Rally Cutler's Brigade">
  <label for="d">Die (1-10)</label><input id="d" name="rally-die" class="die-input" inputmode="numeric">
  <input name="rally-target" list="units" aria-label="Target">
  <select name="rally-cover" aria-label="Cover"><option value="">—</option><option value="none">none</option>
    <option value="light">light cover</option></select>
  <button type="submit" name="roll" value="typed">Resolve</button>
</form></div>"""


@pytest.fixture
def device(browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.sent = []

    def answer(route):
        page.sent.append(parse_qs(route.request.post_data or ""))
        route.fulfill(status=200, content_type="text/html", body='<div id="live">done</div>')

    page.route(SENT, answer)
    yield Device(page, Tally(), "Ann")
    context.close()


def test_a_die_on_its_pad_is_one_tap_that_sends_it_and_a_picked_name_types_nothing(device):
    device.page.set_content(CONTRACT)
    device.kind = "assault declaration"
    declaring = device.page.get_by_role("form", name="Declare an assault")
    device.pick(declaring, "Davis's Brigade", "a1")
    assert declaring.locator("#a1").is_checked() and not declaring.locator("#a2").is_checked()
    device.choose(declaring.locator("[name$='_contact']").first, "all-out")
    device.choose(declaring.locator("[name$='_contact']").first, "all-out")  # chosen already: no tap
    assert declaring.locator("#c2").is_checked()
    device.kind = "maneuver roll"
    device.die(device.page.get_by_role("form", name="Maneuver roll for Davis's Brigade"), 7)
    assert device.page.sent == [{"die": ["7"]}]
    picked, rolled = device.tally.kinds["assault declaration"], device.tally.kinds["maneuver roll"]
    assert (picked.taps, picked.typed, picked.names_typed) == (3, 0, 0)  # the division opened, the name, its contact
    assert (rolled.taps, rolled.typed) == (1, 0)
    assert device.tally.ways == {"names picked": 1, "dice tapped on a pad": 1}


def test_a_typed_die_and_name_are_counted_as_typed(device):
    device.page.set_content(TYPED)
    device.kind = "rally"
    form = device.page.get_by_role("form", name="Rally Cutler's Brigade")
    device.pick(form, "Cutler's Brigade", "target")
    device.choose(form.locator("[name=rally-cover]"), "light")
    device.die(form, 10)
    assert device.page.sent == [
        {"rally-die": ["10"], "rally-target": ["Cutler's Brigade"], "rally-cover": ["light"], "roll": ["typed"]}
    ]
    rally = device.tally.kinds["rally"]
    assert (rally.taps, rally.typed, rally.names_typed) == (5, 18, 1)  # two boxes, a select (open, choose), Resolve
    assert device.tally.ways == {"names typed": 1, "dice typed": 1}
