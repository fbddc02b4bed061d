"""Answering one scenario, table or decklist as results: loading from a path, YAML text or data, the readings
and profile chosen over the scenario's, the answers with their reasons in words, plays, explanations, facts, and
the knowledge base's readings, rules and cards."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyengine.core import kb as kbase
from pyengine.core.arguments import checked
from pyengine.core.errors import InputError, closest
from pyengine.core.results import (
    CardInfo,
    ChoiceInfo,
    Choices,
    DeckResult,
    Explanation,
    FactsResult,
    PlayResult,
    QuestionResult,
    ReadingChoice,
    ReadingInfo,
    ReadingsResult,
    ReasonResult,
    RuleInfo,
    RulesResult,
    ScenarioResult,
    SnapshotResult,
    Source,
)
from pyengine.games import DOCUMENTS, GAME_NAMES, boards, registry

if TYPE_CHECKING:  # the engine, the scenario reader and YAML are imported when first used (a quick start)
    from pyengine.core.catalog import Card
    from pyengine.core.engine import Answer, Play, Reason
    from pyengine.core.scenario import Scenario


@checked
def load(source: str | Path | dict[str, Any] | None = None, name: str | None = None, *,
         text: str | None = None) -> Scenario:
    """A scenario from a file path (a `Path` or a `str`), plain data (a `dict`), or YAML text given by name
    (`text=`); `name` is what errors call it (default: the path, or `<text>` / `<data>`). A table may come
    without questions, to be asked with `plays`."""
    from pyengine.core.scenario import scenario_from_data
    from pyengine.core.yamlio import build_from_file, load_text

    if text is not None:
        if source is not None:
            raise InputError("both a source and text= were given", field="source", expected="one of them")
        return scenario_from_data(load_text(text, name or "<text>"), name or "<text>", questions_required=False)
    if isinstance(source, str | Path):
        path = Path(source)
        file = name or str(source)
        return build_from_file(path, lambda data: scenario_from_data(data, file, path.stem, questions_required=False,
                                                                     checked=True))
    if isinstance(source, dict):
        return scenario_from_data(source, name or "<data>", questions_required=False)
    raise InputError(f"cannot read a scenario from {type(source).__name__}", field="source",
                     expected="a path (Path or str), a dict, or text= with YAML text")


def to_scenario(source: Scenario | str | Path | dict[str, Any]) -> Scenario:
    from pyengine.core.scenario import Scenario

    return source if isinstance(source, Scenario) else load(source)


def validate_choices(readings: dict[str, str] | None, profile: str | None) -> None:
    """Every reading named exists in some game with that choice, and the profile exists."""
    from pyengine.core.scenario import check_readings

    if not readings and not profile:
        return
    kbs = [kbase.load(g) for g in registry()]
    for name, value in (readings or {}).items():
        owner = next((kb for kb in kbs if name in kb.readings), None)
        if owner is None:
            raise InputError(f"unknown reading {name!r}", field="--reading", expected="a name from `pyengine readings`",
                             suggestion=closest(name, [n for kb in kbs for n in kb.readings]))
        check_readings({name: value}, owner, None, "--reading")
    if profile:
        profiles = {p for kb in kbs for p in kb.profiles}
        if profile not in profiles:
            raise InputError(f"unknown profile {profile!r}", field="--profile",
                             expected="one of " + ", ".join(sorted(profiles)), suggestion=closest(profile, profiles))


def overrides(game: str, readings: dict[str, str] | None, profile: str | None, file: str | None = None) -> Choices:
    """The profile's and the readings' choices (they win over the scenario's); a profile or a reading of another
    game is an InputError naming it (and `file`), never left out silently."""
    kb = kbase.load(game)
    chosen: Choices = {}
    if profile and profile not in kb.profiles:
        raise InputError(f"--profile {profile} is not a profile of {game}, the game of this file", file=file,
                         field="--profile", expected="one of " + ", ".join(sorted(kb.profiles)) + " (or none)")
    if profile:
        chosen.update(kb.profiles[profile])
    for name, value in (readings or {}).items():
        if name not in kb.readings:
            raise InputError(f"--reading {name} is not a reading of {game}, the game of this file", file=file,
                             field="--reading", expected=f"a reading of {game} (pyengine readings --game {game})",
                             suggestion=closest(name, kb.readings))
        chosen[name] = value
    return chosen


def _reasons(scenario: Scenario, reasons: list[Reason], words: dict[Any, str],
             activity: dict[str, tuple[str, str]]) -> list[ReasonResult]:
    """The reasons as results; `words` keeps each evidence's words for the other reasons of the same table (the
    plays of a table share most of their evidence, and an instance's activity is the table's)."""
    from pyengine.core.render import evidence_words

    kb = kbase.load(scenario.game.name)
    out = []
    for r in reasons:
        if r.evidence not in words:
            words[r.evidence] = evidence_words(scenario, r.evidence, activity)
        out.append(ReasonResult(r.rule, words[r.evidence], str(r.evidence),
                                [Source(d, p) for d, p in kb.rules[r.rule].sources]))
    return out


def _assumptions(scenario: Scenario, found: list[str]) -> list[str] | None:
    """The base-game assumptions an answer rested on, for a game that keeps assumptions (None for the others)."""
    return found if kbase.load(scenario.game.name).assumptions else None


def _before(scenario: Scenario, found: dict[str, str]) -> dict[str, str] | None:
    """The readings the steps before an answer rested on, for a game over moments (None for the others)."""
    return found if scenario.over_moments else None


def _play(scenario: Scenario, play: Play, words: dict[Any, str]) -> PlayResult:
    return PlayResult(play.id, scenario.game.words.describe_play(play.term, scenario.state), play.verdict,
                      play.rule_ids, _reasons(scenario, play.reasons, words, play.activity), play.rested_on,
                      _assumptions(scenario, play.assumptions), _before(scenario, play.rested_before))


def question_result(scenario: Scenario, answer: Answer) -> QuestionResult:
    """One engine answer as a result."""
    q = answer.question
    got = answer.play_sets() if answer.plays is not None else answer.verdict
    words: dict[Any, str] = {}
    return QuestionResult(q.id, q.kind, q.expect, got, not answer.failures(), answer.failures(), answer.rule_ids,
                          _reasons(scenario, answer.reasons, words, answer.activity), answer.rested_on, answer.readings,
                          None if answer.plays is None else [_play(scenario, p, words) for p in answer.plays],
                          _assumptions(scenario, answer.assumptions), _before(scenario, answer.rested_before),
                          scenario.game.listing_covers.get(q.kind),
                          True if q.expect is None and q.rules is None else None)


def answers_under(scenario: Scenario, readings: dict[str, str] | None, profile: str | None) -> list[Answer]:
    from pyengine.core.engine import answer as engine_answer

    validate_choices(readings, profile)
    return engine_answer(scenario, overrides(scenario.game.name, readings, profile, scenario.path))


@checked
def answer(source: Scenario | str | Path | dict[str, Any], readings: dict[str, str] | None = None,
           profile: str | None = None) -> ScenarioResult:
    """Answer every question of a scenario, under its readings overlaid by `profile` and then `readings`."""
    scenario = to_scenario(source)
    return ScenarioResult(scenario.path, scenario.title,
                          [question_result(scenario, a) for a in answers_under(scenario, readings, profile)],
                          scenario.printings)


@checked
def explain(source: Scenario | str | Path | dict[str, Any], question: str | None = None,
            readings: dict[str, str] | None = None, profile: str | None = None) -> Explanation:
    """The answers with the explanation chain of each (only question `question` when given)."""
    scenario = to_scenario(source)
    if not scenario.questions:
        raise InputError("the scenario asks no questions", file=scenario.path, field="questions",
                         expected="a list of questions (or `pyengine plays` for every play of the table)")
    answers = answers_under(scenario, readings, profile)
    if question is not None:
        answers = [a for a in answers if a.question.id == question]
        if not answers:
            ids = [q.id for q in scenario.questions]
            raise InputError(f"no question {question!r} in {scenario.path}", field="--question",
                             expected="one of " + ", ".join(ids), suggestion=closest(question, ids))
    return _explanation(scenario, answers)


@checked
def plays(source: Scenario | str | Path | dict[str, Any], player: str | None = None,
          readings: dict[str, str] | None = None, profile: str | None = None) -> Explanation:
    """Every play open to `player` in the scenario's state (to each player when None), legal or not, with the
    reasons; its questions are `plays` questions with ids `plays:PLAYER`, answered in one solve per reading
    group. The scenario's own questions are not asked."""
    asked = plays_table(to_scenario(source), player)
    return _explanation(asked, answers_under(asked, readings, profile))


