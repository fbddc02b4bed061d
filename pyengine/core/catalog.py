"""Card catalogs and card references.

A scenario names a card by catalog id (`1_313`), by collector's info (`1R313`), by exact title and subtitle
(`Boromir, Lord of Gondor`), by title alone when only one card has it, by an alias (a translated name), or
as an inline hypothetical card. Resolving a name is lookup, not rules: two cards with the same title are
never merged here; whether they are the same card is for the encodings to decide.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pyengine.core.errors import InputError, closest
from pyengine.core.text import title_key

# "Orc Pursuer (5C108)": a name followed by its collector's info, as decklists often write it.
_WITH_CODE = re.compile(r"^(?P<name>.*\S)\s*\((?P<code>[^()]+)\)$")


@dataclass(frozen=True)
class Card:
    id: str
    title: str
    subtitle: str | None = None
    unique: bool = False
    side: str | None = None
    type: str = ""
    culture: str | None = None
    collinfo: str | None = None
    split: int | None = None
    abilities: tuple[str, ...] = ()
    translation_of: str | None = None
    hypothetical: bool = False
    stored_title: str | None = None
    aliases: tuple[str, ...] = ()
    race: str | None = None
    # Game-specific parts (filters, card text, deck limits): compared, so that two cards that differ only here are
    # two cards to every cache keyed by a card; left out of the hash only because a dict cannot be hashed.
    extra: dict = field(default_factory=dict, hash=False)

    @property
    def full_name(self) -> str:
        return f"{self.title}, {self.subtitle}" if self.subtitle else self.title

    def references(self) -> Iterator[str]:
        """The references a misspelt name is compared with: id, full name, collector's info."""
        yield self.id
        yield self.full_name
        if self.collinfo:
            yield self.collinfo

    def names(self) -> set[str]:
        """Every name a scenario may use for this card."""
        return {self.full_name, self.title, *self.aliases}

    def label(self) -> str:
        dot = "\u2022" if self.unique else ""
        info = self.collinfo or self.id
        return f"{dot}{self.full_name} ({info})"

    def told_apart(self) -> str:
        """The card in words that tell it from a card of the same name: name, type and, where the data has it, the
        pack its card pool names (else the collector's info, which holds the set), and an unofficial printing or a
        revision of another card (an errata the pool prints beside its card) as such."""
        pack = self.extra.get("pack_code")
        where = f", pack {pack}" if pack else f", {self.collinfo}" if self.collinfo else ""
        variant = self.extra.get("variant")
        kind = (f", {str(variant).lower()} of {self.extra['parent']}" if variant and self.extra.get("parent")
                else ", unofficial" if self.extra.get("official") is False else "")
        return f"{self.full_name}, {self.type}{where}{kind}"

    def record(self) -> dict[str, Any]:
        """The card as an engine team needs it to find its own (a conformance pack's record): id, titles,
        uniqueness with the data's counts (an "at most N" count, a deck limit, a hero's copies of each card), type,
        side, collector's info or code."""
        found: dict[str, Any] = {"card": self.id, "title": self.title}
        for name in ("subtitle", "stored_title", "type", "side", "collinfo"):
            value = getattr(self, name)
            if value:
                found[name] = value
        found["unique"] = self.unique
        found.update({name: self.extra[name] for name in ("unique_limit", "deck_limit", "copies_each")
                      if name in self.extra})
        return found


@dataclass(frozen=True)
class Printing:
    """A name that several printings of one card share, resolved to one of them: the name as written, the card
    taken (the official printing first, then the first by id) and the others, which agree with it on everything the
    rules read."""

    name: str
    card: Card
    others: tuple[Card, ...]

    def words(self) -> str:
        """The choice in words, as an answer names it."""
        others = ", ".join(f"{c.id} ({c.told_apart()})" for c in self.others)
        return (f"{self.name!r} is taken as {self.card.id} ({self.card.told_apart()}); {others} "
                f"{'agrees' if len(self.others) == 1 else 'agree'} with it on everything the rules read")


def _preferred(card: Card) -> tuple[bool, tuple[tuple[int, str], ...]]:
    """The order printings of one card are taken in: official first, then by id in natural order."""
    return not card.extra.get("official", True), _natural(card.id)


