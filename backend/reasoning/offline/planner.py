"""The offline planner: what kind of question this is, which searches to run, and where.

The question itself is always the first sub-query (purpose "whole question"): a retrieval
system does best with the words the user chose. Further sub-queries are added only when the
question's shape is recognised and every one of them stands on its own: it carries the
question's key terms (or is a name the question compares), it is not a bare month, year or
number, and no pronoun in it is left to a guess. When a shape is recognised but a piece fails
that test, the question is not split (the rationale says why). A question that sets a scene
in statements before it asks ("Our CI runs the tests in a matrix. How do I …?") also has its
asking sentence searched alone (purpose "asking part"), verbatim: a long scene outweighs the
ask in a search of the whole question. Compared sides are looked for in what is asked,
not in the scene. Kinds, checked in this order:

* **comparison** — named things compared: "X or Y" after a comma or colon ("Which came
  first, X or Y?"), "compare X and Y", "difference between X and Y", "how do X differ from
  Y", two names joined by "or"/"vs"/"versus"/"… than", and yes/no questions about two names
  ("Are X and Y both …"). One search per side: the side plus the question's key terms
  ("How do httpx timeouts differ from requests timeouts?" → "httpx timeouts", "requests
  timeouts"). A side is a name (capitalised, quoted, a code identifier, with its version) or a
  lower-case phrase of two or more words that shares its head with the other side.
* **multi_part** — two asks: several question marks, numbered parts, or clauses joined by
  ";", "and also", ", and why/how/what …" or "and how/what (word) is/does …" (a question word
  and its verb). "it"/"its"/"they" in a later part become the first part's subject when that
  subject is certain: its only name, or the noun phrase of "What is X", "How is X
  configured", "What causes X". A later part with neither such a pronoun nor a name or two
  key terms (in four words) of its own is a fragment, and the question is not split.
* **multi_hop** — a relative clause ("the company that …", "the person who …"), a chain of
  roles ("the director of the film …") or of possessives: the question is hop 1; follow-up
  hops come from ``refine.refine_plan``, built from names found in the first results.
* **list** — asks for a set ("Which task statuses are terminal?", "What are the supported
  formats?", "List …"): the question alone.
* **simple** — the question alone.

Routing: "docs" whenever available, "github" when available and the question is about code,
"web" when available. The graph's planner node adds every extra server from the MCP config
that has a search-like tool to each sub-query (``graph/nodes/planner.py``).
"""

from __future__ import annotations

import re
from typing import Final

from backend.reasoning.models import Plan, QuestionKind, SubQuery
from backend.reasoning.offline.asks import asks, question_parts, scene_and_asking, statements
from backend.reasoning.offline.question import POINTS_BACK, asking_part
from backend.reasoning.offline.text import (
    COMPARATIVE_WORDS,
    QUESTION_WORDS,
    STOPWORDS,
    capitalised_spans,
    entity_candidates,
    key_terms,
    quoted_strings,
    stem,
    word_set,
    words,
)
from backend.sources import BUILTINS, routed

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
# A code identifier is a name even in lower case: `follow_redirects`, Client.send(), httpx.get.
_IDENTIFIER: Final = re.compile(
    # (a call with a short argument first: "open_memory_channel(0)", "…(math.inf)")
    r"`[^`]+`|(?<![\w.=])\.?[A-Za-z_]\w*(?:\.\w+)*\([^()\s,=]{1,30}\)"
    r"|(?<![\w.])\.?\w+(?:\.\w+)*\(\)|\b[A-Za-z]\w*(?:\.[A-Za-z_]\w*)+\b|\b[a-z]+_\w+\b"
    r"|\b[a-z]+[A-Z]\w*\b"
    # A template tag ("{% include %}") and a subscript ("foo['bar']") are code too.
    r"|\{[%{]-?[^%{}]+?-?[%}]\}|\b\w+\[[^\]\s]+\]"
)

