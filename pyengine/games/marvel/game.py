"""Marvel Champions (document marvel_unique, German): the built-in catalog, the scenario state (each
player's identity with the face that is up, cards in play and in hand, the encounter cards in play, decks)
and questions, the facts they become, and how evidence reads."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, ClassVar

import clingo

from pyengine.core.asp import Const, Fact, fact, term
from pyengine.core.catalog import Card, Catalog
from pyengine.core.errors import Collected, InputError, closest
from pyengine.core.fields import Fields
from pyengine.core.limits import limits
from pyengine.core.resources import facts_dir
from pyengine.core.text import title_key
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
)

TYPES = ("hero", "alter_ego", "ally", "minion", "villain", "support", "upgrade", "event", "resource", "attachment",
         "treachery", "side_scheme", "main_scheme", "environment", "obligation", "player_side_scheme", "leader",
         "evidence_means", "evidence_motive", "evidence_opportunity")
ZONES = ("play", "hand", "deck", "discard")
FACES = ("hero", "alter_ego")
CATALOGS = ("builtin", "marvelsdb")
CARD_FIELDS = {"id", "title", "subtitle", "unique", "type", "alter_ego", "forms", "deck_limit", "aliases",
               "person_aliases", "abilities"}
# Abilities a card's text gives it (rules/marvel/card_text.lp), as a hypothetical card declares them or the
# MarvelCDB importer reads them: a word, or {puts_into_play: NAME}.
ABILITIES = ("discards_same_named_ally", "puts_into_play")
ENCOUNTER = "encounter"
# The encounter's zones: its cards in play, the encounter deck, its discard pile and the cards set aside.
ENCOUNTER_ZONES = ("play", "deck", "discard", "set_aside")


def loose_key(text: str) -> str:
    """A name with case, accents, spaces, hyphens and punctuation removed (Yellowjacket = Yellow Jacket); the
    letters and digits of every script are kept."""
    return "".join(ch for ch in title_key(text) if ch.isalnum())


@dataclass
class Instance:
    id: str
    card: Card
    owner: str
    zone: str
    face: Card | None = None


@dataclass
class State:
    catalog: Catalog
    players: list[str] = field(default_factory=list)
    instances: dict[str, Instance] = field(default_factory=dict)
    decks: dict[str, dict[str, Any]] = field(default_factory=dict)
    # A card named in a decklist by the code of one of its reprints: card id -> the code the user wrote.
    written: dict[str, str] = field(default_factory=dict)
    # The parts of the table not read for an error of their own (hypothetical cards, instances, decks): what names
    # one of them is not checked again (errors.Unread).
    unread: set[str] = field(default_factory=set)


def parse_card(fields: Fields, hypothetical: bool) -> Card:
    """One card record, from the built-in catalog or a scenario's `cards:` list."""
    forms = [str(f) for f, *_ in fields.items("forms")]
    aliases = tuple(str(a) for a, *_ in fields.items("aliases"))
    persons = []
    for item, line, column, path in fields.items("person_aliases"):
        if not (isinstance(item, list) and len(item) == 2 and all(isinstance(n, str) and n.strip() for n in item)):
            raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                             expected="two spellings of one person, e.g. [Greer Nelson, Greer Grant Nelson]")
        persons.append([str(n) for n in item])
    limit = fields.whole("deck_limit", -1, minimum=-1)
    return Card(id=fields.text("id", required=True) or "", title=fields.title("title", required=True) or "",
                subtitle=fields.title("subtitle"), unique=fields.flag("unique", False),
                type=fields.choice("type", TYPES, required=True) or "", hypothetical=hypothetical, aliases=aliases,
                extra={"alter_ego": fields.title("alter_ego"), "forms": forms, "abilities": _abilities(fields),
                       **({"deck_limit": limit} if limit >= 0 else {}),
                       **({"person_aliases": persons} if persons else {})})


