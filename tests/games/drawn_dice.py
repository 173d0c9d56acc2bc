"""A result's dice as the page draws them: each face a small die, its words for a screen reader inside."""


def die(face: int | str) -> str:
    return f"<span class=die><span class=visually-hidden>die </span>{face}</span>"


def dice_line(*rolls: tuple[str, int | str, str]) -> str:
    """'Dice: ' and each (label, face, how) roll as the result card and the turn log draw it."""
    return "Dice: " + "; ".join(f"{label} {die(face)}, {how}" for label, face, how in rolls)
