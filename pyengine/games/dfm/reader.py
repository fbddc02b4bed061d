"""How a Duel scenario's state and questions read: the chapter and whose turn it is, each field of the state (read
apart, or with the fields it goes with) as the facts of the start, its actions (actions.py), and each question's
parameters; every error located."""

from __future__ import annotations

from typing import Any, ClassVar

from pyengine.core.asp import Const, Fact, Term, fact, term
from pyengine.core.errors import Collected, InputError, Unread, closest
from pyengine.core.fields import Fields
from pyengine.games.dfm.actions import ACTION_FIELDS, UNREAD_ACTION, read_action
from pyengine.games.dfm.layout import read_layout
from pyengine.games.dfm.real_cards import (
    open_catalog,
    read_grey_cards,
    read_pile,
    read_tokens_held,
    real_tiles,
    real_tokens,
    skill_gains,
    skill_set,
    skill_set_facts,
)
from pyengine.games.dfm.terms import (
    ALLIES,
    ALLY_STATES,
    COLOURS,
    FACTIONS,
    RACES,
    RANDOM_CHOICES,
    REGIONS,
    SKILLS,
    TOKEN_PLACES,
    State,
)
from pyengine.games.dfm.values import (
    BOOLEAN,
    DERIVED,
    EAGLE_PLACES,
    NUMERIC,
    board_name,
    fluent_term,
    numbers,
    position,
    token_location,
)

# The fields of a scenario's `state:`.
STATE_FIELDS = {"tokens", "tokens_gone", "taken", "coins", "reserve", "allies", "units", "connections", "nazgul",
                "stacks", "alliance", "grey", "tiles", "discard_pile", "flags", "tokens_at", "ring", "symbols",
                "fortresses", "extra_turns", "colours", "discards", "eagle", "cards", "deal", "skills",
                "skill_choices", "pile", "alliance_tokens", "grey_cards", "sauron_steps", "pairs_used"}
# The counts of a state that are 0 when it does not give them.
ZERO_UNLESS_GIVEN = ("discard_pile",)
# The parts of a state that are none when it gives none of their fields (none_given/1: every answer names each, in
# chapter 1 as the setup's where the setup has none of it, rules/dfm/assumptions.lp).
NONE_UNLESS_GIVEN = {"stacks": ("stacks",), "eagle": ("eagle",), "tiles": ("tiles",), "allies": ("allies",),
                  "ring": ("ring", "sauron_steps", "nazgul"), "grey": ("grey", "skills", "skill_choices", "grey_cards"),
                  "alliance": ("alliance", "alliance_tokens"), "discard_pile": ("pile", "discard_pile", "discards"),
                  "symbols": ("symbols",), "fortresses": ("fortresses",), "extra_turns": ("extra_turns",)}
# The fields of a state read together (a card's colour may be given in `colours:` or in its `cards:` entry, once;
# a player's grey cards on real cards come with their skills; real Alliance tokens held are given by id or counted,
# the Eagle among them or in `eagle:`; the Nazgul's steps are checked against the Fellowship's and their own).
STATE_PARTS = {**{key: {"colours", "cards", "deal"} for key in ("colours", "cards", "deal")},
               **{key: {"grey", "skills", "skill_choices", "grey_cards"}
                  for key in ("grey", "skills", "skill_choices", "grey_cards")},
               **{key: {"pile", "discard_pile", "discards"} for key in ("pile", "discard_pile", "discards")},
               **{key: {"ring", "sauron_steps", "nazgul"} for key in ("ring", "sauron_steps", "nazgul")},
               **{key: {"alliance", "alliance_tokens", "eagle"} for key in ("alliance", "alliance_tokens", "eagle")}}


def _state(state: State, fields: Fields) -> None:
    """One part of the state's fields (a field, or those STATE_PARTS reads together) as facts of the start."""
    _places(state, fields)
    _counts(state, fields)
    _sides(state, fields)
    _board(state, fields)


