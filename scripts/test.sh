#!/usr/bin/env bash
# Set up, then run lint, type checks and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check backend marsa_common mcp_servers tests bench
.venv/bin/mypy backend marsa_common mcp_servers
# As from a developer's shell: the suite must clear these (tests/conftest.py) or fail.
# Two workers, a test file each at a time (module and package fixtures stay shared within
# a file): most tests start real servers and wait on them, so one process used about 1.2 of
# two cores; two took 668 s where one took 957 s (docs/journal/answers.md, "Eighteenth pass").
# MARSA_TEST_WORKERS=0 runs them in one process.
MARSA_LLM=openai:gpt-4o-mini OPENAI_API_KEY=sk-not-for-tests MARSA_EMBEDDER=ollama:none \
  TAVILY_API_KEY=tvly-not-for-tests .venv/bin/pytest -q --durations=15 \
  -n "${MARSA_TEST_WORKERS:-2}" --dist loadfile "$@"
