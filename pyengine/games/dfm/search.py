"""The search tools' view of the Duel (edge cases, flip): a state and a question the edge-case search found
(rules/search/dfm.lp) as the fields of a scenario file, the state predicates a flip may change (rules/flip/dfm.lp),
and why a state cannot be flipped."""

from __future__ import annotations

from typing import Any, ClassVar

import clingo

from pyengine.games.dfm.terms import ALLY_STATES, FACTIONS, NAME, State


def _plain(symbol: clingo.Symbol) -> Any:
    """A symbol as a scenario file writes it: a number, a text, or a name."""
    if symbol.type == clingo.SymbolType.Number:
        return symbol.number
    return symbol.string if symbol.type == clingo.SymbolType.String else symbol.name


def _card_skill(state: dict[str, Any], args: list[clingo.Symbol]) -> None:
    """A skill a card of the layout costs (card_skill_cost/5) into that card's `cards:` entry."""
    row, col = args[1].number, args[2].number
    entry = next((c for c in state.setdefault("cards", []) if c["at"] == [row, col]), None)
    if entry is None:
        entry = {"at": [row, col], "skills": {}}
        state["cards"].append(entry)
    entry["skills"][_plain(args[3])] = args[4].number


def _number(state: dict[str, Any], fluent: clingo.Symbol, value: int) -> None:
    """A starting number (init_num/2) into the state's fields: Power tokens at a place, a player's counts, the
    board's and the track's counts, the skills a player's grey cards give one of."""
    inner = [_plain(a) for a in fluent.arguments]
    if fluent.name == "tok":
        where = fluent.arguments[0]
        if str(where) in ("fellowship", "sauron", "nazgul"):
            state["tokens"][str(where)] = value
        elif where.name in ("stack", "tile", "conn"):
            name = {"conn": "connection"}.get(where.name, where.name)
            state.setdefault("tokens_at", []).append([name, *(_plain(a) for a in where.arguments), value])
    elif fluent.name in ("coins", "grey", "extra_turns"):
        state.setdefault(fluent.name, {})[inner[0]] = value
    elif fluent.name in ("reserve", "discard_pile", "ring", "nazgul", "sauron_steps"):
        state[fluent.name] = value
    elif fluent.name == "units":
        state["units"].setdefault(inner[0], {})[inner[1]] = value
    elif fluent.name == "stack":
        state["stacks"][inner[0]] = value
    elif fluent.name in ("alliance", "symbols", "skills"):
        state.setdefault(fluent.name, {}).setdefault(inner[0], {})[inner[1]] = value
    elif fluent.name == "either":
        skills = [_plain(a) for a in fluent.arguments[1].arguments]
        state.setdefault("skill_choices", {}).setdefault(inner[0], []).extend([skills] * value)


def _fact(state: dict[str, Any], fluent: clingo.Symbol) -> None:
    """A starting fact (init/1) other than whose turn it is into the state's fields: an ally's state, a card taken,
    an open tile, the Eagle's place, or a flag."""
    inner = [_plain(a) for a in fluent.arguments]
    if fluent.name in ALLY_STATES:
        state["allies"].setdefault(inner[0], {}).setdefault(fluent.name, []).append(inner[1])
    elif fluent.name == "taken":
        state.setdefault("taken", []).append(inner)
    elif fluent.name == "open_tile":
        state.setdefault("tiles", []).append(inner[0])
    elif fluent.name == "eagle_at":
        state["eagle"] = inner[0]
    else:
        state.setdefault("flags", []).append([fluent.name, *inner])


def _moved(choices: dict[str, clingo.Symbol]) -> list[list[Any]]:
    """The movements of units an action's choices name (moved1 to moved3), each [FROM, TO]."""
    return [[_plain(a) for a in choices[n].arguments] for n in ("moved1", "moved2", "moved3") if n in choices]


