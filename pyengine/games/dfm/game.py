"""The Lord of the Rings: Duel for Middle-earth with the Allies expansion (document dfm_allies): a state, a
sequence of actions (calls upon allies with their choices, and the base-game actions they touch), and
questions about the actions, the state after a step, the Power token count, the pairing of ally rows and
the setup. Base-game facts are assumptions kept in facts/dfm/base_game.lp."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

import clingo

from pyengine.core.asp import MAX_NUMBER, Const, Fact, Term, Value, fact, render, term
from pyengine.core.errors import Collected, InputError, Unread, closest
from pyengine.core.fields import Fields
from pyengine.core.resources import facts_dir
from pyengine.games import DOCUMENTS, LISTING_KINDS

FACTIONS = ("fellowship", "sauron")
# Layout rows and columns, and fluent arguments that are numbers, lie between 1 and this.
MAX_POSITION = 100
ALLIES = {"witch_king": "sauron", "shelob": "sauron", "chieftain": "sauron", "balrog": "sauron", "warg": "sauron",
          "cave_troll": "sauron", "grima": "sauron", "tom_bombadil": "fellowship", "goldberry": "fellowship",
          "elrond": "fellowship", "arwen": "fellowship", "boromir": "fellowship", "lobelia": "fellowship",
          "faramir": "fellowship"}
RACES = ("dwarves", "men", "elves", "hobbits", "wizards", "ents")
# An ally's states: drawn and hidden, revealed, its enter effect applied, set aside after its exit (p35),
# revealed by the Warg, or left out of the game at setup (p16: never drawn).
ALLY_STATES = ("hidden", "revealed", "entered", "set_aside", "by_warg", "out_of_game")
TOKEN_PLACES = ("fellowship", "sauron", "box", "spent", "nazgul")
# The board's regions and its Landmark tiles, as facts/dfm/base_game.lp names them (board_region/1,
# tile_region/2; assumptions board and region_tiles): any other name is an input error, never a region the
# rules would know nothing of.
REGIONS = ("lindon", "arnor", "rhovanion", "enedwaith", "rohan", "gondor", "mordor")
TILES = ("barad_dur", "isengard", "erebor", "minas_tirith", "helms_deep", "grey_havens", "bree")
BOARD = {"region": REGIONS, "tile": TILES}
# Where else Power tokens may lie, with the kinds of the location's arguments.
TOKEN_LOCATIONS = {"stack": ("race",), "tile": ("tile",), "connection": ("region", "region"),
                   "card": ("number", "number")}
# The choices each effect takes: name -> kind of value (region, race, tile, connection, card, ally, mode, move).
CHOICES: dict[tuple[str, str], dict[str, str]] = {
    ("witch_king", "enter"): {"mode": "mode", "region": "region"}, ("witch_king", "exit"): {"region": "region"},
    ("shelob", "enter"): {"race": "race"}, ("shelob", "exit"): {"race": "race"},
    ("chieftain", "enter"): {"tile": "tile"}, ("chieftain", "exit"): {"tile": "tile"},
    ("balrog", "enter"): {"connection": "connection"}, ("balrog", "exit"): {"connection": "connection"},
    ("warg", "enter"): {"ally": "ally"}, ("warg", "exit"): {"copy": "ally"},
    ("cave_troll", "enter"): {"grey_card": "grey_card"}, ("cave_troll", "exit"): {"grey_card": "grey_card"},
    ("grima", "enter"): {"card": "card"}, ("grima", "exit"): {"card": "card"},
    ("tom_bombadil", "enter"): {}, ("tom_bombadil", "exit"): {},
    ("goldberry", "enter"): {}, ("goldberry", "exit"): {},
    **{("elrond", effect): {"race": "race", "token": "token", "fortress": "region", "place1": "region",
                            "place2": "region", "picks": "picks"} for effect in ("enter", "exit")},
    ("arwen", "enter"): {"colour": "colour", "pile_card": "pile_card"},
    ("arwen", "exit"): {"colour": "colour", "pile_card": "pile_card"},
    ("boromir", "enter"): {"region": "region"}, ("boromir", "exit"): {"region": "region"},
    ("lobelia", "enter"): {"region": "region", "move1": "move"},
    ("lobelia", "exit"): {"place1": "region", "place2": "region", "move1": "move", "move2": "move"},
    ("faramir", "enter"): {"card": "card"}, ("faramir", "exit"): {"card": "card", "card2": "card"},
}
# Values a `plays` question fixes instead of trying every value (the Witch-king's mode decides whether a region
# is chosen at all).
FIXED_MODES: dict[tuple[str, str], list[dict[str, str]]] = {("witch_king", "enter"): [{"mode": "nazgul"},
                                                                                      {"mode": "unit"}]}
# Choices a call may leave out (Lobelia's extra movements); a `plays` question tries the call without them.
OPTIONAL_CHOICES = {("lobelia", "enter"): {"move1"}, ("lobelia", "exit"): {"move1", "move2"},
                    ("warg", "exit"): {"copy"},
                    ("arwen", "enter"): {"colour", "pile_card"}, ("arwen", "exit"): {"colour", "pile_card"},
                    **{("elrond", effect): {"token", "fortress", "place1", "place2", "picks"}
                       for effect in ("enter", "exit")},
                    ("cave_troll", "enter"): {"grey_card"}, ("cave_troll", "exit"): {"grey_card"}}
# Optional choices a `plays` question tries too, beside the call without them (the Cave Troll naming each real grey
# card of the opponent's, rules/dfm/grey_cards.lp; Elrond each real token of the race he names; what his token then
# does, `fortress:`, `place1:`, `place2:`, `picks:`, is not tried).
TRIED_OPTIONAL = {("cave_troll", "enter"): {"grey_card"}, ("cave_troll", "exit"): {"grey_card"},
                  ("elrond", "enter"): {"token"}, ("elrond", "exit"): {"token"}}
# The skills grey cards give and chapter cards ask (base-game assumption card_skills), in the order of their bits
# in rules/dfm/card_skills.lp.
SKILLS = ("ruse", "strength", "courage", "knowledge", "leadership")
# The colours of chapter cards (base-game assumption discard_pile).
COLOURS = ("grey", "yellow", "blue", "green", "red", "purple")
# The kinds of a choice named by a word, with their words (the board's kinds are in BOARD).
CHOICE_WORDS = {"race": RACES, "mode": ("nazgul", "unit"), "ally": tuple(ALLIES), "colour": COLOURS}


def call_templates() -> list[tuple[str, str, dict[str, str], list[tuple[str, str]]]]:
    """Every call a `plays` question tries, as (ally, effect, fixed choices, open choices with their kinds); the
    Warg's exit once for each ally it may copy, with that ally's exit choices."""
    templates = []
    for (ally, effect), choices in CHOICES.items():
        if (ally, effect) == ("warg", "exit"):
            continue
        for fixed in FIXED_MODES.get((ally, effect), [{}]):
            skip = OPTIONAL_CHOICES.get((ally, effect), set()) | set(fixed)
            if fixed.get("mode") == "nazgul":
                skip.add("region")
            templates.append((ally, effect, fixed, [(n, k) for n, k in choices.items() if n not in skip]))
            if (ally, effect) in TRIED_OPTIONAL:
                tried = skip - TRIED_OPTIONAL[ally, effect]
                templates.append((ally, effect, fixed, [(n, k) for n, k in choices.items() if n not in tried]))
    for copied in ALLIES:
        for _, _, fixed, slots in [t for t in templates if t[0] == copied and t[1] == "exit"]:
            templates.append(("warg", "exit", {"copy": copied, **fixed}, slots))
    templates.append(("warg", "exit", {}, []))  # nothing to copy: legal only with no ally in front of the opponent
    return templates


TEMPLATES = call_templates()
# The random choice of each effect whose outcome is random (p53, p73): an `outcomes` question tries every value of
# it, with these templates, numbered after the ones `plays` tries.
RANDOM_CHOICES = {("warg", "enter"): "ally", ("arwen", "enter"): "colour"}
OUTCOME_TEMPLATES = [(ally, effect, {}, [(name, CHOICES[ally, effect][name])])
                     for (ally, effect), name in RANDOM_CHOICES.items()]
ALL_TEMPLATES = [*TEMPLATES, *OUTCOME_TEMPLATES]
# The choices a Ring-track bonus an action earns needs (rules/dfm/ring_bonuses.lp): any action may name them, and one
# that earns no such bonus is refused by the rules, never read as if they did not matter.
BONUS_CHOICES = ("bonus_region", "bonus_fortress")
ACTION_FIELDS = {"player", "call", "effect", "take", "use", "remove", "moves", "token", "fortress", "picks", "end_turn",
                 *BONUS_CHOICES,
                 "move_nazgul", "move_ring", "landmark", "alliance", "move", "begin", *{
    name for choices in CHOICES.values() for name in choices}}
# The fields each action other than a call reads (a call's choices are checked against its ally's, CHOICES):
# any other is an input error, never a field read as if it did not matter.
KIND_FIELDS = {"take": {"take", "use", "region", "remove", "moves"},
               "alliance": {"alliance", "race", "token", "pile_card", "fortress", "place1", "place2", "picks"},
               "landmark": {"landmark", "moves", "pile_card", "token", "grey_card", "fortress", "place1", "place2",
                            "picks"}, "move": {"move"}}
STATE_FIELDS = {"tokens", "tokens_gone", "taken", "coins", "reserve", "allies", "units", "connections", "nazgul",
                "stacks", "alliance", "grey", "tiles", "discard_pile", "flags", "tokens_at", "ring", "symbols",
                "fortresses", "extra_turns", "colours", "discards", "eagle", "cards", "deal", "skills",
                "skill_choices", "pile", "alliance_tokens", "grey_cards", "sauron_steps"}
# The counts of a state that are 0 when it does not give them.
ZERO_UNLESS_GIVEN = ("nazgul", "discard_pile")
# The fields of a state read together (a card's colour may be given in `colours:` or in its `cards:` entry, once;
# a player's grey cards on real cards come with their skills; real Alliance tokens held are given by id or counted,
# the Eagle among them or in `eagle:`).
STATE_PARTS = {**{key: {"colours", "cards", "deal"} for key in ("colours", "cards", "deal")},
               **{key: {"grey", "skills", "skill_choices", "grey_cards"}
                  for key in ("grey", "skills", "skill_choices", "grey_cards")},
               **{key: {"pile", "discard_pile", "discards"} for key in ("pile", "discard_pile", "discards")},
               **{key: {"alliance", "alliance_tokens", "eagle"} for key in ("alliance", "alliance_tokens", "eagle")}}
# What a `cards:` entry may say of a card of the layout in play (assumption card_costs).
CARD_FIELDS = {"at", "colour", "symbols", "cost", "chain", "free_with", "card", "skills"}
# A real chapter card's id: its chapter and its place among that chapter's cards in the data (docs/card-pools.md).
REAL_CARD_ID = re.compile(r"[1-3]\.[1-9][0-9]?")
# The catalogs of real base-game cards a Duel scenario may name (`catalog:`), each a source of the card store.
REAL_CARD_SOURCES = ("vermihunter",)
# A race as the real cards' data names it, where the Duel's words differ (the data's Humans are the Men).
DATA_RACES = {"humans": "men"}
# A real Alliance token's id: its race as the data names it and its place among that race's tokens (wizards.1).
REAL_TOKEN_ID = re.compile(r"(dwarves|elves|humans|hobbits|wizards|ents)\.[1-3]")
# The once effects of a real Alliance token that come down to a count, with the field that counts (or the count)
# and the family token_count/3 names them by (rules/dfm/alliance_tokens.lp).
TOKEN_FAMILIES = {"move_on_the_ring_quest_track": ("move_count", "ring"), "take_another_turn": (1, "extra_turns")}
# The same for a token's effect on its event (token_trigger_count/3), where coins from the reserve count too.
TRIGGER_FAMILIES = {**TOKEN_FAMILIES, "get_coins_from_reserve": ("coins_to_get", "coins"),
                    "place_units_on_central_board": ("units_to_place", "units"),
                    "move_units_on_central_board": ("units_to_move", "moves")}
# The same for a triggered effect whose count is the data's count for each round, one for each chapter
# (token_trigger_chapter_count/4).
TRIGGER_CHAPTER_FAMILIES = {"gain_extra_coins_for_discarded_chapter_card": ("extra_coins_per_chapter", "coins")}
# The effects a pick of a token's choice of effects may be (the Ents' third), with the field that counts and the
# family token_pick/4 names them by (an opponent's units or coins taken, the picker's units moved).
PICK_FAMILIES = {"take_enemy_unit_from_central_board": ("units_to_take", "enemy_units"),
                 "take_enemy_coins": ("coins_to_take", "enemy_coins"),
                 "move_units_on_central_board": ("units_to_move", "moves")}
# The effects of a real card that come down to a count, each with the field of the data that counts and the fact
# the encodings read it by (rules/dfm/card_coins.lp, card_ring.lp, card_units.lp).
COUNTED_EFFECTS = (("get_coins_from_reserve", "coins_to_get", "card_coins"),
                   ("take_enemy_coins", "coins_to_take", "card_enemy_coins"),
                   ("move_on_the_ring_quest_track", "move_count", "card_ring_moves"),
                   ("place_units_on_central_board", "units_to_place", "card_units"),
                   ("take_enemy_unit_from_central_board", "units_to_take", "card_enemy_units"),
                   ("move_units_on_central_board", "units_to_move", "card_moves"))
# The effects of a real Landmark tile the encodings apply, with the field that counts and the family tile_count/3
# names them by (rules/dfm/card_effects.lp); a tile's units go to its own region.
TILE_FAMILIES = {"get_coins_from_reserve": ("coins_to_get", "coins"), "move_on_the_ring_quest_track": ("move_count",
                 "ring"), "place_units_on_central_board": ("units_to_place", "units"),
                 "move_units_on_central_board": ("units_to_move", "moves")}
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
    **{s: ("faction", "ally") for s in ALLY_STATES}}
# Fluents the rules derive from the others, or that a state gives in a field of their own (the Eagle's one place,
# `eagle:`; the discard pile's real cards, `pile:`; the real Alliance tokens held, `alliance_tokens:`): they can be
# asked about, never given in a state's `flags:`.
DERIVED = {"chapter", "face_up", "available", "eagle_at", "in_pile", "token_out", "holds_token", "grey_card"}
# Where the Eagle Alliance token can be: in front of a player, or on top of or at the bottom of the Hobbit stack.
EAGLE_PLACES = (*FACTIONS, "top", "bottom")
# The words of each kind of argument.
WORDS = {"faction": FACTIONS, "race": RACES, "ally": tuple(ALLIES), "use": ("any", "discard", "play"),
         "colour": COLOURS, "eagle_place": EAGLE_PLACES, "skill": SKILLS}


# The actions without parameters, in words.
PLAY_WORDS = {"end_turn": "end the turn", "move_nazgul": "move the Nazgul", "move_ring": "move the Ring"}


@lru_cache(maxsize=16_384)
def _play_words(option: clingo.Symbol) -> str:
    """The words of an option a `plays` question tried (its term depends on nothing else: the call templates are
    fixed), kept for the next reading of the same option (a play is named in its answer, its result and its
    explanation)."""
    if option.name == "bonus":  # a play with the choice of the Ring-track bonus it earns
        inner, name, value = option.arguments
        return f"{_play_words(inner)} {name.name}={value.string}"
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


# An action: its act/3 term, its choices (name, value), and its words.
Action = tuple[Value, list[tuple[str, Value]], str]
# The place of an action not read for its own error, so that the steps after it keep their numbers.
UNREAD_ACTION: Action = (Const("unread"), [], "an action not read")


@dataclass
class State:
    chapter: int
    turn: str
    facts: list[Fact] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    # The steps (1, 2, ...) whose action was not read for an error of its own: a question about one is not
    # checked again (errors.Unread).
    unread: set[int] = field(default_factory=set)
    # The base game's real cards (`catalog: vermihunter`, imported into the store), which `cards:` entries may name.
    real_cards: Any = None
    # Every card of `real_cards`, read once for the scenario (its tiles, its tokens, a deal's chapters).
    pool: list[Any] = field(default_factory=list)
    # The real cards whose data the facts already hold (real_card_colour/2, ...), by id.
    described: set[str] = field(default_factory=set)
    # The real cards the state places in the discard pile or a player's area (`pile:`, `grey_cards:`), each once.
    placed: set[str] = field(default_factory=set)


@lru_cache(maxsize=1)
def layout_rows() -> dict[int, list[int]]:
    """The length of each row of each chapter's layout, from the top, as facts/dfm/layouts.lp gives them."""
    control = clingo.Control(["--warn=none"])
    control.load(str(Path(facts_dir(), "dfm", "layouts.lp")))
    control.ground([("base", [])])
    rows: dict[int, dict[int, int]] = {}
    for atom in control.symbolic_atoms.by_signature("row", 3):
        chapter, row, length = (a.number for a in atom.symbol.arguments)
        rows.setdefault(chapter, {})[row] = length
    return {chapter: [found[row] for row in sorted(found)] for chapter, found in rows.items()}