class Table:
    """A card game's table grounded once (engine.GroundedTable), with its own questions and every play of each
    player, then asked many times: `answer`, `plays` and `explain` under any readings or profile, `compare` under
    many sides at once. An answer assigns the reading choices and solves; nothing is grounded again. The results
    are those of the functions of the same names on the same scenario."""

    @checked
    def __init__(self, scenario: Scenario):
        from pyengine.core.engine import GroundedTable

        if scenario.over_moments:
            raise InputError(f"a {scenario.game.name} scenario over moments is grounded a moment at a time and has no "
                             "table",
                             file=scenario.path, field="game",
                             expected="a scenario of a game whose state is one moment (a card game)")
        self.scenario = scenario
        self.asked = plays_table(scenario, None, keep_questions=True)
        self.own = {q.id for q in scenario.questions}
        self.grounded = GroundedTable(self.asked)

    def _answers(self, readings: dict[str, str] | None, profile: str | None, only: set[str]) -> list[Answer]:
        validate_choices(readings, profile)
        return self.grounded.answers(overrides(self.scenario.game.name, readings, profile, self.scenario.path), only)

    @checked
    def answer(self, readings: dict[str, str] | None = None, profile: str | None = None) -> ScenarioResult:
        """The table's own questions, as `answer`."""
        return scenario_result(self.scenario, self._answers(readings, profile, self.own))

    @checked
    def explain(self, readings: dict[str, str] | None = None, profile: str | None = None) -> Explanation:
        """The table's own questions with the explanation chain of each, as `explain`."""
        return _explanation(self.scenario, self._answers(readings, profile, self.own))

    @checked
    def plays(self, player: str | None = None, readings: dict[str, str] | None = None,
              profile: str | None = None) -> Explanation:
        """Every play open to `player` (to each player when None), as `plays`."""
        wanted = {q.id for q in plays_table(self.scenario, player).questions}  # an unknown player is refused here
        found = self._answers(readings, profile, wanted)
        return _explanation(replace(self.asked, questions=[a.question for a in found]), found)

    @checked
    def compare(self, sides: list[dict[str, str]], profile: str | None = None) -> list[ScenarioResult]:
        """The table's own questions under each side (reading choices), as `answer` under each."""
        return [self.answer(side, profile) for side in sides]


