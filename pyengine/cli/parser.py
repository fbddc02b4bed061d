"""The options of `pyengine` and its commands (argparse), each command bound to its function in
pyengine.cli.commands."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from pyengine import __version__
from pyengine.cli.commands import (
    COMPLETION_SHELLS,
    cmd_board,
    cmd_census,
    cmd_check,
    cmd_completion,
    cmd_conformance_compare,
    cmd_conformance_export,
    cmd_consistency,
    cmd_deck,
    cmd_edge_cases,
    cmd_explain,
    cmd_facts,
    cmd_flip,
    cmd_import,
    cmd_plays,
    cmd_readings,
    cmd_rules,
    cmd_schema,
    cmd_serve,
)
from pyengine.core.limits import DEFAULT_LIMITS, LONG_COMMANDS, MAX_MEMORY_MB, MAX_SECONDS
from pyengine.core.limits import processors as usable_processors
from pyengine.core.resources import STORE_ENV
from pyengine.games import GAME_NAMES, SOURCE_HELP, SOURCES


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
                "consistency", "import", "facts", "census", "board", "conformance-pack", "conformance-export",
                "conformance-compare")


DASK_HELP = ("spread the files over the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://10.0.0.5:8786; "
             "instead of --jobs; needs pip install 'pyengine[dask]', and the files at the same paths on every worker)")


def global_options(parser: argparse.ArgumentParser, defaults: bool) -> None:
    """The bounds every command takes, before or after its name: the main parser holds their defaults, a
    command's parser only what is given after the command's name (argparse.SUPPRESS leaves the rest alone)."""

    def default(value: object) -> object:
        return value if defaults else argparse.SUPPRESS

    parser.add_argument("--max-instances", type=_positive_int, default=default(DEFAULT_LIMITS.max_instances),
                        metavar="N",
                        help=f"refuse states with more than N card instances (default {DEFAULT_LIMITS.max_instances})")
    parser.add_argument("--timeout", type=_seconds, default=default(None), metavar="SECONDS",
                        help=f"stop the work on one scenario or decklist (or, for edge-cases, consistency, import and "
                             f"census, the whole command) that runs longer, grounding included (default "
                             f"{DEFAULT_LIMITS.solve_seconds:g}; {LONG_COMMANDS['edge-cases']:g} for those three, "
                             f"{LONG_COMMANDS['census']:g} for census)")
    parser.add_argument("--memory", type=_megabytes, default=default(DEFAULT_LIMITS.memory_mb), metavar="MB",
                        help=f"stop the work on one unit that needs more memory (default {DEFAULT_LIMITS.memory_mb})")


def through_links_option(parser: argparse.ArgumentParser) -> None:
    """`--through-links`, for a command that writes an output file (pyengine.core.files.output_file)."""
    parser.add_argument("--through-links", action="store_true",
                        help="where an output file's path is a symbolic link, write the file it points to (without "
                             "it such a path is refused; a device, pipe, socket or folder always is)")


# Every command, in the order `pyengine --help` lists them.
COMMAND_NAMES = ("check", "explain", "deck", "readings", "rules", "import", "edge-cases", "census", "consistency",
                 "flip", "plays", "board", "conformance", "schema", "serve", "facts", "completion")


class _Unbuilt:
    """The parser of a command that is not being run: its options are not built. argparse formats each option as
    it is added, and building every command's was 10 ms of a cold start (measured, issue 28)."""

    def add_argument(self, *args: Any, **options: Any) -> None:
        """Nothing: the option belongs to a command not run."""

    def set_defaults(self, **defaults: Any) -> None:
        """Nothing: the command is not run."""

    def add_subparsers(self, **options: Any) -> _Unbuilt:
        """Nothing: the command's steps are not run either."""
        return self

    def add_parser(self, *args: Any, **options: Any) -> _Unbuilt:
        """Nothing: a step of a command not run."""
        return self