def dealt(chapter: int, shuffler: random.Random, cards: list[str]) -> tuple[list[tuple[tuple[int, int], str]],
                                                                           list[str]]:
    """A chapter dealt as the base game's setup deals it: the chapter's cards (`cards`, ids C.N) in the data's order,
    shuffled by `shuffler`, the first laid into the layout's places in reading order (rows from the top, each from
    the left), the rest left out (assumption unused_cards). The places with their cards, and the cards left out."""
    order = sorted(cards, key=lambda c: int(c.split(".")[1]))
    shuffler.shuffle(order)
    places = [(row, card) for row, length in enumerate(layout_rows()[chapter], 1) for card in range(1, length + 1)]
    return list(zip(places, order, strict=False)), order[len(places):]


@lru_cache(maxsize=1)
def _reading_rules() -> tuple[Fact, ...]:
    """The rules that apply under one choice of a reading, as reading_rule/1 facts (from the declarations), so that
    an answer can list the readings the steps before it rested on (rules/dfm/assumptions.lp)."""
    from pyengine.core import kb

    rules = kb.load("dfm").rules
    return tuple(fact("reading_rule", Const(name)) for name, rule in sorted(rules.items()) if rule.readings)


def _fits(value: Any, kind: str) -> bool:
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


def _take_words(name: str, value: Value) -> str:
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
def _play_description(option: clingo.Symbol) -> str:
    """An option a `plays` question tried, in words (as _play_words, it depends on nothing else: kept for the
    next reading of the same option, as when a game is followed action by action)."""
    if option.name == "bonus":
        inner, name, value = option.arguments
        return _play_description(inner) + _take_words(name.name, value.string)
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


