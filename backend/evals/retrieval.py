"""`marsa eval retrieval`: SciFact-format retrieval quality and speed of the document store.

Ingests the corpus through the same pipeline as the MCP tool (chunking,
embedding, Chroma, BM25), runs every claim that has relevance judgements as a
query through ``DocumentStore.search`` (the tool's code path), and compares
with a plain BM25 baseline from the rank-bm25 reference library.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from backend.config import Settings
from backend.evals.metrics import ndcg_at_k, percentile, recall_at_k
from mcp_servers.document_store.ingest import Document
from mcp_servers.document_store.settings import DocsSettings
from mcp_servers.document_store.store import DocumentStore

MODES = ("hybrid", "semantic", "keyword")
_SLICE = 500
_WORD = re.compile(r"\w+")


def load_corpus(path: Path) -> list[Document]:
    """SciFact corpus lines ({doc_id, title, abstract: [sentences]}) as documents."""
    docs = []
    with path.open() as handle:
        for line in handle:
            if line.strip():
                row = json.loads(line)
                docs.append(
                    Document(
                        title=row["title"],
                        content=" ".join(row["abstract"]),
                        source=f"scifact:{row['doc_id']}",
                        doc_id=str(row["doc_id"]),
                    )
                )
    return docs


def load_queries(claims: Path, qrels: Path) -> tuple[dict[str, str], dict[str, set[str]]]:
    """Query texts by id, and the relevant document ids of each judged query."""
    texts = {}
    with claims.open() as handle:
        for line in handle:
            if line.strip():
                row = json.loads(line)
                texts[str(row["id"])] = row["claim"]
    relevant: dict[str, set[str]] = {}
    with qrels.open() as handle:
        for n, line in enumerate(handle):
            parts = line.rstrip("\n").split("\t")
            if n == 0 and not parts[-1].strip().lstrip("-").isdigit():
                continue  # header
            if len(parts) >= 3 and int(parts[2]) > 0:
                relevant.setdefault(parts[0], set()).add(parts[1])
    return {q: texts[q] for q in relevant if q in texts}, relevant


def doc_ranking(hit_doc_ids: Iterable[str], k: int) -> list[str]:
    """Chunk hits to a document ranking: each document at its best chunk's place."""
    return list(dict.fromkeys(hit_doc_ids))[:k]


def _score_rankings(
    rankings: dict[str, list[str]], relevant: dict[str, set[str]], latencies_ms: list[float] | None
) -> dict[str, float]:
    n = len(rankings)
    out = {
        "ndcg@10": sum(ndcg_at_k(r, relevant[q], 10) for q, r in rankings.items()) / n,
        "recall@10": sum(recall_at_k(r, relevant[q], 10) for q, r in rankings.items()) / n,
        "recall@100": sum(recall_at_k(r, relevant[q], 100) for q, r in rankings.items()) / n,
    }
    if latencies_ms is not None:
        out["search_p50_ms"] = percentile(latencies_ms, 50)
        out["search_p95_ms"] = percentile(latencies_ms, 95)
    return {k: round(v, 4) for k, v in out.items()}


def bm25_baseline(docs: list[Document], queries: dict[str, str]) -> dict[str, list[str]]:
    """Rankings from rank-bm25's BM25Okapi over title + abstract, lower-cased word tokens."""
    from rank_bm25 import BM25Okapi

    tokenised = [_WORD.findall(f"{d.title} {d.content}".lower()) for d in docs]
    bm25 = BM25Okapi(tokenised)
    ids = [str(d.doc_id) for d in docs]
    rankings = {}
    for qid, text in queries.items():
        scores = bm25.get_scores(_WORD.findall(text.lower()))
        top = sorted(range(len(ids)), key=lambda i: -scores[i])[:100]
        rankings[qid] = [ids[i] for i in top]
    return rankings


def evaluate_modes(
    store: DocumentStore,
    queries: dict[str, str],
    relevant: dict[str, set[str]],
    modes: Iterable[str],
) -> dict[str, dict[str, float]]:
    """Metrics and search latency for each mode over a store that is already filled."""
    results = {}
    for mode in modes:
        rankings: dict[str, list[str]] = {}
        latencies = []
        for qid, text in queries.items():
            start = time.perf_counter()
            hits = store.search(text, n_results=150, mode=mode)  # type: ignore[arg-type]
            latencies.append((time.perf_counter() - start) * 1000)
            rankings[qid] = doc_ranking((h.doc_id for h in hits), 100)
        results[mode] = _score_rankings(rankings, relevant, latencies)
    return results


def run(
    corpus: Path,
    claims: Path,
    qrels: Path,
    modes: Iterable[str],
    settings: Settings,
    log: Callable[[str], None] = lambda m: print(m, file=sys.stderr),
) -> dict[str, Any]:
    """The whole benchmark; returns the JSON object `marsa eval retrieval` prints."""
    docs = load_corpus(corpus)
    queries, relevant = load_queries(claims, qrels)
    store = DocumentStore(DocsSettings.taken_from(settings))
    if store.count():
        raise RuntimeError(
            f"the collection {settings.collection!r} in {settings.data_dir} is not "
            "empty; the benchmark needs a fresh store (use another --data-dir)"
        )
    texts = [f"{d.title}.\n{d.content}" for d in docs]
    store.embedder.embed(texts[:8])  # load the model before either clock starts
    # Interleaved slices: the bare embedder and the pipeline take turns on the same documents,
    # so a change in machine load between the two measurements cannot skew their ratio.
    embed_only = ingest_seconds = 0.0
    for start in range(0, len(docs), _SLICE):
        end = min(start + _SLICE, len(docs))
        began = time.perf_counter()
        store.embedder.embed(texts[start:end])
        embed_only += time.perf_counter() - began
        began = time.perf_counter()
        store.ingest(docs[start:end])
        ingest_seconds += time.perf_counter() - began
        log(
            f"documents {end}/{len(docs)}: bare embedder {embed_only:.0f} s, "
            f"pipeline {ingest_seconds:.0f} s"
        )
    store.search("warm up", 1)  # builds the keyword index once, outside the latency figures

    log(f"running {len(queries)} queries…")
    report: dict[str, Any] = {
        "queries": len(queries),
        "documents": len(docs),
        "chunks": store.count(),
        "ingest_seconds": round(ingest_seconds, 2),
        "embed_only_seconds": round(embed_only, 2),
        "ingest_vs_embed_only": round(ingest_seconds / embed_only, 3),
        "docs_per_second": round(len(docs) / ingest_seconds, 2),
        "embedder": store.embedder.name,
        "hybrid_keyword_weight": settings.hybrid_keyword_weight,
        "modes": evaluate_modes(store, queries, relevant, modes),
    }
    report["modes"]["bm25_baseline"] = _score_rankings(bm25_baseline(docs, queries), relevant, None)
    return report