def _places(state: State, fields: Fields) -> None:
    """The discard pile card by card (`pile:`), the Power tokens in each place (`tokens:`), the discard pile's
    colours counted (`discards:`) and the layout in play (layout.py)."""
    facts = state.facts
    if fields.has("pile"):
        read_pile(state, fields)
    for place, n in numbers(fields, "tokens", TOKEN_PLACES).items():
        facts += [fact("init_num", term("tok", Const(place)), n), fact("given_tokens", Const(place))]
    for colour, n in numbers(fields, "discards", COLOURS).items():
        facts.append(fact("init_num", term("discarded", Const(colour)), n))
    read_layout(state, fields)


def _counts(state: State, fields: Fields) -> None:
    """The Power tokens lying elsewhere (`tokens_at:`), the layout's tokens gone and cards taken, and the counts of
    coins, the reserve, the Nazgul, the discard pile, the Ring track, the Alliance stacks and the extra turns."""
    facts = state.facts
    each = fields.apart()
    for item, line, column, path in fields.items("tokens_at"):
        with each.part():
            facts.append(fact("init_num", *token_location(item, fields, path, line, column)))
    for key in ("tokens_gone", "taken"):
        for item, line, column, path in fields.items(key):
            with each.part():
                row, col = position(item, fields, path, line, column)
                facts.append(fact("token_gone", row, col) if key == "tokens_gone"
                             else fact("init", term("taken", row, col)))
    each.raise_any()
    for player, n in numbers(fields, "coins", FACTIONS).items():
        facts.append(fact("init_num", term("coins", Const(player)), n))
    if fields.has("reserve"):  # otherwise the coins the players do not hold (rules/dfm/state.lp)
        facts.append(fact("given_reserve", fields.whole("reserve", 0, minimum=0)))
    for name in ZERO_UNLESS_GIVEN:
        if fields.has(name):
            facts.append(fact("init_num", Const(name), fields.whole(name, 0, minimum=0)))
    # The Fellowship's steps on the Ring track, and the steps of the Nazgul's own moves there (by which Sauron
    # earns its bonuses, rules/dfm/ring_bonuses.lp; 0 unless given, as assumption ring_track says); the Nazgul's own
    # steps from their start, where not given, follow from those two (rules/dfm/state.lp).
    track = {name: fields.whole(name, 0, minimum=0) for name in ("ring", "sauron_steps", "nazgul") if fields.has(name)}
    facts += [fact("init_num", Const(name), n) for name, n in track.items() if name != "nazgul"]
    if "nazgul" in track:
        carried = track.get("ring", 0) + track.get("sauron_steps", 0)
        # Every step of the Fellowship carried the Nazgul along, and their own moves took them further: a state with
        # fewer Nazgul steps is none the game can reach (assumption ring_track).
        if track["nazgul"] < carried:
            raise fields.error("nazgul", f"got {track['nazgul']}, fewer than ring + sauron_steps ({carried})",
                               expected=f"{carried} or more: the Nazgul move with each step of the Fellowship and by "
                                        "their own moves (or leave nazgul: out: ring + sauron_steps)")
        facts.append(fact("given_nazgul", track["nazgul"]))
    for race, n in numbers(fields, "stacks", RACES).items():
        facts.append(fact("init_num", term("stack", Const(race)), n))
    for player, n in numbers(fields, "extra_turns", FACTIONS).items():
        facts.append(fact("init_num", term("extra_turns", Const(player)), n))


