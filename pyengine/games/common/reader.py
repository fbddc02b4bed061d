"""What the card games read alike: a hand-written catalog, a card named by reference, a decklist entry, and
CardReader, the base of a card game's reader (a table's hypothetical cards, instances and decks, each error located
and each part not read marked so: what names it says nothing more)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

from pyengine.core.asp import MAX_NUMBER
from pyengine.core.catalog import Card, Catalog, MemoryCatalog, Overlay, Printing
from pyengine.core.errors import Collected, InputError, TooMany, Unread, closest
from pyengine.core.fields import Fields
from pyengine.core.limits import limits
from pyengine.core.store import open_catalog
from pyengine.core.yamlio import Mapping, load_file
from pyengine.games.common.steps import moment


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


def unread_card(ref: Any) -> str:
    """How a state's `unread` names a hypothetical card that was not read."""
    return f"card {ref}"


def unread_instance(ref: Any) -> str:
    """How a state's `unread` names a card instance that was not read."""
    return f"instance {ref}"


def unread_deck(player: str) -> str:
    """How a state's `unread` names a player's deck that was not read."""
    return f"deck {player}"


def _unread_instances(state: Any, value: Any) -> None:
    """Mark unread, by its id, each instance a zone not read holds: the items of a list, or one instance written
    without its list."""
    for item in value if isinstance(value, list) else [value]:
        given = item.get("id") if isinstance(item, dict) else None
        if isinstance(given, str | int) and not isinstance(given, bool):
            state.unread.add(unread_instance(given))


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
                 accept: Callable[[Card], bool] | None = None, errors: list[InputError] | None = None,
                 chosen: list[Printing] | None = None) -> Card:
    """The card a field names, with the field's line in any error; where `errors` collects a decklist's errors,
    only the first SUGGESTED_ERRORS of them get suggestions; a name several printings share that play alike is
    added to `chosen` with the printing taken."""
    line, column = fields.data.key_at(key) if hasattr(fields.data, "key_at") else (None, None)
    if isinstance(ref, bool) or not isinstance(ref, str | int):
        raise fields.error(key, f"got {ref!r}", expected=catalog.reference)
    return catalog.resolve(str(ref), fields.file, line, column, fields.name(key), accept=accept,
                           suggest=errors is None or len(errors) < SUGGESTED_ERRORS, chosen=chosen)


