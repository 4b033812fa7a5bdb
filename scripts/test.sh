#!/usr/bin/env bash
# Set up, then run lint, type checks and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check backend marsa_common mcp_servers tests bench
# mypy (about 40 s on one core) runs beside the tests, whose two workers often wait on the
# servers they start; its verdict is waited for and shown after them.
mypy_log=$(mktemp)
.venv/bin/mypy backend marsa_common mcp_servers >"$mypy_log" 2>&1 &
mypy_pid=$!
# As from a developer's shell: the suite must clear these (tests/conftest.py) or fail.
# Two workers, a test file each at a time (module and package fixtures stay shared within
# a file): most tests start real servers and wait on them, so one process used about 1.2 of
# two cores; two took 668 s where one took 957 s (docs/journal/answers.md, "Eighteenth pass").
# MARSA_TEST_WORKERS=0 runs them in one process.
# Which files go together to a worker, and in what order: tests/conftest.py.
status=0
MARSA_LLM=openai:gpt-4o-mini OPENAI_API_KEY=sk-not-for-tests MARSA_EMBEDDER=ollama:none \
  TAVILY_API_KEY=tvly-not-for-tests .venv/bin/pytest -q --durations=15 \
  -n "${MARSA_TEST_WORKERS:-2}" --dist loadfile "$@" || status=$?
mypy_status=0
wait "$mypy_pid" || mypy_status=$?
cat "$mypy_log"
rm -f "$mypy_log"
[ "$mypy_status" -eq 0 ] || { echo "mypy failed" >&2; exit "$mypy_status"; }
exit "$status"
