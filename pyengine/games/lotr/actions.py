"""A Lord of the Rings TCG scenario's actions (`actions:`), read and checked against the table as written: a kill or
a play of an instance of the state by a player; and the moment a question is asked at (`after:`, `step:`). Whether
an action is done or refused is for the rules (rules/lotr/steps/): an action names only what exists and what its
kind takes, every error located."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pyengine.core.asp import Const, Fact, Term, fact
from pyengine.core.catalog import Card
from pyengine.core.errors import Collected, InputError, closest
from pyengine.core.fields import Fields
from pyengine.games import LISTING_KINDS
from pyengine.games.common.reader import check_read
from pyengine.games.lotr.state import BORNE_TYPES, State

if TYPE_CHECKING:
    from pyengine.games.lotr.reader import LotrReader

# The kinds of action, each named by its field (its value the instance it befalls), and the fields an action takes.
ACTION_KINDS = ("kill", "play")
ACTION_FIELDS = {"player", *ACTION_KINDS, "via", "on"}
# The question kinds of a scenario with actions, and the values a `value` question asks about (`of:`).
STEP_KINDS = ("action", "value")
VALUES = ("zone", "wounds", "bearer")
# The question kinds that may be asked after a step (`after:`), besides `value`.
AFTER_KINDS = ("play", "heal", "killed", "ends_in", "stack", "plays")


@dataclass(frozen=True)
class Action:
    """One action of a scenario: its player, its kind and the instance it befalls; a play's card and instance it
    goes through and its bearer."""

    player: str
    kind: str
    instance: str
    via: Card | None = None
    via_instance: str | None = None
    on: str | None = None

    def words(self) -> str:
        """The action as a judge reads it."""
        text = f"{self.player} {'kills' if self.kind == 'kill' else 'plays'} {self.instance}"
        if self.via is not None:
            text += f" through {self.via_instance or self.via.id}"
        return text + (f" on {self.on}" if self.on else "")


def read_actions(reader: LotrReader, state: State, fields: Fields, collected: Collected) -> None:
    """A scenario's `actions:`, each read apart in the file's order (one not read keeps its place, marked unread)."""
    for index, (item, line, column, path) in enumerate(fields.items("actions"), 1):
        with collected.part():
            try:
                state.actions.append(read_action(reader, state, fields.entry(item, path, ACTION_FIELDS, line, column)))
            except InputError:
                state.actions.append(None)
                state.unread.add(f"step {index}")
                raise


def read_action(reader: LotrReader, state: State, fields: Fields) -> Action:
    """One action: `{player: P, kill: ID}` or `{player: P, play: ID, via?: CARD_OR_ID, on?: ID}`."""
    kinds = [k for k in ACTION_KINDS if fields.has(k)]
    if len(kinds) != 1:
        raise fields.error(kinds[1] if kinds else "kill", f"the action names {len(kinds)} kinds of action",
                           expected="exactly one of kill: ID or play: ID")
    kind = kinds[0]
    each = fields.apart()
    player = each.value(lambda: fields.choice("player", state.players, required=True) or "", "")
    instance = each.value(lambda: reader.instance_ref(fields, kind, state), "")
    via, via_instance = each.value(lambda: _via(reader, state, fields, kind), (None, None))
    on = each.value(lambda: reader.instance_ref(fields, "on", state) if fields.has("on") else None, None)
    each.raise_any()
    if kind == "kill" and fields.has("on"):
        raise fields.error("on", "a kill names no bearer", expected="on: only with play:")
    owner = state.instances[instance].owner
    if kind == "play" and player != owner:
        raise fields.error("player", f"{instance!r} is {owner}'s card", expected=f"player: {owner}")
    card = state.instances[instance].card
    if kind == "play" and card.type == "site":
        raise fields.error("play", f"{card.label()} is a site", expected="a card that is played: sites are not")
    if on is not None and (card.type not in BORNE_TYPES or on == instance):
        raise fields.error("on", f"{card.label()} is a {card.type}, played on no bearer" if on != instance
                           else "a card is not played on itself",
                           expected="on: only when playing a possession, artifact, condition or The One Ring")
    return Action(player, kind, instance, via, via_instance, on)


def _via(reader: LotrReader, state: State, fields: Fields, kind: str) -> tuple[Card | None, str | None]:
    """The card a play goes through (`via:`); a kill goes through none."""
    if kind == "kill" and fields.has("via"):
        raise fields.error("via", "a kill goes through no card", expected="via: only with play:")
    return reader.via(fields, state)


def moment(fields: Fields, key: str, state: State, default: int = 0, minimum: int = 0) -> int:
    """A step or moment a question names in `key`: from `minimum` to the scenario's number of actions."""
    steps = len(state.actions)
    found = fields.whole(key, default, minimum=minimum)
    if found > steps:
        raise fields.error(key, f"the scenario has {steps} actions",
                           expected=f"a step from 1 to {steps}" if minimum else f"0 to {steps}")
    return found


