"""The direct answer that opens the report.

Three readings, tried in order:

* **which-first comparisons** ("Which came first/is older/is larger, X or Y?"): the year (for
  first/earlier/older/later/newer/younger) or number (for larger/more/fewer …) tied to each
  entity in the checked claims decides, e.g. "Arthur's Magazine was started first (1844,
  versus 1989 for First for Women)". A yes/no question ("Is X older than Y?") gets "Yes"/"No"
  in front.
* **yes/no questions** ("Are X and Y both …?", "Is X …?"): "Yes" when, for every entity, a
  claim that was not contradicted holds at least half of the asked property's key terms with
  the question's polarity; for "the same …" questions, when the entities' claims share a
  descriptive name ("American"). The sentence says it is a heuristic.
* **multi-part questions**: the best claim of each part (as below), in order.
* otherwise the most relevant claim that was not contradicted, verbatim: relevance, +0.05
  when supported, +0.15 when it holds what the question word asks for (a place for "where",
  a year for "when", a number for "how many", a name for "who"), +0.1 per hop beyond the
  first for multi-hop questions.

When every claim was contradicted, the answer is the most relevant claim shown as disputed.
Each reading returns the sentence (without citation markers) and the claims it rests on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Final

from backend.reasoning.models import Claim, Plan, Source, SubQuery, Verdict
from backend.reasoning.offline.asks import Ask, asks
from backend.reasoning.offline.embedding import SentenceVectors
from backend.reasoning.offline.markup import plain
from backend.reasoning.offline.passages import (
    Passage,
    code_before,
    named_by_heading,
    setting_entry,
    shown_for,
)
from backend.reasoning.offline.pick import (
    CLOSE_SIMILARITY,
    MIN_COVERAGE,
    Choice,
    Pick,
    choose,
    complement,
    says_gone,
)
from backend.reasoning.offline.polarity import has_negation
from backend.reasoning.offline.question import POINTS_BACK, Asked, analyse, needs_value
from backend.reasoning.offline.signals import is_year_token, tokens
from backend.reasoning.offline.text import (
    STOPWORDS,
    capitalised_spans,
    key_terms,
    mentions,
    overlap,
    stem,
    word_set,
    words,
)

_EARLY: Final = {"first", "earlier", "earliest", "older", "oldest", "before", "sooner"}
_LATE: Final = {"later", "latest", "newer", "newest", "younger", "youngest", "last", "recent"}
_MORE: Final = {
    "larger", "largest", "bigger", "biggest", "more", "most", "higher", "highest", "longer",
    "longest", "taller", "tallest", "greater", "greatest", "heavier", "heaviest", "wider",
}  # fmt: skip
_LESS: Final = {
    "smaller", "smallest", "fewer", "fewest", "less", "least", "lower", "lowest", "shorter",
    "shortest", "lighter", "narrower",
}  # fmt: skip
_DIRECTIONS: Final = _EARLY | _LATE | _MORE | _LESS
_FALLBACK_PREDICATE: Final = {
    "first": "came first",
    "earlier": "came earlier",
    "later": "came later",
}
_YES_NO: Final = re.compile(r"^(?:are|is|was|were|do|does|did)\b", re.I)
_THEN: Final = re.compile(r"\b(?:and|,)\s*then\b", re.I)  # "… and then drop out of it"
# "Is there any difference between X and Y?", "Does it make any difference whether …?": the
# answer is how they differ, not yes or no.
_ASKS_HOW_THEY_DIFFER: Final = re.compile(r"\bdiffer(?:s|ence|ences|ent|ently)?\b", re.I)
_MONTHS: Final = word_set(
    "January February March April May June July August September October November December"
)
ANSWER_TYPE_BONUS: Final = 0.15
_ANSWER_TYPES: Final = (
    (
        re.compile(
            r"^\W*(?:where|(?:in|from) (?:which|what) (?:city|country|state|town|place))\b", re.I
        ),
        re.compile(r"\b(?:in|at|from|near)\s+(?:the\s+)?[A-Z]"),
    ),
    (
        re.compile(r"^\W*(?:when|(?:in )?(?:what|which) year)\b", re.I),
        re.compile(r"\b1\d{3}\b|\b20\d{2}\b"),
    ),
    (re.compile(r"^\W*how (?:many|much)\b", re.I), re.compile(r"\d")),
    (re.compile(r"^\W*who\b", re.I), re.compile(r"\b[A-Z][a-z]+\s+[A-Z][a-z]+")),
)
_MULTIPLIERS: Final = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer sentence (no citation markers) and the claims it rests on."""

    text: str
    claims: list[Claim]
    unconfirmed: bool = False
    per_claim: bool = False  # the text is the claims' sentences, each to be cited in place
    contested: bool = False  # every claim was contradicted: the answer shows the dispute
    passage: Passage | None = None  # the source passage the text shows (cited with its quote)
    found: bool = True  # False: the sources do not answer (the text says so)
    lead: str = ""  # words before the passage ("No:", "The documents do not say …")
    parts: tuple[Answer, ...] = ()  # a multi-part question: one answer per part, in order
    basis: dict[str, Any] = field(default_factory=dict)  # why found or not (for the trace)
    block: str = ""  # the code the passage shows, as a fenced Markdown block after the text


OWN_PAGE_SHARE: Final = 0.8  # a side's own document's passage is preferred scoring this close
SUBJECT_SHARE: Final = 0.85  # a passage about a compared side is preferred scoring this close
SUBJECT_WORDS: Final = 4  # the side is named within this many words of the passage's start
NEXT_HOP_SHARE: Final = 0.85  # a follow-up hop's passage joins the answer scoring this close
PARALLEL_SHARE: Final = 0.8  # a side's passage beside another side's is preferred this close
CONTINUES_SHARE: Final = 0.85  # the sentences after an earlier ask's, this close to the best
FURTHER_SHARE: Final = 0.8  # a further ask's passage not shown yet, this close to its best
YES_NO_COVERAGE: Final = 0.5  # a Yes/No lead, or a value taken as answered, needs a passage
# holding this much of the question
NOT_FOUND: Final = "The documents found do not answer this directly. The nearest they come:"
DENIED: Final = "The sources contradict the question's premise:"
NOTHING: Final = "The sources found do not contain a statement that answers the question"


