"""What a Lord of the Rings TCG table becomes as facts: each card's facts, the state's (players, instances, turn,
current site) and its questions'; the cards whose data contradicts the document (checked on import); and the
records of a table's instances and turn that a conformance pack holds."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pyengine.core import kb as kbase
from pyengine.core.asp import Const, Fact, Term, Value, fact, term
from pyengine.core.catalog import Card, Catalog, MemoryCatalog
from pyengine.core.text import exact_title, title_key
from pyengine.games.common.facts import CardFacts
from pyengine.games.lotr import filters
from pyengine.games.lotr.actions import group_key, step_facts
from pyengine.games.lotr.state import ABILITIES, NAME, PHASES, State

# A tree node's combinator as rules/lotr/filters.lp names it (`not` is a word clingo reserves).
NODE_NAMES = {"and": "all_of", "or": "any_of", "not": "negation", "attached": "attached"}


@lru_cache(maxsize=65536)
def _card_fact_lines(card: Card, translated_title: str | None) -> tuple[Fact, ...]:
    """The facts of one card (cards are immutable, so each is built once per process)."""
    c = card.id
    out = [fact("card", c), fact("title", c, exact_title(card.title)), fact("title_key", c, title_key(card.title)),
           fact("card_type", c, Const(card.type))]
    if card.subtitle is not None:
        out.append(fact("subtitle", c, card.subtitle))
    if card.unique:
        out.append(fact("unique", c))
    # An "at most N" card (N of 2 or more, from the data) is unique with its count beside it (rules/lotr/at_most.lp).
    limit = card.extra.get("unique_limit", 1)
    if card.unique and limit > 1:
        out.append(fact("unique_limit", c, limit))
    if card.side:
        out.append(fact("side", c, Const(card.side)))
    if card.collinfo:
        out.append(fact("collinfo", c, card.collinfo))
    if card.race:
        out.append(fact("card_race", c, card.race))
    if card.culture:
        out.append(fact("card_culture", c, card.culture.lower()))
    for ability, tree in sorted(card.extra.get("ability_filters", {}).items()):
        out += _tree_facts(c, Const(ability), tree)
    out += _play_term_facts(card)
    out.append(fact("stored_title", c, exact_title(card.stored_title or card.title)))
    if card.split:
        out.append(fact("card_split", c, card.split))
    out.extend(fact("card_ability", c, Const(a)) for a in card.abilities)
    # Phases come from a hand-written card or GEMP's scripts; only the game's phases become names of the encodings.
    out.extend(fact("card_ability_phase", c, Const(a), Const(p))
               for a, phases in sorted(card.extra.get("ability_phases", {}).items()) if a in ABILITIES
               for p in phases if p in PHASES)
    if translated_title is not None:
        out.append(fact("alias_key", c, title_key(translated_title)))
    return tuple(out)


def _tree_facts(card_id: str, use: Value, tree: list[Any]) -> list[Fact]:
    """The facts of the filter tree card `card_id` uses for `use` (an ability, its target, a requirement): its root
    and each node, a node named by the card, the use and its path in the tree."""
    root = f"{card_id}/{use}" if not isinstance(use, Term) else f"{card_id}/{use.name}/{use.args[0]}"
    out = [fact("filter_root", card_id, use, root)]

    def node(tree: list[Any], name: str) -> None:
        kind = tree[0]
        if kind == "test":
            # A type or a side is a name of the encodings (card_type/2 and side/2 hold constants).
            value = Const(tree[2]) if tree[1] in ("type", "side") else tree[2]
            out.append(fact("filter_test", name, Const(tree[1]), value))
        elif kind == "unread":
            out.append(fact("filter_unread", name, str(tree[1])))
        else:
            out.append(fact("filter_node", name, Const(NODE_NAMES[kind])))
            for index, part in enumerate(tree[1] if kind in ("and", "or") else [tree[1]]):
                child = f"{name}.{index}"
                out.append(fact("filter_part", name, child))
                node(part, child)

    node(tree, root)
    return out


def _play_term_facts(card: Card) -> list[Fact]:
    """The facts of what the card's data says of playing it (pyengine.games.lotr.terms) and the printed words filters
    test."""
    c, extra = card.id, card.extra
    out = []
    if "file" not in extra:  # a hand-written card may be silent on what an imported card's data lists in full
        out.append(fact("card_incomplete", c))
    if "target" in extra:
        out += _tree_facts(c, Const("target"), extra["target"])
    for index, (kind, *rest) in enumerate(extra.get("requirements", [])):
        if kind == "unread":
            out.append(fact("card_requirement_unread", c, str(rest[0])))
        else:
            out.append(fact("card_requirement", c, index, Const(kind), rest[1]))
            out += _tree_facts(c, term("requirement", index), rest[0])
    out += [fact("card_cost", c, str(kind)) for kind in extra.get("costs", [])]
    if extra.get("can_start_with_ring"):
        out.append(fact("card_starts_with_ring", c))
    out += [fact("card_own_cost_change", c, str(kind)) for kind in extra.get("own_cost_changes", [])]
    out += [fact("card_play_modifier", c, str(kind)) for kind in extra.get("play_modifiers", [])]
    out += [fact("card_attribute_modifier", c, Const(test), str(kind))
            for test, kind in extra.get("attribute_modifiers", [])]
    out += [fact("card_tests", c, Const(kind)) for kind in sorted(test_kinds(card))]
    if "extra_class" in extra:
        out += _tree_facts(c, Const("extra_class"), extra["extra_class"])
    out += [f for ability, tree in sorted(extra.get("ability_places", {}).items())
            for f in _tree_facts(c, term("place", Const(ability)), tree)]
    out += [fact("ability_condition", c, Const(ability), str(label))
            for ability, labels in sorted(extra.get("ability_conditions", {}).items()) for label in labels]
    return out


def test_kinds(card: Card) -> set[str]:
    """The kinds of test the filter trees of a card's data hold (its target, abilities, requirements and the
    bearers it counts apart on)."""
    trees = [card.extra[key] for key in ("target", "extra_class") if key in card.extra]
    trees += list(card.extra.get("ability_filters", {}).values())
    trees += [r[1] for r in card.extra.get("requirements", []) if r[0] != "unread"]
    return {leaf[1] for tree in trees for leaf in filters.leaves(tree) if leaf[0] == "test"}


def consulted_facts(cards: dict[str, Card], played: set[str]) -> list[Fact]:
    """The facts of the cards' data that only a filter test or a play consults, written where one can: printed
    keywords, possession classes and signets where some tree tests that kind; the twilight cost of the cards
    played (`played`), and of every card where some tree tests it."""
    kinds = set().union(*(test_kinds(card) for card in cards.values())) if cards else set()
    # A possession or artifact played on a bearer is checked against the classes of the items the bearer holds.
    if any(cards[c].extra.get("item_classes") and "target" in cards[c].extra for c in played if c in cards):
        kinds.add("item_class")
    costed = cards if kinds & {"max_twilight", "min_twilight"} else {c: cards[c] for c in played if c in cards}
    return [f for card in cards.values() for f in _consulted(card, kinds, card.id in costed)]


def _consulted(card: Card, kinds: set[str], costed: bool) -> list[Fact]:
    """A card's printed words of the kinds in `kinds` and, if `costed`, its twilight cost, as facts."""
    out = [fact("card_attribute", card.id, Const(kind), value) for kind, value in filters.card_attributes(card)
           if kind in kinds]
    return out + ([fact("card_twilight", card.id, card.extra["twilight"])] if costed and "twilight" in card.extra
                  else [])


