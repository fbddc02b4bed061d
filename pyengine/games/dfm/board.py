"""The Duel for Middle-earth board at every moment of a scenario, and its picture: `pyengine board`, the API's
`board` (pyengine.core.answering, through the registry's `boards`), and the explorer's board step by step
(/api/board).

The encodings decide everything shown: the scenario's timeline is grounded as for its answers, with
rules/dfm/board.lp showing the state atoms (the layout's cards present, covered and face up, every fluent's
value, the steps done or refused); this module only reads those atoms into a BoardMoment per moment and draws
one as SVG. Nothing of the game is an image here: the picture is drawn from shapes and text."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import clingo

from pyengine.core import kb as kbase
from pyengine.core.asp import Term, python_value
from pyengine.core.errors import InputError
from pyengine.core.resources import rules_dir
from pyengine.core.results import Choices, Result, Source, moment_of
from pyengine.core.scenario import Scenario
from pyengine.games.dfm.terms import ALLY_STATES, FACTIONS, RACES, REGIONS, TOKEN_PLACES


@dataclass
class LayoutCard:
    """A card of the chapter's layout at one moment: where it lies (row from the top, card from the left), whether
    it is still there, face up, covered, and the Power tokens on it."""

    row: int
    card: int
    present: bool
    face_up: bool
    covered: bool
    tokens: int

    @property
    def available(self) -> bool:
        return self.present and not self.covered


@dataclass
class Region:
    """A region of the central board at one moment: each player's units and Fortress there, and its Landmark tile
    (open, or whose it is, and the Power tokens on it)."""

    name: str
    units: dict[str, int]
    fortresses: list[str]
    tile: str | None
    tile_open: bool
    tile_owner: str | None
    tile_tokens: int


@dataclass
class Connection:
    """A connection the scenario names, the Power tokens on it, and whom the Balrog blocked it for."""

    regions: list[str]
    tokens: int
    blocked_for: list[str]


@dataclass
class StepDone:
    """The step that led to a moment: its number (from 1), its words, and whether it was done or refused by which
    rules (with their paragraphs)."""

    step: int
    player: str
    words: str
    outcome: str
    rules: list[str]
    sources: list[Source]


@dataclass
class BoardMoment:
    """The board at one moment of the scenario (0: the start; N: after step N)."""

    moment: int
    step: StepDone | None
    chapter: int
    turn: str | None
    winner: str | None
    # Whether the game has ended in a draw by this moment.
    drawn: bool
    layout: list[list[LayoutCard]]
    tokens: dict[str, int]
    # Power tokens at a place the picture has no spot for (a connection the scenario does not name, a card of
    # another chapter's layout), by the place's term: shown as such, never left out.
    tokens_elsewhere: dict[str, int]
    # The Alliance tokens left in each race's stack, and the Power tokens an effect placed on a stack.
    stacks: dict[str, int]
    stack_tokens: dict[str, int]
    coins: dict[str, int]
    reserve: int
    tracks: dict[str, int]
    regions: list[Region]
    connections: list[Connection]
    allies: dict[str, dict[str, list[str]]]
    # The base-game assumptions the picture and the steps up to this moment rest on.
    assumptions: list[str]
    # Every fluent at this moment by its term: a numeric one's value, True for a true/false one that holds (what a
    # snapshot of the moment writes).
    fluents: dict[Any, int | bool] = field(default_factory=dict, metadata={"internal": True})
    # The rules a reading decides that the steps before this moment rested on (a snapshot's header names them).
    rests_on: list[str] = field(default_factory=list, metadata={"internal": True})


@dataclass
class BoardResult(Result):
    """A Duel scenario's board at every moment (or the one asked), the readings in force, and the words of each
    base-game assumption the moments list."""

    file: str
    title: str
    readings: Choices
    moments: list[BoardMoment]
    assumption_words: dict[str, str] = field(default_factory=dict)
    # The scenario as read, the reading choices given besides its own, and the shown atoms about no moment (the
    # layout's tokens, real cards' data): what a snapshot of a moment keeps and writes.
    scenario: Scenario | None = field(default=None, metadata={"internal": True})
    overrides: Choices = field(default_factory=dict, metadata={"internal": True})
    described: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict, metadata={"internal": True})

    def _moment(self, moment: int) -> BoardMoment:
        return moment_of(self.moments, moment, self.file)

    def svg(self, moment: int) -> str:
        """The picture of one moment (a number of `moments`)."""
        return draw(self._moment(moment), self.title)

    def at(self, moment: int) -> BoardResult:
        """The board at one moment only, with the words of the assumptions it lists."""
        shown = self._moment(moment)
        return BoardResult(self.file, self.title, self.readings, [shown],
                           {a: w for a, w in self.assumption_words.items() if a in shown.assumptions},
                           self.scenario, self.overrides, self.described)

    def snapshot(self, moment: int) -> dict[str, Any]:
        """The table at a moment as a scenario of its own (pyengine.games.dfm.snapshot): the state the steps up to
        it left, no actions, and the questions the scenario asks at that moment."""
        from pyengine.games.dfm.snapshot import moment_table

        if self.scenario is None:
            raise InputError("a board read without its scenario has no snapshot", file=self.file, field="moment")
        return moment_table(self.scenario, self._moment(moment), self.readings, self.overrides, self.described)

    def steps(self) -> list[dict[str, Any]]:
        """Each moment's step in words and its outcome (the start has none)."""
        return [{"moment": m.moment, "words": m.step.words if m.step else "the start",
                 "outcome": m.step.outcome if m.step else None} for m in self.moments]

    @property
    def text(self) -> str:
        """The board in words, a block per moment (`pyengine board`)."""
        return "\n".join([f"{self.file}: {self.title}", *(moment_words(m) for m in self.moments)])