def direct_answer(
    plan: Plan,
    claims: list[Claim],
    verdicts: dict[str, Verdict],
    sources: list[Source] | None = None,
    vectors: SentenceVectors | None = None,
) -> Answer:
    """The first line of the report: the answer of the kind the question asks for, or a plain
    statement that the sources do not give one (then what they say nearby)."""
    usable = [c for c in claims if _label(c, verdicts) != "contradicted"]
    if not claims and not sources:
        return Answer(NOTHING, [], found=False)
    if claims and not usable:
        best = max(claims, key=lambda c: (c.relevance, -claims.index(c)))
        return Answer(best.text, [best], contested=True)
    yes_no = bool(_YES_NO.match(plan.query)) and not (
        plan.kind == "comparison" and _ASKS_HOW_THEY_DIFFER.search(plan.query)
    )
    if plan.kind == "comparison" and len(plan.entities) >= 2:
        ranked = comparison_answer(plan, usable)
        if ranked is not None:
            return ranked
        if yes_no and (decided := yes_no_answer(plan, usable)) is not None:
            return decided
    if sources is None or vectors is None:
        return _claim_answer(plan, usable, claims, verdicts)
    asked = analyse(plan.query)
    if (
        plan.kind == "comparison"
        and not yes_no
        and (both := _comparing_passage(asked, plan, sources, vectors)) is not None
    ):
        chosen, found = both
        # ("Same as Mode 3 … but …" is said of mode 8, its heading: the reader is told so)
        heading = _heading_of_other_side(chosen.passage, plan.entities)
        return _passage_answer(
            chosen,
            claims,
            verdicts,
            lead=f"{heading}:" if heading else "",
            found=found,
            terms=asked.terms,
            quoted=asked.quoted,
        )
    if (
        plan.kind == "comparison"
        and not yes_no
        and (sides := _passage_per_part(plan, claims, verdicts, sources, vectors, "entity: "))
        and len(sides.parts) >= 2
    ):
        return _further_asks(plan, sides, claims, verdicts, sources, vectors)
    # "How do I make a job run a single time and then drop out of the scheduler?": steps of
    # one task, which the passage answering the whole question shows ("Return
    # `schedule.CancelJob` from a job to remove it from the scheduler."), not two asks
    whole = (
        choose(asked, plan, sources, vectors)
        if plan.kind == "multi_part" and asked.how_to and _THEN.search(plan.query)
        else None
    )
    one_task = whole is not None and whole.found and whole.denial is None
    if (
        not one_task
        and plan.kind == "multi_part"
        and _part_points_back(plan)
        and len(several := asks(plan.query)) >= 2
        and (by_ask := _passage_per_ask(plan, several, claims, verdicts, sources, vectors))
    ):
        return by_ask  # "…? Which ones, and what does each add?" is read with what "ones" are
    if (
        not one_task
        and plan.kind == "multi_part"
        and (by_part := _passage_per_part(plan, claims, verdicts, sources, vectors))
    ):
        return by_part
    if (
        not one_task
        and plan.kind != "comparison"
        and len(several := asks(plan.query)) >= 2
        and (by_ask := _passage_per_ask(plan, several, claims, verdicts, sources, vectors))
    ):
        return by_ask
    pick = whole if whole is not None and one_task else choose(asked, plan, sources, vectors)
    if pick.best is None:
        if usable:
            return _claim_answer(plan, usable, claims, verdicts)
        return Answer(NOTHING, [], found=False)
    if pick.denial is not None:
        return _passage_answer(pick.denial, claims, verdicts, lead=DENIED, found=False)
    if not pick.found:
        return _passage_answer(
            pick.best, claims, verdicts, lead=NOT_FOUND, found=False, terms=asked.terms
        )
    lead = ""
    if asked.kind == "yes_no":
        lead = _yes_or_no(plan.query, pick.best)
    first = _passage_answer(
        pick.best,
        claims,
        verdicts,
        lead=lead,
        found=True,
        terms=asked.terms,
        quoted=asked.quoted,
        steps=asked.how_to,
    )
    hop = _next_hop(plan, pick) if plan.kind == "multi_hop" else None
    # A chain's second link is another document's fact; steps ("how do I …") are not a chain,
    # and a passage sharing the question's words there is noise ("… a command line tool that
    # resembles a version control system" after the `--version` recipe).
    if hop is None and wants_complement(asked, plan, pick.best):
        hop = complement(asked, pick)
    if hop is not None:
        second = _passage_answer(hop, claims, verdicts, lead=hop_label(hop), found=True)
        return Answer(
            f"{first.text} {second.text}",
            [*first.claims, *second.claims],
            parts=(first, second),
            basis=second.basis,
        )
    return first


def wants_complement(asked: Asked, plan: Plan, best: Choice) -> bool:
    """May another document's passage join the answer for what the best one leaves out?
    Not for a yes/no question or steps to take, and not when a value was asked for and the
    best passage holds it with at least half of what is asked ("default: `'127.0.0.1:8000'`"
    under `dev_addr`), unless the question is a chain (the value may be the first link's:
    "T-Bolan … debuted in 1991" leaves the English band's year to another document)."""
    if asked.kind == "yes_no" or asked.how_to:
        return False
    answered = needs_value(asked) and best.cue and best.coverage >= YES_NO_COVERAGE
    return not (answered and plan.kind != "multi_hop")


def hop_label(hop: Choice) -> str:
    """ "Title:" before a second link that says who only through its document's title ("He
    won the Laurence Olivier Award …"), as a reader sees the title (no markup); '' when the
    passage names it."""
    title = hop.passage.source.title
    return "" if mentions(hop.passage.quote, title) else f"{plain(title)}:"


def _next_hop(plan: Plan, pick: Pick) -> Choice | None:
    """For a multi-hop question answered from the first hop's source: the best passage of a
    follow-up hop whose name that passage gives (the chain: "… an album by pianist Les
    McCann …", then "Les McCann (born September 23, 1935) …"), when it scores close."""
    top = pick.best
    if top is None or top.hop > 1:
        return None
    bridges = {
        sq.id: sq.purpose.removeprefix("bridge: ")
        for sq in plan.sub_queries
        if sq.purpose.startswith("bridge: ")
    }
    for choice in pick.ranked or []:
        if choice.hop < 2 or choice.score < NEXT_HOP_SHARE * top.score:
            continue
        names = [bridges[i] for i in choice.passage.source.sub_query_ids if i in bridges]
        about = f"{choice.passage.source.title}\n{choice.passage.quote}"
        if any(mentions(top.passage.quote, n) and mentions(about, n) for n in names):
            return choice
    return None


# A passage that sets the compared things against each other: "`Converter` differs from the
# `BaseConverter` in the following ways:" with its list, "X …, whereas Y …" ("use X instead of
# Y" recommends one; it does not say how they differ).
_CONTRAST: Final = re.compile(
    r"\b(?:differs?|differences?|different from|unlike|whereas|compared (?:to|with)|"
    r"in contrast|by contrast|on the other hand)\b"
    # "The `get_lexer_for_filename()` function only uses the primary list …
    # `guess_lexer_for_filename()`, however, will first loop through …"
    r"|,\s*however,",
    re.I,
)
_SENDS_ELSEWHERE: Final = re.compile(
    r"^\W*(?:please\s+)?(?:see|refer\s+to|consult|check\s+out|compare)\b", re.I
)
COMPARING_SHARE: Final = 0.9  # such a passage answers when it scores this close to the best
# … or this close, when it states the difference outright ("The difference between these two
# is that the former simply exits …, while the other raises a `TimeoutError`.")
STATED_DIFFERENCE_SHARE: Final = 0.8
_STATED_DIFFERENCE: Final = re.compile(
    r"\b(?:the|one|main|key|only) differences? between\b|\bthe former\b", re.I
)


def _comparing_passage(
    asked: Asked, plan: Plan, sources: list[Source], vectors: SentenceVectors
) -> tuple[Choice, bool] | None:
    """A passage that names every compared thing and contrasts them, scoring close to the
    best (with whether the best answers); None otherwise (each side is answered apart)."""
    if len(plan.entities) < 2:
        return None
    pick = choose(asked, plan, sources, vectors)
    if pick.best is None or pick.denial is not None:
        return None
    for choice in pick.ranked or []:
        if choice.score < STATED_DIFFERENCE_SHARE * pick.best.score:
            break
        # (a sentence sending the reader elsewhere states no difference: "See the HTML5 test
        # page … for differences to the html4css1 writer.")
        if _heading_of_other_side(choice.passage, plan.entities):
            return choice, True  # "Same as Mode 3 … but the closing parenthesis is indented."
        said = [t for t in choice.passage.sentences if not _SENDS_ELSEWHERE.match(plain(t))]
        text = " ".join(said)
        if not said or not all(
            mentions(text, e) or _member_named(text, e, [o for o in plan.entities if o != e])
            for e in plan.entities
        ):
            continue
        close = choice.score >= COMPARING_SHARE * pick.best.score
        if (close and _CONTRAST.search(text)) or _STATED_DIFFERENCE.search(text):
            # (a passage stating the difference outright answers "what is the difference")
            return choice, pick.found or bool(_STATED_DIFFERENCE.search(text))
    return None


