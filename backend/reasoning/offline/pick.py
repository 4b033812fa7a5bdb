"""Choosing the passage that answers the question, and knowing when none does.

Each passage (see ``passages``) is scored against the question and, for sources found by a
follow-up hop, against that hop's search:

``score = 0.40·similarity + 0.35·coverage + 0.20·cue + 0.05·prior − 0.04·(sentences − 1)``

* similarity: the mean of the best cosine between one of its sentences and the question (or
  hop search) and the sentences' average cosine (an idle sentence dilutes a passage);
* coverage: the share of the question's content words the passage holds, each word weighted
  by its rarity among the retrieved sentences (IDF), so "httpx" in a corpus about httpx
  counts for little and "keepalive_expiry" for much; a word of the document's title or of
  its sections' headings counts half, a synonym (``synonyms``: "drops" for "throws away")
  0.8;
* cue: 1 when the passage holds the kind of thing asked for (``question.holds_cue``);
* prior: half source quality, half retrieval rank; a passage opening with a pronoun or a
  connective ("It …", "However, …") loses 10 %: the window that starts one sentence earlier
  carries it.

**Found or not.** The best passage answers unless the question names something no retrieved
text mentions ("Kerberos" in docs that never say it), its answer is a value (a number, a
date, a default) the passage does not hold, or the passage is far from it both in words
(coverage under :data:`MIN_COVERAGE`) and in meaning (similarity under
:data:`CLOSE_SIMILARITY`), or holds almost none of its words however close in meaning
(coverage under :data:`MIN_CLOSE_COVERAGE`). A "how many" question needs a passage naming
what it counts. **A denied premise**: when a sentence holding the question's rarest
word says the thing asked about is not supported, was removed ("Remove `X`" in a changelog),
is deprecated or does not exist, and the question did not itself ask "whether" or about the
change, the premise is denied and the answer says so. A sentence saying so in other words
counts when it is about as near the question in meaning as any passage ("… in place?" /
"Bound loggers are immutable, so it's not possible to modify a context directly.").
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from backend.reasoning.models import Plan, Source
from backend.reasoning.offline.claims import LEANS_ON_CONTEXT
from backend.reasoning.offline.embedding import SentenceVectors
from backend.reasoning.offline.markup import plain
from backend.reasoning.offline.passages import (
    CHANGE_TAG,
    DEFAULT_LINE,
    POINTS_AT_LIST_ABOVE,
    Passage,
    lists_in_code,
    passages,
    section_of,
    setting_entry,
)
from backend.reasoning.offline.polarity import has_negation
from backend.reasoning.offline.question import (
    CODE_SERIES,
    FLAG,
    KEYWORD_ARGUMENT,
    Asked,
    about_the_asker,
    asking_part,
    asks_for_argument,
    holds_cue,
    names_counted,
    names_wanted_type,
    needs_value,
    passes_keyword,
)
from backend.reasoning.offline.sections import section_passages
from backend.reasoning.offline.synonyms import (
    DEFAULT_TERM,
    OPPOSITE_PAIRS,
    SYNONYM_WEIGHT,
    about_default_setup,
    alternatives,
    opposites,
)
from backend.reasoning.offline.text import (
    STOPWORDS,
    content_stems,
    content_words,
    key_terms,
    part_stems,
    split_sentences,
    stem,
    word_set,
    words,
)

MIN_COVERAGE: Final = 0.25
CLOSE_SIMILARITY: Final = 0.6
# … but a passage close in meaning that holds almost none of the question's words is about
# the same tool, not the same thing: "abort as soon as the first session fails" for "How do
# I give session.run a timeout so nox kills the command …?" (0.09 of its words, cosine 0.71).
MIN_CLOSE_COVERAGE: Final = 0.12
ASK_COVERAGE: Final = 0.6  # … or this share of its asking part's words, with the kind asked for
DENIAL_COVERAGE: Final = 0.25
EXAMPLE_REACH: Final = 800  # characters before a sentence read for the example it follows …
EXAMPLE_COVERAGE: Final = 0.35  # … with which it holds this share of the question's words
DENIAL_FULL_COVERAGE: Final = 0.6  # or, without the rarest word, most of the question's words
PARAGRAPH_REACH: Final = 1500  # characters of a passage's paragraph read either side of it
DENIAL_SIMILARITY: Final = 0.65  # or this close to the question in meaning,
DENIAL_NEAR: Final = 0.05  # and within this of the passage nearest it
OBJECT_REACH: Final = 3  # content words after a premise's verb that may name what it acts on
NEED_NOT_COVERAGE: Final = 0.45  # a premise's "has to" denied by "doesn't have to" …
PREMISE_TERMS: Final = 3  # a stated premise this long is denied by a sentence holding most of it
RARE_PAIR_TERMS: Final = 5  # two of the three rarest words name the subject in a question this long
REMEDY_TERMS: Final = 2  # a denial's remedy holding this many more of the question's words
DENIAL_FAR: Final = 0.3  # a denial's similarity is within this of the nearest passage's
WINDOW_PENALTY: Final = 0.04
ADDS_COVERAGE: Final = 0.1  # a window holding this much more of the question than its best sentence
LIST_WINDOWS: Final = 2  # a lead-in with its list weighs as 3 sentences (as 1 for a list question)
CHANGELOG_FACTOR: Final = 0.85
HISTORY_FACTOR: Final = 0.9  # "The make_object method was deprecated …" for "the intended way"
SYMPTOM_FACTOR: Final = (
    0.85  # "you'll likely see an error like this one:" for "how do I get past it"
)
# "… without a marker?" / "use the `pytest.mark.anyio` marker": the very way ruled out
AVOIDED_FACTOR: Final = 0.75
NO_MEANS_FACTOR: Final = 0.85  # "You can turn them off altogether." names no way to do it
HOP_BONUS: Final = 0.05
SCENE_NAME_MARGIN: Final = 0.05  # a passage naming the scene's code, this close to the best
ACTION_FACTOR: Final = 0.95  # "How do I retry …?" against a passage that never says "retry"
# A section heading this close to the question (cosine) adds HEADING_BONUS × the excess.
HEADING_SIMILARITY: Final = 0.5
HEADING_BONUS: Final = 0.2
# A short section read whole answers "how does X work?" when its heading is this close to it.
SECTION_HEADING: Final = 0.6
SECTION_SHARE: Final = 0.85  # … and scores this close to the best passage
RELEASE_SHARE: Final = 0.85  # a passage naming the asked release, this close to the best
LIST_LEAD: Final = 1.15  # a list that scores this many times the best of any other section
MIN_LIST_COVERAGE: Final = 0.1  # … answers a list question holding this share of its words
SIBLING_MARGIN: Final = 0.05  # a sibling passage this close that holds more of the question wins
LEVEL_MARGIN: Final = 0.01  # a passage this close behind the best, answering, answers in its place
TYPED_NAME_BONUS: Final = 0.06
QUOTED_BONUS: Final = 0.06  # code showing a literal the question quotes ("/users/me")
COMPLEMENT_MISSING: Final = 0.3  # the best passage leaves this share of the question out
COMPLEMENT_SHARE: Final = 0.8  # a complement scores this close to the best passage
COMPLEMENT_COVERAGE: Final = 0.4  # and holds this share of what the best one leaves out,
COMPLEMENT_TERMS: Final = 2  # at least this many of its words (one shared word is chance)
# A release number as written: "Python 3.9", "1.4.0", "v0.14" (its digits; not "0.5 seconds")
# ("Python 3.6 and 3.7": both)
_RELEASE_NUMBER: Final = re.compile(
    r"(?:\b(?:python|version|release|pypy)\s+v?|(?<![\w.])v)(\d+\.\d+(?:\.\d+)?"
    r"(?:\s*(?:,|/|&|\band\b|\bor\b)\s*\d+\.\d+(?:\.\d+)?)*)(?![\w.]*\d)"
    r"|(?<![\w.])v?(\d+\.\d+\.\d+)(?![\w.]*\d)",
    re.I,
)
_DOTTED: Final = re.compile(r"\d+\.\d+(?:\.\d+)?")
# Saying it cannot be done, or is not there: "does not support", "is not possible", "there is
# no …".
_CANNOT_BE: Final = re.compile(
    r"\b(?:(?:does|do|did|is|are|was|were|will|can)\s*(?:not|n't)\s+(?:\w+\s+){0,2}?"
    r"(?:support(?:ed)?|exist|available|provide[ds]?|allow(?:ed)?|implement(?:ed)?|possible|"
    r"take|accept|offer|include|permit|enable|recogni[sz]e|understand|attempt|auto\w*|"
    r"automatically|do so)\b"
    r"|not (?:yet )?(?:supported|implemented|available|possible)"
    # "`unittest.TestCase` methods cannot directly receive fixture arguments": what cannot be
    # done, whatever the verb
    r"|\b(?:cannot|can't|can not)\s+(?:directly\s+|simply\s+|currently\s+|yet\s+)?"
    r"(?!only\b|just\b|be\b|always\b|necessarily\b)\w+"  # "cannot be set to `*` …": a rule
    # "This option cannot be specified in the `pyproject.toml` config.": not that way, or there
    # ("Isolation level cannot be specified for nested `atomic()` blocks.": not for those)
    r"|\b(?:cannot|can't|can not)\s+be\s+(?:specified|configured|set|given|passed|defined|"
    r"declared|put|placed|written|stored|listed|applied|changed|overridden)\s+"
    r"(?:in|via|through|inside|under|from|for|on|with|within|together)\b"
    # "(but note it does not apply to `pyproject.toml` configuration …)": not there
    r"|\b(?:does|do|will)\s*(?:not|n't)\s+apply\s+(?:to|in|for|with)\b"
    r"|there (?:is|are) no\b|\bnever (?:supported|existed)|\bunsupported\b"
    # "APScheduler does not currently have any interprocess synchronization"
    r"|\b(?:does|do)\s*(?:not|n't)\s+(?:currently\s+|yet\s+)?have\s+any\b"
    # "pytest is single-threaded, … never spawning any threads itself": what it never does
    r"|\bnever\s+(?!(?:been|be|needs?|has|have|had)\b)\w+(?:ing|s|ed)\b"
    # "You never need to use `super()` with attrs classes that inherit from other attrs
    # classes.": what the asker means to do is not needed
    r"|\byou\s+(?:never|do\s+not|don't|will\s+never)\s+need\s+to\b|\bthere\s+is\s+no\s+need\s+to\b)",
    re.I,
)
# Saying it is gone: removed, dropped, deprecated, no longer there. This is said of a named
# thing ("`UJSONResponse` was removed"), and denies a question only about that thing.
_GONE: Final = re.compile(
    # ("`MultiError` itself has been fully removed")
    r"\b(?:no longer\b|(?:was|were|has been|have been|is being|been) "
    r"(?:(?:fully|completely|entirely|now|finally|since|already)\s+)?(?:removed|dropped|"
    r"deprecated|retired|discontinued)|\bdeprecated\b)"
    r"|^\W*(?:remove|removed|drop|dropped|deprecate|deprecated)\s"
    # "`fields.FormattedString` field is removed.": a thing named in code is gone
    r"|^\W*[\w.]*(?:\.|_|[a-z][A-Z])[\w.]*`?\s+(?:\w+\s+){0,2}(?:is|are)\s+(?:now\s+)?"
    r"(?:removed|dropped)(?:\s+(?:in|since|as of)\s+[\w. ]+|\s+in favou?r of\b.*)?\W*$",
    re.I,
)
# Said of a named thing, "no longer" is gone only when what stops is the thing itself ("`X` is
# no longer supported", "`X` no longer exists"); "repeated `load_dotenv` calls no longer
# re-read the file" and "`dotenv get` no longer exits with code 1" change what it does and
# leave it in place.
_GONE_THING: Final = re.compile(
    _GONE.pattern.replace(
        r"no longer\b",
        r"no longer\s+(?:be\s+|being\s+)?(?:(?:officially|actively)\s+)?(?:supported|available|"
        r"exists?|works?|provided|included|maintained|needed|necessary|required|possible|"
        r"accepted|valid|used|usable|recommended|present|shipped|bundled|exported|documented|"
        r"allowed|permitted|functional|in use|part of|(?:has|have)\s+(?:any|an)\s+effect|"
        r"does anything|do anything)\b",
        1,
    ),
    re.I,
)


# "… only if the option's flag is given, instead of if the option is not provided": a
# condition, not a statement that something is missing.
_CONDITION: Final = re.compile(
    r"\b(?:if|unless|when|whenever|whether|once|in case|until)\b[^,.;:]*$", re.I
)


# A sentence that opens with a condition states what follows from it, not what exists: "If
# you don't set `kw_only=True`, then there is no valid attribute ordering".
_OPENS_WITH_CONDITION: Final = re.compile(r"^\W*(?:if|unless|when|whenever|once|in case)\b", re.I)


def denies(sentence: str, gone: bool = True) -> bool:
    """Does the sentence say something is not supported or absent (outside a condition), or,
    with ``gone``, that it was removed or deprecated?"""
    sentence = plain(sentence)  # "it will *not* do so", "does **not** support"
    if _OPENS_WITH_CONDITION.match(sentence):
        return False
    patterns = (_CANNOT_BE, _GONE) if gone else (_CANNOT_BE,)
    return any(
        not _CONDITION.search(sentence[: m.start()])
        # "msgpack doesn't support integers less than -9223372036854775808, and greater than
        # 18446744073709551615": a bound, stated
        and not _BOUND.match(sentence[m.end() :])
        # "you can't send another until after calling `start_next_cycle`": what it takes
        and not _PREREQUISITE.match(sentence[m.end() :])
        # "… are now rejected (example: you can't put a newline into an HTTP header)": an
        # example in an aside, not what the sentence says ("(but note it does not apply to
        # `pyproject.toml` …)" is)
        and not _EXAMPLE_ASIDE.search(sentence[: m.start()])
        for pattern in patterns
        for m in pattern.finditer(sentence)
    )


_BOUND: Final = re.compile(
    r"\s+(?:[\w-]+\s+){0,3}?(?:(?:less|greater|more|fewer|larger|smaller|longer|shorter|higher|"
    r"lower|bigger)\s+than|above|below|beyond|over|under|outside|exceeding)\s+[-−+]?\d",
    re.I,
)
_EXAMPLE_ASIDE: Final = re.compile(r"\(\s*(?:for\s+)?(?:example|instance|e\.g\.|eg)\b[^()]*$", re.I)
_PREREQUISITE: Final = re.compile(
    r"[^,.;:()]{0,60}?\b(?:until|unless|without|before|except)\b", re.I
)
_BY_MEANS: Final = re.compile(
    r"\b(?:cannot|can't|can not|(?:does|do|is|are)\s*(?:not|n't))\b[^.;:]{0,80}?"
    r"\b(?:using|via|through|with)\s+`(?P<means>[^`]+)`",
    re.I,
)


def _by_other_means(sentence: str, question: str) -> bool:
    """Does the sentence say it cannot be done by one means the question does not ask about?
    "cattrs cannot structure both `old_field` and `new_field` into a single field using
    `rename`" denies nothing of "How can cattrs structure both versions …?"."""
    m = _BY_MEANS.search(plain(sentence))
    return m is not None and not names_code(question, m.group("means").strip("()"))


def _gone_named(
    sentence: str, names: list[str], in_code: bool = False, said: re.Pattern[str] = _GONE
) -> bool:
    """Does the sentence say that one of the question's code names is gone, naming it before
    saying so ("`X` was removed in favor of `Y`" says nothing against `Y`)? With ``in_code``
    (a setting the question assigns, `note = …`), named inside backticks ("The `[run] note`
    setting has been deprecated.", not "Note that … was removed"). ``said``: what is said of
    it (:data:`_UNSUPPORTED`: that it is not supported)."""
    text = plain(sentence)
    if _OPENS_WITH_CONDITION.match(text):
        return False

    def named(before: str, name: str) -> bool:
        # "Renamed the `cancellable` argument in `anyio.to_thread.run_sync()` to … (and
        # deprecated the old parameter name)": what is gone is the argument, not the function
        # that holds it
        before = _HOLDER.sub(" ", before)
        if not in_code:
            return names_code(_as_modifier(before, name), name)
        pattern = rf"(?<![\w.-]){re.escape(name)}(?![\w-])"
        return any(re.search(pattern, span) for span in re.findall(r"`([^`]+)`", before))

    for m in (_GONE_THING if said is _GONE else said).finditer(text):
        # (what is gone is named in the verb's own clause: "… to `trio.run`, which restores
        # the old behavior (although `MultiError` itself has been fully removed)" keeps
        # `trio.run`)
        opened = [c.end() for c in _CLAUSE_OPENER.finditer(text[: m.start()])]
        before = text[opened[-1] if opened else 0 : m.end()]
        if not _CONDITION.search(text[: m.start()]) and any(named(before, n) for n in names):
            return True
    if said is not _GONE:
        return False
    # A change log's line: "Removed the `urllib3.contrib.ntlmpool` module." (what follows the
    # verb up to "in favor of" or a clause's end is what is gone)
    opening = _REMOVED_OPENING.match(text)
    if opening is None:
        return False
    # (the thing removed is the first code named: "Remove deprecated `app` argument passed
    # to `httpx.Client` on the `TestClient`" leaves the `TestClient` in place)
    gone = opening.group("gone")
    gone = next(iter(re.findall(r"`[^`]+`", gone)), gone)
    return any(named(gone, n) for n in names)


def _as_modifier(text: str, name: str) -> str:
    """The text without the places where a name is only the module of a dotted path
    ("`wtforms.ext.appengine` Is deprecated" says nothing of WTForms)."""
    if "." in name:
        return text
    text = re.sub(rf"(?<![\w.]){re.escape(name)}(?=\.\w)", " ", text, flags=re.I)
    # (nor where it names the kind of a capitalised thing: "WTForms Extensions All the
    # extensions are being deprecated." says nothing of WTForms)
    return re.sub(rf"(?<![\w.`]){re.escape(name)}(?=\s+[A-Z][a-z]+s\b)", " ", text)


_CLAUSE_OPENER: Final = re.compile(r"\(|;|\b(?:although|though|whereas|but|which|while)\b", re.I)


