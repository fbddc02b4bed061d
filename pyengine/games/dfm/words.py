"""The Duel's terms in words: the evidence of a reason, a question's parameters, a play tried (its id and its
description, play_words.py), a change a flip made to the starting state, and what the explorer's Duel form offers."""

from __future__ import annotations

from typing import Any

import clingo

from pyengine.core.asp import render
from pyengine.games.dfm.play_words import option_id, option_words
from pyengine.games.dfm.terms import ALLIES, ALLY_STATES, FACTIONS, RACES, REGIONS, TILES, TOKEN_PLACES, State

# The starting state's numbers and facts (init_num/2, init/1) in words, by the fluent's name; {0}, {1} are its
# arguments.
FLUENT_WORDS = {
    "tok": "Power tokens at {0}", "coins": "{0}'s coins", "stack": "Alliance tokens in the {0} stack",
    "discarded": "{0} cards in the discard pile", "units": "{0}'s units in region {1}",
    "alliance": "{0}'s {1} Alliance tokens", "symbols": "{0}'s {1} race symbols",
    "fortress": "{0}'s Fortress in region {1}",
    "taken": "the card at row {0}, column {1} taken", "turn": "{0}'s turn", "open_tile": "tile {0} open",
    "eagle_at": "the Eagle at {0}", "reserve": "the coins in the reserve",
    "nazgul": "the Nazgul's steps on the Ring track from their start",
    "ring": "the Fellowship's steps on the Ring track from its start",
    "sauron_steps": "Sauron's own steps on the Ring track",
    "discard_pile": "cards in the discard pile", "skills": "{0}'s {1} skill",
    "either": "{0}'s cards of one skill among {1}",
    **{status: "{0}'s ally {1} " + status.replace("_", " ") for status in ALLY_STATES},
}


# The evidence of the Duel's rules in words, by the term's name ({0}, {1} its arguments); a term of another shape is
# shown as it is.
EVIDENCE_WORDS = {
    "card": "the card at row {0}, card {1}", "race": "race {0}", "ally": "{0}'s ally {1}", "colour": "colour {0}",
    "turn": "{0}'s turn", "out_of_turn": "not {0}'s turn", "stack": "the {0} Alliance stack",
    "discard_pile": "the discard pile",
    "eagle": "the Eagle: {0}", "tile": "Landmark tile {0}", "grey": "{0}'s grey cards",
    "conn": "the connection between {0} and {1}", "tokens": "{0}'s Power tokens: {1}", "region": "region {0}",
    "coins": "{0}'s coins: {1}", "chapter": "chapter {0}", "symbols": "{0}'s {1} race symbols",
    "reserve": "coins in the reserve: {0}", "used": "used by {0} already", "chain": "chaining symbol {0}",
    "winner": "{0} wins", "draw": "a draw", "effect": "effect: {0}", "skill": "skill {0}: {1}",
    "lost": "{0} loses coins: {1}", "units": "{0}'s units in {1}: {2}",
    "moves": "{0} move on the Ring track, steps: {1}", "space": "Ring-track space {0}",
    "ring": "the Fellowship's own steps on the Ring track: {0}, the Nazgul's: {1}",
    "move": "a move of the {0} asked alone, without the card, tile, bonus, ally or token that gives it",
    "board": "{0}'s units on the board: {1}", "held": "{0}'s units in {1}", "remove": "units to name: {0}",
    "asks": "the cost asks skill {0}: {1}", "skills_missing": "skills missing, a coin each: {0}",
    "price": "{0} must pay coins: {1}", "missing": "skill {0} missing: {1}",
    "paid": "coins for the skills missing: {0}", "either": "a card of one skill among {0}",
    "any_skill": "skills no card gives: {0}, one of them given by the token: {1} left to pay",
    "token": "Alliance token {0}", "extra_turn": "{0} owed an extra turn", "pick": "pick {0}: {1}",
    "grey_card": "{0}'s grey card {1}", "no_grey": "{0} has no grey card",
    "no_token_kept": "the tile keeps no Alliance token, which {0} would name",
    "grey_unnamed": "{0}'s grey card moved without a name: the skills it gave stay (which card it is, is unknown)",
    "grey_counted": "{0}'s grey card discarded, one of those counted",
    "picks": "picks to name: {0}",
    "hidden_allies": "one of {0}'s hidden allies, at random (the call asked without its outcome)",
    "no_hidden": "{0} has no hidden ally to reveal",
    "unnamed": "{0} holds Alliance tokens not named, whose effects are unknown",
    "attribute": "for the rest of the game: {0}", "trigger": "for the rest of the game, on {0}: {1}",
}


