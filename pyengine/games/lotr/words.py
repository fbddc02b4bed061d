"""A Lord of the Rings TCG table's terms in words: its instances (zone, activity, stack, wounds), zones, the turn,
counts and links between cards, and what the explorer's form offers for the game."""

from __future__ import annotations

from typing import Any

import clingo

from pyengine.games.common.words import BLANK_TABLE, CardWords
from pyengine.games.lotr.state import IN_PLAY_ZONES, PHASES, ZONE_NAMES, ZONES, State


class LotrWords(CardWords):
    """How a Lord of the Rings TCG table's evidence, plays and changes read to a judge."""

    def web_extras(self) -> dict[str, Any]:
        """What the explorer's form offers: a blank table, the zones and those in play, what an instance row sets
        besides its card, the turn's phases, and a player's decklist (led by its ring-bearer, a companion)."""
        return {"blank": BLANK_TABLE, "zones": list(ZONES), "in_play": list(IN_PLAY_ZONES),
                "instance_extras": ["wounds", "active", "on"], "phases": list(PHASES),
                "deck": {"leader": "ring_bearer", "leader_types": ["companion"]}}

    def zone_words(self, zone: str) -> str:
        """A zone's name as the document writes it."""
        return ZONE_NAMES.get(zone, zone)

    def describe_instance(self, inst: Any) -> str:
        """An instance with its card, owner and zone, whether the table marks it active, what it is stacked on and
        its wounds."""
        where = f"{inst.owner}'s {ZONE_NAMES[inst.zone]}"
        if inst.zone in IN_PLAY_ZONES and inst.active is not None:  # else the rules find it (explanations say)
            where += ", marked active" if inst.active else ", marked not active"
        if inst.on:
            where += f", on {inst.on}"
        if inst.wounds:
            where += f", {inst.wounds} wound{'s' if inst.wounds > 1 else ''}"
        return f"{inst.card.label()} [{inst.id}] in {where}"

    def describe_term(self, evidence: clingo.Symbol, state: State) -> str:
        """The game's own evidence in words: the turn a player asks in, a count of a title's cards in a deck, the
        companions counted, one card counting as another, the order two cards came into play, a phase, the player a
        turn passes to, a table without turn, a card's mark of activity."""
        args = evidence.arguments
        passing = any(a is not None and a.kind in ("phase", "turn") for a in state.actions)
        if evidence.name == "turn" and args and passing:  # steps pass the phase or turn: the table's are the start's
            return (f"{args[0].string} asks in the phase and turn of the moment asked (at the start: phase "
                    f"{state.phase or 'unknown'}, whose fellowship player is {state.fellowship_player or 'unknown'})")
        if evidence.name == "turn" and args:
            return (f"{args[0].string} asks in phase {state.phase or 'unknown'}, whose fellowship player is "
                    f"{state.fellowship_player or 'unknown'}")
        if evidence.name == "count" and len(args) == 2:
            return f"{args[1].number} cards of the title of {self.describe(args[0], state)} in the deck"
        if evidence.name == "companions" and len(args) == 1:
            return f"{args[0].number} companions of the player counted, active in play or in the dead pile"
        if evidence.name == "link" and len(args) == 2:
            return f"{self.describe(args[0], state)} counts as {self.describe(args[1], state)}"
        if evidence.name == "at" and len(args) == 1:
            return f"the state after step {args[0].number}" if args[0].number else "the state at the start"
        if evidence.name == "step" and len(args) == 1:
            action = state.actions[args[0].number] if args[0].number < len(state.actions) else None
            return f"step {args[0].number + 1}" + (f" ({action.words()})" if action is not None else "")
        if evidence.name == "phase" and len(args) == 1:
            return f"the {args[0].name} phase"
        if evidence.name == "to_player" and len(args) == 1:
            return f"the turn of {args[0].string}"
        if evidence.name == "no_turn" and not args:
            return "the table gives no turn (whose turn it is, its phase)"
        if evidence.name == "marked" and len(args) == 1:
            return f"the table's mark of activity on {self.describe(clingo.Function('inst', [args[0]]), state)}"
        if evidence.name == "first" and len(args) == 2:
            return f"{self.describe(args[0], state)} in play first, then {self.describe(args[1], state)}"
        return _card_data_term(evidence) or self._instance_term(evidence, state) or str(evidence)

    def _instance_term(self, evidence: clingo.Symbol, state: State) -> str | None:
        """Evidence naming an instance and a term of its card's GEMP data."""
        args = evidence.arguments
        if evidence.name == "effect" and len(args) == 2:
            return (f"{self.describe(clingo.Function('inst', [args[0]]), state)} has a GEMP {args[1].string} effect "
                    "(not applied)")
        if evidence.name == "starts_with_ring" and args:
            return f"{self.describe(clingo.Function('card', [args[0]]), state)} can start the game as the Ring-bearer"
        return None


# What each term of a card's GEMP data, named as evidence, says (its GEMP name or value follows).
_DATA_TERMS = {"filter": "the filter term `{}` (turns on what a table does not show)",
               "twilight": "a twilight cost of {}", "cost": "a cost of GEMP type {}",
               "cost_change": "its own twilight cost change (GEMP {})", "condition": "the ability's {}",
               "requirement": "its play requirement {}"}


def _card_data_term(evidence: clingo.Symbol) -> str | None:
    """A term of a card's GEMP data named as evidence, in words."""
    if evidence.name not in _DATA_TERMS or len(evidence.arguments) != 1:
        return None
    value = evidence.arguments[0]
    if evidence.name == "requirement" and value.type == clingo.SymbolType.Number:
        return f"its play requirement number {value.number + 1} (spotting cards, decided on the table)"
    if evidence.name == "requirement":
        return f"a play requirement of GEMP type {value.string if value.type == clingo.SymbolType.String else value}"
    shown = value.string if value.type == clingo.SymbolType.String else str(value)
    return _DATA_TERMS[evidence.name].format(shown)