def board_of(scenario: Scenario, overrides: Choices | None = None, moment: int | None = None) -> BoardResult:
    """The board of a Duel scenario at every moment (only moment `moment`, when given), under its readings overlaid
    by `overrides` (checked choices): pyengine.api.board."""
    from pyengine.core.engine import effective_readings, reading_facts, solve

    steps = len(scenario.state.actions)
    if moment is not None and not 0 <= moment <= steps:
        raise InputError(f"the scenario has {steps} actions, so no moment {moment}", file=scenario.path, field="moment",
                         expected=f"a moment from 0 (the start) to {steps}")
    kb = kbase.load("dfm")
    readings = effective_readings(scenario, None, overrides or {})
    facts = [*scenario.game.writer.facts(scenario.state, []), *reading_facts(readings)]
    atoms = solve("dfm", facts, frozenset(), (Path(rules_dir(), "dfm", "board.lp"),))
    shown = Atoms(atoms)
    wanted = range(steps + 1) if moment is None else [moment]
    moments = [_read_moment(scenario, shown, t, kb) for t in wanted]
    used = sorted({a for m in moments for a in m.assumptions})
    return BoardResult(scenario.path, scenario.title, dict(sorted(readings.items())), moments,
                       {a: kb.assumptions[a] for a in used if a in kb.assumptions}, scenario, dict(overrides or {}),
                       {name: shown.all(name) for name in DESCRIBED})


# The shown atoms about no moment a snapshot reads (rules/dfm/board.lp).
DESCRIBED = ("layout_token", "real_card_skill", "real_card_either", "real_card_colour", "token_race", "eagle_token")


class Atoms:
    """The shown atoms by name, each as its arguments read into Python values (numbers, names, texts, and
    compound terms as (name, *arguments) tuples)."""

    def __init__(self, symbols: list[clingo.Symbol]):
        self.by_name: dict[str, list[tuple[Any, ...]]] = {}
        for symbol in symbols:
            self.by_name.setdefault(symbol.name, []).append(tuple(python_value(a) for a in symbol.arguments))

    def at(self, name: str, moment: int) -> list[tuple[Any, ...]]:
        """The arguments but the last of the atoms `name(..., moment)`."""
        return [args[:-1] for args in self.by_name.get(name, []) if args[-1] == moment]

    def all(self, name: str) -> list[tuple[Any, ...]]:
        return self.by_name.get(name, [])


