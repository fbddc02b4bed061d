"""What a Marvel Champions table becomes as facts: each card's facts (names keyed loosely too), the state's
(instances, an identity's faces and the face up) and its questions'; and an identity's face as a conformance pack
records it."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pyengine.core.asp import Const, Fact, Term, fact, term
from pyengine.core.catalog import Card, Catalog
from pyengine.core.text import title_key
from pyengine.games.common.facts import CardFacts
from pyengine.games.marvel.actions import group_key, step_facts
from pyengine.games.marvel.state import State, faces


def loose_key(text: str) -> str:
    """A name with case, accents, spaces, hyphens and punctuation removed (Yellowjacket = Yellow Jacket); the
    letters and digits of every script are kept."""
    return "".join(ch for ch in title_key(text) if ch.isalnum())


def ability_term(ability: list[str]) -> Const | Term:
    """An ability of a card's text ([kind], [kind, NAME or TRAIT], or [puts_typed, NAME, TYPE]) as the term
    card_ability/2 holds."""
    if len(ability) == 1:
        return Const(ability[0])
    return term(ability[0], title_key(ability[1]), *(Const(a) for a in ability[2:]))


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
        out.append(fact("card_ability", c, ability_term(ability)))
    for ability, zone in card.extra.get("ability_zones") or []:
        out.append(fact("card_ability_from", c, ability_term(ability), Const(zone)))
    out += [fact("card_trait", c, t) for t in card.extra.get("traits") or []]
    for a, b in card.extra.get("person_aliases") or []:
        out += [fact("person_alias", title_key(a), title_key(b)),
                fact("person_alias_loose", loose_key(a), loose_key(b))]
    return tuple(out)


def card_facts(card: Card, catalog: Catalog) -> tuple[Fact, ...]:
    """The facts of one card of `catalog`: a hero's and an alter ego's with the alter ego's name."""
    alter_ego = card.title if card.type == "alter_ego" else None
    if card.type == "hero" and card.extra.get("alter_ego") in catalog:
        alter_ego = catalog.get(card.extra["alter_ego"]).title
    return _card_fact_lines(card, alter_ego)


class MarvelFacts(CardFacts):
    """A Marvel Champions table and its questions as facts, and its instances as a pack records them."""

    card_facts = staticmethod(card_facts)

    def facts(self, state: State, questions: list[tuple[str, str, dict[str, Any]]]) -> list[Fact]:
        """As for every card game, with the facts of a scenario's actions (actions.step_facts)."""
        return super().facts(state, questions) + step_facts(state, questions)

    def group_key(self, kind: str, params: dict[str, Any]) -> Any:
        """In a scenario with actions, a `plays` question needs a timeline of its own (actions.group_key)."""
        return group_key(kind, params)

    def state_facts(self, state: State, cards: dict[str, Card]) -> list[Fact]:
        """The facts of each instance, an identity's with its faces and the face up; each card added to `cards`."""
        out: list[Fact] = []
        for inst in state.instances.values():
            i = inst.id
            cards[inst.card.id] = inst.card
            out += [fact("instance", i, inst.card.id, inst.owner), fact("in_zone", i, Const(inst.zone))]
            if inst.zone == "identity":
                for face, kind in faces(inst.card, state.catalog):
                    cards[face.id] = face
                    out.append(fact("face_card", i, face.id, Const(kind)))
                up = inst.face or inst.card
                out.append(fact("face_up", i, up.id))
                if up.type == "hero":  # the cards linked to the identity show with its hero side
                    out.extend(fact("face_up", i, f) for f in inst.card.extra.get("linked_faces") or []
                               if f in state.catalog)
        return out

    def question_facts(self, state: State, q: str, kind: str, params: dict[str, Any],
                       cards: dict[str, Card]) -> list[Fact]:
        """The facts of a question of the game's own: the cards, identities or deck it names; each card added to
        `cards`."""
        out: list[Fact] = []
        if kind == "identities":
            for player, hero in params["players"].items():
                out.append(fact("q_identity", q, player, hero.id))
                for face, _ in faces(hero, state.catalog):
                    cards[face.id] = face
                    out.append(fact("q_identity_face", q, player, face.id))
        elif kind == "coexist":
            a, b = params["cards"]
            cards[a.id], cards[b.id] = a, b
            out.append(fact("q_coexist", q, a.id, b.id, Const(params["in"])))
        elif kind in ("reveal", "put_into_play"):
            card = params["card"]
            cards[card.id] = card
            out.append(fact("q_reveal" if kind == "reveal" else "q_put_into_play", q, card.id, params["player"] or ""))
            if params.get("via") is not None:
                cards[params["via"].id] = params["via"]
                out.append(fact("q_via", q, params["via"].id))
            if params.get("via_instance") is not None:
                out.append(fact("q_via_instance", q, params["via_instance"]))
            if params.get("arriving") is not None:
                out.append(fact("q_arriving", q, params["arriving"]))
        elif kind == "deck":
            out += self._deck(state, q, params, cards)
        return out

    @staticmethod
    def _deck(state: State, q: str, params: dict[str, Any], cards: dict[str, Card]) -> list[Fact]:
        """The facts of a `deck` question: each card's copies, by card and by the code written, and the faces of the
        deck's identity; each card added to `cards`."""
        out: list[Fact] = []
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
            for face, face_kind in faces(params["identity"], state.catalog):
                cards[face.id] = face
                out.append(fact("deck_face", q, face.id, Const(face_kind)))
        return out

    def instance_record(self, instance: Any, activity: dict[str, tuple[str, str]]) -> dict[str, Any]:
        """As for every card game, with the face an identity shows."""
        found = super().instance_record(instance, activity)
        return {**found, "face": instance.face.record()} if instance.face is not None else found
