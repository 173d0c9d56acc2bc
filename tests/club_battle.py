"""A club-sized battle made to measure: two armies of corps of divisions, each division four brigades and a
battery, as many as asked for. The tests use it to hold a page's cost at two sizes, the benchmark to measure."""

from itertools import count, cycle

import yaml

GRADES = ("veteran", "average", "crack", "green", "average", "veteran")
BATTERY_TYPES = ("m_rifle", "m_sb", "h_rifle", "l_sb")
LEADER_VALUES = ("E1", "P2", "C0", "E3", "P1", "C1", "P0")
ORDINALS = ("1st", "2nd", "3rd", "4th")
BRIGADES_A_DIVISION = 4
DIVISIONS_A_CORPS = 3


def club_scenario(units: int, title: str = "") -> str:
    """A scenario of about ``units`` brigades and batteries (a multiple of ten: five a division, both sides alike),
    the Confederates attacking first, as YAML text."""
    divisions_a_side = max(1, round(units / 10))
    grades, types, values = cycle(GRADES), cycle(BATTERY_TYPES), cycle(LEADER_VALUES)
    serial = count(1)

    def leader(role: str) -> dict:
        return {"name": f"{role} {next(serial)}", "value": next(values)}

    def division(side: str, number: int, corps: int) -> dict:
        name = f"Division {number} ({side[0]}{corps})"
        brigades = []
        for b in range(BRIGADES_A_DIVISION):
            cavalry = number % 7 == 0
            brigades.append(
                {
                    "name": f"{ORDINALS[b]} Brigade, {name}",
                    "grade": next(grades),
                    "bases": 4 + (number + b) % 6,
                    "kind": "cavalry_dismounted" if cavalry else "infantry",
                    "formation": "single_line" if cavalry else "two_line",
                    "skirmishers": 1 + b % 2,
                }
            )
        battery = {"name": f"Battery of {name}", "type": next(types), "grade": next(grades), "horse": cavalry}
        return {
            "level": "division",
            "name": name,
            "orders": "attack" if side == "Confederate" else "defend",
            "leader": leader("General"),
            "brigades": brigades,
            "batteries": [battery],
        }

    def army(side: str) -> dict:
        corps_list = []
        numbers = iter(range(1, divisions_a_side + 1))
        for corps in range(1, -(-divisions_a_side // DIVISIONS_A_CORPS) + 1):
            divisions = [division(side, n, corps) for _, n in zip(range(DIVISIONS_A_CORPS), numbers, strict=False)]
            corps_list.append(
                {"level": "corps", "name": f"Corps {corps}", "leader": leader("Corps"), "commands": divisions}
            )
        return {
            "name": side,
            "players": "",
            "commands": [{"level": "army", "name": f"Army ({side})", "leader": leader("Army"), "commands": corps_list}],
        }

    scenario = {
        "scenario": title or f"Club battle of {divisions_a_side * 10} units",
        "ground_scale": "medium",
        "first_attacker": "Confederate",
        "sides": [army("Confederate"), army("Union")],
    }
    return yaml.safe_dump(scenario, sort_keys=False)
