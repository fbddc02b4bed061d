"""The registry of the games the knowledge base encodes: each game's entry (GameSpec) and the protocol its
package's `game.GAME` keeps. A game's package (pyengine/games/<name>/) knows its document, its catalog, how its
state and questions read from a scenario file, which facts they become and how evidence reads in words; nothing
outside the registry and that package names a game. Games are imported on first use."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import clingo

    from pyengine.core.asp import Fact
    from pyengine.core.errors import Collected, InputError
    from pyengine.core.fields import Fields


class Reader(Protocol):
    """How a game's tables read from a scenario file: its state, its decks and its questions, each error located;
    a part read apart gathers its errors in `collected`, and what names a part not read raises errors.Unread."""

    # The top-level fields of its scenario files beside the common ones, and those of its decklists.
    state_fields: set[str]
    deck_fields: set[str]

    def parse_state(self, fields: Fields, collected: Collected) -> Any: ...

    def parse_deck(self, fields: Fields, errors: list[InputError]) -> tuple[Any, dict[str, Any]]: ...

    def parse_question(self, kind: str, fields: Fields, state: Any) -> dict[str, Any]: ...

    def player_names(self, state: Any) -> list[str]: ...


class FactWriter(Protocol):
    """What a read table becomes as facts for the game's encodings (through pyengine.core.asp, the one builder)."""

    def facts(self, state: Any, questions: list[tuple[str, str, dict[str, Any]]]) -> list[Fact]: ...

    # The key of the questions that may share one grounding (None: any of its questions may).
    def group_key(self, kind: str, params: dict[str, Any]) -> Any: ...


class Words(Protocol):
    """A game's terms in words: the evidence of a reason, a question's parameters, a play (its id and its
    description), a change a flip found; and what the explorer's pages need of the game."""

    def describe(self, evidence: clingo.Symbol, state: Any) -> str: ...

    def describe_param(self, key: str, value: Any, state: Any) -> str | None: ...

    def play_id(self, term: clingo.Symbol, state: Any) -> str: ...

    def describe_play(self, term: clingo.Symbol, state: Any) -> str: ...

    def describe_change(self, change: clingo.Symbol, state: Any) -> str: ...

    def web_extras(self) -> dict[str, Any]: ...


class SearchView(Protocol):
    """The search tools' view of a game (edge cases, flip, census): a state and a question from the facts a search
    found, the state predicates a flip may change, and why a state cannot be flipped."""

    flip_predicates: set[str]

    def search_state(self, facts: list[clingo.Symbol]) -> dict[str, Any]: ...

    def search_question(self, term: clingo.Symbol, facts: list[clingo.Symbol]) -> dict[str, Any]: ...

    def flip_refusal(self, state: Any) -> str | None: ...


class Game(Protocol):
    """One game: what generic code may know of its encodings, and its parts, each asked for the job it does."""

    name: str
    document: str
    # The predicates a state and its questions are given by (the edge-case search shares them between worlds).
    input_predicates: set[str]
    # The shared encodings (rules/common) it loads, and whether its encodings run over moments (pyengine.core.stepwise).
    common_files: tuple[str, ...]
    timeline: bool
    # For a game whose encodings are written for one state (not `timeline`), what a scenario with actions needs to be
    # answered over moments (pyengine.core.moments): the input predicates a step can change, the files of
    # rules/<game>/ whose rules may be grounded at every moment, the step files of rules/<game>/steps/, and the
    # question kinds whose files the step rules read.
    fluents: frozenset[tuple[str, int]]
    moment_files: tuple[str, ...]
    step_files: tuple[str, ...]
    step_kinds: frozenset[str]
    # The file of rules/<game>/ showing which instances in play the rules find active (conformance packs), if any.
    activity_view: str | None
    base_files: tuple[str, ...]
    kind_files: dict[str, tuple[str, ...]]
    # Question kind -> its extra fields, and the verdicts an `expect:` may name.
    question_fields: dict[str, set[str]]
    verdicts: dict[str, tuple[str, ...] | None]
    # A listing kind (LISTING_KINDS) -> what its rules try, in words: an answer says what its list covers.
    listing_covers: dict[str, str]
    reader: Reader
    writer: FactWriter
    words: Words
    # None for a game the search tools cannot search (its GameSpec says so: `search=False`).
    search: SearchView | None


