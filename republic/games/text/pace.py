"""The words of the day's pace: minutes a turn and a step, and the projection the game master plans the day by,
in the club's local time (settings.TIME_ZONE)."""

from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.dateformat import format as date_format

from republic.games.pace import Projection

NOT_YET = "Pace known after the first player turn"
NO_DAY_END = "no end of the day set"
NO_LAST_TURN = "no last turn set"


def minutes(spent: timedelta | None) -> str:
    """'52 min', or '1 h 05' from an hour on; a dash when not known."""
    if spent is None:
        return "–"
    whole = round(spent.total_seconds() / 60)
    return f"{whole} min" if whole < 60 else f"{whole // 60} h {whole % 60:02d}"


def clock(when: datetime, now: datetime) -> str:
    """'18:40' today, 'Sun 09:10' on another day, in the club's time."""
    local, today = timezone.localtime(when), timezone.localtime(now)
    return date_format(local, "H:i" if local.date() == today.date() else "D H:i")


def projection(planned: Projection | None, now: datetime, in_progress: bool) -> str:
    """'At this pace: game turn 7 of 12 by 18:40 · the day ends 18:00', or why it cannot be said yet."""
    if not in_progress:
        return ""
    if planned is None:
        return NOT_YET
    last = planned.last_turn
    of = "" if last is None else f" of {last}" if planned.turn <= last else f" (past the last turn, {last})"
    words = [f"At this pace: game turn {planned.turn}{of} by {clock(planned.by, now)}"]
    if planned.day_ends is None:
        words.append(NO_DAY_END)
    elif planned.day_ends <= now:
        words.append(f"the day ended {clock(planned.day_ends, now)}")
    else:
        words.append(f"the day ends {clock(planned.day_ends, now)}")
    if planned.last_turn is None:
        words.append(NO_LAST_TURN)
    elif planned.last_ends is not None and planned.turn < planned.last_turn:
        words.append(f"game turn {planned.last_turn} would end {clock(planned.last_ends, now)}")
    return " · ".join(words)


def day_set(game: str, ends: datetime | None, last_turn: int | None, now: datetime) -> str:
    """What the game master set: 'Gettysburg: the day ends 18:00; the last game turn is 12.'"""
    day = f"the day ends {clock(ends, now)}" if ends else NO_DAY_END
    last = f"the last game turn is {last_turn}" if last_turn else NO_LAST_TURN
    return f"{game}: {day}; {last}."