# "Same as Mode 3 - Vertical Hanging Indent but the closing parentheses on the last line is
# indented." (under "8 - Vertical Hanging Indent Bracket"), "Like `foo()`, but returns a
# list", "Identical to X except that …": one thing said as another with a difference
_SAME_BUT: Final = re.compile(
    r"^\W*(?:(?:the\s+)?same\s+as|like|identical\s+to|similar\s+to|equivalent\s+to)\s+"
    r"(?P<other>[^.;:]{1,80}?),?\s+(?:but|except)\b"
    # ("Identical to `RedisHuey` except for the way task result values are stored." names
    # what differs, not how: that is said after it)
    r"(?!\s+(?:for\s+|in\s+)?(?:the\s+way|how|what|which|where|when)\b)",
    re.I,
)


def _heading_of_other_side(passage: Passage, entities: list[str]) -> str:
    """The heading of a passage that says its subject is the same as one compared thing but
    for a difference, when that heading names the other thing: the passage states the
    difference; '' otherwise. (What tells each thing from the other is what counts: "mode 8"
    against "multi_line_output mode 3" is its "8", the other's "3", every number of it.)"""
    same = _SAME_BUT.match(plain(passage.sentences[0]))
    heading = plain(passage.section.rsplit(" > ", 1)[-1]).strip()
    if same is None or not heading or len(entities) != 2:
        return ""
    headed = {stem(w) for w in words(heading)}
    said = {stem(w) for w in words(same["other"])}
    for one, other in (entities, entities[::-1]):
        own = [stem(w) for w in words(one) if w not in STOPWORDS]
        theirs = [stem(w) for w in words(other) if w not in STOPWORDS]
        tells_one = [w for w in own if w not in theirs]
        tells_other = [w for w in theirs if w not in own]
        if (
            tells_one
            and tells_other
            and all(w in headed for w in tells_one)
            and not all(w in headed for w in tells_other)
            and any(w in said for w in tells_other)
            and all(w in said for w in tells_other if w.isdigit())
        ):
            return heading
    return ""


def _passage_per_part(
    plan: Plan,
    claims: list[Claim],
    verdicts: dict[str, Verdict],
    sources: list[Source],
    vectors: SentenceVectors,
    purpose: str = "part",
) -> Answer | None:
    """One answer per part of a multi-part question (or per side of a comparison: the
    passage that best answers the question about that side and names it), each found
    among all the sources; found only when every part is."""
    parts: list[Answer] = []
    sides: list[tuple[str, Pick, Choice]] = []
    picked: list[tuple[SubQuery, Asked, Pick, Choice]] = []
    for sq in plan.sub_queries:
        if not sq.purpose.startswith(purpose):
            continue
        view = plan.model_copy(update={"query": sq.text, "kind": "simple", "sub_queries": [sq]})
        asked = analyse(sq.text)
        if purpose == "entity: ":
            side = sq.purpose.removeprefix(purpose)
            others = [e for e in plan.entities if e != side]
            named = [
                s for s in sources if mentions(s.text, side) or _member_named(s.text, side, others)
            ]
            pick = choose(asked, view, named, vectors, sources) if named else None
            best = _naming(pick, side, parts, others) if pick else None
            if pick is not None and best is not None:
                sides.append((side, pick, best))
                parts.append(
                    _passage_answer(best, claims, verdicts, lead=f"{side}:", found=pick.found)
                )
            continue
        # Every source may answer a part: the whole question's search often finds it first.
        pick = choose(asked, view, sources, vectors)
        if pick.denial is not None:
            # A part's premise denied denies the question: "Which setting enables push, and
            # how many pushed streams …?" / "Server Push (PUSH_PROMISE) is not implemented."
            return _passage_answer(pick.denial, claims, verdicts, lead=DENIED, found=False)
        if pick.best is not None:
            picked.append((sq, asked, pick, pick.best))
    # A passage is shown once: the part it covers best keeps it, another part takes its next
    # passage that is close to its best, or adds nothing ("which bugbear check …" keeps the
    # B950 sentence that the part before it also ranked first).
    chosen: dict[int, Choice] = {}
    for k in sorted(range(len(picked)), key=lambda k: -picked[k][3].coverage):
        top = picked[k][3]
        taken = [c.passage for c in chosen.values()]
        best = next(
            (
                c
                for c in picked[k][2].ranked or [top]
                if c.score >= FURTHER_SHARE * top.score
                and not any(_overlaps(c.passage, p) for p in taken)
            ),
            None,
        )
        if best is not None:
            chosen[k] = best
    # A part left out is answered by the passage another part shows only when its own best
    # was found; a part showing its next passage is found only if that passage would be.
    unanswered = any(not p[2].found for k, p in enumerate(picked) if k not in chosen)
    for k, (sq, asked, pick, top) in enumerate(picked):
        if k not in chosen:
            continue
        found = pick.found
        if chosen[k] is not top:
            found = found and (
                chosen[k].coverage >= MIN_COVERAGE or chosen[k].similarity >= CLOSE_SIMILARITY
            )
        lead = _yes_or_no(sq.text, chosen[k]) if asked.kind == "yes_no" else ""
        parts.append(
            _passage_answer(
                chosen[k],
                claims,
                verdicts,
                lead=lead,
                found=found and not unanswered,
                terms=asked.terms,
                quoted=asked.quoted,
            )
        )
    if not parts:
        return None
    if len(sides) == len(parts) >= 2:
        parts = [
            _passage_answer(chosen, claims, verdicts, lead=f"{side}:", found=pick.found)
            for side, pick, chosen in _parallel(sides)
        ]
    return _joined(parts)


def _joined(parts: list[Answer]) -> Answer:
    """One answer of several parts, in order: found only when every part is."""
    text = " ".join(p.text for p in parts)
    backing = [c for p in parts for c in p.claims]
    return Answer(text, backing, parts=tuple(parts), found=all(p.found for p in parts))


def _place(choice: Choice) -> tuple[str, str]:
    return choice.passage.source.id, choice.passage.section


def _parallel(sides: list[tuple[str, Pick, Choice]]) -> list[tuple[str, Pick, Choice]]:
    """Compared things are usually described side by side (two items of one list, two
    paragraphs of one section): a side answered from elsewhere takes its passage from the
    section that answers another side when one there names it and scores close."""
    out = []
    for i, (side, pick, chosen) in enumerate(sides):
        elsewhere = {_place(c) for j, (_, _, c) in enumerate(sides) if j != i}
        taken = {c.passage.quote for j, (_, _, c) in enumerate(sides) if j != i}
        if _place(chosen) not in elsewhere:
            beside = next(
                (
                    c
                    for c in pick.ranked or []
                    if _place(c) in elsewhere
                    and c.score >= PARALLEL_SHARE * chosen.score
                    and c.passage.quote not in taken
                    and len(c.passage.sentences) == 1
                    and _is_subject(c.passage.text, side, [s for s, _, _ in sides if s != side])
                ),
                None,
            )
            chosen = beside or chosen
        out.append((side, pick, chosen))
    return out


