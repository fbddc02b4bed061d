"""What the card games write alike of a read state: CardFacts, the base of a card game's fact writer (the facts of
its state, of each question and of every card they name), with the records of its instances that a conformance pack
holds."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from pyengine.core.asp import Const, Fact, fact, render
from pyengine.core.catalog import Card, Catalog


class CardFacts(ABC):
    """A card game's fact writer, in what the card games share: the state's facts, then each question's (a play's
    instance, a player's plays), then those of every card they name; any of its questions may share one grounding;
    a conformance pack records each instance by its id, owner, zone and card (a game adds what it has besides)."""

    # The facts of one card of a catalog.
    card_facts: Callable[[Card, Catalog], tuple[Fact, ...]]

    def rules_view(self, card: Card, catalog: Catalog) -> frozenset[str]:
        """Everything the rules may read of a card of `catalog`, its id left out: two printings equal here play alike
        in every answer (pyengine.core.catalog resolves a name they share to one)."""
        whole, prefix = render(card.id), render(card.id)[:-1] + "/"
        return frozenset(f.replace(whole, "_").replace(prefix, '"_/')
                         for f in (*self.card_facts(card, catalog), *self.facts_when_read(card)))

    def facts_when_read(self, card: Card) -> list[Fact]:
        """The facts of a card a table writes only where a rule reads them (none, unless the game says)."""
        return []

    def facts(self, state: Any, questions: list[tuple[str, str, dict[str, Any]]]) -> list[Fact]:
        """The facts of the state and of its questions, and those of every card they name."""
        cards: dict[str, Card] = {}
        out = self.state_facts(state, cards)
        for q, kind, params in questions:
            out.append(fact("question", q, Const(kind)))
            if kind == "play":
                out.append(fact("q_play", q, params["instance"], state.instances[params["instance"]].owner))
            elif kind == "plays":
                out.append(fact("q_plays", q, params["player"]))
            out += self.question_facts(state, q, kind, params, cards)
        for card in cards.values():
            out.extend(self.card_facts(card, state.catalog))
        return out

    @abstractmethod
    def state_facts(self, state: Any, cards: dict[str, Card]) -> list[Fact]:
        """The facts of the state (its players, instances, turn), each card they name added to `cards`."""

    @abstractmethod
    def question_facts(self, state: Any, q: str, kind: str, params: dict[str, Any],
                       cards: dict[str, Card]) -> list[Fact]:
        """The facts of question `q` of `kind` besides those every card game writes (question/2, and the instance a
        `play` question plays or the player whose `plays` are asked), each card it names added to `cards`."""

    def group_key(self, kind: str, params: dict[str, Any]) -> Any:
        """The key of the questions that may share one grounding: None, any question of a card game may."""
        return None

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
