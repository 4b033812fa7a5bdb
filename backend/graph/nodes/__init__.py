"""The graph's nodes: each is async, takes the state, and returns a partial update."""
