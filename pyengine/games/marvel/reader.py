"""How a Marvel Champions table reads from a scenario file: the built-in catalog and a table's card records, each
player's identity (with the face it shows) and zones, the encounter's zones, decklists (led by an identity, a
reprint's code kept as written), and each question's parameters, every input error located."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache, partial
from pathlib import Path
from typing import Any, ClassVar

from pyengine.core.catalog import Card, Catalog
from pyengine.core.errors import Collected, InputError, closest
from pyengine.core.fields import Fields
from pyengine.core.resources import facts_dir
from pyengine.core.text import title_key
from pyengine.games.common.reader import CardReader, read_builtin
from pyengine.games.marvel.actions import AFTER_KINDS, read_actions, value_question
from pyengine.games.marvel.state import ENCOUNTER, ENCOUNTER_ZONES, FACES, TYPES, ZONES, Instance, State, faces
from pyengine.games.marvel.terms import NAMED, TRAITED, WORDS, trait_key

CATALOGS = ("builtin", "marvelsdb")
CARD_FIELDS = {"id", "title", "subtitle", "unique", "type", "alter_ego", "forms", "deck_limit", "aliases",
               "person_aliases", "abilities", "traits"}
# Abilities a card's text gives it (rules/marvel/card_text.lp), as a hypothetical card declares them or the
# MarvelCDB importer reads them (terms.py): a word, {puts_into_play: NAME}, {puts_if_absent: NAME} or
# {puts_trait_minion: TRAIT}.
ABILITIES = (*WORDS, *NAMED, *TRAITED)
# How a table names a card of this game.
REFERENCE = "a card code (01001a) or a name"


def parse_card(fields: Fields, hypothetical: bool) -> Card:
    """One card record, from the built-in catalog or a scenario's `cards:` list, each field read apart."""
    each = fields.apart()
    limit = each.value(lambda: fields.whole("deck_limit", -1, minimum=-1), -1)
    persons = each.value(lambda: _persons(fields), [])
    traits = each.value(lambda: [trait_key(str(t)) for t, *_ in fields.items("traits")], [])
    card = Card(id=each.value(lambda: fields.text("id", required=True) or "", ""),
                title=each.value(lambda: fields.title("title", required=True) or "", ""),
                subtitle=each.value(lambda: fields.title("subtitle"), None),
                unique=each.value(lambda: fields.flag("unique", False), False),
                type=each.value(lambda: fields.choice("type", TYPES, required=True) or "", ""),
                hypothetical=hypothetical,
                aliases=each.value(lambda: tuple(str(a) for a, *_ in fields.items("aliases")), ()),
                extra={"alter_ego": each.value(lambda: fields.title("alter_ego"), None),
                       "forms": each.value(lambda: [str(f) for f, *_ in fields.items("forms")], []),
                       "abilities": each.value(lambda: _abilities(fields), []),
                       **({"deck_limit": limit} if limit >= 0 else {}),
                       **({"person_aliases": persons} if persons else {}),
                       **({"traits": [t for t in traits if t]} if traits else {})})
    each.raise_any()
    return card


def _persons(fields: Fields) -> list[list[str]]:
    """A card's `person_aliases:`, pairs of spellings of one person (each bad one an error, all gathered)."""
    persons = []
    each = fields.apart()
    for item, line, column, path in fields.items("person_aliases"):
        with each.part():
            if not (isinstance(item, list) and len(item) == 2 and all(isinstance(n, str) and n.strip() for n in item)):
                raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                                 expected="two spellings of one person, e.g. [Greer Nelson, Greer Grant Nelson]")
            persons.append([str(n) for n in item])
    each.raise_any()
    return persons


