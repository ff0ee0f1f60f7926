# Two commands on a fresh machine (see README.md):
#   make serve   set up everything and serve the site at http://127.0.0.1:8000/
#   make test    set up the same way and run the whole test suite
# The virtual environment's interpreter: the system's /usr/bin/python3 when it is 3.11 or newer
# and can make a venv (Debian's is built with PGO and LTO: the search API's server time was
# 1.1 to 1.4 times shorter on it than on pyenv's default build, docs/decisions/0014), else the first
# python3 on PATH. `make PYTHON=…` chooses another; an existing .venv is kept as it is.
SYSTEM_PYTHON := $(shell /usr/bin/python3 -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 11))' \
	2>/dev/null && echo /usr/bin/python3)
PYTHON ?= $(or $(SYSTEM_PYTHON),python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum < requirements.txt | cut -d' ' -f1)
BENCH_STAMP := $(VENV)/.bench-$(shell cksum < requirements-bench.txt | cut -d' ' -f1)

.PHONY: serve test setup install install-bench data bench provision

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

# The benchmark's peers (tantivy); the tests run a smoke version of the benchmark, so they need them too.
$(BENCH_STAMP): requirements-bench.txt $(STAMP)
	$(BIN)/python -m pip install --quiet -r requirements-bench.txt
	rm -f $(VENV)/.bench-*
	touch $(BENCH_STAMP)

install-bench: $(BENCH_STAMP)

# Database, bundled text and search index (idempotent: re-running replaces, never duplicates).
setup: export DJANGO_DEBUG ?= true
setup: install
	$(BIN)/python scripts/build_webfont.py --if-missing
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py import_texts corpus/ --class KR1d   # 禮書綱目: 經部 禮類 (Kanripo KR1d0086)
	$(BIN)/python manage.py rebuild_index

serve: export DJANGO_DEBUG ?= true
serve: setup
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# Debian's Chromium and CJK fonts for the browser tests: installed when missing (as root),
# otherwise the one apt-get line to run is printed (scripts/provision.sh; .ci/run calls it too).
provision:
	bash scripts/provision.sh

# The same set-up as `serve` (so a green test run means the site can be served), then the tests,
# the slow ones too (a plain `pytest` leaves out those marked slow: pytest.ini), one process per
# core (pytest-xdist: each process has its own database and folder; `--dist load` hands tests out
# in pytest-django's order, so every process runs its tests that commit after the others, as
# a single process does).
test: provision setup install-bench
	$(BIN)/python -m pytest -m "slow or not slow" -n auto --dist load

# The benchmark (not part of `make test`): import + indexing of the 6 M corpus and of the whole
# library of about 107 M characters (the 史部 archive ../shared/corpus/kanripo-scale.tar.xz is
# unpacked once into ~/.cache/classics-bench, or BENCH_CACHE), search latency against tantivy
# (SQLite FTS5 and a plain scan on the 6 M corpus), HTTP under gunicorn, heavy load, two servers;
# figures to docs/performance.md. BENCH_PATH passes options: BENCH_PATH='--corpus "30 M=kanripo,kanripo-jingbu"'.
bench: install install-bench
	$(BIN)/python bench/run.py $(BENCH_PATH) --whoosh --write docs/performance.md