@checked
def table(source: Scenario | str | Path | dict[str, Any]) -> Table:
    """A card game's scenario grounded once, to be asked many questions (Table)."""
    return Table(to_scenario(source))


def plays_many(tables: list[tuple[Scenario, str | None, Choices | None, str | None]]) -> list[Explanation | Exception]:
    """`plays` for many tables (each with its player, readings and profile) answered in one batch
    (pyengine.core.batch): each table's explanation, or the error its own input or answer raised."""
    from pyengine.core.batch import answer_many

    asked: list[tuple[int, Scenario, Choices]] = []
    results: list[Any] = [None] * len(tables)
    for index, (scenario, player, readings, profile) in enumerate(tables):
        try:
            validate_choices(readings, profile)
            table = plays_table(scenario, player)
            asked.append((index, table, overrides(table.game.name, readings, profile, table.path)))
        except InputError as error:
            results[index] = error
    for (index, table, _), answers in zip(asked, answer_many([(t, o) for _, t, o in asked]), strict=True):
        results[index] = answers if isinstance(answers, Exception) else _explanation(table, answers)
    return results


def plays_table(scenario: Scenario, player: str | None, keep_questions: bool = False) -> Scenario:
    """The table with one `plays` question (id `plays:PLAYER`) for the player, or for each player (after the
    table's own questions, with `keep_questions`)."""
    from pyengine.core.fields import Fields
    from pyengine.core.scenario import Question

    game = scenario.game
    players = game.reader.player_names(scenario.state) if player is None else [player]
    questions = []
    for name in players:
        fields = Fields({"player": name}, scenario.path, "--player", {"player"})
        questions.append(Question(f"plays:{name}", "plays", game.reader.parse_question("plays", fields, scenario.state),
                                  None, None, [], {}, None))
    return replace(scenario, questions=[*(scenario.questions if keep_questions else []), *questions])


def _explanation(scenario: Scenario, answers: list[Answer]) -> Explanation:
    from pyengine.core.render import explain as render

    return Explanation(scenario.path, scenario.title, [question_result(scenario, a) for a in answers],
                       scenario.printings, partial(render, scenario, answers))


def scenario_result(scenario: Scenario, answers: list[Answer]) -> ScenarioResult:
    return ScenarioResult(scenario.path, scenario.title, [question_result(scenario, a) for a in answers],
                          scenario.printings)


def _deck_result(scenario: Scenario, readings: Choices | None, profile: str | None) -> DeckResult:
    return deck_answer(scenario, answers_under(scenario, readings, profile))


def deck_answer(scenario: Scenario, answers: list[Answer]) -> DeckResult:
    [result] = answers
    data = question_result(scenario, result)
    return DeckResult(scenario.path, result.verdict == "valid", result.verdict, data.reasons, data.rested_on,
                      data.readings, scenario.printings)


@checked
def validate_deck(source: str | Path | dict[str, Any], game: str | None = None, catalog: str | None = None,
                  readings: dict[str, str] | None = None, profile: str | None = None) -> DeckResult:
    """Validate a decklist: a file (YAML or text lines), or a dict built in memory (`game:`, `catalog:`, the
    game's deck sections, e.g. `cards: ["4 Orc Pursuer (5C108)", ...]`, `ring_bearer:`)."""
    from pyengine.core.decks import deck_from_data, load_deck

    if isinstance(source, dict):
        scenario = deck_from_data(dict(source), "<data>", "deck", game, catalog)
    else:
        scenario = load_deck(Path(source), game, catalog)
    return _deck_result(scenario, readings, profile)


