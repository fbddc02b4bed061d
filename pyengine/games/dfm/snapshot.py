"""A Duel moment written as a scenario table of its own (`pyengine board --snapshot`, BoardResult.snapshot): the
chapter, whose turn it is and the `state:` fields (docs/scenarios/dfm.md) that give every fluent the encodings find
at the moment (BoardMoment.fluents, rules/dfm/board.lp), no actions, and the questions the scenario asks at that
moment.

Nothing is decided here: each fluent is written in the field the reader reads it from, and the parts of the table
that are not fluents (the board's connections, the layout's described or dealt cards, the catalog, the readings) are
kept as written. A fluent no field can give (or a set of them the reader cannot take together, such as real Alliance
tokens held beside counted ones, or a count below zero) is a SnapshotError naming it, never left out: the table would
answer otherwise. That the game is over, which no field says either, is said in the table's description."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pyengine.core.errors import InputError
from pyengine.core.results import Choices
from pyengine.core.scenario import Scenario
from pyengine.core.yamlio import plain
from pyengine.games.dfm.board import BoardMoment
from pyengine.games.dfm.reader import NONE_UNLESS_GIVEN
from pyengine.games.dfm.terms import ALLY_STATES, FACTIONS, TOKEN_PLACES

# The fields of a written table that a snapshot keeps as written (its moment writes the chapter, the turn and the
# state anew; its actions are left out, its questions chosen).
KEPT = ("game", "description", "cites", "readings", "profile", "catalog")
# The `state:` fields that describe the layout of the chapter the scenario starts in: kept while that chapter is in
# play, and left out once another is (their facts are of that chapter's layout only).
LAYOUT_FIELDS = ("colours", "cards", "deal")
# The true/false fluents a state gives in `flags:` (those without a field of their own).
FLAGS = ("called", "blocked", "chain", "forced", "locked", "locked_by", "protected", "three_used", "owned", "took")
# The field naming the moment each kind of question is asked at; a kind about a step (`action`, `outcomes`) is left
# out of a snapshot, and one about no step or the start (`pairing`, `setup`) is asked at the start.
MOMENT_FIELDS = {"value": "after", "tokens": "after", "winner": "after", "plays": "at", "allowed": "at"}
STEP_KINDS = ("action", "outcomes")
# The expectation of the rules that decide a question: the step rules that led to the moment are not the snapshot's.
STEP_EXPECTATIONS = ("rules",)


class SnapshotError(InputError):
    """A fluent of the moment that no field of a Duel table can give: the snapshot is not written."""


class _Fluents:
    """A moment's fluents, each taken once by the field that writes it; those left at the end are unwritten."""

    def __init__(self, fluents: Mapping[Any, int | bool], where: str):
        self.left = dict(fluents)
        self.where = where

    def take(self, name: str) -> list[tuple[tuple[Any, ...], int | bool]]:
        """The fluents named `name`, as (arguments, value), taken out of those left (a value of 0 among them)."""
        found = [(f, v) for f, v in self.left.items() if (f[0] if isinstance(f, tuple) else f) == name]
        for f, _ in found:
            del self.left[f]
        return [(f[1:] if isinstance(f, tuple) else (), v) for f, v in found]

    def counts(self, name: str) -> dict[tuple[Any, ...], int]:
        """The numeric fluents named `name` that are not zero, by arguments."""
        return {args: int(v) for args, v in self.take(name) if v}

    def error(self, what: str, expected: str) -> SnapshotError:
        """The moment cannot be written: `what`, and what a table would need."""
        return SnapshotError(f"{self.where}: {what}", field="state", expected=expected)