def command_named(argv: list[str]) -> str | None:
    """The command the arguments run, for a parser of that command alone; None (every command's parser) where
    they ask for help or the version before naming one, name none, or run `completion`, which lists them all."""
    for argument in argv:
        if argument in ("-h", "--help", "--version"):
            return None
        if argument in COMMAND_NAMES:
            return None if argument == "completion" else argument
    return None


class _Commands:
    """What every command's parser is made with: the main parser's subparsers (a command not run is left unbuilt),
    the bound of --jobs, and the options of the commands that take readings."""

    def __init__(self, parser: argparse.ArgumentParser, only: str | None):
        self.parser, self.only = parser, only
        self.commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
        self.processors = usable_processors()

    def command(self, name: str, **options: str) -> Any:
        """A command's parser, with the global options (an unbuilt one where another command is run)."""
        if self.only is not None and name != self.only:
            return _Unbuilt()
        one = self.commands.add_parser(name, **options)
        global_options(one, defaults=False)
        return one

    def jobs(self, text: str) -> int:
        """A --jobs value: a whole number from 1 to the processors this command may use."""
        value = _positive_int(text)
        if value > self.processors:
            raise argparse.ArgumentTypeError(f"{value} processes: at most {self.processors}, the processors this "
                                             "command may use")
        return value

    @staticmethod
    def readings_options(p: Any) -> None:
        """--reading, --profile and --json, for a command that answers under readings."""
        p.add_argument("--reading", action="append", metavar="NAME=VALUE",
                       help="choose a reading for this run (repeatable); wins over the scenario's choices")
        p.add_argument("--profile", help="choose a named set of readings (see `pyengine readings`)")
        p.add_argument("--json", action="store_true", help="print the results as JSON")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The program's parser: of every command, or where `only` names one, of that command alone."""
    parser = argparse.ArgumentParser(prog="pyengine", description=(
        "A rules knowledge base for card games, in Answer Set Programming: says whether a play, a deck or an "
        "action is legal and why, down to the paragraph of the rules document."))
    parser.add_argument("--version", action="version", version=f"pyengine {__version__}")
    global_options(parser, defaults=True)
    add = _Commands(parser, only)
    for adder in (_answer_commands, _search_commands, _game_commands, _other_commands):
        adder(add)
    return parser