def games_named(game: str | None) -> list[str]:
    games = list(GAME_NAMES)
    if game is not None and game not in games:
        raise InputError(f"unknown game {game!r}", field="--game", expected="one of " + ", ".join(games),
                         suggestion=closest(game, games))
    return [game] if game else games


@checked
def readings(game: str | None = None) -> ReadingsResult:
    """Every reading (of one game, or of all), its choices, default, paragraphs and profiles."""
    found = []
    for name in games_named(game):
        kb = kbase.load(name)
        document = DOCUMENTS[name]
        for reading in sorted(kb.readings.values(), key=lambda r: r.name):
            found.append(ReadingInfo(
                name, reading.name, reading.text, reading.default,
                [ChoiceInfo(c.value, c.text, document, c.paragraphs, [f"{d}:{p}" for d, p in c.others])
                 for c in reading.choices.values()],
                {p: v[reading.name] for p, v in sorted(kb.profiles.items()) if reading.name in v}))
    return ReadingsResult(found)


@checked
def rules(game: str | None = None) -> RulesResult:
    """Every declared rule (of one game, or of all) with its statement and source paragraphs."""
    found = []
    for name in games_named(game):
        for rule in sorted(kbase.load(name).rules.values(), key=lambda r: r.id):
            found.append(RuleInfo(name, rule.id, rule.text, [Source(d, p) for d, p in rule.sources],
                                  [ReadingChoice(n, v) for n, v in rule.readings]))
    return RulesResult(found)


@checked
def card(game: str, reference: str, catalog: str = "builtin") -> CardInfo:
    """The card a reference names in a catalog (`builtin`, or an imported one): an id, code, collector's info,
    title (with subtitle) or alias; an unknown or ambiguous one raises InputError with suggestions."""
    from pyengine.core.store import open_catalog

    games = registry()
    with_cards = [name for name, one in games.items() if getattr(one, "builtin_catalog", None) is not None]
    builtin = getattr(games[games_named(game)[0]], "builtin_catalog", None)
    if builtin is None:
        raise InputError(f"the game {game} has no card catalog", field="--game",
                         expected="one of " + ", ".join(with_cards))
    found: Card = open_catalog(catalog, builtin).resolve(reference, field_name="card")
    return CardInfo(found.id, found.label(), found.title, found.subtitle, found.unique, found.type, found.collinfo,
                    list(found.aliases))


@checked
def board(source: Scenario | str | Path | dict[str, Any], readings: dict[str, str] | None = None,
          profile: str | None = None, moment: int | None = None) -> Any:
    """The board of a scenario of a game that gives one, at every moment (only moment `moment`, 0 the start, N
    after step N, when given) as the encodings find it, under its readings overlaid by `profile` and then
    `readings`: the result of the game's board module, whose svg(moment) draws a moment (where the game draws one) and
    snapshot(moment) writes one as a table of its own."""
    scenario = to_scenario(source)
    drawn = boards()
    if scenario.game.name not in drawn:
        raise InputError(f"a {scenario.game.name} table has no board", file=scenario.path, field="game",
                         expected="a table of a game that gives its board: " + ", ".join(drawn))
    validate_choices(readings, profile)
    return drawn[scenario.game.name].board_of(scenario, overrides(scenario.game.name, readings, profile, scenario.path),
                                              moment)


@checked
def snapshot(source: Scenario | str | Path | dict[str, Any], moment: int | None = None,
             readings: dict[str, str] | None = None, profile: str | None = None) -> SnapshotResult:
    """A scenario's table at a moment (0 the start, N after step N; default: after its last step) as a scenario of its
    own, for a game that gives its board: the state the steps up to it left as the encodings find it, no actions,
    and the questions the scenario asks at that moment, under its readings overlaid by `profile` and then
    `readings`."""
    scenario = to_scenario(source)
    shown = board(scenario, readings, profile, len(getattr(scenario.state, "actions", [])) if moment is None
                  else moment)
    at = shown.moments[-1]
    return SnapshotResult(shown.file, at.moment, shown.snapshot(at.moment), list(getattr(at, "rests_on", [])))


@checked
def facts(source: Scenario | str | Path | dict[str, Any], readings: dict[str, str] | None = None,
          profile: str | None = None) -> FactsResult:
    """The ASP facts a scenario's state and questions become (for implementers)."""
    scenario = to_scenario(source)
    seen: list[str] = []
    for a in answers_under(scenario, readings, profile):
        seen.extend(str(f) for f in a.facts if f not in seen)
    return FactsResult(scenario.path, seen)
