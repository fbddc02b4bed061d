"""The Lord of the Rings TCG (document lotr_unique): the built-in catalog, the scenario state (players, zones,
instances, decks, turn) and questions, the facts they become, and how evidence reads to a judge."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, ClassVar

import clingo

from pyengine.core import kb as kbase
from pyengine.core.asp import MAX_NUMBER, Const, Fact, fact
from pyengine.core.catalog import Card, Catalog, MemoryCatalog
from pyengine.core.errors import Collected, InputError, Unread, closest
from pyengine.core.fields import Fields
from pyengine.core.limits import limits
from pyengine.core.resources import facts_dir
from pyengine.core.text import exact_title, title_key
from pyengine.games import DOCUMENTS
from pyengine.games.common import (
    BLANK_TABLE,
    CardGame,
    CensusSpec,
    catalog_for,
    check_deck_read,
    check_read,
    deck_entry,
    hypothetical_cards,
    read_builtin,
    read_deck,
    reading_instance,
    resolve_card,
    unread_instance,
)

ZONES = ("play", "support", "hand", "draw_deck", "discard", "dead_pile", "stacked", "adventure_path", "adventure_deck",
         "removed")
# The zones only sites lie in.
SITE_ZONES = ("adventure_path", "adventure_deck")
IN_PLAY_ZONES = ("play", "support")
TYPES = ("companion", "ally", "follower", "minion", "possession", "artifact", "condition", "event", "site",
         "the_one_ring", "metasite", "map")
SIDES = ("free_peoples", "shadow")
ABILITIES = ("plays_from_dead_pile", "bypasses_dead_pile_copies", "locks_opposing_shadow_copies",
             "plays_from_hand_ignoring_dead_pile", "plays_from_hand", "plays_from_discard", "plays_from_draw_deck",
             "plays_from_stacked", "stacks_cards")
PHASES = ("fellowship", "shadow", "maneuver", "archery", "assignment", "skirmish", "regroup")
CARD_FIELDS = {"id", "collinfo", "title", "subtitle", "unique", "side", "type", "culture", "split", "abilities",
               "translation_of", "stored_title", "race", "filters", "phases"}
CATALOGS = ("builtin", "gemp")
INSTANCE_FIELDS = {"id", "card", "active", "wounds", "on", "borne_by"}
# The types of card that a character bears, and the types of character that bear them.
BORNE_TYPES = ("possession", "artifact", "condition", "the_one_ring")
BEARER_TYPES = ("companion", "ally", "minion")
ZONE_NAMES = {"play": "play area", "support": "support area", "hand": "hand", "draw_deck": "draw deck",
              "discard": "discard pile", "dead_pile": "dead pile", "stacked": "stacked cards",
              "adventure_path": "adventure path", "adventure_deck": "adventure deck",
              "removed": "cards removed from the game"}


@dataclass
class Instance:
    id: str
    card: Card
    owner: str
    zone: str
    active: bool | None = None
    wounds: int = 0
    on: str | None = None
    borne_by: str | None = None
    line: int | None = None
    column: int | None = None


@dataclass
class State:
    catalog: Catalog
    players: list[str] = field(default_factory=list)
    instances: dict[str, Instance] = field(default_factory=dict)
    decks: dict[str, list[tuple[Card, int, str]]] = field(default_factory=dict)
    phase: str | None = None
    fellowship_player: str | None = None
    # The site the fellowship is at: an instance on an adventure path, whose abilities the players may use.
    current_site: str | None = None
    hypothetical: list[Card] = field(default_factory=list)
    # How many instances without an id each (player, zone) holds so far: their ids are numbered from it.
    zone_counts: dict[tuple[str, str], int] = field(default_factory=dict)
    # The parts of the table not read for an error of their own (hypothetical cards, instances, the turn, decks):
    # what names one of them is not checked again (errors.Unread).
    unread: set[str] = field(default_factory=set)


def parse_card(fields: Fields, hypothetical: bool, resolve: Any = None) -> Card:
    """One card record, from the built-in catalog or a scenario's `cards:` list."""
    side = fields.choice("side", SIDES)
    unique = fields.raw("unique", False)
    # `unique: N` (N of 2 or more) is an "at most N" card, as GEMP's data has some; true or false is the dot or none.
    if not isinstance(unique, bool) and not (isinstance(unique, int) and 1 <= unique <= MAX_UNIQUE_LIMIT):
        raise fields.error("unique", f"got {unique!r}",
                           expected=f"true, false, or how many copies the card allows, 1 to {MAX_UNIQUE_LIMIT}")
    limit = 1 if isinstance(unique, bool) else unique
    translation = fields.text("translation_of")
    if translation is not None and resolve is not None:
        translation = resolve(translation, fields, "translation_of").id
    return Card(
        id=fields.text("id", required=True) or "",
        title=fields.title("title", required=True) or "",
        subtitle=fields.title("subtitle"),
        unique=bool(unique),
        side=side,
        type=fields.choice("type", TYPES, required=True) or "",
        culture=fields.text("culture"),
        race=(fields.text("race") or "").lower() or None,
        collinfo=fields.text("collinfo"),
        split=fields.whole("split", 0, minimum=0) or None,
        abilities=tuple(_abilities(fields)),
        translation_of=translation,
        hypothetical=hypothetical,
        stored_title=fields.text("stored_title"),
        extra={**({"unique_limit": limit} if limit > 1 else {}),
               **({"ability_filters": _filters(fields)} if fields.has("filters") else {}),
               **({"ability_phases": _phases(fields)} if fields.has("phases") else {})},
    )