def moment_table(scenario: Scenario, moment: BoardMoment, readings: Choices, overrides: Choices,
                 described: Mapping[str, list[tuple[Any, ...]]]) -> dict[str, Any]:
    """The table of a Duel scenario at `moment`, found under `readings`, as the data a scenario file loads into: the
    table's kept fields as written (with the reading choices given besides, `overrides`, in its readings), the
    chapter, the turn and the state at the moment, and the questions asked at it (their moment and step rules left
    out). A question asked under other readings than the moment's asks about the moment those readings lead to:
    it is left out, and the table's description says so."""
    written = plain(scenario.data) if isinstance(scenario.data, Mapping) else {"game": scenario.game.name}
    where = "the start" if moment.moment == 0 else f"step {moment.moment}"
    table: dict[str, Any] = {"game": written.get("game", scenario.game.name),
                             "title": f"{scenario.title} (after {where})"}
    table.update({k: written[k] for k in KEPT if k in written and k != "game"})
    if overrides:
        table["readings"] = {**(table.get("readings") or {}), **overrides}
    fluents = _Fluents(moment.fluents, f"{scenario.path} after {where}")
    below = sorted(str(f) for f, v in moment.fluents.items() if not isinstance(v, bool) and v < 0)
    if below:
        raise fluents.error("below zero: " + ", ".join(below), "counts from 0, as a table gives them")
    table["chapter"] = moment.chapter
    turn = [p for (p,), held in fluents.take("turn") if held]
    if len(turn) != 1:
        raise fluents.error(f"{len(turn)} players have the turn", "one player whose turn it is (turn:)")
    table["turn"] = turn[0]
    given = written.get("state")
    table["state"] = _state(given if isinstance(given, dict) else {}, fluents, moment, scenario.state.chapter,
                            described)
    questions, elsewhere = _questions(scenario, written, moment.moment, {**readings, **overrides}, overrides)
    notes = [table["description"]] if table.get("description") else []
    if moment.winner or moment.drawn:
        notes.append(f"The game is over at this moment ({f'won by {moment.winner}' if moment.winner else 'drawn'}): "
                     "no field of a table says so, so this table gives the state, and a win that rests on the step's "
                     "event (a move of the Nazgul, the third chapter's last card, Lobelia's placement) is not its.")
    if elsewhere:
        notes.append(f"Left out: {', '.join(elsewhere)}, asked under readings the steps to this moment were not "
                     "taken under (a snapshot under those readings asks them).")
    if notes:
        table["description"] = " ".join(notes)
    if questions:
        table["questions"] = questions
    return table


def _state(written: dict[str, Any], fluents: _Fluents, moment: BoardMoment, chapter: int,
           described: Mapping[str, list[tuple[Any, ...]]]) -> dict[str, Any]:
    """The `state:` of the moment: its fields from the fluents, the board's connections and (while the chapter the
    scenario starts in is in play) its layout's descriptions as written; a fluent left unwritten is an error."""
    state: dict[str, Any] = {"connections": written.get("connections", "standard")}
    if moment.chapter == chapter:
        state.update({k: written[k] for k in LAYOUT_FIELDS if k in written})
    elif "deal" in written:
        raise fluents.error(f"chapter {moment.chapter} is in play, dealt from the seed after chapter {chapter}",
                            "a deal of the chapter in play: deal: deals the chapter a table starts in first")
    fluents.take("chapter")
    _tokens(state, fluents, moment, described)
    _counts(state, fluents, written)
    _sides(state, fluents, written, described)
    _flags(state, fluents)
    unwritten = sorted(str(f) for f, v in fluents.left.items() if v)
    if unwritten:
        raise fluents.error("no field of a Duel table gives " + ", ".join(unwritten),
                            "a fluent of a `state:` field or of `flags:` (docs/scenarios/dfm.md)")
    return {k: v for k, v in state.items() if v is not None}


