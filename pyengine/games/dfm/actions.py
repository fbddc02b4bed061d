"""How a Duel scenario's actions read: each kind (a call upon an ally with its choices, a take of a layout card, an
Alliance token or Landmark tile taken, a unit moved, a step without parameters) as its act/3 term, its choices and
its words, with the choices of a Ring-track bonus it earns; each field a kind does not read is an input error."""

from __future__ import annotations

from functools import partial

from pyengine.core.asp import Const, Value, term
from pyengine.core.errors import Collected, InputError
from pyengine.core.fields import Fields
from pyengine.games.dfm.play_words import take_words
from pyengine.games.dfm.real_cards import REAL_CARD_ID, REAL_TOKEN_ID
from pyengine.games.dfm.terms import (
    ALLIES,
    BOARD,
    BONUS_CHOICES,
    CHOICES,
    COLOURS,
    FACTIONS,
    OPTIONAL_CHOICES,
    RACES,
    RANDOM_CHOICES,
    Action,
)
from pyengine.games.dfm.values import board_name, position

# The kinds of a choice named by a word, with their words (the board's kinds are in BOARD).
CHOICE_WORDS = {"race": RACES, "mode": ("nazgul", "unit"), "ally": tuple(ALLIES), "colour": COLOURS}
# The fields an action may have: its player, its kind, what each kind reads, and every choice of a call.
ACTION_FIELDS = {"player", "call", "effect", "take", "use", "remove", "moves", "token", "fortress", "picks", "end_turn",
                 *BONUS_CHOICES,
                 "move_nazgul", "move_ring", "landmark", "alliance", "move", "begin", *{
    name for choices in CHOICES.values() for name in choices}}
# The fields each action other than a call reads (a call's choices are checked against its ally's, CHOICES):
# any other is an input error, never a field read as if it did not matter.
# A tile's take or a token's may play a card of the discard pile, whose units take `region:`, `remove:` and `moves:`.
KIND_FIELDS = {"take": {"take", "use", "region", "remove", "moves"},
               "alliance": {"alliance", "race", "token", "pile_card", "fortress", "place1", "place2", "picks",
                            "region", "remove", "moves"},
               "landmark": {"landmark", "moves", "pile_card", "token", "grey_card", "fortress", "place1", "place2",
                            "picks", "region", "remove"}, "move": {"move"}}
# The place of an action not read for its own error (the steps after it keep their numbers), and what one stands
# for while the rest of it is read.
UNREAD_ACTION: Action = (Const("unread"), [], "an action not read")


def read_action(action: Fields, asked: bool = False) -> Action:
    """An action as its act/3 term, its choice facts (with a placeholder step), and a short description, with the
    choices of a Ring-track bonus it names (BONUS_CHOICES), its parts that do not depend on one another read apart.
    An action an `allowed` question tries (`asked`), which no step follows, may leave its random outcome unnamed
    (RANDOM_CHOICES): whether it may be taken is the rules' answer without it."""
    each = action.apart()
    act, choices, words = each.value(lambda: _kind_action(action, asked), UNREAD_ACTION)
    bonus: list[tuple[str, Value]] = []
    for name in BONUS_CHOICES:
        with each.part():
            if action.has(name):
                bonus.append((name, _choice(action, name, "region")))
    each.raise_any()
    return act, choices + bonus, words + "".join(take_words(n, v) for n, v in bonus)


def _kind_action(action: Fields, asked: bool) -> Action:
    """An action of its kind as its act/3 term, its choice facts (with a placeholder step), and a short
    description; its player, its kind and every field its kind does not read each an error of its own."""
    each = action.apart()
    player = each.value(lambda: action.choice("player", FACTIONS, required=True) or "", "")
    kinds = [k for k in ("call", "take", "end_turn", "move_nazgul", "move_ring", "landmark", "alliance", "move",
                         "begin") if action.has(k)]
    if len(kinds) != 1:
        raise action.error("player", f"the action does {' and '.join(kinds) or 'nothing'}",
                           expected="exactly one of call, take, end_turn, move_nazgul, move_ring, landmark, "
                                    "alliance, move, begin")
    kind = kinds[0]
    unread = (sorted(set(action.data) - {"player", *BONUS_CHOICES} - KIND_FIELDS.get(kind, {kind}))
              if kind != "call" else [])
    for name in unread:
        each.add(action.error(name, f"a {kind} action takes no {name!r}",
                              expected="one of " + ", ".join(sorted(KIND_FIELDS.get(kind, {kind})))))
    read = {"take": _take, "alliance": _alliance, "landmark": _landmark}.get(kind, partial(_step, kind=kind))
    found = each.value(lambda: _call(action, player, asked) if kind == "call" else read(action, player),
                       UNREAD_ACTION)
    each.raise_any()
    return found


