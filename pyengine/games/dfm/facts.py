"""What a read Duel state and its questions become as facts for rules/dfm: the state's own facts, the timeline of its
actions (each step's player, act and choices), each question's facts with the call templates a `plays` or `outcomes`
question tries, and the rules a reading decides; and which questions share one grounding."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pyengine.core.asp import Const, Fact, Term, fact
from pyengine.games import LISTING_KINDS
from pyengine.games.dfm.terms import ALL_TEMPLATES, ALLIES, FACTIONS, NAME, RANDOM_CHOICES, TEMPLATES, Action, State


@lru_cache(maxsize=1)
def _reading_rules() -> tuple[Fact, ...]:
    """The rules that apply under one choice of a reading, as reading_rule/1 facts (from the declarations), so that
    an answer can list the readings the steps before it rested on (rules/dfm/assumptions.lp)."""
    from pyengine.core import kb

    rules = kb.load(NAME).rules
    return tuple(fact("reading_rule", Const(name)) for name, rule in sorted(rules.items()) if rule.readings)


def _player(action: Action) -> str:
    """The player of an action, the first word of its words."""
    return action[2].split(" ", 1)[0]


class DfmFacts:
    """The Duel's fact writer: a read state and its questions as the facts its encodings are given."""

    def facts(self, state: State, questions: list[tuple[str, str, dict[str, Any]]]) -> list[Fact]:
        """The facts of a state and of the questions asked of it together: the factions, the state's facts, the
        rules a reading decides, the timeline of its actions (ended by the action an `allowed` question tries, or
        cut at the moment a listing question asks about) and each question's facts."""
        out = [*(fact("faction", Const(f)) for f in FACTIONS), *state.facts, *_reading_rules()]
        timeline = [(a, c) for a, c, _ in state.actions]
        players = [_player(a) for a in state.actions]
        hypothetical = [p for _, k, p in questions if k == "allowed"]
        cut = [p["at"] for _, k, p in questions if k in LISTING_KINDS]
        if hypothetical:
            at, action = hypothetical[0]["at"], hypothetical[0]["action"]
            timeline = [*timeline[:at], (action[0], action[1])]
            players = [*players[:at], _player(action)]
        elif cut:
            timeline, players = timeline[:cut[0]], players[:cut[0]]
        out.append(fact("last_step", len(timeline)))
        for step, ((act, choices), player) in enumerate(zip(timeline, players, strict=True)):
            out.append(fact("act", step, Const(player), act))
            out.extend(fact("choice", step, Const(name), value) for name, value in choices)
        for q, kind, params in questions:
            out.append(fact("question", q, Const(kind)))
            if kind == "action":
                out.append(fact("q_action", q, params["step"] - 1))
            elif kind == "allowed":
                out.append(fact("q_action", q, params["at"]))
            elif kind == "value":
                out.append(fact("q_value" if params["numeric"] else "q_flag", q, params["of"], params["after"]))
            elif kind == "tokens":
                out.append(fact("q_tokens", q, params["after"]))
            elif kind == "winner":
                out.append(fact("q_winner", q, params["after"]))
            elif kind == "pairing":
                out.append(fact("q_pairing", q, Const(params["ally"])))
            elif kind == "setup":
                out.append(fact("q_setup", q))
            elif kind == "plays":
                out.append(fact("q_plays", q, Const(params["player"])))
                out.extend(self._template_facts(q, params["player"]))
            elif kind == "outcomes":
                out.append(fact("q_outcomes", q, Const(params["player"])))
                act = state.actions[params["step"] - 1][0]
                assert isinstance(act, Term)  # parse_question let only a call with a random outcome through
                random = list(RANDOM_CHOICES).index((str(act.args[0]), str(act.args[1])))
                out.extend(self._template_fact(q, len(TEMPLATES) + random))
        return out

    def _template_facts(self, q: str, player: str) -> list[Fact]:
        """The calls a `plays` question of this player tries: its allies' templates (numbered in TEMPLATES)."""
        return [f for number, (ally, *_) in enumerate(TEMPLATES) if ALLIES[ally] == player
                for f in self._template_fact(q, number)]

    def _template_fact(self, q: str, number: int) -> list[Fact]:
        """The facts of one call template a question tries (numbered in ALL_TEMPLATES)."""
        ally, effect, fixed, slots = ALL_TEMPLATES[number]
        return [fact("try_call", q, number, Const(ally), Const(effect)),
                *(fact("try_fixed", q, number, Const(name), Const(value)) for name, value in fixed.items()),
                *(fact("try_slot", q, number, index, Const(name), Const(kind)) for index, (name, kind) in
                  enumerate(slots, 1))]

    def group_key(self, kind: str, params: dict[str, Any]) -> Any:
        """Questions about a hypothetical action, and every action open at a moment, need a timeline of their own:
        one per moment, player, action and choices (two players' same action, such as ending the turn, are two)."""
        if kind == "allowed":
            return (params["at"], _player(params["action"]), params["action"][0], tuple(params["action"][1]))
        return ("plays", params["at"]) if kind in LISTING_KINDS else None
