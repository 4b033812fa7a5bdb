"""What a question asks for: the kind of answer, and the cue that a passage holds one.

Kinds (checked in this order): ``yes_no`` ("Does X …?", "Is X …?"), ``why`` (a reason),
``how`` (a mechanism or the steps to do something), ``list`` ("Which X are …?", "What are the
…?", "List …"), ``number`` ("How many", "What is the maximum/limit/size …", "How long"),
``date`` ("When", "Which version/year"), ``name`` ("Who", "Which library/class/function/
exception/header/status …", "What is X called"), ``place`` ("Where"), ``definition`` ("What is
X?" with nothing more specific), else ``lookup``.

A *cue* is a pattern a passage that answers such a question is likely to hold: a number for
``number``, a year or version for ``date``, a code literal or a capitalised name for ``name``,
a reason word ("because", "so that") for ``why``, an instruction or mechanism ("use", "set",
"pass", "by …ing", a code literal) for ``how``, an enumeration for ``list``. A question about a
*default* also cues the word "default" with a value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from backend.reasoning.offline.markup import plain, without_bullets
from backend.reasoning.offline.polarity import has_negation
from backend.reasoning.offline.synonyms import (
    DEFAULT_TERM,
    about_default_setup,
    asks_about_default_setup,
)
from backend.reasoning.offline.text import (
    STOPWORDS,
    key_terms,
    split_sentences,
    stem,
    word_set,
    words,
)

AnswerKind = Literal[
    "yes_no",
    "comparison",
    "why",
    "how",
    "list",
    "number",
    "date",
    "name",
    "place",
    "definition",
    "lookup",
]

_YES_NO: Final = re.compile(
    r"^\W*(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|must|may)\b",
    re.I,
)
_WHY: Final = re.compile(
    r"^\W*(?:why|for what reason|what is the (?:reason|purpose|point))\b"
    r"|\bwhy\b",
    re.I,
)
_PLACING: Final = r"(?:put|place|add|call|insert|register|hook|define|write)"
# "How deep …?", "how many …?": a measure, asked for as a number.
_MEASURES: Final = (
    "many|much|long|old|big|large|often|far|fast|deep|high|wide|tall|heavy|small|short|low|few|"
    "little|tiny|narrow|"
    # (the adverbs too: "How deeply can Markdown be nested before mistune stops …?")
    "deeply|frequently|widely"
)
# What a way asked for is said to be: "the recommended way", "the idiomatic way"
_STANDING: Final = (
    "recommended|intended|preferred|right|correct|proper|idiomatic|best|usual|supported|official"
)
_TYPE_IT: Final = (
    r"|^\W*what (?:(?:command|commands|exactly)\s+)?(?:do|should|can|would) (?:i|we|you) "
    r"(?:type|run|enter)\b"
    # "What do we put in pyproject.toml?": the lines to write there are the step
    r"|^\W*what (?:exactly\s+)?(?:do|should|can|would|must) (?:i|we|you) (?:put|write|add) "
    r"(?:in|into|to|under)\b"
    # "What do I need to change in the uWSGI setup?": the change to make is the step
    r"|^\W*what (?:else\s+)?(?:do|should|must|would) (?:i|we|you) (?:need|have) to "
    r"(?:change|do|set|add|configure|fix|enable|install)\b"
    # "What's the currently recommended way to wire uvloop in?", "the intended way to get …"
    r"|^\W*what(?:'s|’s| is| are) the (?:\w+ )?(?:" + _STANDING + r"|simplest|easiest) "
    r"(?:way|ways|approach)\b"
)
# The standing of a way asked for ("the currently recommended way"), not what the way does
_WAY_FRAME: Final = re.compile(
    r"\b(?:(?:currently|now)\s+)?(?:" + _STANDING + r")\s+(?:way|ways|approach)\b", re.I
)
_HOW: Final = re.compile(
    r"^\W*(?:how (?:do|does|did|can|could|should|would|is|are|to|will)|how\b(?!\s+(?:"
    + _MEASURES
    + r")\b)|what happens|in what way|what steps|what are the steps|walk me through)\b"
    r"|\bhow (?:do|can|should) (?:i|you|we)\b"
    # "Where do I put the super().__init__() call?": the place in one's own code is a step
    r"|^\W*where (?:do|should|can|would|must) (?:i|you|we|one) "
    + _PLACING
    + r"\b"
    # "What do I type?", "what command do I run?": the command is the step
    + _TYPE_IT
    # "When should I use sys_tags and when cpython_tags?": the circumstances, not a time
    + r"|\bwhen (?:should|would|do|must|can|could) (?:i|we|you|one) (?:use|pick|choose|prefer|"
    r"reach for)\b"
    # "when should I request unused_tcp_port and when …?": which case calls for it
    r"|\bwhen (?:should|would) (?:i|we|you|one) \w+\b[^?]*\band when\b",
    re.I,
)
_LIST: Final = re.compile(
    r"^\W*(?:list|name|enumerate)\b"
    # "Which options are …?" (not "What does attrs do …?": an auxiliary is no listed thing)
    r"|^\W*(?:(?:for|in|on|with|from|to|at|by|of)\s+)?(?:which|what)\s+"
    r"(?!(?:do|does|did|is|are|was|were|can|could|will|would|should|must|has|have|had)\b)"
    # ("Which of the returned mappings does it use?": one of them, not a list)
    r"(?!of\s+(?:the\s+|these\s+|those\s+)?(?:[\w-]+\s+){0,2}?[\w-]+s\s+(?:does|did|is|was|has)\b)"
    r"(?:[\w-]+\s+){0,3}?"
    r"[\w-]+s(?<!ss)(?<!us)(?<!is)(?:\s+of\s+(?:the\s+)?[\w.`'-]+)?\s+"
    r"(?:are|were|can|do|does|did|will|"
    r"should|must|have|has|is|am|may|could"
    # "Which familiar socket methods won't be available …?" ("can't", "don't": above)
    r"|won|wouldn|aren|isn|doesn|didn|shouldn"
    # "Which alternative worker classes ship with RQ?": what exists, each of them
    r"|ship|come|exist)\b"
    r"|^\W*what are (?:the|all)\b|\b(?:all|every|each of) the\b|\bwhich ones\b"
    r"|\b(?:what|which) (?:kinds? |sorts |types )of\b"
    # "What is a bound logger made of?": its parts
    r"|^\W*what\s+(?:is|are)\b[^?]{1,60}\b(?:made (?:up )?of|composed of|consists? of)\b"
    r"|\bwhat (?:parts|components|pieces)\b"
    # "Which functions make up the API?", "Which of the shipped validators …?", "in which order"
    r"|^\W*(?:which|what)\b[^?]{1,60}\bmakes? up\b"
    # ("Which of the teams … was sold?" asks for one of them)
    # (an auxiliary is no plural: "Which of the returned mappings does it use?" is one of them)
    r"|^\W*which of the (?:(?!(?:is|was|has|does)\b)[\w-]+\s+){0,2}(?!(?:is|was|has|does)\b)"
    r"[\w-]+s\b(?![^?]*\b(?:is|was|has|does)\b)"
    r"|\bin (?:which|what) order\b"
    # "What are those phases called?": the names of several
    r"|^\W*what\s+are\s+(?:the|these|those|they|all)\s+(?:[\w-]+\s+){0,2}?(?:[\w-]+s\s+)?"
    r"(?:called|named)\b",
    re.I,
)
_NUMBER: Final = re.compile(
    r"^\W*(?:(?:roughly|approximately|about|around|exactly|precisely)\s+)?how (?:"
    + _MEASURES
    + r")\b"
    # "Per the benchmarks, roughly how much longer does it take …?": asked after a scene
    r"|,\s*(?:\w+\s+)?how (?:many|much|long|often)\b"
    # (a paper size is a name: "a4paper", "letter")
    r"|\b(?:maximum|minimum|max|min|limit|(?<!paper )size|number of|count of|length|duration|"
    r"timeout|how many|percentage|ratio|port|rate)\b"
    # "What is the longest delay SQS will honour?": a value, at its bound
    r"|\b(?:what|which)(?:'s|\s+is|\s+are)\s+the\s+(?:longest|shortest|largest|smallest|"
    r"highest|lowest|biggest|greatest|fewest)\s+(?:[\w-]+\s+)?(?:delay|timeout|time|wait|"
    r"interval|duration|period|size|length|value|number|count|age|lifetime|ttl)s?\b"
    # "What is the largest request header block, in bytes, …?": a value in its unit
    r"|,\s*in\s+(?:bytes|kilobytes|megabytes|[kmg]i?b|bits|seconds|milliseconds|ms|minutes|"
    r"hours|days|characters|chars|lines|pixels|px)\s*[,?]",
    re.I,
)
_VERSION: Final = re.compile(
    r"\b(?:what|which|minimum|min|oldest|earliest|first|lowest|newest|latest)\b"
    r"(?:\s+[\w'-]+){0,3}?\s+(?:version|release)s?\b(?!\s+(?:of\s+)?(?:the\s+)?(?:docs?|documentation))",
    re.I,
)
_RELEASE: Final = re.compile(r"\b(?:what|which) (?:version|release)\b", re.I)
# (a specification's version is a date: "assume protocol version `2025-03-26`")
_RELEASE_NUMBER: Final = re.compile(
    r"\bv?\d+\.\d+(?:\.\d+)*\b|\bversion \d+\b|\b(?:version|revision)s?\s+`?\d{4}-\d\d-\d\d\b",
    re.I,
)
_DATE: Final = re.compile(
    # "When I use evolve, are …?" sets a condition; "When do I …?", "When was it …?" ask a time.
    # "When our API serialises form.errors, under which key …?" sets one too: the ask follows
    r"^\W*when\b(?!\s+(?:I|we|you|they|it|he|she)\s+(?!(?:do|does|did|am|is|are|was|were|can|"
    r"could|will|would|should|have|has|had)\b)[a-z]+\b)"
    r"(?![^?,;]*,\s*(?:(?:in|on|at|under|for|from|to|with|by)\s+)?(?:what|which|how|where|who|whom"
    r"|why|is|are|does|do|did|can|could|should|will|would|must)\b)"
    r"|\b(?:what|which) (?:year|date|month|day|version|release)\b"
    # ("What date format does DateField parse?" asks for a format)
    r"(?!\s+(?:formats?|fields?|strings?|types?|columns?|ranges?|pattern|parser|style|library))"
    r"|\bsince when\b"
    r"|\bin what year\b",
    re.I,
)
# "When are the instrumentation hooks called?", "When does click.File open the file?": the
# moment in a program's run something happens ("before it waits for the backoff").
_WHEN_EVENT: Final = re.compile(
    r"^\W*when\s+(?:is|are|does|do|will|would)\s+(?!(?:i|we|you)\b)[^?]*?\b(?:called|run|runs|executed|invoked|"
    r"opened|closed|triggered|evaluated|fired|applied|raised|sent|flushed|loaded|started|"
    r"stopped|cleared|checked|validated|open|close|call|fire|trigger|flush|load|raise|send|"
    r"apply|evaluate|execute|invoke)\b",
    re.I,
)
# "When would I need capfd?": the circumstances that call for a thing, not a date
_WHEN_NEEDED: Final = re.compile(
    r"^\W*when\s+(?:would|should|do|does|might|must|will|can)\s+(?:i|we|you|one|it)\s+"
    r"(?:\w+\s+)?(?:need|use|want|prefer|choose|pick|reach for)\b",
    re.I,
)
_DATE_WORDS: Final = re.compile(
    r"\b(?:year|date|month|day|release[ds]?|version|added|introduced|removed|deprecated|"
    r"dropped|changed|renamed)\b",
    re.I,
)
# The kinds of name code has ("Which config key …", "which middleware …")
_CODE_NAME_KINDS: Final = (
    r"key|setting|option|flag|parameter|argument|variable|field|attribute|class|function|"
    r"method|exception|error|header|hook|decorator|fixture|marker|command|module|package|"
    r"library|middleware|directive|extension|plugin"
)
_AUXILIARY: Final = r"(?:does|do|did|is|are|was|were|has|have|can|will|should|must|would|could)"
_NAME: Final = re.compile(
    r"^\W*who(?:m|se)?\b|\bwhat is (?:it|this|that) called\b|\bwhat is the name\b"
    rf"|\b(?:which|what)\s+(?:[\w-]+\s+)?(?:{_CODE_NAME_KINDS}|status(?: code)?|code|tool|"
    r"format|protocol|algorithm|type|company|person|team|author|file|endpoint|event|value|"
    r"filter|policy|processor|renderer|converter|validator|helper)\b"
    # "Which middleware does every app get?": a which-question names its answer.
    rf"|^\W*which\s+[\w-]+(?:\s+[\w-]+)?\s+{_AUXILIARY}\b",
    re.I,
)
# An ask that opens by naming the kind of name it wants ("Which config key …", "What setting
# …"): a name, whatever measure a name in it holds ("the --command-timeout flag")
_NAMED_KIND_FIRST: Final = re.compile(
    rf"^\W*(?:which|what)\s+(?:[\w-]+\s+)?(?:{_CODE_NAME_KINDS})s?\s+{_AUXILIARY}\b", re.I
)
_PLACE: Final = re.compile(
    r"^\W*where\b|\b(?:in|from) (?:which|what) (?:city|country|state|town|place|county)\b", re.I
)
_DEFINITION: Final = re.compile(
    r"^\W*(?:what|who) (?:is|are|was|were) (?:an? |the )?[\w`'\"-]", re.I
)
_HOW_TO: Final = re.compile(
    r"\bhow (?:do|can|should|would|could|to|must) (?:i|you|we|one)\b|\bhow to\b"
    r"|\bwhat (?:are the )?steps\b"
    r"|\bwalk me through\b|\bhow (?:can|could|should|must)\b"  # "how can a test see …"
    r"|^\W*how\W*$"  # "I'd like validation skipped inside one block. How?"
    r"|^\W*where (?:do|should|can|would|must) (?:i|you|we|one) " + _PLACING + r"\b" + _TYPE_IT,
    re.I,
)
_COMPARISON: Final = re.compile(
    r"\b(?:difference|differences|differ|differs|differently|compare[sd]?|comparison|versus|vs\.?|"
    r"better than|worse than|prefer)\b",
    re.I,
)
# A comparison of two things, not the verb "compare" in a step ("how do I compare a field?")
_CONTRASTS: Final = re.compile(
    r"\b(?:difference|differences|differ|differs|differently|versus|vs\.?|better than|"
    r"worse than|prefer|compared? (?:with|to))\b"
    r"|\bcompar\w*\s+[\w.`]+(?:\s+[\w.`]+)?\s+(?:with|to|against|and)\s+[\w`]",
    re.I,
)
_DEFAULT: Final = re.compile(
    r"\bdefaults?\b|\bby default\b|\bout of the box\b"
    # ("Which hash function does a signer use if I don't pick one?")
    r"|\bif (?:i|you|we|one) (?:don't|do not|never) (?:give|pass|set|specify|provide|supply|"
    r"pick|choose|select|name)\b"
    r"|\bif (?:none|nothing) is (?:given|passed|set|specified|provided)\b"
    r"|\bif (?:it|one|this) is(?:n't| not) (?:given|passed|set|specified|provided)\b"
    r"|\bif (?:omitted|unset|left out)\b|\bwithout (?:giving|passing|setting|specifying)\b"
    # "What file mode does waitress give that socket unless told otherwise?"
    r"|\bunless (?:told|(?:i|you|we) (?:say|tell it|specify|configure)) otherwise\b"
    r"|\b(?:when|if) (?:it is |it's )?left (?:alone|untouched|as it is)\b",
    re.I,
)

_CUES: Final[dict[str, re.Pattern[str]]] = {
    "number": re.compile(
        r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|hundred|"
        r"thousand|million|no limit|unlimited|infinite|infinitely|forever|indefinitely|"
        r"without (?:a )?limit)\b",
        re.I,
    ),
    "date": re.compile(
        r"\b1\d{3}\b|\b20\d{2}\b|\bv?\d+\.\d+(?:\.\d+)?\b|\b(?:January|February|March|April|"
        r"May|June|July|August|September|October|November|December)\b"
    ),
    "name": re.compile(
        r"`[^`]+`|\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+|\b[A-Z][A-Za-z]*[A-Z]\w*\b"
        r"|(?<![.!?:]\s)(?<!^)\b[A-Z][a-z]+\b|\b\w+_\w+\b|\b\d{3}\b"
    ),
    # "in Paris"; in software a path or a folder ("stores virtualenvs in `./.nox`", "under
    # `~/.cache`", "in the project's `.venv` directory")
    "place": re.compile(
        r"\b(?:in|at|from|near|based in)\s+(?:the\s+)?[A-Z]"
        r"|\b(?:in|into|at|under|below|inside|to)\s+(?:the\s+|a\s+|your\s+|its\s+)?"
        r"(?:[\w'-]+\s+)?`?(?:~|\.{1,2})?/[\w./~-]*`?"
        r"|\b(?:in|into|at|under|inside)\s+`[^`]*[/\\][^`]*`"
        r"|\b(?:in|into|at|under|inside)\s+(?:the\s+|a\s+|your\s+|its\s+)?(?:[\w`./'-]+\s+){0,2}"
        r"(?:directory|folder|path)\b"
        # an object's member it is kept in: "Generated fields are added to a `Schema's`
        # `_declared_fields` attribute."
        r"|\b(?:in|into|to|on|under)\s+(?:the\s+|a\s+|an\s+|its\s+|your\s+)?(?:[\w`.'-]+\s+){0,2}"
        r"(?:attribute|property|registry)\b"
    ),
    "why": re.compile(
        r"\b(?:because|since|so that|in order to|to (?:avoid|prevent|ensure|allow|keep|make)|"
        r"due to|as a result|this means|the reason|which means|otherwise|so as to|"
        r"relies on|relying on|depends on|caused by|results? in|leads? to|thus|hence|therefore|"
        # what it is good for: "exponentially increasing jitter helps minimise collisions"
        r"helps?(?: to)? (?:avoid|prevent|minimi[sz]e|reduce|ensure|keep))\b"
        # a consequence spelled out: "If you have X enabled, cached loggers will not be affected"
        r"|\bif\b[^.;]{3,80},[^.;]{0,80}\b(?:will|won't|would|cannot|can't)\b"
        r"|,\s+so\s+(?:it|you|that|the|this|they|these|those|we|there)\b"
        # a limit stated, which explains what the asker sees: "``sync`` worker does not
        # support persistent connections and will ignore this option"
        r"|\b(?:does|do)\s*(?:not|n't)\s+support\b|\bwill\s+ignore\b|\b(?:is|are)\s+ignored\b"
        # a failure and what brings it about: "Pickling of slotted classes will fail if you
        # define a class with missing attributes", "This situation can occur if …"
        r"|\b(?:fails?|(?:will|would|can|may)\s+(?:fail|break|occur|happen))\s+(?:if|when|whenever|unless)\b",
        re.I,
    ),
    "how": re.compile(
        r"\byou (?:can|need to|should|must|have to)\b(?!['’]t|\s+not\b|not\b)|\bby \w+ing\b|\bvia `"
        r"|\bto \w+[^.]{0,60}?,\s*(?:use|set|pass|call|add|install)\b"
        # ("… the test client will add the raw value to `REQUEST_URI`" is what it does)
        r"|(?<!\bwill )(?<!\bwould )\b(?:use|set|pass|call|install|configure|enable|add|create|"
        r"instantiate|specify|provide|run)\b[^.]{0,40}`|\bhas to be (?:set|passed|called)\b"
        # a way named as a step: "Setting the `anyio_mode = "auto"` option …", "Passing `-x`"
        r"|^\W*(?:setting|passing|using|adding|calling|installing|enabling)\s+[^.]{0,30}`"
        r"|(?:^|[.;:]\s*)(?:first|then|next|finally)\b,?\s+\w+|\b(?:first|then|next|finally),"
        # "The proper way to type such a class variable is with `typing.ClassVar`", "attrs
        # comes with the `attrs.cmp_using` helper": the way to do it, named
        r"|\b(?:proper|right|recommended|correct|preferred|intended|simplest|easiest) way\b"
        # a documented option ("`allow_credentials` - …", "`--limit-max-requests <int>` - …"):
        # set it
        r"|^\W*`-{0,2}[\w.][\w.-]*(?:\s+(?:[<\[]|/\s*-)[^`]*)?`\s*[-–:]\s",
        re.I | re.M,
    ),
    "mechanism": re.compile(
        r"\b(?:by|using|uses?|via|when|if|each|every|then|first|after|before|computes?|"
        r"calculates?|checks?|sends?|returns?|reads?|writes?|stores?|keeps?|runs?|calls?|"
        r"weigh(?:s|ted)?|ranks?|scores?|compares?|matches|means)\b|[=×%]|\d",
        re.I,
    ),
    "list": re.compile(r"\n\s*(?:[-*•+]|\d+[.)])\s", re.M),  # or an inline enumeration
    "definition": re.compile(r"\b(?:is|are|was|were|refers to|means|describes|provides)\b", re.I),
}
_SIGNATURE_WITH_DEFAULTS: Final = re.compile(r"`[\w.]+\([^`]*?\w=[^`]*?,[^`]*?\w=[^`]*\)`")
_NAMED_DEFAULT: Final = re.compile(r"""(?:named|called|alias)\s+["'“`]default["'”`]""", re.I)
_BUILT_IN: Final = re.compile(
    r"\bbuilt[- ]?in\b|\bout of the box\b|\bships? with\b|\bbundled\b", re.I
)
_DEFAULT_VALUE: Final = re.compile(
    # ("**Default:** *'info'*": a quoted string is a value)
    r"\bdefaults?\b[^.]{0,80}?(?:\d|`[^`]+`|\*?'[^'\s]+'|\b(?:true|false|none|null|enabled|disabled|on|off|"
    r"forever|never|always|unlimited|infinite|indefinitely)\b)"
    r"|(?:\d|`[^`]+`|\b(?:true|false|none|null)\b)[^.]{0,80}?\bdefaults?\b"
    r"|\bby default\b|\bnot \w+ \w* ?by default\b"
    # "If the logger level is not set, it will be set to `INFO` on first use.": the value
    # taken when none is given
    r"|\b(?:if|when|while)\b[^.]{0,60}?\b(?:(?:is|are)\s+)?(?:not|never)\s+(?:set|given|"
    r"specified|provided|passed|configured)\b[^.]{0,60}?(?:`[^`]+`|\b\d)"
    r"|\b\w+\s?=\s?(?:\d|true\b|false\b|none\b)",  # a signature's keyword default
    re.I,
)
# A default stated in words: "When this configuration option is unset, it defaults to function
# scope." (the word after it is the value)
_DEFAULTS_TO: Final = re.compile(r"\bdefaults? to (?:the |a |an )?([a-z][\w-]*)", re.I)
# Not values: a link, an issue or pull request number, a version ("from version 0.10.0",
# "Since Jinja 2.1, …").
_REFERENCES: Final = re.compile(
    r"\(?https?://\S+|#\d+|\bv?\d+\.\d+\.\d+\w*|\bversions? \d+(?:\.\d+)*"
    r"|(?-i:\b[A-Z][A-Za-z]+ \d+(?:\.\d+)+\b)"  # ("CommonMark 0.31.2": every part)
    # a link's target ("[transport](/specification/2025-11-25/basic/transports)"), a name
    # carrying a number ("UTF-8", "SHA-256", "SEP-2577", "RFC 5424", "HTTP/1.1"): no quantity
    # of anything
    r"|\]\([^)\s]*\)|\b[A-Za-z]{2,}-\d+\b|\bRFC\s?\d+\b|\b[A-Za-z]{2,}/\d+(?:\.\d+)?\b"
    # a label's number ("Note 1:", "Step 2", "see Figure 3")
    r"|\b(?:note|step|example|figure|fig\.|table|section|chapter|appendix|listing|footnote)\s+"
    r"\d+\b",
    re.I,
)


# "In which cases is the AST allowed to differ?", "At a high level, what stages does it go
# through …?": the cases or stages, listed (before "differ" reads as a comparison).
_CASES: Final = re.compile(
    r"\b(?:which|what)\s+(?:\w+\s+)?(?:cases|situations|circumstances|scenarios|stages|phases)\b",
    re.I,
)

# Checked in this order: the first pattern that matches names the kind.
# "Besides a number of seconds, what can I pass as the timeout?": what kind of thing it takes,
# not a measure.
_WHAT_TO_PASS: Final = re.compile(
    r"\bwhat (?:else |other \w+ )?(?:can|could|may|should) (?:i|we|you) (?:pass|give|use|provide|"
    r"supply|set) (?:as|for|to|in)\b",
    re.I,
)
_KINDS: Final[tuple[tuple[re.Pattern[str], AnswerKind], ...]] = (
    (_YES_NO, "yes_no"),
    (_CASES, "list"),
    (_COMPARISON, "comparison"),
    (_WHY, "why"),
    (_HOW, "how"),
    (_LIST, "list"),
    (_WHAT_TO_PASS, "lookup"),  # "what can I pass as the timeout?": the kinds of value
    (_NAMED_KIND_FIRST, "name"),  # "Which config key does the --command-timeout flag set?"
    (_VERSION, "date"),  # "the minimum structlog version": a release, not a count
    (_NUMBER, "number"),
    (_DATE, "date"),
    (_PLACE, "place"),
    (_NAME, "name"),
)


@dataclass(frozen=True, slots=True)
class Asked:
    """What the question asks for."""

    kind: AnswerKind
    terms: list[str]  # the content words an answer should cover
    about_default: bool  # "what is the default …", "… by default?"
    how_to: bool = False  # "how do I …" (steps to take), not "how does X …" (a mechanism)
    counted: tuple[str, ...] = ()  # what "how many …" counts ("seconds", "worker processes")
    # The words of the asking part when the question first sets a scene ("When testing with
    # CliRunner, how do I answer the prompts?"): an answer must hold these; the scene's words
    # weigh half. Empty when the whole question asks.
    focus: tuple[str, ...] = ()
    # "Which logger …", "which environment variable …": the kind of name asked for.
    wants: tuple[str, ...] = ()
    # "I haven't configured it", "out of the box": the answer speaks of the default setup.
    default_setup: bool = False
    # "Starting with which release …", "the minimum X version": a release number, not a month.
    release: bool = False
    # Literals the question quotes ("norway", `y = attr.ib()`): code that holds one shows it.
    quoted: tuple[str, ...] = ()
    # "In which order …": the steps listed, or a sentence that states the order ("Hook
    # implementations are called in LIFO registered order").
    order: bool = False
    # "How many retries per second …?": a rate ("second"), said per that unit
    rate: str = ""
    # "… go through instead of raising an error?": stems of what the asker wants to do without
    avoided: tuple[str, ...] = ()
    # "… pick up all our async tests without a marker?": stems of a thing to do without
    avoided_things: tuple[str, ...] = ()
    # "What happens on those machines when the program starts?": an outcome ("… raises
    # `ModuleNotFoundError` rather than falling back"), not what is needed
    outcome: bool = False
    # "Both define a command with the same name. Which one gets run?": which of two that
    # clash wins, stated as precedence ("the first source wins").
    precedence: bool = False
    # "Which socket methods won't be available …?": a list of what is not (unsupported,
    # missing, refused); a list of what is answers the opposite
    denied: bool = False
    # "How far can I raise it?": how high a value may go, a bound ("Value is a number from 0
    # (unlimited) to 8190"), not the value it has ("Default: `4094`")
    bound: bool = False
    # "Who can connect to the control socket?": who is let in, said of people or roles
    # ("allows only the socket owner"), not a name of any kind ("Default: `gunicorn.ctl`")
    people: bool = False


# A question often opens with its setting: a statement ("My users are on Zsh. How …?") or a
# clause ("When no object is found, how do …?", "On Linux, which …?"). What it asks for is in
# the asking part: a wh-word or auxiliary after the comma.
_ASK_WORD: Final = (
    r"(?=(?:how|what|which|who|whom|whose|where|when|why|is|are|was|were|do|does|did|can|"
    r"could|should|would|will|must|may|has|have)\b)"
)
_ASKING: Final = r"\s*" + _ASK_WORD
# Text that opens with a wh-word or an auxiliary: an ask ("what exception does it raise …?")
OPENS_ASKING: Final = re.compile(_ASK_WORD)
# A scene set by a condition ("When …, how …?"): it narrows, the rest asks.
_CONDITION_CLAUSE: Final = re.compile(
    r"^\W*(?:when|whenever|if|once|after|before|while|since|although|though|unless|until|till|however)"
    # (a call's commas are inside its parentheses: "When I call apply_async(..., retry=True),
    # which keys …?")
    r"\b(?:[^,?()]|\([^()?]*\))*," + _ASKING,
    re.I,
)
# A scene set by a phrase ("On Linux, which …?", "To accept uploads, which …?"): its words
# are still part of what is asked.
_PHRASE_CLAUSE: Final = re.compile(
    r"^\W*(?:in|on|for|with|without|to|as|given|besides|apart from|aside from|other than)\b"
    r"(?:[^,?()]|\([^()?]*\))*," + _ASKING,
    re.I,
)
_COLON_SCENE: Final = re.compile(
    r"^[^:?]{10,160}:\s+(?=(?:if|when|whenever|once|after|before|while)\b[^,?]*,"
    + _ASKING
    + r"|"
    + _ASK_WORD
    + r")",
    re.I,
)
# "Settings in the system-wide /etc/docutils.conf take precedence over my personal ~/.docutils
# file; how can I make my personal config win instead?": a statement, then the ask
SEMICOLON_ASK_TERMS: Final = 4
_SEMICOLON_SCENE: Final = re.compile(r"^[^;?]{10,200};\s+(?=" + _ASK_WORD + r")", re.I)
# "whether it came from the default or …": what follows "whether" is not what is asked.
_WHETHER: Final = re.compile(r"\bwhether\b.*", re.I)


_ASKS: Final = re.compile(
    r"\s*(?:which|what|how|why|when|where|who|whom|whose|is|are|does|do|did|can|could|should|"
    r"will|would|must)\b",
    re.I,
)


def asking_part(question: str, phrases: bool = True) -> str:
    """The part of a question that says what it asks for: its sentence that asks (the
    statements before it set the scene), without an opening clause that only sets the scene
    (a condition; with ``phrases``, also a phrase such as "On Linux,")."""
    q = question.strip()
    sentences = split_sentences(q)  # "John H. Johnson" is one sentence
    asking = [s for s in sentences if s.rstrip().endswith("?")]
    if not asking and len(sentences) > 1 and _ASKS.match(sentences[-1]):
        asking = sentences[-1:]  # a part cut from a longer question: "… file. Which helper …"
    q = asking[0] if len(asking) == 1 and len(sentences) > 1 else q
    if not phrases and not _COMPARISON.search(q.split(":", 1)[0]):
        # "Using cached_property on a slotted class: if several threads read it, is …?": what
        # comes before the colon says where the asker is; the ask follows it. ("X versus Y:
        # what changes?" names what is compared there.)
        q = _COLON_SCENE.sub("", q, count=1).strip() or q
        # (an ask of a few words leans on the statement: "…; what else do we need to switch on?")
        after = _SEMICOLON_SCENE.sub("", q, count=1).strip()
        if after != q and len(key_terms(after)) >= SEMICOLON_ASK_TERMS:
            q = after
    q = _CONDITION_CLAUSE.sub("", q, count=1).strip() or q
    return (_PHRASE_CLAUSE.sub("", q, count=1).strip() or q) if phrases else q


_REFERS_BACK: Final = re.compile(
    r"\b(?:do|does|did|achieve|accomplish|get|make|implement|solve|fix)\s+(?:that|this)\b"
    r"|\b(?:that|this)\s+(?:happen|work)s?\b",
    re.I,
)


_CANNOT: Final = re.compile(
    r"\byou\s+(?:can['’]t|cannot|can\s+not|must\s+not|mustn['’]t|should\s+not|shouldn['’]t)\b",
    re.I,
)
POINTS_BACK: Final = re.compile(r"\b(?:it|they|that|this|those|these|ones?)\b", re.I)


_ACTOR: Final = re.compile(
    r"^\W*(?i:how)\s+(?:does|do|did|can|could|would|will|should)\s+"
    r"(?!I\b)(?P<actor>[A-Z][\w.-]*|the\s+\w+|it|they)\s+(?P<rest>\w.+)$"
)


FLAG: Final = re.compile(r"(?:(?<=[\s(`\"'])|^)--?[A-Za-z][\w-]*(?<!-)(?=[\s,.;:?!)`\"'=]|$)")


_GIVES_BACK: Final = re.compile(
    r"\b(?:get|gets|got|come|comes|came|hand|hands|give|gives)\s+(?:\w+\s+)?back\b", re.I
)
# Words a question uses to set its scene that no answer is about: "I need to show literal
# Jinja syntax like {{ user }}" matched "… like in Python" and a loop over `user.…`.
_FILLER: Final = word_set("need needs like")
# The scene leaves a parameter out ("… and didn't pass tag_name. Which key …?"): its default
# is what is asked
_LEFT_OUT: Final = re.compile(
    r"\b(?:have(?:n't| not)|did(?:n't| not)|do(?:n't| not)|never)\s+(?:pass|give|set|specify|"
    r"provide|supply)\s+(?:a|an|any|the)?\s*`?[a-z]\w*_\w+"
    # "when you don't pass any flags", "with no options at all": every option left as it is
    r"|\b(?:don't|do not|didn't|did not|never|without)\s+(?:pass(?:ing)?|giv(?:e|ing)|"
    r"set(?:ting)?|specify(?:ing)?|us(?:e|ing)|add(?:ing)?)\s+(?:any|an?|the)?\s*"
    # ("… and never set the document options, what paper size …?")
    r"(?:(?!(?:flags?|options?|arguments?|parameters?|settings?)\b)[a-z]+\s+)?"
    r"(?:flags?|options?|arguments?|parameters?|settings?)\b"
    r"|\bwith(?:out)? (?:no|any) (?:flags?|options?|arguments?|parameters?)\b"
    # "If I create a PooledPostgresqlDatabase and don't pass any connection cap, …"
    r"|\b(?:don't|do not|never)\s+(?:pass|give|set|specify|provide|supply)\s+any\s+"
    r"(?!more\b|longer\b)[a-z]\w+"
    # "If I call create_index without giving an index name, what name …?": the one left out
    r"|\bwithout\s+(?:giving|passing|specifying|setting|providing|supplying)\s+(?:it\s+)?"
    r"(?:a|an|any|the)\s+\w+",
    re.I,
)


# An ask that opens by counting ("For how many days after the first release …?") asks for a
# count, whatever release or date it counts from
_COUNT_FIRST: Final = re.compile(
    r"^\W*(?:(?:for|in|after|within|by)\s+)?how\s+(?:many|much|long)\b", re.I
)


def analyse(question: str) -> Asked:
    """The kind of answer ``question`` wants and the words an answer should cover."""
    q = asking_part(question)
    kind: AnswerKind = next((k for pattern, k in _KINDS if pattern.search(q)), "lookup")
    if kind == "date" and _COUNT_FIRST.search(q):
        kind = "number"  # "For how many days after the new series' first release …?"
    after_colon = asking_part(question, phrases=False)
    if kind == "lookup" and after_colon != q:
        # "Before I move some functions to to_process.run_sync: what restrictions are there
        # on …?": the ask after the scene's colon says its kind
        kind = next((k for pattern, k in _KINDS if pattern.search(after_colon)), "lookup")
        q = after_colon if kind != "lookup" else q
    if kind == "comparison" and _HOW_TO.search(q) and not _CONTRASTS.search(q):
        kind = "how"  # "How do I get attrs to compare that field sensibly?" is a step to take
    if kind == "lookup" and _DEFINITION.search(q) and len(key_terms(q)) <= 3:
        kind = "definition"
    about_default = kind not in ("yes_no", "why", "how", "comparison") and bool(
        _DEFAULT.search(_WHETHER.sub("", q)) or _LEFT_OUT.search(question)
    )
    if kind == "date" and (_VERSION.search(q) or _RELEASE.search(q)):
        # "In which release is it expected to become the default?", "From which release is
        # that the default?": the release asked for, not the value a default has
        about_default = False
    if kind == "date" and (
        (_WHEN_EVENT.search(q) and not _DATE_WORDS.search(q)) or _WHEN_NEEDED.search(q)
    ):
        kind = "lookup"  # "When are the hooks called?": a moment of the program, not a date
    how_to = kind == "how" and bool(_HOW_TO.search(q))
    terms = key_terms(question.strip())  # the setting's words are still what an answer is about
    terms = [t for t in terms if t not in _FILLER]
    # A command-line flag is a term as written ("make -h work as well as --help": "-h" is
    # what the answer must show; "h" is no word).
    terms += [f for f in dict.fromkeys(FLAG.findall(question)) if f not in terms]
    if _GIVES_BACK.search(question):  # "What do I get back from calling send()?": what it returns
        terms = ["return" if t.lower() == "back" else t for t in terms]
    if (asks_about_default_setup(question) or about_default) and DEFAULT_TERM not in terms:
        # "I haven't configured it", "unless told otherwise", "if I don't pass one": the
        # answer is the default, and says so
        terms.append(DEFAULT_TERM)
    counted = _COUNTED.search(q) if kind == "number" else None
    nouns = tuple(counted.group("nouns").lower().split()) if counted else ()
    if kind == "number" and not nouns and (much := _MUCH.search(q)):
        # "Roughly how much kernel memory does each inotify watch use?": a measure of memory,
        # which a passage on the kernel's version never states
        nouns = (much.group("noun").lower(),)
    asks = asking_part(question, phrases=False)
    # "… and then put the caller's value back. How do I do that?": the scene is the ask.
    refers_back = _REFERS_BACK.search(asks) is not None or (
        len(key_terms(asks)) <= 2 and POINTS_BACK.search(asks) is not None  # "Which one gets run?"
    )
    focus = tuple(key_terms(asks)) if asks != question.strip() and not refers_back else ()
    if kind == "how" and (frame := _WAY_FRAME.search(asks)):
        # "What's the currently recommended way to wire uvloop into pytest-asyncio?": the
        # way's standing is no word the answer needs ("Define a … hook …" is the way)
        # (asked only "What's the idiomatic way?", the scene is read as before)
        frame_words = {w.lower() for w in re.findall(r"[\w'-]+", frame.group(0))}
        focus = tuple(t for t in focus if t.lower() not in frame_words) or focus
    if not focus and not refers_back and (acting := _ACTOR.match(asks)):
        # "How does MARSA score the quality of a source?": the documents name what does it
        # ("`scoring.py` scores …"); the verb and its object are what is asked.
        asked_part = key_terms(acting.group("rest"))
        focus = tuple(asked_part) if len(asked_part) >= 2 else ()
    return Asked(
        kind,
        terms,
        about_default,
        how_to,
        nouns,
        focus,
        wanted_type(q),
        default_setup=asks_about_default_setup(question),
        release=kind == "date" and bool(_VERSION.search(q) or _RELEASE.search(q)),
        quoted=quoted_code(question),
        order=kind == "list" and bool(_ORDER_ASKED.search(q)),
        precedence=kind in ("lookup", "name") and bool(_PRECEDENCE_ASKED.search(q)),
        rate=(rated.group("unit").lower() if (rated := _RATE_ASKED.search(q)) else ""),
        avoided=tuple(dict.fromkeys(stem(v.lower()) for v in _AVOIDED.findall(question))),
        avoided_things=tuple(
            dict.fromkeys(stem(v.lower()) for v in _AVOIDED_THING.findall(question))
        ),
        outcome=kind == "how" and bool(_WHAT_HAPPENS.match(q)),
        denied=kind == "list" and has_negation(_SUBORDINATE.split(asks)[0]),
        bound=kind == "number" and bool(_BOUND_ASKED.search(q)),
        people=kind == "name" and bool(_WHO_IS_LET.match(q)),
    )


_WHO_IS_LET: Final = re.compile(
    r"^\W*who\s+(?:can|could|may|is\s+allowed\s+to|are\s+allowed\s+to|is\s+able\s+to|has|have|"
    r"gets?)\s+(?:access|connect|read|write|use|see|reach|run|call|open|edit|change|modify|"
    r"delete|send)\b",
    re.I,
)
_PEOPLE: Final = re.compile(
    r"\b(?:owners?|users?|groups?|root|admins?|administrators?|anyone|anybody|everyone|"
    r"everybody|nobody|no\s+one|members?|others|world|superusers?)\b",
    re.I,
)


_BOUND_ASKED: Final = re.compile(
    r"\bhow\s+(?:far|high|large|big|long|much|many)\s+(?:\w+\s+)?(?:can|could|may|might|am|are|"
    r"is)\s+(?:i|we|you|one|it|they|this|that)\s+(?:be\s+)?(?:raise|increase|set|go|push|bump|"
    r"grow|extend|allowed|raised|increased|set)\b"
    r"|\b(?:upper\s+(?:limit|bound)|(?:highest|largest|biggest)\s+(?:value|setting|number))\b",
    re.I,
)
# A bound stated: "from 0 (unlimited) to 8190", "up to 32768", "can't be larger than 32768",
# "at most 10", "to as much as 60 seconds"; not "The maximum size of HTTP request line in bytes."
_BOUND_STATED: Final = re.compile(
    r"\bfrom\s+[-−]?\d[\d,.]*\s*(?:\([^)]{0,30}\)\s*)?(?:to|through|-|–)\s*\d"
    r"|\bbetween\s+[-−]?\d[\d,.]*\s+and\s+\d"
    r"|\b(?:up\s+to|at\s+most|no\s+more\s+than|a\s+maximum\s+of|max(?:imum)?\s*(?:is|of|=|:)|"
    r"as\s+(?:much|high|many|large|long|big)\s+as)"
    r"\s*`?\d"
    r"|\b(?:can(?:no|')t|cannot|must\s+not|may\s+not)\s+(?:be\s+)?(?:larger|greater|more|higher|"
    r"bigger|exceed)\b",
    re.I,
)


# Where the main clause of an ask ends: "Which processors does structlog run by default, when
# I don't configure anything?" lists what runs (the negation is the condition's)
_SUBORDINATE: Final = re.compile(
    r",|\b(?:when|whenever|if|unless|without|once|after|before|because|so that|while|until)\b",
    re.I,
)


_QUOTED: Final = re.compile(r'"([^"\n]{2,40})"|`([^`\n]{2,60})`')


def quoted_code(question: str) -> tuple[str, ...]:
    """What the question quotes as code or input: literals in quotes or backticks
    (``"norway"``, ```y = attr.ib()```), not a bare name of code (the docs use those
    everywhere)."""
    found = [(a or b).strip() for a, b in _QUOTED.findall(question)]
    rest = _QUOTED.sub(" ", question)
    found += _URL_PATH.findall(rest)  # "/users/me", "/users/{username}"
    # a call written out without backticks ("add_job(func, 'cron', day=1, minute=20)"): the
    # values it sets are the asker's own literals, as if quoted ("day=1", "minute=20"), when
    # it sets two or more (one, "schedule(delay=60)", is any example's)
    for call in _CALL.finditer(rest):
        values = [m.group(0) for m in _KEYWORD_VALUE.finditer(call.group("args"))]
        found += values if len(values) >= 2 else []
    return tuple(dict.fromkeys(f for f in found if f))


_CALL: Final = re.compile(r"\b[A-Za-z_][\w.]*\((?P<args>[^()\n]{3,120})\)")
_KEYWORD_VALUE: Final = re.compile(r"(?<![\w.])[a-z_]\w*=[\w.'\"-]+")


# A URL path written out ("My /users/me route …"): a literal, as if quoted
_URL_PATH: Final = re.compile(r"(?<![\w/.~:])/[A-Za-z_{<][\w{}<>.:-]*(?:/[\w{}<>.:-]+)+")


_WHICH: Final = re.compile(
    r"\b(?:which|what)\s+(?P<words>(?:[a-z][a-z-]*\s+){0,2}[a-z][a-z-]*)", re.I
)
_NOT_A_TYPE: Final = word_set(
    "do does did is are was were must should can could will would has have had may might "
    "i you we they it the a an my our your their this that of to in on for kind sort type "
    "one ones happens happen and or"  # ("What exit status and message …": no kind "and")
)


# "Is there an environment variable that does the same as -f?", "Is there a flag to …": a
# thing of a kind a program names, asked for by whether one exists (the kind's words, then
# what it should do)
_IS_THERE: Final = re.compile(
    r"\b(?:is|are)\s+there\s+(?:a|an|any|some)\s+(?P<words>(?:[a-z][a-z-]*\s+){0,2}?"
    r"(?:flags?|options?|settings?|switch(?:es)?|variables?|functions?|methods?|hooks?|"
    r"decorators?|signals?|parameters?|arguments?|keywords?|attributes?|properties|property|"
    r"class(?:es)?|exceptions?|commands?|subcommands?|callbacks?|headers?|fields?|events?|"
    r"extras?|markers?|fixtures?|loggers?|helpers?|keys?|plugins?|backends?|validators?|"
    r"converters?|middlewares?|renderers?|processors?|filters?|directives?|modules?|"
    r"packages?|librar(?:y|ies)|tools?))"
    r"\s+(?:that|which|to|for|i|we|you|in|on|with|like)\b",
    re.I,
)


def wanted_type(question: str) -> tuple[str, ...]:
    """The words naming the kind of thing a "which/what …" question asks for: "Which logger
    ends up …" → ("logger", "ends"), "which environment variable wins" → ("environment",
    "variable", "wins"); () when the question word is followed by a verb or pronoun. "Is
    there an environment variable that …?" asks for one too: ("environment", "variable")."""
    match = _WHICH.search(question)
    if not match:
        there = _IS_THERE.search(question)
        return tuple(there.group("words").lower().split()) if there else ()
    out: list[str] = []
    for word in match.group("words").lower().split():
        if word in _NOT_A_TYPE:
            break
        out.append(word)
    return tuple(out)


_IDENT: Final = re.compile(r"[A-Za-z_][\w.]*\w")
_CHARACTER_WORDS: Final = frozenset(
    stem(w) for w in ("character", "separator", "delimiter", "symbol", "char")
)
_CHARACTER: Final = re.compile(
    r"`[^\w\s`]{1,2}`|'[^\w\s']{1,2}'|\"[^\w\s\"]{1,2}\""
    r"|\b(?:colon|semicolon|comma|pipe|slash|backslash|tab|newline|hyphen|dash|underscore|"
    r"period|dot|whitespace|space|ampersand|asterisk|equals sign)s?\b",
    re.I,
)
_ENV_VAR: Final = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^[A-Z]{3,}$")


# Kinds of thing a program calls by a name written in code.
_RAISED_KINDS: Final = frozenset({"exception", "exceptions", "error", "errors", "warning"})
_CODE_KINDS: Final = frozenset({"function", "method", "decorator", "hook", "helper", "callable"})


def _says_name(asked: Asked, passage: str, question: str = "") -> bool:
    """Does the passage say what the thing asked for is named ("Which logger should I grab?" /
    "The logger is named `"werkzeug"`.", named after the product the question names), or name
    one in code beside the word for its kind ("Which function should I call?" / "The two
    functions provided are `.compare_metadata` … and `.produce_migrations`")?"""
    said = question.lower()
    for w in asked.wants:
        kind = re.escape(w)
        if re.search(rf"\b{kind}s?\s+(?:is|are)\s+(?:named|called)\s+`", passage, re.I):
            return True
        # an exception named in code written as one: "an `kombu.exceptions.ConnectionLimit
        # Exceeded` exception will be raised"
        for m in (
            ()
            if w.lower() not in _RAISED_KINDS
            else re.finditer(
                rf"`(?P<a>[^`\s]+)`\s+{kind}s?\b|\b{kind}s?\s+`(?P<b>[^`\s]+)`", passage, re.I
            )
        ):
            name = (m.group("a") or m.group("b")).strip(".()").rsplit(".", 1)[-1].lower()
            if len(name) > 2 and name not in said:
                return True
        if not question or w.lower() not in _CODE_KINDS:
            continue
        for m in re.finditer(rf"\b{kind}s?\b", passage, re.I):
            near = passage[max(m.start() - 80, 0) : m.end() + 80]
            if any(
                c.strip("`.()").lower() not in said and len(c.strip("`.()")) > 2
                for c in re.findall(r"`[^`\s]+`", near)
            ):
                return True
    return False


# The asker speaking of their own setup ("I pass …", "our tests", "for me"), outside quotes
# (a title such as "I'm in the Mood for Love" is a name).
_ASKER: Final = re.compile(
    r"\bI(?:'m|'ve|'d|'ll|’m|’ve|’d|’ll)?\b|(?:^\W*|(?<=[.?!:;] ))(?:My|We|Our)\b"
    r"|\b(?:my|me|we|our|us|myself|ourselves)\b"
)
_IN_QUOTES: Final = re.compile(r'"[^"\n]*"|“[^”\n]*”|`[^`\n]*`')


def about_the_asker(question: str) -> bool:
    """Does the question speak of the asker's own situation ("In my tests I keep calling
    json.dumps …")? Then it is answered by what the documents advise, not by a chain of facts
    about the names it meets on the way."""
    return _ASKER.search(_IN_QUOTES.sub(" ", question)) is not None


_ARGUMENT_KINDS: Final = frozenset(stem(w) for w in ("argument", "parameter", "keyword", "kwarg"))
# a keyword passed in a call: `PoolManager(num_pools=50)`
KEYWORD_ARGUMENT: Final = re.compile(r"\w\((?:[^()]*,)?\s*([a-z_]\w*)\s*=(?!=)")


# … or written alone: "Pass `override=True` to override existing variables."
_KEYWORD_WRITTEN: Final = re.compile(r"`([a-z_]\w*)\s*=(?!=)[^`\s][^`]*`")


def passes_keyword(passage: str, said: str) -> bool:
    """Does the passage pass a keyword argument that ``said`` (the question, lower-cased)
    does not name?"""
    named = [m.group(1) for m in KEYWORD_ARGUMENT.finditer(passage)]
    named += [m.group(1) for m in _KEYWORD_WRITTEN.finditer(passage)]
    return any(name.lower() not in said for name in named)


def asks_for_argument(asked: Asked) -> bool:
    """Does the question ask which argument, parameter or keyword ("which constructor
    argument raises that number?")?"""
    return bool({stem(w) for w in asked.wants} & _ARGUMENT_KINDS)


def names_wanted_type(asked: Asked, passage: str, question: str) -> bool:
    """Does the passage name something of the kind asked for, that the question does not
    already name: a ``PrintLogger`` for "which logger", ``NO_COLOR`` for "which environment
    variable", a ``…Error`` for "which exception"?"""
    if not asked.wants:
        return False
    if _says_name(asked, passage, question):
        return True
    said = question.lower()
    wants = {stem(w) for w in asked.wants}
    if wants & _CHARACTER_WORDS:  # "which character separates …": a character, shown or named
        found = _CHARACTER.findall(passage)
        return any(c.lower() not in said for c in found)
    if asks_for_argument(asked) and passes_keyword(passage, said):
        return True  # "which constructor argument …": `PoolManager(num_pools=50)`
    if wants & _MEMBER_WORDS:  # "Which loop attribute …?": "`loop.index0`: …"
        asked_words = set(re.findall(r"[a-z_]\w*", said))
        for owner, member in _MEMBER.findall(passage):
            if owner.lower() in asked_words and member.lower() not in said:
                return True
    if wants & _STATUS_WORDS:  # "what HTTP status do I get back?": "`HTTP 204`: If …"
        codes = _HTTP_STATUS.findall(passage)
        if any(code not in said for code in codes):
            return True
    if wants & {"error", "except"}:
        # a traceback's last line names what was raised, however it is named
        # ("itsdangerous.exc.SignatureExpired: Signature age 15 > 5 seconds")
        for raised in _TRACEBACK_RAISED.finditer(passage):
            if raised.group("name").rsplit(".", 1)[-1].lower() not in said:
                return True
    env = "variable" in asked.wants and "environment" in asked.wants
    for token in _IDENT.findall(passage):
        if token.lower() in said or len(token) < 3:
            continue
        if env and _ENV_VAR.match(token):
            return True
        name = token.rsplit(".", 1)[-1]
        if (
            not re.fullmatch(r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*", name)
            or sum(c.isupper() for c in name) < 2
        ):
            continue  # a class's name: not a plain word, nor a function ("get_logger")
        parts = re.findall(r"[A-Z][a-z0-9]*", name)
        last = stem(parts[-1].lower()) if parts else ""
        if last in wants or (last in ("error", "except") and wants & {"error", "except"}):
            return True
    return False


_TRACEBACK_RAISED: Final = re.compile(
    # (one line per repetition, its first character fixed: no backtracking over how a line
    # splits, which took minutes on a long traceback that ends in no name)
    r"^Traceback \(most recent call last\):[ \t]*(?:\n(?:[ \t]|\.\.\.)[^\n]*)*"
    r"\n(?P<name>[A-Za-z_][\w.]*)(?::|[ \t]*$)",
    re.M,
)
_STATUS_WORDS: Final = frozenset(stem(w) for w in ("status", "code"))
_MEMBER_WORDS: Final = frozenset(stem(w) for w in ("attribute", "property", "member", "method"))
_MEMBER: Final = re.compile(r"\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)\b")
_HTTP_STATUS: Final = re.compile(r"\b[1-5]\d\d\b")


_COUNTED: Final = re.compile(
    r"\bhow many\s+(?P<nouns>[\w-]+(?:\s+(?!(?:is|are|was|were|do|does|did|can|could|will|"
    r"would|should|may|might|must|has|have|had|of|in|at|on|per|for|to)\b)[\w-]+)?)",
    re.I,
)
# "how much kernel memory does …": the thing measured, the word before the verb (not a
# comparative, "how much longer does …", nor time, which a unit states, "30 seconds")
_MUCH: Final = re.compile(
    r"\bhow much\s+(?:[\w-]+\s+)?(?!(?:time|longer|more|less|faster|slower|later|sooner)\b)"
    rf"(?P<noun>[a-z][\w-]*)\s+{_AUXILIARY}\b",
    re.I,
)
# What the asker wants to get by without: "… go through instead of raising an error?",
# "… without restarting the process?"
_AVOIDED: Final = re.compile(r"\b(?:instead\s+of|rather\s+than|without)\s+([a-z]{3,}ing)\b", re.I)
# … and a thing it wants to do without: "… pick up all our async tests without a marker?"
# ("… without adding a command-line flag?": the flag, however it would be put in)
_AVOIDED_THING: Final = re.compile(
    r"\b(?:instead\s+of|rather\s+than|without)\s+"
    r"(?:(?:adding|using|passing|setting|writing|calling|giving|specifying)\s+)?"
    r"(?:a|an|the|any)\s+(?:[a-z][a-z-]*\s+)?"
    r"(?!(?:need|help|use|ability|chance|way)\b)([a-z]{3,})\b(?!-)",
    re.I,
)
_WHAT_HAPPENS: Final = re.compile(r"^\W*what\s+(?:happens|will happen|would happen)\b", re.I)
# What comes of it: an error raised, a value returned, a thing dropped or ignored
_OUTCOME: Final = re.compile(
    r"\b(?:raise[sd]?|raising|fail(?:s|ed)?|error|exception|returns?|returned|falls?\s+back|"
    r"ignored|discarded|dropped|stops?|exits?|hangs?|crash(?:es)?|warns?|rejects?|rejected|"
    r"treated|becomes?|will|won't|results?\s+in|leads?\s+to)\b"
    # done to it: "values … are therefore loaded with no validation"
    r"|\b(?:is|are|gets?)\s+(?:(?:then|therefore|also|still|simply|silently)\s+)?[a-z]{3,}ed\b",
    re.I,
)
# A rate: "how many retries per second"
_RATE_ASKED: Final = re.compile(
    r"\bhow many\s+[\w-]+(?:\s+[\w-]+)?\s+per\s+"
    r"(?P<unit>second|minute|hour|day|week|month|year|request|connection|host|call)\b",
    re.I,
)
# What a measured value is counted in ("five seconds", "ten times", "two kilobytes").
_UNIT: Final = re.compile(
    r"^(?:\w+ )?(?:(?:milli|micro|nano)?seconds?|minutes?|hours?|days?|weeks?|months?|years?|"
    r"times|(?:kilo|mega|giga)?bytes?|[kmg]i?b|characters?|chars?|lines?|columns?|percent|"
    r"retries|attempts?)\b",
    re.I,
)
_NUMBER_WORD: Final = re.compile(
    r"\b(?:a single|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|"
    r"thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|"
    r"thousand|million)\b",
    re.I,
)


_SET_TO_CHOOSE: Final = re.compile(
    r"(?:^|(?<=[.;:!?]\s)|(?<=\n)|\b(?:you\s+(?:can|may|could)|can\s+be|may\s+be)\s+)"
    r"set\s+(?:it\s+|this\s+|the\s+value\s+)?to\s+`?[-−]?\d[\d.,]*`?",
    re.I,
)


# a status code with its reason phrase ("400 Bad Request", "202 Accepted")
_STATUS_LINE: Final = re.compile(
    _HTTP_STATUS.pattern + r"\s+(?:Bad|Not|Accepted|OK|Created|No|Moved|Found|See|Temporary"
    r"|Permanent|Unauthori[sz]ed|Forbidden|Method|Request|Payload|Unsupported|Too|Internal|Service"
    r"|Gateway|Conflict|Gone|Precondition|Unprocessable|Partial|Continue|Switching)\b"
)
# the question's words that ask for a status (stems): then a status line may be the answer
_ASKS_STATUS: Final = _STATUS_WORDS | frozenset(stem(w) for w in ("error", "response", "http"))
_CARDINALITY: Final = re.compile(r"\b\d+:[A-Za-z]\b|\b[A-Za-z]:\d+\b")
# Digits in a token, no quantity: a status class ("a 4xx status code"), a header value
# ("Expect: 100-continue"), an encoding ("utf-8")
_DIGIT_TOKEN: Final = re.compile(
    r"\b[1-5][xX]{2}\b|\b[A-Za-z]+-\d+\b"
    # ("a 64-bit integer", "a 30-second timeout" are measures)
    r"|\b\d+-(?!(?:bit|byte|way|tuple|element|item|day|hour|minute|second|character|line)s?\b)"
    r"[A-Za-z]+\b"
)


def _counts(asked: Asked, passage: str) -> bool:
    """A number for a "how many" question: digits, or a number word that counts the asked
    thing ("two worker processes"; "prompts in two different places" does not count
    seconds)."""
    passage = without_bullets(passage)  # "1. A context dictionary …" counts nothing
    # "Set to 0 to cancel immediately." is a value one may choose, not the one in effect
    # ("… is set to 30 by default" is)
    passage = _SET_TO_CHOOSE.sub(" ", passage)
    # "400 Bad Request" is a status, not a size or a count (unless a status is what is
    # asked); "the `1:N` registered hookimpls" is a cardinality, no number of anything
    if not _ASKS_STATUS.intersection(stem(t.lower()) for t in asked.terms):
        passage = _STATUS_LINE.sub(" ", passage)
    passage = _DIGIT_TOKEN.sub(" ", _CARDINALITY.sub(" ", passage))
    # "retries forever" answers "how many times does it retry?"; a digit in a name
    # ("`loop.depth0`", "utf8", "h11") is no number.
    if re.search(
        r"(?<![A-Za-z_\d])\d|\b(?:no limit|unlimited|infinite|infinitely|forever|indefinitely"
        r"|without (?:a )?limit)\b",
        passage,
        re.I,
    ):
        return True
    for match in _NUMBER_WORD.finditer(passage):
        after = words(passage[match.end() :])[:3]
        if not asked.counted and not (_UNIT.match(" ".join(after[:2])) or "per" in after):
            continue  # "one or more settings", "three parts": not a measure ("two per second")
        if not asked.counted or any(
            stem(w)[:5] == stem(n)[:5] for w in after for n in asked.counted
        ):
            return True
    return False


def names_counted(asked: Asked, text: str) -> bool:
    """Does the text name what a "how many" question counts ("worker threads": a thread or a
    worker)? A sentence that never names it cannot say how many there are ("… loops through
    the registered hookimpls and calls them in sequence" for "how many worker threads").
    True when the question counts no named thing, or counts a unit ("how many seconds")."""
    nouns = [
        n
        for n in asked.counted
        if n not in STOPWORDS and len(n) > 2 and not _UNIT.match(n) and not n.isdigit()
    ]
    if asked.rate and not re.search(
        rf"\b(?:per|a|an|each|every)\s+{asked.rate}|/\s*{asked.rate[0]}\b", text, re.I
    ):
        return False  # "how many retries per second": a rate, said per second or not at all
    if not nouns:
        return True
    seen = {stem(w)[:5] for w in words(text)}
    return any(stem(n)[:5] in seen for n in nouns)


# three or more names in code, one after another: "`completed`, `failed`, or `cancelled`"
CODE_SERIES: Final = re.compile(r"`[^`\n]+`(?:\s*,\s*(?:(?:and|or)\s+)?`[^`\n]+`){2,}")


def enumerates(text: str) -> bool:
    """Does a sentence list items inline: three or more parts split by commas, semicolons,
    "and" or "or", at least two of them short ("Bash (version 4.4 and up), Zsh, and Fish";
    not "it calls source to output the script, or complete to output completions")?"""
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if CODE_SERIES.search(sentence):
            return True  # "Tasks with a `completed`, `failed`, or `cancelled` status …"
        plain = re.sub(r"\([^()]*\)", "", sentence)  # "(version 4.4 and up)" is one item
        parts = [p for p in re.split(r"[,;]|\band\b|\bor\b", plain) if p.strip()]
        short = [p for p in parts[1:] if len(p.split()) <= 3]
        if len(parts) >= 3 and len(short) >= 2:
            return True
    return False


_ORDER_ASKED: Final = re.compile(r"\bin (?:which|what) order\b|\bwhat order\b", re.I)
# A sentence that states an order: "in LIFO registered order", "in the order they were
# added", "in reverse order", "are called first".
_ORDER_STATED: Final = re.compile(
    r"\b(?:LIFO|FIFO|last[- ]in[- ]first[- ]out|first[- ]in[- ]first[- ]out)\b"
    r"|\bin\s+(?:the\s+)?(?:[\w-]+\s+){0,2}order\b(?!\s+to\b)"
    r"|\b(?:called|run|executed|invoked|applied|processed)\s+(?:first|last)\b",
    re.I,
)

# Which of two that clash is the one that counts: "Which one gets run?", "Which environment
# variable wins?", "which of them takes precedence?"
_PRECEDENCE_ASKED: Final = re.compile(
    r"\bwhich\s+(?:one|of\s+(?:them|the\s+two|these|those|both))\s+(?:\w+\s+)?"
    r"(?:gets?\s+(?:run|used|called|picked|chosen|applied)|wins?|takes?\s+(?:precedence|priority|"
    r"effect)|applies|is\s+(?:used|run|called|kept|picked|applied))\b"
    r"|\bwhich\s+(?:[a-z]\w*\s+){1,2}(?:wins|takes\s+precedence)\b",
    re.I,
)
_PRECEDENCE_STATED: Final = re.compile(
    r"\b(?:wins?|takes?\s+(?:precedence|priority)|precedence\s+over|overrides?|overridden|"
    r"(?:has|have|given|gets?)\s+(?:priority|precedence)|regardless\s+of|preferred|"
    r"(?:first|last)\s+(?:one|source|match|definition|value)s?)\b",
    re.I,
)


def holds_cue(asked: Asked, passage: str, is_code: bool = False) -> bool:
    """Does the passage hold the kind of thing the question asks for? (A lead-in with its
    code answers a "how".)"""
    if is_code and asked.kind == "how":
        # "Please note that you can't directly set attributes on frozen classes:" with its
        # code shows what fails, not how to do it.
        return not _CANNOT.search(passage.split("```")[0])
    if asked.kind == "number" or asked.about_default:
        passage = _REFERENCES.sub(" ", passage)
    if asked.about_default:  # ('a ThreadPoolExecutor named "default", with a worker count of
        # 20' is one configured on purpose: "default" is its name, not a default)
        passage = _NAMED_DEFAULT.sub(" name ", passage)
    # An object's signature as the docs show it ("`RedisJobStore(db=0, jobs_key='apscheduler.jobs',
    # run_times_key='apscheduler.run_times', …)`") gives each parameter's default, a list of them
    signature = bool(_SIGNATURE_WITH_DEFAULTS.match(passage.strip()))
    if (
        asked.about_default
        and not signature
        and not (
            _DEFAULT_VALUE.search(_without_asked_names(asked, passage)) or _defaults_to(passage)
        )
        # ("Which compression schemes does Celery support out of the box?": "… using the
        # following builtin schemes:" lists what comes with it)
        and not (asked.kind == "list" and _BUILT_IN.search(passage))
    ):
        return False
    if asked.about_default and asked.kind == "list":
        return True  # the default, given, is the list asked for ("The default value is `[…]`")
    if asked.default_setup and not (about_default_setup(passage) or signature):
        return False  # "I haven't configured anything": what happens by default, not otherwise
    if signature and asked.kind == "list" and asked.default_setup:
        return True
    if asked.kind == "number" and asked.about_default:
        # the number is the default's, said in one sentence with it: "… 100,000 threads are
        # spawned …. … this is how `run_sync` works by default." gives no default count
        return any(
            _counts(asked, s)
            and (_DEFAULT_VALUE.search(_without_asked_names(asked, s)) or _defaults_to(s))
            for s in split_sentences(passage)
        )
    if asked.people:
        return bool(_PEOPLE.search(passage))
    if asked.kind == "number" and asked.bound:
        return _counts(asked, passage) and bool(_BOUND_STATED.search(plain(passage)))
    if asked.kind == "number":
        return _counts(asked, passage)
    if asked.release:  # "in July 2018 we came up with `attr.define`" names no release
        return _names_release(passage, asked.terms)
    if asked.kind == "list" and enumerates(passage):
        return True
    if asked.order and _ORDER_STATED.search(passage):
        return True
    if asked.precedence:  # "Which one gets run?" / "… the first source wins."
        return bool(_PRECEDENCE_STATED.search(passage))
    if asked.outcome:
        return bool(_OUTCOME.search(passage))
    kind = "mechanism" if asked.kind == "how" and not asked.how_to else asked.kind
    if kind == "place" and _RUNS_OR_KEPT.intersection(asked.terms) and _RUNS_IN.search(passage):
        return True
    cue = _CUES.get(kind)
    if cue is None:  # yes/no and plain lookups: any statement can answer
        return True
    if kind == "name":  # the name asked for is one the question does not already say
        # (or the passage says it is the name: "The logger is named `"werkzeug"`.")
        return (
            any(_new_name(m.group(0), asked.terms) for m in cue.finditer(passage))
            or _says_name(asked, passage)
            or _called_as_wanted(asked, passage)
            # "What scope do our tests use by default?" / "… it defaults to function scope."
            or (
                asked.about_default
                and any(_new_name(w, asked.terms) for w in _defaults_to(passage))
            )
        )
    return bool(cue.search(passage))


def _defaults_to(passage: str) -> list[str]:
    """The values a passage gives in words as defaults ("it defaults to function scope":
    "function"; not "Each request defaults to this config." nor "default to being sent")."""
    return [
        w
        for w in (m.group(1) for m in _DEFAULTS_TO.finditer(passage))
        if w.lower() not in STOPWORDS and not w.lower().endswith("ing")
    ]


def _without_asked_names(asked: Asked, passage: str) -> str:
    """The passage less the code the question itself names: "the default redirection handling
    with the `follow_redirects` parameter" gives no default value of `follow_redirects`."""
    known = {t.lower() for t in asked.terms}

    def drop(m: re.Match[str]) -> str:
        parts = set(re.findall(r"[a-z0-9]+", m.group(1).lower()))
        return " " if parts and parts <= known else m.group(0)

    return re.sub(r"`([^`]+)`", drop, passage)


# "Where does AsyncIOScheduler run the jobs?" asks where code runs or data is kept: "run jobs
# in the event loop's thread pool", "executed in a separate process", "kept in memory" (not
# where a name comes from: "each test runs in its own event loop")
_RUNS_OR_KEPT: Final = word_set(
    "run runs execute executes executed store stores stored keep keeps kept live lives"
)
_RUNS_IN: Final = re.compile(
    r"\b(?:in|on|inside)\s+(?:the\s+|a\s+|an\s+|its\s+|their\s+|your\s+)?"
    r"(?:[\w'-]+\s+){0,3}(?:thread|process|pool|event loop|worker|subprocess|memory)s?\b"
)
_LINK: Final = re.compile(r"\(?https?://[^\s)]+\)?")
_PRODUCT_BEFORE: Final = re.compile(r"\b([A-Z][\w.+-]*)\s+$")
_GENERIC_RELEASE_WORDS: Final = word_set("version versions release releases v since as of in")


def _names_release(passage: str, terms: list[str]) -> bool:
    """A release number of what the question asks about: "attrs 21.3.0", "version 20.1.0",
    not "before Python 3.7" when the question does not ask about Python (another product's
    release, named by its capitalised name just before the number)."""
    known = {t.lower() for t in terms} | {stem(t.lower()) for t in terms}
    passage = _LINK.sub(" ", passage)  # a link's target ("…/en/17.3.0/changelog.html") is no text
    for match in _RELEASE_NUMBER.finditer(passage):
        product = _PRODUCT_BEFORE.search(passage[: match.start()])
        name = product.group(1).lower() if product else ""
        if not name or name in _GENERIC_RELEASE_WORDS or name in known or stem(name) in known:
            return True
    return False


def _called_as_wanted(asked: Asked, passage: str) -> bool:
    """Does the passage call a name it gives by the kind asked for ("the registry looks for the
    `__component_name__` attribute" for "Which attribute does the registry read to pick up the
    component name?"), a name the question does not write itself? (Its words may be the
    question's: the attribute is named for what it holds.)"""
    wanted = {stem(w.lower()) for w in asked.wants}
    if not wanted:
        return False
    written = {t.lower() for t in asked.terms}
    for m in re.finditer(r"`([^`\s]+)`", passage):
        before = re.search(r"([a-z]+)\s+$", passage[: m.start()])
        after = re.match(r"\s+([a-z]+)", passage[m.end() :])
        kinds = {stem(k.group(1)) for k in (before, after) if k is not None}
        if kinds & wanted and m.group(1).lower() not in written:
            return True
    return False


def _new_name(name: str, terms: list[str]) -> bool:
    """Has the name a word the question's terms lack? ("Context.default_map" does not answer
    "Which Context method … the default map?"; "get_parameter_source" does.)"""
    known = {t.lower() for t in terms} | {stem(t.lower()) for t in terms}
    parts = re.findall(r"[a-z0-9]+", name.lower())
    return any(p not in known and stem(p) not in known for p in parts)


def needs_value(asked: Asked) -> bool:
    """A question whose answer is a value (a number, a date, a default): a passage without
    one does not answer it, however close its words."""
    return asked.kind in ("number", "date") or asked.about_default
