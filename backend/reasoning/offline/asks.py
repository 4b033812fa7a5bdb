"""The separate asks of a question, for answering each one (not for searching).

The planner splits a question into searches only when every piece stands alone; a piece with
an uncertain "it" stays unsplit there (a search for a guess finds the wrong thing). The answer
is a different matter: "which max_age do I give SessionMiddleware, and what package must be
installed for it?" asks two things, and a reader expects both answered. Here each ask keeps
what it needs from the rest of the question to be scored against passages:

* the question's **setting**: a clause before a colon ("I want a session cookie that
  disappears when the browser closes: …"), a sentence before the question ("Middleware on a
  Mount isn't wrapped in exception handling. Which …"), or an opening "To …,"/"For …,"/"If …,"
  clause ("To accept file uploads, which …");
* for a later ask with a pronoun, the names the first ask gives ("… installed for it?" is
  scored with "max_age SessionMiddleware" beside it), or its key words when it names nothing.
  Nothing is substituted for the pronoun.

Asks are split where the planner splits parts, and also at ", and does/is/can …" (a second
yes/no ask: "does the client see my 500 page, and do the other tasks still run?").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from backend.reasoning.offline.text import capitalised_spans, is_abbreviation, key_terms, word_set

_NUMBERED: Final = re.compile(r"(?:^|\s)\(?(?:\d+|[a-h])[.)]\s+")
_AUX: Final = r"(?:is|are|was|were|do|does|did|can|could|should|will|would|has|have|had|many|much)"
_CLAUSE_SPLIT: Final = re.compile(
    r";\s*(?:and\s+)?|,?\s+and also\s+|,?\s+and then\s+"
    r"|,\s+and\s+(?=(?:how|why|what|when|where|which|who|whether)\b)"
    # "What is that parameter called now, and in which release was it renamed?"
    r"|,\s+and\s+(?=(?:in|on|from|at|by|with|for|since|until|to)\s+(?:which|what)\s+(?:\w+\s+){1,2}"
    rf"(?:{_AUX}|was|were|did)\b)"
    rf"|\s+and\s+(?=(?:how|why|what|when|where|which|who)\s+(?:[a-z]+\s+)?{_AUX}\b"
    r"|(?:how|why|what|when|where|which|who)\s+[a-z]+ed\b)"
    r"|,?\s+and\s+(?=(?:is|are|does|do|can|should|will|was|did)\s+(?:it|they|its)\b)"
    # "… can the server keep sending progress on that token, and until when?"
    r"|,\s+and\s+(?=(?:until|till|since|from)\s+when\b|for\s+how\s+long\b)"
    # "…, and if product later insists on only the suggested titles, what do I add?"
    r"|,\s+and\s+(?=(?:if|when|once)\s[^?,]{3,120},\s+(?:how|what|which|where|who)\b)",
    re.I,
)
# A part that asks: a question word or an auxiliary first, or a request ("List …", "Explain …")
_ASKS_HERE: Final = re.compile(
    r"^\W*(?:(?:and|also|then|but)\s+)*(?:(?:in|on|from|at|by|with|for|since|until|to|of|"
    r"under|after|before)\s+)?(?:how|what|which|who|whom|whose|where|when|why|whether|"
    r"is|are|was|were|do|does|did|can|could|should|would|will|must|may|has|have|"
    r"list|name|explain|describe|show|give|tell|compare)\b",
    re.I,
)
_QUESTION_WORD: Final = re.compile(
    r"\b(?:how|what|which|who|whom|whose|where|when|why|whether)\b", re.I
)
_NUMBER_MARK: Final = re.compile(r"^\(?(?:\d+|[a-h])[.)]\s+")
_LEADING_CONJUNCTION: Final = re.compile(r"^(?:and|also|and also|then|and then|but)\s+", re.I)
_DATES: Final = word_set(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday"
)
_SECOND_YES_NO: Final = re.compile(
    r",\s+and\s+(?=(?:is|are|does|do|can|could|should|will|would|was|were|did|has|have)\s+\w)",
    re.I,
)
_OPENING_CLAUSE: Final = re.compile(
    r"^(?P<c>(?:to|for|if|when|in|on|with|after|before|once|while|since|given)\b[^,?]{3,120}),\s+",
    re.I,
)
_PRONOUN: Final = re.compile(
    r"\b(?:it|its|they|them|their|this|that|these|those|each|both|either)\b"
    r"|\b(?:which|the|that) ones?\b",  # "which one do I put before JSONRenderer?"
    re.I,
)
_IDENTIFIER: Final = re.compile(r"`[^`]+`|\b\w+_\w+\b|\b[A-Za-z]+[A-Z]\w*\b|@\w+")


@dataclass(frozen=True, slots=True)
class Ask:
    """One thing the question asks: its own words, and the words it is scored with."""

    text: str  # the ask without its setting ("What package must be installed for it?")
    scored: str  # with the setting and, for a pronoun, the first ask's names
    named: bool = True  # False: a pronoun whose referent is only guessed from the first ask
    # What a search for it uses: as scored, but a pronoun's names without the setting
    # ("max_age SessionMiddleware What package must be installed for it?": the setting's
    # words would find the first ask's page again)
    searched: str = ""


def question_parts(query: str) -> list[str]:
    """The parts of a multi-part question (leading "and"/"also" removed); [query] when it has
    one part."""
    # (a "?" ends a question where a space or the end follows it: "filters like ?tags=a,b" is
    # a query string, not an ask)
    questions = [
        q.strip() for q in re.findall(r"(?:[^?]|\?(?![\"'”’)\]]*(?:\s|$)))+\?[\"'”’)\]]*", query)
    ]
    if len(questions) >= 2:
        parts = questions
    elif len(numbered := list(_NUMBERED.finditer(query))) >= 2:
        cuts = [m.start() for m in numbered] + [len(query)]
        parts = [query[a:b].strip() for a, b in zip(cuts, cuts[1:], strict=False)]
        parts = [_NUMBERED.sub("", p, count=1).strip(" ;,") for p in parts]
    else:
        # Statements before the asking sentence set the scene; only the asking sentence is
        # split ("In development I want X; in production Y. Which …, and which …?" asks two
        # things, not three), and the scene stays with its first ask.
        scene, asking = scene_and_asking(query)
        parts = [p.strip(" ;,") for p in _CLAUSE_SPLIT.split(asking)]
        # A statement before the ask is its setting, not an ask: "My task is awaiting
        # to_thread.run_sync and I want it to be cancellable; how do I allow that?"
        while len(parts) >= 2 and not _asks_something(parts[0]):
            parts[:2] = [f"{parts[0]}; {parts[1]}"]
        if scene and parts:
            parts[0] = f"{scene} {parts[0]}"
    parts = [_LEADING_CONJUNCTION.sub("", _NUMBER_MARK.sub("", p)).strip() for p in parts]
    parts = [p[:1].upper() + p[1:] for p in parts if p]
    return parts if len(parts) >= 2 else [query]


def _asks_something(part: str) -> bool:
    """Does the part ask, after the setting it may open with ("I want a session cookie …:
    which max_age …", "To accept file uploads, which dependency …")?"""
    if _QUESTION_WORD.search(part):
        return True  # ("By default how many …", "Between A and B, which of them …")
    part = part.rpartition(":")[2].strip()
    part = _OPENING_CLAUSE.sub("", part, count=1)
    return bool(_ASKS_HERE.match(part))


def statements(text: str) -> list[str]:
    """The sentences of a question ("In development I want X. Which …?" → two); a question
    is short and plain, so a full stop or "!" before a capital ends one, unless it ends an
    abbreviation or an initial ("Craig v. Boren", "J. Smith")."""
    pieces = re.split(r"(?<=[.!])\s+(?=[A-Z])", text.strip())
    out: list[str] = []
    for piece in pieces:
        if out and is_abbreviation(out[-1]):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


def scene_and_asking(query: str) -> tuple[str, str]:
    """The statements before a question's one asking sentence, and that sentence; ('', query)
    when the question is one sentence or does not end by asking."""
    if not query.rstrip().endswith("?"):
        return "", query
    sentences = statements(query)
    if len(sentences) < 2:
        return "", query
    return " ".join(sentences[:-1]), sentences[-1]


def asks(question: str) -> list[Ask]:
    """The question's asks, in order; one ask (the question) when it asks one thing."""
    question = " ".join(question.split())
    parts = question_parts(question)
    if len(parts) < 2:
        pieces = [p.strip(" ,") for p in _SECOND_YES_NO.split(question)]
        if len(pieces) < 2:
            return [Ask(question, question)]
        parts = [pieces[0]] + [p[:1].upper() + p[1:] for p in pieces[1:]]
        parts = [p if p.endswith("?") else f"{p}?" for p in parts]
    setting, first = _setting(parts[0])
    names = _names(first)
    out = [Ask(first, parts[0])]
    for part in parts[1:]:
        context = [setting] if setting else []
        if _PRONOUN.search(part):
            # "… where do they go?" after "Which logger writes my log lines": without a name,
            # the first ask's words say what "they" are. "Which ones …?", "what does each
            # …?" point at the things the first ask describes, not at what it names.
            described = names or key_terms(first)
            if names and (_SET_OF.search(part) or _BARE.fullmatch(part)):
                # ("What is it by default?" asks about what the first ask asks for, "a piece
                # of text I can drop into the Markdown source": not about "Markdown")
                lower = {n.lower() for n in names}
                described = names + [t for t in key_terms(first) if t.lower() not in lower]
            context.append(" ".join(described))
        scored = f"{' '.join(context)} {part}".strip() if context else part
        searched = f"{' '.join(names)} {part}" if names and _PRONOUN.search(part) else scored
        if names and _BARE.fullmatch(part):
            searched = f"{' '.join(described)} {part}"  # (what it is, not only its names)
        out.append(Ask(part, scored, bool(names) or not _PRONOUN.search(part), searched))
    return out


_SET_OF: Final = re.compile(r"\b(?:which|the|what) ones\b|\beach\b", re.I)
# an ask that says nothing but a pronoun and "by default": "What is it by default?"
_BARE: Final = re.compile(
    r"(?:what|which)\s+(?:is|are|was|were)\s+(?:it|they|that|this|those|these)\s+"
    r"(?:set\s+to\s+)?by\s+default\s*\?",
    re.I,
)


def _setting(first: str) -> tuple[str, str]:
    """The setting the first ask opens with, and the ask without it."""
    # (a colon of prose, a space after it: not the one in code, "listen='*:8080'")
    if colons := list(re.finditer(r":(?=\s)", first)):
        head, rest = first[: colons[-1].start()], first[colons[-1].end() :]
        if rest.strip() and len(head.split()) >= 3:
            return head.strip(), rest.strip()
    sentences = statements(first)
    if len(sentences) >= 2:
        return " ".join(sentences[:-1]).strip(), sentences[-1]
    if match := _OPENING_CLAUSE.match(first):
        return match.group("c"), first[match.end() :]
    return "", first


def _names(text: str) -> list[str]:
    """The names and identifiers an ask gives ("max_age", "SessionMiddleware", "Mount")."""
    found = [m.group(0).strip("`") for m in _IDENTIFIER.finditer(text)]
    found += [s for s in capitalised_spans(text) if not text.startswith(s)]
    found.sort(key=lambda n: text.find(n))
    return list(dict.fromkeys(n for n in found if len(n) > 1 and n.lower() not in _DATES))