def _differences(view: frozenset[str], other: frozenset[str], limit: int = 4) -> str:
    """What one printing's rules view has that another's lacks, and the reverse, by predicate, in words."""
    def by_predicate(facts: frozenset[str]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = defaultdict(list)
        for text in sorted(facts):
            name, _, arguments = text.rstrip(".").partition("(")
            found[name].append(re.sub(r'"_/([^"]*)"', r"\1", arguments.rstrip(")").removeprefix("_").lstrip(","))
                               or "yes")
        return found

    more, fewer = by_predicate(other - view), by_predicate(view - other)
    parts = [f"{name} {', '.join(more.get(name, [])) or 'none'} (not {', '.join(fewer.get(name, [])) or 'none'})"
             for name in sorted(set(more) | set(fewer))]
    return "; ".join(parts[:limit]) + (f"; and {len(parts) - limit} more" if len(parts) > limit else "")


@dataclass
class CardSearch:
    """A completion search: the best cards, how many matched in all, and, where none did, the closest names."""

    cards: list[Card]
    total: int
    suggestions: list[str]


def _match_rank(card: Card, key: str, words: list[str], code: str) -> int | None:
    """How well a card matches a query (0 exact, 1 prefix, 2 contained, 3 every word in any order), or None."""
    names = [title_key(n) for n in (card.full_name, card.title, *card.aliases)]
    codes = [card.id.casefold(), (card.collinfo or "").casefold()]
    if key in names or code in codes:
        return 0
    if any(n.startswith(key) for n in names) or any(c.startswith(code) for c in codes if c):
        return 1
    if any(key in n for n in names):
        return 2
    name_words = set(re.findall(r"\w+", " ".join(names)))
    if words and all(any(w.startswith(word) for w in name_words) for word in words):
        return 3
    return None


def _natural(text: str) -> tuple[tuple[int, str], ...]:
    """An id in natural order (1_313 after 1_72, 10_1 after 9_99)."""
    return tuple((int(part), "") if part.isdigit() else (0, part) for part in re.findall(r"\d+|\D+", text))


class Catalog:
    """Cards by id, with lookups for every way a scenario may name one. Subclasses say where cards live."""

    # How a card of this catalog is named (in its game's own words, set by the game package), and what the
    # catalog holds when a card is not in it (the built-in catalogs: how to import the real pool).
    reference = "a card id, a code or a title"
    holds: Callable[[], str] | None = None
    # What the rules read of a card of this catalog, its id left out (its game's fact writer: rules_view): printings
    # equal in it are one card to every answer, so a name they share resolves to one of them. None: never.
    rules_view: Callable[[Card, Catalog], frozenset[str]] | None = None

    def unknown_card_expected(self) -> str:
        """What an unknown card's error says was expected."""
        return self.reference + " in the catalog" + (f"; {self.holds()}" if self.holds else "")

    def lookup_id(self, card_id: str) -> Card | None:
        raise NotImplementedError

    def lookup_code(self, code: str) -> list[Card]:
        raise NotImplementedError

    def lookup_name(self, key: str) -> list[Card]:
        raise NotImplementedError

    def suggestion_names(self) -> Iterable[str]:
        raise NotImplementedError

    def all_cards(self) -> Iterable[Card]:
        """Every card, in the order of their ids."""
        raise NotImplementedError

    def candidates(self, key: str, code: str) -> Iterable[Card]:
        """Cards whose names (as title keys) contain `key`, or whose id or collector's info starts with `code`."""
        raise NotImplementedError

    def search(self, query: str, limit: int = 20, types: set[str] | None = None) -> CardSearch:
        """Cards for completion, best match first: an exact title, full name, alias (a translated name), id or
        collector's info; then names that start with the query; then names holding it; then names holding each of
        its words, in any order; official cards before unofficial ones, then by set and number. With no match, the
        closest names (a misspelling) as suggestions. With `types`, only cards of those types."""
        key, code = title_key(query), query.strip().casefold()
        if not key:
            return CardSearch([], 0, [])
        words = [w for w in re.findall(r"\w+", key) if w]
        found: dict[str, Card] = {c.id: c for c in self.candidates(key, code)}
        if len(words) > 1:
            found.update((c.id, c) for c in self.candidates(max(words, key=len), code))
        ranked = sorted(((rank, card) for card in found.values() if types is None or card.type in types
                         if (rank := _match_rank(card, key, words, code)) is not None),
                        key=lambda pair: (pair[0], not pair[1].extra.get("official", True), _natural(pair[1].id)))
        suggestions = [] if ranked else difflib.get_close_matches(query.strip(), list(dict.fromkeys(
            self.suggestion_names())), n=3, cutoff=0.6)
        return CardSearch([card for _, card in ranked[:limit]], len(ranked), suggestions)

    def __contains__(self, card_id: str) -> bool:
        return self.lookup_id(card_id) is not None

    def get(self, card_id: str) -> Card:
        card = self.lookup_id(card_id)
        if card is None:
            raise KeyError(card_id)
        return card

    def resolve(self, ref: str, file: str | None = None, line: int | None = None, column: int | None = None,
                field_name: str | None = None, accept: Callable[[Card], bool] | None = None,
                suggest: bool = True, chosen: list[Printing] | None = None) -> Card:
        """The one card a reference names, or an InputError with suggestions (unless `suggest` is false: finding
        them scans the catalog) or the candidates. Where the field only takes some cards (`accept`, e.g.
        heroes), a name shared with other kinds of card narrows to them. A name several printings share that agree
        on everything the rules read (rules_view) is the official printing, the choice added to `chosen`."""
        card = self.lookup_id(ref)
        if card is not None:
            return card
        with_code = _WITH_CODE.match(ref)
        if with_code:
            named = [c for c in self.lookup_code(with_code["code"])
                     if title_key(with_code["name"]) in {title_key(n) for n in c.names()}]
            if len({c.id for c in named}) == 1:
                return named[0]
        key = title_key(ref)
        for candidates in (self.lookup_code(ref), [c for c in self.lookup_name(key) if c.full_name == ref],
                           self.lookup_name(key)):
            unique_ids = {c.id: c for c in candidates}
            if accept is not None and len(unique_ids) > 1:
                unique_ids = {i: c for i, c in unique_ids.items() if accept(c)} or unique_ids
            if len(unique_ids) == 1:
                return next(iter(unique_ids.values()))
            if len(unique_ids) > 1:
                return self._one_printing(ref, sorted(unique_ids.values(), key=_preferred), chosen,
                                          InputError("", file=file, line=line, column=column, field=field_name))
        raise InputError(f"unknown card {ref!r}", file=file, line=line, column=column, field=field_name,
                         expected=self.unknown_card_expected(),
                         suggestion=closest(ref, self.suggestion_names()) if suggest else None)

    def _one_printing(self, ref: str, cards: list[Card], chosen: list[Printing] | None, where: InputError) -> Card:
        """The card several printings of one name stand for (the first, preferred, where all agree on what the
        rules read), else an error at `where` listing them with what sets each apart from the first."""
        views = [self.rules_view(c, self) for c in cards] if self.rules_view is not None else None
        if views is not None and all(v == views[0] for v in views):
            if chosen is not None:
                chosen.append(Printing(ref, cards[0], tuple(cards[1:])))
            return cards[0]
        shown = cards[:8]
        names = ", ".join(f"{c.id} ({c.told_apart()}"
                          + (f"; {_differences(views[0], views[i])}" if views and views[i] != views[0] else "")
                          + ")" for i, c in enumerate(shown))
        more = f" and {len(cards) - 8} more" if len(cards) > 8 else ""
        why = ("they differ in what the rules read, each shown beside the first" if views is not None
               else "the catalog cannot tell whether they play alike")
        raise InputError(f"card {ref!r} names {len(cards)} cards: {names}{more}; {why}", file=where.file,
                         line=where.line, column=where.column, field=where.field,
                         expected=f"one of their ids: {', '.join(c.id for c in shown)}")


class MemoryCatalog(Catalog):
    """A catalog held in memory: the hand-written built-in cards, or a scenario's hypothetical ones."""

    def __init__(self, cards: Iterable[Card] = ()):
        self.cards: dict[str, Card] = {}
        self._by_composed_id: dict[str, Card] = {}
        self._by_code: dict[str, list[Card]] = defaultdict(list)
        self._by_name: dict[str, list[Card]] = defaultdict(list)
        for card in cards:
            self.add(card)

    def add(self, card: Card) -> None:
        self.cards[card.id] = card
        self._by_composed_id[unicodedata.normalize("NFC", card.id)] = card
        if card.collinfo:
            self._by_code[card.collinfo.casefold()].append(card)
        for name in {title_key(n) for n in card.names()}:
            self._by_name[name].append(card)

    def lookup_id(self, card_id: str) -> Card | None:
        """The card of this id, written composed or decomposed (`Andu\u0301ril` is the id `Andúril`): a table's
        own card named so is that card, never a card of the pool found by its title."""
        found = self.cards.get(card_id)
        if found is None and isinstance(card_id, str):
            found = self._by_composed_id.get(unicodedata.normalize("NFC", card_id))
        return found

    def all_cards(self) -> Iterable[Card]:
        return [self.cards[k] for k in sorted(self.cards)]

    def lookup_code(self, code: str) -> list[Card]:
        return self._by_code.get(code.casefold(), [])

    def lookup_name(self, key: str) -> list[Card]:
        return self._by_name.get(key, [])

    def suggestion_names(self) -> Iterable[str]:
        for card in self.cards.values():
            yield from card.references()

    def candidates(self, key: str, code: str) -> Iterable[Card]:
        for card in self.cards.values():
            if (card.id.casefold().startswith(code) or (card.collinfo or "").casefold().startswith(code)
                    or any(key in title_key(n) for n in card.names())):
                yield card


class Overlay(Catalog):
    """A catalog whose cards come first from `top`, then from `base`."""

    def __init__(self, base: Catalog, top: MemoryCatalog):
        self.base, self.top = base, top
        self.reference, self.holds, self.rules_view = base.reference, base.holds, base.rules_view

    def lookup_id(self, card_id: str) -> Card | None:
        return self.top.lookup_id(card_id) or self.base.lookup_id(card_id)

    def lookup_code(self, code: str) -> list[Card]:
        return self.top.lookup_code(code) or self.base.lookup_code(code)

    def lookup_name(self, key: str) -> list[Card]:
        return self.top.lookup_name(key) or self.base.lookup_name(key)

    def suggestion_names(self) -> Iterable[str]:
        yield from self.top.suggestion_names()
        yield from self.base.suggestion_names()

    def candidates(self, key: str, code: str) -> Iterable[Card]:
        yield from self.top.candidates(key, code)
        yield from self.base.candidates(key, code)
