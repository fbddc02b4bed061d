"""The commands of `pyengine`: each calls the API and prints its result, as text or with --json exactly the
result's to_json()."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyengine.cli.junit import write_junit_xml
from pyengine.cli.progress import progress
from pyengine.core.errors import InputError
from pyengine.core.files import check_out_folder, output_file, write_whole
from pyengine.core.limits import DEFAULT_LIMITS
from pyengine.core.resources import existing_dirs, scenario_dirs
from pyengine.core.results import FileErrors, ScenarioResult
from pyengine.games import SOURCES, importer

if TYPE_CHECKING:
    import socket


def _api() -> Any:
    """pyengine.api, imported when a command first needs it (so that --help starts without clingo)."""
    from pyengine import api

    return api


# The options naming an output file, and those naming a folder a command fills, by command (a step of
# `conformance` as `conformance STEP`).
OUTPUT_FILES = {"check": ("junit_xml",), "census": ("report",), "board": ("svg", "snapshot"),
                "consistency": ("write_baseline",), "conformance export": ("out",)}
OUTPUT_FOLDERS = {"census": ("out",), "edge-cases": ("out",), "conformance compare": ("out",)}


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse, before any work, an output path the command could not write or must not replace
    (pyengine.core.files): each output file's option becomes the path written (a link's target where
    --through-links asks for it)."""
    name = " ".join(n for n in (args.command, getattr(args, "kit", None)) if n)
    for key in OUTPUT_FILES.get(name, ()):
        if getattr(args, key, None):
            option = "--" + key.replace("_", "-")
            setattr(args, key, output_file(Path(getattr(args, key)), option, getattr(args, "through_links", False)))
    for key in OUTPUT_FOLDERS.get(name, ()):
        if getattr(args, key, None):
            check_out_folder(Path(getattr(args, key)))


def reading_pairs(args: argparse.Namespace) -> dict[str, str]:
    """The `--reading NAME=VALUE` options as a mapping (validated by the API)."""
    chosen: dict[str, str] = {}
    for text in getattr(args, "reading", None) or []:
        name, sep, value = text.partition("=")
        if not sep:
            raise InputError(f"--reading {text!r} has no '='", field="--reading", expected="NAME=VALUE")
        chosen[name] = value
    return chosen


def _print_errors(files: list[FileErrors]) -> None:
    """Each error of the files that could not be answered, a line each on standard error."""
    for entry in files:
        for error in entry.errors:
            print(f"error: {error.text}", file=sys.stderr)


def _with_errors(summary: str, files: list[FileErrors]) -> str:
    return summary + (f"; {len(files)} file{'s' if len(files) != 1 else ''} not answered (errors above)"
                      if files else "")


def cmd_check(args: argparse.Namespace) -> int:
    from pyengine.core.yamlio import read_stream
    from pyengine.run import lastfailed
    from pyengine.run.bulk import STDIN

    paths = [p for p in args.paths if p != "-"]
    # `-` is one scenario read from standard input, as test runners and clingo take it.
    text = read_stream(sys.stdin.buffer, STDIN, "standard input") if "-" in args.paths else None
    failed = lastfailed.recorded() if args.last_failed else {}
    if args.last_failed and not failed:
        print("no failures recorded by the last check here: checking every file", file=sys.stderr)
    only = sorted(failed) if failed else None
    with progress("checking", "files") as shown:
        result = _api().check(paths, args.readings, args.profile, args.jobs, shown, args.dask, text,
                              args.exitfirst, only, args.catalog)
    checked = {str(Path(s.file).resolve()) for s in result.scenarios} | {str(Path(e.file).resolve())
                                                                        for e in result.errors}
    unrecorded = lastfailed.record(result, checked)
    if unrecorded:
        print(f"warning: {unrecorded}", file=sys.stderr)
    if failed:
        result = lastfailed.only_failed(result, failed)
    if args.stats:
        from pyengine.run.bulk import with_statistics

        result = with_statistics(result, args.readings, args.profile, args.catalog)
    if args.keywords:
        from pyengine.run.bulk import selected

        result = selected(result, args.keywords)
    if args.reset:
        return _reset(result, args)
    if args.junit_xml:
        try:
            write_junit_xml(result, args.junit_xml)
        except OSError as error:
            raise InputError(f"cannot write the report: {error.strerror}", file=str(args.junit_xml),
                             field="--junit-xml", expected="a file in a folder this user may write") from None
    _print_errors(result.errors)
    if args.json:
        result.write_json(sys.stdout)
        print()
        return result.exit_code
    for scenario in result.scenarios:
        for entry in scenario.questions:
            if not entry.passed:
                reasons = ", ".join(entry.rules) or "none"
                print(f"FAIL {scenario.file} [{entry.question}]: {'; '.join(entry.failures)} (reasons: {reasons})")
            if entry.stats:
                s = entry.stats
                print(f"  stats {scenario.file} [{entry.question}]: {s['ground_atoms']:,.0f} ground atoms, "
                      f"{s['rules']:,.0f} rules, {s['choices']:,.0f} choices, {s['conflicts']:,.0f} conflicts, "
                      f"{s['seconds'] * 1000:.1f} ms (its unit of {s['questions']:.0f} questions, solved alone)")
    if result.scenarios:
        unchecked = f", {result.unchecked} answered without an expectation" if result.unchecked else ""
        print(_with_errors(f"{result.passed} passed, {result.failed} failed{unchecked} "
                           f"({len(result.scenarios)} scenario files)", result.errors))
    if result.not_checked:
        print(f"stopped at the first failing file (-x): {result.not_checked} files not checked")
    if failed:
        print(f"--last-failed: the {len(failed)} files that failed in the last check here")
    return result.exit_code


