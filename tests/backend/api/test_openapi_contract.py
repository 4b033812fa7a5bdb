"""The OpenAPI schema says what the API does: schemathesis, every check, against a real
`marsa serve` (real MCP servers, a temporary data directory), bounded and reproducible."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.backend.api.conftest import ApiServer, api_server

CONFIG = Path(__file__).with_name("schemathesis.toml")


def run_schemathesis(
    url: str,
    max_examples: int,
    report_dir: Path,
    headers: dict[str, str] | None = None,
    timeout: float = 240,
) -> tuple[int, str]:
    """``schemathesis run`` with every check, deterministic data, one worker; (code, output)."""
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(CONFIG),
        "run",
        f"{url}/openapi.json",
        "--checks",
        "all",
        "--max-examples",
        str(max_examples),
        "--generation-deterministic",
        "--workers",
        "1",
        "--request-timeout",
        "20",
        "--no-color",
        "--report-dir",
        str(report_dir),
        *[arg for name, value in (headers or {}).items() for arg in ("-H", f"{name}: {value}")],
    ]
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=report_dir.parent,
            check=False,
        )
    except subprocess.TimeoutExpired as late:
        said = [part for part in (late.stdout, late.stderr) if part]
        text = "".join(p.decode(errors="replace") if isinstance(p, bytes) else p for p in said)
        return -1, f"schemathesis did not finish in {late.timeout} s; it printed:\n{text}"
    return done.returncode, done.stdout + done.stderr


def test_schemathesis_with_every_check_finds_no_failure(tmp_path: Path) -> None:
    # One run at a time: the runs the fuzzer starts must not take the machine's CPU. A run
    # it starts for plan review waits for ever; its event stream is closed after 3 s.
    with api_server(tmp_path / "home", max_active_runs="1", sse_max_seconds="3") as server:
        code, output = run_schemathesis(server.url, 3, tmp_path / "report")
    summary = re.search(r"(\d+) generated, (\d+) passed", output)
    assert code == 0 and summary, output[-6000:]
    assert int(summary.group(1)) >= 100, output[-2000:]


def test_a_method_a_path_lacks_is_refused_with_every_method_it_has(
    shared_server: ApiServer,
) -> None:
    response = shared_server.client.request("OPTIONS", "/api/research/000000000000")
    assert response.status_code == 405
    assert response.headers["allow"] == "DELETE, GET, HEAD"
    assert "allowed: DELETE, GET, HEAD" in response.json()["detail"]


def test_the_schema_declares_the_error_bodies_the_api_sends(shared_server: ApiServer) -> None:
    schema = shared_server.client.get("/openapi.json").json()
    start = schema["paths"]["/api/research"]["post"]
    invalid = start["responses"]["422"]["content"]["application/json"]["schema"]
    assert invalid == {"$ref": "#/components/schemas/ValidationErrorBody"}
    body = schema["components"]["schemas"]["ValidationErrorBody"]["properties"]
    assert body["detail"]["type"] == "string" and body["errors"]["type"] == "array"
    events = schema["paths"]["/api/research/{run_id}/events"]["get"]["responses"]
    assert list(events["404"]["content"]) == ["application/json"]
    upload = schema["paths"]["/api/documents"]["post"]["responses"]
    assert {"400", "403", "413", "415", "422", "503"} <= set(upload)
    assert "Retry-After" in upload["503"]["headers"]


def test_an_empty_source_list_is_invalid_in_the_schema_and_refused(
    shared_server: ApiServer,
) -> None:
    schema = shared_server.client.get("/openapi.json").json()
    sources = schema["components"]["schemas"]["ResearchRequest"]["properties"]["sources"]
    array = next(b for b in sources["anyOf"] if b.get("type") == "array")
    assert array["minItems"] == 1
    assert array["items"]["enum"] == ["docs", "gate", "github", "scholarly", "searxng", "web"]
    response = shared_server.client.post("/api/research", json={"query": "q", "sources": []})
    assert response.status_code == 422 and response.json()["errors"][0]["loc"][-1] == "sources"


def test_a_source_that_is_configured_but_not_available_is_a_conflict(
    shared_server: ApiServer,
) -> None:
    response = shared_server.client.post("/api/research", json={"query": "q", "sources": ["web"]})
    assert response.status_code == 409, response.text
    assert "available: " in response.json()["detail"]


def test_a_whole_number_written_with_a_decimal_point_is_a_valid_integer(
    shared_server: ApiServer,
) -> None:
    response = shared_server.client.post(
        "/api/research",
        json={"query": "When do spring tides happen?", "sources": ["docs"], "max_iterations": 1.0},
    )
    assert response.status_code == 202, response.text
    refused = shared_server.client.post(
        "/api/research", json={"query": "q", "sources": ["docs"], "max_iterations": "1"}
    )
    assert refused.status_code == 422
