"""The knowledge base's declarations, read from facts/<game>/*.lp: rules with their sources, readings with
their choices and defaults, profiles, and the source map of each document's paragraphs.

Reading them through clingo costs 10-35 ms a game, most of it in reading symbols back into Python, so each
game's declarations are also kept as JSON between processes (pyengine.core.diskcache: named by a digest of the
files they were read from and of this module, signed with it, read as untrusted input)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyengine.core.diskcache import cached
from pyengine.core.resources import facts_dir

if TYPE_CHECKING:
    import clingo


@dataclass
class Rule:
    id: str
    text: str = ""
    sources: list[tuple[str, str]] = field(default_factory=list)  # (document, paragraph)
    readings: list[tuple[str, str]] = field(default_factory=list)  # (reading, choice)
    examples: list[tuple[str, str]] = field(default_factory=list)  # (document, paragraph) that illustrate it
    # The fewest card instances of a state in which the rule can fire (0: any), beyond the edge-case search's bound.
    min_instances: int = 0
    # The rule fires only on terms of a real card's data that the edge-case search does not draw (an imported
    # pool's filters, requirements and costs): real-card scenario files show it firing (tests/kb/test_term_census.py).
    data_only: bool = False
    # Where the rule comes from when no paragraph states it (a card's data as an engine plays it): the paragraphs
    # it cites are then only those the document comes nearest in, and answers say so.
    basis: str = ""
    # The rule fires only between the steps of a scenario with actions, which the edge-case search does not draw:
    # scenario files with actions show it firing (a game test of its steps sees to it).
    step_only: bool = False


@dataclass
class Choice:
    value: str
    text: str
    paragraphs: list[str] = field(default_factory=list)  # of the game's rules document
    # Of another document the game cites (reading_choice(N, V, D(P), S)): (document, paragraph) pairs.
    others: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Reading:
    name: str
    text: str = ""
    default: str = ""
    choices: dict[str, Choice] = field(default_factory=dict)


@dataclass
class ParagraphEntry:
    document: str
    id: str
    hash: str
    paraphrase: str
    non_normative: str | None = None


@dataclass
class KnowledgeBase:
    game: str
    rules: dict[str, Rule] = field(default_factory=dict)
    readings: dict[str, Reading] = field(default_factory=dict)
    profiles: dict[str, dict[str, str]] = field(default_factory=dict)
    paragraphs: dict[tuple[str, str], ParagraphEntry] = field(default_factory=dict)
    # Base-game assumptions (for games that keep some): name -> statement.
    assumptions: dict[str, str] = field(default_factory=dict)

    def paragraph(self, document: str, para: str) -> ParagraphEntry | None:
        return self.paragraphs.get((document, para))

    def rule_ids_for(self, document: str, para: str) -> list[str]:
        """The rules that state or are illustrated by a paragraph."""
        return sorted(r.id for r in self.rules.values() if (document, para) in r.sources + r.examples)


def _text(symbol: clingo.Symbol) -> str:
    return symbol.string if symbol.type.name == "String" else str(symbol)


def _facts(game: str) -> list[clingo.Symbol]:
    import clingo

    control = clingo.Control(["--warn=none"])
    for path in sorted(Path(facts_dir(), game).glob("*.lp")):
        control.load(str(path))
    control.ground([("base", [])])
    return [atom.symbol for atom in control.symbolic_atoms if atom.is_fact]


def _to_json(kb: KnowledgeBase) -> str:
    data = asdict(kb)
    data["paragraphs"] = list(data["paragraphs"].values())
    return json.dumps(data)


def _from_json(text: str) -> KnowledgeBase:
    data: dict[str, Any] = json.loads(text)
    pairs = lambda items: [tuple(i) for i in items]  # noqa: E731 - JSON keeps tuples as lists
    kb = KnowledgeBase(data["game"], profiles=data["profiles"], assumptions=data["assumptions"])
    for r in data["rules"].values():
        kb.rules[r["id"]] = Rule(r["id"], r["text"], pairs(r["sources"]), pairs(r["readings"]), pairs(r["examples"]),
                                 int(r["min_instances"]), bool(r["data_only"]), str(r.get("basis", "")),
                                 bool(r.get("step_only", False)))
    for r in data["readings"].values():
        choices = {c["value"]: Choice(c["value"], c["text"], c["paragraphs"], pairs(c["others"]))
                   for c in r["choices"].values()}
        kb.readings[r["name"]] = Reading(r["name"], r["text"], r["default"], choices)
    for p in data["paragraphs"]:
        kb.paragraphs[p["document"], p["id"]] = ParagraphEntry(**p)
    return kb


@cache
def load(game: str) -> KnowledgeBase:
    """The declarations of one game, read once per process (from the cache when it holds them, signed)."""
    files = [Path(__file__), *sorted(Path(facts_dir(), game).glob("*.lp"))]
    return cached(f"kb-{game}", files, lambda: _read(game), _to_json, _from_json)


def _read(game: str) -> KnowledgeBase:
    """The declarations of one game, read from its files through clingo."""
    kb = KnowledgeBase(game)
    atoms = sorted(_facts(game), key=str)
    for atom in atoms:
        args = atom.arguments
        if atom.name == "rule" and len(args) == 3:
            rule = kb.rules.setdefault(str(args[0]), Rule(str(args[0])))
            rule.sources.append((str(args[1].arguments[0]), str(args[2].arguments[0])))
        elif atom.name == "illustrates":
            rule = kb.rules.setdefault(str(args[2]), Rule(str(args[2])))
            rule.examples.append((str(args[0].arguments[0]), str(args[1].arguments[0])))
        elif atom.name == "rule_text":
            kb.rules.setdefault(str(args[0]), Rule(str(args[0]))).text = _text(args[1])
        elif atom.name == "rule_reading":
            kb.rules.setdefault(str(args[0]), Rule(str(args[0]))).readings.append((str(args[1]), str(args[2])))
        elif atom.name == "rule_min_instances" and args[1].type.name == "Number":
            kb.rules.setdefault(str(args[0]), Rule(str(args[0]))).min_instances = args[1].number
        elif atom.name == "rule_basis" and len(args) == 2:
            kb.rules.setdefault(str(args[0]), Rule(str(args[0]))).basis = _text(args[1])
        elif atom.name == "rule_data_only":
            kb.rules.setdefault(str(args[0]), Rule(str(args[0]))).data_only = True
        elif atom.name == "rule_step_only":
            kb.rules.setdefault(str(args[0]), Rule(str(args[0]))).step_only = True
        elif atom.name == "reading_text":
            kb.readings.setdefault(str(args[0]), Reading(str(args[0]))).text = _text(args[1])
        elif atom.name == "reading_default":
            kb.readings.setdefault(str(args[0]), Reading(str(args[0]))).default = str(args[1])
        elif atom.name == "reading_choice":
            reading = kb.readings.setdefault(str(args[0]), Reading(str(args[0])))
            choice = reading.choices.setdefault(str(args[1]), Choice(str(args[1]), _text(args[3])))
            if args[2].arguments:  # D(P): paragraph P of document D
                choice.others.append((args[2].name, str(args[2].arguments[0])))
            else:
                choice.paragraphs.append(str(args[2]))
        elif atom.name == "assumption" and len(args) == 2:
            kb.assumptions[str(args[0])] = _text(args[1])
        elif atom.name == "profile":
            kb.profiles.setdefault(str(args[0]), {})[str(args[1])] = str(args[2])
        elif atom.name == "paragraph":
            key = (str(args[0]), str(args[1]))
            kb.paragraphs[key] = ParagraphEntry(key[0], key[1], _text(args[2]), _text(args[3]))
    for atom in atoms:
        if atom.name == "non_normative":
            entry = kb.paragraphs.get((str(atom.arguments[0]), str(atom.arguments[1])))
            if entry:
                entry.non_normative = _text(atom.arguments[2])
    order = {f"p{n}": n for n in range(1, 10000)}
    for rule in kb.rules.values():
        rule.sources.sort(key=lambda s: (s[0], order.get(s[1], 0)))
        rule.examples.sort(key=lambda s: (s[0], order.get(s[1], 0)))
    for reading in kb.readings.values():
        for choice in reading.choices.values():
            choice.paragraphs.sort(key=lambda p: order.get(p, 0))
            choice.others.sort(key=lambda s: (s[0], order.get(s[1], 0)))
    return kb
