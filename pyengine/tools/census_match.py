"""How the census (pyengine.tools.census) matches an imported pool's real cards with the edge-case search's
abstract ones: each card's properties as the encodings derive them (card_props), the kinds of card a pool has,
the slots of an abstract state and the real cards that can fill them together (assignments), the real table of
one assignment, and the form two tables share when they differ only in texts the encodings never mention.
Matching is lookup, not rules: the verdicts come from clingo alone."""

from __future__ import annotations

import copy
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import clingo
from clingo import ast

from pyengine.core.asp import Const, Fact, Term, fact, term
from pyengine.core.catalog import Card, Catalog
from pyengine.core.engine import program
from pyengine.core.resources import facts_dir, rules_dir
from pyengine.core.scenario import Scenario

# At most this many real tables are tried for one abstract state (the pools' largest single-card matches are
# about 1,000 cards; a pair of unrelated titles would be a million).
MAX_TABLES = 4000
# A quoted text of the encodings' program text.
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


@cache
def literal_texts(game: str) -> frozenset[str]:
    """Every text the game's encodings and hand-written facts mention: a table holding one of these is not
    renamed when tables are grouped by form (the encodings may treat that text apart)."""
    files = [*Path(rules_dir(), game).glob("*.lp"), *Path(rules_dir(), "common").glob("*.lp"),
             *Path(facts_dir(), game).glob("*.lp")]
    found: set[str] = set()
    for path in files:
        for match in _STRING.finditer(path.read_text(encoding="utf-8")):
            found.add(match.group(1).replace('\\"', '"').replace("\\\\", "\\"))
    return frozenset(found)


# -- matching abstract cards with real ones ------------------------------------------------------------------

# A fact of one card as a pattern: its predicate and its arguments, each ("self",) for the card's own id,
# ("text", s) for a text the encodings never mention (which a real card may replace by its own), ("lit", s) for
# a text they mention, ("const", c) for a number or a name, and ("fn", name, args) for a function term.
Arg = tuple[Any, ...]
Prop = tuple[str, tuple[Arg, ...]]


def _arg(symbol: clingo.Symbol, card_id: str, literal: frozenset[str]) -> Arg:
    if symbol.type == clingo.SymbolType.String:
        if symbol.string == card_id:
            return ("self",)
        return ("lit", symbol.string) if symbol.string in literal else ("text", symbol.string)
    if symbol.type == clingo.SymbolType.Function and symbol.arguments:
        return ("fn", symbol.name, tuple(_arg(a, card_id, literal) for a in symbol.arguments))
    return ("const", str(symbol))


def card_props(game: Any, cards: list[Card], catalog: Catalog) -> dict[str, list[Prop]]:
    """The facts the game gives each card, as patterns (a card's own facts only: those naming its id), with the
    facts the encodings derive from them in place of their inputs (derived_facts)."""
    literal = literal_texts(game.name)
    replaced = set(game.census.derived.values())
    derived = derived_facts(game, cards, catalog)
    props: dict[str, list[Prop]] = {}
    for card in cards:
        found = props[card.id] = []
        for line in game.card_facts(card, catalog):
            atom = clingo.parse_term(line[:-1])
            args = tuple(_arg(a, card.id, literal) for a in atom.arguments)
            if ("self",) in args and atom.name not in replaced:
                found.append((atom.name, args))
        found += [(atom.name, tuple(_arg(a, card.id, literal) for a in atom.arguments))
                  for atom in derived.get(card.id, [])]
        # A card's id is a text too, so that a card naming another (a hero form) binds that other card.
        found += [("card_id", (("self",), ("text", card.id)))]
        found += [(link, (("self",), ("text", other))) for link, other in game.census_links(card)]
    props[""] = [(atom.name, tuple(_arg(a, "", literal) for a in atom.arguments)) for atom in derived.get("", [])]
    return props