def _fluent_words(fluent: clingo.Symbol) -> str:
    """A fluent of the starting state in words (its term where no words are kept for its name)."""
    pattern = FLUENT_WORDS.get(fluent.name)
    arguments = [str(a).replace('"', "").replace("_", " ") for a in fluent.arguments]
    if pattern is None or pattern.count("{") > len(arguments):
        return ", ".join([fluent.name.replace("_", " "), *arguments]) if arguments else fluent.name.replace("_", " ")
    return pattern.format(*arguments)


class DfmWords:
    """How the Duel's evidence, parameters, plays and changes read to a judge, and what its explorer form needs."""

    def describe(self, evidence: clingo.Symbol, state: State) -> str:
        """The evidence of a reason in words: a step with its action's words, a moment, a row of the document, or
        a term of the Duel's rules as EVIDENCE_WORDS says it (else the term as it is)."""
        args = evidence.arguments
        if evidence.name == "step" and args:
            number = args[0].number
            words = state.actions[number][2] if number < len(state.actions) else "the call asked about"
            return f"step {number + 1}: {words}"
        if evidence.name == "at" and args:
            return f"after step {args[0].number}" if args[0].number else "at the start"
        if evidence.name == "row" and args:
            return f"dfm_allies {args[0]}"
        pattern = EVIDENCE_WORDS.get(evidence.name)
        words = [str(a).replace('"', "").replace("_", " ") for a in args]
        if pattern is not None and pattern.count("{") == len(words):
            return pattern.format(*words)
        return str(evidence).replace('"', "")


    def describe_param(self, key: str, value: Any, state: State) -> str | None:
        """A question's parameter in words: the action an `allowed` question tries, a step with its action, the
        fluent a `value` question asks about; None for the rest (shown as given)."""
        if key == "action":
            return value[2]
        if key == "step" and 0 < value <= len(state.actions):
            return f"{value} ({state.actions[value - 1][2]})"
        if key == "of":
            return render(value)
        return None

    def play_id(self, term: clingo.Symbol, state: State) -> str:
        """An action a `plays` question tried, play(Q, O), as the words of a scenario action: `take 1.2 play`,
        `end_turn`, `move_nazgul`, `call elrond enter race=elves` (the state does not enter into them)."""
        return option_id(term.arguments[1])

    def describe_play(self, term: clingo.Symbol, state: State) -> str:
        """An action a `plays` question tried, in words: `call upon Elrond (enter effect), choosing race elves`,
        `take the layout's card 1.2 and play it`, `end the turn`."""
        return option_words(term.arguments[1])

    def describe_change(self, change: clingo.Symbol, state: State) -> str:
        """A change the flip search made to the starting state (rules/flip/dfm.lp, change/1) in words."""
        args = change.arguments
        if change.name == "value" and len(args) == 3:
            return f"{_fluent_words(args[0])}: {args[2].number} instead of {args[1].number} at the start"
        if change.name == "dropped" and args:
            return f"no longer at the start: {_fluent_words(args[0])}"
        return str(change)

    def web_extras(self) -> dict[str, Any]:
        """What the explorer's Duel form (form.js beside this module) offers: a blank table, factions, allies and
        their owners, races, ally states, token places; a question's `card` is a list (a row and a card); the
        answers page draws its board step by step (/api/board)."""
        blank = {"title": "A Duel table", "chapter": 1, "turn": "fellowship",
                 "state": {"tokens": {"fellowship": 0, "sauron": 0, "box": 8},
                           "allies": {"fellowship": {"hidden": []}, "sauron": {"hidden": []}}},
                 "actions": [], "questions": []}
        board = {"about": "The layout (face-up cards light, face-down dark, the cards that can be taken outlined in "
                          "green, Power tokens in gold), the token places and stacks, and the board's regions with "
                          "units, Fortresses and tiles, as the encodings find them after each step."}
        return {"blank": blank, "form": True, "card_list": True, "board": board, "factions": list(FACTIONS),
                "allies": ALLIES, "races": list(RACES), "ally_states": list(ALLY_STATES),
                "token_places": list(TOKEN_PLACES), "regions": list(REGIONS), "tiles": list(TILES)}