def _action(term: clingo.Symbol, actor: str, choices: dict[str, clingo.Symbol]) -> dict[str, Any]:
    """The one action of a state the search found (its act/3 term, its player and its choices) as a scenario
    action."""
    action: dict[str, Any] = {"player": actor}
    if term.name == "call":
        action |= {"call": str(term.arguments[0]), "effect": str(term.arguments[1])}
        for name, value in sorted(choices.items()):
            if value.type == clingo.SymbolType.Function and value.arguments:
                action[name] = [_plain(a) for a in value.arguments]
            else:
                action[name] = _plain(value)
    elif term.name == "take":
        action |= {"take": [term.arguments[0].number, term.arguments[1].number], "use": str(term.arguments[2])}
        action |= {name: _plain(value) for name, value in choices.items() if name == "region"}
        removed = [_plain(choices[n]) for n in ("remove1", "remove2") if n in choices]
        action |= {"remove": removed} if removed else {}
        moved = _moved(choices)
        action |= {"moves": moved} if moved else {}
    elif term.name == "landmark":
        action["landmark"] = _plain(term.arguments[0])
        moved = _moved(choices)
        action |= ({"moves": moved} if moved else {}) | (
            {"pile_card": _plain(choices["pile_card"])} if "pile_card" in choices else {})
    elif term.name == "alliance":
        action |= {"alliance": str(term.arguments[0]), "race": str(term.arguments[1])}
    elif term.name == "move":
        action["move"] = [_plain(a) for a in term.arguments]
    else:
        action[term.name] = True
    return action


class DfmSearch:
    """The Duel as the search tools see it: the scenarios of the states and questions they find, and what a flip
    may change."""

    # The state predicates `pyengine flip` may change (rules/flip/dfm.lp).
    flip_predicates: ClassVar[set[str]] = {"init_num", "init", "given_reserve", "given_nazgul"}

    def search_state(self, facts: list[clingo.Symbol]) -> dict[str, Any]:
        """A state the search found (rules/search/dfm.lp), as the fields of a scenario file."""
        state: dict[str, Any] = {"tokens": {}, "coins": {}, "allies": {}, "units": {}, "stacks": {}, "alliance": {},
                                 "grey": {}, "connections": []}
        turn, actions, choices = "fellowship", [], {}
        for atom in facts:
            args = atom.arguments
            if atom.name == "connected" and state["connections"] != "standard":
                state["connections"].append([_plain(a) for a in args])
            elif atom.name == "board_kind":
                state["connections"] = "standard"
            elif atom.name == "card_skill_cost":
                _card_skill(state, args)
            elif atom.name == "given_reserve":
                state["reserve"] = args[0].number
            elif atom.name == "given_nazgul":
                state["nazgul"] = args[0].number
            elif atom.name == "init_num":
                _number(state, args[0], args[1].number)
            elif atom.name == "init" and args[0].name == "turn":
                turn = _plain(args[0].arguments[0])
            elif atom.name == "init":
                _fact(state, args[0])
            elif atom.name == "token_gone":
                state.setdefault("tokens_gone", []).append([args[0].number, args[1].number])
            elif atom.name == "act":
                actions.append(args[2])
                actor = str(args[1])
            elif atom.name == "choice":
                choices[str(args[1])] = args[2]
        # The search's state has what it does not set at none: its coins, units and connections are given as such,
        # never left to the setup (assumption setup_start).
        state = {k: v for k, v in state.items() if v not in ({}, []) or k in ("units", "connections")}
        state["coins"] = {player: state.get("coins", {}).get(player, 0) for player in FACTIONS}
        [term] = actions
        return {"game": NAME, "chapter": 1, "turn": turn, "state": state, "actions": [_action(term, actor, choices)]}

    def search_question(self, term: clingo.Symbol, facts: list[clingo.Symbol]) -> dict[str, Any]:
        """A question of the search (its term) as a scenario question."""
        if term.name == "action":
            return {"ask": "action", "step": 1}
        if term.name == "winner":
            return {"ask": "winner", "after": 1}
        fluent = term.arguments[0]
        if fluent.name == "tok":
            place = fluent.arguments[0]
            of = ["tokens", place.name] if place.name != "conn" else \
                ["tokens", "connection", *(a.string for a in place.arguments)]
        else:
            of = [fluent.name, *[a.string if a.type == clingo.SymbolType.String else a.name for a in fluent.arguments]]
        return {"ask": "value", "after": 1, "of": of}

    def flip_refusal(self, state: State) -> str | None:
        """Why `flip` cannot search this state, or None. On the real cards (`catalog:`) the search, which grounds
        every moment with every starting number free by two and every starting fact droppable, outgrew its
        bounds (a chapter card file: more than 60 s with 4 GB, and out of its 1 GB in 16 s), so it is refused."""
        if state.real_cards is not None:
            return "flip does not search Duel states on the real cards (`catalog:`) yet: its search outgrows its bounds"
        return None