def _call(action: Fields, player: str, asked: bool) -> Action:
    """A call upon an ally: its ally and effect, then each choice its effect takes and each it needs but lacks,
    each an error of its own."""
    each = action.apart()
    ally = each.value(lambda: action.choice("call", tuple(ALLIES), required=True) or "", "")
    effect = each.value(lambda: action.choice("effect", ("enter", "exit"), required=True) or "", "")
    each.raise_any()
    allowed = CHOICES[ally, effect]
    optional = set(OPTIONAL_CHOICES.get((ally, effect), ()))
    if asked and (ally, effect) in RANDOM_CHOICES:
        optional.add(RANDOM_CHOICES[ally, effect])
    if ally == "warg" and effect == "exit" and action.has("copy"):  # the copied exit's choices, as its own
        allowed = {**allowed, **CHOICES.get((str(action.raw("copy")), "exit"), {})}
        optional |= OPTIONAL_CHOICES.get((str(action.raw("copy")), "exit"), set())
    choices: list[tuple[str, Value]] = []
    for name in sorted(set(action.data) - {"player", "call", "effect", *BONUS_CHOICES}):
        with each.part():
            if name not in allowed:
                raise action.error(name, f"{ally}'s {effect} effect takes no choice {name!r}",
                                   expected="one of " + (", ".join(sorted(allowed)) or "no choices"))
            listed = {"picks": _picks, "moves": _moves, "remove": _removals}.get(allowed[name])
            choices += listed(action) if listed else [(name, _choice(action, name, allowed[name]))]
    for name in allowed:
        if name not in action.data and name not in optional and not (
                ally == "witch_king" and name == "region" and action.raw("mode") == "nazgul"):
            # placed on the action (an `allowed` question's own line), as the field is not written
            each.add(action.error(name, f"{ally}'s {effect} effect needs the choice {name!r}",
                                  expected=_choice_expected(name, allowed[name], player)))
    each.raise_any()
    return term("call", Const(ally), Const(effect)), choices, f"{player} calls {ally} ({effect})"


def _take(action: Fields, player: str) -> Action:
    """A take of a layout card, to play or to discard, with the choices a real card played names."""
    line, column = action.data.key_at("take") if hasattr(action.data, "key_at") else (None, None)
    each = action.apart()
    row, col = each.value(lambda: position(action.raw("take"), action, action.name("take"), line, column), (0, 0))
    use = each.value(lambda: action.choice("use", ("play", "discard"), default="play"), None) or "play"
    choices = each.value(lambda: _take_choices(action, use), [])
    each.raise_any()
    words = "".join(take_words(name, value) for name, value in choices)
    return term("take", row, col, Const(use)), choices, f"{player} takes card {row}.{col} to {use}{words}"


def _alliance(action: Fields, player: str) -> Action:
    """A take of Alliance tokens of a race, a pair or three, with the choices of the token kept."""
    each = action.apart()
    trigger = each.value(lambda: action.choice("alliance", ("pair", "three"), required=True) or "pair", "pair")
    race = each.value(lambda: action.choice("race", RACES, required=True) or "", "")
    chosen = _named(action, each, (("token", "token"), ("pile_card", "pile_card"), ("fortress", "region"),
                                   ("place1", "region"), ("place2", "region"), ("region", "region")))
    chosen += each.value(lambda: _removals(action) + _moves(action), [])
    each.raise_any()
    words = "".join(take_words(n, v) for n, v in chosen)
    return (term("alliance", Const(trigger), Const(race)), chosen,
            f"{player} takes an Alliance token of the {race} ({trigger}){words}")


