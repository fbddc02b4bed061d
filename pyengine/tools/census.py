"""`pyengine census`: which real cards each ambiguity touches. For each reading (each pair of its choices) and
each profile against the default, the edge-case search draws the smallest abstract states where the two sides
disagree, told which kinds of card the pool has (rules/search/<game>.lp: types, uniqueness, abilities, shared
titles, spellings, aliases), and each state is matched against the imported card pool: every real table that
fits it is answered under both sides by the encodings. A class of real cards (the titles or names of the cards
that vary together: a title, a pair of versions, an identity and an ally) is counted when one of its tables
really disagrees. A state no real table shows is refused, and its configuration of cards never drawn again.

Matching is lookup, not rules: a real card fits an abstract one when it has every fact the abstract card has
(its type within the game's family of types, the same uniqueness and abilities as the encodings derive them,
the same text wherever the abstract cards share a text: one title, an alter ego's name, a subtitle); the
verdicts come from clingo alone. Tables are answered once per *form*: two tables whose facts are equal up to
renaming the texts and ids the encodings never mention get the same verdicts, by the same rules, so one answer
stands for every table of its form. Every table the census writes is checked against its recorded verdicts by
the test suite.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import clingo

from pyengine.core import kb as kbase
from pyengine.core.answering import games_named
from pyengine.core.arguments import checked
from pyengine.core.batch import answer_many
from pyengine.core.catalog import Card, Catalog
from pyengine.core.engine import Answer
from pyengine.core.errors import InputError, closest
from pyengine.core.files import check_out_folder, write_folder
from pyengine.core.results import CensusResult, StepProgress
from pyengine.core.scenario import Scenario, scenario_from_data
from pyengine.core.text import title_key
from pyengine.games import SPECS, registry
from pyengine.tools import search_view
from pyengine.tools.census_match import MAX_TABLES, Pool, assignments, form, literal_texts, real_table, slots_of

# The classes a report lists for each pair.
REPORT_CLASSES = 25
# A class's label names at most this many of its cards.
LABEL_CARDS = 4
# A pair's first classes carry their table in the result (every class's table is written with --out).
EXAMPLES = 5


@dataclass
class Verdicts:
    """A form's answers: each question's verdict and rule ids, whether the two sides disagree, and which of the
    table's cards (slot by slot) the reasons of the disagreeing questions cite."""

    answers: dict[str, tuple[str | None, list[str]]]
    disagree: bool
    cited: set[int]


def _strings(symbol: clingo.Symbol) -> Iterator[str]:
    if symbol.type == clingo.SymbolType.String:
        yield symbol.string
    elif symbol.type == clingo.SymbolType.Function:
        for argument in symbol.arguments:
            yield from _strings(argument)


def verdicts(answers: list[Answer], pairs: list[tuple[str, str]], texts: list[set[str]]) -> Verdicts:
    """A table's answers read for the census; `texts` holds, slot by slot, the ids and texts by which a reason
    may cite a card."""
    by_id = {a.question.id: a for a in answers}
    differing = [(a, b) for a, b in pairs if by_id[a].verdict != by_id[b].verdict]
    cited_texts = {text for pair in differing for q in pair for reason in by_id[q].reasons
                   for text in _strings(reason.evidence)}
    cited = {slot for slot, known in enumerate(texts) if known & cited_texts}
    # Reasons that cite no card of the table (evidence of counts only) leave every card of it in the class.
    return Verdicts({q: (a.verdict, a.rule_ids) for q, a in by_id.items()}, bool(differing),
                    cited or set(range(len(texts))))


@dataclass
class RealClass:
    """A class of real cards (the titles or names of the cards that vary together) whose table disagrees."""

    key: tuple[str, ...]
    cards: dict[str, Card] = field(default_factory=dict)
    table: dict[str, Any] | None = None
    state: int = 0

    def to_dict(self) -> dict[str, Any]:
        cards = sorted(self.cards.values(), key=lambda c: c.id)
        label = " + ".join(c.label() for c in cards[:LABEL_CARDS]) + (
            f" and {len(cards) - LABEL_CARDS} more" if len(cards) > LABEL_CARDS else "")
        return {"key": list(self.key), "label": label, "cards": [c.id for c in cards],
                "types": dict(sorted(Counter(c.type for c in self.cards.values()).items())), "state": self.state,
                "table": self.table}