def _answer_commands(add: _Commands) -> None:
    """The commands that answer scenario files and decklists, and list what the knowledge base declares."""
    check = add.command("check", help="run scenario files and compare the answers with their expectations")
    check.add_argument("paths", nargs="+", metavar="PATH",
                       help="scenario files or folders of them; - reads one scenario from standard input")
    check.add_argument("--jobs", type=add.jobs, default=add.processors, metavar="N",
                       help=f"check on N processes (default {add.processors}: the processors this command may use)")
    check.add_argument("--dask", metavar="ADDRESS", help=DASK_HELP)
    check.add_argument("-k", dest="keywords", action="append", metavar="WORDS",
                       help="only the files whose path, or the questions whose id, holds WORDS (ignoring case; "
                            "repeatable: any of them)")
    check.add_argument("--catalog", help="the catalog of the scenarios that name none: an imported one (pyengine "
                                         "import) for the files of its game; a file's own catalog: wins")
    check.add_argument("-x", "--exitfirst", action="store_true",
                       help="check the files one at a time, in order, and stop after the first that fails")
    check.add_argument("--lf", "--last-failed", dest="last_failed", action="store_true",
                       help="check only the questions that failed (and the files that could not be answered) in the "
                            "last check run in this folder (recorded in .pyengine_cache, or PYENGINE_CACHE_DIR); "
                            "every file when none failed")
    check.add_argument("--stats", action="store_true",
                       help="print clingo's statistics per question (ground atoms, rules, choices, conflicts, time), "
                            "each question's unit ground and solved again alone")
    check.add_argument("--reset", action="store_true",
                       help="write the answers as the expectations of the questions that fail or have none, in "
                            "place (comments and layout kept; each file whole or not at all), like clerk test --reset")
    check.add_argument("--junit-xml", metavar="FILE", type=Path,
                       help="also write the result as JUnit XML, for CI (a test case per question)")
    add.readings_options(check)
    check.set_defaults(func=cmd_check)
    through_links_option(check)

    exp = add.command("explain", help="explain each answer: verdict <- rule <- paragraph <- state")
    exp.add_argument("file", metavar="FILE")
    exp.add_argument("--question", help="only this question id")
    add.readings_options(exp)
    exp.set_defaults(func=cmd_explain)

    games = sorted(GAME_NAMES)
    dk = add.command("deck", help="validate decklist files (YAML, or text lines like '4 Sting (1R313)'); "
                                     "exit 1 when one is invalid")
    dk.add_argument("files", nargs="+", metavar="FILE")
    dk.add_argument("--game", choices=games, help="the game, for decklists that do not say")
    dk.add_argument("--catalog", help="the catalog the cards are named in: builtin, or an imported one "
                                          "(pyengine import)")
    dk.add_argument("--jobs", type=add.jobs, default=add.processors, metavar="N",
                    help=f"validate on N processes (default {add.processors}: the processors this command may use)")
    dk.add_argument("--dask", metavar="ADDRESS", help=DASK_HELP)
    add.readings_options(dk)
    dk.set_defaults(func=cmd_deck)

    rd = add.command("readings", help="list the readings, their choices, defaults and paragraphs")
    rd.add_argument("--game", choices=games)
    rd.add_argument("--json", action="store_true", help="print the results as JSON")
    rd.set_defaults(func=cmd_readings)

    rl = add.command("rules", help="list the declared rules with their document paragraphs")
    rl.add_argument("--game", choices=games)
    rl.add_argument("--json", action="store_true", help="print the results as JSON")
    rl.set_defaults(func=cmd_rules)


