"""Where runs are kept: the database URL, and the run store on SQLite."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from backend.config import Settings
from backend.persistence import RUN_ID_PATTERN, RunStore, database_target, new_run_id
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
