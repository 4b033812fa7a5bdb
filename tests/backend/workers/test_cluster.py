"""Runs researched by `marsa worker` processes and followed, cancelled and approved through
any API replica (MARSA_RUN_IN=workers)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.backend.api.conftest import SSE, ApiServer, read_sse
from tests.backend.workers.conftest import Cluster, trace_of
from tests.helpers import serve_env


def _shape(trace: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What a run did, without what differs between two runs (ids, times)."""
    return [(e["seq"], e["node"], e["kind"], e["data"].get("status")) for e in trace]


def _contiguous(trace: list[dict[str, Any]]) -> None:
    assert [e["seq"] for e in trace] == list(range(1, len(trace) + 1))


def _in_background(server: ApiServer, run_id: str, **options: Any) -> tuple[threading.Thread, list]:
    """Follow a run's stream in a thread; the list gets the SSE once the stream ends."""
    got: list[SSE] = []

    def follow() -> None:
        with httpx.Client(base_url=server.url, timeout=60) as client:  # one per thread
            got.append(read_sse(client, f"/api/research/{run_id}/events", **options))

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    return thread, got


def test_a_run_started_on_replica_a_streams_whole_from_replica_b(cluster: Cluster) -> None:
    assert cluster.a is not None and cluster.b is not None and cluster.single is not None
    run = cluster.a.research()
    stream = read_sse(cluster.b.client, f"/api/research/{run['id']}/events")
    trace = trace_of(stream)
    _contiguous(trace)
    assert stream.events[-1] == {"event": "end", "id": None, "data": {"status": "done"}}
    done = cluster.b.client.get(f"/api/research/{run['id']}").json()
    assert done["status"] == "done" and done["report"]
    # The same run in one `marsa serve` (run_in=api, SQLite) on the same documents.
    single = cluster.single
    alone = single.research()
    single_trace = trace_of(read_sse(single.client, f"/api/research/{alone['id']}/events"))
    assert _shape(trace) == _shape(single_trace)
    assert [e["message"] for e in trace[1:]] == [e["message"] for e in single_trace[1:]]


def test_a_stream_reconnected_to_the_other_replica_with_last_event_id_goes_on(
    cluster: Cluster,
) -> None:
    assert cluster.a is not None and cluster.b is not None
    cluster.ensure_workers()
    cluster.gate.touch()
    try:
        run = cluster.a.research(sources=["docs", "gate"])
        first = cluster.b.wait_event(run["id"], "node_start", "researcher")
    finally:
        cluster.gate.unlink()
    last = first.of("trace")[-1]["id"]
    rest = read_sse(
        cluster.a.client,
        f"/api/research/{run['id']}/events",
        headers={"Last-Event-ID": str(last)},
    )
    together = trace_of(first) + trace_of(rest)
    _contiguous(together)
    assert rest.events[-1]["data"] == {"status": "done"}
    whole = trace_of(read_sse(cluster.b.client, f"/api/research/{run['id']}/events"))
    assert together == whole


def test_a_cancel_sent_to_the_replica_that_is_not_streaming_stops_the_run(
    cluster: Cluster,
) -> None:
    assert cluster.a is not None and cluster.b is not None
    cluster.ensure_workers()
    cluster.gate.touch()
    try:
        run = cluster.a.research(sources=["gate"])
        cluster.a.wait_event(run["id"], "node_start", "researcher")
        thread, got = _in_background(cluster.a, run["id"])
        response = cluster.b.client.post(f"/api/research/{run['id']}/cancel")
        assert response.status_code == 200, response.text
        assert response.json()["status"] == "cancelled"
        thread.join(timeout=60)
        assert got, "replica A's stream did not end"
    finally:
        cluster.gate.unlink()
    stream = got[0]
    assert stream.events[-1]["data"] == {"status": "cancelled"}
    trace = trace_of(stream)
    assert trace[-1]["kind"] == "run_end" and trace[-1]["data"]["status"] == "cancelled"
    whole = trace_of(read_sse(cluster.b.client, f"/api/research/{run['id']}/events"))
    _contiguous(whole)
    assert cluster.b.client.post(f"/api/research/{run['id']}/cancel").status_code == 409


def test_a_cancel_of_a_queued_run_ends_it_without_a_worker(cluster: Cluster) -> None:
    assert cluster.a is not None and cluster.b is not None
    run = cluster.a.research(review_plan=True)
    cluster.b.wait_status(run["id"], {"awaiting_review"})
    response = cluster.b.client.post(f"/api/research/{run['id']}/cancel")
    assert response.json()["status"] == "cancelled"
    stream = read_sse(cluster.a.client, f"/api/research/{run['id']}/events")
    _contiguous(trace_of(stream))
    assert stream.events[-1]["data"] == {"status": "cancelled"}


