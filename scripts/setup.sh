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
fi
"$PYTHON" -m uv pip install --quiet --python .venv/bin/python -r requirements.lock
"$PYTHON" -m uv pip install --quiet --python .venv/bin/python --no-deps -e .
echo "setup: .venv ready ($(.venv/bin/python --version))" >&2
