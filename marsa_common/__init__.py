"""What the MCP servers and the backend both need, and nothing else: the embedder, secret
scrubbing, text normalisation with the one quote rule, the rules for a document sent to
MARSA, and which files the document store reads.

Both sides import this package; it imports neither (``tests/test_boundaries.py``), so a
server never pulls in the backend and the backend never pulls in a server.
"""