# Where a compared side ends: a qualifier, punctuation, or a second ask.
_SIDE_END: Final = (
    r"(?=\s+(?:in terms of|for|in|on|regarding|when|with respect to|as|under|at)\b"
    r"|,?\s+and\s+(?:how|why|what|which|when|where|who)\b|\s*[?,:;!]|\.(?=\s|$)|$)"
)
_TAIL_CHOICE: Final = re.compile(
    r"[,:]\s*(?P<a>[^,:?]+?)\s*,?\s+(?:or|vs\.?|versus)\s+"
    r"(?P<b>[^,:?]+?(?:,\s+[A-Z][\w.&-]*(?:\s+[A-Z][\w.&-]*)*)?)\s*[?.!]*\s*$",
    re.I,
)
_COMPARE: Final = (
    re.compile(
        r"\b(?:compare|comparing|comparison (?:of|between)|contrast)\s+(?P<a>.+?)\s+"
        rf"(?:and|with|to|vs\.?|versus)\s+(?P<b>.+?){_SIDE_END}",
        re.I,
    ),
    re.compile(
        rf"\b(?:differences?|distinction)\s+between\s+(?P<a>.+?)\s+and\s+(?P<b>.+?){_SIDE_END}",
        re.I,
    ),
    re.compile(
        r"\bhow\s+(?:do|does|did|is|are|was|were)\s+(?P<a>.+?)\s+"
        rf"(?:differ|different|compare)\s+(?:from|to|with)\s+(?P<b>.+?){_SIDE_END}",
        re.I,
    ),
    # "How do the subscribe and listChanged flags differ?"
    re.compile(
        r"\bhow\s+(?:do|did)\s+(?:the\s+)?(?P<a>[^\s,]+)\s+and\s+(?P<b>[^\s,]+(?:\s+[a-z]+)?)"
        r"\s+(?:differ|compare)\b",
        re.I,
    ),
    # "What markup standard does the html5 writer's output follow, compared with the html4css1
    # writer's output?": the same thing of each
    re.compile(
        r"\b(?:the\s+)?(?P<a>[\w.-]+(?:\s+[\w.-]+)?)['’]s\s+(?P<thing>[\w-]+)\b[^?]*?,?\s+"
        r"(?:compared (?:with|to)|as opposed to|versus|vs\.?)\s+(?:the\s+)?"
        r"(?P<b>[\w.-]+(?:\s+[\w.-]+)?)['’]s\s+(?P=thing)\b",
        re.I,
    ),
)
_YES_NO: Final = re.compile(
    r"^(?:are|is|was|were|do|does|did|can|could|has|have|had|will|would|should)\b", re.I
)
_PAIR_HINT: Final = re.compile(r"\b(?:both|same|similar|alike|either|also)\b", re.I)
_JOINER: Final = re.compile(
    r"^\s*,?\s+(?P<j>or|vs\.?|versus|and|(?:[a-z]+\s+){1,2}than|compared (?:with|to)|"
    r"as opposed to)\s+(?:the\s+|of\s+|(?:with|using|via|by)\s+(?:plain\s+)?)?$",
    re.I,
)
# A question that says it compares: two names joined by "and" are then its two sides ("How
# do PrintLogger and WriteLogger differ …?", "how do find_object and ensure_object behave
# differently?").
_COMPARING_CUE: Final = re.compile(
    r"\b(?:differ|differs|differently|difference|differences|compared?|comparison|versus|vs)\b",
    re.I,
)
# Words of the comparison itself: not search terms for one side.
_COMPARING: Final = word_set(
    "differ differs differed different differently difference compare compared comparing contrast "
    "versus vs similar similarities same alike better worse prefer preferred choose"
)
_NAME_LINK: Final = re.compile(r"\s+(?:(?:of|the|for|de|del|von|van|der|du|la|le|y)\s+){1,3}")
_MONTHS: Final = word_set(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday "
    "friday saturday sunday today yesterday tomorrow"
)
# Words no query part starts with: a piece beginning so was cut from a larger phrase.
_FRAGMENT_START: Final = word_set(
    "without with within by from into onto of to than then but nor or because since though "
    "although unless until while whereas"
)

_PRONOUN: Final = re.compile(r"\b(?P<p>it|its|they|them|their)\b", re.I)
# The subject of a first part with no name: "What is X", "How is X configured", "What causes X".
_SUBJECT_SHAPES: Final = (
    re.compile(
        r"^(?:what|who)\s+(?:is|are|was|were)\s+(?P<a>(?:the|an?)\s+)?(?P<s>[^?]+?)\s*\??$", re.I
    ),
    re.compile(
        r"^how\s+(?:is|are|was|were)\s+(?P<a>(?:the|an?)\s+)?(?P<s>[^?]+?)\s+\w+(?:ed|en|wn|lt)\s*\??$",
        re.I,
    ),
    re.compile(
        r"^what\s+(?:causes|drives|determines|controls|affects)\s+"
        r"(?P<a>(?:the|an?)\s+)?(?P<s>[^?]+?)\s*\??$",
        re.I,
    ),
    re.compile(r"^how\s+(?:does|do)\s+(?P<a>(?:the|an?)\s+)?(?P<s>[^?]+?)\s+work\s*\??$", re.I),
)

