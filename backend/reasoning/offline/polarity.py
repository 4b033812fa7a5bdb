"""The words that turn a statement around: negations and opposite terms.

Word lists only, shared by :mod:`~backend.reasoning.offline.signals` (do two sentences
disagree?) and :mod:`~backend.reasoning.offline.direction` (which way does each thing move?).

* **negation** — not, no, never, without, neither, nor, cannot, none, n't, "fail(s/ed) to",
  "unable to", "incapable of";
* **axes** — pairs of opposite sides (increase/decrease, promotes/inhibits, associated/
  unrelated, susceptible/resistant, overestimate/underestimate, dependent/independent, …),
  compared by stem so that "reduces", "reduced" and "reduction" are one side; the lists
  are general English and biomedical usage, not taken from any benchmark's claims.
"""

from __future__ import annotations

import re
from typing import Final

from backend.reasoning.offline.text import stem, words

NEGATIONS: Final = frozenset(
    {
        "not",
        "no",
        "never",
        "without",
        "neither",
        "nor",
        "cannot",
        "none",
        "nobody",
        "nothing",
        "incapable",
    }
)
_NEGATION_PHRASE: Final = re.compile(r"\bfail(?:s|ed|ing)? to\b|\bdid not\b|\bunable to\b", re.I)
# "not only … but also" and "whether or not" do not negate anything; nor does a contrast set
# off by a comma, "per open filehandle, not per process: two `Lock` instances … still
# contend" (the sentence's own verb stays unnegated).
NOT_NEGATION: Final = re.compile(
    r"\bnot only\b|\bwhether or not\b|\bno doubt\b"
    r"|(?<=,\s)not\s+(?=(?:per|by|in|on|at|for|from|with|via|through|a|an|the)\b)",
    re.I,
)

# RFC 2119 keywords: they say how binding a rule is, not what it is about. Capitalised, they
# look like names to a name finder; their "NOT" is an ordinary negation.
NORMATIVE: Final = frozenset(
    {"must", "shall", "should", "may", "required", "recommended", "optional"}
)
_NORMATIVE_SPAN: Final = re.compile(
    r"(?:MUST|SHALL|SHOULD|MAY|REQUIRED|RECOMMENDED|OPTIONAL|NOT)(?:\s+(?:NOT|RECOMMENDED))?"
)

