"""The Duel's vocabulary, which every part of the game shares: the factions, allies, races, regions, tiles, skills
and colours, the choices each ally's effects take and the call templates a `plays` question tries, and the state a
scenario reads into (State, with its Actions)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyengine.core.asp import Fact, Value

# The game's name in the registry.
NAME = "dfm"
# The two sides, the Fellowship first.
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
# The choices of what a card played from the discard pile does: the card, where its units go, whose units it takes
# and how its player's move (rules/dfm/card_units.lp); every one may be left out (OPTIONAL_CHOICES).
PILE_CHOICES = {"pile_card": "pile_card", "region": "region", "remove": "remove", "moves": "moves"}
# The choices of what a real Alliance token kept does (rules/dfm/alliance_tokens.lp).
TOKEN_CHOICES = {"token": "token", "fortress": "region", "place1": "region", "place2": "region", "picks": "picks"}
# The choices of what a real Landmark tile an ally plays does, as a take of the tile names them (the Chieftain's exit):
# its movements, the grey card it discards, the token it keeps and what that does, the card of the pile it plays.
TILE_CHOICES = {**PILE_CHOICES, **TOKEN_CHOICES, "grey_card": "grey_card"}
# The choices each effect takes: name -> kind of value (region, race, tile, connection, card, ally, mode, move).
CHOICES: dict[tuple[str, str], dict[str, str]] = {
    ("witch_king", "enter"): {"mode": "mode", "region": "region"}, ("witch_king", "exit"): {"region": "region"},
    ("shelob", "enter"): {"race": "race"}, ("shelob", "exit"): {"race": "race"},
    ("chieftain", "enter"): {"tile": "tile"}, ("chieftain", "exit"): {"tile": "tile", **TILE_CHOICES},
    ("balrog", "enter"): {"connection": "connection"}, ("balrog", "exit"): {"connection": "connection"},
    ("warg", "enter"): {"ally": "ally"}, ("warg", "exit"): {"copy": "ally"},
    ("cave_troll", "enter"): {"grey_card": "grey_card"}, ("cave_troll", "exit"): {"grey_card": "grey_card"},
    ("grima", "enter"): {"card": "card"}, ("grima", "exit"): {"card": "card"},
    ("tom_bombadil", "enter"): {}, ("tom_bombadil", "exit"): {},
    ("goldberry", "enter"): {}, ("goldberry", "exit"): {},
    **{("elrond", effect): {"race": "race", **TOKEN_CHOICES, **PILE_CHOICES} for effect in ("enter", "exit")},
    ("arwen", "enter"): {"colour": "colour", **PILE_CHOICES},
    ("arwen", "exit"): {"colour": "colour", **PILE_CHOICES},
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
                    ("arwen", "enter"): {"colour", *PILE_CHOICES}, ("arwen", "exit"): {"colour", *PILE_CHOICES},
                    **{("elrond", effect): {*TOKEN_CHOICES, *PILE_CHOICES} for effect in ("enter", "exit")},
                    ("chieftain", "exit"): set(TILE_CHOICES),
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

# An action: its act/3 term, its choices (name, value), and its words.
Action = tuple[Value, list[tuple[str, Value]], str]


@dataclass
class State:
    """A Duel scenario's state as read: its chapter and whose turn it is, the facts of its start, its actions (each
    read or its place kept), and the real cards it names with those already described or placed."""

    chapter: int
    turn: str | None  # None: left to the setup (assumption setup_start)
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
