"""CardGame: the base of a card game's assembly (its GAME), what the card games answer alike."""

from __future__ import annotations

from typing import Any, ClassVar

from pyengine.games.common.facts import CardFacts


class CardGame:
    """A card game: its questions share one timeline, and a conformance pack's records of its state are its fact
    writer's."""

    # The shared encodings (rules/common) the game loads, and whether its encodings run over moments
    # (pyengine.core.stepwise): a card game's state is one moment, grounded in one call.
    common_files: ClassVar[tuple[str, ...]] = ("readings.lp", "verdicts.lp")
    timeline: ClassVar[bool] = False
    # A card game answers a scenario with actions over moments (pyengine.core.moments) where it names its fluents,
    # the files of its rules grounded at every moment, its step files and the question kinds they read.
    fluents: ClassVar[frozenset[tuple[str, int]]] = frozenset()
    moment_files: ClassVar[tuple[str, ...]] = ()
    step_files: ClassVar[tuple[str, ...]] = ()
    step_kinds: ClassVar[frozenset[str]] = frozenset()
    # Predicates its step rules derive at a moment that no static rule derives from the fluents, put over moments
    # with them (pyengine.core.moments.rewrite).
    moment_outputs: ClassVar[frozenset[tuple[str, int]]] = frozenset()
    # A view of the game's state rules (a file of rules/<game>/ that shows activity/3): which instances in play the
    # rules find active, for the conformance kit's resolved states; None where the game has no such notion.
    activity_view: ClassVar[str | None] = None
    writer: CardFacts

    def instance_record(self, instance: Any, activity: dict[str, tuple[str, str]]) -> dict[str, Any]:
        """An instance of the state as a conformance pack holds it (the fact writer's record)."""
        return self.writer.instance_record(instance, activity)

    def turn_record(self, state: Any) -> dict[str, Any]:
        """Whose turn and which phase the state is at, as a conformance pack holds it (the fact writer's record)."""
        return self.writer.turn_record(state)
