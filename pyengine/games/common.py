"""Pieces the card games share: how a question's parameters and a card read in an explanation."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import clingo

from pyengine.core.catalog import Card, Catalog, MemoryCatalog, Overlay
from pyengine.core.errors import Collected, InputError, Unread
from pyengine.core.fields import Fields
from pyengine.core.limits import limits
from pyengine.core.store import open_catalog
from pyengine.core.yamlio import Mapping, load_file


def read_builtin(path: Path, parse: Callable[[Fields], Card], fields: set[str], reference: str,
                 source: str, source_folder: str) -> Catalog:
    """A game's hand-written catalog file, every record read like a scenario's hypothetical card; `reference` is how
    the game names a card, `source` the real pool a user imports for the cards it does not hold (from a folder like
    `source_folder`)."""
    data = load_file(path)
    catalog = MemoryCatalog()
    for index, item in enumerate(data):
        line, column = data.item_at(index)
        catalog.add(parse(Fields(item, str(path), f"[{index}]", fields, line, column)))
    catalog.reference = reference
    catalog.holds = lambda: _builtin_holds(len(catalog.cards), source, source_folder)
    return catalog


def _builtin_holds(count: int, source: str, folder: str) -> str:
    """What the built-in catalog is, and the one step to the real pool (taken already, or not)."""
    from pyengine.core import store

    try:
        imported = source in store.sources()
    except InputError:
        imported = False
    step = (f"the store holds the {source} pool: write `catalog: {source}` in the table" if imported else
            f"import the real pool with `pyengine import {source} {folder}`, then write `catalog: {source}`")
    return f"the built-in catalog holds only the {count} cards the rules documents name; for any other card, {step}"


def hypothetical_cards(state: Any, fields: Fields, card_fields: set[str], parse: Callable[[Fields], Card],
                       collected: Collected) -> list[Card]:
    """A scenario's `cards:`, laid over the state's catalog as they are read (one may name another), at most
    `limits.max_cards` of them; each card's error is gathered in `collected` and its id, when it has one, marked
    unread in the state (`state.unread`), so that what names it says nothing more."""
    top = MemoryCatalog()
    state.catalog = Overlay(state.catalog, top)
    found = []
    for index, (item, line, column, path) in enumerate(fields.items("cards")):
        if index >= limits.max_cards:
            raise InputError(f"more than {limits.max_cards} hypothetical cards", file=fields.file, line=line,
                             column=column, field=path, expected="fewer cards in `cards:`")
        one = Fields(item, fields.file, path, card_fields, line or 0, column or 0)
        with collected.part():
            try:
                card = parse(one)
                if card.id in state.catalog:
                    raise one.error("id", f"card id {card.id!r} already names a card",
                                    expected="a new id for a hypothetical card")
            except InputError:
                if isinstance(one.raw("id"), str | int):
                    state.unread.add(unread_card(one.raw("id")))
                raise
            top.add(card)
            found.append(card)
    return found


def unread_card(ref: Any) -> str:
    """How a state's `unread` names a hypothetical card that was not read."""
    return f"card {ref}"


def unread_instance(ref: Any) -> str:
    """How a state's `unread` names a card instance that was not read."""
    return f"instance {ref}"


def unread_deck(player: str) -> str:
    """How a state's `unread` names a player's deck that was not read."""
    return f"deck {player}"


@contextmanager
def reading_instance(state: Any, instance_id: Any) -> Iterator[None]:
    """Read one card instance: on its input error, its id (when it is one) is marked unread and the error goes on."""
    try:
        yield
    except InputError:
        if isinstance(instance_id, str | int) and not isinstance(instance_id, bool):
            state.unread.add(unread_instance(instance_id))
        raise


def read_deck(state: Any, player: str, collected: Collected, read: Callable[[list[InputError]], Any]) -> None:
    """A player's deck of the table, `read` gathering each bad entry; every error goes to `collected` and a deck
    with one is marked unread (a question about it says nothing more)."""
    errors: list[InputError] = []
    with collected.part():
        state.decks[player] = read(errors)
    for error in errors:
        collected.add(error)
    if errors or player not in state.decks:
        state.unread.add(unread_deck(player))


def check_deck_read(state: Any, player: str, fields: Fields) -> None:
    """Raise errors.Unread when a question names a player's deck that was not read."""
    if unread_deck(player) in state.unread:
        raise Unread(f"{player}'s deck was not read", file=fields.file, field=fields.name("player"))


def check_read(state: Any, ref: Any, fields: Fields, key: str) -> None:
    """Raise errors.Unread when `ref` (a field's value) names a hypothetical card or an instance of the state that
    was not read for an error of its own, which says all there is to say."""
    if isinstance(ref, str | int) and not isinstance(ref, bool) and (
            unread_card(ref) in state.unread or unread_instance(ref) in state.unread):
        raise Unread(f"{ref!r} was not read", file=fields.file, field=fields.name(key))


