"""What the pages' script knows of each game to build a table: zones, instance fields, question kinds with their
fields and verdicts, readings with their choices, profiles, catalogs, and what else each game's own form needs
(its `web_extras`). Read from the game modules and the knowledge base, so that it cannot drift from the scenario
format."""

from __future__ import annotations

from typing import Any

from pyengine.core import kb as kbase
from pyengine.games import SPECS, game_file, registry


def _readings(game: str) -> list[dict[str, Any]]:
    kb = kbase.load(game)
    return [{"name": r.name, "question": r.text, "default": r.default, "choices": list(r.choices)}
            for r in sorted(kb.readings.values(), key=lambda r: r.name)]


def games_config(catalogs: dict[str, list[str]]) -> dict[str, Any]:
    """The table builder's configuration, one entry per game."""
    games: dict[str, Any] = {}
    for name, game in registry().items():
        games[name] = {
            "document": game.document,
            "questions": {kind: sorted(fields) for kind, fields in game.question_fields.items()},
            "verdicts": {kind: list(v) if v else None for kind, v in game.verdicts.items()},
            "readings": _readings(name),
            "profiles": sorted(kbase.load(name).profiles),
            "catalogs": catalogs.get(name, []),
            "assumptions": dict(kbase.load(name).assumptions),
            **game.words.web_extras(),
        }
        # A new table takes its cards from the pool imported into the store, where there is one, not from the
        # built-in catalog of the cards the documents name.
        imported = [c for c in games[name]["catalogs"] if c != "builtin"]
        if imported:
            games[name]["blank"] = {**games[name]["blank"], "catalog": imported[0]}
    return {"games": games, "default_game": next(iter(SPECS)),
            "forms": [f"/games/{name}/form.js" for name in games if game_file(name, "form.js")]}
