"""Follow-up searches for the offline engine, built from what the first searches found.

* **Bridge hops** (multi-hop questions): the best sources of the latest hop — ranked by their
  sentence most similar to the question (cosine + 0.2 × key-term overlap + 0.05 × quality) —
  give names the question does not mention (the best source two, the next one): the source's
  title if it reads as a name (short, mostly capitalised, not a path or file name), then the
  capitalised spans of that sentence nearest a key term. The hop-2 query is the name plus
  the question's key terms that sentence does not already contain ("Christopher Nolan
  born"), or, when that sentence holds them all, every key term the question asks beyond its
  own names: a follow-up is never a bare name. A date, year or number is never a bridge
  ("June", "2010"), nor a word the sources capitalise only where a line, sentence or label
  opens ("Caution:", "Optionally, …", "**Added** in 2.1"). A second source gives a name
  only if it ranks within :data:`BRIDGE_SOURCE_SHARE` of the first. A bridge hop whose best
  sentence holds every term it asked about is answered, and no further hop is built (at
  most :data:`MAX_HOPS` hops). Simple and list questions get bridges too: they may hide one.
* **Retries** (comparisons): a compared entity that no source mentions is searched on its own
  (the planner checked it is a name, not a date or a cut-off phrase).
* **Expansion**: when at least :data:`UNVERIFIABLE_SHARE` of the verdicts are unverifiable,
  the question plus the three most frequent new words of the best source.

No sub-query text (compared lower-cased, single-spaced) is ever issued twice.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Final

from backend.reasoning.models import Plan, Source, SubQuery, Verdict
from backend.reasoning.offline.claims import candidate_sentences
from backend.reasoning.offline.embedding import SentenceVectors
from backend.reasoning.offline.planner import usable_name
from backend.reasoning.offline.text import (
    STOPWORDS,
    capitalised_spans,
    content_words,
    key_terms,
    mentions,
    normalise,
    overlap,
    split_sentences,
    word_set,
    words,
)

MAX_HOPS: Final = 3
MAX_BRIDGES: Final = 3
NAMES_PER_SOURCE: Final = (2, 1)  # names followed from the best source, and from the next
BRIDGE_SOURCE_SHARE: Final = 0.85
UNVERIFIABLE_SHARE: Final = 0.5


def refine_plan(
    plan: Plan,
    sources: list[Source],
    verdicts: list[Verdict],
    iteration: int,
    vectors: SentenceVectors,
) -> list[SubQuery]:
    """Follow-up sub-queries: bridge hops for multi-hop questions, retries for compared
    entities nobody spoke about, and one expanded search when most claims were unverifiable.
    Never repeats a sub-query already in the plan; [] when there is nothing new to try.
    ``iteration`` is not needed: the no-repeat rule and :data:`MAX_HOPS` end the loop."""
    if not plan.sub_queries:
        return []
    seen = {normalise(sq.text) for sq in plan.sub_queries}
    new: list[SubQuery] = []
    last_hop = max(sq.hop for sq in plan.sub_queries)
    next_number = 1 + max(
        (int(sq.id[1:]) for sq in plan.sub_queries if sq.id[1:].isdigit()), default=0
    )

    def add(text: str, purpose: str, hop: int, servers: list[str]) -> None:
        nonlocal next_number
        key = normalise(text)
        if not key or key in seen:
            return
        seen.add(key)
        new.append(
            SubQuery(id=f"q{next_number}", text=text, sources=servers, hop=hop, purpose=purpose)
        )
        next_number += 1

    servers = plan.sub_queries[0].sources
    # A "simple" question may still hide a bridge (HotpotQA: "… by which Italian painter?"):
    # follow the best source's lead unless its best sentence already answers every term.
    if plan.kind in ("multi_hop", "simple", "list") and last_hop < MAX_HOPS:
        latest = [sq for sq in plan.sub_queries if sq.hop == last_hop]
        ids = {sq.id for sq in latest}
        pool = [s for s in sources if not s.sub_query_ids or set(s.sub_query_ids) & ids]
        if pool and not _bridge_resolved(latest, pool, plan, vectors):
            for entity, remaining in bridge_entities(plan, pool, vectors)[:MAX_BRIDGES]:
                add(" ".join([entity, *remaining]), f"bridge: {entity}", last_hop + 1, servers)
    if plan.kind == "comparison":
        for sq in plan.sub_queries:
            if not sq.purpose.startswith("entity: ") or sq.purpose.endswith("(retry)"):
                continue
            entity = sq.purpose.removeprefix("entity: ")
            if not any(mentions(f"{s.title}\n{s.text}", entity) for s in sources):
                add(entity, f"entity: {entity} (retry)", sq.hop + 1, sq.sources)
    unverifiable = sum(v.verdict == "unverifiable" for v in verdicts)
    if verdicts and unverifiable / len(verdicts) >= UNVERIFIABLE_SHARE and sources:
        best = _rank_sources(plan, sources, vectors)[0][1]
        extra = _top_terms(best.text, exclude=plan.query, k=3)
        if extra:
            add(" ".join([plan.query, *extra]), "expanded", last_hop + 1, servers)
    return new


def _bridge_resolved(
    latest: list[SubQuery], pool: list[Source], plan: Plan, vectors: SentenceVectors
) -> bool:
    """A bridge hop is done when its best source's best sentence holds every term the hop
    asked about beyond the bridge name ("Christopher Nolan born" → a sentence with "born")."""
    asked = [
        t
        for sq in latest
        if sq.purpose.startswith("bridge: ")
        for t in key_terms(sq.text, exclude=[sq.purpose.removeprefix("bridge: ")])
    ]
    if not asked and plan.kind in ("simple", "list"):
        asked = key_terms(plan.query)  # a simple question is answered when all of it is
    if not asked:
        return False
    _, _, sentence = _rank_sources(plan, pool, vectors)[0]
    return overlap(asked, sentence) == 1.0


def bridge_entities(
    plan: Plan, sources: list[Source], vectors: SentenceVectors
) -> list[tuple[str, list[str]]]:
    """Names in the best sources that the question does not mention, each with the question's
    key terms that the source's best sentence does not already answer."""
    found: list[tuple[str, list[str]]] = []
    names_in_plan = {e.lower() for e in plan.entities} | {
        sq.purpose.removeprefix("bridge: ").lower() for sq in plan.sub_queries
    }
    question_names = [w for e in plan.entities for w in words(e)]
    ranked = _rank_sources(plan, sources, vectors)
    lowered = " ".join(s.text for s in sources)
    for rank, (score, source, sentence) in enumerate(ranked[:2]):
        if score < BRIDGE_SOURCE_SHARE * ranked[0][0]:
            break
        asked = [t for t in plan.key_terms if t not in question_names] or plan.key_terms
        unanswered = [t for t in asked if overlap([t], sentence) == 0]
        # The best source's sentence may name two candidates ("Gene Hackman returned as Lex
        # Luthor, who creates … Nuclear Man"): nearness to a key term cannot tell which one
        # the question means, so its two nearest are followed; another source gives one.
        taken = 0
        title = _clean_title(source.title)
        if title and not _speaks_of(source.text, title):
            title = ""  # a page title its text never uses ("Introduction", "API") is no name
        if title and _written_lower(title, lowered):
            title = ""  # a one-word heading the sources also write in lower case
            # ("Initialization", "Tasks", "Serialization") names a topic, not a thing
        for name in [title, *_near_terms(sentence, plan.key_terms)]:
            if (
                name
                and name.lower() not in names_in_plan
                and not mentions(plan.query, name)
                and not any(mentions(name, e) for e in plan.entities)
                and usable_name(name)
                and not _common_word(name, sentence, lowered)
                and not _only_opens(name, sources)
                and not name.rstrip().endswith("-")
            ):
                names_in_plan.add(name.lower())
                own = set(words(name))
                found.append((name, [t for t in unanswered or asked if t not in own]))
                taken += 1
                if taken == NAMES_PER_SOURCE[rank]:
                    break
    return found


