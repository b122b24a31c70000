# Two commands do all the set-up on a fresh machine:
#   make serve   start the API server and workbench on http://127.0.0.1:$(PORT)
#   make test    run the whole test suite (installing Debian's chromium for the browser tests)
# Both install from the lock file uv.lock into .venv first (serve: what the server needs;
# test: that plus the test and lint tools). uv itself is installed, pinned, into .tools.

PYTHON     ?= python3
VENV       := .venv
BIN        := $(VENV)/bin
TOOLS      := .tools
UV_VERSION := 0.13.8
UV         := $(TOOLS)/bin/uv
BENCH_VENV := .bench-venv
PORT       ?= 8000
HOST       ?= 127.0.0.1

# uv never downloads an interpreter: it uses $(PYTHON), and installs into $(VENV)
export UV_PYTHON_DOWNLOADS := never
export UV_PROJECT_ENVIRONMENT := $(VENV)
SYNC := $(UV) sync --frozen --inexact --python $(PYTHON)

.PHONY: serve test test-pure lint check bench bench-games bench-matrices bench-grading load spec lock clean screenshot

$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet uv==$(UV_VERSION)

$(VENV)/.serve-installed: $(UV) uv.lock pyproject.toml $(wildcard analysis/*/*.pyx analysis/*/*.pxd games/*/*.pyx games/*/*.pxd)
	$(SYNC) --no-dev
	touch $@

# the browser tests drive Debian's chromium (Playwright's own browsers cannot be downloaded);
# the docs' curl examples, which the tests run, trim answers with jq
$(VENV)/.dev-installed: $(UV) uv.lock pyproject.toml $(wildcard analysis/*/*.pyx analysis/*/*.pxd games/*/*.pyx games/*/*.pxd)
	$(SYNC) --extra dev
	{ command -v chromium && command -v jq; } >/dev/null 2>&1 || { apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium jq; } || \
	    echo "warning: chromium or jq could not be installed; the browser and docs tests need them"
	touch $@

# the server (api/serving.py): HOST=0.0.0.0 serves a class on the network; the limits are
# ARBITER_* variables (docs/limits.md)
serve: $(VENV)/.serve-installed
	$(BIN)/python -m api --host $(HOST) --port $(PORT)

test: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -n auto

# the compiled modules, whose .pyi stubs mypy's stubtest checks against what was built
COMPILED := analysis.trees._kernels analysis.trees._star1 games.trees._reader \
	analysis.search._grid analysis.equilibria._basis_search analysis.equilibria._maxmin_simplex

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m mypy.stubtest --mypy-config-file pyproject.toml \
	    --allowlist .ci/stubtest-allowlist $(COMPILED)

# the tree searches', trees API's, readers', grid search's and equilibria's tests again with
# the compiled kernels off (ARBITER_PURE_PYTHON=1): what a machine without a C compiler runs.
# The other game-engine tests (tests/analysis/search) are left out: their published results
# (connect four 5x4, hexapawn, random positions of real games) take the Python engine
# minutes, past CI's time; test_grid.py holds that engine to the compiled one.
PURE_TESTS := tests/analysis/trees tests/api/test_trees_api.py tests/api/test_chance_api.py \
	tests/games/trees tests/analysis/search/test_grid.py tests/analysis/equilibria

test-pure: $(VENV)/.dev-installed
	ARBITER_PURE_PYTHON=1 $(BIN)/python -m pytest -n auto $(PURE_TESTS)

# what CI runs (.ci/run): the README test command, the pure-Python run, then the lint
check: test test-pure lint

# the README's picture of the workbench (tests/browser/screenshot.py; needs chromium)
screenshot: $(VENV)/.dev-installed
	$(BIN)/python tests/browser/screenshot.py

spec: $(VENV)/.dev-installed
	$(BIN)/python -m api.openapi > openapi.yaml

# refresh the lock file to the newest releases the pyproject ranges allow
lock: $(UV)
	$(UV) lock --upgrade --python $(PYTHON)

# every benchmark; the matrix games' peers (QuantEcon, nashpy) run from .bench-venv (below)
bench: $(VENV)/.dev-installed $(BENCH_VENV)/.installed
	$(BIN)/python bench/trees.py
	$(BIN)/python bench/chance.py
	PYTHONPATH=. $(BENCH_VENV)/bin/python bench/matrices.py
	$(BIN)/python bench/lotteries.py
	$(BIN)/python bench/grading.py
	$(BIN)/python bench/workbench.py

# grading: a fresh `arbiter grade` of one answer against `python -c pass`, a course of 1,000
# students' variants through the CLI (time, peak memory) and the grading endpoints' answers
# per second (bench/grading.py --help)
bench-grading: $(VENV)/.dev-installed
	$(BIN)/python bench/grading.py

# the game engine against OpenSpiel and easyAI (bench/games.py --help), and the matrix games
# against QuantEcon and nashpy (bench/matrices.py --help); the peers (bench/requirements-peers.txt)
# get their own environment, .bench-venv, with the product's dependencies at the versions of
# uv.lock (not the product itself: the repo is on the path, and its compiled parts are built by
# the product's set-up, so .venv comes first)
$(BENCH_VENV)/.installed: $(UV) bench/requirements-peers.txt uv.lock pyproject.toml
	$(UV) venv --clear --quiet --python $(PYTHON) $(BENCH_VENV)
	$(UV) export --frozen --no-dev --no-hashes --no-emit-project --quiet -o $(BENCH_VENV)/product.txt
	$(UV) pip install --quiet --python $(BENCH_VENV)/bin/python -r bench/requirements-peers.txt -r $(BENCH_VENV)/product.txt
	touch $@

bench-games: $(VENV)/.serve-installed $(BENCH_VENV)/.installed
	PYTHONPATH=. $(BENCH_VENV)/bin/python bench/games.py

bench-matrices: $(VENV)/.serve-installed $(BENCH_VENV)/.installed
	PYTHONPATH=. $(BENCH_VENV)/bin/python bench/matrices.py

# load and fault benchmark against the production server (bench/load.py --help)
load: $(VENV)/.serve-installed $(VENV)/.dev-installed
	$(BIN)/python bench/load.py

clean:
	rm -rf $(VENV) $(BENCH_VENV) $(TOOLS)
