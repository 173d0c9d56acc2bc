"""Settings come from the environment; the defaults serve a club's day on an SQLite file, with debug off."""

import hashlib
import os
import secrets
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF

from republic.network import lan_addresses

BASE_DIR = Path(__file__).resolve().parent.parent


def _flag(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in ("1", "true", "yes", "on")


def _list(name: str, default: list[str]) -> list[str]:
    given = os.environ.get(name)
    return default if given is None else [item.strip() for item in given.split(",") if item.strip()]


# what the server keeps between runs that is not the database: the secret key (and SQLite's file, by default)
VAR_DIR = Path(os.environ.get("REPUBLIC_VAR_DIR", BASE_DIR / "var"))


def _secret_key() -> str:
    """The key given in the environment, else one generated on the first start and kept in a local file: the
    sessions that seat the phones stay valid across restarts of the server."""
    given = os.environ.get("REPUBLIC_SECRET_KEY")
    if given:
        return given
    path = VAR_DIR / "secret_key"
    if not path.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        try:
            # O_EXCL: of two processes starting at once, one writes the key and the other reads it
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(descriptor, "w") as file:
                file.write(secrets.token_urlsafe(50))
    key = path.read_text().strip()
    while not key:  # the other process is still writing it
        key = path.read_text().strip()
    return key


DEBUG = _flag("REPUBLIC_DEBUG", False)
SECRET_KEY = _secret_key()
# a phone on the club's Wi-Fi opens the server by this machine's address on that network
ALLOWED_HOSTS = _list("REPUBLIC_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", *lan_addresses()])

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
    "csp",
    "axes",
    "republic.games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "republic.content_policy.OnePolicy",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, with a session that began before its user's last sign-out signed out
    "republic.games.views.sign_in.SignedInAtThisVersion",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "republic.games.views.readings.ReadOncePerRequest",
    "republic.games.views.outage.Unavailable",
    "axes.middleware.AxesMiddleware",
]

# an upload past every file's limit (republic/games/uploads.py) is counted, not kept, whatever its size
FILE_UPLOAD_HANDLERS = [
    "republic.games.uploads.CappedUpload",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
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
        # a connection kept across requests is checked before use: after PostgreSQL restarts, the next tap works
        conn_health_checks=True,
    )
}

# The news a poll brings, drawn once for every phone that asks the same (views/shared_news.py): one store on this
# machine's disk for all the server's processes, a folder for each database, its answers forgotten after a minute.
_DATABASE = DATABASES["default"]
_NEWS_FOLDER = hashlib.sha256(f"{_DATABASE.get('HOST')}:{_DATABASE.get('PORT')}:{_DATABASE['NAME']}".encode())
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "news": {
        "BACKEND": "republic.news_store.KeptOpen",
        "LOCATION": str(VAR_DIR / "news" / _NEWS_FOLDER.hexdigest()[:16]),
        "TIMEOUT": 60,
        "OPTIONS": {"size_limit": 2**28},
    },
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # a database host that does not answer at all is given up on in seconds, and the player told so, instead of
    # holding the request until the server's own timeout
    DATABASES["default"]["OPTIONS"] = {"connect_timeout": 5}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Two phones submitting at once: every write transaction takes SQLite's write lock when it begins, so the
    # second waits for the first (up to the timeout) and then reads the game as the first left it, instead of
    # failing with "database is locked" when it tries to write. WAL lets pages be read meanwhile.
    # the database file and the files SQLite keeps beside it are readable by the server's own user alone
    DATABASES["default"]["ENGINE"] = "republic.sqlite"
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": int(os.environ.get("REPUBLIC_SQLITE_TIMEOUT", "20")),
        "init_command": "PRAGMA journal_mode=WAL;",
    }
    # The tests' database is a file too, as the server's is, not SQLite's shared in-memory database: while a browser
    # test's live server writes, the test's own reads (and the flush that ends it) wait on the timeout above, where
    # the shared memory refuses them at once with "table is locked".
    DATABASES["default"]["TEST"] = {"NAME": str(Path(tempfile.gettempdir()) / f"republic-test-{os.getpid()}.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
# the club's clock: the day's end the game master types and the pace's projection read in it (e.g. Europe/London)
TIME_ZONE = os.environ.get("REPUBLIC_TIME_ZONE", "UTC")
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("REPUBLIC_STATIC_ROOT", BASE_DIR / "staticfiles"))
# Served by the app itself (whitenoise), gzip and brotli, under names that carry a hash of the content, so a phone
# keeps them for a year and asks again only when they change: on a club's Wi-Fi a page costs its HTML alone.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

REPUBLIC_CHART = os.environ.get("REPUBLIC_CHART", "republic-1.0-provisional")

# the game master signs in (players join a game by its code, without an account)
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
# a device's seats and what it follows are kept in its own signed cookie: reading them costs no query (a phone
# asks every few seconds whether its game moved on; its cookie is checked once a minute, republic/cookie_session.py),
# and there is nothing to clean up after the club day; the game master's sign-in in it ends at sign-out on every
# copy of the cookie (republic/games/views/sign_in.py)
SESSION_ENGINE = "republic.cookie_session"

# The game master's sign-in: after five wrong passwords for a name from one address, that name is locked out from
# that address for a quarter of an hour (the players have no password: they join with a game's link).
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "republic.games.views.sign_in.SignInBackend"]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
# Behind the proxy that ends TLS every phone comes from the proxy's address: the phone's own is read from the
# proxy's X-Forwarded-For, and only for requests from the addresses named here (none by default: the header is
# ignored, as any phone could send one)
TRUSTED_PROXIES = _list("REPUBLIC_TRUSTED_PROXY", [])
AXES_CLIENT_IP_CALLABLE = "republic.network.client_address"

# Nothing runs or styles a page but the app's own files: no inline script, no inline style, no other origin.
# Bootstrap draws its small icons (a select's arrow, a close button) as data: images.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# Served over HTTPS (REPUBLIC_HTTPS=1, by granian with a certificate or behind a proxy that terminates TLS):
# cookies travel over HTTPS alone and browsers are told to come back over HTTPS only. On a plain-HTTP club network
# these stay off, or no phone could keep its seat.
HTTPS = _flag("REPUBLIC_HTTPS", False)
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("REPUBLIC_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = _list("REPUBLIC_TRUSTED_ORIGINS", [])
CSRF_FAILURE_VIEW = "republic.games.views.access.csrf_refused"

# A server error's traceback goes to the server's standard error (granian's log), debug on or off: by default
# Django mails it to admins a club does not have, and a server error would leave no trace.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        "republic": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
    },
}
