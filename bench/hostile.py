"""The hostile test, kept: attack a real `marsa serve` and print what it survived.

    .venv/bin/python -m bench.hostile [--examples 10] [--kills 3]

1. schemathesis, every check, against the OpenAPI schema (deterministic data, bounded);
2. faults with real processes: kill -9 of the document-store server while a large upload
   replaces a document, then check that the document is still listed and searchable
   (the old version or the new one, never neither) and that the next upload repairs it;
3. a secrets grep: the API's environment holds fake keys; the logs, the data directory and
   every export of a finished run are searched for them.

Prints one line per figure: cases tried, failures, faults survived, documents lost, secrets
found. Exit status 1 when anything failed, was lost or leaked. Nothing leaves the machine:
the data directory is temporary, GitHub points at a closed port, and there is no web key.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from tests.backend.api.conftest import ApiServer, api_server, docs_server_pid
from tests.backend.api.test_openapi_contract import run_schemathesis

FAKE_SECRETS = {
    "api_token": "hostile-api-token-5f1c9a",
    "llm_api_key": "hostile-llm-key-77aa01",
}
"""Given to the API as MARSA_ settings: they must never appear in a log, file or export."""


def schemathesis_pass(server: ApiServer, examples: int, report: Path) -> tuple[int, int, str]:
    token = {"Authorization": f"Bearer {FAKE_SECRETS['api_token']}"}
    code, output = run_schemathesis(server.url, examples, report, headers=token, timeout=3600)
    tried = re.search(r"(\d+) generated", output)
    failed = re.search(r"(\d+) unique failures", output)
    cases = int(tried.group(1)) if tried else 0
    failures = int(failed.group(1)) if failed else (0 if code == 0 else 1)
    return cases, failures, output


def wait_docs_chunks(client: httpx.Client, doc_id: str, deadline_s: float = 60.0) -> int:
    """Chunks of the document as listed, once the store answers again (0: not listed)."""
    end = time.monotonic() + deadline_s
    while True:
        response = client.get("/api/documents", params={"limit": 1000})
        if response.status_code == 200:
            listed = {d["doc_id"]: d["chunks"] for d in response.json()["documents"]}
            return int(listed.get(doc_id, 0))
        if time.monotonic() > end:
            raise TimeoutError(f"the store did not answer again: {response.text[:200]}")
        time.sleep(0.2)


def kill_during_replace(server: ApiServer, attempt: int) -> tuple[bool, bool, bool, str]:
    """Upload a file, then a larger version of it, kill -9 the store mid-way; (survived,
    lost, acknowledged-but-lost, what happened): survived when the API answered, the
    document is still listed and the next upload repairs it; lost when the document is
    listed by neither version; acknowledged-but-lost when the upload answered 201 and the
    store shows another number of chunks after the kill (the write was not durable)."""
    client = server.client
    name = f"volcano-{attempt}.md"
    old = "# Volcanoes\n\n" + "Basalt flows cool into columns. " * 400
    first = client.post("/api/documents", files={"file": (name, old.encode(), "text/markdown")})
    first.raise_for_status()
    doc_id = first.json()["doc_id"]
    new = "# Volcanoes\n\n" + "Obsidian forms when lava cools fast. " * 8_000
    pid = docs_server_pid(server)
    with httpx.Client(base_url=server.url, timeout=600, headers=client.headers) as uploader:
        answer: dict[str, Any] = {}

        def upload() -> None:
            files = {"file": (name, new.encode(), "text/markdown")}
            answer["response"] = uploader.post("/api/documents", files=files)

        thread = threading.Thread(target=upload)
        thread.start()
        time.sleep(1.0 + attempt)  # a different point of the replacement each time
        os.kill(pid, signal.SIGKILL)
        thread.join(timeout=600)
    response = answer.get("response")
    status = response.status_code if response is not None else 0
    body = response.json() if status == 201 else {}
    written = body.get("chunks")
    chunks = wait_docs_chunks(client, doc_id)
    # The next upload repairs a cut replacement (or finds the new version whole).
    again = client.post(
        "/api/documents", files={"file": (name, new.encode(), "text/markdown")}, timeout=600
    )
    repaired = again.status_code == 201 and wait_docs_chunks(client, doc_id) > 0
    survived = status in (201, 503) and chunks > 0 and repaired
    # An answer naming another document is no answer for this file either.
    unacknowledged = written is not None and (chunks != written or body["doc_id"] != doc_id)
    seen = (
        f"upload answered {status}"
        + (f" {body['status']} ({written} chunks)" if written else "")
        + f", {chunks} chunks listed after the kill, the next upload: "
        + (again.json()["status"] if again.status_code == 201 else str(again.status_code))
    )
    return survived, chunks == 0, unacknowledged, seen


def secrets_found(home: Path, server: ApiServer) -> list[str]:
    """Places under the data directory, and exports of a finished run, that hold a secret."""
    client = server.client
    run = client.post(
        "/api/research", json={"query": "How do volcanoes form?", "sources": ["docs"]}
    ).json()
    end = time.monotonic() + 120
    while client.get(f"/api/research/{run['id']}").json()["status"] not in ("done", "failed"):
        if time.monotonic() > end:
            break
        time.sleep(0.5)
    places: list[tuple[str, bytes]] = []
    for kind in ("md", "json", "pdf"):
        response = client.get(f"/api/research/{run['id']}/report.{kind}")
        places.append((f"report.{kind}", response.content))
    for path in home.rglob("*"):
        if path.is_file():
            places.append((str(path.relative_to(home)), path.read_bytes()))
    return [
        where
        for where, data in places
        for secret in FAKE_SECRETS.values()
        if secret.encode() in data
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=10, help="schemathesis cases per operation")
    parser.add_argument("--kills", type=int, default=3, help="kill -9 faults to inject")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="marsa-hostile-") as tmp:
        home = Path(tmp) / "home"
        with api_server(home, max_active_runs="1", sse_max_seconds="3", **FAKE_SECRETS) as server:
            cases, failures, output = schemathesis_pass(server, args.examples, Path(tmp) / "st")
            survived = lost = undurable = 0
            for attempt in range(args.kills):
                ok, gone, reverted, seen = kill_during_replace(server, attempt)
                undurable += reverted
                print(f"fault {attempt + 1}: kill -9 after {1 + attempt} s: {seen}")
                survived += ok
                lost += gone
            leaks = secrets_found(home, server)
    print(f"schemathesis cases tried: {cases}")
    print(f"schemathesis failures: {failures}")
    print(f"faults survived (kill -9 of the docs server mid-replace): {survived}/{args.kills}")
    print(f"documents lost: {lost}")
    print(f"uploads answered 201 whose version was gone after the kill: {undurable}")
    print(f"secrets found in logs, data dir and exports: {len(leaks)} {sorted(set(leaks))}")
    if failures:
        print(output[-4000:], file=sys.stderr)
    return 1 if failures or lost or undurable or leaks or survived < args.kills else 0


if __name__ == "__main__":
    sys.exit(main())
