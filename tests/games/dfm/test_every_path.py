"""Every path applies every effect (issue 66, Build item 5): a real chapter card played from the discard pile and a
real Landmark tile taken do everything their data says by whatever path plays or takes them. The paths are read
from the encodings (the rules that define plays_pile/3, pile_pick/3, token_asked/4 and tile_taken/3, by the action
or the ally's effect in their bodies), so that a path added there without a driver here fails; the effect families
are read from the data (the effect types of the chapter cards, their chaining symbols, each tile's effect types).
For each path and each family, the path is run with the card (or the tile) that shows the family first in the data,
and against the same path without it the values it changes have changed as its data says, its rule in the answer;
or it is named in the answer (dfm_card_effect_not_modelled, dfm_tile_effect_not_modelled)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pyengine import api
from pyengine.games.dfm import importer
from pyengine.games.dfm.real_cards import DATA_RACES
from pyengine.games.dfm.terms import FACTIONS, SKILLS
from tests.paths import DFM_DATA as DATA
from tests.paths import not_found

REPO = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.skipif(not (DATA / importer.FILE).is_file(), reason=not_found("the Duel's data", DATA))

# The rule each applied effect type names in the answer (a card's, a tile's).
APPLIED = {"add_support_of_a_race": "dfm_card_symbols", "get_coins_from_reserve": "dfm_card_coins",
           "take_enemy_coins": "dfm_card_enemy_coins", "move_on_the_ring_quest_track": ("dfm_card_ring_move",
                                                                                      "dfm_card_nazgul_move"),
           "place_units_on_central_board": "dfm_card_units",
           "take_enemy_unit_from_central_board": "dfm_card_units_taken", "gain_skill": "dfm_card_skills",
           "move_units_on_central_board": "dfm_card_units_moved", "discard_enemy_grey_card": "dfm_tile_grey_card",
           "reveal_alliance_tokens_and_choose_some": "dfm_token_named",
           "play_discarded_chapter_card": "dfm_pile_card_effects"}
# The predicates whose rules are the paths, and the atoms of a rule's body that name its path: an action's kind or an
# ally's effect (a tile that keeps a token is the token's path through the tile, tile_token/3).
PATH_HEADS = ("plays_pile", "pile_pick", "token_asked", "tile_taken", "ally_tile")
PATH_ATOM = re.compile(r"\b(?:act\(T, _?P\w*, (\w+)\(|attempt\(T, _?P\w*, (\w+),|(tile_token)\()")


def encoded_paths() -> set[str]:
    """The paths the encodings give to a card of the discard pile or a tile taken: each rule of PATH_HEADS names the
    action (landmark, alliance) or the ally (arwen, elrond, chieftain) it rests on, or a tile's token (tile_token)."""
    found: set[str] = set()
    for path in sorted((REPO / "rules" / "dfm").glob("*.lp")):
        text = re.sub(r"%\*.*?\*%|%[^\n]*", "", path.read_text(), flags=re.S)
        for rule in re.split(r"\.\s*\n", text):
            head = rule.strip().split(":-")[0]
            if ":-" in rule and any(head.startswith(f"{h}(") for h in PATH_HEADS):
                found |= {next(g for g in m.groups() if g) for m in PATH_ATOM.finditer(rule.split(":-", 1)[1])}
    return found


# Each path of a card of the discard pile: (player, state extras, the action without the card's choices). The
# Warg's copies of Arwen's and Elrond's exits are the same rules (attempt/4), driven too.
PILE_PATHS: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "landmark": ("fellowship", {"tiles": ["barad_dur"], "skills": {"fellowship": {"courage": 3, "knowledge": 1,
                                                                                   "leadership": 2}}},
                 {"landmark": "barad_dur"}),
    "chieftain": ("sauron", {"tiles": ["barad_dur"], "tokens": {"sauron": 4, "fellowship": 0, "box": 4},
                             "allies": {"sauron": {"revealed": ["chieftain"], "entered": ["chieftain"]}}},
                  {"call": "chieftain", "effect": "exit", "tile": "barad_dur"}),
    "alliance": ("fellowship", {"symbols": {"fellowship": {"wizards": 2}}, "stacks": {"wizards": 3}},
                 {"alliance": "pair", "race": "wizards", "token": "wizards.3"}),
    "elrond": ("fellowship", {"stacks": {"wizards": 3}, "tokens": {"sauron": 0, "fellowship": 4, "box": 4},
                              "allies": {"fellowship": {"revealed": ["elrond"], "entered": ["elrond"]}}},
               {"call": "elrond", "effect": "exit", "race": "wizards", "token": "wizards.3"}),
    "tile_token": ("fellowship", {"tiles": ["grey_havens"], "stacks": {"wizards": 3},
                                  "skills": {"fellowship": {"strength": 3, "knowledge": 1, "leadership": 2}}},
                   {"landmark": "grey_havens", "token": "wizards.3"}),
    "arwen": ("fellowship", {"tokens": {"sauron": 0, "fellowship": 4, "box": 4},
                             "allies": {"fellowship": {"revealed": ["arwen"], "entered": ["arwen"]}}},
              {"call": "arwen", "effect": "exit"}),
    "warg_arwen": ("sauron", {"tokens": {"sauron": 4, "fellowship": 0, "box": 4},
                              "allies": {"sauron": {"revealed": ["warg"], "entered": ["warg"]},
                                         "fellowship": {"revealed": ["arwen"], "entered": ["arwen"]}}},
                   {"call": "warg", "effect": "exit", "copy": "arwen"}),
}
# The paths and families named in the answer rather than applied: none.
NAMED_ONLY: set[tuple[str, str]] = set()
# The encodings' path each driver runs.
DRIVEN = {"landmark": "landmark", "chieftain": "chieftain", "alliance": "alliance", "elrond": "elrond",
          "tile_token": "tile_token", "arwen": "arwen", "warg_arwen": "arwen"}


