"""Words for results and events: one place, so the phone, the log and the printed report say the same."""

from republic.rules.results import CellUse, Modifier


def signed(value: float) -> str:
    return f"{value:+g}"


def modifier_line(modifier: Modifier | dict) -> str:
    m = modifier if isinstance(modifier, dict) else modifier.__dict__
    return f"{signed(m['value'])} {m['label']} ({m['section']})"


def cell_line(cell: CellUse | dict) -> str:
    c = cell if isinstance(cell, dict) else cell.__dict__
    mark = " (provisional)" if c["provenance"] == "provisional" else ""
    return f"{c['table']} [{c['key']}] = {c['value']}{mark}"


def dice_text(dice: list[dict]) -> str:
    """'6 (typed)' or '5-5 (rolled by the app)' for the log."""
    parts = []
    for roll in dice:
        faces = "-".join(str(f) for f in roll["faces"])
        how = "typed" if roll["source"] == "typed" else "rolled by the app"
        label = f"{roll['label']}: " if roll.get("label") else ""
        parts.append(f"{label}{faces} ({how})")
    return ", ".join(parts)


def provenance_warning(provisional: bool, printed_chart: bool) -> str:
    if printed_chart:
        return "Result read from the players' printed chart."
    if provisional:
        return "Used a provisional chart cell: check it against your printed chart."
    return ""


def condition_label(m_hits: int) -> str:
    return ("Formed", "Unformed", "Rattled", "Shaken", "Demoralized")[m_hits]


def hits_text(m: int = 0, b: int = 0, p: int = 0) -> str:
    parts = [f"{n}{k}" for k, n in (("M", m), ("B", b), ("P", p)) if n]
    return " ".join(parts) or "no hits"


def inches(value: float) -> str:
    return f'{value:g}"'