def _abilities(fields: Fields) -> list[list[str]]:
    """A hypothetical card's abilities as [kind], [kind, NAME] or [puts_trait_minion, TRAIT] (as a trait key), each
    bad one an error (all gathered)."""
    found = []
    each = fields.apart()
    for item, line, column, path in fields.items("abilities"):
        with each.part():
            kind = next(iter(item), None) if isinstance(item, dict) and len(item) == 1 else None
            if kind in (*NAMED, *TRAITED) and isinstance(item[kind], str) and item[kind].strip():
                found.append([kind, trait_key(item[kind]) if kind in TRAITED else item[kind]])
            elif isinstance(item, str) and item in WORDS:
                found.append([item])
            else:
                raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                                 expected=f"one of {', '.join(WORDS)}, or {{KIND: NAME}} for "
                                          f"{', '.join(NAMED)}, or {{puts_trait_minion: TRAIT}}",
                                 suggestion=closest(str(item), ABILITIES))
    each.raise_any()
    return found


@cache
def builtin_catalog() -> Catalog:
    """The hand-written catalog of the cards the rules document and the examples name (facts/marvel/cards.yaml)."""
    return read_builtin(Path(facts_dir(), "marvel", "cards.yaml"), lambda f: parse_card(f, False), CARD_FIELDS,
                        REFERENCE, "marvelsdb", "PATH/TO/marvelsdb-json-data")


def _is_hero(card: Card) -> bool:
    """Whether a card is a hero card, which a field naming an identity takes among cards of one name."""
    return card.type == "hero"


