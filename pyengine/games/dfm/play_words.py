"""The words of the Duel's plays: an option a `plays` question tried as a play id, the words of a scenario action
(`take 1.2 play`, `call elrond enter race=elves`), and as a description (`take the layout's card 1.2 (row 1, card 2)
and play it`), with the words of what a kept token does and of a take's choices."""

from __future__ import annotations

from functools import lru_cache

import clingo

from pyengine.core.asp import Term, Value
from pyengine.games.dfm.terms import ALL_TEMPLATES

# The actions without parameters, in words.
PLAY_WORDS = {"end_turn": "end the turn", "move_nazgul": "move the Nazgul", "move_ring": "move the Ring"}


@lru_cache(maxsize=16_384)
def option_id(option: clingo.Symbol) -> str:
    """The words of an option a `plays` question tried (its term depends on nothing else: the call templates are
    fixed), kept for the next reading of the same option (a play is named in its answer, its result and its
    explanation)."""
    if option.name == "bonus":  # a play with the choice of the Ring-track bonus it earns
        inner, name, value = option.arguments
        return f"{option_id(inner)} {name.name}={value.string}"
    if option.name == "take":
        row, col, use = option.arguments
        return f"take {row.number}.{col.number} {use.name}"
    if option.name == "place":
        row, col, region = option.arguments
        return f"take {row.number}.{col.number} play region={region.string}"
    if option.name == "remove":
        row, col, *regions = option.arguments
        named = ",".join(r.string for r in regions if r.type == clingo.SymbolType.String)
        return f"take {row.number}.{col.number} play remove={named}"
    if option.name == "shift":
        row, col, *regions = option.arguments[:4]
        removed = ",".join(r.string for r in regions if r.type == clingo.SymbolType.String)
        moved = ",".join("-".join(a.string for a in m.arguments) for m in option.arguments[4:] if m.arguments)
        return f"take {row.number}.{col.number} play" + (f" remove={removed}" if removed else "") + f" moves={moved}"
    if option.name == "tile_shift":
        moved = ",".join("-".join(a.string for a in m.arguments) for m in option.arguments[1:] if m.arguments)
        return f"landmark {_value_words(option.arguments[0])} moves={moved}"
    if option.name == "tile_pile":
        return f"landmark {_value_words(option.arguments[0])} pile_card={option.arguments[1].string}"
    if option.name == "tile_token":
        return f"landmark {_value_words(option.arguments[0])} token={option.arguments[1].string}"
    if option.name == "tile_grey":
        return f"landmark {_value_words(option.arguments[0])} grey_card={option.arguments[1].string}"
    if option.name == "landmark":
        return f"landmark {_value_words(option.arguments[0])}"
    if option.name == "alliance":
        return f"alliance {option.arguments[0].name} race={option.arguments[1].name}"
    if option.name == "alliance_token":
        trigger, race, token = option.arguments
        return f"alliance {trigger.name} race={race.name} token={token.string}"
    if option.name == "alliance_use":
        trigger, race, token, use = option.arguments
        return f"alliance {trigger.name} race={race.name} token={token.string} {_use_words(use, USE_IDS)}"
    if option.name == "tile_use":
        tile, token, use = option.arguments
        return f"landmark {_value_words(tile)} token={token.string} {_use_words(use, USE_IDS)}"
    if option.name != "call":
        return option.name
    ally, effect, choices = _call_parts(option)
    return " ".join(["call", ally, effect, *(f"{name}={value}" for name, value in choices)])


# The words of a token's pick (pick/3 in rules/dfm/alliance_tokens.lp) by its term's name, in a play id and in a
# play's description; {} are the term's regions.
PICK_IDS = {"coin": "coin", "remove": "remove:{}", "m": "move:{}-{}"}
PICK_WORDS = {"coin": "taking an opponent's coin", "remove": "taking an opponent's unit from {}",
              "m": "moving a unit from {} to {}"}


def _pick_words(pick: clingo.Symbol, forms: dict[str, str]) -> str:
    """A pick of a token's choice of effects in the words of `forms`."""
    return forms[pick.name].format(*(a.string for a in pick.arguments))


# What a kept token is named to do (token_use/4 in rules/dfm/plays.lp) by its term's name, in a play id and in a
# play's description, with the forms and the joiner of its picks; {} are the term's regions, or its picks.
USE_IDS = ({"fortress": "fortress={}", "places": "place1={} place2={}", "picks": "picks={}"}, PICK_IDS, ",")
USE_WORDS = ({"fortress": " and removing the opponent's Fortress in {}",
              "places": " and placing its units in {} and {}", "picks": ": {}"}, PICK_WORDS, ", ")


def _use_words(use: clingo.Symbol, forms: tuple[dict[str, str], dict[str, str], str]) -> str:
    """What a kept token is named to do, in the words of `forms` (USE_IDS, USE_WORDS)."""
    uses, picks, joiner = forms
    if use.name == "picks":
        return uses["picks"].format(joiner.join(_pick_words(p, picks) for p in use.arguments))
    return uses[use.name].format(*(a.string for a in use.arguments))


def _call_parts(option: clingo.Symbol) -> tuple[str, str, list[tuple[str, str]]]:
    """A call option's ally, effect, and choices (each a name and its value in words)."""
    template, *values = option.arguments
    ally, effect, fixed, slots = ALL_TEMPLATES[template.number]
    return ally, effect, [*((n, str(v)) for n, v in fixed.items()),
                          *((name, _value_words(value)) for (name, _), value in zip(slots, values, strict=False))]