def _tokens(state: dict[str, Any], fluents: _Fluents, moment: BoardMoment,
            described: Mapping[str, list[tuple[Any, ...]]]) -> None:
    """The Power tokens: by each token place (`tokens:`), on a stack, tile or connection (`tokens_at:`), and the
    layout's tokens no longer on their cards (`tokens_gone:`), with the layout's cards taken (`taken:`)."""
    places: dict[str, int] = {}
    at: list[list[Any]] = []
    on_cards: dict[tuple[int, int], int] = {}
    for (place,), n in fluents.take("tok"):
        if isinstance(place, str) and place in TOKEN_PLACES:
            places[place] = int(n)
        elif isinstance(place, tuple) and place[0] == "card":
            on_cards[place[1], place[2]] = int(n)
        elif n:
            at.append([{"conn": "connection"}.get(place[0], place[0]), *place[1:], int(n)])
    state["tokens"] = {p: places.get(p, 0) for p in TOKEN_PLACES}
    state["tokens_at"] = sorted(at) or None
    layout = {(r, c) for ch, r, c in described.get("layout_token", []) if ch == moment.chapter}
    stray = sorted(f"card {r}.{c}: {n}" for (r, c), n in on_cards.items() if n > (1 if (r, c) in layout else 0))
    if stray:
        raise fluents.error("Power tokens on layout cards beyond their own (" + "; ".join(stray) + ")",
                            "a layout card's one token, or none (tokens_gone:)")
    state["tokens_gone"] = sorted([r, c] for r, c in layout if not on_cards.get((r, c))) or None
    state["taken"] = sorted([r, c] for (r, c), held in fluents.take("taken") if held) or None


def _counts(state: dict[str, Any], fluents: _Fluents, written: dict[str, Any]) -> None:
    """The counts: coins and the reserve, the Ring track, the Alliance stacks, extra turns, race symbols and the
    pairs of them used, and the units on the board (the whole board: `units: {}` for none)."""
    state["coins"] = {p: n for (p,), n in _all(fluents.take("coins"))}
    for name in ("reserve", "ring", "sauron_steps", "nazgul"):
        state[name] = next((int(n) for _, n in fluents.take(name)), 0)
    if not _given(written, "ring", state["ring"] or state["sauron_steps"] or state["nazgul"]):
        state["ring"] = state["sauron_steps"] = state["nazgul"] = None
    state["stacks"] = _part(written, "stacks", {r: n for (r,), n in fluents.counts("stack").items()})
    state["extra_turns"] = _part(written, "extra_turns", {p: n for (p,), n in fluents.counts("extra_turns").items()})
    state["symbols"] = _part(written, "symbols", _by_player(fluents.counts("symbols")))
    state["pairs_used"] = _by_player(fluents.counts("pairs_used")) or None
    state["units"] = _by_player(fluents.counts("units"))


def _sides(state: dict[str, Any], fluents: _Fluents, written: dict[str, Any],
           described: Mapping[str, list[tuple[Any, ...]]]) -> None:
    """What each side has: allies by state, Fortresses, open tiles, the discard pile, grey cards and skills, and
    Alliance tokens with the Eagle's place."""
    allies: dict[str, dict[str, list[str]]] = {}
    for status in ALLY_STATES:
        for (player, ally), held in fluents.take(status):
            if held:
                allies.setdefault(player, {}).setdefault(status, []).append(ally)
    state["allies"] = _part(written, "allies", {p: {s: sorted(a) for s, a in by.items()} for p, by in allies.items()})
    forts: dict[str, list[str]] = {}
    for (player, region), held in fluents.take("fortress"):
        if held:
            forts.setdefault(player, []).append(region)
    state["fortresses"] = _part(written, "fortresses", {p: sorted(r) for p, r in forts.items()})
    state["tiles"] = _part(written, "tiles", sorted(x for (x,), held in fluents.take("open_tile") if held))
    _pile(state, fluents, written, described)
    _grey(state, fluents, written, described)
    _alliance(state, fluents, written, described)


