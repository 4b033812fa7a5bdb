"""A short section read whole: the answer to "how does X work?" when a heading names X.

A mechanism is told in a few sentences, one after another: "In the `initialize` request, the
client MUST send a protocol version it supports. … If the server supports the requested
protocol version, it MUST respond with the same version. Otherwise, … If the client does not
support the version in the server's response, it SHOULD disconnect." under "Version
Negotiation". A window of one to three sentences (``passages``) shows one step of it. A
section of a few sentences of prose, from its heading to the next heading, code block or
table, is offered whole as one passage for such questions (``pick``).
"""

from __future__ import annotations

from typing import Final

from backend.reasoning.models import Source
from backend.reasoning.offline.markup import plain
from backend.reasoning.offline.passages import (
    Passage,
    breaks_between,
    chunk_spans,
    section_at,
    sentences_of,
)

MIN_SECTION_SENTENCES: Final = 3  # fewer: a window of ``passages`` holds them all already
MAX_SECTION_SENTENCES: Final = 8
MAX_SECTION_WORDS: Final = 160


def section_passages(source: Source) -> list[Passage]:
    """Each short section of the source as one passage: all its sentences of prose from the
    start of the section, none past a code block, table or heading, when every one of them
    can answer (no lead-in to a list left without its list)."""
    sentences = sentences_of(source)
    spans = chunk_spans(source)
    headings = [section_at(source, spans, s.start, s.text) for s in sentences]
    out: list[Passage] = []
    i = 0
    while i < len(sentences):
        heading = headings[i]
        j = i + 1
        while (
            j < len(sentences)
            and headings[j] == heading
            and not breaks_between(source.text[sentences[j - 1].end : sentences[j].start])
        ):
            j += 1
        run = sentences[i:j]
        opens_section = i == 0 or headings[i - 1] != heading
        quote = source.text[run[0].start : run[-1].end]
        if (
            heading
            and opens_section
            and MIN_SECTION_SENTENCES <= len(run) <= MAX_SECTION_SENTENCES
            and len(quote.split()) <= MAX_SECTION_WORDS
            and all(s.usable and not s.lead_in and not s.goes_on for s in run)
        ):
            out.append(
                Passage(
                    source,
                    [s.text for s in run],
                    quote,
                    plain(quote),
                    first=i,
                    section=heading,
                    start=run[0].start,
                    whole_section=True,
                )
            )
        i = j
    return out