def _count(record: Any, effect: str, field: str) -> int:
    """What a card's or a tile's effects of one type add up to."""
    return sum(e.get(field, 0) for e in record.extra["effects"] if e["type"] == effect)


def _families(cards: list[Any]) -> dict[str, Any]:
    """Each effect family of the chapter cards (their effect types, and the chaining symbol a card gives), with the
    first card of the data that shows it."""
    first: dict[str, Any] = {}
    for card in (c for c in cards if c.type == "chapter_card"):
        for kind in [e["type"] for e in card.extra["effects"]] + (["chaining_symbol"] if card.extra["chain"] else []):
            first.setdefault(kind, card)
    return first


def _region(card: Any) -> str | None:
    """The region the card's units are placed in: its first, or none for a card that places none."""
    return next((e["possible_regions_to_place"][0] for e in card.extra["effects"]
                 if e["type"] == "place_units_on_central_board"), None)


def _questions(player: str, card: Any) -> list[dict[str, Any]]:
    """The values a card of the pile may change for its player and the opponent."""
    opponent = next(f for f in FACTIONS if f != player)
    of = [["coins", player], ["coins", opponent], ["ring"], ["nazgul"], ["units", opponent, "mordor"],
          ["units", player, "arnor"], ["units", player, "lindon"], ["in_pile", card.id],
          *(["units", player, r] for r in [_region(card)] if r and r not in ("arnor", "lindon")),
          *(["skills", player, s] for s in SKILLS),
          *(["symbols", player, DATA_RACES.get(e["race_to_support"], e["race_to_support"])]
            for e in card.extra["effects"] if e["type"] == "add_support_of_a_race"),
          *(["chain", player, card.extra["chain"]] for _ in [1] if card.extra["chain"])]
    return [{"id": f"v{n}", "ask": "value", "after": 1, "of": v} for n, v in enumerate(of)]


def _pile_run(path: str, card: Any, with_card: bool) -> tuple[Any, dict[str, str]]:
    """The path run by its player in the card's chapter, with 10 coins each, a unit of theirs in Arnor and one of
    the opponent's in Mordor, the card in the discard pile: naming it, with the choices its units need (its first
    region, the opponent's unit in Mordor, the unit in Arnor moved to Lindon), or not; the action's answer and the
    values after it."""
    player, extras, action = PILE_PATHS[path]
    opponent = next(f for f in FACTIONS if f != player)
    named: dict[str, Any] = {"pile_card": card.id} if with_card else {}
    if with_card and _region(card):
        named["region"] = _region(card)
    if with_card and _count(card, "take_enemy_unit_from_central_board", "units_to_take"):
        named["remove"] = ["mordor"]
    if with_card and _count(card, "move_units_on_central_board", "units_to_move"):
        named["moves"] = [["arnor", "lindon"]]
    state = {"coins": {"fellowship": 10, "sauron": 10}, "connections": "standard", "ring": 6, "nazgul": 8,
             "units": {player: {"arnor": 1}, opponent: {"mordor": 1}}, "pile": [card.id], **extras}
    table = {"game": "dfm", "catalog": "vermihunter", "chapter": card.extra["chapter"], "turn": player,
             "state": state, "actions": [{"player": player, **action, **named}],
             "questions": [{"id": "path", "ask": "action", "step": 1}, *_questions(player, card)]}
    answer, *values = api.answer(table).questions
    return answer, {" ".join(map(str, q["of"])): v.got for q, v in zip(table["questions"][1:], values, strict=True)}


