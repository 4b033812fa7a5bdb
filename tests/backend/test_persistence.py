"""Where runs are kept: the database URL, and the run store on SQLite."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from backend.config import Settings
from backend.persistence import (
    RUN_ID_PATTERN,
    RunRecord,
    RunStore,
    database_target,
    new_run_id,
)
from backend.persistence.database import DatabaseURLError
from backend.trace import Tracer


def test_the_default_database_is_a_sqlite_file_in_the_data_dir(settings: Settings) -> None:
    db = database_target(settings)
    assert db.kind == "sqlite" and db.sqlite_path == settings.data_dir / "marsa.db"


def test_a_postgres_url_is_shown_without_its_password(settings: Settings) -> None:
    url = "postgresql://marsa:hunter2@db.internal:5433/runs"
    db = database_target(settings.model_copy(update={"database_url": url}))
    assert db.kind == "postgresql" and "hunter2" not in db.display
    assert db.sqlalchemy_url.startswith("postgresql+psycopg://")


def test_an_unknown_database_scheme_is_refused(settings: Settings) -> None:
    with pytest.raises(DatabaseURLError, match="sqlite:/// or postgresql://"):
        database_target(settings.model_copy(update={"database_url": "mysql://x/y"}))


async def test_events_come_back_in_order_after_a_given_seq(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'r.db'}")
    store = RunStore(database_target(settings))
    await store.open()
    try:
        await store.create("r1", "q", {"sources": None})
        tracer = Tracer("r1")
        events = [tracer.emit("run", "info", f"e{i}") for i in range(5)]
        await store.add_events(events)
        assert [e.seq for e in await store.events("r1", after=2)] == [3, 4, 5]
        assert await store.last_seq("r1") == 5
        assert await store.mark_interrupted() == ["r1"]
        record = await store.get("r1")
        assert record is not None and record.status == "interrupted"
        assert await store.delete("r1") and await store.events("r1") == []
    finally:
        await store.close()


def test_a_resumed_tracer_numbers_after_the_stored_events() -> None:
    tracer = Tracer("r1", last_seq=41)
    assert tracer.emit("run", "info", "again").seq == 42


def test_new_run_ids_look_like_what_the_api_accepts() -> None:
    ids = {new_run_id() for _ in range(50)}
    assert len(ids) == 50
    assert all(re.fullmatch(RUN_ID_PATTERN, run_id) for run_id in ids)


async def test_a_database_made_before_answer_found_gains_the_column_and_keeps_its_runs(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:  # marsa_runs as it was before answer_found
        conn.execute(
            "CREATE TABLE marsa_runs (id VARCHAR(32) PRIMARY KEY, query TEXT NOT NULL, "
            "status VARCHAR(32) NOT NULL, options JSON NOT NULL, created_at VARCHAR(40) NOT NULL, "
            "updated_at VARCHAR(40) NOT NULL, plan JSON, sub_queries JSON, result JSON, "
            "answer TEXT, error TEXT, elapsed_ms FLOAT NOT NULL)"
        )
        conn.execute(
            "INSERT INTO marsa_runs VALUES ('0123456789ab', 'old question', 'done', '{}', "
            "'2026-01-01', '2026-01-01', NULL, NULL, NULL, 'old answer', NULL, 5.0)"
        )
    store = RunStore(database_target(Settings(database_url=f"sqlite:///{path}")))
    await store.open()
    try:
        old = await store.get("0123456789ab")
        assert old is not None and old.answer == "old answer" and old.answer_found is None
        await store.update("0123456789ab", answer_found=False)
        again = await store.get("0123456789ab")
        assert again is not None and again.answer_found is False
    finally:
        await store.close()


async def test_a_database_made_before_follow_ups_gains_parent_run_id_and_links_new_runs(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:  # marsa_runs as it was before parent_run_id
        conn.execute(
            "CREATE TABLE marsa_runs (id VARCHAR(32) PRIMARY KEY, query TEXT NOT NULL, "
            "status VARCHAR(32) NOT NULL, options JSON NOT NULL, created_at VARCHAR(40) NOT NULL, "
            "updated_at VARCHAR(40) NOT NULL, plan JSON, sub_queries JSON, result JSON, "
            "answer TEXT, answer_found BOOLEAN, error TEXT, elapsed_ms FLOAT NOT NULL)"
        )
        conn.execute(
            "INSERT INTO marsa_runs VALUES ('0123456789ab', 'old question', 'done', '{}', "
            "'2026-01-01', '2026-01-01', NULL, NULL, NULL, 'old answer', 1, NULL, 5.0)"
        )
    store = RunStore(database_target(Settings(database_url=f"sqlite:///{path}")))
    await store.open()
    try:
        old = await store.get("0123456789ab")
        assert old is not None and old.parent_run_id is None and old.answer == "old answer"
        await store.create("ba9876543210", "why?", {}, parent_run_id="0123456789ab")
        child = await store.get("ba9876543210")
        assert child is not None and child.parent_run_id == "0123456789ab"
        _, page = await store.page(limit=5, offset=0, text=None)
        assert {r.id: r.parent_run_id for r in page} == {
            "0123456789ab": None,
            "ba9876543210": "0123456789ab",
        }
    finally:
        await store.close()


async def test_a_finished_run_is_added_with_its_events_in_one_go(tmp_path: Path) -> None:
    store = RunStore(database_target(Settings(database_url=f"sqlite:///{tmp_path / 'r.db'}")))
    await store.open()
    try:
        tracer = Tracer(new_run_id())
        events = [tracer.emit("run", "info", f"e{i}") for i in range(3)]
        record = RunRecord(
            id=tracer.run_id,
            query="q",
            status="done",
            options={"sources": ["docs"]},
            created_at="2026-01-01T00:00:00",
            updated_at="2026-01-01T00:00:01",
            result={"report": "r", "answer_found": False},
            answer="a",
            answer_found=False,
        )
        await store.add_finished(record, events)
        assert await store.get(tracer.run_id) == record
        assert await store.events(tracer.run_id) == events
    finally:
        await store.close()
