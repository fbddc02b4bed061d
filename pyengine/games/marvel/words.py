"""A Marvel Champions table's terms in words: its instances (an identity with the face it shows, the encounter's
cards), a card named by a reprint's code, what a card shows, copies and codes, the scope of a verdict, and what
the explorer's form offers for the game."""

from __future__ import annotations

from typing import Any

import clingo

from pyengine.games.common.words import BLANK_TABLE, CardWords
from pyengine.games.marvel.state import ENCOUNTER, FACES, ZONES, State


class MarvelWords(CardWords):
    """How a Marvel Champions table's evidence, plays and changes read to a judge."""

    def web_extras(self) -> dict[str, Any]:
        """What the explorer's form offers: a blank table, the zones, an identity per player and the faces it
        shows, and a player's decklist (led by its identity, a hero)."""
        return {"blank": BLANK_TABLE, "zones": list(ZONES), "identity": True, "faces": list(FACES),
                "deck": {"leader": "identity", "leader_types": ["hero"]}}

    def describe_instance(self, inst: Any) -> str:
        """An identity with the face it shows, or an instance with its card, owner and zone."""
        if inst.zone == "identity":
            face = inst.face or inst.card
            return f"{inst.owner}'s identity {inst.card.label()} [{inst.id}], {face.label()} face up"
        owner = "the encounter" if inst.owner == ENCOUNTER else inst.owner
        return f"{inst.card.label()} [{inst.id}] in {owner}'s {inst.zone}"

    def describe_param(self, key: str, value: Any, state: Any) -> str | None:
        """As for every card game; a deck's cards as copies of each, a reprint's code beside the card it prints."""
        if key == "codes":
            return ", ".join(f"{count} \u00d7 {state.catalog.get(card).full_name} ("
                             + (f"{code}, a reprint of {card}" if code != card else card) + ")"
                             for card, code, count in value)
        return super().describe_param(key, value, state)

    def describe(self, evidence: clingo.Symbol, state: Any) -> str:
        """As for every card game; a card named by a reprint's code is shown by that code."""
        if evidence.name == "card" and evidence.arguments and evidence.arguments[0].string in state.written:
            card = state.catalog.get(evidence.arguments[0].string)
            dot = "\u2022" if card.unique else ""
            return f"{dot}{card.full_name} ({state.written[card.id]}, a reprint of {card.id})"
        return super().describe(evidence, state)

    def describe_term(self, evidence: clingo.Symbol, state: State) -> str:
        """The game's own evidence in words: what an identity shows (or has face down), a count of copies, a
        printed code, and what a verdict covers."""
        args = evidence.arguments
        if evidence.name in ("shows", "face") and len(args) == 2:
            verb = "shows" if evidence.name == "shows" else "has the face-down face"
            return f"{self.describe(args[0], state)} {verb} {self.describe(args[1], state)}"
        if evidence.name == "count" and len(args) == 2:
            return f"{args[1].number} copies of {self.describe(args[0], state)}"
        if evidence.name == "at" and len(args) == 1:
            return f"the state after step {args[0].number}" if args[0].number else "the state at the start"
        if evidence.name == "step" and len(args) == 1:
            action = state.actions[args[0].number] if args[0].number < len(state.actions) else None
            return f"step {args[0].number + 1}" + (f" ({action.words()})" if action is not None else "")
        if evidence.name == "code" and len(args) == 1:
            return f"the printed code {args[0].string}"
        if evidence.name == "scope" and args and args[0].name == "validation":
            return "MarvelCDB's deck validation checks neither uniqueness nor deck limits"
        if evidence.name == "scope":
            return "the verdict covers the uniqueness rules of marvel_unique only, not deck size or aspects"
        return str(evidence)
