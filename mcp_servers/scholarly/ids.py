"""Paper identifiers: what ``get_paper`` accepts, and the keys duplicates are found by."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from fastmcp.exceptions import ToolError

_DOI = re.compile(r"^10\.\d{4,9}/\S+$")
_ARXIV_NEW = re.compile(r"^(\d{4}\.\d{4,5})(v\d+)?$")
_ARXIV_OLD = re.compile(r"^([a-z-]+(?:\.[A-Za-z]{2})?/\d{7})(v\d+)?$")
_OPENALEX = re.compile(r"^[Ww]\d{2,12}$")
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)
_ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf)/([^?#]+?)(?:\.pdf)?/?$", re.IGNORECASE)
_DOI_PREFIXES = ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "doi:")


@dataclass(frozen=True)
class PaperId:
    """A parsed identifier: which kind, and its canonical value."""

    kind: Literal["doi", "arxiv", "openalex"]
    value: str


def normalize_doi(value: str | None) -> str | None:
    """A DOI without its resolver prefix, lower case (DOIs are case-insensitive)."""
    if not value:
        return None
    text = value.strip()
    for prefix in _DOI_PREFIXES:
        if text.lower().startswith(prefix):
            text = text[len(prefix) :]
            break
    text = text.lower()
    return text if _DOI.match(text) else None


def arxiv_id(value: str | None) -> str | None:
    """The versionless arXiv id in an id, an arXiv URL or an arXiv DOI, else None."""
    if not value:
        return None
    text = value.strip()
    match = _ARXIV_DOI.match(normalize_doi(text) or "") or _ARXIV_URL.search(text)
    if match:
        text = match.group(1)
    elif text.lower().startswith("arxiv:"):
        text = text[len("arxiv:") :]
    for pattern in (_ARXIV_NEW, _ARXIV_OLD):
        if match := pattern.match(text):
            return match.group(1)
    return None


def parse_paper_id(value: str) -> PaperId:
    """Recognise a DOI, an arXiv id or an OpenAlex id (bare or as a URL)."""
    text = value.strip()
    if found := arxiv_id(text):
        return PaperId("arxiv", found)
    if doi := normalize_doi(text):
        return PaperId("doi", doi)
    work = text.removeprefix("https://openalex.org/").removeprefix("http://openalex.org/")
    if _OPENALEX.match(work):
        return PaperId("openalex", work.upper())
    raise ToolError(
        f"{value!r} is not a paper id this server knows. Give a DOI ('10.1038/nature14539' or "
        "'https://doi.org/…'), an arXiv id ('2106.09685', 'arXiv:hep-th/9711200') or an "
        "OpenAlex work id ('W2741809807')."
    )


def dedup_keys(doi: str | None, arxiv: str | None) -> set[tuple[str, str]]:
    """The keys a paper is known by: its DOI, its arXiv id, and the DOI arXiv mints for it."""
    keys: set[tuple[str, str]] = set()
    if doi:
        keys.add(("doi", doi))
    if arxiv:
        keys.add(("arxiv", arxiv.lower()))
        keys.add(("doi", f"10.48550/arxiv.{arxiv.lower()}"))
    return keys
