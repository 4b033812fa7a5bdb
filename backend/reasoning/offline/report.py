"""The report: the answer first, then what backs it, where sources disagree, what was not
found, and the sources.

Sections: **Answer** (the direct answer of the kind the question asks for, or a plain "the
documents do not answer this" with what they say nearby); **Key findings** (the checked
claims that are complete sentences and not already the answer, grouped under each
sub-question that found something, better sources first); **Where the sources disagree**
(claims another source contradicts, both sides quoted); **Not covered** (parts of the
question nothing was found for); **Sources** (one line per document).

Every sentence taken from the sources ends with numbered citations ``[n]``; ``n`` is given to
a source (a document) the first time it is cited, and one number may carry several quotes.
Each :class:`Citation` quotes the exact words relied on, found verbatim in that source. A
second source is cited for a sentence only with words of its own that say the same (its
supporting evidence, or a sentence sharing most of the claim's content words); otherwise it
is not cited there. Claims no other source confirmed are marked "(not independently
confirmed)"; a claim resting on a draft, proposal, deprecated or superseded document says so.
What a reader sees has markup removed; the citation keeps the verbatim words.
"""

from __future__ import annotations

import re
from typing import Final

from backend.reasoning.models import Citation, Claim, Plan, Report, Source, SubQuery, Verdict
from backend.reasoning.offline.answer import DENIED, NOT_FOUND, Answer, direct_answer
from backend.reasoning.offline.claims import quality
from backend.reasoning.offline.embedding import SentenceVectors
from backend.reasoning.offline.markup import plain
from backend.reasoning.offline.passages import answerable, bare_list_item, release_entry
from backend.reasoning.offline.question import OPENS_ASKING, analyse, asking_part
from backend.reasoning.offline.text import (
    content_stems,
    content_words,
    mentions,
    split_sentences,
    stem,
)
from marsa_common.text import MIN_QUOTE_WORDS

MAX_CITES_PER_CLAIM: Final = 4
UNCONFIRMED: Final = "(not independently confirmed)"
# When most statements rest on one source (a documentation folder, where one author wrote every
# page), one line under the answer says so instead of a mark on nearly every statement. A
# line cites a second source only where that source says the same in its own sentence, so
# the markers show what is confirmed.
ONE_SOURCE_NOTE: Final = (
    "_Every statement in this report is quoted from the source it cites; where a statement "
    "cites one source, no other source found says the same._"
)
NOT_FOUND_PART: Final = "The documents found answer only part of this."
SAME_WORDS: Final = 0.6  # share of a claim's content words another source's sentence must hold
MOST_WORDS: Final = 0.8  # … holding less than this share, two of them side by side as well
OWN_SHARE: Final = 1 / 3  # … and, holding less than MOST_WORDS, this share of its own words
SHORT_CLAIM_WORDS: Final = 3  # a claim of this few content words is said only with all of them
# A question about releases or changes, which release notes answer; any other is not backed
# by an entry such as "Replace `requests` with `httpx` in `TestClient` #1376."
_ASKS_CHANGES: Final = re.compile(
    r"\b(?:versions?|releases?|released|changelog|change ?log|release notes|added|introduced|"
    r"removed|deprecated|deprecation|dropped|changed|changes|renamed|upgrad\w*|migrat\w*|"
    r"since|new in|breaking|history|fixed|fix|bug)\b|\bv?\d+\.\d+",
    re.I,
)


