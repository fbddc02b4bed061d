"""How a Lord of the Rings TCG table reads from a scenario file: the built-in catalog and a table's card records,
the players' zones and instances (stacks and bearers checked), the turn, the current site, decklists, and each
question's parameters, every input error located."""

from __future__ import annotations

from functools import cache, partial
from pathlib import Path
from typing import Any, ClassVar

from pyengine.core.asp import MAX_NUMBER
from pyengine.core.catalog import Card, Catalog
from pyengine.core.errors import Collected, InputError, Unread, closest
from pyengine.core.fields import Fields
from pyengine.core.resources import facts_dir
from pyengine.games.common.reader import CardReader, check_read, read_builtin, unread_instance
from pyengine.games.lotr import filters
from pyengine.games.lotr.actions import AFTER_KINDS, read_actions, value_question
from pyengine.games.lotr.state import (
    ABILITIES,
    BEARER_TYPES,
    BORNE_TYPES,
    IN_PLAY_ZONES,
    PHASES,
    SIDES,
    SITE_ZONES,
    TYPES,
    ZONE_NAMES,
    ZONES,
    Instance,
    State,
)

CARD_FIELDS = {"id", "collinfo", "title", "subtitle", "unique", "side", "type", "culture", "split", "abilities",
               "translation_of", "stored_title", "race", "filters", "phases"}
CATALOGS = ("builtin", "gemp")
INSTANCE_FIELDS = {"id", "card", "active", "wounds", "on", "borne_by"}
# The most copies an "at most N" card of a scenario's `cards:` may allow (GEMP's data has 2 and 3).
MAX_UNIQUE_LIMIT = 9
# The attributes an ability's filter may name (`unchecked` keeps a part the rules cannot read).
FILTER_KINDS = ("race", "type", "culture", "title", "unchecked")
# How a table names a card of this game.
REFERENCE = "a card id (1_313), a collector's info (1R313) or a title"


def parse_card(fields: Fields, hypothetical: bool, resolve: Any = None) -> Card:
    """One card record, from the built-in catalog or a scenario's `cards:` list, each field read apart."""
    each = fields.apart()
    unique = each.value(lambda: _unique(fields), False)
    translation = each.value(lambda: _translation(fields, resolve), None)
    card = Card(
        id=each.value(lambda: fields.text("id", required=True) or "", ""),
        title=each.value(lambda: fields.title("title", required=True) or "", ""),
        subtitle=each.value(lambda: fields.title("subtitle"), None),
        unique=bool(unique),
        side=each.value(lambda: fields.choice("side", SIDES), None),
        type=each.value(lambda: fields.choice("type", TYPES, required=True) or "", ""),
        culture=each.value(lambda: fields.text("culture"), None),
        race=each.value(lambda: (fields.text("race") or "").lower() or None, None),
        collinfo=each.value(lambda: fields.text("collinfo"), None),
        split=each.value(lambda: fields.whole("split", 0, minimum=0) or None, None),
        abilities=tuple(each.value(lambda: _abilities(fields), [])),
        translation_of=translation,
        hypothetical=hypothetical,
        stored_title=each.value(lambda: fields.text("stored_title"), None),
        extra={**({"unique_limit": unique} if not isinstance(unique, bool) and unique > 1 else {}),
               **({"ability_filters": each.value(lambda: _filters(fields), {})} if fields.has("filters") else {}),
               **({"ability_phases": each.value(lambda: _phases(fields), {})} if fields.has("phases") else {})},
    )
    each.raise_any()
    return card


def _unique(fields: Fields) -> bool | int:
    """A card's `unique:`: true or false (the dot or none), or N of 2 or more for an "at most N" card, as GEMP's data
    has some."""
    unique = fields.raw("unique", False)
    if not isinstance(unique, bool) and not (isinstance(unique, int) and 1 <= unique <= MAX_UNIQUE_LIMIT):
        raise fields.error("unique", f"got {unique!r}",
                           expected=f"true, false, or how many copies the card allows, 1 to {MAX_UNIQUE_LIMIT}")
    return bool(unique) if isinstance(unique, bool) else unique


