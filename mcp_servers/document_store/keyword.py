"""BM25 keyword index (bm25s with Snowball stemming), kept in step with the collection."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import bm25s
import numpy as np

from marsa_common.stemming import EnglishStemmer

# Words of two characters or more (bm25s's own pattern), and a release or other dotted number
# whole: "3.9" and "1.4.0" are what a question about a release names, and would otherwise be
# dropped as one-character tokens.
TOKEN_PATTERN = r"(?u)\b\d+(?:\.\d+)+\b|\b\w\w+\b"


@dataclass
class IndexedChunks:
    """Everything the keyword side knows about the collection at one revision."""

    ids: list[str]
    texts: list[str]
    metadatas: list[dict[str, Any]]
    position: dict[str, int]
    metadata_keys: set[str]
    embeddings: np.ndarray


def keyed_text(text: str, metadata: dict[str, Any]) -> str:
    """What BM25 indexes for a chunk: its document title and section, then its text."""
    return f"{metadata.get('title', '')}\n{metadata.get('section', '')}\n{text}"


class KeywordIndex:
    """Rebuilt from the collection when it has changed: written in this process, or its
    change marker (``store.ChangeMarker``, kept in Chroma beside the collection) differs
    from the one it was built at, whoever wrote it."""

    def __init__(
        self, loader: Callable[[], tuple[list[str], list[str], list[dict[str, Any]], np.ndarray]]
    ):
        self._loader = loader
        self._stemmer = EnglishStemmer()
        self._lock = threading.Lock()
        self._retriever: bm25s.BM25 | None = None
        self._chunks: IndexedChunks | None = None
        self._dirty = True
        self._marker: str | None = None

    def mark_dirty(self) -> None:
        """Called after every write in this process."""
        self._dirty = True

    def _tokenize(self, texts: list[str]) -> Any:
        return bm25s.tokenize(
            texts,
            stopwords="en",
            stemmer=self._stemmer,
            show_progress=False,
            token_pattern=TOKEN_PATTERN,
        )

    def refresh(self, marker: str | None) -> IndexedChunks:
        """The index for the collection as it is now (rebuilt only when stale).

        ``marker`` must be read before the collection is loaded: a write that lands during
        the load sets a new marker after it, so the next refresh sees the difference."""
        with self._lock:
            if self._dirty or marker != self._marker or self._chunks is None:
                # Cleared before loading: a write in this process during the load marks the
                # index dirty again instead of being forgotten.
                self._dirty = False
                try:
                    ids, texts, metadatas, embeddings = self._loader()
                except BaseException:
                    self._dirty = True
                    raise
                keys: set[str] = set()
                for metadata in metadatas:
                    keys.update(metadata)
                self._chunks = IndexedChunks(
                    ids, texts, metadatas, {i: n for n, i in enumerate(ids)}, keys, embeddings
                )
                if texts:
                    corpus = [keyed_text(t, m) for t, m in zip(texts, metadatas, strict=True)]
                    retriever = bm25s.BM25(k1=1.2, b=0.75)
                    retriever.index(self._tokenize(corpus), show_progress=False)
                    self._retriever = retriever
                else:
                    self._retriever = None
                self._marker = marker
            return self._chunks

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every indexed chunk for ``query`` (zeros when nothing matches)."""
        chunks = self._chunks
        if self._retriever is None or chunks is None:
            return np.zeros(0, dtype=np.float32)
        tokens = self._tokenize([query])
        vocab = self._retriever.vocab_dict
        inverse = {v: k for k, v in tokens.vocab.items()}
        words = [inverse[t] for t in tokens.ids[0] if inverse.get(t) in vocab]
        if not words:
            return np.zeros(len(chunks.ids), dtype=np.float32)
        return np.asarray(self._retriever.get_scores(words), dtype=np.float32)