def _pairs(abstract: dict[str, Any]) -> list[tuple[str, str]]:
    """The abstract state's questions as (side A, side B) pairs of ids, in the order scenario_of writes them."""
    ids = [q["id"] for q in abstract["questions"]]
    return list(zip(ids[0::2], ids[1::2], strict=True))


@dataclass
class StateCensus:
    """One abstract state matched against the pool: how many real tables fit it, in how many forms, how many
    of them disagree, and the classes of real cards they show."""

    number: int
    abstract: dict[str, Any]
    tables_tried: int = 0
    capped: bool = False
    forms: int = 0
    agreeing: int = 0
    riding: int = 0
    not_a_table: int = 0
    classes: dict[tuple[str, ...], RealClass] = field(default_factory=dict)

    @property
    def why_none(self) -> str | None:
        if self.classes:
            return None
        if not self.tables_tried:
            return "no real card of the pool has the attributes and relations this state's cards need"
        return f"{self.tables_tried} real tables fit this state's cards, and the two sides agree on each"

    def summary(self) -> dict[str, Any]:
        cards = {cid: c for entry in self.classes.values() for cid, c in entry.cards.items()}
        found = {"state": self.number, "abstract": self.abstract, "tables_tried": self.tables_tried,
                 "capped": self.capped, "forms": self.forms, "agreeing": self.agreeing, "riding": self.riding,
                 "not_a_table": self.not_a_table, "classes": len(self.classes), "cards": len(cards),
                 "by_type": dict(sorted(Counter(c.type for c in cards.values()).items()))}
        return found | ({"why_none": self.why_none} if self.why_none else {})


def _citing_texts(pool: Pool, scenario: Scenario, cards: list[Card]) -> list[set[str]]:
    """Slot by slot, what a reason may cite a table's card by: its id, its instances' ids, its texts."""
    texts = []
    for card in cards:
        found = {card.id, *(i.id for i in scenario.state.instances.values() if i.card.id == card.id)}
        found |= {arg[1] for _, args in pool.props.get(card.id, []) for arg in args if arg[0] in ("text", "lit")}
        texts.append(found)
    return texts


def census_state(game: Any, pool: Pool, source: str, abstract: dict[str, Any], number: int, name: str,
                 limit: int = MAX_TABLES) -> StateCensus:
    """One abstract state matched against the pool: every real table that fits it answered (once per form)
    under both sides, and each class of real cards whose table disagrees kept with its first such table."""
    scenario = scenario_from_data(abstract, "<census>")
    slots = slots_of(game, scenario, [c["id"] for c in abstract["cards"]])
    found, capped = assignments(game, pool, slots, limit)
    result = StateCensus(number, abstract, len(found), capped)
    pairs = _pairs(abstract)
    literal = literal_texts(game.name)
    # The tables of this state differ only in their cards, so their form is that of their cards' facts (and of the
    # cards the game brings along: an identity's faces), slot by slot; one table of each form is answered, all of
    # them in batches (pyengine.core.batch).
    shapes = [form([line for card in cards for line in pool.lines(game, card)], literal) for cards, _ in found]
    first: dict[tuple[str, ...], int] = {}
    for index, shape in enumerate(shapes):
        first.setdefault(shape, index)
    by_form: dict[tuple[str, ...], Verdicts | None] = dict.fromkeys(first)
    tables: list[tuple[tuple[str, ...], Scenario, list[Card]]] = []
    for shape, index in first.items():
        try:
            tables.append((shape, scenario_from_data(real_table(abstract, found[index][0], source, name), "<census>"),
                           found[index][0]))
        except InputError:
            continue
    for (shape, real, cards), answers in zip(tables, answer_many([(t[1], {}) for t in tables]), strict=True):
        if isinstance(answers, Exception):
            raise answers
        by_form[shape] = verdicts(answers, pairs, _citing_texts(pool, real, cards))
    for (cards, varying), shape in zip(found, shapes, strict=True):
        answered = by_form[shape]
        if answered is None:
            result.not_a_table += 1
            continue
        if not answered.disagree:
            result.agreeing += 1
            continue
        # The class is the cards of the varied group that the disagreeing reasons cite; a group the reasons do not
        # cite only rides along with the table (another group's cards decide it).
        members = sorted((cards[i] for i in varying if i in answered.cited), key=lambda c: (title_key(c.title), c.id))
        if not members:
            result.riding += 1
            continue
        key = tuple(sorted({title_key(c.title) for c in members}))
        entry = result.classes.get(key)
        if entry is None:
            table = real_table(abstract, cards, source, name)
            for question in table["questions"]:
                question["expect"], question["rules"] = answered.answers[question["id"]]
            entry = result.classes[key] = RealClass(key, table=table, state=number)
        entry.cards.update((c.id, c) for c in members)
    result.forms = len(by_form)
    return result


