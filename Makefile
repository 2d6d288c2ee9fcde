# Two commands on a fresh machine: `make run` and `make test` (see README.md).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000
HOST ?= 0.0.0.0
WORKERS ?= 2
export FLASK_APP := scorekeeper.app

.PHONY: run test install install-test translations db-upgrade bench clean

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
	@if [ -d scorekeeper/translations ]; then $(BIN)/pybabel compile -q -f -d scorekeeper/translations; fi

db-upgrade: install
	$(BIN)/flask db upgrade

run: install db-upgrade
	@$(BIN)/python -m scorekeeper.address $(PORT)
	$(BIN)/gunicorn --workers $(WORKERS) --threads 4 --bind $(HOST):$(PORT) --access-logfile - 'scorekeeper.app:create_app()'

test: install-test
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: install-test
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) instance .hypothesis
