"""Sentence vectors for the offline engine, cached by text.

The engine embeds the same sentences in several steps (claims, verification, refinement);
the cache embeds each text once per engine. Cosines are rounded to four places so that
tiny float differences (batch padding in the ONNX runtime) cannot flip a threshold or a
tie between two runs: same input, same output.
"""

from __future__ import annotations

import threading

import numpy as np

from marsa_common.embeddings import Embedder, make_embedder

DIMENSIONS = 384


class SentenceVectors:
    """Unit vectors for texts, computed once per text by the wrapped embedder."""

    def __init__(self, embedder: Embedder | None = None, max_cached: int = 50_000):
        self._embedder = embedder
        self._cache: dict[str, np.ndarray] = {}
        self._max_cached = max_cached
        self._lock = threading.Lock()

    @property
    def embedder(self) -> Embedder:
        """The wrapped embedder (the shared offline MiniLM unless one was given)."""
        if self._embedder is None:
            self._embedder = make_embedder("minilm-onnx")
        return self._embedder

    def vectors(self, texts: list[str]) -> np.ndarray:
        """One unit row per text, in order."""
        with self._lock:
            missing = sorted({t for t in texts if t not in self._cache})
            if missing:
                if len(self._cache) + len(missing) > self._max_cached:
                    # (full: start again, with every text of this call, not only the new ones)
                    self._cache.clear()
                    missing = sorted(set(texts))
                for text, row in zip(missing, self.embedder.embed(missing), strict=True):
                    self._cache[text] = row
            if not texts:
                return np.zeros((0, DIMENSIONS), dtype=np.float32)
            return np.stack([self._cache[t] for t in texts])

    def snapshot(self) -> dict[str, np.ndarray]:
        """Every cached vector by text (to keep between runs of a benchmark)."""
        with self._lock:
            return dict(self._cache)

    def preload(self, vectors: dict[str, np.ndarray]) -> None:
        """Take vectors computed earlier by the same embedder; the cache then holds at least
        them (its size limit grows to fit)."""
        with self._lock:
            self._cache.update(vectors)
            self._max_cached = max(self._max_cached, len(self._cache))

    def cosine(self, left: list[str], right: list[str]) -> np.ndarray:
        """Cosine similarities, shape (len(left), len(right)), rounded to four places."""
        if not left or not right:
            return np.zeros((len(left), len(right)), dtype=np.float64)
        sims = self.vectors(left).astype(np.float64) @ self.vectors(right).astype(np.float64).T
        return np.round(sims, 4)
