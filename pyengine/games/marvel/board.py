"""The Marvel Champions table at every moment of a scenario, and a moment written as a table of its own
(`pyengine board`): what the game writes of an instance (the zone of its owner, a player or the encounter, and an
identity's face up) from the state atoms the encodings find (pyengine/games/common/board.py)."""

from __future__ import annotations

from typing import Any

from pyengine.core.results import Choices
from pyengine.core.scenario import Scenario
from pyengine.games.common.board import CardBoardResult, TableWriting, card_board
from pyengine.games.marvel.state import ENCOUNTER, ENCOUNTER_ZONES, ZONES, Instance


def _instance(instance: Instance, held: dict[str, list[tuple[Any, ...]]]) -> tuple[tuple[str, ...], bool,
                                                                                   dict[str, Any]]:
    """An instance's entry in its owner's zone (a player's identity alone in its own), an identity with the face it
    shows: `hero` where the hero card is up, else the code of the face up."""
    zones = held.get("in_zone", [])
    if len(zones) != 1:
        raise RuntimeError(f"the encodings place {instance.id} in {len(zones)} zones: a defect of the knowledge base")
    zone = zones[0][0]
    entry: dict[str, Any] = {"id": instance.id, "card": instance.card.id}
    up = {c for (c,) in held.get("face_up", [])}
    if up and instance.card.id not in up:
        faces = sorted(up - set(instance.card.extra.get("linked_faces") or []))
        if len(faces) != 1:
            raise RuntimeError(f"the encodings show {len(faces)} faces of {instance.id} up: a defect of the "
                               "knowledge base")
        entry["face"] = faces[0]
    elif up:
        entry["face"] = "hero"
    path = (ENCOUNTER, zone) if instance.owner == ENCOUNTER else ("players", instance.owner, zone)
    return path, zone == "identity", entry


WRITING = TableWriting(_instance, lambda held: {}, frozenset({"in_zone", "face_up"}), frozenset(),
                       tuple(dict.fromkeys(("identity", *ZONES, *ENCOUNTER_ZONES))))


def board_of(scenario: Scenario, overrides: Choices | None = None, moment: int | None = None) -> CardBoardResult:
    """The board of a Marvel scenario at every moment (only moment `moment`, when given): pyengine.api.board."""
    return card_board(scenario, overrides, moment, WRITING)
