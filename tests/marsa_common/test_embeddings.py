"""The offline embedder's onnxruntime session."""

import numpy as np

from marsa_common.embeddings import MiniLMOnnxEmbedder


def test_the_onnx_session_does_not_spin_between_batches():
    # Every process that embeds has its own thread pool on the same cores; a spinning pool
    # takes CPU from the processes with work (docs/evaluation.md, "Scale-out").
    embedder = MiniLMOnnxEmbedder()
    assert embedder.embed(["tides rise twice a day"]).shape == (1, 384)
    options = embedder._session.get_session_options()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"


def test_batches_hold_at_most_the_token_budget_once_padded_and_the_batch_size():
    # Long texts run alone or in pairs (in batches of 32 they ran at half the speed on two
    # cores); short ones together; each text once, shortest first.
    embedder = MiniLMOnnxEmbedder(batch_size=4)
    lengths = [250, 10, 12, 9, 11, 130, 256, 120, 10]
    batches = embedder._batches(lengths)
    assert sorted(i for batch in batches for i in batch) == list(range(len(lengths)))
    for batch in batches:
        assert len(batch) <= 4
        assert len(batch) == 1 or len(batch) * max(lengths[i] for i in batch) <= 512
    assert [lengths[i] for i in batches[0]] == [9, 10, 10, 11]
    assert [[lengths[i] for i in b] for b in batches[1:]] == [[12, 120, 130], [250, 256]]


def test_a_text_has_the_same_vector_in_any_batch_shape():
    embedder = MiniLMOnnxEmbedder()
    texts = ["Tides follow the moon.", "A much longer sentence about the sea " * 12, "Waves."]
    together = embedder.embed(texts)
    alone = [embedder.embed([t])[0] for t in texts]
    assert np.allclose(together, np.stack(alone), atol=1e-5)
