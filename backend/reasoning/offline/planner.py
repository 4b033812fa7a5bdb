"""The offline planner: what kind of question this is, which searches to run, and where.

Kinds, checked in this order:

* **comparison** — "X or Y" after a comma or colon ("Which came first, X or Y?"), two names
  joined by "or"/"vs"/"versus", "compare X and Y", "difference between X and Y", and yes/no
  questions about two names ("Are X and Y both …", "Were X and Y of the same …"). One search
  per entity (the entity plus the question's key terms) and one for the whole question.
* **multi_part** — several question marks, numbered parts, or clauses joined by "; and",
  "and also" or ", and why/how/what …": one search per part ("it"/"they" in a later part
  replaced by the first part's subject).
* **multi_hop** — a relative clause ("the company that …", "the person who …"), a chain of
  roles ("the director of the film …") or of possessives: the question is hop 1; follow-up
  hops come from ``refine.refine_plan``, built from names found in the first results.
* **simple** — one search: the question.

Routing: "docs" whenever available, "github" when available and the question is about code,
"web" when available. The graph's planner node adds every extra server from the MCP config
that has a search-like tool to each sub-query (``graph/nodes/planner.py``).
"""

from __future__ import annotations

import re
from typing import Final

from backend.reasoning.models import Plan, QuestionKind, SubQuery
from backend.reasoning.offline.text import (
    QUESTION_WORDS,
    STOPWORDS,
    capitalised_spans,
    entity_candidates,
    key_terms,
    quoted_strings,
    words,
)

_STRONG_CODE: Final = re.compile(
    r"\b(?:repo|repos|repository|repositories|github|librar(?:y|ies)|packages?|apis?|sdks?"
    r"|pull requests?|source code|codebase|implementation|implemented|implement)\b"
    r"|\bPRs?\b"
    r"|\b(?:in|with|using|for)\s+(?:python|rust|go|golang|javascript|typescript|java|kotlin"
    r"|swift|ruby|php|c\+\+|c#|scala|haskell|elixir|julia)\b",
    re.I,
)
# Words that are about code only next to another sign of code ("the function of the liver").
_WEAK_CODE: Final = re.compile(
    r"\b(?:functions?|class(?:es)?|issues?|bugs?|commits?|methods?)\b", re.I
)
_CODE_LOOK: Final = re.compile(
    r"`[^`]+`|\w+\(\)|\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w+\b|\b\w+\.\w+\("
)

_TAIL_CHOICE: Final = re.compile(
    r"[,:]\s*(?P<a>[^,:?]+?)\s*,?\s+(?:or|vs\.?|versus)\s+(?P<b>[^,:?]+?)\s*[?.!]*\s*$", re.I
)
_COMPARE: Final = re.compile(
    r"\b(?:compare|comparing|comparison (?:of|between)|differences? between|contrast)\s+"
    r"(?P<a>.+?)\s+(?:and|with|to|vs\.?|versus)\s+(?P<b>.+?)"
    r"(?=\s+(?:in terms of|for|in|on|regarding|when|with respect to|as)\b|[?.,:;]|$)",
    re.I,
)
_YES_NO: Final = re.compile(
    r"^(?:are|is|was|were|do|does|did|can|could|has|have|had|will|would|should)\b", re.I
)
_PAIR_HINT: Final = re.compile(r"\b(?:both|same|similar|alike|either|also)\b", re.I)
_JOINER: Final = re.compile(
    r"^\s*,?\s+(?P<j>or|vs\.?|versus|and|(?:[a-z]+\s+){1,2}than)\s+(?:the\s+)?$", re.I
)

_NUMBERED: Final = re.compile(r"(?:^|\s)\(?(?:\d+|[a-h])[.)]\s+")
_CLAUSE_SPLIT: Final = re.compile(
    r";\s*(?:and\s+)?|,?\s+and also\s+|,?\s+and then\s+"
    r"|,\s+and\s+(?=(?:how|why|what|when|where|which|who|whether)\b)",
    re.I,
)

