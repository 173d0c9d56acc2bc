"""On a 360 px phone, a unit is chosen by a tap, never typed: an assault of two brigades against one is declared
in at most six taps from the assault step's page, every name with its apostrophe; a fire's target among a club
battle's dozens is found by its division's group or by typing a few letters into the filter."""

from playwright.sync_api import expect

from republic.games.events.assault import AssaultDeclared
from republic.games.events.payload import payload_of
from republic.games.models import Event, Unit
from republic.games.scenario import create_game, parse_scenario
from tests.browser.checks import axe_problems, pick, small_targets
from tests.club_battle import club_scenario
from tests.games.conftest import at_step, rolled_for_assault

TAPS = 6  # the goal for two brigades against one, the declare button included


class Taps:
    """Counts every tap the test makes on the page: a press, whatever clicks it makes (a label clicks its box)."""

    def __init__(self, page) -> None:
        self.count = 0
        page.expose_function("__tapped", self.tapped)
        page.add_init_script("addEventListener('pointerdown', (e) => e.isTrusted && window.__tapped(), true)")

    def tapped(self) -> None:
        self.count += 1


def test_two_brigades_against_one_are_declared_in_six_taps_at_most(phone, live_server, demo_game):
    game = at_step(rolled_for_assault(demo_game), "assaults")
    taps = Taps(phone)
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    assert not phone.locator("input[list], datalist").count()  # no text box takes a name
    details = phone.locator("details.declare")
    if not details.evaluate("d => d.open"):
        details.locator("summary").click()
    form = phone.get_by_role("form", name="Declare an assault")
    pick(form, "declare-attackers", "Davis's Brigade")
    pick(form, "declare-attackers", "Archer's Brigade")
    pick(form, "declare-defenders", "Cutler's Brigade")
    # a chosen unit shows its contact, all-out unless ticked general; one not chosen shows none
    attackers = form.locator('fieldset[data-pick="declare-attackers"]')
    expect(attackers.locator(".pick-item", has_text="Davis's Brigade").locator(".pick-aside")).to_be_visible()
    expect(attackers.locator(".pick-item", has_text="Brockenbrough").locator(".pick-aside")).to_be_hidden()
    assert not (found := small_targets(phone, open_details=False)), found
    assert not (problems := axe_problems(phone)), problems
    form.get_by_role("button", name="Declare the assault").click()
    expect(phone.locator(".work-row", has_text="Assault 1")).to_be_visible()
    assert taps.count <= TAPS, f"{taps.count} taps"
    declared = payload_of(Event.objects.get(game=game, kind="AssaultDeclared"))
    assert isinstance(declared, AssaultDeclared)
    assert sorted(a.name for a in declared.attackers) == ["Archer's Brigade", "Davis's Brigade"]
    assert [(d.name, d.contact.value) for d in declared.defenders] == [("Cutler's Brigade", "all_out")]
    # another assault while the first is open: its declaration is folded, and opening it is a tap too
    taps.count = 0
    details = phone.locator("details.declare")
    assert not details.evaluate("d => d.open")
    details.locator("summary").click()
    form = phone.get_by_role("form", name="Declare an assault")
    pick(form, "declare-attackers", "Pettigrew's Brigade")
    pick(form, "declare-attackers", "Brockenbrough's Brigade")
    pick(form, "declare-defenders", "Iron Brigade (Meredith)")
    form.get_by_role("button", name="Declare the assault").click()
    expect(phone.locator(".work-row", has_text="Assault 2")).to_be_visible()
    assert taps.count <= TAPS, f"{taps.count} taps"
    assert phone.problems == []


def test_a_target_among_dozens_is_found_by_its_division_or_a_few_letters(phone, live_server, transactional_db):
    game = at_step(create_game(parse_scenario(club_scenario(60, "Club day"))), "artillery_fire")
    attacker = game.attacker.pk
    firing = Unit.objects.filter(game=game, kind="artillery", division__side_id=attacker).order_by("pk").first()
    enemy = Unit.objects.filter(game=game, division__side=game.defender).order_by("-pk").first()
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    row = phone.locator(f"#row-unit-{firing.pk}")
    row.locator("a.work-open").click()
    main = row.locator(f'fieldset[data-pick="fire-unit-{firing.pk}-target"]')
    expect(main.locator("details.pick-group").first).to_be_visible()
    box = main.locator("input.pick-filter")
    expect(box).to_be_visible()
    assert not (problems := axe_problems(phone)), problems
    box.fill(enemy.name)
    shown = main.locator(".pick-item:visible")
    expect(shown).to_have_count(1)
    shown.locator("label").click()
    assert main.locator("input:checked").get_attribute("value") == enemy.key
    box.fill("")
    expect(main.locator("details.pick-group[open]")).to_have_count(1)  # the chosen one's group stays open
    assert phone.problems == []


def test_in_a_club_battle_a_ticked_unit_is_given_its_contact_and_the_primary_defender_choice(
    phone, live_server, transactional_db
):
    """A club battle's lists are grouped, and a unit's contact and primary defender choices come once it is ticked
    (a 1,000-unit battle's 500 defenders would double the page): two defenders ticked, the second general contact
    and primary, are declared so."""
    game = create_game(parse_scenario(club_scenario(60, "Club day")))
    brigade = Unit.objects.filter(game=game, division__side=game.attacker, kind="infantry").order_by("pk").first()
    game = at_step(rolled_for_assault(game, [brigade]), "assaults")
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    details = phone.locator("details.declare")
    if not details.evaluate("d => d.open"):
        details.locator("summary").click()
    form = phone.get_by_role("form", name="Declare an assault")
    defenders = form.locator('fieldset[data-pick="declare-defenders"]')
    assert defenders.locator("details.pick-group").count() and not defenders.locator(".pick-item .pick-aside").count()
    attacker = brigade.name
    first, second = (
        Unit.objects.filter(game=game, division__side=game.defender).order_by("pk").values_list("name", flat=True)[:2]
    )
    pick(form, "declare-attackers", attacker)
    pick(form, "declare-defenders", first)
    pick(form, "declare-defenders", second)
    chosen = defenders.locator(".pick-item", has_text=second)
    expect(chosen.locator(".pick-aside")).to_have_count(2)
    chosen.get_by_text("General contact").click()
    chosen.get_by_text("Primary defender").click()
    assert not (problems := axe_problems(phone)), problems
    form.get_by_role("button", name="Declare the assault").click()
    expect(phone.locator(".work-row", has_text="Assault 1")).to_be_visible()
    declared = payload_of(Event.objects.get(game=game, kind="AssaultDeclared"))
    assert isinstance(declared, AssaultDeclared)
    assert [a.name for a in declared.attackers] == [attacker]
    assert [(d.name, d.contact.value) for d in declared.defenders] == [(second, "general"), (first, "all_out")]
    assert phone.problems == []