def _reset(result: Any, args: argparse.Namespace) -> int:
    """`check --reset`: each file's answers written as its expectations (pyengine.run.reset); exit 0 when every
    file answered now holds, 1 when one could not be rewritten, the files' own code when one could not be read."""
    from pyengine.run.bulk import STDIN, check_text
    from pyengine.run.reset import reset_file

    def holds(name: str) -> Any:
        def check(text: str) -> bool:
            again = check_text(text, name, args.readings, args.profile, args.catalog)
            return isinstance(again, ScenarioResult) and all(q.passed and not q.unchecked for q in again.questions)
        return check

    _print_errors(result.errors)
    changed, files, kept = 0, 0, []
    for scenario in result.scenarios:
        if scenario.file == STDIN:
            kept.append(f"{STDIN}: standard input is not a file to rewrite")
            continue
        try:
            count = reset_file(Path(scenario.file), scenario, holds(scenario.file))
        except InputError as error:
            kept.append(str(error))
            continue
        changed += count
        files += bool(count)
    for message in kept:
        print(f"not reset: {message}", file=sys.stderr)
    print(f"reset {changed} questions in {files} files ({len(result.scenarios)} scenario files answered)")
    return max([1 if kept else 0, *(e.exit_code for e in result.errors)])


def cmd_explain(args: argparse.Namespace) -> int:
    result = _api().explain(Path(args.file), args.question, args.readings, args.profile)
    print(result.to_json() if args.json else result.text)
    return 0 if result.passed else 1


def cmd_plays(args: argparse.Namespace) -> int:
    result = _api().plays(Path(args.file), args.player, args.readings, args.profile)
    print(result.to_json() if args.json else result.text)
    return 0


def cmd_deck(args: argparse.Namespace) -> int:
    with progress("validating", "decklists") as shown:
        result = _api().check_decks(args.files, args.game, args.catalog, args.readings, args.profile, args.jobs,
                                    shown, args.dask)
    _print_errors(result.errors)
    if args.json:
        result.write_json(sys.stdout)
        print()
    else:
        for entry in result.decks:
            print(f"{entry.file}: {entry.verdict}")
            for words in entry.printings or []:
                print(f"  card name: {words}")
            for reason in entry.reasons:
                sources = ", ".join(f"{s.document} {s.paragraph}" for s in reason.sources)
                print(f"  {reason.rule} ({sources}): {reason.evidence}")
            if entry.rested_on:
                print("  rested on readings: " + ", ".join(f"{n}={v}" for n, v in sorted(entry.rested_on.items())))
    return result.exit_code


