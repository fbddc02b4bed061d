"""The `pyengine` command line: a thin layer over pyengine.api that parses options and prints its results
(as text, or with --json exactly the results' to_json()).

Exit codes: 0 all expectations hold, 1 an expectation failed, 2 bad input (nothing else is printed then).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyengine import __version__
from pyengine.core.errors import InputError
from pyengine.core.limits import DEFAULT_LIMITS, LONG_COMMANDS, MAX_MEMORY_MB, MAX_SECONDS, limits
from pyengine.core.resources import STORE_ENV
from pyengine.core.text import printable
from pyengine.games import GAME_NAMES, SOURCE_HELP, SOURCES, importer


def _api() -> Any:
    """pyengine.api, imported when a command first needs it (so that --help starts without clingo)."""
    from pyengine import api

    return api


def _reading_pairs(args: argparse.Namespace) -> dict[str, str]:
    """The `--reading NAME=VALUE` options as a mapping (validated by the API)."""
    chosen: dict[str, str] = {}
    for text in getattr(args, "reading", None) or []:
        name, sep, value = text.partition("=")
        if not sep:
            raise InputError(f"--reading {text!r} has no '='", field="--reading", expected="NAME=VALUE")
        chosen[name] = value
    return chosen


def _progress(done: int, total: int, started: float) -> None:
    """A progress line on a terminal, for runs that take longer than a second (written to the terminal
    itself: the only output that may move the cursor)."""
    stream = sys.__stderr__
    if stream is not None and stream.isatty() and total > 1 and time.monotonic() - started > 1.0:
        print(f"\rchecked {done}/{total}", end="" if done < total else "\n", file=stream, flush=True)


def _progress_line() -> Callable[[int, int], None]:
    started = time.monotonic()
    return lambda done, total: _progress(done, total, started)


def cmd_check(args: argparse.Namespace) -> int:
    result = _api().check(args.paths, args.readings, args.profile, args.jobs, _progress_line(), args.dask)
    if args.json:
        result.write_json(sys.stdout)
        print()
        return 1 if result.failed else 0
    for scenario in result.scenarios:
        for entry in scenario.questions:
            if not entry.passed:
                reasons = ", ".join(entry.rules) or "none"
                print(f"FAIL {scenario.file} [{entry.question}]: {'; '.join(entry.failures)} (reasons: {reasons})")
    print(f"{result.passed} passed, {result.failed} failed ({len(result.scenarios)} scenario files)")
    return 1 if result.failed else 0


def cmd_explain(args: argparse.Namespace) -> int:
    result = _api().explain(Path(args.file), args.question, args.readings, args.profile)
    print(result.to_json() if args.json else result.text)
    return 0 if result.passed else 1


def cmd_plays(args: argparse.Namespace) -> int:
    result = _api().plays(Path(args.file), args.player, args.readings, args.profile)
    print(result.to_json() if args.json else result.text)
    return 0


def cmd_deck(args: argparse.Namespace) -> int:
    result = _api().check_decks(args.files, args.game, args.catalog, args.readings, args.profile, args.jobs,
                                _progress_line(), args.dask)
    if args.json:
        result.write_json(sys.stdout)
        print()
    else:
        for entry in result.decks:
            print(f"{entry.file}: {entry.verdict}")
            for reason in entry.reasons:
                sources = ", ".join(f"{s.document} {s.paragraph}" for s in reason.sources)
                print(f"  {reason.rule} ({sources}): {reason.state}")
            if entry.rested_on:
                print("  rested on readings: " + ", ".join(f"{n}={v}" for n, v in sorted(entry.rested_on.items())))
    return 0 if all(entry.valid for entry in result.decks) else 1


def cmd_edge_cases(args: argparse.Namespace) -> int:
    progress = _progress_line()
    result = _api().edge_cases(args.game, tuple(args.compare) if args.compare else None, args.decisive, args.all,
                            args.max_cards, args.max_instances, args.limit, args.out, progress)
    if args.json:
        print(result.to_json())
        return 0
    if not result.findings:
        print(f"{result.a} and {result.b} give the same verdict on every state of up to {result.max_cards} cards and "
              f"{result.max_instances} instances: within these bounds the choice makes no difference.")
        return 0
    print(f"{result.states} states where {result.a} and {result.b} disagree ({len(result.shapes)} shapes):")
    for number, entry in enumerate(result.findings, 1):
        where = f" -> {entry['file']}" if "file" in entry else ""
        kinds = "; ".join(f"{k} {va}/{vb} by {r}" for k, va, vb, r in entry["shapes"])
        print(f"  {number}. {kinds}{where}")
    return 0


def cmd_flip(args: argparse.Namespace) -> int:
    result = _api().flip(Path(args.file), args.question, args.readings, args.profile)
    if args.json:
        print(result.to_json())
        return 0
    if not result.flippable or result.before is None or result.after is None:
        print(f"[{args.question}] no change the game's flip program allows turns this verdict around")
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
    import os

    result = _api().consistency(args.documents, args.docs or os.environ.get("PYENGINE_DOCS") or None, args.scenarios,
                             not args.no_search, args.deep, args.baseline, args.write_baseline)
    if args.json:
        print(result.to_json())
        return result.exit_code
    accepted = set(result.accepted)
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
            print(f"  {choice.value}{mark}: {choice.statement} ({choice.document} {', '.join(choice.paragraphs)})")
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


def cmd_schema(args: argparse.Namespace) -> int:
    from pyengine.schema import schema

    print(json.dumps(schema(args.name), indent=2, ensure_ascii=False))
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    result = _api().import_source(args.source, args.path, _progress_line(), replace=args.replace)
    if args.json:
        print(result.to_json())
    else:
        print(f"imported {result.cards} cards as catalog {result.source!r} into {result.store}")
        for line in importer(args.source).report_lines(result.report):
            print(line)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from pyengine.web.app import Settings, create_app

    docs = args.docs or os.environ.get("PYENGINE_DOCS")
    if docs and not Path(docs).is_dir():
        raise InputError("no such folder", file=docs, field="--docs", expected="the folder of the rules documents")
    scenarios = [Path(p) for p in (args.scenarios or ["examples", "tests/scenarios"])]
    settings = Settings(docs=Path(docs) if docs else None, scenarios=[p for p in scenarios if p.exists()],
                        workers=args.workers, solve_seconds=args.timeout or DEFAULT_LIMITS.solve_seconds,
                        memory_mb=args.memory, max_instances=args.max_instances, server_memory_mb=args.memory)
    print(f"pyengine explorer on http://{args.host}:{args.port}/ (Ctrl+C stops it)", file=sys.stderr, flush=True)
    uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level="warning")
    return 0


def _port(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (1 to 65535)")
    return int(text)


def _positive_int(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0 and at most {MAX_SECONDS:g}, "
                                         f"got {text!r}")
    return value


def _megabytes(text: str) -> int:
    if not text.isdigit() or not 64 <= int(text) <= MAX_MEMORY_MB:
        raise argparse.ArgumentTypeError(f"expected a whole number of megabytes from 64 to {MAX_MEMORY_MB}, "
                                         f"got {text!r}")
    return int(text)


SCHEMA_NAMES = ("scenario", "answer", "check", "plays", "deck", "flip", "readings", "rules", "edge-cases",
                "consistency", "import", "facts")


DASK_HELP = ("spread the files over the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://10.0.0.5:8786; "
             "instead of --jobs; needs pip install 'pyengine[dask]', and the files at the same paths on every worker)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pyengine", description=(
        "A rules knowledge base for card games, in Answer Set Programming: says whether a play, a deck or an "
        "action is legal and why, down to the paragraph of the rules document."))
    parser.add_argument("--version", action="version", version=f"pyengine {__version__}")
    parser.add_argument("--max-instances", type=_positive_int, default=DEFAULT_LIMITS.max_instances, metavar="N",
                        help=f"refuse states with more than N card instances (default {DEFAULT_LIMITS.max_instances})")
    parser.add_argument("--timeout", type=_seconds, default=None, metavar="SECONDS",
                        help=f"stop the work on one scenario or decklist (or, for edge-cases, consistency and import, "
                             f"the whole command) that runs longer, grounding included (default "
                             f"{DEFAULT_LIMITS.solve_seconds:g}; {LONG_COMMANDS['edge-cases']:g} for those three)")
    parser.add_argument("--memory", type=_megabytes, default=DEFAULT_LIMITS.memory_mb, metavar="MB",
                        help=f"stop the work on one unit that needs more memory (default {DEFAULT_LIMITS.memory_mb})")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    processors = len(os.sched_getaffinity(0))

    def readings_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--reading", action="append", metavar="NAME=VALUE",
                       help="choose a reading for this run (repeatable); wins over the scenario's choices")
        p.add_argument("--profile", help="choose a named set of readings (see `pyengine readings`)")
        p.add_argument("--json", action="store_true", help="print the results as JSON")

    check = sub.add_parser("check", help="run scenario files and compare the answers with their expectations")
    check.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders of them")
    check.add_argument("--jobs", type=_positive_int, default=processors, metavar="N",
                       help=f"check on N processes (default {processors}: the processors this command may use)")
    check.add_argument("--dask", metavar="ADDRESS", help=DASK_HELP)
    readings_options(check)
    check.set_defaults(func=cmd_check)

    exp = sub.add_parser("explain", help="explain each answer: verdict <- rule <- paragraph <- state")
    exp.add_argument("file", metavar="FILE")
    exp.add_argument("--question", help="only this question id")
    readings_options(exp)
    exp.set_defaults(func=cmd_explain)

    games = sorted(GAME_NAMES)
    dk = sub.add_parser("deck", help="validate decklist files (YAML, or text lines like '4 Sting (1R313)'); "
                                     "exit 1 when one is invalid")
    dk.add_argument("files", nargs="+", metavar="FILE")
    dk.add_argument("--game", choices=games, help="the game, for decklists that do not say")
    dk.add_argument("--catalog", help="the catalog the cards are named in: builtin, or an imported one "
                                          "(pyengine import)")
    dk.add_argument("--jobs", type=_positive_int, default=processors, metavar="N",
                    help=f"validate on N processes (default {processors}: the processors this command may use)")
    dk.add_argument("--dask", metavar="ADDRESS", help=DASK_HELP)
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
    imp.add_argument("source", choices=list(SOURCES),
                     help="; ".join(f"{source}: {about}" for source, about in SOURCE_HELP.items()))
    imp.add_argument("path", metavar="PATH", help="the card database folder (e.g. a clone's cards/)")
    imp.add_argument("--replace", action="store_true",
                     help="replace the stored cards even with none, or with fewer than half as many")
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

    pl = sub.add_parser("plays", help="every play open to a player in a scenario's state, legal or not, and why")
    pl.add_argument("file", metavar="FILE")
    pl.add_argument("--player", help="only this player (default: every player)")
    readings_options(pl)
    pl.set_defaults(func=cmd_plays)

    sc = sub.add_parser("schema", help="print a JSON Schema: of scenario files, or of a command's --json output")
    sc.add_argument("name", choices=SCHEMA_NAMES, help="scenario, or the command whose output it describes")
    sc.set_defaults(func=cmd_schema)

    sv = sub.add_parser("serve", help="the web rules explorer and the HTTP JSON API (each answer bounded by --timeout, "
                                      "--memory and --max-instances)")
    sv.add_argument("--host", default="127.0.0.1", help="the address to bind (default 127.0.0.1, this machine only)")
    sv.add_argument("--port", type=_port, default=8000, help="the port (default 8000)")
    sv.add_argument("--docs", metavar="DIR", help="the folder of the rules documents (or set PYENGINE_DOCS); "
                                                  "the rulebook shows paraphrases only without it")
    sv.add_argument("--scenarios", nargs="+", metavar="PATH",
                    help="scenario folders the rulebook cites (default: examples, tests/scenarios where present)")
    sv.add_argument("--workers", type=_positive_int, default=2, help="worker processes answering (default 2)")
    sv.set_defaults(func=cmd_serve)

    fa = sub.add_parser("facts", help="print the facts a scenario becomes (for implementers and debugging)")
    fa.add_argument("file", metavar="FILE")
    readings_options(fa)
    fa.set_defaults(func=cmd_facts)
    return parser


# Commands answered in the calling process: they read only the knowledge base's own declarations (serve answers
# in its own bounded worker pool).
IN_PROCESS = {"readings", "rules", "schema", "serve"}
# Commands that bound each file they read on their own (pyengine.run.runner, one unit per file).
PER_FILE = {"check", "deck"}


class _Escaping(io.TextIOBase):
    """An output stream that writes every control character as an escape, but for newlines and tabs."""

    def __init__(self, stream: Any):
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(printable(text, keep="\n\t"))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()


def _report(error: InputError) -> int:
    for one in error.all():
        print(f"error: {one}", file=sys.stderr)
    return 2


def _run(args: argparse.Namespace) -> int:
    """The command's own function, its input errors as one line each and exit code 2 (a defect too, named as
    one, unless PYENGINE_DEBUG is set)."""
    try:
        args.readings = _reading_pairs(args)
        return int(args.func(args))
    except InputError as error:
        return _report(error)
    except (KeyboardInterrupt, BrokenPipeError):
        raise
    except Exception as error:
        if os.environ.get("PYENGINE_DEBUG"):
            raise
        from pyengine.run.runner import defect_message

        return _report(InputError(defect_message(error)))


def _bounded(args: argparse.Namespace) -> int:
    """Run a whole command as one unit of bounded work: what it prints is shown only once it has finished."""
    from pyengine.run.runner import Failure, run_bounded


    def work(_: Any) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = _run(args)
        return code, out.getvalue(), err.getvalue()

    [result] = run_bounded(work, [None])
    if isinstance(result, Failure):
        return _report(InputError(result.message, field=args.command))
    code, out, err = result
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code


def main(argv: list[str] | None = None) -> int:
    """The command line: exit 0 when every expectation holds, 1 when one does not, 2 for bad input or work
    stopped at a bound, 130 when interrupted."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)
    limits.max_instances = args.max_instances
    limits.memory_mb = args.memory
    limits.solve_seconds = args.timeout or LONG_COMMANDS.get(args.command, DEFAULT_LIMITS.solve_seconds)
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Escaping(stdout), _Escaping(stderr)
    try:
        return _run(args) if args.command in IN_PROCESS | PER_FILE else _bounded(args)
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    finally:
        sys.stdout.flush()
        sys.stdout, sys.stderr = stdout, stderr