def _passage_per_ask(
    plan: Plan,
    several: list[Ask],
    claims: list[Claim],
    verdicts: dict[str, Verdict],
    sources: list[Source],
    vectors: SentenceVectors,
) -> Answer | None:
    """A question that asks two things the planner kept as one search ("which max_age …, and
    what package must be installed for it?"): the best passage for each ask, scored with the
    words the ask carries (see ``asks``); a passage that already answered an earlier ask is
    not repeated. Found only when every ask is."""
    parts: list[Answer] = []
    yes_no_ask: list[bool] = []  # per part: was its ask a yes-or-no one
    part_asks: list[Ask] = []  # per part: the ask it answers
    merged = False
    for ask in several:
        after = parts[-1].passage if parts and parts[-1].lead != DENIED else None
        answered = _ask_answer(plan, ask, claims, verdicts, sources, vectors, after=after)
        if answered is None:
            return None
        if (
            not answered.found
            and answered.lead != DENIED
            and (_knob_shown(ask.text, parts) or _message_shown(ask.text, parts))
        ):
            # "What is waitress's default ceiling on a request body, and which setting raises
            # it?": the setting whose entry gave the default ("max_request_body_size: …
            # Default: `1073741824` (1GB)") is the one that changes it.
            merged = True
            continue
        shown = answered.passage
        held = [
            k
            for k, p in enumerate(parts)
            if p.passage is not None and shown is not None and _overlaps(shown, p.passage)
        ]
        if (
            answered.lead == DENIED
            and shown is not None
            and any(p.lead == DENIED and _same_passage(shown, p.passage) for p in parts)
        ):
            merged = True  # one premise, denied once ("WSGI support has been dropped, …")
            continue
        if answered.lead != DENIED and any(parts[k].lead == DENIED for k in held):
            # The passage that denied an earlier ask's premise answers this ask too: the
            # question rests on that premise, and the denial stands ("Since the email format
            # does full RFC 5322 validation, why …? Which strictness option am I missing?")
            merged = True
            continue
        if answered.lead != DENIED and held:
            # A passage holding an earlier one whole ("Werkzeug will detect and use them …"
            # and the list of them, for "Which ones?") answers both asks in its place.
            if shown is not None and all(_holds_passage(shown, parts[k].passage) for k in held):
                if not answered.found and all(parts[k].found for k in held):
                    # (the earlier ask's answer, with what follows it: "… (1000 by default, `0`
                    # disables the cap) …" for "what is its default, and how do we lift it?")
                    answered = replace(answered, found=True)
                parts = [p for k, p in enumerate(parts) if k not in held] + [answered]
                yes_no_ask = [y for k, y in enumerate(yes_no_ask) if k not in held] + [
                    analyse(ask.text).kind == "yes_no"
                ]
                part_asks = [a for k, a in enumerate(part_asks) if k not in held] + [ask]
                merged = True
                continue
            # The very passage that answered the earlier ask answers this one too: one answer
            # for both ("Does waitress still need the stdlib module, and since which release
            # has that been the case?" / "Changed in version 1.2.0: Waitress has now
            # "vendored" `asyncore` into itself …").
            # (a yes-or-no ask, that is: a passage picked for "Which methods does X accept?"
            # and for "what does it do for one it has no handler for?" answers the second)
            if (
                answered.found
                and shown is not None
                and all(
                    parts[k].found and _same_passage(shown, parts[k].passage) and yes_no_ask[k]
                    for k in held
                )
            ):
                merged = True
                continue
            # Else, when the passage answered the earlier ask better than it answers this one,
            # the next best passage, scored close, answers this one ("`itsdangerous` -
            # Required for `SessionMiddleware` support." after the `max_age` item answered the
            # first). (A passage this ask holds better was taken from it: no answer by asks.)
            if any(answered.basis["score"] > parts[k].basis.get("score", 0.0) for k in held):
                continue
            earlier = tuple(p.passage for p in parts if p.passage is not None)
            other = _ask_answer(plan, ask, claims, verdicts, sources, vectors, shown=earlier)
            if other is None or other.lead == DENIED:
                continue
            answered = other
        parts.append(answered)
        yes_no_ask.append(analyse(ask.text).kind == "yes_no")
        part_asks.append(ask)
    # An ask not answered by its own passage may be answered by another ask's: that passage
    # answers both, and the one shown for it goes.
    answered_elsewhere = [
        k
        for k, (p, a) in enumerate(zip(parts, part_asks, strict=True))
        if not p.found
        and p.lead != DENIED
        and _answered_in(
            plan,
            a,
            [q.passage for q in parts if q is not p and q.found and q.lead != DENIED],
            sources,
            vectors,
        )
    ]
    if answered_elsewhere:
        parts = [p for k, p in enumerate(parts) if k not in answered_elsewhere]
        merged = True
    if len(parts) == 1 and merged:
        return parts[0]
    if len(parts) == 1 and not parts[0].found and len(several) >= 2:
        # The first ask is not answered, and the passage shown for it is all a later ask has:
        # not the whole question's best passage either ("Which Application setting caps the
        # requests per client IP …, and what is its default limit?" / `max_clients=10`).
        return replace(parts[0], lead=NOT_FOUND)
    if len(parts) < 2:
        return None
    return _joined(parts)


# "Which setting raises it?", "what do I pass to lift the cap?", "What is the knob for that?"
_KNOB_ASK: Final = re.compile(
    r"\b(?:which|what)\s+(?:[\w.-]+\s+){0,2}?(?:settings?|options?|arguments?|parameters?|flags?"
    r"|knobs?|keywords?|kwargs?|config(?:uration)?\s+(?:keys?|values?|options?))\b"
    r"|\bwhat\s+(?:do|should|can|must|would)\s+(?:I|we|you)\s+(?:pass|set)\b",
    re.I,
)
_CHANGES_IT: Final = re.compile(
    r"\b(?:chang|rais|lower|lift|increas|decreas|mov|control|adjust|tun|overrid|disabl|enabl"
    r"|turn|switch|configur|extend|shorten|reduc|tweak|alter|modif|govern|determin)\w*|\bknobs?\b",
    re.I,
)
_THE_VALUE: Final = re.compile(
    r"\bthe\s+(?:cap|limit|ceiling|maximum|minimum|default|value|timeout|size)\b", re.I
)


# "… and what is its message?", "with what error message?"
_MESSAGE_ASK: Final = re.compile(
    r"\b(?:what|which)\s+(?:(?:is|was|are)\s+)?(?:its|the|their|that|this)?\s*"
    r"(?:error\s+)?messages?\b",
    re.I,
)
# an error shown with its message: "ValueError: Can only remove directly provided interfaces."
_ERROR_WITH_MESSAGE: Final = re.compile(r"\b\w*(?:Error|Exception|Warning)`?:\s*\S")


def _message_shown(ask: str, parts: list[Answer]) -> bool:
    """Does the ask want the message of the error an earlier ask was answered with, shown
    there with its message?"""
    return bool(_MESSAGE_ASK.search(ask)) and any(
        p.found and p.passage is not None and _ERROR_WITH_MESSAGE.search(p.passage.quote)
        for p in parts
    )


def _knob_shown(ask: str, parts: list[Answer]) -> bool:
    """Does the ask want the setting that changes what an earlier ask was answered with, and is
    that answer a setting's own entry (so the setting is shown, by name, with it)?"""
    if not (_KNOB_ASK.search(ask) and _CHANGES_IT.search(ask)):
        return False
    if not (POINTS_BACK.search(ask) or _THE_VALUE.search(ask)):
        return False
    return any(p.found and p.passage is not None and setting_entry(p.passage) for p in parts)