# "What is X called / named / used for / set to …": a predicate after the subject.
_PREDICATE: Final = re.compile(
    r"\s+\b(?:called|named|used|set|defined|known|stored|meant|supposed|spelled|written)\b.*$",
    re.I,
)

_LIST: Final = re.compile(
    r"^(?:list|enumerate|name (?:all|the|every))\b"
    r"|^(?:which|what)\s+(?:(?:two|three|four|five|several|other|of the)\s+)?"
    r"(?:[\w-]+\s+){0,3}?[\w-]+[^s'ui]s\s+(?:are|were|do|does|did|can|could|have|will|should|exist)\b"
    r"|^what\s+(?:are|were)\s+(?:the\s+|all\s+the\s+)?(?:[\w-]+\s+){0,3}?[\w-]+[^s'ui]s\b",
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

Pieces = list[tuple[str, str]]  # (sub-query text, purpose)


def plan_question(query: str, available: list[str]) -> Plan:
    """Decompose ``query`` into sub-queries routed to the ``available`` servers: the question
    first, then one per compared side or per part when the question's shape calls for it."""
    query = " ".join(query.split())
    servers = route(query, available)
    kind, pieces, entities, why = _decompose(query)
    texts: Pieces = [(query, "whole question")]
    if (ask := _ask_alone(query)) is not None:
        texts.append((ask, ASK_ALONE))
    for text, purpose in pieces:
        if text.lower() not in {t.lower() for t, _ in texts}:
            texts.append((text, purpose))
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


ASK_ALONE: Final = "asking part"
MIN_ASK_WORDS: Final = 3


def _ask_alone(query: str) -> str | None:
    """The asking sentence of a question that sets a scene first ("Our CI runs the tests in a
    matrix. How do I …?" → "How do I …?"), searched too: a long scene outweighs the ask in a
    search of the whole question. None when there is no scene, or the ask does not stand
    alone (it points back to the scene with few words of its own: "How do I do that?")."""
    scene, ask = scene_and_asking(query)
    named = len(key_terms(ask))
    if not scene or named < MIN_ASK_WORDS or (named == MIN_ASK_WORDS and POINTS_BACK.search(ask)):
        return None
    return ask


def _decompose(query: str) -> tuple[QuestionKind, Pieces, list[str], str]:
    """The question's kind, the sub-queries added after the question itself, its entities,
    and why. A recognised shape whose pieces do not stand alone is not split."""
    held_back = ""
    entities = comparison_entities(query)
    if entities:
        sides = comparison_sub_queries(query, entities)
        # A side was checked as a name or a parallel phrase: two words may do ("httpx timeouts").
        if all(is_standalone(text, query, min_words=2) for text, _ in sides):
            why = f"comparison of {' and '.join(entities)}: the question, then one search per side"
            return "comparison", sides, entities, why
        held_back = f"not split by {' and '.join(entities)}: a side would not stand alone; "
    parts = question_parts(query)
    if len(parts) >= 2:
        resolved = resolve_parts(parts, query)
        if resolved is not None and all(is_standalone(p, query) for p in resolved):
            pieces = [(p, f"part {i}") for i, p in enumerate(resolved, 1)]
            why = f"{len(parts)}-part question: the question, then one search per part"
            return "multi_part", pieces, entity_candidates(query), why
        held_back += f"not split into {len(parts)} parts: a part would not stand alone; "
    extra = _later_asks(query)
    if extra:
        held_back += "each later ask searched with the setting and names it carries; "
    names = entity_candidates(query)
    if is_multi_hop(query):
        why = "multi-hop question: search the question, then follow names found in the results"
        return "multi_hop", extra, names, held_back + why
    if is_list_question(query):
        return "list", extra, names, held_back + "list question: one search, the question"
    return "simple", extra, names, held_back + "simple question: one search, the question"


def _later_asks(query: str) -> Pieces:
    """For two asks that could not be split into parts: each later ask with the words it
    carries (its setting, the first ask's names), its pronoun left as written. None when an
    ask with a pronoun carries nothing to tell what it means, or does not stand alone."""
    later = asks(query)[1:]
    if not later or any(
        (a.scored == a.text or not a.named) and _PRONOUN.search(a.text) for a in later
    ):
        return []
    if not all(is_standalone(a.scored, query) for a in later):
        return []
    return [(a.searched or a.scored, f"ask {i}") for i, a in enumerate(later, 2)]


def route(query: str, available: list[str]) -> list[str]:
    """The servers a question goes to, in the sources' rank order (docs, github, web, …)."""
    chosen = routed(available, is_code_question(query), query)
    if not chosen:
        # Nothing default is configured: searching the extra servers beats searching none.
        chosen = sorted(s for s in available if s not in BUILTINS)
    return chosen


def is_code_question(query: str) -> bool:
    """Is the question about code, repositories or libraries?"""
    if _STRONG_CODE.search(query):
        return True
    return bool(_WEAK_CODE.search(query)) and bool(_CODE_LOOK.search(query))


def is_list_question(query: str) -> bool:
    """Does the question ask for a set of things ("Which formats are supported?")?"""
    return bool(_LIST.search(query))


# --- comparisons ---------------------------------------------------------------------------


_THE_TWO: Final = re.compile(r"\b(?:the|these|those)\s+two\b|\bboth\b(?!\s+\w+\s+and\b)", re.I)
# "… I found two output-side settings, outbuf_overflow and outbuf_high_watermark. What does
# each of them do …?": an ask about each of what the scene names compares them, one per side.
_EACH_OF_THEM: Final = re.compile(r"\beach\s+of\s+(?:them|these|those|the\s+two)\b", re.I)


_EITHER: Final = re.compile(
    r"\b(?:either|both)\s+(?:the\s+)?(?P<a>[^,.;?]+?)\s+(?:or|and)\s+(?:the\s+)?"
    r"(?P<b>[^,;?]+?)\s*(?=[,;?]|\.(?:\s|$)|$)",
    re.I,
)


def comparison_entities(query: str) -> list[str]:
    """The two things a comparison question compares; [] if it is not one, or if a side is
    not a nameable thing (a month, a year, a number, a code literal, a cut-off phrase). A
    question that sets a scene first compares what its ask names: "Our validators return
    True or False. Since which release is …?" compares nothing."""
    ask = asking_part(query, phrases=False)
    # ("… can use either the stat backend or the watchdog backend. How do the two detect file
    # changes differently?": an ask about "the two" compares what the scene names.)
    if ask != query and (_THE_TWO.search(ask) or _EACH_OF_THEM.search(ask)):
        if found := _named_pair(query, pointed=bool(_EACH_OF_THEM.search(ask))):
            return found
        either = _EITHER.search(query.replace(ask, " "))
        if either and (pair := _sides(_clean_entity(either["a"]), _clean_entity(either["b"]))):
            return pair
        return []
    if ask != query and len(key_terms(ask)) >= MIN_ASK_WORDS:
        query = ask
    return _named_pair(query)


def _named_pair(query: str, pointed: bool = False) -> list[str]:
    """The two things the question compares, by its wording or its names; [] if none.
    ``pointed``: the ask points back at each of two things ("each of them"), so two names
    joined by "and" are its sides without a word that says they are compared."""
    for pattern in (_TAIL_CHOICE, *_COMPARE):
        match = pattern.search(query)
        if match:
            # (said in so many words, a comparison's sides may be plain words: "the difference
            # between decline and cancel")
            pair = _sides(
                _clean_entity(match.group("a")),
                _clean_entity(match.group("b")),
                explicit=pattern is not _TAIL_CHOICE,
            )
            if pair:
                return pair
            # "the difference between creating a locale with Locale('en', 'US') and with
            # Locale.parse('EN_us')": each side is the call it makes
            called = [_CALLED.findall(match.group(side)) for side in ("a", "b")]
            if all(len(set(c)) == 1 for c in called) and (
                pair := _sides(called[0][0], called[1][0], code=True)
            ):
                return pair
    names = _positioned_names(query)
    for (a, start_a, end_a), (b, start_b, end_b) in zip(names, names[1:], strict=False):
        joiner = _JOINER.match(query[end_a:start_b])
        if joiner is None:
            continue
        if joiner.group("j").lower() == "and":
            if not (
                pointed
                or _YES_NO.match(query)
                or _PAIR_HINT.search(query)
                or _COMPARING_CUE.search(query)
            ):
                continue
            # "A and B and C": which "and" joins the two sides is a guess.
            around = query[max(0, start_a - 5) : start_a] + query[end_b : end_b + 5]
            if re.search(r"\band\b", around, re.I):
                return []
        if _used_as_adjective(query, start_b, end_b):
            return []
        # A side written as code (`pytest`, `python -m pytest`) is named, lower-case or not.
        code = (
            query[start_a] == "`"
            and query[start_b] == "`"
            and not {a, b} & _CODE_LITERALS  # `True` or `False`: a choice of values
        )
        pair = _sides(a, _without_modifier(b, query[end_b:]), code)
        if pair and (code or all(_is_name(side) for side in pair)):
            return pair
    return []


_CALLED: Final = re.compile(r"(?<![\w.])([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)\(")


def _without_modifier(name: str, after: str) -> str:
    """A trailing acronym that describes the next word is not part of the name: "Reinhold
    Ewald ESA astronauts" compares Reinhold Ewald."""
    match = re.fullmatch(r"(?P<name>.+?\s\S+)\s+[A-Z]{2,6}", name)
    following = re.match(r"\s+([a-z][\w-]*)", after)
    if match and following and following.group(1) not in STOPWORDS:
        return match.group("name")
    return name


def _used_as_adjective(query: str, start: int, end: int) -> bool:
    """A name after an article and before a lower-case content word ("the American industrial
    rock group …") describes something else; it is not a side."""
    after = re.match(r"\s+([a-z][\w-]*)", query[end:])
    return (
        re.search(r"\b(?:the|a|an)\s+$", query[:start], re.I) is not None
        and after is not None
        and after.group(1) not in STOPWORDS
    )


def _sides(a: str, b: str, code: bool = False, explicit: bool = False) -> list[str]:
    """Two sides that are both nameable (or both ``code``) and distinct, a shared head carried
    over ("sync and async clients" → "sync clients", "async clients"); [] otherwise. With
    ``explicit`` (the question says it compares), two single content words are sides too."""
    if not a or not b or a.lower() == b.lower():
        return []
    wa, wb = a.split(), b.split()
    if len(wa) == 1 and len(wb) == 2 and _FLAG.fullmatch(a) and _FLAG.fullmatch(wb[0]):
        b = wb[0]  # "the --wait and --drop options": each flag is named by itself
    elif len(wa) == 1 and len(wb) == 2 and not _is_name(a):
        a = f"{a} {wb[-1]}"
    for side in (a, b):
        if _IDENTIFIER.fullmatch(side):
            continue  # code: "to_thread.run_sync" opens with no word "to"
        first = words(side)[0]
        if _is_date_or_number(side) or first in _FRAGMENT_START:
            return []
        if first in STOPWORDS and not side[:1].isupper():  # a title may: "What Ever Happened …"
            return []
    if not code and not (_is_name(a) and _is_name(b)):
        # Lower-case phrases compare only in parallel: "httpx timeouts" / "requests timeouts".
        la, lb = words(a), words(b)
        single = explicit and len(la) == len(lb) == 1 and not {la[0], lb[0]} & STOPWORDS
        # ("singular arguments like year=/month=" / "plural ones like years=/months=": the
        # same word's forms end both)
        if not single and (len(la) < 2 or len(lb) < 2 or stem(la[-1]) != stem(lb[-1])):
            return []
    return [a, b]


def comparison_sub_queries(query: str, entities: list[str]) -> Pieces:
    """One search per side: the side plus the question's key terms it does not already hold
    (the words of the comparison itself left out)."""
    asked = re.sub(r"\bin terms of\b", " ", query, flags=re.I)
    terms = [t for t in key_terms(asked, exclude=entities) if t not in _COMPARING]
    # A scene's words ("I'm sizing a memory channel between a fast log producer and a slow
    # uploader.") outweigh what is asked of each side ("how send() behaves"): the ask's own
    # words, when it has some besides the sides
    ask = _ask_alone(query)
    asked_own = [t for t in key_terms(ask, exclude=entities) if t not in _COMPARING] if ask else []
    if len(asked_own) >= 2:
        terms = asked_own
    if not terms:  # "Which is faster, X or Y?": the comparative is all there is to say
        named = {w for e in entities for w in words(e)}
        terms = [w for w in words(query) if w in COMPARATIVE_WORDS and w not in named][:1]
    pieces: Pieces = []
    for entity in entities:
        own = set(words(entity))
        text = " ".join([entity, *(t for t in terms if t not in own)])
        pieces.append((text, f"entity: {entity}"))
    return pieces


def _positioned_names(query: str) -> list[tuple[str, int, int]]:
    """Names with their offsets: quoted strings, code identifiers and capitalised spans, a
    span extended over "of the" ("Song of the South") and a trailing version ("Pydantic 2")."""
    found: set[tuple[str, int, int]] = set()
    for name in [*quoted_strings(query), *capitalised_spans(query)]:
        for match in re.finditer(re.escape(name), query):
            found.add((name, match.start(), match.end()))
    for match in _IDENTIFIER.finditer(query):
        found.add((match.group().strip("`"), match.start(), match.end()))
    spans = sorted(found, key=lambda t: (t[1], -t[2], t[0]))
    merged: list[tuple[str, int, int]] = []
    for name, start, end in spans:
        if merged and start < merged[-1][2]:
            continue  # inside a longer name already taken
        if merged and _NAME_LINK.fullmatch(query[merged[-1][2] : start]):
            prev = merged.pop()
            name, start = query[prev[1] : end], prev[1]
        merged.append((name, start, end))
    out = []
    for name, start, end in merged:
        version = re.match(r"\s+v?\d+(?:\.\d+)*\b(?![.\d]*\s*%)", query[end:])
        if version and not _is_date_or_number(name):
            end += version.end()
            name = query[start:end]
        out.append((name, start, end))
    return out


def _clean_entity(text: str) -> str:
    text = text.strip().strip("\"'“”‘’`").strip()
    text = re.sub(r"^(?:the|a|an|between)\s+", "", text, flags=re.I)
    text = re.sub(r"^(?:is|was|are|were|using|writing|calling|passing)\s+", "", text, flags=re.I)
    if len(text.split()) > 8 or not any(ch.isalnum() for ch in text):
        return ""
    return text


def _is_name(text: str) -> bool:
    """A proper name, a quoted title or a code identifier: a capital or a code sign in it."""
    if text.strip("`") in _CODE_LITERALS:
        return False  # "return True or False" is a choice of values, not two named things
    if _IDENTIFIER.fullmatch(text) or _IDENTIFIER.search(text):
        return True
    return any(w[:1].isupper() or w[:1].isdigit() for w in text.split()) and not _is_date_or_number(
        text
    )


_FLAG: Final = re.compile(r"`?--?[A-Za-z][\w-]*`?")  # a command-line flag: "--wait", "-h"
_CODE_LITERALS: Final = frozenset({"True", "False", "None", "true", "false", "null", "nil"})


def _is_date_or_number(text: str) -> bool:
    """A month, weekday, year, number, version or date, with nothing else to search for."""
    rest = [w for w in words(text) if w not in STOPWORDS]
    return all(w in _MONTHS or re.fullmatch(r"v?[\d.,]+(?:st|nd|rd|th|s)?", w) for w in rest)


# --- parts -----------------------------------------------------------------------------------


def resolve_parts(parts: list[str], query: str) -> list[str] | None:
    """Each part able to stand alone: "it"/"its"/"they"/"them"/"their" in a later part name the
    first part's subject ("What is RAG? How does it reduce hallucinations?" → "How does RAG
    reduce hallucinations?"). None when a pronoun's subject is not certain, or a later part
    has no subject of its own (no name; under two key terms or four words): better unsplit than
    guessed."""
    # The subject is the first ask's, not its scene's: in "In staging we keep DEBUG logs. Which
    # setting controls the level, and which variable overrides it?", "it" is not DEBUG.
    asking = statements(parts[0])[-1]
    subject = first_part_subject(asking, query)
    out = [parts[0]]
    for part in parts[1:]:
        pronouns = {m.group("p").lower() for m in _PRONOUN.finditer(part)}
        first = _PRONOUN.search(part)
        before = key_terms(part[: first.start()]) if first is not None else []
        if (
            first is not None
            and first.group("p").lower() in ("they", "them", "their")
            and any(re.fullmatch(r"[a-z]{3,}[^s]s", t) for t in before)
        ):
            # "What do I give the loaded values to so they become the defaults?": the part
            # names what its pronoun means before it; the first part's name would be a guess.
            pronouns = set()
        if pronouns:
            singular, plural = pronouns & {"it", "its"}, pronouns & {"they", "them", "their"}
            if subject is None or (singular and plural):
                return None
            match = _PRONOUN.search(part)
            assert match is not None
            said = subject + ("'s" if match.group("p").lower() in ("its", "their") else "")
            part = part[: match.start()] + said + part[match.end() :]
        elif not (_names(part, query) or (len(key_terms(part)) >= 2 and len(words(part)) >= 4)):
            return None
        out.append(part)
    return out


def first_part_subject(part: str, query: str) -> str | None:
    """What the first part is about, when that is certain: its only name, else the noun
    phrase of "What is X" / "How is X configured" / "What causes X" / "How does X work"."""
    names = _names(part, query)
    if len(names) == 1:
        the = re.search(rf"\b(the)\s+{re.escape(names[0])}", part, re.I)
        return f"the {names[0]}" if the else names[0]  # "the API", not "API"
    if names:
        return None  # two names: "it" could be either
    for shape in _SUBJECT_SHAPES:
        match = shape.match(part.strip())
        if match and 1 <= len(match.group("s").split()) <= 5:
            # "What is the hash argument called nowadays": the subject ends at its predicate.
            subject = _PREDICATE.split(match.group("s"), maxsplit=1)[0].strip() or match.group("s")
            if not _is_date_or_number(subject) and words(subject)[0] not in STOPWORDS:
                return (match.group("a") or "").lower() + subject  # "a run", "the store"
    return None


def _names(text: str, query: str) -> list[str]:
    """The names a text gives (quoted, capitalised, code identifiers), without dates. A word
    capitalised only because it opens the text ("Uses differ") is a name only if the question
    writes it so too, past its own first word."""
    return [
        n for n, _, _ in _positioned_names(text) if not _is_date_or_number(n) and n in query[1:]
    ]


def is_standalone(text: str, query: str, min_words: int = 3) -> bool:
    """Can this sub-query be searched on its own? It has something to search besides dates
    and numbers, does not start as a cut-off piece ("without …", "than …"), holds one of the
    question's key terms, and gives a name or has at least ``min_words`` words."""
    tokens = words(text)
    if not tokens or _is_date_or_number(text):
        return False
    opening = _IDENTIFIER.match(text)  # (code opens no cut-off piece: "to_thread.run_sync")
    if tokens[0] in _FRAGMENT_START and not (opening and re.search(r"[._(`]", opening.group())):
        return False
    terms = key_terms(query)
    if terms and not set(key_terms(text)) & set(terms):
        return False
    # (a command-line flag is a name: "--force-venv-backend")
    return bool(_names(text, query)) or bool(_FLAG.fullmatch(text)) or len(tokens) >= min_words


# --- hops ------------------------------------------------------------------------------------


def is_multi_hop(query: str) -> bool:
    """Does answering need a fact found along the way (a bridge entity)?"""
    body = re.sub(r"^\W*(?:which|who|what|whom|whose|where)\b", "", query, flags=re.I)
    return bool(
        _RELATIVE.search(body)
        or _ROLE_CHAIN.search(query)
        or _ROLE_ATTRIBUTE.search(query)
        or _POSSESSIVE_CHAIN.search(query)
    )


def usable_name(name: str) -> bool:
    """Is a name found in a source worth a follow-up search? Not a date, year or number, and
    not only stop or question words."""
    content = [w for w in words(name) if w not in STOPWORDS | QUESTION_WORDS]
    if name.strip("`*_ ") in _LITERALS:
        return False  # "`True`" in a sentence about a flag is a value, not something to look up
    if len(content) == 1 and content[0] in _OPENERS and name.strip()[:1].isupper():
        return False  # "Since version 0.10, …": a sentence's opening word, not a name
    return bool(content) and not _is_date_or_number(name)


# Words that open a sentence with a capital without naming anything.
_OPENERS: Final = word_set(
    "since however although though unlike besides instead otherwise currently alternatively "
    "sometimes usually finally additionally furthermore moreover meanwhile therefore thus "
    "hence still yet now then here there note please first second next last today recently "
    "previously typically generally normally often afterwards likewise similarly nevertheless "
    "nonetheless whereas while once until unless whenever wherever"
)
_LITERALS: Final = frozenset({"True", "False", "None", "TRUE", "FALSE", "NULL", "NaN"})
