"""One source per document: the chunks of a document retrieved in a run become one Source.

A document store returns chunks; a reader wants documents. Chunks of the same document are
kept in chunk order and joined, an adjacent chunk's overlap with the one before it given once,
so every sentence of the joined text is a verbatim slice of what was retrieved and a quote
can be checked against it. Chunks that are not adjacent are joined with a blank line (a block
break, so no sentence runs across the gap).

A document's status (draft, proposal, deprecated, superseded) comes from its metadata when the
store gives one, else from a status line near its start ("Status: Draft", "**Status**: Proposal").
"""

from __future__ import annotations

import re
from typing import Any, Final

from backend.reasoning.models import DocumentStatus

MIN_OVERLAP_WORDS: Final = 3
MAX_OVERLAP_WORDS: Final = 200
_CHUNK_NUMBER: Final = re.compile(r":(\d+)$")
_STATUS_WORDS: Final[dict[str, DocumentStatus]] = {
    "draft": "draft",
    "proposal": "proposal",
    "proposed": "proposal",
    "deprecated": "deprecated",
    "superseded": "superseded",
    "obsolete": "superseded",
    "withdrawn": "superseded",
    "rejected": "proposal",
}
_STATUS_LINE: Final = re.compile(
    r"^\W{0,4}status\W{0,4}\s*[:|]\s*\W{0,4}(?P<word>[a-z]+)", re.IGNORECASE | re.MULTILINE
)
_HEAD_CHARS: Final = 600
_FENCE_LINE: Final = re.compile(r"^[ \t]*(?:```|~~~)", re.MULTILINE)
_REOPENED: Final = re.compile(r"\A(?:```|~~~)[ \t]*\n")  # the store's mark: "starts in code"


def chunk_number(chunk_id: str | None) -> int | None:
    """The position of a chunk in its document ("d1:0002" → 2), when the id says it."""
    match = _CHUNK_NUMBER.search(chunk_id or "")
    return int(match.group(1)) if match else None


def join_chunks(chunk_ids: list[str], texts: list[str]) -> str:
    """The chunks' texts in order, an adjacent pair's overlap once.

    Code blocks stay code: a chunk the store cut inside a code block starts with a fence
    that reopens it; after the chunk before it (still inside that block) the fence is
    dropped, or it would close the block and turn the rest of the code into prose and the
    block's real closing fence into an opening one that swallows the prose after it. Before a
    chunk that does not follow on, an open block is closed."""
    joined = ""
    previous: int | None = None
    for chunk_id, text in zip(chunk_ids, texts, strict=True):
        number = chunk_number(chunk_id)
        if not joined:
            joined = text
        elif previous is not None and number == previous + 1:
            reopened = _REOPENED.match(text)
            if reopened and in_code_block(joined):
                text = text[reopened.end() :]
            joined += _after_overlap(joined, text)
        else:
            joined += ("\n```" if in_code_block(joined) else "") + "\n\n" + text
        previous = number
    return joined


def in_code_block(text: str) -> bool:
    """Does the text end inside a fenced code block (an odd number of fence lines)?"""
    return len(_FENCE_LINE.findall(text)) % 2 == 1


def _after_overlap(left: str, right: str) -> str:
    """``right`` without the words it repeats from the end of ``left`` (with a separator)."""
    tail = left.split()[-MAX_OVERLAP_WORDS:]
    head = right.split()[:MAX_OVERLAP_WORDS]
    for size in range(min(len(tail), len(head)), MIN_OVERLAP_WORDS - 1, -1):
        if tail[-size:] == head[:size]:
            return _after_words(right, size)
    return "\n\n" + right


def _after_words(text: str, count: int) -> str:
    """``text`` after its first ``count`` whitespace-separated words, with the whitespace
    that followed them (a line or paragraph break stays one)."""
    matches = list(re.finditer(r"\S+", text))
    return text[matches[count - 1].end() :] if count <= len(matches) else ""


def add_chunk(source: dict[str, Any], chunk_id: str, text: str, section: str = "") -> bool:
    """Add a retrieved chunk (and the heading of its section) to a document's source, in
    chunk order; False if it was there."""
    ids: list[str] = list(source.get("chunk_ids") or [])
    chunks: list[str] = list(source.get("chunks") or [])
    sections: list[str] = list(source.get("chunk_sections") or [])
    if chunk_id in ids:
        return False
    sections += [""] * (len(ids) - len(sections))
    ids.append(chunk_id)
    chunks.append(text)
    sections.append(section)
    order = sorted(range(len(ids)), key=lambda i: (chunk_number(ids[i]) or 0, ids[i]))
    source["chunk_ids"] = [ids[i] for i in order]
    source["chunks"] = [chunks[i] for i in order]
    source["chunk_sections"] = [sections[i] for i in order]
    source["text"] = join_chunks(source["chunk_ids"], source["chunks"])
    return True


def document_status(metadata: dict[str, Any], text: str) -> DocumentStatus | None:
    """Draft, proposal, deprecated or superseded, from metadata or a status line at the top."""
    for key in ("status", "state", "stage"):
        value = metadata.get(key)
        first = value.strip().split()[0].lower().strip(".,;:") if isinstance(value, str) else ""
        if first in _STATUS_WORDS:  # "Draft", "superseded by ADR-12"
            return _STATUS_WORDS[first]
    for key in ("draft", "deprecated", "superseded"):
        if metadata.get(key) in (True, "true", "True", "yes"):
            return _STATUS_WORDS[key]
    if metadata.get("superseded_by"):
        return "superseded"
    match = _STATUS_LINE.search(text[:_HEAD_CHARS])
    if match:
        return _STATUS_WORDS.get(match.group("word").lower())
    return None
