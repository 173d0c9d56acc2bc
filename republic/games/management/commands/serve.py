"""Serve the app as a club runs it: granian, static files from the app itself, debug off."""

import hashlib
import os
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connections
from granian.constants import Interfaces
from granian.log import LogLevels
from granian.server import Server

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


class Command(BaseCommand):
    help = "Serve the app with granian on every interface (or --host), static files included, debug off."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="0.0.0.0", help="the interface to listen on (0.0.0.0: all of them)")
        parser.add_argument("--port", type=int, default=8000)
        # two processes of four threads on the club's 2-core laptop: a process a core (granian reads and writes the
        # phones' connections in threads of its own, outside the interpreter lock), and a request waiting on the
        # database does not hold up the others (measured with the five-battle half load of tests/load.py: as fast as
        # four processes of two threads; with gunicorn, two of eight had twice the slowest answers)
        parser.add_argument("--workers", type=int, default=int(os.environ.get("REPUBLIC_WORKERS", "2")))
        parser.add_argument("--threads", type=int, default=int(os.environ.get("REPUBLIC_THREADS", "4")))
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
        Server(
            "republic.wsgi:application",
            address=host,
            port=port,
            interface=Interfaces.WSGI,
            workers=workers,
            blocking_threads=threads,
            websockets=False,
            log_level=LogLevels.warning,
            log_access=access_log,
            # each request's time on the server, in milliseconds, last: what a slow phone's wait was spent on
            log_access_format='%(addr)s "%(method)s %(path)s" %(status)d %(dt_ms).0fms',
            ssl_cert=Path(certificate) if certificate and key else None,
            ssl_key=Path(key) if certificate and key else None,
            # a worker that dies (killed, out of memory) is replaced, as the phones' next requests need it
            respawn_failed_workers=True,
            workers_kill_timeout=10,
        ).serve()
