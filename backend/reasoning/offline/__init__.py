"""The offline reasoning engine: deterministic, no network, no LLM (see ``engine.py``)."""

from backend.reasoning.offline.engine import OfflineEngine

__all__ = ["OfflineEngine"]
