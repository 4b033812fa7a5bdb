"""Which stored version of each document is the one readers see.

A document is written as a new *revision* beside the old one and becomes visible
only when complete, so a replacement cut short (a killed process, a failing
embedder, a Chroma outage) never loses the old version nor shows half of the new.
Every chunk carries its revision (nanoseconds at ingestion, rising per document);
chunk 0 of a revision is written last, after every other chunk of it, and records
how many chunks the revision has. A revision is complete when its chunk 0 is
stored and the count matches; readers see each document's newest complete
revision. Chunks stored before revisions existed carry none and count as complete.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

REVISION = "revision"
REVISION_CHUNKS = "revision_chunks"
ABANDONED_AFTER_NS = 24 * 3600 * 10**9
"""An incomplete revision this old is no ingestion still running: its chunks are removed."""


def revision_of(metadata: Mapping[str, Any]) -> int:
    """The revision a chunk belongs to (0 for chunks written before revisions existed)."""
    return int(metadata.get(REVISION, 0))


def next_revision(existing: Iterable[int]) -> int:
    """A revision newer than every existing one of a document, even if the clock went back."""
    return max(time.time_ns(), max(existing, default=0) + 1)


def chunk_id(doc_id: str, revision: int, index: int) -> str:
    """A chunk's id: unique per revision, so two versions of a document can coexist."""
    return f"{doc_id}:{revision:016x}:{index:04d}"


@dataclass(frozen=True)
class Revisions:
    """What a set of chunk metadatas says about the documents they belong to."""

    visible: dict[str, int]
    """doc_id -> its newest complete revision."""
    complete: frozenset[tuple[str, int]]
    """Every complete (doc_id, revision)."""

    def shows(self, metadata: Mapping[str, Any]) -> bool:
        """Whether a chunk belongs to its document's visible revision."""
        return self.visible.get(str(metadata["doc_id"])) == revision_of(metadata)

    def leftovers(self, metadata: Mapping[str, Any], now_ns: int) -> bool:
        """Whether a hidden chunk can go: its revision is older than the visible one (a
        replacement that finished, or one that was overtaken), or it is incomplete and
        older than ``ABANDONED_AFTER_NS`` (an ingestion that died)."""
        doc_id, revision = str(metadata["doc_id"]), revision_of(metadata)
        shown = self.visible.get(doc_id)
        if shown == revision:
            return False
        if shown is not None and revision < shown:
            return True
        return (doc_id, revision) not in self.complete and now_ns - revision > ABANDONED_AFTER_NS


def read_revisions(metadatas: Iterable[Mapping[str, Any]]) -> Revisions:
    """Find the complete revisions among all the chunks of some documents.

    ``metadatas`` must hold every chunk of each document it mentions (a lookup by
    ``doc_id``); otherwise an older revision could pass for the newest.
    """
    counts: Counter[tuple[str, int]] = Counter()
    expected: dict[tuple[str, int], int] = {}
    for meta in metadatas:
        key = (str(meta["doc_id"]), revision_of(meta))
        counts[key] += 1
        if REVISION_CHUNKS in meta:
            expected[key] = int(meta[REVISION_CHUNKS])
    complete = frozenset(key for key, n in counts.items() if key[1] == 0 or expected.get(key) == n)
    visible: dict[str, int] = {}
    for doc_id, revision in complete:
        if revision >= visible.get(doc_id, -1):
            visible[doc_id] = revision
    return Revisions(visible, complete)