def side_pairs(game: str) -> list[tuple[str, str, str | None]]:
    """Every pair the census compares: each pair of a reading's choices (side A, side B, the reading), then
    each profile against the default."""
    kb = kbase.load(game)
    pairs: list[tuple[str, str, str | None]] = []
    for name, reading in sorted(kb.readings.items()):
        choices = list(reading.choices)
        pairs += [(f"{name}={a}", f"{name}={b}", name) for i, a in enumerate(choices) for b in choices[i + 1:]]
    pairs += [("default", profile, None) for profile in sorted(kb.profiles)]
    return pairs


def _catalog_name(game: str, catalog: str | None) -> str:
    from pyengine.core import store

    known = [source for source, _ in SPECS[game].sources]
    imported = store.sources()
    if catalog is None:
        found = [s for s in known if s in imported]
        if not found:
            raise InputError(f"no card pool of game {game} is imported", field="--catalog",
                             expected=f"pyengine import {known[0]} PATH first, or --catalog builtin")
        return found[0]
    if catalog != "builtin" and imported.get(catalog) != game:
        raise InputError(f"no imported catalog {catalog!r} of game {game}", field="--catalog",
                         expected=f"builtin, or a source imported with pyengine import ({', '.join(known)})",
                         suggestion=closest(catalog, [*known, "builtin"]))
    return catalog


@checked
def census(game: str, catalog: str | None = None, compare: tuple[str, str] | None = None,
           out: str | Path | None = None, max_cards: int = 3, states: int = 40, tries: int = 150,
           max_tables: int = MAX_TABLES, tables: int = EXAMPLES, progress: StepProgress | None = None
           ) -> CensusResult:
    """For each reading's pair of choices and each profile against the default (or only `compare`), the real
    cards of the pool on which the two sides disagree, by class and card type, with a real table for each
    class: the search draws up to `states` abstract states that real tables show, leaving out at most `tries`
    that none does. A pair's first `tables` classes carry their table in the result; with `out`, every class's
    table is written there as a scenario file."""
    from pyengine.tools.edge_cases import census_search, parse_side, scenario_of

    game = games_named(game)[0]
    # A game whose edge-case search draws no cards of a pool (no census spec) has no census, whatever it imports.
    counted = [g for g, spec in SPECS.items()
               if spec.sources and getattr(registry()[g].search, "census", None) is not None]
    if game not in counted:
        raise InputError(f"game {game} has no card database to count", field="--game", expected=", ".join(counted))
    for option, value, top in (("--max-cards", max_cards, 4), ("--states", states, 200), ("--tries", tries, 2000)):
        if not 1 <= value <= top:
            raise InputError(f"{option} {value} is out of range", field=option, expected=f"from 1 to {top}")
    folder = Path(out) if out else None
    if folder is not None:
        check_out_folder(folder)
    source = _catalog_name(game, catalog)
    rules = search_view(game, "census")
    started = time.monotonic()
    pool = Pool.read(rules, _open(registry()[game], source))
    kinds = pool.kinds(rules)
    kb = kbase.load(game)
    pairs = [(compare[0], compare[1], None)] if compare else side_pairs(game)
    entries = []
    for number, (text_a, text_b, reading) in enumerate(pairs):
        if progress:
            progress(number, len(pairs), f"{text_a} against {text_b}")
        a, b = parse_side(game, text_a), parse_side(game, text_b)
        shown: list[StateCensus] = []
        refused: list[StateCensus] = []

        def accept(finding: Any, a: Any = a, b: Any = b, shown: list = shown, refused: list = refused) -> bool:
            index = len(shown) + 1
            title = f"{game} on {source}: {a.label} against {b.label}, state {index}"
            found = census_state(rules, pool, source, scenario_of(game, finding, a, b, title), index, title,
                                 max_tables)
            (shown if found.classes else refused).append(found)
            return bool(found.classes)

        stopped_by = census_search(game, a, b, max_cards, kinds, accept, states, tries)
        entry = _entry(kb, text_a, text_b, reading, shown, refused)
        # Why the pair's search ended: its states shown, its tries refused, its time, or no further state.
        entry["stopped_by"] = stopped_by
        entries.append(entry)
    if progress:
        progress(len(pairs), len(pairs), "done")
    written = _write(folder, game, entries) if folder else []
    for entry in entries:
        for found in entry["classes"][tables:]:
            found.pop("table")
    return CensusResult(game, source, len(pool.cards), entries, written, round(time.monotonic() - started, 1),
                        states, tries)


