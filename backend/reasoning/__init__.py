"""What the graph's nodes think with: the offline engine and the LLM engine, one interface."""