def catalog_for(fields: Fields, choices: tuple[str, ...], builtin: Callable[[], Catalog]) -> Catalog:
    """The catalog a scenario or decklist names in `catalog:`, its errors placed on that field."""
    name = fields.choice("catalog", choices, default="builtin") or "builtin"
    try:
        return open_catalog(name, builtin)
    except InputError as error:
        raise fields.error("catalog", error.message, error.expected) from None


def deck_entry(item: Any, line: int | None, column: int | None) -> Any:
    """A decklist entry as a mapping of `card` and `count`: a string `REF`, `N REF` or `Nx REF` read as one, at its
    line; any other value as it is (its Fields say what it should be)."""
    if not isinstance(item, str):
        return item
    match = re.match(r"^\s*(\d+)\s*x?\s+(\S.*)$", item)
    count, ref = (int(match[1]), match[2].strip()) if match else (1, item.strip())
    entry = Mapping()
    entry.update(card=ref, count=count)
    entry.line, entry.column = line or 0, column or 0
    entry.key_positions = {"card": (line or 0, column or 0), "count": (line or 0, column or 0)}
    return entry


# A decklist's unknown cards get suggestions for this many of them (each scans the whole catalog).
SUGGESTED_ERRORS = 20


def resolve_card(catalog: Catalog, ref: Any, fields: Fields, key: str,
                 accept: Callable[[Card], bool] | None = None, errors: list[InputError] | None = None) -> Card:
    """The card a field names, with the field's line in any error; where `errors` collects a decklist's errors,
    only the first SUGGESTED_ERRORS of them get suggestions."""
    line, column = fields.data.key_at(key) if hasattr(fields.data, "key_at") else (None, None)
    if isinstance(ref, bool) or not isinstance(ref, str | int):
        raise fields.error(key, f"got {ref!r}", expected=catalog.reference)
    return catalog.resolve(str(ref), fields.file, line, column, fields.name(key), accept=accept,
                           suggest=errors is None or len(errors) < SUGGESTED_ERRORS)


def describe_card_param(value: Any, instances: dict[str, Any]) -> str | None:
    """A question parameter in words: an instance with its card, a card by its label, a list of cards, or each
    player's card."""
    if isinstance(value, str) and value in instances:
        return f"{value} ({instances[value].card.label()})"
    if isinstance(value, Card):
        return value.label()
    if isinstance(value, list) and all(isinstance(v, Card) for v in value):
        return " + ".join(v.label() for v in value)
    if isinstance(value, dict) and value and all(isinstance(v, Card) for v in value.values()):
        return ", ".join(f"{owner}: {card.label()}" for owner, card in value.items())
    return None


def describe_card(evidence: clingo.Symbol, catalog: Catalog) -> str:
    """card("id") evidence as the card's label."""
    card_id = evidence.arguments[0].string
    return catalog.get(card_id).label() if card_id in catalog else card_id


# A new table in the explorer: two players with nothing yet, no questions.
BLANK_TABLE = {"title": "A table", "players": {"alice": {}, "bob": {}}, "questions": []}


@dataclass(frozen=True)
class CensusSpec:
    """How the census (pyengine.tools.census) matches a game's real cards with the edge-case search's abstract
    ones, and which kinds of card and relations between cards it tells the search the pool has."""

    # The predicates of the search's generator (rules/search/<game>.lp) that describe its cards, not the state.
    card_predicates: frozenset[str]
    # The card facts a real card need not share with an abstract one, and those whose presence must agree both ways.
    free: frozenset[str]
    exact: frozenset[str]
    # What the encodings derive of a card from its facts alone (derived predicate -> the input it stands for), matched
    # instead of that input, and the question kinds whose encodings derive it.
    derived: dict[str, str]
    derived_kinds: tuple[str, ...]
    # The texts whose sharing between two cards the search draws only as the pool has it; the pairs of one card's
    # texts whose difference likewise; the predicates pairing two texts as one person's spellings; a text and its
    # looser key, two cards of one key spelt apart.
    shared: frozenset[str]
    differing: tuple[tuple[str, str], ...]
    aliases: frozenset[str]
    respelt: tuple[tuple[str, str], ...]
    # The texts a card of some kind may lack, drawn by the search only for kinds the pool has them on (a subtitle).
    present: frozenset[str]
    # The card types that may stand for one another (the verdicts of the real tables decide whether they do).
    type_families: dict[str, str]
    # The card facts holding a number (an "at most N" count) that the search draws only as some card of the pool has.
    counted: frozenset[str] = frozenset()


