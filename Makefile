# Two entry points (see README): `make play` and `make test`.
# Each creates .venv the first time; `play` installs what playing needs, `test` adds the tools.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/pip install --quiet --disable-pip-version-check
PLAY := $(VENV)/.play
DEV := $(VENV)/.dev
CATALOGS := $(wildcard src/shutthebox/i18n/locale/*/LC_MESSAGES/shutthebox.po)
NODE := node_modules/.package-lock.json

.PHONY: play test lint bench catalogs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The pinned runtime, the package, its compiled text catalogs, and bytecode for a fast start.
$(PLAY): requirements.lock pyproject.toml $(CATALOGS) | $(BIN)/python
	$(PIP) -r requirements.lock
	$(PIP) --no-deps -e .
	$(BIN)/python tools/catalogs.py compile
	$(BIN)/python -m compileall -q src/shutthebox
	touch $(PLAY)

$(DEV): $(PLAY) requirements-dev.lock
	$(PIP) -r requirements-dev.lock
	touch $(DEV)

# The web app at http://127.0.0.1:8000, games kept in the embedded SQLite database.
play: $(PLAY)
	$(BIN)/shutthebox serve --host 127.0.0.1 --port 8000

# The page's lint and type check (eslint, tsc over its JSDoc), pinned in package-lock.json: Node is on every machine.
$(NODE): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $(NODE)

lint: $(DEV) $(NODE)
	$(BIN)/ruff check src tests benchmarks tools examples
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python tools/catalogs.py check
	node_modules/.bin/eslint
	node_modules/.bin/tsc --noEmit -p tsconfig.json

# The page's unit tests (the timeline, the narration) run under Node; the end-to-end tests drive
# Debian's chromium (never a browser downloaded by Playwright); the tests of several servers start
# their own redis-server and PostgreSQL; a server meets midnight under Debian's faketime. What is
# missing comes in one apt-get.
# The suite runs in parallel (pytest-xdist): a worker a core, each with its own Redis, PostgreSQL,
# servers and Chromium (session fixtures are per worker), the tests dealt out one by one (--dist
# load: the browser tests took 507 s so, 655 s with each module kept on one worker, --dist
# loadgroup). PYTHONDONTWRITEBYTECODE is emptied for pytest alone, so the tests' and plugins'
# assertion-rewritten bytecode is kept and the next collection reads it (a third of the time).
# WORKERS=0 runs the suite in one process.
WORKERS ?= auto
test: lint
	missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v faketime >/dev/null || missing="$$missing faketime"; \
	if [ -n "$$missing" ]; then apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; fi
	node --test tests/js/
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n $(WORKERS) --dist load

bench: $(DEV)
	$(BIN)/python benchmarks/bench.py
	$(BIN)/python benchmarks/startup.py

# After changing the words of the code: every .po gets the new messages (then translate them).
catalogs: $(DEV)
	$(BIN)/python tools/catalogs.py update
	$(BIN)/python tools/catalogs.py compile

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .benchmarks
