# Deep Learning, Measured: two commands on a fresh machine with Python >= 3.12 and make.
#   make book   set up .venv, execute the lessons (in parallel, only what changed), build _build/html
#   make test   set up .venv, lint src/ and tests/ (ruff), run the tests (the lessons' tables, coursekit,
#               the book build)
# Also: make lab (JupyterLab), make lesson N=01 ARGS="-p SEED 7", make site, make bench, make stress,
#   make atlas [SEEDS=10] (every lesson's claims over seeds 1..SEEDS, shown by the next make book),
#   make atlas SEEDS=1-100 SHARD=3/10 (one shard's partial atlas), make atlas-merge (the partials into one),
#   make serve (the built site on http://127.0.0.1:8000/, where its pages can rerun a lesson).
# Override the interpreter with `make book PYTHON=/path/to/python3.12`.

PYTHON ?= $(shell .ci/find-python)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: book site lab test lessons lesson bench stress clean atlas atlas-merge serve pyodide

SEEDS ?= 10
SHARD ?=
PARTIALS ?= $(wildcard _build/atlas/partials/*.json)

$(STAMP): requirements.txt pyproject.toml
	@if [ -z "$(PYTHON)" ]; then \
	  echo "error: Python >= 3.12 is required and none was found (tried python3.12, python3.13,"; \
	  echo "       python3 and pyenv's versions). The course's numbers depend on Python 3.12's float sum()"; \
	  echo "       (compensated since 3.12); on 3.11 several lessons print other last digits."; \
	  echo "       Install Python 3.12+ or run: make $(MAKECMDGOALS) PYTHON=/path/to/python3.12"; \
	  exit 1; fi
	@$(PYTHON) -c 'import sys; v = sys.version_info; sys.exit(0 if v >= (3, 12) else "error: $(PYTHON) is Python %d.%d; Python >= 3.12 is required (the numbers depend on its float sum())" % v[:2])'
	@if [ -x $(BIN)/python ] && ! $(BIN)/python -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then \
	  echo "removing $(VENV): it was made with Python < 3.12"; rm -rf $(VENV); fi
	$(PYTHON) -m venv $(VENV)
	@# requirements.txt is the whole environment, pinned: install exactly it (--no-deps), so that nothing
	@# else is resolved in (rfc3987-syntax, an optional format checker of jsonschema, costs every
	@# papermill process 2.3 s of CPU at import).
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	@# JupyterLab settings for readers: lessons open as notebooks, explorers keep their state when saved
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp src/booktools/lab/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	@touch $@

lessons: $(STAMP)
	$(BIN)/python -m booktools.execute

# Pyodide (Python in the browser) for rerunning a lesson in its page, pinned with integrity hashes in
# package-lock.json and installed by npm ci; the build copies its core into the site's _static/pyodide/.
# Without npm the book still builds: each lesson page then says why it has no run panel.
NODE_STAMP := node_modules/.package-lock.json
$(NODE_STAMP): package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then npm ci --no-audit --no-fund --loglevel=error; \
	else echo "npm not found: the book is built without the in-page run (install Node.js and npm for it)"; fi

pyodide: $(NODE_STAMP)

book: lessons pyodide
	$(BIN)/jupyter-book build . --warningiserror --nitpick --keep-going
	@echo "Open _build/html/index.html in a browser (file://$(CURDIR)/_build/html/index.html), or run"
	@echo "make serve and open http://127.0.0.1:8000/ to rerun a lesson in its page."

# The seed atlas: every lesson executed with seeds 1..SEEDS (SEEDS=N or FIRST-LAST, no figures), its claims
# counted; then make book. With SHARD=K/N only the K-th of N shards of the jobs, written as a partial atlas
# (_build/atlas/partials/); make atlas-merge checks the partials and merges them (with the book's executions).
atlas: $(STAMP)
	$(BIN)/python -m booktools.atlas --seeds $(SEEDS)$(if $(SHARD), --shard $(SHARD))

atlas-merge: lessons
	$(BIN)/python -m booktools.atlas --merge $(PARTIALS)

# Read the lessons in JupyterLab (a lesson's .md opens as a notebook)
lab: $(STAMP)
	$(BIN)/jupyter lab --notebook-dir=.

# Rerun one lesson with other parameters: make lesson N=01 ARGS="-p SEED 7 -p RUNS 10"
lesson: $(STAMP)
	@$(BIN)/python -m booktools.run $(N) $(ARGS)

# The built site on loopback only (http://127.0.0.1:8000/, PORT=...): a page opened as a file cannot
# start the in-page run's Python, a served one can
serve: $(STAMP)
	$(BIN)/python -m booktools.serve $(if $(PORT),--port $(PORT))

# One archive of the built site (after make book), for any static host, under any path
site:
	@$(BIN)/python -m booktools.site

test: $(STAMP) pyodide
	$(BIN)/ruff check src tests
	$(BIN)/python -m pytest

bench: $(STAMP) pyodide
	$(BIN)/python -m booktools.benchmark
	$(BIN)/python -m booktools.benchmark --atlas $(SEEDS)
	$(BIN)/python -m booktools.benchmark --shard
	$(BIN)/python -m booktools.browserbench

# Every lesson's explorer cell executed 20 times with stock nbclient: the hangs (there must be none)
stress: $(STAMP)
	$(BIN)/python -m booktools.stress

clean:
	rm -rf _build