def _search_commands(add: _Commands) -> None:
    """The commands that import card pools, search states and check the rules documents."""
    imp = add.command("import", help="import a public card database into the local catalog store "
                                        f"(set {STORE_ENV} to choose where)")
    imp.add_argument("source", choices=list(SOURCES),
                     help="; ".join(f"{source}: {about}" for source, about in SOURCE_HELP.items()))
    imp.add_argument("path", metavar="PATH", help="the card database folder (e.g. a clone's cards/)")
    imp.add_argument("--replace", action="store_true",
                     help="replace the stored cards even with none, or with fewer than half as many")
    imp.add_argument("--json", action="store_true", help="print the data report as JSON")
    imp.set_defaults(func=cmd_import)

    ec = add.command("edge-cases", help="search, with clingo, the smallest states where two readings or "
                                           "profiles disagree, or where one rule alone decides a verdict")
    ec.add_argument("--game", choices=sorted(GAME_NAMES), required=True)
    ec.add_argument("--compare", nargs=2, metavar=("A", "B"),
                    help="two sides: default, a profile, or READING=CHOICE[,READING=CHOICE]")
    ec.add_argument("--decisive", metavar="RULE", help="states where this rule alone decides a verdict")
    ec.add_argument("--all", action="store_true", help="every distinct disagreement within the bounds, counted")
    ec.add_argument("--max-cards", type=_positive_int, default=3, metavar="N", help="cards in a state (default 3)")
    ec.add_argument("--instances", type=_positive_int, default=None, metavar="N",
                    help="card instances in a state (default: as many as cards)")
    ec.add_argument("--limit", type=_positive_int, default=20, metavar="N", help="at most N states (default 20)")
    ec.add_argument("--out", metavar="DIR", help="write each state as a scenario file there")
    ec.add_argument("--json", action="store_true", help="print the results as JSON")
    ec.set_defaults(func=cmd_edge_cases)

    ce = add.command("census", help="which real cards of an imported pool each reading and profile touches: the "
                                "classes of cards whose tables two sides answer differently, counted, each with a "
                                "smallest real table")
    ce.add_argument("--game", choices=sorted(set(SOURCES.values())), required=True)
    ce.add_argument("--catalog", metavar="NAME",
                    help="the pool: an imported source (default: the game's own, as `pyengine import` named it) "
                         "or builtin")
    ce.add_argument("--compare", nargs=2, metavar=("A", "B"),
                    help="only these two sides (default: each pair of each reading's choices, and each profile "
                         "against the default)")
    ce.add_argument("--states", type=_positive_int, default=40, metavar="N",
                    help="abstract states a pair's search draws that real tables show (default 40)")
    ce.add_argument("--tries", type=_positive_int, default=150, metavar="N",
                    help="abstract states no real table shows a pair's search may draw before it stops (default 150)")
    ce.add_argument("--out", metavar="DIR", help="write each class's real table there as a scenario file")
    ce.add_argument("--report", metavar="FILE", help="write the census as a Markdown report")
    ce.add_argument("--json", action="store_true", help="print the census as JSON")
    ce.add_argument("--terms", metavar="PATH",
                    help="instead: count every term of the game's card data at PATH (as `pyengine import` reads it) "
                         "that can bear on a question, by kind, as read by a rule, named in the answer, of no "
                         "bearing or dropped; exit 1 if any is dropped")
    through_links_option(ce)
    ce.set_defaults(func=cmd_census)

    co = add.command("consistency", help="check the rules documents: coverage, drift, contradictions, dead "
                                            "rules, and the Allies document's lint")
    co.add_argument("documents", nargs="*", metavar="DOC", help="document ids (default: every document encoded)")
    co.add_argument("--docs", metavar="DIR", help="the folder of the rules documents (or set PYENGINE_DOCS)")
    co.add_argument("--scenarios", nargs="+", metavar="PATH",
                    help="scenario folders, each of which must exist (default: the examples and test scenarios "
                         "pyengine ships)")
    co.add_argument("--no-search", action="store_true", help="skip the states the edge-case search finds")
    co.add_argument("--deep", action="store_true", help="also search for dead and redundant rules (slow)")
    co.add_argument("--baseline", metavar="FILE",
                    help="accepted findings: exit 0 when nothing new appears, 1 otherwise")
    co.add_argument("--write-baseline", metavar="FILE", help="write every finding of this run as accepted")
    co.add_argument("--json", action="store_true", help="print the report as JSON")
    through_links_option(co)
    co.set_defaults(func=cmd_consistency)


