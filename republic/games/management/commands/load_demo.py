"""Load the demo battle (once) and make sure a game master can sign in; prints the way in."""

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from republic.games.models import Game
from republic.games.scenario import create_game, parse_scenario
from republic.network import served_at
from republic.scenarios import DEMO_SCENARIO


class Command(BaseCommand):
    help = "Load the demo scenario if no demo game exists, and create the game master account if missing."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="0.0.0.0", help="where the app will be served, for the message")
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args, host: str, port: int, **options):
        address = served_at(host, port)
        game = Game.objects.filter(demo=True).first()
        if game is None:
            game = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
            self.stdout.write(f"Loaded the demo battle: {game.name}")
        users = get_user_model()
        password = ""
        if not users.objects.filter(username="gm").exists():
            password = secrets.token_urlsafe(9)
            users.objects.create_superuser("gm", password=password)
        if password:
            self.stdout.write(f"Game master sign-in at {address}/accounts/login/ as gm, password {password}")
        else:
            self.stdout.write(
                f"Game master sign-in at {address}/accounts/login/ as gm (password printed when the account "
                "was made; reset it with: python manage.py changepassword gm)"
            )
        self.stdout.write(f"The demo battle: {address}/games/{game.pk}/")
        self.stdout.write(f"Players join it with {address}/join/{game.join_code}/ (its QR code is on the game page)")
