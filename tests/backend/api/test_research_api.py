"""A research run through the REST API: start, follow, review, cancel, restart, resume."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from backend.config import Settings
from backend.graph.builder import build_graph
from backend.graph.result import RunResult
from backend.graph.run import initial_state
from backend.persistence import RunStore, database_target, open_checkpointer
from tests.backend.api.conftest import (
    API_TOKEN,
    CORS_ORIGIN,
    QUESTION,
    ApiServer,
    Restartable,
    api_server,
    ingest_corpus,
    read_sse,
)

AGENTS = {"planner", "researcher", "fact_checker", "synthesizer"}


def test_a_run_goes_from_post_to_its_final_event_with_a_cited_report(
    shared_server: ApiServer,
) -> None:
    run = shared_server.research()
    assert run["status"] == "queued"
    stream = read_sse(shared_server.client, f"/api/research/{run['id']}/events")
    trace = [e["data"] for e in stream.of("trace")]
    assert [e["seq"] for e in trace] == list(range(1, len(trace) + 1))
    assert [e["id"] for e in stream.of("trace")] == [e["seq"] for e in trace]
    assert {e["node"] for e in trace if e["kind"] == "node_end"} == AGENTS
    assert any(e["kind"] == "tool_call" and e["data"]["server"] == "docs" for e in trace)
    assert stream.events[-1] == {"event": "end", "id": None, "data": {"status": "done"}}

    detail = shared_server.client.get(f"/api/research/{run['id']}").json()
    assert detail["status"] == "done" and detail["answer"]
    assert isinstance(detail["answer_found"], bool)
    assert "full moon" in detail["report"]
    sources = {s["id"]: s for s in detail["sources"]}
    for source in sources.values():
        assert {"domain", "recency", "depth"} <= set(source["score_breakdown"])
    assert detail["citations"] and detail["citation_check"]["removed"] == 0
    for citation in detail["citations"]:
        assert citation["source_id"] in sources
        assert f'href="#src-{citation["source_id"]}"' in detail["report_html"]
    assert {c["verdict"] for c in detail["claims"]} <= {"supported", "contradicted", "unverifiable"}
    assert set(detail["timings"]) >= AGENTS | {"total"}
    # The detail carries the run's typed result: every field of it a detail has, valid.
    shown = {k: detail[k] for k in RunResult.model_fields if k in detail}
    assert set(shown) >= {"sources", "claims", "report", "citations", "timings", "engine"}
    assert RunResult.model_validate({**shown, "run_id": run["id"]}).sources


def test_a_run_the_sources_do_not_answer_says_so_in_its_detail_and_in_the_history(
    tmp_path: Path, database_url: str
) -> None:
    module = "tests.backend.api.no_answer_serve"
    with api_server(tmp_path / "home", database_url, module=module) as server:
        ingest_corpus(server)
        run = server.research("What is the boiling point of mercury?")
        detail = server.wait_status(run["id"], {"done", "failed"})
        history = server.client.get("/api/research").json()["items"]
    assert detail["status"] == "done" and detail["engine"] == "no-answer"
    assert detail["answer_found"] is False and detail["answer"] == "The sources do not say."
    assert [(item["id"], item["answer_found"]) for item in history] == [(run["id"], False)]


def test_reconnecting_with_last_event_id_replays_only_the_missed_events(
    shared_server: ApiServer,
) -> None:
    run = shared_server.research()
    path = f"/api/research/{run['id']}/events"
    first = read_sse(shared_server.client, path, until=lambda e: e["id"] == 3)
    assert [e["id"] for e in first.of("trace")] == [1, 2, 3]
    rest = read_sse(shared_server.client, path, headers={"Last-Event-ID": "3"})
    ids = [e["id"] for e in rest.of("trace")]
    assert ids[0] == 4 and ids == list(range(4, 4 + len(ids)))
    assert rest.events[-1]["data"] == {"status": "done"}
    replay = read_sse(shared_server.client, f"{path}?after={ids[-1] - 1}")
    assert [e["id"] for e in replay.of("trace")] == [ids[-1]]


def test_a_late_client_gets_every_event_then_the_end(shared_server: ApiServer) -> None:
    run = shared_server.research()
    shared_server.wait_status(run["id"], {"done"})
    stream = read_sse(shared_server.client, f"/api/research/{run['id']}/events")
    kinds = [e["data"]["kind"] for e in stream.of("trace")]
    assert kinds[0] == "run_start" and kinds[-1] == "run_end"
    assert stream.events[-1]["event"] == "end"


def test_plan_review_pauses_after_the_planner_and_resumes_with_the_edited_plan(
    shared_server: ApiServer,
) -> None:
    run = shared_server.research("What are spring tides and neap tides?", review_plan=True)
    waiting = shared_server.wait_status(run["id"], {"awaiting_review"})
    assert waiting["sub_queries"] and waiting["plan"]
    # While it waits, the stream stays open with heartbeats and says why.
    stream = read_sse(
        shared_server.client,
        f"/api/research/{run['id']}/events",
        until=lambda e: e["event"] == "status" and e["data"]["status"] == "awaiting_review",
    )
    assert not any(e["data"]["node"] == "researcher" for e in stream.of("trace"))
    edited = {"sub_queries": [{"text": "neap tides quarter moons", "sources": ["docs"]}]}
    response = shared_server.client.post(f"/api/research/{run['id']}/plan", json=edited)
    assert response.status_code == 202, response.text
    done = shared_server.wait_status(run["id"], {"done", "failed"})
    assert done["status"] == "done"
    assert done["sub_queries"][0]["text"] == "neap tides quarter moons"
    assert done["sub_queries"][0]["purpose"] == "reviewed"
    assert "neap" in done["report"].lower()


def test_approving_a_plan_unchanged_runs_the_planners_sub_queries(
    shared_server: ApiServer,
) -> None:
    run = shared_server.research(review_plan=True)
    waiting = shared_server.wait_status(run["id"], {"awaiting_review"})
    response = shared_server.client.post(f"/api/research/{run['id']}/plan", json={})
    assert response.status_code == 202
    done = shared_server.wait_status(run["id"], {"done", "failed"})
    assert done["status"] == "done"
    assert [q["text"] for q in done["sub_queries"]][: len(waiting["sub_queries"])] == [
        q["text"] for q in waiting["sub_queries"]
    ]


def test_a_waiting_run_keeps_its_stream_open_with_heartbeats(shared_server: ApiServer) -> None:
    run = shared_server.research(review_plan=True)
    shared_server.wait_status(run["id"], {"awaiting_review"})
    stream = read_sse(
        shared_server.client,
        f"/api/research/{run['id']}/events",
        heartbeats=3,
        deadline_s=30,
    )
    assert stream.heartbeats == 3
    assert stream.of("status")[-1]["data"] == {"status": "awaiting_review"}
    assert not stream.of("end")
    shared_server.client.post(f"/api/research/{run['id']}/cancel")


def test_a_stream_open_longer_than_the_limit_is_closed_and_a_reconnect_goes_on(
    tmp_path: Path,
) -> None:
    # A run awaiting review can wait for days; its stream is not held open that long.
    with api_server(tmp_path / "home", sse_max_seconds="2") as server:
        run = server.research(review_plan=True)
        server.wait_status(run["id"], {"awaiting_review"})
        path = f"/api/research/{run['id']}/events"
        started = time.monotonic()
        first = read_sse(server.client, path, deadline_s=30)
        took = time.monotonic() - started
        assert 2 <= took < 10 and not first.of("end")
        assert first.of("status")[-1]["data"] == {"status": "awaiting_review"}
        last = first.of("trace")[-1]["id"]
        again = read_sse(server.client, path, headers={"Last-Event-ID": str(last)}, deadline_s=30)
        assert not again.of("trace") and not again.of("end")
        assert again.of("status")[-1]["data"] == {"status": "awaiting_review"}
        server.client.post(f"/api/research/{run['id']}/cancel")
        ended = read_sse(server.client, path, headers={"Last-Event-ID": str(last)}, deadline_s=30)
    assert ended.events[-1] == {"event": "end", "id": None, "data": {"status": "cancelled"}}


def test_a_plan_review_of_a_run_that_is_not_waiting_is_refused(shared_server: ApiServer) -> None:
    run = shared_server.research()
    shared_server.wait_status(run["id"], {"done"})
    response = shared_server.client.post(f"/api/research/{run['id']}/plan", json={})
    assert response.status_code == 409
    assert "not awaiting_review" in response.json()["detail"]


def test_cancel_stops_a_running_run_and_ends_its_stream(shared_server: ApiServer) -> None:
    shared_server.gate.touch()
    try:
        run = shared_server.research(sources=["docs", "gate"])
        shared_server.wait_event(run["id"], "node_start", "researcher")
        response = shared_server.client.post(f"/api/research/{run['id']}/cancel")
        assert response.status_code == 200
        assert response.json()["status"] == "cancelled"
    finally:
        shared_server.gate.unlink()
    stream = read_sse(shared_server.client, f"/api/research/{run['id']}/events")
    assert stream.events[-1]["data"] == {"status": "cancelled"}
    again = shared_server.client.post(f"/api/research/{run['id']}/cancel")
    assert again.status_code == 409


def test_history_and_reports_come_back_after_a_restart(restartable: Restartable) -> None:
    server = restartable.current()
    run = server.research()
    before = server.wait_status(run["id"], {"done"})
    events_before = read_sse(server.client, f"/api/research/{run['id']}/events")
    history_before = server.client.get("/api/research").json()
    assert history_before["items"][0]["id"] == run["id"]
    restartable.stop()
    server = restartable.current()
    # The whole history as it was: this run and the module's earlier ones, none lost,
    # none added, none changed.
    assert server.client.get("/api/research").json() == history_before
    after = server.client.get(f"/api/research/{run['id']}").json()
    assert after["report"] == before["report"] and after["claims"] == before["claims"]
    events_after = read_sse(server.client, f"/api/research/{run['id']}/events")
    assert events_after.of("trace") == events_before.of("trace")
    markdown = server.client.get(f"/api/research/{run['id']}/report.md")
    assert markdown.status_code == 200 and before["report"] in markdown.text


def test_a_run_killed_mid_research_is_interrupted_after_restart_and_resumes(
    restartable: Restartable,
) -> None:
    server = restartable.current()
    server.gate.touch()
    run = server.research(sources=["docs", "gate"])
    server.wait_event(run["id"], "node_start", "researcher")
    restartable.stop(kill=True)  # no goodbye: the run is left "running" in the database
    server.gate.unlink()
    server = restartable.current()
    interrupted = server.client.get(f"/api/research/{run['id']}").json()
    assert interrupted["status"] == "interrupted"
    assert "resume" in interrupted["error"]
    response = server.client.post(f"/api/research/{run['id']}/resume")
    assert response.status_code == 202, response.text
    stream = read_sse(server.client, f"/api/research/{run['id']}/events")
    done = server.client.get(f"/api/research/{run['id']}").json()
    trace = [e["data"] for e in stream.of("trace")]
    assert [e["seq"] for e in trace] == list(range(1, len(trace) + 1))
    # The planner ran once: the resumed run went on from the checkpoint after it.
    assert sum(e["message"] == "planning the research" for e in trace) == 1
    assert any(e["data"].get("resumed") for e in trace if e["kind"] == "run_start")
    assert done["status"] == "done"
    assert any(s["server"] == "gate" for s in done["sources"])


@pytest.mark.parametrize("restartable", ["sqlite"], indirect=True)
def test_a_run_stopped_gracefully_is_interrupted_too(restartable: Restartable) -> None:
    server = restartable.current()
    server.gate.touch()
    run = server.research(sources=["gate"])
    server.wait_event(run["id"], "node_start", "researcher")
    restartable.stop()
    server.gate.unlink()
    server = restartable.current()
    assert server.client.get(f"/api/research/{run['id']}").json()["status"] == "interrupted"


def test_history_is_newest_first_paged_and_searchable(shared_server: ApiServer) -> None:
    marker = "zebrafish"
    ids = [shared_server.research(f"{QUESTION} {marker} {i}")["id"] for i in range(3)]
    for run_id in ids:
        shared_server.wait_status(run_id, {"done"})
    page = shared_server.client.get("/api/research", params={"q": marker, "limit": 2}).json()
    assert page["total"] == 3
    assert [item["id"] for item in page["items"]] == ids[::-1][:2]
    rest = shared_server.client.get(
        "/api/research", params={"q": marker, "limit": 2, "offset": 2}
    ).json()
    assert [item["id"] for item in rest["items"]] == [ids[0]]
    none = shared_server.client.get("/api/research", params={"q": "100%_"}).json()
    assert none["total"] == 0


def test_deleting_a_run_removes_it_and_its_events(shared_server: ApiServer) -> None:
    run = shared_server.research()
    shared_server.wait_status(run["id"], {"done"})
    assert shared_server.client.delete(f"/api/research/{run['id']}").status_code == 204
    assert shared_server.client.get(f"/api/research/{run['id']}").status_code == 404
    assert shared_server.client.get(f"/api/research/{run['id']}/events").status_code == 404
    ids = [i["id"] for i in shared_server.client.get("/api/research").json()["items"]]
    assert run["id"] not in ids


def test_reports_export_as_markdown_json_and_pdf(shared_server: ApiServer) -> None:
    run = shared_server.research()
    done = shared_server.wait_status(run["id"], {"done"})
    base = f"/api/research/{run['id']}"
    markdown = shared_server.client.get(f"{base}/report.md")
    assert markdown.headers["content-type"].startswith("text/markdown")
    assert markdown.text.startswith(f"# {QUESTION}") and done["report"] in markdown.text
    as_json = shared_server.client.get(f"{base}/report.json").json()
    assert as_json["report"] == done["report"] and as_json["trace"][0]["kind"] == "run_start"
    pdf = shared_server.client.get(f"{base}/report.pdf")
    assert pdf.headers["content-type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF-") and len(pdf.content) > 1000
    assert 'attachment; filename="marsa-' in pdf.headers["content-disposition"]


def test_the_markdown_export_carries_a_documents_script_tag_as_text(tmp_path: Path) -> None:
    # In the title too: the report lists its sources by title, as the documents give them.
    hostile = {
        "title": "Tide tables <script>alert(1)</script>",
        "content": "# Tide tables\n\nSpring tides <script>alert(1)</script> come a day or two "
        "after the full moon, the tide tables say.",
    }
    with api_server(tmp_path / "home") as server:
        assert server.client.post("/api/documents", json=hostile).status_code == 201
        run = server.research("When do spring tides come after the full moon?")
        done = server.wait_status(run["id"], {"done"})
        markdown = server.client.get(f"/api/research/{run['id']}/report.md").text
    assert "<script>alert(1)</script>" in done["report"]  # the report carries the document's
    assert "<script" not in markdown and "&lt;script>alert(1)&lt;/script>" in markdown
    assert "## Answer" in markdown and "[1]" in markdown


def test_bad_requests_get_a_message_a_person_can_act_on(shared_server: ApiServer) -> None:
    client = shared_server.client
    too_long = client.post("/api/research", json={"query": "x" * 2001})
    assert too_long.status_code == 422 and "query" in too_long.json()["detail"]
    blank = client.post("/api/research", json={"query": "   "})
    assert blank.status_code == 422
    unknown = client.post("/api/research", json={"query": QUESTION, "sources": ["nope"]})
    assert unknown.status_code == 422 and "configured: docs" in unknown.json()["detail"]
    down = client.post("/api/research", json={"query": QUESTION, "sources": ["web"]})
    assert down.status_code == 409 and "available" in down.json()["detail"]
    rounds = client.post("/api/research", json={"query": QUESTION, "max_iterations": 21})
    assert rounds.status_code == 422 and "max_iterations" in rounds.json()["detail"]
    missing = client.get("/api/research/0123456789ab")
    assert missing.status_code == 404 and "GET /api/research" in missing.json()["detail"]
    no_events = client.get("/api/research/0123456789ab/events")
    assert no_events.status_code == 404


def test_exports_wait_for_the_report(shared_server: ApiServer) -> None:
    run = shared_server.research(review_plan=True)
    shared_server.wait_status(run["id"], {"awaiting_review"})
    response = shared_server.client.get(f"/api/research/{run['id']}/report.pdf")
    assert response.status_code == 409 and "no report yet" in response.json()["detail"]
    cancelled = shared_server.client.post(f"/api/research/{run['id']}/cancel")
    assert cancelled.json()["status"] == "cancelled"
    stream = read_sse(shared_server.client, f"/api/research/{run['id']}/events")
    assert stream.events[-1]["data"] == {"status": "cancelled"}


def test_with_a_token_every_api_route_asks_for_it(token_server: ApiServer) -> None:
    with httpx.Client(base_url=token_server.url, timeout=30) as bare:
        for path in ("/api/health", "/api/research", "/api/documents"):
            response = bare.get(path)
            assert response.status_code == 401, path
            assert "Bearer" in response.json()["detail"]
        wrong = bare.get("/api/research", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        assert bare.get("/").status_code == 200  # the page itself asks for the token
        assert token_server.client.get("/api/health").status_code == 200
        run = token_server.research(review_plan=True)
        stream = read_sse(
            bare,
            f"/api/research/{run['id']}/events?access_token={API_TOKEN}",
            until=lambda e: e["event"] == "status" and e["data"]["status"] == "awaiting_review",
        )
        assert stream.of("trace")
        # The query-string token is for reading only (streams, downloads).
        sneaky = bare.post(f"/api/research/{run['id']}/cancel?access_token={API_TOKEN}")
        assert sneaky.status_code == 401


def test_cors_origins_are_configurable(token_server: ApiServer) -> None:
    allowed = token_server.client.options(
        "/api/research",
        headers={"Origin": CORS_ORIGIN, "Access-Control-Request-Method": "POST"},
    )
    other = token_server.client.get("/api/health", headers={"Origin": "http://evil.example"})
    assert allowed.headers["access-control-allow-origin"] == CORS_ORIGIN
    assert "access-control-allow-origin" not in other.headers


def test_two_plan_posts_at_once_start_one_run(shared_server: ApiServer) -> None:
    run = shared_server.research(review_plan=True)
    shared_server.wait_status(run["id"], {"awaiting_review"})
    path = f"{shared_server.url}/api/research/{run['id']}/plan"

    async def both() -> list[int]:
        async with httpx.AsyncClient(timeout=60) as client:
            answers = await asyncio.gather(
                client.post(path, json={}),
                client.post(path, json={"sub_queries": [{"text": "neap tides"}]}),
            )
        return sorted(a.status_code for a in answers)

    assert asyncio.run(both()) == [202, 409]
    done = shared_server.wait_status(run["id"], {"done", "failed"})
    assert done["status"] == "done"
    trace = read_sse(shared_server.client, f"/api/research/{run['id']}/events").of("trace")
    assert [e["id"] for e in trace] == list(range(1, len(trace) + 1))


def test_a_run_cancelled_right_after_it_was_posted_ends_cancelled(
    shared_server: ApiServer,
) -> None:
    # The gate holds every run in its search: none can finish before its cancel lands.
    shared_server.gate.touch()
    try:
        for _ in range(3):
            run = shared_server.research(sources=["gate"])
            answer = shared_server.client.post(f"/api/research/{run['id']}/cancel")
            assert answer.status_code == 200, answer.text
            assert answer.json()["status"] == "cancelled"
            stream = read_sse(
                shared_server.client, f"/api/research/{run['id']}/events", deadline_s=30
            )
            assert stream.events[-1]["event"] == "end"
            assert stream.events[-1]["data"] == {"status": "cancelled"}
            final = shared_server.client.get(f"/api/research/{run['id']}").json()
            assert final["status"] == "cancelled"
    finally:
        shared_server.gate.unlink()


def test_a_plan_post_with_no_body_approves_the_plan(shared_server: ApiServer) -> None:
    run = shared_server.research(review_plan=True)
    shared_server.wait_status(run["id"], {"awaiting_review"})
    response = shared_server.client.post(f"/api/research/{run['id']}/plan")
    assert response.status_code == 202, response.text
    assert shared_server.wait_status(run["id"], {"done", "failed"})["status"] == "done"


def test_odd_inputs_get_json_errors_not_crashes(shared_server: ApiServer) -> None:
    client = shared_server.client
    empty = client.post("/api/research", json={"query": QUESTION, "sources": []})
    assert (
        empty.status_code == 422
        and "sources: List should have at least 1 item" in (empty.json()["detail"])
    )
    form = client.post("/api/research", content=b"query=x", headers={"content-type": "text/plain"})
    assert form.status_code == 422 and form.json()["detail"]
    nul = client.post("/api/research", json={"query": "tides\u0000moon"})
    assert nul.status_code == 422 and "NUL" in nul.json()["detail"]
    assert client.get("/api/research", params={"q": "a\u0000b"}).status_code == 422
    extra = client.post("/api/research", json={"query": QUESTION, "max_iterations": True})
    assert extra.status_code == 422
    unknown_field = client.post("/api/research", json={"query": QUESTION, "soruces": ["docs"]})
    assert unknown_field.status_code == 422 and "soruces" in unknown_field.json()["detail"]
    huge = client.post("/api/research", json={"query": "x" * 400_000})
    assert huge.status_code == 413 and len(huge.content) < 1000
    run = shared_server.research()
    shared_server.wait_status(run["id"], {"done"})
    events = f"/api/research/{run['id']}/events"
    for bad in (b"99999999999999999999999", "\u00b2".encode(), b"-1", b"x"):
        response = client.get(events, headers={"Last-Event-ID": bad})
        assert response.status_code == 422, bad
    assert client.get(events, params={"after": 2**40}).status_code == 422


def test_posts_from_another_site_are_refused(shared_server: ApiServer) -> None:
    client = shared_server.client
    evil = {"Origin": "http://evil.example"}
    planted = client.post(
        "/api/documents",
        files={"file": ("evil.md", b"# Evil\n\nPlanted.", "text/markdown")},
        headers=evil,
    )
    assert planted.status_code == 403 and "MARSA_CORS_ORIGINS" in planted.json()["detail"]
    cross = client.post(
        "/api/research", json={"query": QUESTION}, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert cross.status_code == 403
    own = {"Origin": shared_server.url}
    assert client.post("/api/research", json={"query": QUESTION}, headers=own).status_code == 202
    titles = [d["title"] for d in client.get("/api/documents").json()["documents"]]
    assert "Evil" not in titles


def test_malformed_run_ids_are_refused_before_the_database(shared_server: ApiServer) -> None:
    client = shared_server.client
    for method, path in (
        ("GET", "/api/research/%00abc"),
        ("POST", "/api/research/%00/cancel"),
        ("GET", "/api/research/nosuchrun/events"),
        ("DELETE", "/api/research/%00abc"),
    ):
        response = client.request(method, path)
        assert response.status_code == 422, (path, response.text)
        assert response.headers["content-type"] == "application/json"
        assert "not a run id" in response.json()["detail"]


def test_a_request_naming_another_host_is_refused_even_from_that_origin(
    shared_server: ApiServer,
) -> None:
    port = shared_server.url.rsplit(":", 1)[1]
    rebound = {"Host": f"attacker.example:{port}", "Origin": f"http://attacker.example:{port}"}
    posted = shared_server.client.post("/api/research", json={"query": QUESTION}, headers=rebound)
    assert posted.status_code == 400
    assert "MARSA_ALLOWED_HOSTS" in posted.json()["detail"]
    read = shared_server.client.get("/api/research", headers=rebound)
    assert read.status_code == 400
    local = shared_server.client.get("/api/health", headers={"Host": f"localhost:{port}"})
    assert local.status_code == 200


def _chunked(body: bytes, size: int = 64 * 1024) -> Iterator[bytes]:
    """The body in pieces, so httpx sends it with Transfer-Encoding: chunked."""
    for start in range(0, len(body), size):
        yield body[start : start + size]


def test_a_chunked_json_body_over_the_limit_is_refused_as_too_large(
    shared_server: ApiServer,
) -> None:
    body = json.dumps({"query": "x" * 600_000}).encode()
    response = shared_server.client.post(
        "/api/research", content=_chunked(body), headers={"content-type": "application/json"}
    )
    assert response.request.headers.get("transfer-encoding") == "chunked"
    assert response.status_code == 413, response.text[:200]
    assert "262,144 bytes" in response.json()["detail"]


def test_a_chunked_json_body_within_the_limit_is_read(shared_server: ApiServer) -> None:
    body = json.dumps({"query": QUESTION, "sources": ["docs"]}).encode()
    response = shared_server.client.post(
        "/api/research", content=_chunked(body, 8), headers={"content-type": "application/json"}
    )
    assert response.status_code == 202, response.text
    shared_server.wait_status(response.json()["id"], {"done"})


def test_an_edited_sub_query_without_sources_keeps_to_the_runs_sources(
    shared_server: ApiServer,
) -> None:
    run = shared_server.research(review_plan=True, sources=["docs"])
    shared_server.wait_status(run["id"], {"awaiting_review"})
    edited = {"sub_queries": [{"text": "neap tides quarter moons"}]}
    response = shared_server.client.post(f"/api/research/{run['id']}/plan", json=edited)
    assert response.status_code == 202, response.text
    done = shared_server.wait_status(run["id"], {"done", "failed"})
    assert done["status"] == "done"
    assert done["sub_queries"][0]["sources"] == ["docs"]


def test_an_edited_plan_naming_an_unavailable_source_is_refused_with_the_available_ones(
    shared_server: ApiServer,
) -> None:
    run = shared_server.research(review_plan=True)
    shared_server.wait_status(run["id"], {"awaiting_review"})
    edited = {"sub_queries": [{"text": "neap tides", "sources": ["docs", "web"]}]}
    response = shared_server.client.post(f"/api/research/{run['id']}/plan", json=edited)
    assert response.status_code == 409  # configured, not available now: not a bad request
    detail = response.json()["detail"]
    assert "web not available" in detail and "available: docs, gate" in detail
    still = shared_server.client.get(f"/api/research/{run['id']}").json()
    assert still["status"] == "awaiting_review"
    shared_server.client.post(f"/api/research/{run['id']}/cancel")


def test_reconnecting_while_a_run_is_going_gets_the_missed_events_then_the_live_ones(
    shared_server: ApiServer,
) -> None:
    shared_server.gate.touch()
    try:
        run = shared_server.research(sources=["docs", "gate"])
        first = shared_server.wait_event(run["id"], "node_start", "researcher")
        seen = first.of("trace")[-1]["id"]

        def open_gate(event: dict[str, Any]) -> None:
            # Once the reconnected stream has caught up, let the held run go on.
            if event["id"] == seen:
                shared_server.gate.unlink()

        rest = read_sse(
            shared_server.client,
            f"/api/research/{run['id']}/events",
            headers={"Last-Event-ID": str(seen - 2)},
            on_event=open_gate,
        )
    finally:
        shared_server.gate.unlink(missing_ok=True)
    ids = [e["id"] for e in rest.of("trace")]
    assert ids == list(range(seen - 1, seen - 1 + len(ids))) and ids[-1] > seen
    assert rest.of("status")[0]["data"] == {"status": "running"}
    trace = [e["data"] for e in rest.of("trace")]
    assert any(e["kind"] == "tool_call" and e["data"].get("server") == "gate" for e in trace)
    assert rest.events[-1] == {"event": "end", "id": None, "data": {"status": "done"}}


def test_a_run_that_fails_ends_its_stream_failed_and_says_why(
    tmp_path: Path, database_url: str
) -> None:
    # A model setting that cannot be built: the engine raises as the run starts.
    with api_server(tmp_path / "home", database_url, llm="nosuchprovider:model") as server:
        run = server.research()
        stream = read_sse(server.client, f"/api/research/{run['id']}/events")
        detail = server.client.get(f"/api/research/{run['id']}").json()
    assert stream.events[-1] == {"event": "end", "id": None, "data": {"status": "failed"}}
    trace = [e["data"] for e in stream.of("trace")]
    assert trace[-1]["kind"] == "run_end" and trace[-1]["data"]["status"] == "failed"
    assert any(e["kind"] == "error" and "LLMConfigError" in e["message"] for e in trace)
    assert detail["status"] == "failed"
    assert detail["error"].startswith("LLMConfigError:") and "MARSA_LLM" in detail["error"]


def test_a_run_awaiting_review_survives_a_restart_and_finishes_once_approved(
    restartable: Restartable,
) -> None:
    server = restartable.current()
    run = server.research(review_plan=True)
    waiting = server.wait_status(run["id"], {"awaiting_review"})
    restartable.stop()
    server = restartable.current()
    again = server.client.get(f"/api/research/{run['id']}").json()
    assert again["status"] == "awaiting_review"
    assert again["sub_queries"] == waiting["sub_queries"]
    response = server.client.post(f"/api/research/{run['id']}/plan", json={})
    assert response.status_code == 202, response.text
    done = server.wait_status(run["id"], {"done", "failed"})
    trace = read_sse(server.client, f"/api/research/{run['id']}/events").of("trace")
    assert done["status"] == "done" and "full moon" in done["report"]
    assert [e["id"] for e in trace] == list(range(1, len(trace) + 1))
    assert sum(e["data"]["message"] == "planning the research" for e in trace) == 1


async def _a_review_run_stopped_before_its_planner(database_url: str, run_id: str) -> None:
    """What a process killed during the planner leaves: a running run whose last checkpoint
    is the one before the planner."""
    store = RunStore(database_target(Settings(database_url=database_url)))
    await store.open()
    try:
        options = {"sources": ["docs"], "max_iterations": 2, "review_plan": True}
        await store.create(run_id, QUESTION, options)
        await store.update(run_id, status="running")
        async with open_checkpointer(store.db) as saver:
            graph = build_graph(checkpointer=saver)
            await graph.ainvoke(
                initial_state(QUESTION, 2),
                {"configurable": {"thread_id": run_id}},
                interrupt_before=["planner"],
                durability="sync",
            )
    finally:
        await store.close()


def test_a_review_run_stopped_before_its_plan_was_made_waits_for_review_when_resumed(
    tmp_path: Path, database_url: str
) -> None:
    run_id = "0a1b2c3d4e5f"
    asyncio.run(_a_review_run_stopped_before_its_planner(database_url, run_id))
    with api_server(tmp_path / "home", database_url) as server:
        ingest_corpus(server)
        assert server.client.get(f"/api/research/{run_id}").json()["status"] == "interrupted"
        response = server.client.post(f"/api/research/{run_id}/resume")
        assert response.status_code == 202, response.text
        resumed = server.wait_status(run_id, {"awaiting_review", "done", "failed"})
        trace = read_sse(
            server.client,
            f"/api/research/{run_id}/events",
            until=lambda e: e["event"] == "status" and e["data"]["status"] == "awaiting_review",
        ).of("trace")
    assert resumed["status"] == "awaiting_review" and resumed["sub_queries"]
    assert any(e["data"]["message"] == "planning the research" for e in trace)
    assert not any(e["data"]["node"] == "researcher" for e in trace)