class _Citations:
    """Numbers sources in order of first use and records each (number, quote) once."""

    def __init__(self, sources: list[Source]):
        self.sources = {s.id: s for s in sources}
        self.numbers: dict[str, int] = {}
        self.citations: list[Citation] = []
        self._stems: dict[str, frozenset[str]] = {}

    def cite(self, source_id: str, quote: str) -> str:
        source = self.sources.get(source_id)
        if source is None:
            return ""
        if quote not in source.text:
            quote = closest_sentence(source.text, quote)
        quote = long_enough(quote, source.text)
        n = self.numbers.setdefault(source_id, len(self.numbers) + 1)
        if not any(c.n == n and c.quote == quote for c in self.citations):
            self.citations.append(Citation(n=n, source_id=source_id, quote=quote))
        return f"[{n}]"

    def for_claim(self, claim: Claim, verdict: Verdict | None) -> list[str]:
        """Markers for every source that states the claim or supports it in its own words, in
        the order of their numbers (the origin is numbered first when it is cited first)."""
        own_words = {
            e.source_id: e.quote
            for e in (verdict.evidence if verdict else [])
            if e.stance == "supports"
        }
        ids = list(dict.fromkeys([*claim.source_ids, *own_words]))[:MAX_CITES_PER_CLAIM]
        markers = []
        for i, source_id in enumerate(ids):
            if i == 0:
                quote: str | None = claim.text
            elif source_id in own_words and says_the_same(own_words[source_id], claim.text):
                quote = own_words[source_id]
            else:
                quote = self._same_words(source_id, claim.text)
            if (
                i > 0
                and quote is not None
                and self._only_topic(quote, claim.text, ids[0], source_id)
            ):
                quote = None
            if quote is not None:
                markers.append(self.cite(source_id, quote))
        return in_order(markers)

    def _only_topic(self, quote: str, text: str, *witnesses: str) -> bool:
        """Does the quote share with the text only words most other sources use too, the
        run's topic ("CSRF token … request" of every Flask-WTF page), so that it says nothing
        of what the text says ("The same CSRF token is generated for the lifetime of a
        request." is not said by "… before checking for the CSRF token.")? Read only when
        there are other sources to tell the topic by."""
        others = [self._stems_of(sid) for sid in self.sources if sid not in witnesses]
        if not others:
            return False
        shared = content_stems(text) & content_stems(quote)
        return all(sum(w in o for o in others) * 2 >= len(others) for w in shared)

    def _stems_of(self, source_id: str) -> frozenset[str]:
        if source_id not in self._stems:
            self._stems[source_id] = frozenset(content_stems(self.sources[source_id].text))
        return self._stems[source_id]

    def _same_words(self, source_id: str, text: str) -> str | None:
        """The source's own sentence that says what ``text`` says, if it has one."""
        source = self.sources.get(source_id)
        if source is None:
            return None
        if text in source.text:
            return text
        best = closest_sentence(source.text, text)
        return best if says_the_same(best, text) else None

    def statuses(self, markers: list[str]) -> str:
        """ " (proposal)" etc. for cited documents that are not the word on the matter."""
        by_number = {f"[{n}]": sid for sid, n in self.numbers.items()}
        found = {
            status
            for m in markers
            if (status := self.sources[by_number[m]].status if m in by_number else None)
        }
        return "".join(f" ({s})" for s in sorted(found))


def in_order(markers: list[str]) -> list[str]:
    """Markers once each, by number: "[1][2]" however the sources were found."""
    return sorted(dict.fromkeys(m for m in markers if m), key=lambda m: int(m.strip("[]")))


def long_enough(quote: str, text: str) -> str:
    """The quote, widened within the source's text to the words around it when it is shorter
    than the quote rule allows ("`WebSocketException(code=1008, reason=None)`" is two words):
    a verbatim slice that holds it, so the citation proves what it is cited for."""
    if len(quote.split()) >= MIN_QUOTE_WORDS or quote not in text:
        return quote
    start = text.index(quote)
    end = start + len(quote)
    while len(text[start:end].split()) < MIN_QUOTE_WORDS and (start > 0 or end < len(text)):
        before = text.rfind(" ", 0, max(start - 1, 0))
        start = 0 if before < 0 or start == 0 else before + 1
        if len(text[start:end].split()) >= MIN_QUOTE_WORDS:
            break
        after = text.find(" ", end + 1)
        end = len(text) if after < 0 else after
    return text[start:end].strip()


