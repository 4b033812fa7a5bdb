"""Plain-text analysis for the offline engine: sentences, tokens, key terms, entities.

Everything here is regex and word lists: deterministic, no model, no I/O. Sentences are
returned as exact slices of the input (stripped), so a sentence can be quoted and found again.
"""

from __future__ import annotations

import functools
import re
from typing import Final

from marsa_common.fences import step as fence_step
from marsa_common.stemming import EnglishStemmer


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text`` as a set (for word lists in code)."""
    return frozenset(text.split())


STOPWORDS: Final = word_set("""
a about above after again against all also am an and any are aren't as at be because been
before being below between both but by can can't cannot could couldn't did didn't do does
doesn't doing don't down during each either few for from further had hadn't has hasn't have
haven't having he he'd he'll he's her here here's hers herself him himself his how how's i
i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my
myself neither no nor not of off on once only or other another ought our ours ourselves out over own
same shan't she she'd she'll she's should shouldn't so some such than that that's the their
theirs them themselves then there there's these they they'd they'll they're they've this
those through to too under until up very was wasn't we we'd we'll we're we've were weren't
what what's when when's where where's which while who who's whom why why's will with won't
would wouldn't you you'd you'll you're you've your yours yourself yourselves also among via
per upon whose whether yet still just may might must shall its s t
""") | word_set(
    # Fillers that stress a question without saying what it is about: "has it actually
    # finished?" asks whether it finished, and no answer says "actually".
    "actually really simply basically truly somehow anyway perhaps maybe possibly properly "
    "correctly exactly even ever"
)

# Words that shape a question without saying what it is about.
QUESTION_WORDS: Final = word_set("""
which who whom whose what when where why how many much did does do is are was were tell
explain describe give list name find show know please vs versus compare comparison
difference differences between both either one two
""")

# Words that say which way a comparison goes; they are not search terms.
COMPARATIVE_WORDS: Final = word_set("""
first earlier earliest older oldest later latest newer newest younger youngest recent larger
largest bigger biggest smaller smallest longer longest shorter shortest taller tallest
higher highest lower lowest greater greatest fewer less least more most better best worse
worst faster fastest slower slowest
""")

# Abbreviations after which a full stop does not end a sentence (lower-cased, no final dot).
ABBREVIATIONS: Final = word_set("""
dr mr mrs ms prof sr jr st mt ft vs v etc e.g i.e cf al approx fig figs no nos vol vols ed eds
inc ltd co corp dept univ est gen gov sen rep rev col lt capt sgt jan feb mar apr jun jul
aug sep sept oct nov dec u.s u.k u.n a.m p.m ph.d b.a m.a b.sc m.sc op cit ibid ca c
""")

_STEMMER = EnglishStemmer()

# A sentence may end at . ! ? (optionally followed by closing quotes or brackets) when
# whitespace follows and the next sentence starts with a capital, a digit, or an opening
# quote or bracket. Newlines that separate blocks (blank lines, list items) also end one.
_BOUNDARY: Final = re.compile(r"""[.!?]+["'”’)\]]*(?=\s+["'“‘(]?[A-Z0-9])""")
# Inline code, which may run over a line break: a full stop inside it ends no sentence.
_CODE_SPAN: Final = re.compile(r"``(?:[^`]|`(?!`))+``|`[^`]+`")
_TRAILING_ASIDE: Final = re.compile(r"\s+\([^()\n]{1,40}\)\s*$")  # ends its block
_BLOCK_BREAK: Final = re.compile(r"\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)]|#+)\s)")
MIN_CELL_WORDS: Final = 8
_TABLE_ROW: Final = re.compile(r"^\s*\|")
_LEAD_MARKER: Final = re.compile(r"^(?:[-*•+>]|\d{1,2}[.)])\s+")
_LAST_WORD: Final = re.compile(r"([A-Za-z][A-Za-z.]*)\.$")
_WORD: Final = re.compile(r"[A-Za-z0-9]+(?:['’.\-][A-Za-z0-9]+)*")
_NUMBER: Final = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])\d+(?:\.\d+)?")
_YEAR: Final = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")
_QUOTED: Final = re.compile(r"[\"“]([^\"”]{2,80})[\"”]|(?<!\w)'([^']{2,80})'(?!\w)")
_SPAN_TOKEN: Final = re.compile(r"[\w'’\-&.]+")
_CONNECTORS: Final = frozenset({"of", "for", "the", "&", "de", "von", "van", "der", "du", "la"})
# Capitalised words that open a question or sentence but are not names.
_NOT_NAMES: Final = STOPWORDS | QUESTION_WORDS | {"yes", "no", "in", "on", "at", "the"}


