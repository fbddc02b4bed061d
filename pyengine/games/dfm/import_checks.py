"""What the Duel's encodings know of the base game, read from them, and the checks of Vermihunter's data against it
(pyengine/games/dfm/importer.py, `pyengine import vermihunter`).

The known names (regions, tiles, colours, races, factions, the tokens' triggers and attributes) and the setup values
the encodings hold (the coins, the Ring track's bonus spaces, the board's connections, the layouts) are read from
facts/dfm and rules/dfm, so that the data is checked against what the rules will answer with; the few values a rule
writes into its own body (Sauron begins, a coin per Fortress, a chapter's coins for a discard) are tables here, each
naming the rule. A setup value of the data that differs from the encodings' is an error naming the field, the
data's value and the encodings'. Each field of the data is read by a rule, checked against the encodings, or named
in the import report as not read (`not_read`): which fields the rules read is taken from the tables by which
pyengine/games/dfm/real_cards.py turns the imported records into facts."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import clingo
import clingo.ast

from pyengine.core.errors import Collected, InputError
from pyengine.core.resources import facts_dir, rules_dir
from pyengine.games.dfm import real_cards

# The files the known names and values are read from.
SOURCES = (("facts", "base_game.lp"), ("facts", "layouts.lp"), ("rules", "layout.lp"), ("rules", "alliance_tokens.lp"))
# Values a rule writes in its own body, with the rule: the coins a Landmark tile costs per Fortress its taker has
# (rules/dfm/turns.lp, landmark_cost/3, assumption region_tiles).
COIN_PER_FORTRESS = (1, "rules/dfm/turns.lp, landmark_cost/3: one coin per Fortress (assumption region_tiles)")
DISCARD_COINS = "rules/dfm/turns.lp, discard_coins/3: as many coins as the chapter's number (assumption take_card)"
# The Eagle: the one Alliance token whose effect is a race's support, a Hobbit token (rules/dfm/alliance.lp: the
# Eagle lies in the Hobbit stack); real_cards.py reads such a token as the Eagle whatever race its data names.
EAGLE = ("hobbits", "eagles")
# How each effect that places or moves units spreads them, as the encodings apply it (the data's Strategy): a
# chapter card's, a tile's, a triggered token's and a bonus space's units all go to one region (assumption
# card_units, region_tiles; rules/dfm/card_units.lp), a token's once units each to the region its take names
# (`place1:`, `place2:`, assumption alliance_tokens), and moved units each one step (assumption card_units).
STRATEGIES: dict[str, dict[str | None, str]] = {
    "place_units_on_central_board": {"token_once": "every_unit_freely", None: "all_to_same_region"},
    "move_units_on_central_board": {None: "neighboring"}}
# What each Ring-track bonus gives, as the family and count of ring_bonus_gives/3 (facts/dfm/base_game.lp).
BONUS_FAMILIES = {"get_coins_from_reserve": ("coins_to_get", "coins"),
                  "place_units_on_central_board": ("units_to_place", "units"),
                  "take_another_turn": (1, "extra_turns"), "remove_enemy_fortress": (1, "fortress")}
# The fields of the setup that no rule reads (each player's supply of units and Fortresses is not counted,
# assumption card_units; the open tiles are a state's): named in the report whenever the data has them.
SETUP_NOT_READ = ("InitialConfig.FellowshipPlayer.Units", "InitialConfig.FellowshipPlayer.Towers",
                  "InitialConfig.SauronPlayer.Units", "InitialConfig.SauronPlayer.Towers",
                  "LandmarkTileContextConfig.LandmarkTilesAtTime")


@dataclass(frozen=True)
class Encoded:
    """The base game as the encodings hold it."""

    regions: frozenset[str]
    tiles: dict[str, str]  # region -> its Landmark tile
    connections: frozenset[frozenset[str]]
    colours: frozenset[str]
    races: frozenset[str]  # as the data names them (humans for the Men)
    factions: frozenset[str]
    coin_total: int
    first_player: str
    setup_coins: dict[str, int]  # player -> coins at the start
    setup_units: frozenset[tuple[str, str, int]]  # (player, region, units) at the start
    ring_track: dict[str, int]  # fellowship_start, sauron_start, width, as the data's fields are kept
    bonuses: frozenset[tuple[int, str, int]]
    rows: dict[int, tuple[int, ...]]  # chapter -> its rows' lengths from the top
    covers: frozenset[tuple[int, int, int, int, int]]  # (chapter, row, card) covered by (row, card), as covers/5
    face_down: frozenset[tuple[int, int, int]]
    triggers: frozenset[str]
    attributes: frozenset[str]
    place_slots: int
    pick_slots: int


def _constants(path: Path, predicate: str, position: int) -> set[str]:
    """The constants rules of `path` write as argument `position` of the heads of `predicate` (token_event/3's
    events)."""
    found: set[str] = set()

    def visit(statement: clingo.ast.AST) -> None:
        """Keep the constant of a rule whose head is `predicate`."""
        if statement.ast_type != clingo.ast.ASTType.Rule or statement.head.ast_type != clingo.ast.ASTType.Literal:
            return
        atom = statement.head.atom
        if atom.ast_type != clingo.ast.ASTType.SymbolicAtom or atom.symbol.ast_type != clingo.ast.ASTType.Function:
            return
        if atom.symbol.name == predicate and len(atom.symbol.arguments) > position:
            argument = atom.symbol.arguments[position]
            if argument.ast_type == clingo.ast.ASTType.SymbolicTerm:
                found.add(argument.symbol.name)

    clingo.ast.parse_files([str(path)], visit)
    return found


@lru_cache(maxsize=1)
def encoded() -> Encoded:
    """The encodings' base game: the base programs of SOURCES grounded, and the events of token_event/3 read."""
    control = clingo.Control(["--warn=none"])
    for folder, name in SOURCES:
        control.load(str((facts_dir() if folder == "facts" else rules_dir()) / "dfm" / name))
    control.ground([("base", [])])

    def atoms(name: str, arity: int) -> list[list[Any]]:
        """The arguments of each atom of name/arity, as numbers, texts or names."""
        return [[a.number if a.type == clingo.SymbolType.Number else a.string if a.type == clingo.SymbolType.String
                 else a.name for a in atom.symbol.arguments]
                for atom in control.symbolic_atoms.by_signature(name, arity)]

    rows: dict[int, dict[int, int]] = {}
    for chapter, row, length in atoms("row", 3):
        rows.setdefault(chapter, {})[row] = length
    data_race = {race: data for data, race in real_cards.DATA_RACES.items()}
    [[coins]] = atoms("coin_total", 1)
    return Encoded(
        regions=frozenset(r for [r] in atoms("board_region", 1)), tiles={r: x for x, r in atoms("tile_region", 2)},
        connections=frozenset(frozenset(pair) for pair in atoms("board_connection", 2)),
        colours=frozenset(c for [c] in atoms("card_colour_name", 1)),
        races=frozenset(data_race.get(r, r) for r, _ in atoms("race", 2)),
        factions=frozenset(f for [f] in atoms("faction", 1)), coin_total=coins,
        first_player=atoms("first_player", 1)[0][0],
        setup_coins={p: n for p, n in atoms("setup_coins", 2)},
        setup_units=frozenset((p, r, n) for p, r, n in atoms("setup_units", 3)),
        ring_track={**{f"{'sauron' if p == 'nazgul' else p}_start": s for p, s in atoms("ring_track_start", 2)},
                    "width": atoms("ring_track_width", 1)[0][0]},
        bonuses=frozenset((s, k, n) for s, k, n in atoms("ring_bonus_gives", 3)),
        rows={c: tuple(found[r] for r in sorted(found)) for c, found in rows.items()},
        covers=frozenset((c, r, k, r2, k2) for c, r2, k2, r, k in atoms("covers", 5)),
        face_down=frozenset(tuple(a) for a in atoms("face_down", 3)),
        triggers=frozenset({v for _, v in atoms("colour_event", 2)}
                           | _constants(rules_dir() / "dfm" / "alliance_tokens.lp", "token_event", 2)),
        attributes=frozenset(a for [a] in atoms("applied_attribute", 1)),
        place_slots=len(atoms("place_slot", 1)), pick_slots=len(atoms("pick_slot", 2)))