def says_the_same(quote: str, sentence: str) -> bool:
    """Does ``quote`` hold most of the sentence's content words? (What a second citation of a
    sentence must do: a related sentence on the same topic is not support.)"""
    goal = content_stems(sentence)
    shared = goal & content_stems(quote)
    if not goal or len(shared) < SAME_WORDS * len(goal):
        return False
    # A few words in common are a topic in common: a short sentence needs all of its words
    # ("Schedule is now installed." is not said by "… for larger installations it might be
    # desirable to have multiple schedulers"), and one sharing less than most of them needs
    # two of them side by side in both ("By default, schedule executes all jobs serially." is
    # not said by "Schedule does not account for the time … the job function … to execute").
    if len(goal) <= SHORT_CLAIM_WORDS and shared != goal:
        return False
    if len(shared) < MOST_WORDS * len(goal) and not _pairs(sentence) & _pairs(quote):
        return False
    # … nor, sharing less than most of them, by a sentence mostly about something else
    # ("`TemporaryFileLock` is a `Lock` whose lock file only exists while the lock is held."
    # is not said by "Behaviour change: fixed `TemporaryFileLock.acquire` destroying a held
    # lock when a third party unlinked or replaced the lock file …")
    if len(shared) < MOST_WORDS * len(goal) and len(shared) < OWN_SHARE * len(content_stems(quote)):
        return False
    # (and every code name and number it gives: "… used as the `before` keyword argument"
    # is not said by "… used as the `stop` keyword argument")
    # (a name as the other source writes it: `--ident=STR` is the "ident" of "ident: Server
    # identity …")
    names = [m.group(0) for span in _CODE_SPAN.findall(sentence) if (m := _NAME.search(span))]
    return all(
        re.search(rf"(?<!\w){re.escape(name)}(?!\w)", quote, re.I) for name in names
    ) and all(number in _NUMBER.findall(quote) for number in _NUMBER.findall(sentence))


def _pairs(text: str) -> set[tuple[str, str]]:
    """Each two content words that stand side by side in ``text``, as stems."""
    stems = [stem(w) for w in content_words(text)]
    return set(zip(stems, stems[1:], strict=False))


_CODE_SPAN: Final = re.compile(r"`([^`\n]+)`")
_NAME: Final = re.compile(r"[A-Za-z_][\w.]*\w|[A-Za-z]")  # a code span's name, flags' dashes off
_NUMBER: Final = re.compile(r"(?<![\w.])\d+(?:\.\d+)*(?!\w|\.\d)")


def closest_sentence(text: str, target: str) -> str:
    """The sentence of ``text`` sharing the most content words with ``target``."""
    sentences = split_sentences(text) or [text.strip()]
    goal = content_stems(target)
    return max(sentences, key=lambda s: (len(goal & content_stems(s)), -sentences.index(s)))


def write(
    plan: Plan,
    claims: list[Claim],
    verdicts: list[Verdict],
    sources: list[Source],
    vectors: SentenceVectors | None = None,
) -> Report:
    """Assemble the Markdown report and its citations."""
    by_claim = {v.claim_id: v for v in verdicts}
    registry = _Citations(sources)
    answer = direct_answer(plan, claims, by_claim, sources, vectors)
    shown = {c.id for c in answer.claims}
    disputed = [c for c in claims if _verdict_is(by_claim, c, "contradicted")]
    about_changes = bool(_ASKS_CHANGES.search(plan.query))
    findings = [
        c
        for c in _by_quality(claims, registry.sources)
        if c.id not in shown
        and c not in disputed
        and _complete(c.text)
        and not _cut_where_a_chunk_began(c, registry.sources)
        and not _only_listed(c, registry.sources)
        and not (answer.passage and c.text in answer.passage.quote)
        and (about_changes or not _release_entry(c, registry.sources))
    ]
    mostly_alone = _mostly_unconfirmed(answer, findings, by_claim)
    answer_line = _answer_line(answer, registry, by_claim, one_source_note=mostly_alone)
    lines = ["## Answer", "", answer_line, ""]
    if mostly_alone:
        lines += [ONE_SOURCE_NOTE, ""]
    sections = _sections(plan, findings, registry.sources)
    if sections:
        lines += ["## Key findings", ""]
        for heading, members in sections:
            if len(sections) > 1:
                lines += [f"### {heading}", ""]
            lines += [
                _claim_line(c, by_claim.get(c.id), registry, one_source_note=mostly_alone)
                for c in members
            ]
            lines.append("")
    if disputed:
        lines += ["## Where the sources disagree", ""]
        lines += [_claim_line(c, by_claim.get(c.id), registry) for c in disputed]
        lines.append("")
    missing = _not_covered(plan, claims, answer)
    if missing:
        lines += ["## Not covered", "", *missing, ""]
    lines += ["## Sources", ""]
    lines += [_source_line(n, registry.sources[sid]) for sid, n in registry.numbers.items()]
    return Report(
        markdown="\n".join(lines).rstrip() + "\n",
        citations=registry.citations,
        answer=answer_line,
        answer_found=answer.found,
        answer_basis={"asked": analyse(plan.query).kind, **answer.basis},
    )


