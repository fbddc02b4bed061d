"""`plays` lists every legal action and only those (issue 47, item 1): for a Duel scenario file at every moment of
it, for each player, each play `plays` lists legal is answered legal by `allowed` and each it lists illegal is
answered illegal; and every call it leaves out is illegal. The calls left out are drawn from the whole of each
choice's kind (the board's seven regions, every race, ally, Landmark tile, colour and layout card, not only those
the state names: an effect that finds nothing to act on is still a play), and one call of each ally `plays` does
not try at all. Connections and movements are left to the files' own expectations.

Each `allowed` question is a timeline of its own, grounded alone, so every file at every moment is an hour or more
of answers: the suite checks the files named in SUITE_FILES, and `PYENGINE_EXHAUSTIVE=1` checks every Duel file of
the repository, by hand, spread over the workers with `-n 2 --dist load` (measured under loadscope, which put
them all on one worker: 38 of the 94 files in 20 minutes). Found so far: region choices tried only where the state
named a region (a Boromir call with no Sauron unit on the board was legal but not listed), two players' same
action at one moment answered as the first player's, tile choices tried only among the open tiles (a
Chieftain exit on a tile not open falls short and is still a play), and card choices tried only among the cards
still in the layout (Faramir's or Grima's call naming a taken card)."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from pyengine import api
from pyengine.core.errors import InputError
from pyengine.core.yamlio import load_file
from pyengine.games.dfm import importer
from pyengine.games.dfm.layout import layout_rows
from pyengine.games.dfm.playouts import action_of
from pyengine.games.dfm.terms import ALLIES, COLOURS, RACES, TEMPLATES
from tests.paths import DATA

ROOT = Path(__file__).resolve().parents[3]
EVERY_FILE = sorted([*ROOT.glob("tests/scenarios/dfm/*.yaml"), *ROOT.glob("examples/dfm_*.yaml")])
# The files the suite checks (a few seconds): calls with and without choices, regions, tiles, the layout's cards.
SUITE_FILES = {"plays", "plays_tile_region", "allowed_per_player"}
FILES = EVERY_FILE if os.environ.get("PYENGINE_EXHAUSTIVE") == "1" else [p for p in EVERY_FILE
                                                                          if p.stem in SUITE_FILES]
REGIONS = ("lindon", "arnor", "rhovanion", "enedwaith", "rohan", "gondor", "mordor")
TILES = ("barad_dur", "isengard", "erebor", "minas_tirith", "helms_deep", "grey_havens", "bree")
# Questions asked of one scenario at once (below the limit of questions in a scenario).
BATCH = 1500


@cache
def _grey_cards() -> tuple[str, ...]:
    """The real grey cards of the base game's data, by id (none without the data)."""
    data = DATA / "dfm-vermihunter"
    if not (data / importer.FILE).is_file():
        return ()
    cards, _ = importer.read(data)
    return tuple(c.id for c in cards if c.type == "chapter_card" and c.extra["colour"] == "grey")


def _domain(kind: str, chapter: int) -> tuple[str, ...]:
    """Every value a choice of this kind can take, from the game's definitions (the cards of chapter 1's layout
    during the setup, chapter 0, which ends by laying it out; every real grey card of the data)."""
    cards = tuple(f"{row}.{card}" for row, length in enumerate(layout_rows()[max(chapter, 1)], 1)
                  for card in range(1, length + 1))
    return {"region": REGIONS, "race": RACES, "ally": tuple(ALLIES), "tile": TILES, "colour": COLOURS,
            "card": cards, "grey_card": _grey_cards()}.get(kind, ())


def _calls(ally: str, chapter: int) -> list[str]:
    """Every call of the ally with at most one open choice, as play words, the choice from the whole of its kind."""
    calls = []
    for called, effect, fixed, slots in TEMPLATES:
        if called != ally:
            continue
        head = " ".join(["call", ally, effect, *(f"{n}={v}" for n, v in fixed.items())])
        if not slots:
            calls.append(head)
        elif len(slots) == 1:
            calls += [f"{head} {slots[0][0]}={value}" for value in _domain(slots[0][1], chapter)]
    return calls


def _moments(data: dict[str, Any]) -> list[int]:
    return list(range(len(data.get("actions") or []) + 1))


def _readable(path: Path) -> dict[str, Any] | None:
    """The file's data, or None for a file whose point is an input error."""
    try:
        api.load(path)
    except InputError:
        return None
    return load_file(path, marks=False)  # type: ignore[no-any-return]


def _answers(base: dict[str, Any], questions: list[dict[str, Any]]) -> dict[str, Any]:
    return {q.question: q.got for start in range(0, len(questions), BATCH)
            for q in api.answer({**base, "questions": questions[start:start + BATCH]}).questions}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_plays_lists_exactly_the_legal_actions_at_every_moment(path: Path) -> None:
    data = _readable(path)
    if data is None:
        pytest.skip("a file whose point is an input error")
    base = {k: v for k, v in data.items() if k not in ("questions", "title")}
    chapter = int(data.get("chapter", 1))
    plays = [{"id": f"plays {p} {m}", "ask": "plays", "player": p, "at": m}
             for m in _moments(data) for p in ("fellowship", "sauron")]
    listed = _answers(base, plays)
    asked: list[dict[str, Any]] = []
    expected: dict[str, tuple[str, str]] = {}
    for question in plays:
        got = listed[question["id"]]
        player, moment = question["player"], question["at"]
        verdicts = {play: verdict for verdict in ("legal", "illegal") for play in got.get(verdict, [])}
        tried = {play.split()[1] for play in verdicts if play.startswith("call ")}
        for ally in (a for a, side in ALLIES.items() if side == player):
            left_out = [c for c in _calls(ally, chapter) if c not in verdicts]
            for play in left_out if ally in tried else left_out[:1]:
                verdicts[play] = "illegal"
        for play, verdict in sorted(verdicts.items()):
            qid = f"{question['id']}: {play}"
            asked.append({"id": f"q{len(asked)}", "ask": "allowed", "at": moment, **action_of(play, player)})
            expected[asked[-1]["id"]] = (qid, verdict)
    wrong = [f"{expected[q][0]} is {expected[q][1]} by plays, {got} by allowed"
             for q, got in _answers(base, asked).items() if got != expected[q][1]]
    assert wrong == []
