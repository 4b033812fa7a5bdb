"""One English stemmer for the keyword index and the offline engine, spelling-blind.

Documentation is written in American or British spelling and questions in either: "Which
variable turns off the colours?" must meet "colors", "customise" must meet "customize".
Snowball stems each spelling to a different stem ("colour"/"color", "customis"/"custom"), so
a British word is brought to its American spelling before stemming. The rules are the
regular ones (-our, -ise/-isation, -yse, -tre, -ogue, -ence, doubled l); each side of a
comparison goes through the same function, so a rule can only join two spellings of one
word, never split one.
"""

from __future__ import annotations

import functools
import re
from typing import Final

import Stemmer


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# -our words (not "four", "hour", "tour", "your", "pour", "flour", "contour"…).
_OUR: Final = _words(
    "colour behaviour favour honour flavour labour neighbour humour harbour rumour armour "
    "vapour odour endeavour parlour savour splendour vigour rigour tumour valour clamour "
    "candour fervour"
)
_OUR_FORM: Final = re.compile(
    r"^(?P<base>[a-z]+our)(?P<tail>s|ed|ing|ful|ite|ites|less|able|ably|er|ers)?$"
)
# -ise/-isation: "customise", "initialised", "serialisation", "organisers".
_ISE: Final = re.compile(r"^(?P<base>[a-z]{3,})is(?P<tail>e|es|ed|ing|er|ers|ation|ations|able)$")
_YSE: Final = re.compile(r"^(?P<base>[a-z]{2,}l)ys(?P<tail>e|es|ed|ing|er|ers)$")  # analyse
_TRE: Final = _words("centre centres fibre fibres theatre theatres litre litres calibre")
_OGUE: Final = _words("catalogue catalogues dialogue dialogues analogue analogues")
_ENCE: Final = {"licence": "license", "licences": "licenses", "defence": "defense",
                "offence": "offense", "pretence": "pretense"}  # fmt: skip
# Doubled l before -ed/-ing/-er ("cancelled", "labelling", "modeller"); listed, since
# "filled" is not "filed".
_DOUBLE_L: Final = _words(
    "cancel label model travel signal level marshal channel tunnel fuel counsel total "
    "dial enrol instal equal"
)
_DOUBLE_L_FORM: Final = re.compile(r"^(?P<base>[a-z]+)ll(?P<tail>ed|ing|er|ers|ation)$")
# -ise words that are not the British form of an -ize word.
_NOT_ISE: Final = _words(
    "advise advised advises advising advertise advertised advertising arise arises "
    "arising comprise comprised comprises comprising compromise compromised compromises "
    "compromising concise despise devise devised devising disguise disguised enterprise "
    "enterprises excise exercise exercised exercises exercising expertise franchise "
    "improvise improvised merchandise noise otherwise paradise precise premise premises "
    "promise promised promises promising raise raised raises raising revise revised "
    "revises revising rise rises rising supervise supervised supervising surprise "
    "surprised surprises surprising televise wise likewise clockwise praise praised "
    "chastise"
)


@functools.lru_cache(maxsize=16384)
def american(word: str) -> str:
    """The American spelling of a lower-cased British word ("colours" → "colors"); other
    words unchanged."""
    if word in _NOT_ISE or len(word) < 5:
        return word
    if (m := _OUR_FORM.match(word)) and m.group("base") in _OUR:
        return m.group("base")[:-3] + "or" + (m.group("tail") or "")
    if word in _TRE:
        return re.sub(r"tre(s?)$", r"ter\1", word)
    if word in _OGUE:
        return re.sub(r"ogue(s?)$", r"og\1", word)
    if word in _ENCE:
        return _ENCE[word]
    if (m := _DOUBLE_L_FORM.match(word)) and m.group("base") + "l" in _DOUBLE_L:
        return m.group("base") + "l" + m.group("tail")
    if m := _ISE.match(word):
        return f"{m.group('base')}iz{m.group('tail')}"
    if m := _YSE.match(word):
        return f"{m.group('base')}yz{m.group('tail')}"
    return word


class EnglishStemmer:
    """Snowball English after :func:`american`; has PyStemmer's ``stemWord``/``stemWords``
    so bm25s takes it as it is."""

    def __init__(self) -> None:
        self._snowball = Stemmer.Stemmer("english")

    def stemWord(self, word: str) -> str:  # noqa: N802 - PyStemmer's interface
        return str(self._snowball.stemWord(american(word)))

    def stemWords(self, words: list[str]) -> list[str]:  # noqa: N802
        return [str(s) for s in self._snowball.stemWords([american(w) for w in words])]