# "… the `decode_responses=True` argument of the Redis connection is not currently supported."
_UNSUPPORTED: Final = re.compile(
    # ("`communicate` is not provided as a method on `Process` objects")
    # ("Type aliases using `typing.TypeAlias` aren't supported …")
    r"\b(?:is|are)(?:\s+not|n't)\s+(?:currently\s+|yet\s+)?"
    r"(?:supported|provided|available|implemented)\b"
    r"|\bunsupported\b",
    re.I,
)
# "The `policy` option was replaced with `loop_factory`.": it is gone, something else in its place
_REPLACED: Final = re.compile(
    r"\b(?:was|were|has been|have been|is being|got)\s+(?:replaced|superseded)\s+(?:with|by)\b",
    re.I,
)
# "the `x` argument in `f()`", "an option of `Y`": the code named last holds the thing
_HOLDER: Final = re.compile(
    r"\b(?:arguments?|parameters?|params?|options?|keywords?|attributes?|methods?|fields?|"
    r"flags?|settings?)\s+(?:in|of|on|for|from|to)\s+`[^`]+`",
    re.I,
)
_REMOVED_OPENING: Final = re.compile(
    # (after a tag: "BACKWARDS INCOMPATIBLE Removed the `Event.clear()` method.")
    r"^\W*" + CHANGE_TAG + r"(?:removed?|dropped|drop|deleted?|deprecated?)\b(?P<gone>.*?)"
    r"(?=\bin\s+favou?r\s+of\b|\binstead\b|\buse\b|[,;:]|(?<!\w)\(|$)",  # (not a call's "(")
    re.I,
)


# A yes-or-no ask whether the thing is going: "Is it going away?", "Is X deprecated?"
_ASKS_IF_GONE: Final = re.compile(
    r"\b(?:go(?:es|ing)?\s+away|phas(?:e|es|ed|ing)\s+out|deprecated|removed|dropped)\b", re.I
)
_ASKS_ABOUT_CHANGE: Final = re.compile(
    r"\b(?:remov\w*|deprecat\w*|drop(?:s|ped|ping)?|replac\w*|renam\w*|instead|alternative|"
    r"migrat\w*|no longer|still|successor|sunset\w*)\b"
    # "Is it going away, which release drops it, and what field are we supposed to move to?"
    r"|\b(?:go(?:es|ing)?\s+away|phas(?:e|es|ed|ing)\s+out|end[- ]of[- ]life"
    r"|(?:move|moving|switch|switching)\s+(?:over\s+)?to)\b"
    # "What is the oldest SQLAlchemy version it will work with?": "Support for SQLAlchemy older
    # than 2.0.0 was dropped." says where support starts, it denies nothing
    r"|\b(?:oldest|minimum|earliest|lowest|min)\b[\w\s-]{0,30}\b(?:versions?|releases?)\b"
    r"|\bwhich\s+(?:\w+\s+)?versions?\b",
    re.I,
)


@dataclass(slots=True)
class Choice:
    """The best passage and how well it answers."""

    passage: Passage
    score: float
    similarity: float
    coverage: float
    cue: bool
    hop: int = 1


@dataclass(slots=True)
class Pick:
    """The outcome: the best passage (if any), whether it answers, and a denied premise."""

    best: Choice | None
    found: bool
    denial: Choice | None = None
    ranked: list[Choice] | None = None
    idf: dict[str, float] | None = None
    answers: Callable[[Choice], bool] | None = None  # does a ranked passage answer the question


def _idf(sources: list[Source]) -> dict[str, float]:
    """Rarity of each word among the retrieved documents and among their sentences (the mean
    of the two): a word every document uses (the product's own name in its docs) says
    little about which passage answers."""
    sentences = [
        content_stems(p.quote) for s in sources for p in passages(s) if len(p.sentences) == 1
    ]
    documents = [content_stems(f"{s.title}\n{s.text}") for s in sources]
    weights: dict[str, float] = {}
    for pool in (sentences, documents):
        counts: Counter[str] = Counter(term for item in pool for term in item)
        total = max(len(pool), 1)
        for term in set(counts) | set(weights):
            weights[term] = weights.get(term, 0.0) + 0.5 * (
                math.log((total + 1) / (counts.get(term, 0) + 1)) + 1.0
            )
    unseen = 0.5 * sum(math.log(max(len(pool), 1) + 1) + 1.0 for pool in (sentences, documents))
    return weights | {"": unseen}


def coverage(
    terms: list[str],
    text: str,
    title: str,
    idf: dict[str, float],
    focus: tuple[str, ...] = (),
) -> float:
    """The IDF-weighted share of ``terms`` the text holds (a title word counts half). With a
    ``focus`` (the asking part's words), the other terms (the scene's) weigh half."""
    if not terms:
        return 0.0
    held, in_title = part_stems(text), part_stems(title)
    got = total = 0.0
    for term in dict.fromkeys(terms):
        s = stem(term.lower())
        weight = idf.get(s, idf[""]) * (0.5 if focus and term not in focus else 1.0)
        total += weight
        if term.startswith("-"):  # a command-line flag, held only as written
            got += weight if _shows_flag(text, term) else 0.0
        elif _holds(held, s) or _same_member(held, s):
            got += weight
        elif "." in s.strip(".") and names_code(text, term):
            got += weight  # `fields.Method` named by its last part as code: "A `Method` field"
        elif _holds(in_title, s) or _same_member(in_title, s):
            got += 0.5 * weight
        elif s == DEFAULT_TERM and about_default_setup(text):
            got += SYNONYM_WEIGHT * weight  # "without configuration gives you …"
        elif s in _OBLIGED and _NORMATIVE.search(text):
            got += SYNONYM_WEIGHT * weight  # "required to use" / "This **MUST** be a `file://` URI"
        elif any(_holds(held, a) for a in alternatives(s)):
            got += SYNONYM_WEIGHT * weight  # "throws … away" answered by "drops"
        elif (not focus or term in focus) and any(_holds(held, a) for a in opposites(s)):
            # "does the .9 still get thrown away?" answered by "now preserves float values"
            # (what the asker asks, not the scene's complaint: "Black keeps …")
            got += SYNONYM_WEIGHT * weight
    return got / total if total else 0.0


# A specification's requirement keywords (RFC 2119, written in capitals): what "required",
# "mandatory" or "need to" ask about. ("must" itself is a stopword: every rule says it.)
_NORMATIVE: Final = re.compile(r"\b(?:MUST|SHALL|REQUIRED)\b")
_OBLIGED: Final = frozenset(stem(w) for w in ("required", "require", "mandatory", "need"))


def _shows_flag(text: str, flag: str) -> bool:
    """Does the text hold the command-line flag as a token ("`-h`", not "-hx" or "re-h")?"""
    return re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", text) is not None


def _same_member(stems: frozenset[str], term: str) -> bool:
    """A dotted name is held by another spelling of the same member: ``ctx.invoke`` by
    ``Context.invoke`` (the object is often named by a short alias)."""
    if "." not in term.strip("."):
        return False
    member = "." + term.rsplit(".", 1)[1]
    return len(member) > 3 and any(s.endswith(member) and s != member for s in stems)


_WITH_UNIT: Final = re.compile(r"(\d+(?:\.\d+)?)(?:s|ms|m|h|d|sec|secs|min|mins|kb|mb|gb)")


def _holds(stems: frozenset[str], term: str) -> bool:
    """The term, or a word of the same family ("configure", "configuration"): the first five
    letters shared and lengths within four, both plain words. "websocket" is not
    "websocketexception", nor is "websocket.close" (an identifier is its own name)."""
    if term in stems:
        return True
    if "-" in term.strip("-"):  # "standard-library" held by "the standard library"
        parts = [stem(p) for p in term.split("-") if p]
        return len(parts) >= 2 and all(_holds(stems, p) for p in parts)
    if (measured := _WITH_UNIT.fullmatch(term)) is not None:
        return measured.group(1) in stems  # "wait 10s" / "retried after 10 seconds"
    if len(term) < 5 or not term.isalpha():
        return False
    return any(s[:5] == term[:5] and abs(len(s) - len(term)) <= 4 and s.isalpha() for s in stems)


def choose(
    asked: Asked,
    plan: Plan,
    sources: list[Source],
    vectors: SentenceVectors,
    known: list[Source] | None = None,
    ask: str | None = None,
) -> Pick:
    """The passage that best answers the question, and whether it does. ``known``: every
    source retrieved, when ``sources`` are only some of them (those naming one side of a
    comparison): a name the question uses is unknown only when none of them mentions it.
    ``ask``: what is asked, when the question is one ask of several and its query carries the
    scene's words before it."""
    # Code is an answer to "how do I …"; elsewhere an example says less than its prose.
    # The default setup spelled out in code answers what the defaults are.
    defaults = asked.default_setup or asked.about_default
    # An example that shows the very code the question quotes ("passes … like "norway"",
    # "`y = attr.ib()` … which exception?") shows what happens: it answers too.
    quoted = asked.quoted
    env_var = {"environment", "variable"} <= set(asked.wants)
    argument = asks_for_argument(asked)
    # "What exception class does cattrs raise …?": often named only in the traceback shown
    exception = bool({"exception", "error", "exceptions", "errors"} & set(asked.wants))
    command = bool(_ASKS_COMMAND.search(plan.query))
    # (asked in a question: a comparison's side is searched as words, "dict_tracebacks
    # exceptions event output", and its prose says how the two differ)
    output = (
        not asked.how_to
        and plan.kind != "comparison"
        and plan.query.rstrip().endswith("?")
        and bool(_ASKS_OUTPUT.search(plan.query))
    )
    asked_words = {w.lower() for w in re.findall(r"[A-Za-z_]\w*", plan.query)} if output else set()
    candidates = [
        p
        for s in sources
        for p in passages(s)
        # (asked how, the code answers with the prose before it: not that prose alone)
        if not (asked.how_to and p.before_code)
        # "What text does humanize return for 1,000,000 bytes if I ask naturalsize for
        # binary units?": a `>>>` session calling what the question names shows it (a
        # session under a heading, nothing said of it, shows only that)
        and ((calls := output and _calls_named(p, asked_words)) or not p.session)
        and (
            calls
            or (asked.how_to and not p.is_defaults)
            or not p.is_code
            or (defaults and p.is_defaults)
            or (quoted and not p.is_defaults and _shows(p, quoted))
            # "Which environment variable …": often named only in the code that sets it
            # ("Environment variables: ``NOXSESSION=tests nox``")
            or (
                (env_var or exception)
                and not p.is_defaults
                and names_wanted_type(asked, p.quote, plan.query)
            )
            # "Which environment templates does Alembic ship with?": the `list_templates`
            # output after "These can be listed out using …" lists them, one "name - what" a line
            or ((asked.kind == "list" or plan.kind == "list") and lists_in_code(p))
            # "The current list of available failover strategies is defined in …:" and the
            # code that prints them
            or (
                (asked.kind == "list" or plan.kind == "list")
                and p.is_code
                and _NAMES_A_LIST.search(p.sentences[0]) is not None
            )
            # "What do I pass to pytest to run them?", "What command builds the docs?": the
            # command line after "To run them explicitly:" shows it
            or (command and p.is_code and bool(_COMMAND_LINE.match(p.code[0] if p.code else "")))
            # "Which constructor argument raises that number?": the code passing it shows it
            # ("… might improve performance to increase this number." / `PoolManager(num_pools=50)`)
            or (argument and not p.is_defaults and bool(KEYWORD_ARGUMENT.search(p.quote)))
        )
    ]
    if asked.kind == "how" and not asked.how_to:
        # "How does version negotiation work?": the section headed "Version Negotiation",
        # read whole (each window of it shows one step of the mechanism)
        wholes = [p for s in sources for p in section_passages(s)]
        if wholes:
            # (named by what is asked, not by the scene: "I record a static context … How do
            # the two end up combined …?" is not answered by the section "Static contexts")
            ask = asking_part(plan.query, phrases=False) or plan.query
            near = vectors.cosine([plain(p.section) for p in wholes], [ask])[:, 0]
            candidates += [p for p, sim in zip(wholes, near, strict=True) if sim >= SECTION_HEADING]
    if not candidates:
        return Pick(None, False)
    idf = _idf(sources)
    # One row per sentence under its heading: "Default: `None`" under `SESSION_COOKIE_DOMAIN`
    # and under `SESSION_COOKIE_SAMESITE` are two statements.
    keys = sorted({(p.section, t) for p in candidates for t in p.sentences})
    row = {key: i for i, key in enumerate(keys)}
    sentences = [t for _, t in keys]
    # Only a bridge hop asks something the question does not (an expanded search repeats it).
    # Scored against a hop's own search only for a multi-hop question: elsewhere a follow-up
    # search finds more sources, but the question is still what must be answered. A question
    # about the asker's own setup is no chain of facts: a hop to the page "Testing WSGI
    # Applications" finds where the advice is, and the question says what it must be.
    hops = [
        sq
        for sq in plan.sub_queries
        if plan.kind == "multi_hop" and sq.hop > 1 and sq.purpose.startswith("bridge")
    ]
    if about_the_asker(plan.query):
        hops = []
    # A question that sets a scene first is also compared by its asking part alone (last
    # column): "When testing with CliRunner, how do I answer the prompts?" is about prompts.
    asking_alone = asking_part(plan.query, phrases=False)
    asking = [asking_alone] if asked.focus else []
    searches = [plan.query, *(sq.text for sq in hops), *asking]
    # A sentence is read with the heading it sits under ("Used to add a single background task
    # to a response." under "BackgroundTask"), and as it stands: the mean of the two cosines.
    holder = {(p.section, t): p.source for p in reversed(candidates) for t in p.sentences}
    headed = [under_heading(holder[section, t], t, section) for section, t in keys]
    sims = 0.5 * (vectors.cosine(sentences, searches) + vectors.cosine(headed, searches))
    ranks = _ranks(sources)
    listing = asked.kind == "list" or plan.kind == "list"
    # A heading that says what is asked ("Q: Can I find out which tests ran which lines?" for
    # "which of my tests actually executed it?") marks where the answer is.
    heads = sorted({p.section for p in candidates if p.section})
    heading_sims = (
        dict(zip(heads, vectors.cosine([plain(h) for h in heads], [plan.query])[:, 0], strict=True))
        if heads
        else {}
    )
    literal = _literals(quoted)
    scored: list[Choice] = []
    for passage in candidates:
        ways = [(0, asked.terms, 1)]
        ways += [
            (j + 1, key_terms(sq.text), sq.hop)
            for j, sq in enumerate(hops)
            if not passage.source.sub_query_ids or sq.id in passage.source.sub_query_ids
        ]
        best: Choice | None = None
        for column, terms, hop in ways:
            choice = _score(
                passage, asked, terms, column, hop, sims, row, idf, ranks, plan.query, listing
            )
            if best is None or choice.score > best.score:
                best = choice
        if best is not None:
            asked_there = float(heading_sims.get(passage.section, 0.0)) - HEADING_SIMILARITY
            if asked_there > 0:
                best.score = round(best.score + HEADING_BONUS * asked_there, 5)
            if literal and _shows(passage, literal, inline=True):
                best.score = round(best.score + QUOTED_BONUS, 5)  # the asker's own literal
            scored.append(best)
    scored.sort(key=lambda c: (-c.score, c.passage.source.id, c.passage.first))
    scored = _fuller_sibling_first(scored, asked.terms, asked.avoided_things)
    if asked.kind == "how":
        scored = _remedy_following_first(scored)
    if asked.how_to and not (asked.about_default or asked.default_setup):
        scored = _way_past_default_first(scored, asked.terms)
    scored = _telling_sibling_first(scored, asked.terms)
    scored = _stated_default_first(scored, plan.query)
    if asked.about_default:
        scored = _entry_default_first(scored, asked)
    scored = _whole_section_first(scored)
    if own := _documents_named(plan.query, sources):
        # "Which features does SEP-2577 deprecate?": that document says, not one citing it
        scored = [c for c in scored if c.passage.source.id in own] + [
            c for c in scored if c.passage.source.id not in own
        ]
    named = identifiers(plan.query)
    if needs_value(asked) and named:
        # A value answers only about the thing the question names: "80 characters" of the
        # help text is not the width of `click.progressbar`.
        # (or a page that named it before the passage: "Worker processes terminate after 5
        # minutes of inactivity" under "Technical details" of the page on `to_process.run_sync`)
        about = [
            c for c in scored if _names_any(c.passage, named) or _named_before(c.passage, named)
        ]
        # (a name only the scene gives, "On SqliteHuey, tasks … sit for seconds. What are the
        # consumer's default polling interval …?", says where the asker is: a passage naming
        # it comes first only when it scores close to the best)
        in_ask = identifiers(asking_alone)
        if about and (in_ask or about[0].score >= scored[0].score - SCENE_NAME_MARGIN):
            scored = about + [c for c in scored if c not in about]
    if needs_value(asked):
        scored = _valued_sibling_first(scored)
    errors = [n for n in named if _ERROR_NAME.search(n)]
    if asked.kind in ("how", "why") and errors:
        # "… so await resp.json() raises ContentTypeError. How do I get it parsed anyway?": a
        # passage naming the error the asker meets, scored close to the best, says what
        # brings it about and how to get past it ("If response's `content-type` does not
        # match … `aiohttp.ContentTypeError` get raised. To disable content type check pass
        # `None` value.")
        meets = [
            c
            for c in scored
            if c.score >= scored[0].score - SCENE_NAME_MARGIN and _names_any(c.passage, errors)
        ]
        scored = meets + [c for c in scored if c not in meets]
    scored = _asked_release_first(scored, plan.query)
    # the names a value must be said of: those of the ask, when a scene comes before it
    # ("… define an event_loop fixture. In which version did that fixture get removed?":
    # the ask's "that fixture" is the scene's)
    value_named = (
        named
        if asking_alone.strip() == plan.query.strip() or _THAT_THING.search(asking_alone)
        else [n for n in named if n in identifiers(asking_alone)]
    )
    unknown = any(
        # (an acronym only the scene carried into a later ask says where the asker is: "… hard
        # to read in CI logs. … What is it set to by default?")
        ask is None or not _ACRONYM.fullmatch(name) or name in ask
        for name in unknown_names(asking_alone, known or sources)
    )

    # A list asked for, and a list that stands out: "The responsibilities of an executor are as
    # follows: …" for "… what duties is my executor expected to take on?" answers, however
    # few of the scene's words it holds (the lead-in says in its own words what it lists).
    standing_out = scored[0] if listing and _list_stands_out(scored) else None
    asks_limit = _ASKS_LIMIT.search(plan.query) is not None
    # "Under which software license is simplejson distributed?": no retrieved page names a
    # license or software of any kind; the nearest passage ("The latest documentation for
    # simplejson can be read online here") is about the same library, not about that.
    # (A kind every answer is, "helper", "package", "option", is seldom said by the answer:
    # "`is_async_test`: Returns whether …" is the helper asked for.)
    wants = [w for w in asked.wants if w not in _ANY_KIND]
    kind_unnamed = bool(wants) and not any(
        _holds(held, stem(want))
        for held in (part_stems(f"{s.title}\n{s.text}") for s in sources)
        for want in wants
    )

    def answers(choice: Choice) -> bool:
        return (
            (
                choice.coverage >= MIN_COVERAGE
                or (choice is standing_out and choice.coverage >= MIN_LIST_COVERAGE)
                or (
                    choice.similarity >= CLOSE_SIMILARITY
                    and choice.coverage >= MIN_CLOSE_COVERAGE
                    and not kind_unnamed
                )
                or _holds_the_ask(asked, choice, idf, plan.query)
                or (choice.passage.is_code and _shows(choice.passage, quoted))
                or _names_successor(choice.passage, plan.query)
                or _read_with_its_example(choice, asked.terms, idf)
                or (asked.about_default and _signature_default(choice.passage, plan.query))
            )
            and (choice.cue or not needs_value(asked))
            # "Is there a per-job execution time limit …?": a passage stating no limit of any
            # kind does not answer whether there is one
            and (
                not asks_limit
                or _STATES_LIMIT.search(f"{choice.passage.section}\n{choice.passage.quote}")
                is not None
            )
            # (a chain's first link names the bridge, not what its second link counts)
            and (
                plan.kind == "multi_hop"
                or names_counted(asked, f"{choice.passage.section}\n{choice.passage.quote}")
            )
            # A name only the scene uses ("Our CI sets FORCE_COLOR …, but …. Which environment
            # variable wins?") says where the asker is, not what the documents must know.
            and not unknown
            and not _other_release(plan.query, choice.passage)
            and not (asked.release and _versions_of_other(asking_alone, choice.passage))
            and not _other_subject(plan.query, choice.passage, known or sources)
            and (
                not value_named
                or not needs_value(asked)
                or _names_any(choice.passage, value_named)
                or _named_before(choice.passage, value_named)
            )
        )

    top = scored[0]
    found = answers(top)
    if not found and (other := _level_answer(scored, asked, idf, plan.query, answers)):
        scored = [other, *(c for c in scored if c is not other)]
        top, found = other, True
    denial = _denial(asked, plan.query, scored, idf)
    if denial is not None and _agrees_with_failure(plan.query, denial.passage.quote):
        denial = None
    return Pick(top, found, denial, scored, idf, answers)


