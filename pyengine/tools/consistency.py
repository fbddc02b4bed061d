"""`pyengine consistency`: checks the rules documents against the knowledge base. Coverage (every normative
paragraph encoded and exercised), drift (a paragraph whose text no longer matches its source-map hash, and
what must be reviewed), contradictions (each reading's choices and a smallest state where they disagree;
pairs of rules whose paragraphs lead to different verdicts on a state the search finds), dead and redundant
rules (--deep), and a document's own lint where its game has one (the registry's `lint`). A game's further
documents (notes on what its main document takes for granted) are checked for coverage and drift; the readings,
tensions, deep search and lint are reported with its main document."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pyengine.core import kb as kbase
from pyengine.core.arguments import checked
from pyengine.core.errors import InputError, closest
from pyengine.core.files import write_whole
from pyengine.core.findings import Finding
from pyengine.core.resources import existing_dirs, rules_dir, scenario_dirs
from pyengine.core.results import ConsistencyResult, StepProgress
from pyengine.core.scenario import load_scenario, scenario_files
from pyengine.core.sources import Paragraph, document_path, read_document
from pyengine.games import DOCUMENTS, GAME_DOCUMENTS, GAME_NAMES, GAME_OF, lint


def citations(paths: list[Path], document: str) -> dict[str, list[str]]:
    """Paragraph -> the scenario files citing it (for one document)."""
    return document_citations(paths).get(document, {})


def document_citations(paths: list[Path]) -> dict[str, dict[str, list[str]]]:
    """For each document, paragraph -> the scenario files citing it (every file read once)."""
    cited: dict[str, dict[str, list[str]]] = {}
    for path in scenario_files([p for p in paths if p.exists()]):
        try:
            scenario = load_scenario(path)
        except InputError:
            continue
        for document, para in scenario.cited():
            cited.setdefault(document, {}).setdefault(para, []).append(str(path))
    return cited


def coverage_and_drift(document: str, current: list[Paragraph], cited: dict[str, list[str]]) -> tuple[dict, list]:
    kb = kbase.load(GAME_OF[document])
    mapped = {p: e for (d, p), e in kb.paragraphs.items() if d == document}
    findings: list[Finding] = []
    now = {p.id: p for p in current}
    for para, entry in sorted(mapped.items(), key=lambda kv: int(kv[0][1:])):
        rules = kb.rule_ids_for(document, para)
        readings = sorted(n for n, r in kb.readings.items() for c in r.choices.values()
                          if (para in c.paragraphs and _main(document)) or (document, para) in c.others)
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
    for rule in kb.rules.values() if _main(document) else []:
        if not rule.sources:
            findings.append(Finding(f"coverage:no-paragraph:{rule.id}", "error", "coverage",
                                    f"rule {rule.id} cites no paragraph", [], [rule.id]))
    normative = [p for p, e in mapped.items() if e.non_normative is None]
    summary = {"paragraphs": len(current), "normative": len(normative),
               "covered": sum(1 for p in normative if kb.rule_ids_for(document, p))}
    return summary, findings


def _main(document: str) -> bool:
    """Whether a document is its game's main one, whose readings, rule tensions, deep search and lint the check
    reports (a further document's report is its coverage and drift)."""
    return DOCUMENTS[GAME_OF[document]] == document


def reading_findings(document: str, search_states: bool) -> list[Finding]:
    """Each reading: the paragraphs behind each choice and, from the search, a smallest state where they differ."""
    from pyengine.tools.edge_cases import parse_side, scenario_of, search

    game = GAME_OF[document]
    kb = kbase.load(game)
    findings = []
    for name, reading in sorted(kb.readings.items()):
        paras = sorted({p for c in reading.choices.values() for p in c.paragraphs}, key=lambda p: int(p[1:]))
        choices = "; ".join(f"{v}: {', '.join([*c.paragraphs, *(f'{d} {p}' for d, p in c.others)])}"
                            for v, c in reading.choices.items())
        state = None
        if search_states:
            others = [v for v in reading.choices if v != reading.default]
            a, b = parse_side(game, f"{name}={reading.default}"), parse_side(game, f"{name}={others[0]}")
            found = search(game, a, b, 3, 3, 1)
            state = scenario_of(game, found[0], a, b, f"{name}: {a.label} against {b.label}") if found else None
        rules = sorted(r.id for r in kb.rules.values() if any(n == name for n, _ in r.readings))
        findings.append(Finding(f"reading:{name}", "info", "contradiction",
                                f"the document allows {_count_words(len(reading.choices))} readings: "
                                f"{reading.text} ({choices}); default "
                                f"{reading.default}", paras, rules, state))
    return findings


def _count_words(n: int) -> str:
    """How many readings, in words."""
    return {2: "two", 3: "three", 4: "four", 5: "five"}.get(n, str(n))


def _permitting_rules(game: str) -> set[str]:
    """The rules that let a question through (named in a permit/3 head of the game's encodings)."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in Path(rules_dir(), game).glob("*.lp"))
    return set(re.findall(r"^permit\(Q, ([a-z_]+),", text, re.M))


def _own(rule: kbase.Rule, document: str) -> list[str]:
    """The paragraphs of `document` a rule cites (a finding's paragraphs are its document's)."""
    return [p for d, p in rule.sources if d == document]


def _cited(rule: kbase.Rule, document: str) -> str:
    """The paragraphs a rule cites, in words: those of `document` by id, another document's with its id."""
    return ", ".join(p if d == document else f"{d} {p}" for d, p in rule.sources)


def tension_findings(document: str) -> list[Finding]:
    """Pairs of rules whose paragraphs lead to different verdicts under the default reading: a state one rule
    decides alone, where without it another rule would let the same question through."""
    from pyengine.tools.edge_cases import Side, scenario_of, search

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
                own = set(kb.rules[rule].sources)
                if other not in permitting or f"tension:{rule}:{other}" in findings or own & set(
                        kb.rules[other].sources):
                    continue
                paras = sorted({p for d, p in kb.rules[rule].sources + kb.rules[other].sources if d == document},
                               key=lambda p: int(p[1:]))
                findings[f"tension:{rule}:{other}"] = (Finding(
                    f"tension:{rule}:{other}", "warning", "contradiction",
                    f"{rule} ({_cited(kb.rules[rule], document)}) decides this state alone, where "
                    f"{other} ({_cited(kb.rules[other], document)}) would let it through",
                    paras, [rule, other], scenario_of(game, finding, Side("default"), without,
                                                      f"{rule} against {other}")))
    return list(findings.values())


def deep_findings(document: str, rules: list[str] | None = None) -> list[Finding]:
    """Rules (of `rules`, default every rule of the document's game) that never fire in any state of the
    bounded search, and rules whose removal changes no verdict."""
    from pyengine.tools.edge_cases import Side, firing_rules, search

    game = GAME_OF[document]
    kb = kbase.load(game)
    findings = []
    asked = sorted(kb.rules) if rules is None else sorted(rules)
    fired = firing_rules(game, asked, 3, 3)
    for rule in asked:
        if not fired[rule]:
            findings.append(Finding(f"dead:{rule}", "warning", "dead-rule",
                                    f"{rule} fires in no state the search generates (up to 3 cards): the "
                                    "document's case lies outside the bounds or the generator's vocabulary",
                                    _own(kb.rules[rule], document), [rule]))
        elif not search(game, Side("default"), Side("without", without_rule=rule), 3, 3, 1):
            findings.append(Finding(f"explanatory:{rule}", "info", "redundant-rule",
                                    f"removing {rule} changes no verdict within 3 cards: it only explains",
                                    _own(kb.rules[rule], document), [rule]))
    return findings


def check(documents: list[str], docs: Path, scenario_paths: list[Path], search_states: bool,
          deep: bool, progress: StepProgress | None = None) -> list[dict[str, Any]]:
    """The report: one entry per document with its counts and findings (`progress` hears each step: a
    document's coverage and readings, its tensions, its deep search)."""
    report = []
    steps = sum(1 + (search_states + deep) * _main(d) for d in documents)
    done = 0

    def step(label: str) -> None:
        nonlocal done
        if progress:
            progress(done, steps, label)
        done += 1

    cited: dict[str, dict[str, list[str]]] | None = None
    for document in documents:
        path = document_path(docs, document)
        if not path.exists():
            raise InputError(f"document {document} not found", file=str(path),
                             expected="the rules documents folder (--docs or PYENGINE_DOCS), with a game's further "
                                      "documents beside it")
        current = read_document(docs, document)
        main = _main(document)
        step(f"{document}: coverage and readings" if main else f"{document}: coverage")
        if cited is None:  # the scenario files are read once, for every document
            cited = document_citations(scenario_paths)
        summary, findings = coverage_and_drift(document, current, cited.get(document, {}))
        if main:
            findings += reading_findings(document, search_states)
        if search_states and main:
            step(f"{document}: tensions")
            findings += tension_findings(document)
        if deep and main:
            step(f"{document}: dead and redundant rules")
            findings += deep_findings(document)
        document_lint = lint(document)
        if document_lint is not None:
            findings += document_lint(current)
        report.append({"document": document, **summary, "findings": [f.as_dict() for f in findings]})
    if progress:
        progress(steps, steps, "done")
    return report


def games_documents() -> list[str]:
    """Every document of every game, each game's main one first."""
    return [d for g in GAME_NAMES for d in GAME_DOCUMENTS[g]]


@checked
def consistency(documents: list[str] | None = None, docs: str | Path | None = None,
                scenarios: list[str | Path] | None = None, search_states: bool = True, deep: bool = False,
                baseline: str | Path | None = None, write_baseline: str | Path | None = None,
                progress: StepProgress | None = None) -> ConsistencyResult:
    """Check the rules documents in `docs` against the knowledge base (coverage, drift, readings and rule
    tensions with states, dead rules with `deep`, the Allies lint). With a baseline of accepted finding ids the
    exit code is 1 when a finding is new; without one, 1 when a finding is an error. The scenarios cited are
    read from `scenarios` (each must exist), else from the folders pyengine ships (resources.scenario_dirs)."""
    import yaml

    known = games_documents()
    for document in documents or []:
        if document not in known:
            raise InputError(f"unknown document {document!r}", field="DOC", expected="one of " + ", ".join(known),
                             suggestion=closest(document, known))
    folder = Path(docs) if docs else None
    if folder is None or not folder.is_dir():
        raise InputError(f"no rules documents folder at {folder or '(none given)'}", field="--docs",
                         expected="--docs DIR or PYENGINE_DOCS naming the folder of the rules documents")
    paths = existing_dirs(scenarios, "--scenarios") if scenarios else scenario_dirs()
    report = check(documents or known, folder, paths, search_states, deep, progress)
    accepted: set[str] = set()
    if baseline:
        from pyengine.core.yamlio import load_file

        data = load_file(Path(baseline))
        if not isinstance(data, dict) or not isinstance(data.get("accepted"), list):
            raise InputError("a baseline holds `accepted:`, a list of finding ids", file=str(baseline),
                             expected="accepted: [reading:READING, ...]")
        accepted = {str(i) for i in data["accepted"]}
    found = [f for entry in report for f in entry["findings"]]
    new = [f["id"] for f in found if f["id"] not in accepted]
    if write_baseline:
        try:
            write_whole(Path(write_baseline), [yaml.safe_dump({"accepted": sorted(f["id"] for f in found)})])
        except OSError as exc:
            raise InputError(f"cannot write the baseline: {exc.strerror}", file=str(write_baseline),
                             field="--write-baseline") from None
    code = (1 if new else 0) if baseline else (1 if any(f["severity"] == "error" for f in found) else 0)
    return ConsistencyResult(report, new, [str(p) for p in paths], sorted(accepted) if baseline else [], code)
