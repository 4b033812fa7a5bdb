"""Answer-bearing passages: one sentence, or two or three consecutive sentences of a source,
or a lead-in line with the list that follows it.

Every passage is a verbatim slice of its source's text (``quote``), so it can be cited and
checked; ``text`` is what a reader sees (markup removed). Sentences that cannot answer
anything are left out: headings, bylines and other "Label: value" metadata lines, front
matter, table fragments, MDX imports and exports, code prompts, markup with few words, and a
line ending in ':' (unless its list is taken with it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Final, NamedTuple

from backend.reasoning.models import Source
from backend.reasoning.offline.claims import LEANS_ON_CONTEXT
from backend.reasoning.offline.markup import plain
from backend.reasoning.offline.text import part_stems, split_sentences, word_set, words
from marsa_common.text import RELEASE_HEADING

MAX_WINDOW: Final = 3
MAX_LIST_ITEMS: Final = 12
MIN_WORDS: Final = 4
MAX_WORDS: Final = 120
_BULLET_LINE: Final = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)])\s+")
_LABEL: Final = re.compile(
    r"^\W{0,3}(?:\*\*|__)?[A-Za-z][\w ()/-]{0,30}(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\S"
)
_METADATA: Final = re.compile(
    r"^\W{0,3}(?:authors?|author\(s\)|by|status|created|updated|last updated|date|version|"
    r"type|category|tags?|title|slug|sidebar\w*|discussions?-to|requires|replaces|"
    r"superseded-by|editors?|maintainers?|license|copyright|sep|pep|rfc)(?!\w)\W{0,3}\s*[:|]",
    re.I,
)
DEFAULT_LINE: Final = re.compile(r"^\W{0,3}default(?: value)?\W{0,3}\s*:\s*\S", re.I)
_NAME_ONLY: Final = re.compile(r"^\s*`[^`\s]+`[.:]?\s*$")
# A directive's name and target as text ("Setting task_allow_error_cb_on_chord_header", from
# Celery's ``.. setting::`` target): a kind and a code name, no statement
_KIND_AND_NAME: Final = re.compile(r"^\s*[A-Z][a-z]+\s+`?(?=[\w.]*[_.])[A-Za-z_][\w.]*\w`?\s*$")
# an image, or an image that is a link: "[![PyPI version](https://img.shields.io/…)](https://pypi.org/…)"
_IMAGE: Final = re.compile(r"\[?!\[[^\]]*\]\([^)\s]*\)(?:\]\([^)\s]*\))?")
_NOT_PROSE: Final = re.compile(r"^\s*(?:import|export)\s|^\s*(?:>>>|\$ |\.\.\. |---$|\+\+\+)")
MAX_CODE_LINES: Final = 4  # lines of a code passage's text (what it is scored on)
MAX_WHOLE_EXAMPLE: Final = 8  # an example of at most this many lines is shown whole
MAX_JOINED_BLOCKS: Final = 3  # code blocks one after another, nothing between, read as one
MAX_WHOLE_LINES: Final = 14  # … with its comments and closing lines, this many at most
MAX_RECIPE_LINES: Final = 30  # the example answering "how do I …" is shown whole up to this
MAX_RECIPE_WHOLE_LINES: Final = 45  # … with its comments and closing lines
_IMPORT: Final = re.compile(
    r"^(?:from\s+\S+\s+)?import\s|^(?:const|let|var)\s+\{?[\w, ]+\}?\s*=\s*require\("
)
_CHANGE_VERBS: Final = (
    r"(?:add|added|fix|fixed|remove|removed|change|changed|deprecate|deprecated|support|"
    r"allow|bump|update|updated|drop|dropped|raise|make|don't|do not|use|move|rename|improve|"
    r"introduce)\b"
)
_CHANGELOG: Final = re.compile(
    r"^\W*" + _CHANGE_VERBS + r"(?:[^.]|\.(?=\w)){0,120}(?:#\d+|\.)?\s*$",  # ("Add `a.b.c`.")
    re.I,
)
# In release notes, an entry of any length opens with its change ("Fixed processes spawned by
# `anyio.to_process()` being "lost" … when processes that have idled over 5 minutes …"),
# perhaps after a tag ("BACKWARDS INCOMPATIBLE Removed …")
# a tag in capitals before a release note's change ("BACKWARDS INCOMPATIBLE Removed …"), if any
CHANGE_TAG: Final = r"(?:(?-i:[A-Z]{2,}(?:\s+[A-Z]{2,})*):?\s+)?"
_CHANGE_ENTRY: Final = re.compile(r"^\W*" + CHANGE_TAG + _CHANGE_VERBS, re.I)
_FENCED: Final = re.compile(
    # (a fence closes with a run of its own character at least as long, alone on its line:
    # "```` md-render" holds "``` { .html }" and its "```")
    r"[ \t]*\n\s*(?P<fence>`{3,}|~{3,})[^\n]*\n(?P<body>.*?)"
    r"(?:\n[ \t]*(?P=fence)[`~]*[ \t]*(?=\n|\Z)|\Z)",
    re.S,
)
# A note that only says where the same thing lives in another interface: "Note: In the CLI:
# sqlite-utils create-index and sqlite-utils drop-index", "In Python: table.upsert() CLI
# reference: sqlite-utils upsert". It names, it states nothing.
_CROSS_REFERENCE: Final = re.compile(
    r"^\W*(?:(?:note|see also|tip)\s*:\s*)?(?:in\s+(?:the\s+)?(?:cli|command[- ]line|python|"
    r"python api|api)|(?:cli|api|python)\s+reference)\s*:",
    re.I,
)
_GAP_BREAKS: Final = re.compile(r"```|~~~|^\s{0,3}#{1,6}\s|^\s*\|", re.M)


@dataclass(slots=True)
class Passage:
    """A stretch of one source that may answer the question."""

    source: Source
    sentences: list[str]  # verbatim, in order
    quote: str  # the verbatim slice of source.text the passage covers
    text: str  # what a reader sees
    first: int  # index of the first sentence among the source's usable sentences
    is_list: bool = False
    is_code: bool = False  # a lead-in with the code block that follows it
    is_changelog: bool = False  # a release-note entry ("Add `x` #123"), not an explanation
    is_defaults: bool = False  # "the defaults are equivalent to:" with the whole code block
    before_code: bool = False  # prose ending in the lead-in to code, without the code
    section: str = ""  # the heading of the section it sits in (what "this class" refers to)
    code: tuple[str, ...] = ()  # a code passage's lines (all of them; ``text`` shows a few)
    block: tuple[str, ...] = ()  # those lines as written (indented), for showing as a block
    breaks: tuple[bool, ...] = ()  # per line of ``block``: a blank line before it as written
    whole: tuple[str, ...] = ()  # every line of the example as written (comments, closers)
    whole_breaks: tuple[bool, ...] = ()  # per line of ``whole``: a blank line before it
    lead: str = ""  # a code passage's lead-in as a reader sees it
    label: str = ""  # the term of the list item it sits in, when it starts after it
    intro: str = ""  # the lead-in line of the list it sits in ("Black will exit with:")
    start: int = -1  # offset of ``quote`` in the source's text
    whole_section: bool = False  # every sentence of a short section (``sections``)
    session: bool = False  # a `>>>` session no sentence leads into, led by its heading


@dataclass(slots=True)
class _Sentence:
    text: str
    start: int
    end: int
    item: int  # offset of the list item's bullet line the sentence sits in; -1 outside a list
    lead_in: bool  # ends with ':' (introduces what follows)
    usable: bool
    goes_on: bool = False  # the rest of a sentence a code block interrupted: no passage starts here
    bare: bool = False  # a noun phrase its list's lead-in lists: read only with its list


def breaks_between(text: str) -> bool:
    """Does the text between two sentences hold a code fence, a heading or a table row?"""
    return _GAP_BREAKS.search(text) is not None


def sentences_of(source: Source) -> list[_Sentence]:
    """The source's sentences in order, each with its offsets and whether it can answer."""
    found: list[_Sentence] = []
    position = 0
    text = source.text
    led = False  # the last sentence outside a list ends with ':' (it leads the list after it)
    for sentence in split_sentences(text):
        start = text.find(sentence, position)
        if start < 0:
            continue
        end = start + len(sentence)
        position = end
        stripped = sentence.rstrip()
        # (a paragraph that ends in a comma right before code leads into it as ':' does:
        # "… should be changed from an (unordered) set to an ordered set," and the code)
        leads = stripped.endswith(":") or (
            stripped.endswith(",") and _FENCED.match(text, end) is not None
        )
        item = _item_of(text, start)
        if item < 0:
            led = leads
        # A bare noun phrase, one of the things its list's lead-in lists, is no statement:
        # "the value of a variable is the first of: - Value of that variable in the `.env`
        # file." reads only with its list.
        bare = item >= 0 and led and _bare_item(text, item, sentence)
        found.append(
            _Sentence(
                text=sentence,
                start=start,
                end=end,
                item=item,
                lead_in=leads,
                usable=answerable(sentence)
                and not _in_table(text, start)
                # (a bare condition is a statement neither as a list item nor as the lead-in
                # to code: "When nginx handles SSL and forwards to Gunicorn:" shows with it)
                and not ((item >= 0 or leads) and clause_only(sentence))
                and not bare,
                goes_on=_continues_code(text, start, sentence),
                bare=bare,
            )
        )
    return found