class Dfm:
    name = "dfm"
    document = DOCUMENTS["dfm"]
    state_fields: ClassVar[set[str]] = {"chapter", "turn", "state", "actions", "catalog"}
    deck_fields: ClassVar[set[str]] = set()
    # The predicates a state and its questions are given by (the edge-case search shares them between worlds).
    input_predicates: ClassVar[set[str]] = {
        "chapter", "last_step", "init", "init_num", "given_tokens", "given_reserve", "token_gone", "connected",
        "act", "choice",
        "question", "q_action", "q_value", "q_flag", "q_tokens", "q_pairing", "q_setup", "q_plays", "q_outcomes",
        "q_winner",
        "try_call", "try_fixed", "try_slot", "faction", "opponent", "reading_rule",
        "race", "box_tokens", "ally", "row", "layout_token", "region", "race_pick", "card_colour", "card_symbol",
        "card_cost", "card_chain", "card_free_with", "card_skill_cost", "left_out", "card_effect", "card_coins",
        "card_enemy_coins", "card_ring_moves", "card_units", "card_units_region", "card_enemy_units", "card_moves",
        "card_skill_gain", "card_skill_either", "skill_set", "board_kind", "tile_skill_cost",
        "tile_effect", "card_id", "real_card_colour", "real_card_symbol", "real_card_effect", "real_card_skill",
        "real_card_either",
        "tile_count", "token_race", "token_once", "token_lasting", "token_count", "token_trigger_count",
        "token_trigger_chapter_count", "token_units_region", "token_units", "token_picks", "token_pick"}
    # The state predicates `pyengine flip` may change (rules/flip/dfm.lp).
    flip_predicates: ClassVar[set[str]] = {"init_num", "init", "given_reserve"}
    # The shared encodings it loads in base: its answers.lp grounds the shared verdicts once every moment is known.
    common_files: ClassVar[tuple[str, ...]] = ("readings.lp",)
    # Its encodings run over moments, grounded one at a time (pyengine.core.stepwise, rules/dfm/state.lp).
    timeline: ClassVar[bool] = True
    # A moment of the Duel has no cards in play to find active (the conformance kit leaves the game out).
    activity_view: ClassVar[str | None] = None
    # Its parts (pyengine.games: Reader, FactWriter, Words, SearchView).
    reader = writer = words = search = property(lambda self: self)
    base_files: ClassVar[tuple[str, ...]] = ("state.lp", "layout.lp", "connections.lp", "calls.lp", "turns.lp",
                                             "allies_sauron.lp",
                                             "allies_fellowship.lp", "tokens.lp", "units.lp", "victory.lp",
                                             "alliance.lp", "alliance_tokens.lp", "card_effects.lp",
                                             "card_coins.lp", "card_ring.lp", "ring_bonuses.lp", "card_units.lp",
                                             "card_skills.lp", "grey_cards.lp", "assumptions.lp", "answers.lp")
    kind_files: ClassVar[dict[str, tuple[str, ...]]] = {
        "action": ("questions.lp",), "allowed": ("questions.lp",), "value": ("questions.lp",),
        "tokens": ("questions.lp",), "pairing": ("pairing.lp",), "setup": ("setup.lp",),
        "plays": ("questions.lp", "plays.lp"), "outcomes": ("questions.lp", "plays.lp"), "winner": (),
    }
    question_fields: ClassVar[dict[str, set[str]]] = {
        "action": {"step"},
        "allowed": {"at", *ACTION_FIELDS},
        "value": {"after", "of"}, "tokens": {"after"}, "pairing": {"ally"}, "setup": set(),
        "plays": {"player", "at"}, "outcomes": {"step"}, "winner": {"after"},
    }
    verdicts: ClassVar[dict[str, tuple[str, ...] | None]] = {
        "action": ("done", "refused"), "allowed": ("legal", "illegal"), "value": None, "tokens": None,
        "pairing": None, "setup": ("valid", "invalid"), "plays": None, "outcomes": None,
        "winner": ("fellowship", "sauron", "none", "draw"),
    }

    # -- reading a scenario -------------------------------------------------------------------------------

    def parse_state(self, fields: Fields, collected: Collected) -> State:
        chapter = fields.whole("chapter", 1, minimum=0)
        if chapter > 3:
            raise fields.error("chapter", f"got {chapter}", expected="1, 2 or 3, or 0 for the setup before chapter 1")
        state = State(chapter, fields.choice("turn", FACTIONS, default="fellowship") or "fellowship",
                      real_cards=self._real_cards(fields))
        state.facts += [fact("chapter", chapter), fact("init", term("turn", Const(state.turn)))]
        if state.real_cards is not None:
            state.pool = list(state.real_cards.all_cards())
            state.facts += real_tiles(state.pool) + real_tokens(state.pool)
        given = fields.sub("state", STATE_FIELDS)
        done: set[str] = set()
        for key in given.data:  # each field apart, in the file's order (a card's colour is read with its card)
            if key not in done:
                part = STATE_PARTS.get(key, {key})
                done |= part
                with collected.part():
                    self._state(state, given.only(part))
        state.facts += [fact("init_num", Const(name), 0) for name in ZERO_UNLESS_GIVEN
                        if not given.has(name) and not (name == "discard_pile" and given.has("pile"))]
        for index, (item, line, column, path) in enumerate(fields.items("actions")):
            with collected.part():
                try:
                    action = Fields(item, fields.file, path, ACTION_FIELDS, line or 0, column or 0)
                    state.actions.append(self._action(action, index))
                except InputError:
                    state.actions.append(UNREAD_ACTION)
                    state.unread.add(index + 1)
                    raise
        return state

    def _numbers(self, fields: Fields, key: str, keys: tuple[str, ...] | None) -> dict[str, int]:
        """A mapping of names to whole numbers; names are one of `keys`, or (None) any text."""
        for name in fields.mapping(key):
            if not isinstance(name, str):
                raise fields.sub(key, set()).error(str(name), f"got {name!r}", expected="a name (text)")
        sub = fields.sub(key, set(keys) if keys else set(fields.mapping(key)))
        return {str(k): sub.whole(str(k), 0, minimum=0) for k in fields.mapping(key)}

    def _state(self, state: State, fields: Fields) -> None:
        facts = state.facts
        if fields.has("pile"):
            self._pile(state, fields)
        for place, n in self._numbers(fields, "tokens", TOKEN_PLACES).items():
            facts += [fact("init_num", term("tok", Const(place)), n), fact("given_tokens", Const(place))]
        for colour, n in self._numbers(fields, "discards", COLOURS).items():
            facts.append(fact("init_num", term("discarded", Const(colour)), n))
        for item, line, column, path in fields.items("colours"):
            if not (isinstance(item, list) and len(item) == 3 and item[2] in COLOURS):
                raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                                 expected="[ROW, CARD, COLOUR] with COLOUR one of " + ", ".join(COLOURS))
            row, col = self._position(item[:2], fields, path, line, column)
            facts.append(fact("card_colour", state.chapter, row, col, Const(item[2])))
        self._cards(state, fields)
        for item, line, column, path in fields.items("tokens_at"):
            facts.append(fact("init_num", *self._token_location(item, fields, path, line, column)))
        for key in ("tokens_gone", "taken"):
            for item, line, column, path in fields.items(key):
                row, col = self._position(item, fields, path, line, column)
                facts.append(fact("token_gone", row, col) if key == "tokens_gone"
                             else fact("init", term("taken", row, col)))
        for player, n in self._numbers(fields, "coins", FACTIONS).items():
            facts.append(fact("init_num", term("coins", Const(player)), n))
        if fields.has("reserve"):  # otherwise the coins the players do not hold (rules/dfm/state.lp)
            facts.append(fact("given_reserve", fields.whole("reserve", 0, minimum=0)))
        for name in ZERO_UNLESS_GIVEN:
            if fields.has(name):
                facts.append(fact("init_num", Const(name), fields.whole(name, 0, minimum=0)))
        # The Fellowship's place on the Ring track, and the steps of the Nazgul's own moves there (by which Sauron
        # earns its bonuses, rules/dfm/ring_bonuses.lp; 0 unless given, as every numeric fluent).
        for name in ("ring", "sauron_steps"):
            if fields.has(name):
                facts.append(fact("init_num", Const(name), fields.whole(name, 0, minimum=0)))
        for race, n in self._numbers(fields, "stacks", RACES).items():
            facts.append(fact("init_num", term("stack", Const(race)), n))
        for player, n in self._numbers(fields, "extra_turns", FACTIONS).items():
            facts.append(fact("init_num", term("extra_turns", Const(player)), n))
        self._skills(state, fields)
        allies = fields.sub("allies", set(FACTIONS))
        for player in FACTIONS:
            sub = allies.sub(player, set(ALLY_STATES))
            for status in ALLY_STATES:
                for item, line, column, path in sub.items(status):
                    if not isinstance(item, str) or item not in ALLIES:
                        raise InputError(f"unknown ally {item!r}", file=fields.file, line=line, column=column,
                                         field=path, expected="one of " + ", ".join(ALLIES))
                    facts.append(fact("init", term(status, Const(player), Const(item))))
        units = fields.sub("units", set(FACTIONS))
        alliance = fields.sub("alliance", set(FACTIONS))
        symbols = fields.sub("symbols", set(FACTIONS))
        fortresses = fields.sub("fortresses", set(FACTIONS))
        for player in FACTIONS:
            for region in units.mapping(player):
                if region not in REGIONS:
                    raise units.sub(player, set(units.mapping(player))).error(
                        str(region), f"unknown region {region!r}", expected="one of the board's regions: "
                        + ", ".join(REGIONS), suggestion=closest(str(region), REGIONS))
            for region, n in self._numbers(units, player, REGIONS).items():
                facts.append(fact("init_num", term("units", Const(player), region), n))
            for race, n in self._numbers(alliance, player, RACES).items():
                facts.append(fact("init_num", term("alliance", Const(player), Const(race)), n))
            for race, n in self._numbers(symbols, player, RACES).items():
                facts.append(fact("init_num", term("symbols", Const(player), Const(race)), n))
            for item, line, column, path in fortresses.items(player):
                region = board_name(item, "region", file=fields.file, line=line, column=column, field=path)
                facts.append(fact("init", term("fortress", Const(player), region)))
        self._tokens_held(state, fields)
        self._connections(facts, fields)
        for item, line, column, path in fields.items("flags"):
            fluent = self._fluent_term(item, fields, "flags")
            if fluent.name not in BOOLEAN or fluent.name in DERIVED:
                expected = ("the Eagle's one place in the state's own field, eagle: one of " + ", ".join(EAGLE_PLACES)
                            if fluent.name == "eagle_at" else "a true/false fluent such as [locked, elves, fellowship]")
                raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                                 expected=expected)
            facts.append(fact("init", fluent))
        if fields.has("eagle"):  # the Eagle's one place; the Hobbit counts are of the other Hobbit tokens
            facts.append(fact("init", term("eagle_at", Const(fields.choice("eagle", EAGLE_PLACES) or ""))))
        for item, line, column, path in fields.items("tiles"):
            tile = board_name(item, "tile", file=fields.file, line=line, column=column, field=path)
            facts.append(fact("init", term("open_tile", tile)))

    @staticmethod
    def _connections(facts: list[Fact], fields: Fields) -> None:
        """`connections:`, the pairs of regions the scenario's board joins, or `standard`, the base game's board
        (rules/dfm/connections.lp)."""
        given = fields.data.get("connections")
        if isinstance(given, str):
            if given != "standard":
                raise fields.error("connections", f"got {given!r}",
                                   expected="standard (the base game's board) or a list of pairs of regions",
                                   suggestion=closest(given, ("standard",)))
            facts.append(fact("board_kind", Const("standard")))
            return
        for item, line, column, path in fields.items("connections"):
            if not (isinstance(item, list) and len(item) == 2):
                raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                                 expected="a pair of region names, e.g. [gondor, rohan]")
            ends = [board_name(r, "region", file=fields.file, line=line, column=column, field=path) for r in item]
            facts.append(fact("connected", *ends))

    def _skills(self, state: State, fields: Fields) -> None:
        """Each player's grey cards and skills: `grey_cards:` (real grey cards by id, each in its player's area as
        itself, grey_card/2, with the skills it gives), `grey:` (more grey cards, counted), `skills:` (the skills
        of the counted ones, by name) and `skill_choices:` (those that give one skill among several, each a list of
        those skills), for a real card's skill cost (rules/dfm/card_skills.lp). On real cards, a player's counted
        grey cards must come with their skills: a skill cost never rests on skills the state leaves out."""
        facts = state.facts
        grey = self._numbers(fields, "grey", FACTIONS)
        for player, n in grey.items():
            named = player in fields.mapping("skills") or player in fields.mapping("skill_choices")
            if state.real_cards is not None and n and not named:
                raise fields.sub("grey", set(FACTIONS)).error(
                    player, f"{player} has {n} grey cards whose skills the state does not name",
                    expected=f"skills: {{{player}: {{SKILL: N, ...}}}} or skill_choices: {{{player}: [[SKILL, ...]]}}"
                             " beside grey:, for the skill costs of the real cards (or grey_cards: by id)")
        held = self._grey_cards(state, fields)
        skills = fields.sub("skills", set(FACTIONS))
        choices = fields.sub("skill_choices", set(FACTIONS))
        for player in FACTIONS:
            cards = held.get(player, [])
            if grey.get(player, 0) + len(cards):
                facts.append(fact("init_num", term("grey", Const(player)), grey.get(player, 0) + len(cards)))
            totals = self._numbers(skills, player, SKILLS)
            counted: dict[tuple[str, ...], int] = {}
            for card in cards:
                fixed, either = _skill_gains(card)
                totals = {s: totals.get(s, 0) + fixed.get(s, 0) for s in SKILLS if totals.get(s, 0) + fixed.get(s, 0)}
                for key in either:
                    counted[tuple(key)] = counted.get(tuple(key), 0) + 1
            facts += [fact("init_num", term("skills", Const(player), Const(skill)), n) for skill, n in totals.items()]
            for item, line, column, path in choices.items(player):
                if not (isinstance(item, list) and len(item) >= 2 and len(set(item)) == len(item)
                        and all(s in SKILLS for s in item)):
                    raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                                     expected="a list of two or more different skills: " + ", ".join(SKILLS))
                key = tuple(s for s in SKILLS if s in item)
                counted[key] = counted.get(key, 0) + 1
            for key, n in counted.items():
                facts += [fact("init_num", term("either", Const(player), skill_set(key)), n), *skill_set_facts(key)]

    def _place(self, state: State, item: Any, fields: Fields, where: tuple[int | None, int | None, str],
               colour: str | None) -> Any:
        """The real chapter card `item` names (of `colour`, where one is asked), which the state places in the
        discard pile or a player's area: looked up, never placed twice, its data in the facts."""
        line, column, path = where
        found = state.real_cards.lookup_id(item) if state.real_cards is not None and isinstance(item, str) else None
        if found is None or found.type != "chapter_card" or colour not in (None, found.extra["colour"]):
            kind = f"real {colour} chapter card" if colour else "real chapter card"
            expected = (f"a {kind} C.N of the catalog" if state.real_cards is not None
                        else f"`catalog: vermihunter` beside `game: dfm`, for {kind}s")
            raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                             expected=expected)
        if found.id in state.placed:
            raise InputError(f"{found.id} is given twice (in the discard pile or a player's area)", file=fields.file,
                             line=line, column=column, field=path, expected="each real card in one place")
        state.placed.add(found.id)
        self._real_data(state, found)
        return found

    def _grey_cards(self, state: State, fields: Fields) -> dict[str, list[Any]]:
        """`grey_cards: {PLAYER: [C.N, ...]}`: the real grey cards in each player's area (grey_card/2), by player."""
        held: dict[str, list[Any]] = {}
        given = fields.sub("grey_cards", set(FACTIONS))
        for player in FACTIONS:
            for item, line, column, path in given.items(player):
                found = self._place(state, item, fields, (line, column, path), "grey")
                state.facts.append(fact("init", term("grey_card", Const(player), found.id)))
                held.setdefault(player, []).append(found)
        return held

    @staticmethod
    def _real_cards(fields: Fields) -> Any:
        """The store's real base-game cards the scenario names with `catalog:`, or None."""
        if not fields.has("catalog"):
            return None
        from pyengine.core.store import open_source, sources

        name = fields.choice("catalog", REAL_CARD_SOURCES) or ""
        if sources().get(name) != "dfm":
            raise fields.error("catalog", f"no imported catalog {name!r} in the card store",
                               expected=f"`pyengine import {name} PATH` first (see docs/card-pools.md)")
        return open_source(name)

    def _real_card(self, state: State, card: Fields, chapter: int) -> dict[str, Any]:
        """A `cards:` entry's `card:` (`C.N`, a chapter card of `catalog:`) as the entry's description: its colour,
        race symbols (its Support of the Races effects), coin cost, chaining symbols, and the counts of its coin and
        Ring-track effects (COUNTED_EFFECTS)."""
        reference = card.text("card", required=True) or ""
        if state.real_cards is None:
            raise card.error("card", f"card {reference!r} names a real card, but the scenario names no catalog",
                             expected="`catalog: vermihunter` beside `game: dfm`")
        if set(card.data) - {"at", "card"}:
            raise card.error("card", "a real card is described by its data",
                             expected="`at:` and `card:` only (or a description without `card:`)")
        found = state.real_cards.lookup_id(reference)
        if found is None or found.type != "chapter_card":
            raise card.error("card", f"no chapter card {reference!r}", expected="C.N: the N-th card of chapter C "
                             "(1.1 to 3.23, docs/card-pools.md)")
        if found.extra["chapter"] != chapter:
            raise card.error("card", f"card {reference} is a card of chapter {found.extra['chapter']}",
                             expected=f"a card of chapter {chapter}, the layout in play")
        races = [DATA_RACES.get(e["race_to_support"], e["race_to_support"]) for e in found.extra["effects"]
                 if e["type"] == "add_support_of_a_race"]
        counts = {predicate: sum(e.get(field, 0) for e in found.extra["effects"] if e["type"] == effect)
                  for effect, field, predicate in COUNTED_EFFECTS}
        regions = sorted({r for e in found.extra["effects"] if e["type"] == "place_units_on_central_board"
                          for r in e["possible_regions_to_place"]})
        fixed, either = _skill_gains(found)
        return {"id": found.id, "effects": sorted({e["type"] for e in found.extra["effects"]}), "counts": counts,
                "regions": regions,
                "gains": fixed, "either": either,
                "colour": found.extra["colour"], "symbols": races, "cost": found.extra["coins"],
                "chain": found.extra["chain"], "free_with": found.extra["free_with"],
                "skills": {s: n for s, n in found.extra["skills"].items()
                           if s != "optional" and isinstance(n, int) and n}}

    @staticmethod
    def _real_data(state: State, found: Any) -> None:
        """A real card's colour, race symbols and effect types by its id (real_card_colour/2, real_card_symbol/3,
        real_card_effect/2), once a scenario: what Arwen reads of a card in the discard pile."""
        if found.id in state.described:
            return
        state.described.add(found.id)
        races: dict[str, int] = {}
        for effect in found.extra["effects"]:
            if effect["type"] == "add_support_of_a_race":
                race = DATA_RACES.get(effect["race_to_support"], effect["race_to_support"])
                races[race] = races.get(race, 0) + 1
        fixed, either = _skill_gains(found)
        state.facts += [fact("real_card_colour", found.id, Const(found.extra["colour"])),
                        *(fact("real_card_symbol", found.id, Const(r), n) for r, n in races.items()),
                        *(fact("real_card_effect", found.id, Const(e))
                          for e in sorted({e["type"] for e in found.extra["effects"]})),
                        *(fact("real_card_skill", found.id, Const(skill), n) for skill, n in fixed.items())]
        for skills in either:
            state.facts += [fact("real_card_either", found.id, skill_set(skills)), *skill_set_facts(skills)]

    @staticmethod
    def _tokens_held(state: State, fields: Fields) -> None:
        """`alliance_tokens: {PLAYER: [RACE.N, ...]}`, the real Alliance tokens each player holds (holds_token/2), each
        out of its stack (token_out/1); the players' counts by race (`alliance:`) follow, so the two do not go
        together, and the Eagle among them is in front of its holder (`eagle:`, given once)."""
        if not fields.has("alliance_tokens"):
            return
        if fields.has("alliance"):
            raise fields.error("alliance", "alliance: beside alliance_tokens:",
                               expected="the tokens held by id (alliance_tokens:) or counted (alliance:), not both")
        held = fields.sub("alliance_tokens", set(FACTIONS))
        seen: set[str] = set()
        for player in FACTIONS:
            races: dict[str, int] = {}
            for item, line, column, path in held.items(player):
                found = (state.real_cards.lookup_id(item) if state.real_cards is not None and isinstance(item, str)
                         else None)
                if found is None or found.type != "alliance_token":
                    expected = ("a real Alliance token RACE.N of the catalog, such as wizards.1"
                                if state.real_cards is not None else
                                "`catalog: vermihunter` beside `game: dfm`, for real Alliance tokens")
                    raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                                     expected=expected)
                if found.id in seen:
                    raise InputError(f"{found.id} is held twice", file=fields.file, line=line, column=column,
                                     field=path, expected="each token once, by one player")
                seen.add(found.id)
                if found.extra.get("effect", {}).get("type") == "add_support_of_a_race":  # the Eagle: its one place
                    if fields.has("eagle"):
                        raise InputError(f"{found.id}, the Eagle, beside eagle:", file=fields.file, line=line,
                                         column=column, field=path, expected="the Eagle's place given once")
                    state.facts.append(fact("init", term("eagle_at", Const(player))))
                else:
                    race = DATA_RACES.get(found.extra["race"], found.extra["race"])
                    races[race] = races.get(race, 0) + 1
                state.facts += [fact("init", term("token_out", found.id)),
                                fact("init", term("holds_token", Const(player), found.id))]
            state.facts += [fact("init_num", term("alliance", Const(player), Const(r)), n) for r, n in races.items()]

    def _pile(self, state: State, fields: Fields) -> None:
        """`pile:`, the discard pile card by card, each a real card of the catalog (C.N): its cards lie in it
        (in_pile/1), its count and the counts of its colours follow; `discard_pile:` and `discards:` count a pile
        that is not given card by card, so neither goes with it."""
        for key in ("discard_pile", "discards"):
            if fields.has(key):
                raise fields.error(key, f"{key}: beside pile:", expected="the pile card by card (pile:) or counted "
                                   "(discard_pile:, discards:), not both")
        colours: dict[str, int] = {}
        for item, line, column, path in fields.items("pile"):
            found = self._place(state, item, fields, (line, column, path), None)
            state.facts.append(fact("init", term("in_pile", found.id)))
            colours[found.extra["colour"]] = colours.get(found.extra["colour"], 0) + 1
        state.facts += [fact("init_num", Const("discard_pile"), sum(colours.values())),
                        *(fact("init_num", term("discarded", Const(k)), n) for k, n in colours.items())]

    def _deal(self, state: State, fields: Fields) -> None:
        """`deal: SEED`: the layout in play and those of the chapters after it dealt from their real cards
        (`dealt`), one after another by one random.Random(SEED), each place described by its card's data, the cards
        left out named (`left_out/2`, assumption unused_cards)."""
        if fields.has("cards") or fields.has("colours"):
            raise fields.error("deal", "a dealt layout and described cards together",
                               expected="deal: SEED, or cards: and colours: entries, not both")
        seed = fields.whole("deal", 0, minimum=0, maximum=MAX_NUMBER)
        if state.real_cards is None or not 1 <= state.chapter <= 3:
            raise fields.error("deal", "a deal needs the real cards of a chapter in play",
                               expected="`catalog: vermihunter` and a chapter from 1 to 3")
        shuffler = random.Random(seed)
        for chapter in range(state.chapter, 4):
            ids = [c.id for c in state.pool
                   if c.type == "chapter_card" and c.extra.get("chapter") == chapter]
            places, left_out = dealt(chapter, shuffler, ids)
            for (row, col), card_id in places:
                entry = Fields({"at": [row, col], "card": card_id}, fields.file, fields.name("deal"), CARD_FIELDS,
                               *fields.position("deal"))
                self._describe(state, (chapter, row, col), entry)
            state.facts.extend(fact("left_out", chapter, card_id) for card_id in left_out)

    def _cards(self, state: State, fields: Fields) -> None:
        """The `cards:` entries: what a card of the layout in play is (colour, race symbols, coin cost, the chaining
        symbol it gives and the one that makes it free), each card once, a `colours:` entry included; or the real
        card it is (`card:`), described by its data; or the whole layout dealt from a seed (`deal:`)."""
        if fields.has("deal"):
            self._deal(state, fields)
            return
        seen = {(item[0], item[1]) for item, *_ in fields.items("colours")}  # checked by the colours: reader
        for item, line, column, path in fields.items("cards"):
            card = Fields(item, fields.file, path, CARD_FIELDS, line or 0, column or 0)
            at_line, at_column = card.data.key_at("at") if hasattr(card.data, "key_at") else (line, column)
            row, col = self._position(card.require("at", "a layout position [row, card]"), card, card.name("at"),
                                      at_line, at_column)
            if (row, col) in seen:
                raise card.error("at", f"card {row}.{col} is described twice", expected="one entry per card")
            seen.add((row, col))
            self._describe(state, (state.chapter, row, col), card)

    def _describe(self, state: State, where: tuple[int, int, int], card: Fields) -> None:
        """The facts of one described card of the layout (`cards:` entry, or a place of a deal)."""
        if card.has("card"):
            real = self._real_card(state, card, where[0])
            state.facts.append(fact("card_id", *where, real["id"]))
            self._real_data(state, state.real_cards.lookup_id(real.pop("id")))
            state.facts.extend(fact("card_skill_cost", *where, Const(s), n) for s, n in real.pop("skills").items())
            state.facts.extend(fact("card_effect", *where, Const(e)) for e in real.pop("effects"))
            state.facts.extend(fact(predicate, *where, n) for predicate, n in real.pop("counts").items() if n)
            state.facts.extend(fact("card_units_region", *where, r) for r in real.pop("regions"))
            state.facts.extend(fact("card_skill_gain", *where, Const(s), n) for s, n in real.pop("gains").items())
            for skills in real.pop("either"):
                state.facts += [fact("card_skill_either", *where, skill_set(skills)), *skill_set_facts(skills)]
            card = Fields({k: v for k, v in real.items() if v is not None}, card.file, card.name("card"),
                          CARD_FIELDS, *card.position("card"))
        if card.has("colour"):
            state.facts.append(fact("card_colour", *where, Const(card.choice("colour", COLOURS) or "")))
        symbols: dict[str, int] = {}
        for race, race_line, race_column, race_path in card.items("symbols"):
            if race not in RACES:
                raise InputError(f"got {race!r}", file=card.file, line=race_line, column=race_column,
                                 field=race_path, expected="a race: " + ", ".join(RACES),
                                 suggestion=closest(str(race), RACES))
            symbols[race] = symbols.get(race, 0) + 1
        state.facts.extend(fact("card_symbol", *where, Const(race), n) for race, n in symbols.items())
        if card.has("cost"):
            state.facts.append(fact("card_cost", *where, card.whole("cost", 0, minimum=0, maximum=MAX_POSITION)))
        state.facts.extend(fact("card_skill_cost", *where, Const(s), n)
                           for s, n in self._numbers(card, "skills", SKILLS).items() if n)
        for key, predicate in (("chain", "card_chain"), ("free_with", "card_free_with")):
            if card.has(key):
                state.facts.append(fact(predicate, *where, card.text(key, required=True) or ""))

    def _token_location(self, item: Any, fields: Fields, path: str, line: int | None,
                        column: int | None) -> tuple[Term, int]:
        """A `tokens_at:` entry, [stack, RACE, N], [tile, TILE, N] or [connection, FROM, TO, N]: Power tokens
        lying there at the start (the layout's own tokens are the chapter's, see tokens_gone)."""
        places = {k: v for k, v in TOKEN_LOCATIONS.items() if k != "card"}
        kinds = places.get(item[0]) if isinstance(item, list) and item and isinstance(item[0], str) else None
        if (kinds is None or len(item) != len(kinds) + 2
                or not all(_fits(a, k) for a, k in zip(item[1:-1], kinds, strict=True))
                or not isinstance(item[-1], int) or isinstance(item[-1], bool) or not 0 <= item[-1] <= MAX_POSITION):
            raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                             expected="[stack, RACE, N], [tile, TILE, N] or [connection, FROM, TO, N], N from 0 to "
                                      f"{MAX_POSITION}")
        values = [Const(a) if k in WORDS else a for a, k in zip(item[1:-1], kinds, strict=True)]
        return term("tok", term({"connection": "conn"}.get(item[0], item[0]), *values)), item[-1]

    def _position(self, item: Any, fields: Fields, path: str, line: int | None, column: int | None) -> tuple[int, int]:
        if (isinstance(item, list) and len(item) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) and 0 < n <= MAX_POSITION for n in item)):
            return item[0], item[1]
        raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                         expected="a layout position [row, card], counted from 1 at the top left")

    @staticmethod
    def _choice_expected(name: str, kind: str) -> str:
        """What a missing choice may be, in words: every value a named kind takes, else the value's shape."""
        words = CHOICE_WORDS.get(kind) or BOARD.get(kind)
        if words:
            return f"{name}: one of " + ", ".join(words)
        shapes = {"card": "a layout position [row, card]", "connection": "a pair of region names [from, to]",
                  "move": "a pair of region names [from, to]"}
        return f"{name}: {shapes.get(kind, 'a ' + kind)}"

    def _choice(self, action: Fields, name: str, kind: str) -> Value:
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
            row, col = self._position(value, action, action.name(name), line, column)
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

    def _action(self, action: Fields, index: int) -> Action:
        """An action as its act/3 term, its choice facts (with a placeholder step), and a short description, with the
        choices of a Ring-track bonus it names (BONUS_CHOICES)."""
        act, choices, words = self._kind_action(action, index)
        bonus = [(name, self._choice(action, name, "region")) for name in BONUS_CHOICES if action.has(name)]
        return act, choices + bonus, words + "".join(_take_words(n, v) for n, v in bonus)

    def _kind_action(self, action: Fields, index: int) -> Action:
        """An action of its kind as its act/3 term, its choice facts (with a placeholder step), and a short
        description."""
        player = action.choice("player", FACTIONS, required=True) or ""
        kinds = [k for k in ("call", "take", "end_turn", "move_nazgul", "move_ring", "landmark", "alliance", "move",
                             "begin") if action.has(k)]
        if len(kinds) != 1:
            raise action.error("player", f"the action does {' and '.join(kinds) or 'nothing'}",
                               expected="exactly one of call, take, end_turn, move_nazgul, move_ring, landmark, "
                                        "alliance, move, begin")
        kind = kinds[0]
        unread = (sorted(set(action.data) - {"player", *BONUS_CHOICES} - KIND_FIELDS.get(kind, {kind}))
                  if kind != "call" else [])
        if unread:
            raise action.error(unread[0], f"a {kind} action takes no {unread[0]!r}",
                               expected="one of " + ", ".join(sorted(KIND_FIELDS.get(kind, {kind}))))
        if kind == "call":
            ally = action.choice("call", tuple(ALLIES), required=True) or ""
            effect = action.choice("effect", ("enter", "exit"), required=True) or ""
            allowed = CHOICES[ally, effect]
            optional = set(OPTIONAL_CHOICES.get((ally, effect), ()))
            if ally == "warg" and effect == "exit" and action.has("copy"):  # the copied exit's choices, as its own
                allowed = {**allowed, **CHOICES.get((str(action.raw("copy")), "exit"), {})}
                optional |= OPTIONAL_CHOICES.get((str(action.raw("copy")), "exit"), set())
            choices = []
            for name in sorted(set(action.data) - {"player", "call", "effect", *BONUS_CHOICES}):
                if name not in allowed:
                    raise action.error(name, f"{ally}'s {effect} effect takes no choice {name!r}",
                                       expected="one of " + (", ".join(sorted(allowed)) or "no choices"))
                choices += (self._picks(action) if allowed[name] == "picks"
                            else [(name, self._choice(action, name, allowed[name]))])
            missing = [n for n in allowed if n not in action.data and n not in optional
                       and not (ally == "witch_king" and n == "region" and action.raw("mode") == "nazgul")]
            if missing:
                raise action.error(missing[0], f"{ally}'s {effect} effect needs the choice {missing[0]!r}",
                                   expected=self._choice_expected(missing[0], allowed[missing[0]]))
            return term("call", Const(ally), Const(effect)), choices, f"{player} calls {ally} ({effect})"
        if kind == "take":
            line, column = action.data.key_at("take") if hasattr(action.data, "key_at") else (None, None)
            row, col = self._position(action.raw("take"), action, action.name("take"), line, column)
            use = action.choice("use", ("play", "discard"), default="play")
            choices = self._take_choices(action, use or "play")
            words = "".join(_take_words(name, value) for name, value in choices)
            return (term("take", row, col, Const(use or "play")), choices,
                    f"{player} takes card {row}.{col} to {use}{words}")
        if kind == "alliance":
            trigger = action.choice("alliance", ("pair", "three"), required=True) or "pair"
            race = action.choice("race", RACES, required=True) or ""
            chosen = [(name, self._choice(action, name, name)) for name in ("token", "pile_card") if action.has(name)]
            chosen += [(name, self._choice(action, name, "region")) for name in ("fortress", "place1", "place2")
                       if action.has(name)]
            chosen += self._picks(action)
            return (term("alliance", Const(trigger), Const(race)), chosen,
                    f"{player} takes an Alliance token of the {race} ({trigger})"
                    + "".join(_take_words(n, v) for n, v in chosen))
        if kind == "move":
            start, end = self._choice(action, "move", "move").args
            return term("move", start, end), [], f"{player} moves a unit from {start} to {end}"
        if kind == "landmark":
            line, column = action.data.key_at("landmark") if hasattr(action.data, "key_at") else (None, None)
            tile = board_name(action.raw("landmark"), "tile", file=action.file, line=line, column=column,
                              field=action.name("landmark"))
            chosen = self._moves(action)
            chosen += [(name, self._choice(action, name, name)) for name in ("pile_card", "token", "grey_card")
                       if action.has(name)]
            chosen += [(name, self._choice(action, name, "region")) for name in ("fortress", "place1", "place2")
                       if action.has(name)]
            chosen += self._picks(action)
            return (term("landmark", tile), chosen,
                    f"{player} takes the Landmark tile {tile}" + "".join(_take_words(n, v) for n, v in chosen))
        if not action.flag(kind, True):
            raise action.error(kind, "is false", expected=f"{kind}: true")
        return Const(kind), [], f"{player} {kind.replace('_', ' ')}"

    def _take_choices(self, action: Fields, use: str) -> list[tuple[str, Value]]:
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
            choices.append(("region", self._choice(action, "region", "region")))
        if action.has("remove"):
            line, column = action.data.key_at("remove") if hasattr(action.data, "key_at") else (None, None)
            regions = action.raw("remove")
            if not isinstance(regions, list) or not 1 <= len(regions) <= 2:
                raise InputError(f"got {regions!r}", file=action.file, line=line, column=column,
                                 field=action.name("remove"), expected="a list of one or two regions, such as [gondor]")
            choices += [(f"remove{n}", board_name(r, "region", file=action.file, line=line, column=column,
                                                  field=action.name("remove"))) for n, r in enumerate(regions, 1)]
        return choices + self._moves(action)

    @staticmethod
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

    @staticmethod
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

    def parse_question(self, kind: str, fields: Fields, state: State) -> dict[str, Any]:
        steps = len(state.actions)
        if kind == "action":
            step = fields.whole("step", 0, minimum=1)
            if step > steps:
                raise fields.error("step", f"the scenario has {steps} actions", expected=f"a step from 1 to {steps}")
            return {"step": step}
        if kind == "outcomes" and fields.whole("step", 0, minimum=1) in state.unread:
            raise Unread("the step's action was not read", file=fields.file, field=fields.name("step"))
        if kind in ("value", "tokens"):
            after = fields.whole("after", 0, minimum=0)
            if after > steps:
                raise fields.error("after", f"the scenario has {steps} actions", expected=f"0 to {steps}")
            params: dict[str, Any] = {"after": after}
            if kind == "value":
                params["of"] = self._fluent(fields)
                params["numeric"] = params["of"].name in (*NUMERIC, "tok")
            return params
        if kind == "pairing":
            return {"ally": fields.choice("ally", tuple(ALLIES), required=True)}
        if kind == "winner":
            after = fields.whole("after", steps, minimum=0)
            if after > steps:
                raise fields.error("after", f"the scenario has {steps} actions", expected=f"0 to {steps}")
            return {"after": after}
        if kind == "outcomes":
            step = fields.whole("step", 0, minimum=1)
            if step > steps:
                raise fields.error("step", f"the scenario has {steps} actions", expected=f"a step from 1 to {steps}")
            act, _, words = state.actions[step - 1]
            random = ", ".join(f"{a}'s {e}" for a, e in RANDOM_CHOICES)
            if not (isinstance(act, Term) and act.name == "call" and (str(act.args[0]), str(act.args[1])) in
                    RANDOM_CHOICES):
                raise fields.error("step", f"step {step} ({words}) has no random outcome",
                                   expected=f"a step that calls for an effect with a random outcome: {random}")
            return {"step": step, "at": step - 1, "player": words.split(" ", 1)[0]}
        if kind == "plays":
            at = fields.whole("at", steps, minimum=0)
            if at > steps:
                raise fields.error("at", f"the scenario has {steps} actions", expected=f"0 to {steps}")
            return {"player": fields.choice("player", FACTIONS, required=True), "at": at}
        if kind == "allowed":
            at = fields.whole("at", 0, minimum=0)
            if at > steps:
                raise fields.error("at", f"the scenario has {steps} actions", expected=f"0 to {steps}")
            return {"at": at, "action": self._action(Fields({k: v for k, v in fields.data.items() if k in
                                                             ACTION_FIELDS}, fields.file, fields.path, ACTION_FIELDS),
                                                      at)}
        return {}

    def _fluent(self, fields: Fields) -> Term:
        raw = fields.require("of", "a fluent such as [tokens, fellowship] or [units, sauron, gondor]")
        return self._fluent_term(raw, fields, "of")

    def _fluent_term(self, raw: Any, fields: Fields, key: str) -> Term:
        """A fluent written as a list ([units, sauron, gondor]) as a typed term: names of the game's vocabulary
        as constants, whole numbers in range as numbers, a region or tile of the board as text."""
        if not isinstance(raw, list) or not raw or not isinstance(raw[0], str):
            raise fields.error(key, f"got {raw!r}", expected="a list such as [tokens, fellowship]")
        name, args = raw[0], raw[1:]
        if name == "tokens" and args and isinstance(args[0], str) and args[0] in TOKEN_LOCATIONS:
            kinds = TOKEN_LOCATIONS[args[0]]
            if len(args) - 1 != len(kinds) or not all(_fits(a, k) for a, k in zip(args[1:], kinds, strict=False)):
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
            if not _fits(a, kind):
                choices = ", ".join({**WORDS, **BOARD}.get(kind, ())) or f"a {kind}"
                raise fields.error(key, f"got {a!r} in {raw!r}", expected=f"{choices} as the {kind} of {name}")
        return term(name, *(Const(a) if k in WORDS else a for a, k in zip(args, kinds, strict=True)))

    def group_key(self, kind: str, params: dict[str, Any]) -> Any:
        """Questions about a hypothetical action, and every action open at a moment, need a timeline of their own:
        one per moment, player, action and choices (two players' same action, such as ending the turn, are two)."""
        if kind == "allowed":
            return (params["at"], self._player(params["action"]), params["action"][0], tuple(params["action"][1]))
        return ("plays", params["at"]) if kind in LISTING_KINDS else None

    # -- facts ---------------------------------------------------------------------------------------------

    def facts(self, state: State, questions: list[tuple[str, str, dict[str, Any]]]) -> list[Fact]:
        out = [*(fact("faction", Const(f)) for f in FACTIONS), *state.facts, *_reading_rules()]
        timeline = [(a, c) for a, c, _ in state.actions]
        players = [self._player(a) for a in state.actions]
        hypothetical = [p for _, k, p in questions if k == "allowed"]
        cut = [p["at"] for _, k, p in questions if k in LISTING_KINDS]
        if hypothetical:
            at, action = hypothetical[0]["at"], hypothetical[0]["action"]
            timeline = [*timeline[:at], (action[0], action[1])]
            players = [*players[:at], self._player(action)]
        elif cut:
            timeline, players = timeline[:cut[0]], players[:cut[0]]
        out.append(fact("last_step", len(timeline)))
        for step, ((act, choices), player) in enumerate(zip(timeline, players, strict=True)):
            out.append(fact("act", step, Const(player), act))
            out.extend(fact("choice", step, Const(name), value) for name, value in choices)
        for q, kind, params in questions:
            out.append(fact("question", q, Const(kind)))
            if kind == "action":
                out.append(fact("q_action", q, params["step"] - 1))
            elif kind == "allowed":
                out.append(fact("q_action", q, params["at"]))
            elif kind == "value":
                out.append(fact("q_value" if params["numeric"] else "q_flag", q, params["of"], params["after"]))
            elif kind == "tokens":
                out.append(fact("q_tokens", q, params["after"]))
            elif kind == "winner":
                out.append(fact("q_winner", q, params["after"]))
            elif kind == "pairing":
                out.append(fact("q_pairing", q, Const(params["ally"])))
            elif kind == "setup":
                out.append(fact("q_setup", q))
            elif kind == "plays":
                out.append(fact("q_plays", q, Const(params["player"])))
                out.extend(self._template_facts(q, params["player"]))
            elif kind == "outcomes":
                out.append(fact("q_outcomes", q, Const(params["player"])))
                act = state.actions[params["step"] - 1][0]
                assert isinstance(act, Term)  # parse_question let only a call with a random outcome through
                random = list(RANDOM_CHOICES).index((str(act.args[0]), str(act.args[1])))
                out.extend(self._template_fact(q, len(TEMPLATES) + random))
        return out

    def _template_facts(self, q: str, player: str) -> list[Fact]:
        """The calls a `plays` question of this player tries: its allies' templates (numbered in TEMPLATES)."""
        return [f for number, (ally, *_) in enumerate(TEMPLATES) if ALLIES[ally] == player
                for f in self._template_fact(q, number)]

    def _template_fact(self, q: str, number: int) -> list[Fact]:
        """The facts of one call template a question tries (numbered in ALL_TEMPLATES)."""
        ally, effect, fixed, slots = ALL_TEMPLATES[number]
        return [fact("try_call", q, number, Const(ally), Const(effect)),
                *(fact("try_fixed", q, number, Const(name), Const(value)) for name, value in fixed.items()),
                *(fact("try_slot", q, number, index, Const(name), Const(kind)) for index, (name, kind) in
                  enumerate(slots, 1))]

    def player_names(self, state: State) -> list[str]:
        """The two sides, the Fellowship first."""
        return list(FACTIONS)

    def play_id(self, term: clingo.Symbol, state: State) -> str:
        """An action a `plays` question tried, play(Q, O), as the words of a scenario action: `take 1.2 play`,
        `end_turn`, `move_nazgul`, `call elrond enter race=elves` (the state does not enter into them)."""
        return _play_words(term.arguments[1])

    def describe_play(self, term: clingo.Symbol, state: State) -> str:
        """An action a `plays` question tried, in words: `call upon Elrond (enter effect), choosing race elves`,
        `take the layout's card 1.2 and play it`, `end the turn`."""
        return _play_description(term.arguments[1])

    def web_extras(self) -> dict[str, Any]:
        """What the explorer's Duel form (form.js beside this module) offers: a blank table, factions, allies and
        their owners, races, ally states, token places; a question's `card` is a list (a row and a card); the
        answers page draws its board step by step (/api/board)."""
        blank = {"title": "A Duel table", "chapter": 1, "turn": "fellowship",
                 "state": {"tokens": {"fellowship": 0, "sauron": 0, "box": 8},
                           "allies": {"fellowship": {"hidden": []}, "sauron": {"hidden": []}}},
                 "actions": [], "questions": []}
        board = {"about": "The layout (face-up cards light, face-down dark, the cards that can be taken outlined in "
                          "green, Power tokens in gold), the token places and stacks, and the board's regions with "
                          "units, Fortresses and tiles, as the encodings find them after each step."}
        return {"blank": blank, "form": True, "card_list": True, "board": board, "factions": list(FACTIONS),
                "allies": ALLIES, "races": list(RACES), "ally_states": list(ALLY_STATES),
                "token_places": list(TOKEN_PLACES), "regions": list(REGIONS), "tiles": list(TILES)}

    def _player(self, action: Action) -> str:
        return action[2].split(" ", 1)[0]

    # -- the edge-case search's states as scenarios --------------------------------------------------------

    def search_state(self, facts: list[clingo.Symbol]) -> dict[str, Any]:
        """A state the search found (rules/search/dfm.lp), as the fields of a scenario file."""

        def plain(symbol: clingo.Symbol) -> Any:
            if symbol.type == clingo.SymbolType.Number:
                return symbol.number
            return symbol.string if symbol.type == clingo.SymbolType.String else symbol.name

        state: dict[str, Any] = {"tokens": {}, "coins": {}, "allies": {}, "units": {}, "stacks": {}, "alliance": {},
                                 "grey": {}, "connections": []}
        turn, actions, choices = "fellowship", [], {}
        for atom in facts:
            args = atom.arguments
            if atom.name == "connected" and state["connections"] != "standard":
                state["connections"].append([plain(a) for a in args])
            elif atom.name == "board_kind":
                state["connections"] = "standard"
            elif atom.name == "card_skill_cost":
                row, col = args[1].number, args[2].number
                entry = next((c for c in state.setdefault("cards", []) if c["at"] == [row, col]), None)
                if entry is None:
                    entry = {"at": [row, col], "skills": {}}
                    state["cards"].append(entry)
                entry["skills"][plain(args[3])] = args[4].number
            elif atom.name == "given_reserve":
                state["reserve"] = args[0].number
            elif atom.name == "init_num":
                fluent, value = args[0], args[1].number
                inner = [plain(a) for a in fluent.arguments]
                if fluent.name == "tok":
                    where = fluent.arguments[0]
                    if str(where) in ("fellowship", "sauron", "nazgul"):
                        state["tokens"][str(where)] = value
                    elif where.name in ("stack", "tile", "conn"):
                        name = {"conn": "connection"}.get(where.name, where.name)
                        state.setdefault("tokens_at", []).append([name, *(plain(a) for a in where.arguments), value])
                elif fluent.name in ("coins", "grey", "extra_turns"):
                    state.setdefault(fluent.name, {})[inner[0]] = value
                elif fluent.name in ("reserve", "discard_pile", "ring", "nazgul", "sauron_steps"):
                    state[fluent.name] = value
                elif fluent.name == "units":
                    state["units"].setdefault(inner[0], {})[inner[1]] = value
                elif fluent.name == "stack":
                    state["stacks"][inner[0]] = value
                elif fluent.name in ("alliance", "symbols", "skills"):
                    state.setdefault(fluent.name, {}).setdefault(inner[0], {})[inner[1]] = value
                elif fluent.name == "either":
                    skills = [plain(a) for a in fluent.arguments[1].arguments]
                    state.setdefault("skill_choices", {}).setdefault(inner[0], []).extend([skills] * value)
            elif atom.name == "init":
                fluent = args[0]
                inner = [plain(a) for a in fluent.arguments]
                if fluent.name == "turn":
                    turn = inner[0]
                elif fluent.name in ALLY_STATES:
                    state["allies"].setdefault(inner[0], {}).setdefault(fluent.name, []).append(inner[1])
                elif fluent.name == "taken":
                    state.setdefault("taken", []).append(inner)
                elif fluent.name == "open_tile":
                    state.setdefault("tiles", []).append(inner[0])
                elif fluent.name == "eagle_at":
                    state["eagle"] = inner[0]
                else:
                    state.setdefault("flags", []).append([fluent.name, *inner])
            elif atom.name == "token_gone":
                state.setdefault("tokens_gone", []).append([args[0].number, args[1].number])
            elif atom.name == "act":
                actions.append(args[2])
                actor = str(args[1])
            elif atom.name == "choice":
                choices[str(args[1])] = args[2]
        state = {k: v for k, v in state.items() if v not in ({}, [])}
        [term] = actions
        action: dict[str, Any] = {"player": actor}
        if term.name == "call":
            action |= {"call": str(term.arguments[0]), "effect": str(term.arguments[1])}
            for name, value in sorted(choices.items()):
                if value.type == clingo.SymbolType.Function and value.arguments:
                    action[name] = [plain(a) for a in value.arguments]
                else:
                    action[name] = plain(value)
        elif term.name == "take":
            action |= {"take": [term.arguments[0].number, term.arguments[1].number], "use": str(term.arguments[2])}
            action |= {name: plain(value) for name, value in choices.items() if name == "region"}
            removed = [plain(choices[n]) for n in ("remove1", "remove2") if n in choices]
            action |= {"remove": removed} if removed else {}
            moved = [[plain(a) for a in choices[n].arguments] for n in ("moved1", "moved2", "moved3") if n in choices]
            action |= {"moves": moved} if moved else {}
        elif term.name == "landmark":
            action["landmark"] = plain(term.arguments[0])
            moved = [[plain(a) for a in choices[n].arguments] for n in ("moved1", "moved2", "moved3") if n in choices]
            action |= ({"moves": moved} if moved else {}) | (
                {"pile_card": plain(choices["pile_card"])} if "pile_card" in choices else {})
        elif term.name == "alliance":
            action |= {"alliance": str(term.arguments[0]), "race": str(term.arguments[1])}
        elif term.name == "move":
            action["move"] = [plain(a) for a in term.arguments]
        else:
            action[term.name] = True
        return {"game": "dfm", "chapter": 1, "turn": turn, "state": state, "actions": [action]}

    def search_question(self, term: clingo.Symbol, facts: list[clingo.Symbol]) -> dict[str, Any]:
        """A question of the search (its term) as a scenario question."""
        if term.name == "action":
            return {"ask": "action", "step": 1}
        if term.name == "winner":
            return {"ask": "winner", "after": 1}
        fluent = term.arguments[0]
        if fluent.name == "tok":
            place = fluent.arguments[0]
            of = ["tokens", place.name] if place.name != "conn" else \
                ["tokens", "connection", *(a.string for a in place.arguments)]
        else:
            of = [fluent.name, *[a.string if a.type == clingo.SymbolType.String else a.name for a in fluent.arguments]]
        return {"ask": "value", "after": 1, "of": of}

    # -- explanations --------------------------------------------------------------------------------------

    def describe_param(self, key: str, value: Any, state: State) -> str | None:
        if key == "action":
            return value[2]
        if key == "step" and 0 < value <= len(state.actions):
            return f"{value} ({state.actions[value - 1][2]})"
        if key == "of":
            return render(value)
        return None

    def flip_refusal(self, state: State) -> str | None:
        """Why `flip` cannot search this state, or None. On the real cards (`catalog:`) the search, which grounds
        every moment with every starting number free by two and every starting fact droppable, outgrew its
        bounds (a chapter card file: more than 60 s with 4 GB, and out of its 1 GB in 16 s), so it is refused."""
        if state.real_cards is not None:
            return "flip does not search Duel states on the real cards (`catalog:`) yet: its search outgrows its bounds"
        return None

    def describe_change(self, change: clingo.Symbol, state: State) -> str:
        """A change the flip search made to the starting state (rules/flip/dfm.lp, change/1) in words."""
        args = change.arguments
        if change.name == "value" and len(args) == 3:
            return f"{fluent_words(args[0])}: {args[2].number} instead of {args[1].number} at the start"
        if change.name == "dropped" and args:
            return f"no longer at the start: {fluent_words(args[0])}"
        return str(change)

    def describe(self, evidence: clingo.Symbol, state: State) -> str:
        args = evidence.arguments
        if evidence.name == "step" and args:
            number = args[0].number
            words = state.actions[number][2] if number < len(state.actions) else "the call asked about"
            return f"step {number + 1}: {words}"
        if evidence.name == "at" and args:
            return f"after step {args[0].number}" if args[0].number else "at the start"
        if evidence.name == "row" and args:
            return f"dfm_allies {args[0]}"
        pattern = EVIDENCE_WORDS.get(evidence.name)
        words = [str(a).replace('"', "").replace("_", " ") for a in args]
        if pattern is not None and pattern.count("{") == len(words):
            return pattern.format(*words)
        return str(evidence).replace('"', "")