def _part_points_back(plan: Plan) -> bool:
    """Does a later part of the question point back at an earlier one ("Which ones …?")?"""
    parts = [sq for sq in plan.sub_queries if sq.purpose.startswith("part")]
    return any(POINTS_BACK.search(sq.text) for sq in parts[1:])


def _holds_passage(outer: Passage, inner: Passage | None) -> bool:
    """Is ``inner`` a stretch of ``outer`` (same source, its text inside)?"""
    return (
        inner is not None
        and outer.source.id == inner.source.id
        and inner.quote in outer.quote
        and len(outer.quote) > len(inner.quote)
    )


def _same_passage(one: Passage, other: Passage | None) -> bool:
    return other is not None and one.source.id == other.source.id and one.quote == other.quote


def _ask_answer(
    plan: Plan,
    ask: Ask,
    claims: list[Claim],
    verdicts: dict[str, Verdict],
    sources: list[Source],
    vectors: SentenceVectors,
    shown: tuple[Passage, ...] = (),
    after: Passage | None = None,
) -> Answer | None:
    """The best passage for one ask of the question (None when no passage is left); with
    ``shown``, the best sharing no sentence with those, when it scores close to the best; with
    ``after`` (the earlier ask's passage), the sentences right after it when they score close
    to the best: documentation answers the follow-up question next ("QTrio - Integration
    between Trio and … Qt wrapper libraries." / "Uses Trio's guest mode." for "…, and what
    Trio mechanism does it rely on?")."""
    own, asked, pick = _ask_pick(plan, ask, sources, vectors)
    if pick.best is None:
        return None
    if pick.denial is not None:
        return _passage_answer(pick.denial, claims, verdicts, lead=DENIED, found=False)
    top = pick.best
    best: Choice | None = top
    if shown:
        best = next(
            (
                c
                for c in pick.ranked or []
                if c.score >= FURTHER_SHARE * top.score
                and not any(_overlaps(c.passage, p) for p in shown)
            ),
            None,
        )
    if best is None:
        return None
    if after is not None and (next_one := _continuing(after, pick, best)) is not None:
        best = next_one
    lead = _yes_or_no(ask.text, best) if own.kind == "yes_no" else ""
    return _passage_answer(
        best,
        claims,
        verdicts,
        lead=lead,
        found=pick.found,
        terms=asked.terms,
        quoted=asked.quoted,
    )


def _ask_pick(
    plan: Plan, ask: Ask, sources: list[Source], vectors: SentenceVectors
) -> tuple[Asked, Asked, Pick]:
    """One ask of the question read (its own words, and as scored: with the words it carries)
    and its passages chosen."""
    own = analyse(ask.text)
    scored = analyse(ask.scored)
    # The ask's own words are what it asks; the setting and carried names weigh half.
    focus = tuple(t for t in own.terms if t in scored.terms) if ask.scored != ask.text else ()
    if len(own.terms) <= 1 and POINTS_BACK.search(ask.text):
        focus = ()  # "Where do they go?" asks about what the words it carries name
    asked = Asked(
        own.kind,
        scored.terms,
        own.about_default,
        own.how_to,
        own.counted,
        focus,
        wants=own.wants,
        default_setup=own.default_setup or scored.default_setup,
        release=own.release,
        quoted=scored.quoted,
        bound=own.bound,
        people=own.people,
    )
    view = plan.model_copy(update={"query": ask.searched or ask.scored, "kind": "simple"})
    return own, asked, choose(asked, view, sources, vectors, ask=ask.text)


def _answered_in(
    plan: Plan,
    ask: Ask,
    shown: list[Passage | None],
    sources: list[Source],
    vectors: SentenceVectors,
) -> bool:
    """Does a passage shown for another ask answer this one too, scoring close to this ask's
    best? ("How long does the default connector keep a resolved address, and which connector
    argument changes it?" / "… resolutions will be cached by default for `10` seconds. This
    behavior can be changed …" was picked for the second ask and says the first.)"""
    others = [p for p in shown if p is not None]
    if not others:
        return False
    _, _, pick = _ask_pick(plan, ask, sources, vectors)
    if pick.best is None or pick.answers is None or pick.denial is not None:
        return False
    for c in pick.ranked or []:
        if c.score < FURTHER_SHARE * pick.best.score:
            break
        if any(
            c.passage.source.id == p.source.id and set(c.passage.sentences) <= set(p.sentences)
            for p in others
        ) and pick.answers(c):
            return True
    return False


def _continuing(after: Passage, pick: Pick, best: Choice) -> Choice | None:
    """The sentences right after ``after`` in its source (alone, or with ``after`` itself),
    scored close to the ask's best, with the kind of thing the ask asks for."""
    end = after.first + len(after.sentences)
    if best.passage.source.id == after.source.id and best.passage.first <= end < (
        best.passage.first + len(best.passage.sentences)
    ):
        return None  # the best already goes on past the earlier passage
    for c in pick.ranked or []:
        if c.score < CONTINUES_SHARE * best.score:
            break
        if (
            c.passage.source.id == after.source.id
            and c.passage.first in (after.first, end)
            and c.passage.first + len(c.passage.sentences) > end
            and c.cue
        ):
            return c
    return None


def _further_asks(
    plan: Plan,
    answer: Answer,
    claims: list[Claim],
    verdicts: dict[str, Verdict],
    sources: list[Source],
    vectors: SentenceVectors,
) -> Answer:
    """A comparison answered side by side, with what else the question asks of both ("…, and
    is there one exception class I can catch for both?"): an ask after the first naming no
    side is answered after the sides, by a passage none of them shows."""
    several = asks(plan.query)
    further = [a for a in several[1:] if not any(mentions(a.text, e) for e in plan.entities)]
    parts = list(answer.parts)
    for ask in further:
        shown = tuple(p.passage for p in parts if p.passage is not None)
        answered = _ask_answer(plan, ask, claims, verdicts, sources, vectors, shown)
        if answered is not None and answered.lead != DENIED:
            parts.append(answered)
    if len(parts) == len(answer.parts):
        return answer
    return _joined(parts)


def _overlaps(a: Passage, b: Passage) -> bool:
    return a.source.id == b.source.id and bool(set(a.sentences) & set(b.sentences))