def bare_list_item(source: Source, sentence: str) -> bool:
    """Is the sentence, where the source has it, only a noun phrase of a list (see
    :func:`sentences_of`)? Not a finding a reader can take on its own."""
    wanted = sentence.strip()
    return any(s.bare and s.text.strip() == wanted for s in sentences_of(source))


# Words that make a clause of a phrase: an auxiliary or modal, a subject pronoun.
_CLAUSE_WORDS: Final = word_set(
    "is are was were be been being am has have had do does did can could will would shall "
    "should may might must it they you we he she i there isn aren doesn don didn wasn won "
    "shouldn"
)
# Words a verb takes as its object's first word ("returns the …", "parametrizes all …").
_OBJECT_OPENERS: Final = word_set(
    "the a an your its their this that these those all each every some any no it them you to"
)
MAX_PHRASE_WORDS: Final = 15
# Verbs an instruction opens with ("Use `dict` for TOML tables.", "Commit, and send a Pull
# Request."): a statement, not a noun phrase.
_INSTRUCTIONS: Final = word_set(
    "use add set run install create make check commit send call pass import define write "
    "read open close start stop enable disable configure remove delete replace change update "
    "see note ensure avoid keep put give get return register mount wrap apply choose select "
    "specify provide include exclude follow try turn switch source clone fork build test "
    "deploy generate copy move edit store save load raise catch handle skip ignore upgrade "
    "downgrade restart reload point prefer"
)
# An item that opens with a term it defines: "- `max_age` - Session expiry time …", "- **Decline**
# (…): …", "- Cancel: …" (the entry of a definition list, an answer as it stands).
_TERM_ITEM: Final = re.compile(
    r"^[ \t]*(?:[-*+]|\d{1,2}[.)])[ \t]+(?:[`*\[]|[^\n]*?(?:[ \t][-–—][ \t]|:))", re.M
)


def _bare_item(text: str, item: int, sentence: str) -> bool:
    """Is the sentence a list item that is only a noun phrase, one of the things its lead-in
    lists (no term it defines, no number: "Maximum 100 items per response" is a value)?"""
    return (
        _TERM_ITEM.match(text, item) is None
        and not any(ch.isdigit() for ch in sentence)
        and verbless(sentence)
    )


def verbless(sentence: str) -> bool:
    """Is the sentence a bare noun phrase ("The `HATCH_INDEX_USER` environment variable.",
    "Value of that variable in the `.env` file.")? A guess without a tagger: no auxiliary,
    modal or subject pronoun, no imperative opening ("Source the file …"), and no word
    ending like a verb ("-s", "-ed") followed by an object's first word."""
    shown = re.sub(r"`[^`]*`", " code ", plain(sentence))
    said = [w.lower() for w in re.findall(r"[A-Za-z]+", shown)]
    if not said or len(said) > MAX_PHRASE_WORDS or _CLAUSE_WORDS & set(said):
        return False
    if said[0] in _INSTRUCTIONS or (
        len(said) > 1 and said[0] not in _OBJECT_OPENERS and said[1] in _OBJECT_OPENERS
    ):
        return False  # "Use `dict` for TOML tables.", "Source the file in `~/.zshrc`."
    return not any(
        re.search(r"(?:[^s]s|ed)$", w) and nxt in _OBJECT_OPENERS
        for w, nxt in zip(said, said[1:], strict=False)
    )


# A list item that is only the condition of what its lead-in says ("Starlette uses a thread
# pool in several scenarios: - When you create a synchronous endpoint using `def` …"): no
# statement without its list.
_CONDITION: Final = re.compile(
    r"(?:when|whenever|if|once|while|where|unless|before|after|until)\b", re.I
)
_MAIN_CLAUSE_MARK: Final = re.compile(r"[,;:]|\bthen\b")
MAX_CLAUSE_WORDS: Final = 14


def clause_only(sentence: str) -> bool:
    """Is the sentence only a condition, with no statement after it ("When nginx handles
    SSL and forwards to Gunicorn.")?"""
    shown = plain(sentence).strip().rstrip(":.")
    return (
        bool(_CONDITION.match(shown))
        and not _MAIN_CLAUSE_MARK.search(shown)
        and len(words(shown)) <= MAX_CLAUSE_WORDS
    )


# A lower-case verb or relative word can only go on with a sentence begun before a code block:
# "For example, this template:" ``…`` "gets rendered with blank lines inside the div:".
_GOES_ON: Final = re.compile(
    r"(?:which|that|would|will|could|should|can|may|might|must|does|do|did|is|are|was|were|"
    r"gets|get|becomes|produces|returns|renders|prints|outputs|yields|gives|results|"
    r"and|or|but|then|where|whereas)\b"
)
_ENDS_WITH_CODE: Final = re.compile(r"(?:```|~~~)[ \t]*\n\s*$")


def _continues_code(text: str, start: int, sentence: str) -> bool:
    """Is the sentence the rest of one a code block interrupted (it opens with a lower-case
    verb or "which" right after the block)? It says nothing a reader can follow alone."""
    return bool(_GOES_ON.match(sentence.lstrip())) and bool(
        _ENDS_WITH_CODE.search(text[max(0, start - 12) : start])
    )


def _in_table(text: str, start: int) -> bool:
    """Is the sentence a cell of a Markdown table row? (A fragment, not a statement.)"""
    line_start = text.rfind("\n", 0, start) + 1
    return text[line_start:start].lstrip().startswith("|")


def _item_of(text: str, start: int) -> int:
    """The offset of the bullet line of the list item holding ``start`` (walking back over
    the item's wrapped lines, not past a blank line), or -1."""
    line_start = text.rfind("\n", 0, start) + 1
    while True:
        line = text[line_start : text.find("\n", line_start) if "\n" in text[line_start:] else None]
        if _BULLET_LINE.match(line):
            return line_start
        if line_start == 0 or not line.strip():
            return -1
        previous = text.rfind("\n", 0, line_start - 1) + 1
        if not text[previous : line_start - 1].strip():
            return -1  # a blank line before: the paragraph is not a list item
        line_start = previous


# A document of release notes ("Release Notes", "Changelog", "History", "What's New") and a
# change entry's reference to its issue or pull request ("#123", "[#2375](…)").
_RELEASE_NOTES: Final = re.compile(
    r"\b(?:release[ -]?notes|change[ -]?log|changes|history|news|what['’]s new)\b", re.I
)
_ISSUE_REF: Final = re.compile(r"(?:^|[\s(\[])#\d+\b|/(?:pull|issues)/\d+")


def is_changelog(sentence: str) -> bool:
    """A release-note entry: a short line opening with a change verb ("Add `x`", "Fix y #12")."""
    return len(words(sentence)) <= 16 and bool(_CHANGELOG.match(sentence.strip()))