def _open(game: Any, source: str) -> Catalog:
    from pyengine.core.store import open_catalog

    return open_catalog(source, game.builtin_catalog)


def _entry(kb: kbase.KnowledgeBase, a: str, b: str, reading: str | None, shown: list[StateCensus],
           refused: list[StateCensus]) -> dict[str, Any]:
    """One pair's census: its classes over every state (a class shown by several states counted once, with the
    first table), the distinct real cards and their types, the states, and those no real table shows."""
    classes: dict[tuple[str, ...], RealClass] = {}
    for state in shown:
        for key, found in state.classes.items():
            if key in classes:
                classes[key].cards.update(found.cards)
            else:
                classes[key] = RealClass(key, dict(found.cards), found.table, found.state)
    cards = {cid: c for found in classes.values() for cid, c in found.cards.items()}
    paragraphs = sorted({p for s in shown for p in s.abstract.get("cites", [])}, key=lambda p: int(p[1:]))
    listed = [found.to_dict() for found in classes.values()]
    entry: dict[str, Any] = {
        "a": a, "b": b, "reading": reading, "question": kb.readings[reading].text if reading else None,
        "paragraphs": paragraphs, "classes_found": len(classes), "cards": len(cards),
        "by_type": dict(sorted(Counter(c.type for c in cards.values()).items())),
        "examples": [found["label"] for found in listed[:EXAMPLES]], "classes": listed,
        "states": [state.summary() for state in shown], "gaps": _gaps(classes.values()),
        "refused": len(refused), "refused_examples": [state.summary() for state in refused[:EXAMPLES]]}
    if not classes:
        entry["why_none"] = (f"the search found no state where {a} and {b} disagree within its bounds"
                             if not refused else
                             f"none of the {len(refused)} smallest states where they disagree is shown by real cards "
                             f"of the pool (each needs a card or a relation between cards no real card has)")
    return entry


def _gaps(classes: Iterable[RealClass]) -> list[dict[str, Any]]:
    """The classes grouped by how their real tables' verdicts differ: the question kind, each side's verdict and
    the rules behind it (what B accepts that A refuses, and the reverse), with the number of classes and cards of
    each group and its smallest real table (the class of fewest cards)."""
    groups: dict[tuple[Any, ...], list[RealClass]] = {}
    for found in classes:
        if found.table is None:
            continue
        asked = {q["id"]: q for q in found.table["questions"]}
        for one, other in ((asked[a], asked[b]) for a, b in _pairs(found.table)):
            if one.get("expect") != other.get("expect"):
                key = (one["ask"], str(one["expect"]), str(other["expect"]), tuple(one.get("rules", [])),
                       tuple(other.get("rules", [])))
                groups.setdefault(key, []).append(found)
    gaps = []
    for (ask, verdict_a, verdict_b, rules_a, rules_b), members in groups.items():
        smallest = min(members, key=lambda c: (len(c.cards), c.key))
        cards = {cid for c in members for cid in c.cards}
        gaps.append({"ask": ask, "a": verdict_a, "b": verdict_b, "a_rules": list(rules_a), "b_rules": list(rules_b),
                     "classes": len(members), "cards": len(cards), "smallest": smallest.to_dict()["label"],
                     "smallest_table": smallest.table})
    return sorted(gaps, key=lambda g: (-g["classes"], g["ask"], g["a_rules"]))


