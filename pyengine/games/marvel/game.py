"""Marvel Champions (document marvel_unique, German), assembled: its document, encodings, question kinds and
verdicts, the predicates its tables are given by, its built-in catalog, and its parts (reader.py, facts.py,
words.py, search.py)."""

from __future__ import annotations

from typing import ClassVar

from pyengine.games import DOCUMENTS
from pyengine.games.common.game import CardGame
from pyengine.games.marvel.facts import MarvelFacts
from pyengine.games.marvel.reader import MarvelReader, builtin_catalog
from pyengine.games.marvel.search import MarvelSearch
from pyengine.games.marvel.state import NAME
from pyengine.games.marvel.words import MarvelWords


class Marvel(CardGame):
    """Marvel Champions: its encodings and the parts that read, write, word and search its tables."""

    name = NAME
    document = DOCUMENTS[NAME]
    builtin_catalog = staticmethod(builtin_catalog)
    # The predicates a state and its questions are given by (the edge-case search shares them between worlds).
    input_predicates: ClassVar[set[str]] = {
        "card", "card_type", "name", "name_loose", "subtitle", "subtitle_loose", "printed_unique", "deck_limit",
        "alter_ego_name", "alter_ego_loose", "instance", "in_zone", "face_card", "face_up", "question", "q_play",
        "q_coexist", "deck_card", "deck_code", "copies_each", "signature", "deck_face", "q_reveal", "q_put_into_play",
        "q_plays", "person_alias", "person_alias_loose", "card_ability", "q_via", "q_identity", "q_identity_face",
        "text_unread", "q_via_instance", "card_ability_from", "card_trait", "q_arriving",
        "act", "choice", "last_step", "linked_face", "q_at", "q_action", "q_value"}
    # What a step can change (where each instance lies, which faces of an identity are up), the file whose rules
    # are grounded at every moment of a sequence, the step rules (rules/marvel/steps/) and the question kinds whose
    # files they read (pyengine.core.moments).
    fluents: ClassVar[frozenset[tuple[str, int]]] = frozenset({("in_zone", 2), ("face_up", 2)})
    moment_files: ClassVar[tuple[str, ...]] = ("state.lp",)
    step_files: ClassVar[tuple[str, ...]] = ("state.lp", "play.lp", "leave.lp", "flip.lp", "reveal.lp", "put.lp",
                                             "questions.lp")
    step_kinds: ClassVar[frozenset[str]] = frozenset({"play", "reveal", "put_into_play"})
    # The value a question asks after a step (rules/marvel/steps/questions.lp), which no static rule of Marvel
    # derives: over moments, the static verdict rules read it at the moment it is decided only.
    moment_outputs: ClassVar[frozenset[tuple[str, int]]] = frozenset({("decided", 4)})
    # The rule files every question needs, and those each kind of question needs besides (rules/marvel/).
    base_files: ClassVar[tuple[str, ...]] = ("state.lp", "names.lp")
    kind_files: ClassVar[dict[str, tuple[str, ...]]] = {
        "play": ("play.lp",), "coexist": ("play.lp",), "deck": ("deck.lp",),
        "reveal": ("play.lp", "card_text.lp", "minions.lp"), "put_into_play": ("play.lp", "card_text.lp", "minions.lp"),
        "identities": ("identities.lp",), "plays": ("play.lp", "plays.lp"),
        # Asked of a scenario with actions, by the step rules alone (rules/marvel/steps/questions.lp).
        "action": (), "value": (),
    }
    question_fields: ClassVar[dict[str, set[str]]] = {
        "play": {"instance", "after"},
        "coexist": {"cards", "in", "after"},
        "deck": {"player"},
        "reveal": {"card", "player", "after"},
        "put_into_play": {"card", "player", "via", "after"},
        "plays": {"player", "after"},
        "action": {"step"}, "value": {"after", "of"},
        "identities": {"players"},
    }
    verdicts: ClassVar[dict[str, tuple[str, ...] | None]] = {
        "play": ("legal", "illegal"), "coexist": ("yes", "no"), "deck": ("valid", "invalid"),
        "reveal": ("enters_play", "discarded"), "put_into_play": ("enters_play", "fails"),
        "plays": None, "identities": ("yes", "no"), "action": ("done", "refused"), "value": None,
    }
    # What rules/marvel/plays.lp tries for `plays`.
    listing_covers: ClassVar[dict[str, str]] = {
        "plays": "each card in the player's hand, played plainly; a card put into play by another card's effect "
                 "(ask: put_into_play), a revealed encounter card (ask: reveal) and a deck (ask: deck) are asked on "
                 "their own"}
    reader = MarvelReader()
    writer = MarvelFacts()
    words = MarvelWords()
    search = MarvelSearch()


GAME = Marvel()
