"""The database is configuration: DATABASE_URL picks it, SQLite by default."""

import os

import pytest
from django.contrib.auth.models import User
from django.db import connection


@pytest.mark.django_db
def test_the_suite_runs_on_the_database_that_database_url_names():
    url = os.environ.get("DATABASE_URL", "")
    assert connection.vendor == ("postgresql" if url.startswith("postgres") else "sqlite")
    User.objects.create_user("game-master")
    assert User.objects.filter(username="game-master").exists()
