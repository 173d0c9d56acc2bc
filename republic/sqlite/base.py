"""Django's SQLite backend, with the database file and its write-ahead log and shared-memory index readable and
writable by the server's own user alone, as the secret key is: the file holds the game master's password hash and
each side's private messages, and the club's laptop may have other accounts."""

import os
import stat
from pathlib import Path
from typing import Any

from django.db.backends.sqlite3 import base

PRIVATE = 0o600
# SQLite makes the -wal, -shm and -journal files with the mode of the database file itself: a database file made
# private keeps them private. The files of an earlier version, made readable by all, are put right when opened.
KEPT_BESIDE = ("", "-wal", "-shm", "-journal")


def keep_private(name: str) -> None:
    path = Path(name)
    try:
        # O_EXCL: a file another process made meanwhile is left to the loop below
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))
    except FileExistsError:
        pass
    except FileNotFoundError:
        return  # no such folder: SQLite says so itself when it opens the file
    for suffix in KEPT_BESIDE:
        kept = path.with_name(path.name + suffix)
        try:
            found = kept.stat()
            if found.st_uid == os.getuid() and stat.S_IMODE(found.st_mode) & ~PRIVATE:
                kept.chmod(PRIVATE)
        except FileNotFoundError:
            continue


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        name = str(conn_params["database"])
        if not self.is_in_memory_db() and not name.startswith("file:"):  # a path, not an URI
            keep_private(name)
        return super().get_new_connection(conn_params)
