# minigrad book. Quick start: `make lab` opens the book, `make check` is a first look in under 3 minutes,
# `make test` runs the whole suite. Each sets up .venv and the Graphviz `dot` binary first. `make help` lists
# every target.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

# Any Python >= 3.10; only used to create .venv.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.minigrad-book-installed
# Always pinned: an unpinned torch pulls a multi-GB CUDA build. The CPU build is what the parity tests need; where
# the default index would give a CUDA build, point pip at PyTorch's CPU-only index:
#   make torch TORCH_INDEX=https://download.pytorch.org/whl/cpu
TORCH  := torch==2.13.0
TORCH_INDEX ?=
# Small matrices run faster on one BLAS thread than on several fighting over two cores.
export OPENBLAS_NUM_THREADS ?= 1
# Tools run with the venv's bin/ first on PATH, as if it were activated.
IN_VENV := PATH="$(CURDIR)/$(VENV)/bin:$$PATH"
# Browser tests: Playwright (the `browser` extra) drives the system's Chromium, never a downloaded one.
BROWSER_STAMP := $(VENV)/.minigrad-book-browser

# The test command, on every core: pytest-xdist gives each worker whole files (--dist loadfile), so a notebook's
# cells share one kernel, in order, and a file's fixtures are built once. JOBS=0 runs in this process. BROWSER=1
# then runs the browser tests (`--browser`) on their own, one at a time: each starts servers and Chromium.
JOBS ?= auto
NBVAL := --nbval --nbval-current-env --nbval-kernel-startup-timeout 300 --nbval-sanitize-with tests/nbval_sanitize.cfg
PYTEST_ARGS ?= -n $(JOBS) --dist loadfile $(NBVAL) tests book $(if $(filter 1,$(BROWSER)),--ignore=tests/browser)
BROWSER_ARGS ?= --browser tests/browser
# The first look (`make check`): the engine and its parity with torch, the widgets, the project's own rules, and
# one chapter of each kind (the first, Function.apply, the engine, training; one in Chinese), strict nbval too.
CHECK_ARGS ?= -n $(JOBS) --dist loadfile $(NBVAL) tests/core tests/parity tests/widgets tests/test_project.py \
	tests/test_layering.py tests/test_as_torch.py book/00_start_here.ipynb book/04_function_apply.ipynb \
	book/06_how_backward_runs.ipynb book/12_function_vs_module.ipynb book/zh/04_function_apply.ipynb
# The machines a stored output must survive (`make matrix`): the chapters that train, or NB="book/*.ipynb".
NB ?=

.PHONY: help venv dot lab check test matrix book torch coverage browser site lite publish clean distclean

help: ## list the targets
	@echo "minigrad book -- quick start: 'make lab' (open the book), 'make check' (a first look) or 'make test' (every test)"
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'
	@echo "variables: PYTHON=python3.11 (to create .venv), BROWSER=1 (make test also runs the browser tests, after make browser),"
	@echo "           TORCH_INDEX=https://download.pytorch.org/whl/cpu (make torch from a CPU-only index), NB=book/04_*.ipynb (make book, make matrix),"
	@echo "           JOBS=0 (make test and make check in one process; default: one worker per core)"

venv: $(STAMP) ## create .venv (Python >= 3.10) and pip install -e '.[test,classroom]'; quick once done

$(STAMP): pyproject.toml
	@if [ ! -x $(PY) ]; then \
	  $(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null || { \
	    echo "error: minigrad book needs Python >= 3.10, and '$(PYTHON)' is $$(command -v $(PYTHON) >/dev/null && $(PYTHON) --version 2>&1 || echo 'not found')." >&2; \
	    echo "       Install a newer Python, or name one: make PYTHON=/path/to/python3.11 $(MAKECMDGOALS)" >&2; \
	    exit 1; }; \
	  echo "$(PYTHON) -m venv $(VENV)"; \
	  $(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	    echo "error: '$(PYTHON) -m venv' failed; on Debian/Ubuntu install python3-venv (apt-get install python3-venv)." >&2; \
	    exit 1; }; \
	fi
	@$(PY) -c 'import sys; sys.exit(sys.version_info < (3, 10))' || { \
	  echo "error: $(VENV) has $$($(PY) --version 2>&1), minigrad book needs >= 3.10: run 'make distclean' and retry." >&2; \
	  exit 1; }
	$(PY) -m pip install -e '.[test,classroom]'
	@touch $@

dot: $(STAMP) ## ensure Graphviz dot: system one, else apt-get (root), else graphviz-pure in .venv
	@.ci/ensure-dot $(PY)

lab: venv dot ## set up, then open the book in JupyterLab
	$(IN_VENV) $(VENV)/bin/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) book/

check: venv dot ## set up, then a quick first look (under 3 minutes on 2 cores): core, parity, widgets, 5 chapters
	$(IN_VENV) $(PY) -m pytest $(CHECK_ARGS)

test: venv dot $(if $(filter 1,$(BROWSER)),browser) ## set up, then run the whole suite (pytest + nbval on book/); BROWSER=1 adds browser tests
	$(IN_VENV) $(PY) -m pytest $(PYTEST_ARGS)
ifeq ($(BROWSER),1)
	$(IN_VENV) $(PY) -m pytest $(BROWSER_ARGS)
endif

matrix: venv dot ## strict nbval on the chapters that train under other CPUs' settings (BLAS threads, kernels, numpy SIMD)
	$(IN_VENV) $(PY) .ci/machine_matrix.py $(NB)

book: venv dot ## re-run every notebook in book/ and store its outputs (or NB="book/04_*.ipynb")
	$(IN_VENV) $(PY) .ci/execute_notebooks.py $(NB)

browser: $(BROWSER_STAMP) ## what the browser tests need: Chromium and a CJK font (apt-get as root), Playwright in .venv
	@.ci/ensure-chromium
	@.ci/ensure-cjk-font

$(BROWSER_STAMP): $(STAMP)
	$(PY) -m pip install -e '.[test,classroom,browser]'
	@touch $@

site: venv dot ## build the book as a static site in _site/ (widgets from saved state; offline, file://)
	$(IN_VENV) $(PY) .ci/build_site.py

publish: venv dot ## one deployable folder: the static site in _site/ with the live edition in _site/live/, linked both ways
	$(IN_VENV) $(PY) .ci/build_site.py --live-links
	$(PY) -m lite.build --out _site/live --site-pages $(if $(PYODIDE_DIST),--pyodide-dist '$(PYODIDE_DIST)')

lite: venv ## build the live edition in _lite/: JupyterLite + Pyodide, runs in any browser (PYODIDE_DIST=official dist)
	$(PY) -m lite.build $(if $(PYODIDE_DIST),--pyodide-dist '$(PYODIDE_DIST)')

torch: venv ## install real PyTorch 2.13.0 (CPU build; TORCH_INDEX=url for a CPU-only index) so parity tests run
	$(PY) -m pip install '$(TORCH)' $(if $(TORCH_INDEX),--index-url '$(TORCH_INDEX)')

coverage: torch ## regenerate docs/coverage.md: which public names of torch's namespaces minigrad has, refuses, misses
	$(PY) .ci/coverage_table.py

clean: ## remove caches and build output (keeps .venv)
	rm -rf build dist _site _lite artifacts .pytest_cache .hypothesis *.egg-info
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean ## also remove .venv
	rm -rf $(VENV)
