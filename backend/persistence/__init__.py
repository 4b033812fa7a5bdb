"""Where runs, their events and the graph's checkpoints are kept: SQLite or PostgreSQL."""

from backend.persistence.checkpoints import open_checkpointer
from backend.persistence.database import Database, database_target
from backend.persistence.runs import (
    RUN_ID_PATTERN,
    Guard,
    RunRecord,
    RunStore,
    WriteRefused,
    new_run_id,
)

__all__ = [
    "RUN_ID_PATTERN",
    "Database",
    "Guard",
    "RunRecord",
    "RunStore",
    "WriteRefused",
    "database_target",
    "new_run_id",
    "open_checkpointer",
]
