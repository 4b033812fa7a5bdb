"""The LLM engine (``engine.py``) and its prompt text (``prompts.py``)."""