def test_a_plan_approved_on_the_other_replica_is_researched_to_the_end(cluster: Cluster) -> None:
    assert cluster.a is not None and cluster.b is not None
    cluster.ensure_workers()
    run = cluster.a.research(review_plan=True)
    waiting = cluster.a.wait_status(run["id"], {"awaiting_review"})
    assert waiting["sub_queries"]
    thread, got = _in_background(cluster.a, run["id"])
    response = cluster.b.client.post(f"/api/research/{run['id']}/plan", json={})
    assert response.status_code == 202, response.text
    thread.join(timeout=90)
    assert got and got[0].events[-1]["data"] == {"status": "done"}
    trace = trace_of(got[0])
    _contiguous(trace)
    assert sum(e["message"] == "planning the research" for e in trace) == 1


def test_a_running_run_deleted_through_the_other_replica_is_gone_everywhere(
    cluster: Cluster,
) -> None:
    assert cluster.a is not None and cluster.b is not None
    cluster.ensure_workers()
    cluster.gate.touch()
    try:
        run = cluster.a.research(sources=["gate"])
        cluster.a.wait_event(run["id"], "node_start", "researcher")
        assert cluster.b.client.delete(f"/api/research/{run['id']}").status_code == 204
    finally:
        cluster.gate.unlink()
    assert cluster.a.client.get(f"/api/research/{run['id']}").status_code == 404
    assert cluster.a.client.get(f"/api/research/{run['id']}/events").status_code == 404


def test_a_worker_killed_mid_run_leaves_its_run_to_another_worker(cluster: Cluster) -> None:
    assert cluster.a is not None and cluster.b is not None
    cluster.ensure_workers()
    cluster.gate.touch()
    try:
        run = cluster.a.research(sources=["docs", "gate"])
        cluster.b.wait_event(run["id"], "node_start", "researcher")
        pid = cluster.holder_pid(run["id"])
        os.kill(pid, signal.SIGKILL)  # no goodbye: the run stays "running", its job picked
        cluster.start_worker()  # for the next tests, starting while this one waits
    finally:
        cluster.gate.unlink()
    stream = read_sse(cluster.b.client, f"/api/research/{run['id']}/events", deadline_s=120)
    trace = trace_of(stream)
    _contiguous(trace)
    assert stream.events[-1]["data"] == {"status": "done"}
    takeover = [e for e in trace if e["kind"] == "run_start" and e["data"].get("resumed")]
    assert len(takeover) == 1 and "stopped worker" in takeover[0]["message"]
    assert sum(e["message"] == "planning the research" for e in trace) == 1
    done = cluster.a.client.get(f"/api/research/{run['id']}").json()
    assert any(s["server"] == "gate" for s in done["sources"])


def test_a_stalled_worker_whose_run_was_taken_over_writes_nothing_when_it_wakes(
    cluster: Cluster,
) -> None:
    assert cluster.a is not None and cluster.b is not None
    cluster.ensure_workers()
    cluster.gate.touch()
    try:
        run = cluster.a.research(sources=["docs", "gate"])
        cluster.b.wait_event(run["id"], "node_start", "researcher")
        pid = cluster.holder_pid(run["id"])
        stalled = next(w for w in cluster.workers if w.proc.pid == pid)
        os.kill(pid, signal.SIGSTOP)  # alive, but no heartbeat: its run is taken over
        try:
            cluster.holder_pid(run["id"], other_than=pid)
            cluster.gate.unlink()  # both searches answer; the other worker ends the run
            stream = read_sse(cluster.b.client, f"/api/research/{run['id']}/events")
        finally:
            os.kill(pid, signal.SIGCONT)
    finally:
        cluster.gate.unlink(missing_ok=True)
    assert stream.events[-1]["data"] == {"status": "done"}
    # Awake again, the stalled worker goes on with its search's answer and finds it lost the run.
    cluster.wait_output(stalled, "taken over elsewhere")
    trace = trace_of(stream)
    _contiguous(trace)
    again = read_sse(cluster.a.client, f"/api/research/{run['id']}/events")
    assert trace_of(again) == trace and again.events[-1]["data"] == {"status": "done"}
    starts = [e["message"] for e in trace if e["kind"] == "run_start"]
    assert len(starts) == 2 and "stopped worker" in starts[1]
    assert stalled.proc.poll() is None  # it still serves other runs


