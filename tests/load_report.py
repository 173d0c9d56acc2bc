"""The figures of the load benchmark (tests/load.py): each stage's requests by kind with their percentiles, the
goal run's table and verdict, the ramp's lines, and what the server wrote to its standard error."""

import re
from collections.abc import Iterable
from dataclasses import dataclass

import psutil

from tests.load_devices import ACTION, ERROR, OK, PAGE, POLL, REFUSED, ROW, TALLY, Record

KINDS = (
    (POLL, ""),
    (POLL, "nothing new"),
    (POLL, "news"),
    (POLL, "live part"),
    (PAGE, ""),
    (ROW, ""),
    (ACTION, ""),
    (ACTION, "dice"),
    (ACTION, "undo"),
    (ACTION, "next step"),
)


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile: the value under which ``share`` of the values are."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


@dataclass
class Stage:
    title: str
    asked: float  # actions a second across the server
    seconds: float
    records: list[Record]
    unsent: int = 0
    cores: tuple[float, float, float] = (0.0, 0.0, 0.0)  # used by the server, the phones, the whole machine

    def errors(self, records: Iterable[Record] | None = None) -> int:
        return sum(r.outcome == ERROR for r in (self.records if records is None else records))

    def p95(self, records: Iterable[Record] | None = None) -> float:
        return percentile([r.ms for r in (self.records if records is None else records)], 0.95)

    def of(self, kind: str, sub: str = "") -> list[Record]:
        return [r for r in self.records if r.kind == kind and (not sub or r.sub == sub)]

    def accepted(self) -> int:
        return sum(r.outcome == OK for r in self.of(ACTION))


def _row(label: str, records: list[Record], seconds: float) -> str:
    ms = [r.ms for r in records]
    cells = [
        label,
        str(len(records)),
        str(sum(r.outcome == ERROR for r in records)),
        str(sum(r.outcome == REFUSED for r in records)),
        *(f"{percentile(ms, share):.0f}" for share in (0.5, 0.95, 0.99)),
        f"{max(ms, default=0):.0f}",
        f"{len(records) / seconds:.1f}" if seconds else "",
    ]
    return "| " + " | ".join(cells) + " |"


def _met(ok: bool) -> str:
    return "met" if ok else "MISSED"


def goal_table(goal: Stage, database: str, goal_ms: float, limit_ms: float, ramp: list[Stage]) -> list[str]:
    seating = [r for r in TALLY.records if r.stage == 0]
    lines = [
        f"{database}, {goal.title}: {goal.seconds:.0f} s, {goal.asked:g} actions/s asked, "
        f"{goal.accepted() / goal.seconds:.2f} accepted a second",
        "| request | requests | errors | refusals | p50 ms | p95 ms | p99 ms | max ms | req/s |",
        "|---|---|---|---|---|---|---|---|---|",
        _row("all", goal.records, goal.seconds),
    ]
    for kind, sub in KINDS:
        found = goal.of(kind, sub)
        if found or not sub:
            lines.append(_row(f"{kind} · {sub}" if sub else kind, found, goal.seconds))
    lines.append(_row("join and first page (seating, before the run)", seating, 0))
    errors, p95 = goal.errors(), goal.p95()
    lines.append(
        f"goal: 0 errors {_met(errors == 0)} ({errors}); p95 under {goal_ms:.0f} ms {_met(p95 < goal_ms)} "
        f"({p95:.0f} ms); actions not sent (phones of a game all waiting): {goal.unsent}"
    )
    resent = sum(TALLY.resent.values())
    lines.append(f"requests sent again, every stage (their kept-alive connection closed before any answer): {resent}")
    reasons = "; ".join(f"{n} x {why}" for why, n in TALLY.reasons.most_common(4))
    lines.append(f"refusals, every stage: {reasons or 'none'}")
    server, phones, machine = goal.cores
    per_request = server * goal.seconds / max(1, len(goal.records)) * 1000
    lines.append(
        f"processor: the server used {server:.2f} cores ({per_request:.0f} ms a request), the phones {phones:.2f}, "
        f"the whole machine {machine:.2f} of {psutil.cpu_count()}"
    )
    if ramp:
        # the goal run is the ramp's first stage: its rate may be the highest under the limit
        lines.extend(ramp_verdict([goal, *ramp], limit_ms))
    return lines


def ramp_header() -> str:
    return (
        "| stage | asked/s | accepted/s | refused | not sent | errors | req/s | p50 ms | p95 ms | p99 ms "
        "| p95 poll | p95 page | p95 action | cores: server, phones, machine |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    )


def ramp_line(stage: Stage) -> str:
    ms = [r.ms for r in stage.records]
    refused = sum(r.outcome == REFUSED for r in stage.of(ACTION))
    cells = [
        stage.title.split(", ", 1)[-1],
        f"{stage.asked:g}",
        f"{stage.accepted() / stage.seconds:.2f}",
        str(refused),
        str(stage.unsent),
        str(stage.errors()),
        f"{len(ms) / stage.seconds:.1f}",
        *(f"{percentile(ms, share):.0f}" for share in (0.5, 0.95, 0.99)),
        *(f"{stage.p95(stage.of(kind)):.0f}" for kind in (POLL, PAGE, ACTION)),
        ", ".join(f"{cores:.2f}" for cores in stage.cores),
    ]
    return "| " + " | ".join(cells) + " |"


def ramp_verdict(ramp: list[Stage], limit_ms: float) -> list[str]:
    under = [s for s in ramp if s.p95() <= limit_ms]
    over = next((s for s in ramp if s.p95() > limit_ms), None)
    best = max((s.accepted() / s.seconds for s in under), default=0.0)
    if over is None:
        return [f"ramp: p95 stayed under {limit_ms:.0f} ms up to {best:.2f} accepted actions/s (the last stage asked)"]
    return [
        f"ramp: p95 passed {limit_ms:.0f} ms at {over.asked:g} actions/s asked "
        f"({over.accepted() / over.seconds:.2f} accepted/s, p95 {over.p95():.0f} ms); "
        f"the highest rate under it: {best:.2f} accepted actions/s"
    ]


def server_problems(log: str) -> list[str]:
    """The tracebacks and gunicorn's errors in the server's standard error, the first few in full."""
    tracebacks = re.findall(r"^Traceback \(most recent call last\):\n(?:[ \t].*\n)*.*$", log, re.M)
    complaints = [line for line in log.splitlines() if re.search(r"\[(ERROR|CRITICAL)\]", line)]
    if not tracebacks and not complaints:
        return []
    lines = [f"server: {len(tracebacks)} traceback(s), {len(complaints)} error line(s) of gunicorn"]
    lines.extend(complaints[:5])
    for found in tracebacks[:3]:
        lines.extend(found.splitlines()[-30:])
    return lines
