from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "republic.games"
    label = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # a sign-out ends every copy of the session, a test client's or a management command's too
        from republic.games.views import sign_in  # noqa: F401
