"""Capture what the report step was given, then replay it: seconds per experiment on the answer.

`marsa eval qa` runs the whole graph (plan, search, claims, checks, report) for each question.
The direct answer depends only on what reaches the report step, so this tool records that
(plan, claims, verdicts, sources) once per question, and then re-runs the report step on the
records with the current code and scores the answers as `marsa eval qa` does. A change to
the answer's reading (``backend/reasoning/offline/answer.py``, ``pick.py`` …) is measured on
every set in seconds; a change to planning or retrieval needs a new capture.

```bash
python bench/answer_replay.py capture structlog --data-dir /tmp/stores/structlog   # one per set
python bench/answer_replay.py score structlog starlette click attrs marshmallow [--show miss]
python bench/answer_replay.py capture hotpotqa --data-dir /tmp/stores/hotpotqa  # dev_200
```

Captures live in ``--captures`` (default ``~/.cache/marsa-bench/captures``) with the sentence
vectors computed while scoring, so a replay embeds only what is new. Figures printed here are
those of the report step alone, on the sources of the capture; the published figures are
`marsa eval qa`'s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend.config import get_settings  # noqa: E402
from backend.evals import hotpotqa  # noqa: E402
from backend.evals.metrics import meets_must_include  # noqa: E402
from backend.evals.qa import ANSWERABLE, load_questions  # noqa: E402
from backend.evals.qa import run as run_qa  # noqa: E402
from backend.reasoning.offline import report as report_mod  # noqa: E402
from backend.reasoning.offline.embedding import SentenceVectors  # noqa: E402
from backend.reasoning.offline.engine import OfflineEngine  # noqa: E402

CAPTURES = Path.home() / ".cache" / "marsa-bench" / "captures"
HOTPOTQA = ROOT.parent / "shared" / "data" / "hotpotqa" / "dev_200.jsonl"


def corpus_folder(name: str) -> Path:
    """The docs folder of a named development set (fetched by bench/corpus.py)."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "corpus.py"), name],
        check=True,
        capture_output=True,
        text=True,
    )
    return Path(out.stdout.strip().splitlines()[-1])


def capture(
    name: str,
    data_dir: Path,
    captures: Path,
    corpus: Path | None = None,
    questions_file: Path | None = None,
) -> None:
    """Run the set through the whole graph, keeping each question's report-step input (the
    set's corpus and questions by its name unless given)."""
    records: list[dict[str, Any]] = []
    original = report_mod.write

    def recording(plan, claims, verdicts, sources, vectors=None):  # type: ignore[no-untyped-def]
        records.append({"plan": plan, "claims": claims, "verdicts": verdicts, "sources": sources})
        return original(plan, claims, verdicts, sources, vectors)

    report_mod.write = recording  # type: ignore[assignment]
    settings = get_settings().model_copy(update={"data_dir": data_dir})
    if name == "hotpotqa":  # the shared HotpotQA questions (--questions: which file)
        _capture_hotpotqa(records, questions_file or HOTPOTQA, settings, captures)
        report_mod.write = original  # type: ignore[assignment]
        return
    questions_file = questions_file or ROOT / "bench" / "data" / f"{name}_questions.jsonl"
    summary = asyncio.run(
        run_qa(
            corpus or corpus_folder(name),
            questions_file,
            settings,
            OfflineEngine,
            log=lambda m: None,
        )
    )
    report_mod.write = original  # type: ignore[assignment]
    questions = load_questions(questions_file)
    by_query = {r["plan"].query: r for r in records}
    kept = [
        {"question": q, **by_query[q["question"]]} for q in questions if q["question"] in by_query
    ]
    captures.mkdir(parents=True, exist_ok=True)
    with open(captures / f"{name}.pkl", "wb") as out:
        pickle.dump(kept, out)
    print(
        f"{name}: {len(kept)} of {len(questions)} captured; eval answer_correct "
        f"{summary['answer_correct']}",
        file=sys.stderr,
    )
    print(json.dumps(summary), file=sys.stderr)  # the eval's own figures, as `marsa eval qa`


