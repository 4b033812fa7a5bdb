"""POST /api/research/{id}/follow-up: a new run that starts from a finished run's sources and
answer, linked to it; refused clearly for a run that is unknown or has not finished."""

from __future__ import annotations

import json

import pytest

from tests.backend.api.conftest import QUESTION, ApiServer, read_sse


def _documents(server: ApiServer) -> int:
    response = server.client.get("/api/documents")
    assert response.status_code == 200, response.text
    return int(response.json()["total"])


def test_a_follow_up_runs_from_the_earlier_sources_and_is_linked_to_its_run(
    shared_server: ApiServer,
) -> None:
    parent = shared_server.research()
    shared_server.wait_status(parent["id"], {"done"})
    earlier = shared_server.client.get(f"/api/research/{parent['id']}").json()
    documents = _documents(shared_server)

    response = shared_server.client.post(
        f"/api/research/{parent['id']}/follow-up", json={"question": "  Why is that?  "}
    )
    assert response.status_code == 202, response.text
    started = response.json()
    assert started["parent_run_id"] == parent["id"] and started["id"] != parent["id"]
    assert started["query"] == "Why is that?" and started["options"]["sources"] == ["docs"]

    stream = read_sse(shared_server.client, f"/api/research/{started['id']}/events")
    trace = [e["data"] for e in stream.of("trace")]
    assert stream.events[-1]["data"] == {"status": "done"}
    assert trace[0]["kind"] == "run_start"
    assert trace[0]["data"]["parent_run_id"] == parent["id"]
    assert trace[0]["data"]["carried_sources"] == len(earlier["sources"])

    detail = shared_server.client.get(f"/api/research/{started['id']}").json()
    assert detail["status"] == "done" and detail["parent_run_id"] == parent["id"]
    carried = {s["id"]: s for s in detail["sources"] if s["from_run"] == parent["id"]}
    assert set(carried) == {s["id"] for s in earlier["sources"]}
    cited = {c["source_id"] for c in detail["citations"]}
    assert cited & set(carried), "the follow-up cites none of the earlier run's sources"
    assert detail["citation_check"]["removed"] == 0
    assert len({s["doc_id"] for s in detail["sources"]}) == len(detail["sources"])
    assert "(spring tides happen)" in detail["plan"]["query"]
    assert _documents(shared_server) == documents  # nothing was ingested again

    listed = shared_server.client.get("/api/research", params={"q": "Why is that?"}).json()
    assert {i["id"]: i["parent_run_id"] for i in listed["items"]}[started["id"]] == parent["id"]
    exported = shared_server.client.get(f"/api/research/{started['id']}/report.json")
    assert json.loads(exported.text)["parent_run_id"] == parent["id"]
    markdown = shared_server.client.get(f"/api/research/{started['id']}/report.md").text
    assert f"follow-up of run {parent['id']}" in markdown.splitlines()[2]
    unchanged = shared_server.client.get(f"/api/research/{parent['id']}").json()
    assert unchanged["status"] == "done" and unchanged["parent_run_id"] is None


def test_a_follow_up_of_an_unknown_run_is_404(shared_server: ApiServer) -> None:
    before = shared_server.client.get("/api/research").json()["total"]
    response = shared_server.client.post(
        "/api/research/0123456789ab/follow-up", json={"question": "Why is that?"}
    )
    assert response.status_code == 404
    assert "no research run '0123456789ab'" in response.json()["detail"]
    assert shared_server.client.get("/api/research").json()["total"] == before


def test_a_follow_up_of_a_run_that_has_not_finished_is_409_and_changes_nothing(
    shared_server: ApiServer,
) -> None:
    waiting = shared_server.research(QUESTION, review_plan=True)
    shared_server.wait_status(waiting["id"], {"awaiting_review"})
    before = shared_server.client.get("/api/research").json()["total"]
    response = shared_server.client.post(
        f"/api/research/{waiting['id']}/follow-up", json={"question": "Why is that?"}
    )
    assert response.status_code == 409
    assert "awaiting_review" in response.json()["detail"]
    assert shared_server.client.get("/api/research").json()["total"] == before
    still = shared_server.client.get(f"/api/research/{waiting['id']}").json()
    assert still["status"] == "awaiting_review"

    cancelled = shared_server.client.post(f"/api/research/{waiting['id']}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    response = shared_server.client.post(
        f"/api/research/{waiting['id']}/follow-up", json={"question": "Why is that?"}
    )
    assert response.status_code == 409
    assert "no answer to follow up" in response.json()["detail"]


@pytest.mark.parametrize(
    "body",
    [
        {"question": ""},
        {"question": "x" * 2001},
        {},
        {"question": "Why?", "sources": ["docs"]},
        {"query": "Why?"},
    ],
)
def test_a_follow_up_question_that_is_empty_too_long_or_not_asked_is_422(
    shared_server: ApiServer, body: dict[str, object]
) -> None:
    response = shared_server.client.post("/api/research/0123456789ab/follow-up", json=body)
    assert response.status_code == 422, response.text