class CardGame:
    """What the card games answer alike: questions share one timeline, and parameters name cards."""

    # The shared encodings (rules/common) the game loads, and whether its encodings run over moments
    # (pyengine.core.stepwise): a card game's state is one moment, grounded in one call.
    common_files: ClassVar[tuple[str, ...]] = ("readings.lp", "verdicts.lp")
    timeline: ClassVar[bool] = False
    # A view of the game's state rules (a file of rules/<game>/ that shows activity/3): which instances in play the
    # rules find active, for the conformance kit's resolved states; None where the game has no such notion.
    activity_view: ClassVar[str | None] = None
    # Its parts (pyengine.games: Reader, FactWriter, Words, SearchView).
    reader = writer = words = search = property(lambda self: self)

    @staticmethod
    def check_deck_total(fields: Fields, key: str, counts: list[int]) -> None:
        """A decklist whose copies add up past the largest number the encodings take is refused where it is
        written (each count alone is within the bound; their sum per card reaches the facts)."""
        from pyengine.core.asp import MAX_NUMBER

        if sum(counts) > MAX_NUMBER:
            raise fields.error(key, f"the list holds {sum(counts):,} cards, over the limit of {MAX_NUMBER:,}",
                               expected=f"at most {MAX_NUMBER:,} cards in one list")

    def group_key(self, kind: str, params: dict[str, Any]) -> Any:
        return None

    def describe_param(self, key: str, value: Any, state: Any) -> str | None:
        return describe_card_param(value, state.instances)

    def describe(self, evidence: clingo.Symbol, state: Any) -> str:
        """Evidence of a reason in words: an instance, a card, a pair, or a term of the game's own."""
        args = evidence.arguments
        if evidence.name == "inst" and args:
            instance = state.instances.get(args[0].string)
            return str(evidence) if instance is None else self.describe_instance(instance)
        if evidence.name == "card" and args:
            return describe_card(evidence, state.catalog)
        if evidence.name == "pair" and len(args) == 2:
            return f"{self.describe(args[0], state)} and {self.describe(args[1], state)}"
        return self.describe_term(evidence, state)

    def player_names(self, state: Any) -> list[str]:
        """The players of a state, in the scenario's order."""
        return list(state.players)

    def describe_play(self, term: clingo.Symbol, state: Any) -> str:
        """A play of a `plays` answer in words: the instance with its card and zone, and the card it is played
        through."""
        text = self.describe_instance(state.instances[term.arguments[1].string])
        via = term.arguments[2]
        if via.arguments:
            text += " through " + self.describe_instance(state.instances[via.arguments[0].string])
        return text

    def play_id(self, term: clingo.Symbol, state: Any) -> str:
        """A play of a `plays` answer, play(Q, I, none | via(J)), as `I` or `I via J`."""
        instance, via = term.arguments[1].string, term.arguments[2]
        if not via.arguments:
            return instance
        return f"{instance} via {via.arguments[0].string}"

    def instance_record(self, instance: Any, activity: dict[str, tuple[str, str]]) -> dict[str, Any]:
        """An instance of the state as a conformance pack holds it: its id, owner, zone and card record, and, where
        the rules found it active or not (`activity`: instance -> (active or inactive, why)), that and why."""
        found: dict[str, Any] = {"id": instance.id, "owner": instance.owner, "zone": instance.zone,
                                 **instance.card.record()}
        if instance.id in activity:
            found["active"] = activity[instance.id][0] == "active"
            found["active_because"] = activity[instance.id][1]
        return found

    def turn_record(self, state: Any) -> dict[str, Any]:
        """Whose turn and which phase the state is at, and where, as a conformance pack holds it (none here)."""
        return {}

    def describe_instance(self, instance: Any) -> str:
        return f"{instance.card.label()} [{instance.id}]"

    def zone_words(self, zone: str) -> str:
        """A zone's name in words."""
        return zone.replace("_", " ")

    def flip_refusal(self, state: Any) -> str | None:
        """Why `flip` cannot search this state, or None: a card game's states are all searched."""
        return None

    def describe_change(self, change: clingo.Symbol, state: Any) -> str:
        """A change the flip search made to the state (rules/flip/<game>.lp, change/1) in words."""
        args = change.arguments
        instance = state.instances.get(args[0].string) if args and args[0].type == clingo.SymbolType.String else None
        if instance is None:
            return str(change)
        card = f"{instance.card.label()} [{instance.id}]"
        if change.name == "removed":
            return f"take {card} out of the state"
        if change.name == "moved" and len(args) == 3:
            return (f"move {card} from {instance.owner}'s {self.zone_words(args[1].name)} to "
                    f"{self.zone_words(args[2].name)}")
        if change.name == "made_inactive":
            return f"make {card} not active"
        if change.name == "made_active":
            return f"make {card} active"
        if change.name == "wounds" and len(args) == 3:
            return f"give {card} {args[2].number} wound{'s' if args[2].number != 1 else ''} instead of {args[1].number}"
        if change.name == "face" and len(args) == 3:
            was, now = (describe_card(clingo.Function("card", [a]), state.catalog) for a in args[1:])
            return f"turn {card} from {was} face up to {now} face up"
        return str(change)

    def describe_term(self, evidence: clingo.Symbol, state: Any) -> str:
        return str(evidence)