def split_sentences(text: str) -> list[str]:
    """Split text into sentences, each an exact (stripped) slice of ``text``.

    Does not split after abbreviations ("Dr.", "e.g.", "U.S."), single-letter initials
    ("J. R. R. Tolkien") or inside decimals ("3.5"). Blank lines and list items start new
    sentences; a list bullet or number is left out. Each cell of a Markdown table row is read
    on its own (a cell under :data:`MIN_CELL_WORDS` words is left out), and code fences are
    skipped.
    """
    sentences: list[str] = []
    for block in _blocks(text):
        start = 0
        code = [m.span() for m in _CODE_SPAN.finditer(block)]
        for match in _BOUNDARY.finditer(block):
            end = match.end()
            if any(a < match.start() < b for a, b in code):
                continue  # "``Dynamically generated function. No source code available``"
            if is_abbreviation(block[start : match.start() + 1]) and not _ends_at_etc(
                block[start : match.start() + 1], block[end:]
            ):
                continue
            if _TRAILING_ASIDE.match(block, end):
                continue  # "The current iteration of the loop. (0 indexed)" is one statement
            _append(sentences, block[start:end])
            start = end
        _append(sentences, block[start:])
    return sentences


def _ends_at_etc(before: str, after: str) -> bool:
    """Does a sentence end at "etc." ("… or the scheduler missing jobs, etc. This is because
    …"): the next word is a capitalised pronoun pointing back ("This", "It", "They"), which
    no list goes on with? (Kept to those: a shorter sentence is not always a better one.)"""
    return before.rstrip().lower().endswith("etc.") and bool(_POINTS_BACK.match(after))


_POINTS_BACK: Final = re.compile(r"\s*(?:This|That|These|Those|It|They)\b")


def _blocks(text: str) -> list[str]:
    """Prose paragraphs and list items; each cell of a Markdown table row on its own; code
    fences and what they hold left out (they are not statements to quote)."""
    blocks: list[str] = []
    prose_start: int | None = None
    open_fence: str | None = None
    position = 0
    for line in text.splitlines(keepends=True):
        start, position = position, position + len(line)
        in_fence = open_fence is not None
        open_fence, fence = fence_step(line, open_fence)
        row = not in_fence and not fence and _TABLE_ROW.match(line) is not None
        if not (fence or in_fence or row):
            prose_start = start if prose_start is None else prose_start
            continue
        if prose_start is not None:
            blocks += _prose_blocks(text[prose_start:start])
            prose_start = None
        if row:
            # A short cell is a label or a value ("module", "0.88"), not a statement.
            blocks += [cell for cell in line.split("|") if len(cell.split()) >= MIN_CELL_WORDS]
    if prose_start is not None:
        blocks += _prose_blocks(text[prose_start:])
    return blocks


def _prose_blocks(text: str) -> list[str]:
    blocks, start = [], 0
    for match in _BLOCK_BREAK.finditer(text):
        blocks.append(text[start : match.start()])
        start = match.end()
    blocks.append(text[start:])
    return blocks


def _append(sentences: list[str], piece: str) -> None:
    # A list bullet, number or quote mark opening a block is not part of the sentence.
    piece = _LEAD_MARKER.sub("", piece.strip()).strip()
    if any(ch.isalnum() for ch in piece):
        sentences.append(piece)