def _pile_changes(player: str, card: Any) -> dict[str, str]:
    """What playing the card changes, from its data, against the path without it (the values of _questions)."""
    opponent = next(f for f in FACTIONS if f != player)
    steps = _count(card, "move_on_the_ring_quest_track", "move_count")
    change: dict[str, int | str] = {
        f"coins {player}": _count(card, "get_coins_from_reserve", "coins_to_get"),
        f"coins {opponent}": -_count(card, "take_enemy_coins", "coins_to_take"),
        "ring": steps if player == "fellowship" else 0, "nazgul": steps,
        f"units {opponent} mordor": -min(1, _count(card, "take_enemy_unit_from_central_board", "units_to_take")),
        f"units {player} lindon": min(1, _count(card, "move_units_on_central_board", "units_to_move")),
        f"in_pile {card.id}": "false"}
    change[f"units {player} arnor"] = -change[f"units {player} lindon"]
    if _region(card):
        key = f"units {player} {_region(card)}"
        change[key] = change.get(key, 0) + _count(card, "place_units_on_central_board", "units_to_place")
    for effect in card.extra["effects"]:
        if effect["type"] == "gain_skill":
            for skill in SKILLS:
                change[f"skills {player} {skill}"] = effect["skills"][skill]
        if effect["type"] == "add_support_of_a_race":
            change[f"symbols {player} {DATA_RACES.get(effect['race_to_support'], effect['race_to_support'])}"] = 1
    if card.extra["chain"]:
        change[f"chain {player} {card.extra['chain']}"] = "true"
    return {k: str(v) for k, v in change.items()}


def test_the_paths_driven_are_the_paths_of_the_encodings() -> None:
    assert encoded_paths() == set(DRIVEN.values()) | {"landmark"}


def test_the_families_are_those_of_the_data() -> None:
    cards, _ = importer.read(DATA)
    assert set(_families(cards)) - {"chaining_symbol"} == {e for c in cards if c.type == "chapter_card"
                                                          for e in {x["type"] for x in c.extra["effects"]}}


def _pile_cases() -> list[tuple[str, str]]:
    if not (DATA / importer.FILE).is_file():
        return []
    cards, _ = importer.read(DATA)
    return [(path, family) for path in PILE_PATHS for family in sorted(_families(cards))]


@pytest.mark.parametrize(("path", "family"), _pile_cases())
def test_a_card_of_the_pile_applies_its_family_by_every_path(path: str, family: str) -> None:
    """The first card of the family's, played from the discard pile by the path: done, and against the same path
    naming no card every value its data changes has changed by its count (its rule in the answer), or the family is
    named as not applied; nothing else changed."""
    cards, _ = importer.read(DATA)
    card = _families(cards)[family]
    player = PILE_PATHS[path][0]
    answer, after = _pile_run(path, card, with_card=True)
    plain, before = _pile_run(path, card, with_card=False)
    assert answer.got == plain.got == "done", (path, card.id, answer.rules, plain.rules)
    assert "dfm_pile_card_effects" in answer.rules, (path, card.id, answer.rules)
    expected = _pile_changes(player, card)
    got = {}
    for key, value in after.items():
        if value in ("true", "false"):
            got[key] = value if value != before[key] else None
        else:
            got[key] = str(int(value) - int(before[key]))
    want = {k: expected.get(k, "0" if after[k] not in ("true", "false") else None) for k in after}
    named = {f"{r.rule} {r.evidence}" for r in answer.reasons if r.rule == "dfm_card_effect_not_modelled"}
    if family in APPLIED:
        rules = APPLIED[family] if isinstance(APPLIED[family], tuple) else (APPLIED[family],)
        assert any(r in answer.rules for r in rules), (path, card.id, answer.rules)
    is_named = any(family.replace("_", " ") in n for n in named)
    assert got == want or is_named, (path, card.id, got, want)
    # What is named rather than applied is listed, so that a family that stops being applied is seen: none now.
    assert not is_named or (path, family) in NAMED_ONLY, (path, card.id, named)


# Each path of a Landmark tile: (player, state extras, the action naming the tile).
TILE_PATHS: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "landmark": ("fellowship", {"skills": {"fellowship": dict.fromkeys(SKILLS, 3)}}, {}),
    "chieftain": ("sauron", {"tokens": {"sauron": 4, "fellowship": 0, "box": 4},
                             "allies": {"sauron": {"revealed": ["chieftain"], "entered": ["chieftain"]}}},
                  {"call": "chieftain", "effect": "exit"}),
}