def _sides(state: State, fields: Fields) -> None:
    """What each side has: grey cards and skills, allies in each of their states, units by region, Alliance tokens
    (counted by race, or real ones by id), race symbols, the pairs of them already used for a token, and
    Fortresses."""
    facts = state.facts
    each = fields.apart()
    _skills(state, fields)
    allies = fields.sub("allies", set(FACTIONS))
    for player in FACTIONS:
        sub = allies.sub(player, set(ALLY_STATES))
        for status in ALLY_STATES:
            for item, line, column, path in sub.items(status):
                with each.part():
                    if not isinstance(item, str) or item not in ALLIES:
                        raise InputError(f"unknown ally {item!r}", file=fields.file, line=line, column=column,
                                         field=path, expected="one of " + ", ".join(ALLIES),
                                         suggestion=closest(item, ALLIES) if isinstance(item, str) else None)
                    facts.append(fact("init", term(status, Const(player), Const(item))))
    units = fields.sub("units", set(FACTIONS))
    alliance = fields.sub("alliance", set(FACTIONS))
    symbols = fields.sub("symbols", set(FACTIONS))
    pairs = fields.sub("pairs_used", set(FACTIONS))
    fortresses = fields.sub("fortresses", set(FACTIONS))
    for player in FACTIONS:
        with each.part():
            named = units.sub(player, set(units.mapping(player)))
            unknown = [str(region) for region in named.data if region not in REGIONS]
            for region in unknown:
                each.add(named.error(region, f"unknown region {region!r}", expected="one of the board's regions: "
                                     + ", ".join(REGIONS), suggestion=closest(region, REGIONS)))
            for region, n in numbers(units, player, REGIONS).items() if not unknown else ():
                facts.append(fact("init_num", term("units", Const(player), region), n))
        with each.part():
            for race, n in numbers(alliance, player, RACES).items():
                facts.append(fact("init_num", term("alliance", Const(player), Const(race)), n))
        with each.part():
            for race, n in numbers(symbols, player, RACES).items():
                facts.append(fact("init_num", term("symbols", Const(player), Const(race)), n))
        with each.part():
            for race, n in numbers(pairs, player, RACES).items():
                facts.append(fact("init_num", term("pairs_used", Const(player), Const(race)), n))
        for item, line, column, path in fortresses.items(player):
            with each.part():
                region = board_name(item, "region", file=fields.file, line=line, column=column, field=path)
                facts.append(fact("init", term("fortress", Const(player), region)))
    read_tokens_held(state, fields)
    each.raise_any()


def _board(state: State, fields: Fields) -> None:
    """The board: its connections, the flags of the start (true/false fluents), the Eagle's place and the open
    Landmark tiles."""
    facts = state.facts
    each = fields.apart()
    _connections(facts, fields, each)
    for item, line, column, path in fields.items("flags"):
        with each.part():
            fluent = fluent_term(item, fields, "flags")
            if fluent.name not in BOOLEAN or fluent.name in DERIVED:
                expected = ("the Eagle's one place in the state's own field, eagle: one of " + ", ".join(EAGLE_PLACES)
                            if fluent.name == "eagle_at" else "a true/false fluent such as [locked, elves, fellowship]")
                raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                                 expected=expected)
            facts.append(fact("init", fluent))
    if fields.has("eagle"):  # the Eagle's one place; the Hobbit counts are of the other Hobbit tokens
        with each.part():
            facts.append(fact("init", term("eagle_at", Const(fields.choice("eagle", EAGLE_PLACES) or ""))))
    for item, line, column, path in fields.items("tiles"):
        with each.part():
            tile = board_name(item, "tile", file=fields.file, line=line, column=column, field=path)
            facts.append(fact("init", term("open_tile", tile)))
    each.raise_any()


def _connections(facts: list[Fact], fields: Fields, each: Collected) -> None:
    """`connections:`, the pairs of regions the scenario's board joins (each bad pair's error gathered in `each`),
    or `standard`, the base game's board (rules/dfm/connections.lp)."""
    given = fields.data.get("connections")
    if isinstance(given, str):
        if given != "standard":
            raise fields.error("connections", f"got {given!r}",
                               expected="standard (the base game's board) or a list of pairs of regions",
                               suggestion=closest(given, ("standard",)))
        facts.append(fact("board_kind", Const("standard")))
        return
    for item, line, column, path in fields.items("connections"):
        with each.part():
            if not (isinstance(item, list) and len(item) == 2):
                raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                                 expected="a pair of region names, e.g. [gondor, rohan]")
            ends = [board_name(r, "region", file=fields.file, line=line, column=column, field=path) for r in item]
            facts.append(fact("connected", *ends))