def _naming(
    pick: Pick, side: str, used: list[Answer], others: list[str] | None = None
) -> Choice | None:
    """The best passage that names the compared thing itself (a one-word name or identifier
    exactly: "BackgroundTask" is not "BackgroundTasks"), sharing no sentence with another side's;
    among those scoring close, one whose sentence is about it (it is named first)."""
    taken = [a.passage for a in used if a.passage is not None]
    named = [
        c
        for c in pick.ranked or []
        # What a reader sees names it: "…and [exceptions](format_exc_info)" does not; a
        # sentence shown for another side is not shown again.
        if not any(_overlaps(c.passage, t) for t in taken)
        and (_names(c.passage.text, side, others) or _headed_by(c.passage, side))
    ]
    if not named:
        return None
    # A signature or other "Label: `code`" line shows the thing, it says nothing of it: a
    # statement about it scored close speaks for it ("Used to add a single background task
    # to a response." under "Background Task", not "Signature: `BackgroundTask(func, …)`").
    said = [c for c in named if not _LABELLED_CODE.match(plain(c.passage.quote))]
    if said and said[0] is not named[0] and said[0].score >= SUBJECT_SHARE * named[0].score:
        named = said + [c for c in named if c not in said]
    # "`nox.options.force_venv_backend` is equivalent to specifying -fb or
    # --force-venv-backend." says how else the thing is written, not what it does: a passage
    # that says more of it, scored close, speaks for it ("… force the backend used by all
    # sessions … by using `-fb <backend>` or `--force-venv-backend <backend>`").
    telling = [c for c in named if not _only_spelled(c.passage)]
    if (
        telling
        and telling[0] is not named[0]
        and telling[0].score >= SUBJECT_SHARE * named[0].score
    ):
        named = telling + [c for c in named if c not in telling]
    # "there are two backends the reloader supports: `stat` and `watchdog`" lists the sides
    # and says nothing of one: a passage that does not only list them speaks for it.
    apart = [c for c in named if not _lists_sides(c.passage.text, side, others or [])]
    named = apart or named
    # The document about the thing itself ("Osmunda", "Dracula (plant)") speaks for it
    # better than one about a member or a namesake ("Osmunda spectabilis"), when close.
    own = (
        c
        for c in named
        if _is_about(c.passage.source.title, side) and c.score >= OWN_PAGE_SHARE * named[0].score
    )
    chosen = next(own, named[0])
    if _is_about(chosen.passage.source.title, side):
        return chosen
    # "`WriteLogger` writes log entries atomically" says what WriteLogger does; "you must use
    # `WriteLogger` instead of `PrintLogger`" says what the reader should do.
    # ("Now try replacing `open_memory_channel(math.inf)` with `open_memory_channel(0)`" is
    # about both sides: it speaks for neither)
    subject = (
        c
        for c in named
        if c.score >= SUBJECT_SHARE * chosen.score
        and (_is_subject(c.passage.quote, side, others) or _headed_by(c.passage, side))
        and not any(
            _names(c.passage.text, o, [side, *(x for x in others or [] if x != o)])
            for o in others or []
        )
    )
    return next(subject, chosen)


_LABELLED_CODE: Final = re.compile(r"^\W*[A-Za-z][\w ]{0,30}:\s*`[^`]+`\W*$")

# A sentence saying only how else a thing is written or set: "`x` is equivalent to specifying
# `-db`", "… is an alias for …", "use the `--force-python` shorthand", "You can also set this
# option in the Noxfile with `nox.options.x`.", "The `func` parameter … was renamed to …"
_SPELLED: Final = re.compile(
    r"\b(?:is|are)\s+(?:equivalent|identical)\s+to\s+(?:specifying|passing|using|setting|writing)\b"
    r"|\b(?:is|are)\s+(?:an?\s+|the\s+)?(?:alias(?:es)?|synonyms?|shorthands?)\s+(?:for|of|to)\b"
    r"|\bshorthand\b[^.]{0,20}:?\s*$"
    r"|\bcan\s+also\s+(?:set|specify|pass|configure|give)\s+(?:this|it|them|these)\b"
    r"|\b(?:was|were|has\s+been|have\s+been)\s+(?:also\s+)?renamed\b",
    re.I,
)


def _only_spelled(passage: Passage) -> bool:
    """Does every sentence of the passage say only how else the thing is written or set?"""
    return bool(passage.sentences) and all(
        _SPELLED.search(plain(sentence)) for sentence in passage.sentences
    )


def _headed_by(passage: Passage, side: str) -> bool:
    """Is the passage under a heading that is the side's name ("Background Task" for
    `BackgroundTask`, "`max_age`")? What a section says, it says of the thing it is named
    for."""

    def compact(text: str) -> str:
        return re.sub(r"[\s`*_]+", "", plain(text)).lower()

    return bool(passage.section) and compact(passage.section) == compact(side)


def _is_subject(text: str, side: str, others: list[str] | None) -> bool:
    """Is the side named among the first words of the passage, before any other side? (Code
    marks aside: "The `watchdog` backend uses …" names the watchdog backend.)"""
    text = text.replace("`", "")
    at = _name_at(text, side)
    if at < 0 or len(words(text[:at])) > SUBJECT_WORDS:
        return False
    return not any(0 <= _name_at(text, o) < at for o in others or [])


def _name_at(text: str, name: str) -> int:
    """Where the text names it as a whole ("BackgroundTasks" does not name "BackgroundTask"),
    or -1."""
    name = name.strip()
    # (a call is named by its callable too: "The global `mistune.html` object …" names
    # `mistune.html()`)
    called = name[:-2] if name.endswith("()") and len(name) > 2 else ""
    pattern = rf"{re.escape(called)}(?:\(\))?" if called else re.escape(name)
    m = re.search(rf"(?<!\w){pattern}(?!\w)", text, re.I)
    return m.start() if m else -1


def _lists_sides(text: str, side: str, others: list[str]) -> bool:
    """Does the text name the side and another one side by side ("`stat` and `watchdog`")?"""
    heads = [words(name)[:1] for name in (side, *others)]
    if not all(heads):
        return False
    plain_text = text.replace("`", "").lower()
    mine = re.escape(heads[0][0])
    return any(
        re.search(rf"\b{mine}\W+(?:and|or)\W+{re.escape(h[0])}\b", plain_text)
        or re.search(rf"\b{re.escape(h[0])}\W+(?:and|or)\W+{mine}\b", plain_text)
        for h in heads[1:]
    )


def _is_about(title: str, side: str) -> bool:
    """Is the title the thing's own name ("Dracula (plant)" is about "Dracula")?"""
    return re.sub(r"\s*\([^)]*\)\s*$", "", title).strip().lower() == side.strip().lower()


def _names(text: str, side: str, others: list[str] | None = None) -> bool:
    if " " in side.strip():
        return mentions(text, side)
    return re.search(
        rf"(?<![\w]){re.escape(side.strip())}(?![\w])", text
    ) is not None or _member_named(text, side, others)


# A method called on an object the asker named: "db.atomic()", "client.send()"
_MEMBER_CALL: Final = re.compile(r"`?[a-z_]\w*\.(?P<member>[A-Za-z_]\w*)\(\)`?")
# A member reached through its module: "fields.Method", "structlog.twisted.JSONRenderer"
_MODULE_MEMBER: Final = re.compile(r"`?[a-z_]\w*(?:\.[A-Za-z_]\w*)*\.(?P<member>[A-Za-z_]\w*)`?")


def _member_named(text: str, side: str, others: list[str] | None = None) -> bool:
    """Is a side written as a call on the asker's object ("db.transaction()") named by its
    member as code ("the `transaction` context manager", "`Database.transaction()`")? As a
    plain word ("a transaction") it is not. So is a member reached through its module
    ("fields.Method": "A `Method` field …"), when no other side is that member of another
    module ("to_thread.run_sync" and "to_process.run_sync" are both `run_sync`)."""
    call = _MEMBER_CALL.fullmatch(side.strip())
    if call is None:
        through = _MODULE_MEMBER.fullmatch(side.strip())
        if through is None or any(
            (m := _MODULE_MEMBER.fullmatch(o.strip())) is not None
            and m["member"].lower() == through["member"].lower()
            for o in others or []
        ):
            return False
        member = re.escape(through["member"])
        return re.search(rf"`(?:[\w.]*\.)?{member}`", text) is not None
    member = re.escape(call["member"])
    return (
        re.search(rf"`(?:[\w.]*\.)?{member}(?:\(\))?`|\.{member}\(|(?<![\w.]){member}\(\)", text)
        is not None
    )