def card_facts(card: Card, catalog: Catalog) -> tuple[Fact, ...]:
    """The facts of one card of `catalog`, a translation keyed by its original's title too."""
    original = catalog.get(card.translation_of).title if card.translation_of else None
    return _card_fact_lines(card, original)


def check_cards(cards: list[Card]) -> list[dict[str, Any]]:
    """The cards whose data contradicts what the document says of cards, with the deciding rules."""
    from pyengine.core.engine import solve

    kb = kbase.load(NAME)
    catalog = MemoryCatalog(cards)
    facts: list[Fact] = []
    questions: dict[str, Card] = {}
    for index, card in enumerate(cards):
        questions[f"c{index}"] = card
        facts += [fact("question", f"c{index}", Const("card")), fact("q_card", f"c{index}", card.id)]
        facts.extend(card_facts(card, catalog))
    found = []
    for symbol in solve(NAME, facts, frozenset({"card"})):
        if symbol.name == "reason":
            card = questions[symbol.arguments[0].string]
            rule = str(symbol.arguments[1])
            found.append({"card": card.id, "title": card.full_name, "rule": rule,
                          "paragraphs": [f"{d} {p}" for d, p in kb.rules[rule].sources]})
    return sorted(found, key=lambda f: (f["card"], f["rule"]))


