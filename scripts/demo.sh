#!/usr/bin/env bash
# Set up, then run MARSA's main job on the built-in defaults: no keys, no internet.
# Until the research graph lands, the main job ingests this project's docs/ and searches them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export MARSA_DATA_DIR="${MARSA_DATA_DIR:-$PWD/.marsa}"
.venv/bin/marsa ingest docs/
.venv/bin/marsa search "${1:-How does hybrid search combine BM25 and embeddings?}"