def _differs(file: str, where: str, data: object, known: object, source: str) -> InputError:
    """A value of the data that differs from the encodings': the field, both values (a flag as JSON writes it), and
    what to do."""
    data, known = (json.dumps(v) if isinstance(v, bool) else v for v in (data, known))
    return InputError(f"the data says {data}, the encodings {known} ({source})", file=file, field=where,
                      expected="the encodings' value, or encodings changed to this data's (an import cannot change "
                               "what the rules hold)")


def check_setup(file: str, setup: dict[str, Any]) -> None:
    """Refuse every setup value of the data (the setup record, as read) that differs from the encodings', all of
    them together, each naming its field, the data's value and the encodings'."""
    known, errors = encoded(), Collected()
    if setup["starting_player"] != known.first_player:
        errors.add(_differs(file, "StartingPlayer", setup["starting_player"], known.first_player,
                            "facts/dfm/base_game.lp, first_player/1"))
    _check_start(file, setup, known, errors)
    if setup["total_coins"] != known.coin_total:
        errors.add(_differs(file, "TotalCoinCount", setup["total_coins"], known.coin_total,
                            "facts/dfm/base_game.lp, coin_total/1"))
    if setup["tiles"]["coin_per_already_placed_fortress_pawn"] != COIN_PER_FORTRESS[0]:
        errors.add(_differs(file, "LandmarkTileContextConfig.CoinPerAlreadyPlacedFortressPawn",
                            setup["tiles"]["coin_per_already_placed_fortress_pawn"], *COIN_PER_FORTRESS))
    _check_board(file, setup["regions"], known, errors)
    fields = {"fellowship_start": "FellowshipPlayerStartPosition", "sauron_start": "SauronPlayerStartPosition",
              "width": "Width"}
    for name, field in fields.items():
        if setup["ring_track"].get(name) != known.ring_track[name]:
            errors.add(_differs(file, f"QuestOfTheRingTrackConfig.{field}", setup["ring_track"].get(name, "nothing"),
                                known.ring_track[name], "facts/dfm/base_game.lp, ring_track_start/2, "
                                                        "ring_track_width/1"))
    _check_bonuses(file, setup["ring_track"]["bonuses"], known, errors)
    for index, layout in enumerate(setup["layouts"]):
        _check_layout(file, f"Rounds[{index}]", layout, known, errors)
    errors.raise_any()


