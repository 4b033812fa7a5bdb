"""Is a disagreement between two sentences about the same statement?

A negation, an opposite term or a different number somewhere in a similar sentence is not a
contradiction: "A client MUST send a Host header field" and "A server SHOULD NOT send a
Content-Length header field" share words and one has a "not", but they are two different
rules. A contradiction needs the same subject and the same predicate or attribute with
incompatible values, so each signal from :mod:`~backend.reasoning.offline.signals` and
:mod:`~backend.reasoning.offline.direction` is kept only when it sits on the part the two
sentences share:

* **shared content** — at least :data:`MIN_SHARED` of the claim's content words (the
  conflicting words aside) occur in the other sentence, and so does every name the claim
  uses, or a word of it that identifies it alone ("PPM1D" of "Activation of PPM1D"); a
  short form the claim defines and its long form are one name, named by either ("folic
  acid (FA)" by "Folic acid decreases …", "sickle cell trait (SCT)" by "… with SCT"), and
  count once as shared content; a species is named by its abbreviated genus ("Salmonella
  Typhimurium" / "S. typhimurium"); a name in the claim's leading scope ("In British men,
  …") need not be repeated; an irregular plural is its singular ("Mice" / "mouse");
* **same subject** — the claim's content words before the conflict (its subject side)
  occur in the other sentence: "a client MUST …" is not contested by "a server MUST NOT …";
* **negation in scope** — a negation counts only when the word it governs (the first
  content word after it, past adverbs and "effect" words: "no significant effect on Y")
  is in the other clause; punctuation, a relative pronoun or a subordinating word ends
  its reach, so "… in adults who do not have kidney disease" negates having kidney
  disease, not the shared finding. A negation reached through an "effect" word needs the
  other sentence to state an effect (an opposite term): "X has no effect on Y" is not
  contradicted by every sentence that mentions Y. "neither … nor" negates once;
* **antonyms in the same slot** — the two opposite terms have the same content word next
  to them ("increases HDL" / "decreases HDL"; "increases X" / "X was decreased" in a
  passive); another opposite term ends a slot, so in "decreases alertness and increases
  anxiety" only "decreases" speaks about alertness; a comparative that grades a judged term
  belongs to it ("monitoring is more accurate" fills the slot of "monitoring is
  inaccurate"); a hyphenated compound ending in an opposite term is two words, so
  "UCP1-independent thermogenesis" contests "a UCP1-dependent thermogenic mechanism";
* **numbers of the same attribute** — besides the same unit or keyword, a content word
  next to the two numbers is the same and both are values or the same kind of bound:
  "330 metres tall" / "300 metres tall" conflict; "2,737 metres long" / "towers rise 227
  metres" and "aged less than 6 months" / "aged between 1 month and 1 year" do not; two
  rates ("one in two", "493 per million") conflict only when a content word next to
  both says they count the same thing.

Normative keywords (RFC 2119: MUST, SHOULD, MAY, REQUIRED, OPTIONAL, …) are neither names
nor content; their "NOT" is a negation like any other, so only the same subject and the
same action under MUST and MUST NOT disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from backend.reasoning.offline.direction import direction_signal
from backend.reasoning.offline.polarity import (
    AXIS_OF,
    MOVEMENT,
    NEGATIONS,
    NORMATIVE,
    NOT_NEGATION,
    axis_side,
    without_normative,
)
from backend.reasoning.offline.signals import (
    LEADING_SCOPE,
    Signal,
    defined_acronyms,
    focus_clause,
    is_year_token,
    number_conflicts,
    opposite_cases,
    rate_conflicts,
    same_subject,
    says_short_form,
    spelled_out,
    tokens,
    unit_of,
    value_conflicts,
    year_conflicts,
)
from backend.reasoning.offline.text import STOPWORDS, capitalised_spans, mentions, stem

SCOPE: Final = 6  # tokens after a negation that it can govern
NEIGHBOURS: Final = 2  # content words either side of an opposite term that form its slot
MIN_SHARED: Final = 0.4  # share of the claim's content words the other sentence must use

# Words that close the phrase a negation governs: what follows is another clause.
_SCOPE_END: Final = frozenset(
    {
        "that", "which", "who", "whom", "whose", "when", "where", "while", "whereas", "if",
        "unless", "because", "since", "although", "though", "but", "until", "before", "after",
    }
)  # fmt: skip
# Words that make the number after them a bound, not a value.
_BOUNDS: Final = frozenset({"than", "least", "most", "under", "over", "below", "above", "upto"})
_BE: Final = frozenset({"is", "are", "was", "were", "be", "been", "being"})
# Nouns and adjectives a negation passes through to reach what it negates: "no effect on
# mortality", "no significant difference in fractures".
_EFFECT_WORDS: Final = frozenset(
    {
        "effect", "effects", "impact", "influence", "change", "changes", "difference",
        "differences", "association", "associations", "role", "significant", "statistically",
        "evidence", "longer", "clear", "consistent", "major", "substantial", "detectable",
        "associated", "related", "linked", "correlated", "correlation",
        "found", "observed", "detected", "seen", "shown", "reported",
    }
)  # fmt: skip
# Plurals a stemmer leaves apart from their singular: "Mice are …" is about "mouse models".
_SINGULAR: Final = {
    "mice": "mouse", "men": "man", "women": "woman", "children": "child", "people": "person",
    "teeth": "tooth", "feet": "foot", "geese": "goose", "lice": "louse",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Word:
    stem: str
    index: int


def aligned_conflicts(claim: str, other: str) -> list[Signal]:
    """The reasons ``other`` contradicts ``claim`` that sit on what the two share; [] when
    they are about different things or agree."""
    if not same_subject(claim, other) or not _shares_enough(claim, other):
        return []
    if opposite_cases(claim, other):
        # "When `x` is not enabled, the value … is added as a string" / "When `x` is enabled,
        # the framework parses …": what happens in two different cases
        return []
    signals: list[Signal] = []
    clause_a, clause_b = focus_clause(claim, other), focus_clause(other, claim)
    flips = _flips(clause_a, clause_b)
    if len(flips) % 2 == 1:
        signals.extend(flips)
    signals.extend(s for s in number_conflicts(claim, other) if _same_attribute(claim, other, s))
    signals.extend(year_conflicts(claim, other))
    signals.extend(rate_conflicts(claim, other))
    signals.extend(value_conflicts(claim, other))
    moved = direction_signal(claim, other)
    if moved is not None:
        signals.append(moved)
    if not signals:
        return []
    missing = _missing_names(claim, other)
    return [s for s in signals if _names_ok(missing, s)]


def _names_ok(missing: list[str], signal: Signal) -> bool:
    """Every claim name the other sentence lacks is the conflicting value itself."""
    if signal.kind == "value":
        return all(name in signal.detail for name in missing)
    return not missing


def _missing_names(claim: str, other: str) -> list[str]:
    """Names in the claim (RFC 2119 keywords and a lone capitalised first word excluded)
    that ``other`` does not mention."""
    lowered = other.lower()
    scope = LEADING_SCOPE.match(claim)
    return [
        n
        for n in names(claim)
        if not (scope and n in scope.group(1))
        and not mentions(other, n)
        and not any(c.lower() in lowered for c in _core(n))
        and not spelled_out(n, other)
        and not _defined_and_named(claim, n, other)
        and not _abbreviated(n, other)
    ]


def _abbreviated(name: str, other: str) -> bool:
    """Does ``other`` name a two-word name by its first initial, as a species is named after
    its first mention ("Salmonella Typhimurium" / "S. typhimurium", "Escherichia coli" /
    "E. coli")?"""
    parts = name.split()
    if len(parts) != 2 or not parts[0].isalpha() or len(parts[0]) < 2:
        return False
    pattern = rf"\b{re.escape(parts[0][0])}\.\s?{re.escape(parts[1])}\b"
    return bool(re.search(pattern, other, re.I))


def _defined_and_named(claim: str, name: str, other: str) -> bool:
    """Is ``name`` a short form the claim defines ("folic acid (FA)") or part of the long
    form of one ("Sickle" of "Sickle cell trait (SCT)"), and does ``other`` name that thing
    by either form? A claim that spells a thing both ways asks for it once."""
    for short, long in defined_acronyms(claim):
        spelled = " ".join(long)
        if name == short or name.lower() in spelled.lower():
            return says_short_form(other, short) or mentions(other, spelled)
    return False


def _core(name: str) -> list[str]:
    """The words of a name that identify it on their own: with a digit or a capital
    after the first letter ("PPM1D" in "Activation of PPM1D", "HIV" in "HIV-positive")."""
    parts = re.findall(r"[A-Za-z0-9]+", name)
    return [
        p for p in parts if len(p) > 1 and (any(ch.isdigit() for ch in p) or p[1:] != p[1:].lower())
    ]


def names(sentence: str) -> list[str]:
    """Capitalised spans that name something: not RFC 2119 keywords, and not a sentence's
    capitalised first word on its own ("Obesity", "Moreover")."""
    out = []
    first = sentence.lstrip()
    for span in capitalised_spans(sentence):
        span = without_normative(span)
        if not span:
            continue
        plain = span.isalpha() and span[0].isupper() and span[1:].islower()
        if plain and first.startswith(span) and " " not in span:
            continue
        out.append(span)
    return out


def content(text: str) -> frozenset[str]:
    """Stems of the content words that can carry a statement's subject or object: no
    stopwords, numbers, negations, normative keywords or opposite terms."""
    return frozenset(w.stem for w in _content_words(tokens(text)))


def _shares_enough(claim: str, other: str) -> bool:
    return shared_share(claim, other) >= MIN_SHARED


def shared_share(claim: str, other: str) -> float:
    """Share of the claim's content words that ``other`` uses (by stem, or through an
    acronym: "brown adipose tissue" / "BAT")."""
    mine = content(claim)
    theirs = content(other) | spelled_out(claim, other)
    return len(mine & theirs) / len(mine) if mine else 0.0


def _content_words(toks: list[str]) -> list[_Word]:
    out = []
    for i, token in enumerate(toks):
        word = token.lower().replace("’", "'")
        if (
            not re.match(r"[a-z]", word)
            or word in STOPWORDS
            or word in NORMATIVE
            or word in NEGATIONS
            or word.endswith("n't")
            or len(word) < 2
        ):
            continue
        s = stem(_SINGULAR.get(word, word).removesuffix("'s"))
        if s in AXIS_OF and axis_side(word) is not None:
            continue
        out.append(_Word(s, i))
    return out


def _flips(clause_a: str, clause_b: str) -> list[Signal]:
    """Negation and antonym flips between two clauses, each anchored on a shared word."""
    flips: list[Signal] = []
    toks_a, toks_b = _split_compounds(tokens(clause_a)), _split_compounds(tokens(clause_b))
    all_a, all_b = _all_stems(toks_a), _all_stems(toks_b)
    scoped_a = _scoped_negations(toks_a, all_b)
    scoped_b = _scoped_negations(toks_b, all_a)
    if len(scoped_a) % 2 != len(scoped_b) % 2:
        negated, plain = (scoped_a, toks_b) if len(scoped_a) % 2 else (scoped_b, toks_a)
        # "X has no effect on Y" is contradicted by a sentence that says X moves or is
        # linked to Y, not by any sentence that mentions Y.
        stated = not negated[0][2] or bool(_axis_words(plain))
        pivot = scoped_a[0][0] if scoped_a else _position(toks_a, scoped_b[0][1])
        if stated and _subject_shared(toks_a, pivot, content(clause_b)):
            flips.append(Signal("negation", "negated in one sentence only"))
    for axis, i, j in _opposite_slots(toks_a, toks_b):
        # Both subject sides: "Insulin decreases the risk of …" is not contested by "Obesity
        # is associated with an increased risk of … insulin resistance" (j < 0: a passive,
        # whose subject is the other's object).
        if _subject_shared(toks_a, i, content(clause_b)) and (
            j < 0 or _subject_shared(toks_b, j, content(clause_a))
        ):
            flips.append(Signal("antonym", axis))
    return flips


def _split_compounds(toks: list[str]) -> list[str]:
    """A hyphenated compound ending in an opposite term is two words: "UCP1-independent"
    is "UCP1 independent", so that it can take the other side from "UCP1-dependent"."""
    out: list[str] = []
    for token in toks:
        head, _, last = token.rpartition("-")
        if head and last.isalpha() and axis_side(last.lower()) is not None:
            out.extend([head, last])
        else:
            out.append(token)
    return out


def _all_stems(toks: list[str]) -> set[str]:
    """Stems of every word, plus the axis of every opposite term ("increase/decrease"), so
    that "does not increase" governs what "decreases" says."""
    out: set[str] = set()
    for token in toks:
        word = token.lower()
        out.add(stem(word.removesuffix("'s")))
        hit = axis_side(word)
        if hit is not None:
            out.add(hit[0])
    return out


def _head_key(word: str) -> list[str]:
    hit = axis_side(word)
    return [stem(word.removesuffix("'s")), *([hit[0]] if hit is not None else [])]


def _scoped_negations(toks: list[str], other: set[str]) -> list[tuple[int, str, bool]]:
    """(position, stem, through an effect word) for each negation whose head word (the
    first content word it governs, past adverbs and "effect"-like words) the other clause
    also uses."""
    text = " ".join(t.lower() for t in toks)
    skip = {m.start() for m in NOT_NEGATION.finditer(text)}
    out: list[tuple[int, str, bool]] = []
    offset = 0
    for i, token in enumerate(toks):
        start = text.find(token.lower(), offset)
        offset = start + len(token)
        word = token.lower()
        # "without" narrows who or what is meant ("species without sequenced genomes",
        # "patients without diabetes"); it does not deny the finding.
        negates = (
            (word in NEGATIONS and word != "without")
            or word.endswith("n't")
            or _fail_to(toks, i)
            or _support_ended(toks, i)
        )
        if word == "nor" and any(t.lower() == "neither" for t in toks[:i]):
            continue  # "neither A nor B reduced X" negates once
        if not negates or any(start <= s <= start + 8 for s in skip):
            continue
        if _readers_choice(toks, i) or _in_condition(toks, i):
            continue
        through = False
        for k in range(i + 1, min(len(toks), i + 1 + SCOPE)):
            nxt = toks[k].lower()
            if not re.match(r"\w", nxt) or nxt in _SCOPE_END:
                break
            if nxt in STOPWORDS or nxt in NORMATIVE or nxt in NEGATIONS or nxt.endswith("ly"):
                continue
            hit = next((key for key in _head_key(nxt) if key in other), None)
            if hit is not None:
                out.append((i, hit, through))
                break
            if nxt not in _EFFECT_WORDS:
                break
            through = True
    return out


# The reader as the subject: "you don't want to see …", "you're not bound to them" say what
# the reader chooses, not what a thing is or does. ("We did not observe …" reports a
# finding: the writers are no reader.)
_PERSONS: Final = frozenset({"you", "you're", "youre", "i", "i'm"})
_AUXILIARIES: Final = frozenset(
    {"do", "does", "did", "are", "am", "will", "would", "should", "can", "could", "need", "must"}
)
# A condition opened before the negation, within its clause: "If you tell attrs to not
# write an `__init__`, it will …" denies nothing the sentence states.
_CONDITIONS: Final = frozenset({"if", "unless"})
_CLAUSE_BREAKS: Final = frozenset({",", ";", ":", "."})


def _readers_choice(toks: list[str], i: int) -> bool:
    before = [t.lower() for t in toks[max(0, i - 2) : i]]
    if before and before[-1] in _AUXILIARIES:
        before = before[:-1]
    return bool(before) and before[-1] in _PERSONS


def _in_condition(toks: list[str], i: int) -> bool:
    for token in reversed(toks[:i]):
        low = token.lower()
        if low in _CLAUSE_BREAKS:
            return False
        if low in _CONDITIONS:
            return True
    return False


# "Drop support for `@cached(cache=None)`" says what "Passing `None` as the `cache` parameter
# is no longer supported" says (a release note and the page it changed): support that ends is
# support denied.
_SUPPORT_ENDED: Final = frozenset(
    {"drop", "drops", "dropped", "dropping", "remove", "removes", "removed", "removing"}
    | {"end", "ends", "ended", "ending", "discontinue", "discontinued", "discontinues"}
)


def _support_ended(toks: list[str], i: int) -> bool:
    """Is toks[i] a verb that ends support ("dropped support for …", "remove support")?"""
    return (
        toks[i].lower() in _SUPPORT_ENDED
        and i + 1 < len(toks)
        and toks[i + 1].lower() in {"support", "supporting"}
    )


def _fail_to(toks: list[str], i: int) -> bool:
    word = toks[i].lower()
    return (
        word in {"fail", "fails", "failed", "failing", "unable"}
        and i + 1 < len(toks)
        and toks[i + 1].lower() == "to"
    )


def _position(toks: list[str], key: str) -> int:
    """The first position in ``toks`` of a word with this stem or on this axis."""
    for i, token in enumerate(toks):
        if key in _head_key(token.lower()):
            return i
    return len(toks)


def _subject_shared(toks: list[str], pivot: int, other: frozenset[str]) -> bool:
    """The claim's content words before the pivot (its subject side) occur in the other
    sentence; true when the claim names nothing before it."""
    before = {w.stem for w in _content_words(toks) if w.index < pivot}
    return not before or bool(before & other)


def _opposite_slots(toks_a: list[str], toks_b: list[str]) -> list[tuple[str, int, int]]:
    """(axis, index in a, index in b or -1 for a passive match) for each axis on which the
    opposite terms of the two clauses that fill the same slot all take opposite sides. A
    slot is the nearest content word after or before the term (failing a match, the two
    nearest); in a passive, one's object may be the other's subject ("increases X" / "X was
    decreased")."""
    words_a = {w.index: w.stem for w in _content_words(toks_a)}
    words_b = {w.index: w.stem for w in _content_words(toks_b)}
    found: dict[str, tuple[bool, int, int]] = {}
    for axis, side_a, i in _axis_words(toks_a):
        others = [(side, j) for axis_b, side, j in _axis_words(toks_b) if axis_b == axis]
        for width in range(1, NEIGHBOURS + 1):
            matched = [
                (side_a != side_b, j if how == "direct" else -1)
                for side_b, j in others
                if (how := _same_slot(toks_a, words_a, i, toks_b, words_b, j, width))
            ]
            if matched:
                before = found.get(axis)
                opposite = all(m[0] for m in matched) and (before is None or before[0])
                found[axis] = (opposite, i, matched[0][1])
                break
    return [(axis, i, j) for axis, (opposite, i, j) in sorted(found.items()) if opposite]


def _same_slot(
    toks_a: list[str],
    words_a: dict[int, str],
    i: int,
    toks_b: list[str],
    words_b: dict[int, str],
    j: int,
    width: int,
) -> str:
    """ "direct" when the slots match as they stand, "passive" when one's object is the
    other's subject in a passive, "" otherwise."""
    left_a, right_a = (
        _neighbours(toks_a, words_a, i, -1, width),
        _neighbours(toks_a, words_a, i, 1, width),
    )
    left_b, right_b = (
        _neighbours(toks_b, words_b, j, -1, width),
        _neighbours(toks_b, words_b, j, 1, width),
    )
    if right_a & right_b or left_a & left_b:
        return "direct"
    if (right_a & left_b or left_a & right_b) and (_passive(toks_a, i) or _passive(toks_b, j)):
        return "passive"
    return ""


def _passive(toks: list[str], i: int) -> bool:
    """Is the opposite term at ``i`` a participle after a form of *be* ("was reduced")?"""
    k = i - 1
    while k >= 0 and toks[k].lower().endswith("ly"):
        k -= 1
    return k >= 0 and toks[k].lower() in _BE


def _neighbours(toks: list[str], words: dict[int, str], i: int, step: int, width: int) -> set[str]:
    """The ``width`` nearest content stems from ``i`` in direction ``step`` (adverbs in -ly
    skipped), within the phrase and at most 5 tokens away."""
    found: set[str] = set()
    k = i + step
    if step < 0 and _graded(toks, i):
        k -= 1  # "more accurate": the comparative belongs to the term, not to another slot
    while 0 <= k < len(toks) and abs(k - i) <= 5 and len(found) < width:
        word = toks[k].lower()
        if not re.match(r"\w", word) or word in _SCOPE_END or axis_side(word) is not None:
            break  # punctuation, another clause or another predicate ends the slot
        if k in words and not word.endswith("ly"):
            found.add(words[k])
        k += step
    return found


def _graded(toks: list[str], i: int) -> bool:
    """Is the judged term at ``i`` graded by the movement word right before it ("more
    accurate", "less effective", "decreased susceptibility")?"""
    hit = axis_side(toks[i].lower())
    before = axis_side(toks[i - 1].lower()) if i > 0 else None
    return (
        hit is not None
        and hit[0] not in MOVEMENT
        and before is not None
        and before[0] == "increase/decrease"
    )


def _axis_words(toks: list[str]) -> list[tuple[str, int, int]]:
    """(axis, side, index) of each opposite term. A judged term lowered by the movement
    word right before it takes the other side: "decreased susceptibility" is resistance,
    "reduced efficacy" is the ineffective side."""
    out = []
    for i, token in enumerate(toks):
        hit = axis_side(token.lower())
        if hit is None:
            continue
        axis, side = hit
        before = axis_side(toks[i - 1].lower()) if i > 0 else None
        if axis not in MOVEMENT and before == ("increase/decrease", 1):
            side = 1 - side
        out.append((axis, side, i))
    return out


def _same_attribute(a: str, b: str, signal: Signal) -> bool:
    """Two numbers with the same unit or keyword describe the same attribute when a content
    word next to them (the unit itself aside) is the same and both are values or both the
    same kind of bound: "330 metres tall" / "300 metres tall" conflict, "2,737 metres long"
    / "towers rise 227 metres" and "aged less than 6 months" / "aged between 1 month and 1
    year" do not."""
    unit = signal.detail.rsplit("(", 1)[-1].rstrip(")")
    return any(
        bound_a == bound_b and context_a & context_b
        for bound_a, context_a in _numbers(a, unit)
        for bound_b, context_b in _numbers(b, unit)
    )


def _numbers(text: str, unit: str) -> list[tuple[str, set[str]]]:
    """(bound, context) per number: the bound word before it ("than", "between", "least",
    …; "" for a plain value) and the nearest content stem on each side, the unit aside."""
    toks = tokens(text)
    words = {
        w.index: w.stem
        for w in _content_words(toks)
        if w.stem != unit and unit_of(toks[w.index].lower()) != unit
    }
    out = []
    for i, token in enumerate(toks):
        if not re.fullmatch(r"\d[\d.,]*%?", token) or is_year_token(toks, i):
            continue
        context: set[str] = set()
        for step in (-1, 1):
            k = i + step
            while 0 <= k < len(toks) and re.match(r"\w", toks[k]) and abs(k - i) <= 4:
                if k in words:
                    context.add(words[k])
                    break
                k += step
        out.append((_bound(toks, i), context))
    return out


def _bound(toks: list[str], i: int) -> str:
    before = [t.lower() for t in toks[max(0, i - 5) : i]]
    if "between" in before:
        return "between"
    return next((w for w in reversed(before[-2:]) if w in _BOUNDS), "")
