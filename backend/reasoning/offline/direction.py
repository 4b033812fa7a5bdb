"""Which way a sentence says each thing it names moves: up (+1) or down (−1).

Two sentences about one effect often mix directions ("the increase in X suggests that Y may
play a role in the reduction of Z"), so counting opposite words over a whole clause is often
ambiguous. Here each content word takes the direction of the movement words right before it
in its phrase: "attenuated p53 activation" puts p53 down, "elevated levels of ORX" puts ORX
up, "reduced activation of STING" puts STING down (down × up), "did not reduce fractures"
puts fractures up (not × down). A form of *be* and a movement word after the word count too
("activity is increased"). Two sentences disagree about a word when both give it a
direction and the directions differ.
"""

from __future__ import annotations

import re
from typing import Final

from backend.reasoning.offline.polarity import MOVEMENT, NEGATIONS, axis_side
from backend.reasoning.offline.signals import Signal, tokens
from backend.reasoning.offline.text import STOPWORDS, stem

WINDOW: Final = 4  # tokens before a word that can set its direction
_BE: Final = frozenset({"is", "are", "was", "were", "be", "been", "being"})
_LINKING: Final = _BE | {"also", "significantly", "markedly", "further", "strongly"}


def _sign(token: str) -> int:
    """+1 for an "up" movement word, −1 for a "down" one or a negation, 0 otherwise."""
    word = token.lower()
    if word in NEGATIONS or word.endswith("n't"):
        return -1
    hit = axis_side(word)
    if hit is None or hit[0] not in MOVEMENT:
        return 0
    return 1 if hit[1] == 0 else -1


def directions(sentence: str) -> dict[str, int]:
    """For each content stem whose phrase gives it a direction: +1 (up) or −1 (down)."""
    toks = tokens(sentence)
    signs = [_sign(t) for t in toks]
    out: dict[str, int] = {}
    for i, token in enumerate(toks):
        word = token.lower()
        if signs[i] or word in STOPWORDS or len(word) < 2 or not re.match(r"\w", word):
            continue
        sign = _before(toks, signs, i) or _after(toks, signs, i)
        if sign:
            out.setdefault(stem(word), sign)
    return out


def _before(toks: list[str], signs: list[int], i: int) -> int:
    """The product of the movement words in the WINDOW tokens before ``i``; punctuation
    ends the phrase. 0 when there are none."""
    product, seen = 1, False
    for j in range(i - 1, max(-1, i - 1 - WINDOW), -1):
        if not re.match(r"\w", toks[j]):
            break
        if signs[j]:
            product, seen = product * signs[j], True
    return product if seen else 0


def _after(toks: list[str], signs: list[int], i: int) -> int:
    """A direction stated after the word with a form of *be*: "levels were (not) reduced"."""
    k, linked = i + 1, False
    while k < len(toks) and toks[k].lower() in _LINKING:
        linked = linked or toks[k].lower() in _BE
        k += 1
    product, seen = 1, False
    while linked and k < len(toks) and signs[k]:
        product, seen, k = product * signs[k], True, k + 1
    return product if seen else 0


def direction_conflict(a: str, b: str) -> tuple[list[str], list[str]]:
    """The stems both sentences move, split into (opposite ways, same way). A word that
    modifies a different noun in each sentence is not the same thing moving: "increases risk
    of postoperative bleeding" and "prevent postoperative nausea" move bleeding and nausea,
    not one "postoperative"."""
    da, db = directions(a), directions(b)
    shared = sorted(da.keys() & db.keys())
    heads_a, heads_b = _next_words(a), _next_words(b)
    opposite = [
        t
        for t in shared
        if da[t] != db[t] and not (heads_a.get(t) and heads_b.get(t) and heads_a[t] != heads_b[t])
    ]
    return opposite, [t for t in shared if da[t] == db[t]]


def _next_words(sentence: str) -> dict[str, str | None]:
    """For each content stem (first use), the stem of the content word right after it, or
    None when a stopword or punctuation follows (the word ends its phrase)."""
    toks = tokens(sentence)
    out: dict[str, str | None] = {}
    for i, token in enumerate(toks):
        word = token.lower()
        if not re.match(r"\w", word) or word in STOPWORDS or stem(word) in out:
            continue
        nxt = toks[i + 1].lower() if i + 1 < len(toks) else ""
        content = bool(re.match(r"\w", nxt)) and nxt not in STOPWORDS
        out[stem(word)] = stem(nxt) if content else None
    return out


