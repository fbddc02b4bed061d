"""How the single values of a Duel scenario read: the board's names, layout positions, counts by name, and fluents
with their arguments, each wrong one a located input error."""

from __future__ import annotations

from typing import Any

from pyengine.core.asp import Const, Term, term
from pyengine.core.errors import InputError, closest
from pyengine.core.fields import Fields
from pyengine.games.dfm.terms import (
    ALLIES,
    ALLY_STATES,
    BOARD,
    COLOURS,
    FACTIONS,
    MAX_POSITION,
    RACES,
    SKILLS,
    TOKEN_PLACES,
)

# Where else Power tokens may lie, with the kinds of the location's arguments.
TOKEN_LOCATIONS = {"stack": ("race",), "tile": ("tile",), "connection": ("region", "region"),
                   "card": ("number", "number")}
# The fluents a question or a `flags:` entry may name, with the kinds of their arguments: the game's words
# (faction, race, ally, use: constants), the board's region and tile names (text) and layout numbers.
NUMERIC: dict[str, tuple[str, ...]] = {
    "coins": ("faction",), "reserve": (), "units": ("faction", "region"), "nazgul": (), "stack": ("race",),
    "alliance": ("faction", "race"), "grey": ("faction",), "discard_pile": (), "ring": (), "sauron_steps": (),
    "symbols": ("faction", "race"), "extra_turns": ("faction",), "chapter": (), "discarded": ("colour",),
    "pairs_used": ("faction", "race"), "skills": ("faction", "skill")}
BOOLEAN: dict[str, tuple[str, ...]] = {
    "turn": ("faction",), "called": ("faction",), "taken": ("number", "number"), "open_tile": ("tile",),
    "owned": ("tile", "faction"), "locked": ("race", "faction"), "locked_by": ("race", "faction"),
    "blocked": ("region", "region", "faction"), "protected": ("tile", "faction"),
    "forced": ("faction", "number", "number", "use"), "eagle_at": ("eagle_place",),
    "fortress": ("faction", "region"), "face_up": ("number", "number"), "available": ("number", "number"),
    "three_used": ("faction",), "in_pile": ("card_id",), "token_out": ("token_id",),
    "holds_token": ("faction", "token_id"), "chain": ("faction", "chain_symbol"), "grey_card": ("faction", "card_id"),
    "took": ("faction", "take_kind"),
    **{s: ("faction", "ally") for s in ALLY_STATES}}
# Fluents the rules derive from the others, or that a state gives in a field of their own (the Eagle's one place,
# `eagle:`; the discard pile's real cards, `pile:`; the real Alliance tokens held, `alliance_tokens:`): they can be
# asked about, never given in a state's `flags:`.
DERIVED = {"chapter", "face_up", "available", "eagle_at", "in_pile", "token_out", "holds_token", "grey_card"}
# Where the Eagle Alliance token can be: in front of a player, or on top of or at the bottom of the Hobbit stack.
EAGLE_PLACES = (*FACTIONS, "top", "bottom")
# The words of each kind of argument.
WORDS = {"faction": FACTIONS, "race": RACES, "ally": tuple(ALLIES), "use": ("any", "discard", "play"),
         "colour": COLOURS, "eagle_place": EAGLE_PLACES, "skill": SKILLS, "take_kind": ("card", "tile")}


def fits(value: Any, kind: str) -> bool:
    """Whether a fluent argument is of its kind: one of the game's words, a region or tile of the board, or a
    layout number."""
    if kind in WORDS:
        return value in WORDS[kind]
    if kind in BOARD:
        return value in BOARD[kind]
    if kind == "number":
        return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_POSITION
    return isinstance(value, str) and bool(value)


def board_name(value: Any, kind: str, **where: Any) -> str:
    """A region or tile name of the board (`kind`), or a located input error naming the board's names."""
    if isinstance(value, str) and value in BOARD[kind]:
        return value
    raise InputError(f"unknown {kind} {value!r}", expected=f"one of the board's {kind}s: " + ", ".join(BOARD[kind]),
                     suggestion=closest(value, BOARD[kind]) if isinstance(value, str) else None, **where)


