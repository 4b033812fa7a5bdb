"""Contradiction signals between two sentences about the same thing.

The embedder scores "X reduces Y" and "X increases Y" as near-identical (cosine ≈ 0.99), so
disagreement has to be read from the words. Five signals, each cheap and explainable:

* **negation** — a negation (not, no, never, n't, without, neither, nor, cannot, "fail(s/ed)
  to") in one sentence only;
* **antonym** — the two sentences take opposite sides of one axis (increase/decrease,
  promotes/inhibits, positive/negative, before/after, effective/ineffective, …);
  the word lists live in :mod:`~backend.reasoning.offline.polarity`;
* **number** — both give a number for the same unit or keyword ("330 metres" / "300 m",
  "population of 8,000" / "population of 9,000") and the values differ, or a rate of the
  same thing ("one in two surgical trials" / "one in five surgical trials", "per million")
  that differs by more than rounding;
* **year** — both date the same event ("founded in 1844" / "founded in 1846") differently;
* **value** — the same slot filled with different names ("born in Warsaw" / "born in Paris").

Negation and antonyms are polarity flips: a sentence with both ("does not increase" against
"decreases") flips twice and agrees, so they count as a contradiction only when the number of
flips is odd. Both are read in each sentence's clause closest to the other sentence, so a
negation in an unrelated clause ("…, although it did not affect mortality") is ignored.
Callers gate all signals on :func:`same_subject` (and on embedding similarity). The fact-checker
adds a per-word reading of directions (:mod:`~backend.reasoning.offline.direction`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from backend.reasoning.offline.polarity import AXIS_OF, has_negation, polarity, without_normative
from backend.reasoning.offline.text import (
    STOPWORDS,
    capitalised_spans,
    content_stems,
    mentions,
    stem,
    word_set,
)

SignalKind = Literal["negation", "antonym", "number", "year", "value"]


@dataclass(frozen=True, slots=True)
class Signal:
    """One reason two sentences disagree, e.g. ``Signal("year", "1844 vs 1846")``."""

    kind: SignalKind
    detail: str

    def describe(self) -> str:
        """Human-readable: 'conflicting years (1844 vs 1846)'."""
        label = {
            "negation": "negation mismatch",
            "antonym": "opposite terms",
            "number": "conflicting numbers",
            "year": "conflicting years",
            "value": "different values for the same fact",
        }[self.kind]
        return f"{label} ({self.detail})"


_MULTIPLIERS: Final = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_UNIT_SYNONYMS: Final = {
    "percent": "%", "per": "%", "pct": "%", "metre": "m", "metres": "m", "meter": "m",
    "meters": "m", "kilometre": "km", "kilometres": "km", "kilometer": "km", "kilometers": "km",
    "foot": "ft", "feet": "ft", "kilogram": "kg", "kilograms": "kg", "mile": "mi", "miles": "mi",
    "year": "yr", "years": "yr", "yrs": "yr", "second": "s", "seconds": "s", "sec": "s",
    "secs": "s", "s": "s", "millisecond": "ms", "milliseconds": "ms", "minute": "min",
    "minutes": "min", "mins": "min", "hour": "h", "hours": "h", "hr": "h", "hrs": "h",
    "day": "d", "days": "d", "byte": "B", "bytes": "B", "kilobyte": "kB", "kilobytes": "kB",
    "kb": "kB", "megabyte": "MB", "megabytes": "MB", "mb": "MB", "gigabyte": "GB",
    "gigabytes": "GB", "gb": "GB", "milligram": "mg", "milligrams": "mg",
}  # fmt: skip
# Words, numbers ("1,310,696", "3.5", "45%") and single punctuation marks, which matter:
# "in 1887, two years" is a year, "1887 participants" a count.
_TOKEN: Final = re.compile(
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?%?|[A-Za-z0-9][\w'’\-.]*[A-Za-z0-9%]|[A-Za-z0-9%]|[^\w\s]"
)
_MONTHS: Final = word_set(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
)
_CLAUSE_BREAK: Final = re.compile(
    r"[;:]|,\s+(?=(?:but|although|though|while|whereas|however|yet|and)\b)"
    r"|\b(?:but|although|though|whereas|however)\b",
    re.I,
)
_ARTICLES: Final = frozenset({"the", "a", "an"})
# Structured abstracts open sentences with a label ("CONCLUSIONS This study …"): not a name.
_SECTION_LABEL: Final = re.compile(
    r"^\s*(?:(?:BACKGROUND|INTRODUCTION|CONTEXT|OBJECTIVES?|PURPOSE|AIMS?|DESIGN|SETTING|"
    r"PARTICIPANTS|METHODS?|MEASUREMENTS|RESULTS|FINDINGS|INTERPRETATION|CONCLUSIONS?|"
    r"SIGNIFICANCE|IMPORTANCE|RELEVANCE)(?:\s+AND\s+|\s*/\s*|\s+)?)+(?=[A-Z][a-z])"
)
# A leading scope: where or in whom a finding holds ("In British men, …", "Among older
# adults, …"). An abstract names its population once, not in every sentence, so a name
# there is not what the statement is about.
LEADING_SCOPE: Final = re.compile(r"\s*(?:In|Among|For)\s+([^,;:]{1,60}),")
_LEADING_BASELINE: Final = re.compile(
    r"\s*(?:Compared|In\s+comparison)\s+(?:with|to)\s+[^,;:]{1,80},"
)
_YEAR_WORDS: Final = frozenset({"in", "since", "from", "until", "by", "of", "around", "circa"})
# An acronym: three to six capitals, maybe a plural "s" ("BAT", "DSBs"); not an RFC 2119
# keyword ("MUST", "NOT").
_ACRONYM: Final = re.compile(r"\b[A-Z]{3,6}s?\b")
# A short form defined in parentheses after its long form: letters with a capital or a
# digit after the first ("(FA)", "(Th17)", "(VB6)"), no spaces.
_DEFINITION: Final = re.compile(r"\(\s*([A-Za-z][A-Za-z0-9\-]*[A-Z0-9][A-Za-z0-9\-]*)\s*\)")
_LONG_FORM: Final = 5  # words before a definition its long form can span
_NOT_ACRONYMS: Final = frozenset(
    {"MUST", "SHALL", "SHOULD", "MAY", "NOT", "REQUIRED", "RECOMMENDED", "OPTIONAL"}
)


def same_subject(a: str, b: str) -> bool:
    """Do the two sentences talk about the same thing?

    Not when each opens with a different name that the other never mentions ("Arthur's
    Magazine was founded …" / "First for Women was founded …"); a leading scope ("In
    British men, …") or baseline ("Compared with systolic pressure, …") is not the
    opening. Otherwise yes when they share
    a name or at least half of the shorter one's content words.
    """
    a, b = _SECTION_LABEL.sub("", a), _SECTION_LABEL.sub("", b)
    spans_a, spans_b = _names(a), _names(b)
    # A shared name settles it before the opening names are compared ("… GAVI eligibility is
    # not …" / "… GAVI eligibility is associated …" open differently but agree on GAVI).
    if {n.lower() for n in spans_a} & {n.lower() for n in spans_b}:
        return True
    opening_a, opening_b = _names(_without_scope(a)), _names(_without_scope(b))
    if (
        opening_a
        and opening_b
        and not _names_it(b, opening_a[0])
        and not _names_it(a, opening_b[0])
    ):
        return False
    stems_a, stems_b = _plain_stems(a), _plain_stems(b)
    if not stems_a or not stems_b:
        return False
    shared = stems_a & (stems_b | spelled_out(a, b))
    return len(shared) / min(len(stems_a), len(stems_b)) >= 0.5


def _without_scope(text: str) -> str:
    """The sentence after its leading scope ("In British men, …") or the baseline it is
    compared with ("Compared with patients taking warfarin, …"), if it has one."""
    scope = LEADING_SCOPE.match(text) or _LEADING_BASELINE.match(text)
    return text[scope.end() :] if scope else text


def _names_it(text: str, name: str) -> bool:
    """Does ``text`` mention ``name``, spell out its acronym or use the acronym of its
    words?"""
    return mentions(text, name) or bool(spelled_out(name, text))


def spelled_out(text: str, other: str) -> frozenset[str]:
    """Stems of ``text``'s words that ``other`` states through an acronym, and stems of
    ``text``'s acronyms that ``other`` spells out: against "increased BAT activity", the
    words "brown adipose tissue" count as said; against "patent ductus arteriosus", "PDA"
    does. Abstracts define an acronym once and use it after, so a sentence read alone
    names the claim's thing only by its letters."""
    found: set[str] = set()
    for acronym in _acronyms(other) - _acronyms(text):
        found.update(_spelling(text, acronym))
    # A short form ``text`` defines itself is one thing with its long form: the other
    # sentence saying either says both ("sickle cell trait (SCT)" / "patients with SCT").
    for short, long in defined_acronyms(text):
        if says_short_form(other, short):
            found.update(stem(w.lower()) for w in long)
            found.add(stem(short.lower()))
        elif mentions(other, " ".join(long)):
            found.add(stem(short.lower()))
    for acronym in _acronyms(text) - _acronyms(other):
        if _spelling(other, acronym):
            found.add(stem(acronym.lower()))
    return frozenset(found)


def defined_acronyms(text: str) -> list[tuple[str, list[str]]]:
    """(short form, words of its long form) for each short form ``text`` defines in
    parentheses: "folic acid (FA)", "Chikungunya virus (CHIKV)", "vitamin B6 (VB6)",
    "Apolipoprotein E4 (APOE4)". The long form runs from the nearest of the (at most
    :data:`_LONG_FORM`) words before it that starts with the short form's first letter."""
    out = []
    for match in _DEFINITION.finditer(text):
        short = match.group(1)
        before = re.findall(r"[A-Za-z0-9][\w\-'’]*", text[: match.start()])[-_LONG_FORM:]
        start = next(
            (k for k in range(len(before) - 1, -1, -1) if before[k][0].lower() == short[0].lower()),
            None,
        )
        if start is not None:
            out.append((short, before[start:]))
    return out


def says_short_form(text: str, short: str) -> bool:
    """Does ``text`` use this short form as a word (case as written, a plural "s" allowed)?"""
    return bool(re.search(rf"(?<![\w-]){re.escape(short)}s?(?![\w-])", text))


def _acronyms(text: str) -> set[str]:
    return {a for a in _ACRONYM.findall(text) if a not in _NOT_ACRONYMS}


def _spelling(text: str, acronym: str) -> list[str]:
    """Stems of the consecutive content words of ``text`` whose initials (each part of a
    hyphenated word counting) spell ``acronym``; [] when none do."""
    letters = acronym.removesuffix("s").lower()
    toks = [
        t for t in re.findall(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*", text) if t.lower() not in STOPWORDS
    ]
    for start in range(len(toks)):
        spelled, end = "", start
        while end < len(toks) and len(spelled) < len(letters):
            spelled += "".join(part[0].lower() for part in toks[end].split("-"))
            end += 1
        if spelled == letters:
            return [stem(t.lower()) for t in toks[start:end]]
    return []


def _names(text: str) -> list[str]:
    """Capitalised spans without RFC 2119 keywords: two rules that both say MUST do not
    share a name."""
    return [n for n in map(without_normative, capitalised_spans(text)) if n]


def _plain_stems(text: str) -> frozenset[str]:
    """Content stems without numbers and without the antonym/negation words themselves."""
    return frozenset(s for s in content_stems(text) if not s[0].isdigit() and s not in AXIS_OF)


def contradiction_signals(a: str, b: str) -> list[Signal]:
    """The reasons ``a`` and ``b`` disagree; [] when none is found. Assumes same subject."""
    signals: list[Signal] = []
    flips: list[Signal] = []
    # Polarity is read in the clause that overlaps the other sentence most, so that "X
    # reduced fractures, although it did not affect mortality" still agrees with "X reduces
    # fractures".
    clause_a, clause_b = focus_clause(a, b), focus_clause(b, a)
    if opposite_cases(clause_a, clause_b):
        # "When `x` is not enabled, the value … is added as a string" and "When `x` is
        # enabled, the framework parses …" say what happens in two different cases
        return []
    if has_negation(clause_a) != has_negation(clause_b):
        flips.append(Signal("negation", "negated in one sentence only"))
    pol_a, pol_b = polarity(clause_a), polarity(clause_b)
    for axis in sorted(pol_a.keys() & pol_b.keys()):
        if len(pol_a[axis]) == 1 and len(pol_b[axis]) == 1 and pol_a[axis] != pol_b[axis]:
            flips.append(Signal("antonym", axis))
    if len(flips) % 2 == 1:
        signals.extend(flips)
    signals.extend(number_conflicts(a, b))
    signals.extend(year_conflicts(a, b))
    signals.extend(value_conflicts(a, b))
    return signals


_CASE: Final = re.compile(r"^\W*(?:if|when|whenever|unless|once)\b[^,]{3,120},", re.I)


def opposite_cases(a: str, b: str) -> bool:
    """Do both sentences open with a condition, the one the negation or the opposite of the
    other ("When `x` is not enabled, …" / "When `x` is enabled, …")?"""
    case_a, case_b = _CASE.match(a), _CASE.match(b)
    if case_a is None or case_b is None:
        return False
    one, other = case_a.group(0), case_b.group(0)
    if has_negation(one) != has_negation(other):
        return True
    pol_one, pol_other = polarity(one), polarity(other)
    return any(
        len(pol_one[axis]) == 1 and len(pol_other[axis]) == 1 and pol_one[axis] != pol_other[axis]
        for axis in pol_one.keys() & pol_other.keys()
    )


def focus_clause(sentence: str, other: str) -> str:
    """The clause of ``sentence`` sharing the most content words with ``other``."""
    clauses = [c for c in _CLAUSE_BREAK.split(sentence) if c and c.strip()]
    if len(clauses) <= 1:
        return sentence
    target = _plain_stems(other)
    return max(clauses, key=lambda c: (len(_plain_stems(c) & target), -clauses.index(c)))


def tokens(text: str) -> list[str]:
    """Words, numbers and punctuation marks, in order."""
    return _TOKEN.findall(text)


def is_year_token(tokens: list[str], i: int) -> bool:
    """A four-digit 1000–2099 token used as a year: not followed by a lower-case unit word
    ("2000 participants" is a count, "in 1844 by" and "1844." are years)."""
    token = tokens[i]
    if not re.fullmatch(r"1\d{3}|20\d{2}", token):
        return False
    nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
    return not (nxt.islower() and nxt not in STOPWORDS and nxt not in _MONTHS)


def quantities(text: str) -> dict[str, set[float]]:
    """Numbers that are not years, keyed by their unit ("unit:m") or, without a unit, by
    the content word before them ("key:popul")."""
    found: dict[str, set[float]] = {}
    toks = tokens(text)
    for i, token in enumerate(toks):
        if not re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?%?", token):
            continue
        if is_year_token(toks, i):
            continue
        value = float(token.rstrip("%").replace(",", ""))
        j = i + 1
        unit: str | None = "%" if token.endswith("%") else None
        if unit is None and j < len(toks) and toks[j].lower() in _MULTIPLIERS:
            value *= _MULTIPLIERS[toks[j].lower()]
            j += 1
        if unit is None and j < len(toks):
            word = toks[j].lower()
            if word == "%" or word in _UNIT_SYNONYMS or (word.isalpha() and word not in STOPWORDS):
                unit = unit_of(word)
        if unit is not None:
            found.setdefault(f"unit:{unit}", set()).add(value)
            continue
        before = [t.lower() for t in toks[max(0, i - 3) : i]]
        keys = [w for w in before if w.isalpha() and w not in STOPWORDS]
        if keys:
            found.setdefault(f"key:{stem(keys[-1])}", set()).add(value)
    return found


def unit_of(word: str) -> str:
    """The unit key of a lower-case word after a number: "metres" and "m" are both "m"."""
    return _UNIT_SYNONYMS.get(word, stem(word))


def number_conflicts(a: str, b: str) -> list[Signal]:
    """A "number" signal per unit or keyword both sentences give different values for."""
    qa, qb = quantities(a), quantities(b)
    out = []
    for key in sorted(qa.keys() & qb.keys()):
        if not any(_close(x, y) for x in qa[key] for y in qb[key]):
            unit = key.split(":", 1)[1]
            out.append(Signal("number", f"{_fmt(qa[key])} vs {_fmt(qb[key])} ({unit})"))
    return out


_COUNT_WORDS: Final = {
    "one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "twenty": 20, "hundred": 100, "thousand": 1e3,
}  # fmt: skip
_COUNT: Final = r"(\d[\d,]*(?:\.\d+)?|" + "|".join(_COUNT_WORDS) + r")"
# A rate: "one in five", "1 in 5 million", "493 per million", "12 per 100,000".
_RATE: Final = re.compile(
    rf"\b{_COUNT}\s+(?:in|per|out\s+of)\s+(?:every\s+)?{_COUNT}?\s*(thousand|million|billion)?\b",
    re.I,
)
_RATE_CLOSE: Final = 1.25  # rates within this factor of each other are the same, rounded
_RATE_CONTEXT: Final = 3  # content words either side of a rate that say what it counts


def rates(text: str) -> list[tuple[float, frozenset[str]]]:
    """Rates stated as "N in M" or "N per M" ("one in five" 0.2, "493 per million"
    0.000493), each with the content stems of up to :data:`_RATE_CONTEXT` words either side
    of it within its phrase: what is counted."""
    out = []
    for m in _RATE.finditer(text):
        count, base, scale = m.groups()
        if base is None and scale is None:
            continue
        value = _count(count)
        whole = (_count(base) if base else 1.0) * (_MULTIPLIERS[scale.lower()] if scale else 1.0)
        if whole > value > 0:
            out.append((value / whole, _phrase_stems(text, m.start(), m.end())))
    return out


def _phrase_stems(text: str, start: int, end: int) -> frozenset[str]:
    before = re.split(r"[^\w\s\-]", text[:start])[-1]
    after = re.split(r"[^\w\s\-]", text[end:])[0]

    def near(words: list[str]) -> list[str]:
        return [stem(w.lower()) for w in words if w.lower() not in STOPWORDS and w.isalpha()]

    return frozenset(near(before.split())[-_RATE_CONTEXT:] + near(after.split())[:_RATE_CONTEXT])


def _count(token: str) -> float:
    word = token.lower()
    return float(_COUNT_WORDS[word]) if word in _COUNT_WORDS else float(word.replace(",", ""))


def rate_conflicts(a: str, b: str) -> list[Signal]:
    """A "number" signal when both sentences give a rate of the same thing (a content word
    next to both) and none of one's is within :data:`_RATE_CLOSE` times one of the other's:
    "one in two surgical trials" / "one in five surgical trials"; not "one in three
    completed trials"."""
    pairs = [(x, y) for x, cx in rates(a) for y, cy in rates(b) if cx & cy]
    if not pairs or any(max(x, y) <= _RATE_CLOSE * min(x, y) for x, y in pairs):
        return []
    ra, rb = {x for x, _ in pairs}, {y for _, y in pairs}
    return [Signal("number", f"{_fmt(ra)} vs {_fmt(rb)} (rate)")]


def _close(x: float, y: float) -> bool:
    return abs(x - y) <= 0.01 * max(abs(x), abs(y), 1e-9)


def _fmt(values: set[float]) -> str:
    return "/".join(f"{v:g}" for v in sorted(values))


def dated_events(text: str) -> dict[str, set[int]]:
    """Years keyed by the content word before them ("founded in 1844" → {"found": {1844}}),
    plus every year under "*"."""
    toks = tokens(text)
    events: dict[str, set[int]] = {}
    for i in range(len(toks)):
        if not is_year_token(toks, i):
            continue
        year = int(toks[i])
        events.setdefault("*", set()).add(year)
        for prev in reversed(toks[max(0, i - 4) : i]):
            word = prev.lower()
            if prev.isalpha() and prev.islower() and word not in STOPWORDS | _MONTHS:
                events.setdefault(stem(word), set()).add(year)
                break
            if not (word in _YEAR_WORDS or word in _MONTHS or word.isdigit()):
                break
    return events


def year_conflicts(a: str, b: str) -> list[Signal]:
    """A "year" signal when the two sentences date the same event differently."""
    ea, eb = dated_events(a), dated_events(b)
    if "*" not in ea or "*" not in eb or ea["*"] & eb["*"]:
        return []
    shared = sorted((ea.keys() & eb.keys()) - {"*"})
    if shared:
        key = shared[0]
        return [Signal("year", f"{_years(ea[key])} vs {_years(eb[key])} ({key})")]
    # No shared anchor word: still a conflict when each dates one event and the sentences
    # are otherwise nearly the same.
    stems_a, stems_b = _plain_stems(a), _plain_stems(b)
    if len(ea["*"]) == 1 and len(eb["*"]) == 1 and stems_a and stems_b:
        common = len(stems_a & stems_b) / min(len(stems_a), len(stems_b))
        if common >= 0.6:
            return [Signal("year", f"{_years(ea['*'])} vs {_years(eb['*'])}")]
    return []


def _years(values: set[int]) -> str:
    return "/".join(str(v) for v in sorted(values))


def slot_values(text: str) -> dict[tuple[str, ...], str]:
    """Names filling a slot: the lower-case words right before a capitalised name
    ("born in Paris" → {("born", "in"): "Paris"}). Slots need a content word."""
    slots: dict[tuple[str, ...], str] = {}
    for name in capitalised_spans(text):
        start = text.find(name)
        if start <= 0:
            continue
        if text[:start].rstrip().endswith(";") and text[start + len(name) :].lstrip()[:1] == ":":
            continue  # a table row's next label ("…; Command: `runtests.py`"), not a value
        before = [w for w in re.findall(r"[A-Za-z]+", text[:start])[-3:] if w not in _ARTICLES]
        before = before[-2:]
        if not before or any(not w.islower() for w in before):
            before = [w for w in before[-1:] if w.islower()]
        if any(w not in STOPWORDS for w in before):
            slots.setdefault(tuple(stem(w) for w in before), name)
    return slots


def value_conflicts(a: str, b: str) -> list[Signal]:
    """A "value" signal per slot ("born in") the two sentences fill with different names."""
    sa, sb = slot_values(a), slot_values(b)
    out = []
    for slot in sorted(sa.keys() & sb.keys()):
        va, vb = sa[slot], sb[slot]
        if va.lower() in b.lower() or vb.lower() in a.lower():
            continue
        out.append(Signal("value", f"{' '.join(slot)} {va} vs {vb}"))
    return out