# Kinds of thing any answer of a library's docs may be, without saying so
_ANY_KIND: Final = word_set(
    "helper helpers function functions method methods way ways option options setting settings "
    "parameter parameters argument arguments param params tool tools package packages library "
    "libraries module modules class classes command commands flag flags variable variables "
    "value values thing things feature features api apis call calls hook hooks name names key "
    "keys field fields type types attribute attributes property properties object objects "
    "decorator decorators exception exceptions error errors one ones part parts step steps "
    "state states kind kinds sort mode modes else"
)


# The scene reports that something fails: "… but calling super().table(text) fails.", "…
# doesn't work", "… isn't available"
_FAILS: Final = re.compile(
    r"\b(?:fails|failed|breaks|broke|(?:does|do|did|is|are|was)\s*(?:not|n't)\s+"
    r"(?:work|working|available|exist|supported)|won't\s+work|isn't\s+there)\b",
    re.I,
)


def _agrees_with_failure(question: str, sentence: str) -> bool:
    """Does the sentence say of code that it is not there or cannot be used, where the
    question's scene reports that very code failing? It explains the asker's trouble, and
    denies nothing: "… but calling super().table(text) fails. How do I reuse the default table
    HTML …?" / "… so `super().table(text)` is not available." """
    scene = _premise(question)
    failing = [
        name
        for clause in re.split(r"[,;.]\s+(?:but|and|yet|so)?\s*|\s+but\s+", scene)
        if _FAILS.search(clause)
        for name in identifiers(clause)
    ]
    return (
        bool(failing)
        and not _NO_ERROR.search(sentence)
        and any(names_code(sentence, name) for name in failing)
    )


# Asked what to use in a thing's place: "… zip_equal(…) now dies with AttributeError. What am
# I supposed to use instead?"
_ASKS_SUCCESSOR: Final = re.compile(
    r"\b(?:instead|replacements?|replaces|successor|(?:move|migrate|switch|port)\s+to)\b", re.I
)
# … and a passage naming what to use: "Applications should use the standard library function
# `zip` with `strict=True` as a replacement."
_SUCCESSOR: Final = re.compile(
    r"\bas\s+(?:a|the)\s+replacement\b|\bin\s+favou?r\s+of\b|"
    r"\b(?:replaced|superseded)\s+(?:with|by)\b|\binstead\b|\bsuccessor\b",
    re.I,
)


def _names_successor(passage: Passage, question: str) -> bool:
    """Asked what to use in place of code the question names, does the passage name other
    code to use in its place, where its paragraph says that code is gone or replaced
    ("`zip_equal` was removed. Applications should use … `zip` with `strict=True` as a
    replacement.")?"""
    ask = asking_part(question, phrases=False) or question
    named = identifiers(question)
    if not named or passage.is_code or not _ASKS_SUCCESSOR.search(ask):
        return False
    text = plain(passage.quote)
    if not _SUCCESSOR.search(text):
        return False
    offered = [c for c in re.findall(r"`([^`]+)`", text) if not names_code(question, c)]
    if not offered:
        return False
    return any(
        _gone_named(sentence, named) or _gone_named(sentence, named, said=_REPLACED)
        for sentence in split_sentences(_paragraph(passage))
    )


def _read_with_its_example(choice: Choice, terms: list[str], idf: dict[str, float]) -> bool:
    """Does a sentence right after a code example say what the example shows, read with the
    example and its lead-in ("This is (still) slower than a plain assignment:" / two `pyperf
    timeit` runs, `slots=True` and `slots=True, frozen=True` / "So on a laptop computer the
    difference is about 200 nanoseconds …"), holding enough of the question?"""
    passage = choice.passage
    if passage.is_code or passage.start < 0:
        return False
    # (a sentence speaking of the example: "So …", "This …", "Here …", not one going on to
    # something else after it: "HTTP endpoint classes will respond with …")
    opening = words(passage.sentences[0])[:1]
    if not (_leans_back(passage) or opening and opening[0] in _OF_THE_EXAMPLE):
        return False
    before = passage.source.text[max(passage.start - EXAMPLE_REACH, 0) : passage.start]
    if not _ENDS_WITH_CODE.search(before):
        return False
    before = before[before.rfind("\n#") + 1 :]  # (not past its section's heading)
    return (
        coverage(terms, f"{passage.section}\n{before}\n{passage.quote}", "", idf)
        >= EXAMPLE_COVERAGE
    )


_OF_THE_EXAMPLE: Final = word_set("so here as thus hence")
_ENDS_WITH_CODE: Final = re.compile(r"(?:`{3,}|~{3,})[ \t]*\n\s*$")


# What a call gives back asked for: "What text does it return …", "What does it print?",
# "What is the output of …" (not "… before it gives up and returns None?")
_ASKS_OUTPUT: Final = re.compile(
    r"\bwhat\b[^?.]{0,60}?\b(?:return|output|print|give\s+back|evaluate\s+to)\b"
    r"|\bwhat\b[^?.]{0,30}?\b(?:output|result)\s+of\b",
    re.I,
)
_SESSION_CALL: Final = re.compile(r"(?:^|[\s.(=])(?P<name>[A-Za-z_]\w*)\((?=.*\s→\s)")


def _calls_named(passage: Passage, asked: set[str]) -> bool:
    """Is the passage a `>>>` session (each input with what it prints) calling a function the
    question names, ``asked`` being its words lower-cased ("naturalsize" /
    `humanize.naturalsize(1_000_000, binary=True) → '976.6 KiB'`)?"""
    if not passage.is_code:
        return False
    return any(
        m["name"].lower() in asked and len(m["name"]) >= 4
        for line in passage.code
        for m in _SESSION_CALL.finditer(line)
    )


def _whole_section_first(scored: list[Choice]) -> list[Choice]:
    """A section read whole, its heading naming the mechanism asked about, scoring close to
    the best passage, answers in its place: the mechanism is its steps, not one rule of it
    ("The protocol version sent by the client SHOULD be the one negotiated during
    initialization." against the section "Version Negotiation")."""
    whole = next((c for c in scored if c.passage.whole_section), None)
    if whole is None or whole is scored[0] or whole.score < SECTION_SHARE * scored[0].score:
        return scored
    return [whole, *(c for c in scored if c is not whole)]


# A document named by its series and number: "SEP-2577", "PEP 8", "RFC 6749", "ADR-12"
_DOCUMENT_NUMBER: Final = re.compile(r"\b([A-Z]{2,5})[- ]?(\d{1,5})\b")


def _documents_named(question: str, sources: list[Source]) -> set[str]:
    """The sources whose title carries a document number the question names ("SEP-2577" /
    "SEP-2577: Deprecate Roots, Sampling, and Logging")."""
    wanted = {(series, int(number)) for series, number in _DOCUMENT_NUMBER.findall(question)}
    if not wanted:
        return set()
    return {
        s.id
        for s in sources
        if {(series, int(number)) for series, number in _DOCUMENT_NUMBER.findall(s.title)} & wanted
    }


def _list_stands_out(scored: list[Choice]) -> bool:
    """Is the best passage a list under a lead-in, with the list cue, scored well ahead
    (LIST_LEAD times) of the best passage of any other section (or a sentence listing its
    items inline, of any passage without it)?"""
    top = scored[0]
    if top.cue and len(top.passage.sentences) == 1 and CODE_SERIES.search(top.passage.quote):
        # (or one sentence naming the items inline: "… FieldList cannot enclose
        # `BooleanField`, `ButtonField`, or `SubmitField` instances.", ahead of every passage
        # not holding it)
        said = top.passage.sentences[0]
        other = next((c.score for c in scored[1:] if said not in c.passage.sentences), 0.0)
        return top.score >= LIST_LEAD * other
    if not (top.passage.is_list and top.cue and top.passage.sentences[0].rstrip().endswith(":")):
        return False
    place = (top.passage.source.id, top.passage.section)
    other = next(
        (c.score for c in scored[1:] if (c.passage.source.id, c.passage.section) != place), 0.0
    )
    return top.score >= LIST_LEAD * other


_ERROR_NAME: Final = re.compile(r"[a-z](?:Error|Exception)$")
_THAT_THING: Final = re.compile(r"\b(?:that|this|those|these)\s+[a-z]\w+", re.I)
_ACRONYM: Final = re.compile(r"[A-Z]{2,4}s?")


def _level_answer(
    scored: list[Choice],
    asked: Asked,
    idf: dict[str, float],
    question: str,
    answers: Callable[[Choice], bool],
) -> Choice | None:
    """A passage scored all but level with the best (which does not answer) that answers,
    holding enough of the question and either what its ask says ("In order to deserialize to
    an object, use a `post_load` method." a hair behind a sentence on what `load` returns) or
    more of it, nearer in meaning ("`permanent`: … The default is 31 days." behind "Default:
    `timedelta(days=31)`")."""
    top = scored[0]
    return next(
        (
            c
            for c in scored[1:]
            if c.score >= top.score - LEVEL_MARGIN
            and c.coverage >= max(MIN_COVERAGE, top.coverage)
            and (
                _holds_the_ask(asked, c, idf, question)
                or c.similarity >= top.similarity
                # (the asker's own literal shown: "For example, `day=1, minute=20` is …" for
                # "add_job(func, 'cron', day=1, minute=20) … when does it run?")
                or _shows(c.passage, _literals(asked.quoted), inline=True)
            )
            and answers(c)
        ),
        None,
    )


def _literals(quoted: tuple[str, ...]) -> tuple[str, ...]:
    """The quoted literals with a sign of code in them ("/users/me", "day=1"), not a bare
    word such as `lint`."""
    return tuple(q for q in quoted if re.search(r"[/(=.:{*]", q))


def _fuller_sibling_first(
    scored: list[Choice], terms: list[str], avoided: tuple[str, ...] = ()
) -> list[Choice]:
    """A passage of the same section as the best, scored close to it, that holds every word
    of the question the best holds and more, and enough to answer, answers better: "Warning:
    When loading, dump-only fields are considered unknown. If the `unknown` option is set to
    `INCLUDE`, …" before "… the `dump_only` and `load_only` parameters are conceptually
    equivalent to "read-only" and "write-only" fields" for what `unknown=INCLUDE` does to a
    dump_only field. (Not one offering what the question wants to do without, ``avoided``:
    holding more of its words is what it was marked down for.)"""
    if len(scored) < 2 or not terms:
        return scored
    top = scored[0]
    held = _held(top.passage, terms)
    for choice in scored[1:]:
        if choice.score < top.score - SIBLING_MARGIN:
            break
        if (
            choice.passage.source.id == top.passage.source.id
            and choice.passage.section == top.passage.section
            and choice.cue >= top.cue
            and not _leans_back(choice.passage)
            and choice.coverage >= MIN_COVERAGE  # (and holds enough to answer by itself)
            # (a longer window round the best holds more words: it is the same passage)
            and not set(choice.passage.sentences) & set(top.passage.sentences)
            and held < _held(choice.passage, terms)
            and not _uses_the_avoided(avoided, plain(choice.passage.quote))
        ):
            return [choice, *(c for c in scored if c is not choice)]
    return scored


def _remedy_following_first(scored: list[Choice]) -> list[Choice]:
    """Asked how, and the best passage sets out the situation, while the sentence after it
    says what the documents offer for it ("… it might make sense to be able to monitor the
    progress of the upload." / "For this reason, the toolbelt provides the
    `MultipartEncoderMonitor`."): the passage that goes on to it, scored close, answers."""
    if len(scored) < 2:
        return scored
    top = scored[0].passage

    def goes_on(choice: Choice) -> bool:
        said = choice.passage.sentences
        return (
            choice.passage.source.id == top.source.id
            and said[: len(top.sentences)] == top.sentences
            and len(said) == len(top.sentences) + 1
            and _THEREFORE.match(plain(said[-1])) is not None
        )

    return _close_one_first(scored, goes_on)


def _way_past_default_first(scored: list[Choice], terms: list[str]) -> list[Choice]:
    """Asked how to do a thing, the best passage says what happens by default, which is what
    the asker gets without asking; a passage of the same page scored close that holds a word
    of the question the best one lacks says how to get the thing asked for ("How can I
    convert a Markdown file to reStructuredText from the command line?": "Mistune includes a
    reStructuredText renderer. Specify it with `-r rst`:")."""
    if len(scored) < 2:
        return scored
    top = scored[0]
    if not _BY_DEFAULT_OPENING.match(plain(top.passage.quote)):
        return scored
    held = _held(top.passage, terms)

    def wanted(choice: Choice) -> bool:
        return (
            choice.cue
            and choice.passage.source.id == top.passage.source.id
            and not _BY_DEFAULT_OPENING.match(plain(choice.passage.quote))
            and bool(_held(choice.passage, terms) - held)
        )

    # (the nearest in meaning of those, and nearer than the best: the tool's `-h` output holds
    # every word too)
    close = [c for c in scored[1:] if c.score >= top.score - SIBLING_MARGIN and wanted(c)]
    way = max(close, key=lambda c: c.similarity, default=None)
    if way is None or way.similarity <= top.similarity:
        return scored
    return [way, *(c for c in scored if c is not way)]


def _close_one_first(scored: list[Choice], wanted: Callable[[Choice], bool]) -> list[Choice]:
    """The first passage scored within SIBLING_MARGIN of the best that is ``wanted``, moved
    to the front (the order unchanged when there is none)."""
    for choice in scored[1:]:
        if choice.score < scored[0].score - SIBLING_MARGIN:
            break
        if wanted(choice):
            return [choice, *(c for c in scored if c is not choice)]
    return scored


# The sentence that says what follows from the one before: "For this reason, the toolbelt
# provides …", "That is why …", "To do so, …"
_THEREFORE: Final = re.compile(
    r"^\W*(?:for\s+(?:this|that|these|those)\s+(?:reasons?|purposes?|cases?)|(?:this|that)\s+is\s+why"
    r"|(?:this|that)'s\s+why|to\s+(?:do\s+(?:this|so|that)|(?:this|that)\s+end)|therefore|hence)\b",
    re.I,
)


ENTRY_DEFAULT_MARGIN: Final = 0.15  # the entry of the thing asked, this close to the best


def _entry_default_first(scored: list[Choice], asked: Asked) -> list[Choice]:
    """A default asked for ("… what paper size does the generated document use?", the options
    left as they are), and the best passage is not under the entry of the thing asked ("By
    default, paper size and margin settings are determined by the document class." under "page
    layout"): the line of that entry giving its default, scored close, answers ("Default:
    a4paper" under "paper size")."""
    wants = [stem(w.lower()) for w in asked.wants]
    if len(scored) < 2 or not wants:
        return scored

    def entry_of_asked(choice: Choice) -> bool:
        heading = part_stems(plain(choice.passage.section))
        return all(_holds(heading, w) for w in wants)

    if entry_of_asked(scored[0]):
        return scored
    for choice in scored[1:]:
        if choice.score < scored[0].score - ENTRY_DEFAULT_MARGIN:
            break
        if entry_of_asked(choice) and DEFAULT_LINE.match(plain(choice.passage.sentences[0])):
            return [choice, *(c for c in scored if c is not choice)]
    return scored


def _valued_sibling_first(scored: list[Choice]) -> list[Choice]:
    """A value asked for, and the best passage holds none: a passage of the same section,
    scored close to it, that holds one answers better ("`SqliteDatabase(…, timeout=5, …)`"
    before "`timeout`: Get or set the busy timeout (seconds)." for the default busy timeout)."""
    if len(scored) < 2 or scored[0].cue:
        return scored
    place = (scored[0].passage.source.id, scored[0].passage.section)
    return _close_one_first(
        scored, lambda c: c.cue and (c.passage.source.id, c.passage.section) == place
    )


# "Which setting is off by default …?", "… enabled by default?": the default's state asked for
_STATE_BY_DEFAULT: Final = re.compile(
    r"\b(?P<s>off|on|disabled|enabled|false|true)\s+by\s+default\b"
    r"|\bdefaults?\s+to\s+(?:being\s+)?(?P<t>off|on|disabled|enabled|false|true)\b",
    re.I,
)
# what a setting's entry says its default is: "Default value: `False`", "defaults to `True`"
_STATED_DEFAULT: Final = re.compile(
    r"\bdefault(?:\s+value)?\s*(?:is|:)\s*`?(?P<s>True|False|on|off)\b`?"
    r"|\bdefaults?\s+to\s+`?(?P<t>True|False|on|off)\b`?"
    r"|\b(?P<u>enabled|disabled|on|off)\s+by\s+default\b",
    re.I,
)
_ON_WORDS: Final = frozenset({"on", "enabled", "true"})


def default_state(text: str, pattern: re.Pattern[str] = _STATED_DEFAULT) -> bool | None:
    """The on/off default a text states (the first one), or None."""
    match = pattern.search(text)
    if match is None:
        return None
    word = next(g for g in match.groups() if g)
    return word.lower() in _ON_WORDS