def cmd_edge_cases(args: argparse.Namespace) -> int:
    with progress("searching", "states found") as shown:
        result = _api().edge_cases(args.game, tuple(args.compare) if args.compare else None, args.decisive, args.all,
                                   args.max_cards, args.instances, args.limit, args.out, shown)
    if args.json:
        print(result.to_json())
        return 0
    if not result.findings:
        print(f"{result.a} and {result.b} give the same verdict on every state of up to {result.max_cards} cards and "
              f"{result.max_instances} instances: within these bounds the choice makes no difference.")
        return 0
    print(f"{result.states} states where A ({result.a}) and B ({result.b}) disagree ({len(result.shapes)} shapes):")
    owner = {"a": "A's rule", "b": "B's rule", "both": "both sides' rule"}
    for number, entry in enumerate(result.findings, 1):
        where = f" -> {entry['file']}" if "file" in entry else ""
        kinds = "; ".join(f"{k}: A says {va}, B says {vb}, by {r} ({owner[side]})"
                          for (k, va, vb, r), side in zip(entry["shapes"], entry["shape_sides"], strict=True))
        print(f"  {number}. {kinds}{where}")
    return 0


def cmd_census(args: argparse.Namespace) -> int:
    from pyengine.tools.census import markdown

    if args.terms:
        return _census_terms(args)
    with progress("counting", "pairs") as shown:
        result = _api().census(args.game, args.catalog, tuple(args.compare) if args.compare else None, args.out,
                               states=args.states, tries=args.tries, progress=shown)
    if args.report:
        write_output(args.report, markdown(result), "--report")
    if args.json:
        result.write_json(sys.stdout)
        print()
        return 0
    print(f"{result.game} on {result.catalog} ({result.pool_cards} cards), {len(result.pairs)} pairs in "
          f"{result.seconds:g} s:")
    for entry in result.pairs:
        types = ", ".join(f"{n} {t}" for t, n in entry["by_type"].items())
        cut = {"states": f" (stopped at --states {args.states}: there may be more)",
               "tries": f" (stopped at --tries {args.tries}: there may be more)",
               "time": " (stopped at the time limit: there may be more)"}.get(entry["stopped_by"], "")
        print(f"  {entry['a']} against {entry['b']}: {entry['classes_found']} classes, {entry['cards']} cards"
              + (f" ({types})" if types else "") + (f" - {entry['why_none']}" if "why_none" in entry else "") + cut)
        for label in entry["examples"]:
            print(f"      {label}")
        for gap in entry.get("gaps", []):
            print(f"    {gap['ask']} {gap['a']} / {gap['b']} by {', '.join(gap['a_rules']) or 'no rule'} / "
                  f"{', '.join(gap['b_rules']) or 'no rule'}: {gap['classes']} classes, {gap['cards']} cards; "
                  f"smallest {gap['smallest']}")
    if result.files:
        print(f"{len(result.files)} real tables written to {args.out}")
    return 0


def _census_terms(args: argparse.Namespace) -> int:
    """`census --terms PATH`: the census of the terms of the game's card data; exit 1 where a term is dropped."""
    from pyengine.tools import term_census

    source = next(s for s, game in SOURCES.items() if game == args.game)
    with progress("reading", "files") as shown:
        result = term_census.term_census(source, args.terms, progress=shown)
    text = term_census.markdown(result)
    if args.report:
        write_output(args.report, text, "--report")
    if args.json:
        json.dump(result.to_dict(), sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        print(f"{result.source}: {result.cards} cards in {result.seconds:g} s")
        for kind, counts in sorted(result.by_kind().items()):
            print(f"  {kind}: " + ", ".join(f"{counts[s]} {s}" for s in term_census.STATUSES if counts.get(s)))
        for kind, term in result.dropped():
            print(f"  dropped: {kind} {term}")
    return 1 if result.dropped() else 0


def write_output(path: str, text: str, option: str) -> None:
    """An output file the command was asked for, written whole or not at all (pyengine.core.files)."""
    try:
        write_whole(Path(path), [text])
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror}", file=path, field=option) from None


def cmd_board(args: argparse.Namespace) -> int:
    if args.snapshot and args.svg:
        raise InputError("--snapshot and --svg write one file each: ask for one at a time", field="--snapshot",
                         expected="board FILE --snapshot OUT.yaml, or board FILE --svg OUT.svg")
    if args.snapshot:
        snapshot = _api().snapshot(Path(args.file), args.moment, args.readings, args.profile)
        write_output(args.snapshot, snapshot.yaml, "--snapshot")
        if args.json:
            print(snapshot.to_json())
        else:
            print(f"moment {snapshot.moment} of {snapshot.file} written as a table in {args.snapshot}")
        return 0
    result = _api().board(Path(args.file), args.readings, args.profile, args.moment)
    if args.svg:
        write_output(args.svg, result.svg(result.moments[-1].moment), "--svg")
    if args.json:
        result.write_json(sys.stdout)
        print()
        return 0
    print(result.text)
    if args.svg:
        print(f"moment {result.moments[-1].moment} drawn in {args.svg}")
    return 0


