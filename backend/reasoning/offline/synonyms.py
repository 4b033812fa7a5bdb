"""Words an engineer asks with and documentation answers with, that mean the same thing.

"How do I write a processor that throws certain entries away?" is answered by "the following
processor drops every entry"; "I haven't configured structlog" by "without configuration";
"suppress" by "filter". The embedder sees some of this; the word coverage of a passage (see
``pick``) saw none, so a paraphrased question looked unanswered. A question's word that a
passage lacks counts as held (at :data:`SYNONYM_WEIGHT`) when the passage holds a word of the
same group. The groups are everyday software English, not any one corpus's vocabulary; a
group joins words only when either could replace the other in a question.
"""

from __future__ import annotations

import re
from typing import Final

from backend.reasoning.offline.text import stem

SYNONYM_WEIGHT: Final = 0.8

_GROUPS: Final = (
    "drop discard throw ignore skip suppress silence mute filter exclude",
    "remove delete erase strip",
    "show display print render output appear emit",
    "hide conceal mask redact",
    "start begin launch",
    "stop halt terminate abort quit exit",
    "change modify alter adjust tweak customize override",
    "create make build generate construct",
    "get obtain retrieve fetch",
    "find search locate lookup",
    "error exception failure fault",
    "require need mandatory",
    "allow permit let",
    "disable deactivate",
    "enable activate",
    "available supported",  # "won't be available" / "are not supported"
    "pick choose select",
    "keep retain preserve",
    "combine merge join",
    "check verify validate",
    "win precedence priority regardless",
    "ctrl-c interrupt keyboardinterrupt sigint",
    "chatty verbose noisy",
    "folder directory",
    "watch monitor observe",  # "the Observer watches subdirectories" / "will not monitor"
    "app application",
    "option setting parameter",
    "callable function",
    "package dependency",
    "speed performance fast",
    "test testing tests",
    "pickle pickleable pickling serialize",
    "doubling exponential backoff",
    "turn convert transform",  # "turn a string into an integer" / "a converter"
    "integer int",  # Python's own names for the types
    "string str",
    "boolean bool",
    "dictionary dict",
    "stage phase",
    "nest nested inside embed",  # "one group inside another" / "chain commands nested"
    "made consist compose comprise",  # "what is X made of" / "it consists of three parts"
    "subscriber receiver listener handler",  # who is told of an event
    "subscribe register connect",  # "the order I connected them in" / "order of registration"
    "order sequence",
    "assign set setting",  # "when I assign a new value" / "on attribute setting"
    "interprocess inter-process cross-process",  # "cross-process locking" / "interprocess …"
    "lock locking synchronization synchronisation",
    "cap maximum ceiling",  # "Is that a built-in cap?" / "a maximum of 100 connections"
    "mode permission perms",  # "What file mode does it give the socket?" / "Octal permissions"
    "shorten reduce decrease",
    "overall total whole",  # "the overall deadline" / "a total 300 seconds timeout"
    "deadline timeout",
)
_GROUP_OF: Final[dict[str, frozenset[str]]] = {}
for _line in _GROUPS:
    _stems = frozenset(stem(w) for w in _line.split())
    for _s in _stems:
        _GROUP_OF[_s] = _GROUP_OF.get(_s, frozenset()) | _stems

# Words that speak of the same thing from its other side, as pairs of sides: "does the .9
# still get thrown away?" is answered by "the field now preserves float values"; a premise
# that "combine keeps its inputs" is opposed by "the input files are deleted".
OPPOSITE_PAIRS: Final = (
    (
        ("keep", "keeps", "kept", "retain", "preserve"),
        (
            "delete", "deleted", "remove", "removed", "discard", "erase", "strip", "drop",
            "throw", "thrown", "lose", "lost",
        ),
    ),
    (("enable", "enabled"), ("disable", "disabled")),
    (("include", "included"), ("exclude", "excluded")),
    (("allow", "allowed", "permit"), ("forbid", "prohibit", "disallow", "reject", "refuse")),
    (("show", "shown", "display"), ("hide", "hid", "hidden")),
)  # fmt: skip
_OPPOSITE_OF: Final[dict[str, frozenset[str]]] = {}
for _one, _other in OPPOSITE_PAIRS:
    _a, _b = frozenset(map(stem, _one)), frozenset(map(stem, _other))
    for _s in _a:
        _OPPOSITE_OF[_s] = _OPPOSITE_OF.get(_s, frozenset()) | _b
    for _s in _b:
        _OPPOSITE_OF[_s] = _OPPOSITE_OF.get(_s, frozenset()) | _a


def opposites(term_stem: str) -> frozenset[str]:
    """Stems saying the opposite of ``term_stem`` about the same thing."""
    return _OPPOSITE_OF.get(term_stem, frozenset())


# "I haven't configured it", "out of the box", "with no configuration": the default setup.
_NO_CONFIGURATION: Final = re.compile(
    r"\b(?:have(?:n't| not)|had(?:n't| not)|did(?:n't| not)|do(?:n't| not)|never|without|"
    r"not yet|before)\s+(?:\w+\s+)?(?:configur|set(?:ting)? up|customi[sz])\w*"
    r"|\bunconfigured\b|\bout[- ]of[- ]the[- ]box\b|\bwith no configuration\b"
    r"|\bdefault (?:setup|configuration|config|settings)\b",
    re.I,
)
DEFAULT_TERM: Final = "default"


def alternatives(term_stem: str) -> frozenset[str]:
    """Stems that may stand for ``term_stem`` (itself excluded)."""
    return _GROUP_OF.get(term_stem, frozenset()) - {term_stem}


def about_default_setup(text: str) -> bool:
    """Does the text speak of the setup one gets without configuring anything?"""
    return bool(_NO_CONFIGURATION.search(text)) or bool(
        re.search(r"\bby default\b|\bdefaults?\b", text, re.I)
    )


def asks_about_default_setup(question: str) -> bool:
    """Does the question set the scene "nothing configured" ("I haven't configured structlog
    at all", "out of the box")? Its answer speaks of the default."""
    return bool(_NO_CONFIGURATION.search(question))