def _tile_cases() -> list[tuple[str, str]]:
    if not (DATA / importer.FILE).is_file():
        return []
    cards, _ = importer.read(DATA)
    return [(path, t.id) for path in TILE_PATHS for t in cards if t.type == "landmark_tile"]


@pytest.mark.parametrize(("path", "tile_id"), _tile_cases())
def test_a_tile_applies_every_effect_by_every_path(path: str, tile_id: str) -> None:
    """Each tile of the data taken by the path, with the choices its effects need (its units placed moved on, the
    opponent's grey card 1.13 discarded, the Elves' first token kept, the yellow 1.9 of the pile played): done,
    its Fortress in its region, its coins, its steps (the Fellowship's or the Nazgul's), its units, the grey card
    gone, the token kept, the card played, each with its rule in the answer."""
    cards, _ = importer.read(DATA)
    [tile] = [c for c in cards if c.id == tile_id]
    player, extras, action = TILE_PATHS[path]
    opponent = next(f for f in FACTIONS if f != player)
    region = tile.extra["region"]
    kinds = {e["type"] for e in tile.extra["effects"]}
    placed = _count(tile, "place_units_on_central_board", "units_to_place")
    moved = min(placed, _count(tile, "move_units_on_central_board", "units_to_move"))
    target = "lindon" if region == "arnor" else "arnor"
    units = {} if placed else {player: {"mordor" if region != "mordor" else "gondor": 1}}
    own = "mordor" if region != "mordor" else "gondor"
    choices = {**({"moves": [[region, target]] * moved} if moved else {}),
               **({"moves": [[own, "gondor" if own == "mordor" else "mordor"]]} if not placed and
                  "move_units_on_central_board" in kinds else {}),
               **({"grey_card": "1.13"} if "discard_enemy_grey_card" in kinds else {}),
               **({"token": "elves.1"} if "reveal_alliance_tokens_and_choose_some" in kinds else {}),
               **({"pile_card": "1.9"} if "play_discarded_chapter_card" in kinds else {})}
    key = "landmark" if path == "landmark" else "tile"
    state = {"coins": {"fellowship": 20, "sauron": 0}, "tiles": [tile.id], "connections": "standard", "ring": 6,
             "nazgul": 8, "units": units, "pile": ["1.9"], "grey_cards": {opponent: ["1.13"]},
             "skills": {opponent: {"ruse": 1}}, "stacks": {"elves": 3}, **extras}
    if path == "landmark":
        state["skills"] = {**state["skills"], **extras["skills"]}
    of = [["fortress", player, region], ["coins", player], ["ring"], ["nazgul"], ["units", player, region],
          ["grey_card", opponent, "1.13"], ["holds_token", player, "elves.1"], ["in_pile", "1.9"]]
    table = {"game": "dfm", "catalog": "vermihunter", "turn": player, "state": state,
             "actions": [{"player": player, **action, key: tile.id, **choices}],
             "questions": [{"id": "taken", "ask": "action", "step": 1},
                           *({"id": f"v{n}", "ask": "value", "after": 1, "of": v} for n, v in enumerate(of))]}
    taken, fortress, coins, ring, nazgul, units_after, grey, token, pile = api.answer(table).questions
    assert taken.got == "done", (path, tile.id, taken.rules)
    assert fortress.got == "true", (path, tile.id)
    steps = _count(tile, "move_on_the_ring_quest_track", "move_count")
    price = sum(n for s, n in tile.extra["skills"].items() if s in SKILLS) * 0  # skills enough on both paths
    gained = _count(tile, "get_coins_from_reserve", "coins_to_get") + 2 * ("play_discarded_chapter_card" in kinds)
    start = 20 if player == "fellowship" else 0
    assert int(coins.got) == start - price + gained, (path, tile.id, coins.got)
    assert (int(ring.got), int(nazgul.got)) == ((6 + steps, 8 + steps) if player == "fellowship"
                                                 else (6, 8 + steps)), (path, tile.id)
    assert int(units_after.got) == placed - moved, (path, tile.id)
    assert grey.got == ("false" if "discard_enemy_grey_card" in kinds else "true"), (path, tile.id)
    assert token.got == ("true" if "reveal_alliance_tokens_and_choose_some" in kinds else "false"), (path, tile.id)
    assert pile.got == ("false" if "play_discarded_chapter_card" in kinds else "true"), (path, tile.id)
    for kind in kinds:
        rules = APPLIED[kind] if isinstance(APPLIED[kind], tuple) else (APPLIED[kind],)
        assert any(r in taken.rules for r in rules), (path, tile.id, kind, taken.rules)
    assert "dfm_tile_effect_not_modelled" not in taken.rules, (path, tile.id, taken.rules)
