"""What the phone tests measure in the browser: axe-core's findings; and a tap the tests share."""

from axe_playwright_python.sync_playwright import Axe

AXE = Axe()  # axe-core as the package bundles it: nothing is fetched

# Serious and critical findings fail; so does a skipped heading level (moderate for axe): a screen reader user
# moves through the page by its headings.
FAILING_IMPACTS = {"serious", "critical"}
FAILING_RULES = {"heading-order"}


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


def roll_for_me(page, form: str) -> None:
    """Press "Roll for me" in the form of that name (a maneuver roll, a rally)."""
    page.get_by_role("form", name=form).get_by_role("button", name="Roll for me").click()