def value_question(fields: Fields, state: State) -> dict[str, Any]:
    """A `value` question: the moment (`after:`) and what it asks of an instance (`of: zone(ID)`, `wounds(ID)` or
    `bearer(ID)`)."""
    each = fields.apart()
    after = each.value(lambda: moment(fields, "after", state), 0)
    of = each.value(lambda: _value_of(fields, state), ("", ""))
    each.raise_any()
    return {"after": after, "of": of}


def _value_of(fields: Fields, state: State) -> tuple[str, str]:
    """What a `value` question asks of an instance: (zone | wounds | bearer, instance id)."""
    raw = fields.require("of", "zone(ID), wounds(ID) or bearer(ID)")
    text = raw if isinstance(raw, str) else ""
    name, _, rest = text.partition("(")
    if name not in VALUES or not rest.endswith(")"):
        raise fields.error("of", f"got {raw!r}", expected="zone(ID), wounds(ID) or bearer(ID), ID an instance id")
    ref = rest[:-1].strip()
    check_read(state, ref, fields, "of")
    if ref not in state.instances:
        raise fields.error("of", f"no instance {ref!r} in the state", expected=f"{name}(ID), ID an instance id of "
                           "the state", suggestion=closest(ref, state.instances))
    return name, ref


def group_key(kind: str, params: dict[str, Any]) -> Any:
    """In a scenario with actions, a question listing every play open after a step (`after:`, which the reader
    gives each such question of a file with actions) needs a timeline of its own, cut at that moment; any other
    question may share one (a file without actions: every question)."""
    return ("plays", params["after"]) if kind in LISTING_KINDS and "after" in params else None


def step_facts(state: State, questions: list[tuple[str, str, dict[str, Any]]]) -> list[Fact]:
    """The facts of a scenario with actions: its number of steps, each step's action and choices, and the moment each
    question is asked at (none for a scenario without actions: it is answered as one state)."""
    if not state.actions:
        return []
    # A listing (`plays`) reads only its own moment, the last one grounded: the steps after it are left out, so that
    # the state kept at its moment serves the next listing of the same actions (pyengine.core.moment_states).
    cut = [p["after"] for _q, kind, p in questions if kind in LISTING_KINDS and "after" in p]
    actions = state.actions[:cut[0]] if cut else state.actions
    out = [fact("last_step", len(actions))]
    for step, action in enumerate(actions):
        assert action is not None  # an action not read stops the scenario's questions
        out.append(fact("act", step, action.player, Term(action.kind, (action.instance,))))
        if action.via is not None:
            out.append(fact("choice", step, Const("via"), action.via.id))
        if action.via_instance is not None:
            out.append(fact("choice", step, Const("via_instance"), action.via_instance))
        if action.on is not None:
            out.append(fact("choice", step, Const("on"), action.on))
    for q, kind, params in questions:
        if kind == "action":
            out += [fact("q_action", q, params["step"] - 1), fact("q_at", q, params["step"] - 1)]
        elif kind not in LISTING_KINDS:  # a listing is asked at its timeline's last moment (steps/questions.lp)
            out.append(fact("q_at", q, params.get("after", 0)))
        if kind == "value":
            name, instance = params["of"]
            out.append(fact("q_value", q, Term(name, (instance,))))
    return out
