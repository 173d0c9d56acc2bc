"""Defenders' messages (1.7, 2.1): at the start of each player turn, in the messages step, each defending player
may send one written message to each friendly player. The recipient reads it on his phone, the game master
reads them all, and the other side never does: a dispatch is drawn on the game page for its sender, its recipient
and the game master alone, and it is no event of the battle, so no page or fragment of the battle holds it; the
turn log holds it in its own side's copy and the game master's alone (``for_log``)."""

from typing import Any, cast

from django import forms
from django.db.models import Max, Q, QuerySet

from republic.games.models import Dispatch, Game, Seat
from republic.prepared import prepared
from republic.rules.sequence import StepKey

ELSEWHERE = "Messages are sent at the start of a player turn, in the step where the defenders exchange them."


class DispatchForm(forms.Form):
    prefix = "dispatch"
    recipient = forms.ChoiceField(label="To")
    text = forms.CharField(label="Message", max_length=1000, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args: Any, recipients: list[Seat], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["recipient"]).choices = [(str(s.pk), str(s)) for s in recipients]


def this_turn(game: Game) -> dict[str, int]:
    return {"game_turn": game.game_turn, "player_turn": game.player_turn}


def recipients(game: Game, seat: Seat) -> list[Seat]:
    """The friendly players this seat may still write to this player turn, when it may write at all."""
    defender = game.defender if game.in_progress else None
    if game.step_key is not StepKey.MESSAGES or defender is None or defender.pk != seat.side_id:
        return []
    written = Dispatch.objects.filter(sender=seat, **this_turn(game)).values_list("recipient_id", flat=True)
    friends = Seat.objects.filter(game=game, side=seat.side_id, revoked=False).exclude(pk=seat.pk)
    return list(friends.exclude(pk__in=written).select_related("side", "command"))


def _letters(game: int, game_turn: int, player_turn: int) -> QuerySet[Dispatch]:
    return Dispatch.objects.filter(game=game, game_turn=game_turn, player_turn=player_turn).select_related(
        "sender__side", "recipient__side"
    )


# drawn for every page and poll with news: their SQL is made once per process
_all_letters = prepared(_letters)
_letters_of = prepared(
    lambda game, game_turn, player_turn, seat: _letters(game, game_turn, player_turn).filter(
        Q(recipient=seat) | Q(sender=seat)
    )
)


def dispatch_context(master: bool, seat: Seat | None, game: Game) -> dict[str, Any]:
    """What the game page shows of this player turn's dispatches: a player's own (received and sent), the game
    master's all, and the form while this seat may still write."""
    if not master and seat is None:
        return {}
    # this player turn's: they are written at its start for its play, and the page stays short on a club day
    turn = (game.pk, game.game_turn, game.player_turn)
    if seat is None:
        shown = _all_letters(*turn)
        return {"dispatches": shown, "dispatch_form": None, "last_letter": max((d.pk for d in shown), default=0)}
    to = recipients(game, seat)
    shown = _letters_of(*turn, seat.pk)
    form = DispatchForm(recipients=to) if to else None
    return {"dispatches": shown, "dispatch_form": form, "last_letter": max((d.pk for d in shown), default=0)}


def readable(seat: int | None) -> Q:
    """The game's dispatches a device reads, as a condition on the game's ``dispatches``: a player (by his seat's
    key) his own, the game master (no seat) all."""
    return Q(dispatches__recipient_id=seat) | Q(dispatches__sender_id=seat) if seat is not None else Q()


def last_letter(seat: Seat | None, game: Game) -> int:
    """The newest dispatch this device reads (0: none), which its poll asks from."""
    found = Game.objects.filter(pk=game.pk).aggregate(
        last=Max("dispatches__pk", filter=readable(seat.pk if seat else None))
    )["last"]
    return int(found or 0)


def for_log(game: Game, master: bool, side_id: int | None) -> QuerySet[Dispatch]:
    """The dispatches a copy of the turn log holds: a seated player's copy his own side's (written by its players),
    the game master's all. The other side's copy never holds one: the log is the battle's, read by both sides,
    and a message is its side's alone."""
    found = Dispatch.objects.filter(game=game).select_related("sender__side", "recipient")
    if master:
        return found
    return found.filter(sender__side_id=side_id) if side_id is not None else found.none()