class LotrFacts(CardFacts):
    """A Lord of the Rings TCG table and its questions as facts, and its instances and turn as a pack records them."""

    card_facts = staticmethod(card_facts)

    def facts_when_read(self, card: Card) -> list[Fact]:
        """Every printed word a filter may test and the twilight cost (consulted_facts writes them where read)."""
        return _consulted(card, {kind for kind, _ in filters.card_attributes(card)}, True)

    def facts(self, state: State, questions: list[tuple[str, str, dict[str, Any]]]) -> list[Fact]:
        """As for every card game, with the facts of the cards' data that only a test or a play consults
        (consulted_facts): a play's card, or, for a player's plays, every card of the player's."""
        out = super().facts(state, questions) + step_facts(state, questions)
        cards = {inst.card.id: inst.card for inst in state.instances.values()}
        played = {state.instances[p["instance"]].card.id for _q, kind, p in questions if kind == "play"}
        for action in state.actions:  # a play or stack action asks its question at its step (rules/lotr/steps/)
            if action is not None and action.kind == "play":
                played.add(state.instances[action.instance].card.id)
                if action.via is not None:
                    cards[action.via.id] = action.via
                    out.append(fact("asked_with", action.instance, action.via.id))
                    out.extend(self.card_facts(action.via, state.catalog))
            if action is not None and action.kind == "stack":  # as a stack question's (stack.lp's filters)
                assert action.on is not None
                out.append(fact("asked_with", action.instance, state.instances[action.on].card.id))
                if action.via is not None:
                    cards[action.via.id] = action.via
                    out.append(fact("asked_with", action.instance, action.via.id))
        played |= {inst.card.id for _q, kind, p in questions if kind == "plays" for inst in state.instances.values()
                   if inst.owner == p["player"]}
        for _q, _kind, params in questions:
            if params.get("via") is not None:
                cards[params["via"].id] = params["via"]
        return out + consulted_facts(cards, played)

    def group_key(self, kind: str, params: dict[str, Any]) -> Any:
        """In a scenario with actions, a `plays` question needs a timeline of its own (actions.group_key)."""
        return group_key(kind, params)

    def state_facts(self, state: State, cards: dict[str, Card]) -> list[Fact]:
        """The facts of the players, the current site, each instance and the turn; each instance's card added to
        `cards`."""
        out: list[Fact] = []
        for player in state.players:
            out.append(fact("player", player))
        if state.current_site is not None:
            out.append(fact("current_site", state.current_site))
        for inst in state.instances.values():
            i = inst.id
            cards[inst.card.id] = inst.card
            out.append(fact("instance", i, inst.card.id, inst.owner))
            out.append(fact("in_zone", i, Const(inst.zone)))
            out.append(fact("wounds", i, inst.wounds))
            if inst.active is False:
                out.append(fact("inactive", i))
            if inst.active is True and state.fellowship_player is not None:
                out.append(fact("marked_active", i))
            if inst.on is not None:
                out.append(fact("stacked_on", i, inst.on))
            if inst.borne_by is not None:
                out.append(fact("borne_by", i, inst.borne_by))
        if state.phase:
            out.append(fact("phase", Const(state.phase)))
            out.append(fact("fellowship_player", state.fellowship_player or ""))
        return out

    def question_facts(self, state: State, q: str, kind: str, params: dict[str, Any],
                       cards: dict[str, Card]) -> list[Fact]:
        """The facts of a question of the game's own: the instances, cards and deck entries it names (a play's
        card played through and bearer); each card added to `cards`."""
        out: list[Fact] = []
        if kind == "play":
            if params["via"] is not None:
                cards[params["via"].id] = params["via"]
                out += [fact("q_via", q, params["via"].id), fact("asked_with", params["instance"], params["via"].id)]
            if params["via_instance"] is not None:
                out.append(fact("q_via_instance", q, params["via_instance"]))
            if params["on"] is not None:
                out.append(fact("q_play_on", q, params["on"]))
        elif kind == "heal":
            target = state.instances[params["instance"]]
            out.append(fact("q_heal", q, target.id, params["discard"], target.owner))
        elif kind == "killed":
            out.append(fact("q_killed", q, params["instance"]))
        elif kind == "ends_in":
            out.append(fact("q_ends", q, params["instance"], Const(params["event"]), params["of"]))
        elif kind == "stack":
            out.append(fact("q_stack", q, params["instance"], params["on"]))
            out.append(fact("asked_with", params["instance"], state.instances[params["on"]].card.id))
            if params["via"] is not None:
                cards[params["via"].id] = params["via"]
                out += [fact("q_stack_via", q, params["via"].id),
                        fact("asked_with", params["instance"], params["via"].id)]
            if params["via_instance"] is not None:
                out.append(fact("q_stack_via_instance", q, params["via_instance"]))
        elif kind == "card":
            cards[params["card"].id] = params["card"]
            out.append(fact("q_card", q, params["card"].id))
        elif kind == "coexist" and params["in"] == "play":
            a, b = params["cards"]
            cards[a.id], cards[b.id] = a, b
            out.append(fact("q_coexist", q, a.id, b.id, Const(params["players"])))
        if "entries" in params:
            totals: dict[tuple[str, str], int] = {}
            for card, count, part in params["entries"]:
                cards[card.id] = card
                totals[card.id, part] = totals.get((card.id, part), 0) + count
            out.extend(fact("deck_part", q, cid, Const(part), n) for (cid, part), n in totals.items())
        return out

    def instance_record(self, instance: Any, activity: dict[str, tuple[str, str]]) -> dict[str, Any]:
        """As for every card game, with the instance's bearer, the card it is stacked on and its wounds."""
        found = super().instance_record(instance, activity)
        if instance.borne_by:
            found["bearer"] = instance.borne_by
        if instance.on:
            found["stacked_on"] = instance.on
        return {**found, "wounds": instance.wounds}

    def turn_record(self, state: State) -> dict[str, Any]:
        """The table's turn (its fellowship player and phase) and its current site, where it gives them."""
        found: dict[str, Any] = {}
        if state.fellowship_player is not None or state.phase is not None:
            found["turn"] = {"player": state.fellowship_player, "phase": state.phase}
        if state.current_site:
            found["current_site"] = state.current_site
        return found
