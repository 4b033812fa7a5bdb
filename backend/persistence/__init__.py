"""Where runs, their events and the graph's checkpoints are kept: SQLite or PostgreSQL."""

from backend.persistence.checkpoints import open_checkpointer
from backend.persistence.database import Database, database_target
from backend.persistence.runs import RunRecord, RunStore

__all__ = ["Database", "RunRecord", "RunStore", "database_target", "open_checkpointer"]