def _yes_or_no(question: str, choice: Choice) -> str:
    """ "No:" when the passage denies what the question asks (or affirms what it denies),
    "Yes:" when it says it as asked; '' when the passage holds less than half of what is
    asked (a "Yes" on a passage about something nearby is a claim nobody made) and for a
    choice between alternatives ("Are they UTC or local time?", "does the validator get the
    string or the int?"), which neither word answers."""
    if _EITHER_OR.search(question) or choice.coverage < YES_NO_COVERAGE:
        return ""
    passage = choice.passage.quote
    asked = re.sub(r"\bor not\b", "", question, flags=re.I)  # "Is it set or not?" is no denial
    if (
        _STILL.search(asked)
        and not has_negation(asked)
        and any(says_gone(t) for t in choice.passage.sentences)
    ):
        return "No:"  # "Is that still the way to do it?" / "Passing "self" is deprecated."
    if not has_negation(passage) and _points_elsewhere(passage, question):
        return ""  # the sentence, as it stands, says who does it
    if _ASKS_DIFFERENCE.search(question):
        return _alike_or_not(question, plain(passage))
    return "No:" if _denies(passage) != _denies(asked) else "Yes:"


def _alike_or_not(question: str, passage: str) -> str:
    """Asked whether two things differ (or are the same), the passage answers only by saying
    how alike they are: "… `batched` is an alias of `itertools.batched`" is "No:" to "Is it
    any different …?"; "For Python 3.12 and above, use `itertools.batched` instead." is
    neither."""
    same = _SAYS_SAME.search(passage) is not None
    if not same and _SAYS_DIFFERENT.search(passage) is None:
        return ""
    says_same = same != has_negation(passage)  # "is not the same as", "does not differ"
    asks_same = _SAYS_SAME.search(question) is not None
    return "Yes:" if says_same == asks_same else "No:"


# Asked whether two things differ: a passage says yes or no only by saying how alike they are.
_ASKS_DIFFERENCE: Final = re.compile(
    r"\bdiffer(?:s|ent|ence)?\b|\bthe\s+same\s+(?:as|thing)\b|\bidentical\b|\bequivalent\b", re.I
)
_SAYS_SAME: Final = re.compile(r"\b(?:same|alias(?:es|ed)?|identical|equivalent)\b", re.I)
_SAYS_DIFFERENT: Final = re.compile(r"\b(?:differ\w*|unlike|distinct)\b", re.I)


# "… you can use [Hishel](…) for HTTPX.": another package does what was asked of this one.
_USE_OTHER: Final = re.compile(
    r"\b(?:you\s+(?:can|could|may|might|should)\s+(?:also\s+)?|consider\s+|try\s+)"
    r"(?:use|using|install|installing|add|adding)\s+(?:the\s+)?[`[]?(?P<name>[A-Za-z][\w.-]*)",
    re.I,
)


def _points_elsewhere(passage: str, question: str) -> bool:
    """Does the passage point to a package the question does not name, by its proper or code
    name, for what it asks ("Does httpx cache responses?" / "… you can use Hishel for
    HTTPX.")? A "Yes" would say the library does it itself."""
    asked = question.lower()
    for m in _USE_OTHER.finditer(passage):
        raw = m.group("name")
        coded = passage[m.start("name") - 1 : m.start("name")] == "`"
        name = raw.strip(".").lower()
        if (raw[0].isupper() or coded) and name not in STOPWORDS and name not in asked:
            return True
    return False


_STILL: Final = re.compile(r"\bstill\b", re.I)
# An aside does not deny what a sentence states: "(say to prepare an environment without
# installing the package)", "… loads it without importing it". ("Without a config file" is
# a "no config", and stays one.)
_ASIDE: Final = re.compile(r"\([^()]*\)|\bwithout\s+\w+ing\b", re.I)


# "The `--reload` and `--workers` arguments are mutually exclusive.": they do not go together.
_EXCLUSIVE: Final = re.compile(r"\b(?:mutually exclusive|incompatible)\b", re.I)


def _denies(text: str) -> bool:
    """Does the text say no to what it is about, asides apart?"""
    text = _ASIDE.sub(" ", text)
    return has_negation(text) or _EXCLUSIVE.search(text) is not None


# "… X or Y?" in the asking clause; not "or not" ("Is it set or not?") nor a trailing "or?"
_EITHER_OR: Final = re.compile(r"\b(?!not\b)\w+\s+or\s+(?!not\b)[^?,;]{1,60}\?\s*$", re.I)


def _says_its_label(lead: str, text: str) -> bool:
    """Does the passage open with the very name its lead gives ("outbuf_overflow:" before
    "outbuf_overflow: A tempfile should be created …", "lock_task:" before "`lock_task`: …",
    "RS256:" before "RS256 - RSASSA-PKCS1-v1_5 signature …")?"""
    name = lead.removesuffix(":").strip().strip("`")
    if not lead.endswith(":") or not name or len(name.split()) > 3:
        return False
    return re.match(rf"`?{re.escape(name)}`?\s*(?::|[-–—]\s)", text.strip(), re.I) is not None


def _passage_answer(
    choice: Choice,
    claims: list[Claim],
    verdicts: dict[str, Verdict],
    *,
    lead: str,
    found: bool,
    terms: list[str] | None = None,
    quoted: tuple[str, ...] = (),
    steps: bool = False,
) -> Answer:
    passage = choice.passage
    basis = {
        "score": choice.score,
        "coverage": choice.coverage,
        "similarity": round(choice.similarity, 3),
        "cue": choice.cue,
        "hop": choice.hop,
        "denied": lead == DENIED,
    }
    if not lead and (named := named_by_heading(passage)):
        lead = f"{named}:"  # "HTTPSRedirectMiddleware: Enforces that all incoming requests …"
    elif not lead and (shown := code_before(passage)):
        lead = f"{shown}:"  # "`pytest --trace`: This will invoke the Python debugger …"
    text = passage.quote
    backing = [c for c in claims if c.text in text or text in c.text]
    unconfirmed = bool(backing) and all(_label(c, verdicts) == "unverifiable" for c in backing)
    seen = shown_for(passage, terms or [], quoted, steps)
    if _says_its_label(lead, seen.text):
        lead = ""  # "outbuf_overflow: outbuf_overflow: A tempfile …" says the name twice
    # A note's label says nothing in an answer ("Yes: Note: Zstandard support …"); a warning's
    # still warns.
    said = _NOTE_LABEL.sub("", seen.text, count=1)
    return Answer(
        said,
        backing,
        block=seen.block,
        unconfirmed=unconfirmed,
        passage=passage,
        found=found,
        lead=lead,
        basis=basis,
    )


_NOTE_LABEL: Final = re.compile(r"^(?:note|tip|hint)\s*:\s+(?=\S)", re.I)


def _claim_answer(
    plan: Plan, usable: list[Claim], claims: list[Claim], verdicts: dict[str, Verdict]
) -> Answer:
    if _YES_NO.match(plan.query) and (decided := yes_no_answer(plan, usable)) is not None:
        return decided
    if plan.kind == "multi_part":
        return _per_part_answer(plan, usable, claims, verdicts)
    best = _best_claim(plan.query, plan, usable, claims, verdicts)
    return Answer(best.text, [best], unconfirmed=_label(best, verdicts) == "unverifiable")


def _best_claim(
    question: str,
    plan: Plan,
    usable: list[Claim],
    claims: list[Claim],
    verdicts: dict[str, Verdict],
) -> Claim:
    hops = {sq.id: sq.hop for sq in plan.sub_queries}

    def score(c: Claim) -> tuple[float, int]:
        bonus = 0.05 if _label(c, verdicts) == "supported" else 0.0
        bonus += ANSWER_TYPE_BONUS if fits_answer_type(question, c.text) else 0.0
        if plan.kind == "multi_hop":
            bonus += 0.1 * (hops.get(c.sub_query_id or "", 1) - 1)
        return (c.relevance + bonus, -claims.index(c))

    return max(usable, key=score)


