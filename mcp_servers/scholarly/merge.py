"""One list from several sources' rankings: interleaved, and a paper found twice kept once."""

from __future__ import annotations

from itertools import zip_longest

from mcp_servers.scholarly.ids import dedup_keys
from mcp_servers.scholarly.models import Paper


def combine(first: Paper, second: Paper) -> Paper:
    """``first`` with what only ``second`` knows filled in. A venue wins over a preprint
    server's name ('arXiv', OpenAlex's 'arXiv (Cornell University)'), whichever source has it."""
    values = first.model_dump()
    for name, value in second.model_dump().items():
        if values.get(name) in (None, "", []) and value not in (None, "", []):
            values[name] = value
    if _preprint(first.venue) and second.venue and not _preprint(second.venue):
        values["venue"] = second.venue
    if first.citation_count is None:
        values["citation_count"] = second.citation_count
    values["sources"] = sorted({*first.sources, *second.sources})
    values["is_open_access"] = bool(first.is_open_access or second.is_open_access)
    return Paper(**values)


def _preprint(venue: str | None) -> bool:
    return venue is None or venue.lower().startswith("arxiv")


def merge_rankings(rankings: list[list[Paper]], limit: int) -> list[Paper]:
    """Take each source's first paper, then each one's second, …; a paper sharing a DOI or an
    arXiv id with one already taken is merged into it rather than listed again."""
    merged: list[Paper] = []
    index: dict[tuple[str, str], int] = {}
    for tier in zip_longest(*rankings):
        for paper in tier:
            if paper is None:
                continue
            keys = dedup_keys(paper.doi, paper.arxiv_id)
            at = next((index[key] for key in keys if key in index), None)
            if at is None:
                at = len(merged)
                merged.append(paper)
            else:
                merged[at] = combine(merged[at], paper)
            for key in dedup_keys(merged[at].doi, merged[at].arxiv_id):
                index[key] = at
    return merged[:limit]
