#!/usr/bin/env bash
# Create .venv with the locked dependencies and MARSA itself. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "MARSA needs Python 3.11 or newer (found: $("$PYTHON" --version 2>&1))" >&2
  exit 1
fi
if ! "$PYTHON" -m uv --version >/dev/null 2>&1; then
  "$PYTHON" -m pip install --quiet --disable-pip-version-check "uv==0.13.9"
fi
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m uv venv --quiet --python "$PYTHON" .venv
  touch .venv/.bytecode-compiled  # everything is installed below, with --compile-bytecode
fi
# Byte-compiled at install: uv does not by default, and where PYTHONDONTWRITEBYTECODE is set
# (as on CI) every process would compile langgraph, SQLAlchemy, FastAPI… from source again,
# seconds of each `marsa` start.
"$PYTHON" -m uv pip install --quiet --compile-bytecode --python .venv/bin/python \
  -r requirements.lock
"$PYTHON" -m uv pip install --quiet --python .venv/bin/python --no-deps -e .
if [ ! -e .venv/.bytecode-compiled ]; then
  # A .venv made before this script compiled: compile what it holds, once.
  .venv/bin/python -m compileall -q -j 0 \
    "$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" >/dev/null
  touch .venv/.bytecode-compiled
fi
# MARSA's own code is installed editable, so the above compiled none of it: compile it here
# (quick; stale files are compiled again by their timestamps). Where PYTHONDONTWRITEBYTECODE
# is set (CI), every MARSA process (a server, a CLI run, a worker) compiled backend/ from
# source again: about half a CPU-second each, over the hundreds the tests start.
.venv/bin/python -m compileall -q -j 0 backend marsa_common mcp_servers >/dev/null
echo "setup: .venv ready ($(.venv/bin/python --version))" >&2
