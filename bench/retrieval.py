"""Retrieval benchmark on SciFact (train split): prints one JSON object with the figures.

Usage: python bench/retrieval.py [--mode all|hybrid|semantic|keyword]
The same as `marsa eval retrieval` with the shared data set's paths filled in.
"""

from __future__ import annotations

import sys
from pathlib import Path

from backend.cli import app

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "scifact"

if __name__ == "__main__":
    app(
        [
            "eval",
            "retrieval",
            "--corpus",
            str(DATA / "corpus.jsonl"),
            "--claims",
            str(DATA / "claims_train.jsonl"),
            "--qrels",
            str(DATA / "qrels_train.tsv"),
            *sys.argv[1:],
        ]
    )