@dataclass(frozen=True)
class GameSpec:
    """One game's entry in the registry: all that generic code may know of a game."""

    name: str
    # The rules document it encodes (its id) and that document's file in a documents folder (`--docs`, PYENGINE_DOCS).
    document: str
    document_file: str
    # The public card databases its importer reads (`pyengine import SOURCE`; pyengine.games.<name>.importer), each
    # with what it is.
    sources: tuple[tuple[str, str], ...] = ()
    # Whether its document has a lint of its own in the consistency check (pyengine.games.<name>.lint).
    lint: bool = False
    # Whether it gives its board at each moment of a scenario, and a moment as a table of its own
    # (pyengine.games.<name>.board: `pyengine board`, `--snapshot`).
    board: bool = False
    # Whether the search tools (edge-cases, flip, census) can search it: its GAME.search is a SearchView, not None.
    search: bool = True
    # The further documents its rules rest on, each (id, its file relative to the shared folder, the documents
    # folder's parent): notes on what the main document takes for granted, found beside the documents folder
    # (`DOCS/../notes/...`), mapped and cited as the main document is, drift and coverage included.
    more_documents: tuple[tuple[str, str], ...] = ()

    @property
    def documents(self) -> tuple[str, ...]:
        """Every document of the game, its main one first."""
        return (self.document, *(document for document, _ in self.more_documents))

    @property
    def module(self) -> str:
        """The module holding the game (`GAME`)."""
        return f"pyengine.games.{self.name}.game"


# The registry: the only place outside a game's own package that names a game or a document.
SPECS = {spec.name: spec for spec in (
    GameSpec("lotr", "lotr_unique", "lotr-tcg-unique.txt", board=True,
             sources=(("gemp", "GEMP's LOTR TCG card files (HJSON)"),)),
    GameSpec("marvel", "marvel_unique", "marvel-champions-einzigartig.de.txt", board=True,
             sources=(("marvelsdb", "MarvelCDB's JSON data"),)),
    GameSpec("dfm", "dfm_allies", "duel-for-middle-earth-allies.txt", lint=True, board=True,
             sources=(("vermihunter", "the base game as Vermihunter/lotr-duel-for-middle-earth transcribes it "
                                      "(DefaultConfig.json)"),),
             more_documents=(("dfm_base", "notes/dfm-base-game.md"),)),
)}
# The games by name, in order (the explorer opens on the first game of SPECS).
GAME_NAMES = tuple(sorted(SPECS))
# Game -> its main document (the one its scenario files cite by bare paragraph id), and -> every document of it.
DOCUMENTS = {name: spec.document for name, spec in SPECS.items()}
GAME_DOCUMENTS = {name: spec.documents for name, spec in SPECS.items()}
# Document id -> the game encoding it (every document of every game).
GAME_OF = {document: name for name, spec in SPECS.items() for document in spec.documents}
# Document id -> its file relative to a documents folder (a further document's lies beside that folder: `../...`).
DOCUMENT_FILES = {**{spec.document: spec.document_file for spec in SPECS.values()},
                  **{document: f"../{file}" for spec in SPECS.values() for document, file in spec.more_documents}}
# Card database -> the game whose importer reads it.
SOURCES = {source: name for name, spec in SPECS.items() for source, _ in spec.sources}
SOURCE_HELP = {source: about for spec in SPECS.values() for source, about in spec.sources}
# Question kinds answered by a list of tried actions, each with its own verdict (legal: open, or an outcome that
# can happen) and reasons, instead of one verdict: `plays` (every action open), `outcomes` (a random step's).
LISTING_KINDS = frozenset({"plays", "outcomes"})
# Question kinds about a moment of a sequence (a step done or refused, a value after a step): a table without actions
# asking one is answered over moments all the same, at its start.
MOMENT_KINDS = frozenset({"action", "value"})


def game(name: str) -> Game:
    """One game, its module imported on first use (a command about one game imports only that one)."""
    if name not in SPECS:
        raise KeyError(name)
    return import_module(SPECS[name].module).GAME  # type: ignore[no-any-return]


def registry() -> dict[str, Game]:
    """Every game, by name."""
    return {name: game(name) for name in GAME_NAMES}


def game_modules() -> list[str]:
    """Every game's module, for a worker to import before its first fork."""
    return [spec.module for spec in SPECS.values()]


def game_file(name: str, file: str) -> Path | None:
    """A data file of a game's package (form.js: the explorer's form of a game whose table needs its own;
    scenario.schema.json: its part of the scenario schema), or None where it has none."""
    path = Path(__file__).with_name(name) / file
    return path if name in SPECS and path.is_file() else None


def importer(source: str) -> Any:
    """The importer module of a card database (read(root, progress) -> cards, report; report_lines(report))."""
    return import_module(f"pyengine.games.{SOURCES[source]}.importer")


def lint(document: str) -> Any:
    """The document's own lint (check(paragraphs) -> findings), or None (a game's lint reads its main document)."""
    spec = SPECS[GAME_OF[document]]
    own = spec.lint and document == spec.document
    return import_module(f"pyengine.games.{spec.name}.lint").check if own else None


def boards() -> dict[str, Any]:
    """The board module of each game that gives one (board_of(scenario, overrides, moment) -> a result with the
    moments, their words and JSON, svg(moment) and snapshot(moment))."""
    return {name: import_module(f"pyengine.games.{name}.board") for name, spec in SPECS.items() if spec.board}
