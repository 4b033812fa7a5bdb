"""Filters, score fusion and embedders of the document store (search.py, embeddings.py)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import date
from typing import Any

import chromadb
import numpy as np
import pytest
from chromadb.config import Settings as ChromaSettings

from backend.config import Settings
from marsa_common.embeddings import (
    EmbedderError,
    HttpEmbedder,
    MiniLMOnnxEmbedder,
    make_embedder,
)
from mcp_servers.document_store.ingest import Document
from mcp_servers.document_store.search import FilterError, build_where, fuse, matches
from mcp_servers.document_store.settings import DocsSettings
from mcp_servers.document_store.store import DocumentStore, StoreError
from tests.fakes.embeddings_api import FakeEmbeddings, vector_for

KEYS = {"source", "language", "year", "published_ts", "flag"}

# --- build_where ----------------------------------------------------------------


def test_no_filters_give_no_where_clause() -> None:
    assert build_where(None, KEYS) is None
    assert build_where({}, KEYS) is None


def test_a_scalar_filter_is_equality() -> None:
    assert build_where({"language": "rust"}, KEYS) == {"language": "rust"}


def test_a_list_filter_is_any_of() -> None:
    assert build_where({"year": [2020, 2021]}, KEYS) == {"year": {"$in": [2020, 2021]}}


def test_several_filters_are_all_required() -> None:
    where = build_where({"language": "rust", "source": ["a", "b"]}, KEYS)
    assert where == {"$and": [{"language": "rust"}, {"source": {"$in": ["a", "b"]}}]}


def test_date_bounds_become_inclusive_published_ts_bounds() -> None:
    where = build_where({"date_from": "2024-01-01", "date_to": "2024-12-31"}, set())
    assert where == {
        "$and": [
            {"published_ts": {"$gte": date(2024, 1, 1).toordinal()}},
            {"published_ts": {"$lte": date(2024, 12, 31).toordinal()}},
        ]
    }


def test_an_unknown_key_is_an_error_listing_the_filterable_keys() -> None:
    with pytest.raises(FilterError) as info:
        build_where({"colour": "red"}, {"source", "language"})
    message = str(info.value)
    assert "unknown filter key 'colour'" in message
    assert "date_from, date_to, language, source" in message


def test_an_empty_list_is_an_error() -> None:
    with pytest.raises(FilterError, match="empty list"):
        build_where({"language": []}, KEYS)


@pytest.mark.parametrize("mixed", [[2020, "2021"], [1, 2.5], [True, 1]])
def test_a_list_mixing_value_types_is_an_error(mixed: list[Any]) -> None:
    # Chroma refuses such a list; only keyword search would have answered.
    with pytest.raises(FilterError, match="mixes value types"):
        build_where({"year": mixed}, KEYS)


@pytest.mark.parametrize("bad", ["2024-13-01", "last week", "01/02/2024"])
def test_a_bad_date_is_an_error_asking_for_iso_dates(bad: str) -> None:
    with pytest.raises(FilterError, match="YYYY-MM-DD"):
        build_where({"date_from": bad}, KEYS)


def test_a_date_bound_that_is_not_a_string_is_an_error() -> None:
    with pytest.raises(FilterError, match="date string"):
        build_where({"date_to": 2024}, KEYS)


# --- matches agrees with Chroma on the clauses build_where makes -------------------

SAMPLE: dict[str, dict[str, Any]] = {
    "a": {"source": "x", "language": "rust", "year": 2020, "published_ts": 738000, "flag": True},
    "b": {"source": "y", "language": "python", "year": 2021, "published_ts": 738500, "flag": 1},
    "c": {"source": "x", "language": "python", "year": 2022, "flag": False},
    "d": {"source": "z", "language": "none", "year": 2020, "published_ts": 739000, "flag": 0},
}
FILTERS: list[dict[str, Any]] = [
    {"language": "python"},
    {"year": [2020, 2022]},
    {"source": "x", "language": "python"},
    {"date_from": date.fromordinal(738500).isoformat()},
    {"date_to": date.fromordinal(738500).isoformat()},
    {"date_from": date.fromordinal(738001).isoformat(), "language": ["none", "python"]},
    {"flag": True},  # Chroma keeps booleans apart from numbers, though True == 1 in Python
    {"flag": 0},
    {"flag": [True, False]},
]
EXPECTED = [{"b", "c"}, {"a", "c", "d"}, {"c"}, {"b", "d"}, {"a", "b"}, {"b", "d"}]
EXPECTED += [{"a"}, {"d"}, {"a", "c"}]


@pytest.fixture(scope="module")
def sample_collection() -> Iterator[Any]:
    client = chromadb.EphemeralClient(settings=ChromaSettings(anonymized_telemetry=False))
    name = f"filters_{uuid.uuid4().hex[:8]}"
    collection = client.create_collection(name, embedding_function=None)
    ids = list(SAMPLE)
    vectors = np.tile(np.array([1.0, 0.0], dtype=np.float32), (len(ids), 1))
    collection.add(ids=ids, metadatas=[SAMPLE[i] for i in ids], embeddings=vectors)
    yield collection
    client.delete_collection(name)


@pytest.mark.parametrize(("filters", "expected"), list(zip(FILTERS, EXPECTED, strict=True)))
def test_matches_selects_what_chroma_selects_for_the_same_where(
    sample_collection: Any, filters: dict[str, Any], expected: set[str]
) -> None:
    where = build_where(filters, KEYS)
    by_matches = {cid for cid, meta in SAMPLE.items() if matches(meta, where)}
    by_chroma = set(sample_collection.get(where=where, include=[])["ids"])
    assert by_matches == by_chroma == expected


# --- fuse ---------------------------------------------------------------------

SEMANTIC = np.array([0.91, 0.15, 0.52, 0.33, 0.78])
KEYWORD = np.array([1.2, 9.5, 0.0, 4.4, 2.0])


def order(scores: np.ndarray) -> list[int]:
    return [int(i) for i in np.argsort(-scores, kind="stable")]


def test_fuse_with_keyword_weight_0_keeps_the_semantic_order() -> None:
    assert order(fuse(SEMANTIC, KEYWORD, 0.0)) == order(SEMANTIC) == [0, 4, 2, 3, 1]


def test_fuse_with_keyword_weight_1_keeps_the_keyword_order() -> None:
    assert order(fuse(SEMANTIC, KEYWORD, 1.0)) == order(KEYWORD) == [1, 3, 4, 0, 2]


def test_a_constant_signal_contributes_nothing_to_the_fused_scores() -> None:
    flat = np.full(5, 7.0)
    alone = fuse(SEMANTIC, np.zeros(5), 0.0)
    assert np.allclose(fuse(SEMANTIC, flat, 0.5), 0.5 * alone)
    assert np.allclose(fuse(flat, KEYWORD, 0.5), 0.5 * fuse(np.zeros(5), KEYWORD, 1.0))


def test_fuse_mixes_both_signals_at_half_weight() -> None:
    # Standardised: semantic favours 0, keyword favours 1; item 2 is second on both and wins.
    fused = fuse(np.array([1.0, 0.0, 0.8]), np.array([0.0, 1.0, 0.8]), 0.5)
    assert order(fused)[0] == 2


# --- MiniLM (the built-in embedder) ----------------------------------------------


@pytest.fixture(scope="module")
def minilm() -> MiniLMOnnxEmbedder:
    return MiniLMOnnxEmbedder(batch_size=8)


def test_minilm_vectors_are_384_dimensional_and_unit_length(minilm: MiniLMOnnxEmbedder) -> None:
    vectors = minilm.embed(["a short text", "another, rather longer, piece of text to embed"])
    assert vectors.shape == (2, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_minilm_gives_a_text_the_same_vector_alone_or_padded_in_a_batch(
    minilm: MiniLMOnnxEmbedder,
) -> None:
    short = "Tides follow the moon."
    longer = [
        "Ocean tides are driven mainly by the gravitational pull of the moon and the sun, "
        "with local geography shaping their range along every coastline.",
        "A much longer sentence " * 20,
    ]
    alone = minilm.embed([short])[0]
    in_batch = minilm.embed([longer[0], short, longer[1]])[1]
    assert np.allclose(alone, in_batch, atol=1e-5), float(np.abs(alone - in_batch).max())


def test_minilm_puts_paraphrases_closer_than_unrelated_sentences(
    minilm: MiniLMOnnxEmbedder,
) -> None:
    cat, kitten, stocks = minilm.embed(
        [
            "A cat is sleeping on the sofa.",
            "A kitten naps on the couch.",
            "Stock markets fell sharply after the rate decision.",
        ]
    )
    assert float(cat @ kitten) > float(cat @ stocks) + 0.2


def test_minilm_embeds_an_empty_batch_as_an_empty_matrix(minilm: MiniLMOnnxEmbedder) -> None:
    assert minilm.embed([]).shape == (0, 384)


@pytest.mark.parametrize("spec", ["word2vec", "openai", "ollama:", "minilm-onnx:big"])
def test_make_embedder_rejects_an_unknown_spec_listing_the_choices(spec: str) -> None:
    with pytest.raises(EmbedderError) as info:
        make_embedder(spec)
    message = str(info.value)
    assert repr(spec) in message
    for choice in ("'minilm-onnx'", "'sentence-transformers:<model>'", "'openai:<model>'"):
        assert choice in message


# --- HttpEmbedder against a local OpenAI / Ollama ------------------------------------


@pytest.fixture
def api() -> Iterator[FakeEmbeddings]:
    fake = FakeEmbeddings().start()
    yield fake
    fake.stop()


def expected(texts: list[str]) -> np.ndarray:
    rows = np.array([vector_for(t) for t in texts], dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


TEXTS = ["alpha", "a longer beta text", "gamma!"]


def test_openai_embedder_sends_the_key_and_returns_unit_vectors(api: FakeEmbeddings) -> None:
    embedder = HttpEmbedder("openai", "text-embedding-3-small", api.url, "sk-test-123")
    vectors = embedder.embed(TEXTS)
    assert np.allclose(vectors, expected(TEXTS), atol=1e-6)
    (request,) = api.requests
    assert request.path == "/embeddings"
    assert request.headers["Authorization"] == "Bearer sk-test-123"
    assert request.body == {"model": "text-embedding-3-small", "input": TEXTS}


def test_openai_embedder_puts_out_of_order_data_back_in_input_order(api: FakeEmbeddings) -> None:
    api.reverse_data = True
    vectors = HttpEmbedder("openai", "m", api.url, "sk-test").embed(TEXTS)
    assert np.allclose(vectors, expected(TEXTS), atol=1e-6)


def test_ollama_embedder_posts_to_api_embed_without_a_key(api: FakeEmbeddings) -> None:
    embedder = make_embedder("ollama:nomic-embed-text", base_url=api.url)
    vectors = embedder.embed(TEXTS)
    assert embedder.name == "ollama:nomic-embed-text"
    assert np.allclose(vectors, expected(TEXTS), atol=1e-6)
    (request,) = api.requests
    assert request.path == "/api/embed"
    assert "Authorization" not in request.headers
    assert request.body == {"model": "nomic-embed-text", "input": TEXTS}


def test_http_embedder_splits_big_inputs_into_batches_in_order(api: FakeEmbeddings) -> None:
    texts = [f"text number {i}" for i in range(5)]
    embedder = HttpEmbedder("ollama", "m", api.url, None, batch_size=2)
    assert np.allclose(embedder.embed(texts), expected(texts), atol=1e-6)
    assert [r.body["input"] for r in api.requests] == [texts[:2], texts[2:4], texts[4:]]


def test_an_http_500_is_an_embedder_error_naming_the_url(api: FakeEmbeddings) -> None:
    api.status = 500
    with pytest.raises(EmbedderError, match=rf"openai:m embedding request to {api.url}/embeddings"):
        HttpEmbedder("openai", "m", api.url, "sk-test").embed(["x"])


def test_a_reply_with_too_few_vectors_is_an_embedder_error(api: FakeEmbeddings) -> None:
    api.drop_last = True
    with pytest.raises(EmbedderError, match="returned 1 vectors for 2 texts"):
        HttpEmbedder("openai", "m", api.url, "sk-test").embed(["a", "b"])


def test_embedding_nothing_is_an_embedder_error(api: FakeEmbeddings) -> None:
    with pytest.raises(EmbedderError, match="empty"):
        HttpEmbedder("ollama", "m", api.url, None).embed([])
    assert api.requests == []


def test_the_store_refuses_a_collection_built_with_another_embedder(
    api: FakeEmbeddings, settings: Settings
) -> None:
    first = DocumentStore(
        DocsSettings.taken_from(settings),
        embedder=HttpEmbedder("openai", "fake-3d", api.url, "sk-t"),
    )
    first.ingest([Document(title="Tides", content="The moon pulls the sea.", source="t")])
    assert first.count() == 1
    with pytest.raises(StoreError) as info:
        DocumentStore(DocsSettings.taken_from(settings))
    message = str(info.value)
    assert "'openai:fake-3d'" in message and "'minilm-onnx'" in message
