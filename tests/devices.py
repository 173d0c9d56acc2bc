"""The devices the tests play from: the game master's, and a player's phone seated with a game's join link."""

from django.contrib.auth import get_user_model
from django.test import Client

from republic.games.models import Game, Seat


def master_device() -> Client:
    """A device signed in as a game master, who may do anything in any game."""
    users = get_user_model()
    master = users.objects.filter(username="master").first() or users.objects.create_user("master", is_staff=True)
    device = Client()
    device.force_login(master)
    return device


def seated_device(game: Game, side_name: str, name: str = "", revoked: bool = False) -> Client:
    """A player's phone with a seat on this side, taken with the join link (and taken away when ``revoked``)."""
    device = Client()
    side = game.sides.get(name=side_name)
    device.post(f"/join/{game.join_code}/", {"name": name or f"A {side_name} player", "seat": f"side-{side.pk}"})
    seat = Seat.objects.filter(game=game).latest("pk")
    assert seat.side == side
    if revoked:
        seat.revoked = True
        seat.save()
    return device