def direction_signal(a: str, b: str) -> Signal | None:
    """An "antonym" signal when more shared words move opposite ways than the same way."""
    opposite, same = direction_conflict(a, b)
    if len(opposite) <= len(same):
        return None
    named = {stem(t.lower()): t for t in reversed(tokens(a))}  # first spelling in ``a``
    return Signal("antonym", "moved opposite ways: " + ", ".join(named[t] for t in opposite[:3]))


# An effect measured as a ratio (odds ratio, hazard ratio, relative risk, rate ratio) says
# which way the outcome moves: above 1 up, below 1 down, when its confidence interval
# excludes 1 ("OR 2.77, 95% CI 1.04 to 7.97" up; "HR 0.76 (0.54-1.06)" says nothing).
_RATIO: Final = re.compile(
    r"(?i:\b(?:odds|hazards?|risk|rate|incidence\s+rate)\s+ratios?\b|\brelative\s+risks?\b)"
    r"|\b(?:a|adj|adjusted\s+)?(?:ORs?|HRs?|RRs?|IRRs?)\b"
)
# Another kind of estimate ends a ratio's list: a difference or an absolute reduction is
# not above or below 1.
_OTHER_MEASURE: Final = re.compile(
    r"\b(?:differences?|ARR|ARI|NNT|mean|means|median|slope|beta|coefficients?)\b", re.I
)
_NUM: Final = r"(\d+(?:[.·]\d+)?)"
_ESTIMATE: Final = re.compile(
    _NUM + r"\s*[;,:]?\s*[(\[]?\s*(?:95\s*%\s*(?:confidence\s+intervals?|CI)?\s*[,:]?\s*"
    r"(?:\[?CI\]?)?\s*[,:=]?\s*)?" + _NUM + r"\s*(?:-|–|—|to)\s*" + _NUM
)


def ratio_estimates(sentence: str) -> list[int]:
    """For each ratio estimate given with its confidence interval: +1 when the interval lies
    above 1, −1 when below, 0 when it spans 1 (no significant effect)."""
    found: list[int] = []
    for mention in _RATIO.finditer(sentence):
        tail = sentence[mention.end() :]
        ends = [m.start() for m in (_OTHER_MEASURE.search(tail), _RATIO.search(tail)) if m]
        for est in _ESTIMATE.finditer(tail[: min(ends, default=len(tail))]):
            value, low, high = (float(g.replace("·", ".")) for g in est.groups())
            if low <= value <= high:  # else not an estimate with its interval
                found.append(1 if low > 1 else -1 if high < 1 else 0)
    return found


def ratio_direction(sentence: str) -> int:
    """+1 when every ratio estimate with a confidence interval that excludes 1 is above 1,
    −1 when every such estimate is below 1, 0 when there is none or they disagree."""
    signs = {e for e in ratio_estimates(sentence) if e}
    return signs.pop() if len(signs) == 1 else 0


def ratio_null(sentence: str) -> bool:
    """The sentence gives ratio estimates and every interval spans 1: no significant effect
    ("relative risk 0.96, 95% CI 0.87 to 1.06")."""
    found = ratio_estimates(sentence)
    return bool(found) and not any(found)


def ratio_conflict(claim: str, sentence: str) -> Signal | None:
    """An "antonym" signal when the sentence's significant ratio estimates move the outcome
    one way and the claim moves the words the two share the other way: "Infection decreases
    the risk of gastric cancer" against "the odds ratio for gastric cancer … was 2.77 (95%
    CI 1.04 to 7.97)". The claim's shared moved words must all go one way (in "lower X
    raises the risk of Y" the exposure and the outcome move differently, and a ratio does
    not say which it measures)."""
    moved = ratio_direction(sentence)
    if not moved:
        return None
    mine = directions(claim)
    theirs = {stem(t.lower()) for t in tokens(sentence)}
    shared = {s: mine[s] for s in mine if s in theirs}
    if not shared or len(set(shared.values())) != 1 or next(iter(shared.values())) == moved:
        return None
    way = "above" if moved > 0 else "below"
    return Signal("antonym", f"ratio {way} 1 against the claim's direction on {min(shared)}")