def _stated_default_first(scored: list[Choice], question: str) -> list[Choice]:
    """ "Which smarty setting is off by default …?": when the best passage states the other
    default ("`smart_quotes`: Default value: `True`"), a passage of the same document scored
    close to it that states the default asked for answers in its place
    ("`smart_angled_quotes`: Default value: `False`")."""
    asked = default_state(question, _STATE_BY_DEFAULT)
    if asked is None or len(scored) < 2:
        return scored
    top = scored[0]
    if default_state(top.passage.text) in (None, asked):
        return scored
    for choice in scored[1:]:
        if choice.score < top.score - SIBLING_MARGIN:
            break
        if (
            choice.passage.source.id == top.passage.source.id
            and default_state(choice.passage.text) is asked
        ):
            return [choice, *(c for c in scored if c is not choice)]
    return scored


def _telling_sibling_first(scored: list[Choice], terms: list[str]) -> list[Choice]:
    """Among the items of one list (the options of one class), the words they all share say
    which list, not which item: an item scored close to the best item that holds as much of
    the question and a word of it no other item holds, when the best holds none, answers
    better ("`https_only` - Indicate that Secure flag should be set" before "`path` - The
    path set for the session cookie" for "Which SessionMiddleware option marks the session
    cookie Secure?")."""
    if len(scored) < 2 or not terms or not scored[0].passage.intro:
        return scored
    top = scored[0]

    def item(c: Choice) -> bool:  # one sentence of the best's list
        p = c.passage
        return (
            len(p.sentences) == 1
            and p.intro == top.passage.intro
            and (p.source.id, p.section) == (top.passage.source.id, top.passage.section)
        )

    items = [c for c in scored if item(c)]
    if len(items) < 3 or not item(top):
        return scored
    counts: Counter[str] = Counter(t for c in items for t in _held(c.passage, terms))
    telling = {t for t, n in counts.items() if n == 1}
    if _held(top.passage, terms) & telling:
        return scored
    for choice in scored[1:]:
        if choice.score < top.score - SIBLING_MARGIN:
            break
        if (
            item(choice)
            and choice.cue >= top.cue
            and choice.coverage >= top.coverage
            and _held(choice.passage, terms) & telling
        ):
            return [choice, *(c for c in scored if c is not choice)]
    return scored


def _other_subject(question: str, passage: Passage, sources: list[Source]) -> bool:
    """The question names, capitalised, what a page is titled ("How many worker threads
    does Waitress start …?", the page "Waitress"), and the passage is from a page titled with
    another one-word name ("Gunicorn"), never naming the one asked about: it is about the
    other one ("The default is only 1 worker …" under "Gunicorn")."""
    titles = {s.title.strip().lower() for s in sources if s.title.strip()}
    named = {
        m.group(0).lower()
        for m in _NAME_IN_SENTENCE.finditer(question)
        if m.group(0).lower() in titles
    }
    own = passage.source.title.strip()
    if not named or own.lower() in named or len(own.split()) != 1 or not own[:1].isupper():
        return False
    text = f"{passage.section}\n{passage.quote}"
    return not any(re.search(rf"\b{re.escape(n)}\b", text, re.I) for n in named)


# A capitalised word inside a sentence (a name, not a sentence's first word)
_NAME_IN_SENTENCE: Final = re.compile(r"(?<=[\w,;:)] )[A-Z][\w-]*")


# "What is the oldest Python 3 version …?", "… and the oldest SQLAlchemy version …?": the
# versions of a product the question names
_VERSION_OF: Final = re.compile(r"\b(?P<product>[A-Z][\w+-]*)(?:\s+\d+(?:\.\d+)*)?\s+versions?\b")
_NOT_PRODUCT: Final = word_set(
    "what which whose the this that its any each every new old minimum maximum oldest newest "
    "latest earliest first last supported required minimal lowest highest"
)


def _versions_of_other(question: str, passage: Passage) -> bool:
    """The question asks for versions of a product it names ("What is the oldest Python 3
    version that the current Docutils release still supports?") and the passage does not name
    it: it speaks of other versions ("Up to version 2.0, Docutils will still recognize the old
    "[options]" section …")."""
    products = {
        m["product"].lower()
        for m in _VERSION_OF.finditer(question)
        if m["product"].lower() not in _NOT_PRODUCT
    }
    if not products:
        return False
    about = f"{passage.source.title}\n{passage.section}\n{passage.quote}".lower()
    return not any(re.search(rf"\b{re.escape(p)}", about) for p in products)


def _other_release(question: str, passage: Passage) -> bool:
    """The question names a release ("… drop support for Python 3.9?") that the passage does
    not, and the passage names another: it is about that other one ("If you still require
    support for Python 3.5, please use … v0.14 or earlier.")."""
    asked = _releases(question)
    if not asked:
        return False
    said = _releases(f"{passage.section}\n{passage.quote}")
    if said and _bounds_asked_product(question, passage.quote):
        return False  # "Python 3.10 or later" speaks of every release, 3.9 among them
    return bool(said) and not asked & said


# "Python 3.10 or later", "PyPy 7.3+": a bound on releases of a product
_RELEASE_BOUND: Final = re.compile(
    r"\b(?P<product>[a-z][\w-]*)\s+v?\d+(?:\.\d+)+\s*(?:\+|or\s+(?:later|newer|above|higher|"
    r"greater)|and\s+(?:later|newer|above|up)\b)",
    re.I,
)


def _bounds_asked_product(question: str, passage: str) -> bool:
    """Does the passage bound the releases of the product whose release the question names
    ("… stuck on Python 3.9 …" / "AnyIO requires Python 3.10 or later to run.")? ("… please use
    v0.14 or earlier" bounds the package's own releases, not Python's.)"""
    products = {
        m.group("product").lower()
        for m in _RELEASE_BOUND.finditer(plain(passage))
        if m.group("product").lower() not in STOPWORDS
    }
    return any(re.search(rf"\b{re.escape(p)}\s+v?\d+\.\d+", question, re.I) for p in products)


def _asked_release_first(scored: list[Choice], question: str) -> list[Choice]:
    """The best passage is about another release than the question names, and one scored
    close to it names that release: it comes first ("1.3.0: Dropped support for Python 3.6
    and 3.7" before "Arrow will drop support for Python 2.7 and 3.5 …" for "We're still on
    Python 3.7. Which release dropped support for it?")."""
    if not scored or not _other_release(question, scored[0].passage):
        return scored
    asked = _releases(question)
    top = scored[0]
    for choice in scored[1:]:
        if choice.score < RELEASE_SHARE * top.score:
            break
        if asked & _releases(f"{choice.passage.section}\n{choice.passage.quote}"):
            return [choice, *(c for c in scored if c is not choice)]
    return scored


def _releases(text: str) -> set[str]:
    """The release numbers a text names ("Python 3.6 and 3.7": 3.6 and 3.7)."""
    return {n for a, b in _RELEASE_NUMBER.findall(text) for n in _DOTTED.findall(a or b)}


def _held(passage: Passage, terms: list[str]) -> frozenset[str]:
    """The question's words the passage itself holds (as ``coverage`` counts them)."""
    stems = part_stems(f"{passage.intro}\n{passage.quote}")
    return frozenset(
        t
        for t in terms
        if (_shows_flag(passage.quote, t) if t.startswith("-") else _holds(stems, stem(t.lower())))
    )


def _context(passage: Passage) -> str:
    """The words around a passage: its document's title and headings (a title word counts
    half in ``coverage``)."""
    return " ".join([passage.source.title, *passage.source.sections])


# A signature in code: "`PooledPostgresqlDatabase(database, max_connections=20, …)`"
_SIGNATURE: Final = re.compile(r"`(?P<name>[A-Za-z_][\w.]*)\((?P<args>[^`]*)\)`")
_KEYWORD_DEFAULT: Final = re.compile(r"(?P<param>[A-Za-z_]\w*)\s*=\s*(?P<value>[^,)\s]+)")


# Asked whether there is a limit: "Is there a hard upper limit on the number of tasks …?",
# "Is there a per-job execution time limit …?" … and a passage that states one
_ASKS_LIMIT: Final = re.compile(
    r"\b(?:is|are)\s+there\s+(?:a|an|any)\s+(?:[\w-]+\s+){0,4}?(?:limit|limits|maximum|cap|"
    r"ceiling)\b",
    re.I,
)
_STATES_LIMIT: Final = re.compile(
    r"\b(?:limit\w*|unlimited|maximum|max|maxsize|cap|caps|capped|ceiling|at most|up to|"
    r"no more than|timeouts?|bound(?:ed|s)?)\b|_(?:limit|max|timeout)\b|\bmax_",
    re.I,
)


def _signature_default(passage: Passage, question: str) -> bool:
    """Asked a default, does the passage show the signature of what the question names with
    a parameter whose name the question spells out, set to a value ("… don't pass any
    connection cap, what is the maximum number of connections …?" / "`PooledPostgresqlDatabase
    (database, max_connections=20, …)`")? A parameter's default is its value there."""
    said = {stem(w.lower()) for w in words(question)}
    for sig in _SIGNATURE.finditer(passage.quote):
        name = sig["name"].rsplit(".", 1)[-1]
        if not re.search(rf"(?<![\w.]){re.escape(name)}\b", question):
            continue
        for arg in _KEYWORD_DEFAULT.finditer(sig["args"]):
            parts = [p.lower() for p in arg["param"].split("_") if p]
            if parts and all(
                any(w == stem(p) or (len(p) >= 3 and w.startswith(p)) for w in said) for p in parts
            ):
                return True
    return False


def _holds_the_ask(asked: Asked, top: Choice, idf: dict[str, float], question: str = "") -> bool:
    """A question that sets a long scene is answered by a passage holding most of what its
    asking part says, with the kind of thing asked for, however few of the scene's words it
    holds ("… I want to route those into my own logging setup. Which logger should I grab?" /
    "The logger is named `"werkzeug"`.")."""
    if not asked.focus or not top.cue or top.coverage < MIN_CLOSE_COVERAGE:
        return False
    passage = top.passage
    context = _context(passage)
    text = f"{passage.section}\n{passage.intro}\n{passage.quote}"
    focus = list(asked.focus)
    if question and names_wanted_type(asked, passage.quote, question):
        # the kind asked for is there, named: "which constructor argument" is held by
        # `PoolManager(num_pools=50)`, whatever words it uses for it
        focus = [t for t in focus if t not in asked.wants]
        # … and the asker's own things are theirs, not the documents' ("which exception
        # should my handler catch?": the documents speak of the exception, not the handler)
        own = {stem(w.lower()) for w in _ASKERS_OWN.findall(question)}
        focus = [t for t in focus if stem(t.lower()) not in own]
        # … and what is left, if anything, only says "get it" ("what exception class do I
        # actually get?", "Which loop attribute gives me that?")
        if all(stem(t.lower()) in _SAYS_NOTHING for t in focus):
            return True
    return coverage(focus, text, context, idf) >= ASK_COVERAGE


# Asked what to type at a prompt: "What do I pass to pytest …?", "what command do I run …?"
_ASKS_COMMAND: Final = re.compile(
    r"\bwhat\s+(?:do|should|must|can)\s+(?:I|we|you)\s+(?:pass|type|run|enter)\s+(?:to|at|on)\s+\S"
    r"|\b(?:what|which)\s+(?:shell\s+|cli\s+)?command\b|\bwhat\s+do\s+(?:I|we|you)\s+type\b",
    re.I,
)
# … and a command line: "$ python -m pytest -m property", "nox -s docs"
_COMMAND_LINE: Final = re.compile(r"\s*\$\s+\S|\s*(?:python\d?\s+-m\s+)?[a-z][\w.-]*\s+-{1,2}\w")

_NAMES_A_LIST: Final = re.compile(r"\b(?:list|set|names)\s+of\b[^:]*:\s*$", re.I)
_ASKERS_OWN: Final = re.compile(r"\b(?:my|our)\s+(?:own\s+)?([a-z]\w+)", re.I)


def under_heading(source: Source, sentence: str, section: str | None = None) -> str:
    """The sentence after the heading of the section it sits in (``section`` when its place
    is known, else the first chunk holding it; its document's title when the section has
    none), as a reader meets it."""
    heading = (section_of(source, sentence) if section is None else section) or source.title
    return f"{plain(heading)}: {sentence}" if heading else sentence


def _score(
    passage: Passage,
    asked: Asked,
    terms: list[str],
    column: int,
    hop: int,
    sims: object,
    row: dict[tuple[str, str], int],
    idf: dict[str, float],
    ranks: dict[str, int],
    asked_question: str = "",
    listing: bool = False,
) -> Choice:
    matrix = sims  # numpy array (sentences × searches)
    section = passage.section
    each = [float(matrix[row[section, t], column]) for t in passage.sentences]  # type: ignore[index]
    if column == 0 and asked.focus:  # half the whole question, half its asking part
        own = [float(matrix[row[section, t], -1]) for t in passage.sentences]  # type: ignore[index]
        each = [0.5 * (a + b) for a, b in zip(each, own, strict=True)]
    # A sentence that adds nothing to the best one dilutes the passage; a list is about what
    # its lead-in line says (its items are the details).
    rest = each[0] if passage.is_list else sum(each) / len(each)
    if passage.is_defaults:  # the default setup in code: the line that matches is the answer
        rest = max(each)
    similarity = 0.5 * max(each) + 0.5 * rest
    # The passage's own section heading says what it is about ("There are no configuration
    # options for this middleware class." under "HTTPSRedirectMiddleware"); the document's
    # title and its other headings count half.
    context = _context(passage)
    focus = asked.focus if column == 0 else ()
    # An item of a list is read with the list's lead-in ("Black will exit with:" / "code 123
    # if there was an internal error"); a question asking for a list wants the whole list.
    intro = "" if listing else passage.intro
    cov = coverage(terms, f"{passage.section}\n{intro}\n{passage.quote}", context, idf, focus)
    if passage.is_list and not listing and len(passage.sentences) > 2:
        # Not asked for a list, a list answers by one of its items: it covers what its lead-in
        # and its best item cover, not every word of a long list ("The possible warnings
        # include: …" holds the words of any question about the tool).
        # (the lead-in is the line ending in ':'; sentences before it say what "it" is)
        k = _lead_in_end(passage)
        lead, items = " ".join(passage.sentences[: k + 1]), passage.sentences[k + 1 :]
        cov = max(
            (
                coverage(terms, f"{passage.section}\n{lead}\n{item}", context, idf, focus)
                for item in items
            ),
            default=cov,
        )
    elif passage.is_list and listing and not asked.focus and len(passage.sentences) > 2:
        # Asked for a list, a list is what its lead-in says it lists: a word only one item
        # holds does not qualify it ("Which task statuses are terminal?" / "Tasks can be in
        # one of the following states: … `input_required`: … has not reached a terminal
        # state"): such a word counts half. (A scene's words are the asker's, not the list's.)
        k = _lead_in_end(passage)
        lead = " ".join(passage.sentences[: k + 1])
        headed = coverage(terms, f"{passage.section}\n{lead}", context, idf, focus)
        cov = max(headed, 0.5 * (headed + cov))
    cue = holds_cue(asked, passage.quote, passage.is_code) or (listing and lists_in_code(passage))
    if cue and asked.denied:
        # "Which socket methods won't be available?": the list of what is not ("… the
        # following attributes are not supported:"), not of what is the same
        lead = plain(" ".join(passage.sentences[: _lead_in_end(passage) + 1]))
        cue = bool(_CANNOT_BE.search(lead) or _GONE.search(lead) or _REFUSED.search(lead))
    quality = passage.source.score if passage.source.score > 0 else 0.5
    prior = 0.5 * quality + 0.5 / (1 + ranks.get(passage.source.id, 0))
    score = 0.40 * similarity + 0.35 * cov + 0.20 * cue + 0.05 * prior
    if column == 0 and (
        names_wanted_type(asked, passage.quote, asked_question)
        or _passes_keyword(asked_question, passage.quote)
    ):
        score += TYPED_NAME_BONUS  # "which logger" answered by a name ending in "Logger"
    if passage.is_list or passage.is_defaults:  # one unit however many items: the answer
        # to a list question as it stands; elsewhere it weighs as its lead-in and two more
        score -= 0.0 if asked.kind == "list" else WINDOW_PENALTY * LIST_WINDOWS
    elif not passage.whole_section:  # (a section read whole is one statement of a mechanism)
        score -= window_penalty(passage.sentences, cov, terms, context, idf, focus, passage.section)
    if _leans_back(passage):
        score *= 0.9
    if _POINTER.match(plain(passage.sentences[0])):
        score *= HISTORY_FACTOR  # "See the uWSGI documentation for more details." says nothing
    if passage.is_changelog:
        score *= CHANGELOG_FACTOR  # "Add `x` #123" records a change; it rarely explains one
    if _only_history(passage, asked_question):
        score *= HISTORY_FACTOR
    action = _action(asked_question) if asked.how_to and column == 0 else ""
    if action and not _holds(part_stems(f"{passage.section}\n{passage.quote}"), action):
        score *= ACTION_FACTOR
    if asked.how_to and (
        _SYMPTOM.search(passage.lead or plain(passage.quote))
        or _SUPPOSED.match(plain(passage.sentences[0]))
    ):
        # the error the asker already sees is not how to get past it; nor is a trouble the
        # documents suppose ("Now suppose that the remote server stops responding, so our
        # call … hangs forever." for "How do I let that cleanup call actually run …?")
        score *= SYMPTOM_FACTOR
    if asked.how_to and column == 0 and not _names_means(passage):
        score *= NO_MEANS_FACTOR
    if asked.how_to and asked.avoided and _does_the_avoided(asked.avoided, plain(passage.quote)):
        score *= SYMPTOM_FACTOR  # "… instead of raising an error?" / "you can raise `BadParameter`"
    if not asked.about_default and default_without_the_set_value(asked_question, passage.quote):
        score *= HISTORY_FACTOR  # "Our schema sets unknown=INCLUDE …" / "By default, `load` …"
    if asked.how_to and _uses_the_avoided(asked.avoided_things, plain(passage.quote)):
        score *= AVOIDED_FACTOR  # "… without a marker?" / "… is to use the `pytest.mark.x` marker"
    score += HOP_BONUS * (hop - 1)
    return Choice(passage, round(score, 5), similarity, round(cov, 4), cue, hop)


# "… when I call load_dotenv. What do I pass?": what is passed is an argument ("What can I
# pass as the timeout?" asks for a value of one the question names)
_ASKS_WHAT_TO_PASS: Final = re.compile(
    r"\bwhat\s+(?:do|should|must|can|could|would|shall)\s+(?:I|we|you|one)\s+"
    r"(?:\w+\s+)?(?:to\s+)?pass\b(?!\s+(?:as|for)\b)",
    re.I,
)


def _passes_keyword(question: str, passage: str) -> bool:
    """Asked what to pass, does the passage pass a keyword argument the question does not
    name ("Pass `override=True` to override existing variables.")?"""
    return bool(_ASKS_WHAT_TO_PASS.search(question)) and passes_keyword(passage, question.lower())


