"""Ranking metrics (binary relevance), latency percentiles, and the tests of what a reader
sees in a run's direct answer and report."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def ndcg_at_k(ranked: Sequence[str], relevant: set[str], k: int = 10) -> float:
    """nDCG@k with binary gains (as BEIR computes it for SciFact)."""
    dcg = sum(1.0 / math.log2(i + 2) for i, doc in enumerate(ranked[:k]) if doc in relevant)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(relevant), k)))
    return dcg / ideal if ideal else 0.0


def recall_at_k(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    """Fraction of the relevant documents found in the first k."""
    if not relevant:
        return 0.0
    return len(set(ranked[:k]) & relevant) / len(relevant)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


# --- what a reader sees -------------------------------------------------------------

_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")  # [text](url) reads as its text
_MARKUP = re.compile(r"[`*]+|^\s*(?:#{1,6}|>|[-+]|\d+\.)\s+", re.MULTILINE)
# _word_ and __word__ read as the word; snake_case, `_type` and `__init__` in code stay as written
# (upper case too: EVENT_JOB_MAX_INSTANCES is a name, not "EVENT" + emphasis + "MAX_INSTANCES")
_EMPHASIS = re.compile(r"(?<![A-Za-z0-9_])(_{1,2})(?=[^\s_])(.+?)(?<=[^\s_])\1(?![A-Za-z0-9_])")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)


def plain_text(text: str) -> str:
    """Lower case, Markdown markup (code ticks, emphasis, links, headings, list marks)
    dropped, any run of whitespace one space: the text as a reader takes it in."""
    text = _LINK.sub(r"\1", text)
    # emphasis is read outside code spans only: "`_type`" is a name, "_guide_" a word
    pieces = _CODE_SPAN.split(text)  # text, ticks, code, ticks, code, …, text
    out = []
    for k, piece in enumerate(pieces):
        if k % 3 == 0:
            out.append(_EMPHASIS.sub(r"\2", piece))
        elif k % 3 == 2:
            out.append(f" {piece} ")
    return " ".join(_MARKUP.sub(" ", "".join(out)).lower().split())


def mentions_phrase(text: str, phrase: str) -> bool:
    """True when ``phrase`` occurs in ``text`` as whole words ("308" is not in "3080"),
    ignoring case, whitespace and markup on both sides."""
    wanted = plain_text(f"`{phrase.replace('`', '')}`")  # a phrase is literal: "_type" stays
    if not wanted:
        return False
    # a word edge is required only where the phrase itself starts or ends with a word
    before = r"(?<![a-z0-9])" if wanted[0].isalnum() else ""
    after = r"(?![a-z0-9])" if wanted[-1].isalnum() else ""
    return re.search(before + re.escape(wanted) + after, plain_text(text)) is not None


def meets_must_include(text: str, groups: Sequence[Sequence[str]]) -> bool:
    """True when every group has at least one of its alternatives in ``text``; a question
    with no groups has nothing a text could be checked against, so it never passes."""
    return bool(groups) and all(
        any(mentions_phrase(text, alt) for alt in group) for group in groups
    )


def is_gold_file(source: Mapping[str, Any], gold_files: Iterable[str]) -> bool:
    """True when the source is one of the gold files, named relative to the corpus folder:
    its path ends with ``/<gold>`` or equals it, or a relative path field equals it."""
    names = [
        str(source[key]).replace("\\", "/")
        for key in ("path", "relative_path", "rel_path")
        if source.get(key)
    ]
    for gold in gold_files:
        gold = gold.replace("\\", "/").lstrip("/")
        if any(name == gold or name.endswith("/" + gold) for name in names):
            return True
    return False


def cited_sources(result: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The run's sources that at least one citation of the report points to."""
    cited = {c.get("source_id") for c in result.get("citations", [])}
    return [s for s in result.get("sources", []) if s.get("id") in cited]


def cites_gold_file(result: Mapping[str, Any], gold_files: Iterable[str]) -> bool:
    """True when a source the report cites is one of the gold files."""
    gold = list(gold_files)
    return any(is_gold_file(source, gold) for source in cited_sources(result))


def answer_found(result: Mapping[str, Any]) -> bool:
    """Whether the run says the sources answer the question (runs from before the engine
    reported it always claimed an answer)."""
    return bool(result.get("answer_found", True))


def share(flags: Iterable[bool]) -> float | None:
    """The fraction of true flags, rounded to 4 places; None when there are none."""
    values = list(flags)
    return round(sum(values) / len(values), 4) if values else None