def is_abbreviation(head: str) -> bool:
    """True when the full stop ending ``head`` belongs to an abbreviation or an initial."""
    if not head.endswith("."):
        return False
    match = _LAST_WORD.search(head)
    if match is None:
        return False
    word = match.group(1)
    if (len(word) == 1 and word.isupper()) or re.fullmatch(r"(?:[A-Za-z]\.)+[A-Za-z]", word):
        return True  # an initial ("J. Smith"), dotted initials ("T.S. Eliot", "U.S.", "e.g.")
    return word.lower() in ABBREVIATIONS


def words(text: str) -> list[str]:
    """Lower-cased word tokens (keeps "don't", "3.5", "gpt-4" whole)."""
    return [w.lower().replace("’", "'") for w in _WORD.findall(text)]


def stem(word: str) -> str:
    """The Snowball (Porter 2) stem of a lower-cased word, British spellings as American."""
    return str(_STEMMER.stemWord(word))


def content_words(text: str) -> list[str]:
    """Word tokens that are not stopwords, in order (duplicates kept)."""
    return [w for w in words(text) if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]


@functools.lru_cache(maxsize=4096)
def content_stems(text: str) -> frozenset[str]:
    """The stems of a text's content words."""
    return frozenset(stem(w) for w in content_words(text))


def part_stems(text: str) -> frozenset[str]:
    """Content stems, with the parts of joined words too ("source-quality", "max_connections",
    "scoring.py", "PrintLogger")."""
    return (
        content_stems(text)
        | content_stems(re.sub(r"[-_./]", " ", text))
        | content_stems(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text))  # "PrintLogger"
    )


def overlap(terms: list[str] | frozenset[str], text: str) -> float:
    """Fraction of ``terms`` (words) whose stem or 5-letter prefix occurs in ``text``."""
    if not terms:
        return 0.0
    stems = content_stems(text)
    prefixes = {s[:5] for s in stems if len(s) >= 5}
    hits = 0
    for term in terms:
        s = stem(term.lower())
        if s in stems or (len(s) >= 5 and s[:5] in prefixes):
            hits += 1
    return hits / len(terms)


_AS_WELL: Final = re.compile(r"\bas well(?:\s+as)?\b", re.I)


def key_terms(question: str, exclude: list[str] | None = None) -> list[str]:
    """The words a search for ``question`` needs: content words minus question and
    comparison words (and minus the words of ``exclude``), de-duplicated, in order."""
    excluded = {w.removesuffix("'s") for phrase in exclude or [] for w in words(phrase)}
    terms: list[str] = []
    question = _AS_WELL.sub(" ", question)  # "make -h work as well as --help": no "well"
    for word in content_words(question):
        word = word.removesuffix("'s")
        if word in QUESTION_WORDS or word in COMPARATIVE_WORDS or word in excluded:
            continue
        if word not in terms:
            terms.append(word)
    return terms


def years(text: str) -> list[int]:
    """Four-digit years (1000–2099) in order of appearance."""
    return [int(y) for y in _YEAR.findall(text)]


def numbers(text: str) -> list[tuple[float, int, int]]:
    """Numbers as (value, start, end) offsets; "1,200" is 1200."""
    return [(float(m.group().replace(",", "")), m.start(), m.end()) for m in _NUMBER.finditer(text)]


def quoted_strings(text: str) -> list[str]:
    """Strings in double quotes (or single quotes not used as apostrophes)."""
    return [a or b for a, b in _QUOTED.findall(text)]


def capitalised_spans(text: str) -> list[str]:
    """Runs of capitalised words ("First for Women", "Guido van Rossum"), in order.

    Lower-case connectors ("of", "for", "van") join capitalised words; numbers that lead
    into a name join it ("888 7th Avenue"); a leading question word or article is dropped;
    a trailing possessive "'s" is removed.
    """
    return list(_spans(text))


