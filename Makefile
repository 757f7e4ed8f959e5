# Development commands. Each one that runs project code first makes sure .venv exists and
# matches pyproject.toml, so a fresh clone needs nothing but a Python 3.12+ to start.

VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Exact versions of every dependency, runtime and development (make lock writes it).
LOCK := requirements/dev.lock

HOST ?= 127.0.0.1
PORT ?= 8000
ARGS ?=

.DEFAULT_GOAL := help
.PHONY: help run serve test bench faults drill lint clean lock

help:
	@echo "make run    migrate, load the demo clubs, serve http://$(HOST):$(PORT)/ (HOST=, PORT=)"
	@echo "make serve  the production setup: checks, migrate, collectstatic, gunicorn and the task worker (README: Deploying)"
	@echo "make test   run the test suite (extra pytest arguments: ARGS=)"
	@echo "make bench  run the benchmarks (python -m benchmarks; ARGS=)"
	@echo "make faults a club night on a private PostgreSQL held down 10 s, workers killed between commit and answer, a network cut with offline.js in Chromium (docs/capacity.md: Faults)"
	@echo "make drill  restore drill: dump the database, restore it into a fresh one, compare the standings and replays"
	@echo "make lint   ruff (checks and format), lint-imports (the layers' contracts), missing migrations, mypy"
	@echo "make clean  remove .venv, caches and collected static files (keeps db.sqlite3)"
	@echo "make lock   pin the dependencies of pyproject.toml again in $(LOCK)"
	@echo "Python for .venv: PYTHON=/path/to/python3.13 (default: scripts/find-python)"

# Rebuilt when missing or when pyproject.toml or the lock changed. A .venv whose Python no longer runs
# (say, its pyenv version was uninstalled) or is older than 3.12 is made anew.
$(STAMP): pyproject.toml $(LOCK)
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
	$(BIN)/pip install -r $(LOCK)
	$(BIN)/pip install --no-deps -e .
	touch $(STAMP)

# The e-mails the site sends link back to the address it is served on.
run: export CLUB_SITE_URL ?= http://$(HOST):$(PORT)
run: $(STAMP)
	$(BIN)/python manage.py migrate
	$(BIN)/python manage.py load_demo_clubs
	@echo
	@echo "    The clubs' addresses are listed above; http://$(HOST):$(PORT)/ leads to the clubs of whoever logs in."
	@echo "    Log in as aoki / mahjong-demo: steward of 枕倶楽部 (/c/club/) and a member of the home game (/c/home/)."
	@echo "    Also in two clubs: baba (club, sanma), kanda (club, home), tanaka (sanma, fuji);"
	@echo "    kimura: fuji only. Every demo login has that password (README: The demo clubs)."
	@echo
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# Production: DEBUG off; DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS and DATABASE_URL come from the
# environment (README, "Deploying"); the deployment checks must pass without a warning. The
# Procfile's gunicorn and task worker run together and stop together (clubsite/procfile.py);
# with CLUB_TASKS_BACKEND=immediate the tasks run in the requests and gunicorn runs alone.
serve: $(STAMP)
	@test -n "$$DJANGO_SECRET_KEY" -a -n "$$DJANGO_ALLOWED_HOSTS" || { \
		echo "make serve needs DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS (README: Deploying)"; \
		exit 1; }
	DJANGO_DEBUG=0 $(BIN)/python manage.py check --deploy --fail-level WARNING
	DJANGO_DEBUG=0 $(BIN)/python manage.py migrate
	DJANGO_DEBUG=0 $(BIN)/python manage.py collectstatic --noinput
	HOST=$(HOST) PORT=$(PORT) DJANGO_DEBUG=0 $(BIN)/python -m clubsite.procfile Procfile \
		$(if $(filter immediate,$(CLUB_TASKS_BACKEND)),web)

test: $(STAMP)
	$(BIN)/pytest $(ARGS)

bench: $(STAMP)
	$(BIN)/python -m benchmarks $(ARGS)

# A club night of 40 phones (compressed in time, three tables on the real table screen in
# Chromium) against gunicorn and a PostgreSQL cluster of its own (initdb in a temporary folder,
# its own port; the machine's is never touched), through the database held down, gunicorn
# workers killed between a hand's commit and its answer and the network lost and back: nothing
# lost or doubled, every game equal to its replay, 503 not 500 (benchmarks/faults.py;
# FAULTS_SPEED, FAULTS_HANDS, FAULTS_DB_OUTAGE, FAULTS_OUTAGE, FAULTS_RUNS,
# FAULTS_BROWSER_TABLES). Not part of the test suite.
faults: $(STAMP)
	$(BIN)/python -m benchmarks.faults

# The backup, restored: pg_dump and pg_restore on PostgreSQL (DATABASE_URL), dumpdata and
# loaddata on SQLite; the standings, champions, counted results and the replay of every counted
# game compared before and after (scoring/upkeep/restore_drill.py). Exit status 1 on any difference.
drill: $(STAMP)
	$(BIN)/python manage.py restore_drill $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/mypy clubsite scoring meetings tournaments ratings benchmarks

# uv resolves for every platform and Python 3.12+ at once; it is needed only to write the lock.
lock: $(STAMP)
	$(BIN)/pip install uv
	$(BIN)/uv pip compile pyproject.toml --extra dev --universal --python-version 3.12 -o $(LOCK)

clean:
	rm -rf $(VENV) staticfiles tests/screenshots build *.egg-info
	rm -rf .pytest_cache .mypy_cache .ruff_cache .import_linter_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
