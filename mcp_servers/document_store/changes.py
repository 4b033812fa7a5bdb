"""The collection's change marker: a record in Chroma, beside the collection, that every
write replaces with a fresh value, so every process on the same Chroma server can tell that
the collection changed since it last looked.

A chunk count cannot tell: a document deleted and another of the same size added through
another docs server leave the count as it was. The marker is a random token rather than a
counter so concurrent writers need no read-modify-write: any write after a reader's look
makes the marker differ from what the reader saw.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

MARKER_SUFFIX = ".changes"
_MARKER_ID = "generation"
# Chroma stores a vector with every record; the marker's means nothing and is one number long.
_NO_VECTOR = [[0.0]]


class ChangeMarker:
    """Reads and bumps the marker of one collection (in ``<collection>.changes``)."""

    def __init__(self, client: Any, collection: str):
        self._records = client.get_or_create_collection(
            f"{collection}{MARKER_SUFFIX}", embedding_function=None
        )

    def read(self) -> str | None:
        """The current marker; None when nothing has been written since markers existed."""
        found = self._records.get(ids=[_MARKER_ID], include=["metadatas"])
        metas = found["metadatas"] or []
        return str(metas[0]["generation"]) if metas else None

    def bump(self) -> str:
        """Replace the marker after a write (or an attempt at one); returns the new value."""
        value = uuid.uuid4().hex
        self._records.upsert(
            ids=[_MARKER_ID],
            metadatas=[{"generation": value, "changed_at": datetime.now(UTC).isoformat()}],
            embeddings=_NO_VECTOR,
        )
        return value