def _skills(state: State, fields: Fields) -> None:
    """Each player's grey cards and skills: `grey_cards:` (real grey cards by id, each in its player's area as
    itself, grey_card/2, with the skills it gives), `grey:` (more grey cards, counted), `skills:` (the skills
    of the counted ones, by name) and `skill_choices:` (those that give one skill among several, each a list of
    those skills), for a real card's skill cost (rules/dfm/card_skills.lp). On real cards, a player's counted
    grey cards must come with their skills: a skill cost never rests on skills the state leaves out."""
    facts = state.facts
    grey = numbers(fields, "grey", FACTIONS)
    for player, n in grey.items():
        named = player in fields.mapping("skills") or player in fields.mapping("skill_choices")
        if state.real_cards is not None and n and not named:
            raise fields.sub("grey", set(FACTIONS)).error(
                player, f"{player} has {n} grey cards whose skills the state does not name",
                expected=f"skills: {{{player}: {{SKILL: N, ...}}}} or skill_choices: {{{player}: [[SKILL, ...]]}}"
                         " beside grey:, for the skill costs of the real cards (or grey_cards: by id)")
    held = read_grey_cards(state, fields)
    skills = fields.sub("skills", set(FACTIONS))
    choices = fields.sub("skill_choices", set(FACTIONS))
    for player in FACTIONS:
        cards = held.get(player, [])
        if grey.get(player, 0) + len(cards):
            facts.append(fact("init_num", term("grey", Const(player)), grey.get(player, 0) + len(cards)))
        totals = numbers(skills, player, SKILLS)
        counted: dict[tuple[str, ...], int] = {}
        for card in cards:
            fixed, either = skill_gains(card)
            totals = {s: totals.get(s, 0) + fixed.get(s, 0) for s in SKILLS if totals.get(s, 0) + fixed.get(s, 0)}
            for key in either:
                counted[tuple(key)] = counted.get(tuple(key), 0) + 1
        facts += [fact("init_num", term("skills", Const(player), Const(skill)), n) for skill, n in totals.items()]
        for item, line, column, path in choices.items(player):
            if not (isinstance(item, list) and len(item) >= 2 and len(set(item)) == len(item)
                    and all(s in SKILLS for s in item)):
                raise InputError(f"got {item!r}", file=fields.file, line=line, column=column, field=path,
                                 expected="a list of two or more different skills: " + ", ".join(SKILLS))
            key = tuple(s for s in SKILLS if s in item)
            counted[key] = counted.get(key, 0) + 1
        for key, n in counted.items():
            facts += [fact("init_num", term("either", Const(player), skill_set(key)), n), *skill_set_facts(key)]


def _given(state: State, given: Fields, collected: Collected) -> None:
    """The fields of a scenario's `state:` as facts of the start, each apart (or with those it goes with,
    STATE_PARTS), in the file's order (a card's colour is read with its card), each error gathered in `collected`;
    a count it does not give is none, but the coins, the units and the connections, which the setup gives in
    chapter 1 and a later chapter must give (_setup_start)."""
    done: set[str] = set(given.unknown)
    for key in given.data:
        if key not in done:
            part = STATE_PARTS.get(key, {key})
            done |= part
            with collected.part():
                _state(state, given.only(part))
    state.facts += [fact("init_num", Const(name), 0) for name in ZERO_UNLESS_GIVEN
                    if not given.has(name) and not (name == "discard_pile" and given.has("pile"))]


