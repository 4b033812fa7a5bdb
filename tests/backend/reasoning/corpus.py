"""Small, realistic corpora of sources for the reasoning tests."""

from __future__ import annotations

from backend.reasoning.models import ScoreBreakdown, Source


def source(
    id: str,
    title: str,
    text: str,
    *,
    url: str | None = None,
    score: float = 0.7,
    sub_query_ids: list[str] | None = None,
    doc_id: str | None = None,
    retrieval_score: float = 0.5,
) -> Source:
    """A scored web source; the breakdown is a plausible split of ``score``."""
    return Source(
        id=id,
        server="web",
        tool="search",
        title=title,
        url=url or f"https://example.org/{id.lower()}",
        doc_id=doc_id,
        text=text,
        word_count=len(text.split()),
        retrieval_score=retrieval_score,
        sub_query_ids=sub_query_ids or [],
        score=score,
        score_breakdown=ScoreBreakdown(domain=0.65, recency=0.6, depth=0.4),
    )


def sectioned(id: str, title: str, sections: list[tuple[str, str]]) -> Source:
    """A document source whose retrieved chunks sit under headings: (heading, text) each,
    the text joining them as retrieval does."""
    doc = source(id, title, "\n\n".join(text for _, text in sections))
    doc.chunks = [text for _, text in sections]
    doc.chunk_sections = [heading for heading, _ in sections]
    doc.chunk_ids = [f"{id.lower()}:{n}" for n in range(len(sections))]
    return doc


ARTHURS = (
    "Arthur's Magazine (1844–1846) was an American literary periodical published in "
    "Philadelphia in the 19th century. Edited by T.S. Arthur, it featured work by Edgar A. Poe, "
    "J.H. Ingraham, Sarah Josepha Hale, Thomas G. Spear, and others. In May 1846 it was merged "
    "into Godey's Lady's Book."
)
FIRST_FOR_WOMEN = (
    "First for Women is a woman's magazine published by Bauer Media Group in the USA. The "
    "magazine was started in 1989. It is based in Englewood Cliffs, New Jersey. In 2011 the "
    "circulation of the magazine was 1,310,696 copies."
)
ARTHURS_HISTORY = (
    "Timothy Shay Arthur founded Arthur's Magazine in Philadelphia in 1844. The monthly "
    "printed fiction, poetry and moral essays for a middle-class readership. Two years later it "
    "was absorbed by Godey's Lady's Book."
)


def magazines() -> list[Source]:
    """Sources for "Which magazine was started first, Arthur's Magazine or First for Women?"."""
    return [
        source(
            "S1",
            "Arthur's Magazine",
            ARTHURS,
            url="https://en.wikipedia.org/wiki/Arthur%27s_Magazine",
            score=0.62,
            sub_query_ids=["q2", "q1"],
            retrieval_score=0.9,
        ),
        source(
            "S2",
            "First for Women",
            FIRST_FOR_WOMEN,
            url="https://en.wikipedia.org/wiki/First_for_Women",
            score=0.62,
            sub_query_ids=["q3", "q1"],
            retrieval_score=0.85,
        ),
        source(
            "S3",
            "A history of Philadelphia's literary monthlies",
            ARTHURS_HISTORY,
            url="https://history.example.edu/monthlies",
            score=0.81,
            sub_query_ids=["q2"],
            retrieval_score=0.7,
        ),
    ]


INCEPTION = (
    "Inception is a 2010 science fiction action film written and directed by Christopher Nolan. "
    "The film stars Leonardo DiCaprio as a professional thief who steals information by "
    "infiltrating the subconscious of his targets. It premiered in London on 8 July 2010."
)
INCEPTION_MUSIC = (
    "The soundtrack for Inception was composed by Hans Zimmer. Zimmer built the score around a "
    "slowed-down recording of a French chanson, stretching it into the film's brass motif."
)
NOLAN = (
    "Christopher Edward Nolan (born 30 July 1970) is a British and American filmmaker. Born in "
    "Westminster, London, Nolan developed an interest in filmmaking from a young age. He "
    "studied English literature at University College London."
)


RAG_QUESTION = "What is retrieval-augmented generation? How does it reduce hallucinations?"


def rag() -> list[Source]:
    """Sources for a two-part question about retrieval-augmented generation."""
    return [
        source(
            "S1",
            "Retrieval-augmented generation - Wikipedia",
            "Retrieval-augmented generation (RAG) is a technique that enables large language "
            "models to retrieve and incorporate new information from external data sources. "
            "With RAG, LLMs first refer to a specified set of documents, then respond to user "
            "queries. RAG also reduces the need to retrain LLMs with new data.",
            url="https://en.wikipedia.org/wiki/Retrieval-augmented_generation",
            score=0.62,
            sub_query_ids=["q2"],
        ),
        source(
            "S2",
            "What is RAG? | AWS",
            "Retrieval-Augmented Generation (RAG) is the process of optimizing the output of a "
            "large language model, so it references an authoritative knowledge base outside of "
            "its training data sources before generating a response. By grounding answers in "
            "retrieved documents, RAG reduces hallucinations because the model can cite the "
            "facts it uses.",
            url="https://aws.amazon.com/what-is/retrieval-augmented-generation/",
            score=0.75,
            sub_query_ids=["q2", "q3"],
        ),
        source(
            "S3",
            "Survey: hallucination in LLMs",
            "Grounding generation in retrieved evidence lowers the rate of hallucinated "
            "statements in question answering. However, retrieval does not eliminate "
            "hallucinations: models still ignore or misread retrieved passages.",
            url="https://arxiv.org/abs/2311.05232",
            score=0.85,
            sub_query_ids=["q3"],
        ),
    ]


# A default setup spelled out in code, after a lead-in that says so.
DEFAULT_SETUP = (
    "Using the defaults, as above, is equivalent to:\n\n"
    "```python\n"
    "import logging\n"
    "import structlog\n\n"
    "structlog.configure(\n"
    "    processors=[\n"
    "        structlog.processors.add_log_level,\n"
    "        structlog.processors.StackInfoRenderer(),\n"
    '        structlog.processors.TimeStamper(fmt="%Y-%m-%d %H:%M:%S", utc=False),\n'
    "        structlog.dev.ConsoleRenderer()\n"
    "    ],\n"
    "    logger_factory=structlog.PrintLoggerFactory(),\n"
    ")\n"
    "```\n"
)


# humanize's README: a `>>>` session led by a sentence, and one right under its heading
SESSIONS = [
    (
        "Smaller units",
        "If seconds are too large, set `minimum_unit` to milliseconds:\n\n"
        '```pycon\n>>> humanize.naturaldelta(delta, minimum_unit="milliseconds")\n'
        "'4 milliseconds'\n```",
    ),
    (
        "File size humanization",
        "```pycon\n>>> import humanize\n>>> humanize.naturalsize(1_000_000)\n'1.0 MB'\n"
        ">>> humanize.naturalsize(1_000_000, binary=True)\n'976.6 KiB'\n```",
    ),
]