def derived_facts(game: Any, cards: list[Card], catalog: Catalog) -> dict[str, list[clingo.Symbol]]:
    """What the encodings derive of each card from its facts alone, under the default readings (the predicates
    of the game's census.derived: its abilities, from the catalog or from what the document says of its
    collector's info; whether it is unique, where the rules make a card unique whatever its symbol), and under
    the key "" the pairs of texts they hold for one person (the game's census.aliases)."""
    control = clingo.Control(["--warn=none"])
    with ast.ProgramBuilder(control) as builder:
        for statement in program(game.name, frozenset(game.census.derived_kinds)):
            builder.add(statement)
    control.add("base", [], "\n".join(line for card in cards for line in game.card_facts(card, catalog)))
    control.ground([("base", [])])
    found: dict[str, list[clingo.Symbol]] = {}
    for atom in control.symbolic_atoms:
        symbol = atom.symbol
        if not atom.is_fact or symbol.type != clingo.SymbolType.Function:
            continue
        if symbol.name in game.census.derived and symbol.arguments \
                and symbol.arguments[0].type == clingo.SymbolType.String:
            found.setdefault(symbol.arguments[0].string, []).append(symbol)
        elif symbol.name in game.census.aliases:
            found.setdefault("", []).append(symbol)
    return found


def _bind(abstract: Arg, real: Arg, binding: dict[str, str]) -> dict[str, str] | None:
    """The binding extended so that the real argument is the abstract one's image, or None."""
    if abstract[0] == "text":
        if real[0] not in ("text", "lit"):
            return None
        bound = binding.get(abstract[1])
        if bound is None:
            return {**binding, abstract[1]: real[1]}
        return binding if bound == real[1] else None
    if abstract[0] == "fn":
        if real[0] != "fn" or real[1] != abstract[1] or len(real[2]) != len(abstract[2]):
            return None
        for a, r in zip(abstract[2], real[2], strict=True):
            found = _bind(a, r, binding)
            if found is None:
                return None
            binding = found
        return binding
    return binding if abstract == real else None


def _match_props(wanted: list[Prop], real: list[Prop], binding: dict[str, str]) -> Iterator[dict[str, str]]:
    """Every binding under which each wanted pattern is one of the real card's facts."""
    if not wanted:
        yield binding
        return
    (name, args), rest = wanted[0], wanted[1:]
    for real_name, real_args in real:
        if real_name != name or len(real_args) != len(args):
            continue
        extended: dict[str, str] | None = binding
        for a, r in zip(args, real_args, strict=True):
            extended = _bind(a, r, extended) if extended is not None else None
        if extended is not None:
            yield from _match_props(rest, real, extended)


# How many pools a process keeps (Pool.read), the oldest dropped first: a pool of 4,000 cards holds 30 to 60 MB.
KEPT_POOLS = 2
# The pools read in this process (Pool.read), by search view and digest of the catalog's cards.
_POOLS: dict[tuple[Any, str], Pool] = {}