def _abilities(fields: Fields) -> list[list[str]]:
    """A hypothetical card's abilities as [kind] or [puts_into_play, NAME]."""
    found = []
    for item, line, column, path in fields.items("abilities"):
        if isinstance(item, dict) and list(item) == ["puts_into_play"] and isinstance(item["puts_into_play"], str):
            found.append(["puts_into_play", item["puts_into_play"]])
        elif item == "discards_same_named_ally":
            found.append([item])
        else:
            raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                             expected="discards_same_named_ally, or {puts_into_play: NAME}",
                             suggestion=closest(str(item), ABILITIES))
    return found


# How a table names a card of this game.
REFERENCE = "a card code (01001a) or a name"


@cache
def builtin_catalog() -> Catalog:
    return read_builtin(Path(facts_dir(), "marvel", "cards.yaml"), lambda f: parse_card(f, False), CARD_FIELDS,
                        REFERENCE, "marvelsdb", "PATH/TO/marvelsdb-json-data")

@lru_cache(maxsize=65536)
def _card_fact_lines(card: Card, alter_ego: str | None) -> tuple[Fact, ...]:
    """The facts of one card (cards are immutable, so each is built once per process)."""
    c = card.id
    out = [fact("card", c), fact("card_type", c, Const(card.type)), fact("name", c, title_key(card.title)),
           fact("name_loose", c, loose_key(card.title))]
    if card.unique:
        out.append(fact("printed_unique", c))
    if card.subtitle:
        out += [fact("subtitle", c, title_key(card.subtitle)), fact("subtitle_loose", c, loose_key(card.subtitle))]
    if "deck_limit" in card.extra:
        out.append(fact("deck_limit", c, card.extra["deck_limit"]))
    if "copies_each" in card.extra:
        out.append(fact("copies_each", c, card.extra["copies_each"]))
    if card.extra.get("faction_code") == "hero":
        out.append(fact("signature", c))
    if alter_ego:
        out += [fact("alter_ego_name", c, title_key(alter_ego)), fact("alter_ego_loose", c, loose_key(alter_ego))]
    if card.extra.get("text_unread"):
        out.append(fact("text_unread", c))
    for ability in card.extra.get("abilities") or []:
        kind = Const(ability[0]) if len(ability) == 1 else term(ability[0], title_key(ability[1]))
        out.append(fact("card_ability", c, kind))
    for a, b in card.extra.get("person_aliases") or []:
        out += [fact("person_alias", title_key(a), title_key(b)),
                fact("person_alias_loose", loose_key(a), loose_key(b))]
    return tuple(out)