def cmd_flip(args: argparse.Namespace) -> int:
    with progress("searching for a change", "searches") as shown:
        result = _api().flip(Path(args.file), args.question, args.readings, args.profile, shown)
    if args.json:
        print(result.to_json())
        return 0
    if not result.flippable or result.before is None or result.after is None:
        print(f"[{args.question}] no change turns this verdict around: none of the changes flip may make to the "
              "state (`pyengine flip --help`) gives another verdict")
        return 0
    print(f"[{args.question}] {result.before.verdict} -> {result.after.verdict} with "
          f"{len(result.changes or [])} change(s):")
    for change in result.changes or []:
        print(f"  {change}")
    print(f"  now decided by: {', '.join(result.after.rules) or 'no rule'}")
    for entry in result.necessary_because or []:
        print(f"  necessary because of {entry.rule}: {entry.statement}")
    return 0


def cmd_consistency(args: argparse.Namespace) -> int:
    with progress("checking", "steps") as shown:
        result = _api().consistency(args.documents, args.docs or os.environ.get("PYENGINE_DOCS") or None,
                                    args.scenarios, not args.no_search, args.deep, args.baseline, args.write_baseline,
                                    shown)
    if args.json:
        print(result.to_json())
        return result.exit_code
    accepted = set(result.accepted)
    print("scenarios read from: " + (", ".join(result.scenario_folders) or "none"))
    for entry in result.documents:
        print(f"{entry['document']}: {entry['paragraphs']} paragraphs, {entry['normative']} normative, "
              f"{entry['covered']} covered, {len(entry['findings'])} findings")
        for finding in entry["findings"]:
            mark = " [new]" if args.baseline and finding["id"] not in accepted else ""
            paras = f" ({', '.join(finding['paragraphs'])})" if finding["paragraphs"] else ""
            print(f"  {finding['severity']}: {finding['id']}{mark}{paras}: {finding['statement']}")
    return result.exit_code


def cmd_readings(args: argparse.Namespace) -> int:
    result = _api().readings(args.game)
    if args.json:
        print(result.to_json())
        return 0
    for entry in result.readings:
        print(f"{entry.reading} ({entry.game}): {entry.question}")
        for choice in entry.choices:
            mark = " [default]" if choice.value == entry.default else ""
            cited = [f"{choice.document} {', '.join(choice.paragraphs)}"] if choice.paragraphs else []
            cited += [p.replace(":", " ") for p in choice.other_paragraphs]
            print(f"  {choice.value}{mark}: {choice.statement} ({'; '.join(cited)})")
        if entry.profiles:
            print("  profiles: " + ", ".join(f"{p}={v}" for p, v in entry.profiles.items()))
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    result = _api().rules(args.game)
    if args.json:
        print(result.to_json())
        return 0
    for entry in result.rules:
        sources = ", ".join(f"{s.document} {s.paragraph}" for s in entry.sources)
        only = "".join(f" [only under {r.reading}={r.choice}]" for r in entry.readings)
        print(f"{entry.rule}: {entry.statement}{only}\n    sources: {sources}")
    return 0


def cmd_facts(args: argparse.Namespace) -> int:
    result = _api().facts(Path(args.file), args.readings, args.profile)
    print(result.to_json() if args.json else "\n".join(result.facts))
    return 0


def cmd_conformance_export(args: argparse.Namespace) -> int:
    from pyengine.tools import conformance

    with progress("exporting", "files") as shown:
        result = conformance.export(args.paths, args.out, shown)
    if args.json:
        print(result.to_json())
        return 0
    games = ", ".join(f"{n} {g}" for g, n in result.games.items())
    print(f"wrote {result.questions} questions of {result.files} files ({games}) to {result.pack}")
    reasons: dict[str, list[str]] = {}
    for skipped in result.skipped:
        reasons.setdefault(skipped.reason, []).append(skipped.file)
    for reason, files in reasons.items():
        shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        print(f"skipped {len(files)} file{'s' if len(files) != 1 else ''} ({shown}): {reason}")
    return 0


