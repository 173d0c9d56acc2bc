"""The figures of the load benchmark (tests/load.py): each stage's requests by kind with their percentiles, the
goal run's table and verdicts (the delays of the news to the other phones, the server's memory), the ramp's
lines, and what the server wrote to its standard error."""

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import psutil

from tests.load_devices import ACTION, ERROR, OK, PAGE, POLL, REFUSED, ROW, TALLY, Record, Table
from tests.load_floor import server_ms_per_request
from tests.load_screens import DASHBOARD, ROOM

GOAL_SERVER_MS = 6.0  # the server's processor per request: half of what it took before the convention's work
GOAL_NEWS_SECONDS = 4.0  # an action's answer to another phone of its battle showing it, at the 95th percentile
GOAL_MEMORY_MB = 300.0  # each server process's resident memory after the goal run

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
    (ROOM, ""),
    (DASHBOARD, ""),
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
    cores: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # by the server, phones, machine, PostgreSQL
    began: float = 0.0  # time.monotonic() at its start
    memory: list[tuple[str, int, float]] = field(default_factory=list)  # each server process: role, pid, MB

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


def goal_table(
    goal: Stage, database: str, goal_ms: float, limit_ms: float, ramp: list[Stage], served: int
) -> list[str]:
    """``served``: the requests the server's access log counted in the goal run."""
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
        if found or not (sub or kind in (ROOM, DASHBOARD)):  # the screens only when some were open
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
    server, phones, machine, database = goal.cores
    per_request = server_ms_per_request(server, goal.seconds, served or len(goal.records))
    lines.append(
        f"processor: the server used {server:.2f} cores, {per_request:.1f} ms a request of the {served} it served "
        f"(goal at most {GOAL_SERVER_MS:g} ms: {_met(per_request <= GOAL_SERVER_MS)}), the phones {phones:.2f}, "
        f"the whole machine {machine:.2f} of {psutil.cpu_count()}"
    )
    if database:
        in_database = server_ms_per_request(database, goal.seconds, served or len(goal.records))
        lines.append(f"processor of PostgreSQL beside it: {database:.2f} cores, {in_database:.1f} ms a request")
    if ramp:
        # the goal run is the ramp's first stage: its rate may be the highest under the limit
        lines.extend(ramp_verdict([goal, *ramp], limit_ms))
    return lines


def news_lines(goal: Stage, tables: list[Table]) -> list[str]:
    """Per battle, the delays from an action's answer to each other phone of the battle holding it."""
    lines = ["| battle | units | phones | versions answered | delays | p50 s | p95 s | max s | not held at the end |"]
    lines.append("|---|---|---|---|---|---|---|---|---|")
    worst = 0.0
    for number, table in enumerate(tables, 1):
        delays, missing = table.news.delays(goal.began, goal.began + goal.seconds)
        answered = sum(goal.began <= m < goal.began + goal.seconds for m, _ in table.news.answered.values())
        p50, p95 = percentile(delays, 0.5), percentile(delays, 0.95)
        worst = max(worst, p95)
        cells = [str(number), str(table.units), str(table.phones), str(answered), str(len(delays))]
        cells += [f"{p50:.2f}", f"{p95:.2f}", f"{max(delays, default=0):.2f}", str(missing)]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append(
        f"news: an action's answer to another phone of its battle showing it, p95 under {GOAL_NEWS_SECONDS:g} s in "
        f"every battle {_met(worst < GOAL_NEWS_SECONDS)} (the slowest battle's {worst:.2f} s)"
    )
    return lines


def memory_lines(memory: list[tuple[str, int, float]]) -> list[str]:
    """Each server process's resident memory after the goal run, beside the goal."""
    most = max((mb for _, _, mb in memory), default=0.0)
    each = ", ".join(f"{role} {pid} {mb:.0f} MB" for role, pid, mb in memory)
    return [
        f"memory after the goal run: {each or 'not read'}; under {GOAL_MEMORY_MB:.0f} MB each "
        f"{_met(bool(memory) and most < GOAL_MEMORY_MB)} (the most {most:.0f} MB)"
    ]


def ramp_header() -> str:
    return (
        "| stage | asked/s | accepted/s | refused | not sent | errors | req/s | p50 ms | p95 ms | p99 ms "
        "| p95 poll | p95 page | p95 action | cores: server, phones, machine, PostgreSQL |\n"
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
    """The tracebacks and granian's errors in the server's standard error, the first few in full."""
    tracebacks = re.findall(r"^Traceback \(most recent call last\):\n(?:[ \t].*\n)*.*$", log, re.M)
    complaints = [line for line in log.splitlines() if re.search(r"\[(ERROR|CRITICAL)\]", line)]
    if not tracebacks and not complaints:
        return []
    lines = [f"server: {len(tracebacks)} traceback(s), {len(complaints)} error line(s) of granian"]
    lines.extend(complaints[:5])
    for found in tracebacks[:3]:
        lines.extend(found.splitlines()[-30:])
    return lines