def release_notes(source: Source) -> bool:
    """Is the document release notes, by its title or its file's name ("NEWS", stored before
    a changelog was titled by its name, is titled "Version 4.0.0 (2026-11-01)")?"""
    name = PurePath(source.path or "").stem
    return bool(_RELEASE_NOTES.search(source.title) or _RELEASE_NOTES.search(name))


def release_entry(sentence: str, title: str) -> bool:
    """Is the sentence an entry of release notes ("Replace `requests` with `httpx` in
    `TestClient` #1376." in "Release Notes") rather than an explanation?"""
    return _change_entry(sentence, bool(_RELEASE_NOTES.search(title)))


def _change_entry(opening: str, notes: bool) -> bool:
    ref = bool(_ISSUE_REF.search(opening))
    return (
        # ("Use `session.notify` …" in a guide is an instruction)
        (is_changelog(opening) and (notes or ref))
        or (notes and bool(_CHANGE_ENTRY.match(opening)))
        # ("Schedule `BackgroundTasks` from within … [#2688](…)" in the release notes)
        or (notes and ref)
    )


_BARE_LINK: Final = re.compile(r"\W*<?(?:https?://|www\.)\S+?>?\W*")


_SMALL_WORDS: Final = word_set("a an and as at by for from in into of on or the to vs via with")


def _is_title(shown: str) -> bool:
    """Is the line a title (every word but the small ones capitalised, no closing stop):
    "Tour of Python Itertools (Alternate)", not "Python 3.9 support was dropped"?"""
    text = shown.strip()
    if not text or text[-1] in ".!?:;," or "`" in text:
        return False
    tokens = re.findall(r"[A-Za-z][\w'-]*", text)
    content = [t for t in tokens if t.lower() not in _SMALL_WORDS]
    return len(content) >= 3 and all(t[0].isupper() for t in content)


def answerable(sentence: str) -> bool:
    """Could this sentence state an answer? (Not a heading, byline, label, table fragment,
    import, code prompt or markup with few words.)"""
    first_line = sentence.lstrip().splitlines()[0] if sentence.strip() else ""
    if first_line.startswith("#") or "|" in sentence or _NOT_PROSE.search(sentence):
        return False
    if _METADATA.match(sentence):
        return False
    if not _IMAGE.sub("", sentence).strip(" \n[]()"):
        return False  # a row of badges ("[![PyPI version](…svg)](…) [![codecov](…)](…)")
    shown = plain(sentence)
    if _CROSS_REFERENCE.match(shown):
        return False
    if shown.rstrip().endswith("?"):
        return False  # "How will the `image_id` field … become a `UUID`?": asks, states nothing
    if DEFAULT_LINE.match(sentence):
        return True  # "Default: `False`" under the setting's name states its value
    if _NAME_ONLY.match(sentence) or _KIND_AND_NAME.match(sentence):
        return False  # "`render_to_log_kwargs`": an API page's bare entry names, says nothing
    if _BARE_LINK.fullmatch(shown):
        return False  # "https://github.com/…/wiki/Who's-using-marshmallow%3F": an address
    n = len(words(shown))
    if n < MIN_WORDS or n > MAX_WORDS:
        return False
    if _is_title(shown):
        return False  # "Real-World Python More Itertools": a page's title in a list of links
    label = _LABEL.match(sentence)
    if label and len(words(plain(sentence[label.end() - 1 :]))) < MIN_WORDS:
        return False  # "**Author(s)**: Jane Doe", "Type: Standards Track"
    letters = sum(ch.isalnum() for ch in sentence)
    return letters >= 0.5 * len(sentence.replace(" ", ""))


def passages(source: Source) -> list[Passage]:
    """Every passage of a source: windows of 1–3 consecutive usable sentences (not across a
    code block, heading or table), and each lead-in line with the list items after it."""
    sentences = sentences_of(source)
    spans = chunk_spans(source)
    out: list[Passage] = []
    for i, first in enumerate(sentences):
        if first.goes_on:
            continue
        code = _code_after(source.text, first)
        if code is not None:
            out += _code_passages(source, sentences, i, code, spans)
            if _DEFAULTS_LEAD_IN.search(first.text):
                out += _defaults_passage(source, first, i)
        if first.lead_in:
            listed = _list_after(source, sentences, i, spans, least=1)
            items = (
                (listed if len(listed) >= 2 else [])
                or _list_round_code(source, sentences, i, spans)
                # ("… can handle the following type:" and its one item)
                or (listed if _unfinished(first) else [])
            )
            if items:  # the list answers, with its lead-in; the lead-in alone does not
                out.append(_list_passage(source, first, items, i))
                out += _list_with_context(source, sentences, items, i)
            elif _states(first):
                # "Starlette only requires `anyio`, and these are optional:" says something
                # itself; shown as a statement, not as a line ending in ':'.
                shown = plain(first.text).rstrip(":, ") + "."
                lone = Passage(source, [first.text], first.text, shown, first=i)
                out.append(_with_its_code(lone, first, source.text, code))
            continue
        out += _list_under_heading(source, sentences, i, spans)
        if not first.usable:
            continue
        out += _list_pointed_at(source, sentences, i, spans)
        out += _paragraph_before_list(source, sentences, i, spans)
        out += _before_object_entry(source, sentences, i)
        window = [first]
        for nxt in sentences[i + 1 : i + MAX_WINDOW]:
            gap = source.text[window[-1].end : nxt.start]
            same_block = nxt.item == first.item and "\n\n" not in gap
            if _GAP_BREAKS.search(gap) or not (nxt.usable or same_block):
                break
            if nxt.item != first.item:
                break
            # The text joins a document's chunks without their headings: a window stays in
            # its section ("default: `edit/master/docs/`" ends one option's entry).
            if source.chunks and section_at(source, spans, nxt.start, nxt.text) != section_at(
                source, spans, first.start, first.text
            ):
                break
            if nxt.lead_in:
                # "… matching on the whole host names instead of just the subdomain. To enable
                # this feature you need to pass `host_matching=True` …:" ends a window: a
                # lead-in to code that says something itself is read with what "this feature"
                # is. (The lead-in of a list is answered with its list.)
                if _states(nxt) and _code_after(source.text, nxt) is not None:
                    window.append(nxt)
                break
            window.append(nxt)
        for size in range(1, len(window) + 1):
            members = window[:size]
            quote = source.text[members[0].start : members[-1].end]
            shown = plain(quote)
            if size > 1 and members[-1].lead_in:
                before = Passage(
                    source,
                    [m.text for m in members],
                    quote,
                    shown.rstrip(":, ") + ".",
                    first=i,
                    before_code=True,
                )
                out.append(_with_its_code(before, members[-1], source.text))
                continue
            out.append(Passage(source, [m.text for m in members], quote, shown, first=i))
    notes = release_notes(source)
    for passage in out:
        passage.start = sentences[passage.first].start
        passage.section = section_at(source, spans, passage.start, passage.sentences[0])
        passage.is_changelog = not passage.is_code and _change_entry(passage.sentences[0], notes)
        if not passage.is_list:
            passage.label = _item_label(source.text, passage.start)
            passage.intro = _list_intro(source.text, sentences, passage.first)
    return out + _sessions_alone(source, sentences, spans, out)


# a fenced block that opens with a `>>>` prompt
_SESSION_OPENS: Final = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[^\n]*\n[ \t]*>>>", re.M)