def _per_part_answer(
    plan: Plan, usable: list[Claim], claims: list[Claim], verdicts: dict[str, Verdict]
) -> Answer:
    """A multi-part question gets the best claim of each part, in order."""
    chosen: list[Claim] = []
    for sq in plan.sub_queries:
        own = [c for c in usable if c.sub_query_id == sq.id]
        if own:
            chosen.append(_best_claim(sq.text, plan, own, claims, verdicts))
    if not chosen:
        chosen = [_best_claim(plan.query, plan, usable, claims, verdicts)]
    unconfirmed = any(_label(c, verdicts) == "unverifiable" for c in chosen)
    return Answer(" ".join(c.text for c in chosen), chosen, unconfirmed=unconfirmed, per_claim=True)


def fits_answer_type(question: str, sentence: str) -> bool:
    """Does the sentence hold the kind of thing the question word asks for (a place for
    "where", a year or date for "when", a number for "how many", a name for "who")?"""
    for asking, holds in _ANSWER_TYPES:
        if asking.search(question):
            return bool(holds.search(sentence))
    return False


def _label(claim: Claim, verdicts: dict[str, Verdict]) -> str:
    verdict = verdicts.get(claim.id)
    return verdict.verdict if verdict else "unverifiable"


def _about(entity: str, plan: Plan, claims: list[Claim]) -> list[Claim]:
    """Claims naming the entity, then claims found by the entity's own search."""
    own = {sq.id for sq in plan.sub_queries if sq.purpose.startswith(f"entity: {entity}")}
    naming = [c for c in claims if mentions(c.text, entity)]
    found = [c for c in claims if c.sub_query_id in own and c not in naming]
    return naming + found


def comparison_answer(plan: Plan, claims: list[Claim]) -> Answer | None:
    """Which entity wins the comparison, from the years or numbers in the claims."""
    question = plan.query
    for entity in plan.entities:  # "First for Women" names no direction
        question = question.replace(entity, " ")
    asked = [w.lower() for w in re.findall(r"[A-Za-z]+", question)]
    direction = next((w for w in asked if w in _DIRECTIONS), None)
    if direction is None:
        return None
    use_years = direction in _EARLY | _LATE
    values: list[tuple[str, float, Claim]] = []
    for entity in plan.entities[:2]:
        others = [e for e in plan.entities if e != entity]
        for claim in _about(entity, plan, claims):
            value = _value_near(claim.text, entity, others, use_years)
            if value is not None:
                values.append((entity, value, claim))
                break
    if len(values) < 2 or values[0][1] == values[1][1]:
        return None
    smallest_wins = direction in _EARLY or direction in _LESS
    winner, loser = sorted(values, key=lambda v: v[1], reverse=not smallest_wins)
    sentence = (
        f"{winner[0]} {_predicate(plan, direction)} "
        f"({_show(winner[1])}, versus {_show(loser[1])} for {loser[0]})"
    )
    if _YES_NO.match(plan.query):
        sentence = ("Yes: " if winner[0] == plan.entities[0] else "No: ") + sentence
    return Answer(sentence, [winner[2], loser[2]])


def _predicate(plan: Plan, direction: str) -> str:
    """The question's own verb phrase ("was started first"), else a plain one."""
    head = re.split(r"[,:]", plan.query)[0]
    match = re.search(
        rf"\b(?P<aux>was|were|is|are|came|come|has|have|had)\b(?P<mid>(?:\s+[\w'-]+){{0,3}}?)"
        rf"\s+{direction}\b",
        head,
        re.I,
    )
    if match and not any(mentions(match.group("mid"), e) for e in plan.entities):
        aux = {"were": "was", "are": "is", "come": "came", "have": "has"}.get(
            match.group("aux").lower(), match.group("aux").lower()
        )
        return f"{aux}{match.group('mid')} {direction}"
    if direction in _FALLBACK_PREDICATE:
        return _FALLBACK_PREDICATE[direction]
    return "has more" if direction in {"more", "most"} else f"is {direction}"


def _value_near(text: str, entity: str, others: list[str], use_years: bool) -> float | None:
    """The first year (or number) after the entity's mention and before another entity's."""
    lowered = text.lower()
    start = lowered.find(entity.lower())
    start = 0 if start < 0 else start
    stops = [p for o in others if (p := lowered.find(o.lower(), start + 1)) > start]
    segment = text[start : min(stops, default=len(text))]
    found = tokens(segment)
    for i, token in enumerate(found):
        if not re.fullmatch(r"\d[\d,]*(?:\.\d+)?", token):
            continue
        is_year = is_year_token(found, i)
        if use_years and is_year:
            return float(token)
        if not use_years and not is_year:
            value = float(token.replace(",", ""))
            nxt = found[i + 1].lower() if i + 1 < len(found) else ""
            return value * _MULTIPLIERS.get(nxt, 1.0)
    return None


def _show(value: float) -> str:
    return f"{value:,.0f}" if value.is_integer() and value >= 10_000 else f"{value:g}"


def yes_no_answer(plan: Plan, claims: list[Claim]) -> Answer | None:
    """Yes/No from whether the checked claims hold the asked property for every entity;
    None when the question names no property to look for."""
    entities = plan.entities[:2] if plan.kind == "comparison" else plan.entities[:1]
    subjects = entities or [""]
    if re.search(r"\bsame\b", plan.query, re.I) and len(entities) >= 2:
        return _same_answer(plan, entities, claims)
    prop = key_terms(plan.query, exclude=entities)
    if not prop:
        return None
    asked_negative = has_negation(plan.query)
    # A short property must hold whole ("ESA astronauts": an astronaut of another agency is
    # not one); a long one by half its words.
    needed = 1.0 if len(prop) <= 3 else 0.5
    holding: list[Claim] = []
    missing: list[str] = []
    for subject in subjects:
        pool = _about(subject, plan, claims) if subject else claims
        fits = [
            c
            for c in pool
            if overlap(prop, c.text) >= needed and has_negation(c.text) == asked_negative
        ]
        if fits:
            holding.append(max(fits, key=lambda c: (overlap(prop, c.text), c.relevance)))
        else:
            missing.append(subject)
    heuristic = "a heuristic reading of the checked claims"
    if not missing:
        scope = f" for {' and '.join(subjects)}" if entities else ""
        return Answer(f"Yes ({heuristic}: they support this{scope})", holding)
    scope = f" for {' and '.join(missing)}" if entities else ""
    cited = holding or [c for s in subjects if s for c in _about(s, plan, claims)[:1]]
    return Answer(f"No ({heuristic}: none supports this{scope})", cited[:2])


def _same_answer(plan: Plan, entities: list[str], claims: list[Claim]) -> Answer:
    described: list[tuple[str, set[str], Claim]] = []
    for entity in entities:
        about = _about(entity, plan, claims)[:2]
        names = {
            n
            for c in about
            for n in capitalised_spans(c.text)
            if n not in _MONTHS and not mentions(n, entity) and not mentions(entity, n)
        }
        if about:
            described.append((entity, names, about[0]))
    heuristic = "a heuristic reading of the checked claims"
    if len(described) < 2:
        return Answer(f"No ({heuristic}: the sources describe only one of them)", claims[:1])
    shared = sorted(described[0][1] & described[1][1])
    used = [d[2] for d in described]
    if shared:
        return Answer(f"Yes ({heuristic}: both are described as {', '.join(shared)})", used)
    return Answer(f"No ({heuristic}: the claims share no description)", used)
