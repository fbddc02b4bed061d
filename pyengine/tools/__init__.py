"""The tools over the knowledge base: the edge-case search, the flip search, the census, the consistency check and
the conformance kit."""

from __future__ import annotations

from typing import Any

from pyengine.core.errors import InputError
from pyengine.games import SPECS, registry


def search_view(game: str, tool: str) -> Any:
    """The search view of a game (pyengine.games.SearchView) that `tool` needs: a game whose registry entry says
    it has none (GameSpec.search) is refused by name, with the games that have one."""
    if not SPECS[game].search:
        searchable = [name for name, spec in SPECS.items() if spec.search]
        raise InputError(f"{tool} cannot search game {game}: it has no search view", field="game",
                         expected="one of " + ", ".join(searchable))
    return registry()[game].search
