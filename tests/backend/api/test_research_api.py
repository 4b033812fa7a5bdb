"""A research run through the REST API: start, follow, review, cancel, restart, resume."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from tests.backend.api.conftest import (
    QUESTION,
    ApiServer,
    api_server,
    ingest_corpus,
    read_sse,
)

AGENTS = {"planner", "researcher", "fact_checker", "synthesizer"}


def test_a_run_goes_from_post_to_its_final_event_with_a_cited_report(
    tmp_path: Path, database_url: str
) -> None:
    with api_server(tmp_path / "home", database_url) as server:
        ingest_corpus(server)
        run = server.research()
        assert run["status"] == "queued"
        stream = read_sse(server.client, f"/api/research/{run['id']}/events")
        trace = [e["data"] for e in stream.of("trace")]
        assert [e["seq"] for e in trace] == list(range(1, len(trace) + 1))
        assert [e["id"] for e in stream.of("trace")] == [e["seq"] for e in trace]
        assert {e["node"] for e in trace if e["kind"] == "node_end"} == AGENTS
        assert any(e["kind"] == "tool_call" and e["data"]["server"] == "docs" for e in trace)
        assert stream.events[-1] == {"event": "end", "id": None, "data": {"status": "done"}}

        detail = server.client.get(f"/api/research/{run['id']}").json()
    assert detail["status"] == "done" and detail["answer"]
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
    tmp_path: Path, database_url: str
) -> None:
    with api_server(tmp_path / "home", database_url) as server:
        ingest_corpus(server)
        run = server.research("What are spring tides and neap tides?", review_plan=True)
        waiting = server.wait_status(run["id"], {"awaiting_review"})
        assert waiting["sub_queries"] and waiting["plan"]
        # While it waits, the stream stays open with heartbeats and says why.
        stream = read_sse(
            server.client,
            f"/api/research/{run['id']}/events",
            until=lambda e: e["event"] == "status" and e["data"]["status"] == "awaiting_review",
        )
        assert not any(e["data"]["node"] == "researcher" for e in stream.of("trace"))
        edited = {"sub_queries": [{"text": "neap tides quarter moons", "sources": ["docs"]}]}
        response = server.client.post(f"/api/research/{run['id']}/plan", json=edited)
        assert response.status_code == 202, response.text
        done = server.wait_status(run["id"], {"done", "failed"})
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


def test_history_and_reports_come_back_after_a_restart(tmp_path: Path, database_url: str) -> None:
    home = tmp_path / "home"
    with api_server(home, database_url) as server:
        ingest_corpus(server)
        run = server.research()
        before = server.wait_status(run["id"], {"done"})
        events_before = read_sse(server.client, f"/api/research/{run['id']}/events")
    with api_server(home, database_url) as server:
        history = server.client.get("/api/research").json()
        assert [item["id"] for item in history["items"]] == [run["id"]]
        after = server.client.get(f"/api/research/{run['id']}").json()
        assert after["report"] == before["report"] and after["claims"] == before["claims"]
        events_after = read_sse(server.client, f"/api/research/{run['id']}/events")
        assert events_after.of("trace") == events_before.of("trace")
        markdown = server.client.get(f"/api/research/{run['id']}/report.md")
    assert markdown.status_code == 200 and before["report"] in markdown.text


def test_a_run_killed_mid_research_is_interrupted_after_restart_and_resumes(
    tmp_path: Path, database_url: str
) -> None:
    home = tmp_path / "home"
    with api_server(home, database_url) as server:
        ingest_corpus(server)
        server.gate.touch()
        run = server.research(sources=["docs", "gate"])
        server.wait_event(run["id"], "node_start", "researcher")
        server.proc.kill()  # no goodbye: the run is left "running" in the database
        server.proc.wait(timeout=20)
    server.gate.unlink()
    with api_server(home, database_url) as server:
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


def test_a_run_stopped_gracefully_is_interrupted_too(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with api_server(home) as server:
        ingest_corpus(server)
        server.gate.touch()
        run = server.research(sources=["gate"])
        server.wait_event(run["id"], "node_start", "researcher")
    server.gate.unlink()
    with api_server(home) as server:
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


def test_bad_requests_get_a_message_a_person_can_act_on(shared_server: ApiServer) -> None:
    client = shared_server.client
    too_long = client.post("/api/research", json={"query": "x" * 2001})
    assert too_long.status_code == 422 and "query" in too_long.json()["detail"]
    blank = client.post("/api/research", json={"query": "   "})
    assert blank.status_code == 422
    unknown = client.post("/api/research", json={"query": QUESTION, "sources": ["nope"]})
    assert unknown.status_code == 422 and "configured: docs" in unknown.json()["detail"]
    down = client.post("/api/research", json={"query": QUESTION, "sources": ["web"]})
    assert down.status_code == 422 and "available" in down.json()["detail"]
    rounds = client.post("/api/research", json={"query": QUESTION, "max_iterations": 21})
    assert rounds.status_code == 422 and "max_iterations" in rounds.json()["detail"]
    missing = client.get("/api/research/nosuchrun")
    assert missing.status_code == 404 and "GET /api/research" in missing.json()["detail"]
    bad_id = client.get("/api/research/nosuchrun/events")
    assert bad_id.status_code == 404


def test_exports_wait_for_the_report(shared_server: ApiServer) -> None:
    run = shared_server.research(review_plan=True)
    shared_server.wait_status(run["id"], {"awaiting_review"})
    response = shared_server.client.get(f"/api/research/{run['id']}/report.pdf")
    assert response.status_code == 409 and "no report yet" in response.json()["detail"]
    cancelled = shared_server.client.post(f"/api/research/{run['id']}/cancel")
    assert cancelled.json()["status"] == "cancelled"
    stream = read_sse(shared_server.client, f"/api/research/{run['id']}/events")
    assert stream.events[-1]["data"] == {"status": "cancelled"}


def test_with_a_token_every_api_route_asks_for_it(tmp_path: Path) -> None:
    with api_server(tmp_path / "home", api_token="s3cret-token") as server:
        bare = httpx.Client(base_url=server.url, timeout=30)
        for path in ("/api/health", "/api/research", "/api/documents"):
            response = bare.get(path)
            assert response.status_code == 401, path
            assert "Bearer" in response.json()["detail"]
        wrong = bare.get("/api/research", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        assert bare.get("/").status_code == 200  # the page itself asks for the token
        assert server.client.get("/api/health").status_code == 200
        run = server.research(review_plan=True)
        stream = read_sse(
            bare,
            f"/api/research/{run['id']}/events?access_token=s3cret-token",
            until=lambda e: e["event"] == "status" and e["data"]["status"] == "awaiting_review",
        )
        assert stream.of("trace")
        # The query-string token is for reading only (streams, downloads).
        sneaky = bare.post(f"/api/research/{run['id']}/cancel?access_token=s3cret-token")
        assert sneaky.status_code == 401
        bare.close()


def test_cors_origins_are_configurable(tmp_path: Path) -> None:
    with api_server(tmp_path / "home", cors_origins='["http://app.example"]') as server:
        allowed = server.client.options(
            "/api/research",
            headers={"Origin": "http://app.example", "Access-Control-Request-Method": "POST"},
        )
        other = server.client.get("/api/health", headers={"Origin": "http://evil.example"})
    assert allowed.headers["access-control-allow-origin"] == "http://app.example"
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
    for _ in range(5):
        run = shared_server.research()
        answer = shared_server.client.post(f"/api/research/{run['id']}/cancel")
        assert answer.status_code in (200, 409)  # 409: it finished first
        final = shared_server.wait_status(run["id"], {"cancelled", "done"}, deadline_s=30)
        stream = read_sse(shared_server.client, f"/api/research/{run['id']}/events", deadline_s=30)
        assert stream.events[-1]["data"] == {"status": final["status"]}


def test_a_plan_post_with_no_body_approves_the_plan(shared_server: ApiServer) -> None:
    run = shared_server.research(review_plan=True)
    shared_server.wait_status(run["id"], {"awaiting_review"})
    response = shared_server.client.post(f"/api/research/{run['id']}/plan")
    assert response.status_code == 202, response.text
    assert shared_server.wait_status(run["id"], {"done", "failed"})["status"] == "done"


def test_odd_inputs_get_json_errors_not_crashes(shared_server: ApiServer) -> None:
    client = shared_server.client
    empty = client.post("/api/research", json={"query": QUESTION, "sources": []})
    assert empty.status_code == 422 and "at least one source" in empty.json()["detail"]
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
