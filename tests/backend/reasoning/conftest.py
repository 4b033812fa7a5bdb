"""One embedder for the whole module: the offline MiniLM, loaded once."""

from __future__ import annotations

import pytest

from backend.reasoning.offline import OfflineEngine
from marsa_common.embeddings import Embedder, make_embedder


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    """The shared offline all-MiniLM-L6-v2 (int8 ONNX)."""
    return make_embedder("minilm-onnx")


@pytest.fixture
def engine(embedder: Embedder) -> OfflineEngine:
    """A fresh engine (its own cache) on the shared embedder."""
    return OfflineEngine(embedder=embedder)