def _as_statement(sentence: str) -> str:
    """The sentence, a closing ':' made a full stop ("… to all routes:" → "… to all routes.")."""
    return sentence.rstrip(": ") + "." if sentence.rstrip().endswith(":") else sentence


def _unconfirmed(verdict: Verdict | None) -> bool:
    return verdict is None or verdict.verdict == "unverifiable"


def _mostly_unconfirmed(
    answer: Answer, findings: list[Claim], verdicts: dict[str, Verdict]
) -> bool:
    """Do more than half of the report's statements (the answer found, and the findings) rest
    on their own source alone?"""
    alone = sum(_unconfirmed(verdicts.get(c.id)) for c in findings)
    total = len(findings)
    if answer.found and not answer.contested and (answer.claims or answer.passage):
        alone += answer.unconfirmed or any(p.unconfirmed for p in answer.parts)
        total += 1
    return total > 0 and 2 * alone > total


def _verdict_is(verdicts: dict[str, Verdict], claim: Claim, label: str) -> bool:
    verdict = verdicts.get(claim.id)
    return verdict is not None and verdict.verdict == label


def _complete(text: str) -> bool:
    """A statement a reader can take on its own: not a label, heading or fragment, and
    ending as a sentence ends."""
    shown = plain(text)
    return (
        answerable(text)
        and shown[-1:] in (".", "!", "?", ")", "”", '"')
        # "… so the model was given up.)": begun inside a parenthesis, cut where a chunk began
        and not _closes_unopened(shown)
    )


def _cut_where_a_chunk_began(claim: Claim, sources: dict[str, Source]) -> bool:
    """Does the claim open a retrieved chunk in lower case ("least one citation after the
    citation check …")? The store cuts a long section into overlapping windows at any word,
    so such a chunk, retrieved without the one before it, begins inside a sentence."""
    if not claim.text[:1].islower():
        return False
    for sid in claim.source_ids:
        source = sources.get(sid)
        if source is not None and any(
            chunk.lstrip().startswith(claim.text[:60]) for chunk in source.chunks
        ):
            return True
    return False


def _release_entry(claim: Claim, sources: dict[str, Source]) -> bool:
    """Is the claim an entry of release notes in a source it rests on?"""
    return any(
        (source := sources.get(sid)) is not None and release_entry(claim.text, source.title)
        for sid in claim.source_ids
    )


def _only_listed(claim: Claim, sources: dict[str, Source]) -> bool:
    """Is the claim a noun phrase of a list ("Value of that variable in the `.env` file."),
    which says nothing without the list's lead-in?"""
    return any(
        (source := sources.get(sid)) is not None and bare_list_item(source, claim.text)
        for sid in claim.source_ids
    )


def _closes_unopened(text: str) -> bool:
    """Does a ")" come before any "(" it could close?"""
    depth = 0
    for ch in re.sub(r"(?<![\w(])\w\)", "", text):  # (not an item's "a)" or "2)")
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return True
    return False