# The most copies an "at most N" card of a scenario's `cards:` may allow (GEMP's data has 2 and 3).
MAX_UNIQUE_LIMIT = 9
# The attributes an ability's filter may name (`unchecked` keeps a part the rules cannot read).
FILTER_KINDS = ("race", "type", "culture", "title", "unchecked")


def _filters(fields: Fields) -> dict[str, list[list[str]]]:
    """A card's `filters:`, {ABILITY: [[KIND, VALUE], ...]}, as GEMP's importer derives them from effect scripts."""
    sub = fields.sub("filters", set(ABILITIES))
    found: dict[str, list[list[str]]] = {}
    for ability in fields.mapping("filters"):
        for item, line, column, path in sub.items(str(ability)):
            if not (isinstance(item, list) and len(item) == 2 and item[0] in FILTER_KINDS
                    and isinstance(item[1], str)):
                raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                                 expected="[KIND, VALUE] with KIND one of " + ", ".join(FILTER_KINDS))
            if item[0] == "type" and item[1] not in TYPES:
                raise InputError(f"unknown card type {item[1]!r}", file=fields.file, line=line, column=column,
                                 field=path, expected="one of " + ", ".join(TYPES), suggestion=closest(item[1], TYPES))
            found.setdefault(str(ability), []).append([item[0], item[1]])
    return found


def _phases(fields: Fields) -> dict[str, list[str]]:
    """A card's `phases:`, {ABILITY: [PHASE, ...]}: the phases whose activated abilities give it each ability."""
    sub = fields.sub("phases", set(ABILITIES))
    found: dict[str, list[str]] = {}
    for ability in fields.mapping("phases"):
        for item, line, column, path in sub.items(str(ability)):
            if item not in PHASES:
                raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                                 expected="one of " + ", ".join(PHASES), suggestion=closest(str(item), PHASES))
            found.setdefault(str(ability), []).append(item)
    return found


def _abilities(fields: Fields) -> list[str]:
    result = []
    for item, line, column, path in fields.items("abilities"):
        if item not in ABILITIES:
            raise InputError(f"unknown ability {item!r}", file=fields.file, line=line, column=column, field=path,
                             expected="one of " + ", ".join(ABILITIES))
        result.append(str(item))
    return result


# How a table names a card of this game.
REFERENCE = "a card id (1_313), a collector's info (1R313) or a title"


@cache
def builtin_catalog() -> Catalog:
    return read_builtin(Path(facts_dir(), "lotr", "cards.yaml"), lambda f: parse_card(f, False), CARD_FIELDS,
                        REFERENCE, "gemp", "PATH/TO/gemp-lotr/cards")


@lru_cache(maxsize=65536)
def _card_fact_lines(card: Card, translated_title: str | None) -> tuple[Fact, ...]:
    """The facts of one card (cards are immutable, so each is built once per process)."""
    c = card.id
    out = [fact("card", c), fact("title", c, exact_title(card.title)), fact("title_key", c, title_key(card.title)),
           fact("card_type", c, Const(card.type))]
    if card.subtitle is not None:
        out.append(fact("subtitle", c, card.subtitle))
    if card.unique:
        out.append(fact("unique", c))
    # An "at most N" card (N of 2 or more, from the data) is unique with its count beside it (rules/lotr/at_most.lp).
    limit = card.extra.get("unique_limit", 1)
    if card.unique and limit > 1:
        out.append(fact("unique_limit", c, limit))
    if card.side:
        out.append(fact("side", c, Const(card.side)))
    if card.collinfo:
        out.append(fact("collinfo", c, card.collinfo))
    if card.race:
        out.append(fact("card_race", c, card.race))
    if card.culture:
        out.append(fact("card_culture", c, card.culture.lower()))
    for ability, parts in sorted(card.extra.get("ability_filters", {}).items()):
        for kind, value in parts:
            # A type is a name of the encodings (card_type/2 holds constants); the other kinds are text.
            shown = title_key(value) if kind == "title" else Const(value) if kind == "type" else value
            out.append(fact("card_filter", c, Const(ability), Const(kind), shown))
    out.append(fact("stored_title", c, exact_title(card.stored_title or card.title)))
    if card.split:
        out.append(fact("card_split", c, card.split))
    out.extend(fact("card_ability", c, Const(a)) for a in card.abilities)
    # Phases come from a hand-written card or GEMP's scripts; only the game's phases become names of the encodings.
    out.extend(fact("card_ability_phase", c, Const(a), Const(p))
               for a, phases in sorted(card.extra.get("ability_phases", {}).items()) if a in ABILITIES
               for p in phases if p in PHASES)
    if translated_title is not None:
        out.append(fact("alias_key", c, title_key(translated_title)))
    return tuple(out)