@dataclass
class Pool:
    """A catalog's cards with their patterns, indexed by the texts they carry."""

    catalog: Catalog
    cards: list[Card]
    props: dict[str, list[Prop]]
    by_text: dict[tuple[str, int, str], list[Card]]
    _lines: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def read(cls, game: Any, catalog: Catalog) -> Pool:
        """The catalog's cards with their patterns, worked out once per process for a game's search view and the
        catalog's cards as they are (a digest of every card, every field: a re-import is read afresh)."""
        cards = sorted(catalog.all_cards(), key=lambda c: (not c.extra.get("official", True), c.id))
        key = (game, hashlib.sha256(repr(cards).encode()).hexdigest())
        if key not in _POOLS:
            props, by_text = card_props(game, cards, catalog), {}
            for card in cards:
                for name, args in props[card.id]:
                    for position, arg in enumerate(args):
                        if arg[0] in ("text", "lit"):
                            by_text.setdefault((name, position, arg[1]), []).append(card)
            while len(_POOLS) >= KEPT_POOLS:
                del _POOLS[next(iter(_POOLS))]
            _POOLS[key] = cls(catalog, cards, props, by_text)
        # The catalog given, not the one first read: its connection is this process's own.
        return replace(_POOLS[key], catalog=catalog)

    def lines(self, game: Any, card: Card) -> tuple[str, ...]:
        """The facts a card brings to a table: its own and those of the cards the game brings along with it."""
        found = self._lines.get(card.id)
        if found is None:
            found = self._lines[card.id] = tuple(line for c in [card, *game.census_related(card, self.catalog)]
                                                 for line in game.card_facts(c, self.catalog))
        return found

    def kinds(self, game: Any) -> list[Fact]:
        """The kinds of card the pool has and the relations between its cards, for the search to draw only cards
        like them (the pool_* inputs of rules/search/<game>.lp)."""
        found: set[Fact] = set()
        # A text -> (its predicate, the card, its kind) of each card holding it.
        carriers: dict[str, list[tuple[str, str, Term]]] = {}
        spellings: dict[tuple[str, str], list[tuple[str, Term]]] = {}  # (text, its looser key) -> spellings
        for card in self.cards:
            kind = self._kind(game, card)
            found.add(fact("pool_type", *kind.args))
            found.update(fact("pool_link", Const(link)) for link, _ in game.census_links(card))
            texts = {name: args[1] for name, args in self.props[card.id]
                     if len(args) == 2 and args[1][0] in ("text", "lit")}
            for name, (how, text) in texts.items():
                if how == "lit":
                    found.add(fact("pool_text", Const(name), text, kind))
                if name in game.census.shared:
                    carriers.setdefault(text, []).append((name, card.id, kind))
            found.update(fact("pool_differs", Const(a), Const(b), kind) for a, b in game.census.differing
                         if a in texts and b in texts and texts[a] != texts[b])
            found.update(fact("pool_has", Const(name), kind) for name in game.census.present if name in texts)
            found.update(fact("pool_count", Const(name), kind, int(args[1][1])) for name, args in self.props[card.id]
                         if name in game.census.counted and len(args) == 2 and args[1][0] == "const"
                         and args[1][1].isdigit())
            for plain, loose in game.census.respelt:
                if plain in texts and loose in texts:
                    spellings.setdefault((plain, texts[loose][1]), []).append((texts[plain][1], kind))
            for name, args in self.props[card.id]:
                if name == "ability" and args[1][0] in ("const", "fn"):
                    found.add(fact("pool_ability", Const(card.type), Const(args[1][1])))
        for (plain, _), group in spellings.items():
            found.update(fact("pool_respelt", Const(plain), one_kind, other_kind)
                         for one, one_kind in group for other, other_kind in group if one != other)
        for card in self.cards:
            kind = self._kind(game, card)
            for name, args in self.props[card.id]:
                # Two cards sharing a text (the same card twice does not count), and an ability naming a card.
                if name in game.census.shared and len(args) == 2 and args[1][0] in ("text", "lit"):
                    found.update(fact("pool_shares", Const(name), kind, Const(other), other_kind)
                                 for other, holder, other_kind in carriers[args[1][1]] if holder != card.id)
                if name == "ability" and args[1][0] == "fn" and args[1][2] and args[1][2][0][0] in ("text", "lit"):
                    found.update(fact("pool_names", Const(args[1][1]), kind, Const(other), other_kind)
                                 for other, _, other_kind in carriers.get(args[1][2][0][1], []))
        for _, (one, two) in self.props.get("", []):
            for first, second in ((one, two), (two, one)):
                found.update(fact("pool_alias", Const(name), kind, Const(other), other_kind)
                             for name, _, kind in carriers.get(first[1], [])
                             for other, _, other_kind in carriers.get(second[1], []))
        return sorted(found)

    def _kind(self, game: Any, card: Card) -> Term:
        unique = any(name in game.census.exact for name, _ in self.props[card.id])
        return term("k", Const(card.type), Const("unique" if unique else "plain"))


@dataclass
class Slot:
    """An abstract card of a state: its type and the patterns a real card must match."""

    type: str
    wanted: list[Prop]
    exact: list[Prop]


def slots_of(game: Any, scenario: Scenario, ids: list[str]) -> list[Slot]:
    slots = []
    cards = [scenario.state.catalog.get(card_id) for card_id in ids]
    all_props = card_props(game, cards, scenario.state.catalog)
    for card in cards:
        props = all_props[card.id]
        wanted = [p for p in props if p[0] not in game.census.free]
        slots.append(Slot(card.type, wanted, [p for p in wanted if p[0] in game.census.exact]))
    return slots


def _components(slots: list[Slot]) -> list[list[int]]:
    """The slots in groups that share a text (one title, an alter ego's name): a group's cards are chosen
    together, unrelated groups one at a time."""
    groups: list[tuple[set[str], list[int]]] = []
    for index, slot in enumerate(slots):
        texts = {t for _, args in slot.wanted for t in _texts(args)}
        joined = [g for g in groups if g[0] & texts]
        merged = (texts.union(*(g[0] for g in joined)), sorted([index, *(i for g in joined for i in g[1])]))
        groups = [g for g in groups if g not in joined] + [merged]
    return sorted((members for _, members in groups), key=lambda m: m[0])