def position(item: Any, fields: Fields, path: str, line: int | None, column: int | None) -> tuple[int, int]:
    """A layout position [row, card], each a whole number from 1 to MAX_POSITION."""
    if (isinstance(item, list) and len(item) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) and 0 < n <= MAX_POSITION for n in item)):
        return item[0], item[1]
    raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                     expected="a layout position [row, card], counted from 1 at the top left")


def numbers(fields: Fields, key: str, keys: tuple[str, ...]) -> dict[str, int]:
    """A mapping of names to whole numbers; names are one of `keys`."""
    for name in fields.mapping(key):
        if not isinstance(name, str):
            raise fields.sub(key, set()).error(str(name), f"got {name!r}", expected="a name (text)")
    sub = fields.sub(key, set(keys))
    return {str(k): sub.whole(str(k), 0, minimum=0) for k in fields.mapping(key)}


def fluent_term(raw: Any, fields: Fields, key: str) -> Term:
    """A fluent written as a list ([units, sauron, gondor]) as a typed term: names of the game's vocabulary
    as constants, whole numbers in range as numbers, a region or tile of the board as text."""
    if not isinstance(raw, list) or not raw or not isinstance(raw[0], str):
        raise fields.error(key, f"got {raw!r}", expected="a list such as [tokens, fellowship]")
    name, args = raw[0], raw[1:]
    if name == "tokens" and args and isinstance(args[0], str) and args[0] in TOKEN_LOCATIONS:
        kinds = TOKEN_LOCATIONS[args[0]]
        if len(args) - 1 != len(kinds) or not all(fits(a, k) for a, k in zip(args[1:], kinds, strict=False)):
            raise fields.error(key, f"got {raw!r}", expected="[tokens, stack, RACE], [tokens, tile, TILE], "
                               "[tokens, connection, FROM, TO] or [tokens, card, ROW, COLUMN]")
        values = [Const(a) if k in WORDS else a for a, k in zip(args[1:], kinds, strict=True)]
        return term("tok", term({"connection": "conn"}.get(args[0], args[0]), *values))
    if name == "tokens":
        if len(args) != 1 or args[0] not in TOKEN_PLACES:
            places = ", ".join(TOKEN_PLACES)
            raise fields.error(key, f"got {raw!r}", expected=f"[tokens, P] with P one of {places}")
        return term("tok", Const(args[0]))
    kinds = NUMERIC.get(name, BOOLEAN.get(name))
    if kinds is None or len(args) != len(kinds):
        known = sorted({*NUMERIC, *BOOLEAN})
        raise fields.error(key, f"got {raw!r}", expected="a fluent name followed by its arguments, one of "
                           + ", ".join(known))
    for a, kind in zip(args, kinds, strict=True):
        if not fits(a, kind):
            choices = ", ".join({**WORDS, **BOARD}.get(kind, ())) or f"a {kind}"
            raise fields.error(key, f"got {a!r} in {raw!r}", expected=f"{choices} as the {kind} of {name}")
    return term(name, *(Const(a) if k in WORDS else a for a, k in zip(args, kinds, strict=True)))


def token_location(item: Any, fields: Fields, path: str, line: int | None,
                   column: int | None) -> tuple[Term, int]:
    """A `tokens_at:` entry, [stack, RACE, N], [tile, TILE, N] or [connection, FROM, TO, N]: Power tokens
    lying there at the start (the layout's own tokens are the chapter's, see tokens_gone)."""
    places = {k: v for k, v in TOKEN_LOCATIONS.items() if k != "card"}
    kinds = places.get(item[0]) if isinstance(item, list) and item and isinstance(item[0], str) else None
    if (kinds is None or len(item) != len(kinds) + 2
            or not all(fits(a, k) for a, k in zip(item[1:-1], kinds, strict=True))
            or not isinstance(item[-1], int) or isinstance(item[-1], bool) or not 0 <= item[-1] <= MAX_POSITION):
        raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                         expected="[stack, RACE, N], [tile, TILE, N] or [connection, FROM, TO, N], N from 0 to "
                                  f"{MAX_POSITION}")
    values = [Const(a) if k in WORDS else a for a, k in zip(item[1:-1], kinds, strict=True)]
    return term("tok", term({"connection": "conn"}.get(item[0], item[0]), *values)), item[-1]
