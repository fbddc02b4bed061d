"""The LOTR table at every moment of a scenario, and a moment written as a table of its own (`pyengine board`):
what the game writes of an instance (its zone, wounds, bearer, host and activity mark) and of the turn (phase,
whose turn, current site) from the state atoms the encodings find (pyengine/games/common/board.py)."""

from __future__ import annotations

from typing import Any

from pyengine.core.results import Choices
from pyengine.core.scenario import Scenario
from pyengine.games.common.board import CardBoardResult, TableWriting, card_board
from pyengine.games.lotr.state import ZONES, Instance


def _instance(instance: Instance, held: dict[str, list[tuple[Any, ...]]]) -> tuple[tuple[str, ...], bool,
                                                                                   dict[str, Any]]:
    """An instance's entry in its owner's zone: its id and card, its wounds, bearer, host and activity mark."""
    zones = held.get("in_zone", [])
    if len(zones) != 1:
        raise RuntimeError(f"the encodings place {instance.id} in {len(zones)} zones: a defect of the knowledge base")
    entry: dict[str, Any] = {"id": instance.id, "card": instance.card.id}
    wounds = sum(n for (n,) in held.get("wounds", []))
    if wounds:
        entry["wounds"] = wounds
    for name, written in (("borne_by", "borne_by"), ("stacked_on", "on")):
        for (other,) in held.get(name, []):
            entry[written] = other
    if "marked_active" in held:
        entry["active"] = True
    if "inactive" in held:
        entry["active"] = False
    return ("players", instance.owner, zones[0][0]), False, entry


def _turn(held: dict[str, list[tuple[Any, ...]]]) -> dict[str, Any]:
    """The turn's fields: its player and phase, and the current site."""
    table: dict[str, Any] = {}
    for (phase,) in held.get("phase", []):
        table["turn"] = {"player": next((p for (p,) in held.get("fellowship_player", []) if p), None),
                         "phase": phase}
    for (site,) in held.get("current_site", []):
        table["current_site"] = site
    return table


WRITING = TableWriting(_instance, _turn,
                       frozenset({"in_zone", "wounds", "borne_by", "stacked_on", "marked_active", "inactive"}),
                       frozenset({"phase", "fellowship_player", "current_site"}), ZONES)


def board_of(scenario: Scenario, overrides: Choices | None = None, moment: int | None = None) -> CardBoardResult:
    """The board of a LOTR scenario at every moment (only moment `moment`, when given): pyengine.api.board."""
    return card_board(scenario, overrides, moment, WRITING)
