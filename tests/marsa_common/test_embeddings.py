"""The offline embedder's onnxruntime session."""

from marsa_common.embeddings import MiniLMOnnxEmbedder


def test_the_onnx_session_does_not_spin_between_batches():
    # Every process that embeds has its own thread pool on the same cores; a spinning pool
    # takes CPU from the processes with work (docs/evaluation.md, "Scale-out").
    embedder = MiniLMOnnxEmbedder()
    assert embedder.embed(["tides rise twice a day"]).shape == (1, 384)
    options = embedder._session.get_session_options()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