def _translation(fields: Fields, resolve: Any) -> str | None:
    """The id of the card a card record translates (`translation_of:`), resolved where the reader can."""
    translation = fields.text("translation_of")
    if translation is not None and resolve is not None:
        translation = resolve(translation, fields, "translation_of").id
    return translation


def _filters(fields: Fields) -> dict[str, list[Any]]:
    """A card's `filters:`, {ABILITY: [[KIND, VALUE], ...]}, each a filter all of whose tests must hold, as a filter
    tree (pyengine.games.lotr.filters); each bad test an error (all gathered)."""
    sub = fields.sub("filters", set(ABILITIES))
    found: dict[str, list[list[str]]] = {}
    each = fields.apart()
    for ability in fields.mapping("filters"):
        for item, line, column, path in sub.items(str(ability)):
            with each.part():
                if not (isinstance(item, list) and len(item) == 2 and item[0] in FILTER_KINDS
                        and isinstance(item[1], str)):
                    raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                                     expected="[KIND, VALUE] with KIND one of " + ", ".join(FILTER_KINDS))
                if item[0] == "type" and item[1] not in TYPES:
                    raise InputError(f"unknown card type {item[1]!r}", file=fields.file, line=line, column=column,
                                     field=path, expected="one of " + ", ".join(TYPES),
                                     suggestion=closest(item[1], TYPES))
                found.setdefault(str(ability), []).append([item[0], item[1]])
    each.raise_any()
    return {ability: filters.flat(parts) for ability, parts in found.items()}


def _phases(fields: Fields) -> dict[str, list[str]]:
    """A card's `phases:`, {ABILITY: [PHASE, ...]}: the phases whose activated abilities give it each ability; each
    unknown phase an error (all gathered)."""
    sub = fields.sub("phases", set(ABILITIES))
    found: dict[str, list[str]] = {}
    each = fields.apart()
    for ability in fields.mapping("phases"):
        for item, line, column, path in sub.items(str(ability)):
            with each.part():
                if item not in PHASES:
                    raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                                     expected="one of " + ", ".join(PHASES), suggestion=closest(str(item), PHASES))
                found.setdefault(str(ability), []).append(item)
    each.raise_any()
    return found


def _abilities(fields: Fields) -> list[str]:
    """A card's `abilities:`, each one of the game's (each unknown one an error, all gathered)."""
    result = []
    each = fields.apart()
    for item, line, column, path in fields.items("abilities"):
        with each.part():
            if item not in ABILITIES:
                raise InputError(f"unknown ability {item!r}", file=fields.file, line=line, column=column,
                                 field=path, expected="one of " + ", ".join(ABILITIES))
            result.append(str(item))
    each.raise_any()
    return result


@cache
def builtin_catalog() -> Catalog:
    """The hand-written catalog of the cards the rules document and the examples name (facts/lotr/cards.yaml)."""
    return read_builtin(Path(facts_dir(), "lotr", "cards.yaml"), lambda f: parse_card(f, False), CARD_FIELDS,
                        REFERENCE, "gemp", "PATH/TO/gemp-lotr/cards")


