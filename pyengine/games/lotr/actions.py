"""A Lord of the Rings TCG scenario's actions (`actions:`), read and checked against the table as written: a kill, a
play, a discard, a heal by discarding, an exertion or a wound, a stack, a take into hand, a return to hand or a
removal from the game of instances of the state by a player; and the moment a question is asked at (`after:`,
`step:`). Whether an action is done or refused is for the rules (rules/lotr/steps/): an action names only what
exists and what its kind takes, every error located."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pyengine.core.asp import Const, Fact, Term, fact
from pyengine.core.catalog import Card
from pyengine.core.errors import Collected, closest
from pyengine.core.fields import Fields
from pyengine.games import LISTING_KINDS, MOMENT_KINDS
from pyengine.games.common import steps
from pyengine.games.common.reader import check_read
from pyengine.games.lotr.state import BORNE_TYPES, NAME, PHASES, ZONES, State

if TYPE_CHECKING:
    from pyengine.games.lotr.reader import LotrReader

# The kinds of action, each named by its field (its value the instance it befalls; for exert and wound, one instance
# or a list), the verb each is worded with, and the fields an action takes: a heal names the card it discards
# (`discard:`), a stack its host (`on:`), a play its bearer (`on:`), a play or a stack the card it goes through.
ACTION_KINDS = ("kill", "play", "discard", "heal", "exert", "wound", "stack", "take", "return", "remove", "phase",
                "turn", "move")
VERBS = {"kill": "kills", "play": "plays", "discard": "discards", "heal": "heals", "exert": "exerts",
         "wound": "wounds", "stack": "stacks", "take": "takes into hand", "return": "returns to hand",
         "remove": "removes from the game", "phase": "passes the phase to", "turn": "passes the turn to",
         "move": "moves the fellowship to"}
ACTION_FIELDS = {"player", *ACTION_KINDS, "via", "on"}
# The kinds whose field names no instance (a phase, a player), those whose field may name several instances (each
# pays the cost), and those that go through a card.
TURN_KINDS = ("phase", "turn")
PAYING_KINDS = ("exert", "wound")
VIA_KINDS = ("play", "stack")
# The question kinds of a scenario with actions, and the values a `value` question asks about (`of:`).
STEP_KINDS = ("action", "value")
VALUES = ("zone", "wounds", "bearer")
# The values of the turn a `value` question asks about, each named alone (`of: phase`).
TURN_VALUES = ("phase", "turn", "site")
# The question kinds that may be asked after a step (`after:`), besides `value`.
AFTER_KINDS = ("play", "heal", "killed", "ends_in", "stack", "plays")


@dataclass(frozen=True)
class Action:
    """One action of a scenario: its player, its kind and the instance it befalls (the characters paying, for an
    exertion or a wound); the card and instance a play or a stack goes through, the bearer or host named (`on:`),
    and the card a heal discards."""

    player: str
    kind: str
    instance: str
    via: Card | None = None
    via_instance: str | None = None
    on: str | None = None
    discard: str | None = None
    payers: tuple[str, ...] = ()

    def words(self) -> str:
        """The action as a judge reads it."""
        text = f"{self.player} {VERBS[self.kind]} {', '.join(self.payers) or self.instance}"
        if self.discard is not None:
            text += f" by discarding {self.discard}"
        if self.via is not None:
            text += f" through {self.via_instance or self.via.id}"
        return text + (f" on {self.on}" if self.on else "")

    def terms(self) -> list[Term]:
        """The action as the rules read it (act/3): one term, or one for each character paying a cost."""
        if self.payers:
            return [Term(self.kind, (i,)) for i in self.payers]
        if self.kind == "phase":
            return [Term(self.kind, (Const(self.instance),))]
        second = self.discard if self.kind == "heal" else self.on if self.kind == "stack" else None
        return [Term(self.kind, (self.instance,) if second is None else (self.instance, second))]


def read_actions(reader: LotrReader, state: State, fields: Fields, collected: Collected) -> None:
    """A scenario's `actions:`, each read apart in the file's order (pyengine.games.common.steps)."""
    steps.read_actions(state, fields, collected, ACTION_FIELDS, lambda entry: read_action(reader, state, entry))

def read_action(reader: LotrReader, state: State, fields: Fields) -> Action:
    """One action: `{player: P, KIND: ID}`, KIND one of ACTION_KINDS; a play with `via?: CARD_OR_ID, on?: ID`, a
    stack with `on: HOST, via?: CARD_OR_ID`, a heal with `discard: ID`, an exertion or a wound with a list of ids."""
    kinds = [k for k in ACTION_KINDS if fields.has(k) and not (k == "discard" and fields.has("heal"))]
    if len(kinds) != 1:
        raise fields.error(kinds[1] if kinds else "kill", f"the action names {len(kinds)} kinds of action",
                           expected="exactly one of " + ", ".join(k for k in ACTION_KINDS if k not in TURN_KINDS)
                           + " (each: ID), phase: PHASE or turn: PLAYER")
    kind = kinds[0]
    each = fields.apart()
    player = each.value(lambda: fields.choice("player", state.players, required=True) or "", "")
    payers = each.value(lambda: _payers(reader, state, fields, kind) if kind in PAYING_KINDS else (), ())
    # The first character paying stands for an exertion or a wound (none where the list was not read).
    instance = each.value(lambda: (payers[0] if payers else "") if kind in PAYING_KINDS
                          else _target(reader, state, fields, kind), "")
    via, via_instance = each.value(lambda: _via(reader, state, fields, kind), (None, None))
    on = each.value(lambda: _on(reader, state, fields, kind), None)
    discard = each.value(lambda: _discard(reader, state, fields, kind), None)
    each.raise_any()
    if kind in TURN_KINDS:
        return Action(player, kind, instance)
    # Whose card it is, and whether a site may be played, are for the rules (rules/lotr/steps/play.lp, stack.lp).
    card = state.instances[instance].card
    if kind == "play" and on is not None and (card.type not in BORNE_TYPES or on == instance):
        raise fields.error("on", f"{card.label()} is a {card.type}, played on no bearer" if on != instance
                           else "a card is not played on itself",
                           expected="on: only when playing a possession, artifact, condition or The One Ring")
    if kind == "stack" and on == instance:
        raise fields.error("on", "a card is not stacked on itself", expected="on: another instance, the host")
    return Action(player, kind, instance, via, via_instance, on, discard, payers)


def _target(reader: LotrReader, state: State, fields: Fields, kind: str) -> str:
    """What an action befalls: the phase passed to, the player the turn passes to, or an instance of the state."""
    if kind == "phase":
        return fields.choice("phase", PHASES, required=True) or ""
    if kind == "turn":
        return fields.choice("turn", state.players, required=True) or ""
    return reader.instance_ref(fields, kind, state)


def _payers(reader: LotrReader, state: State, fields: Fields, kind: str) -> tuple[str, ...]:
    """The characters an exertion or a wound befalls: one instance id, or a list of them, none twice."""
    raw = fields.raw(kind)
    if not isinstance(raw, list):
        return (reader.instance_ref(fields, kind, state),)
    found: list[str] = []
    for ref in raw:
        if not isinstance(ref, str) or ref not in state.instances:
            check_read(state, ref if isinstance(ref, str) else "", fields, kind)
            raise fields.error(kind, f"no instance {ref!r} in the state", expected="a list of instance ids of the "
                               "state", suggestion=closest(str(ref), state.instances))
        if ref in found:
            raise fields.error(kind, f"{ref!r} is named twice", expected="each character paying named once")
        found.append(ref)
    if not found:
        raise fields.error(kind, "the list names no instance", expected="one or more instance ids of the state")
    return tuple(found)


def _on(reader: LotrReader, state: State, fields: Fields, kind: str) -> str | None:
    """The bearer a play names, or the host a stack names (required); no other action names one."""
    if kind == "stack" and not fields.has("on"):
        raise fields.error("stack", "a stack names no host", expected="on: ID, the instance the card is stacked on")
    if fields.has("on") and kind not in ("play", "stack"):
        raise fields.error("on", f"a {kind} names no bearer or host", expected="on: only with play: or stack:")
    return reader.instance_ref(fields, "on", state) if fields.has("on") else None


def _discard(reader: LotrReader, state: State, fields: Fields, kind: str) -> str | None:
    """The card a heal discards from hand (required with heal:)."""
    if kind != "heal":
        return None
    if not fields.has("discard"):
        raise fields.error("heal", "a heal names no card to discard",
                           expected="discard: ID, the card in hand discarded to heal (p58)")
    return reader.instance_ref(fields, "discard", state)


def _via(reader: LotrReader, state: State, fields: Fields, kind: str) -> tuple[Card | None, str | None]:
    """The card a play or a stack goes through (`via:`); no other action goes through one."""
    if kind not in VIA_KINDS and fields.has("via"):
        raise fields.error("via", f"a {kind} goes through no card", expected="via: only with play: or stack:")
    return reader.via(fields, state)


def value_question(fields: Fields, state: State) -> dict[str, Any]:
    """A `value` question (pyengine.games.common.steps): the moment and what it asks of an instance
    (`of: zone(ID)`, `wounds(ID)` or `bearer(ID)`), of a zone (`size(PLAYER, ZONE)`) or of the turn (`phase`,
    `turn`, `site`)."""
    return steps.value_question(fields, state, _value_of)


def _value_of(fields: Fields, state: State) -> steps.Asked:
    """What a `value` question asks: of an instance (zone | wounds | bearer, its id), of a zone (size, its owner
    and name), or of the turn (phase, turn, site: no arguments)."""
    raw = fields.require("of", "zone(ID), wounds(ID), bearer(ID), size(PLAYER, ZONE), phase, turn or site")
    text = raw if isinstance(raw, str) else ""
    if text in TURN_VALUES:
        return text, ()
    if text.startswith("size("):
        return steps.zone_size(fields, text, dict.fromkeys(state.players, ZONES))
    name, _, rest = text.partition("(")
    if name not in VALUES or not rest.endswith(")"):
        raise fields.error("of", f"got {raw!r}", expected="zone(ID), wounds(ID) or bearer(ID), ID an instance id; "
                           "size(PLAYER, ZONE); or phase, turn or site",
                           suggestion=closest(text, TURN_VALUES) if text else None)
    ref = rest[:-1].strip()
    check_read(state, ref, fields, "of")
    if ref not in state.instances:
        raise fields.error("of", f"no instance {ref!r} in the state", expected=f"{name}(ID), ID an instance id of "
                           "the state", suggestion=closest(ref, state.instances))
    return name, (ref,)


def group_key(kind: str, params: dict[str, Any]) -> Any:
    """In a scenario with actions, a question listing every play open after a step (`after:`, which the reader
    gives each such question of a file with actions) needs a timeline of its own, cut at that moment; any other
    question may share one (a file without actions: every question)."""
    return ("plays", params["after"]) if kind in LISTING_KINDS and "after" in params else None


@lru_cache(maxsize=1)
def reading_rules() -> tuple[Fact, ...]:
    """The rules that apply under one choice of a reading, as reading_rule/1 facts (from the declarations), so that
    an answer after a step can list the readings the steps before it rested on (rules/lotr/steps/state.lp)."""
    from pyengine.core import kb

    rules = kb.load(NAME).rules
    return tuple(fact("reading_rule", Const(name)) for name, rule in sorted(rules.items()) if rule.readings)


def step_facts(state: State, questions: list[tuple[str, str, dict[str, Any]]]) -> list[Fact]:
    """The facts of a scenario with actions: its number of steps, each step's action and choices, and the moment each
    question is asked at (none for a scenario without actions asking nothing about a moment, MOMENT_KINDS: it is
    answered as one state)."""
    if not state.actions and not any(kind in MOMENT_KINDS for _q, kind, _p in questions):
        return []
    # A listing (`plays`) reads only its own moment, the last one grounded: the steps after it are left out, so that
    # the state kept at its moment serves the next listing of the same actions (pyengine.core.moment_states).
    cut = [p["after"] for _q, kind, p in questions if kind in LISTING_KINDS and "after" in p]
    actions = state.actions[:cut[0]] if cut else state.actions
    out = [fact("last_step", len(actions)), *reading_rules()]
    for step, action in enumerate(actions):
        assert action is not None  # an action not read stops the scenario's questions
        out += [fact("act", step, action.player, term) for term in action.terms()]
        if action.via is not None:
            out.append(fact("choice", step, Const("via"), action.via.id))
        if action.via_instance is not None:
            out.append(fact("choice", step, Const("via_instance"), action.via_instance))
        if action.on is not None:
            out.append(fact("choice", step, Const("on"), action.on))
    out += steps.question_facts(questions)
    return out
