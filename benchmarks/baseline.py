"""The plain-Python lower bound of the benchmarks: the core LOTR uniqueness rules (a unique card in play and
active stops its player's cards of that title; a unique companion or ally in the player's dead pile stops
them) with dicts and sets. It exists only to measure against; the product decides in rules/*.lp."""

from __future__ import annotations

from dataclasses import dataclass

from pyengine.core.text import title_key

CHARACTER_TYPES = {"companion", "ally"}


@dataclass(frozen=True)
class Copy:
    title: str
    unique: bool
    character: bool
    owner: str
    zone: str
    active: bool = True


def index(copies: dict[str, Copy]) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Per player: the title keys of active unique cards in play, and of unique characters in the dead pile."""
    in_play: dict[str, set[str]] = {}
    dead: dict[str, set[str]] = {}
    for copy in copies.values():
        key = title_key(copy.title)
        if copy.unique and copy.active and copy.zone in ("play", "support"):
            in_play.setdefault(copy.owner, set()).add(key)
        if copy.unique and copy.character and copy.zone == "dead_pile":
            dead.setdefault(copy.owner, set()).add(key)
    return in_play, dead


def can_play(copies: dict[str, Copy], instance: str) -> bool:
    copy = copies[instance]
    in_play, dead = index(copies)
    key = title_key(copy.title)
    return key not in in_play.get(copy.owner, set()) and key not in dead.get(copy.owner, set())