# The starting state's numbers and facts (init_num/2, init/1) in words, by the fluent's name; {0}, {1} are its
# arguments.
FLUENT_WORDS = {
    "tok": "Power tokens at {0}", "coins": "{0}'s coins", "stack": "Alliance tokens in the {0} stack",
    "discarded": "{0} cards in the discard pile", "units": "{0}'s units in region {1}",
    "alliance": "{0}'s {1} Alliance tokens", "symbols": "{0}'s {1} race symbols",
    "fortress": "{0}'s Fortress in region {1}",
    "taken": "the card at row {0}, column {1} taken", "turn": "{0}'s turn", "open_tile": "tile {0} open",
    "eagle_at": "the Eagle at {0}", "reserve": "the Power token reserve", "nazgul": "the Nazgul's place",
    "ring": "the Ring's place", "sauron_steps": "Sauron's own steps on the Ring track",
    "discard_pile": "cards in the discard pile", "skills": "{0}'s {1} skill",
    "either": "{0}'s cards of one skill among {1}",
    **{status: "{0}'s ally {1} " + status.replace("_", " ") for status in ALLY_STATES},
}


# The evidence of the Duel's rules in words, by the term's name ({0}, {1} its arguments); a term of another shape is
# shown as it is.
EVIDENCE_WORDS = {
    "card": "the card at row {0}, card {1}", "race": "race {0}", "ally": "{0}'s ally {1}", "colour": "colour {0}",
    "turn": "{0}'s turn", "stack": "the {0} Alliance stack", "discard_pile": "the discard pile",
    "eagle": "the Eagle: {0}", "tile": "Landmark tile {0}", "grey": "{0}'s grey cards",
    "conn": "the connection between {0} and {1}", "tokens": "{0}'s Power tokens: {1}", "region": "region {0}",
    "coins": "{0}'s coins: {1}", "chapter": "chapter {0}", "symbols": "{0}'s {1} race symbols",
    "reserve": "coins in the reserve: {0}", "used": "used by {0} already", "chain": "chaining symbol {0}",
    "winner": "{0} wins", "draw": "a draw", "effect": "effect: {0}", "skill": "skill {0}: {1}",
    "lost": "{0} loses coins: {1}", "units": "{0}'s units in {1}: {2}",
    "moves": "{0} move on the Ring track, steps: {1}", "space": "Ring-track space {0}",
    "board": "{0}'s units on the board: {1}", "held": "{0}'s units in {1}", "remove": "units to name: {0}",
    "asks": "the cost asks skill {0}: {1}", "skills_missing": "skills missing, a coin each: {0}",
    "price": "{0} must pay coins: {1}", "missing": "skill {0} missing: {1}",
    "paid": "coins for the skills missing: {0}", "either": "a card of one skill among {0}",
    "any_skill": "skills no card gives: {0}, one of them given by the token: {1} left to pay",
    "token": "Alliance token {0}", "extra_turn": "{0} owed an extra turn", "pick": "pick {0}: {1}",
    "grey_card": "{0}'s grey card {1}", "no_grey": "{0} has no grey card",
    "no_token_kept": "the tile keeps no Alliance token, which {0} would name",
    "grey_unnamed": "{0}'s grey card moved without a name: the skills it gave stay (which card it is, is unknown)",
    "grey_counted": "{0}'s grey card discarded, one of those counted",
    "picks": "picks to name: {0}",
    "unnamed": "{0} holds Alliance tokens not named, whose effects are unknown",
    "attribute": "for the rest of the game: {0}", "trigger": "for the rest of the game, on {0}: {1}",
}


