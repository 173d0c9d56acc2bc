"""Games saved by the app and kept for good: each file is a game played through the app's own forms and saved with
its own export (``python -m tests.saved_games`` makes the files missing; a file once kept is never made again).
tests/games/test_saved_games.py loads every one on every test run."""