def _read_moment(scenario: Scenario, atoms: Atoms, t: int, kb: kbase.KnowledgeBase) -> BoardMoment:
    """The board at moment t read from the atoms."""
    chapter = next((c for (c,) in atoms.at("chapter_at", t)), 0)
    values = {f: v for f, v in atoms.at("num", t)}
    flags = {f for (f,) in atoms.at("holds", t)}
    present = {(r, c) for r, c in atoms.at("present", t)}
    covered = {(r, c) for r, c in atoms.at("covered", t)}
    face_up = {(r, c) for r, c in atoms.at("face_up", t)}
    rows: dict[int, list[LayoutCard]] = {}
    for ch, r, c in sorted(atoms.all("card_at")):
        if ch == chapter:
            rows.setdefault(r, []).append(LayoutCard(r, c, (r, c) in present, (r, c) in face_up, (r, c) in covered,
                                                     values.get(("tok", ("card", r, c)), 0)))
    tiles = {region: tile for tile, region in atoms.all("tile_region")}
    regions = []
    for name in (n for n in REGIONS if (n,) in atoms.all("board_region")):
        tile = tiles.get(name)
        owner = next((p for p in FACTIONS if ("owned", tile, p) in flags), None)
        regions.append(Region(name, {p: values.get(("units", p, name), 0) for p in FACTIONS},
                              [p for p in FACTIONS if ("fortress", p, name) in flags], tile,
                              ("open_tile", tile) in flags, owner, values.get(("tok", ("tile", tile)), 0)))
    connections = [Connection([a, b], values.get(("tok", ("conn", a, b)), 0),
                              [p for p in FACTIONS if ("blocked", a, b, p) in flags or ("blocked", b, a, p) in flags])
                   for a, b in sorted(atoms.all("board_link"))]
    allies = {p: {s: sorted(f[2] for f in flags if isinstance(f, tuple) and f[:2] == (s, p)) for s in ALLY_STATES}
              for p in FACTIONS}
    step = _step(scenario, atoms, t - 1, kb) if t > 0 else None
    used = {a for s, a in atoms.all("uses") if s < t} | {a for (a,) in atoms.all("drawn_under")}
    return BoardMoment(
        moment=t, step=step, chapter=chapter, turn=next((p for p in FACTIONS if ("turn", p) in flags), None),
        winner=next((p for p, m in atoms.all("won_by") if m == t), None), drawn=(t,) in atoms.all("drawn_by"),
        layout=[rows[r] for r in sorted(rows)],
        tokens={p: values.get(("tok", p), 0) for p in TOKEN_PLACES},
        tokens_elsewhere=_tokens_elsewhere(values, rows, regions, connections),
        stacks={r: values.get(("stack", r), 0) for r in RACES},
        stack_tokens={r: n for r in RACES if (n := values.get(("tok", ("stack", r)), 0))},
        coins={p: values.get(("coins", p), 0) for p in FACTIONS}, reserve=values.get("reserve", 0),
        tracks={"nazgul": values.get("nazgul", 0), "ring": values.get("ring", 0)},
        regions=regions, connections=connections,
        allies={p: {s: names for s, names in by.items() if names} for p, by in allies.items()},
        assumptions=sorted(used),
        fluents={**dict(atoms.at("num", t)), **{f: True for (f,) in atoms.at("holds", t)}},
        rests_on=sorted({r for s, r in atoms.all("ruled_by") if s == t}))


def _tokens_elsewhere(values: dict[Any, int], rows: dict[int, list[LayoutCard]], regions: list[Region],
                      connections: list[Connection]) -> dict[str, int]:
    """The Power tokens at places the moment's picture has no spot for, by the place's term."""
    drawn = {*TOKEN_PLACES, *(("stack", r) for r in RACES),
             *(("card", c.row, c.card) for row in rows.values() for c in row),
             *(("tile", r.tile) for r in regions if r.tile), *(("conn", *c.regions) for c in connections)}
    return {_place_words(f[1]): v for f, v in values.items()
            if isinstance(f, tuple) and f[0] == "tok" and v and f[1] not in drawn}


def _place_words(place: Any) -> str:
    """A token place's term in words: a name, or its parts joined (conn lindon arnor)."""
    return " ".join(str(part) for part in place) if isinstance(place, tuple) else str(place)