# Each axis: (words on one side, words on the other), compared by stem.
# fmt: off
_AXES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "increase/decrease": (
        ("increase", "increases", "increased", "rise", "rises", "rose", "risen", "raise", "raises",
         "raised", "elevate", "elevated", "boost", "boosts", "upregulate", "upregulates",
         "upregulated", "grow", "grows", "grew", "gain", "gains", "higher", "greater", "larger",
         "more", "up", "expand", "expands", "expanded", "expansion", "accumulate", "accumulates",
         "accumulated", "accumulation", "amplify", "amplifies", "amplified", "overexpressed",
         "overexpression", "elevation"),
        ("decrease", "decreases", "decreased", "reduce", "reduces", "reduced", "reduction",
         "decline", "declines", "declined", "fall", "falls", "fell", "fallen", "drop", "drops",
         "dropped", "diminish", "diminishes", "diminished", "downregulate", "downregulates",
         "downregulated", "shrink", "shrinks", "shrank", "loss", "lose", "loses", "lost",
         "lower", "lowers", "lowered", "less", "fewer", "smaller", "down", "deplete", "depletes",
         "depleted", "depletion", "scarce", "lessen", "lessens", "lessened", "mitigate",
         "mitigates", "mitigated", "slow", "slows", "slowed"),
    ),
    "promotes/inhibits": (
        ("promote", "promotes", "promoted", "activate", "activates", "activated", "enhance",
         "enhances", "enhanced", "induce", "induces", "induced", "stimulate", "stimulates",
         "stimulated", "facilitate", "facilitates", "augment", "augments", "augmented",
         "potentiate", "potentiates", "potentiated", "accelerate", "accelerates",
         "accelerated", "trigger", "triggers", "triggered", "drive", "drives", "encourage",
         "encourages", "encouraged", "enable", "enables", "enabled"),
        ("inhibit", "inhibits", "inhibited", "suppress", "suppresses", "suppressed", "block",
         "blocks", "blocked", "repress", "represses", "repressed", "impair", "impairs",
         "impaired", "prevent", "prevents", "prevented", "attenuate", "attenuates",
         "attenuated", "impede", "impedes", "impeded", "hinder", "hinders", "hindered",
         "delay", "delays", "delayed", "abolish", "abolishes", "abolished", "deactivate",
         "deactivates", "deactivated", "inactivate", "inactivates", "inactivated", "disrupt",
         "disrupts", "disrupted", "abrogate", "abrogates", "abrogated", "dampen", "dampens",
         "dampened", "restrict", "restricts", "restricted", "limit", "limits", "limited",
         "counteract", "counteracts"),
    ),
    "positive/negative": (("positive", "positively"), ("negative", "negatively")),
    "before/after": (("before", "earlier", "earliest", "preceded", "predates"),
                     ("after", "later", "latest", "followed", "postdates")),
    "older/younger": (("older", "oldest"), ("younger", "youngest", "newer", "newest")),
    "effective/ineffective": (("effective", "efficacious", "beneficial", "safe", "success",
                               "successful"),
                              ("ineffective", "inefficacious", "harmful", "unsafe", "failure",
                               "unsuccessful")),
    "faster/slower": (("faster", "fastest", "quicker"), ("slower", "slowest")),
    "better/worse": (("better", "best", "improve", "improves", "improved", "improvement",
                      "alleviate", "alleviates", "alleviated", "ameliorate", "ameliorates",
                      "amelioration", "rescue", "rescues", "rescued", "restore", "restores",
                      "restored", "benefit", "benefits"),
                     ("worse", "worst", "worsen", "worsens", "worsened", "deterioration",
                      "exacerbate", "exacerbates", "exacerbated", "aggravate", "aggravates")),
    "associated/unrelated": (("associated", "association", "related", "linked", "correlated",
                              "correlates", "correlation"),
                             ("unrelated", "unassociated", "uncorrelated", "unlinked")),
    "susceptible/resistant": (("susceptible", "susceptibility", "vulnerable", "vulnerability",
                               "prone"),
                              ("resistant", "refractory", "protected", "protects",
                               "protective")),
    "present/absent": (("present", "presence", "include", "includes", "included"),
                       ("absent", "absence", "exclude", "excludes", "excluded")),
    "overestimate/underestimate": (("overestimate", "overestimates", "overestimated",
                                    "overestimation", "overstate", "overstates", "overstated"),
                                   ("underestimate", "underestimates", "underestimated",
                                    "underestimation", "understate", "understates",
                                    "understated")),
    "dependent/independent": (("dependent", "dependence", "dependency"),
                              ("independent", "independence", "independently")),
    "true/false": (("true", "correct", "accurate", "confirmed"),
                   ("false", "incorrect", "inaccurate", "refuted", "myth")),
}
# fmt: on
# Axes that say which way an amount or an activity moves (the others judge or order things).
MOVEMENT: Final = frozenset({"increase/decrease", "promotes/inhibits", "positive/negative"})
AXIS_OF: Final[dict[str, tuple[str, int]]] = {
    stem(word): (axis, side)
    for axis, pair in _AXES.items()
    for side in (0, 1)
    for word in pair[side]
}
# Words that share a stem with a side but name a thing, not a change: "activity" and
# "active" stem like "activate", and "T cell activity" says nothing about promoting it;
# "positional" stems like "positive" ("positional arguments" had been read as arguments
# moving up), "presentation" like "present", "successive" like "success".
_SAME_STEM_NOT_A_SIDE: Final = frozenset(
    {
        "activity", "activities", "active",
        "position", "positions", "positional", "positionally", "positioned", "positioning",
        "presentation", "presentations", "presenter", "presenters", "presented", "presents",
        "presenting", "presently",
        "successive", "successively",
    }
)  # fmt: skip


def has_negation(sentence: str) -> bool:
    """True when the sentence negates something."""
    text = NOT_NEGATION.sub(" ", sentence)
    if _NEGATION_PHRASE.search(text):
        return True
    return any(w in NEGATIONS or w.endswith("n't") for w in words(text))


def without_normative(span: str) -> str:
    """A capitalised span without its RFC 2119 keywords ("MUST NOT" → "", "HTTP MUST" →
    "HTTP")."""
    return " ".join(w for w in span.split() if not _NORMATIVE_SPAN.fullmatch(w))


def axis_side(word: str) -> tuple[str, int] | None:
    """(axis, side) for a lower-case word on an antonym axis, else None."""
    return None if word in _SAME_STEM_NOT_A_SIDE else AXIS_OF.get(stem(word))


def polarity(sentence: str) -> dict[str, set[int]]:
    """For each antonym axis the sentence touches, which sides (0, 1) it uses."""
    sides: dict[str, set[int]] = {}
    for word in words(sentence):
        hit = axis_side(word)
        if hit is not None:
            sides.setdefault(hit[0], set()).add(hit[1])
    return sides