def take_words(name: str, value: Value) -> str:
    """A choice of a take to play in words: where a red card's units go, an opponent's unit taken, a unit moved,
    a card of the discard pile played, a token's pick."""
    if isinstance(value, Term) and value.name == "remove":
        return f", an opponent's unit from {value.args[0]}"
    if isinstance(value, Term):
        return ", a unit of theirs from {} to {}".format(*value.args)
    if name.startswith("pick"):
        return ", an opponent's coin"
    if name == "pile_card":
        return f", playing the discarded card {value}"
    if name == "token":
        return f", keeping the token {value}"
    if name == "grey_card":
        return f", discarding the opponent's grey card {value}"
    if name in ("fortress", "bonus_fortress"):
        return f", removing the opponent's Fortress in {value}"
    if name == "bonus_region":
        return f", the Ring-track bonus unit placed in {value}"
    if name in ("place1", "place2"):
        return f", a unit placed in {value}"
    return f", its units to {value}" if name == "region" else f", an opponent's unit from {value}"


def _value_words(value: clingo.Symbol) -> str:
    """A choice's value in a play id: a region by name, a card c(R, C) as R.C, a connection c(A, B) as A-B."""
    if value.type == clingo.SymbolType.String:
        return value.string
    if value.type == clingo.SymbolType.Number:
        return str(value.number)
    if value.name == "c" and len(value.arguments) == 2:
        a, b = (_value_words(v) for v in value.arguments)
        joiner = "." if value.arguments[0].type == clingo.SymbolType.Number else "-"
        return f"{a}{joiner}{b}"
    return str(value)


@lru_cache(maxsize=16_384)
def option_words(option: clingo.Symbol) -> str:
    """An option a `plays` question tried, in words (as option_id, it depends on nothing else: kept for the
    next reading of the same option, as when a game is followed action by action)."""
    if option.name == "bonus":
        inner, name, value = option.arguments
        return option_words(inner) + take_words(name.name, value.string)
    if option.name == "take":
        row, col, use = option.arguments
        what = "play it" if use.name == "play" else "discard it"
        return f"take the layout's card {row.number}.{col.number} (row {row.number}, card {col.number}) and {what}"
    if option.name == "place":
        row, col, region = option.arguments
        return (f"take the layout's card {row.number}.{col.number} (row {row.number}, card {col.number}) and play "
                f"it, its units to {region.string}")
    if option.name == "remove":
        row, col, *regions = option.arguments
        named = " and ".join(r.string for r in regions if r.type == clingo.SymbolType.String)
        return (f"take the layout's card {row.number}.{col.number} (row {row.number}, card {col.number}) and play "
                f"it, taking the opponent's units from {named}")
    if option.name == "shift":
        row, col, *regions = option.arguments[:4]
        named = " and ".join(r.string for r in regions if r.type == clingo.SymbolType.String)
        moved = ", ".join("from {} to {}".format(*(a.string for a in m.arguments))
                          for m in option.arguments[4:] if m.arguments)
        taking = f"taking the opponent's units from {named}, " if named else ""
        return (f"take the layout's card {row.number}.{col.number} (row {row.number}, card {col.number}) and play "
                f"it, {taking}moving a unit of its player's {moved}")
    if option.name == "tile_shift":
        moved = ", ".join("from {} to {}".format(*(a.string for a in m.arguments))
                          for m in option.arguments[1:] if m.arguments)
        return f"use the Landmark tile of {_value_words(option.arguments[0])}, moving a unit of its taker's {moved}"
    if option.name == "tile_pile":
        return (f"use the Landmark tile of {_value_words(option.arguments[0])}, playing the discarded card "
                f"{option.arguments[1].string}")
    if option.name == "tile_token":
        return (f"use the Landmark tile of {_value_words(option.arguments[0])}, keeping the Alliance token "
                f"{option.arguments[1].string}")
    if option.name == "tile_grey":
        return (f"use the Landmark tile of {_value_words(option.arguments[0])}, discarding the opponent's grey card "
                f"{option.arguments[1].string}")
    if option.name == "landmark":
        return f"use the Landmark tile of {_value_words(option.arguments[0])}"
    if option.name == "alliance":
        return f"use the {option.arguments[1].name} Alliance tokens ({option.arguments[0].name})"
    if option.name == "alliance_token":
        trigger, race, token = option.arguments
        return f"use the {race.name} Alliance tokens ({trigger.name}), keeping the token {token.string}"
    if option.name == "alliance_use":
        trigger, race, token, use = option.arguments
        return (f"use the {race.name} Alliance tokens ({trigger.name}), keeping the token {token.string}"
                f"{_use_words(use, USE_WORDS)}")
    if option.name == "tile_use":
        tile, token, use = option.arguments
        return (f"use the Landmark tile of {_value_words(tile)}, keeping the Alliance token {token.string}"
                f"{_use_words(use, USE_WORDS)}")
    if option.name != "call":
        return PLAY_WORDS.get(option.name, option.name.replace("_", " "))
    ally, effect, choices = _call_parts(option)
    said = f"call upon {ally.replace('_', ' ').title()} ({effect} effect)"
    return f"{said}, choosing {', '.join(f'{n} {v}' for n, v in choices)}" if choices else said