def _pile(state: dict[str, Any], fluents: _Fluents, written: dict[str, Any],
          described: Mapping[str, list[tuple[Any, ...]]]) -> None:
    """The discard pile: card by card (`pile:`) where it holds real cards, counted (`discard_pile:`, `discards:`)
    otherwise; real cards beside counted ones are an error (the reader takes one or the other)."""
    count = next((int(n) for _, n in fluents.take("discard_pile")), 0)
    colours = {c: n for (c,), n in fluents.counts("discarded").items()}
    real = sorted(x for (x,), held in fluents.take("in_pile") if held)
    if real:
        colour_of = dict(described.get("real_card_colour", []))
        theirs: dict[str, int] = {}
        for card in real:
            theirs[colour_of.get(card, "?")] = theirs.get(colour_of.get(card, "?"), 0) + 1
        if count != len(real) or theirs != colours:
            raise fluents.error(f"a discard pile of {count} cards ({colours}) beside its {len(real)} real ones "
                                f"({', '.join(real)})", "the pile card by card (pile:) or counted, not both")
        state["pile"] = real
        return
    if _given(written, "discard_pile", count or colours):
        state["discard_pile"] = count
        state["discards"] = colours or None


def _grey(state: dict[str, Any], fluents: _Fluents, written: dict[str, Any],
          described: Mapping[str, list[tuple[Any, ...]]]) -> None:
    """Grey cards and skills: the real grey cards by id (`grey_cards:`), and the counted ones (`grey:`) with the
    skills beside them (`skills:`, `skill_choices:`), the real cards' own skills not counted twice."""
    real: dict[str, list[str]] = {}
    for (player, card), held in fluents.take("grey_card"):
        if held:
            real.setdefault(player, []).append(card)
    counted = {p: n - len(real.get(p, [])) for (p,), n in _all(fluents.take("grey"))}
    skills = _by_player(fluents.counts("skills"))
    choices: dict[str, list[list[str]]] = {}
    for (player, either), n in fluents.counts("either").items():
        choices.setdefault(player, []).extend([list(either[1:])] * n)
    for player, cards in real.items():
        own = skills.setdefault(player, {})
        for card, skill, n in described.get("real_card_skill", []):
            if card in cards:
                own[skill] = own.get(skill, 0) - n
        for card, either in described.get("real_card_either", []):
            if card in cards:
                choices.setdefault(player, []).append([f"-{s}" for s in either[1:]])
    choices = {p: _cancelled(c) for p, c in choices.items()}
    skills = {p: {s: n for s, n in by.items() if n} for p, by in skills.items()}
    if (any(n < 0 for n in counted.values()) or any(n < 0 for by in skills.values() for n in by.values())
            or any(s.startswith("-") for c in choices.values() for one in c for s in one)):
        raise fluents.error(f"grey cards {counted} and skills {skills} beside the real grey cards {real}",
                            "as many grey cards and skills as the real ones give, or more")
    state["grey_cards"] = {p: sorted(c) for p, c in real.items()} or None
    if not _given(written, "grey", any(counted.values()) or skills or any(choices.values()) or real):
        return
    state["grey"] = {p: n for p, n in counted.items() if n} or None
    # A player's counted grey cards go with the skills they give, named even when none (the reader asks it).
    state["skills"] = {p: skills.get(p, {}) for p in FACTIONS if skills.get(p) or counted.get(p)} or None
    state["skill_choices"] = {p: c for p, c in choices.items() if c} or None


