"""A declarative rules knowledge base for card-game rules: the rules are ASP (clingo), Python only loads,
normalises, emits facts, runs clingo and renders the answers."""

__version__ = "0.1.0"