def _check_start(file: str, setup: dict[str, Any], known: Encoded, errors: Collected) -> None:
    """Each player's coins, the units in each region and the Fortresses at the start, as base_game.lp's setup_coins/2
    and setup_units/3 (no Fortress): what a chapter-1 state that leaves them out starts with (assumption
    setup_start)."""
    for player, numbers in sorted(setup["players"].items()):
        if numbers.get("coins") != known.setup_coins.get(player):
            key = "".join(w.title() for w in player.split("_")) + "Player"
            errors.add(_differs(file, f"InitialConfig.{key}.Coins", numbers.get("coins", "nothing"),
                                known.setup_coins.get(player), "facts/dfm/base_game.lp, setup_coins/2"))
    units = {(r.get("units_of") or "no one", r["name"], r["units"]) for r in setup["regions"] if r.get("units")}
    if units != known.setup_units:
        errors.add(_differs(file, "Regions[].StartingState.Units", _placed(units), _placed(known.setup_units),
                            "facts/dfm/base_game.lp, setup_units/3"))
    for region in setup["regions"]:
        if region.get("fortress_of"):
            errors.add(_differs(file, "Regions[].StartingState.Fortress", f"{region['fortress_of']}'s in "
                                f"{region['name']}", "none", "facts/dfm/base_game.lp, setup_units/3"))


def _placed(units: set[tuple[str, str, int]] | frozenset[tuple[str, str, int]]) -> str:
    """Units at the start in words: `2 of fellowship in arnor, 2 of sauron in mordor`, or none."""
    return ", ".join(f"{n} of {p} in {r}" for p, r, n in sorted(units)) or "none"


