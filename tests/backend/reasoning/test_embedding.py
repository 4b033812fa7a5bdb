"""The offline engine's sentence-vector cache."""

from __future__ import annotations

import numpy as np

from backend.reasoning.offline.embedding import DIMENSIONS, SentenceVectors


class _Counting:
    """An embedder giving each text a fixed unit vector, counting the texts it embeds."""

    name = "counting"

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed(self, texts: list[str]) -> np.ndarray:
        self.embedded += texts
        rows = []
        for text in texts:
            row = np.zeros(DIMENSIONS, dtype=np.float32)
            row[hash(text) % DIMENSIONS] = 1.0
            rows.append(row)
        return np.stack(rows)


def test_a_full_cache_starts_again_with_every_text_of_the_call() -> None:
    embedder = _Counting()
    vectors = SentenceVectors(embedder, max_cached=3)
    vectors.vectors(["a", "b"])
    # "a" was cached; "c" and "d" overflow the cache: all three come back, in order
    rows = vectors.vectors(["a", "c", "d"])
    assert rows.shape == (3, DIMENSIONS)
    assert np.allclose(rows[0], vectors.vectors(["a"])[0])
    assert embedder.embedded.count("b") == 1


def test_a_text_is_embedded_once() -> None:
    embedder = _Counting()
    vectors = SentenceVectors(embedder)
    vectors.cosine(["a", "b"], ["b"])
    vectors.cosine(["a"], ["b"])
    assert sorted(embedder.embedded) == ["a", "b"]
