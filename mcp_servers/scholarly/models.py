"""What the scholarly tools return: papers from OpenAlex and arXiv in one shape."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Source = Literal["openalex", "arxiv"]
MAX_AUTHORS = 25


class Paper(BaseModel):
    """One paper, as found in one source or merged from both."""

    title: str = Field(description="Title of the paper.")
    authors: list[str] = Field(description=f"Author names in order (at most {MAX_AUTHORS}).")
    author_count: int = Field(description="How many authors the paper has in all.")
    venue: str | None = Field(
        default=None, description="Journal or conference, or 'arXiv' for a preprint."
    )
    year: int | None = Field(default=None, description="Year of publication.")
    published_date: str | None = Field(default=None, description="YYYY-MM-DD when known.")
    abstract: str | None = Field(default=None, description="The abstract as plain text.")
    citation_count: int | None = Field(
        default=None, description="Citations OpenAlex counts (None when only arXiv has it)."
    )
    doi: str | None = Field(default=None, description="Bare DOI, lower case: '10.1234/abc'.")
    arxiv_id: str | None = Field(default=None, description="arXiv id without version.")
    openalex_id: str | None = Field(default=None, description="OpenAlex work id, 'W…'.")
    url: str = Field(description="Where to read or cite it: the DOI link, arXiv or OpenAlex page.")
    pdf_url: str | None = Field(default=None, description="An open-access PDF, when there is one.")
    is_open_access: bool | None = Field(
        default=None, description="Whether a free full text exists (arXiv: always)."
    )
    sources: list[Source] = Field(description="Which APIs this record came from.")


class SourceFailure(BaseModel):
    """A source that could not answer; the other one's papers are still returned."""

    source: Source
    error: str = Field(description="What went wrong and what to do about it.")


class PaperSearchResult(BaseModel):
    """What ``search_papers`` returns."""

    query: str = Field(description="The query as searched (whitespace collapsed).")
    results: list[Paper] = Field(
        description="Papers, the sources' rankings interleaved, duplicates merged."
    )
    failed_sources: list[SourceFailure] = Field(
        description="Sources asked that did not answer (empty when all did)."
    )
    cached: bool = Field(description="True when every source answered from this server's cache.")