class CardReader:
    """How a card game's table reads, in what the card games share: the state it starts from, its hypothetical
    cards, instances and decks, a card named by reference, an instance by its id, a play's `via:`, a question's two
    cards or a player's deck, the players."""

    # The game's state (made from its catalog), the catalogs a table may name, its built-in catalog, and the fields
    # of a card record.
    state_type: type[Any]
    catalogs: tuple[str, ...]
    builtin: Callable[[], Catalog]
    card_fields: set[str]

    def hypothetical_cards(self, state: Any, fields: Fields, parse: Callable[[Fields], Card],
                           collected: Collected) -> list[Card]:
        """A scenario's `cards:`, laid over the state's catalog as they are read (one may name another), at most
        `limits.max_cards` of them; each card's error is gathered in `collected` and its id, when it has one, marked
        unread in the state (`state.unread`), so that what names it says nothing more."""
        top = MemoryCatalog()
        state.catalog = Overlay(state.catalog, top)
        found = []
        for index, (item, line, column, path) in enumerate(fields.items("cards")):
            if index >= limits.max_cards:
                raise TooMany(f"more than {limits.max_cards} hypothetical cards", file=fields.file, line=line,
                              column=column, field=path, expected="fewer cards in `cards:`")
            with collected.part():
                try:
                    one = fields.entry(item, path, self.card_fields, line, column)
                    card = parse(one)
                    if card.id in state.catalog:
                        raise one.error("id", f"card id {card.id!r} already names a card",
                                        expected="a new id for a hypothetical card")
                except InputError:
                    given = item.get("id") if isinstance(item, dict) else None
                    if isinstance(given, str | int) and not isinstance(given, bool):
                        state.unread.add(unread_card(given))
                    raise
                top.add(card)
                found.append(card)
        return found

    @staticmethod
    @contextmanager
    def reading_instance(state: Any, instance_id: Any) -> Iterator[None]:
        """Read one card instance: on its input error, its id (when it is one) is marked unread and the error goes
        on."""
        try:
            yield
        except InputError:
            if isinstance(instance_id, str | int) and not isinstance(instance_id, bool):
                state.unread.add(unread_instance(instance_id))
            raise

    @staticmethod
    def unread_zones(state: Any, zones: Fields) -> None:
        """Mark unread each instance of a zone whose name is unknown (its error said already), so that what names it
        says nothing more."""
        for zone in zones.unknown:
            _unread_instances(state, zones.raw(zone))

    @staticmethod
    def zone_items(state: Any, zones: Fields, zone: str, collected: Collected) -> list[tuple[Any, int | None,
                                                                                              int | None, str]]:
        """The items of a zone, each with its line, column and field path; a zone that is not a list has none, its
        error gathered in `collected` and an instance it holds (written without its list) marked unread."""
        try:
            return list(zones.items(zone))
        except InputError as error:
            _unread_instances(state, zones.raw(zone))
            collected.add(error)
            return []

    @staticmethod
    def room_for_instance(state: Any, file: str, line: int | None, column: int | None, path: str) -> None:
        """Refuse a card instance, where it is written, that would take the state past `limits.max_instances`."""
        if len(state.instances) >= limits.max_instances:
            raise TooMany(f"the state has more than {limits.max_instances} card instances", file=file, line=line,
                          column=column, field=path, expected="a smaller state, or a higher --max-instances")

    def read_decks(self, state: Any, fields: Fields, collected: Collected,
                   read: Callable[[Fields, str, list[InputError]], Any]) -> None:
        """The players' decks of the table's `decks:`, `read` (given the decks' fields and a player) gathering each bad
        entry; every error goes to `collected` and a deck with one is marked unread (a question about it says nothing
        more)."""
        decks = fields.sub("decks", set(state.players))
        for player in state.players:
            if not decks.has(player):
                continue
            errors: list[InputError] = []
            with collected.part():
                state.decks[player] = read(decks, player, errors)
            for error in errors:
                collected.add(error)
            if errors or player not in state.decks:
                state.unread.add(unread_deck(player))

    @staticmethod
    def deck_entries(fields: Fields, key: str, errors: list[InputError],
                     read: Callable[[Fields], tuple[Card, str]]) -> list[tuple[Card, int, str]]:
        """The entries of a decklist's list field, each `{card: REF, count: N}` or a string `REF`, `N REF` or `Nx REF`,
        as its card and a word of the game's (`read` makes them of its fields), its count read apart, every bad entry
        collected in `errors`; a list whose copies add up past the largest number the encodings take is refused where
        it is written (each count alone is within the bound; their sum per card reaches the facts)."""
        entries = []
        for item, line, column, path in fields.items(key):
            try:
                entry = fields.entry(deck_entry(item, line, column), path, {"card", "count"}, line, column)
                each = entry.apart()
                with each.part():
                    card, word = read(entry)
                with each.part():
                    count = entry.whole("count", 1, minimum=1)
                each.raise_any()
                entries.append((card, count, word))
            except InputError as error:
                errors.extend(error.all())
        total = sum(count for _, count, _ in entries)
        if total > MAX_NUMBER:
            raise fields.error(key, f"the list holds {total:,} cards, over the limit of {MAX_NUMBER:,}",
                               expected=f"at most {MAX_NUMBER:,} cards in one list")
        return entries

    def new_state(self, fields: Fields) -> Any:
        """An empty state over the catalog a scenario or decklist names (`catalog:`)."""
        return self.state_type(catalog_for(fields, self.catalogs, self.builtin))

    def resolve(self, state: Any, ref: Any, fields: Fields, key: str, accept: Callable[[Card], bool] | None = None,
                errors: list[InputError] | None = None) -> Card:
        """The card `ref` (the value of `fields`' `key`) names, one `accept` takes where it is given; a decklist's
        `errors` as resolve_card counts them. What names a part of the table not read raises errors.Unread."""
        check_read(state, ref, fields, key)
        return resolve_card(state.catalog, ref, fields, key, accept, errors, state.printings)

    def instance_ref(self, fields: Fields, key: str, state: Any, expected: str = "an instance id of the state") -> str:
        """The id of an instance of the state that a question's field names (`expected` says what it must be)."""
        ref = fields.text(key, required=True) or ""
        check_read(state, ref, fields, key)
        if ref not in state.instances:
            raise fields.error(key, f"no instance {ref!r} in the state", expected=expected,
                               suggestion=closest(ref, state.instances))
        return ref

    # The question kinds a scenario with actions may ask after a step (`after:`).
    after_kinds: ClassVar[tuple[str, ...]] = ()

    def parse_question(self, kind: str, fields: Fields, state: Any) -> dict[str, Any]:
        """A question's parameters, each checked against the state (the instances, cards or deck it names), those
        that do not depend on one another read apart; in a scenario with actions, the step or moment it is asked
        at (the zones a question's instances lie in are checked only at the start: after a step the rules find
        them)."""
        if any(step is not None and step.startswith("step ") for step in state.unread):
            raise Unread("an action of the scenario was not read", file=fields.file, field=fields.name("ask"))
        if kind == "action":
            return {"step": moment(fields, "step", state, minimum=1)}
        if kind == "value":
            return self.value_question(fields, state)
        if kind in self.after_kinds:
            after = moment(fields, "after", state)
            return {**self.asked(kind, fields, state, after), **({"after": after} if state.actions else {})}
        return self.asked(kind, fields, state, 0)

    def value_question(self, fields: Fields, state: Any) -> dict[str, Any]:
        """A `value` question's moment and what it asks (the game's own)."""
        raise NotImplementedError

    def asked(self, kind: str, fields: Fields, state: Any, after: int) -> dict[str, Any]:
        """A question's own parameters (the game's own), the instances' zones checked where it is asked at the
        start (`after` 0)."""
        raise NotImplementedError

    def via(self, fields: Fields, state: Any) -> tuple[Card | None, str | None]:
        """The card whose ability a question's play uses, and its instance when `via:` names one of the state
        (whether the player may use it is for the rules), else a card reference for a card not in the state; none
        without `via:`."""
        if not fields.has("via"):
            return None, None
        ref = fields.raw("via")
        if isinstance(ref, str) and ref in state.instances:
            return state.instances[ref].card, ref
        return self.resolve(state, ref, fields, "via"), None

    def two_cards(self, fields: Fields, state: Any) -> list[Card]:
        """The two cards a `coexist` question names in `cards:`."""
        cards = []
        each = fields.apart()
        for ref, *_ in fields.items("cards"):
            with each.part():
                cards.append(self.resolve(state, ref, fields, "cards"))
        each.raise_any()
        if len(cards) != 2:
            raise fields.error("cards", f"got {len(cards)} cards", expected="a list of exactly two cards")
        return cards

    def asked_deck(self, fields: Fields, state: Any, expected: str) -> Any:
        """The deck of the player a `deck` question names, who must have one in the table's `decks:` (`expected`
        says so in the game's words); a deck not read raises errors.Unread."""
        player = fields.choice("player", state.players, required=True) or ""
        if unread_deck(player) in state.unread:
            raise Unread(f"{player}'s deck was not read", file=fields.file, field=fields.name("player"))
        if player not in state.decks:
            raise fields.error("player", f"player {player!r} has no deck in `decks:`", expected=expected)
        return state.decks[player]

    def player_names(self, state: Any) -> list[str]:
        """The players of a state, in the scenario's order."""
        return list(state.players)
