"""Whole Duel games: the written game of every card of the three chapters, and random playouts of legal plays."""

from __future__ import annotations

import pytest

from pyengine import api, playouts


def test_a_whole_written_game_ends_at_chapter_threes_count_with_every_token_kept() -> None:
    game = playouts.written_game()
    assert len(game["actions"]) == 120
    answers = {q.question: q for q in api.answer(game).questions}
    assert answers["tokens-at-the-end"].got == "8" and answers["tokens-at-the-end"].passed
    assert answers["winner"].got == "draw" and answers["winner"].rules == ["dfm_final_draw"]
    assert answers["last-action"].got == "refused" and answers["last-action"].rules == ["dfm_game_over"]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_random_playout_takes_only_legal_plays_and_keeps_every_token(seed: int) -> None:
    game = playouts.playout(seed, limit=6)
    assert playouts.playout(seed, limit=6) == game  # the seed makes it reproducible
    questions = [{"id": f"step-{n}", "ask": "action", "step": n, "expect": "done"}
                 for n in range(1, len(game["actions"]) + 1)]
    result = api.answer({**game, "questions": [*game["questions"], *questions]})
    assert len(game["actions"]) == 6
    assert all(q.passed for q in result.questions), [q.failures for q in result.questions if not q.passed]


def test_a_play_is_written_as_the_action_it_names() -> None:
    assert playouts.action_of("take 5.1 discard", "sauron") == {"player": "sauron", "take": [5, 1], "use": "discard"}
    assert playouts.action_of("call warg exit copy=faramir card=5.1 card2=5.2", "sauron") == {
        "player": "sauron", "call": "warg", "effect": "exit", "copy": "faramir", "card": [5, 1], "card2": [5, 2]}
    assert playouts.action_of("call balrog enter connection=gondor-mordor", "sauron")["connection"] == ["gondor",
                                                                                                          "mordor"]
    assert playouts.action_of("end_turn", "fellowship") == {"player": "fellowship", "end_turn": True}