def _lead_in_end(passage: Passage) -> int:
    """The index of a list passage's lead-in line (the one ending in ':'; 0 when none)."""
    return next((n for n, t in enumerate(passage.sentences) if t.rstrip().endswith(":")), 0)


# The way a passage offers: "you can also raise the `BadParameter` error"
_WAY_OFFERED: Final = re.compile(
    r"\byou\s+(?:can|could|should|may|must|need\s+to|have\s+to)\s+(?:also\s+|only\s+|just\s+)?"
    r"(?P<verb>[a-z]+)\b",
    re.I,
)


def _does_the_avoided(avoided: tuple[str, ...], passage: str) -> bool:
    """Is the way the passage offers what the question wants to do without (``avoided``:
    ``Asked.avoided``; "How do I let unknown options through instead of raising an error?" /
    "… you can also raise the `BadParameter` error")?"""
    if not avoided:
        return False
    if any(stem(m.group("verb").lower()) in avoided for m in _WAY_OFFERED.finditer(passage)):
        return True
    # ("… drop one cached result without clearing everything?" / "the decorator also provides
    # a `cache_clear()` function …": the means offered is named for the deed avoided)
    return any(
        stem(part.lower()) in avoided
        for span in _OFFERED_CALL.findall(passage)
        for part in re.findall(r"[A-Za-z][a-z]+", span)
    )


# A function offered by name: "provides a `cache_clear()` function", "call `clear_all()`"
_OFFERED_CALL: Final = re.compile(
    r"\b(?:provides?|offers?|call|calling|use|using)\s+(?:(?:a|an|the)\s+)?`([\w.]+)\(\)`", re.I
)


# The question's own setup gives a value ("sets unknown=INCLUDE", "`strict=True`"): what
# happens by default is what happens without it.
_SETS_A_VALUE: Final = re.compile(r"(?<![=!<>])\b[A-Za-z_]\w*\s?=\s?[\w\"'\[{(]")
_BY_DEFAULT_OPENING: Final = re.compile(r"^\W*by default\b", re.I)


def default_without_the_set_value(question: str, passage: str) -> bool:
    """Does the passage say what happens by default, to a question whose setup sets a value
    ("Our schema sets unknown=INCLUDE …" / "By default, `load` will raise …")?"""
    return bool(_SETS_A_VALUE.search(question)) and bool(_BY_DEFAULT_OPENING.match(plain(passage)))


# A thing used: "use the `pytest.mark.anyio` marker on each test", "with a custom decorator"
_USED: Final = re.compile(
    r"\b(?:use|uses|using|add|adding|apply|applying|with|via)\s+"
    r"(?:(?:the|a|an|your|its)\s+)?(?P<what>(?:(?:`[^`]+`|[\w.-]+)\s*){1,3})",
    re.I,
)


def _uses_the_avoided(things: tuple[str, ...], passage: str) -> bool:
    """Is the way the passage offers the very thing the question wants to do without
    (``things``: ``Asked.avoided_things``; "… without a marker?" / "the next best option is to
    use the `pytest.mark.anyio` marker")?"""
    return bool(things) and any(
        stem(w.lower()) in things
        for m in _USED.finditer(passage)
        for w in re.findall(r"[A-Za-z]+", re.sub(r"`[^`]+`", " ", m.group("what")))
    )


def _names_means(passage: Passage) -> bool:
    """Does the passage name a way to do something: code, a name or value in backticks, a
    command-line flag or a quoted value ("… turn off retries using `stamina.set_active`"), not
    only that it can be done ("You can globally turn them off altogether.")?"""
    text = passage.quote
    return passage.is_code or "`" in text or bool(FLAG.search(text) or _QUOTED_VALUE.search(text))


_QUOTED_VALUE: Final = re.compile(r"\"[^\"\n]{1,40}\"|'[^'\n]{1,40}'")


# "How do I retry failed connections?": what the asker wants done, the verb after "how do I".
_ACTION: Final = re.compile(
    r"\bhow\s+(?:do|can|could|should|would|might|must)\s+(?:i|we|you|one)\s+"
    r"(?:(?:then|also|still|now|best|properly|safely)\s+)?(?P<verb>[a-z]+)\b",
    re.I,
)
# Verbs that say little of their own ("How do I make …", "How do I get …"): the words after
# them name the task.
_LIGHT_VERBS: Final = word_set(
    "be do get have make use go let keep put set see take give tell find"
)
# Stems of an ask's words that say nothing of what is asked once a name of the kind asked for
# is there ("… do I actually get back?", "What exception comes back?" / `ValueError: …`)
_SAYS_NOTHING: Final = frozenset(
    stem(w)
    for w in (
        *_LIGHT_VERBS,
        *("grab", "back", "actually", "really", "exactly", "just", "then"),
        *("come", "return", "raise", "throw", "catch", "handle"),
    )
)


def _action(question: str) -> str:
    """The stem of the verb a how-to question asks to be done ("retry"), or '' when it has
    none or a light one ("make", "get")."""
    m = _ACTION.search(question)
    if m is None:
        return ""
    verb = m.group("verb").lower()
    return "" if verb in _LIGHT_VERBS or verb in STOPWORDS else stem(verb)


# "… you'll likely see an error like this one:": what goes wrong, shown, not how to fix it
_SYMPTOM: Final = re.compile(
    r"\byou(?:'ll|\s+will|\s+may|\s+might|\s+would)?\s+(?:likely\s+|probably\s+)?"
    r"(?:see|get|encounter|receive)\s+(?:an?\s+)?(?:error|exception|warning|traceback)"
    r"|\b(?:error|exception|traceback)\s+(?:like|such as)\s+(?:this|the following)\b",
    re.I,
)


# What a list of things that are not says of them, besides "not supported"/"removed"
_REFUSED: Final = re.compile(
    r"\b(?:(?:is|are)\s+not|isn't|aren't)\s+(?:accepted|allowed|permitted|recogni[sz]ed|"
    r"handled|included|provided)\b|\b(?:missing|unavailable|rejected|forbidden|disallowed|reserved)\b",
    re.I,
)


# A trouble set up to be solved: "Now suppose that …", "For example, imagine that …"
_SUPPOSED: Final = re.compile(
    r"^\W*(?:(?:now|so|but|and|for example|for instance)\W+)*"
    r"(?:suppose|imagine|let's say|let us say|pretend)\b",
    re.I,
)


_LATER_STEP: Final = word_set("then next finally")


def _leans_back(passage: Passage) -> bool:
    """Does the passage open on what came before ("This …", "However, …", "When disabled, …":
    disabled how is said before), or on a later step ("Then configure the key logfile in
    Wireshark …": the step before is the answer)? (Under a setting's own entry, "If omitted,
    …" is of that setting.)"""
    first = _ADMONITION.sub("", passage.sentences[0], count=1)
    opening = words(first)[:2]
    if _ELLIPTIC_CONDITION.match(plain(first).strip()) and not setting_entry(passage):
        return True
    if len(opening) == 2 and opening[0] in ("this", "these") and opening[1] in _THE_TEXT_ITSELF:
        return False  # "This SEP deprecates …", "This page explains …": the text names itself
    if _COUNTS_BACK.match(plain(first)):
        return True  # "For `Request`, there are four of them: …": of the fields said before
    if not passage.is_list and POINTS_AT_LIST_ABOVE.search(first):
        return True  # "… searched in the order listed above.": read with the list, it answers
    if _ACTS_ON_IT.match(plain(first)):
        return True  # "Use this to switch between …": use what is said before
    return bool(opening) and (opening[0] in LEANS_ON_CONTEXT or opening[0] in _LATER_STEP)


# "For `Request`, there are four of them", "Two of these …", "The latter …": what is counted
# or picked out was named in the sentence before
_COUNTS_BACK: Final = re.compile(
    r"^\W*(?:[^\s;:]+\s+){0,4}?(?:(?:one|two|three|four|five|six|seven|eight|nine|ten|several|some|"
    r"many|most|all|both|each|either|neither|none|any)\s+of\s+(?:them|these|those)"
    r"|the\s+(?:former|latter|rest|others))\b",
    re.I,
)


# An instruction on a thing named before: "Use this to switch between loading to a dictionary
# or to a model instance:", "Set it to `True` when …" (not one that places what follows: "Add
# this to your .coveragerc file:", "Run this in a terminal:")
_ACTS_ON_IT: Final = re.compile(
    r"^\W*(?:use|set|call|pass|enable|disable|apply|combine|change|override)\s+"
    r"(?:this|that|it|them|these|those)\s*"
    r"(?:$|[,.:;]|\s(?:to|for|when|if|with|in|on|instead|as|whenever|only|together)\b)",
    re.I,
)


# What a document calls itself: "This SEP …", "This guide …", "This specification …"
_THE_TEXT_ITSELF: Final = word_set(
    "document documents page pages guide section chapter tutorial specification spec "
    "proposal sep pep rfc adr article post"
)


# "When disabled, …", "If set, …", "Once enabled, …": a condition with no subject of its own
# … or one on a thing named before: "If you set this to `True`, …", "When it is omitted, …"
_ELLIPTIC_CONDITION: Final = re.compile(
    r"(?:when|if|once|while|unless)\s+(?:[a-z]+ed|set|unset|given|true|false|on|off)\s*,"
    r"|(?:when|if|once|while|unless)\s+(?:you\s+[a-z]+\s+)?(?:this|it|that|these|those)\s"
    r"(?!(?:page|document|guide|section|tutorial)\b)"
    # "When run by `PopenSpawn`, they may behave differently.": a clause with no subject of
    # its own, then one said before (programs that behave interactively only in a terminal)
    r"|(?:when|if|once|while|unless)\s+(?:[a-z]+ed|run|set|given|done|built|shown|written|seen)"
    r"\s+[^,;:.]{0,60},\s*(?:they|it|these|those)\s",
    re.I,
)


# A sentence that only sends the reader elsewhere: "See the uWSGI documentation for more
# details.", "Refer to the API reference.", "For more information, see …"
_POINTER: Final = re.compile(
    # (a dotted name is one word: "See bleach.callbacks for some included callback functions.")
    r"^\W*(?:(?:please\s+)?(?:see|refer to|consult|check out)\s+(?:the\s+)?"
    r"(?:[^.;:,]|\.(?=\w)){0,60}?"
    r"(?:for\s+(?:more|further|additional|full)\s+(?:details|information|info)\b[^.]*)?\.?\s*$"
    r"|for\s+(?:more|further|additional|full)\s+(?:details|information|info)\b[^.]*\.?\s*$"
    # "Usage of the adapter registry is documented in adapter-registry.": where, not what
    r"|[^.;:]{0,80}?\b(?:is|are)\s+(?:(?:fully|further|also)\s+)?(?:documented|described|"
    r"explained|covered|discussed)\s+(?:in|at|under|on)\s+[^.;:,]{1,60}\.?\s*$)",
    re.I,
)


# A note's label ("Note: This does not work if …"): the sentence opens after it
_ADMONITION: Final = re.compile(
    r"^\W*(?:note|warning|tip|important|caution|hint|attention|danger)\s*:\s*", re.I
)


def _only_history(passage: Passage, question: str) -> bool:
    """Does the passage only say what was removed or deprecated, for a question that does not
    ask about a change ("What's the intended way to get marshmallow to build the object?" /
    "The make_object method was deprecated …": the next sentence, "use a post_load method",
    answers)?"""
    if not question or _ASKS_ABOUT_CHANGE.search(question) or _GONE.search(question):
        return False
    return all(says_gone(t) or _PAST_RELEASE.match(plain(t)) for t in passage.sentences)


# "In marshmallow 2, `python-dateutil` was used to deserialize …", "Before version 2.0, certain
# fields had implicit defaults": how an older release did it, not how it is done now.
_PAST_RELEASE: Final = re.compile(
    r"^\W*(?:in|before|prior to|until|up to)\s+(?:[A-Za-z][\w.-]*\s+)?(?:v|version\s+)?"
    r"\d+(?:\.\d+)*(?:\.x)?\b,?\s+[^.]*?\b(?:was|were|used to|had|did)\b",
    re.I,
)


def says_gone(sentence: str) -> bool:
    """Does the sentence say something was removed or deprecated (not that it cannot be
    done)?"""
    return (
        bool(_GONE.search(plain(sentence)))
        and denies(sentence)
        and not denies(sentence, gone=False)
    )


_CONTINUES: Final = frozenset({"this", "these", "they", "such", "thus", "therefore", "hence"})
# "To enable this feature you need to pass …", "To do that, …": a purpose clause about what
# the sentence before says points back at it as much as an opening "This" does.
_TO_DO_THIS: Final = re.compile(r"^\W*to\s+\w+\s+(?:this|these|that|it|them)\b", re.I)


def _points_back(sentence: str) -> bool:
    """Does the sentence open by pointing back at the one before it?"""
    sentence = _ADMONITION.sub("", sentence, count=1)
    opening = words(sentence)[:1]
    return (bool(opening) and opening[0] in _CONTINUES) or bool(_TO_DO_THIS.match(sentence))


def window_penalty(
    sentences: list[str],
    whole: float,
    terms: list[str],
    context: str,
    idf: dict[str, float],
    focus: tuple[str, ...] = (),
    section: str = "",
) -> float:
    """What the sentences after the first cost a window (``whole``: the window's coverage of
    the question): a sentence that adds none of the question's words dilutes the passage; a
    window holding clearly more of the question than its best sentence alone pays half
    ("capture_logs() relies on changing the configuration." before "If you have caching
    enabled, cached loggers will not be affected.")."""
    if len(sentences) < 2:
        return 0.0
    alone = max(coverage(terms, f"{section}\n{t}", context, idf, focus) for t in sentences)
    share = 0.5 if whole >= alone + ADDS_COVERAGE else 1.0
    # A sentence that points back at the one before ("This is useful for …") continues its
    # thought: it costs nothing, or the window that carries what "this" is loses to the lone
    # sentence. ("He won five titles." after a footballer's birth date is a fact of its own.)
    idle = sum(1 for t in sentences[1:] if words(t)[:1] and not _points_back(t))
    return share * WINDOW_PENALTY * idle


def complement(asked: Asked, pick: Pick) -> Choice | None:
    """A passage of another document that holds what the best one leaves out of the question,
    scoring close to it: the second link of a chain ("… the Danish chemist famous for pH"
    names the chemist; "Carsten Olsen … was a Danish plant ecologist" is the one asked
    about). None when the best passage holds nearly all the question's words."""
    top, idf = pick.best, pick.idf
    if top is None or idf is None or not pick.ranked:
        return None
    held = part_stems(f"{top.passage.section}\n{top.passage.quote}\n{top.passage.source.title}")
    terms = list(dict.fromkeys(asked.terms))
    missing = [t for t in terms if not _holds(held, stem(t.lower()))]
    left = coverage(terms, " ".join(missing), "", idf)  # the share of the question not held
    if left < COMPLEMENT_MISSING:
        return None
    for choice in pick.ranked[1:]:
        if choice.score < COMPLEMENT_SHARE * top.score:
            break
        passage = choice.passage
        if passage.source.id == top.passage.source.id or not choice.cue:
            continue
        text = f"{passage.section}\n{passage.quote}"
        adds = part_stems(f"{text}\n{passage.source.title}")
        if (
            coverage(missing, text, passage.source.title, idf) >= COMPLEMENT_COVERAGE
            and sum(_holds(adds, stem(t.lower())) for t in missing) >= COMPLEMENT_TERMS
        ):
            return choice
    return None


def _shows(passage: Passage, quoted: tuple[str, ...], inline: bool = False) -> bool:
    """Does the passage's code (``inline``: or a code span of its prose, "For example,
    `day=1, minute=20` is …") hold one of the question's quoted literals, as a whole
    ("day=1" is not in "day=10")?"""
    code = "\n".join(passage.code)
    if inline:
        code += "\n" + "\n".join(re.findall(r"`([^`\n]+)`", passage.quote))
    return any(
        re.search(
            ("(?<![\\w])" if q[:1].isalnum() else "")
            + re.escape(q)
            + ("(?![\\w])" if q[-1:].isalnum() else ""),
            code,
        )
        for q in quoted
        if q
    )


# A setting given a value in code: "note = nightly build", "--fail-under=85", "timeout: 5"
# (not "https://…" nor "std::vector").
_ASSIGNED: Final = re.compile(r"^(-{0,2}[A-Za-z_][\w.-]*)\s*(?:=|:(?![:/]))\s*\S")


def assigned_names(question: str) -> list[str]:
    """The settings a question gives a value in code (`note = nightly build` → "note"), and
    those it names in words ("alongside that policy option" → "policy")."""
    return [
        m.group(1)
        for code in re.findall(r"`([^`]+)`", question)
        if (m := _ASSIGNED.match(code.strip())) and len(m.group(1).strip("-")) > 1
    ] + [m.group(1).lower() for m in _WORDED_SETTING.finditer(question)]


# "that policy option", "the verbose flag": a setting named in words, after a determiner
_WORDED_SETTING: Final = re.compile(
    r"\b(?:the|that|this|its|my|our|an?)\s+([a-z][a-z_-]{2,})\s+"
    r"(?:option|argument|parameter|setting|flag|keyword)s?\b",
    re.I,
)


def identifiers(question: str) -> list[str]:
    """Code names in the question: dotted (``click.progressbar``), with an underscore
    (``max_age``), PascalCase of code (``TestClient``) or in backticks."""
    out = []
    for token in re.findall(r"`([^`]+)`|([A-Za-z_][\w.]*\w)(\(\))?", question):
        name = (token[0] or token[1]).strip().rstrip("()")
        if _ABBREVIATION.match(name):
            continue
        # PascalCase of code ("SessionMiddleware", "CORSMiddleware"), not a surname
        # ("McCann", "LaGuardia"): the first part has four letters or is an acronym.
        # Three humps or more are code whatever their length ("WebSocketException").
        pascal = re.match(r"[A-Z](?:[a-z]{3,}|[A-Z]+)[A-Z][a-z]", name) or re.fullmatch(
            r"(?:[A-Z][a-z]+){3,}", name
        )
        # (a call: "clear()")
        # camelCase of code ("commonName", "subjectAltName"), not "iPhone"
        camel = re.fullmatch(r"[a-z]{3,}(?:[A-Z][a-z]+)+", name)
        if "_" in name or "." in name or pascal or camel or token[0] or token[2]:
            out.append(name)
        if token[0] and re.search(r"[\s(]", token[0].strip()):
            # a line of code ("`with Connection(...)`", "`from urllib3.connectionpool import
            # VerifiedHTTPSConnection`"): the names in it, each, as a sentence would name them
            out += [
                n
                for n in identifiers(re.sub(r"(?<=\w)\((?!\))[^()]*\)", "()", token[0]))
                if n != token[0].strip()
            ]
    return [n for n in dict.fromkeys(out) if len(n) > 1]