def _step(scenario: Scenario, atoms: Atoms, step: int, kb: kbase.KnowledgeBase) -> StepDone:
    """Scenario step `step` (from 0): its words with its choices, done or refused and by which rules."""
    _, choices, words = scenario.state.actions[step]
    chosen = ", ".join(f"{name} {_choice_words(value)}" for name, value in choices)
    rules = sorted({r for s, r, _ in atoms.all("refused") if s == step})
    done = (step,) in atoms.all("done")
    player = words.split(" ", 1)[0]
    sources = [Source(d, p) for d, p in sorted({s for r in rules for s in kb.rules[r].sources})]
    return StepDone(step + 1, player, f"{words} ({chosen})" if chosen else words,
                    "done" if done else "refused", rules, sources)


def _choice_words(value: Any) -> str:
    """A choice's value in words: a card c(R, C) as R.C, a connection as A-B, a name as it is."""
    if isinstance(value, Term) and value.name == "c" and len(value.args) == 2:
        a, b = value.args
        return f"{a}.{b}" if isinstance(a, int) else f"{a}-{b}"
    return str(getattr(value, "name", value)).replace("_", " ")


# -- the picture --------------------------------------------------------------------------------------------

WIDTH = 800
CARD_W, CARD_H, CARD_GAP, ROW_PITCH = 86, 54, 6, 40
INK, PAPER, DARK, MUTED = "#1a1a1a", "#fbf7ee", "#2e3448", "#4d4d4d"
PLAYER_INK = {"fellowship": "#1d4f91", "sauron": "#9b1c1c"}
# Where each region's box stands on the board (column, row), roughly as the board's map lies west to east.
REGION_PLACES = {"lindon": (0, 0), "arnor": (1, 0), "rhovanion": (2, 0), "enedwaith": (0, 1), "rohan": (1, 1),
                 "gondor": (2, 1), "mordor": (3, 1)}
REGION_W, REGION_H = 180, 92


def _text(x: float, y: float, words: str, size: int = 13, fill: str = INK, anchor: str = "start",
          weight: str = "normal") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{fill}" text-anchor="{anchor}" '
            f'font-weight="{weight}">{escape(words)}</text>')


def _words(name: str) -> str:
    return name.replace("_", " ")


def draw(moment: BoardMoment, title: str) -> str:
    """The picture of one moment as an SVG document: the chapter's layout (face-up cards light, face-down cards
    dark, cards taken as dashed outlines, cards that can be taken outlined in green, Power tokens as gold discs),
    the token places, stacks, coins and tracks, the board's regions with units, Fortresses and tiles, and the
    allies by state. Text only from the board's own names and numbers, escaped."""
    parts: list[str] = []
    y = 28
    parts.append(_text(16, y, _heading(moment), 15, weight="bold"))
    if moment.step is not None:
        y += 20
        step = moment.step
        refused = f" by {', '.join(step.rules)}" if step.rules else ""
        parts.append(_text(16, y, f"step {step.step}: {step.words}: {step.outcome}{refused}", 13, MUTED))
    y += 16
    layout_top = y
    parts.extend(_layout(moment, layout_top))
    side = _side_panel(moment, 600, layout_top + 10)
    parts.extend(side)
    rows = len(moment.layout)
    y = layout_top + (rows - 1) * ROW_PITCH + CARD_H + 30 if rows else layout_top + 40
    y = max(y, layout_top + 250)
    parts.append(_text(16, y, "Alliance stacks: the Alliance tokens in each (and Power tokens placed on it)", 13,
                       weight="bold"))
    for i, race in enumerate(RACES):
        x = 16 + i * 128
        parts.append(f'<rect x="{x}" y="{y + 8}" width="118" height="30" rx="4" fill="{PAPER}" stroke="{INK}"/>')
        placed = f" +{moment.stack_tokens[race]}P" if race in moment.stack_tokens else ""
        parts.append(_text(x + 8, y + 28, f"{_words(race)}: {moment.stacks[race]}{placed}", 13))
    y += 66
    parts.append(_text(16, y, "The board: units (F Fellowship, S Sauron), Fortresses and Landmark tiles", 13,
                       weight="bold"))
    parts.extend(_board(moment, y + 12))
    y += 12 + 2 * (REGION_H + 24) + 10
    for player in FACTIONS:
        held = moment.allies.get(player, {})
        said = "; ".join(f"{_words(state)}: {', '.join(_words(a) for a in names)}" for state, names in held.items())
        parts.append(_text(16, y, f"{player.title()} allies - {said or 'none given'}", 13, PLAYER_INK[player]))
        y += 20
    height = y + 10
    label = _heading(moment) + (f"; step {moment.step.step} {moment.step.outcome}" if moment.step else "")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" role="img" '
            f'aria-label={quoteattr(label)} font-family="sans-serif">'
            f'<title>{escape(title)}: {escape(label)}</title>'
            f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>' + "".join(parts) + "</svg>")


