from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "republic.games"
    label = "games"
    verbose_name = "Games"
