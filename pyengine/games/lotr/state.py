"""The Lord of the Rings TCG's vocabulary (zones, card types, sides, abilities, phases) and the state a table reads
into (State, its Instances), which every part of the game shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyengine.core.catalog import Card
from pyengine.games.common.state import CardInstance, CardState

# The game's name in the registry.
NAME = "lotr"
ZONES = ("play", "support", "hand", "draw_deck", "discard", "dead_pile", "stacked", "adventure_path", "adventure_deck",
         "removed")
# The zones only sites lie in.
SITE_ZONES = ("adventure_path", "adventure_deck")
IN_PLAY_ZONES = ("play", "support")
TYPES = ("companion", "ally", "follower", "minion", "possession", "artifact", "condition", "event", "site",
         "the_one_ring", "metasite", "map")
SIDES = ("free_peoples", "shadow")
ABILITIES = ("plays_from_dead_pile", "bypasses_dead_pile_copies", "locks_opposing_shadow_copies",
             "plays_from_hand_ignoring_dead_pile", "plays_from_hand", "plays_from_discard", "plays_from_draw_deck",
             "plays_from_stacked", "stacks_cards")
PHASES = ("fellowship", "shadow", "maneuver", "archery", "assignment", "skirmish", "regroup")
# The types of card that a character bears, and the types of character that bear them.
BORNE_TYPES = ("possession", "artifact", "condition", "the_one_ring")
BEARER_TYPES = ("companion", "ally", "minion")
ZONE_NAMES = {"play": "play area", "support": "support area", "hand": "hand", "draw_deck": "draw deck",
              "discard": "discard pile", "dead_pile": "dead pile", "stacked": "stacked cards",
              "adventure_path": "adventure path", "adventure_deck": "adventure deck",
              "removed": "cards removed from the game"}


@dataclass
class Instance(CardInstance):
    """A card of the table in a player's zone: whether it is marked active, its wounds, the instance it is stacked
    on or borne by, and where the table writes it."""

    active: bool | None = None
    wounds: int = 0
    on: str | None = None
    borne_by: str | None = None
    line: int | None = None
    column: int | None = None


@dataclass
class State(CardState[Instance, list[tuple[Card, int, str]]]):
    """A table as read, with its turn (phase and fellowship player), its current site and its hypothetical cards;
    its unread parts may name the turn."""

    phase: str | None = None
    fellowship_player: str | None = None
    # The site the fellowship is at: an instance on an adventure path, whose abilities the players may use.
    current_site: str | None = None
    hypothetical: list[Card] = field(default_factory=list)
    # Its actions in order (pyengine.games.lotr.actions.Action; None for one not read): none, a table of one moment.
    actions: list[Any] = field(default_factory=list)
    # How many instances without an id each (player, zone) holds so far: their ids are numbered from it.
    zone_counts: dict[tuple[str, str], int] = field(default_factory=dict)
