"""The `pyengine` command line: check scenario files, explain answers, list readings and rules.

Exit codes: 0 all expectations hold, 1 an expectation failed, 2 bad input (nothing else is printed then).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from pyengine import kb as kbase
from pyengine.engine import answer
from pyengine.errors import InputError, InputErrors, closest
from pyengine.games import registry
from pyengine.limits import DEFAULT_LIMITS, limits
from pyengine.render import answer_data, explain
from pyengine.scenario import Scenario, check_readings, load_scenario, scenario_files
from pyengine.store import STORE_ENV
from pyengine.yamlio import load_file


def _parse_overrides(args: argparse.Namespace, scenario: Scenario) -> dict[str, str]:
    """The command line's profile and readings that belong to this scenario's game."""
    kb = kbase.load(scenario.game.name)
    chosen: dict[str, str] = {}
    if args.profile and args.profile in kb.profiles:
        chosen.update(kb.profiles[args.profile])
    for name, value in args.reading_pairs:
        if name in kb.readings:
            chosen[name] = value
    return chosen


def _validate_options(args: argparse.Namespace) -> None:
    games = list(registry())
    kbs = [kbase.load(g) for g in games]
    args.reading_pairs = []
    for text in getattr(args, "reading", None) or []:
        name, sep, value = text.partition("=")
        if not sep:
            raise InputError(f"--reading {text!r} has no '='", field="--reading", expected="NAME=VALUE")
        owner = next((kb for kb in kbs if name in kb.readings), None)
        all_names = [n for kb in kbs for n in kb.readings]
        if owner is None:
            raise InputError(f"unknown reading {name!r}", field="--reading", expected="a name from `pyengine readings`",
                             suggestion=closest(name, all_names))
        check_readings({name: value}, owner, None, "--reading")
        args.reading_pairs.append((name, value))
    profile = getattr(args, "profile", None)
    if profile:
        profiles = {p for kb in kbs for p in kb.profiles}
        if profile not in profiles:
            raise InputError(f"unknown profile {profile!r}", field="--profile",
                             expected="one of " + ", ".join(sorted(profiles)), suggestion=closest(profile, profiles))


def _load_all(paths: list[str]) -> list[Scenario]:
    files = scenario_files([Path(p) for p in paths])
    if not files:
        raise InputError("no scenario files found", field="PATH", expected="YAML files or folders holding them")
    errors: list[InputError] = []
    scenarios = []
    for file in files:
        try:
            scenarios.append(load_scenario(file))
        except InputError as error:
            errors.append(error)
    if errors:
        raise InputErrors(errors)
    return scenarios


def _progress(done: int, total: int, started: float) -> None:
    """A progress line on a terminal, for runs that take longer than a second."""
    if sys.stderr.isatty() and total > 1 and time.monotonic() - started > 1.0:
        print(f"\rchecked {done}/{total}", end="" if done < total else "\n", file=sys.stderr, flush=True)


def _check_file(job: tuple[str, list[tuple[str, str]], str | None]) -> dict[str, Any]:
    """Check one scenario file: its report entry, or its input errors (run in worker processes too)."""
    path, reading_pairs, profile = job
    try:
        scenario = load_scenario(Path(path))
        options = argparse.Namespace(reading_pairs=reading_pairs, profile=profile)
        answers = answer(scenario, _parse_overrides(options, scenario))
    except InputError as error:
        return {"errors": [str(error)]}
    except InputErrors as errors:
        return {"errors": [str(e) for e in errors.errors]}
    return {"file": scenario.path, "title": scenario.title, "questions": [answer_data(scenario, a) for a in answers]}


def _run_jobs(function: Any, jobs: list[Any], workers: int) -> list[dict[str, Any]]:
    """Run jobs in order, on `workers` processes when more than one; workers are recycled every 500 tasks,
    because clingo keeps every symbol it has seen for the life of a process."""
    started = time.monotonic()
    results: list[dict[str, Any]] = []
    if workers <= 1 or len(jobs) < 2:
        for job in jobs:
            results.append(function(job))
            _progress(len(results), len(jobs), started)
        return results
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(workers, maxtasksperchild=500) as pool:
        for result in pool.imap(function, jobs, chunksize=max(1, min(50, len(jobs) // (workers * 4)))):
            results.append(result)
            _progress(len(results), len(jobs), started)
    return results


def _raise_errors(results: list[dict[str, Any]]) -> None:
    errors = [e for r in results for e in r.get("errors", [])]
    if errors:
        raise InputErrors([InputError(e) for e in errors])


def cmd_check(args: argparse.Namespace) -> int:
    files = scenario_files([Path(p) for p in args.paths])
    if not files:
        raise InputError("no scenario files found", field="PATH", expected="YAML files or folders holding them")
    results = _run_jobs(_check_file, [(str(f), args.reading_pairs, args.profile) for f in files], args.jobs)
    _raise_errors(results)
    passed = failed = 0
    for result in results:
        for entry in result["questions"]:
            if entry["passed"]:
                passed += 1
                continue
            failed += 1
            if not args.json:
                reasons = ", ".join(entry["rules"]) or "none"
                failures = "; ".join(entry["failures"])
                print(f"FAIL {result['file']} [{entry['question']}]: {failures} (reasons: {reasons})")
    if args.json:
        print(json.dumps({"passed": passed, "failed": failed, "scenarios": results}, indent=2, ensure_ascii=False))
    else:
        print(f"{passed} passed, {failed} failed ({len(results)} scenario files)")
    return 1 if failed else 0


def cmd_explain(args: argparse.Namespace) -> int:
    scenario = _load_all([args.file])[0]
    answers = answer(scenario, _parse_overrides(args, scenario))
    if args.question:
        answers = [a for a in answers if a.question.id == args.question]
        if not answers:
            ids = [q.id for q in scenario.questions]
            raise InputError(f"no question {args.question!r} in {args.file}", field="--question",
                             expected="one of " + ", ".join(ids), suggestion=closest(args.question, ids))
    if args.json:
        print(json.dumps({"file": scenario.path, "title": scenario.title,
                          "questions": [answer_data(scenario, a) for a in answers]}, indent=2, ensure_ascii=False))
    else:
        print(explain(scenario, answers))
    return 1 if any(a.failures() for a in answers) else 0


def _deck_file(job: tuple[str, str | None, str | None, list[tuple[str, str]], str | None]) -> dict[str, Any]:
    """Validate one decklist file: its result, or its input errors (run in worker processes too)."""
    from pyengine.decks import load_deck

    path, game, catalog, reading_pairs, profile = job
    try:
        deck = load_deck(Path(path), game, catalog)
        options = argparse.Namespace(reading_pairs=reading_pairs, profile=profile)
        [result] = answer(deck, _parse_overrides(options, deck))
    except InputError as error:
        return {"errors": [str(error)]}
    except InputErrors as errors:
        return {"errors": [str(e) for e in errors.errors]}
    data = answer_data(deck, result)
    return {"file": deck.path, "valid": result.verdict == "valid", "verdict": result.verdict,
            "reasons": data["reasons"], "rested_on": data["rested_on"], "readings": data["readings"]}


def cmd_deck(args: argparse.Namespace) -> int:
    jobs = [(f, args.game, args.catalog, args.reading_pairs, args.profile) for f in args.files]
    results = _run_jobs(_deck_file, jobs, args.jobs)
    _raise_errors(results)
    if args.json:
        print(json.dumps({"decks": results}, indent=2, ensure_ascii=False))
    else:
        for entry in results:
            print(f"{entry['file']}: {entry['verdict']}")
            for reason in entry["reasons"]:
                sources = ", ".join(f"{s['document']} {s['paragraph']}" for s in reason["sources"])
                print(f"  {reason['rule']} ({sources}): {reason['state']}")
            if entry["rested_on"]:
                print("  rested on readings: " + ", ".join(f"{n}={v}" for n, v in sorted(entry["rested_on"].items())))
    return 0 if all(entry["valid"] for entry in results) else 1


def cmd_edge_cases(args: argparse.Namespace) -> int:
    from pyengine.search import Side, parse_side, scenario_of, search

    if sum(map(bool, (args.compare, args.decisive))) != 1:
        raise InputError("say what to compare", field="--compare", expected="--compare A B, or --decisive RULE")
    if args.compare:
        a, b = (parse_side(args.game, text) for text in args.compare)
    else:
        rules = kbase.load(args.game).rules
        if args.decisive not in rules:
            raise InputError(f"unknown rule {args.decisive!r}", field="--decisive",
                             expected="a rule id (pyengine rules)", suggestion=closest(args.decisive, rules))
        a, b = Side("with"), Side(f"without {args.decisive}", without_rule=args.decisive)
    started = time.monotonic()
    limit = 10_000 if args.all else args.limit
    findings = search(args.game, a, b, args.max_cards, args.max_instances or args.max_cards, limit,
                      all_models=args.all, progress=lambda n: _progress(n, limit, started))
    shapes = sorted({s for f in findings for s in f.shapes})
    out = Path(args.out) if args.out else None
    results = []
    for number, finding in enumerate(findings, 1):
        title = f"{args.game}: {a.label} against {b.label}, state {number}"
        scenario = scenario_of(args.game, finding, a, b, title)
        entry: dict[str, Any] = {"shapes": [list(s) for s in finding.shapes], "scenario": scenario}
        if out:
            out.mkdir(parents=True, exist_ok=True)
            path = out / f"{args.game}-{number:03d}.yaml"
            path.write_text(yaml.safe_dump(scenario, sort_keys=False, allow_unicode=True), encoding="utf-8")
            entry["file"] = str(path)
        results.append(entry)
    if args.json:
        print(json.dumps({"game": args.game, "a": a.label, "b": b.label, "max_cards": args.max_cards,
                          "states": len(findings), "shapes": [list(s) for s in shapes], "findings": results},
                         indent=2, ensure_ascii=False))
        return 0
    if not findings:
        print(f"{a.label} and {b.label} give the same verdict on every state of up to {args.max_cards} cards and "
              f"{args.max_instances or args.max_cards} instances: within these bounds the choice makes no difference.")
        return 0
    print(f"{len(findings)} states where {a.label} and {b.label} disagree ({len(shapes)} shapes):")
    for number, entry in enumerate(results, 1):
        where = f" -> {entry['file']}" if "file" in entry else ""
        kinds = "; ".join(f"{k} {va}/{vb} by {r}" for k, va, vb, r in entry["shapes"])
        print(f"  {number}. {kinds}{where}")
    return 0


def cmd_flip(args: argparse.Namespace) -> int:
    from pyengine.flip import flip, flip_data

    scenario = _load_all([args.file])[0]
    data = flip_data(scenario, flip(scenario, args.question, _parse_overrides(args, scenario)), args.question)
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    if not data["flippable"]:
        print(f"[{args.question}] no change the game's flip program allows turns this verdict around")
        return 0
    print(f"[{args.question}] {data['before']['verdict']} -> {data['after']['verdict']} with "
          f"{len(data['changes'])} change(s):")
    for change in data["changes"]:
        print(f"  {change}")
    print(f"  now decided by: {', '.join(data['after']['rules']) or 'no rule'}")
    for entry in data["necessary_because"]:
        print(f"  necessary because of {entry['rule']}: {entry['statement']}")
    return 0


def cmd_consistency(args: argparse.Namespace) -> int:
    import os

    from pyengine.consistency import check, games_documents

    known = games_documents()
    for document in args.documents:
        if document not in known:
            raise InputError(f"unknown document {document!r}", field="DOC", expected="one of " + ", ".join(known),
                             suggestion=closest(document, known))
    docs = Path(args.docs or os.environ.get("PYENGINE_DOCS") or "")
    if not (args.docs or os.environ.get("PYENGINE_DOCS")) or not docs.is_dir():
        raise InputError(f"no rules documents folder at {str(docs) or '(none given)'}", field="--docs",
                         expected="--docs DIR or PYENGINE_DOCS naming the folder of the rules documents")
    scenarios = [Path(p) for p in (args.scenarios or ["examples", "tests/scenarios"])]
    report = check(args.documents or known, docs, scenarios, not args.no_search, args.deep)
    accepted: set[str] = set()
    if args.baseline:
        data = load_file(Path(args.baseline))
        if not isinstance(data, dict) or not isinstance(data.get("accepted"), list):
            raise InputError("a baseline holds `accepted:`, a list of finding ids", file=args.baseline,
                             expected="accepted: [reading:lotr_mumak_direction, ...]")
        accepted = {str(i) for i in data["accepted"]}
    findings = [f for entry in report for f in entry["findings"]]
    new = [f for f in findings if f["id"] not in accepted]
    if args.write_baseline:
        Path(args.write_baseline).write_text(yaml.safe_dump({"accepted": sorted(f["id"] for f in findings)}),
                                             encoding="utf-8")
    if args.json:
        print(json.dumps({"documents": report, "new": [f["id"] for f in new]}, indent=2, ensure_ascii=False))
    else:
        for entry in report:
            print(f"{entry['document']}: {entry['paragraphs']} paragraphs, {entry['normative']} normative, "
                  f"{entry['covered']} covered, {len(entry['findings'])} findings")
            for finding in entry["findings"]:
                mark = "" if finding["id"] in accepted else " [new]" if args.baseline else ""
                paras = f" ({', '.join(finding['paragraphs'])})" if finding["paragraphs"] else ""
                print(f"  {finding['severity']}: {finding['id']}{mark}{paras}: {finding['statement']}")
    if args.baseline:
        return 1 if new else 0
    return 1 if any(f["severity"] == "error" for f in findings) else 0


def _games(args: argparse.Namespace) -> list[str]:
    return [args.game] if args.game else list(registry())


def cmd_readings(args: argparse.Namespace) -> int:
    data: list[dict[str, Any]] = []
    for game in _games(args):
        kb = kbase.load(game)
        document = registry()[game].document
        for reading in sorted(kb.readings.values(), key=lambda r: r.name):
            data.append({"game": game, "reading": reading.name, "question": reading.text, "default": reading.default,
                         "choices": [{"value": c.value, "statement": c.text, "document": document,
                                      "paragraphs": c.paragraphs} for c in reading.choices.values()],
                         "profiles": {p: v[reading.name] for p, v in sorted(kb.profiles.items()) if reading.name in v}})
    if args.json:
        print(json.dumps({"readings": data}, indent=2, ensure_ascii=False))
        return 0
    for entry in data:
        print(f"{entry['reading']} ({entry['game']}): {entry['question']}")
        for choice in entry["choices"]:
            mark = " [default]" if choice["value"] == entry["default"] else ""
            paras = ", ".join(choice["paragraphs"])
            print(f"  {choice['value']}{mark}: {choice['statement']} ({choice['document']} {paras})")
        if entry["profiles"]:
            print("  profiles: " + ", ".join(f"{p}={v}" for p, v in entry["profiles"].items()))
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    data = []
    for game in _games(args):
        for rule in sorted(kbase.load(game).rules.values(), key=lambda r: r.id):
            data.append({"game": game, "rule": rule.id, "statement": rule.text,
                         "sources": [{"document": d, "paragraph": p} for d, p in rule.sources],
                         "readings": [{"reading": n, "choice": v} for n, v in rule.readings]})
    if args.json:
        print(json.dumps({"rules": data}, indent=2, ensure_ascii=False))
        return 0
    for entry in data:
        sources = ", ".join(f"{s['document']} {s['paragraph']}" for s in entry["sources"])
        only = "".join(f" [only under {r['reading']}={r['choice']}]" for r in entry["readings"])
        print(f"{entry['rule']}: {entry['statement']}{only}\n    sources: {sources}")
    return 0


def cmd_facts(args: argparse.Namespace) -> int:
    scenario = _load_all([args.file])[0]
    answers = answer(scenario, _parse_overrides(args, scenario))
    seen: list[str] = []
    for a in answers:
        seen.extend(f for f in a.facts if f not in seen)
    if args.json:
        print(json.dumps({"file": scenario.path, "facts": seen}, indent=2, ensure_ascii=False))
    else:
        print("\n".join(seen))
    return 0


def _print_gemp_report(report: dict[str, Any]) -> None:
    official = report["official"]
    print(f"entries: {report['entries']} ({official['entries']} official, {report['unofficial_entries']} unofficial)")
    print(f"official: {official['unique']} unique, {official['distinct_stored_titles']} distinct stored titles "
          f"({official['distinct_printed_titles']} printed), {official['stored_titles_shared_by_several_cards']} "
          "titles shared by several cards")
    for key, label in (("titles_mixing_uniqueness", "titles mixing unique and non-unique"),
                       ("titles_mixing_sides", "titles mixing sides")):
        names = "; ".join(f"{t['title']} ({', '.join(t['cards'])})" for t in official[key])
        print(f"official {label}: {len(official[key])}: {names}")
    print(f"official titles mixing types: {official['titles_mixing_types']}")
    edits = "; ".join(f"{e['card']} stored {e['stored']!r}, printed {e['printed']!r}" for e in report["title_edits"])
    print(f"GEMP title edits: {len(report['title_edits'])}: {edits}")
    spelling = report["titles_differing_only_in_spelling"]
    print(f"title groups differing only in accents, case or spacing: {len(spelling)}, e.g. "
          + "; ".join(" / ".join(g["titles"]) for g in spelling[:4]))
    shared = report["collinfo_shared_by_different_titles"]
    print(f"collector's info shared by different titles: {len(shared)}, e.g. "
          + "; ".join(f"{g['collinfo']}: {' / '.join(g['titles'])}" for g in shared[:3]))
    limits = report["unique_limits_not_in_the_document"]
    print(f"'at most N copies' uniqueness (not covered by the document, treated as unique): {len(limits)}")
    for entry in report["invariant_breaks"]:
        print(f"breaks {entry['rule']} ({', '.join(entry['paragraphs'])}): {entry['card']} {entry['title']}")


def _print_marvelsdb_report(report: dict[str, Any]) -> None:
    print(f"entries: {report['entries']} ({report['cards']} cards, {report['reprint_stubs']} reprint stubs "
          "resolved to their originals)")
    by_type = ", ".join(f"{n} {t}" for t, n in report["unique_by_type"].items())
    print(f"unique: {report['unique']} ({by_type}); {report['unique_allies_without_subtitle']} unique allies "
          "without subtitle")
    print(f"heroes not marked unique (treated as unique, p5/p7): {', '.join(report['heroes_not_marked_unique'])}")
    print(f"unique player cards without deck_limit: {report['unique_player_cards_without_deck_limit']}; "
          f"non-unique player cards with deck_limit 1: {report['non_unique_player_cards_with_deck_limit_1']}")
    print("names differing only in spelling: " + "; ".join(" / ".join(g) for g in
                                                            report["names_differing_only_in_spelling"]))
    for v in report["alter_ego_and_ally_subtitle_variants"]:
        print(f"one person spelt two ways: alter ego {v['alter_ego']!r} of {v['hero']}, "
              f"ally {v['ally']} subtitled {v['subtitle']!r}")
    for v in report["german_respellings_of_alter_egos"]:
        print(f"German re-spelling: ally {v['ally']} subtitled {v['german_subtitle']!r}, alter ego {v['alter_ego']!r}")
    print(f"unique characters without a German entry: {report['unique_characters_without_german_entry']}")


def cmd_import(args: argparse.Namespace) -> int:
    from pyengine import store
    from pyengine.importers import gemp, marvelsdb

    started = time.monotonic()

    def progress(done: int, total: int) -> None:
        _progress(done, total, started)

    if args.source == "gemp":
        cards = gemp.read_cards(Path(args.path), progress=progress)
        report, game, printer = gemp.report(cards), "lotr", _print_gemp_report
    else:
        cards, report = marvelsdb.read_cards(Path(args.path), progress=progress)
        game, printer = "marvel", _print_marvelsdb_report
    path = store.write_source(args.source, game, str(Path(args.path).resolve()), cards, report)
    if args.json:
        print(json.dumps({"source": args.source, "store": str(path), "report": report}, indent=2, ensure_ascii=False))
    else:
        print(f"imported {len(cards)} cards as catalog {args.source!r} into {path}")
        printer(report)
    return 0


def _positive_int(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return int(text)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pyengine", description=(
        "A rules knowledge base for card games, in Answer Set Programming: says whether a play, a deck or an "
        "action is legal and why, down to the paragraph of the rules document."))
    parser.add_argument("--max-instances", type=_positive_int, default=DEFAULT_LIMITS.max_instances, metavar="N",
                        help=f"refuse states with more than N card instances (default {DEFAULT_LIMITS.max_instances})")
    parser.add_argument("--timeout", type=_positive_float, default=DEFAULT_LIMITS.solve_seconds, metavar="SECONDS",
                        help=f"stop a solve that runs longer (default {DEFAULT_LIMITS.solve_seconds:g})")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def readings_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--reading", action="append", metavar="NAME=VALUE",
                       help="choose a reading for this run (repeatable); wins over the scenario's choices")
        p.add_argument("--profile", help="choose a named set of readings (see `pyengine readings`)")
        p.add_argument("--json", action="store_true", help="print the results as JSON")

    check = sub.add_parser("check", help="run scenario files and compare the answers with their expectations")
    check.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders of them")
    check.add_argument("--jobs", type=_positive_int, default=1, metavar="N", help="check on N processes")
    readings_options(check)
    check.set_defaults(func=cmd_check)

    exp = sub.add_parser("explain", help="explain each answer: verdict <- rule <- paragraph <- state")
    exp.add_argument("file", metavar="FILE")
    exp.add_argument("--question", help="only this question id")
    readings_options(exp)
    exp.set_defaults(func=cmd_explain)

    games = sorted(registry())
    dk = sub.add_parser("deck", help="validate decklist files (YAML, or text lines like '4 Sting (1R313)'); "
                                     "exit 1 when one is invalid")
    dk.add_argument("files", nargs="+", metavar="FILE")
    dk.add_argument("--game", choices=games, help="the game, for decklists that do not say")
    dk.add_argument("--catalog", help="the catalog the cards are named in: builtin, or an imported one (gemp)")
    dk.add_argument("--jobs", type=_positive_int, default=1, metavar="N", help="validate on N processes")
    readings_options(dk)
    dk.set_defaults(func=cmd_deck)

    rd = sub.add_parser("readings", help="list the readings, their choices, defaults and paragraphs")
    rd.add_argument("--game", choices=games)
    rd.add_argument("--json", action="store_true", help="print the results as JSON")
    rd.set_defaults(func=cmd_readings)

    rl = sub.add_parser("rules", help="list the declared rules with their document paragraphs")
    rl.add_argument("--game", choices=games)
    rl.add_argument("--json", action="store_true", help="print the results as JSON")
    rl.set_defaults(func=cmd_rules)

    imp = sub.add_parser("import", help="import a public card database into the local catalog store "
                                        f"(set {STORE_ENV} to choose where)")
    imp.add_argument("source", choices=["gemp", "marvelsdb"],
                     help="gemp: GEMP's LOTR TCG card files (HJSON); marvelsdb: MarvelCDB's JSON data")
    imp.add_argument("path", metavar="PATH", help="the card database folder (e.g. a clone's cards/)")
    imp.add_argument("--json", action="store_true", help="print the data report as JSON")
    imp.set_defaults(func=cmd_import)

    ec = sub.add_parser("edge-cases", help="search, with clingo, the smallest states where two readings or "
                                           "profiles disagree, or where one rule alone decides a verdict")
    ec.add_argument("--game", choices=games, required=True)
    ec.add_argument("--compare", nargs=2, metavar=("A", "B"),
                    help="two sides: default, a profile, or READING=CHOICE[,READING=CHOICE]")
    ec.add_argument("--decisive", metavar="RULE", help="states where this rule alone decides a verdict")
    ec.add_argument("--all", action="store_true", help="every distinct disagreement within the bounds, counted")
    ec.add_argument("--max-cards", type=_positive_int, default=3, metavar="N", help="cards in a state (default 3)")
    ec.add_argument("--max-instances", type=_positive_int, default=None, metavar="N",
                    help="card instances in a state (default: as many as cards)")
    ec.add_argument("--limit", type=_positive_int, default=20, metavar="N", help="at most N states (default 20)")
    ec.add_argument("--out", metavar="DIR", help="write each state as a scenario file there")
    ec.add_argument("--json", action="store_true", help="print the results as JSON")
    ec.set_defaults(func=cmd_edge_cases)

    co = sub.add_parser("consistency", help="check the rules documents: coverage, drift, contradictions, dead "
                                            "rules, and the Allies document's lint")
    co.add_argument("documents", nargs="*", metavar="DOC", help="document ids (default: every document encoded)")
    co.add_argument("--docs", metavar="DIR", help="the folder of the rules documents (or set PYENGINE_DOCS)")
    co.add_argument("--scenarios", nargs="+", metavar="PATH",
                    help="scenario folders (default: examples, tests/scenarios)")
    co.add_argument("--no-search", action="store_true", help="skip the states the edge-case search finds")
    co.add_argument("--deep", action="store_true", help="also search for dead and redundant rules (slow)")
    co.add_argument("--baseline", metavar="FILE",
                    help="accepted findings: exit 0 when nothing new appears, 1 otherwise")
    co.add_argument("--write-baseline", metavar="FILE", help="write every finding of this run as accepted")
    co.add_argument("--json", action="store_true", help="print the report as JSON")
    co.set_defaults(func=cmd_consistency)

    fl = sub.add_parser("flip", help="the smallest change to a scenario's state that turns a verdict around")
    fl.add_argument("file", metavar="FILE")
    fl.add_argument("--question", required=True, help="the question id")
    readings_options(fl)
    fl.set_defaults(func=cmd_flip)

    fa = sub.add_parser("facts", help="print the facts a scenario becomes (for implementers and debugging)")
    fa.add_argument("file", metavar="FILE")
    readings_options(fa)
    fa.set_defaults(func=cmd_facts)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    limits.max_instances = args.max_instances
    limits.solve_seconds = args.timeout
    try:
        _validate_options(args)
        return int(args.func(args))
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except InputErrors as errors:
        for error in errors.errors:
            print(f"error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
