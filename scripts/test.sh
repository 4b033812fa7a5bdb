#!/usr/bin/env bash
# Set up, then run lint, type checks and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check backend marsa_common mcp_servers tests bench
.venv/bin/mypy backend marsa_common mcp_servers
# As from a developer's shell: the suite must clear these (tests/conftest.py) or fail.
MARSA_LLM=openai:gpt-4o-mini OPENAI_API_KEY=sk-not-for-tests MARSA_EMBEDDER=ollama:none \
  TAVILY_API_KEY=tvly-not-for-tests .venv/bin/pytest -q --durations=15 "$@"
