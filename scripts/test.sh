#!/usr/bin/env bash
# Set up, then run lint, type checks and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check backend marsa_common mcp_servers tests bench
.venv/bin/mypy backend marsa_common mcp_servers
.venv/bin/pytest -q "$@"
