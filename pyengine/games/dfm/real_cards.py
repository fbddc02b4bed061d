"""The base game's real cards a Duel scenario names from its catalog (`catalog: vermihunter`, imported into the card
store): the catalog opened, each real card's data as facts, the cards the state places (the discard pile card by card,
the grey cards in a player's area) and the real Alliance tokens each player holds, and the facts of the catalog's
Landmark tiles and Alliance tokens."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from pyengine.core.asp import Const, Fact, Term, fact, term
from pyengine.core.errors import InputError
from pyengine.core.fields import Fields
from pyengine.games.dfm.terms import FACTIONS, SKILLS, State

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
# The family each counted effect's fact names it by, as card_count/5 and real_card_count/3 do
# (rules/dfm/card_effects.lp).
CARD_FAMILIES = {"card_coins": "coins", "card_enemy_coins": "enemy_coins", "card_ring_moves": "ring",
                 "card_units": "units", "card_enemy_units": "enemy_units", "card_moves": "moves"}
# The effects of a real Landmark tile the encodings apply, with the field that counts and the family tile_count/3
# names them by (rules/dfm/card_effects.lp); a tile's units go to its own region.
TILE_FAMILIES = {"get_coins_from_reserve": ("coins_to_get", "coins"), "move_on_the_ring_quest_track": ("move_count",
                 "ring"), "place_units_on_central_board": ("units_to_place", "units"),
                 "move_units_on_central_board": ("units_to_move", "moves")}


def open_catalog(fields: Fields) -> Any:
    """The store's real base-game cards the scenario names with `catalog:`, or None."""
    if not fields.has("catalog"):
        return None
    from pyengine.core.store import not_imported, open_source, sources

    name = fields.choice("catalog", REAL_CARD_SOURCES) or ""
    if sources().get(name) != "dfm":
        missing = not_imported(name)
        raise fields.error("catalog", missing.message, expected=missing.expected)
    return open_source(name)


@contextmanager
def stored(found: Any) -> Iterator[None]:
    """Reading a real card's data as the store keeps it: a record lacking a field the facts read (a store damaged
    since its import, which checked every field) is an error naming the card and the store, never a count of 0 or
    an internal error."""
    try:
        yield
    except (KeyError, TypeError) as exc:
        raise InputError(f"card {found.id!r} of the catalog store is damaged: its data lacks {exc}", field=found.id,
                         expected="a store made by `pyengine import vermihunter PATH`: import it again") from None


def real_data(state: State, found: Any) -> None:
    """A real card's colour, race symbols, effect types, counted effects, regions and chaining symbol by its id
    (real_card_colour/2, real_card_symbol/3, real_card_effect/2, real_card_count/3, real_card_region/2,
    real_card_chain/2), once a scenario: what a card played from the discard pile does, by any path."""
    if found.id in state.described:
        return
    state.described.add(found.id)
    races: dict[str, int] = {}
    with stored(found):
        for effect in found.extra["effects"]:
            if effect["type"] == "add_support_of_a_race":
                race = DATA_RACES.get(effect["race_to_support"], effect["race_to_support"])
                races[race] = races.get(race, 0) + 1
        fixed, either = skill_gains(found)
        state.facts += [fact("real_card_colour", found.id, Const(found.extra["colour"])),
                        *(fact("real_card_symbol", found.id, Const(r), n) for r, n in races.items()),
                        *(fact("real_card_effect", found.id, Const(e))
                          for e in sorted({e["type"] for e in found.extra["effects"]})),
                        *(fact("real_card_skill", found.id, Const(skill), n) for skill, n in fixed.items())]
        for kind, field_name, predicate in COUNTED_EFFECTS:
            count = sum(e[field_name] for e in found.extra["effects"] if e["type"] == kind)
            if count:
                state.facts.append(fact("real_card_count", found.id, Const(CARD_FAMILIES[predicate]), count))
        state.facts += [fact("real_card_region", found.id, r) for r in sorted(
            {r for e in found.extra["effects"] if e["type"] == "place_units_on_central_board"
             for r in e["possible_regions_to_place"]})]
        if found.extra.get("chain"):
            state.facts.append(fact("real_card_chain", found.id, found.extra["chain"]))
    for skills in either:
        state.facts += [fact("real_card_either", found.id, skill_set(skills)), *skill_set_facts(skills)]


def _place_card(state: State, item: Any, fields: Fields, where: tuple[int | None, int | None, str],
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
    real_data(state, found)
    return found


def read_grey_cards(state: State, fields: Fields) -> dict[str, list[Any]]:
    """`grey_cards: {PLAYER: [C.N, ...]}`: the real grey cards in each player's area (grey_card/2), by player."""
    held: dict[str, list[Any]] = {}
    given = fields.sub("grey_cards", set(FACTIONS))
    for player in FACTIONS:
        for item, line, column, path in given.items(player):
            found = _place_card(state, item, fields, (line, column, path), "grey")
            state.facts.append(fact("init", term("grey_card", Const(player), found.id)))
            held.setdefault(player, []).append(found)
    return held


def read_pile(state: State, fields: Fields) -> None:
    """`pile:`, the discard pile card by card, each a real card of the catalog (C.N): its cards lie in it
    (in_pile/1), its count and the counts of its colours follow; `discard_pile:` and `discards:` count a pile
    that is not given card by card, so neither goes with it."""
    for key in ("discard_pile", "discards"):
        if fields.has(key):
            raise fields.error(key, f"{key}: beside pile:", expected="the pile card by card (pile:) or counted "
                               "(discard_pile:, discards:), not both")
    colours: dict[str, int] = {}
    for item, line, column, path in fields.items("pile"):
        found = _place_card(state, item, fields, (line, column, path), None)
        state.facts.append(fact("init", term("in_pile", found.id)))
        colours[found.extra["colour"]] = colours.get(found.extra["colour"], 0) + 1
    state.facts += [fact("init_num", Const("discard_pile"), sum(colours.values())),
                    *(fact("init_num", term("discarded", Const(k)), n) for k, n in colours.items())]


def read_tokens_held(state: State, fields: Fields) -> None:
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


def real_tiles(pool: list[Any]) -> list[Fact]:
    """The Landmark tiles among a catalog's real cards: each one's skill cost, the types of its effects and the
    counts of those the encodings apply (rules/dfm/card_skills.lp, card_effects.lp), by the tile's name. A tile
    whose units go elsewhere than its own region is not read as such: its placement is left out and named."""
    facts: list[Fact] = []
    for tile in (c for c in pool if c.type == "landmark_tile"):
        with stored(tile):
            facts += _tile_facts(tile)
    return facts


def _tile_facts(tile: Any) -> list[Fact]:
    """One real Landmark tile's facts (real_tiles)."""
    facts = [fact("tile_skill_cost", tile.id, Const(s), n) for s, n in tile.extra["skills"].items()
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
    facts: list[Fact] = []
    for token in (c for c in pool if c.type == "alliance_token"):
        with stored(token):
            facts += _token_facts(token)
    return facts


def _token_facts(token: Any) -> list[Fact]:
    """One real Alliance token's facts (real_tokens)."""
    facts: list[Fact] = []
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
            facts += token_picks(token.id, extra["effect"])
    return facts


def token_picks(token: str, effect: dict[str, Any]) -> list[Fact]:
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


def skill_gains(card: Any) -> tuple[dict[str, int], list[list[str]]]:
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