def _sessions_alone(
    source: Source,
    sentences: list[_Sentence],
    spans: list[tuple[int, int, str]],
    made: list[Passage],
) -> list[Passage]:
    """A `>>>` session no sentence leads into (right under its heading, or after another
    block: humanize's "### File size humanization" over `>>> humanize.naturalsize(1_000_000,
    binary=True)` / `'976.6 KiB'`), led by its section's heading."""
    # (a lead-in's code runs on into the blocks after it, the next section's too: its
    # heading is not in the text)
    covered = [(p.start, p.start + len(p.quote), p.section) for p in made if p.is_code]
    out: list[Passage] = []
    for match in _SESSION_OPENS.finditer(source.text):
        at = match.start()
        line_end = source.text.rfind("\n", 0, at)
        section = section_at(source, spans, at, source.text[at : at + 80])
        if line_end < 0 or any(a <= at < b and here == section for a, b, here in covered):
            continue
        before = _Sentence("", line_end, line_end, -1, lead_in=True, usable=False)
        code = _code_after(source.text, before, spans)
        heading = plain(section.rsplit(" > ", 1)[-1])
        if code is None or not heading:
            continue
        quote = source.text[at : code.end].rstrip()
        first = max((k for k, s in enumerate(sentences) if s.start < at), default=0)
        session = Passage(
            source,
            [quote],
            quote,
            f"{heading}: {_show_code(_key_lines(code.lines))}",
            first,
            is_code=True,
            code=tuple(code.lines),
            block=tuple(code.written),
            breaks=tuple(code.breaks),
            lead=f"{heading}:",
            whole=tuple(code.whole),
            whole_breaks=tuple(code.whole_breaks),
            start=at,
            section=section,
            session=True,
        )
        covered.append((at, code.end, section))
        out.append(session)
    return out


def _with_its_code(
    passage: Passage, lead_in: _Sentence, text: str, code: _Code | None = None
) -> Passage:
    """A passage ending in a lead-in that says nothing without what follows ("… so all you
    have to do is:", "… identified by:") is shown with the code after it, as a block after its
    own words (':' and all); it is scored on its words, as before. (``code``: the code after
    the lead-in, when already found.)"""
    if not _unfinished(lead_in) or (code := code or _code_after(text, lead_in)) is None:
        return passage
    _, lines, written, breaks, whole, whole_breaks = code
    return replace(
        passage,
        text=plain(passage.quote),
        code=tuple(lines),
        block=tuple(written),
        breaks=tuple(breaks),
        whole=tuple(whole),
        whole_breaks=tuple(whole_breaks),
        lead=plain(passage.quote),
    )


# A lead-in whose last word wants what follows it: "… so all you have to do is:", "… you
# could use:", "… identified by:" say nothing without it ("… when no single set does:" does).
_UNFINISHED: Final = re.compile(
    r"(?:\b(?:is|are|was|were|be|been|being|to|with|like|as|by|of|for|from|in|into|on|at|via|"
    r"than|the|a|an|and|or|following|below|follows|this|these|those|here|type|run|call|e\.g|"
    r"i\.e|such\s+as)|\b(?:can|could|should|would|will|must|may|might|to|you|we|I|then)\s+use"
    r"|\bthe\s+following\s+\w+)$",
    re.I,
)


def _unfinished(sentence: _Sentence) -> bool:
    return bool(_UNFINISHED.search(plain(sentence.text).rstrip(":,. \n")))


def _states(sentence: _Sentence) -> bool:
    """Does a lead-in line say something itself ("Starlette only requires `anyio`, and these
    are optional:"), not only announce what follows ("For example:")?"""
    return sentence.usable and len(words(sentence.text)) >= 2 * MIN_WORDS


def _list_intro(text: str, sentences: list[_Sentence], i: int) -> str:
    """The lead-in line of the list whose item holds sentence ``i`` ("Black will exit with:"
    before "code 123 if there was an internal error"): what the item is an answer to. ''
    outside a list, when the list has no lead-in, or across a code block or heading."""
    if not 0 <= i < len(sentences) or sentences[i].item < 0:
        return ""
    j = i - 1
    while j >= 0 and sentences[j].item >= 0:
        j -= 1
    if j < 0 or not sentences[j].lead_in:
        return ""
    if _GAP_BREAKS.search(text[sentences[j].end : sentences[i].start]):
        return ""
    return sentences[j].text


# "- `truncate.leeway`: Configures …", "- loop.index0: The current iteration …": the term an
# entry of a definition list or a reference table defines.
_ITEM_LABEL: Final = re.compile(
    r"^[ \t]*(?:[-*+]|\d{1,2}[.)])[ \t]+(?P<label>`[^`\n]{1,60}`|\*\*[^*\n]{1,40}\*\*"
    r"|[\w][\w.()/-]{0,40})[ \t]*:[ \t]",
    re.M,
)


def _item_label(text: str, start: int) -> str:
    """The term of the list item a passage starting at ``start`` sits in, when it starts after
    the term ("The default is `5`." in the entry of `truncate.leeway`): what it is about, which
    the passage does not say. '' outside such an item or at its start."""
    item = _item_of(text, start)
    if item < 0:
        return ""
    match = _ITEM_LABEL.match(text, item)
    if match is None or start < match.end():
        return ""
    return plain(match.group("label")).strip()


# A section named by one code name: `HTTPSRedirectMiddleware`, `SESSION_COOKIE_NAME`,
# `max_age`, `Context.invoke` (not "Cookies", not "0.8.6").
# (… and a function's name in lower camel case: `classImplementsFirst`)
_CODE_HEADING: Final = re.compile(
    r"^`?(?:[A-Za-z_]\w*[_.]\w*[\w.]*|[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*"
    r"|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[a-z][a-z0-9]+[A-Z][A-Za-z0-9]*)`?$"
)
# A command-line option's entry (`.. option:: -T INT, --command-timeout=INT`): its flags
_OPTION_HEADING: Final = re.compile(
    r"^`?-{1,2}[A-Za-z0-9][\w-]*(?:[ =][A-Z_<>\[\]]+)?"
    r"(?:,\s*-{1,2}[A-Za-z0-9][\w-]*(?:[ =][A-Z_<>\[\]]+)?)*`?$"
)
_FLAG: Final = re.compile(r"(?<![\w-])-{1,2}[A-Za-z0-9][\w-]*")


def named_by_heading(passage: Passage) -> str:
    """The code name a reference page's section is headed with, when the passage under it
    does not name it ("Enforces that all incoming requests must either be `https` or `wss`."
    under `HTTPSRedirectMiddleware`), or the term of the list entry it sits in ("The default is
    `5`." of `truncate.leeway`): a reader needs it to know what the passage is about."""
    heading = passage.label or plain(passage.section).strip()
    release = None if passage.label else RELEASE_HEADING.match(heading)
    if release is not None:
        # A changelog's entry is of the release it is listed under ("1.3.0 - 2025-11-10 /
        # Removed": "Support for Python 3.9"), which it seldom names itself.
        return "" if release.group("number") in passage.text else heading
    shown = plain(passage.text).lower()
    if not passage.label and _OPTION_HEADING.match(heading):
        # "Set a default command execution timeout of INT seconds." under
        # `-T INT, --command-timeout=INT`: the flags are what a reader asked for
        flags = _FLAG.findall(heading)
        return "" if any(f.lower() in shown for f in flags) else heading.strip("`")
    if not passage.label and not _CODE_HEADING.match(heading):
        # ("Default: a4paper" under "paper size" is the default of what the heading names)
        alone = heading and DEFAULT_LINE.match(plain(passage.text))
        return heading if alone and heading.lower() not in shown else ""
    name = heading.strip("`")
    if name.lower() in shown or name.rsplit(".", 1)[-1].lower() in shown:
        return ""
    return name


# A setting's own entry opens with its name: "`max_body_size` (default 100MB) is …",
# "`--unix-socket-perms=PERMS`: Octal permissions …"
_LOWER_NAME: Final = re.compile(r"^`?[a-z][a-z0-9_]*`?$")  # a one-word setting: `threads`
_OPENING_CODE: Final = re.compile(
    r"^(?:`(?P<name>-{0,2}[A-Za-z_][\w.-]*)(?:=[^`\s]*)?`(?=\s*[:(]|\s+(?:is|are)\b)"
    r"|(?P<bare>[a-z]\w*[_.][\w.]*|--?[a-z][\w-]*):\s)"  # "max_request_body_size: Maximum …"
)