def _check_board(file: str, regions: list[dict[str, Any]], known: Encoded, errors: Collected) -> None:
    """The regions (each once, every one of the board), their tiles and their connections, as base_game.lp's."""
    names = [r["name"] for r in regions]
    for name in sorted(known.regions - set(names)):
        errors.add(_differs(file, "Regions", f"no region {name}", f"region {name}", "facts/dfm/base_game.lp, "
                                                                                    "board_region/1"))
    for index, region in enumerate(regions):
        if region["fortress"] != known.tiles[region["name"]]:
            errors.add(_differs(file, f"Regions[{index}].Fortress", region["fortress"], known.tiles[region["name"]],
                                "facts/dfm/base_game.lp, tile_region/2"))
        linked = {frozenset((region["name"], other)) for other in region["connected"]}
        wanted = {pair for pair in known.connections if region["name"] in pair}
        if linked != wanted:
            errors.add(_differs(file, f"Regions[{index}].ConnectedWith", _others(linked, region["name"]),
                                _others(wanted, region["name"]), "facts/dfm/base_game.lp, board_connection/2"))


def _others(pairs: set[frozenset[str]], name: str) -> str:
    """The regions a region's connections lead to, in words."""
    return "connected with " + (", ".join(sorted(r for pair in pairs for r in pair if r != name)) or "nothing")


def _check_bonuses(file: str, bonuses: list[dict[str, Any]], known: Encoded, errors: Collected) -> None:
    """The Ring track's bonus spaces and what each gives, as ring_bonus_gives/3 (a unit in any region of the
    board, the region its action names)."""
    read: dict[tuple[int, str, Any], str] = {}
    for index, bonus in enumerate(bonuses):
        for number, effect in enumerate(bonus["effects"]):
            where = f"QuestOfTheRingTrackConfig.BonusActions[{index}].BonusActions[{number}]"
            counted, family = BONUS_FAMILIES.get(effect["type"], (None, effect["type"]))
            item = (bonus["position"], family, counted if not isinstance(counted, str) else effect[counted])
            if item in read:
                errors.add(_differs(file, where, f"{_bonus_words(item)} again ({read[item]})", "each bonus once",
                                    "facts/dfm/base_game.lp, ring_bonus_gives/3"))
            read[item] = where
            regions = set(effect.get("possible_regions_to_place", known.regions))
            if regions != known.regions:
                errors.add(_differs(file, f"{where}.PossibleRegionsToPlace", ", ".join(sorted(regions)),
                                    ", ".join(sorted(known.regions)), "rules/dfm/ring_bonuses.lp: a unit in any "
                                                                      "region, the one its action names"))
    for item in sorted(set(read) - known.bonuses, key=str):
        errors.add(_differs(file, read[item], _bonus_words(item), "no such bonus",
                            "facts/dfm/base_game.lp, ring_bonus_gives/3"))
    for item in sorted(known.bonuses - set(read)):
        errors.add(_differs(file, "QuestOfTheRingTrackConfig.BonusActions", "no such bonus", _bonus_words(item),
                            "facts/dfm/base_game.lp, ring_bonus_gives/3"))


def _bonus_words(bonus: tuple[int, str, Any]) -> str:
    """A bonus space and its gift in words."""
    return f"space {bonus[0]} gives {bonus[2]} of {bonus[1]}"


