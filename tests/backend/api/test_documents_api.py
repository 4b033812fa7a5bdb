"""Documents through the API: upload, paste, list, delete; health."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.backend.api.conftest import ApiServer, api_server, docs_server_pid
from tests.mcp_servers.test_document_store_rules import BAD_DOCUMENTS


def test_a_file_upload_is_ingested_and_listed(documents_server: ApiServer) -> None:
    files = {
        "file": ("reef.md", b"# Reefs\n\nCoral reefs grow in warm shallow water.", "text/markdown")
    }
    response = documents_server.client.post("/api/documents", files=files)
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["status"] == "added" and body["chunks"] >= 1
    again = documents_server.client.post("/api/documents", files=files).json()
    assert again["status"] == "unchanged" and again["doc_id"] == body["doc_id"]
    listing = documents_server.client.get("/api/documents").json()
    assert body["doc_id"] in [d["doc_id"] for d in listing["documents"]]


def test_a_pasted_document_keeps_its_url_and_date(documents_server: ApiServer) -> None:
    response = documents_server.client.post(
        "/api/documents",
        json={
            "title": "Kelp",
            "content": "Kelp forests grow in cold water.",
            "source_url": "https://kelp.example.org/",
            "published_date": "2026-10-01",
        },
    )
    assert response.status_code == 201, response.text
    listing = documents_server.client.get("/api/documents", params={"limit": 1000}).json()
    kelp = next(d for d in listing["documents"] if d["doc_id"] == response.json()["doc_id"])
    assert kelp["source_url"] == "https://kelp.example.org/"
    assert kelp["published_date"] == "2026-10-01"


def test_deleting_a_document_removes_it(documents_server: ApiServer) -> None:
    made = documents_server.client.post(
        "/api/documents", json={"title": "Temporary", "content": "Gone soon."}
    ).json()
    deleted = documents_server.client.delete(f"/api/documents/{made['doc_id']}")
    assert deleted.status_code == 200 and deleted.json()["chunks_deleted"] >= 1
    again = documents_server.client.delete(f"/api/documents/{made['doc_id']}")
    assert again.status_code == 404 and "list_documents" in again.json()["detail"]


def test_bad_uploads_are_refused_with_a_reason_and_nothing_is_lost(
    shared_server: ApiServer,
) -> None:
    client = shared_server.client
    before = client.get("/api/documents").json()["total"]
    exe = client.post("/api/documents", files={"file": ("tool.exe", b"MZ...", "application/x")})
    assert exe.status_code == 415 and ".md" in exe.json()["detail"]
    fake_pdf = client.post(
        "/api/documents", files={"file": ("a.pdf", b"not a pdf", "application/pdf")}
    )
    assert fake_pdf.status_code == 422
    empty = client.post("/api/documents", files={"file": ("empty.md", b"", "text/markdown")})
    assert empty.status_code == 422 and "empty" in empty.json()["detail"]
    big = client.post(
        "/api/documents", files={"file": ("big.txt", b"a " * 6_000_000, "text/plain")}
    )
    assert big.status_code == 413 and "MARSA_MAX_UPLOAD_BYTES" in big.json()["detail"]
    no_title = client.post("/api/documents", json={"content": "text"})
    assert no_title.status_code == 422 and "title" in no_title.json()["detail"]
    not_json = client.post(
        "/api/documents", content=b"{oops", headers={"content-type": "application/json"}
    )
    assert not_json.status_code == 422
    plain = client.post("/api/documents", content=b"hello", headers={"content-type": "text/plain"})
    assert plain.status_code == 415
    assert client.get("/api/documents").json()["total"] == before


def test_health_reports_servers_documents_engine_and_database(shared_server: ApiServer) -> None:
    health = shared_server.client.get("/api/health").json()
    servers = {s["server"]: s for s in health["servers"]}
    assert servers["docs"]["status"] == "up" and "search_documents" in servers["docs"]["tools"]
    assert servers["web"]["status"] == "unavailable"
    assert "TAVILY_API_KEY" in servers["web"]["note"]
    assert servers["gate"]["status"] == "up"
    assert health["documents"] >= 3
    assert health["engine"] == "offline"
    assert health["database"].startswith(("sqlite:///", "postgresql://postgres@"))
    assert health["status"] == "ok"


def test_health_says_runs_are_researched_in_the_api_process(shared_server: ApiServer) -> None:
    health = shared_server.client.get("/api/health").json()
    assert health["run_in"] == "api" and health["cluster"] is None


def test_health_shows_a_server_whose_api_cannot_be_reached_as_degraded_with_the_reason(
    shared_server: ApiServer,
) -> None:
    # The servers under test are given GitHub at http://127.0.0.1:9, where nothing listens.
    servers = {s["server"]: s for s in shared_server.client.get("/api/health").json()["servers"]}
    assert servers["github"]["status"] == "degraded"
    assert "http://127.0.0.1:9 cannot be reached" in servers["github"]["note"]
    assert "search_repositories" in servers["github"]["tools"]  # its process answered


def test_health_says_why_a_source_that_is_off_is_unavailable(shared_server: ApiServer) -> None:
    servers = {s["server"]: s for s in shared_server.client.get("/api/health").json()["servers"]}
    assert servers["scholarly"]["status"] == "unavailable"
    assert "MARSA_SCHOLARLY_EMAIL" in servers["scholarly"]["note"]
    assert servers["searxng"]["status"] == "unavailable"
    assert "MARSA_SEARXNG_URL" in servers["searxng"]["note"]


def test_the_page_and_its_assets_are_served_with_a_strict_policy(
    shared_server: ApiServer,
) -> None:
    page = shared_server.client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert shared_server.client.get("/static/app.js").status_code == 200
    docs = shared_server.client.get("/docs")
    assert docs.status_code == 200 and "cdn" not in docs.text.lower()
    assert "/static-offline-docs/swagger-ui-bundle.js" in docs.text
    bundle = shared_server.client.get("/static-offline-docs/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and len(bundle.content) > 100_000


def _chunked(body: bytes, size: int = 256 * 1024) -> Iterator[bytes]:
    """The body in pieces, so httpx sends it with Transfer-Encoding: chunked."""
    for start in range(0, len(body), size):
        yield body[start : start + size]


def test_a_chunked_upload_over_the_limit_is_refused_before_it_is_parsed(
    shared_server: ApiServer,
) -> None:
    # An .exe would be refused (415) once parsed: a 413 means it never got that far.
    boundary = "marsa-boundary"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.exe"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + b"a" * 12_000_000
        + f"\r\n--{boundary}--\r\n".encode()
    )
    response = shared_server.client.post(
        "/api/documents",
        content=_chunked(body),
        headers={"content-type": f"multipart/form-data; boundary={boundary}"},
    )
    assert response.request.headers.get("transfer-encoding") == "chunked"
    assert response.status_code == 413, response.text[:200]
    assert "MARSA_MAX_UPLOAD_BYTES" in response.json()["detail"]


def test_a_chunked_json_document_over_the_limit_is_refused_as_too_large(
    shared_server: ApiServer,
) -> None:
    body = json.dumps({"title": "Huge", "content": "a " * 5_500_000}).encode()
    response = shared_server.client.post(
        "/api/documents", content=_chunked(body), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413, response.text[:200]
    assert "MARSA_MAX_UPLOAD_BYTES" in response.json()["detail"]


def test_a_source_url_that_is_not_a_web_address_is_refused(shared_server: ApiServer) -> None:
    client = shared_server.client
    before = client.get("/api/documents").json()["total"]
    for url in ("javascript:alert(1)", "data:text/html,<b>x</b>", "ftp://files.example/a", "//x"):
        response = client.post(
            "/api/documents", json={"title": "Links", "content": "Text.", "source_url": url}
        )
        assert response.status_code == 422, url
        assert "source_url: " in response.json()["detail"]
        assert "http:// or https://" in response.json()["detail"]
    assert client.get("/api/documents").json()["total"] == before


@pytest.mark.parametrize(("document", "reason"), BAD_DOCUMENTS)
def test_the_api_refuses_what_the_store_refuses(
    shared_server: ApiServer, document: dict[str, Any], reason: str
) -> None:
    client = shared_server.client
    before = client.get("/api/documents").json()["total"]
    response = client.post("/api/documents", json=document)
    assert response.status_code == 422, response.text
    assert reason in response.json()["detail"]
    assert client.get("/api/documents").json()["total"] == before


def test_a_store_killed_before_a_write_is_a_503_to_retry_not_a_bad_request(
    tmp_path: Path,
) -> None:
    with api_server(tmp_path / "home") as server:
        os.kill(docs_server_pid(server), signal.SIGKILL)
        doc = {"title": "Retry me", "content": "Sent while the store was down."}
        response = server.client.post("/api/documents", json=doc)
        assert response.status_code == 503, response.text
        assert response.headers["retry-after"] == "5"
        assert "try again" in response.json()["detail"]
        retried = server.client.post("/api/documents", json=doc)
        assert retried.status_code == 201, retried.text


def test_a_hung_store_is_a_503_that_says_how_long_it_was_waited_for(tmp_path: Path) -> None:
    with api_server(tmp_path / "home", mcp_call_timeout="1") as server:
        pid = docs_server_pid(server)
        os.kill(pid, signal.SIGSTOP)
        try:
            response = server.client.get("/api/documents")
        finally:
            os.kill(pid, signal.SIGCONT)
        assert response.status_code == 503, response.text
        assert response.headers["retry-after"] == "30"
        assert "no answer in 2 tries of 1 s each" in response.json()["detail"]
