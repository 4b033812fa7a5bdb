"""Scholarly papers from OpenAlex and arXiv (``mcp_servers.scholarly``)."""

from __future__ import annotations

import re
from typing import Any

from backend.sources.base import SearchCall, SourceSpec

# A question about what research or the literature says, not about a product or a how-to.
_RESEARCH = re.compile(
    r"\b(?:papers?|preprints?|arxiv|publications?|published|literature|studies|study|"
    r"research(?:ers)?|survey|meta-analys[ie]s|systematic review|peer[- ]reviewed|journals?|"
    r"state of the art|sota|evidence|findings|experiments?|clinical trials?|citations?|"
    r"cited|hypothes[ie]s|theory|theories)\b",
    re.IGNORECASE,
)


def is_research_question(query: str) -> bool:
    """Does the question ask what research, papers or the literature say?"""
    return bool(_RESEARCH.search(query))


def adapt(paper: dict[str, Any]) -> dict[str, Any]:
    """A paper -> Source fields: its abstract is the text (the title when it has none), its
    venue and publication date go to scoring. Its retrieval score is how cited it is, kept
    within 0–1 like the other sources' (``c / (c + 100)``: 12 citations 0.11, 3,100 0.97),
    so a famous paper does not outrank every other source by its count alone."""
    abstract = " ".join(str(paper.get("abstract") or "").split())
    authors = paper.get("authors") or []
    byline = ", ".join(authors[:3]) + (" et al." if int(paper.get("author_count") or 0) > 3 else "")
    year = paper.get("year")
    title = str(paper["title"])
    cited = max(0, int(paper.get("citation_count") or 0))
    return {
        "title": f"{title} ({byline}, {year})" if byline and year else title,
        "url": paper["url"],
        "text": abstract or title,
        "published_date": paper.get("published_date") or (f"{year}-01-01" if year else None),
        "venue": paper.get("venue"),
        "word_count": len(abstract.split()),
        "retrieval_score": round(cited / (cited + 100), 4),
    }


SOURCE = SourceSpec(
    name="scholarly",
    module="mcp_servers.scholarly",
    port=8104,
    description="scholarly papers (OpenAlex, arXiv)",
    url_setting="scholarly_server_url",
    settings=(
        "log_level",
        "server_log_dir",
        "openalex_url",
        "arxiv_url",
        "scholarly_email",
        "scholarly_timeout",
        "scholarly_cache_ttl",
        "scholarly_max_wait",
        "openalex_rate_per_minute",
        "arxiv_rate_per_minute",
    ),
    searches=(SearchCall("search_papers", adapt, kind="paper", max_query=500),),
    route="topic",
    topic=is_research_question,
    rank=3,
    prompt="scholarly = research papers (OpenAlex, arXiv)",
    prompt_route="Route questions about research, papers or the literature to scholarly when "
    "it is available",
    required="scholarly_email",
    missing_required="off: set MARSA_SCHOLARLY_EMAIL (the contact address OpenAlex and arXiv "
    "ask API users for) to search papers",
    health_unset="no MARSA_SCHOLARLY_EMAIL: scholarly search is off",
    probes=(("openalex_url", "/works?per-page=1&select=id"), ("arxiv_url", "")),
)
