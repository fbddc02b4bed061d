"""Whole Duel games: the written game of every card of the three chapters, and random playouts of legal plays."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pyengine import api
from pyengine.core import moment_states
from pyengine.games.dfm import playouts


def test_a_whole_written_game_ends_at_chapter_threes_count_with_every_token_kept() -> None:
    game = playouts.written_game()
    assert len(game["actions"]) == 120
    answers = {q.question: q for q in api.answer(game).questions}
    assert answers["tokens-at-the-end"].got == "8" and answers["tokens-at-the-end"].passed
    assert answers["winner"].got == "draw" and answers["winner"].rules == ["dfm_final_draw"]
    assert answers["last-action"].got == "refused" and answers["last-action"].rules == ["dfm_game_over"]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_random_playout_takes_only_legal_plays_and_keeps_every_token(seed: int, monkeypatch: pytest.MonkeyPatch
                                                                        ) -> None:
    """Each action's plays are grounded from the state kept after the action before (pyengine.core.moment_states);
    drawn again with no state kept, every action grounding the game from the start, the seed draws the same game;
    and every action of it is carried out, the eight Power tokens kept after each."""
    starts: list[int] = []
    find = moment_states.find
    monkeypatch.setattr(moment_states, "find", lambda keys: starts.append(find(keys)[0]) or find(keys))
    moment_states.clear()
    game = playouts.playout(seed, limit=6)
    assert len(game["actions"]) == 6
    assert starts == [0, 0, *range(1, 5)]  # plays after 0 to 5 actions
    starts.clear()
    moment_states.clear()
    monkeypatch.setattr(moment_states, "KEPT", 0)
    assert playouts.playout(seed, limit=6) == game  # the seed makes it reproducible, the kept states change nothing
    assert set(starts) == {0}
    questions = [{"id": f"step-{n}", "ask": "action", "step": n, "expect": "done"}
                 for n in range(1, len(game["actions"]) + 1)]
    result = api.answer({**game, "questions": [*game["questions"], *questions]})
    assert all(q.passed for q in result.questions), [q.failures for q in result.questions if not q.passed]


def test_a_play_is_written_as_the_action_it_names() -> None:
    assert playouts.action_of("take 5.1 discard", "sauron") == {"player": "sauron", "take": [5, 1], "use": "discard"}
    assert playouts.action_of("call warg exit copy=faramir card=5.1 card2=5.2", "sauron") == {
        "player": "sauron", "call": "warg", "effect": "exit", "copy": "faramir", "card": [5, 1], "card2": [5, 2]}
    assert playouts.action_of("call balrog enter connection=gondor-mordor", "sauron")["connection"] == ["gondor",
                                                                                                          "mordor"]
    assert playouts.action_of("end_turn", "fellowship") == {"player": "fellowship", "end_turn": True}
    assert playouts.action_of("alliance pair race=ents token=ents.3 picks=coin,remove:gondor,move:arnor-lindon",
                              "fellowship")["picks"] == ["coin", {"remove": "gondor"}, {"move": ["arnor", "lindon"]}]
    # A Ring-track bonus's choice follows any play's words, a tile's as a take's.
    assert playouts.action_of("landmark bree bonus_region=gondor", "fellowship") == {
        "player": "fellowship", "landmark": "bree", "bonus_region": "gondor"}
    assert playouts.action_of("take 5.1 play region=rohan bonus_fortress=mordor", "sauron") == {
        "player": "sauron", "take": [5, 1], "use": "play", "region": "rohan", "bonus_fortress": "mordor"}


def _start(chapter: int = 1, turn: str = "fellowship", **state: Any) -> dict[str, Any]:
    """A start for a playout: the setup's state with some fields replaced."""
    return {"chapter": chapter, "turn": turn, "state": {**copy.deepcopy(playouts.setup_state()), **state}}


# The bottom row of chapter 1 dealt with the real blue card 1.5 (one step on the Ring track, free).
BLUE_CARDS = [{"at": [5, c], "card": "1.5"} for c in range(1, 7)]
# Starts a victory is near from, each with the rule of the victory a random playout from it can end by: five race
# symbols and green cards with the sixth; six regions held and the seventh's Landmark tile open; the Fellowship a
# space from Mount Doom, or the Nazgul a space behind it, with real blue cards to play; the last row of chapter 3,
# the Fellowship present in more regions.
VICTORY_STARTS = {
    "dfm_victory_races": _start(symbols={"fellowship": {"dwarves": 1, "men": 1, "elves": 1, "wizards": 1, "ents": 1}},
                                cards=[{"at": [5, c], "colour": "green", "symbols": ["hobbits"]} for c in range(1, 7)]),
    "dfm_victory_conquest": _start(turn="sauron", tiles=["bree"], units={"sauron": {
        r: 1 for r in ("mordor", "gondor", "rohan", "enedwaith", "rhovanion", "lindon")}}),
    "dfm_victory_quest_fellowship": {**_start(ring=14, cards=BLUE_CARDS), "catalog": "vermihunter"},
    "dfm_victory_quest_sauron": {**_start(turn="sauron", ring=3, sauron_steps=13, cards=BLUE_CARDS),
                                 "catalog": "vermihunter"},
    "dfm_victory_count": _start(chapter=3, tokens={"fellowship": 4, "sauron": 4, "box": 0},
                                tokens_gone=[[4, 1], [4, 2]],
                                taken=[[r, c] for r, n in enumerate((2, 3, 4, 2, 4, 3, 2), 1) for c in range(1, n + 1)
                                       if r > 1],
                                units={"fellowship": {"gondor": 1, "rohan": 1}, "sauron": {"mordor": 1}}),
}


# For each victory, the seed of the first five found to draw it in the fewest actions, tried first: each action of a
# playout grounds the plays open after it, and a seed that draws no victory plays on to the limit.
FIRST_SEEDS = {"dfm_victory_races": 4, "dfm_victory_conquest": 2, "dfm_victory_quest_fellowship": 4,
               "dfm_victory_quest_sauron": 5, "dfm_victory_count": 4}


@pytest.mark.parametrize("rule", sorted(VICTORY_STARTS))
def test_random_playouts_end_by_each_victory_with_every_step_naming_its_assumptions(rule: str) -> None:
    """From a start near it, one of the first five seeds (FIRST_SEEDS[rule] first) draws a game that ends by the
    victory (the encodings decide which plays are open and who won; the playout only draws); every step of it is
    carried out, rests on named base-game assumptions, and keeps the eight Power tokens."""
    for seed in sorted(range(1, 6), key=lambda s: s != FIRST_SEEDS[rule]):
        game = playouts.playout(seed, limit=40, start=VICTORY_STARTS[rule])
        steps = [{"id": f"step-{n}", "ask": "action", "step": n, "expect": "done"}
                 for n in range(1, len(game["actions"]) + 1)]
        result = api.answer({**game, "questions": [*game["questions"], *steps]})
        answers = {q.question: q for q in result.questions}
        if rule in answers["winner"].rules:
            break
    else:
        pytest.fail(f"no playout of seeds 1-5 ended by {rule}")
    assert all(q.passed for q in result.questions), [q.failures for q in result.questions if not q.passed]
    unnamed = [s["id"] for s in steps if not answers[s["id"]].assumptions]
    assert not unnamed, unnamed
