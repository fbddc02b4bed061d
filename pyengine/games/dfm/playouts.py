"""Whole Duel for Middle-earth games as scenarios: a written game that takes every card of the three chapters in
turn (benchmarks and tests of games at full length), and random playouts that, from a setup, repeatedly take
a random open play of either player, as `pyengine plays` answers it, until no play is open (the game is over).
Which plays are open, and when the game ends, the encodings decide; Python only draws one and writes the
actions down. A seed makes a playout reproducible."""

from __future__ import annotations

import random
from typing import Any

import clingo

from pyengine.core.answering import load
from pyengine.core.engine import ground_timeline, units
from pyengine.games.dfm.layout import layout_rows
from pyengine.games.dfm.play_words import option_id
from pyengine.games.dfm.terms import BONUS_CHOICES, CHOICES, RACES


def setup_state() -> dict[str, Any]:
    """The state a written game and a playout start from: three allies each, no coins, a unit of each side on the
    board, two connections, a Landmark tile open, two Alliance tokens of each race (not the base game's setup, which
    dealt_start gives: every number is given, none left to it)."""
    return {"allies": {"fellowship": {"hidden": ["elrond", "goldberry", "boromir"]},
                       "sauron": {"hidden": ["shelob", "warg", "grima"]}},
            "coins": {"fellowship": 0, "sauron": 0},
            "units": {"fellowship": {"gondor": 1}, "sauron": {"mordor": 1}},
            "connections": [["gondor", "mordor"], ["gondor", "rohan"]],
            "tiles": ["minas_tirith"], "stacks": {race: 2 for race in RACES}}