def _rank_sources(
    plan: Plan, sources: list[Source], vectors: SentenceVectors
) -> list[tuple[float, Source, str]]:
    """Sources by how well their best sentence answers the question, with that sentence."""
    usable: dict[str, list[str]] = {}
    for cand in candidate_sentences(sources):  # the claims' sentences: already embedded
        usable.setdefault(cand.source.id, []).append(cand.text)
    ranked = []
    for source in sources:
        sentences = usable.get(source.id) or split_sentences(source.text) or [source.text]
        sims = vectors.cosine([plan.query], sentences)[0]
        scores = [
            float(sims[i]) + 0.2 * overlap(plan.key_terms, s) for i, s in enumerate(sentences)
        ]
        best = max(range(len(sentences)), key=lambda i: (scores[i], -i))
        ranked.append(
            (scores[best] + 0.05 * (source.score or 0.5), source.id, source, sentences[best])
        )
    ranked.sort(key=lambda r: (-r[0], r[1]))
    return [(score, source, sentence) for score, _, source, sentence in ranked]


def _near_terms(sentence: str, terms: list[str]) -> list[str]:
    """Capitalised names in the sentence, closest to a key-term match first."""
    lowered = sentence.lower()
    hits = [m.start() for t in terms for m in re.finditer(re.escape(t[:5]), lowered)]
    names = capitalised_spans(sentence)
    if not hits:
        return names

    def distance(name: str) -> int:
        at = sentence.find(name)
        return min(abs(at - h) for h in hits)

    return sorted(names, key=lambda n: (distance(n), names.index(n)))


