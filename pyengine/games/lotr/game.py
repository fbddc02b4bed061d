"""The Lord of the Rings TCG (document lotr_unique), assembled: its document, encodings, question kinds and
verdicts, the predicates its tables are given by, its built-in catalog, and its parts (reader.py, facts.py,
words.py, search.py)."""

from __future__ import annotations

from typing import ClassVar

from pyengine.games import DOCUMENTS
from pyengine.games.common.game import CardGame
from pyengine.games.lotr.facts import LotrFacts
from pyengine.games.lotr.reader import LotrReader, builtin_catalog
from pyengine.games.lotr.search import LotrSearch
from pyengine.games.lotr.state import NAME
from pyengine.games.lotr.words import LotrWords


class Lotr(CardGame):
    """The Lord of the Rings TCG: its encodings and the parts that read, write, word and search its tables."""

    name = NAME
    document = DOCUMENTS[NAME]
    builtin_catalog = staticmethod(builtin_catalog)
    # The predicates a state and its questions are given by (the edge-case search shares them between worlds).
    input_predicates: ClassVar[set[str]] = {
        "card", "title", "title_key", "alias_key", "subtitle", "unique", "side", "card_type", "collinfo",
        "stored_title", "card_split", "card_ability", "instance", "in_zone", "inactive", "wounds", "stacked_on",
        "phase", "fellowship_player", "player", "question", "q_play", "q_via", "q_plays", "q_heal",
        "q_killed", "q_coexist", "q_card", "deck_part", "document_ability", "document_split", "ability_reading",
        "ability_filter", "card_race", "card_culture", "marked_active", "filter_root", "filter_node", "filter_part",
        "filter_test", "filter_unread", "card_attribute", "card_twilight", "card_requirement",
        "card_requirement_unread", "card_cost", "card_own_cost_change", "card_play_modifier", "ability_condition",
        "card_starts_with_ring", "card_incomplete", "asked_with", "card_attribute_modifier", "card_tests",
        "q_stack", "q_stack_via", "borne_by", "q_via_instance", "current_site", "q_ends",
        "q_stack_via_instance", "card_ability_phase", "q_play_on", "unique_limit",
        "act", "choice", "last_step", "q_at", "q_action", "q_value", "reading_rule"}
    # What a step can change (the state's predicates besides the cards), the file whose rules are grounded at every
    # moment of a sequence, the step rules (rules/lotr/steps/) and the question kinds whose files they read
    # (pyengine.core.moments).
    fluents: ClassVar[frozenset[tuple[str, int]]] = frozenset({
        ("in_zone", 2), ("wounds", 2), ("stacked_on", 2), ("borne_by", 2), ("inactive", 1), ("marked_active", 1),
        ("phase", 1), ("fellowship_player", 1), ("current_site", 1)})
    moment_files: ClassVar[tuple[str, ...]] = ("state.lp",)
    step_files: ClassVar[tuple[str, ...]] = ("state.lp", "kill.lp", "play.lp", "discard.lp", "heal.lp", "cost.lp",
                                             "stack.lp", "leave.lp", "turn.lp", "questions.lp")
    step_kinds: ClassVar[frozenset[str]] = frozenset({"killed", "play", "heal", "stack"})
    # The file of rules/lotr/ showing which instances in play the rules find active (conformance packs).
    activity_view: ClassVar[str | None] = "show_activity.lp"
    # The rule files every question needs, and those each kind of question needs besides (rules/lotr/).
    base_files: ClassVar[tuple[str, ...]] = ("state.lp", "identity.lp")
    kind_files: ClassVar[dict[str, tuple[str, ...]]] = {
        "play": ("play.lp", "dead_pile.lp", "at_most.lp", "filters.lp", "bearer.lp", "requirements.lp"),
        "heal": ("heal.lp",), "killed": ("killed.lp",),
        "ends_in": ("killed.lp",),
        "deck": ("deck.lp",),
        "coexist": ("play.lp", "coexist.lp", "deck.lp"), "card": ("card_data.lp",),
        "plays": ("play.lp", "dead_pile.lp", "at_most.lp", "filters.lp", "bearer.lp", "requirements.lp", "plays.lp"),
        "stack": ("stack.lp", "filters.lp"),
        # Asked of a scenario with actions, by the step rules alone (rules/lotr/steps/questions.lp).
        "action": (), "value": (),
    }
    question_fields: ClassVar[dict[str, set[str]]] = {
        "play": {"instance", "via", "on", "after"},
        "heal": {"instance", "discard", "after"},
        "killed": {"instance", "after"}, "ends_in": {"instance", "event", "of", "after"},
        "action": {"step"}, "value": {"after", "of"},
        "deck": {"player"},
        "coexist": {"cards", "in", "players", "counts"},
        "card": {"card"},
        "plays": {"player", "after"}, "stack": {"instance", "on", "via", "after"},
    }
    verdicts: ClassVar[dict[str, tuple[str, ...] | None]] = {
        "play": ("legal", "illegal"), "heal": ("legal", "illegal"), "killed": ("dead_pile", "discard_pile"),
        "ends_in": ("dead_pile", "discard_pile", "adventure_deck"),
        "deck": ("valid", "invalid"), "coexist": ("yes", "no"), "card": ("valid", "invalid"),
        "plays": None, "stack": ("legal", "illegal"), "action": ("done", "refused"), "value": None,
    }
    # What rules/lotr/plays.lp tries for `plays`.
    listing_covers: ClassVar[dict[str, str]] = {
        "plays": "each card in the player's hand, played plainly or through a card of theirs that plays from hand, "
                 "and each card of theirs in the dead pile, the discard pile, the draw deck or stacked, through a "
                 "card of theirs that plays from there; a heal by discarding (ask: heal), a stack (ask: stack) and "
                 "a card's other abilities are asked on their own"}
    reader = LotrReader()
    writer = LotrFacts()
    words = LotrWords()
    search = LotrSearch()


GAME = Lotr()