def _setup_start(fields: Fields, given: Fields | None, chapter: int) -> list[Fact]:
    """The parts of the start the scenario leaves out (or gives as null): its chapter, a player's coins, the units
    on the board (`units:` gives the whole board: a player it does not name has none there), the board's
    connections (`connections: []` for none), whose turn it is. In
    chapter 1, or the setup before it, each is the setup's (omitted/1: rules/dfm/state.lp gives the setup's values,
    chapter 1 for the chapter, and every answer names assumption setup_start); a later chapter's state is not the
    game's start, and must give them (an input error naming each field left out). A part given in a form that is
    not read is its own error, said where it is read."""
    state_given = given is not None and fields.raw("state") is not None
    coins = given.raw("coins") if state_given else None
    left_out = [*([("chapter", None)] if fields.raw("chapter") is None else []),
                *(("coins", Const(p)) for p in FACTIONS
                  if coins is None or (isinstance(coins, dict) and p not in coins)),
                *([("units", None)] if not state_given or given.raw("units") is None else []),
                *([("connections", None)] if not state_given or given.raw("connections") is None else []),
                *([("turn", None)] if fields.raw("turn") is None else [])]
    if chapter > 1 and left_out:
        errors = Collected()
        for part, player in left_out:
            if part == "turn":
                errors.add(fields.error("turn", f"a chapter-{chapter} scenario that does not say whose turn it is",
                                        at="chapter", expected="turn: fellowship or sauron (only a chapter-1 "
                                                               "scenario may leave it to the setup)"))
                continue
            at = fields.position("state" if state_given else "chapter")
            if state_given and given.raw(part) is not None:
                at = given.position(part)
            field = f"state.{part}" + (f".{player}" if player is not None else "")
            errors.add(InputError(f"a chapter-{chapter} state without {field}", file=fields.file, line=at[0] or None,
                                  column=at[1] or None, field=field,
                                  expected="each player's coins (coins: {fellowship: N, sauron: N}), the units on "
                                           "the board (units:, {} for none) and its connections (connections: "
                                           "standard, or pairs, [] for none): only a chapter-1 state may leave them "
                                           "to the setup"))
        errors.raise_any()
    return [fact("omitted", term(part, player) if player is not None else Const(part)) for part, player in left_out]


def _chapter(fields: Fields) -> int:
    """The scenario's chapter: 1, 2 or 3, or 0 for the setup."""
    chapter = fields.whole("chapter", 1, minimum=0)
    if chapter > 3:
        raise fields.error("chapter", f"got {chapter}", expected="1, 2 or 3, or 0 for the setup before chapter 1")
    return chapter


def _moment(fields: Fields, key: str, default: int, steps: int, minimum: int = 0) -> int:
    """A step or moment a question names in `key`: from `minimum` to the scenario's number of actions."""
    moment = fields.whole(key, default, minimum=minimum)
    if moment > steps:
        raise fields.error(key, f"the scenario has {steps} actions",
                           expected=f"a step from 1 to {steps}" if minimum else f"0 to {steps}")
    return moment


def _outcomes(fields: Fields, state: State, step: int) -> dict[str, Any]:
    """An `outcomes` question of a step whose call has a random outcome."""
    if step in state.unread:
        raise Unread("the step's action was not read", file=fields.file, field=fields.name("step"))
    act, _, words = state.actions[step - 1]
    random = ", ".join(f"{a}'s {e}" for a, e in RANDOM_CHOICES)
    if not (isinstance(act, Term) and act.name == "call" and (str(act.args[0]), str(act.args[1])) in
            RANDOM_CHOICES):
        raise fields.error("step", f"step {step} ({words}) has no random outcome",
                           expected=f"a step that calls for an effect with a random outcome: {random}")
    return {"step": step, "at": step - 1, "player": words.split(" ", 1)[0]}