_ROLES: Final = (
    r"director|author|writer|founder|co-founder|creator|ceo|president|owner|producer|composer"
    r"|singer|lead singer|star|father|mother|wife|husband|spouse|son|daughter|brother|sister"
    r"|capital|headquarters|inventor|designer|developer|maintainer|publisher|manufacturer"
    r"|parent company|coach|manager|leader|architect|creator|host|narrator|editor"
)
_RELATIVE: Final = re.compile(
    r"\b(?:the|a|an|this|that)\s+(?:[\w'-]+\s+){0,3}?(?:that|who|whom|whose|which|where)\s+\w+",
    re.I,
)
_ROLE_CHAIN: Final = re.compile(
    rf"\b(?:{_ROLES})\s+of\s+(?:the\s+)?(?:[\w'-]+\s+){{0,3}}?(?:of|that|who|which|whose)\b"
    rf"|\b(?:{_ROLES})\s+of\s+(?:the\s+)?(?:[\w'-]+\s+){{0,2}}?(?:{_ROLES})\b",
    re.I,
)
_ROLE_ATTRIBUTE: Final = re.compile(
    rf"^(?:where|when|in what|in which|what year|which year|how old|what nationality|"
    rf"what is the (?:name|nationality|birthplace|age)|how many)\b.*\bthe\s+(?:{_ROLES})\s+of\b",
    re.I,
)
_POSSESSIVE_CHAIN: Final = re.compile(
    r"\b\w+['’]s\s+(?:\w+\s+)?\w+['’]s\b|\b(?:of|from)\s+(?:the\s+)?[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*['’]s\s+\w+"
)


def plan_question(query: str, available: list[str]) -> Plan:
    """Decompose ``query`` into sub-queries routed to the ``available`` servers."""
    query = " ".join(query.split())
    servers = route(query, available)
    entities = comparison_entities(query)
    kind: QuestionKind
    if len(entities) >= 2:
        kind = "comparison"
        terms = key_terms(query, exclude=entities)
        texts = [(" ".join([e, *terms]), f"entity: {e}") for e in entities]
        texts.append((query, "whole question"))
        why = f"comparison of {' and '.join(entities)}: one search per entity plus the question"
    elif len(parts := question_parts(query)) >= 2:
        kind = "multi_part"
        texts = [(p, f"part {i}") for i, p in enumerate(resolve_pronouns(parts), 1)]
        why = f"{len(parts)}-part question: one search per part"
        entities = entity_candidates(query)
    elif is_multi_hop(query):
        kind = "multi_hop"
        texts = [(query, "whole question")]
        why = "multi-hop question: search the question, then follow names found in the results"
        entities = entity_candidates(query)
    else:
        kind = "simple"
        texts = [(query, "whole question")]
        why = "simple question: one search"
        entities = entity_candidates(query)
    sub_queries = [
        SubQuery(id=f"q{i}", text=text, sources=servers, hop=1, purpose=purpose)
        for i, (text, purpose) in enumerate(texts, 1)
    ]
    return Plan(
        query=query,
        kind=kind,
        sub_queries=sub_queries,
        key_terms=key_terms(query),
        entities=entities,
        rationale=f"{why}; routed to {', '.join(servers) or 'no server'}.",
    )


def route(query: str, available: list[str]) -> list[str]:
    """The servers a question goes to, in a fixed order: docs, github, web."""
    chosen = [s for s in ("docs",) if s in available]
    if "github" in available and is_code_question(query):
        chosen.append("github")
    if "web" in available:
        chosen.append("web")
    if not chosen:
        # Nothing default is configured: searching the extra servers beats searching none.
        chosen = sorted(s for s in available if s not in ("docs", "github", "web"))
    return chosen


def is_code_question(query: str) -> bool:
    """Is the question about code, repositories or libraries?"""
    if _STRONG_CODE.search(query):
        return True
    return bool(_WEAK_CODE.search(query)) and bool(_CODE_LOOK.search(query))