def setting_entry(passage: Passage) -> str:
    """The setting, option or argument a reference entry describes, when the passage is one:
    under a heading or list term that is a code name or a flag (`max_request_body_size`, then
    "Maximum number of bytes in request body"), or opening with the name ("`max_body_size`
    (default 100MB) is the largest …"); '' otherwise."""
    heading = passage.label or plain(passage.section).strip()
    if _CODE_HEADING.match(heading) or _OPTION_HEADING.match(heading) or _LOWER_NAME.match(heading):
        return heading.strip("`")
    opening = _OPENING_CODE.match(passage.text.strip())
    return (opening.group("name") or opening.group("bare")) if opening else ""


_POINTS_BACK: Final = frozenset({"this", "that", "it", "these", "those"})
_CODE_JUST_BEFORE: Final = re.compile(
    r"(?P<fence>`{3,}|~{3,})[^\n]*\n(?P<body>(?:(?!(?P=fence)).*\n){1,3}?)"
    r"[ \t]*(?P=fence)[ \t]*\n\s*$"
)


def code_before(passage: Passage) -> str:
    """The short code block a passage's opening "This"/"It" points back at ("```pytest
    --trace```" then "This will invoke the Python debugger at the start of every test."), as
    a reader sees it ('' when the passage does not open so, or the block is long)."""
    opening = words(passage.sentences[0])[:1]
    if passage.is_code or passage.start < 0 or not opening or opening[0] not in _POINTS_BACK:
        return ""
    start = passage.start
    before = _CODE_JUST_BEFORE.search(passage.source.text[max(0, start - 400) : start])
    if before is None:
        return ""
    lines = [ln.strip().removeprefix("$ ") for ln in before.group("body").splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith(("#", "//"))]
    return _show_code(lines) if 0 < len(lines) <= SHORT_CODE_LINES else ""


SHORT_CODE_LINES: Final = 2


def section_of(source: Source, sentence: str) -> str:
    """The heading of the section a sentence of the source sits in ('' when unknown): the
    first chunk holding it. A sentence said in several sections ("Default: `None`" under
    each setting of a reference page) is placed by its offset instead (``section_at``)."""
    for chunk, heading in zip(source.chunks, source.chunk_sections, strict=False):
        if sentence in chunk:
            return heading
    return ""


def chunk_spans(source: Source) -> list[tuple[int, int, str]]:
    """(start, end, heading) of each chunk in the source's text, in order."""
    spans = []
    position = 0
    for chunk, heading in zip(source.chunks, source.chunk_sections, strict=False):
        at = source.text.find(chunk, position)
        if at < 0:
            at = source.text.find(chunk)
        if at < 0:
            continue
        spans.append((at, at + len(chunk), heading))
        position = at + 1
    return spans


def section_at(source: Source, spans: list[tuple[int, int, str]], start: int, sentence: str) -> str:
    """The heading of the chunk holding the sentence found at ``start`` of the text (by
    place, not by words: the same words may sit under another heading earlier on)."""
    end = start + len(sentence)
    for low, high, heading in spans:
        if low <= start and end <= high:
            return heading
    return section_of(source, sentence)


def _code_after(
    text: str, lead: _Sentence, spans: list[tuple[int, int, str]] | None = None
) -> _Code | None:
    """(end offset, lines, the same lines as written, blank line before each) of a code
    block right after a sentence ("… like this:", "… dependencies...", or the last sentence
    of a paragraph the code illustrates), or None. Lines are stripped for reading; as written
    they keep their indentation, for showing."""
    match = _FENCED.match(text, lead.end)
    if match is None:
        return None
    body = match.group("body").splitlines()
    # A block right after it, nothing said between, goes on with the same example: the call
    # and then what it prints ("s.unsign(string, max_age=5)" … "itsdangerous.exc.
    # SignatureExpired: Signature age 15 > 5 seconds" in a block of its own).
    for _ in range(MAX_JOINED_BLOCKS - 1):
        following = _FENCED.match(text, match.end())
        if following is None or (
            spans
            and _heading_at(spans, following.end("fence"))
            != (_heading_at(spans, match.start("body")))
        ):
            break  # (a block of the next section: its heading is not in the text)
        body += ["", *following.group("body").splitlines()]
        match = following
    written = [ln.rstrip() for ln in body if ln.strip()]
    after_blank = [k > 0 and not body[k - 1].strip() for k, ln in enumerate(body) if ln.strip()]
    lines = [ln.strip() for ln in written]
    if lines and lines[0].startswith(">>>"):
        written = _doctest_lines(lines)  # each input with what it prints, on one line
        lines = [ln.strip() for ln in written]
        after_blank = [False] * len(lines)
    kept = [
        k
        for k, ln in enumerate(lines)
        if not _IMPORT.match(ln)  # imports say nothing of the answer
        and not ln.startswith(("#", "//"))
        and any(c.isalnum() for c in ln)
    ]
    kept = [kept[k] for k in _docstring_free([lines[k] for k in kept])]
    if not kept:
        return None
    # (a line left out after a blank one passes its blank on to the next line kept)
    breaks = [
        after_blank[k] or (j > 0 and any(after_blank[kept[j - 1] + 1 : k]))
        for j, k in enumerate(kept)
    ]
    return _Code(
        match.end(),
        [lines[k] for k in kept],
        [written[k] for k in kept],
        breaks,
        written,
        after_blank,
    )


def _heading_at(spans: list[tuple[int, int, str]], at: int) -> str | None:
    """The heading of the chunk holding this offset of the text, if any does."""
    return next((heading for low, high, heading in spans if low <= at < high), None)


class _Code(NamedTuple):
    end: int
    lines: list[str]  # the lines read (no import, comment or bare closing bracket)
    written: list[str]  # those lines as written
    breaks: list[bool]
    whole: list[str]  # every line as written, for showing a short example whole
    whole_breaks: list[bool]


# "Using the defaults, as above, is equivalent to:", "The default configuration looks like
# this:": the code block that follows is the default setup, spelled out.
_DEFAULTS_LEAD_IN: Final = re.compile(
    r"\bdefaults?\b[^.:]{0,60}\b(?:equivalent|equals|same as|looks? like|as follows|following)"
    r"|\b(?:equivalent|same as)\b[^.:]{0,40}\bdefaults?\b",
    re.I,
)
MAX_DEFAULTS_LINES: Final = 16


def _defaults_passage(source: Source, lead: _Sentence, i: int) -> list[Passage]:
    """The lead-in of a default setup with its whole code (up to :data:`MAX_DEFAULTS_LINES`
    lines, imports left out): each line is a default someone may ask about."""
    match = _FENCED.match(source.text, lead.end)
    if match is None:
        return []
    written = [
        ln.rstrip()
        for ln in match.group("body").splitlines()
        if ln.strip() and not _IMPORT.match(ln.strip()) and not ln.strip().startswith(("#", "//"))
    ]
    lines = [ln.strip() for ln in written]
    if not lines or len(lines) > MAX_DEFAULTS_LINES:
        return []
    quote = source.text[lead.start : match.end()].rstrip()
    shown = f"{plain(lead.text)} " + " ".join(f"`{ln.replace('`', '')}`" for ln in lines)
    # Its lines are its sentences (as a list's items are): each is compared with the question.
    members = [lead.text, *lines]
    return [
        Passage(
            source,
            members,
            quote,
            shown,
            i,
            is_code=True,
            is_defaults=True,
            block=tuple(written),
        )
    ]


_KEY_STATEMENT: Final = re.compile(r"^(?:raise|yield|await)\b")
_PROMPT: Final = re.compile(r"^(?:>>>|\.\.\.)(?:\s|$)")
# A doctest's report of an exception: "ValueError: x must be at least 0.",
# "attrs.exceptions.FrozenInstanceError: can't set attribute".
_RAISED: Final = re.compile(r"^(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Warning)\b(?::|$)")


_ASKS_RAISED: Final = part_stems("exception error raise")
MAX_OUTPUT_CHARS: Final = 60


