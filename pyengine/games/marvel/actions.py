"""A Marvel Champions scenario's actions (`actions:`), read and checked against the table as written: a play,
discard, defeat or flip of an instance of the state by a player, a reveal of encounter cards in the order they
come off the deck, or a card put into play through the effect of an instance; and the moment a question is asked
at (`after:`, `step:`). Whether an action is done or refused is for the rules (rules/marvel/steps/): an action
names only what exists and what its kind takes, every error located."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pyengine.core.asp import Const, Fact, Term, fact
from pyengine.core.errors import Collected, InputError, closest
from pyengine.core.fields import Fields
from pyengine.games import LISTING_KINDS, MOMENT_KINDS
from pyengine.games.common import steps
from pyengine.games.common.reader import check_read
from pyengine.games.marvel.state import ENCOUNTER, ENCOUNTER_ZONES, ZONES, State

if TYPE_CHECKING:
    from pyengine.games.marvel.reader import MarvelReader

# The kinds of action, each named by its field (its value the instance it befalls: for a reveal, the instance or
# the list of instances in the order they come off the encounter deck), and the fields an action takes.
ACTION_KINDS = ("play", "discard", "defeat", "flip", "reveal", "put_into_play")
ACTION_FIELDS = {"player", *ACTION_KINDS, "via"}
# The question kinds of a scenario with actions, and the values a `value` question asks about (`of:`).
STEP_KINDS = ("action", "value")
VALUES = ("zone", "face")
# The question kinds that may be asked after a step (`after:`), besides `value`.
AFTER_KINDS = ("play", "reveal", "put_into_play", "coexist", "plays")
# How each kind of action reads to a judge.
VERBS = {"play": "plays", "discard": "discards", "defeat": "defeats", "flip": "flips", "reveal": "reveals",
         "put_into_play": "puts into play"}


@dataclass(frozen=True)
class Action:
    """One action of a scenario: its player, its kind and the instance it befalls; for a reveal, the cards revealed
    after it should the ones before be discarded; for a put-into-play, the instance whose effect it is."""

    player: str
    kind: str
    instance: str
    then: tuple[str, ...] = ()
    via: str | None = None

    def words(self) -> str:
        """The action as a judge reads it."""
        text = f"{self.player} {VERBS[self.kind]} " + ", then ".join((self.instance, *self.then))
        return text + (f" through {self.via}" if self.via else "")


def read_actions(reader: MarvelReader, state: State, fields: Fields, collected: Collected) -> None:
    """A scenario's `actions:`, each read apart in the file's order (pyengine.games.common.steps)."""
    steps.read_actions(state, fields, collected, ACTION_FIELDS, lambda entry: read_action(reader, state, entry))

def read_action(reader: MarvelReader, state: State, fields: Fields) -> Action:
    """One action: `{player: P, KIND: ID}`, KIND one of play, discard, defeat, flip; `{player: P, reveal: ID}` or
    `{player: P, reveal: [ID, ...]}`, the encounter cards in the order they come off the deck; or
    `{player: P, put_into_play: ID, via: ID}`, through the effect of the instance `via:` names."""
    kinds = [k for k in ACTION_KINDS if fields.has(k)]
    if len(kinds) != 1:
        raise fields.error(kinds[1] if kinds else "play", f"the action names {len(kinds)} kinds of action",
                           expected="exactly one of " + ", ".join(f"{k}: ID" for k in ACTION_KINDS))
    kind = kinds[0]
    each = fields.apart()
    player = each.value(lambda: fields.choice("player", state.players, required=True) or "", "")
    revealed = each.value(lambda: _revealed(reader, state, fields) if kind == "reveal"
                          else [reader.instance_ref(fields, kind, state)], [])
    via = each.value(lambda: _via(reader, state, fields, kind), None)
    each.raise_any()
    # Whose card a play or a reveal names is for the rules (rules/marvel/steps/play.lp, reveal.lp).
    return Action(player, kind, revealed[0], tuple(revealed[1:]), via)


def _via(reader: MarvelReader, state: State, fields: Fields, kind: str) -> str | None:
    """The instance whose effect puts a card into play (`via:`, which a put-into-play needs and no other action
    takes)."""
    if kind != "put_into_play":
        if fields.has("via"):
            raise fields.error("via", f"a {kind} goes through no card", expected="via: only with put_into_play:")
        return None
    expected = "via: the id of the instance whose effect puts the card into play"
    if not fields.has("via"):
        raise fields.error("via", "a put-into-play names no effect", expected=expected)
    return reader.instance_ref(fields, "via", state, expected=expected)


def _revealed(reader: MarvelReader, state: State, fields: Fields) -> list[str]:
    """The encounter cards a reveal names, in the order they come off the deck (one id, or a list of them)."""
    raw = fields.raw("reveal")
    if not isinstance(raw, list):
        refs = [reader.instance_ref(fields, "reveal", state, expected="an encounter instance id")]
    else:
        refs = []
        for item, line, column, path in fields.items("reveal"):
            ref = str(item) if isinstance(item, str | int) else ""
            check_read(state, ref, fields, "reveal")
            if ref not in state.instances or ref in refs:
                raise InputError(f"no instance {item!r} in the state" if ref not in state.instances
                                 else f"{ref!r} is named twice", file=fields.file, line=line, column=column,
                                 field=path, expected="the ids of encounter instances, each once, in the order they "
                                 "come off the deck", suggestion=closest(ref, state.instances))
            refs.append(ref)
        if not refs:
            raise fields.error("reveal", "got an empty list", expected="an encounter instance id or a list of them")
    return refs


def value_question(fields: Fields, state: State) -> dict[str, Any]:
    """A `value` question (pyengine.games.common.steps): the moment and what it asks of an instance
    (`of: zone(ID)` or `face(ID)`) or of a zone (`size(OWNER, ZONE)`, the owner a player or the encounter)."""
    return steps.value_question(fields, state, _value_of)


def _value_of(fields: Fields, state: State) -> steps.Asked:
    """What a `value` question asks: of an instance (zone | face, its id) or of a zone (size, its owner and name)."""
    raw = fields.require("of", "zone(ID), face(ID) or size(OWNER, ZONE)")
    text = raw if isinstance(raw, str) else ""
    if text.startswith("size("):
        return steps.zone_size(fields, text, {**dict.fromkeys(state.players, ("identity", *ZONES)),
                                              ENCOUNTER: ENCOUNTER_ZONES})
    name, _, rest = text.partition("(")
    if name not in VALUES or not rest.endswith(")"):
        raise fields.error("of", f"got {raw!r}", expected="zone(ID) or face(ID), ID an instance id; or "
                           "size(OWNER, ZONE)")
    ref = rest[:-1].strip()
    check_read(state, ref, fields, "of")
    if ref not in state.instances:
        raise fields.error("of", f"no instance {ref!r} in the state", expected=f"{name}(ID), ID an instance id of "
                           "the state", suggestion=closest(ref, state.instances))
    if name == "face" and state.instances[ref].zone != "identity":
        raise fields.error("of", f"{ref!r} is no identity", expected="face(ID), ID a player's identity")
    return name, (ref,)


def group_key(kind: str, params: dict[str, Any]) -> Any:
    """In a scenario with actions, a question listing every play open after a step needs a timeline of its own, cut
    at that moment; any other question may share one (a file without actions: every question)."""
    return ("plays", params["after"]) if kind in LISTING_KINDS and "after" in params else None


def step_facts(state: State, questions: list[tuple[str, str, dict[str, Any]]]) -> list[Fact]:
    """The facts of a scenario with actions: its number of steps, each step's action and choices, the cards linked
    to an identity's hero side, and the moment each question is asked at (none without actions and questions
    about a moment, MOMENT_KINDS)."""
    if not state.actions and not any(kind in MOMENT_KINDS for _q, kind, _p in questions):
        return []
    cut = [p["after"] for _q, kind, p in questions if kind in LISTING_KINDS and "after" in p]
    actions = state.actions[:cut[0]] if cut else state.actions
    out = [fact("last_step", len(actions))]
    for step, action in enumerate(actions):
        assert action is not None  # an action not read stops the scenario's questions
        out.append(fact("act", step, action.player, Term(action.kind, (action.instance,))))
        out += [fact("choice", step, Term("next", (k,)), ref) for k, ref in enumerate(action.then, 1)]
        if action.via is not None:
            out.append(fact("choice", step, Const("via"), action.via))
    for inst in state.instances.values():
        if inst.zone == "identity":
            out += [fact("linked_face", inst.id, f) for f in inst.card.extra.get("linked_faces") or []
                    if f in state.catalog]
    out += steps.question_facts(questions)
    return out
