"""How the card games' terms read alike: a question's parameters, a card, an instance, a play of a `plays` answer
and a change a flip found; and CardWords, the base of a card game's words."""

from __future__ import annotations

from typing import Any

import clingo

from pyengine.core.catalog import Card, Catalog

# A new table in the explorer: two players with nothing yet, no questions.
BLANK_TABLE = {"title": "A table", "players": {"alice": {}, "bob": {}}, "questions": []}


def describe_card(evidence: clingo.Symbol, catalog: Catalog) -> str:
    """card("id") evidence as the card's label."""
    card_id = evidence.arguments[0].string
    return catalog.get(card_id).label() if card_id in catalog else card_id


class CardWords:
    """A card game's terms in words, in what the card games share: parameters name cards, evidence names instances,
    cards and pairs of them, a play is an instance played (through another), a flip's change moves an instance."""

    def describe_param(self, key: str, value: Any, state: Any) -> str | None:
        """A question parameter in words: an instance with its card, a card by its label, a list of cards, or each
        player's card; what a `value` question asks of an instance (`of`)."""
        if key == "of" and isinstance(value, tuple) and len(value) == 2:
            name, args = value
            if len(args) == 1 and args[0] in state.instances:
                return f"{name}({args[0]}) ({state.instances[args[0]].card.label()})"
            return f"{name}({', '.join(args)})" if args else name
        if isinstance(value, str) and value in state.instances:
            return f"{value} ({state.instances[value].card.label()})"
        if isinstance(value, Card):
            return value.label()
        if isinstance(value, list) and all(isinstance(v, Card) for v in value):
            return " + ".join(v.label() for v in value)
        if isinstance(value, dict) and value and all(isinstance(v, Card) for v in value.values()):
            return ", ".join(f"{owner}: {card.label()}" for owner, card in value.items())
        return None

    def describe(self, evidence: clingo.Symbol, state: Any) -> str:
        """Evidence of a reason in words: an instance, a card, a pair, the player of a step, or a term of the game's
        own. In a scenario with actions an instance is described where the table writes it, which a step may have
        changed since (the answer's value questions say where it lies after a step)."""
        args = evidence.arguments
        if evidence.name == "inst" and args:
            instance = state.instances.get(args[0].string)
            if instance is None:
                return str(evidence)
            before = " (as the table writes it, before the steps)" if getattr(state, "actions", None) else ""
            return self.describe_instance(instance) + before
        if evidence.name == "card" and args:
            return describe_card(evidence, state.catalog)
        if evidence.name == "pair" and len(args) == 2:
            return f"{self.describe(args[0], state)} and {self.describe(args[1], state)}"
        if evidence.name == "acted_by" and len(args) == 1:
            return f"the step is {args[0].string}'s"
        return self.describe_term(evidence, state)

    def describe_term(self, evidence: clingo.Symbol, state: Any) -> str:
        """Evidence of the game's own terms in words (here: as the term reads)."""
        return str(evidence)

    def describe_instance(self, instance: Any) -> str:
        """An instance of the state in words: its card and its id."""
        return f"{instance.card.label()} [{instance.id}]"

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

    def zone_words(self, zone: str) -> str:
        """A zone's name in words."""
        return zone.replace("_", " ")

    def describe_change(self, change: clingo.Symbol, state: Any) -> str:
        """A change the flip search made to the state (rules/flip/<game>.lp, change/1) in words."""
        args = change.arguments
        if change.name == "copies" and len(args) == 4:
            card, now = describe_card(clingo.Function("card", [args[0]]), state.catalog), args[3].number
            code = args[1].string if args[1].type == clingo.SymbolType.String else None
            if code is not None and code != args[0].string:
                card += f" written {code}"
            part = ("deck" if code is not None or str(args[1]) == "deck" else "draw deck" if str(args[1]) == "draw"
                    else f"decklist's {str(args[1]).replace('_', '-')} part")
            return (f"keep {now} of the {args[2].number} copies of {card} in the {part}" if now
                    else f"take every copy of {card} out of the {part}")
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
