# physbench: `make demo` runs the main job, `make test` the default test suite.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
# extras installed by `make test`; CI adds `local` so the real-model test runs there
TEST_EXTRAS ?= dev
# pytest selection: the default suite skips tests marked slow; CI passes PYTEST_MARK=""
PYTEST_MARK ?= not slow
PYTEST_ARGS ?=
JOBS ?= 2

.PHONY: demo test test-ci venv install-dev install-local browser clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

venv: $(PY)

install-dev: $(PY)
	$(PIP) install --quiet -e ".[$(TEST_EXTRAS)]"

install-local: $(PY)
	$(PIP) install --quiet -e ".[local]"

# Debian's headless Chromium for the viewer's end-to-end test, installed when missing
browser:
	@command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 || \
	  { (command -v apt-get >/dev/null 2>&1 && (apt-get update -qq && \
	     DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null)) || \
	    echo "note: chromium not installed; the viewer's browser test will be skipped"; }

test: install-dev browser
	$(PY) -m pytest -q -n $(JOBS) -m "$(PYTEST_MARK)" $(PYTEST_ARGS)

demo: install-local
	$(PY) -m physbench demo --run-dir runs/demo

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache
