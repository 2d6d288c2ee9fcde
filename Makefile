# Two commands on a fresh machine: `make run` and `make test` (see README.md).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000
HOST ?= 0.0.0.0
WORKERS ?= 2
export FLASK_APP := scorekeeper.app

.PHONY: run test check typecheck format install install-test translations translations-update db-upgrade bench assets clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed-run

install: $(VENV)/.installed-run translations
install-test: $(VENV)/.installed-test translations

translations: | $(BIN)/python
	@if [ -d scorekeeper/translations ]; then $(BIN)/pybabel -q compile -f -d scorekeeper/translations; fi

# Extract every marked message (Python and templates) into a throwaway template and
# merge it into the catalogs; then translate what is new (tests/i18n fails until then).
BABEL_KEYWORDS := -k _ -k gettext -k ngettext:1,2 -k lazy_gettext -k _l -k lazy_ngettext:1,2 -k N_
# Babel skips folders whose names start with "_" unless told otherwise: templates/_partials holds messages.
BABEL_IGNORE_DIRS := .* __pycache__
translations-update: | $(VENV)/.installed-run
	@pot=$$(mktemp --suffix=.pot) && trap 'rm -f "$$pot"' EXIT && \
	$(BIN)/pybabel -q extract -F babel.cfg $(BABEL_KEYWORDS) --ignore-dirs "$(BABEL_IGNORE_DIRS)" \
		--add-comments=TRANSLATORS: --no-wrap \
		--project=scorekeeper -o "$$pot" . && \
	$(BIN)/pybabel -q update -i "$$pot" -d scorekeeper/translations --no-wrap --ignore-obsolete --no-fuzzy-matching
	@$(MAKE) --no-print-directory translations

db-upgrade: install
	$(BIN)/flask db upgrade

# The LAN address printed first is also handed to the app (SCOREKEEPER_LAN_URL): a page
# opened at 127.0.0.1 on this machine shows links and QR codes that phones can open.
run: install db-upgrade
	@$(BIN)/python -m scorekeeper.address $(PORT)
	SCOREKEEPER_LAN_URL="$${SCOREKEEPER_LAN_URL:-$$($(BIN)/python -m scorekeeper.address --lan-url $(PORT))}" \
		$(BIN)/gunicorn -c python:scorekeeper.gunicorn_conf --workers $(WORKERS) --threads 4 \
		--bind $(HOST):$(PORT) --access-logfile - 'scorekeeper.app:create_app()'

# The house's hygiene: lint, format (ruff) and types (mypy, strict), run first by `make test`.
# mypy reads the package, tests/ and bench/ (pyproject.toml); every test folder's own conftest.py
# is a module named "conftest", so each is checked on its own.
LINTED := scorekeeper tests bench migrations
MYPY_CONFTESTS := for c in tests/*/conftest.py; do $(BIN)/mypy --no-error-summary $$c || exit 1; done
check: install-test
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/mypy
	@$(MYPY_CONFTESTS)

typecheck: install-test
	$(BIN)/mypy
	@$(MYPY_CONFTESTS)

format: install-test
	$(BIN)/ruff check --fix $(LINTED)
	$(BIN)/ruff format $(LINTED)

# The suite runs in three workers (pytest-xdist; worksteal balances the long browser tests):
# much of a browser test is waiting for a poll, so three overlap well even on two cores.
# PYTEST_ARGS replaces that, e.g. PYTEST_ARGS="tests/engine -q" or "-p no:xdist".
PYTEST_WORKERS ?= 3
PYTEST_ARGS ?= -n $(PYTEST_WORKERS) --dist worksteal
test: install-test check
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: install-test
	$(BIN)/python bench/engine.py

# The card sprites (static/cards/) and the app icons (static/icons/) are drawn by code and
# committed; after changing the drawing, regenerate them (tests/render fails until then).
assets: install
	$(BIN)/python -m scorekeeper.render.assets

clean:
	rm -rf $(VENV) instance .hypothesis
