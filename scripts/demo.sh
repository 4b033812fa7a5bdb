#!/usr/bin/env bash
# Set up, then run MARSA's main job on the built-in defaults: the web UI and REST API at
# http://127.0.0.1:8000 with the offline engine over the local document store (no keys, no
# internet). On first start the store is empty, so MARSA ingests its own docs/ to research.
# `bash scripts/demo.sh "a question"` instead runs one research in the terminal.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export MARSA_DATA_DIR="${MARSA_DATA_DIR:-$PWD/.marsa}"
mkdir -p "$MARSA_DATA_DIR"  # (research refuses a MARSA_DATA_DIR that does not exist: a typo)
if [ $# -gt 0 ]; then
  exec .venv/bin/marsa research "$1"
fi
exec .venv/bin/marsa serve --port "${MARSA_PORT:-8000}" --open
