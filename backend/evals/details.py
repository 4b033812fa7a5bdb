"""The `--details FILE` of the QA benchmarks: one JSON line per question, what a reader
of that run saw (direct answer, report, citations, sources), to read failures by example."""

from __future__ import annotations

import json
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self

from backend.evals.metrics import answer_found


def reader_view(result: dict[str, Any]) -> dict[str, Any]:
    """The parts of a run result a reader sees, with sources cut to what names them."""
    return {
        "answer": result.get("answer", ""),
        "answer_found": answer_found(result),
        "report": result.get("report", ""),
        "citations": [
            {"n": c.get("n"), "source_id": c.get("source_id"), "quote": c.get("quote")}
            for c in result.get("citations", [])
        ],
        "sources": [
            {
                key: source.get(key)
                for key in ("id", "title", "path", "relative_path", "url")
                if source.get(key) is not None
            }
            for source in result.get("sources", [])
        ],
        "fabricated_citations": int(result.get("citation_check", {}).get("removed", 0)),
        "answer_basis": next(
            (
                e.get("data", {})
                for e in result.get("trace", [])
                if "answer_found" in (e.get("data") or {})
            ),
            {},
        ),
    }


class DetailsFile:
    """Writes one JSON object a line to a path, or nothing when the path is None."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._handle: IO[str] | None = None

    def __enter__(self) -> Self:
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._handle = self.path.open("w", encoding="utf-8")
        return self

    def write(self, record: dict[str, Any]) -> None:
        """Append one record (flushed, so an interrupted benchmark keeps what it asked)."""
        if self._handle is not None:
            self._handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            self._handle.flush()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._handle is not None:
            self._handle.close()
