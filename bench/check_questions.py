"""Check a QA development set against its corpus: every evidence quote is in its file.

Usage: python bench/check_questions.py [QUESTIONS] [--corpus DIR | --name NAME] [--cache DIR]
(default: bench/data/starlette_questions.jsonl; the corpus is the one named by --name, else
by the file's name, NAME_questions.jsonl, obtained as bench/corpus.py does). Also checks
that every gold file exists and that each answerable question's must_include groups are met
by its own evidence, so an answer key cannot drift from the quotes that prove it. Exits 1
and lists the problems when any is found.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backend.evals.metrics import mentions_phrase  # noqa: E402
from backend.evals.qa import ANSWERABLE, load_questions  # noqa: E402
from bench.corpus import DEFAULT_CACHE, obtain  # noqa: E402

HERE = Path(__file__).resolve().parent


def collapse(text: str) -> str:
    """Whitespace runs as one space: a quote may span a line break in the file."""
    return " ".join(text.split())


def problems(questions: list[dict], corpus: Path) -> list[str]:
    """Everything wrong with the set, one line each."""
    found: list[str] = []
    texts: dict[str, str] = {}

    def text_of(name: str) -> str | None:
        if name not in texts:
            path = corpus / name
            texts[name] = collapse(path.read_text(encoding="utf-8")) if path.is_file() else ""
        return texts[name] or None

    for question in questions:
        qid = question["id"]
        for gold in question["gold_files"]:
            if text_of(gold) is None:
                found.append(f"{qid}: gold file {gold} is not in {corpus}")
        evidence = question.get("evidence", [])
        if question["type"] != "unanswerable" and not evidence:
            found.append(f"{qid}: a {question['type']} question needs an evidence quote")
        for item in evidence:
            text = text_of(item["file"])
            if text is None:
                found.append(f"{qid}: evidence file {item['file']} is not in {corpus}")
            elif collapse(item["quote"]) not in text:
                found.append(f"{qid}: quote not found in {item['file']}: {item['quote']!r}")
        if question["type"] in ANSWERABLE:
            quoted = " ".join(item["quote"] for item in evidence)
            for group in question["must_include"]:
                if not any(mentions_phrase(quoted, alt) for alt in group):
                    found.append(f"{qid}: no alternative of {group} is in the evidence quotes")
    return found


def corpus_name(questions: Path) -> str:
    """The corpus a question file is about, by its name: click_questions.jsonl is click's."""
    return questions.name.split("_questions")[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "questions", nargs="?", type=Path, default=HERE / "data" / "starlette_questions.jsonl"
    )
    parser.add_argument("--corpus", type=Path, help="the docs folder (default: obtain --name)")
    parser.add_argument("--name", help="the corpus (default: NAME of NAME_questions.jsonl)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args()
    questions = load_questions(args.questions)
    corpus = args.corpus or obtain(args.name or corpus_name(args.questions), args.cache)
    found = problems(questions, corpus)
    for line in found:
        print(line)
    kinds: dict[str, int] = {}
    for question in questions:
        kinds[question["type"]] = kinds.get(question["type"], 0) + 1
    print(f"{len(questions)} questions {json.dumps(kinds)}: {len(found)} problems")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