def _heading(moment: BoardMoment) -> str:
    when = "At the start" if moment.moment == 0 else f"After step {moment.moment}"
    chapter = f"chapter {moment.chapter}" if moment.chapter else "the setup (no layout yet)"
    turn = f", {moment.turn}'s turn" if moment.turn else ""
    won = f"; {moment.winner} has won" if moment.winner else ("; the game ended in a draw" if moment.drawn else "")
    return f"{when}: {chapter}{turn}{won}"


def _layout(moment: BoardMoment, top: int) -> list[str]:
    """The chapter's rows, each centred on the layout's middle and drawn over the row above it (a row covers the
    cards of the row above that it overlaps)."""
    parts = []
    middle = 290
    for index, row in enumerate(moment.layout):
        width = len(row) * CARD_W + (len(row) - 1) * CARD_GAP
        y = top + index * ROW_PITCH
        for position, card in enumerate(row):
            x = middle - width / 2 + position * (CARD_W + CARD_GAP)
            parts.extend(_card(card, x, y))
    return parts


def _card(card: LayoutCard, x: float, y: float) -> list[str]:
    label = f"{card.row}.{card.card}"
    if not card.present:
        return [f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="#ffffff" stroke="{MUTED}" '
                f'stroke-dasharray="5 4"/>', _text(x + 8, y + 16, f"{label} taken", 12, MUTED)]
    fill, ink = (PAPER, INK) if card.face_up else (DARK, "#ffffff")
    edge = ' stroke="#146c2e" stroke-width="4"' if card.available else f' stroke="{INK}" stroke-width="1.5"'
    face = "up" if card.face_up else "down"
    parts = [f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="{fill}"{edge}/>',
             _text(x + 8, y + 16, f"{label} {face}", 12, ink)]
    if card.tokens:
        parts.append(f'<circle cx="{x + CARD_W - 11:g}" cy="{y + 12:g}" r="9" fill="#f2c14e" stroke="#5c4300"/>')
        parts.append(_text(x + CARD_W - 11, y + 16, str(card.tokens), 11, INK, "middle", "bold"))
    return parts


def _side_panel(moment: BoardMoment, x: int, y: int) -> list[str]:
    lines = [("Power tokens", True), *((f"{_words(p)}: {n}", False) for p, n in moment.tokens.items()),
             ("Coins", True), *((f"{p}: {n}", False) for p, n in moment.coins.items()),
             (f"reserve: {moment.reserve}", False),
             ("Tracks", True), *((f"{t}: {n}", False) for t, n in moment.tracks.items()),
             *((("Tokens elsewhere", True),) if moment.tokens_elsewhere else ()),
             *((f"{_words(p)}: {n}", False) for p, n in moment.tokens_elsewhere.items())]
    parts = [f'<rect x="{x - 10}" y="{y - 18}" width="{WIDTH - x}" height="{len(lines) * 19 + 12}" rx="6" '
             f'fill="{PAPER}" stroke="{MUTED}"/>']
    for i, (words, heading) in enumerate(lines):
        parts.append(_text(x, y + i * 19, words, 13, weight="bold" if heading else "normal"))
    return parts


