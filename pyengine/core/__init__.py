"""The game-agnostic core: reading scenario files into typed fields, the catalog and its store, the knowledge
base's declarations, building facts, running clingo and rendering answers. It names no game: each game is
reached through the registry (pyengine.games)."""
