"""`plays` lists every legal play and only those, for LOTR and Marvel (issue 47, the Duel's property test's card-game
side): for every readable scenario file of the two games and each player of it, the plays `plays` lists legal are
exactly the plays a `play` question answers legal, and each play it lists illegal is answered illegal. The play
questions asked are every instance of the player a play can come from (LOTR: every zone but those in play and the
sites'; Marvel: the hand), plainly and, in LOTR, through every other instance of the state (`via:`), all in one
solve per file (of the GEMP oracle's sequences, a sample: conftest's `thinned`).

Found by it: a card in the discard pile or the draw deck asked plainly was answered legal ("no rule blocks it")
while `plays` rightly left it out; lotr_play_from_hand now refuses it (p10)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import thinned
from pyengine import api
from pyengine.core.errors import InputError
from pyengine.core.yamlio import load_file
from pyengine.games.lotr.state import IN_PLAY_ZONES, SITE_ZONES

ROOT = Path(__file__).resolve().parents[2]
FILES = thinned(sorted(p for p in [*ROOT.glob("tests/scenarios/*/*.yaml"), *ROOT.glob("examples/*.yaml")]
                       if load_file(p, marks=False).get("game") in ("lotr", "marvel")))


def _instances(data: dict[str, Any], player: str, playable: bool) -> list[tuple[str, str]]:
    """The player's instances with their zones (with `playable`, only those a play question may name)."""
    found = []
    for zone, items in (data["players"][player] or {}).items():
        if playable and (zone in (*IN_PLAY_ZONES, *SITE_ZONES) if data["game"] == "lotr" else zone != "hand"):
            continue
        for item in items if isinstance(items, list) else [items]:
            if isinstance(item, dict) and "id" in item:
                found.append((item["id"], zone))
    return found


def _questions(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each player's plays question, and a play question for each play that player could try."""
    players = list(data.get("players") or {})
    every = [instance for player in players for instance, _ in _instances(data, player, False)]
    questions = []
    for player in players:
        questions.append({"id": f"plays|{player}", "ask": "plays", "player": player})
        for instance, zone in _instances(data, player, True):
            if zone != "stacked":
                questions.append({"id": f"play|{player}|{instance}|", "ask": "play", "instance": instance})
            if data["game"] == "lotr":
                questions += [{"id": f"play|{player}|{instance}|{via}", "ask": "play", "instance": instance, "via": via}
                              for via in every if via != instance]
    return questions


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_plays_lists_exactly_the_plays_a_play_question_answers_legal(path: Path) -> None:
    try:
        api.load(path)
    except InputError:
        pytest.skip("a file whose point is an input error")
    data = load_file(path, marks=False)
    questions = _questions(data)
    answers = {q.question: q for q in api.answer({**{k: v for k, v in data.items() if k != "questions"},
                                                  "questions": questions}).questions}
    for player in data.get("players") or {}:
        listed = {p.play: p.verdict for p in answers[f"plays|{player}"].plays or []}
        legal = set()
        for question in questions:
            if question["ask"] != "play" or not question["id"].startswith(f"play|{player}|"):
                continue
            got = answers[question["id"]].got
            name = f"{question['instance']} via {question['via']}" if "via" in question else question["instance"]
            if got == "legal":
                legal.add(name)
            if name in listed:
                assert listed[name] == got, (player, name)
        assert {p for p, verdict in listed.items() if verdict == "legal"} == legal, player