class LotrReader(CardReader):
    """A Lord of the Rings TCG table, decklist and question read from their fields."""

    after_kinds: ClassVar[tuple[str, ...]] = AFTER_KINDS

    state_fields: ClassVar[set[str]] = {"catalog", "cards", "players", "turn", "decks", "current_site", "actions"}
    deck_fields: ClassVar[set[str]] = {"catalog", "cards", "ring_bearer", "ring", "sites"}
    state_type = State
    catalogs = CATALOGS
    card_fields = CARD_FIELDS
    builtin = staticmethod(builtin_catalog)

    def parse_deck(self, fields: Fields, errors: list[InputError]) -> tuple[State, dict[str, Any]]:
        """A decklist file: its draw deck (`cards:`), ring-bearer, ring and sites, every unknown card reported."""
        state = self.new_state(fields)
        entries = self._deck_parts(state, fields, errors)
        if not entries and not errors:
            raise InputError("the decklist holds no cards", file=fields.file, field="cards",
                             expected="cards: a list of entries such as '4 Sting (1R313)'")
        return state, {"entries": entries}

    def parse_state(self, fields: Fields, collected: Collected) -> State:
        """A table: its hypothetical cards, each player's zones, the stacks and bearers, the current site, the turn
        and the decks, each part's error gathered in `collected`."""
        state = self.new_state(fields)
        state.hypothetical = self.hypothetical_cards(state, fields,
                                                     lambda f: parse_card(f, True, partial(self.resolve, state)),
                                                     collected)
        players = fields.mapping("players")
        state.players = [str(p) for p in players]
        for player in state.players:
            zones = None
            with collected.part():
                zones = fields.sub("players", set(state.players)).sub(player, set(ZONES))
            if zones is None:
                continue
            self.unread_zones(state, zones)
            for zone in ZONES:
                for item, line, column, path in self.zone_items(state, zones, zone, collected):
                    self.room_for_instance(state, zones.file, line, column, path)
                    with collected.part():
                        self._instance(state, player, zone, item, zones, path, line, column)
        self._check_stacks(state, fields.file, collected)
        with collected.part():
            self._current_site(state, fields)
        with collected.part():
            self._turn(state, fields)
        self.read_decks(state, fields, collected, partial(self._deck_entries, state))
        read_actions(self, state, fields, collected)
        return state

    @staticmethod
    def _turn(state: State, fields: Fields) -> None:
        """The table's `turn:`, whose turn it is and its phase, each read apart; either not read, the turn is
        marked unread (what needs it says nothing more)."""
        if not fields.has("turn"):
            return
        state.unread.add("turn")
        turn = fields.sub("turn", {"player", "phase"})
        each = turn.apart()
        with each.part():
            state.phase = turn.choice("phase", PHASES, required=True)
        with each.part():
            state.fellowship_player = turn.choice("player", state.players, required=True)
        each.raise_any()
        state.unread.discard("turn")

    def _current_site(self, state: State, fields: Fields) -> None:
        """The table's `current_site:`, a site instance on some player's adventure path."""
        if not fields.has("current_site"):
            return
        site = fields.text("current_site", required=True) or ""
        check_read(state, site, fields, "current_site")
        paths = [i for i, inst in state.instances.items() if inst.zone == "adventure_path"]
        if site not in paths:
            raise fields.error("current_site", f"{site!r} is no site on an adventure path",
                               expected="the id of a site instance in some player's adventure_path",
                               suggestion=closest(site, paths) if paths else None)
        state.current_site = site

    def _instance(self, state: State, player: str, zone: str, item: Any, zones: Fields, path: str,
                  line: int | None, column: int | None) -> None:
        """One card instance of a player's zone; on an error its id, when it has one, is marked unread."""
        auto_id = None
        if isinstance(item, str | int) and not isinstance(item, bool):
            state.zone_counts[player, zone] = state.zone_counts.get((player, zone), 0) + 1
            auto_id = f"{player}.{zone}.{state.zone_counts[player, zone]}"
        with self.reading_instance(state, auto_id or (item.get("id") if isinstance(item, dict) else None)):
            item_fields = zones.entry({"card": item} if auto_id else item, path, INSTANCE_FIELDS, line, column)
            self._read_instance(state, player, zone, item_fields, auto_id, line, column)

    def _read_instance(self, state: State, player: str, zone: str, item_fields: Fields, auto_id: str | None,
                       line: int | None, column: int | None) -> None:
        """An instance's fields (its card, id, activity, wounds, the card it is stacked on or borne by), each read
        apart and checked against its zone; those that need its card once it is read."""
        each = item_fields.apart()
        card, instance_id, active, wounds, on, borne_by = None, "", None, 0, None, None
        with each.part():
            card = self.resolve(state, item_fields.require("card", "a card reference"), item_fields, "card")
        with each.part():
            instance_id = self._instance_id(state, item_fields, auto_id)
        with each.part():
            if item_fields.has("active") and zone not in IN_PLAY_ZONES:
                raise item_fields.error("active", f"a card in the {ZONE_NAMES[zone]} is never active",
                                        expected="active only on cards in play or the support area")
            active = item_fields.flag("active", True) if item_fields.has("active") else None
        with each.part():
            wounds = item_fields.whole("wounds", 0, minimum=0)
        with each.part():
            on = item_fields.text("on")
            if zone == "stacked" and on is None:
                raise item_fields.error("on", "a stacked card must say which instance it is stacked on",
                                        expected="on: <instance id>")
            if zone != "stacked" and on is not None:
                raise item_fields.error("on", "only stacked cards are stacked on something", expected="no 'on' field")
        with each.part():
            borne_by = item_fields.text("borne_by")
        each.raise_any()
        assert card is not None  # read, or the instance was not
        with each.part():
            if zone in SITE_ZONES and card.type != "site":
                where = "on" if zone == "adventure_path" else "in"
                raise item_fields.error("card", f"{card.label()} is a {card.type}, not a site",
                                        expected=f"only sites lie {where} the {ZONE_NAMES[zone]}")
        with each.part():
            if borne_by is not None and (zone != "play" or card.type not in BORNE_TYPES):
                raise item_fields.error("borne_by", f"{card.label()} in the {ZONE_NAMES[zone]} is borne by nobody",
                                        expected="borne_by only on a possession, artifact or condition in the play "
                                                 "area")
        each.raise_any()
        state.instances[instance_id] = Instance(instance_id, card, player, zone, active, wounds, on, borne_by, line,
                                                column)

    @staticmethod
    def _instance_id(state: State, item_fields: Fields, auto_id: str | None) -> str:
        """An instance's id, given or made from its place, used once in the state."""
        instance_id = item_fields.text("id") or auto_id or item_fields.require("id", "an instance id for this card")
        if instance_id in state.instances:
            other = state.instances[instance_id]
            raise item_fields.error("id", f"instance id {instance_id!r} is used twice (also in {other.owner}'s "
                                          f"{ZONE_NAMES[other.zone]})", expected="one zone per instance")
        return instance_id

    def _check_stacks(self, state: State, file: str, collected: Collected) -> None:
        """Every bearer and stack the instances name exists and can hold them; each instance's error gathered."""
        for instance in state.instances.values():
            with collected.part():
                self._check_stack(state, file, instance)

    @staticmethod
    def _check_stack(state: State, file: str, instance: Instance) -> None:
        """The bearer an instance names is a character in play, and the stack it lies in ends on a card."""
        for name in (instance.borne_by, instance.on):
            if name is not None and unread_instance(name) in state.unread:
                raise Unread(f"instance {name!r} was not read", file=file, line=instance.line)
        bearer = state.instances.get(instance.borne_by or "")
        if instance.borne_by is not None and (bearer is None or bearer.zone != "play"
                                              or bearer.card.type not in BEARER_TYPES):
            raise InputError(f"instance {instance.id!r} is borne by {instance.borne_by!r}, which is no character "
                             "in play", file=file, line=instance.line, column=instance.column,
                             field=f"players.{instance.owner}.play.borne_by",
                             expected="the id of a companion, ally or minion in the play area")
        if instance.on is None:
            return

        def fail(message: str, expected: str) -> InputError:
            """An error of the instance's `on:`."""
            return InputError(message, file=file, line=instance.line, column=instance.column,
                              field=f"players.{instance.owner}.stacked.on", expected=expected)

        if instance.on == instance.id:
            raise fail(f"instance {instance.id!r} is stacked on itself", "another instance")
        if instance.on not in state.instances:
            raise fail(f"instance {instance.id!r} is stacked on {instance.on!r}, which does not exist",
                       "an instance id of the state")
        seen, current = {instance.id}, state.instances[instance.on]
        while current.on is not None:
            if current.on in seen or current.on not in state.instances:
                state.unread |= {unread_instance(i) for i in seen}  # the cycle said once, not by each of its cards
                raise fail(f"instance {instance.id!r} is stacked in a cycle", "a stack that ends on a card")
            seen.add(current.id)
            current = state.instances[current.on]

    def _deck_entries(self, state: State, decks: Fields, player: str,
                      errors: list[InputError]) -> list[tuple[Card, int, str]]:
        """A player's decklist of the table: a list of draw-deck cards, or a mapping with cards, ring_bearer, ring
        and sites; every bad entry collected in `errors`."""
        if isinstance(decks.raw(player), list):
            return self.decklist(state, decks, player, "draw", errors)
        return self._deck_parts(state, decks.sub(player, {"cards", "ring_bearer", "ring", "sites"}), errors)

    def _deck_parts(self, state: State, fields: Fields, errors: list[InputError]) -> list[tuple[Card, int, str]]:
        """A decklist's parts: its draw deck (`cards:`), sites, ring-bearer and ring; every bad entry collected in
        `errors`."""
        entries = (self.decklist(state, fields, "cards", "draw", errors)
                   + self.decklist(state, fields, "sites", "site", errors))
        for key in ("ring_bearer", "ring"):
            if fields.has(key):
                try:
                    entries.append((self.resolve(state, fields.raw(key), fields, key), 1, key))
                except InputError as error:
                    errors.append(error)
        return entries

    def decklist(self, state: State, fields: Fields, key: str, part: str,
                 errors: list[InputError]) -> list[tuple[Card, int, str]]:
        """The entries of a list field, each a card, its count and the deck's `part` it belongs to; every bad entry
        collected in `errors`."""
        return self.deck_entries(fields, key, errors, lambda entry: (
            self.resolve(state, entry.require("card", "a card reference"), entry, "card", errors=errors), part))

    def value_question(self, fields: Fields, state: State) -> dict[str, Any]:
        """A `value` question (pyengine/games/lotr/actions.py)."""
        return value_question(fields, state)

    def asked(self, kind: str, fields: Fields, state: State, after: int) -> dict[str, Any]:
        """A question's parameters, the instances' zones checked where it is asked at the start (`after` 0)."""
        if kind == "play":
            return self._play(fields, state, after)
        if kind == "heal":
            return self._heal(fields, state)
        if kind == "killed":
            return {"instance": self.instance_ref(fields, "instance", state)}
        if kind == "ends_in":
            return self._ends_in(fields, state, after)
        if kind == "stack":
            return self._stack(fields, state, after)
        if kind == "deck":
            return {"entries": self.asked_deck(fields, state, "a player with a decklist")}
        if kind == "card":
            return {"card": self.resolve(state, fields.require("card", "a card reference"), fields, "card")}
        if kind == "plays":
            return {"player": fields.choice("player", state.players, required=True)}
        return self._coexist(fields, state)

    def _play(self, fields: Fields, state: State, after: int) -> dict[str, Any]:
        """A `play` question of an instance out of play: the card it is played through, and its bearer."""
        each = fields.apart()
        instance = each.value(lambda: self._out_of_play(fields, state) if not after else
                              self.instance_ref(fields, "instance", state), "")
        via, via_instance = each.value(lambda: self.via(fields, state), (None, None))
        on = each.value(lambda: self.instance_ref(fields, "on", state) if fields.has("on") else None, None)
        each.raise_any()
        card = state.instances[instance].card
        if on is not None and (card.type not in BORNE_TYPES or on == instance):
            raise fields.error("on", f"{card.label()} is a {card.type}, played on no bearer" if on != instance
                               else "a card is not played on itself",
                               expected="on: only when playing a possession, artifact, condition or The One Ring")
        return {"instance": instance, "via": via, "via_instance": via_instance, "on": on}

    def _out_of_play(self, fields: Fields, state: State) -> str:
        """The instance a `play` question plays: one out of play (a stacked one through an effect, `via:`)."""
        instance = self.instance_ref(fields, "instance", state)
        if state.instances[instance].zone in (*IN_PLAY_ZONES, *SITE_ZONES) or (
                state.instances[instance].zone == "stacked" and not fields.has("via")):
            zone = ZONE_NAMES[state.instances[instance].zone]
            raise fields.error("instance", f"instance {instance!r} lies in the {zone}",
                               expected="a card in hand, draw deck, discard pile, dead pile or removed from the "
                                        "game (a stacked card through an effect, via:); sites are not played "
                                        "with play")
        return instance

    def _heal(self, fields: Fields, state: State) -> dict[str, Any]:
        """A `heal` question: the instance healed and the one discarded, asked at a turn the table gives."""
        each = fields.apart()
        instance = each.value(lambda: self.instance_ref(fields, "instance", state), "")
        discard = each.value(lambda: self.instance_ref(fields, "discard", state), "")
        with each.part():
            if "turn" in state.unread:
                raise Unread("the table's turn was not read", file=fields.file, field=fields.name("ask"))
            if state.phase is None:  # whose fellowship phase it is decides a heal: never answered without it
                raise fields.error("ask", "a heal question needs the table's turn: whose turn it is and its phase",
                                   expected="turn: {player: NAME, phase: fellowship} in the table (p7, p58: a heal "
                                            "by discard is the fellowship player's action in the fellowship phase)")
        each.raise_any()
        return {"instance": instance, "discard": discard}

    def _ends_in(self, fields: Fields, state: State, after: int) -> dict[str, Any]:
        """An `ends_in` question: the event, and the card in play it befalls (the instance, or what it lies on)."""
        each = fields.apart()
        instance = each.value(lambda: self.instance_ref(fields, "instance", state), "")
        event = each.value(lambda: fields.choice("event", ("killed", "discarded", "replaced"), default="killed"), "")
        each.raise_any()
        if event == "replaced":
            if fields.has("of") or state.instances[instance].zone != "adventure_path":
                raise fields.error("of" if fields.has("of") else "instance",
                                   f"{instance!r} lies in the {ZONE_NAMES[state.instances[instance].zone]}: "
                                   "only a site on an adventure path is replaced",
                                   expected="the instance of a site on an adventure path, and no of:")
            return {"instance": instance, "event": event, "of": instance}
        of = self.instance_ref(fields, "of", state) if fields.has("of") else instance
        if after:
            return {"instance": instance, "event": event, "of": of}
        if state.instances[of].zone not in IN_PLAY_ZONES:
            raise fields.error("of" if fields.has("of") else "instance", f"instance {of!r} is not in play",
                               expected="a card in the play area or support area")
        card = state.instances[instance]
        if instance != of and of not in (card.on, card.borne_by):
            raise fields.error("instance", f"instance {instance!r} is neither {of!r} nor borne by or stacked on it",
                               expected=f"{of!r}, or a card it bears or that is stacked on it")
        return {"instance": instance, "event": event, "of": of}

    def _stack(self, fields: Fields, state: State, after: int) -> dict[str, Any]:
        """A `stack` question: the instance stacked, the one it is stacked on, and the card it is stacked through."""
        each = fields.apart()
        instance = each.value(lambda: self._stackable(fields, state) if not after else
                              self.instance_ref(fields, "instance", state), "")
        on = each.value(lambda: self.instance_ref(fields, "on", state), "")
        via, via_instance = each.value(lambda: self.via(fields, state), (None, None))
        each.raise_any()
        if on == instance:
            raise fields.error("on", "a card is not stacked on itself", expected="another instance")
        return {"instance": instance, "on": on, "via": via, "via_instance": via_instance}

    def _stackable(self, fields: Fields, state: State) -> str:
        """The instance a `stack` question stacks: one in hand, in play, in a discard pile, draw deck or dead pile."""
        instance = self.instance_ref(fields, "instance", state)
        if state.instances[instance].zone in ("stacked", "removed", *SITE_ZONES):
            raise fields.error("instance", f"instance {instance!r} lies in the "
                                           f"{ZONE_NAMES[state.instances[instance].zone]}",
                               expected="a card in hand, in play, in the discard pile, draw deck or dead pile")
        return instance

    def _coexist(self, fields: Fields, state: State) -> dict[str, Any]:
        """A `coexist` question: two cards in play (of one player or of opponents) or in a deck (with counts)."""
        each = fields.apart()
        cards = each.value(lambda: self.two_cards(fields, state), [])
        where = each.value(lambda: fields.choice("in", ("play", "deck"), default="play"), "")
        each.raise_any()
        if where == "play":
            if fields.has("counts"):
                raise fields.error("counts", "counts apply to decks", expected="no counts with in: play")
            return {"cards": cards, "in": where, "players": fields.choice("players", ("same_player", "opponents"),
                                                                           default="same_player")}
        if fields.has("players"):
            raise fields.error("players", "a deck belongs to one player", expected="no players with in: deck")
        counts = [c if isinstance(c, int) and not isinstance(c, bool) and 0 < c <= MAX_NUMBER else -1
                  for c, *_ in fields.items("counts")] or [1, 1]
        if len(counts) != 2 or min(counts) < 1:
            raise fields.error("counts", f"got {fields.raw('counts')!r}",
                               expected=f"two whole numbers from 1 to {MAX_NUMBER}")
        return {"cards": cards, "in": where, "entries": [(c, n, "draw") for c, n in zip(cards, counts, strict=True)]}
