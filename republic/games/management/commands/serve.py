"""Serve the app as a club runs it: gunicorn, static files from the app itself, debug off."""

import hashlib
import os
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connections
from gunicorn.app.base import BaseApplication

from republic.network import lan_addresses, served_at


def collect_static() -> bool:
    """collectstatic, unless the static root already holds these very files; whether it ran. Compressing every file
    takes the laptop seconds, and a server restarted after a power cut should serve the tables again at once."""
    root = Path(settings.STATIC_ROOT)
    stamp = root / ".sources"
    sources = _sources()
    if stamp.is_file() and stamp.read_text() == sources:
        return False
    stamp.unlink(missing_ok=True)  # a collection cut off halfway is made again at the next start
    call_command("collectstatic", "--noinput", verbosity=0)
    stamp.write_text(sources)
    return True


def _sources() -> str:
    """A digest of every file collectstatic would collect, by name and content, and of how it stores them."""
    digest = hashlib.sha256(settings.STORAGES["staticfiles"]["BACKEND"].encode())
    ignored = apps.get_app_config("staticfiles").ignore_patterns  # type: ignore[attr-defined]
    found = [pair for finder in finders.get_finders() for pair in finder.list(ignored)]
    found.sort(key=lambda pair: pair[0])
    for path, storage in found:
        digest.update(f"\0{path}\0".encode())
        with storage.open(path) as file:
            digest.update(file.read())
    return digest.hexdigest()


class Server(BaseApplication):
    """gunicorn in this process, configured here rather than from a file or the command line."""

    def __init__(self, options: dict[str, object]):
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for name, value in self.options.items():
            self.cfg.set(name, value)

    def load(self):
        from django.core.wsgi import get_wsgi_application

        return get_wsgi_application()


class Command(BaseCommand):
    help = "Serve the app with gunicorn on every interface (or --host), static files included, debug off."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="0.0.0.0", help="the interface to listen on (0.0.0.0: all of them)")
        parser.add_argument("--port", type=int, default=8000)
        # four processes of two threads on the club's 2-core laptop: a request waiting on the database or on a slow
        # phone does not hold up the others, and few threads share each process's interpreter lock (measured with
        # make load: two processes of eight threads had twice the slowest answers)
        parser.add_argument("--workers", type=int, default=int(os.environ.get("REPUBLIC_WORKERS", "4")))
        parser.add_argument("--threads", type=int, default=int(os.environ.get("REPUBLIC_THREADS", "2")))
        parser.add_argument("--access-log", action="store_true", help="print a line for every request")

    def handle(self, *args, host: str, port: int, workers: int, threads: int, access_log: bool, **options):
        if settings.DEBUG:
            raise CommandError("REPUBLIC_DEBUG is on: serve runs with debug off (make dev is the development server)")
        collect_static()
        certificate, key = os.environ.get("REPUBLIC_TLS_CERT"), os.environ.get("REPUBLIC_TLS_KEY")
        address = served_at(host, port)
        if certificate and key:
            address = address.replace("http://", "https://", 1)
        self.stdout.write(f"Republic Companion is served at {address}/ (stop with Ctrl-C)")
        if host in ("", "0.0.0.0", "::") and len(lan_addresses()) > 1:
            others = ", ".join(lan_addresses()[1:])
            self.stdout.write(f"Phones on another of this machine's networks use its address there: {others}")
        # the workers open their own connections: none may be shared across the fork
        connections.close_all()
        options_ = {
            "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
            "workers": workers,
            "worker_class": "gthread",
            "threads": threads,
            "timeout": 30,
            "graceful_timeout": 10,
            "keepalive": 5,
            "accesslog": "-" if access_log else None,
            # each request's time on the server, in milliseconds, last: what a slow phone's wait was spent on
            "access_log_format": '%(h)s "%(r)s" %(s)s %(B)s %(M)sms',
            "errorlog": "-",
            "loglevel": "warning",
            "proc_name": "republic",
        }
        if certificate and key:
            options_.update(certfile=certificate, keyfile=key)
        Server(options_).run()
