"""An action enters its step once on the way in: the view makes one call into the step (``Act.take``), which binds
its form with the step's own factory, checks it and records the event; nothing calls back into the step before the
ledger records it."""

import sys
from pathlib import Path
from types import FrameType
from typing import Any

import republic
from republic.games.models import Event
from republic.games.steps import ACTIONS
from tests.games.conftest import brigade, set_state
from tests.games.test_rally import at_rally, rally_post

ROOT = Path(republic.__file__).resolve().parent
# a step's state is its own function behind ``read_once``, and a query its own module's function behind ``prepared``
# (which runs it itself the first time a process asks it): neither is an entry from outside
PASSING = {ROOT / "games" / "readings.py", ROOT / "prepared.py"}


def _file(frame: FrameType) -> str | None:
    """The file of republic/ a frame runs in ('games/steps/rally.py'); None for Python's and Django's."""
    path = Path(frame.f_code.co_filename)
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else None


def _caller(frame: FrameType) -> str | None:
    """The file of republic/ that called into this frame, through Django's or Python's own frames between."""
    below = frame.f_back
    while below is not None and (_file(below) is None or Path(below.f_code.co_filename) in PASSING):
        below = below.f_back
    return _file(below) if below is not None else None


def _whole_walk(run: Any) -> list[tuple[str | None, str, str]]:
    """Each passage of control from one file of republic/ into another while the view answers, from its start."""
    passages: list[tuple[str | None, str, str]] = []
    walking = False

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal walking
        callee = _file(frame)
        if event != "call" or callee is None:
            return
        name = frame.f_code.co_name
        if not walking and callee == "games/views/act.py" and name == "act":
            walking = True
            return  # the view itself, entered by Django
        if walking and Path(frame.f_code.co_filename) not in PASSING and _caller(frame) != callee:
            passages.append((_caller(frame), callee, name))

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return passages


def test_a_rally_die_enters_its_step_once_on_the_way_in(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=2)
    game = at_rally(demo)
    walked = _whole_walk(lambda: rally_post(client, game, davis, die="9", htmx=True))
    assert Event.objects.filter(game=game, kind="RallyResolved").count() == 1
    # from the view's start until the ledger records the event
    passages = walked[: walked.index(("games/steps/rally.py", "games/ledger.py", "record")) + 1]
    into_step = [(caller, name) for caller, callee, name in passages if callee == "games/steps/rally.py"]
    assert into_step == [("games/views/act.py", "take_rally")]
    from_view = [(callee, name) for caller, callee, name in passages if caller == "games/views/act.py"]
    assert [passage for passage in from_view if passage[0].startswith("games/steps/")] == [
        ("games/steps/__init__.py", "acting_step"),  # which step the game is at, asked of the register of steps
        ("games/steps/rally.py", "take_rally"),
    ]


def test_a_rally_die_walks_in_to_the_ledger_and_back_to_the_phone_without_turning_back(client, demo):
    """The walk the README names: on the way in, no module calls back into the view, the lookups are not the
    answer's, and the step is entered once; on the way back (from ``answers.done``), the step is asked only by the
    page that draws it, nothing calls back into the answer, and the words never reach up to the ledger or a step."""
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=2)
    game = at_rally(demo)
    passages = _whole_walk(lambda: rally_post(client, game, davis, die="9", htmx=True))
    back = passages.index(("games/views/act.py", "games/views/answers.py", "done"))
    way_in, way_back = passages[:back], passages[back:]
    assert ("games/steps/rally.py", "games/ledger.py", "record") in way_in
    assert not [p for p in passages if p[1] == "games/views/act.py"]  # nothing calls back into the view
    assert not [p for p in way_in if p[1] == "games/views/answers.py"]
    assert [(caller, name) for caller, callee, name in way_in if callee == "games/steps/rally.py"] == [
        ("games/views/act.py", "take_rally")
    ]
    into_step = {caller for caller, callee, _ in way_back if callee == "games/steps/rally.py"}
    assert into_step == {"games/views/page.py"}
    assert {caller for caller, callee, _ in way_back if callee == "games/views/answers.py"} == {"games/views/act.py"}
    climbs = [p for p in passages if (p[0] or "").startswith("games/text/") and p[1].startswith(CLIMBS)]
    assert not climbs


CLIMBS = ("games/ledger.py", "games/steps/", "games/views/")


def test_every_action_is_taken_by_one_named_function_of_its_own_step():
    for name, (step, declared) in ACTIONS.items():
        take = declared.take
        if take.__qualname__ == "versioned.<locals>.take":
            # nothing to fill in but the version: base binds it, and calls the step's run once
            assert take.__module__ == "republic.games.steps.base", name
            continue
        module = sys.modules[take.__module__]
        assert take.__name__ != "<lambda>" and getattr(module, take.__name__) is take, name
        # the step's own modules: the one that declares it and the one that reads its state (the two panic steps
        # share division_panic's), or a module of their package
        homes = {step.state.__module__.rsplit(".state", 1)[0]} | {
            found
            for found, module in sys.modules.items()
            if found.startswith("republic.games.steps") and getattr(module, "STEP", None) is step
        }
        packages = {home for home in homes if hasattr(sys.modules[home], "__path__")}
        assert take.__module__ in homes or any(take.__module__.startswith(p + ".") for p in packages), name