def test_a_replica_in_workers_mode_reports_redis_and_the_queue_on_health(
    cluster: Cluster,
) -> None:
    assert cluster.a is not None
    health = cluster.a.client.get("/api/health").json()
    assert health["run_in"] == "workers"
    assert health["cluster"]["redis"] == "up" and health["cluster"]["queue"] == "up"
    assert isinstance(health["cluster"]["queued_jobs"], int)
    assert health["status"] == "ok"


def test_a_worker_stopped_gracefully_queues_its_run_for_another(cluster: Cluster) -> None:
    assert cluster.a is not None and cluster.b is not None
    cluster.ensure_workers()
    cluster.gate.touch()
    try:
        run = cluster.a.research(sources=["docs", "gate"])
        cluster.b.wait_event(run["id"], "node_start", "researcher")
        holder = cluster.holder_pid(run["id"])
        stopped = next(w for w in cluster.workers if w.proc.pid == holder)
        os.kill(holder, signal.SIGTERM)
        cluster.wait_output(stopped, "stopping: 1 run(s)")
        cluster.start_worker()  # for the next tests, starting while this one waits
    finally:
        cluster.gate.unlink()  # the search under way returns; the run stops after it
    assert stopped.proc.wait(timeout=60) == 0, stopped.output()
    stream = read_sse(cluster.b.client, f"/api/research/{run['id']}/events")
    trace = trace_of(stream)
    _contiguous(trace)
    assert stream.events[-1]["data"] == {"status": "done"}
    assert any(e["data"].get("status") == "interrupted" for e in trace)
    resumed = [e for e in trace if e["kind"] == "run_start" and e["data"].get("resumed")]
    assert [e["message"] for e in resumed] == ["resumed after a worker stopped"]


def test_a_replica_without_redis_streams_and_cancels_through_the_database(
    cluster: Cluster,
) -> None:
    assert cluster.a is not None and cluster.deaf is not None
    cluster.ensure_workers()
    deaf = cluster.deaf
    health = deaf.client.get("/api/health").json()
    assert health["cluster"]["redis"] == "down" and health["cluster"]["redis_note"]
    assert health["cluster"]["queue"] == "up" and health["status"] == "ok"
    run = cluster.a.research()
    stream = read_sse(deaf.client, f"/api/research/{run['id']}/events")
    trace = trace_of(stream)
    _contiguous(trace)
    assert stream.events[-1]["data"] == {"status": "done"}
    # Its cancel cannot be published: the worker sees the flag in the database.
    cluster.gate.touch()
    try:
        held = cluster.a.research(sources=["gate"])
        cluster.a.wait_event(held["id"], "node_start", "researcher")
        response = deaf.client.post(f"/api/research/{held['id']}/cancel")
    finally:
        cluster.gate.unlink()
    assert response.status_code == 200 and response.json()["status"] == "cancelled"


def test_a_stream_ends_when_redis_stops_in_the_middle_of_it(cluster: Cluster) -> None:
    assert cluster.a is not None and cluster.b is not None
    if not cluster.redis.own:
        pytest.skip("the machine's Redis is not ours to stop (no redis-server binary)")
    cluster.ensure_workers()
    cluster.gate.touch()
    try:
        run = cluster.a.research(sources=["docs", "gate"])
        cluster.a.wait_event(run["id"], "node_start", "researcher")
        thread, got = _in_background(cluster.b, run["id"])
        cluster.redis.stop()
        cluster.gate.unlink()
        thread.join(timeout=90)
        assert got, "the stream did not end without Redis"
    finally:
        cluster.gate.unlink(missing_ok=True)
        if cluster.redis.proc is None:
            cluster.redis.start()
    stream = got[0]
    _contiguous(trace_of(stream))
    assert stream.events[-1]["data"] == {"status": "done"}
    # Redis back: the replicas hear it again (a run streams to its end as before).
    again = cluster.a.research()
    assert read_sse(cluster.b.client, f"/api/research/{again['id']}/events").events[-1]["data"] == {
        "status": "done"
    }


def test_a_worker_refuses_to_start_on_sqlite(tmp_path: Path) -> None:
    env = serve_env(tmp_path, run_in="workers", database_url=f"sqlite:///{tmp_path / 'x.db'}")
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", "worker"], env=env, capture_output=True, timeout=60
    )
    assert done.returncode != 0
    assert "needs PostgreSQL" in done.stderr.decode()