def _check_layout(file: str, where: str, layout: dict[str, Any], known: Encoded, errors: Collected) -> None:
    """A chapter's layout: its coins for a discard, its rows' lengths, which place covers which, its faces, as
    facts/dfm/layouts.lp and rules/dfm/layout.lp hold them (places by row, from the left in the order of their
    ids)."""
    chapter = layout["chapter"]
    if layout["coins_per_discard"] != chapter:
        errors.add(_differs(file, f"{where}.CoinsPerChapterCardDiscard", layout["coins_per_discard"], chapter,
                            DISCARD_COINS))
    places = layout["places"]
    rows: dict[int, list[int]] = {}
    for index in sorted(range(len(places)), key=lambda i: places[i]["id"]):
        rows.setdefault(places[index]["row"], []).append(index)
    lengths = tuple(len(rows.get(row, [])) for row in range(1, max(rows, default=0) + 1))
    if lengths != known.rows.get(chapter):
        errors.add(_differs(file, f"{where}.ChapterCardConfig", f"rows of {_lengths(lengths)} places",
                            f"rows of {_lengths(known.rows.get(chapter, ()))}", "facts/dfm/layouts.lp, row/3"))
        return
    spot = {places[i]["id"]: (row, column) for row, found in rows.items() for column, i in enumerate(found, 1)}
    for row, found in rows.items():
        for column, index in enumerate(found, 1):
            at = f"{where}.ChapterCardConfig[{index}]"
            covering = {spot[n] for n in places[index]["covered_by"]}
            wanted = {(r, k) for c, r0, k0, r, k in known.covers if (c, r0, k0) == (chapter, row, column)}
            if covering != wanted:
                errors.add(_differs(file, f"{at}.DependsOn", f"covered by {_spots(covering)}",
                                    f"covered by {_spots(wanted)}", "rules/dfm/layout.lp, covers/5"))
            if places[index]["face_up"] == ((chapter, row, column) in known.face_down):
                errors.add(_differs(file, f"{at}.IsFaceUp", places[index]["face_up"],
                                    (chapter, row, column) not in known.face_down, "rules/dfm/layout.lp, face_down/3"))


def _lengths(lengths: tuple[int, ...]) -> str:
    """Rows' lengths in words (2-3-4-5-6)."""
    return "-".join(map(str, lengths)) or "no"


def _spots(spots: set[tuple[int, int]]) -> str:
    """Places of a layout in words."""
    return ", ".join(f"row {r} card {k}" for r, k in sorted(spots)) or "nothing"


def strategy(kind: str, context: str) -> str | None:
    """The spread of units the encodings apply to an effect of `kind` in `context` (STRATEGIES), or None."""
    spreads = STRATEGIES.get(kind)
    return None if spreads is None else spreads.get(context, spreads[None])


def used(context: str, effect: dict[str, Any], region: str | None = None) -> set[str]:
    """The fields of an effect (as kept) that real_cards.py turns into facts, or the import checks, in `context`
    (card, tile, token_once, token_trigger, pick, bonus): the rest are not read. A tile's units placed elsewhere
    than its own `region` are not read (real_cards.py names them)."""
    kind = effect["type"]
    found: set[Any] = {"strategy"}  # with the counts real_cards.py's tables give instead of a field (1 turn)
    if context == "bonus":
        return set(effect)
    if context == "card":
        found |= {f for t, f, _ in real_cards.COUNTED_EFFECTS if t == kind}
        found |= {"add_support_of_a_race": {"race_to_support"}, "gain_skill": {"skills"},
                  "place_units_on_central_board": {"possible_regions_to_place"}}.get(kind, set())
    elif context == "tile":
        found.add("possible_regions_to_place")  # whether its units go to its own region
        if kind in real_cards.TILE_FAMILIES and effect.get("possible_regions_to_place", [region]) == [region]:
            found.add(real_cards.TILE_FAMILIES[kind][0])
    elif context == "token_once":
        families = {**real_cards.TOKEN_FAMILIES, "place_units_on_central_board": ("units_to_place", "units")}
        found |= {families[kind][0]} if kind in families else set()
        found |= {"add_support_of_a_race": {"race_to_support"},
                  "place_units_on_central_board": {"possible_regions_to_place"}}.get(kind, set())
        if kind == "multi_choice" and real_cards.token_picks("", effect):
            found |= {"actions_to_take", "actions"}
    elif context == "token_trigger":
        families = {**real_cards.TRIGGER_FAMILIES, **real_cards.TRIGGER_CHAPTER_FAMILIES}
        found |= {families[kind][0], "possible_regions_to_place"} if kind in families else set()
    elif context == "pick":
        found |= {"actions_to_take", "actions"} if kind == "multi_choice" else set()
        found |= {real_cards.PICK_FAMILIES[kind][0]} if kind in real_cards.PICK_FAMILIES else set()
    return {f for f in found if isinstance(f, str)}
