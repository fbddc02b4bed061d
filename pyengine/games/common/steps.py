"""What the card games share in reading a scenario with actions (docs/scenarios/steps.md): the actions, each read
apart in the file's order, and a step or moment a question names. Which actions a game has, and what each reads,
are the game's own (pyengine/games/<game>/actions.py); what an action does is its rules' (rules/<game>/steps/)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyengine.core.asp import Const, Fact, Term, fact
from pyengine.core.errors import Collected, InputError, closest
from pyengine.core.fields import Fields
from pyengine.games import LISTING_KINDS


def read_actions(state: Any, fields: Fields, collected: Collected, allowed: set[str],
                 read_one: Callable[[Fields], Any]) -> None:
    """A scenario's `actions:`, each read apart in the file's order by `read_one` from its fields (`allowed`); one
    not read keeps its place, marked unread (the questions naming a step then say so)."""
    for index, (item, line, column, path) in enumerate(fields.items("actions"), 1):
        with collected.part():
            try:
                state.actions.append(read_one(fields.entry(item, path, allowed, line, column)))
            except InputError:
                state.actions.append(None)
                state.unread.add(f"step {index}")
                raise


def moment(fields: Fields, key: str, state: Any, default: int = 0, minimum: int = 0) -> int:
    """A step or moment a question names in `key`: from `minimum` to the scenario's number of actions."""
    steps = len(state.actions)
    found = fields.whole(key, default, minimum=minimum)
    if found > steps:
        raise fields.error(key, f"the scenario has {steps} actions",
                           expected=f"a step from 1 to {steps}" if minimum else f"0 to {steps}")
    return found


# What a `value` question asks (`of:`): the value's name and its arguments (an instance id; a player and a zone;
# none for a value of the turn).
Asked = tuple[str, tuple[str, ...]]


def value_question(fields: Fields, state: Any, value_of: Callable[[Fields, Any], Asked]) -> dict[str, Any]:
    """A `value` question: the moment (`after:`) and what it asks (`of:`, read by the game's `value_of`), each read
    apart."""
    each = fields.apart()
    after = each.value(lambda: moment(fields, "after", state), 0)
    of = each.value(lambda: value_of(fields, state), ("", ()))
    each.raise_any()
    return {"after": after, "of": of}


def question_facts(questions: list[tuple[str, str, dict[str, Any]]]) -> list[Fact]:
    """The facts of a scenario's questions over moments: the step an action question asks about, the moment any
    other is asked at (a listing at its timeline's last moment, rules/<game>/steps/questions.lp), and what a value
    question asks (of an instance, or a value of its own)."""
    out: list[Fact] = []
    for q, kind, params in questions:
        if kind == "action":
            out += [fact("q_action", q, params["step"] - 1), fact("q_at", q, params["step"] - 1)]
        elif kind not in LISTING_KINDS:
            out.append(fact("q_at", q, params.get("after", 0)))
        if kind == "value":
            name, args = params["of"]
            out.append(fact("q_value", q, Term(name, tuple(args)) if args else Const(name)))
    return out


def zone_size(fields: Fields, text: str, owners: dict[str, tuple[str, ...]]) -> Asked:
    """`size(OWNER, ZONE)`: how many of an owner's instances lie in one of its zones (`owners`: each owner's zones;
    the zone a constant of the rules)."""
    inside = text[len("size("):-1] if text.startswith("size(") and text.endswith(")") else ""
    owner, _, zone = (part.strip() for part in inside.partition(","))
    if owner not in owners:
        raise fields.error("of", f"no player {owner!r} in the state", expected="size(OWNER, ZONE), OWNER one of "
                           + ", ".join(owners), suggestion=closest(owner, list(owners)) if owner else None)
    zones = owners[owner]
    if zone not in zones:
        raise fields.error("of", f"no zone {zone!r}", expected="size(OWNER, ZONE), ZONE one of " + ", ".join(zones),
                           suggestion=closest(zone, zones) if zone else None)
    return "size", (owner, Const(zone))
