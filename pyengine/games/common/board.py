"""A card game's board at every moment of a scenario, and the snapshot of one moment as a table of its own:
`pyengine board` and the API's `board` (pyengine.core.answering, through the registry's `boards`) for the card
games' tables, whose actions move their cards step by step (docs/scenarios/steps.md).

The encodings decide everything shown: the scenario is grounded over moments as for its answers, with the game's
rules/<game>/board.lp showing each moment's state atoms (next/2: the state as the step before left it) and each
step's outcome; this module only reads those atoms into a CardMoment per moment, in the table's own words (each
owner's zones, an instance's fields), and writes a moment as a scenario table with no actions that asks the
questions the scenario asks at that moment (`snapshot`). What the game writes of an instance and of the turn is
its board module's (pyengine/games/<game>/board.py); a state atom that module does not write is an error, never
left out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import clingo

from pyengine.core import kb as kbase
from pyengine.core.asp import fact, python_value
from pyengine.core.errors import InputError
from pyengine.core.resources import rules_dir
from pyengine.core.results import Choices, Result, moment_of
from pyengine.core.scenario import Scenario
from pyengine.core.yamlio import plain

# The table's parts a moment writes anew; every other part of the table a snapshot keeps as written (the game,
# its catalog, cites, readings, hypothetical cards, decks), its actions left out.
MOMENT_PARTS = ("players", "encounter", "turn", "current_site")
# The part of a table holding the zones of no player (the encounter's).
ENCOUNTER_PART = "encounter"
# The question fields that name the moment a question is asked at, and the expectation of the rules that decide
# it: a snapshot asks at its own start, and the step rules that led there are not part of it.
MOMENT_FIELDS = ("after",)
STEP_EXPECTATIONS = ("rules",)


@dataclass
class CardStep:
    """The step that led to a moment: its number (from 1), its player, its words, and whether it was done or
    refused, with the rules that refused it or shaped what it did."""

    step: int
    player: str
    words: str
    outcome: str
    rules: list[str]


@dataclass
class CardMoment:
    """A card table at one moment (0: the start; N: after step N): the parts of a table it writes anew (each
    owner's zones with their instances, the turn), and the rules a reading decides that the steps before it rested
    on."""

    moment: int
    step: CardStep | None
    table: dict[str, Any]
    rests_on: list[str]


@dataclass
class CardBoardResult(Result):
    """A card scenario's board at every moment (or the one asked), the readings in force, and what a snapshot of a
    moment keeps of the table and asks."""

    file: str
    title: str
    readings: Choices
    moments: list[CardMoment]
    # The table's parts a moment does not write, as written, and each question of the table with the moment it is
    # asked at (None: about a step, `ask: action`).
    kept: dict[str, Any] = field(default_factory=dict, metadata={"internal": True})
    asked: list[tuple[int | None, dict[str, Any]]] = field(default_factory=list, metadata={"internal": True})

    def _moment(self, moment: int) -> CardMoment:
        return moment_of(self.moments, moment, self.file)

    def svg(self, moment: int) -> str:
        """A card table's board is given in words and as a table, never drawn."""
        raise InputError(f"a {self.kept.get('game')} board is not drawn", file=self.file, field="--svg",
                         expected="the board in words, --json, or --snapshot FILE for the table at a moment")

    def at(self, moment: int) -> CardBoardResult:
        """The board at one moment only."""
        return CardBoardResult(self.file, self.title, self.readings, [self._moment(moment)], self.kept, self.asked)

    def steps(self) -> list[dict[str, Any]]:
        """Each moment's step in words and its outcome (the start has none)."""
        return [{"moment": m.moment, "words": m.step.words if m.step else "the start",
                 "outcome": m.step.outcome if m.step else None} for m in self.moments]

    def snapshot(self, moment: int) -> dict[str, Any]:
        """The table at a moment as a scenario of its own: the state the steps up to it left, no actions, and the
        questions the scenario asks at that moment (their moment and the step rules they expect left out), as the
        data a scenario file loads into."""
        shown = self._moment(moment)
        where = "the start" if moment == 0 else f"step {moment}"
        table = {"game": self.kept.get("game"), "title": f"{self.title} (after {where})", **self.kept, **shown.table}
        table["questions"] = [{k: v for k, v in q.items() if k not in (*MOMENT_FIELDS, *STEP_EXPECTATIONS)}
                              for at, q in self.asked if at == moment]
        if not table["questions"]:
            del table["questions"]
        return table

    @property
    def text(self) -> str:
        """The board in words, a block per moment (`pyengine board`)."""
        return "\n".join([f"{self.file}: {self.title}", *(moment_words(m) for m in self.moments)])


# What a game's board module writes of one instance at a moment: the table's path to the zone it lies in (such as
# ("players", "alice", "play")), whether that zone holds one instance rather than a list, and its entry (id, card
# and fields), from the instance and its state atoms at the moment by name (each atom's arguments after the
# instance, read into Python values).
InstanceWriter = Callable[[Any, dict[str, list[tuple[Any, ...]]]], tuple[tuple[str, ...], bool, dict[str, Any]]]
# What it writes of the turn at a moment from the state atoms about no instance: the table's fields (turn:,
# current_site:).
TurnWriter = Callable[[dict[str, list[tuple[Any, ...]]]], dict[str, Any]]


@dataclass(frozen=True)
class TableWriting:
    """A game's way of writing a moment as a table: its instance and turn writers, the state atoms each reads (a
    state atom of any other name is an error: the board would leave it out), and its zones in the order a table
    lists them."""

    instance: InstanceWriter
    turn: TurnWriter
    instance_atoms: frozenset[str]
    turn_atoms: frozenset[str]
    zones: tuple[str, ...]


def card_board(scenario: Scenario, overrides: Choices | None, moment: int | None,
               writing: TableWriting) -> CardBoardResult:
    """The board of a card scenario at every moment (only moment `moment`, when given), under its readings
    overlaid by `overrides` (checked choices): pyengine.api.board."""
    from pyengine.core.engine import effective_readings, reading_facts, solve

    steps = len(scenario.state.actions)
    if moment is not None and not 0 <= moment <= steps:
        raise InputError(f"the scenario has {steps} actions, so no moment {moment}", file=scenario.path, field="moment",
                         expected=f"a moment from 0 (the start) to {steps}")
    name = scenario.game.name
    readings = effective_readings(scenario, None, overrides or {})
    facts = [*scenario.game.writer.facts(scenario.state, []), *reading_facts(readings)]
    if not any(f.name == "last_step" for f in facts):  # a table without actions is its one moment
        facts.append(fact("last_step", 0))
    atoms = solve(name, facts, frozenset(), (Path(rules_dir(), name, "board.lp"),))
    state_at, outcomes = _read(atoms)
    wanted = range(steps + 1) if moment is None else [moment]
    moments = [CardMoment(t, _step(scenario, outcomes, t - 1) if t else None,
                          _table(scenario, state_at.get(t, []), t, writing),
                          sorted({str(a[0]) for n, a in state_at.get(t, []) if n == "ruled_by"}))
               for t in wanted]
    return CardBoardResult(scenario.path, scenario.title, dict(sorted(readings.items())), moments,
                           _kept(scenario, overrides or {}), _asked(scenario))


def _read(atoms: list[clingo.Symbol]) -> tuple[dict[int, list[tuple[str, tuple[Any, ...]]]], dict[str, list[Any]]]:
    """The state atoms of each moment (name and arguments), and the step outcome atoms by name."""
    state_at: dict[int, list[tuple[str, tuple[Any, ...]]]] = {}
    outcomes: dict[str, list[Any]] = {}
    for atom in atoms:
        if atom.name == "next":
            held, moment = atom.arguments
            state_at.setdefault(moment.number, []).append((held.name, tuple(python_value(a) for a in held.arguments)))
        else:
            outcomes.setdefault(atom.name, []).append(tuple(python_value(a) for a in atom.arguments))
    return state_at, outcomes


def _step(scenario: Scenario, outcomes: dict[str, list[Any]], step: int) -> CardStep:
    """Scenario step `step` (from 0): its words, done or refused, and by which rules."""
    action = scenario.state.actions[step]
    refused = sorted({r for s, r, _ in outcomes.get("refused", []) if s == step})
    if (step,) in outcomes.get("done", []):
        shaped = sorted({r for s, r, _ in outcomes.get("note", []) if s == step})
        return CardStep(step + 1, action.player, action.words(), "done", shaped)
    return CardStep(step + 1, action.player, action.words(), "refused", refused)


def _table(scenario: Scenario, held: list[tuple[str, tuple[Any, ...]]], moment: int,
           writing: TableWriting) -> dict[str, Any]:
    """The parts of a table a moment writes anew, from its state atoms: every instance in its zone, in the table's
    order, and the turn."""
    by_instance: dict[str, dict[str, list[tuple[Any, ...]]]] = {i: {} for i in scenario.state.instances}
    turn: dict[str, list[tuple[Any, ...]]] = {}
    for name, args in held:
        if name in writing.instance_atoms and args and args[0] in by_instance:
            by_instance[args[0]].setdefault(name, []).append(args[1:])
        elif name in writing.turn_atoms:
            turn.setdefault(name, []).append(args)
        elif name == "ruled_by":  # what the steps rested on: the moment's rests_on
            continue
        else:
            raise RuntimeError(f"the board writes no state atom {name}{args} at moment {moment}: a defect of "
                               "the knowledge base or of the game's board module")
    table: dict[str, Any] = {"players": {player: {} for player in scenario.state.players}}
    for instance_id, instance in scenario.state.instances.items():
        path, single, entry = writing.instance(instance, by_instance[instance_id])
        place = table
        for key in path[:-1]:
            place = place.setdefault(key, {})
        if single:
            place[path[-1]] = entry
        else:
            place.setdefault(path[-1], []).append(entry)
    for zones in [*table["players"].values(), *([table[ENCOUNTER_PART]] if ENCOUNTER_PART in table else [])]:
        ordered = sorted(zones.items(), key=lambda item: writing.zones.index(item[0]))
        zones.clear()
        zones.update(ordered)
    table.update(writing.turn(turn))
    return table


def _kept(scenario: Scenario, overrides: Choices) -> dict[str, Any]:
    """The table's parts a moment does not write, as written; its readings with the choices given besides (those of
    its game), which the state after the steps rests on."""
    data = plain(scenario.data) if isinstance(scenario.data, dict) else {"game": scenario.game.name}
    kept = {k: v for k, v in data.items() if k not in (*MOMENT_PARTS, "actions", "questions", "title")}
    ours = {k: v for k, v in overrides.items() if k in kbase.load(scenario.game.name).readings}
    if ours:
        kept["readings"] = {**(kept.get("readings") or {}), **ours}
    return kept


def _asked(scenario: Scenario) -> list[tuple[int | None, dict[str, Any]]]:
    """Each question of the table as written, with the moment it is asked at (None: about a step)."""
    data = plain(scenario.data) if isinstance(scenario.data, dict) else {}
    written = data.get("questions") or []
    if len(written) != len(scenario.questions):  # never left out silently: a snapshot would ask none of them
        raise InputError("the scenario's questions are not there as written, so a snapshot cannot ask them",
                         file=scenario.path, field="questions",
                         expected="a scenario loaded from a file, YAML text or a dict (pyengine.load)")
    return [(None if q.kind == "action" else q.params.get("after", 0), entry)
            for q, entry in zip(scenario.questions, written, strict=True)]


def moment_words(moment: CardMoment) -> str:
    """One moment in words, for the command line: the step that led to it, then each part of the table."""
    lines = [f"moment {moment.moment}: " + ("the start" if moment.step is None else f"after step {moment.step.step}")]
    if moment.step is not None:
        by = f" by {', '.join(moment.step.rules)}" if moment.step.rules else ""
        lines.append(f"  step {moment.step.step}, {moment.step.words}: {moment.step.outcome}{by}")
    for part, value in moment.table.items():
        if isinstance(value, dict) and part in ("players", ENCOUNTER_PART):
            for owner, zones in (value.items() if part == "players" else [(part, value)]):
                for zone, held in zones.items():
                    entries = held if isinstance(held, list) else [held]
                    lines.append(f"  {owner} {zone}: " + ", ".join(_entry_words(e) for e in entries))
        else:
            lines.append(f"  {part}: {value}")
    if moment.rests_on:
        lines.append("  the steps before rested on: " + ", ".join(moment.rests_on))
    return "\n".join(lines)


def _entry_words(entry: dict[str, Any]) -> str:
    """An instance's entry in words: its id and card, and its other fields."""
    rest = ", ".join(f"{k} {v}" for k, v in entry.items() if k not in ("id", "card"))
    return f"{entry['id']} ({entry['card']}{'; ' + rest if rest else ''})"
