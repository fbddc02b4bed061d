"""The layout in play of a Duel scenario, card by card: each card described (`colours:`, `cards:` entries: colour,
race symbols, coin cost, chaining symbols, skill cost) or a real card of the catalog described by its data (`card:`);
or the layouts of the chapter in play and of those after it dealt from a seed (`deal:`), as the base game's setup
deals them (the rows of each chapter's layout from facts/dfm/layouts.lp)."""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path
from typing import Any

import clingo

from pyengine.core.asp import MAX_NUMBER, Const, fact
from pyengine.core.errors import InputError, closest
from pyengine.core.fields import Fields
from pyengine.core.resources import facts_dir
from pyengine.games.dfm.real_cards import (
    COUNTED_EFFECTS,
    DATA_RACES,
    real_data,
    skill_gains,
    skill_set,
    skill_set_facts,
    stored,
)
from pyengine.games.dfm.terms import COLOURS, MAX_POSITION, RACES, SKILLS, State
from pyengine.games.dfm.values import numbers, position

# What a `cards:` entry may say of a card of the layout in play (assumption card_costs).
CARD_FIELDS = {"at", "colour", "symbols", "cost", "chain", "free_with", "card", "skills"}


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


def read_layout(state: State, fields: Fields) -> None:
    """The layout in play: `colours:`, each [ROW, CARD, COLOUR], and the `cards:` entries, what a card of it is
    (colour, race symbols, coin cost, the chaining symbol it gives and the one that makes it free), each card once, a
    `colours:` entry included; or the real card it is (`card:`), described by its data; or the whole layout dealt
    from a seed (`deal:`)."""
    for item, line, column, path in fields.items("colours"):
        if not (isinstance(item, list) and len(item) == 3 and item[2] in COLOURS):
            raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                             expected="[ROW, CARD, COLOUR] with COLOUR one of " + ", ".join(COLOURS))
        row, col = position(item[:2], fields, path, line, column)
        state.facts.append(fact("card_colour", state.chapter, row, col, Const(item[2])))
    if fields.has("deal"):
        _deal(state, fields)
        return
    seen = {(item[0], item[1]) for item, *_ in fields.items("colours")}  # checked by the colours: reader
    for item, line, column, path in fields.items("cards"):
        card = Fields(item, fields.file, path, CARD_FIELDS, line or 0, column or 0)
        at_line, at_column = card.data.key_at("at") if hasattr(card.data, "key_at") else (line, column)
        row, col = position(card.require("at", "a layout position [row, card]"), card, card.name("at"),
                            at_line, at_column)
        if (row, col) in seen:
            raise card.error("at", f"card {row}.{col} is described twice", expected="one entry per card")
        seen.add((row, col))
        _describe(state, (state.chapter, row, col), card)


def _deal(state: State, fields: Fields) -> None:
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
            _describe(state, (chapter, row, col), entry)
        state.facts.extend(fact("left_out", chapter, card_id) for card_id in left_out)


def _describe(state: State, where: tuple[int, int, int], card: Fields) -> None:
    """The facts of one described card of the layout (`cards:` entry, or a place of a deal)."""
    if card.has("card"):
        real = _real_card(state, card, where[0])
        state.facts.append(fact("card_id", *where, real["id"]))
        real_data(state, state.real_cards.lookup_id(real.pop("id")))
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
                       for s, n in numbers(card, "skills", SKILLS).items() if n)
    for key, predicate in (("chain", "card_chain"), ("free_with", "card_free_with")):
        if card.has(key):
            state.facts.append(fact(predicate, *where, card.text(key, required=True) or ""))


def _real_card(state: State, card: Fields, chapter: int) -> dict[str, Any]:
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
    with stored(found):
        races = [DATA_RACES.get(e["race_to_support"], e["race_to_support"]) for e in found.extra["effects"]
                 if e["type"] == "add_support_of_a_race"]
        counts = {predicate: sum(e[field] for e in found.extra["effects"] if e["type"] == effect)
                  for effect, field, predicate in COUNTED_EFFECTS}
        regions = sorted({r for e in found.extra["effects"] if e["type"] == "place_units_on_central_board"
                          for r in e["possible_regions_to_place"]})
        fixed, either = skill_gains(found)
        return {"id": found.id, "effects": sorted({e["type"] for e in found.extra["effects"]}), "counts": counts,
                "regions": regions,
                "gains": fixed, "either": either,
                "colour": found.extra["colour"], "symbols": races, "cost": found.extra["coins"],
                "chain": found.extra["chain"], "free_with": found.extra["free_with"],
                "skills": {s: n for s, n in found.extra["skills"].items()
                           if s != "optional" and isinstance(n, int) and n}}