def _doctest_lines(lines: list[str]) -> list[str]:
    """A doctest's code, each input with the first line it prints ("canonicalize_name(
    "oslo.concurrency") → 'oslo-concurrency'", "v1 < v2 → True": the result is what the
    example shows), and the exception an input raises on a line of its own ("ValueError:
    Cannot convert value to bool")."""
    out: list[str] = []
    printed = True  # whether the last input already has its output
    for line in lines:
        if _PROMPT.match(line):
            code = _PROMPT.sub("", line, count=1).rstrip()  # indented as in the example
            if code.strip():
                out.append(code)
                printed = code.lstrip().startswith(("import ", "from ", "#"))
        elif _RAISED.match(line):
            out.append(line)
            printed = True
        elif line.startswith(("Traceback", 'File "')):
            continue  # the exception's report follows
        elif out and not printed:
            shown = line if len(line) <= MAX_OUTPUT_CHARS else line[: MAX_OUTPUT_CHARS - 1] + "…"
            out[-1] = f"{out[-1]} → {shown}"
            printed = True
    return out


def _docstring_free(lines: list[str]) -> list[int]:
    """The numbers of the code lines that are not docstrings (they repeat the prose, doctests
    and all)."""
    out: list[int] = []
    inside = False
    for k, line in enumerate(lines):
        quotes = line.count('"""') + line.count("'''")
        if inside or (quotes == 1 and line.startswith(('"""', "'''"))):
            inside = inside != (quotes % 2 == 1)
            continue
        if quotes >= 2 and line.startswith(('"""', "'''")):
            continue
        out.append(k)
    return out


def _key_lines(lines: list[str]) -> list[str]:
    """At most :data:`MAX_CODE_LINES` lines to show: the first ones, or, when the block
    raises, yields or awaits something further down ("raise DropEvent" in a processor that
    drops entries), its first line and that statement with the line before it."""
    return [lines[k] for k in _key_line_numbers(lines)]


def _key_line_numbers(lines: list[str] | tuple[str, ...]) -> list[int]:
    """The numbers of the lines :func:`_key_lines` shows."""
    if len(lines) <= MAX_CODE_LINES:
        return list(range(len(lines)))
    key = next((k for k, ln in enumerate(lines) if k >= 2 and _KEY_STATEMENT.match(ln)), None)
    if key is None:
        return list(range(MAX_CODE_LINES))
    return sorted({0, key - 1, key})[:MAX_CODE_LINES]


def _code_passages(
    source: Source,
    sentences: list[_Sentence],
    i: int,
    code: _Code,
    spans: list[tuple[int, int, str]],
) -> list[Passage]:
    """The lead-in with its code, alone and with up to two sentences before it in its
    paragraph, or in the one-sentence paragraph before it ("Sometimes you only want to retry a
    part of a function." says what the code after the next paragraph's lead-in is for)."""
    end, lines, written, breaks, whole, whole_breaks = code
    shown_code = _show_code(_key_lines(lines))
    out = []
    starts = [i]
    here = section_at(source, spans, sentences[i].start, sentences[i].text)
    for before in range(i - 1, max(i - MAX_WINDOW, -1), -1):
        gap = source.text[sentences[before].end : sentences[before + 1].start]
        if (
            not sentences[before].usable
            or sentences[before].lead_in
            or sentences[before].item != sentences[i].item
            or _GAP_BREAKS.search(gap)
            or (
                source.chunks
                and section_at(source, spans, sentences[before].start, sentences[before].text)
                != here
            )
            or ("\n\n" in gap and not _whole_paragraph(source.text, sentences, before))
        ):
            break
        starts.append(before)
        if "\n\n" in gap:
            break
    for first in starts:
        members = sentences[first : i + 1]
        quote = source.text[members[0].start : end].rstrip()
        lead = plain(source.text[members[0].start : sentences[i].end])
        out.append(
            Passage(
                source,
                [m.text for m in members],
                quote,
                f"{lead} {shown_code}",
                first,
                is_code=True,
                code=tuple(lines),
                block=tuple(written),
                breaks=tuple(breaks),
                lead=lead,
                whole=tuple(whole),
                whole_breaks=tuple(whole_breaks),
            )
        )
    return out


def _whole_paragraph(text: str, sentences: list[_Sentence], i: int) -> bool:
    """Is sentence ``i`` a paragraph of its own (a line that says what the next paragraph is
    about), not the last sentence of a longer one?"""
    if i == 0:
        return True
    gap = text[sentences[i - 1].end : sentences[i].start]
    return "\n\n" in gap or _GAP_BREAKS.search(gap) is not None


def _show_code(lines: list[str]) -> str:
    return " ".join(f"`{ln.replace('`', '')}`" for ln in lines)


_CODE_ITEM: Final = re.compile(r"^[\w.-]+\s+[-–:]\s+\S")


def _code_items(passage: Passage) -> list[int]:
    """The numbers of a code passage's "name - what it is" lines."""
    return [k for k, ln in enumerate(passage.code) if _CODE_ITEM.match(ln)]


def lists_in_code(passage: Passage) -> bool:
    """Is a code passage a listing: three or more of its lines "name - what it is" (a
    command's output listing templates, plugins, …)?"""
    return passage.is_code and len(_code_items(passage)) >= 3


class Shown(NamedTuple):
    """What a reader sees of a passage: its prose, and the code it shows as a fenced block
    ('' when it shows none)."""

    text: str
    block: str = ""


def shown_for(
    passage: Passage, terms: list[str], quoted: tuple[str, ...] = (), steps: bool = False
) -> Shown:
    """What a reader sees of a passage for this question. A code passage: its lead-in, and as
    a block the first code line and the lines that hold the most of the question's words
    ("… drop the password during asdict?" shows ``filter=lambda attr, value: attr.name !=
    "password"``, not the class definition the example opens with). Other passages: their
    text. ``steps``: the passage answers "how do I …", and a recipe of a few dozen lines is
    shown whole (sqlparse's lexer recipe, shortened, defined `my_regex` and never used it)."""
    if passage.is_defaults:  # the default setup, whole
        return Shown(plain(passage.sentences[0]), code_block(passage.block))
    if not passage.code:
        return Shown(passage.text)
    short = len(passage.code) <= MAX_WHOLE_EXAMPLE and len(passage.whole) <= MAX_WHOLE_LINES
    recipe = (
        steps
        and len(passage.code) <= MAX_RECIPE_LINES
        and len(passage.whole) <= MAX_RECIPE_WHOLE_LINES
        and not lists_in_code(passage)
        # (a doctest session, read with what each input prints, is a run of demonstrations,
        # not one recipe)
        and not any(" → " in ln for ln in passage.code)
    )
    if short or recipe:
        # a short example as written, its comments and closing brackets too ("# rotate a new
        # key in …", the `)` that ends `Serializer(`): a reader may run it
        whole = passage.whole
        return Shown(
            passage.lead, code_block(whole, range(len(whole)), len(whole), passage.whole_breaks)
        )
    shown = _shown_lines(passage, terms, quoted)
    lines = [passage.block[k] for k in shown]
    return Shown(passage.lead, code_block(lines, shown, len(passage.block), passage.breaks))


def _shown_lines(passage: Passage, terms: list[str], quoted: tuple[str, ...]) -> list[int]:
    """The numbers of the code lines shown for the question."""
    if lists_in_code(passage):  # a listing shows its items
        return _code_items(passage)[:MAX_LIST_ITEMS]
    if len(passage.code) <= MAX_WHOLE_EXAMPLE:
        # a short example, shown as a block, is shown whole: a line left out is often the one
        # that matters (`@retry(before=before_log(logger, logging.DEBUG))` after the setup)
        return list(range(len(passage.code)))
    usual = _key_line_numbers(passage.code)
    if len(passage.code) <= MAX_CODE_LINES or not terms:
        return usual
    wanted = part_stems(" ".join(terms))
    # asked which exception, the traceback's last line names it ("cattrs.errors.
    # ForbiddenExtraKeysError: Extra fields in constructor for E: else")
    asks_raised = bool(wanted & _ASKS_RAISED)

    def held(line: str) -> int:  # a literal the question quotes outweighs its words
        named = asks_raised and bool(_RAISED.match(line.strip()))
        return len(wanted & part_stems(line)) + 10 * any(q in line for q in quoted) + 5 * named

    counts = [held(ln) for ln in passage.code]
    # On a tie the later line: an example defines first and calls after.
    best = sorted(range(1, len(passage.code)), key=lambda k: (-counts[k], -k))
    raised = best[0] + 1
    if counts[best[0]] >= 10 and raised < len(passage.code) and _RAISED.match(passage.code[raised]):
        # The quoted input of a doctest shows with the exception it raises (">>> C("norway")"
        # … "ValueError: Cannot convert value to bool: norway").
        return sorted({0, best[0], raised})
    # The usual excerpt holds the best line (the latest of those holding the most of the
    # question), or no line holds any: it shows what matters.
    if not counts[best[0]] or best[0] in usual:
        return usual
    return sorted({0, *best[: MAX_CODE_LINES - 1]})