def real_tiles(pool: list[Any]) -> list[Fact]:
    """The Landmark tiles among a catalog's real cards: each one's skill cost, the types of its effects and the
    counts of those the encodings apply (rules/dfm/card_skills.lp, card_effects.lp), by the tile's name. A tile
    whose units go elsewhere than its own region is not read as such: its placement is left out and named."""
    facts = []
    for tile in (c for c in pool if c.type == "landmark_tile"):
        facts += [fact("tile_skill_cost", tile.id, Const(s), n) for s, n in tile.extra["skills"].items()
                  if s in SKILLS and n]
        types = set()
        for effect in tile.extra["effects"]:
            kind = effect["type"]
            own = effect.get("possible_regions_to_place", [tile.extra["region"]]) == [tile.extra["region"]]
            if kind in TILE_FAMILIES and own:
                field_name, family = TILE_FAMILIES[kind]
                facts.append(fact("tile_count", tile.id, Const(family), effect[field_name]))
            types.add(kind if own else "place_units_elsewhere")
        facts += [fact("tile_effect", tile.id, Const(e)) for e in sorted(types)]
    return facts


def real_tokens(pool: list[Any]) -> list[Fact]:
    """The Alliance tokens among a catalog's real cards (rules/dfm/alliance_tokens.lp), by id: each one's race, its
    once effect's type and, for the families the encodings apply, its count; or what it does for the rest of the
    game, the attribute it gives or the event that triggers its effect."""
    facts = []
    for token in (c for c in pool if c.type == "alliance_token"):
        extra = token.extra
        facts.append(fact("token_race", token.id, Const(DATA_RACES.get(extra["race"], extra["race"]))))
        if "attribute" in extra:
            facts.append(fact("token_lasting", token.id, term("attribute", Const(extra["attribute"]))))
        elif "trigger" in extra:
            kind = extra["effect"]["type"]
            facts.append(fact("token_lasting", token.id, term("trigger", Const(extra["trigger"]), Const(kind))))
            if kind in TRIGGER_FAMILIES:
                counted, family = TRIGGER_FAMILIES[kind]
                facts.append(fact("token_trigger_count", token.id, Const(family),
                                  counted if isinstance(counted, int) else extra["effect"][counted]))
                facts += [fact("token_units_region", token.id, region)
                          for region in extra["effect"].get("possible_regions_to_place", [])]
            elif kind in TRIGGER_CHAPTER_FAMILIES:
                counted, family = TRIGGER_CHAPTER_FAMILIES[kind]
                facts += [fact("token_trigger_chapter_count", token.id, Const(family), chapter, n)
                          for chapter, n in enumerate(extra["effect"][counted][:3], start=1)]
        else:
            kind = extra["effect"]["type"]
            facts.append(fact("token_once", token.id, Const(kind)))
            if kind == "place_units_on_central_board":
                facts += [fact("token_units", token.id, extra["effect"]["units_to_place"]),
                          *(fact("token_units_region", token.id, region)
                            for region in extra["effect"]["possible_regions_to_place"])]
            if kind in TOKEN_FAMILIES:
                counted, family = TOKEN_FAMILIES[kind]
                facts.append(fact("token_count", token.id, Const(family),
                                  counted if isinstance(counted, int) else extra["effect"][counted]))
            if kind == "multi_choice":
                facts += _token_picks(token.id, extra["effect"])
    return facts