def names_code(text: str, name: str) -> bool:
    """Does the text name this code name: itself, the same member of another object
    (``Context.invoke`` for ``ctx.invoke``), or its last part written as code
    (`` `progressbar` ``, ``progressbar(``)? A plain word ("argument") is not enough."""
    pascal = name[:1].isupper() and "." not in name
    lowered, name = text.lower(), name.lower()
    if re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", lowered):
        return True
    member = name.rsplit(".", 1)[-1]
    if len(member) <= 3:
        return False  # "Node.js" and "require.js" share a suffix, not a member
    if pascal and re.search(rf"\w\.{re.escape(name)}(?!\w)", lowered):
        return True  # a class by its module's name: `aiohttp.ContentTypeError`
    if member == name and re.search(rf"\w\.{re.escape(name)}\(", lowered):
        return True  # a method called by its name ("clear()": `Event.clear()`)
    if member != name and re.search(rf"\w\.{re.escape(member)}(?!\w)", lowered):
        return True
    code = rf"`{re.escape(member)}(?:\(\))?`|(?<![\w]){re.escape(member)}\("
    return member != name and re.search(code, lowered) is not None


def _named_before(passage: Passage, named: list[str]) -> bool:
    """Does the passage's page name one of these before it?"""
    before = passage.source.text[: passage.start]
    return any(names_code(before, n) for n in named)


def _names_any(passage: Passage, named: list[str]) -> bool:
    """Does the passage, its section or its document's title name one of these? A parameter
    is also named by its words as a phrase: "HTTPX does not follow redirects by default" is
    the default of `follow_redirects`."""
    text = f"{passage.source.title}\n{passage.section}\n{passage.quote}"
    return any(names_code(text, n) or _says_in_words(plain(text), n) for n in named)


def _says_in_words(text: str, name: str) -> bool:
    """Does the text say a snake_case name's words in a row ("follow redirects")?"""
    parts = name.split("_")
    if len(parts) < 2 or "." in name or not all(p.isalpha() and len(p) >= 3 for p in parts):
        return False
    return re.search(r"\b" + r"\s+".join(map(re.escape, parts)) + r"\b", text, re.I) is not None


_OFFERED: Final = re.compile(
    r"^\W*(?:does|do)\s+(?!i\b|we\b|you\b)[\w.-]+(?:\s+[\w.-]+)?\s+(?:come with|ship with|"
    r"support|provide|offer|include)\s+(?:a|an|any|some|built-in|its own)?\s*"
    r"(?P<thing>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)",
    re.I,
)


def unknown_names(question: str, sources: list[Source]) -> list[str]:
    """Names and identifiers the question uses that no retrieved text or heading mentions
    ("Kerberos", "max_body_size"): the sources are about something else. (A reference
    entry is headed with its name: `SESSION_COOKIE_SAMESITE` over "Default: `None`".)"""
    seen: set[str] = set()
    for source in sources:
        headings = "\n".join(source.chunk_sections)
        seen |= content_stems(f"{source.title}\n{headings}\n{source.text}")
    # the modules pages are about: a title's code span ("`simplejson` --- JSON encoder and
    # decoder") or a title of one word
    titled = frozenset(
        name.lower()
        for source in sources
        for name in (
            re.findall(r"`([A-Za-z_][\w.]*)`", source.title)
            or re.findall(r"^\s*([A-Za-z_][\w.]*)\s*$", source.title)
        )
    )
    missing = []
    # "Does stamina come with a circuit breaker …?": the thing whose existence is asked is
    # a name too, however plainly written; sources saying none of its words do not know it.
    if (offered := _OFFERED.search(question)) is not None:
        words_of = content_stems(offered.group("thing"))
        if words_of and not any(_seen(w, seen) for w in words_of):
            missing.append(offered.group("thing"))
    # A phrase of code in words ("`async def`"): a feature of the language the sources never
    # speak of. (A hyphenated name in backticks, "`test-ci`", is the asker's own.)
    for span in re.findall(r"`([a-z]+(?: [a-z]+)+)`", question):
        if any(not _seen(w, seen) for w in content_stems(span)):
            missing.append(span)
    # A property in a compound word ("Is the adapter registry thread-safe?"): sources that
    # never say its first word ("thread") do not speak of it.
    said_text: list[str] = []  # the sources' words as written, lower-cased (read once, if asked)

    def said(phrase: str) -> bool:
        if not said_text:
            # (code spans' ticks dropped: "`ConfigParser`-style" says "configparser-style")
            text = " ".join(f"{s.title}\n{s.text}".lower() for s in sources)
            said_text.append(text.replace("`", ""))
        return phrase in said_text[0]

    for m in re.finditer(r"(?<![\w./`-])(?P<first>[a-z]{3,})(?:-[a-z]+)+(?![\w`-])", question):
        if m.group("first") in _GENERAL_PREFIX or all(
            _seen(w, seen) for w in content_stems(m.group("first"))
        ):
            continue
        if not said(m.group(0)):  # ("sub-unit", said as such, is known)
            missing.append(m.group(0))
    # (not the tail of a version, "rc0" of "1.0.0rc0", nor of a file name, "commit-config.yaml"
    # of ".pre-commit-config.yaml": no name of its own; nor a segment or host of a path or URL
    # the asker writes, "v2" of "https://api.example.com/v2")
    for found in re.finditer(r"(?<![A-Za-z0-9./-])[A-Za-z][\w.-]*\w(?:/\d+(?:\.\d+)*)?", question):
        token = found.group(0)
        if _SENTENCE_START.search(question[: found.start()]) or _ABBREVIATION.match(token):
            continue  # "Apart from …, which …?" opens a sentence; "i.e." is no name
        if _ACRONYM.fullmatch(token) and question[found.start() - 1 : found.end() + 1] == (
            f"({token})"
        ):
            continue  # "binary (IEC) units": the asker's gloss of the words before it
        named = token[0].isupper() or any(ch.isdigit() or ch in "_." for ch in token)
        if not named or token.lower() in STOPWORDS or token.lower() in _GENERAL_ACRONYMS:
            continue
        if "/" in token:  # a versioned name ("HTTP/2"): its words alone are everywhere
            if not said(token.lower()) and not said(token.lower().replace("/", "")):
                missing.append(token)
        elif any(not _seen(s, seen, titled) for s in content_stems(token)) and not (
            # "URL-mode" is written "URL mode" in the documents, "ConfigParser-style"
            # "`ConfigParser`-style"
            "-" in token and (said(token.lower().replace("-", " ")) or said(token.lower()))
        ):
            missing.append(token)
    return missing


# Acronyms of the trade that name no feature: "… authenticate to PyPI with an API token …"
# asks about the token, whether or not the documents write "API"
_GENERAL_ACRONYMS: Final = word_set("api apis ci cli os ui id ids pr prs faq")


# first words of compounds that say how, not what ("built-in", "mid-request", "long-running",
# "brand-new", "hard-coded", "one-off")
_GENERAL_PREFIX: Final = word_set(
    "built mid well non self multi semi anti over under long short high low full half first "
    "last next fine zero sub pre post inter intra cross out off brand all ever never much very "
    "hard one two three four five ready hand home"
)


def _seen(term: str, seen: set[str], titled: frozenset[str] = frozenset()) -> bool:
    """Is the word among the sources' words, or the start of one ("Postgres" of "PostgreSQL")?"""
    if term in seen:
        return True
    head, _, last = term.rpartition(".")
    if "." in head and head in seen and last.isalpha() and last in seen:
        return True  # a method of a documented class: "anyio.Path.read_bytes" (`anyio.Path`)
    if head.isalpha() and head in titled and re.fullmatch(r"[a-z]\w{2,}", last) and last in seen:
        # a function of the module a page is about, the module named apart: "simplejson.loads"
        # in docs headed "`simplejson` --- JSON encoder and decoder" with "function:: loads(…)"
        # (not "err.fields", nor "tool.black" of "[tool.black]": "err" and "tool" head no page)
        return True
    if term.isalpha() and any(
        # the leading part of a dotted or underscored name: "JSON" of `json.dumps_kwargs`
        # (not a file's extension: "HTML" of `report.html` names no HTML support)
        _NAME_PARTS.split(s, maxsplit=1)[0] == term
        for s in seen
        if "." in s or "_" in s
    ):
        return True
    if term.isalpha() and term not in _FILE_TYPES and any(s.endswith(f".{term}") for s in seen):
        return True  # a class by its module's name: "GUIDerator" of `iterutils.GUIDerator`
    return len(term) >= 5 and term.isalpha() and any(s.startswith(term) for s in seen)


_NAME_PARTS: Final = re.compile(r"[._]+")
# (the tail of a file's name names no thing: `report.html`, `setup.py`)
_FILE_TYPES: Final = word_set(
    "html htm py pyi txt md rst json yaml yml toml cfg ini js ts css xml csv lock sh bat exe "
    "log pdf png jpg gz zip whl tar"
)


_SENTENCE_START: Final = re.compile(r"(?:^|[.!?:;]\s+)\W*$")
_ABBREVIATION: Final = re.compile(r"^(?:i\.e|e\.g|etc|vs|cf|a\.k\.a|approx)\.?$", re.I)


def _ranks(sources: list[Source]) -> dict[str, int]:
    order = sorted(sources, key=lambda s: -s.retrieval_score)
    return {s.id: rank for rank, s in enumerate(order)}


_FRAMING: Final = re.compile(r"^\W*(?:when|while|whenever|if|once|after|before)\s", re.I)
_PREMISE_OPENING: Final = re.compile(
    r"^\W*(?:since|given that|now that|because|as|seeing that|knowing that)\s+", re.I
)


# "A takes precedence over B", "A overrides B", "A wins over B": which of two wins
_SIDE: Final = r"(?:[^.;:?!]|[.:](?=\w)){3,120}"  # (a dot inside a name: "docutils.conf")
_OVERRIDES: Final = re.compile(
    rf"(?P<a>{_SIDE}?)\s+(?:takes?|has|have|gets?)\s+precedence\s+over\s+(?P<b>{_SIDE})"
    # (not "beats": "celery beat in a Kubernetes pod", "beat joins …")
    rf"|(?P<c>{_SIDE}?)\s+(?:will\s+|would\s+)?(?:overrides?|wins?\s+over|supersedes?)\s+"
    rf"(?P<d>{_SIDE})"
    # the winner alone: "…, and both are present at application startup time, the environment
    # variable setting takes precedence."
    rf"|(?P<e>{_SIDE}?)\s+(?:takes?|has|have|gets?)\s+precedence\b(?!\s+over\b)",
    re.I,
)
# (words any side of such a rule may hold)
_ANY_SIDE: Final = word_set(
    "setting settings entry entries file files config configuration value values option options "
    "one ones my your our the a an in of"
)


def _overrides_the_other_way(stated: str, sentence: str) -> bool:
    """Does the sentence say that the side the premise says loses wins ("Settings in the
    system-wide /etc/docutils.conf take precedence over my personal ~/.docutils file" / "For
    example, a "stylesheet" entry in a user-specific configuration file will override a
    "stylesheet" entry in the system-wide file.")? Each side is told by the words only it holds."""
    premise = _OVERRIDES.search(plain(stated))
    said = _OVERRIDES.search(plain(sentence))
    if premise is None or said is None or premise["e"] is not None:
        return False

    def stems(text: str) -> set[str]:
        return {stem(w) for w in words(text) if w not in _ANY_SIDE and w not in STOPWORDS}

    winner, loser = (stems(premise["a"] or premise["c"]), stems(premise["b"] or premise["d"]))
    own_winner = winner - loser
    if said["e"] is not None:  # the winner alone, in the clause that names it
        said_winner = stems(said["e"].rsplit(",", 1)[-1])
        return bool((loser - winner) & said_winner) and not own_winner & said_winner
    said_winner, said_loser = (stems(said["a"] or said["c"]), stems(said["b"] or said["d"]))
    return bool(own_winner & said_loser) and not own_winner & said_winner


def _premise(question: str) -> str:
    """What a question states before it asks (its scene, less an opening "Since"/"Given
    that"), or '' when it only asks."""
    asking = asking_part(question, phrases=False)
    scene = question.replace(asking, " ", 1) if asking != question.strip() else ""
    return _PREMISE_OPENING.sub("", scene.strip()).strip().rstrip(";,").strip()


# "the salt has to be kept secret" / "the salt doesn't have to be random": what must be done,
# and a sentence saying it need not.
_MUST: Final = re.compile(r"\b(?:has to|have to|must|needs? to|is required to)\b", re.I)
_NEED_NOT: Final = re.compile(
    r"\b(?:does not|doesn't|do not|don't|need not|needn't)\s+(?:have|need)\s+to\b"
    r"|\bneed not\b|\bneedn't\b|\bis not required\b|\bisn't required\b",
    re.I,
)


# "Since calling close() on a database that is already closed raises an OperationalError, …"
# and "Calling `close()` on an already-closed connection will not result in an exception"
_RAISES: Final = re.compile(r"\b(?:raises?|raised|throws?|threw|thrown|errors? out)\b", re.I)
_NO_ERROR: Final = re.compile(
    r"(?:\bnot|n't|\bnever)\s+(?:\w+\s+){0,2}?(?:raise|throw|result\s+in\s+(?:an?\s+|any\s+)?"
    r"(?:\w+\s+)?(?:exception|error))"
    r"|\bno\s+(?:\w+\s+)?(?:exception|error)s?\s+(?:is|are|will\s+be|gets?)\s+(?:raised|thrown)"
    r"|\bwithout\s+(?:raising|throwing)\b",
    re.I,
)


# "Why does canonicalize_version keep trailing zeros?" takes for granted that it keeps them.
_WHY_ASK: Final = re.compile(
    r"^\W*why\s+(?:does|do|did|is|are|was|were|would|will|has|have)\s+(?P<said>.+?)\W*$",
    re.I,
)


def _why_premise(question: str) -> str:
    """What a why-question takes for granted ("Why does X keep Y?" → "X keep Y"), or ''."""
    m = _WHY_ASK.match(asking_part(question, phrases=False))
    return m.group("said") if m else ""


def _premise_denial(
    question: str, scored: list[Choice], idf: dict[str, float], stated: str | None = None
) -> Choice | None:
    """A sentence holding most of the question's stated premise and saying the opposite: it
    negates one of its words ("Since redefining a macro in a child template overrides the
    parent's …" / "a macro in a child template does not override a macro in a parent
    template"), says it cannot be, or that what the premise says must be need not ("Since the
    salt has to be kept secret …" / "… the salt doesn't have to be random, and can be saved in
    code"). Read even when the ask itself holds a negation ("… so it isn't in my code?").
    ``stated``: the premise, when the question's ask holds it (a why-question's)."""
    stated = _premise(question) if stated is None else stated
    terms = key_terms(stated) if stated else []
    if len(terms) < PREMISE_TERMS or has_negation(stated):
        return None
    # "Since cattrs dropped detailed validation in 25.x, …" / "cattrs has a detailed
    # validation mode since version 22.1.0, and this mode is enabled by default."
    if (
        _SAID_GONE.search(stated)
        and not _CANNOT_BE.search(stated)
        and (there := _still_there(stated, scored, idf)) is not None
    ):
        return there
    if _CANNOT_BE.search(stated) or _GONE.search(stated):
        return None  # "Since X was removed, …": a sentence saying so agrees with it
    must = bool(_MUST.search(stated))
    raises = bool(_RAISES.search(stated))
    triples = _word_triples(stated)
    # "When checking an object with verifyObject, which keyword …?": a scene that only frames
    # the ask (when, while, if …) states nothing a negated word of it denies ("… cannot be
    # verified" of classes); its own clause said negated still does
    framed = bool(_FRAMING.match(question))
    for choice in scored:
        passage = choice.passage
        if len(passage.sentences) != 1:
            continue
        # (a sentence leading into code is read as the sentence: "`tox_append_version_info`
        # is a plain function looked up by name, not a hook, so it must not carry `@impl`:")
        said = passage.sentences[0] if passage.is_code else passage.quote
        if passage.is_code and (passage.session or not passage.lead):
            continue
        if _negates_its_clause(said, triples) or _not_what_it_is(stated, said):
            return choice
        held = coverage(terms, said, "", idf)
        if held < NEED_NOT_COVERAGE:
            continue
        text = plain(said)
        if (
            held >= DENIAL_FULL_COVERAGE
            and not framed
            and ((denies(said) and not _denies_another_act(said, terms)) or _negates(said, terms))
        ):
            return choice
        # "has to" against "doesn't have to" is specific enough that half the words will do;
        # so is "raises an error" against "will not result in an exception".
        if (
            (must and _NEED_NOT.search(text)) or (raises and _NO_ERROR.search(text))
        ) and not _OPENS_WITH_CONDITION.match(text):
            return choice
    for choice in scored:
        passage = choice.passage
        if len(passage.sentences) <= 2 and not passage.is_code and _opposes(stated, passage.quote):
            return choice
    for choice in scored:
        passage = choice.passage
        if (
            len(passage.sentences) == 1
            and not passage.is_code
            and _overrides_the_other_way(stated, passage.quote)
        ):
            return choice
    for choice in scored:
        # (the sentence may lead into a list or table: "… not the same as the tokens for
        # strptime:" over the tokens)
        if not choice.passage.is_code and _not_the_same(stated, choice.passage.sentences[0]):
            return choice
    return None


# "… uses the same format codes as strptime" / "Note that they are **not** the same as the
# tokens for strptime"
_SAME_AS: Final = re.compile(r"\bsame\s+(?:[\w-]+\s+){0,3}?as\s+(?P<other>[^,.;:?!]+)", re.I)
_NOT_SAME_AS: Final = re.compile(
    r"(?:\bnot|n't)\s+(?:quite\s+|exactly\s+)?the\s+same\s+(?:[\w-]+\s+){0,3}?as\s+"
    r"(?P<other>[^,.;:?!]+)",
    re.I,
)


def _not_the_same(stated: str, passage: str) -> bool:
    """Does the premise say a thing is the same as another ("… the same format codes as
    strptime") and the passage that it is not the same as that other (its name held)?"""
    same = _SAME_AS.search(stated)
    if same is None or has_negation(stated):
        return False
    other = {stem(t.lower()) for t in key_terms(same["other"])}
    return bool(other) and any(
        other & {stem(t.lower()) for t in key_terms(m["other"])}
        for m in _NOT_SAME_AS.finditer(plain(passage))
    )


_DOTTED_RELEASE: Final = re.compile(r"v?\d+(?:\.(?:\d+|x))+", re.I)  # "25.x", "3.10"
_RELEASE_WORDS: Final = frozenset(stem(w) for w in ("release", "releases", "version", "versions"))
# A premise saying a thing is gone: "cattrs dropped detailed validation", "X was removed"
_SAID_GONE: Final = re.compile(
    r"\b(?:dropped|removed|deprecated|deleted|retired|discontinued|got rid of|did away with)\b",
    re.I,
)
# Said to be there: "this mode is enabled by default", "is still supported"
_THERE: Final = re.compile(
    r"\b(?:is|are)\s+(?:now\s+|still\s+|also\s+)?(?:enabled|supported|available|"
    r"the default|on by default)\b",
    re.I,
)


