"""Pages drawn by the tests and the benchmark scripts, in their own process, link to the static files by their own
names, as in development: they are not collected first. The server a club runs (manage.py serve) collects them
and links to their hashed copies; tests/test_serving.py checks those."""


def uncollected() -> None:
    """Call before the first page is drawn: the storage is chosen when it is first used."""
    from django.conf import settings

    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