def written_game(actions: int | None = None) -> dict[str, Any]:
    """A game that, turn by turn, takes the next card of the layout from the bottom row up (discarding it for
    coins) and ends the turn, through the three chapters (120 actions), or its first `actions` actions."""
    steps: list[dict[str, Any]] = []
    players = ("fellowship", "sauron")
    layouts = layout_rows()
    for chapter in sorted(layouts):
        rows = layouts[chapter]
        for row in range(len(rows), 0, -1):
            for card in range(1, rows[row - 1] + 1):
                player = players[len(steps) // 2 % 2]
                steps += [{"player": player, "take": [row, card], "use": "discard"},
                          {"player": player, "end_turn": True}]
    steps = steps[:actions] if actions is not None else steps
    count = len(steps)
    return {"game": "dfm", "title": f"A written game of {count} actions", "cites": ["p11"], "chapter": 1,
            "turn": "fellowship", "state": setup_state(), "actions": steps,
            "questions": [{"id": "last-action", "ask": "action", "step": count},
                          {"id": "tokens-at-the-end", "ask": "tokens", "after": count, "expect": 8},
                          {"id": "winner", "ask": "winner", "after": count}]}


def action_of(play: str, player: str) -> dict[str, Any]:
    """A play of `pyengine plays` (its words, e.g. `take 5.1 play`, `call elrond enter race=elves`, any of them
    followed by the choice of a Ring-track bonus it earns, `bonus_region=gondor`) as a scenario action of
    `player`."""
    words = play.split()
    bonus = [w.split("=", 1) for w in words if w.split("=", 1)[0] in BONUS_CHOICES]
    return _kind_action([w for w in words if w.split("=", 1)[0] not in BONUS_CHOICES], player) | dict(bonus)


def _kind_action(words: list[str], player: str) -> dict[str, Any]:
    """A play's words but a Ring-track bonus's choice as a scenario action of `player`."""
    action: dict[str, Any] = {"player": player}
    if words[0] == "take":
        row, card = words[1].split(".")
        action |= {"take": [int(row), int(card)], "use": words[2]}
        for name, value in (w.split("=", 1) for w in words[3:]):  # region=X, remove=X,Y, moves=A-B,...: units
            action[name] = {"remove": value.split(","), "moves": [m.split("-") for m in value.split(",")]}.get(
                name, value)
        return action
    if words[0] == "landmark":  # and moves=A-B,..., pile_card=C.N or token=RACE.N with what it names: a real tile's
        action["landmark"] = words[1]
        for name, value in (w.split("=", 1) for w in words[2:]):
            action[name] = [m.split("-") for m in value.split(",")] if name == "moves" else value
        return _picks_read(action)
    if words[0] == "alliance":  # race=R, and token=X on real tokens with what it names (picks=coin,remove:X,move:A-B)
        return _picks_read(action | {"alliance": words[1], **dict(w.split("=", 1) for w in words[2:])})
    if words[0] != "call":
        return action | {words[0]: True}
    ally, effect = words[1], words[2]
    action |= {"call": ally, "effect": effect}
    kinds = dict(CHOICES[ally, effect])
    copied = next((w.split("=", 1)[1] for w in words[3:] if w.startswith("copy=")), None)
    if ally == "warg" and effect == "exit" and copied is not None:
        kinds |= CHOICES[copied, "exit"]
    for word in words[3:]:
        name, value = word.split("=", 1)
        kind = kinds.get(name)
        if kind == "card":
            action[name] = [int(n) for n in value.split(".")]
        elif kind in ("connection", "move"):
            action[name] = value.split("-")
        else:
            action[name] = value
    return action


def _picks_read(action: dict[str, Any]) -> dict[str, Any]:
    """An action whose `picks=` of a play's words are read as a scenario's `picks:` list."""
    if "picks" in action:
        action["picks"] = [_pick(p) for p in action["picks"].split(",")]
    return action


def _pick(word: str) -> Any:
    """A pick of a play's words (coin, remove:X, move:A-B) as a scenario's `picks:` entry."""
    kind, _, value = word.partition(":")
    return {"remove": {"remove": value}, "move": {"move": value.split("-")}}.get(kind, kind)


def _start(start: dict[str, Any] | None) -> dict[str, Any]:
    """The game a playout starts from, without actions: the setup's, or the catalog, chapter, turn and state of
    `start` (a part it leaves out is left out of the game too)."""
    game = written_game(0)
    if start is None:
        return game
    return {key: value for key, value in game.items() if key not in ("chapter", "turn", "state")} | {
        key: start[key] for key in ("catalog", "chapter", "turn", "state") if key in start}


def dealt_start(seed: int) -> dict[str, Any]:
    """The game's start on the base game's real cards (`catalog: vermihunter`, imported into the card store): the
    three chapters dealt from the seed, on the base game's board (`connections: standard`), both pawns at their
    start of the Ring track (ring: 0; the Nazgul 14 spaces behind, assumption ring_track), so that the Quest of the
    Ring is judged and may end the game; each player's coins, the units on the board and whose turn it is left to
    the setup (assumption setup_start: 3 and 2 coins, two units each in Arnor and Mordor, Sauron to begin, the
    values the import checks against the data's setup)."""
    state = {key: value for key, value in setup_state().items() if key not in ("coins", "units")}
    return {"catalog": "vermihunter", "chapter": 1, "state": state | {"connections": "standard", "deal": seed,
                                                                      "ring": 0}}


def _open_plays(start: dict[str, Any] | None, actions: list[dict[str, Any]]) -> list[list[clingo.Symbol]]:
    """Every play open to either player after `actions` (as a scenario's steps, read and checked as a scenario
    file's), as the encodings' open_play/4 finds it, each as its step, its player and its option, sorted: both
    players' `plays` questions asked after the last step, grounded from the state kept when the actions but the
    last were asked (pyengine.core.moment_states), so that each action grounds only its own step and the plays
    after it."""
    game = _start(start) | {"actions": actions, "questions": [
        {"id": f"plays:{player}", "ask": "plays", "player": player} for player in ("fellowship", "sauron")]}
    [unit] = units(load(game), {})
    control = clingo.Control(["--warn=none"])
    ground_timeline(control, "dfm", unit.kinds, unit.facts, answers=False)
    moment = clingo.Number(len(actions))
    found = [a for a in control.symbolic_atoms.by_signature("open_play", 4) if a.symbol.arguments[0] == moment]
    if not all(a.is_fact for a in found):  # the grounding decides every play: no solve is needed, or made
        raise RuntimeError("a play left undecided by the grounding: a defect of the encodings")
    return sorted(a.symbol.arguments[1:] for a in found)


def playout(seed: int, limit: int = 400, start: dict[str, Any] | None = None) -> dict[str, Any]:
    """A random game from the setup, or from the chapter, turn and state of `start`: each action a play open at the
    moment it is taken (the encodings' open_play/4, as `pyengine plays` answers it), drawn with the seed; ends when
    no play is open (the game is over) or after `limit` actions. The scenario asks who won and how many Power
    tokens there are after every action."""
    rng = random.Random(seed)
    actions: list[dict[str, Any]] = []
    while len(actions) < limit:
        open_plays = _open_plays(start, actions)
        if not open_plays:
            break
        _step, player, option = rng.choice(open_plays)
        actions.append(action_of(option_id(option), player.name))
    game = _start(start)
    count = len(actions)
    tokens = [{"id": f"tokens-{n}", "ask": "tokens", "after": n, "expect": 8} for n in range(count + 1)]
    game |= {"title": f"A random playout (seed {seed})", "actions": actions,
             "questions": [{"id": "winner", "ask": "winner", "after": count}, *tokens]}
    return game


__all__ = ["action_of", "dealt_start", "playout", "setup_state", "written_game"]