def code_block(
    lines: Sequence[str],
    numbers: Sequence[int] = (),
    total: int = 0,
    breaks: Sequence[bool] = (),
) -> str:
    """Code lines as a fenced Markdown block, indented as written relative to the least
    indented of them; "…" stands where lines are left out between them or after them, and a
    blank line where the example has one between two lines shown in a row (``numbers``: the
    lines' places in their block of ``total`` lines; ``breaks``: by place, a blank line
    before it)."""
    if not lines:
        return ""
    margin = min(len(ln) - len(ln.lstrip()) for ln in lines)
    body: list[str] = []
    for k, line in enumerate(lines):
        if k and numbers and numbers[k] > numbers[k - 1] + 1:
            body.append("…")
        elif k and numbers and numbers[k] < len(breaks) and breaks[numbers[k]]:
            body.append("")
        body.append(line[margin:])
    if numbers and numbers[-1] < total - 1:
        body.append("…")
    longest = max((len(run) for ln in body for run in re.findall(r"`+", ln)), default=0)
    fence = "`" * max(3, longest + 1)
    return "\n".join([fence, *body, fence])


def _list_after(
    source: Source,
    sentences: list[_Sentence],
    lead: int,
    spans: list[tuple[int, int, str]],
    least: int = 2,
) -> list[list[_Sentence]]:
    """The list items (each its sentences) right after a lead-in line, in its section (the
    text joins retrieved chunks without their headings: "Use the following options …" at the
    top of a page is not the lead-in of the Logging section's list); ``least`` items or none."""
    previous = sentences[lead]
    section = section_at(source, spans, previous.start, previous.text) if spans else ""
    items = _items_from(source, sentences, lead + 1, section, spans, previous)
    return items if len(items) >= least else []


def _list_round_code(
    source: Source, sentences: list[_Sentence], lead: int, spans: list[tuple[int, int, str]]
) -> list[list[_Sentence]]:
    """The items of a list after a lead-in whose items hold code blocks ("- `brotli`" / what
    it is / "To use it, install Celery with:" and its ```` ``` ```` block / "- `bzip2`" …):
    every item line up to the first paragraph or heading after the list; [] when the list
    holds no code block (``_list_after`` reads it) or has under two items."""
    text = source.text
    begin = text.find("\n", sentences[lead].end)
    # (a lead-in that is itself an item leads its own code, not the items after it; the list
    # begins right after its lead-in)
    if begin < 0 or sentences[lead].item >= 0 or not _BULLET_LINE.match(text[begin:].lstrip("\n")):
        return []
    end, fenced, blank, fences = len(text), False, False, 0
    pos = begin + 1
    while pos < len(text):
        stop = text.find("\n", pos)
        line = text[pos : stop if stop >= 0 else len(text)]
        if line.lstrip().startswith(("```", "~~~")):
            fenced, blank = not fenced, False
            fences += 1
        elif fenced:
            pass
        elif not line.strip():
            blank = True
        elif _GAP_BREAKS.match(line) or (blank and not _BULLET_LINE.match(line)):
            end = pos  # a heading, a table, or a paragraph of its own: the list is over
            break
        else:
            blank = False
        if stop < 0:
            break
        pos = stop + 1
    if not fences:
        return []
    section = (
        section_at(source, spans, sentences[lead].start, sentences[lead].text) if spans else ""
    )
    items: list[list[_Sentence]] = []
    for nxt in sentences[lead + 1 :]:
        if nxt.start >= end or (
            spans and section_at(source, spans, nxt.start, nxt.text) != section
        ):
            break
        if nxt.item < 0:
            continue  # (the item's own text after its code block)
        if not _grouped(items, nxt):
            break
    return items if len(items) >= 2 else []


def _grouped(items: list[list[_Sentence]], nxt: _Sentence) -> bool:
    """Add a list's next sentence to its item (a new item when it opens one); False when the
    list already holds MAX_LIST_ITEMS items and this one would be another."""
    if items and items[-1][0].item == nxt.item:
        items[-1].append(nxt)
    elif len(items) == MAX_LIST_ITEMS:
        return False
    else:
        items.append([nxt])
    return True


def _items_from(
    source: Source,
    sentences: list[_Sentence],
    begin: int,
    section: str,
    spans: list[tuple[int, int, str]],
    previous: _Sentence | None = None,
) -> list[list[_Sentence]]:
    """The list items (each its sentences) from sentence ``begin`` on, in ``section``, up to
    a sentence outside a list, a code block, heading or table (after ``previous``)."""
    items: list[list[_Sentence]] = []
    for nxt in sentences[begin:]:
        gap = source.text[previous.end : nxt.start] if previous is not None else ""
        if nxt.item < 0 or _GAP_BREAKS.search(gap):
            break
        if spans and section_at(source, spans, nxt.start, nxt.text) != section:
            break
        if not _grouped(items, nxt):
            break
        previous = nxt
    return items


def _list_with_context(
    source: Source, sentences: list[_Sentence], items: list[list[_Sentence]], i: int
) -> list[Passage]:
    """A lead-in that leans on what comes before ("It can return one of three types:") with
    its list and the one or two sentences before it that say what "it" is, also across a
    paragraph break (not across a heading, code block or table)."""
    lead = sentences[i]
    opening = words(lead.text)[:1]
    if not opening or (
        opening[0] not in LEANS_ON_CONTEXT and not _DOES_WHAT_CAME_BEFORE.match(plain(lead.text))
    ):
        return []
    out = []
    start = i
    for back in range(i - 1, max(i - MAX_WINDOW, -1), -1):
        before = sentences[back]
        gap = source.text[before.end : sentences[back + 1].start]
        if not before.usable or before.item >= 0 or _GAP_BREAKS.search(gap):
            break
        start = back
        listed = _list_passage(source, lead, items, i)
        context = source.text[before.start : lead.start]
        members = [s.text for s in sentences[start:i]] + listed.sentences
        out.append(
            Passage(
                source,
                members,
                source.text[before.start : items[-1][-1].end],
                f"{plain(context).strip()} {listed.text}",
                start,
                is_list=True,
            )
        )
    return out


# "In order to activate this, do all of the following:" (after "`odtwriter` can add syntax
# highlighting to code in code blocks."): the steps to what the sentence before says
_DOES_WHAT_CAME_BEFORE: Final = re.compile(
    r"^\W*(?:in order )?to [a-z]+ (?:this|that|it|them|these|those)\b", re.I
)


# "These distributions will not be installed automatically. Werkzeug will detect and use them
# if you install them." and then the list of them: a paragraph that points at the list after
# it, with no ':' to say so.
_POINTS_AT_LIST: Final = re.compile(
    r"\b(?:these|them|they|those|following|include|includes|two|three|four|five|several)\b",
    re.I,
)


def _counts_items(lead: str, n: int) -> bool:
    """Does the lead-in give the number of items after it ("There are 4 transports available
    for AMQP use." before four items)?"""
    return any(int(d) == n for d in re.findall(r"(?<![\w.])(\d{1,2})(?![\w.])", lead))