def _game_commands(add: _Commands) -> None:
    """The commands about one scenario's verdicts, plays and board, and the conformance kit."""
    fl = add.command("flip", help="the smallest change to a scenario's state that turns a verdict around: an "
                                  "instance taken out or moved, its wounds, activity or face changed, fewer copies "
                                  "of a deck's card, or a game's starting numbers and facts")
    fl.add_argument("file", metavar="FILE")
    fl.add_argument("--question", required=True, help="the question id")
    add.readings_options(fl)
    fl.set_defaults(func=cmd_flip)

    pl = add.command("plays", help="every play open to a player in a scenario's state, legal or not, and why")
    pl.add_argument("file", metavar="FILE")
    pl.add_argument("--player", help="only this player (default: every player)")
    add.readings_options(pl)
    pl.set_defaults(func=cmd_plays)

    bd = add.command("board", help="the board of a scenario at every moment (or one), in words, as JSON, drawn as an "
                               "SVG picture (where the game draws one), or a moment written as a table of its own")
    bd.add_argument("file", metavar="FILE")
    bd.add_argument("--moment", type=int, metavar="N", help="only moment N: 0 the start, N after step N")
    bd.add_argument("--svg", metavar="FILE", help="draw the moment (default: after the last step) as SVG in FILE")
    bd.add_argument("--snapshot", metavar="FILE",
                    help="write the moment (default: after the last step) to FILE as a scenario table with no "
                         "actions, asking the questions the scenario asks at that moment")
    through_links_option(bd)
    add.readings_options(bd)
    bd.set_defaults(func=cmd_board)

    cf = add.command("conformance", help="the conformance kit for engine developers: export a pack of questions with "
                                     "the knowledge base's verdicts, compare an engine's verdicts with it")
    kit = cf.add_subparsers(dest="kit", required=True, metavar="STEP")
    ex = kit.add_parser("export", help="write one JSON line per question of the scenario files: the state resolved, "
                                       "the verdicts under the document's default and every profile")
    global_options(ex, defaults=False)
    ex.add_argument("paths", nargs="+", metavar="FILE", help="scenario files or folders of them (hand-written tables, "
                                                             "census --out and edge-cases --out folders)")
    ex.add_argument("--out", required=True, metavar="PACK", help="the pack to write (JSON lines)")
    ex.add_argument("--json", action="store_true", help="print the summary as JSON")
    through_links_option(ex)
    ex.set_defaults(func=cmd_conformance_export)
    cm = kit.add_parser("compare", help="an engine's verdicts (JSON lines of id and verdict) against a pack: "
                                        "agreement per profile, rule and reading; exit 1 on a disagreement")
    global_options(cm, defaults=False)
    cm.add_argument("pack", metavar="PACK")
    cm.add_argument("verdicts", metavar="VERDICTS")
    cm.add_argument("--profile", help="the side to compare with: default or a profile (default: the side that "
                                      "agrees most)")
    cm.add_argument("--out", metavar="DIR",
                    help="write each disagreement there as a scenario file whose expectation is the engine's verdict")
    cm.add_argument("--json", action="store_true", help="print the comparison as JSON")
    cm.set_defaults(func=cmd_conformance_compare)


def _other_commands(add: _Commands) -> None:
    """The schemas, the server, the facts of a scenario and shell completion."""
    sc = add.command("schema", help="print a JSON Schema: of scenario files, or of a command's --json output")
    sc.add_argument("name", choices=SCHEMA_NAMES, help="scenario, or the command whose output it describes")
    sc.set_defaults(func=cmd_schema)

    sv = add.command("serve", help="the web rules explorer and the HTTP JSON API (each answer bounded by --timeout, "
                                      "--memory and --max-instances)")
    sv.add_argument("--host", default="127.0.0.1", help="the address to bind (default 127.0.0.1, this machine only)")
    sv.add_argument("--port", type=_port, default=8000, help="the port (default 8000)")
    sv.add_argument("--docs", metavar="DIR", help="the folder of the rules documents (or set PYENGINE_DOCS); "
                                                  "the rulebook shows paraphrases only without it")
    sv.add_argument("--scenarios", nargs="+", metavar="PATH",
                    help="scenario folders the rulebook cites, each of which must exist (default: the examples "
                         "and test scenarios pyengine ships)")
    sv.add_argument("--workers", type=_positive_int, default=2, help="worker processes answering (default 2)")
    sv.add_argument("--connections", type=_positive_int, metavar="N",
                    help="connections held open at most; past it one is answered 503 and closed (default 256, "
                         "and always below the open-file limit)")
    sv.add_argument("--header-timeout", type=_seconds, default=10.0, metavar="SECONDS",
                    help="how long a request's head may take to arrive whole (default 10 s; then 408 and closed)")
    sv.add_argument("--body-timeout", type=_seconds, default=30.0, metavar="SECONDS",
                    help="how long a request's body may take after its head (default 30 s)")
    sv.set_defaults(func=cmd_serve)

    fa = add.command("facts", help="print the facts a scenario becomes (for implementers and debugging)")
    fa.add_argument("file", metavar="FILE")
    add.readings_options(fa)
    fa.set_defaults(func=cmd_facts)

    cp = add.command("completion", help="print a shell completion script (bash: eval \"$(pyengine completion bash)\")")
    cp.add_argument("shell", choices=COMPLETION_SHELLS, help="the shell the script is for")
    cp.set_defaults(func=lambda args: cmd_completion(args, add.parser))
