"""Resolve all assaults (1.7, 5.1-5.5): declare each assault, resolve it round by round, end it when contact
ends. An assault once declared is work left until it ends."""

from functools import partial
from typing import Any

from republic.games.events.assault import AssaultDeclared
from republic.games.events.payload import payload_of
from republic.games.models import Event
from republic.games.pieces import Piece
from republic.games.steps.assaults.declare import END_ELSEWHERE, declare_form, end_assault, take_declare
from republic.games.steps.assaults.follow_up import (
    follow_up_form,
    local_breakthrough_form,
    take_follow_up,
    take_local_breakthrough,
)
from republic.games.steps.assaults.passage import losers, passage_form, take_passage
from republic.games.steps.assaults.rounds import (
    ROUND_ELSEWHERE,
    column_for,
    prefix,
    read_conditions,
    round_form,
    take_round,
)
from republic.games.steps.assaults.state import ELSEWHERE, Assault, AssaultState, state
from republic.games.steps.assaults.supporting import supporting_form, take_supporting_hit
from republic.games.steps.base import Act, Bound, Row, Step, Who, address, versioned
from republic.games.text.assault import FOLLOW_UP, next_hint, passage_rule, round_orders
from republic.games.text.describe import describe, words
from republic.games.text.terms import side_facts


def pending(s: AssaultState) -> list[str]:
    return [
        f"close assault {a.number} ({a.title}): its contact has ended"
        if a.contact_ended
        else f"finish assault {a.number} ({a.title}): resolve round {len(a.rounds) + 1} or end it"
        for a in s.open()
    ]


def _card(s: AssaultState, assault: Assault, bound: Bound) -> dict[str, Any]:
    game, key = s.game, prefix(assault)
    form = bound.get(key) or round_form(s, assault)
    conditions = read_conditions(assault, form.data if form.is_bound else None, key)
    last = assault.last
    return {
        "assault": assault,
        "form": form,
        "prefix": key,
        "number": len(assault.rounds) + 1,
        "waits": s.waits(assault),
        "ended": assault.contact_ended,
        "overrun_waits": s.overrun_waits(assault),
        "column": column_for(assault, conditions),
        "sides": [("Attacking", assault.attackers), ("Defending", assault.defenders)],
        "cover_rows": [("Attacker", form.cover_rows("attacker")), ("Defender", form.cover_rows("defender"))],
        "attacker_facts": side_facts([m.unit for m in assault.playing("attacker")], assault.bonus),
        "defender_facts": side_facts([m.unit for m in assault.playing("defender")]),
        "last": last,
        "last_summary": words(last) if last else "",
        "follow_up": FOLLOW_UP.get(last.result.outcome.action, "") if last else "",
        "orders": round_orders(last) if last else [],
        "hint": next_hint(last) if last else "",
        "action": address(game, "assault-round", Piece("assault", assault.seq)),
        # the column preview records nothing: it is its own address, not an action
        "end_url": address(game, "end-assault", Piece("assault", assault.seq)),
        "follow": bound.get(Piece("assault", assault.seq).prefix("follow")) or follow_up_form(s, assault),
        "follow_url": address(game, "follow-up", Piece("assault", assault.seq)),
    }


def _title(s: AssaultState, a: Assault) -> str:
    if a.contact_ended:
        return f"Assault {a.number} · contact ended: close it"
    return f"Assault {a.number} · round {len(a.rounds) + 1}" + (" · waits for the first rounds" if s.waits(a) else "")


def rows(s: AssaultState) -> list[Row]:
    """Each open assault, its round form opened on tap."""
    return [
        Row(Piece("assault", a.seq).name, _title(s, a), a.title, "Close" if a.contact_ended else "Fight", due=True)
        for a in s.open()
    ]


def opened(s: AssaultState, row: Row, bound: Bound) -> dict[str, Any]:
    assault = next(a for a in s.assaults if row.subject == Piece("assault", a.seq).name)
    return _card(s, assault, bound)


def _passages(s: AssaultState, bound: Bound) -> list[dict[str, Any]]:
    """A passage-of-lines form for each side with units driven back this turn, with those units."""
    found = losers(s)
    sent = bound.get("passage")
    return [
        {
            "side": side,
            "title": f"{s.game.attacker if side == 'attacker' else s.game.defender} losers pass through friends",
            "form": sent if sent is not None and sent.whose == side else passage_form(s, side),
            "losers": found[side],
        }
        for side in ("attacker", "defender")
        if found[side]
    ]


def panel(s: AssaultState, bound: Bound) -> dict[str, Any]:
    return {
        "open_assaults": len(s.open()),
        "rows_placed": True,  # the open assaults come before the declaration of another
        "nothing": "",
        "ended_assaults": [describe(a.ended_event) for a in s.assaults if a.ended_event is not None],
        # the declaration's, the supporting hit's and the breakthrough's offers list the side's units: each drawn
        # only once its part is open (a refused form is drawn open with its errors)
        "declare": bound.get("declare") or partial(declare_form, s),
        "declare_url": address(s.game, "declare-assault", s.game.piece),
        "supporting": bound.get("supporting") or partial(supporting_form, s),
        "supporting_errors": "supporting" in bound,
        "supporting_url": address(s.game, "supporting-hit", s.game.piece),
        "passages": _passages(s, bound),
        "passage_errors": "passage" in bound,
        "breakthrough": bound.get("breakthrough") or partial(local_breakthrough_form, s),
        "breakthrough_offered": "breakthrough" in bound or not any(a.rounds for a in s.assaults),
        "breakthrough_errors": "breakthrough" in bound,
        "breakthrough_url": address(s.game, "local-breakthrough", s.game.piece),
        "passage_url": address(s.game, "passage-of-lines", s.game.piece),
        "declare_open": bool(bound.get("declare")) or not s.open(),
        "passage_rule": passage_rule(s.game.chart, s.game.scale),
    }


def opens(event: Event) -> str:
    """A declaration's answer opens the new assault's card: its first round is the next thing to do."""
    return Piece("assault", event.seq).name if isinstance(payload_of(event), AssaultDeclared) else ""


STEP = Step(
    "games/steps/assault.html",
    state,
    pending,
    panel,
    rows=rows,
    form="games/rows/assault.html",
    opened=opened,
    parts=("declare-assault", "local-breakthrough", "supporting-hit", "passage-of-lines"),
    folds=("rare", "attacker-leaders", "defender-leaders"),
    opens=opens,
    actions=(
        Act("declare-assault", "game", Who.PHASING, take_declare, ELSEWHERE),
        Act("assault-round", "assault", Who.SEATED, take_round, ROUND_ELSEWHERE),
        versioned("end-assault", "assault", Who.SEATED, end_assault, END_ELSEWHERE),
        # a defending unit that supported the defence with a minority of its bases takes its hit (5.5)
        Act("supporting-hit", "game", Who.DEFENDING, take_supporting_hit, ELSEWHERE),
        # what each attacker did after a round, or before any when every defender had gone (5.5)
        Act("follow-up", "assault", Who.PHASING, take_follow_up, ELSEWHERE),
        # an attacker left out of contact by fire goes on to fresh targets before the rounds (5.2)
        Act("local-breakthrough", "game", Who.PHASING, take_local_breakthrough, ELSEWHERE),
        # losers that lost both rolls pass through a friendly unit, which takes their hits (5.5): the players of
        # the friendly unit's side enter it (the action refuses the other side's)
        Act("passage-of-lines", "game", Who.SEATED, take_passage, ELSEWHERE),
    ),
)
