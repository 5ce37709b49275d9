# Code with Papers: make run | make test | make lint | make audit | make lock | make clean
#
#   make run                  set up, load fixtures/ into SQLite, serve http://127.0.0.1:8000/
#   make serve                the production stack: migrate, collectstatic, redis, gunicorn (scripts/serve.sh)
#   make test                 whole suite on SQLite, then on a throwaway PostgreSQL
#   make test PYTEST_ARGS='-m "not browser" -x'    pass arguments to both pytest runs
#
# Nothing here activates the venv: every tool is called as .venv/bin/...

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PYTEST_ARGS ?=
# Which interpreter builds the venv: python3 (pyenv picks 3.12.1 from .python-version),
# else python3.12. Override with `make venv PYTHON=/path/to/python3.12`.
PYTHON ?=

# Rebuild the install when the venv's own interpreter is gone or too old (a removed pyenv
# version leaves .venv/bin/python dangling while the stamp still looks fresh).
VENV_OK := $(shell $(PY) -c 'import sys; print(sys.version_info >= (3, 12))' 2>/dev/null)
ifneq ($(VENV_OK),True)
.PHONY: $(STAMP)
endif

.PHONY: help run serve test test-sqlite test-postgres venv system-deps lint format clean lock audit

help:
	@echo "make run     set up and serve on SQLite with fixtures/ loaded: http://127.0.0.1:8000/"
	@echo "make serve   production stack on loopback: migrate, collectstatic, redis-server, gunicorn"
	@echo "             (env: DATABASE_URL, CACHE_URL, PORT, WEB_CONCURRENCY, LOAD_SNAPSHOT; see README)"
	@echo "make test    set up and run the whole suite on SQLite, then on a throwaway PostgreSQL"
	@echo "             (PYTEST_ARGS='...' is passed to pytest)"
	@echo "make lint    ruff check + ruff format --check + mypy"
	@echo "make audit   known vulnerabilities of the pinned dependencies (PyPI); pins behind reported"
	@echo "make lock    every pin to the newest release the lint and tests pass on (with hashes)"
	@echo "make venv    create/update $(VENV) (pip install -e '.[dev,bench]')"
	@echo "make clean   remove $(VENV), db.sqlite3, caches and build leftovers"

venv: $(STAMP)
	@:

$(STAMP): pyproject.toml requirements.lock
	@if [ "$(VENV_OK)" != "True" ]; then \
	    base="$(PYTHON)"; \
	    if [ -z "$$base" ]; then \
	        base=python3; \
	        if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then \
	            base=python3.12; \
	        fi; \
	    fi; \
	    if ! "$$base" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then \
	        echo "venv: error: need Python 3.12+ as python3 or python3.12 (pyenv: pyenv install 3.12.1)" >&2; \
	        exit 1; \
	    fi; \
	    echo "==> creating $(VENV) with $$("$$base" --version) ($$(command -v "$$base"))"; \
	    rm -rf $(VENV); \
	    "$$base" -m venv $(VENV); \
	fi
	@echo "==> installing the locked dependencies (requirements.lock, hashes checked) into $(VENV)"
	@log=$$(mktemp); \
	if ! { $(PY) -m pip install --disable-pip-version-check --no-input --quiet \
	        --require-hashes -r requirements.lock && \
	     $(PY) -m pip install --disable-pip-version-check --no-input --quiet \
	        --no-deps --editable . ; } >"$$log" 2>&1; then \
	    cat "$$log" >&2; rm -f "$$log"; \
	    echo "venv: error: pip install failed (output above)" >&2; exit 1; \
	fi; \
	rm -f "$$log"
	@touch $@

system-deps:
	@if [ -z "$${CWP_SKIP_SYSTEM_DEPS:-}" ]; then bash scripts/system-deps.sh; fi

