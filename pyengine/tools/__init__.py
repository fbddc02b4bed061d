"""The tools over the knowledge base: the edge-case search, the flip search and the consistency check."""
