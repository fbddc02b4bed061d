"""Decklist files for `pyengine deck`: YAML (`game:`, `catalog:`, readings, the game's deck sections) or plain
text, one `COUNT[x] CARD` per line with `Section: CARD` lines for single cards (e.g. `Ring-bearer: 1_290`).
A decklist becomes a scenario with one deck question, answered by the encodings like any other."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pyengine.core import kb as kbase
from pyengine.core.errors import InputError, InputErrors, closest
from pyengine.core.fields import Fields
from pyengine.core.scenario import Question, Scenario, readings_of
from pyengine.core.yamlio import Mapping, Sequence, build_from_file, read_input
from pyengine.games import registry

DECK_FIELDS = {"game", "title", "catalog", "profile", "readings"}
_SECTION = re.compile(r"^(?P<section>[A-Za-z][A-Za-z _-]*):\s*(?P<value>.*)$")
# A comment: a line whose first character is `#`, or the rest of a line from a `#` standing alone (spaces on both
# sides, or a space before and the line's end). A `#` inside a title is the title's ("Safe House #29").
_COMMENT = re.compile(r"\s#(?:\s|$)")


def _text_decklist(path: Path) -> Mapping:
    """A plain-text decklist as the mapping its YAML form would give, with line numbers kept."""
    lines = read_input(path, "decklist").splitlines()
    data = Mapping()
    data.line = data.column = 1
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        line = "" if line.startswith("#") else _COMMENT.split(line, maxsplit=1)[0].strip()
        if not line:
            continue
        match = _SECTION.match(line)
        if match and not match["section"].strip().isdigit():
            key = "_".join(match["section"].strip().lower().replace("-", " ").split())
            if key in {"site", "sites"}:
                key, value = "sites", match["value"]
            else:
                value = match["value"]
                if key in data and key not in ("cards", "sites"):
                    raise InputError(f"{match['section'].strip()}: is given twice (also on line "
                                     f"{data.key_positions[key][0]})", file=str(path), line=number,
                                     field=key, expected="one line for each single card of the deck")
            if key == "sites" or key == "cards":
                items = data.setdefault(key, Sequence())
                items.append(value)
                items.item_positions.append((number, 1))
            else:
                data[key] = value
            data.key_positions[key] = (number, 1)
            continue
        items = data.setdefault("cards", Sequence())
        items.append(line)
        items.item_positions.append((number, 1))
        data.key_positions.setdefault("cards", (number, 1))
    if not data:
        raise InputError("the decklist is empty", file=str(path), expected="lines like '4 Sting (1R313)'")
    return data


def load_deck(path: Path, game_name: str | None, catalog: str | None) -> Scenario:
    """Read a decklist file into a scenario with one `deck` question about it."""
    if path.suffix in {".txt", ".dek"}:
        return deck_from_data(_text_decklist(path), str(path), path.name, game_name, catalog)
    return build_from_file(path, lambda data: deck_from_data(data, str(path), path.name, game_name, catalog))


def _markers(game_fields: set[str]) -> set[str]:
    """The sections of a game's decks that name it: those no other game's decks have."""
    others = set().union(*(g.reader.deck_fields for g in registry().values() if g.reader.deck_fields != game_fields))
    return game_fields - others


def _marker_examples() -> set[str]:
    return {f"{key.replace('_', '-').capitalize()}:" for g in registry().values()
            for key in _markers(g.reader.deck_fields)}


def _game_of_sections(data: dict[str, Any]) -> str | None:
    """The game a decklist's sections name (a `Ring-bearer:` or an `Identity:` line), when exactly one game's
    decks have a section of it that no other game's have and every section is one of that game's."""
    fields = {name: g.reader.deck_fields for name, g in registry().items()}
    fitting = [name for name, own in fields.items()
               if own and set(data) & _markers(own) and set(data) <= own | DECK_FIELDS]
    return fitting[0] if len(fitting) == 1 else None


def check_deck_options(game_name: str | None, catalog: str | None) -> None:
    """Refuse a game without decklists or a catalog that no game has, given for a whole run of decklists (each
    file would be refused alike)."""
    games = registry()
    decked = sorted(g for g, module in games.items() if module.reader.deck_fields)
    if game_name is not None and game_name not in decked:
        raise InputError(f"no decklists for game {game_name!r}", field="game", expected="one of " + ", ".join(decked),
                         suggestion=closest(game_name, decked))
    if catalog is not None:
        from pyengine.core import store

        known = sorted({"builtin", *store.sources()})
        if catalog not in known:
            raise InputError(f"no catalog {catalog!r}", field="catalog", expected="one of " + ", ".join(known),
                             suggestion=closest(catalog, known))


def deck_from_data(data: Any, file: str, title: str, game_name: str | None, catalog: str | None) -> Scenario:
    """A decklist given as data (read from a file, or built in memory) as a scenario with one `deck` question."""
    games = registry()
    if not isinstance(data, dict):
        raise InputError("a decklist must be a mapping of fields", file=file, expected="game:, cards:, ...")
    if game_name is None:
        game_name = Fields(data, file, "", set(data)).choice("game", sorted(games)) or _game_of_sections(data)
    if game_name is None:
        raise InputError("which game is this decklist for?", file=file, field="game",
                         expected="a `game:` field, --game, or a section line only one game's decks have "
                                  "(e.g. " + ", ".join(sorted(_marker_examples())) + ")")
    if game_name not in games or not games[game_name].reader.deck_fields:
        decked = sorted(g for g, module in games.items() if module.reader.deck_fields)
        raise InputError(f"no decklists for game {game_name!r}", file=file, field="game",
                         expected="one of " + ", ".join(decked), suggestion=closest(game_name, decked))
    game = games[game_name]
    if catalog is not None:
        data["catalog"] = catalog
    fields = Fields(data, file, "", DECK_FIELDS | game.reader.deck_fields)
    kb = kbase.load(game.name)
    errors: list[InputError] = []
    state, params = game.reader.parse_deck(fields, errors)
    if errors:
        raise InputErrors(errors)
    question = Question("deck", "deck", params, None, None, [], {}, None)
    return Scenario(file, game, fields.text("title") or title, [], readings_of(fields, kb), state, [question])