run: venv
	@echo "==> migrate (SQLite: db.sqlite3)"
	@env -u DATABASE_URL $(PY) manage.py migrate --noinput -v 1
	@echo "==> load_snapshot fixtures/"
	@env -u DATABASE_URL $(PY) manage.py load_snapshot fixtures/
	@echo "==> collectstatic"
	@env -u DATABASE_URL $(PY) manage.py collectstatic --noinput -v 0
	@echo "==> serving http://127.0.0.1:8000/ (Ctrl-C stops)"
	@env -u DATABASE_URL $(PY) manage.py runserver 127.0.0.1:8000

# Production on this machine: everything from the environment (README "Running in production").
serve: venv
	@bash scripts/serve.sh

# pytest exits 5 when it collects no test. That is a failure for the whole suite (it always
# holds tests/ops/test_database_backend.py), but fine when PYTEST_ARGS narrowed the run down.
# $(call pytest,PREFIX) runs pytest, after PREFIX (env settings, or the cluster wrapper).
pytest = status=0; $(1) $(PY) -m pytest $(PYTEST_ARGS) || status=$$?; \
	if [ $$status -eq 5 ] && $(if $(strip $(PYTEST_ARGS)),true,false); then \
	    echo "==> no test selected by PYTEST_ARGS; counted as a pass"; status=0; \
	fi; \
	exit $$status

test: system-deps venv static
	@$(MAKE) test-sqlite
	@$(MAKE) test-postgres

# WhiteNoise serves STATIC_ROOT (and warns, which the suite treats as an error, when it is
# missing); the browser tests load the stylesheet from it as a reader's browser would.
static: venv
	@env -u DATABASE_URL $(PY) manage.py collectstatic --noinput -v 0

test-sqlite: venv static
	@echo "==> pytest on SQLite"
	@$(call pytest,env -u DATABASE_URL CWP_EXPECT_DB=sqlite)

test-postgres: venv static
	@echo "==> pytest on a throwaway PostgreSQL (scripts/pgcluster.py)"
	@$(call pytest,CWP_EXPECT_DB=postgresql $(PY) scripts/pgcluster.py run --)

lint: venv
	@echo "==> ruff check"
	@$(VENV)/bin/ruff check .
	@echo "==> ruff format --check"
	@$(VENV)/bin/ruff format --check .
	@echo "==> mypy (catalogue/ and config/, with the Django and DRF stubs: pyproject.toml [tool.mypy])"
	@$(VENV)/bin/mypy

format: venv
	@$(VENV)/bin/ruff check --fix .
	@$(VENV)/bin/ruff format .

clean:
	@echo "==> removing $(VENV), db.sqlite3, staticfiles/, caches"
	@python3 scripts/pgcluster.py reap >/dev/null 2>&1 || true
	@rm -rf $(VENV) *.egg-info build staticfiles .pytest_cache .ruff_cache .mypy_cache db.sqlite3 db.sqlite3-*
	@find . -name __pycache__ -type d -not -path './.git/*' -prune -exec rm -rf {} +

# Every pin to the newest release that `make lint` and `make test` pass on, with hashes
# (scripts/lock.py). Run it when `make audit` reports pins behind, and after editing
# pyproject.toml (LOCK_ARGS=--no-test re-pins without the checks; LOCK_ARGS='--only idna').
UV_VERSION := 0.13.9
LOCK_ARGS ?=
lock: venv
	@$(PY) -m pip install --disable-pip-version-check --quiet uv==$(UV_VERSION)
	@$(PY) scripts/lock.py $(LOCK_ARGS)

# Known vulnerabilities in the pinned set, from PyPI's records (scripts/audit_lock.py: works
# where only PyPI is reachable; reviewed exceptions in scripts/audit-allowlist.txt). A known
# vulnerability fails it; a pin behind the newest release is reported (`make lock` moves it).
# Not part of `make test`: its answer changes with what upstream publishes. CI runs it after
# the tests. Where OSV is reachable too, `pip-audit -r requirements.lock --no-deps --disable-pip`
# cross-checks it.
audit:
	@python3 scripts/audit_lock.py
