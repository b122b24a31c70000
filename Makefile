# Two commands do all the set-up on a fresh machine:
#   make serve   start the API server (gunicorn) on http://127.0.0.1:$(PORT)
#   make test    run the whole test suite
# Both create or refresh the virtual environment in .venv first.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
HOST   ?= 127.0.0.1
WORKERS ?= $(shell $(PYTHON) -c "import os; print(min(2 * (os.cpu_count() or 1) + 1, 9))")
STAMP  := $(VENV)/.installed

.PHONY: serve test bench lint spec clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/gunicorn --workers $(WORKERS) --bind $(HOST):$(PORT) --timeout 120 'api:create_app()'

test: $(STAMP)
	$(BIN)/python -m pytest -n auto

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

spec: $(STAMP)
	$(BIN)/python -m api.spec > openapi.yaml

bench: $(STAMP)
	$(BIN)/python bench/trees.py
	$(BIN)/python bench/chance.py
	$(BIN)/python bench/matrices.py
	$(BIN)/python bench/lotteries.py
	$(BIN)/python bench/grading.py

clean:
	rm -rf $(VENV)