def _token_picks(token: str, effect: dict[str, Any]) -> list[Fact]:
    """A token's choice of effects (its data's multi_choice): its picks, each one of its options (token_pick/4),
    where every pick is a choice of one among effects of PICK_FAMILIES; any other shape gives no facts, and the
    token's effect stays named as not applied."""
    picks = effect.get("actions", [])
    if not (effect.get("actions_to_take") == len(picks) and all(
            p.get("type") == "multi_choice" and p.get("actions_to_take") == 1
            and all(o.get("type") in PICK_FAMILIES and PICK_FAMILIES[o["type"]][0] in o for o in p.get("actions", []))
            for p in picks)):
        return []
    return [fact("token_picks", token, len(picks)),
            *(fact("token_pick", token, n, Const(PICK_FAMILIES[o["type"]][1]), o[PICK_FAMILIES[o["type"]][0]])
              for n, pick in enumerate(picks, 1) for o in pick["actions"])]


def _skill_gains(card: Any) -> tuple[dict[str, int], list[list[str]]]:
    """The skills a real chapter card gives when played: those it gives for good, by skill (the ones it gives),
    and each set of skills it gives one of, towards each cost (assumption card_skills)."""
    gains = [e["skills"] for e in card.extra["effects"] if e["type"] == "gain_skill"]
    fixed = {s: sum(g[s] for g in gains if not g.get("optional")) for s in SKILLS}
    return {s: n for s, n in fixed.items() if n}, [[s for s in SKILLS if g[s]] for g in gains if g.get("optional")]


def skill_set(skills: Iterable[str]) -> Term:
    """The term of a set of skills a grey card gives one of: one_of(S1, S2, ...) in the order of SKILLS."""
    chosen = set(skills)
    return term("one_of", *(Const(s) for s in SKILLS if s in chosen))


def skill_set_facts(skills: Iterable[str]) -> list[Fact]:
    """The members of a set of skills (skill_set/2)."""
    return [fact("skill_set", skill_set(skills), Const(s)) for s in SKILLS if s in set(skills)]


def fluent_words(fluent: clingo.Symbol) -> str:
    """A fluent of the starting state in words (its term where no words are kept for its name)."""
    pattern = FLUENT_WORDS.get(fluent.name)
    arguments = [str(a).replace('"', "").replace("_", " ") for a in fluent.arguments]
    if pattern is None or pattern.count("{") > len(arguments):
        return ", ".join([fluent.name.replace("_", " "), *arguments]) if arguments else fluent.name.replace("_", " ")
    return pattern.format(*arguments)


GAME = Dfm()
