# The commands the README gives. `make run` and `make test` build .venv when it is
# missing or pyproject.toml changed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
APP := $(BIN)/flask --app scorekeeper
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: run test lint bench serve babel clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(APP) db upgrade
	$(APP) run --host $(HOST) --port $(PORT)

test: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .

babel: $(VENV)/.installed-test
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k _l -o scorekeeper/translations/messages.pot .
	$(BIN)/pybabel update -i scorekeeper/translations/messages.pot -d scorekeeper/translations

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .coverage
