"""A tree of the app (this one, or a worktree of an older commit) served as a club runs it: its own manage.py on a
temporary SQLite file of its own, migrated, the demo battle loaded, a game master account made, its server on a free
local port. Only the tree's manage.py is run, so an old commit is measured with its own code."""

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tests.served import free_port

GM_USER = "gm"
GM_PASSWORD = "taps-only-not-secret"


def python_of(tree: Path) -> str:
    """The tree's own interpreter when it has a virtual environment, else this one."""
    own = tree / ".venv" / "bin" / "python"
    return str(own) if own.exists() else sys.executable


@dataclass
class Served:
    tree: Path
    address: str
    game: int
    join_code: str
    process: subprocess.Popen[bytes]
    log: Path

    def stop(self) -> None:
        # serve runs granian's main process and workers in the session started for it: ended together
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


def serve(tree: Path, work: Path) -> Served:
    """Migrate a fresh database in ``work``, load the demo and serve the tree; waits until it answers."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{work / 'taps.sqlite3'}",
        "REPUBLIC_ALLOWED_HOSTS": "127.0.0.1",
        "REPUBLIC_STATIC_ROOT": str(work / "static"),
        "REPUBLIC_VAR_DIR": str(work / "var"),
        "REPUBLIC_DEBUG": "0",
        "REPUBLIC_SECRET_KEY": "taps-only-not-secret",
        "DJANGO_SUPERUSER_PASSWORD": GM_PASSWORD,
    }
    python = python_of(tree)

    def manage(*args: str) -> str:
        done = subprocess.run(
            [python, "manage.py", *args], env=env, cwd=tree, check=True, capture_output=True, text=True
        )
        return done.stdout

    manage("migrate", "--noinput")
    manage("createsuperuser", "--noinput", "--username", GM_USER, "--email", "gm@example.org")
    port = free_port()
    loaded = manage("load_demo", "--host", "127.0.0.1", "--port", str(port))
    game = int(re.search(r"/games/(\d+)/", loaded).group(1))
    code = re.search(r"/join/([^/\s]+)/", loaded).group(1)
    log = work / "server.log"
    with log.open("wb") as err:
        process = subprocess.Popen(
            [python, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            cwd=tree,
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
        )
    served = Served(tree, f"http://127.0.0.1:{port}", game, code, process, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"taps: the server stopped at start:\n{log.read_text(errors='replace')[-2000:]}")
        try:
            urllib.request.urlopen(f"{served.address}/", timeout=2).close()
            return served
        except OSError:
            time.sleep(0.2)
    served.stop()
    raise SystemExit("taps: the server did not answer within a minute")