def _not_covered(plan: Plan, claims: list[Claim], answer: Answer) -> list[str]:
    """What was asked and not found: the question itself when nothing answers it (not when
    the answer is that the sources deny its premise), and each part or compared thing that
    found nothing. (A follow-up the engine chose itself, a bridge to a name it met, was not
    asked: finding nothing there leaves nothing uncovered.)"""
    lines = []
    # (a premise the sources deny is the answer: the question is not left uncovered)
    if not answer.found and answer.lead != DENIED:
        # (as the answer says: only part of it when some part was found)
        partly = any(part.found for part in answer.parts)
        said = "answer only part of it" if partly else "do not answer it"
        # what is asked, not the scene the asker sets before it (the answer above has it)
        asked = (asking_part(plan.query, phrases=False) or plan.query).strip()
        if OPENS_ASKING.match(asked):  # "what exception does it raise …?" after a scene
            asked = asked[0].upper() + asked[1:]
        lines.append(f"- {asked} The documents found {said}.")
    covered = {c.sub_query_id for c in claims}
    for sq in plan.sub_queries:
        if sq.purpose in ("whole question", "asking part", "expanded") or sq.id in covered:
            continue
        if sq.purpose.startswith("bridge: "):
            continue
        lines.append(f"- {_heading(plan, sq)}: nothing found in the sources.")
    return lines


def _run_on(lines: list[str]) -> str:
    """The lines of an answer's parts as one paragraph; a part ending in a code block ends
    its paragraph."""
    out = ""
    for line in lines:
        out += ("\n\n" if _ENDS_IN_BLOCK.search(out) else " " if out else "") + line
    return out


_ENDS_IN_BLOCK: Final = re.compile(r"\n`{3,}$")


def _answer_line(
    answer: Answer,
    registry: _Citations,
    verdicts: dict[str, Verdict],
    one_source_note: bool = False,
) -> str:
    """The answer as the report shows it; a statement no other source confirms is marked,
    unless the one-source note under it says so for the whole report."""
    if answer.contested:
        claim = answer.claims[0]
        line = _claim_line(claim, verdicts.get(claim.id), registry).removeprefix("- ")
        return line.replace("**Contested:**", "The sources disagree:", 1)
    if answer.parts:
        lines = [_answer_line(p, registry, verdicts, one_source_note) for p in answer.parts]
        if not answer.found:
            # (no part found: the documents do not answer it, however many parts it has; new
            # users read "only part of this" over unrelated passages as a part answered)
            partly = any(p.found for p in answer.parts)
            lines.insert(0, NOT_FOUND_PART if partly else NOT_FOUND)
        return _run_on(lines)
    if answer.passage is not None:
        passage = answer.passage
        own = registry.cite(passage.source.id, passage.quote)
        markers = [own]
        for claim in answer.claims:
            markers += registry.for_claim(claim, verdicts.get(claim.id))
        cited = in_order(markers)
        if len(passage.sentences) > 1 and not (passage.is_list or passage.is_code):
            # Every sentence carries its citation; other sources' markers close the passage.
            # (a lead-in to code read without its code ends as a statement)
            # (… unless its last line leads into the code shown after it: "… all you have to
            # do is:")
            last = len(passage.sentences) - 1
            body = " ".join(
                f"{plain(s) if answer.block and k == last else _as_statement(plain(s))} {own}"
                for k, s in enumerate(passage.sentences)
            )
            line = f"{answer.lead} {body}{''.join(m for m in cited if m != own)}".strip()
        else:
            line = f"{answer.lead} {answer.text} {''.join(cited)}".strip()  # code: its lines
        line += registry.statuses(cited)
        if answer.found and answer.unconfirmed and not one_source_note:
            line += f" {UNCONFIRMED}"
        if answer.block:  # the code, as a block after the words that cite it
            line += f"\n\n{answer.block}"
        return line
    if answer.per_claim:
        parts = []
        for claim in answer.claims:
            verdict = verdicts.get(claim.id)
            cites = registry.for_claim(claim, verdict)
            line = f"{inline(claim.text)} {''.join(cites)}{registry.statuses(cites)}"
            if _unconfirmed(verdict) and not one_source_note:
                line += f" {UNCONFIRMED}"
            parts.append(line)
        return " ".join(parts)
    cited = [m for c in answer.claims for m in registry.for_claim(c, verdicts.get(c.id))]
    group = "".join(in_order(cited))
    if answer.claims and answer.text == answer.claims[0].text:
        line = f"{inline(answer.text)} {group}"  # a verbatim sentence keeps its full stop
    else:
        line = f"{inline(answer.text)} {group}".rstrip()
        line += "" if line.endswith((".", "!", "?")) else "."
    if answer.unconfirmed and not one_source_note:
        line += f" {UNCONFIRMED}"
    return line.strip()


