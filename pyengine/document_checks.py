"""`pyengine consistency`: checks the rules documents against the knowledge base. Coverage (every normative
paragraph encoded and exercised), drift (a paragraph whose text no longer matches its source-map hash, and
what must be reviewed), contradictions (each reading's choices and a smallest state where they disagree;
pairs of rules whose paragraphs lead to different verdicts on a state the search finds), dead and redundant
rules (--deep), and the Allies document's lint (the enter/exit pairing and its evidence, the token
arithmetic, terms named two ways, rows that do not fit the two-effect shape)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import clingo

from pyengine import kb as kbase
from pyengine.errors import InputError
from pyengine.games import registry
from pyengine.resources import facts_dir, rules_dir
from pyengine.scenario import load_scenario, scenario_files
from pyengine.sources import DOCUMENT_FILES, Paragraph, read_document

GAME_OF = {"lotr_unique": "lotr", "marvel_unique": "marvel", "dfm_allies": "dfm"}


@dataclass
class Finding:
    id: str
    severity: str  # error, warning or info
    kind: str
    statement: str
    paragraphs: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    state: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        data = {"id": self.id, "severity": self.severity, "kind": self.kind, "statement": self.statement,
                "paragraphs": self.paragraphs, "rules": self.rules}
        if self.state is not None:
            data["state"] = self.state
        return data


def citations(paths: list[Path], document: str) -> dict[str, list[str]]:
    """Paragraph -> the scenario files citing it (for one document)."""
    cited: dict[str, list[str]] = {}
    game = GAME_OF[document]
    for path in scenario_files([p for p in paths if p.exists()]):
        try:
            scenario = load_scenario(path)
        except InputError:
            continue
        if scenario.game.name != game:
            continue
        for para in {*scenario.cites, *(c for q in scenario.questions for c in q.cites)}:
            cited.setdefault(para, []).append(str(path))
    return cited


def coverage_and_drift(document: str, current: list[Paragraph], cited: dict[str, list[str]]) -> tuple[dict, list]:
    kb = kbase.load(GAME_OF[document])
    mapped = {p: e for (d, p), e in kb.paragraphs.items() if d == document}
    findings: list[Finding] = []
    now = {p.id: p for p in current}
    for para, entry in sorted(mapped.items(), key=lambda kv: int(kv[0][1:])):
        rules = kb.rule_ids_for(document, para)
        readings = sorted(n for n, r in kb.readings.items() for c in r.choices.values() if para in c.paragraphs)
        if para not in now:
            findings.append(Finding(f"drift:{document}:{para}:gone", "error", "drift",
                                    f"{para} is in the source map but no longer in the document", [para], rules))
        elif now[para].hash != entry.hash:
            review = ", ".join(readings + sorted(set(cited.get(para, [])))) or "nothing else"
            findings.append(Finding(f"drift:{document}:{para}", "error", "drift",
                                    f"{para} was revised (hash {entry.hash} -> {now[para].hash}); review its rules, "
                                    f"and {review}", [para], rules))
        if entry.non_normative is None and not rules:
            findings.append(Finding(f"coverage:no-rule:{document}:{para}", "error", "coverage",
                                    f"{para} is normative but no rule states or illustrates it", [para]))
        if entry.non_normative is None and para not in cited:
            findings.append(Finding(f"coverage:no-scenario:{document}:{para}", "warning", "coverage",
                                    f"no scenario cites {para}", [para], rules))
    for para in sorted(set(now) - set(mapped), key=lambda p: int(p[1:])):
        findings.append(Finding(f"drift:{document}:{para}:new", "error", "drift",
                                f"{para} is new in the document and has no source-map entry", [para]))
    for rule in kb.rules.values():
        if not rule.sources:
            findings.append(Finding(f"coverage:no-paragraph:{rule.id}", "error", "coverage",
                                    f"rule {rule.id} cites no paragraph", [], [rule.id]))
    normative = [p for p, e in mapped.items() if e.non_normative is None]
    summary = {"paragraphs": len(current), "normative": len(normative),
               "covered": sum(1 for p in normative if kb.rule_ids_for(document, p))}
    return summary, findings


def reading_findings(document: str, search_states: bool) -> list[Finding]:
    """Each reading: the paragraphs behind each choice and, from the search, a smallest state where they differ."""
    from pyengine.search import parse_side, scenario_of, search

    game = GAME_OF[document]
    kb = kbase.load(game)
    findings = []
    for name, reading in sorted(kb.readings.items()):
        paras = sorted({p for c in reading.choices.values() for p in c.paragraphs}, key=lambda p: int(p[1:]))
        choices = "; ".join(f"{v}: {', '.join(c.paragraphs)}" for v, c in reading.choices.items())
        state = None
        if search_states:
            others = [v for v in reading.choices if v != reading.default]
            a, b = parse_side(game, f"{name}={reading.default}"), parse_side(game, f"{name}={others[0]}")
            found = search(game, a, b, 3, 3, 1)
            state = scenario_of(game, found[0], a, b, f"{name}: {a.label} against {b.label}") if found else None
        rules = sorted(r.id for r in kb.rules.values() if any(n == name for n, _ in r.readings))
        findings.append(Finding(f"reading:{name}", "info", "contradiction",
                                f"the document allows two readings: {reading.text} ({choices}); default "
                                f"{reading.default}", paras, rules, state))
    return findings


def _permitting_rules(game: str) -> set[str]:
    """The rules that let a question through (named in a permit/3 head of the game's encodings)."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in Path(rules_dir(), game).glob("*.lp"))
    return set(re.findall(r"^permit\(Q, ([a-z_]+),", text, re.M))


def tension_findings(document: str) -> list[Finding]:
    """Pairs of rules whose paragraphs lead to different verdicts under the default reading: a state one rule
    decides alone, where without it another rule would let the same question through."""
    from pyengine.search import Side, scenario_of, search

    game = GAME_OF[document]
    kb = kbase.load(game)
    permitting = _permitting_rules(game)
    findings: dict[str, Finding] = {}
    for rule in sorted(kb.rules):
        if kb.rules[rule].readings or rule in permitting or not permitting:
            continue
        without = Side(f"without {rule}", without_rule=rule)
        found = search(game, Side("default"), without, 3, 3, 1)
        if not found:
            continue
        finding = found[0]
        for question in finding.differs:
            for other in finding.reasons["b"].get(question, []):
                own = {p for _, p in kb.rules[rule].sources}
                if other not in permitting or f"tension:{rule}:{other}" in findings or own & {
                        p for _, p in kb.rules[other].sources}:
                    continue
                paras = sorted({p for d, p in kb.rules[rule].sources + kb.rules[other].sources if d == document},
                               key=lambda p: int(p[1:]))
                findings[f"tension:{rule}:{other}"] = (Finding(
                    f"tension:{rule}:{other}", "warning", "contradiction",
                    f"{rule} ({', '.join(p for _, p in kb.rules[rule].sources)}) decides this state alone, where "
                    f"{other} ({', '.join(p for _, p in kb.rules[other].sources)}) would let it through",
                    paras, [rule, other], scenario_of(game, finding, Side("default"), without,
                                                      f"{rule} against {other}")))
    return list(findings.values())


def deep_findings(document: str) -> list[Finding]:
    """Rules that never fire in any state of the bounded search, and rules whose removal changes no verdict."""
    from pyengine.search import Side, firing_rules, search

    game = GAME_OF[document]
    kb = kbase.load(game)
    findings = []
    fired = firing_rules(game, sorted(kb.rules), 3, 3)
    for rule in sorted(kb.rules):
        if not fired[rule]:
            findings.append(Finding(f"dead:{rule}", "warning", "dead-rule",
                                    f"{rule} fires in no state the search generates (up to 3 cards): the "
                                    "document's case lies outside the bounds or the generator's vocabulary",
                                    [p for _, p in kb.rules[rule].sources], [rule]))
        elif not search(game, Side("default"), Side("without", without_rule=rule), 3, 3, 1):
            findings.append(Finding(f"explanatory:{rule}", "info", "redundant-rule",
                                    f"removing {rule} changes no verdict within 3 cards: it only explains",
                                    [p for _, p in kb.rules[rule].sources], [rule]))
    return findings


def _dfm_facts() -> list[clingo.Symbol]:
    control = clingo.Control(["--warn=none"])
    for name in ("base_game.lp", "terms.lp", "layouts.lp", "setup.lp"):
        control.load(str(Path(facts_dir(), "dfm", name)))
    control.load(str(Path(rules_dir(), "dfm", "pairing.lp")))
    control.load(str(Path(rules_dir(), "dfm", "calls.lp")))
    control.add("base", [], "#defined act/3. #defined refused/3. #defined done/1. #defined holds/2. #defined num/3."
                "#defined reading/2. #defined choice/3. #defined did/3. #defined step/1. #defined short/3.")
    control.ground([("base", [])])
    return [a.symbol for a in control.symbolic_atoms if a.is_fact or a.symbol.name in (
        "enter_row", "exit_row", "exit_evidence", "continues", "aid_row", "cost", "box_tokens", "term_variant",
        "layout_token", "faction", "drawn_allies", "setup_tokens")]


def dfm_lint(current: list[Paragraph]) -> list[Finding]:
    """The Allies document's own lint: pairing and its evidence, token arithmetic, terms, row shapes."""
    facts = _dfm_facts()
    findings = []
    rows: dict[str, list[str]] = {}
    for atom in facts:
        if atom.name == "aid_row":
            rows.setdefault(str(atom.arguments[0]), []).append(str(atom.arguments[2]))
    evidence: dict[str, set[str]] = {}
    for atom in facts:
        if atom.name == "exit_evidence":
            evidence.setdefault(str(atom.arguments[0]), set()).add(str(atom.arguments[2]))
    for ally, paras in sorted(rows.items()):
        enter = [str(a.arguments[1]) for a in facts if a.name == "enter_row" and str(a.arguments[0]) == ally]
        exits = [str(a.arguments[1]) for a in facts if a.name == "exit_row" and str(a.arguments[0]) == ally]
        kinds = ", ".join(sorted(evidence.get(ally, set()))) or "none"
        weak = evidence.get(ally) == {"dfm_pairing_row_order"}
        findings.append(Finding(f"lint:pairing:{ally}", "warning" if weak else "info", "pairing",
                                f"{ally}: enter {', '.join(enter)}, exit {', '.join(exits)} (evidence: {kinds})"
                                + ("; only the row order supports it" if weak else ""), sorted(paras)))
        if len(paras) != 2:
            findings.append(Finding(f"lint:rows:{ally}", "warning", "row-shape",
                                    f"{ally} has {len(paras)} rows, not one per effect; the extra row is read as "
                                    "continuing the exit effect", sorted(paras), ["dfm_pairing_continuation"]))
    number = {a.name: a.arguments[0].number for a in facts if a.name in ("box_tokens", "drawn_allies", "setup_tokens")}
    costs = {str(a.arguments[0]): a.arguments[1].number for a in facts if a.name == "cost"}
    players = sum(1 for a in facts if a.name == "faction")
    on_layouts = sum(1 for a in facts if a.name == "layout_token")
    box, each, drawn = number["box_tokens"], number["setup_tokens"], number["drawn_allies"]
    placed = players * each + on_layouts
    findings.append(Finding("lint:tokens:count", "info" if placed == box else "error", "tokens",
                            f"setup gives each of {players} players {each} token(s) and the chapters place "
                            f"{on_layouts}: {placed} tokens, the box holds {box}", ["p11", "p17", "p20"],
                            ["dfm_token_count"]))
    most = box - (players - 1) * each
    full = drawn * (costs["enter"] + costs["exit"])
    verdict = "so no player can" if full > most else "so a player could"
    findings.append(Finding("lint:tokens:all-allies", "warning" if full > most else "info", "tokens",
                            f"using both effects of all {drawn} allies costs {full} tokens; one player can hold at "
                            f"most {most} of the {box} (the opponent keeps its setup tokens), {verdict}",
                            ["p15", "p33", "p35", "p11"]))
    for atom in facts:
        if atom.name != "term_variant":
            continue
        term, variant, why = (a.string for a in atom.arguments)
        uses = {w: [p.id for p in current if w.lower() in p.text.lower()] for w in (term, variant)}
        if uses[term] and uses[variant]:
            findings.append(Finding(f"lint:terms:{variant}", "warning", "terminology",
                                    f"'{variant}' ({', '.join(uses[variant])}) where the rulebook says '{term}' "
                                    f"({', '.join(uses[term][:6])}): {why}", sorted(set(uses[variant]))))
    return findings


def check(documents: list[str], docs: Path, scenario_paths: list[Path], search_states: bool,
          deep: bool) -> list[dict[str, Any]]:
    """The report: one entry per document with its counts and findings."""
    report = []
    for document in documents:
        path = docs / DOCUMENT_FILES[document]
        if not path.exists():
            raise InputError(f"document {document} not found", file=str(path),
                             expected="the rules documents folder (--docs or PYENGINE_DOCS)")
        current = read_document(docs, document)
        summary, findings = coverage_and_drift(document, current, citations(scenario_paths, document))
        findings += reading_findings(document, search_states)
        if search_states:
            findings += tension_findings(document)
        if deep:
            findings += deep_findings(document)
        if document == "dfm_allies":
            findings += dfm_lint(current)
        report.append({"document": document, **summary, "findings": [f.as_dict() for f in findings]})
    return report


def games_documents() -> list[str]:
    return [registry()[g].document for g in sorted(registry())]
