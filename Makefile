# The set-up commands of the README:
#   make run    installs the app and serves it on SQLite as a club runs it (granian, debug off, every interface)
#   make dev    the same battle on Django's development server, with debug on and reloading
#   make test   installs everything the tests need and runs every check and test, on SQLite and PostgreSQL at once
#   make saved-games  plays and saves the games tests/saved_games lacks for the format the app saves today
#   make bench  prints the queries, bytes and server time of every page and action at three sizes of battle,
#               on SQLite and PostgreSQL (SIZES="13 150" for fewer sizes; 13 is the demo battle)
#   make taps   plays one game turn of the demo in chromium on two phones and the game master's device and prints
#               the taps, typing and scrolling of each kind of action (TREE=dir measures another worktree's code)
#   make load, make convention, make convention-then, make faults: the real server under phones (below)

VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
HOST ?= 0.0.0.0
PORT ?= 8000

.PHONY: run dev test bench taps saved-games system-packages

run: $(INSTALLED)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo --host $(HOST) --port $(PORT)
	$(BIN)/python manage.py serve --host $(HOST) --port $(PORT)

dev: $(INSTALLED)
	REPUBLIC_DEBUG=1 $(BIN)/python manage.py migrate --noinput
	REPUBLIC_DEBUG=1 $(BIN)/python manage.py load_demo --host 127.0.0.1 --port $(PORT)
	REPUBLIC_DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# make test: every check, then both databases' passes, each naming its 15 slowest tests (the whole command is held
# under 30 minutes). The engine's and the decisions' tests reach no database (their code may not import Django: the
# import contracts), so the PostgreSQL pass, the longer, leaves them to the SQLite pass.
test: $(INSTALLED) system-packages
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python manage.py check
	$(BIN)/python manage.py makemigrations --check --dry-run
	.ci/both-databases $(BIN)/pytest --durations=15 --postgresql --ignore=tests/rules --ignore=tests/play

bench: $(INSTALLED) system-packages
	$(BIN)/python -m tests.bench
	.ci/with-postgres $(BIN)/python -m tests.bench

TREE ?= .
taps: $(INSTALLED) system-packages
	$(BIN)/python -m tests.taps --tree $(TREE)

saved-games: $(INSTALLED)
	$(BIN)/python -m tests.saved_games

$(INSTALLED): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# Debian packages the tests use; installed only where missing (needs root, as on the project's machines):
# PostgreSQL for the second pass, chromium for the phone tests in tests/browser (Playwright drives it), the font
# the turn log's PDF is set in, poppler-utils for the tests that read the PDF back.
PDF_PACKAGES := fonts-dejavu-core poppler-utils
system-packages:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql)
	@test -x /usr/bin/chromium || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)
	@dpkg -s $(PDF_PACKAGES) >/dev/null 2>&1 || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(PDF_PACKAGES))

# make load: the phones of a club's day (40 on a 400-unit game, 6 on each of four 80-unit games) against the real
# server, then the rate of actions it bears, on SQLite and PostgreSQL (LOAD_SECONDS=20 LOAD_RAMP_SECONDS=15 for a
# short run; tests/load.py lists the settings)
.PHONY: load
load: $(INSTALLED) system-packages
	$(BIN)/python -m tests.load
	.ci/with-postgres $(BIN)/python -m tests.load

# make convention: a convention's day (ten battles of 400 units, 40 phones each, an action every 2 s at each, the
# room screen and the game master's dashboard open) for five minutes against the real server, with no ramp, on
# SQLite and PostgreSQL: the goals beside the figures (tests/load.py lists the settings; LOAD_SECONDS=60 for short)
CONVENTION := LOAD_GAMES="$(strip $(foreach n,1 2 3 4 5 6 7 8 9 10,400:40))" LOAD_RAMP="" LOAD_ROOMS=1 LOAD_DASHBOARDS=1
.PHONY: convention
convention: $(INSTALLED) system-packages
	$(CONVENTION) LOAD_SECONDS=$${LOAD_SECONDS:-300} $(BIN)/python -m tests.load
	$(CONVENTION) LOAD_SECONDS=$${LOAD_SECONDS:-300} .ci/with-postgres $(BIN)/python -m tests.load

# make convention-then: the convention's goal of processor per request is half of what the code of THEN (the
# version its goals were measured on) cost; this machine's speed changes by half within the hour, so battles of 400
# units, 40 phones each (THEN_BATTLES of them, 5 by default), are loaded for 60 s on that version (in a worktree, with
# its own load script and server) and on this checkout, alternately, three times each, on SQLite; logs in THEN_LOGS
THEN ?= 27bf46f
THEN_BATTLES ?= 5
THEN_TREE ?= /tmp/republic-then
THEN_LOGS ?= /tmp/republic-then-logs
THEN_LOAD := LOAD_GAMES="$(strip $(foreach n,$(shell seq $(THEN_BATTLES)),400:40))" LOAD_RAMP=""
.PHONY: convention-then
convention-then: $(INSTALLED) system-packages
	git worktree remove --force $(THEN_TREE) 2>/dev/null || rm -rf $(THEN_TREE)
	git worktree add --force --detach $(THEN_TREE) $(THEN)
	ln -s $(CURDIR)/$(VENV) $(THEN_TREE)/$(VENV)
	mkdir -p $(THEN_LOGS)
	for run in 1 2 3; do \
	  (cd $(THEN_TREE) && $(THEN_LOAD) LOAD_SECONDS=$${LOAD_SECONDS:-60} $(CURDIR)/$(BIN)/python -m tests.load \
	    > $(THEN_LOGS)/then-$$run.log 2>&1); \
	  $(THEN_LOAD) LOAD_SECONDS=$${LOAD_SECONDS:-60} LOAD_FLOOR_SECONDS=0 $(BIN)/python -m tests.load \
	    > $(THEN_LOGS)/now-$$run.log 2>&1; \
	  grep -h "^processor" $(THEN_LOGS)/then-$$run.log $(THEN_LOGS)/now-$$run.log; \
	done
	git worktree remove --force $(THEN_TREE)

# make faults: phones play while the server is killed outright (and, on PostgreSQL, while the database stops dead),
# then every action the server acknowledged must be in the event log and the rows must replay (tests/faults.py)
.PHONY: faults
faults: $(INSTALLED) system-packages
	$(BIN)/python -m tests.faults
	.ci/with-postgres $(BIN)/python -m tests.faults