def _still_there(stated: str, scored: list[Choice], idf: dict[str, float]) -> Choice | None:
    """A sentence holding most of what a premise says was removed, saying it is there
    (enabled, supported, the default), not negated: it contradicts the premise."""
    # what is said gone: the words of its clause, less the verb and when ("in the 25.x
    # releases": the sentence denying it names the release it came in, not that one)
    clause = next((c for c in _CLAUSES.split(stated) if c and _SAID_GONE.search(c)), stated)
    gone = {stem(w) for m in _SAID_GONE.finditer(clause) for w in words(m.group(0))}
    kept = [
        t
        for t in key_terms(clause)
        if stem(t.lower()) not in gone
        and not _DOTTED_RELEASE.fullmatch(t)
        and stem(t.lower()) not in _RELEASE_WORDS
    ]
    if len(kept) < PREMISE_TERMS - 1:
        return None
    for choice in scored:
        passage = choice.passage
        if len(passage.sentences) != 1 or passage.is_code:
            continue
        text = plain(passage.quote)
        if (
            coverage(kept, passage.quote, "", idf) >= DENIAL_FULL_COVERAGE
            # ("dropped Python 2 support" / "Python 3 support is available": the number named
            # is the thing itself)
            and all(re.search(rf"(?<![\w.]){n}(?![\w.])", text) for n in kept if n.isdigit())
            and _THERE.search(text)
            and not has_negation(text)
            and not _GONE.search(text)
            and not _OPENS_WITH_CONDITION.match(text)
        ):
            return choice
    return None


# Opposite things done to the same object: a premise saying one and a sentence saying the
# other about it ("combine keeps its inputs" / "The original input data files are deleted
# once they've been combined").
_SIDE_OF: Final[dict[str, int]] = {
    stem(word): 2 * n + side
    for n, pair in enumerate(OPPOSITE_PAIRS)
    for side in (0, 1)
    for word in pair[side]
}
# … and a thing kept is opposed by a thing turned off ("set_testing(True) keeps the full
# exponential backoff" / "a dedicated testing mode that turns off backoff")
_ALSO_SIDE: Final = {stem("disable"): _SIDE_OF[stem("remove")]}
_CLAUSES: Final = re.compile(r"[,;]|\b(?:because|so|and|which|since|but|while)\b", re.I)
OPPOSED_HELD: Final = 2  # the clause's other words the sentence must hold (and half of them)
# A clause about the asker ("I enabled branch coverage", "I want to show hidden files", "show
# me"): what they did, want or ask is no statement about the tool that a default denies.
_WANTS: Final = re.compile(r"\b(?:want|wants|would like|trying|hope|wish|how)\b", re.I)
# "can be enabled", "to disable it", "you may exclude …": a possibility, not what is done.
_MAY: Final = re.compile(
    r"\b(?:to|can|could|may|might|must|should|will|would)\s+(?:(?:not|also|be|then|simply|"
    r"easily|now|still|you|it|them)\s+){0,2}$",
    re.I,
)
# "turns HTML autoescaping on (by default)", "switched it off": enabling and disabling.
_TURNED: Final = re.compile(
    r"\b(?:turn|switch)(?:s|ed|ing)?\s+((?:[\w.-]+\s+){0,3}?)(on|off)"
    r"(?=\s*(?:$|[,.;:?!)]|by\b|for\b|so\b|and\b|when\b|if\b|again\b))",
    re.I,
)
_PAIRED: Final = re.compile(r"\b([a-z]+)\s*(?:\band\b|\bor\b|/)\s*([a-z]+)\b", re.I)


# "detailed validation is off by default": the state, said as being on or off
_IS_ON_OFF: Final = re.compile(
    r"\b(is|are|was|were|be|stays?)\s+(on|off)(?=\s*(?:$|[,.;:?!)]|by\b|for\b|unless\b|"
    r"until\b|when\b|if\b|and\b))",
    re.I,
)


# "turns off backoff": the particle before what is turned
_TURNED_BEFORE: Final = re.compile(r"\b(?:turn|switch)(?:s|ed|ing)?\s+(on|off)\s+(?=[a-z])", re.I)


def _turned(text: str) -> str:
    text = _TURNED_BEFORE.sub(
        lambda m: "enable " if m.group(1).lower() == "on" else "disable ", text
    )
    text = _IS_ON_OFF.sub(
        lambda m: f"{m.group(1)} " + ("enabled" if m.group(2).lower() == "on" else "disabled"),
        text,
    )
    return _TURNED.sub(
        lambda m: ("enable " if m.group(2).lower() == "on" else "disable ") + m.group(1), text
    )


def _both_ways(text: str) -> str:
    """The text without "enable and disable", "keep or delete": both ways, neither said."""

    def drop(m: re.Match[str]) -> str:
        first, second = (
            _SIDE_OF.get(stem(m.group(1).lower())),
            _SIDE_OF.get(stem(m.group(2).lower())),
        )
        both = first is not None and second is not None and first // 2 == second // 2
        return " " if both else m.group(0)

    return _PAIRED.sub(drop, text)


def _sides(sentence: str) -> list[tuple[int, int]]:
    """(side, offset) of each verb of an opposite pair the sentence says is done, not just
    possible ("are deleted", not "can be enabled")."""
    out = []
    for m in re.finditer(r"[A-Za-z]+", sentence):
        word = stem(m.group(0).lower())
        if word in _SIDE_OF and not _MAY.search(sentence[: m.start()]):
            out.append((_SIDE_OF[word], m.start()))
            if word in _ALSO_SIDE:
                out.append((_ALSO_SIDE[word], m.start()))
    return out


def _opposes(stated: str, passage: str) -> bool:
    """Does the passage (one or two sentences) say the opposite of what a clause of the premise
    says is done to something: the opposite verb, said as done and not negated, in a sentence
    that holds what it is done to (or opens with "it"/"this"/"they" after one that does) and
    not the premise's own verb, with the clause's other words mostly held?"""
    stated = _turned(stated)
    sentences = [_both_ways(_turned(plain(t))) for t in split_sentences(passage)] or [passage]
    held_all = part_stems(" ".join(sentences))
    for clause in _clauses(stated):
        if about_the_asker(clause) or _WANTS.search(clause):
            continue
        clause_words = [w.lower() for w in words(clause)]
        sides = {_SIDE_OF[stem(w)] for w in clause_words if stem(w) in _SIDE_OF}
        if len(sides) != 1:
            continue  # no verb of a pair, or both ways ("shows … hides")
        said = sides.pop()
        k = next(n for n, w in enumerate(clause_words) if _SIDE_OF.get(stem(w)) == said)
        # What it is done to, the words after the verb up to a stopword ("keeps its inputs",
        # "keeps the full exponential backoff"), is what the passage must speak of ("… keeps a
        # registry of its subclasses" is not denied by "for the original class to be removed").
        after = itertools.dropwhile(lambda w: w in STOPWORDS, clause_words[k + 1 :])
        done_to = [stem(w) for w in itertools.takewhile(lambda w: w not in STOPWORDS, after)]
        if k >= 2 and clause_words[k - 1] in _BE:  # "branch coverage is enabled": the subject
            done_to = [stem(w) for w in reversed(clause_words[: k - 1]) if w not in STOPWORDS][:1]
        others = [stem(t.lower()) for t in key_terms(clause)]
        others = [t for t in others if t not in _SIDE_OF]
        got = sum(_holds(held_all, t) for t in others)
        if not done_to or got < OPPOSED_HELD or got < 0.5 * len(others):
            continue
        for n, sentence in enumerate(sentences):
            found = {side for side, _ in _sides(sentence)}
            if said ^ 1 not in found or said in found:
                continue
            if has_negation(sentence) or _OPENS_WITH_CONDITION.match(sentence):
                continue
            about = any(_holds(part_stems(sentence), w) for w in done_to) or (
                n > 0
                and _POINTS_BACK_OPENING.match(sentence) is not None
                and any(_holds(part_stems(sentences[n - 1]), w) for w in done_to)
            )
            if about:
                return True
    return False


def _clauses(stated: str) -> list[str]:
    """The premise's clauses, an "and" that joins two things one verb is done to kept inside
    its clause ("tomlkit throws away comments and whitespace"): an "and" starts a clause only
    when what follows it says a verb of a pair of its own ("keeps X and drops Y"). A "when"
    opens a clause of its own: when it is done is not what is done ("… when it parses a
    file")."""
    pieces = re.split(f"({_CLAUSES.pattern}|\\bwhen(?:ever)?\\b)", stated, flags=re.I)
    out = [pieces[0]]
    for sep, part in zip(pieces[1::2], pieces[2::2], strict=True):
        own_verb = any(stem(w.lower()) in _SIDE_OF for w in words(part))
        if sep.lower() == "and" and not own_verb:
            out[-1] += f" and {part}"
        else:
            out.append(part)
    return out


_BE: Final = frozenset({"is", "are", "was", "were", "be", "been", "being", "gets", "get", "got"})
_POINTS_BACK_OPENING: Final = re.compile(
    r"^\W*(?:(?:however|but|instead|so),?\s+)?(?:it|this|they|these)\b", re.I
)


# the word after the negation or the one after that ("does not override", "does not always
# override"; in "does not raise an exception" the second word is no verb)
_NEGATED_WORD: Final = re.compile(
    r"(?:\b(?:not|never|no longer|cannot)|n't)\s+(?P<first>[a-z]\w*)(?:\s+(?P<word>[a-z]\w+))?",
    re.I,
)


# "isort never merges config files together", "you cannot import it": what is never done or
# cannot be done, named by its verb
_NEVER_DOES: Final = re.compile(r"\b(?:never|cannot|can't|can not)\s+(?P<verb>[a-z]\w+)\b", re.I)


def _denies_another_act(sentence: str, premise: list[str]) -> bool:
    """Is every denial in the sentence of an act the premise does not speak of ("When isort
    looks for a configuration file by walking up …" / "isort never merges config files
    together": merging is not looking), so that it says nothing of the premise?"""
    text = plain(sentence)
    said = {s for t in premise for s in (stem(t.lower()), *alternatives(stem(t.lower())))}
    denials = list(_CANNOT_BE.finditer(text))
    return bool(denials) and all(
        (act := _NEVER_DOES.match(m.group(0))) is not None
        and act["verb"].lower() not in ("be", "been", "have", "has", "had", "need", "needs")
        and stem(act["verb"].lower()) not in said
        for m in denials
    )


def _negates(sentence: str, premise: list[str]) -> bool:
    """Does the sentence negate a word the premise states ("overrides" / "does not override"),
    outside a condition?"""
    text = plain(sentence)
    if _OPENS_WITH_CONDITION.match(text):
        return False
    # (a word of the same meaning too: "watches subdirectories" / "will not monitor
    # sub-directories")
    stated = {s for t in premise for s in (stem(t.lower()), *alternatives(stem(t.lower())))}
    # ("this SQL parser is intentionally non-validating" against "sqlparse checks that SQL is
    # syntactically valid": a "non-" negates the word it is put before)
    negations = [*_NEGATED_WORD.finditer(text), *_NON_WORD.finditer(text)]
    return any(
        any(stem(w.lower()) in stated for w in m.groupdict().values() if w)
        and not _CONDITION.search(text[: m.start()])
        for m in negations
    )


_NON_WORD: Final = re.compile(r"\bnon-(?P<first>[a-z]\w+)", re.I)


# "tox_append_version_info is a hook like tox_add_option": what a thing is said to be
_IS_A: Final = re.compile(
    r"^\W*(?P<subject>[^,;:]{1,60}?)\s+(?:is|are)\s+(?:an?|the)\s+(?P<kind>[a-z][\w-]+)\b",
    re.I,
)


def _not_what_it_is(stated: str, sentence: str) -> bool:
    """Does the premise say what a thing is ("X is a hook …") and the sentence, naming that
    thing, that it is not one ("`X` is a plain function looked up by name, not a hook")?"""
    said = _IS_A.match(plain(stated))
    if said is None or said["kind"].lower() in STOPWORDS:
        return False
    text = plain(sentence)
    subject = key_terms(said["subject"])
    named = identifiers(said["subject"])
    if not subject or not (
        any(names_code(sentence, n) for n in named)
        if named
        else all(_holds(part_stems(text), t) for t in subject)
    ):
        return False
    kind = re.escape(said["kind"])
    return re.search(rf"(?:\bnot|n't)\s+(?:an?|the)\s+{kind}s?\b", text, re.I) is not None


def _word_triples(premise: str) -> set[tuple[str, str, str]]:
    """Each two content words side by side in the premise with one of the few after them, as
    stems ("schedul", "catch", "except"; "isort", "merg", "config" from "isort merges the
    settings of every config file": what is merged is said in other words too)."""
    said = [stem(w) for w in content_words(premise)]
    return {
        (a, b, c)
        for k, (a, b) in enumerate(zip(said, said[1:], strict=False))
        for c in said[k + 2 : k + 2 + OBJECT_REACH]
    }


def _negates_its_clause(sentence: str, triples: set[tuple[str, str, str]]) -> bool:
    """Does the sentence state a clause of the premise (``triples``: :func:`_word_triples`)
    with its verb negated, the same word before the verb and after it ("Since schedule catches
    exceptions raised inside job functions …" / "Schedule doesn't catch exceptions that
    happen during job execution."), outside a condition?"""
    text = plain(sentence)
    if _OPENS_WITH_CONDITION.match(text):
        return False
    for m in _NEGATED_WORD.finditer(text):
        # the verb's subject: the word before the negation and its auxiliary ("Schedule
        # doesn't"), not a clause's ("Tasks whose result you never read …")
        before = words(text[: m.start()])
        while before and before[-1] in _AUXILIARIES:
            before.pop()
        after = [stem(w) for w in content_words(text[m.start("first") :])]
        if (
            before
            and before[-1] not in STOPWORDS
            and len(after) >= 2
            and (stem(before[-1]), after[0], after[1]) in triples
            and not _CONDITION.search(text[: m.start()])
        ):
            return True
    return False


_AUXILIARIES: Final = word_set(
    "does do did is are was were will would can could should shall may might must has have had"
)


def _names_other_code(sentence: str, question: str) -> bool:
    """Does the sentence name code (in backticks), none of which the question says?"""
    code = [c.strip().lower() for c in re.findall(r"`([^`]+)`", sentence) if c.strip()]
    asked = question.lower()

    def said(c: str) -> bool:
        # the thing it names, its last part: `structlog.stdlib.AsyncBoundLogger` is an
        # AsyncBoundLogger, `TestClient(timeout=...)` a TestClient
        name = re.split(r"[(\[\s=]", c, maxsplit=1)[0].rsplit(".", 1)[-1]
        return c in asked or (len(name) >= 3 and name in asked)

    return bool(code) and not any(said(c) for c in code)


def _of_the_other_kind(sentence: str, question: str) -> bool:
    """Is the sentence about the kind of thing the question says it is not? "You never need
    to use `super()` with attrs classes that inherit from other attrs classes." denies
    nothing of a class that "derives from a non-attrs framework class"."""
    excluded = {m.lower() for m in re.findall(r"\bnon-([a-z]\w+)", question, re.I)}
    text = plain(sentence).lower()
    return any(re.search(rf"(?<!non-)\b{re.escape(word)}\b", text) for word in excluded)


_LACKING: Final = re.compile(r"\bwith\s+no\s+[\w-]+", re.I)