def _board(moment: BoardMoment, top: int) -> list[str]:
    """The regions as boxes with the connections the scenario names as lines between them."""
    centre = {}
    for region in moment.regions:
        column, row = REGION_PLACES[region.name]
        x = 16 + column * (REGION_W + 10) + ((REGION_W + 10) // 2 if row == 0 else 0)
        centre[region.name] = (x, top + row * (REGION_H + 24))
    parts = []
    for link in moment.connections:
        (ax, ay), (bx, by) = (centre[r] for r in link.regions)
        stroke = ' stroke-dasharray="6 4"' if link.blocked_for else ""
        parts.append(f'<line x1="{ax + REGION_W / 2:g}" y1="{ay + REGION_H / 2:g}" x2="{bx + REGION_W / 2:g}" '
                     f'y2="{by + REGION_H / 2:g}" stroke="{MUTED}" stroke-width="3"{stroke}/>')
    for region in moment.regions:
        x, y = centre[region.name]
        parts.append(f'<rect x="{x}" y="{y}" width="{REGION_W}" height="{REGION_H}" rx="6" fill="{PAPER}" '
                     f'stroke="{INK}"/>')
        parts.append(_text(x + 8, y + 18, region.name.title(), 13, weight="bold"))
        units = "  ".join(f"{p[0].upper()} {n}" for p, n in region.units.items())
        parts.append(_text(x + 8, y + 37, f"units {units}", 13))
        forts = ", ".join(region.fortresses)
        parts.append(_text(x + 8, y + 56, f"Fortress: {forts}" if forts else "no Fortress", 12,
                           PLAYER_INK[region.fortresses[0]] if len(region.fortresses) == 1 else INK))
        if region.tile:
            state = "open" if region.tile_open else (f"{region.tile_owner}'s" if region.tile_owner else "not open")
            count = region.tile_tokens
            tokens = f", {count} token{'s' if count != 1 else ''}" if count else ""
            parts.append(_text(x + 8, y + 75, f"tile {_words(region.tile)}: {state}{tokens}", 12, MUTED))
    for link in moment.connections:
        if link.tokens or link.blocked_for:
            (ax, ay), (bx, by) = (centre[r] for r in link.regions)
            blocked = f" blocked for {', '.join(link.blocked_for)}" if link.blocked_for else ""
            parts.append(_text((ax + bx) / 2 + REGION_W / 2, (ay + by) / 2 + REGION_H / 2 - 4,
                               f"{link.tokens} tokens{blocked}" if link.tokens else blocked.strip(), 12, INK,
                               "middle", "bold"))
    return parts


def moment_words(moment: BoardMoment) -> str:
    """One moment in words, for the command line: the step that led to it, then the layout (each card up or down,
    * where it can be taken, +N its Power tokens), the token places, the coins and the board's units and
    Fortresses."""
    lines = [f"moment {moment.moment}: {_heading(moment)}"]
    if moment.step is not None:
        by = f" by {', '.join(moment.step.rules)}" if moment.step.rules else ""
        lines.append(f"  step {moment.step.step}, {moment.step.words}: {moment.step.outcome}{by}")
    for row in moment.layout:
        cards = ["taken" if not c.present else ("up" if c.face_up else "down") + ("" if c.covered else "*")
                 + (f"+{c.tokens}" if c.tokens else "") for c in row]
        lines.append(f"  row {row[0].row}: " + "  ".join(f"{c.row}.{c.card} {w}" for c, w in zip(row, cards,
                                                                                                strict=True)))
    stacks = ", ".join(f"{r} {n}" for r, n in moment.stacks.items() if n) or "none"
    placed = "".join(f", {n} on the {r} stack" for r, n in moment.stack_tokens.items())
    lines.append("  tokens " + ", ".join(f"{_words(p)} {n}" for p, n in moment.tokens.items()) + placed
                 + f"; Alliance tokens in the stacks {stacks}; coins "
                 + ", ".join(f"{p} {n}" for p, n in moment.coins.items())
                 + f", reserve {moment.reserve}"
                 + "".join(f"; {n} elsewhere, at {p}" for p, n in moment.tokens_elsewhere.items()))
    held = [f"{r.name}: " + ", ".join([*(f"{p} {n} units" for p, n in r.units.items() if n),
                                       *(f"{p}'s Fortress" for p in r.fortresses)])
            for r in moment.regions if any(r.units.values()) or r.fortresses]
    if held:
        lines.append("  board " + "; ".join(held))
    return "\n".join(lines)
