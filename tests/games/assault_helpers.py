"""The assault step's forms as the table posts them: declaring an assault, a round with its dice and cover,
ending an assault; and reading back the latest round."""

from republic.games.events.assault import AssaultDeclared, AssaultRoundResolved
from republic.games.models import Event, Game, Unit
from republic.games.pieces import Piece
from republic.rules.assault_table import AssaultOutcome
from tests.games.conftest import HTMX, brigade, payload, slot


def units(game: Game, *names: str) -> list[Unit]:
    return [brigade(game, name) for name in names]


def declare_data(game, attackers, defenders, primary=None, version=None, bridging=None) -> dict:
    """The declaration as a phone sends it: each unit chosen by its key, those ticked general contact, and the
    primary defender when one is chosen."""
    game.refresh_from_db()
    data = {"declare-version": game.version if version is None else version}
    if bridging:
        data["declare-bridging"] = bridging
    data["declare-attackers"] = [unit.key for unit, _ in attackers]
    data["declare-defenders"] = [unit.key for unit, _ in defenders]
    data["declare-general"] = [unit.key for unit, contact in (*attackers, *defenders) if contact == "general"]
    if primary is not None:
        data["declare-primary"] = primary.key
    return data


def declare(client, game, attackers, defenders, primary=None, htmx=True, version=None, bridging=None):
    data = declare_data(game, attackers, defenders, primary, version, bridging)
    return client.post(f"/games/{game.pk}/act/declare-assault/game-{game.pk}/", data, **(HTMX if htmx else {}))


def declared(client, game, attackers, defenders, primary=None, bridging=None) -> int:
    response = declare(client, game, attackers, defenders, primary, bridging=bridging)
    assert response.status_code == 200
    game.refresh_from_db()
    return Event.objects.filter(game=game, kind="AssaultDeclared").last().seq


def round_data(game, seq, die="5", die2="5", roll="typed", version=None, cover=None, struck="front", **extra):
    game.refresh_from_db()
    prefix = f"round-assault-{seq}"
    declaration: AssaultDeclared = payload(Event.objects.get(game=game, seq=seq))
    data = {
        f"{prefix}-version": game.version if version is None else version,
        f"{prefix}-die": die,
        f"{prefix}-die2": die2,
        f"{prefix}-struck": struck,
        "roll": roll,
    }
    for member in (*declaration.attackers, *declaration.defenders):
        data[f"{prefix}-cover-{Piece.at(member.unit).name}"] = "none"
    for unit, value in (cover or {}).items():
        data[f"{prefix}-cover-{slot(unit)}"] = value
    for name, value in extra.items():
        data[f"{prefix}-{name}"] = value
    return data


def from_assault(seq: int) -> dict:
    """The headers of a round sent from its assault's row, as a phone sends it: htmx names the row it swaps."""
    return {**HTMX, "HTTP_HX_TARGET": f"row-assault-{seq}"}


PARTS = ("declare-assault", "local-breakthrough", "supporting-hit", "passage-of-lines")  # the step panel's folded parts


def assault_page(client, game) -> str:
    """The game page with the row of every assault declared open, as a tap on each draws it, and every folded part
    of the step's panel open."""
    seqs = Event.objects.filter(game=game, kind="AssaultDeclared").values_list("seq", flat=True)
    opened = "&".join([f"open=assault-{seq}" for seq in seqs] + [f"open={part}" for part in PARTS])
    return client.get(f"/games/{game.pk}/?{opened}").content.decode()


def post_round(client, game, seq, htmx=True, **kwargs):
    data = round_data(game, seq, **kwargs)
    response = client.post(
        f"/games/{game.pk}/act/assault-round/assault-{seq}/", data, **(from_assault(seq) if htmx else {})
    )
    game.refresh_from_db()
    return response


def last_round(game) -> Event:
    return Event.objects.filter(game=game, kind="AssaultRoundResolved").last()


def last_payload(game) -> AssaultRoundResolved:
    return payload(last_round(game))


def end(client, game, seq, htmx=True, version=None):
    game.refresh_from_db()
    return client.post(
        f"/games/{game.pk}/act/end-assault/assault-{seq}/",
        {"version": game.version if version is None else version},
        **(HTMX if htmx else {}),
    )


def outcome(o: AssaultOutcome) -> dict:
    return {"to": o.to.value, "hits": str(o.hits), "action": o.action.value}
