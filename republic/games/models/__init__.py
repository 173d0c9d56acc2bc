"""A game's records: the battle as it stands (``battle``) and as it was imported (``setup``), the record of play
(``events``), the seats of the players who fight it (``seats``), the room's big screen (``room``) and the version of
the game master's sign-in (``sign_in``)."""

from republic.games.models.battle import (
    ADVANCED_RULES,
    BATTERY_LABELS,
    IN_PLAY,
    Command,
    Game,
    Leader,
    LeaderQuerySet,
    Side,
    Unit,
    UnitChoice,
    UnitQuerySet,
    battery_type_label,
    new_join_code,
    stored_label,
)
from republic.games.models.charts import ChartIdentity, ClubChart
from republic.games.models.events import Event
from republic.games.models.objectives import Objective
from republic.games.models.room import RoomLink
from republic.games.models.seats import Dispatch, Seat
from republic.games.models.setup import GameSetup, keep_setup, setup_of
from republic.games.models.sign_in import SignInVersion

__all__ = [
    "ADVANCED_RULES",
    "BATTERY_LABELS",
    "IN_PLAY",
    "ChartIdentity",
    "ClubChart",
    "Command",
    "Dispatch",
    "Event",
    "Game",
    "GameSetup",
    "Leader",
    "LeaderQuerySet",
    "Objective",
    "RoomLink",
    "Seat",
    "Side",
    "SignInVersion",
    "Unit",
    "UnitChoice",
    "UnitQuerySet",
    "battery_type_label",
    "keep_setup",
    "new_join_code",
    "setup_of",
    "stored_label",
]
