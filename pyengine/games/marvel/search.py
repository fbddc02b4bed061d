"""The search tools' view of Marvel Champions: the states and questions the edge-case search finds
(rules/search/marvel.lp) as scenario fields, what `flip` may change, and how the census matches real cards with the
search's abstract ones."""

from __future__ import annotations

from typing import Any, ClassVar

import clingo

from pyengine.core.catalog import Card, Catalog
from pyengine.games.common.search import CardSearch, CensusSpec
from pyengine.games.marvel.facts import card_facts
from pyengine.games.marvel.state import ENCOUNTER, NAME, faces


def _person(key: int, spelling: int = 1) -> str:
    """The name of the search's person `key`, in its first or second spelling."""
    return f"Person {key}" if spelling == 1 else f"Person-{key}"


class MarvelSearch(CardSearch):
    """The edge-case, flip and census tools' view of Marvel Champions."""

    name = NAME
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
    flip_predicates: ClassVar[set[str]] = {"instance", "in_zone", "face_card", "face_up", "deck_card", "deck_code"}
    card_facts = staticmethod(card_facts)

    @staticmethod
    def census_links(card: Card) -> list[tuple[str, str]]:
        """The cards a card names (its hero forms, its linked faces), for the census to match cards by."""
        return [*(("form", f) for f in card.extra.get("forms") or []),
                *(("linked_face", f) for f in card.extra.get("linked_faces") or [])]

    @staticmethod
    def census_related(card: Card, catalog: Catalog) -> list[Card]:
        """The cards a table's card brings along into its facts: an identity's other faces."""
        return [face for face, _ in faces(card, catalog)[1:]] if card.type == "hero" else []

    def search_state(self, facts: list[clingo.Symbol]) -> dict[str, Any]:
        """A state the search found (rules/search/marvel.lp), as the fields of a scenario file."""
        rows: dict[str, list[list[Any]]] = {}
        for atom in facts:
            rows.setdefault(atom.name, []).append([a.number if a.type == clingo.SymbolType.Number else a.name
                                                   for a in atom.arguments])
        pairs = {name: {r[0]: r[1] for r in rows.get(name, [])} for name in ("card_type", "person", "spelling", "sub",
                                                                             "in_zone", "face_up")}
        cards = [self._card(card, rows, pairs, facts) for (card,) in sorted(rows.get("used_card", []))]
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
        aliases = [[_person(k1), _person(k2)] for k1, k2 in sorted(rows.get("alias", []))]
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

    @staticmethod
    def _card(card: int, rows: dict[str, list[list[Any]]], pairs: dict[str, dict[Any, Any]],
              facts: list[clingo.Symbol]) -> dict[str, Any]:
        """One card the search used, as a record of a scenario's `cards:` (`rows`: the model's rows by predicate,
        `pairs`: those of a card or instance's single value)."""
        record: dict[str, Any] = {"id": f"c{card}", "title": _person(pairs["person"][card], pairs["spelling"][card]),
                                  "type": pairs["card_type"][card], "unique": [card] in rows.get("printed_unique", [])}
        if card in pairs["sub"]:
            record["subtitle"] = _person(pairs["sub"][card])
        alter_egos = {hero: alter for alter, hero in rows.get("hero_of", [])}
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
                abilities.append({"puts_into_play": _person(ability.arguments[0].arguments[0].number)}
                                 if ability.arguments else ability.name)
        if abilities:
            record["abilities"] = abilities
        return record

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
