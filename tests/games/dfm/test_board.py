"""The Duel board at every moment (pyengine/games/dfm/board.py, rules/dfm/board.lp): what the encodings find is
what the board says, step by step, and its picture is a well-formed SVG that keeps every text as text."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import jsonschema
import pytest

from conftest import ROOT
from pyengine import api
from pyengine.core.errors import InputError
from pyengine.schema import schema

SCENARIOS = ROOT / "tests" / "scenarios" / "dfm"
WARG = ROOT / "examples" / "dfm_warg_and_elrond.yaml"


def _card(moment, row: int, card: int):  # type: ignore[no-untyped-def]
    return next(c for r in moment.layout for c in r if (c.row, c.card) == (row, card))


def test_each_moment_shows_the_step_that_led_to_it_and_the_tokens_it_left() -> None:
    found = api.board(WARG)
    assert [m.moment for m in found.moments] == [0, 1, 2, 3]
    start, warg, _, exit_ = found.moments
    assert start.step is None and start.tokens["sauron"] == 1 and start.turn == "sauron"
    assert warg.step.outcome == "done" and warg.tokens == {"fellowship": 3, "sauron": 0, "box": 2, "spent": 1,
                                                           "nazgul": 0}
    assert warg.allies["fellowship"]["revealed"] == ["elrond"] and warg.allies["fellowship"]["by_warg"] == ["elrond"]
    assert exit_.step.outcome == "refused" and exit_.step.rules == ["dfm_warg_revealed_no_exit"]
    assert [(s.document, s.paragraph) for s in exit_.step.sources] == [("dfm_allies", "p30"), ("dfm_allies", "p53")]
    assert exit_.turn == "fellowship" and exit_.stacks["wizards"] == 2


def test_the_board_follows_the_readings_chosen() -> None:
    allowed = api.board(WARG, readings={"dfm_warg_revealed_exit": "allowed"})
    assert allowed.readings["dfm_warg_revealed_exit"] == "allowed"
    assert allowed.moments[3].step.outcome == "done" and allowed.moments[3].step.rules == []


def test_a_card_taken_leaves_the_layout_and_the_card_it_uncovers_turns_face_up() -> None:
    found = api.board(SCENARIOS / "layout_and_gain.yaml")
    before, after = found.moments[1], found.moments[2]
    assert _card(before, 3, 2).present and _card(before, 2, 1).covered and not _card(before, 2, 1).face_up
    assert _card(before, 2, 1).tokens == 1 and not _card(before, 2, 2).available
    assert not _card(after, 3, 2).present
    uncovered = _card(after, 2, 1)
    assert uncovered.face_up and uncovered.available and uncovered.tokens == 0
    assert after.tokens["fellowship"] == 2
    assert {"covering", "face_down_turns_up", "take_card"} <= set(after.assumptions)
    assert "take_card" not in found.moments[0].assumptions
    assert set(found.assumption_words) == {a for m in found.moments for a in m.assumptions}


def test_the_next_chapter_is_laid_out_when_the_last_card_goes() -> None:
    found = api.board(SCENARIOS / "chapter_change.yaml")
    first, second = found.moments[0], found.moments[1]
    assert first.chapter == 1 and [len(r) for r in first.layout] == [2, 3, 4, 5, 6]
    assert second.chapter == 2 and [len(r) for r in second.layout] == [6, 5, 4, 3, 2]
    assert all(c.present for r in second.layout for c in r)
    assert _card(second, 2, 2).tokens == 1 and _card(second, 2, 4).tokens == 1


def test_the_board_regions_show_units_fortresses_and_tiles() -> None:
    found = api.board(SCENARIOS / "landmarks.yaml", moment=1)
    [moment] = found.moments
    regions = {r.name: r for r in moment.regions}
    assert len(regions) == 7 and regions["mordor"].fortresses == ["sauron"]
    assert regions["gondor"].tile == "minas_tirith" and regions["gondor"].tile_open
    assert regions["gondor"].tile_tokens == 1 and moment.coins["sauron"] == 1
    fights = api.board(SCENARIOS / "unit_conflicts.yaml")
    assert any(n for m in fights.moments for r in m.regions for n in r.units.values())


def test_the_picture_is_an_svg_with_every_text_escaped() -> None:
    table = _data(WARG)
    table["title"] = 'A </title><script>alert("x")</script> & more'
    found = api.board(table)
    svg = found.svg(3)
    root = ElementTree.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("role") == "img"
    assert "<script" not in svg and "&lt;script&gt;" in svg
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "2.1 down" in texts and "refused by dfm_warg_revealed_no_exit" in texts and "wizards: 2" in texts
    with pytest.raises(InputError, match="no moment 4"):
        found.svg(4)


def _data(path: Path) -> dict:
    from pyengine.core.yamlio import load_file

    return load_file(path, marks=False)


def test_a_card_game_board_is_not_drawn_and_a_moment_out_of_range_is_refused() -> None:
    with pytest.raises(InputError, match="a lotr board is not drawn"):
        api.board(ROOT / "examples" / "judge_second_sting.yaml").svg(0)
    with pytest.raises(InputError, match="no moment 9"):
        api.board(WARG, moment=9)


def test_the_board_command_prints_words_json_and_writes_the_picture(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("board", str(WARG))
    assert code == 0 and "moment 3: After step 3: chapter 1, fellowship's turn" in out
    assert "refused by dfm_warg_revealed_no_exit" in out and "row 2: 2.1 down+1" in out
    picture = tmp_path / "board.svg"
    code, out, _ = cli("board", str(WARG), "--moment", "1", "--svg", str(picture), "--json")
    data = json.loads(out)
    jsonschema.Draft202012Validator(schema("board")).validate(data)
    assert code == 0 and [m["moment"] for m in data["moments"]] == [1]
    assert ElementTree.fromstring(picture.read_text(encoding="utf-8")).get("aria-label").startswith("After step 1")
    assert [p.name for p in tmp_path.iterdir()] == ["board.svg"]
    code, _, err = cli("board", str(WARG), "--moment", "7")
    assert code == 2 and "no moment 7" in err and "Traceback" not in err
    code, _, err = cli("board", str(WARG), "--svg", str(tmp_path / "missing" / "board.svg"))
    assert code == 2 and "--svg" in err and "does not exist" in err and not (tmp_path / "missing").exists()


def test_a_won_game_and_a_drawn_game_say_so() -> None:
    won = api.board(SCENARIOS / "victory_conquest.yaml")
    assert any(m.winner for m in won.moments) and not any(m.drawn for m in won.moments)
    from pyengine.games.dfm import playouts

    game = api.board({**playouts.written_game(), "questions": []})
    drawn = game.moments[-1]
    assert drawn.drawn and drawn.winner is None and drawn.step.rules == ["dfm_game_over"]
    assert "the game ended in a draw" in game.svg(drawn.moment)
    assert all(m.reserve >= 0 for m in game.moments)


def _drawn_tokens(moment) -> int:  # type: ignore[no-untyped-def]
    """Every Power token the moment's picture shows, wherever it lies."""
    return (sum(moment.tokens.values()) + sum(c.tokens for row in moment.layout for c in row)
            + sum(r.tile_tokens for r in moment.regions) + sum(c.tokens for c in moment.connections)
            + sum(moment.stack_tokens.values()) + sum(moment.tokens_elsewhere.values()))


def test_every_power_token_is_drawn_somewhere_and_alliance_stacks_apart() -> None:
    """The picture accounts for all eight Power tokens the encodings count (the warg example's tokens question),
    a token Shelob placed on a stack beside the stack's Alliance tokens, and a token where the picture has no spot
    (a connection the scenario does not name) as a token elsewhere, not left out."""
    allowed = api.board(WARG, readings={"dfm_warg_revealed_exit": "allowed"})
    assert all(_drawn_tokens(m) == 8 for m in allowed.moments)
    shelob = api.board(SCENARIOS / "shelob_balrog.yaml").moments[1]
    assert shelob.stack_tokens == {"elves": 1} and _drawn_tokens(shelob) == 8
    table = _data(WARG)
    table["state"]["tokens"]["box"] = 1
    table["state"]["tokens_at"] = [["connection", "rohan", "gondor", 1]]
    start = api.board(table, moment=0).moments[0]
    assert start.tokens_elsewhere == {"conn rohan gondor": 1} and _drawn_tokens(start) == 8
    assert "conn rohan gondor: 1" in api.board(table, moment=0).svg(0)
