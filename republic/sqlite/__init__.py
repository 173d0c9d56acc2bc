"""SQLite as the app keeps it: its files readable by the server's own user alone (``base``)."""