def _texts(args: tuple[Arg, ...]) -> Iterator[str]:
    for arg in args:
        if arg[0] == "text":
            yield arg[1]
        elif arg[0] == "fn":
            yield from _texts(arg[2])


def _choices(game: Any, pool: Pool, slots: list[Slot], limit: int) -> tuple[list[list[Card]], bool]:
    """Every choice of real cards for `slots` (one related group), each matching every slot's patterns under
    one binding of the abstract texts: at most `limit`, and whether the limit cut the list."""
    families = game.census.type_families
    found: list[list[Card]] = []

    def candidates(slot: Slot, binding: dict[str, str]) -> list[Card]:
        best: list[Card] | None = None
        for name, args in slot.wanted:
            for position, arg in enumerate(args):
                value = arg[1] if arg[0] == "lit" else binding.get(arg[1]) if arg[0] == "text" else None
                if value is not None:
                    cards = pool.by_text.get((name, position, value), [])
                    best = cards if best is None or len(cards) < len(best) else best
        return pool.cards if best is None else best

    def extend(index: int, chosen: list[Card], binding: dict[str, str]) -> None:
        if len(found) > limit:
            return
        if index == len(slots):
            found.append(list(chosen))
            return
        slot = slots[index]
        family = families.get(slot.type, slot.type)
        for card in candidates(slot, binding):
            if card in chosen or families.get(card.type, card.type) != family:
                continue
            real = pool.props[card.id]
            if sum(1 for p in real if p[0] in game.census.exact) != len(slot.exact):
                continue
            for extended in _match_props(slot.wanted, real, binding):
                chosen.append(card)
                extend(index + 1, chosen, extended)
                chosen.pop()
                break

    extend(0, [], {})
    return found[:limit], len(found) > limit


# A real table's cards, slot by slot, with the slots of the related group it varies.
Choice = tuple[list[Card], list[int]]


def assignments(game: Any, pool: Pool, slots: list[Slot], limit: int) -> tuple[list[Choice], bool]:
    """Real cards for the abstract ones: every choice for each related group of slots, with the other groups
    at their first choice (so each real card that fits is tried, not every combination of unrelated ones), each
    with the slots of the group it varies; at most `limit` in all, and whether the limit cut the list."""
    groups = _components(slots)
    choices, capped = [], False
    for members in groups:
        found, cut = _choices(game, pool, [slots[i] for i in members], limit)
        if not found:
            return [], False
        choices.append(found)
        capped |= cut
    first = [found[0] for found in choices]
    tables: list[Choice] = []
    for number, (members, found) in enumerate(zip(groups, choices, strict=True)):
        for choice in found:
            picked = [*first[:number], choice, *first[number + 1:]]
            cards: list[Card | None] = [None] * len(slots)
            for group, chosen in zip(groups, picked, strict=True):
                for index, card in zip(group, chosen, strict=True):
                    cards[index] = card
            if len({c.id for c in cards if c}) == len(slots):
                tables.append(([c for c in cards if c], members))
    return tables[:limit], capped or len(tables) > limit


# -- real tables -------------------------------------------------------------------------------------------

def _replace(value: Any, ids: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: _replace(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [_replace(v, ids) for v in value]
    return ids.get(value, value) if isinstance(value, str) else value


def real_table(abstract: dict[str, Any], cards: list[Card], source: str, title: str) -> dict[str, Any]:
    """The abstract state with its cards replaced by real ones of the catalog `source`."""
    ids = {record["id"]: card.id for record, card in zip(abstract["cards"], cards, strict=True)}
    table = {"game": abstract["game"], "title": title, "catalog": source}
    table |= {k: _replace(copy.deepcopy(v), ids) for k, v in abstract.items()
              if k not in ("game", "title", "cards", "questions")}
    table["questions"] = [{k: v for k, v in _replace(q, ids).items() if k not in ("expect", "rules")}
                          for q in abstract["questions"]]
    return table


def form(lines: list[str], literal: frozenset[str]) -> tuple[str, ...]:
    """Facts with every text the encodings never mention renamed by first appearance: tables whose facts have one
    form are answered alike."""
    names: dict[str, str] = {}

    def rename(match: re.Match[str]) -> str:
        text = match.group(1)
        if text.replace('\\"', '"').replace("\\\\", "\\") in literal:
            return match.group(0)
        return names.setdefault(text, f"#{len(names)}")

    return tuple(sorted(_STRING.sub(rename, line) for line in lines))


