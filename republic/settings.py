"""Settings come from the environment; the defaults run the app locally on an SQLite file."""

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def _flag(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in ("1", "true", "yes", "on")


DEBUG = _flag("REPUBLIC_DEBUG", True)
SECRET_KEY = os.environ.get("REPUBLIC_SECRET_KEY", "local-development-only-not-secret" if DEBUG else "")
ALLOWED_HOSTS = [h for h in os.environ.get("REPUBLIC_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "template_partials",
    "republic.games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "republic.games.views.readings.ReadOncePerRequest",
]

ROOT_URLCONF = "republic.urls"
WSGI_APPLICATION = "republic.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("REPUBLIC_CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Two phones submitting at once: every write transaction takes SQLite's write lock when it begins, so the
    # second waits for the first (up to the timeout) and then reads the game as the first left it, instead of
    # failing with "database is locked" when it tries to write. WAL lets pages be read meanwhile.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

REPUBLIC_CHART = os.environ.get("REPUBLIC_CHART", "republic-1.0-provisional")

# the game master signs in (players join a game by its code, without an account)
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
# a device's seats and what it follows are kept in its own signed cookie: reading them costs no query (a phone
# asks every few seconds whether its game moved on), and there is nothing to clean up after the club day
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