class MarvelReader(CardReader):
    """A Marvel Champions table, decklist and question read from their fields."""

    after_kinds: ClassVar[tuple[str, ...]] = AFTER_KINDS

    state_fields: ClassVar[set[str]] = {"catalog", "cards", "players", "encounter", "decks", "actions"}
    deck_fields: ClassVar[set[str]] = {"catalog", "identity", "cards"}
    state_type = State
    catalogs = CATALOGS
    card_fields = CARD_FIELDS
    builtin = staticmethod(builtin_catalog)

    def parse_state(self, fields: Fields, collected: Collected) -> State:
        """A table: its hypothetical cards, each player's identity and zones, the encounter's zones and the decks,
        each part's error gathered in `collected`."""
        state = self.new_state(fields)
        self.hypothetical_cards(state, fields, lambda f: parse_card(f, True), collected)
        players = fields.sub("players", {str(p) for p in fields.mapping("players")})
        state.players = [str(p) for p in fields.mapping("players")]
        with collected.part():
            if ENCOUNTER in state.players:
                raise players.error(ENCOUNTER, "'encounter' is not a player name", expected="the encounter: section")
        for player in state.players:
            zones = None
            with collected.part():
                zones = players.sub(player, {"identity", *ZONES})
            if zones is None:
                continue
            self.unread_zones(state, zones)
            if zones.has("identity"):
                self._identity(state, zones, player, collected)
            for zone in ZONES:
                self._zone(state, zones, zone, player, collected)
        encounter = collected.value(lambda: fields.sub("encounter", set(ENCOUNTER_ZONES)), None)
        if encounter is not None:
            self.unread_zones(state, encounter)
            for zone in ENCOUNTER_ZONES:
                self._zone(state, encounter, zone, ENCOUNTER, collected)
        self.read_decks(state, fields, collected, lambda decks, player, errors: self._deck(
            state, decks.sub(player, {"identity", "cards"}), errors))
        read_actions(self, state, fields, collected)
        return state

    def _identity(self, state: State, zones: Fields, player: str, collected: Collected) -> None:
        """A player's `identity:`, a hero card with the face it shows; its error gathered in `collected`."""
        given = zones.raw("identity")
        with self._instance_part(state, collected, (given.get("id") if isinstance(given, dict) else None)
                                 or f"{player}.identity"):
            ident = zones.sub("identity", {"id", "card", "face"})
            each = ident.apart()
            instance_id = each.value(lambda: ident.text("id") or f"{player}.identity", "")
            card = each.value(lambda: self._hero(state, ident, "card"), None)
            face = each.value(lambda: self._face_up(state, ident, card), None) if card is not None else None
            each.raise_any()
            assert card is not None and face is not None  # read, or the identity was not
            self._add(state, ident, Instance(instance_id, card, player, "identity", face))

    def _hero(self, state: State, fields: Fields, key: str) -> Card:
        """The hero card a field names (a player's `identity:` card, a player's hero of an `identities` question)."""
        card = self.resolve(state, fields.require(key, "a hero card"), fields, key, _is_hero)
        if card.type != "hero":
            raise fields.error(key, f"{card.label()} is of type {card.type}", expected="a hero card")
        return card

    @contextmanager
    def _instance_part(self, state: State, collected: Collected, instance_id: Any) -> Iterator[None]:
        """Read one instance apart: its error gathered, its id marked unread."""
        with collected.part(), self.reading_instance(state, instance_id):
            yield

    def _face_up(self, state: State, ident: Fields, card: Card) -> Card:
        """The face an identity shows: `hero` (the card named), `alter_ego`, or the code or name of a hero form."""
        shown = faces(card, state.catalog)
        wanted = ident.text("face") or "hero"
        if wanted == "hero":
            return card
        if wanted == "alter_ego":
            alter_egos = [face for face, kind in shown if kind == "alter_ego"]
            if not alter_egos:
                raise ident.error("face", f"{card.label()} has no alter-ego card", expected="hero or a hero form")
            return alter_egos[0]
        key = title_key(wanted)
        found = [face for face, _ in shown if wanted == face.id or key in {title_key(n) for n in face.names()}]
        if len(found) != 1:
            names = [face.id for face, _ in shown] + [face.full_name for face, _ in shown]
            raise ident.error("face", f"{wanted!r} is not one face of {card.label()}",
                              expected="hero, alter_ego, or the code or name of a hero form: "
                                       + ", ".join(f"{f.id} ({f.full_name})" for f, _ in shown),
                              suggestion=closest(wanted, [*FACES, *names]))
        return found[0]

    @staticmethod
    def _add(state: State, fields: Fields, instance: Instance) -> None:
        """An instance added to the state, its id used once."""
        if instance.id in state.instances:
            raise fields.error("id", f"instance id {instance.id!r} is used twice", expected="one zone per instance")
        state.instances[instance.id] = instance

    def _zone(self, state: State, zones: Fields, zone: str, owner: str, collected: Collected) -> None:
        """The instances of a player's (or the encounter's) zone, each `{id, card}` or a card reference."""
        for index, (item, line, column, path) in enumerate(self.zone_items(state, zones, zone, collected), 1):
            self.room_for_instance(state, zones.file, line, column, path)
            data = {"card": item} if isinstance(item, str) else item
            given = data.get("id") if isinstance(data, dict) else None
            with self._instance_part(state, collected, given or f"{owner}.{zone}.{index}"):
                entry = zones.entry(data, path, {"id", "card"}, line, column)
                each = entry.apart()
                with each.part():
                    instance_id = entry.text("id") or f"{owner}.{zone}.{index}"
                with each.part():
                    card = self.resolve(state, entry.require("card", "a card reference"), entry, "card")
                each.raise_any()
                self._add(state, entry, Instance(instance_id, card, owner, zone))

    def _deck(self, state: State, fields: Fields, errors: list[InputError]) -> dict[str, Any]:
        """A decklist: its identity (a hero) and its cards, each with the code it was written under; the identity's
        error and every bad entry collected in `errors`."""
        identity = None
        try:
            if not fields.has("identity"):  # the deck limit counts the identity's copies: never answered without it
                raise fields.error("identity", "a Marvel deck needs its identity, which the deck limit counts with the "
                                   "deck's cards (marvel_unique p5, p10)", expected="identity: a hero's name or code")
            identity = self._hero(state, fields, "identity")
        except InputError as error:
            errors.extend(error.all())
        entries = self.deck_entries(fields, "cards", errors, partial(self._deck_entry, state, errors))
        return {"identity": identity, "entries": [(card, count) for card, count, _ in entries],
                "codes": [(card.id, code, count) for card, count, code in entries]}

    def _deck_entry(self, state: State, errors: list[InputError], entry: Fields) -> tuple[Card, str]:
        """A decklist entry's card and the code it is written under (a reprint's own code is the code its copies are
        written under: MarvelCDB counts per code), kept in the state where it is not the card's."""
        written = entry.require("card", "a card reference")
        card = self.resolve(state, written, entry, "card", errors=errors)
        code = str(written) if str(written) in card.extra.get("codes", []) else card.id
        if code != card.id:
            state.written[card.id] = code
        return card, code

    def parse_deck(self, fields: Fields, errors: list[InputError]) -> tuple[State, dict[str, Any]]:
        """A decklist file: its identity and cards, every unknown card reported."""
        state = self.new_state(fields)
        return state, self._deck(state, fields, errors)

    def value_question(self, fields: Fields, state: State) -> dict[str, Any]:
        """A `value` question (pyengine/games/marvel/actions.py)."""
        return value_question(fields, state)

    def asked(self, kind: str, fields: Fields, state: State, after: int) -> dict[str, Any]:
        """A question's parameters, the instances' zones checked where it is asked at the start (`after` 0)."""
        if kind == "play":
            ref = self.instance_ref(fields, "instance", state, expected="an instance id")
            if after == 0 and state.instances[ref].zone in ("play", "identity"):
                raise fields.error("instance", f"instance {ref!r} is already in play", expected="a card in hand")
            return {"instance": ref}
        if kind == "deck":
            return dict(self.asked_deck(fields, state, "a decklist"))
        if kind == "plays":
            return {"player": fields.choice("player", state.players, required=True)}
        if kind == "identities":
            return self._identities(fields, state)
        each = fields.apart()
        if kind in ("reveal", "put_into_play"):
            card, arriving = each.value(lambda: self._arriving(fields, state, kind, after), (None, None))
            via, via_instance = each.value(lambda: self.via(fields, state), (None, None))
            player = each.value(lambda: fields.choice("player", state.players, required=True), None)
            each.raise_any()
            return {"card": card, "player": player, "via": via, "via_instance": via_instance, "arriving": arriving}
        cards = each.value(lambda: self.two_cards(fields, state), [])
        where = each.value(lambda: fields.choice("in", ("play", "deck"), default="play"), None)
        each.raise_any()
        return {"cards": cards, "in": where}

    def _arriving(self, fields: Fields, state: State, kind: str, after: int) -> tuple[Card, str | None]:
        """The card a reveal or put-into-play question names, and its encounter instance where it names one (its
        zone checked where it is asked at the start)."""
        ref = fields.require("card", "an encounter card")
        arriving = ref if isinstance(ref, str) and ref in state.instances else None
        if arriving is not None and after:
            return state.instances[arriving].card, arriving
        if arriving is not None:
            return self._arriving_instance(state, fields, kind, arriving), arriving
        return self.resolve(state, ref, fields, "card"), None

    def _identities(self, fields: Fields, state: State) -> dict[str, Any]:
        """An `identities` question: a hero card for each of at least two players (each named apart)."""
        chosen = fields.sub("players", {str(p) for p in fields.mapping("players")})
        each = fields.apart()
        heroes = {}
        for player in map(str, fields.mapping("players")):
            with each.part():
                heroes[player] = self._hero(state, chosen, player)
        each.raise_any()
        if len(heroes) < 2:
            raise fields.error("players", f"got {len(heroes)} choice(s)",
                               expected="a mapping of at least two players to hero cards")
        return {"players": heroes}

    @staticmethod
    def _arriving_instance(state: State, fields: Fields, kind: str, ref: str) -> Card:
        """The card of an encounter instance a reveal or put-into-play question names: a revealed card comes from
        the encounter deck; a card put into play comes from anywhere but play (the deck, discard pile, set-aside
        cards or the villain deck)."""
        instance = state.instances[ref]
        wanted = ("deck",) if kind == "reveal" else ("deck", "discard", "set_aside", "villain_deck")
        if instance.owner != ENCOUNTER or instance.zone not in wanted:
            where = "the encounter's" if instance.owner == ENCOUNTER else f"{instance.owner}'s"
            raise fields.error("card", f"instance {ref!r} lies in {where} {instance.zone}",
                               expected="an encounter card in the encounter " + " or ".join(wanted))
        return instance.card