class Lotr(CardGame):
    name = "lotr"
    builtin_catalog = staticmethod(builtin_catalog)
    document = DOCUMENTS["lotr"]
    state_fields: ClassVar[set[str]] = {"catalog", "cards", "players", "turn", "decks", "current_site"}
    deck_fields: ClassVar[set[str]] = {"catalog", "cards", "ring_bearer", "ring", "sites"}
    # The predicates a state and its questions are given by (the edge-case search shares them between worlds).
    input_predicates: ClassVar[set[str]] = {
        "card", "title", "title_key", "alias_key", "subtitle", "unique", "side", "card_type", "collinfo",
        "stored_title", "card_split", "card_ability", "instance", "in_zone", "inactive", "wounds", "stacked_on",
        "phase", "fellowship_player", "player", "question", "q_play", "q_via", "q_plays", "q_heal",
        "q_killed", "q_coexist", "q_card", "deck_part", "document_ability", "document_split", "ability_reading",
        "ability_filter", "card_race", "card_culture", "card_filter", "marked_active",
        "q_stack", "q_stack_via", "borne_by", "q_via_instance", "current_site", "q_ends",
        "q_stack_via_instance", "card_ability_phase", "q_play_on", "unique_limit"}
    # How the census (pyengine.tools.census) matches this game's real cards with the edge-case search's abstract ones.
    census: ClassVar[CensusSpec] = CensusSpec(
        card_predicates=frozenset({
            "used_card", "group", "spelling", "stored", "unique", "unique_limit", "subtitle", "collinfo_pick",
            "clash_version",
        "translation_of", "card_type", "card_ability", "collinfo", "card_race", "card_filter", "card_ability_phase"}),
        free=frozenset({"card", "card_type", "side"}),
        exact=frozenset({"unique"}),
        derived={"ability": "card_ability"},
        derived_kinds=("card",),
        shared=frozenset({"title_key", "collinfo"}),
        differing=(("title", "stored_title"),),
        aliases=frozenset(),
        respelt=(("title", "title_key"),),
        present=frozenset({"subtitle"}),
        type_families={
            "companion": "character", "ally": "character", "minion": "character",
            "possession": "attachment", "condition": "attachment", "artifact": "attachment"},
        counted=frozenset({"unique_limit"}))
    # The state predicates `pyengine flip` may change (rules/flip/lotr.lp).
    flip_predicates: ClassVar[set[str]] = {"instance", "in_zone", "inactive", "wounds", "stacked_on"}
    # The rule files every question needs, and those each kind of question needs besides (rules/lotr/).
    activity_view: ClassVar[str | None] = "show_activity.lp"
    base_files: ClassVar[tuple[str, ...]] = ("state.lp", "identity.lp")
    kind_files: ClassVar[dict[str, tuple[str, ...]]] = {
        "play": ("play.lp", "dead_pile.lp", "at_most.lp"), "heal": ("heal.lp",), "killed": ("killed.lp",),
        "ends_in": ("killed.lp",),
        "deck": ("deck.lp",),
        "coexist": ("play.lp", "coexist.lp", "deck.lp"), "card": ("card_data.lp",),
        "plays": ("play.lp", "dead_pile.lp", "at_most.lp", "plays.lp"), "stack": ("stack.lp",),
    }
    question_fields: ClassVar[dict[str, set[str]]] = {
        "play": {"instance", "via", "on"},
        "heal": {"instance", "discard"},
        "killed": {"instance"}, "ends_in": {"instance", "event", "of"},
        "deck": {"player"},
        "coexist": {"cards", "in", "players", "counts"},
        "card": {"card"},
        "plays": {"player"}, "stack": {"instance", "on", "via"},
    }
    verdicts: ClassVar[dict[str, tuple[str, ...] | None]] = {
        "play": ("legal", "illegal"), "heal": ("legal", "illegal"), "killed": ("dead_pile", "discard_pile"),
        "ends_in": ("dead_pile", "discard_pile", "adventure_deck"),
        "deck": ("valid", "invalid"), "coexist": ("yes", "no"), "card": ("valid", "invalid"),
        "plays": None, "stack": ("legal", "illegal"),
    }

    def web_extras(self) -> dict[str, Any]:
        """What the explorer's form offers: a blank table, the zones and those in play, what an instance row sets
        besides its card, the turn's phases, and a player's decklist (led by its ring-bearer, a companion)."""
        return {"blank": BLANK_TABLE, "zones": list(ZONES), "in_play": list(IN_PLAY_ZONES),
                "instance_extras": ["wounds", "active", "on"], "phases": list(PHASES),
                "deck": {"leader": "ring_bearer", "leader_types": ["companion"]}}

    # -- reading a scenario -------------------------------------------------------------------------------

    def _resolve(self, state: State, ref: Any, fields: Fields, key: str,
                 errors: list[InputError] | None = None) -> Card:
        check_read(state, ref, fields, key)
        return resolve_card(state.catalog, ref, fields, key, errors=errors)

    def _new_state(self, fields: Fields) -> State:
        return State(catalog_for(fields, CATALOGS, builtin_catalog))

    def parse_deck(self, fields: Fields, errors: list[InputError]) -> tuple[State, dict[str, Any]]:
        """A decklist file: its draw deck (`cards:`), ring-bearer, ring and sites, every unknown card reported."""
        state = self._new_state(fields)
        entries = self.decklist(state, fields, "cards", "draw", errors) + self.decklist(state, fields, "sites",
                                                                                          "site", errors)
        for key in ("ring_bearer", "ring"):
            if fields.has(key):
                try:
                    entries.append((self._resolve(state, fields.raw(key), fields, key), 1, key))
                except InputError as error:
                    errors.append(error)
        if not entries and not errors:
            raise InputError("the decklist holds no cards", file=fields.file, field="cards",
                             expected="cards: a list of entries such as '4 Sting (1R313)'")
        return state, {"entries": entries}

    def parse_state(self, fields: Fields, collected: Collected) -> State:
        state = self._new_state(fields)
        def resolve(ref: Any, where: Fields, key: str) -> Card:
            return self._resolve(state, ref, where, key)

        state.hypothetical = hypothetical_cards(state, fields, CARD_FIELDS, lambda f: parse_card(f, True, resolve),
                                                collected)
        players = fields.mapping("players")
        state.players = [str(p) for p in players]
        for player in state.players:
            zones = fields.sub("players", set(state.players)).sub(player, set(ZONES))
            for zone in ZONES:
                for item, line, column, path in zones.items(zone):
                    if len(state.instances) >= limits.max_instances:
                        raise InputError(f"the state has more than {limits.max_instances} card instances",
                                         file=zones.file, line=line, column=column, field=path,
                                         expected="a smaller state, or a higher --max-instances")
                    with collected.part():
                        self._instance(state, player, zone, item, zones.file, path, line, column)
        self._check_stacks(state, fields.file, collected)
        with collected.part():
            self._current_site(state, fields)
        with collected.part():
            turn = fields.sub("turn", {"player", "phase"})
            if fields.has("turn"):
                state.unread.add("turn")
                state.phase = turn.choice("phase", PHASES, required=True)
                state.fellowship_player = turn.choice("player", state.players, required=True)
                state.unread.discard("turn")
        decks = fields.sub("decks", set(state.players))
        for player in state.players:
            if decks.has(player):
                read_deck(state, player, collected,
                          lambda errors, p=player: self._deck_entries(state, decks, p, errors))
        return state

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

    def _instance(self, state: State, player: str, zone: str, item: Any, file: str, path: str,
                  line: int | None, column: int | None) -> None:
        """One card instance of a player's zone; on an error its id, when it has one, is marked unread."""
        auto_id = None
        if isinstance(item, str | int) and not isinstance(item, bool):
            state.zone_counts[player, zone] = state.zone_counts.get((player, zone), 0) + 1
            auto_id = f"{player}.{zone}.{state.zone_counts[player, zone]}"
        with reading_instance(state, auto_id or (item.get("id") if isinstance(item, dict) else None)):
            item_fields = Fields({"card": item} if auto_id else item, file, path, INSTANCE_FIELDS, line or 0,
                                 column or 0)
            self._read_instance(state, player, zone, item_fields, auto_id, line, column)

    def _read_instance(self, state: State, player: str, zone: str, item_fields: Fields, auto_id: str | None,
                       line: int | None, column: int | None) -> None:
        card = self._resolve(state, item_fields.require("card", "a card reference"), item_fields, "card")
        instance_id = item_fields.text("id") or auto_id or ""
        if not instance_id:
            raise item_fields.error("id", "missing field 'id'", expected="an instance id for this card")
        if instance_id in state.instances:
            other = state.instances[instance_id]
            raise item_fields.error("id", f"instance id {instance_id!r} is used twice (also in {other.owner}'s "
                                          f"{ZONE_NAMES[other.zone]})", expected="one zone per instance")
        if zone in SITE_ZONES and card.type != "site":
            where = "on" if zone == "adventure_path" else "in"
            raise item_fields.error("card", f"{card.label()} is a {card.type}, not a site",
                                    expected=f"only sites lie {where} the {ZONE_NAMES[zone]}")
        if item_fields.has("active") and zone not in IN_PLAY_ZONES:
            raise item_fields.error("active", f"a card in the {ZONE_NAMES[zone]} is never active",
                                    expected="active only on cards in play or the support area")
        on = item_fields.text("on")
        if zone == "stacked" and on is None:
            raise item_fields.error("on", "a stacked card must say which instance it is stacked on",
                                    expected="on: <instance id>")
        if zone != "stacked" and on is not None:
            raise item_fields.error("on", "only stacked cards are stacked on something", expected="no 'on' field")
        borne_by = item_fields.text("borne_by")
        if borne_by is not None and (zone != "play" or card.type not in BORNE_TYPES):
            raise item_fields.error("borne_by", f"{card.label()} in the {ZONE_NAMES[zone]} is borne by nobody",
                                    expected="borne_by only on a possession, artifact or condition in the play area")
        state.instances[instance_id] = Instance(instance_id, card, player, zone,
                                                item_fields.flag("active", True) if item_fields.has("active") else None,
                                                item_fields.whole("wounds", 0, minimum=0), on, borne_by, line, column)

    def _check_stacks(self, state: State, file: str, collected: Collected) -> None:
        """Every bearer and stack the instances name exists and can hold them; each instance's error gathered."""
        for instance in state.instances.values():
            with collected.part():
                self._check_stack(state, file, instance)

    @staticmethod
    def _check_stack(state: State, file: str, instance: Instance) -> None:
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
        """A decklist: a list of draw-deck cards, or a mapping with cards, ring_bearer, ring and sites; every bad
        entry collected in `errors`."""
        if isinstance(decks.raw(player), list):
            return self.decklist(state, decks, player, "draw", errors)
        parts = decks.sub(player, {"cards", "ring_bearer", "ring", "sites"})
        entries = (self.decklist(state, parts, "cards", "draw", errors)
                   + self.decklist(state, parts, "sites", "site", errors))
        for key in ("ring_bearer", "ring"):
            if parts.has(key):
                try:
                    entries.append((self._resolve(state, parts.raw(key), parts, key), 1, key))
                except InputError as error:
                    errors.append(error)
        return entries

    def decklist(self, state: State, fields: Fields, key: str, part: str,
                 errors: list[InputError] | None = None) -> list[tuple[Card, int, str]]:
        """The entries of a list field: `{card: REF, count: N}`, or a string `REF` or `N REF` or `Nx REF`.
        With `errors`, every bad entry is collected there instead of stopping at the first."""
        entries = []
        for item, line, column, path in fields.items(key):
            try:
                entry = Fields(deck_entry(item, line, column), fields.file, path, {"card", "count"}, line or 0,
                               column or 0)
                card = self._resolve(state, entry.require("card", "a card reference"), entry, "card", errors)
                entries.append((card, entry.whole("count", 1, minimum=1), part))
            except InputError as error:
                if errors is None:
                    raise
                errors.append(error)
        self.check_deck_total(fields, key, [n for _, n, _ in entries])
        return entries

    def _instance_ref(self, fields: Fields, key: str, state: State) -> str:
        ref = fields.text(key, required=True) or ""
        check_read(state, ref, fields, key)
        if ref not in state.instances:
            raise fields.error(key, f"no instance {ref!r} in the state", expected="an instance id of the state",
                               suggestion=closest(ref, state.instances))
        return ref

    def _via(self, fields: Fields, state: State) -> tuple[Card, str | None]:
        """The card whose ability a play uses, and its instance when `via:` names one of the state (whether the
        player may use it is for the rules), else a card reference for a card not in the state."""
        ref = fields.raw("via")
        if isinstance(ref, str) and ref in state.instances:
            return state.instances[ref].card, ref
        return self._resolve(state, ref, fields, "via"), None

    def parse_question(self, kind: str, fields: Fields, state: State) -> dict[str, Any]:
        if kind in ("play", "heal", "killed", "ends_in"):
            instance = self._instance_ref(fields, "instance", state)
        if kind == "play":
            if state.instances[instance].zone in (*IN_PLAY_ZONES, *SITE_ZONES) or (
                    state.instances[instance].zone == "stacked" and not fields.has("via")):
                zone = ZONE_NAMES[state.instances[instance].zone]
                raise fields.error("instance", f"instance {instance!r} lies in the {zone}",
                                   expected="a card in hand, draw deck, discard pile, dead pile or removed from the "
                                            "game (a stacked card through an effect, via:); sites are not played "
                                            "with play")
            via, via_instance = self._via(fields, state) if fields.has("via") else (None, None)
            on = self._instance_ref(fields, "on", state) if fields.has("on") else None
            card = state.instances[instance].card
            if on is not None and (card.type not in BORNE_TYPES or on == instance):
                raise fields.error("on", f"{card.label()} is a {card.type}, played on no bearer" if on != instance
                                   else "a card is not played on itself",
                                   expected="on: only when playing a possession, artifact, condition or The One Ring")
            return {"instance": instance, "via": via, "via_instance": via_instance, "on": on}
        if kind == "heal":
            if "turn" in state.unread:
                raise Unread("the table's turn was not read", file=fields.file, field=fields.name("ask"))
            if state.phase is None:  # whose fellowship phase it is decides a heal: never answered without it
                raise fields.error("ask", "a heal question needs the table's turn: whose turn it is and its phase",
                                   expected="turn: {player: NAME, phase: fellowship} in the table (p7, p58: a heal "
                                            "by discard is the fellowship player's action in the fellowship phase)")
            return {"instance": instance, "discard": self._instance_ref(fields, "discard", state)}
        if kind == "killed":
            return {"instance": instance}
        if kind == "ends_in":
            event = fields.choice("event", ("killed", "discarded", "replaced"), default="killed") or "killed"
            if event == "replaced":
                if fields.has("of") or state.instances[instance].zone != "adventure_path":
                    raise fields.error("of" if fields.has("of") else "instance",
                                       f"{instance!r} lies in the {ZONE_NAMES[state.instances[instance].zone]}: "
                                       "only a site on an adventure path is replaced",
                                       expected="the instance of a site on an adventure path, and no of:")
                return {"instance": instance, "event": event, "of": instance}
            of = self._instance_ref(fields, "of", state) if fields.has("of") else instance
            if state.instances[of].zone not in IN_PLAY_ZONES:
                raise fields.error("of" if fields.has("of") else "instance", f"instance {of!r} is not in play",
                                   expected="a card in the play area or support area")
            card = state.instances[instance]
            if instance != of and of not in (card.on, card.borne_by):
                raise fields.error("instance", f"instance {instance!r} is neither {of!r} nor borne by or stacked on it",
                                   expected=f"{of!r}, or a card it bears or that is stacked on it")
            return {"instance": instance, "event": event, "of": of}
        if kind == "stack":
            instance = self._instance_ref(fields, "instance", state)
            if state.instances[instance].zone in ("stacked", "removed", *SITE_ZONES):
                raise fields.error("instance", f"instance {instance!r} lies in the "
                                               f"{ZONE_NAMES[state.instances[instance].zone]}",
                                   expected="a card in hand, in play, in the discard pile, draw deck or dead pile")
            on = self._instance_ref(fields, "on", state)
            if on == instance:
                raise fields.error("on", "a card is not stacked on itself", expected="another instance")
            via, via_instance = self._via(fields, state) if fields.has("via") else (None, None)
            return {"instance": instance, "on": on, "via": via, "via_instance": via_instance}
        if kind == "deck":
            player = fields.choice("player", state.players, required=True) or ""
            check_deck_read(state, player, fields)
            if player not in state.decks:
                raise fields.error("player", f"player {player!r} has no deck in `decks:`",
                                   expected="a player with a decklist")
            return {"entries": state.decks[player]}
        if kind == "card":
            return {"card": self._resolve(state, fields.require("card", "a card reference"), fields, "card")}
        if kind == "plays":
            return {"player": fields.choice("player", state.players, required=True)}
        cards = [self._resolve(state, ref, fields, "cards") for ref, *_ in fields.items("cards")]
        if len(cards) != 2:
            raise fields.error("cards", f"got {len(cards)} cards", expected="a list of exactly two cards")
        where = fields.choice("in", ("play", "deck"), default="play")
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

    # -- facts ---------------------------------------------------------------------------------------------

    @staticmethod
    def census_links(card: Card) -> list[tuple[str, str]]:
        """The cards a card names (the card it translates), for the census to match cards by."""
        return [("translation_of", card.translation_of)] if card.translation_of else []

    @staticmethod
    def census_related(card: Card, catalog: Catalog) -> list[Card]:
        """The cards a table's card brings along into its facts: none (a translation's original gives only a key)."""
        return []

    def card_facts(self, card: Card, catalog: Catalog) -> tuple[Fact, ...]:
        original = catalog.get(card.translation_of).title if card.translation_of else None
        return _card_fact_lines(card, original)

    def facts(self, state: State, questions: list[tuple[str, str, dict[str, Any]]]) -> list[Fact]:
        cards: dict[str, Card] = {}
        out: list[Fact] = []
        for player in state.players:
            out.append(fact("player", player))
        if state.current_site is not None:
            out.append(fact("current_site", state.current_site))
        for inst in state.instances.values():
            i = inst.id
            cards[inst.card.id] = inst.card
            out.append(fact("instance", i, inst.card.id, inst.owner))
            out.append(fact("in_zone", i, Const(inst.zone)))
            out.append(fact("wounds", i, inst.wounds))
            if inst.active is False:
                out.append(fact("inactive", i))
            if inst.active is True and state.fellowship_player is not None:
                out.append(fact("marked_active", i))
            if inst.on is not None:
                out.append(fact("stacked_on", i, inst.on))
            if inst.borne_by is not None:
                out.append(fact("borne_by", i, inst.borne_by))
        if state.phase:
            out.append(fact("phase", Const(state.phase)))
            out.append(fact("fellowship_player", state.fellowship_player or ""))
        for q, kind, params in questions:
            out.append(fact("question", q, Const(kind)))
            if kind == "play":
                out.append(fact("q_play", q, params["instance"], state.instances[params["instance"]].owner))
                if params["via"] is not None:
                    cards[params["via"].id] = params["via"]
                    out.append(fact("q_via", q, params["via"].id))
                if params["via_instance"] is not None:
                    out.append(fact("q_via_instance", q, params["via_instance"]))
                if params["on"] is not None:
                    out.append(fact("q_play_on", q, params["on"]))
            elif kind == "heal":
                target = state.instances[params["instance"]]
                out.append(fact("q_heal", q, target.id, params["discard"], target.owner))
            elif kind == "killed":
                out.append(fact("q_killed", q, params["instance"]))
            elif kind == "ends_in":
                out.append(fact("q_ends", q, params["instance"], Const(params["event"]), params["of"]))
            elif kind == "stack":
                out.append(fact("q_stack", q, params["instance"], params["on"]))
                if params["via"] is not None:
                    cards[params["via"].id] = params["via"]
                    out.append(fact("q_stack_via", q, params["via"].id))
                if params["via_instance"] is not None:
                    out.append(fact("q_stack_via_instance", q, params["via_instance"]))
            elif kind == "plays":
                out.append(fact("q_plays", q, params["player"]))
            elif kind == "card":
                cards[params["card"].id] = params["card"]
                out.append(fact("q_card", q, params["card"].id))
            elif kind == "coexist" and params["in"] == "play":
                a, b = params["cards"]
                cards[a.id], cards[b.id] = a, b
                out.append(fact("q_coexist", q, a.id, b.id, Const(params["players"])))
            if "entries" in params:
                totals: dict[tuple[str, str], int] = {}
                for card, count, part in params["entries"]:
                    cards[card.id] = card
                    totals[card.id, part] = totals.get((card.id, part), 0) + count
                out.extend(fact("deck_part", q, cid, Const(part), n) for (cid, part), n in totals.items())
        for card in cards.values():
            out.extend(self.card_facts(card, state.catalog))
        return out

    def check_cards(self, cards: list[Card]) -> list[dict[str, Any]]:
        """The cards whose data contradicts what the document says of cards, with the deciding rules."""
        from pyengine.core.engine import solve

        kb = kbase.load(self.name)
        catalog = MemoryCatalog(cards)
        facts: list[str] = []
        questions: dict[str, Card] = {}
        for index, card in enumerate(cards):
            questions[f"c{index}"] = card
            facts += [fact("question", f"c{index}", Const("card")), fact("q_card", f"c{index}", card.id)]
            facts.extend(self.card_facts(card, catalog))
        found = []
        for symbol in solve(self.name, facts, frozenset({"card"})):
            if symbol.name == "reason":
                card = questions[symbol.arguments[0].string]
                rule = str(symbol.arguments[1])
                found.append({"card": card.id, "title": card.full_name, "rule": rule,
                              "paragraphs": [f"{d} {p}" for d, p in kb.rules[rule].sources]})
        return sorted(found, key=lambda f: (f["card"], f["rule"]))

    # -- the edge-case search's states as scenarios --------------------------------------------------------

    def search_state(self, facts: list[clingo.Symbol]) -> dict[str, Any]:
        """A state the search found (rules/search/lotr.lp), as the fields of a scenario file."""
        by_name: dict[str, list[list[Any]]] = {}
        for atom in facts:
            by_name.setdefault(atom.name, []).append([_plain(a) for a in atom.arguments])
        one = {name: {row[0]: row[1] for row in rows} for name, rows in by_name.items()
               if name in ("group", "spelling", "stored", "card_type", "subtitle", "collinfo_pick", "in_zone", "wounds",
                           "stacked_on", "translation_of", "borne_by")}
        cards = []
        for (card,) in sorted(by_name.get("used_card", [])):
            group, spelling = one["group"][card], one["spelling"][card]
            title = f"Title {group}" if spelling == 1 else f"TITLE {group}"
            record: dict[str, Any] = {"id": f"c{card}", "title": title, "unique": [card] in by_name.get("unique", []),
                                      "type": one["card_type"][card],
                                      "side": "shadow" if one["card_type"][card] == "minion" else "free_peoples"}
            if record["type"] == "site":
                del record["side"]
            if one["stored"][card] == 2:
                record["stored_title"] = f"{title}(2)"
            limits = [n for c, n in by_name.get("unique_limit", []) if c == card]
            if limits:
                record["unique"] = limits[0]
            if card in one.get("subtitle", {}):
                record["subtitle"] = f"Subtitle {one['subtitle'][card]}"
            if card in one.get("collinfo_pick", {}):
                record["collinfo"] = f"X{one['collinfo_pick'][card]}"
            if [card] in by_name.get("clash_version", []):
                record["collinfo"] = "7C303"
            if [card, "9R27"] in by_name.get("collinfo", []):
                record["collinfo"] = "9R27"
            if [card, "wizard"] in by_name.get("card_race", []):
                record["race"] = "wizard"
            if card in one.get("translation_of", {}):
                record["translation_of"] = f"c{one['translation_of'][card]}"
            abilities = sorted(a for c, a in by_name.get("card_ability", []) if c == card)
            if abilities:
                record["abilities"] = abilities
            filters = {a: [[k, v]] for c, a, k, v in by_name.get("card_filter", []) if c == card}
            if filters:
                record["filters"] = filters
            phases: dict[str, list[str]] = {}
            for c, a, p in by_name.get("card_ability_phase", []):
                if c == card:
                    phases.setdefault(a, []).append(p)
            if phases:
                record["phases"] = phases
            cards.append(record)
        players: dict[str, dict[str, list[dict[str, Any]]]] = {"p1": {}, "p2": {}}
        for instance, card, player in sorted(by_name.get("instance", [])):
            entry: dict[str, Any] = {"id": f"i{instance}", "card": f"c{card}"}
            zone = one["in_zone"][instance]
            if [instance] in by_name.get("inactive", []):
                entry["active"] = False
            if one.get("wounds", {}).get(instance, 0):
                entry["wounds"] = one["wounds"][instance]
            if instance in one.get("stacked_on", {}):
                entry["on"] = f"i{one['stacked_on'][instance]}"
            if instance in one.get("borne_by", {}):
                entry["borne_by"] = f"i{one['borne_by'][instance]}"
            players[player].setdefault(zone, []).append(entry)
        state: dict[str, Any] = {"game": "lotr", "cards": cards, "turn": {"player": "p1", "phase": "fellowship"},
                                 "players": players}
        if by_name.get("current_site"):
            state["current_site"] = f"i{by_name['current_site'][0][0]}"
        deck = [{"card": f"c{c}", "count": n} for c, n in sorted(by_name.get("deck_count", []))]
        if deck:
            state["decks"] = {"p1": {"cards": deck, **({"ring_bearer": f"c{by_name['ring_bearer'][0][0]}"}
                                                       if by_name.get("ring_bearer") else {})}}
        return state

    def search_question(self, term: clingo.Symbol, facts: list[clingo.Symbol]) -> dict[str, Any]:
        """A question of the search (its term, e.g. play(2)) as a scenario question."""
        args = [_plain(a) for a in term.arguments]
        if term.name == "play":
            question: dict[str, Any] = {"ask": "play", "instance": f"i{args[0]}"}
            for atom in facts:
                if atom.name == "q_via" and atom.arguments[0] == term and "via" not in question:
                    question["via"] = f"c{atom.arguments[1].number}"
                if atom.name == "q_via_instance" and atom.arguments[0] == term:
                    question["via"] = f"i{atom.arguments[1].number}"
                if atom.name == "q_play_on" and atom.arguments[0] == term:
                    question["on"] = f"i{atom.arguments[1].number}"
            return question
        if term.name == "heal":
            return {"ask": "heal", "instance": f"i{args[0]}", "discard": f"i{args[1]}"}
        if term.name == "stack":
            question = {"ask": "stack", "instance": f"i{args[0]}", "on": f"i{args[1]}"}
            for atom in facts:
                if atom.name == "q_stack_via" and atom.arguments[0] == term:
                    question["via"] = f"c{atom.arguments[1].number}"
            return question
        if term.name == "killed":
            return {"ask": "killed", "instance": f"i{args[0]}"}
        if term.name == "ends":
            return {"ask": "ends_in", "instance": f"i{args[0]}", "event": args[1], "of": f"i{args[2]}"}
        if term.name == "coexist":
            return {"ask": "coexist", "cards": [f"c{args[0]}", f"c{args[1]}"], "players": args[2]}
        if term.name == "card":
            return {"ask": "card", "card": f"c{args[0]}"}
        return {"ask": "deck", "player": "p1"}

    # -- explanations --------------------------------------------------------------------------------------

    def zone_words(self, zone: str) -> str:
        return ZONE_NAMES.get(zone, zone)

    def instance_record(self, instance: Any, activity: dict[str, tuple[str, str]]) -> dict[str, Any]:
        found = super().instance_record(instance, activity)
        if instance.borne_by:
            found["bearer"] = instance.borne_by
        if instance.on:
            found["stacked_on"] = instance.on
        return {**found, "wounds": instance.wounds}

    def turn_record(self, state: State) -> dict[str, Any]:
        found: dict[str, Any] = {}
        if state.fellowship_player is not None or state.phase is not None:
            found["turn"] = {"player": state.fellowship_player, "phase": state.phase}
        if state.current_site:
            found["current_site"] = state.current_site
        return found

    def describe_instance(self, inst: Any) -> str:
        where = f"{inst.owner}'s {ZONE_NAMES[inst.zone]}"
        if inst.zone in IN_PLAY_ZONES and inst.active is not None:  # else the rules find it (explanations say)
            where += ", marked active" if inst.active else ", marked not active"
        if inst.on:
            where += f", on {inst.on}"
        if inst.wounds:
            where += f", {inst.wounds} wound{'s' if inst.wounds > 1 else ''}"
        return f"{inst.card.label()} [{inst.id}] in {where}"

    def describe_term(self, evidence: clingo.Symbol, state: State) -> str:
        args = evidence.arguments
        if evidence.name == "turn" and args:
            return (f"{args[0].string} asks in phase {state.phase or 'unknown'}, whose fellowship player is "
                    f"{state.fellowship_player or 'unknown'}")
        if evidence.name == "count" and len(args) == 2:
            return f"{args[1].number} cards of the title of {self.describe(args[0], state)} in the deck"
        if evidence.name == "companions" and len(args) == 1:
            return f"{args[0].number} companions of the player counted, active in play or in the dead pile"
        if evidence.name == "link" and len(args) == 2:
            return f"{self.describe(args[0], state)} counts as {self.describe(args[1], state)}"
        if evidence.name == "first" and len(args) == 2:
            return f"{self.describe(args[0], state)} in play first, then {self.describe(args[1], state)}"
        return str(evidence)


def _plain(symbol: clingo.Symbol) -> Any:
    """A symbol of a search model as plain data: numbers, names, or [name, args] for terms."""
    if symbol.type == clingo.SymbolType.Number:
        return symbol.number
    if symbol.type == clingo.SymbolType.String:
        return symbol.string
    if symbol.arguments:
        return [symbol.name, [_plain(a) for a in symbol.arguments]]
    return symbol.name


GAME = Lotr()
