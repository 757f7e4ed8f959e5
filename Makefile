# Development commands. Each one that runs project code first makes sure .venv exists and
# matches pyproject.toml, so a fresh clone needs nothing but a Python 3.12+ to start.

VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

HOST ?= 127.0.0.1
PORT ?= 8000
ARGS ?=

.DEFAULT_GOAL := help
.PHONY: help run test bench lint clean

help:
	@echo "make run    migrate, load the demo club, serve http://$(HOST):$(PORT)/ (HOST=, PORT=)"
	@echo "make test   run the test suite (extra pytest arguments: ARGS=)"
	@echo "make bench  run the benchmarks (python -m benchmarks; ARGS=)"
	@echo "make lint   ruff, missing migrations, mypy"
	@echo "make clean  remove .venv, caches and collected static files (keeps db.sqlite3)"
	@echo "Python for .venv: PYTHON=/path/to/python3.13 (default: scripts/find-python)"

# Rebuilt when missing or when pyproject.toml changed. A .venv whose Python no longer runs
# (say, its pyenv version was uninstalled) or is older than 3.12 is made anew.
$(STAMP): pyproject.toml
	@if [ -e $(VENV) ] && ! $(BIN)/python -c \
		'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then \
		echo "Removing $(VENV): its Python is missing, broken or older than 3.12."; \
		rm -rf $(VENV); \
	fi
	@if [ ! -e $(VENV) ]; then \
		python=$$(PYTHON="$(PYTHON)" sh scripts/find-python) || exit 1; \
		echo "Creating $(VENV) with $$python"; \
		"$$python" -m venv $(VENV) || exit 1; \
	fi
	$(BIN)/pip install --upgrade pip
	$(BIN)/pip install -e ".[dev]"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python manage.py migrate
	$(BIN)/python manage.py load_demo
	@echo
	@echo "    Open http://$(HOST):$(PORT)/ and log in as aoki / mahjong-demo (a staff member)."
	@echo
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

test: $(STAMP)
	$(BIN)/pytest $(ARGS)

bench: $(STAMP)
	$(BIN)/python -m benchmarks $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/mypy clubsite scoring meetings tournaments benchmarks

clean:
	rm -rf $(VENV) staticfiles tests/screenshots build *.egg-info
	rm -rf .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