def inline(text: str) -> str:
    """A quote as a reader sees it: on one line, markup removed. The citation keeps the
    exact text."""
    return plain(text)


def _claim_line(
    claim: Claim, verdict: Verdict | None, registry: _Citations, one_source_note: bool = False
) -> str:
    """A finding as a list line; one that no other source confirms is marked, unless the
    one-source note says it for the whole report."""
    cited = registry.for_claim(claim, verdict)
    markers = "".join(cited) + registry.statuses(cited)
    if verdict is not None and verdict.verdict == "contradicted":
        against = [e for e in verdict.evidence if e.stance == "contradicts"][:2]
        rebuttal = " ".join(
            f"“{inline(e.quote)}” {registry.cite(e.source_id, e.quote)}" for e in against
        )
        line = f"- **Contested:** {inline(claim.text)} {markers}"
        return f"{line} Contradicted by: {rebuttal}" if rebuttal else line
    if _unconfirmed(verdict) and not one_source_note:
        return f"- {inline(claim.text)} {markers} {UNCONFIRMED}"
    return f"- {inline(claim.text)} {markers}"


def _by_quality(claims: list[Claim], sources: dict[str, Source]) -> list[Claim]:
    """Claims whose best source scores higher lead (stable: ties keep their relevance order)."""

    def best(claim: Claim) -> float:
        return max((quality(sources[s]) for s in claim.source_ids if s in sources), default=0.0)

    return sorted(claims, key=lambda c: -best(c))


def _sections(
    plan: Plan, claims: list[Claim], sources: dict[str, Source]
) -> list[tuple[str, list[Claim]]]:
    """Claims grouped under one heading per sub-query (in plan order, merged by heading). A
    follow-up on a name that found no page about it (none titled with it: "Follow-up: Python"
    in a library's docs) is no part of its own: what it found joins the question's."""
    sections: dict[str, list[Claim]] = {}
    for sq in plan.sub_queries:
        members = [c for c in claims if c.sub_query_id == sq.id]
        if members:
            heading = _heading(plan, sq)
            if sq.purpose.startswith("bridge: ") and not _found_its_page(sq, members, sources):
                heading = _heading(plan, plan.sub_queries[0])
            sections.setdefault(heading, []).extend(members)
    known = {sq.id for sq in plan.sub_queries}
    stray = [c for c in claims if c.sub_query_id not in known]
    if stray:
        sections.setdefault("Other findings", []).extend(stray)
    return list(sections.items())


def _found_its_page(sq: SubQuery, claims: list[Claim], sources: dict[str, Source]) -> bool:
    """Did a bridge follow-up find a page about its name (one titled with it)?"""
    name = sq.purpose.removeprefix("bridge: ")
    return any(
        (source := sources.get(sid)) is not None and mentions(source.title, name)
        for claim in claims
        for sid in claim.source_ids
    )


def _heading(plan: Plan, sq: SubQuery) -> str:
    purpose = sq.purpose
    if purpose.startswith("entity: "):
        return purpose.removeprefix("entity: ").removesuffix(" (retry)")
    if purpose.startswith("bridge: "):
        return f"Follow-up: {purpose.removeprefix('bridge: ')}"
    if purpose == "expanded":
        return "Further evidence"
    if purpose in ("whole question", "asking part"):  # the ask alone is the question too
        whole = plan.kind in ("simple", "multi_hop", "list")
        return "Findings" if whole else "The question as a whole"
    return sq.text.rstrip("?").strip() or purpose or sq.id


def _source_line(n: int, source: Source) -> str:
    where = (
        source.url
        or source.relative_path
        or source.path
        or f"{source.server}:{source.doc_id or source.tool}"
    )
    if source.status is not None:
        where += f" ({source.status})"
    if source.score <= 0:
        return f"{n}. {source.title} — {where} — quality unscored"
    line = f"{n}. {source.title} — {where} — quality {source.score:.2f}"
    b = source.score_breakdown
    if b is not None:
        line += f" (domain {b.domain:.2f}, recency {b.recency:.2f}, depth {b.depth:.2f})"
    return line
