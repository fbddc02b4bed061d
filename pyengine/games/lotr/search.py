"""The search tools' view of the Lord of the Rings TCG: the states and questions the edge-case search finds
(rules/search/lotr.lp) as scenario fields, what `flip` may change, and how the census matches real cards with the
search's abstract ones."""

from __future__ import annotations

from typing import Any, ClassVar

import clingo

from pyengine.core.asp import Const, Fact, fact
from pyengine.core.catalog import Card, Catalog
from pyengine.games.common.search import CardSearch, CensusSpec
from pyengine.games.lotr import filters
from pyengine.games.lotr.facts import card_facts
from pyengine.games.lotr.state import NAME


def card_form_facts(card: Card, catalog: Catalog) -> tuple[Fact, ...]:
    """A card's facts with those a play or a filter may consult (its twilight cost, its printed keywords, classes
    and signet): two real cards the census takes for one form must answer alike."""
    words = [fact("card_attribute", card.id, Const(kind), value) for kind, value in filters.card_attributes(card)]
    cost = [fact("card_twilight", card.id, card.extra["twilight"])] if "twilight" in card.extra else []
    return card_facts(card, catalog) + tuple(words + cost)


def _plain(symbol: clingo.Symbol) -> Any:
    """A symbol of a search model as plain data: numbers, names, or [name, args] for terms."""
    if symbol.type == clingo.SymbolType.Number:
        return symbol.number
    if symbol.type == clingo.SymbolType.String:
        return symbol.string
    if symbol.arguments:
        return [symbol.name, [_plain(a) for a in symbol.arguments]]
    return symbol.name


class LotrSearch(CardSearch):
    """The edge-case, flip and census tools' view of the Lord of the Rings TCG."""

    name = NAME
    # How the census (pyengine.tools.census) matches this game's real cards with the edge-case search's abstract ones.
    census: ClassVar[CensusSpec] = CensusSpec(
        card_predicates=frozenset({
            "used_card", "group", "spelling", "stored", "unique", "unique_limit", "subtitle", "collinfo_pick",
            "clash_version",
        "translation_of", "card_type", "card_ability", "collinfo", "card_race", "card_filter", "card_ability_phase"}),
        free=frozenset({"card", "card_type", "side", "card_incomplete"}),
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
    flip_predicates: ClassVar[set[str]] = {"instance", "in_zone", "inactive", "wounds", "stacked_on", "deck_part"}
    card_facts = staticmethod(card_form_facts)

    @staticmethod
    def census_links(card: Card) -> list[tuple[str, str]]:
        """The cards a card names (the card it translates), for the census to match cards by."""
        return [("translation_of", card.translation_of)] if card.translation_of else []

    @staticmethod
    def census_related(card: Card, catalog: Catalog) -> list[Card]:
        """The cards a table's card brings along into its facts: none (a translation's original gives only a key)."""
        return []

    def search_state(self, facts: list[clingo.Symbol]) -> dict[str, Any]:
        """A state the search found (rules/search/lotr.lp), as the fields of a scenario file."""
        by_name: dict[str, list[list[Any]]] = {}
        for atom in facts:
            by_name.setdefault(atom.name, []).append([_plain(a) for a in atom.arguments])
        one = {name: {row[0]: row[1] for row in rows} for name, rows in by_name.items()
               if name in ("group", "spelling", "stored", "card_type", "subtitle", "collinfo_pick", "in_zone", "wounds",
                           "stacked_on", "translation_of", "borne_by")}
        cards = [self._card(card, by_name, one) for (card,) in sorted(by_name.get("used_card", []))]
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

    @staticmethod
    def _card(card: int, by_name: dict[str, list[list[Any]]], one: dict[str, dict[Any, Any]]) -> dict[str, Any]:
        """One card the search used, as a record of a scenario's `cards:` (`by_name`: the model's rows by predicate,
        `one`: those of a card or instance's single value)."""
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
        return record

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