def _landmark(action: Fields, player: str) -> Action:
    """A take of a Landmark tile, with the choices its effect names."""
    line, column = action.data.key_at("landmark") if hasattr(action.data, "key_at") else (None, None)
    each = action.apart()
    tile = each.value(lambda: board_name(action.raw("landmark"), "tile", file=action.file, line=line, column=column,
                                         field=action.name("landmark")), "")
    chosen = each.value(lambda: _moves(action) + _removals(action), [])
    chosen += _named(action, each, (("pile_card", "pile_card"), ("token", "token"), ("grey_card", "grey_card"),
                                    ("fortress", "region"), ("place1", "region"), ("place2", "region"),
                                    ("region", "region")))
    each.raise_any()
    return (term("landmark", tile), chosen,
            f"{player} takes the Landmark tile {tile}" + "".join(take_words(n, v) for n, v in chosen))


def _named(action: Fields, each: Collected, names: tuple[tuple[str, str], ...]) -> list[tuple[str, Value]]:
    """The choices of `names` (each a name and its kind) an action names, then its picks, each read apart in
    `each`."""
    chosen: list[tuple[str, Value]] = []
    for name, kind in names:
        with each.part():
            if action.has(name):
                chosen.append((name, _choice(action, name, kind)))
    return chosen + each.value(lambda: _picks(action), [])


def _step(action: Fields, player: str, kind: str) -> Action:
    """A unit moved (a card's movement), or a step without parameters (`end_turn: true`, ...)."""
    if kind == "move":
        start, end = _choice(action, "move", "move").args
        return term("move", start, end), [], f"{player} moves a unit from {start} to {end}"
    if not action.flag(kind, True):
        raise action.error(kind, "is false", expected=f"{kind}: true")
    return Const(kind), [], f"{player} {kind.replace('_', ' ')}"


def _take_choices(action: Fields, use: str) -> list[tuple[str, Value]]:
    """What a take of a real card to play names for its units (rules/dfm/card_units.lp): `region:` where a red
    card's units go, `remove:` the regions of the opponent's units a card takes (a region twice for two units
    there), `moves:` the movements of the player's units a card makes, as the choices region, remove1 and
    remove2, moved1 to moved3."""
    choices: list[tuple[str, Value]] = []
    for key in ("region", "remove", "moves"):
        if action.has(key) and use != "play":
            raise action.error(key, "a discarded card does nothing to units",
                               expected=f"{key}: only beside a card taken to play")
    if action.has("region"):
        choices.append(("region", _choice(action, "region", "region")))
    return choices + _removals(action) + _moves(action)


def _removals(action: Fields) -> list[tuple[str, Value]]:
    """`remove:`, the regions of the opponent's units a real card takes (a region twice for two units there), as
    the choices remove1 and remove2 (rules/dfm/card_units.lp)."""
    if not action.has("remove"):
        return []
    line, column = action.data.key_at("remove") if hasattr(action.data, "key_at") else (None, None)
    regions = action.raw("remove")
    if not isinstance(regions, list) or not 1 <= len(regions) <= 2:
        raise InputError(f"got {regions!r}", file=action.file, line=line, column=column,
                         field=action.name("remove"), expected="a list of one or two regions, such as [gondor]")
    return [(f"remove{n}", board_name(r, "region", file=action.file, line=line, column=column,
                                      field=action.name("remove"))) for n, r in enumerate(regions, 1)]


