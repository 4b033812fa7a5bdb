"""Filters and score fusion for semantic, keyword and hybrid search."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

import numpy as np

# Keys every chunk carries; user metadata adds more.
RESERVED_KEYS = frozenset(
    {
        "doc_id",
        "chunk_index",
        "title",
        "source",
        "source_url",
        "source_type",
        "section",
        "published_date",
        "published_ts",
        "word_count",
        "doc_word_count",
        "content_hash",
        "ingested_at",
        "revision",
        "revision_chunks",
    }
)
DATE_KEYS = ("date_from", "date_to")
FilterValue = str | int | float | bool | list[str | int | float | bool]


class FilterError(ValueError):
    """A filter that cannot be applied, with what to fix."""


def date_ordinal(value: str) -> int:
    """Days since 0001-01-01 for an ISO date; what range filters compare."""
    try:
        return date.fromisoformat(value[:10]).toordinal()
    except ValueError as exc:
        raise FilterError(f"{value!r} is not a date; use YYYY-MM-DD") from exc


def build_where(
    filters: Mapping[str, FilterValue] | None, known_keys: set[str]
) -> dict[str, Any] | None:
    """Translate MARSA filters into a Chroma ``where`` clause.

    ``{"key": value}`` is equality, ``{"key": [a, b]}`` is any-of, and ``date_from`` /
    ``date_to`` bound ``published_date`` (inclusive).
    """
    if not filters:
        return None
    clauses: list[dict[str, Any]] = []
    for key, value in filters.items():
        if key in DATE_KEYS:
            if not isinstance(value, str):
                raise FilterError(f"{key} takes a date string YYYY-MM-DD")
            op = "$gte" if key == "date_from" else "$lte"
            clauses.append({"published_ts": {op: date_ordinal(value)}})
            continue
        if key not in known_keys:
            allowed = ", ".join(sorted(known_keys | set(DATE_KEYS)))
            raise FilterError(f"unknown filter key {key!r}; filterable keys are: {allowed}")
        if isinstance(value, list):
            if not value:
                raise FilterError(f"filter {key!r} has an empty list; give at least one value")
            if len({type(v) for v in value}) > 1:
                # Chroma rejects a mixed list outright; keyword search alone would not notice.
                raise FilterError(
                    f"filter {key!r} mixes value types {value!r}; give values of one type"
                )
            clauses.append({key: {"$in": value}})
        elif isinstance(value, str | int | float | bool):
            clauses.append({key: value})
        else:
            raise FilterError(f"filter {key!r} must be a string, number, boolean or a list of them")
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


def _same(value: Any, wanted: Any) -> bool:
    """Equality as Chroma applies it: a boolean never equals a number (True == 1 in Python)."""
    return isinstance(value, bool) == isinstance(wanted, bool) and bool(value == wanted)


def matches(metadata: Mapping[str, Any], where: Mapping[str, Any] | None) -> bool:
    """Whether a chunk's metadata satisfies a ``where`` clause built by ``build_where``."""
    if not where:
        return True
    if "$and" in where:
        return all(matches(metadata, clause) for clause in where["$and"])
    ((key, condition),) = where.items()
    value = metadata.get(key)
    if isinstance(condition, dict):
        ((op, operand),) = condition.items()
        if op == "$in":
            return any(_same(value, v) for v in operand)
        if value is None:
            return False
        return bool(value >= operand) if op == "$gte" else bool(value <= operand)
    return _same(value, condition)


def _standardise(values: np.ndarray) -> np.ndarray:
    """Per-query z-scores: puts cosine and BM25 on one scale before they are mixed."""
    if values.size == 0:
        return values
    std = float(values.std())
    if std < 1e-9:
        return np.zeros_like(values)
    return (values - float(values.mean())) / std


def fuse(semantic: np.ndarray, keyword: np.ndarray, keyword_weight: float) -> np.ndarray:
    """Convex mix of the two calibrated signals over one candidate set."""
    return (1.0 - keyword_weight) * _standardise(semantic) + keyword_weight * _standardise(keyword)