def _capture_hotpotqa(
    records: list[dict[str, Any]], data: Path, settings: Any, captures: Path
) -> None:
    summary = asyncio.run(hotpotqa.run(data, None, settings, OfflineEngine, log=lambda m: None))
    by_query = {r["plan"].query: r for r in records}
    kept = [
        {
            "question": {
                "id": q["_id"],
                "type": "hotpotqa",
                "question": q["question"],
                "must_include": q["answer"],
            },
            **by_query[q["question"]],
        }
        for q in hotpotqa.load_questions(data)
        if q["question"] in by_query
    ]
    captures.mkdir(parents=True, exist_ok=True)
    with open(captures / "hotpotqa.pkl", "wb") as out:
        pickle.dump(kept, out)
    print(
        f"hotpotqa: {len(kept)} captured; eval answer_in_answer {summary['answer_in_answer']}",
        file=sys.stderr,
    )
    print(json.dumps(summary), file=sys.stderr)


def replay(name: str, captures: Path, vectors: SentenceVectors) -> list[dict[str, Any]]:
    """Each captured question's answer with the current code, scored."""
    with open(captures / f"{name}.pkl", "rb") as f:
        records = pickle.load(f)
    rows = []
    for record in records:
        question = record["question"]
        written = report_mod.write(
            record["plan"], record["claims"], record["verdicts"], record["sources"], vectors
        )
        row = {
            "set": name,
            "id": question["id"],
            "type": question["type"],
            "question": question["question"],
            "gold": question["must_include"],
            "answer": written.answer,
            "found": written.answer_found,
        }
        if question["type"] == "hotpotqa":  # the gold answer, HotpotQA-normalised, in it
            row["ok"] = hotpotqa.contains_answer(written.answer, question["must_include"])
        elif question["type"] in ANSWERABLE:
            row["ok"] = meets_must_include(written.answer, question["must_include"])
        else:
            row["ok"] = not written.answer_found
        rows.append(row)
    return rows


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """answer_correct (the answer holds the gold, as `marsa eval qa` counts it) and the
    not-found figures."""
    answerable = [r for r in rows if r["type"] in ANSWERABLE or r["type"] == "hotpotqa"]
    not_found = [r for r in rows if r not in answerable]
    return {
        "answer_correct": round(sum(r["ok"] for r in answerable) / max(len(answerable), 1), 3),
        "not_found_right": round(sum(r["ok"] for r in not_found) / max(len(not_found), 1), 3),
        "not_found_on_answerable": round(
            sum(not r["found"] for r in answerable) / max(len(answerable), 1), 3
        ),
        "n": len(rows),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--captures", type=Path, default=CAPTURES)
    verbs = parser.add_subparsers(dest="verb", required=True)
    cap = verbs.add_parser("capture", help="run a set through the graph and keep the inputs")
    cap.add_argument("name")
    cap.add_argument("--data-dir", type=Path, required=True)
    cap.add_argument("--corpus", type=Path, help="the docs folder (default: the set's, by name)")
    cap.add_argument("--questions", type=Path, help="default: bench/data/NAME_questions.jsonl")
    sc = verbs.add_parser("score", help="replay captured sets with the current code")
    sc.add_argument("names", nargs="+")
    sc.add_argument("--show", choices=["miss", "all", "none"], default="none")
    sc.add_argument("--save", type=Path, help="write every row here (JSON lines)")
    sc.add_argument("--diff", type=Path, help="rows saved earlier: print the answers that flip")
    args = parser.parse_args()
    if args.verb == "capture":
        capture(args.name, args.data_dir, args.captures, args.corpus, args.questions)
        return
    vectors = SentenceVectors()
    cache = args.captures / "vectors.pkl"
    if cache.exists():
        with open(cache, "rb") as f:
            vectors.preload(pickle.load(f))
    rows = []
    for name in args.names:
        got = replay(name, args.captures, vectors)
        rows += got
        print(json.dumps({"set": name, **figures(got)}))
    with open(cache, "wb") as f:
        pickle.dump(vectors.snapshot(), f)
    if args.save:
        args.save.write_text("".join(json.dumps(r) + "\n" for r in rows))
    if args.diff:
        before = {(r["set"], r["id"]): r for r in map(json.loads, args.diff.open())}
        for r in rows:
            old = before.get((r["set"], r["id"]))
            if old and old["ok"] != r["ok"]:
                print(f"{'+' if r['ok'] else '-'} {r['set']} {r['id']}: {r['answer'][:160]}")
    if args.show != "none":
        for r in rows:
            if args.show == "all" or not r["ok"]:
                print(
                    f"\n{'OK' if r['ok'] else 'MISS'} {r['set']} {r['id']} ({r['type']}) "
                    f"found={r['found']}\nQ: {r['question']}\nGOLD: {r['gold']}\n"
                    f"A: {r['answer'][:600]}"
                )


if __name__ == "__main__":
    main()