def _fluent(fields: Fields) -> Term:
    """The fluent a `value` question asks about (`of:`)."""
    raw = fields.require("of", "a fluent such as [tokens, fellowship] or [units, sauron, gondor]")
    return fluent_term(raw, fields, "of")


class DfmReader:
    """How a Duel scenario reads: its state, its actions and its questions (the Duel has no decklists)."""

    state_fields: ClassVar[set[str]] = {"chapter", "turn", "state", "actions", "catalog"}
    deck_fields: ClassVar[set[str]] = set()

    def parse_state(self, fields: Fields, collected: Collected) -> State:
        """A scenario's chapter, turn, state and actions, each field of the state read apart (or with those it goes
        with, STATE_PARTS) and each action apart, in the file's order: an action not read keeps its place. A
        catalog not read, or actions that are not a list, stop the state (what the real cards are, and what the steps
        a question names are, depend on them)."""
        chapter = collected.value(lambda: _chapter(fields), 1)
        turn = collected.value(lambda: fields.choice("turn", FACTIONS), None)
        state = State(chapter, turn, real_cards=open_catalog(fields))
        state.facts += [fact("chapter", chapter), *([fact("init", term("turn", Const(turn)))] if turn else [])]
        if state.real_cards is not None:
            state.pool = list(state.real_cards.all_cards())
            state.facts += real_tiles(state.pool) + real_tokens(state.pool)
        given = collected.value(lambda: fields.sub("state", STATE_FIELDS), None)
        if given is not None:
            _given(state, given, collected)
        with collected.part():
            state.facts += _setup_start(fields, given, chapter)
        state.facts += [fact("none_given", Const(part)) for part, keys in NONE_UNLESS_GIVEN.items()
                        if given is None or not any(given.raw(key) is not None for key in keys)]
        for index, (item, line, column, path) in enumerate(fields.items("actions")):  # not a list: no state
            with collected.part():
                try:
                    state.actions.append(read_action(fields.entry(item, path, ACTION_FIELDS, line, column)))
                except InputError:
                    state.actions.append(UNREAD_ACTION)
                    state.unread.add(index + 1)
                    raise
        return state

    def parse_question(self, kind: str, fields: Fields, state: State) -> dict[str, Any]:
        """A question's parameters, checked against the scenario's steps (those that do not depend on one another
        read apart): the step, moment or fluent it asks about, the ally of a pairing, the player of a `plays`
        question, the action an `allowed` question tries."""
        steps = len(state.actions)
        each = fields.apart()
        if kind in ("action", "outcomes"):
            step = _moment(fields, "step", 0, steps, minimum=1)
            if kind == "action":
                return {"step": step}
            return _outcomes(fields, state, step)
        if kind in ("value", "tokens"):
            params: dict[str, Any] = {"after": each.value(lambda: _moment(fields, "after", 0, steps), 0)}
            if kind == "value":
                params["of"] = each.value(lambda: _fluent(fields), None)
                params["numeric"] = params["of"] is not None and params["of"].name in (*NUMERIC, "tok")
            each.raise_any()
            return params
        if kind == "pairing":
            return {"ally": fields.choice("ally", tuple(ALLIES), required=True)}
        if kind == "winner":
            return {"after": _moment(fields, "after", steps, steps)}
        if kind == "plays":
            at = each.value(lambda: _moment(fields, "at", steps, steps), 0)
            player = each.value(lambda: fields.choice("player", FACTIONS, required=True), None)
            each.raise_any()
            return {"player": player, "at": at}
        if kind == "allowed":
            at = each.value(lambda: _moment(fields, "at", 0, steps), 0)
            action = each.value(lambda: read_action(fields.only(ACTION_FIELDS), asked=True), UNREAD_ACTION)
            each.raise_any()
            return {"at": at, "action": action}
        return {}

    def player_names(self, state: State) -> list[str]:
        """The two sides, the Fellowship first."""
        return list(FACTIONS)
