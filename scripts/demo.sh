#!/usr/bin/env bash
# Set up, then run MARSA's main job on the built-in defaults: a research run with the offline
# engine over the local document store (no keys, no internet). On first use the store is
# empty, so MARSA ingests its own docs/ and researches those; ask your own question as $1.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export MARSA_DATA_DIR="${MARSA_DATA_DIR:-$PWD/.marsa}"
.venv/bin/marsa research "${1:-How does MARSA check that the citations in its reports are real?}"