def _write(folder: Path, game: str, entries: list[dict[str, Any]]) -> list[str]:
    """Every class's table, a scenario file each: a conformance pack with both sides' verdicts and rule ids, the
    folder written whole (pyengine.core.files.write_folder)."""
    import yaml

    # libyaml's dumper where PyYAML has it (a pack holds thousands of tables); the pure-Python one otherwise.
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    files: dict[str, str] = {}
    for entry in entries:
        slug = re.sub(r"[^A-Za-z0-9]+", "-", f"{entry['a']}-vs-{entry['b']}").strip("-")
        for number, found in enumerate(entry["classes"], 1):
            name = f"{game}-{slug}-{number:04d}.yaml"
            files[name] = yaml.dump(found["table"], Dumper=dumper, sort_keys=False, allow_unicode=True)
            found["file"] = str(folder / name)
    return [str(path) for path in write_folder(folder, files, "census")]


def markdown(result: CensusResult) -> str:
    """The census as a Markdown report: a table per pair of sides, with the weight of each open question (how
    many real classes and cards it touches), examples and the paragraphs behind it."""
    lines = [f"# Census of {result.game} readings on the {result.catalog} pool", "",
             f"{result.pool_cards} cards; {len(result.pairs)} pairs of sides; {result.seconds:g} s.", "",
             "| sides | question | classes | cards | by type | paragraphs |", "|---|---|---|---|---|---|"]
    for entry in result.pairs:
        types = ", ".join(f"{n} {t}" for t, n in entry["by_type"].items()) or "-"
        lines.append(f"| {_cell(entry['a'])} / {_cell(entry['b'])} | {_cell(entry['question'] or 'profile')} | "
                     f"{entry['classes_found']} | {entry['cards']} | {types} | {', '.join(entry['paragraphs'])} |")
    for entry in result.pairs:
        lines += ["", f"## {entry['a']} against {entry['b']}", ""]
        if entry["question"]:
            lines += [entry["question"], ""]
        if "why_none" in entry:
            lines += [f"No real card: {entry['why_none']}.", ""]
            continue
        stopped = STOPPED_WORDS.get(entry["stopped_by"], "")
        lines += [f"{entry['classes_found']} classes of real cards, {entry['cards']} cards, from "
                  f"{len(entry['states'])} abstract states ({entry['refused']} others no real table shows)."
                  f"{stopped}", ""]
        for found in entry["classes"][:REPORT_CLASSES]:
            where = f" ({found['file']})" if found.get("file") else ""
            lines.append(f"- {_cell(found['label'])}{where}")
        if len(entry["classes"]) > REPORT_CLASSES:
            lines.append(f"- and {len(entry['classes']) - REPORT_CLASSES} more classes")
        if entry["gaps"]:
            lines += ["", f"How the verdicts differ ({entry['a']}, then {entry['b']}), with the smallest real table:",
                      "",
                      "| question | verdicts | rules | classes | cards | smallest |", "|---|---|---|---|---|---|"]
            for gap in entry["gaps"]:
                rules = f"{', '.join(gap['a_rules']) or '-'} / {', '.join(gap['b_rules']) or '-'}"
                lines.append(f"| {gap['ask']} | {gap['a']} / {gap['b']} | {_cell(rules)} | {gap['classes']} | "
                             f"{gap['cards']} | {_cell(gap['smallest'])} |")
    return "\n".join(lines) + "\n"


# What a report says of a pair whose search stopped at one of its budgets.
STOPPED_WORDS = {"states": " The search stopped at its number of states: there may be more.",
                 "tries": " The search stopped at its number of tries: there may be more.",
                 "time": " The search stopped at its time limit (--timeout): there may be more."}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