def comparison_entities(query: str) -> list[str]:
    """The two (or more) things a comparison question compares; [] if it is not one."""
    for pattern in (_TAIL_CHOICE, _COMPARE):
        match = pattern.search(query)
        if match:
            pair = [_clean_entity(match.group("a")), _clean_entity(match.group("b"))]
            if all(pair) and pair[0].lower() != pair[1].lower():
                return pair
    names = _positioned_names(query)
    for (a, _, end_a), (b, start_b, _) in zip(names, names[1:], strict=False):
        joiner = _JOINER.match(query[end_a:start_b])
        if joiner is None:
            continue
        if joiner.group("j").lower() == "and" and not (
            _YES_NO.match(query) or _PAIR_HINT.search(query)
        ):
            continue
        return [a, b]
    return []


def _positioned_names(query: str) -> list[tuple[str, int, int]]:
    found = []
    for name in [*quoted_strings(query), *capitalised_spans(query)]:
        start = query.find(name)
        if start >= 0:
            found.append((name, start, start + len(name)))
    return sorted(set(found), key=lambda t: (t[1], -t[2], t[0]))


def _clean_entity(text: str) -> str:
    text = text.strip().strip("\"'“”‘’").strip()
    text = re.sub(r"^(?:the|a|an|between)\s+", "", text, flags=re.I)
    text = re.sub(r"^(?:is|was|are|were)\s+", "", text, flags=re.I)
    if len(text.split()) > 8 or not any(ch.isalnum() for ch in text):
        return ""
    return text


def question_parts(query: str) -> list[str]:
    """The parts of a multi-part question; [query] when it has one part."""
    questions = [q.strip() for q in re.findall(r"[^?]+\?", query)]
    if len(questions) >= 2:
        return [q for q in questions if len(words(q)) >= 2]
    numbered = list(_NUMBERED.finditer(query))
    if len(numbered) >= 2:
        cuts = [m.start() for m in numbered] + [len(query)]
        parts = [query[a:b].strip() for a, b in zip(cuts, cuts[1:], strict=False)]
        parts = [_NUMBERED.sub("", p, count=1).strip(" ;,") for p in parts]
        return [p for p in parts if len(words(p)) >= 2]
    pieces = [p.strip(" ;,") for p in _CLAUSE_SPLIT.split(query)]
    pieces = [p for p in pieces if len(words(p)) >= 3]
    return pieces if len(pieces) >= 2 else [query]


def resolve_pronouns(parts: list[str]) -> list[str]:
    """Later parts that say "it"/"they"/"them" name the first part's subject instead, so each
    search stands alone ("How does it reduce …?" → "How does retrieval-augmented generation
    reduce …?"). The subject is the first part's first name, else its longest run of
    content words (skipping the verb of "What causes …")."""
    names = entity_candidates(parts[0])
    subject = names[0] if names else _topic(parts[0])
    if not subject:
        return parts
    pronoun = re.compile(r"\b(?:it|they|them)\b", re.I)
    return [parts[0], *(pronoun.sub(subject, p, count=1) for p in parts[1:])]


def _topic(question: str) -> str:
    tokens = words(question)
    if len(tokens) > 2 and tokens[0] in QUESTION_WORDS and tokens[1] not in STOPWORDS:
        tokens = tokens[2:]  # "what causes inflation": "causes" is the verb
    runs: list[list[str]] = [[]]
    for token in tokens:
        if token in STOPWORDS or token in QUESTION_WORDS:
            runs.append([])
        else:
            runs[-1].append(token)
    longest: list[str] = max(runs[::-1], key=len)  # the last of the longest
    return " ".join(longest)


def is_multi_hop(query: str) -> bool:
    """Does answering need a fact found along the way (a bridge entity)?"""
    body = re.sub(r"^\W*(?:which|who|what|whom|whose|where)\b", "", query, flags=re.I)
    return bool(
        _RELATIVE.search(body)
        or _ROLE_CHAIN.search(query)
        or _ROLE_ATTRIBUTE.search(query)
        or _POSSESSIVE_CHAIN.search(query)
    )