def _alliance(state: dict[str, Any], fluents: _Fluents, written: dict[str, Any],
              described: Mapping[str, list[tuple[Any, ...]]]) -> None:
    """Alliance tokens held: real ones by id (`alliance_tokens:`, the Eagle among them in front of its holder) or
    counted by race (`alliance:`), and the Eagle's place (`eagle:`) where no token held by id puts it."""
    counts = _by_player(fluents.counts("alliance"))
    held: dict[str, list[str]] = {}
    for (player, token), is_held in fluents.take("holds_token"):
        if is_held:
            held.setdefault(player, []).append(token)
    out = sorted(x for (x,), is_out in fluents.take("token_out") if is_out)
    eagle = next((x for (x,), placed in fluents.take("eagle_at") if placed), None)
    eagles = {x for (x,) in described.get("eagle_token", [])}
    if held or out:
        race_of = dict(described.get("token_race", []))
        by_race = {p: tally for p, ts in held.items() if (tally := _tally(race_of[t] for t in ts if t not in eagles))}
        named = sorted(t for ts in held.values() for t in ts)
        if by_race != counts or named != out:
            raise fluents.error(f"Alliance tokens held {counts}, of which named {held}, out of their stacks {out}",
                                "every token held named by id (alliance_tokens:), or none")
        state["alliance_tokens"] = {p: sorted(ts) for p, ts in held.items()}
        if any(eagle == p and eagles & set(ts) for p, ts in held.items()):
            eagle = None
    else:
        state["alliance"] = _part(written, "alliance", counts)
    if eagle is not None:
        state["eagle"] = eagle


def _flags(state: dict[str, Any], fluents: _Fluents) -> None:
    """The true/false fluents without a field of their own (`flags:`)."""
    flags = [[name, *args] for name in FLAGS for args, held in fluents.take(name) if held]
    state["flags"] = sorted(flags, key=str) or None


def _questions(scenario: Scenario, written: dict[str, Any], moment: int, readings: Choices,
               overrides: Choices) -> tuple[list[dict[str, Any]], list[str]]:
    """The questions the scenario asks at `moment`, as written but for their moment and step rules; and the ids of
    those asked at it under choices other than `readings` (the moment's; the `overrides` given prevail over a
    question's own)."""
    entries = written.get("questions") or []
    if len(entries) != len(scenario.questions):
        return [], []
    asked, elsewhere = [], []
    for question, entry in zip(scenario.questions, entries, strict=True):
        field = MOMENT_FIELDS.get(question.kind)
        if question.kind in STEP_KINDS or (question.params.get(field, 0) if field else 0) != moment:
            continue
        if any(readings.get(k) != v for k, v in question.readings.items() if k not in overrides):
            elsewhere.append(question.id)
        else:
            asked.append({k: v for k, v in entry.items() if k != field and k not in STEP_EXPECTATIONS})
    return asked, elsewhere


def _given(written: dict[str, Any], part: str, found: Any) -> bool:
    """Whether a part of the state is written: the moment has some of it, or the table gave it (so that a part it
    gives none of stays none, assumption none_given)."""
    return bool(found) or any(written.get(key) is not None for key in NONE_UNLESS_GIVEN[part])


def _part(written: dict[str, Any], part: str, found: Any) -> Any:
    """A part of the state as found, or None (left out) where it is empty and the table gave none of it."""
    return found if _given(written, part, found) else None


def _all(found: Iterable[tuple[tuple[Any, ...], int | bool]]) -> list[tuple[tuple[Any, ...], int]]:
    """Numeric fluents with every value, zeros too, in a steady order."""
    return sorted((args, int(n)) for args, n in found)


def _by_player(counts: dict[tuple[Any, ...], int]) -> dict[str, dict[str, int]]:
    """Counts by (player, name) as a mapping of each player to its counts."""
    found: dict[str, dict[str, int]] = {}
    for (player, name), n in sorted(counts.items()):
        found.setdefault(player, {})[name] = n
    return found


def _cancelled(sets: list[list[str]]) -> list[list[str]]:
    """Sets of skills with each one marked "-" cancelling one equal set (what a real card gives, from the player's
    sets); a marked one left over has no set to cancel."""
    left = [one for one in sets if not one[0].startswith("-")]
    for one in (o for o in sets if o[0].startswith("-")):
        plain = [s[1:] for s in one]
        if plain in left:
            left.remove(plain)
        else:
            left.append(one)
    return left


def _tally(names: Iterable[str]) -> dict[str, int]:
    """How many times each name occurs."""
    found: dict[str, int] = {}
    for name in names:
        found[name] = found.get(name, 0) + 1
    return found