def _paragraph_before_list(
    source: Source, sentences: list[_Sentence], i: int, spans: list[tuple[int, int, str]]
) -> list[Passage]:
    """The list after a paragraph that ends at sentence ``i`` and points at it, with the
    paragraph's last one to three sentences as its lead-in; [] otherwise."""
    last = sentences[i]
    if last.item >= 0 or i + 1 >= len(sentences) or sentences[i + 1].item < 0:
        return []
    if "\n\n" not in source.text[last.end : sentences[i + 1].start]:
        return []
    items = _list_after(source, sentences, i, spans)
    if not items:
        return []
    start = i
    while start > max(i - MAX_WINDOW + 1, 0):
        before = sentences[start - 1]
        gap = source.text[before.end : sentences[start].start]
        if not before.usable or before.item >= 0 or "\n\n" in gap or _GAP_BREAKS.search(gap):
            break
        start -= 1
    out = []
    listed = _list_passage(source, last, items, i)
    for first in range(i, start - 1, -1):
        lead = source.text[sentences[first].start : last.end]
        if not _POINTS_AT_LIST.search(lead) and not _counts_items(lead, len(items)):
            continue
        out.append(
            Passage(
                source,
                [s.text for s in sentences[first:i]] + listed.sentences,
                source.text[sentences[first].start : items[-1][-1].end],
                f"{plain(source.text[sentences[first].start : last.start]).strip()} "
                f"{listed.text}".strip(),
                first,
                is_list=True,
            )
        )
    return out


def _before_object_entry(source: Source, sentences: list[_Sentence], i: int) -> list[Passage]:
    """The last sentence of a paragraph with the object entry right after it ("… a special key
    error will be raised which behaves like a `KeyError` …" then the entry of
    `BadRequestKeyError`, an autodoc directive with no text of its own): on the built page the
    paragraph introduces the object. [] when no bare object name follows."""
    last = sentences[i]
    if last.item >= 0 or i + 1 >= len(sentences):
        return []
    entry = sentences[i + 1]
    gap = source.text[last.end : entry.start]
    if "\n\n" not in gap or _GAP_BREAKS.search(gap) or not _NAME_ONLY.match(entry.text):
        return []
    # the name stands alone: a paragraph (or a heading, or the end) follows it
    after = source.text[entry.end : entry.end + 2]
    if after and after != "\n\n" and not after.startswith("\n"):
        return []
    # a paragraph that is itself an object's description ("`_fail_with_undefined_error`: When
    # called …") belongs to that object, not to the next one
    paragraph = source.text[source.text.rfind("\n\n", 0, last.start) + 1 : last.end]
    if re.match(r"\s*`[^`\n]+`\s*:", paragraph):
        return []
    name = entry.text.strip().rstrip(".:")
    shown = f"{plain(last.text).rstrip(' .:')}: {name}."
    # (read as its sentence: the bare name adds no words to weigh)
    return [Passage(source, [last.text], source.text[last.start : entry.end], shown, i)]


_NAMED_ENTRY: Final = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:`[^`\n]+`|\*\*[^*\n]+\*\*)")


def _list_under_heading(
    source: Source, sentences: list[_Sentence], i: int, spans: list[tuple[int, int, str]]
) -> list[Passage]:
    """A list that opens its section, with no lead-in line of its own (a table of "Built-in
    Converters" written out as items: "- `int`: Class: `IntConverter` …"), read with the
    section's heading as its lead-in; [] for any other sentence."""
    first = sentences[i]
    if first.item < 0 or (i > 0 and sentences[i - 1].item == first.item) or not spans:
        return []
    span = next((sp for sp in spans if sp[0] <= first.start < sp[1]), None)
    if span is None or not span[2] or source.text[span[0] : first.item].strip():
        return []
    heading = plain(span[2].rsplit(" / ", 1)[-1]).strip()
    if not heading:
        return []
    items = _items_from(source, sentences, i, span[2], spans)
    # (entries each named in code or bold, as a table's rows are: not a page's links or a
    # release's changes)
    if len(items) < 2 or not all(_NAMED_ENTRY.match(source.text, item[0].item) for item in items):
        return []
    heads = [_head(item) for item in items]
    shown_items = [plain(source.text[h[0].start : h[-1].end]).rstrip(".;,") for h in heads]
    members = [f"{heading}:", *(s.text for head in heads for s in head)]
    quote = source.text[first.start : items[-1][-1].end]
    shown = f"{heading}: {'; '.join(shown_items)}."
    return [Passage(source, members, quote, shown, i, is_list=True)]


# "The configuration files are searched in the order listed above.": a sentence about the
# list before it, which says nothing without it
POINTS_AT_LIST_ABOVE: Final = re.compile(
    r"\b(?:(?:listed|shown|given|named|described|mentioned)\s+above|the\s+above\s+(?:list|"
    r"order|items|entries|options|files|steps)|the\s+(?:list|order)\s+above)\b",
    re.I,
)


def _list_pointed_at(
    source: Source, sentences: list[_Sentence], i: int, spans: list[tuple[int, int, str]]
) -> list[Passage]:
    """A sentence right after a list that says something of it ("The configuration files are
    searched in the order listed above. The first file found is used." after "- tox.toml: …
    - tox.ini: …"), read with the list: the items, then the sentence (or the two)."""
    first = sentences[i]
    if i == 0 or first.item >= 0 or not POINTS_AT_LIST_ABOVE.search(first.text):
        return []
    last = sentences[i - 1]
    if last.item < 0 or _GAP_BREAKS.search(source.text[last.end : first.start]):
        return []
    section = section_at(source, spans, first.start, first.text) if spans else ""
    start = i - 1
    while start > 0:
        before, after = sentences[start - 1], sentences[start]
        gap = source.text[before.end : after.start]
        if before.item < 0 or _GAP_BREAKS.search(gap) or "\n\n" in gap.replace(" ", ""):
            break
        if spans and section_at(source, spans, before.start, before.text) != section:
            break
        start -= 1
    items = _items_from(source, sentences, start, section, spans)
    if len(items) < 2 or items[-1][-1] is not last:
        return []
    heads = [_head(item) for item in items]
    shown_items = [_item_shown(source.text[h[0].start : h[-1].end]) for h in heads]
    tail = [first]
    nxt = sentences[i + 1] if i + 1 < len(sentences) else None
    if (
        nxt is not None
        and nxt.usable
        and nxt.item < 0
        and "\n\n" not in source.text[first.end : nxt.start]
    ):
        tail.append(nxt)  # "The first file found is used."
    shown = f"{'; '.join(shown_items)}. {plain(source.text[first.start : tail[-1].end])}"
    # (the sentence is what the list is about: first among the members, as a lead-in is)
    members = [*(s.text for s in tail), *(s.text for head in heads for s in head)]
    quote = source.text[items[0][0].start : tail[-1].end]
    return [Passage(source, members, quote, shown, start, is_list=True)]


def _list_passage(source: Source, lead: _Sentence, items: list[list[_Sentence]], i: int) -> Passage:
    quote = source.text[lead.start : items[-1][-1].end]
    # An item is what its first statement says: the sentences after it explain that item
    # ("1. A context dictionary … This dictionary is merged into each log entry …").
    heads = [_head(item) for item in items]
    shown_items = [_item_shown(source.text[h[0].start : h[-1].end]) for h in heads]
    shown = f"{plain(lead.text)} {'; '.join(shown_items)}."
    members = [lead.text, *(s.text for head in heads for s in head)]
    return Passage(source, members, quote, shown, i, is_list=True)


# "2. Use the command line option `--add-syntax-highlighting`. Example:" (its code is not
# shown in the list): the lead-in to code the reader does not see
_LEADS_TO_CODE: Final = re.compile(r"(?<=[.!?])\s+[^.!?:]{1,40}:$")


def _item_shown(text: str) -> str:
    """A list item as the list shows it: no closing stop, no lead-in to code it does not
    show, and an ellipsis the docs wrote kept ("1. Install `Pygments`_ and ...")."""
    shown = _LEADS_TO_CODE.sub("", plain(text).strip())
    return shown if shown.endswith(("...", "…")) else shown.rstrip(".;,")


def _head(item: list[_Sentence]) -> list[_Sentence]:
    """An item's first statement: its sentences up to the second usable one (a bare "1."
    marker before it and a fragment after it, "(Default 100)", are not statements)."""
    seen = 0
    for k, sentence in enumerate(item):
        seen += sentence.usable
        if seen == 2:
            return item[:k]
    return item
