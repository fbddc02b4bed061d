"""The Lord of the Rings: Duel for Middle-earth with the Allies expansion (document dfm_allies), assembled: a state,
a sequence of actions (calls upon allies with their choices, and the base-game actions they touch), and questions
about the actions, the state after a step, the Power token count, the pairing of ally rows and the setup. Its
encodings, question kinds and verdicts are here; its parts are reader.py, facts.py, words.py and search.py, over the
vocabulary of terms.py. Base-game facts are assumptions kept in facts/dfm/base_game.lp."""

from __future__ import annotations

from typing import ClassVar

from pyengine.games import DOCUMENTS
from pyengine.games.dfm.actions import ACTION_FIELDS
from pyengine.games.dfm.facts import DfmFacts
from pyengine.games.dfm.reader import DfmReader
from pyengine.games.dfm.search import DfmSearch
from pyengine.games.dfm.terms import NAME
from pyengine.games.dfm.words import DfmWords


class Dfm:
    """The Duel: its encodings, its question kinds and verdicts, and the parts that read, write, word and search
    its tables."""

    name = NAME
    document = DOCUMENTS[NAME]
    # The predicates a state and its questions are given by (the edge-case search shares them between worlds).
    input_predicates: ClassVar[set[str]] = {
        "chapter", "last_step", "init", "init_num", "given_tokens", "given_reserve", "given_nazgul", "omitted",
        "none_given", "token_gone", "connected", "act", "choice",
        "question", "q_action", "q_value", "q_flag", "q_tokens", "q_pairing", "q_setup", "q_plays", "q_outcomes",
        "q_winner",
        "try_call", "try_fixed", "try_slot", "faction", "opponent", "reading_rule",
        "race", "box_tokens", "ally", "row", "layout_token", "region", "race_pick", "card_colour", "card_symbol",
        "card_cost", "card_chain", "card_free_with", "card_skill_cost", "left_out", "card_effect", "card_coins",
        "card_enemy_coins", "card_ring_moves", "card_units", "card_units_region", "card_enemy_units", "card_moves",
        "card_skill_gain", "card_skill_either", "skill_set", "board_kind", "tile_skill_cost",
        "tile_effect", "card_id", "real_card_colour", "real_card_symbol", "real_card_effect", "real_card_skill",
        "real_card_either", "real_card_count", "real_card_region", "real_card_chain",
        "tile_count", "token_race", "token_once", "token_lasting", "token_count", "token_trigger_count",
        "token_trigger_chapter_count", "token_units_region", "token_units", "token_picks", "token_pick"}
    # The shared encodings it loads in base: its answers.lp grounds the shared verdicts once every moment is known.
    common_files: ClassVar[tuple[str, ...]] = ("readings.lp",)
    # Its encodings run over moments, grounded one at a time (pyengine.core.stepwise, rules/dfm/state.lp).
    timeline: ClassVar[bool] = True
    # Written over moments itself: nothing of it is rewritten (pyengine.core.moments).
    fluents: ClassVar[frozenset[tuple[str, int]]] = frozenset()
    moment_files: ClassVar[tuple[str, ...]] = ()
    step_files: ClassVar[tuple[str, ...]] = ()
    step_kinds: ClassVar[frozenset[str]] = frozenset()
    # A moment of the Duel has no cards in play to find active (the conformance kit leaves the game out).
    activity_view: ClassVar[str | None] = None
    base_files: ClassVar[tuple[str, ...]] = ("state.lp", "layout.lp", "connections.lp", "calls.lp", "turns.lp",
                                             "allies_sauron.lp",
                                             "allies_fellowship.lp", "tokens.lp", "units.lp", "victory.lp",
                                             "alliance.lp", "alliance_tokens.lp", "card_effects.lp",
                                             "card_coins.lp", "card_ring.lp", "ring_bonuses.lp", "card_units.lp",
                                             "card_skills.lp", "grey_cards.lp", "assumptions.lp", "answers.lp")
    kind_files: ClassVar[dict[str, tuple[str, ...]]] = {
        "action": ("questions.lp",), "allowed": ("questions.lp",), "value": ("questions.lp",),
        "tokens": ("questions.lp",), "pairing": ("pairing.lp",), "setup": ("setup.lp",),
        "plays": ("questions.lp", "plays.lp"), "outcomes": ("questions.lp", "plays.lp"), "winner": (),
    }
    question_fields: ClassVar[dict[str, set[str]]] = {
        "action": {"step"},
        "allowed": {"at", *ACTION_FIELDS},
        "value": {"after", "of"}, "tokens": {"after"}, "pairing": {"ally"}, "setup": set(),
        "plays": {"player", "at"}, "outcomes": {"step"}, "winner": {"after"},
    }
    verdicts: ClassVar[dict[str, tuple[str, ...] | None]] = {
        "action": ("done", "refused"), "allowed": ("legal", "illegal"), "value": None, "tokens": None,
        "pairing": None, "setup": ("valid", "invalid"), "plays": None, "outcomes": None,
        "winner": ("fellowship", "sauron", "none", "draw"),
    }
    # What rules/dfm/plays.lp tries for `plays` and `outcomes`.
    listing_covers: ClassVar[dict[str, str]] = {
        "plays": "after the last step: taking each card of the layout for either use, ending the turn, and calling "
                 "each ally of the player's for its enter and exit effect with each choice it takes; a card's "
                 "movement and what a tile or a token gives are applied as part of what gives them",
        "outcomes": "the random step after the last step: its call tried with every value of its random choice"}
    # Its parts (pyengine.games: Reader, FactWriter, Words, SearchView).
    reader = DfmReader()
    writer = DfmFacts()
    words = DfmWords()
    search = DfmSearch()


GAME = Dfm()