@functools.lru_cache(maxsize=8192)
def _spans(text: str) -> tuple[str, ...]:
    spans: list[str] = []
    for sentence in split_sentences(text) or [text]:
        tokens = [(m.group(), m.start(), m.end()) for m in _SPAN_TOKEN.finditer(sentence)]
        name = _name_like(tokens)
        i = 0
        while i < len(tokens):
            if not name[i]:
                i += 1
                continue
            j = i + 1
            while j < len(tokens) and _adjacent(sentence, tokens[j - 1], tokens[j]):
                if name[j]:
                    j += 1
                elif (
                    tokens[j][0] in _CONNECTORS
                    and j + 1 < len(tokens)
                    and name[j + 1]
                    and _adjacent(sentence, tokens[j], tokens[j + 1])
                ):
                    j += 2
                else:
                    break
            start = i
            while (
                start < j and len(tokens[start][0]) > 1 and tokens[start][0].lower() in _NOT_NAMES
            ):
                start += 1
            if start < j:
                # A name wrapped over two lines is one name: "GitHub\nPages" is "GitHub Pages".
                span = " ".join(sentence[tokens[start][1] : tokens[j - 1][2]].split()).rstrip(".")
                span = re.sub(r"['’]s$", "", span)
                if span not in spans and len(span) > 1 and not span.isdigit():
                    spans.append(span)
            i = j
    return tuple(spans)


def _adjacent(sentence: str, left: tuple[str, int, int], right: tuple[str, int, int]) -> bool:
    """Only spaces between two tokens: a comma or bracket ends a name."""
    return sentence[left[2] : right[1]].isspace()


def _generic(word: str) -> bool:
    """A capitalised word that is not a name by itself ("The", "Which", "Is")."""
    return len(word) > 1 and word.lower() in _NOT_NAMES


def _name_like(tokens: list[tuple[str, int, int]]) -> list[bool]:
    """Per token: may it be part of a name? Capitalised words (a question word or article
    only at a span's start), and non-year numbers that lead into a capitalised word."""
    flags = [t[0][0].isupper() for t in tokens]
    generic = [_generic(t[0]) for t in tokens]
    for k in range(1, len(tokens)):
        # "Is Python older" starts a span at "Is"; inside a span, "The" or "Is" ends it.
        if flags[k] and generic[k] and flags[k - 1]:
            flags[k] = False
    for k in range(len(tokens) - 2, -1, -1):
        word = tokens[k][0]
        if word[0].isdigit() and not _YEAR.fullmatch(word):
            flags[k] = flags[k + 1] and not generic[k + 1]
    return flags


def entity_candidates(text: str) -> list[str]:
    """Names a text mentions: quoted strings, capitalised spans, then years, in order."""
    found: list[str] = []
    for item in [*quoted_strings(text), *capitalised_spans(text), *map(str, years(text))]:
        item = item.strip()
        if item and item.lower() not in {f.lower() for f in found}:
            found.append(item)
    return found


def mentions(text: str, entity: str) -> bool:
    """True when ``text`` names ``entity``: the whole name, or most of its content words."""
    if entity.lower() in text.lower():
        return True
    # "kombu.simple.SimpleQueue" is named `SimpleQueue` on the page (Sphinx's ``~`` shows a
    # dotted path by its last part): a last part that is a code name, not a plain word
    dotted = re.fullmatch(r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+", entity.strip("`"))
    if dotted:
        last = entity.strip("`").rsplit(".", 1)[-1]
        if len(last) >= 4 and re.search(r"[a-z][A-Z]|_", last):
            return re.search(rf"(?<![\w.]){re.escape(last)}(?!\w)", text) is not None
    if re.fullmatch(r"[\w.]*[a-z0-9][_.][\w.]*", entity.strip("`"), re.I):
        return False  # `include_object` is a name: "objects" and "include_schemas" are not it
    terms = [w for w in words(entity) if w not in STOPWORDS]
    return bool(terms) and overlap(terms, text) >= 0.67


def normalise(text: str) -> str:
    """Lower-case, single-spaced: for comparing texts."""
    return " ".join(words(text))