def cmd_conformance_compare(args: argparse.Namespace) -> int:
    from pyengine.tools import conformance

    result = conformance.compare(args.pack, args.verdicts, args.profile, args.out)
    if args.json:
        print(result.to_json())
        return result.exit_code
    print(f"{result.answered} questions answered by the engine ({result.unanswered} of the pack not answered)")
    for side, found in result.per_side.items():
        counted = ", ".join(f"{n} of {game}" for game, n in (found.games or {}).items())
        print(f"  {side}: {found.agree}/{found.total} agree ({counted})")
    if len({found.total for found in result.per_side.values()}) > 1:
        print("  (a profile is one game's choices: it answers only that game's questions, so the totals differ)")
    print(f"compared with {result.reference}:")
    for title, table in (("rule", result.per_rule), ("reading", result.per_reading)):
        for key, found in table.items():
            if found.agree < found.total:
                print(f"  {title} {key}: {found.agree}/{found.total} agree")
    for found in result.disagreements:
        written = f" -> {found.scenario_file}" if found.scenario_file else ""
        print(f"DISAGREE {found.id}: engine {json.dumps(found.engine)}, knowledge base "
              f"{json.dumps(found.knowledge_base)} ({', '.join(found.rules) or 'no rule'}){written}")
    print(f"{len(result.disagreements)} disagreement{'s' if len(result.disagreements) != 1 else ''}")
    return result.exit_code


def cmd_schema(args: argparse.Namespace) -> int:
    from pyengine.schema import schema

    print(json.dumps(schema(args.name), indent=2, ensure_ascii=False))
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    with progress("importing", "files") as shown:
        result = _api().import_source(args.source, args.path, shown, replace=args.replace)
    if args.json:
        print(result.to_json())
    else:
        print(f"imported {result.cards} cards as catalog {result.source!r} into {result.store}")
        for line in importer(args.source).report_lines(result.report):
            print(line)
    return 0


# The shells shtab writes completion scripts for.
COMPLETION_SHELLS = ("bash", "zsh", "tcsh")


def cmd_completion(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import shtab

    print(shtab.complete(parser, shell=args.shell))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from pyengine.web.app import Settings, create_app
    from pyengine.web.connections import (
        DEFAULT_CONNECTIONS,
        ConnectionBounds,
        bounded_protocol,
        connection_ceiling,
        quiet_accept_failures,
    )

    docs = args.docs or os.environ.get("PYENGINE_DOCS")
    if docs and not Path(docs).is_dir():
        raise InputError("no such folder", file=docs, field="--docs", expected="the folder of the rules documents")
    scenarios = existing_dirs(args.scenarios, "--scenarios") if args.scenarios else scenario_dirs()
    settings = Settings(docs=Path(docs) if docs else None, scenarios=scenarios,
                        workers=args.workers, solve_seconds=args.timeout or DEFAULT_LIMITS.solve_seconds,
                        memory_mb=args.memory, max_instances=args.max_instances, server_memory_mb=args.memory)
    ceiling = connection_ceiling(args.workers)
    if args.connections and args.connections > ceiling:
        raise InputError(f"{args.connections} connections would pass the open-file limit (at most {ceiling} here)",
                         field="--connections", expected=f"at most {ceiling}, or a higher `ulimit -n`")
    bounds = ConnectionBounds(args.header_timeout, args.body_timeout,
                              args.connections or min(DEFAULT_CONNECTIONS, ceiling))
    listening = _listen(args.host, args.port)
    print(f"pyengine explorer on http://{args.host}:{args.port}/ (Ctrl+C stops it)", file=sys.stderr, flush=True)
    quiet_accept_failures()
    server = uvicorn.Server(uvicorn.Config(create_app(settings), log_level="warning", http=bounded_protocol(bounds)))
    server.run(sockets=[listening])
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """The server's socket, bound before anything is printed, so that a port in use is one line of error. Its
    connections send at once (TCP_NODELAY, which Linux gives every accepted connection of a listening socket that
    has it): uvicorn writes a response's head and body apart, and without it the body of every request after the
    first on a kept-alive connection waited for the client's delayed acknowledgement, 40 ms a request."""
    import socket

    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        listening = socket.socket(family, socket.SOCK_STREAM)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family in (socket.AF_INET, socket.AF_INET6):
            listening.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        listening.bind((host, port))
    except OSError as error:
        raise InputError(f"cannot listen on {host}:{port}: {error.strerror or error}", field="--port",
                         expected="a free port on an address of this machine") from None
    listening.listen(2048)
    return listening