def _picks(action: Fields) -> list[tuple[str, Value]]:
    """`picks:`, what a kept token that offers a choice of effects does with each of its picks (the Ents'
    third: `coin`, `{remove: REGION}` or `{move: [FROM, TO]}`), as the choices pick1 to pick3 with the values
    coin, remove(REGION) and m(FROM, TO) (rules/dfm/alliance_tokens.lp)."""
    if not action.has("picks"):
        return []
    line, column = action.data.key_at("picks") if hasattr(action.data, "key_at") else (None, None)
    where = {"file": action.file, "line": line, "column": column, "field": action.name("picks")}
    picks = action.raw("picks")
    expected = "a list of one to three picks, each coin, {remove: REGION} or {move: [FROM, TO]}"
    if not (isinstance(picks, list) and 1 <= len(picks) <= 3):
        raise InputError(f"got {picks!r}", expected=expected, **where)
    chosen: list[tuple[str, Value]] = []
    for n, pick in enumerate(picks, 1):
        if pick == "coin":
            chosen.append((f"pick{n}", Const("coin")))
        elif isinstance(pick, dict) and list(pick) == ["remove"]:
            chosen.append((f"pick{n}", term("remove", board_name(pick["remove"], "region", **where))))
        elif isinstance(pick, dict) and list(pick) == ["move"] and isinstance(pick["move"], list) \
                and len(pick["move"]) == 2:
            chosen.append((f"pick{n}", term("m", *(board_name(r, "region", **where) for r in pick["move"]))))
        else:
            raise InputError(f"pick {n}: got {pick!r}", expected=expected, **where)
    return chosen


def _moves(action: Fields) -> list[tuple[str, Value]]:
    """`moves:`, the movements of the player's units a real card or tile makes, as the choices moved1 to
    moved3 (rules/dfm/card_units.lp)."""
    if not action.has("moves"):
        return []
    line, column = action.data.key_at("moves") if hasattr(action.data, "key_at") else (None, None)
    moves = action.raw("moves")
    if not (isinstance(moves, list) and 1 <= len(moves) <= 3
            and all(isinstance(m, list) and len(m) == 2 for m in moves)):
        raise InputError(f"got {moves!r}", file=action.file, line=line, column=column, field=action.name("moves"),
                         expected="a list of one to three movements [from, to], such as [[arnor, lindon]]")
    return [(f"moved{n}", term("m", *(board_name(r, "region", file=action.file, line=line, column=column,
                                                 field=action.name("moves")) for r in move)))
            for n, move in enumerate(moves, 1)]


def _choice(action: Fields, name: str, kind: str) -> Value:
    """A choice's value as a typed term: a region or tile by name, a race, mode or ally, a card c(R, C), a
    connection c(A, B) or a move m(A, B)."""
    value = action.raw(name)
    line, column = action.data.key_at(name) if hasattr(action.data, "key_at") else (None, None)
    where = {"file": action.file, "line": line, "column": column, "field": action.name(name)}
    if kind in BOARD:
        return board_name(value, kind, **where)
    if kind in CHOICE_WORDS:
        return Const(action.choice(name, CHOICE_WORDS[kind], required=True) or "")
    if kind == "card":
        row, col = position(value, action, action.name(name), line, column)
        return term("c", row, col)
    if kind in ("connection", "move"):
        if not (isinstance(value, list) and len(value) == 2):
            raise InputError(f"got {value!r}", expected="a pair of region names [from, to]", **where)
        return term("c" if kind == "connection" else "m", *(board_name(r, "region", **where) for r in value))
    if kind in ("pile_card", "grey_card"):
        if not (isinstance(value, str) and REAL_CARD_ID.fullmatch(value)):
            raise InputError(f"got {value!r}", expected="a real card's id C.N, such as \"1.3\"", **where)
        return value
    if kind == "token":
        if not (isinstance(value, str) and REAL_TOKEN_ID.fullmatch(value)):
            raise InputError(f"got {value!r}", expected="a real Alliance token's id RACE.N (the data's race "
                             "names), such as \"wizards.1\"", **where)
        return value
    raise AssertionError(kind)


def _choice_expected(name: str, kind: str, player: str) -> str:
    """What a missing choice may be, in words: every value a named kind takes (for an ally, the opponent's of the
    player's, the allies an effect names), else the value's shape."""
    if kind == "ally":
        return f"{name}: one of the opponent's allies, " + ", ".join(a for a, side in ALLIES.items() if side != player)
    words = CHOICE_WORDS.get(kind) or BOARD.get(kind)
    if words:
        return f"{name}: one of " + ", ".join(words)
    shapes = {"card": "a layout position [row, card]", "connection": "a pair of region names [from, to]",
              "move": "a pair of region names [from, to]"}
    return f"{name}: {shapes.get(kind, 'a ' + kind)}"
