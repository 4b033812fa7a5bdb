"""One structured, timestamped log line per tool call, with secrets removed."""

from __future__ import annotations

import json
import logging
import re
import sys
import threading
import time
import traceback
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastmcp.exceptions import ToolError
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from pydantic import ValidationError

from marsa_common.secrets import scrub

_SECRET_KEY = re.compile(r"(key|token|secret|password|authorization)", re.IGNORECASE)
_MAX_LOGGED_CHARS = 200


def _redact(value: Any, key: str = "") -> Any:
    if key and _SECRET_KEY.search(key):
        return "***"
    if isinstance(value, dict):
        return {k: _redact(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_redact(v) for v in value[:20]]
    if isinstance(value, str) and len(value) > _MAX_LOGGED_CHARS:
        return f"{value[:_MAX_LOGGED_CHARS]}… ({len(value)} chars)"
    return value


def _result_count(result: Any) -> int | None:
    content = getattr(result, "structured_content", None)
    if not isinstance(content, dict):
        return None
    for name in ("results", "documents", "chunks", "topics", "items", "result"):
        value = content.get(name)
        if isinstance(value, list):
            return len(value)
    return 1


class JsonLineWriter:
    """Appends JSON lines to ``<log_dir>/<server>.jsonl``, or to the current stderr
    (never stdout: that is the stdio transport's)."""

    def __init__(self, server: str, log_dir: Path | None = None):
        self.path = log_dir / f"{server}.jsonl" if log_dir is not None else None
        if log_dir is not None:
            log_dir.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def write(self, line: str) -> None:
        with self._lock:
            if self.path is None:
                print(line, file=sys.stderr, flush=True)
            else:
                with self.path.open("a", encoding="utf-8") as handle:
                    handle.write(line + "\n")


class ToolCallLogMiddleware(Middleware):
    """Logs tool, arguments (redacted), duration and result count or error."""

    def __init__(
        self,
        server: str,
        secrets: Iterable[str] = (),
        level: str = "INFO",
        log_dir: Path | None = None,
    ):
        self.server = server
        self.secrets = [s for s in secrets if s]
        self.writer = JsonLineWriter(server, log_dir)
        self.enabled = logging.getLevelName(level.upper()) <= logging.INFO
        # fastmcp logs a failed call's arguments in full (a 10 MB query took tens of
        # seconds to format); this middleware writes one bounded line instead.
        logging.getLogger("fastmcp.server.server").setLevel(logging.CRITICAL)

    def _emit(self, record: dict[str, Any]) -> None:
        if self.enabled:
            line = json.dumps(record, default=str, ensure_ascii=False)
            self.writer.write(scrub(line, self.secrets))

    async def on_call_tool(self, context: MiddlewareContext, call_next: CallNext) -> Any:
        params = context.message
        record: dict[str, Any] = {
            "ts": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "server": self.server,
            "event": "tool_call",
            "tool": getattr(params, "name", "?"),
            "arguments": _redact(getattr(params, "arguments", None) or {}),
        }
        start = time.perf_counter()
        try:
            result = await call_next(context)
        except Exception as exc:
            record["duration_ms"] = round((time.perf_counter() - start) * 1000, 2)
            record["error"] = f"{type(exc).__name__}: {str(exc)[:1000]}"
            if not isinstance(exc, ToolError | ValidationError):
                record["traceback"] = traceback.format_exc(limit=8)
            self._emit(record)
            raise
        record["duration_ms"] = round((time.perf_counter() - start) * 1000, 2)
        record["result_count"] = _result_count(result)
        self._emit(record)
        return result