_CONNECTIVES: Final = word_set(
    "however therefore also then finally first second third instead otherwise additionally "
    "furthermore moreover note see thus hence meanwhile alternatively likewise"
)
# Words that describe or count what follows them ("Larger applications are …", "Earlier
# versions …", "Most users …"): a sentence's opening word, never a name
_MODIFIERS: Final = word_set(
    "larger smaller bigger newer older faster slower higher lower longer shorter better worse "
    "earlier later simpler easier most many some several other both"
)
_OBJECT_OPENERS: Final = word_set(
    "the a an that this these those all any each every with to for by from if when whether "
    "your its their our"
)


def _common_word(name: str, sentence: str, texts: str) -> bool:
    """A one-word "name" that is only capitalised because it opens the sentence ("Make the
    `file` argument required", "Permissions are implemented …"): the sources also write it in
    lower case, it is a connective ("However"), or it is a verb followed by its object
    ("Enforces that …"). "Paris is …" is still a name."""
    if " " in name.strip() or not sentence.lstrip(" *_`#>-").startswith(name):
        return False
    if _written_lower(name, texts):
        return True
    if name.lower() in _CONNECTIVES or name.lower() in _MODIFIERS:
        return True
    # A verb opening a sentence ("Enforces that all …", "Perform the …"): what follows it
    # is its object or clause. A name is followed by its verb or a comma ("Paris is …",
    # "Inception, a film …").
    opened = sentence.lstrip(" *_`#>-")
    # ("Reimplement `popitem` …", "Use `OrderedDict` …": a verb and the code it acts on;
    # "Inserting or updating a cache item …": a gerund)
    if re.match(rf"{re.escape(name)}\s+`", opened) or (
        name.lower().endswith("ing") and re.match(rf"{re.escape(name)}\s+(?:or|and)\b", opened)
    ):
        return True
    after = re.match(rf"{re.escape(name)}\s+(\w+)", opened)
    return after is not None and after.group(1).lower() in _OBJECT_OPENERS


# Where a capitalised word opens something: a line (after its list, heading or emphasis
# marks), a sentence, or a label ("Note:", "**Added**")
_OPENING: Final = r"\n[ \t>*#_|+-]*(?:\d+[.)]\s+)?|[.!?:]\s+[*_]*"


def _only_opens(name: str, sources: list[Source]) -> bool:
    """Is a one-word "name" capitalised only where a line, sentence or label opens ("Perform
    …", "Optionally, …", "Caution:", "Added in 2.1")? A proper name is capitalised inside a
    sentence too ("… written in Python"); a common word only where it opens one."""
    word = name.strip()
    if " " in word or not re.fullmatch(r"[A-Z][a-z]+(?:-[a-z]+)*", word):
        return False  # (an acronym or a CamelCase name is a name wherever it stands)
    if any(re.search(rf"\b{word}\b", s.title) for s in sources):
        return False  # a page titled with it is about it
    texts = "\n".join(s.text for s in sources)
    if re.search(rf"\b{word}(?:\s+(?:is|was|are|were)\b|,\s+(?:a|an|the)\s|\s+\()", texts):
        return False  # a sentence defining it: "Inception, a film about …", "Rugrats is …"
    at = [m.start() for m in re.finditer(rf"(?<![\w.-]){re.escape(word)}(?![\w-])", texts)]
    if not at:
        return False
    opening = re.compile(rf"(?:{_OPENING})$")
    return all(opening.search(("\n" + texts)[max(0, i - 11) : i + 1]) for i in at)


def _written_lower(name: str, texts: str) -> bool:
    """Is a one-word name also written in lower case in the sources (a common word)?"""
    return " " not in name.strip() and (
        re.search(rf"(?<![\w-]){re.escape(name.lower())}(?![\w-])", texts) is not None
    )


def _speaks_of(text: str, title: str) -> bool:
    """Does the text (its headings aside) use the title: an entity's page names its entity
    ("Gene Hackman (born …)"); a documentation page headed "Introduction" does not."""
    prose = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("#"))
    return mentions(prose, title)


def _clean_title(title: str) -> str:
    """A source title usable as a name: no site suffix, not a path, URL or file name."""
    title = re.split(r"\s+[-|–—]\s+", title.strip())[0].strip()
    if (
        not title
        or "/" in title
        or "\\" in title
        or re.search(r"\.\w{1,4}$", title)
        or len(title.split()) > 8
        or title.lower() in {"readme", "untitled", "home", "index"}
    ):
        return ""
    # A name is mostly capitalised ("Christopher Nolan", "Tesla, Inc."); a headline is not.
    significant = [w for w in re.findall(r"[\w'’-]+", title) if w.lower() not in STOPWORDS]
    capitalised = [w for w in significant if w[0].isupper() or w[0].isdigit()]
    return title if significant and len(capitalised) >= 0.6 * len(significant) else ""


def _top_terms(text: str, exclude: str, k: int) -> list[str]:
    """The most frequent content words of ``text`` that ``exclude`` does not contain."""
    skip = set(words(exclude))
    counts = Counter(w for w in content_words(text) if w not in skip and not w.isdigit())
    return [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:k]]
