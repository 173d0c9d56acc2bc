# The set-up commands of the README:
#   make run    installs the app and starts it on SQLite
#   make test   installs everything the tests need and runs every check and test, on SQLite and PostgreSQL
#   make bench  prints the queries, bytes and server time of every page and action at three sizes of battle,
#               on SQLite and PostgreSQL (SIZES="13 150" for fewer sizes; 13 is the demo battle)

VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test bench system-packages

run: $(INSTALLED)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo --host $(HOST):$(PORT)
	@echo "Republic Companion is starting at http://$(HOST):$(PORT)/ (stop with Ctrl-C)"
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

test: $(INSTALLED) system-packages
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python manage.py check
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest
	.ci/with-postgres $(BIN)/pytest

bench: $(INSTALLED) system-packages
	$(BIN)/python -m tests.bench
	.ci/with-postgres $(BIN)/python -m tests.bench

$(INSTALLED): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# Debian packages the tests use; installed only where missing (needs root, as on the project's machines):
# PostgreSQL for the second pass, chromium for the phone tests in tests/browser (Playwright drives it).
system-packages:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql)
	@test -x /usr/bin/chromium || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)