def _denial(
    asked: Asked, question: str, scored: list[Choice], idf: dict[str, float]
) -> Choice | None:
    """A sentence about the question's own subject (it holds the question's rarest word, or
    most of its words) saying the thing asked about does not exist, is not supported or was
    removed, for a question that takes it for granted."""
    if asked.kind == "why":
        # what the ask takes for granted, or what the scene states first ("Since the email
        # format does full RFC 5322 validation, why does …?" / "… only provides a sanity
        # check, not full RFC 5322 validation")
        why = _why_premise(question)
        denied = _premise_denial(question, scored, idf, why) if why else None
        return denied or _premise_denial(question, scored, idf)
    if asked.kind == "yes_no":
        # "We turned on decode_responses=True …. Do we also need to tell the worker?": code
        # the scene takes for granted, said not to be supported ("the `decode_responses=True`
        # argument … is not currently supported"), denies it; the ask itself is a yes or no.
        scene = identifiers(_premise(question))
        if _ASKS_IF_GONE.search(asking_part(question, phrases=False) or question):
            return None  # "Is it going away?" asks about the removal itself
        for choice in scored if scene else []:
            passage = choice.passage
            if not passage.is_code and (
                _gone_named(passage.quote, scene)
                or _gone_named(passage.quote, scene, said=_UNSUPPORTED)
            ):
                return choice
        return None
    if asked.kind in ("comparison", "list"):
        return None
    if (premised := _premise_denial(question, scored, idf)) is not None:
        return premised
    if (without := _presumed_thing_absent(question, scored)) is not None:
        return without
    # ("… certificates with the hostname only in the CN field, with no SAN." describes the
    # asker's setup: a thing they lack, not a statement the question negates)
    negated = has_negation(_LACKING.sub(" ", question))
    # "When was X removed?" asks about the removal itself (the asking part: "… still uses the
    # main settings. What's the correct way to name that section?" asks no change)
    ask = asking_part(question, phrases=False) or question
    if _CANNOT_BE.search(ask) or _GONE.search(ask) or _ASKS_ABOUT_CHANGE.search(ask):
        return None
    asked_names = identifiers(ask)
    if negated:
        # A question holding a negation of its own is denied only by code its ask uses, said
        # to be gone or not provided ("… pass a timeout to its communicate() method so we
        # don't wait on it forever?" / "`communicate` is not provided as a method on …").
        return next(
            (
                c
                for c in scored
                if len(c.passage.sentences) == 1
                and not c.passage.is_code
                and (
                    _gone_named(c.passage.quote, asked_names)
                    or _gone_named(c.passage.quote, asked_names, said=_UNSUPPORTED)
                )
            ),
            None,
        )
    known = [t for t in dict.fromkeys(asked.terms) if stem(t.lower()) in idf]
    if len(known) < 2:
        return None  # one shared word ("What does structlog do with each?") is chance
    rarest = max(known, key=lambda t: idf[stem(t.lower())])
    if asked.kind == "how" and (banned := _prohibited(asked, scored)) is not None:
        return banned
    # "… listen on IPv4 and IPv6 at the same time?" / "… does not support ipv6 and ipv4 at the
    # same time": two of the three rarest words said together name the thing as well, in a
    # question of several words ("What's the oldest Python version I can run Jinja on?" has
    # four: "Jinja doesn't allow arbitrary Python code" is not about it).
    rare = sorted(known, key=lambda t: -idf[stem(t.lower())])[:3]
    nearest = max(c.similarity for c in scored)
    named = identifiers(question)
    assigned = assigned_names(question)
    # "Which option turns on cross-process locking …?": a sentence saying there is no such
    # locking ("does not currently have any interprocess synchronization") denies it, though
    # it names no option: the kind asked for is wanted only for what it turns on
    turned_on = _TURNS_ON.search(ask)
    enabled = key_terms(turned_on.group("what")) if turned_on else []
    ask_named = [n for n in asked_names if n in named]
    ask_terms = key_terms(ask)
    # "I declared `UserId: TypeAlias = int` … Which registration method should I call for that
    # alias?": the ask's "that alias" is the scene's code, said not to be supported
    # ("Type aliases using `typing.TypeAlias` aren't supported …")
    unsupported_names = named if _THAT_THING.search(ask) else asked_names
    remedy_terms = ask_terms if ask.strip() != question.strip() else asked.terms

    for choice in scored:
        passage = choice.passage
        about = f"{passage.section}\n{passage.quote}"
        # A question naming code is denied only by a sentence about that code (it or its
        # section names it): "Browsers will not allow JavaScript access …" under
        # `SESSION_COOKIE_HTTPONLY` denies nothing of "What is the default value of
        # SESSION_COOKIE_SAMESITE?", however many words the two names share.
        named_here = not named or any(names_code(about, n) for n in named)

        # (… or its paragraph does: "You can change this limit using `kombu.pools.set_limit`.
        # You are able to grow the pool at runtime, but you can't shrink it …")
        def in_paragraph(passage: Passage = passage, named_here: bool = named_here) -> bool:
            return named_here or any(names_code(_paragraph(passage), n) for n in named)

        wants = () if enabled and _holds_any(passage.quote, enabled) else asked.wants
        reason = passage.sentences[1] if len(passage.sentences) in (2, 3) else ""
        if (
            enabled
            and _POINTS_BACK_OPENING.match(plain(reason))
            and named_here
            and choice.similarity >= nearest - DENIAL_NEAR
            and denies(reason, gone=False)
            and _holds_any(reason, enabled)
            and _denies_what_is_asked(reason, asked.terms)
        ):
            # "Sharing a persistent job store among two or more processes will lead to … This
            # is because APScheduler does not currently have any interprocess synchronization
            # …": the reason, after what it causes, denies what was to be turned on
            return choice
        if _elided_denial(passage, ask_named, ask_terms):
            return choice
        if len(passage.sentences) == 1 and _support_dropped(passage.quote, ask_terms):
            return choice
        if len(passage.sentences) != 1 or _of_the_other_kind(passage.quote, question):
            continue
        # A sentence about as near the question in meaning as any, saying it cannot be done,
        # denies it in other words ("… in place?" / "Bound loggers are immutable, so it's not
        # possible to modify a context directly.").
        if (
            choice.similarity >= max(DENIAL_SIMILARITY, nearest - DENIAL_NEAR)
            and not passage.is_code
            and denies(passage.quote, gone=False)  # "was removed" is said of a named thing
            and _denies_what_is_asked(passage.quote, asked.terms, wants)
            and not _way_around(passage.quote, asked.terms, gone=False)
            and not _by_other_means(passage.quote, question)
            and in_paragraph()
        ):
            return choice
        if not passage.is_code and (
            _gone_named(passage.quote, named)
            or _gone_named(passage.quote, named, said=_REPLACED)
            # "… pass a timeout to its communicate() method …?" / "`communicate` is not
            # provided as a method on `Process` objects": code the ask itself uses
            or _gone_named(passage.quote, unsupported_names, said=_UNSUPPORTED)
        ):
            return choice  # "`fields.FormattedString` field is removed." for "How do I
            # configure fields.FormattedString …?", however few of its other words it holds
        if (
            assigned
            and not passage.is_code
            and (
                _gone_named(passage.quote, assigned, True)
                or _gone_named(passage.quote, assigned, True, said=_REPLACED)
            )
        ):
            return choice  # "I put `note = nightly build` under [run] …"; "… alongside that
            # policy option?" / "The `policy` option was replaced with `loop_factory`."
        # (a sentence on the thing to be turned on need not hold the scene's words)
        on_enabled = bool(enabled) and _holds_any(passage.quote, enabled)
        least = MIN_CLOSE_COVERAGE if on_enabled else DENIAL_COVERAGE
        if choice.coverage < least or not in_paragraph():
            continue
        held = part_stems(about)
        # It speaks of the thing asked for: "Uvicorn no longer ships extra dependencies … as
        # default" holds "uvicorn" and "default" but denies no "log level".
        if asked.wants and not any(_holds(held, stem(w.lower())) for w in asked.wants):
            continue
        # … and not of other code: "structlog integration does not work with the deprecated
        # `structlog.stdlib.AsyncBoundLogger`" denies nothing of the log level it logs at.
        if _names_other_code(passage.quote, question):
            continue
        about_it = (
            rarest.lower() in about.lower()
            or (len(known) >= RARE_PAIR_TERMS and sum(stem(t.lower()) in held for t in rare) >= 2)
            or stem(rarest.lower()) in held
            or bool(named)  # (``named_here``: it names the question's code)
            # "Which setting enables push …?": the thing to be turned on is the subject
            # ("Server Push (PUSH_PROMISE) is not implemented."), whatever the scene's words
            or on_enabled
        )
        # … and near it in meaning: "work" (the rarest word of "How do I make -h work as
        # well as --help?" among a few pages) in a sentence on what docopt does not support
        # is not about it.
        near = choice.similarity >= nearest - DENIAL_FAR
        if (
            (about_it or choice.coverage >= DENIAL_FULL_COVERAGE)
            and near
            and denies(passage.quote)
            # (a removal is said of a named thing; "cannot"/"there is no", of its own clause)
            and (
                not denies(passage.quote, gone=False)
                or _denies_what_is_asked(passage.quote, asked.terms, wants)
            )
            # (a remedy in the scene's words is for the scene: "…, but you can't shrink it, so
            # it is best to set the limit as early as possible" is no way to shrink it)
            and not _way_around(passage.quote, remedy_terms)
            and not _by_other_means(passage.quote, question)
            and not _renames_unnamed(passage.quote, named)
            and not _stops_another_deed(passage.quote, asked.terms)
        ):
            return choice
    return None


_NO_LONGER_DOES: Final = re.compile(
    r"\bno longer\s+(?:be\s+|being\s+)?(?:\w+ly\s+)?(?P<deed>[\w-]+)", re.I
)


_LIFTED_NEEDS: Final = frozenset(stem(w) for w in ("requires", "needs", "depends", "has", "have"))


def _stops_another_deed(sentence: str, terms: list[str]) -> bool:
    """Does the sentence deny only that something still does a deed the question does not
    speak of? "… so repeated `load_dotenv` calls no longer re-read the file" says nothing
    against "I want the value from my .env file to win when I call load_dotenv"; "… no longer
    strips quotes" denies a question about stripping quotes."""
    text = plain(sentence)
    if _CANNOT_BE.search(text) or _GONE_THING.search(text):
        return False  # (it says something is not so, or gone, as well)
    deeds = [stem(m.group("deed").lower()) for m in _NO_LONGER_DOES.finditer(text)]
    if not deeds or set(deeds) & _LIFTED_NEEDS:
        # (a need lifted denies the premise that it holds: "… marked with
        # `pytest.mark.asyncio(loop_scope="class")` no longer requires a class surrounding
        # the test" for "Because … only works when the test sits inside a class, …")
        return False
    asked = {stem(t.lower()) for t in terms}
    return not any(d in asked or alternatives(d) & asked for d in deeds)


# A specification's prohibition of what is done to a thing: "The `initialize` request MUST
# NOT be cancelled by clients" (what comes before "MUST" is the thing, then the deed).
_PROHIBITION: Final = re.compile(
    r"^(?P<thing>.{3,120}?)\b(?:must|shall)\s+not\s+be\s+(?P<deed>[a-z]+(?:ed|en))\b", re.I
)


def _prohibited(asked: Asked, scored: list[Choice]) -> Choice | None:
    """A sentence forbidding the very deed a "how does one …" question asks about, done to
    a thing the question names in all its words: "How does a client cancel an initialize
    request …?" / "The `initialize` request MUST NOT be cancelled by clients"."""
    terms = frozenset(stem(t.lower()) for t in asked.terms)
    for choice in scored:
        if len(choice.passage.sentences) != 1 or choice.passage.is_code:
            continue
        m = _PROHIBITION.match(plain(choice.passage.quote))
        if m is None or not _holds(terms, stem(m.group("deed").lower())):
            continue
        thing = content_stems(m.group("thing"))
        if thing and all(_holds(terms, word) for word in thing):
            return choice
    return None


def _paragraph(passage: Passage) -> str:
    """The paragraph a passage sits in (its section's heading first)."""
    text, start = passage.source.text, passage.start
    # (a text with no blank lines is one paragraph: at most PARAGRAPH_REACH either side)
    begin = max(text.rfind("\n\n", 0, start) + 1, start - PARAGRAPH_REACH, 0)
    end = text.find("\n\n", start)
    end = min(end if end >= 0 else len(text), start + PARAGRAPH_REACH)
    return f"{passage.section}\n{text[begin:end]}"


_NEXT_CLAUSE: Final = re.compile(
    r"[,;:]?\s+(?:so|but|instead|therefore|hence|thus)\b[\s,]*", re.I
)  # (", where only …" goes on about what is denied)
_RENAMED: Final = re.compile(r"\brenamed?\b[^`.]{0,40}`(?P<old>[^`]+)`.*?\bto\b", re.I)


# Where a clause of its own begins or ends: "…, so there is no polling latency" (not at a
# comma or "and": "Proxies over HTTPS and SOCKS are not supported." is one clause)
_CLAUSE_END: Final = re.compile(
    r"[;!?]|[.:](?=\s|$)|\b(?:so|but|because|since|while|whereas|although|though)\b", re.I
)


# "*WSGI* support has been dropped", "Support for Python 2 was removed", "X is no longer
# supported": a feature said to be gone, by its name in words
_SUPPORT_DROPPED: Final = re.compile(
    r"^(?:the\s+)?(?P<what>[\w*`.' -]{2,40}?)\s+support\s+(?:has\s+been|have\s+been|was|were|is)"
    r"\s+(?:dropped|removed|discontinued)\b"
    r"|^support\s+for\s+(?P<for>[\w*`.' -]{2,40}?)\s+(?:has\s+been|was|is)\s+"
    r"(?:dropped|removed|discontinued)\b"
    r"|^(?P<gone>[\w*`.' -]{2,40}?)\s+(?:is|are)\s+no\s+longer\s+supported\b",
    re.I,
)


def _support_dropped(sentence: str, terms: list[str]) -> bool:
    """Does the sentence say that support for a feature the ask names is gone? "Which aiohttp
    wrapper exposes an Application as a WSGI app …?" / "*WSGI* support has been dropped, as
    well as gunicorn wsgi support." (Every word of the feature's name is in the ask.)"""
    m = _SUPPORT_DROPPED.match(plain(sentence).strip())
    if m is None:
        return False
    feature = key_terms(m.group("what") or m.group("for") or m.group("gone"))
    asked = {stem(t.lower()) for t in terms}
    return bool(feature) and all(stem(t.lower()) in asked for t in feature)


# A denial whose subject is the passage's own ("`unix_socket`: Path of Unix socket. … Not
# available on Windows."): it opens with the negation.
_SUBJECTLESS_DENIAL: Final = re.compile(
    r"^(?:not|does\s+not|doesn't|is\s+not|isn't|cannot|can't|can\s+not|never)\b", re.I
)


def _elided_denial(passage: Passage, named: list[str], terms: list[str]) -> bool:
    """Does a later sentence of a passage on code the ask names say, with that code as its
    unsaid subject, that what the ask wants of it is not so? "What path format does the
    unix_socket setting expect on Windows?" / "`unix_socket`: Path of Unix socket (string).
    If a socket path is specified, a Unix domain socket is made …. Not available on
    Windows." (The denied clause holds a word of the ask, not only of the scene.)"""
    if not named or passage.is_code or len(passage.sentences) < 2:
        return False
    first = f"{passage.label}\n{passage.sentences[0]}"
    if not any(names_code(first, n) for n in named):
        return False
    return any(
        _SUBJECTLESS_DENIAL.match(plain(sentence).strip()) is not None
        and denies(sentence, gone=False)
        and _denies_what_is_asked(sentence, terms)
        for sentence in passage.sentences[1:]
    )


# "Which port does pygmentize's built-in HTTP server listen on …?": a thing the question
# takes to come with the software
_PRESUMED: Final = re.compile(
    r"\b(?:built-?in|bundled|integrated|native)\s+(?P<thing>(?:[\w-]+\s+){0,2}[\w-]+)", re.I
)
# "… but it has no RPC mechanism, nor does it start a server by default.", "there is no
# web interface", "does not ship a scheduler"
_NO_THING: Final = re.compile(
    r"\b(?:(?:has|have|had|ships?|comes?(?:\s+with)?)\s+no|there\s+(?:is|are)\s+no)\s+"
    r"(?P<a>(?:[\w-]+\s+){0,2}[\w-]+)"
    r"|\b(?:does\s*(?:not|n't)|do\s*(?:not|n't)|nor\s+(?:does|do)\s+(?:it|they)|never)\s+"
    r"(?:start|run|provide|ship|include|have|offer|come\s+with|spawn|open|bundle|expose)s?\s+"
    r"(?:a|an|any|its\s+own)\s+(?P<b>(?:[\w-]+\s+){0,2}[\w-]+)",
    re.I,
)


def _presumed_thing_absent(question: str, scored: list[Choice]) -> Choice | None:
    """The sentence nearest the question in meaning, saying that the thing the question takes
    to be built in is not there ("Which port does pygmentize's built-in HTTP server listen on
    …?" / "… it has no RPC mechanism, nor does it start a server by default.")."""
    presumed = {
        stem(w.lower())
        for m in _PRESUMED.finditer(question)
        for w in m["thing"].split()
        if w.lower() not in STOPWORDS
    }
    if not presumed or not scored:
        return None
    nearest = max(c.similarity for c in scored)
    for choice in scored:
        passage = choice.passage
        if passage.is_code or len(passage.sentences) != 1:
            continue
        if choice.similarity < nearest - DENIAL_NEAR:
            continue
        for m in _NO_THING.finditer(plain(passage.quote)):
            if _CONDITION.search(plain(passage.quote)[: m.start()]):
                continue
            said = {stem(w.lower()) for w in (m["a"] or m["b"]).split()}
            if said & presumed:
                return choice
    return None


def _denies_what_is_asked(
    sentence: str, terms: list[str], wants: tuple[str, ...] | list[str] = ()
) -> bool:
    """Is what the sentence says cannot be, or is not there, about a word of the question? Its
    clause holds one: "… so there is no polling latency" denies nothing of "How many Postgres
    connections will that consumer hold?"; "… so it's not possible to modify a context
    directly" speaks of modifying a context."""
    text = plain(sentence)
    for m in _CANNOT_BE.finditer(text):
        if _CONDITION.search(text[: m.start()]):
            continue
        starts = [b.end() for b in _CLAUSE_END.finditer(text[: m.start()])]
        end = _CLAUSE_END.search(text, m.end())
        # "The class `LazyFunction` does not provide a decorator." denies a decorator, not the
        # class: what is not provided, offered or taken is what the question must speak of
        said = text[m.end() : end.start() if end else len(text)]
        if (
            _WITHHELD.search(m.group(0))
            and key_terms(said)
            and not _holds_any(said, [*terms, *wants])
        ):
            continue
        clause = part_stems(text[starts[-1] if starts else 0 : end.start() if end else len(text)])
        # (asked for a kind of thing, "Which environment variable …?", the clause names that
        # kind: "… since they don't provide a clean way to nest configuration keys" denies
        # no variable)
        if any(_holds(clause, stem(t.lower())) for t in terms) and (
            not wants or any(_holds(clause, stem(w.lower())) for w in wants)
        ):
            return True
    return False


# Verbs whose object is what is denied: "does not provide a decorator"
_WITHHELD: Final = re.compile(r"\b(?:provide[ds]?|offer|include|take|accept|have\s+any)\b", re.I)


_TURNS_ON: Final = re.compile(
    r"\b(?:turns?\s+on|enables?|activates?|switch(?:es)?\s+on)\s+(?P<what>[^,;?]+?)"
    r"(?=\s+(?:so|to|that|for|in|on|when|if)\b|[,;?]|$)",
    re.I,
)


def _holds_any(sentence: str, terms: list[str]) -> bool:
    """Does the sentence hold one of the terms, or a word of the same group ("interprocess"
    for "cross-process")?"""
    held = part_stems(plain(sentence))
    return any(
        _holds(held, stem(t.lower())) or bool(alternatives(stem(t.lower())) & held) for t in terms
    )


def _renames_unnamed(sentence: str, named: list[str]) -> bool:
    """Does the sentence rename code the question does not name? "Renamed the `cancellable`
    argument in `anyio.to_thread.run_sync()` to `abandon_on_cancel` (and deprecated the old
    parameter name)" gives a new name; it denies only a question that uses the old one."""
    m = _RENAMED.search(plain(sentence))
    return m is not None and not any(names_code(m.group("old"), n) for n in named)


def _way_around(sentence: str, terms: list[str], gone: bool = True) -> bool:
    """Does the sentence, after saying what is not so, give the way the question takes?
    "Pytest does not natively support running asynchronous test functions, so they have to
    be marked for the AnyIO pytest plugin to pick them up." answers "With the AnyIO pytest
    plugin, how do I …?": its remedy holds words of the question (two or more) that its
    denial does not. ("… cannot be reused, and must be replaced instead" holds none.)"""
    text = plain(sentence)
    patterns = (_CANNOT_BE, _GONE) if gone else (_CANNOT_BE,)
    ends = [m.end() for pattern in patterns for m in pattern.finditer(text)]
    if not ends:
        return False
    cut = min(ends)
    rest = re.split(r"(?<=[.!?])\s+", text[cut:], maxsplit=1)[0]  # (the same sentence)
    # the remedy is a clause of its own ("…, so they have to …"); "It is not possible to
    # specify a different key …" says in one clause what cannot be done
    clause = _NEXT_CLAUSE.search(rest)
    if clause is None:
        return False
    denied, remedy = (
        part_stems(text[:cut] + rest[: clause.start()]),
        part_stems(rest[clause.end() :]),
    )
    new = {stem(t.lower()) for t in terms} - denied
    return sum(_holds(remedy, t) for t in new) >= REMEDY_TERMS
