# The project's commands. `make run` sets everything up and serves the app on SQLite;
# `make test` runs the whole suite (lint, types, tests). See README.md.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
ADDR ?= 127.0.0.1:8000

.PHONY: install run test quick lint bench lighthouse serve screenshots lock upgrade-lock

install: $(VENV)/.installed

# The locked versions (requirements/dev.txt: the app, its dev tools and PostgreSQL's driver),
# each checked against its hashes, then the project itself; `pip check` fails when pyproject.toml
# asks for something the lock lacks (then run `make lock`).
$(VENV)/.installed: pyproject.toml requirements/dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r requirements/dev.txt
	$(PY) -m pip install --quiet --no-deps -e .
	$(PY) -m pip check
	touch $@

# The lock files from pyproject.toml, for CPython 3.11 on Linux x86-64, with every file's hash:
# requirements/dev.txt (what `make install` installs) and requirements/app.txt (a server's: the
# app, its photo reader and PostgreSQL's driver, at the same versions). `make lock` keeps the
# versions locked already where pyproject.toml still allows them (run it after changing them);
# `make upgrade-lock` takes the newest it allows. uv, pinned, lives in var/lock-tools/.
UV_VERSION := 0.13.8
UV := var/lock-tools/bin/uv
LOCK_FOR := --python-version 3.11 --python-platform x86_64-manylinux_2_28
LOCK_FLAGS := --quiet --generate-hashes $(LOCK_FOR) --custom-compile-command "make lock"
lock: $(UV)
	$(UV) pip compile pyproject.toml --extra dev $(LOCK_FLAGS) $(UPGRADE) -o requirements/dev.txt
	$(UV) pip compile pyproject.toml --extra postgres --extra photo $(LOCK_FLAGS) $(UPGRADE) \
		-c requirements/dev.txt -o requirements/app.txt

upgrade-lock:
	$(MAKE) lock UPGRADE=--upgrade

$(UV):
	$(PYTHON) -m venv var/lock-tools
	var/lock-tools/bin/pip install --quiet "uv==$(UV_VERSION)"

run: install
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py runserver $(ADDR)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DEBUG=1 $(VENV)/bin/mypy

# With PG_TEST_URL set (CI sets it), the suite also runs on PostgreSQL, at the same time as on
# SQLite (the machines have two cores; one after the other the passes took past 20 minutes), its
# output shown after SQLite's. Not again on PostgreSQL: what uses no database (the engine and its
# events' rules, plain Python; the import rules; the lock; the documented commands, run in a fresh
# clone's environment on SQLite), the browser's journeys, whose pages reach the database through
# the views the rest of the suite runs on PostgreSQL, the server's cost under the worst searches
# (a load on the processor, not the database), and what follows Redis's one pub/sub channel,
# which two test processes would hear each other on.
ONCE := --ignore=referee --ignore=tests/referee --ignore=tests/test_readme_commands.py \
	--ignore=tests/test_imports.py --ignore=tests/test_lock.py \
	--ignore=tests/test_bench.py --ignore=tests/browser --ignore=tests/hostile/test_server_cost.py \
	-m "not redis" -p no:cacheprovider
PG_LOG := var/test-postgresql.log
test: lint
	@if [ -z "$(PG_TEST_URL)" ]; then exec $(PY) -m pytest; fi; \
	mkdir -p var; \
	( DATABASE_URL="$(PG_TEST_URL)" $(PY) -m pytest $(ONCE) >$(PG_LOG) 2>&1 ) & pg=$$!; \
	$(PY) -m pytest; sqlite=$$?; \
	wait $$pg; postgresql=$$?; \
	echo "== the suite on PostgreSQL (but what uses no database, the browser and Redis)"; \
	cat $(PG_LOG); \
	echo "== SQLite: exit $$sqlite; PostgreSQL: exit $$postgresql"; \
	[ $$sqlite -eq 0 ] && [ $$postgresql -eq 0 ]

# The suite but its slow kinds (the browser, the servers, the fuzzers): a few minutes, while working.
quick: install
	$(PY) -m pytest -m "not (browser or server or fuzz)" -q

# Production: settings from the environment (SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL, ...).
serve: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput -v0
	$(VENV)/bin/gunicorn -c config/gunicorn.conf.py

# Every figure of bench/ (the last line one JSON object; a copy in var/bench/). Not in `test`.
bench: install
	$(PY) -m bench

# The scorer, game and spectator pages in Lighthouse (mobile, simulated throttling); it installs
# Lighthouse from npm into var/lighthouse/ on first use. Not in `test`.
lighthouse: install
	$(PY) -m bench lighthouse

# The README's pictures (docs/img/), from a throwaway database and Debian's Chromium.
screenshots: install
	$(PY) docs/screenshots.py
