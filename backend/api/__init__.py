"""MARSA's REST API (FastAPI)."""
