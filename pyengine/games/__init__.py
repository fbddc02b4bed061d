"""The games the knowledge base encodes. Each game module knows its document, its catalog, how its state
and questions read from a scenario file, which facts they become, and how to describe evidence."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import clingo

    from pyengine.asp import Fact
    from pyengine.errors import InputError
    from pyengine.fields import Fields


class Game(Protocol):
    name: str
    document: str
    state_fields: set[str]
    deck_fields: set[str]
    input_predicates: set[str]
    flip_predicates: set[str]
    # The shared encodings (rules/common) it loads, and whether its encodings run over moments (pyengine.stepwise).
    common_files: tuple[str, ...]
    timeline: bool
    base_files: tuple[str, ...]
    kind_files: dict[str, tuple[str, ...]]
    # Question kind -> its extra fields, and the verdicts an `expect:` may name.
    question_fields: dict[str, set[str]]
    verdicts: dict[str, tuple[str, ...] | None]

    def parse_state(self, fields: Fields) -> Any: ...

    def parse_deck(self, fields: Fields, errors: list[InputError]) -> tuple[Any, dict[str, Any]]: ...

    def parse_question(self, kind: str, fields: Fields, state: Any) -> dict[str, Any]: ...

    def facts(self, state: Any, questions: list[tuple[str, str, dict[str, Any]]]) -> list[Fact]: ...

    def describe(self, evidence: clingo.Symbol, state: Any) -> str: ...

    def describe_param(self, key: str, value: Any, state: Any) -> str | None: ...

    def player_names(self, state: Any) -> list[str]: ...

    def play_id(self, term: clingo.Symbol, state: Any) -> str: ...

    def describe_play(self, term: clingo.Symbol, state: Any) -> str: ...

    def group_key(self, kind: str, params: dict[str, Any]) -> Any: ...

    def search_state(self, facts: list[clingo.Symbol]) -> dict[str, Any]: ...

    def search_question(self, term: clingo.Symbol, facts: list[clingo.Symbol]) -> dict[str, Any]: ...


# The games, by name (registry() imports their modules), and the rules document each encodes.
GAME_NAMES = ("dfm", "lotr", "marvel")
DOCUMENTS = {"dfm": "dfm_allies", "lotr": "lotr_unique", "marvel": "marvel_unique"}
# Question kinds answered by a list of tried actions, each with its own verdict (legal: open, or an outcome that
# can happen) and reasons, instead of one verdict: `plays` (every action open), `outcomes` (a random step's).
LISTING_KINDS = frozenset({"plays", "outcomes"})


def game(name: str) -> Game:
    """One game, its module imported on first use (a command about one game imports only that one)."""
    from importlib import import_module

    if name not in GAME_NAMES:
        raise KeyError(name)
    return import_module(f"pyengine.games.{name}").GAME  # type: ignore[no-any-return]


def registry() -> dict[str, Game]:
    """Every game, by name."""
    return {name: game(name) for name in GAME_NAMES}