class Marvel(CardGame):
    name = "marvel"
    builtin_catalog = staticmethod(builtin_catalog)
    document = DOCUMENTS["marvel"]
    state_fields: ClassVar[set[str]] = {"catalog", "cards", "players", "encounter", "decks"}
    deck_fields: ClassVar[set[str]] = {"catalog", "identity", "cards"}
    # The predicates a state and its questions are given by (the edge-case search shares them between worlds).
    input_predicates: ClassVar[set[str]] = {
        "card", "card_type", "name", "name_loose", "subtitle", "subtitle_loose", "printed_unique", "deck_limit",
        "alter_ego_name", "alter_ego_loose", "instance", "in_zone", "face_card", "face_up", "question", "q_play",
        "q_coexist", "deck_card", "deck_code", "copies_each", "signature", "deck_face", "q_reveal", "q_put_into_play",
        "q_plays", "person_alias", "person_alias_loose", "card_ability", "q_via", "q_identity", "q_identity_face",
        "text_unread", "q_via_instance"}
    # How the census (pyengine.tools.census) matches this game's real cards with the edge-case search's abstract ones.
    census: ClassVar[CensusSpec] = CensusSpec(
        card_predicates=frozenset({
            "used_card", "card_type", "person", "spelling", "sub", "hero_of", "printed_unique", "deck_limit",
        "alias", "card_ability", "form_of"}),
        free=frozenset({"card"}),
        exact=frozenset({"unique"}),
        derived={"ability": "card_ability", "unique": "printed_unique"},
        derived_kinds=("reveal",),
        shared=frozenset({"name", "subtitle"}),
        differing=(),
        aliases=frozenset({"person_alias"}),
        respelt=(("name", "name_loose"),),
        present=frozenset({"subtitle"}),
        type_families={})
    # The state predicates `pyengine flip` may change (rules/flip/marvel.lp).
    flip_predicates: ClassVar[set[str]] = {"instance", "in_zone", "face_card", "face_up"}
    # The rule files every question needs, and those each kind of question needs besides (rules/marvel/).
    base_files: ClassVar[tuple[str, ...]] = ("state.lp", "names.lp")
    kind_files: ClassVar[dict[str, tuple[str, ...]]] = {
        "play": ("play.lp",), "coexist": ("play.lp",), "deck": ("deck.lp",),
        "reveal": ("play.lp", "card_text.lp", "minions.lp"), "put_into_play": ("play.lp", "card_text.lp", "minions.lp"),
        "identities": ("identities.lp",), "plays": ("play.lp", "plays.lp"),
    }
    question_fields: ClassVar[dict[str, set[str]]] = {
        "play": {"instance"},
        "coexist": {"cards", "in"},
        "deck": {"player"},
        "reveal": {"card", "player"},
        "put_into_play": {"card", "player", "via"},
        "plays": {"player"},
        "identities": {"players"},
    }
    verdicts: ClassVar[dict[str, tuple[str, ...] | None]] = {
        "play": ("legal", "illegal"), "coexist": ("yes", "no"), "deck": ("valid", "invalid"),
        "reveal": ("enters_play", "discarded"), "put_into_play": ("enters_play", "fails"),
        "plays": None, "identities": ("yes", "no"),
    }

    def web_extras(self) -> dict[str, Any]:
        """What the explorer's form offers: a blank table, the zones, an identity per player and the faces it
        shows, and a player's decklist (led by its identity, a hero)."""
        return {"blank": BLANK_TABLE, "zones": list(ZONES), "identity": True, "faces": list(FACES),
                "deck": {"leader": "identity", "leader_types": ["hero"]}}

    # -- reading a scenario -------------------------------------------------------------------------------

    def _resolve(self, state: State, ref: Any, fields: Fields, key: str, hero: bool = False,
                 errors: list[InputError] | None = None) -> Card:
        check_read(state, ref, fields, key)
        return resolve_card(state.catalog, ref, fields, key, (lambda card: card.type == "hero") if hero else None,
                            errors)

    def _new_state(self, fields: Fields) -> State:
        return State(catalog_for(fields, CATALOGS, builtin_catalog))

    def parse_state(self, fields: Fields, collected: Collected) -> State:
        state = self._new_state(fields)
        hypothetical_cards(state, fields, CARD_FIELDS, lambda f: parse_card(f, True), collected)
        players = fields.sub("players", {str(p) for p in fields.mapping("players")})
        state.players = [str(p) for p in fields.mapping("players")]
        if ENCOUNTER in state.players:
            raise players.error(ENCOUNTER, "'encounter' is not a player name", expected="the encounter: section")
        for player in state.players:
            zones = players.sub(player, {"identity", *ZONES})
            if zones.has("identity"):
                given = zones.raw("identity")
                with self._instance_part(state, collected, (given.get("id") if isinstance(given, dict) else None)
                                         or f"{player}.identity"):
                    ident = zones.sub("identity", {"id", "card", "face"})
                    card = self._resolve(state, ident.require("card", "a hero card"), ident, "card", hero=True)
                    if card.type != "hero":
                        raise ident.error("card", f"{card.label()} is of type {card.type}", expected="a hero card")
                    face = self._face_up(state, ident, card)
                    self._add(state, ident, Instance(ident.text("id") or f"{player}.identity", card, player,
                                                     "identity", face))
            for zone in ZONES:
                self._zone(state, zones, zone, player, collected)
        encounter = fields.sub("encounter", set(ENCOUNTER_ZONES))
        for zone in ENCOUNTER_ZONES:
            self._zone(state, encounter, zone, ENCOUNTER, collected)
        decks = fields.sub("decks", set(state.players))
        for player in state.players:
            if decks.has(player):
                read_deck(state, player, collected,
                          lambda errors, p=player: self._deck(state, decks.sub(p, {"identity", "cards"}), errors))
        return state

    @staticmethod
    @contextmanager
    def _instance_part(state: State, collected: Collected, instance_id: Any) -> Iterator[None]:
        """Read one instance apart: its error gathered, its id marked unread."""
        with collected.part(), reading_instance(state, instance_id):
            yield

    def _face_up(self, state: State, ident: Fields, card: Card) -> Card:
        """The face an identity shows: `hero` (the card named), `alter_ego`, or the code or name of a hero form."""
        faces = self.faces(card, state.catalog)
        wanted = ident.text("face") or "hero"
        if wanted == "hero":
            return card
        if wanted == "alter_ego":
            alter_egos = [face for face, kind in faces if kind == "alter_ego"]
            if not alter_egos:
                raise ident.error("face", f"{card.label()} has no alter-ego card", expected="hero or a hero form")
            return alter_egos[0]
        key = title_key(wanted)
        found = [face for face, _ in faces if wanted == face.id or key in {title_key(n) for n in face.names()}]
        if len(found) != 1:
            names = [face.id for face, _ in faces] + [face.full_name for face, _ in faces]
            raise ident.error("face", f"{wanted!r} is not one face of {card.label()}",
                              expected="hero, alter_ego, or the code or name of a hero form: "
                                       + ", ".join(f"{f.id} ({f.full_name})" for f, _ in faces),
                              suggestion=closest(wanted, [*FACES, *names]))
        return found[0]

    def _add(self, state: State, fields: Fields, instance: Instance) -> None:
        if instance.id in state.instances:
            raise fields.error("id", f"instance id {instance.id!r} is used twice", expected="one zone per instance")
        state.instances[instance.id] = instance

    def _zone(self, state: State, zones: Fields, zone: str, owner: str, collected: Collected) -> None:
        for index, (item, line, column, path) in enumerate(zones.items(zone), 1):
            if len(state.instances) >= limits.max_instances:
                raise InputError(f"the state has more than {limits.max_instances} card instances",
                                 file=zones.file, line=line, column=column, field=path,
                                 expected="a smaller state, or a higher --max-instances")
            data = {"card": item} if isinstance(item, str) else item
            given = data.get("id") if isinstance(data, dict) else None
            with self._instance_part(state, collected, given or f"{owner}.{zone}.{index}"):
                entry = Fields(data, zones.file, path, {"id", "card"}, line or 0, column or 0)
                card = self._resolve(state, entry.require("card", "a card reference"), entry, "card")
                self._add(state, entry, Instance(entry.text("id") or f"{owner}.{zone}.{index}", card, owner, zone))

    def _deck(self, state: State, fields: Fields, errors: list[InputError] | None) -> dict[str, Any]:
        if not fields.has("identity"):  # the deck limit counts the identity's copies: never answered without it
            raise fields.error("identity", "a Marvel deck needs its identity, which the deck limit counts with the "
                               "deck's cards (marvel_unique p5, p10)", expected="identity: a hero's name or code")
        identity = self._resolve(state, fields.raw("identity"), fields, "identity", hero=True)
        if identity.type != "hero":
            raise fields.error("identity", f"{identity.label()} is of type {identity.type}", expected="a hero card")
        entries, codes = [], []
        for item, line, column, path in fields.items("cards"):
            try:
                entry = Fields(deck_entry(item, line, column), fields.file, path, {"card", "count"}, line or 0,
                               column or 0)
                written = entry.require("card", "a card reference")
                card = self._resolve(state, written, entry, "card", errors=errors)
                # A reprint's own code is the code its copies are written under (MarvelCDB counts per code).
                code = str(written) if str(written) in card.extra.get("codes", []) else card.id
                if code != card.id:
                    state.written[card.id] = code
                entries.append((card, entry.whole("count", 1, minimum=1)))
                codes.append((card.id, code, entries[-1][1]))
            except InputError as error:
                if errors is None:
                    raise
                errors.append(error)
        self.check_deck_total(fields, "cards", [n for _, n in entries])
        return {"identity": identity, "entries": entries, "codes": codes}

    def parse_deck(self, fields: Fields, errors: list[InputError]) -> tuple[State, dict[str, Any]]:
        state = self._new_state(fields)
        return state, self._deck(state, fields, errors)

    def parse_question(self, kind: str, fields: Fields, state: State) -> dict[str, Any]:
        if kind == "play":
            ref = fields.text("instance", required=True) or ""
            check_read(state, ref, fields, "instance")
            if ref not in state.instances:
                raise fields.error("instance", f"no instance {ref!r} in the state", expected="an instance id",
                                   suggestion=closest(ref, state.instances))
            if state.instances[ref].zone in ("play", "identity"):
                raise fields.error("instance", f"instance {ref!r} is already in play", expected="a card in hand")
            return {"instance": ref}
        if kind == "deck":
            player = fields.choice("player", state.players, required=True) or ""
            check_deck_read(state, player, fields)
            if player not in state.decks:
                raise fields.error("player", f"player {player!r} has no deck in `decks:`", expected="a decklist")
            return dict(state.decks[player])
        if kind == "plays":
            return {"player": fields.choice("player", state.players, required=True)}
        if kind == "identities":
            chosen = fields.sub("players", {str(p) for p in fields.mapping("players")})
            heroes = {str(p): self._resolve(state, chosen.raw(str(p)), chosen, str(p), hero=True)
                      for p in fields.mapping("players")}
            for player, hero in heroes.items():
                if hero.type != "hero":
                    raise chosen.error(player, f"{hero.label()} is of type {hero.type}", expected="a hero card")
            if len(heroes) < 2:
                raise fields.error("players", f"got {len(heroes)} choice(s)",
                                   expected="a mapping of at least two players to hero cards")
            return {"players": heroes}
        if kind in ("reveal", "put_into_play"):
            ref = fields.require("card", "an encounter card")
            if isinstance(ref, str) and ref in state.instances:
                card = self._arriving_instance(state, fields, kind, ref)
            else:
                card = self._resolve(state, ref, fields, "card")
            via, via_instance = None, None
            if fields.has("via"):
                raw = fields.raw("via")
                if isinstance(raw, str) and raw in state.instances:
                    via, via_instance = state.instances[raw].card, raw
                else:
                    via = self._resolve(state, raw, fields, "via")
            return {"card": card, "player": fields.choice("player", state.players, required=True), "via": via,
                    "via_instance": via_instance}
        cards = [self._resolve(state, ref, fields, "cards") for ref, *_ in fields.items("cards")]
        if len(cards) != 2:
            raise fields.error("cards", f"got {len(cards)} cards", expected="a list of exactly two cards")
        return {"cards": cards, "in": fields.choice("in", ("play", "deck"), default="play")}

    @staticmethod
    def _arriving_instance(state: State, fields: Fields, kind: str, ref: str) -> Card:
        """The card of an encounter instance a reveal or put-into-play question names: a revealed card comes from
        the encounter deck; a card put into play comes from anywhere but play (the deck, discard or set aside)."""
        instance = state.instances[ref]
        wanted = ("deck",) if kind == "reveal" else ("deck", "discard", "set_aside")
        if instance.owner != ENCOUNTER or instance.zone not in wanted:
            where = "the encounter's" if instance.owner == ENCOUNTER else f"{instance.owner}'s"
            raise fields.error("card", f"instance {ref!r} lies in {where} {instance.zone}",
                               expected="an encounter card in the encounter " + " or ".join(wanted))
        return instance.card

    # -- facts ---------------------------------------------------------------------------------------------

    def faces(self, card: Card, catalog: Catalog) -> list[tuple[Card, str]]:
        """Every face of the identity whose hero card is `card`: its hero forms, the named cards linked to it (a
        two-card identity's other card, shown with the hero side) and its alter ego."""
        faces = [(card, "hero")]
        faces += [(catalog.get(f), "hero") for f in card.extra.get("forms") or [] if f in catalog]
        faces += [(catalog.get(f), "hero") for f in card.extra.get("linked_faces") or [] if f in catalog]
        alter_ego = card.extra.get("alter_ego")
        if alter_ego and alter_ego in catalog:
            faces.append((catalog.get(alter_ego), "alter_ego"))
        return faces

    @staticmethod
    def census_links(card: Card) -> list[tuple[str, str]]:
        """The cards a card names (its hero forms, its linked faces), for the census to match cards by."""
        return [*(("form", f) for f in card.extra.get("forms") or []),
                *(("linked_face", f) for f in card.extra.get("linked_faces") or [])]

    def census_related(self, card: Card, catalog: Catalog) -> list[Card]:
        """The cards a table's card brings along into its facts: an identity's other faces."""
        return [face for face, _ in self.faces(card, catalog)[1:]] if card.type == "hero" else []

    def card_facts(self, card: Card, catalog: Catalog) -> tuple[Fact, ...]:
        alter_ego = card.title if card.type == "alter_ego" else None
        if card.type == "hero" and card.extra.get("alter_ego") in catalog:
            alter_ego = catalog.get(card.extra["alter_ego"]).title
        return _card_fact_lines(card, alter_ego)


    def facts(self, state: State, questions: list[tuple[str, str, dict[str, Any]]]) -> list[Fact]:
        cards: dict[str, Card] = {}
        out: list[Fact] = []
        for inst in state.instances.values():
            i = inst.id
            cards[inst.card.id] = inst.card
            out += [fact("instance", i, inst.card.id, inst.owner), fact("in_zone", i, Const(inst.zone))]
            if inst.zone == "identity":
                for face, kind in self.faces(inst.card, state.catalog):
                    cards[face.id] = face
                    out.append(fact("face_card", i, face.id, Const(kind)))
                up = inst.face or inst.card
                out.append(fact("face_up", i, up.id))
                if up.type == "hero":  # the cards linked to the identity show with its hero side
                    out.extend(fact("face_up", i, f) for f in inst.card.extra.get("linked_faces") or []
                               if f in state.catalog)
        for q, kind, params in questions:
            out.append(fact("question", q, Const(kind)))
            if kind == "play":
                out.append(fact("q_play", q, params["instance"], state.instances[params["instance"]].owner))
            elif kind == "plays":
                out.append(fact("q_plays", q, params["player"]))
            elif kind == "identities":
                for player, hero in params["players"].items():
                    out.append(fact("q_identity", q, player, hero.id))
                    for face, _ in self.faces(hero, state.catalog):
                        cards[face.id] = face
                        out.append(fact("q_identity_face", q, player, face.id))
            elif kind == "coexist":
                a, b = params["cards"]
                cards[a.id], cards[b.id] = a, b
                out.append(fact("q_coexist", q, a.id, b.id, Const(params["in"])))
            elif kind in ("reveal", "put_into_play"):
                card = params["card"]
                cards[card.id] = card
                out.append(fact("q_reveal" if kind == "reveal" else "q_put_into_play", q, card.id,
                                params["player"] or ""))
                if params.get("via") is not None:
                    cards[params["via"].id] = params["via"]
                    out.append(fact("q_via", q, params["via"].id))
                if params.get("via_instance") is not None:
                    out.append(fact("q_via_instance", q, params["via_instance"]))
            elif kind == "deck":
                totals: dict[str, int] = {}
                for card, count in params["entries"]:
                    cards[card.id] = card
                    totals[card.id] = totals.get(card.id, 0) + count
                out.extend(fact("deck_card", q, cid, n) for cid, n in totals.items())
                by_code: dict[tuple[str, str], int] = {}
                for cid, code, n in params.get("codes", []):
                    by_code[cid, code] = by_code.get((cid, code), 0) + n
                out.extend(fact("deck_code", q, cid, code, n) for (cid, code), n in by_code.items())
                if params["identity"] is not None:
                    for face, face_kind in self.faces(params["identity"], state.catalog):
                        cards[face.id] = face
                        out.append(fact("deck_face", q, face.id, Const(face_kind)))
        for card in cards.values():
            out.extend(self.card_facts(card, state.catalog))
        return out

    # -- the edge-case search's states as scenarios --------------------------------------------------------

    def search_state(self, facts: list[clingo.Symbol]) -> dict[str, Any]:
        """A state the search found (rules/search/marvel.lp), as the fields of a scenario file."""
        rows: dict[str, list[list[Any]]] = {}
        for atom in facts:
            rows.setdefault(atom.name, []).append([a.number if a.type == clingo.SymbolType.Number else a.name
                                                   for a in atom.arguments])
        pairs = {name: {r[0]: r[1] for r in rows.get(name, [])} for name in ("card_type", "person", "spelling", "sub",
                                                                             "in_zone", "face_up")}

        def person(key: int, spelling: int = 1) -> str:
            return f"Person {key}" if spelling == 1 else f"Person-{key}"

        alter_egos = {hero: alter for alter, hero in rows.get("hero_of", [])}
        cards = []
        for (card,) in sorted(rows.get("used_card", [])):
            title = person(pairs["person"][card], pairs["spelling"][card])
            record: dict[str, Any] = {"id": f"c{card}", "title": title, "type": pairs["card_type"][card],
                                      "unique": [card] in rows.get("printed_unique", [])}
            if card in pairs["sub"]:
                record["subtitle"] = person(pairs["sub"][card])
            if card in alter_egos:
                record["alter_ego"] = f"c{alter_egos[card]}"
            forms = sorted(f for f, hero in rows.get("form_of", []) if hero == card)
            if forms:
                record["forms"] = [f"c{f}" for f in forms]
            if [card, 1] in rows.get("deck_limit", []):
                record["deck_limit"] = 1
            abilities: list[Any] = []
            for atom in facts:
                if atom.name == "card_ability" and atom.arguments[0].number == card:
                    ability = atom.arguments[1]
                    abilities.append({"puts_into_play": person(ability.arguments[0].arguments[0].number)}
                                     if ability.arguments else ability.name)
            if abilities:
                record["abilities"] = abilities
            cards.append(record)
        players: dict[str, dict[str, Any]] = {"p1": {}, "p2": {}}
        encounter: dict[str, list[dict[str, Any]]] = {}
        for instance, card, owner in sorted(rows.get("instance", [])):
            entry = {"id": f"i{instance}", "card": f"c{card}"}
            zone = pairs["in_zone"][instance]
            if owner == ENCOUNTER:
                encounter.setdefault(zone, []).append(entry)
            elif zone == "identity":
                up = pairs["face_up"][instance]
                forms = {f for f, hero in rows.get("form_of", []) if hero == card}
                face = "hero" if up == card else f"c{up}" if up in forms else "alter_ego"
                players[owner]["identity"] = {**entry, "face": face}
            else:
                players[owner].setdefault(zone, []).append(entry)
        aliases = [[person(k1), person(k2)] for k1, k2 in sorted(rows.get("alias", []))]
        if aliases:
            for record in cards:
                record["person_aliases"] = [list(pair) for pair in aliases]
        state: dict[str, Any] = {"game": "marvel", "cards": cards, "players": players}
        if encounter:
            state["encounter"] = encounter
        if rows.get("deck_for"):
            deck = [{"card": f"c{c}", "count": n} for _, c, n in sorted(rows.get("deck_card", []))]
            state["decks"] = {"p1": {"identity": f"c{rows['deck_for'][0][0]}", "cards": deck}}
        return state

    def search_question(self, term: clingo.Symbol, facts: list[clingo.Symbol]) -> dict[str, Any]:
        """A question of the search (its term, e.g. play(2)) as a scenario question."""
        args = [a.number if a.type == clingo.SymbolType.Number else a.name for a in term.arguments]
        if term.name == "play":
            return {"ask": "play", "instance": f"i{args[0]}"}
        if term.name == "coexist":
            return {"ask": "coexist", "cards": [f"c{args[0]}", f"c{args[1]}"], "in": args[2]}
        if term.name == "identities":
            chosen = {atom.arguments[1].name: f"c{atom.arguments[2].number}" for atom in facts
                      if atom.name == "q_identity"}
            return {"ask": "identities", "players": dict(sorted(chosen.items()))}
        if term.name in ("reveal", "put"):
            question = {"ask": "reveal" if term.name == "reveal" else "put_into_play", "card": f"c{args[0]}",
                        "player": "p1"}
            named = [atom for atom in facts if atom.name in ("q_via", "q_via_instance") and atom.arguments[0] == term]
            via = [f"i{a.arguments[1].number}" for a in named if a.name == "q_via_instance"] or [
                f"c{a.arguments[1].number}" for a in named if a.name == "q_via"]
            return question | ({"via": via[0]} if via else {})
        return {"ask": "deck", "player": "p1"}

    # -- explanations --------------------------------------------------------------------------------------

    def instance_record(self, instance: Any, activity: dict[str, tuple[str, str]]) -> dict[str, Any]:
        found = super().instance_record(instance, activity)
        return {**found, "face": instance.face.record()} if instance.face is not None else found

    def describe_instance(self, inst: Any) -> str:
        if inst.zone == "identity":
            face = inst.face or inst.card
            return f"{inst.owner}'s identity {inst.card.label()} [{inst.id}], {face.label()} face up"
        owner = "the encounter" if inst.owner == ENCOUNTER else inst.owner
        return f"{inst.card.label()} [{inst.id}] in {owner}'s {inst.zone}"

    def describe(self, evidence: clingo.Symbol, state: Any) -> str:
        """As for every card game; a card named by a reprint's code is shown by that code."""
        if evidence.name == "card" and evidence.arguments and evidence.arguments[0].string in state.written:
            card = state.catalog.get(evidence.arguments[0].string)
            dot = "\u2022" if card.unique else ""
            return f"{dot}{card.full_name} ({state.written[card.id]}, a reprint of {card.id})"
        return super().describe(evidence, state)

    def describe_term(self, evidence: clingo.Symbol, state: State) -> str:
        args = evidence.arguments
        if evidence.name in ("shows", "face") and len(args) == 2:
            verb = "shows" if evidence.name == "shows" else "has the face-down face"
            return f"{self.describe(args[0], state)} {verb} {self.describe(args[1], state)}"
        if evidence.name == "count" and len(args) == 2:
            return f"{args[1].number} copies of {self.describe(args[0], state)}"
        if evidence.name == "code" and len(args) == 1:
            return f"the printed code {args[0].string}"
        if evidence.name == "scope" and args and args[0].name == "validation":
            return "MarvelCDB's deck validation checks neither uniqueness nor deck limits"
        if evidence.name == "scope":
            return "the verdict covers the uniqueness rules of marvel_unique only, not deck size or aspects"
        return str(evidence)


GAME = Marvel()
