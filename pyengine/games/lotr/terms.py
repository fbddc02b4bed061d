"""The terms of a GEMP card entry that bear on playing it, read for the rules: what it may be played on (`target:`),
what its play requires (`requires:` of its toPlay or event entry), what its play costs beyond twilight (`cost:` of
an event, extraCost), its twilight cost, its printed keywords, possession classes and signet (which filters test),
the effects it has while in play that bear on other plays, and the costs and requirements of the abilities it
plays cards through. The importer stores what this returns; `pyengine census --terms` counts it.
"""

from __future__ import annotations

import re
from typing import Any

from pyengine.games.common.terms import field_row
from pyengine.games.lotr import filters

# The requirement types the rules decide (the others are named in the answer as not checked).
SPOT_REQUIREMENTS = {"canspot": "can_spot", "cantspot": "cant_spot"}
# Entries of a card's script whose requirements and costs are those of playing the card itself (an extraCost's own
# `requires:` says when its cost applies, so only its cost is read).
PLAY_ENTRIES = {"toplay", "event", "responseevent"}
COST_ENTRIES = {"event", "responseevent", "extracost"}
# Modifiers (and script entries) of a card in play that change whether or how other cards are played.
PLAY_MODIFIERS = {"cantplaycards", "cantplayphaseevents", "cantplayphaseeventsorphasespecialabilities",
                  "cantplaycardson", "cantplaycardsfromdeckordiscardpile", "cantplaysite", "canplaystackedcards",
                  "modifyplayoncost", "extracosttoplay", "modifycost", "overrideuniqueness", "cantusespecialabilities",
                  "addactivated"}
# Entries of a card's own script that change what its own play costs.
OWN_COST_ENTRIES = {"modifyowncost", "discount", "exerttargetextracost"}
# Modifiers of a card in play that change what a filter test of some kind sees on other cards (their keywords,
# culture, race, signet), or what a card may bear: named where a question rests on a test of that kind.
ATTRIBUTE_MODIFIERS = {"addkeyword": "keyword", "removekeyword": "keyword", "removeallkeywords": "keyword",
                       "addkeywordfromcards": "keyword", "disablegametext": "keyword", "addculture": "culture",
                       "addrace": "race", "modifyracespotcount": "race", "addsignet": "signet", "cantbear": "bearer"}


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [] if value is None else [value]


def _kind(node: Any) -> str:
    return str(node.get("type")).strip().lower() if isinstance(node, dict) else "unreadable"


def requirement(node: Any, card_id: str) -> list[Any]:
    """One requirement: ["can_spot" or "cant_spot", filter tree, count] where the rules decide it, else
    ["unread", its type]."""
    kind = _kind(node)
    if kind in SPOT_REQUIREMENTS and node.get("filter") is not None:
        count = node.get("count", 1)
        if isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= 100:
            return [SPOT_REQUIREMENTS[kind], filters.parse(node["filter"], card_id), count]
    return ["unread", kind]


def _words(value: Any) -> list[str]:
    """Printed words (keywords, classes) as word keys, a keyword's number dropped (`Damage+1` is damage)."""
    found = []
    for item in _listed(value):
        text = str(item).split("+")[0]
        key = filters.word_key("".join(c for c in text if not c.isdigit()))
        if key and key not in found:
            found.append(key)
    return found


def _play_modifiers(entry: dict[str, Any]) -> list[str]:
    found = []
    for node in effect_nodes(entry.get("effects")):
        kind = _kind(node)
        if kind in PLAY_MODIFIERS and kind not in found:
            found.append(kind)
    return found


def _attribute_modifiers(entry: dict[str, Any]) -> list[list[str]]:
    """[test kind, modifier type] for each modifier of the card's script that changes what a test of that kind
    sees, or what a card may bear."""
    found: list[list[str]] = []
    for node in effect_nodes(entry.get("effects")):
        kind = _kind(node)
        if kind in ATTRIBUTE_MODIFIERS and [ATTRIBUTE_MODIFIERS[kind], kind] not in found:
            found.append([ATTRIBUTE_MODIFIERS[kind], kind])
    return found


def _extra_class(entry: dict[str, Any], card_id: str) -> list[Any] | None:
    """The bearers on which the card does not count against its possession class (GEMP's extraPossessionClass,
    `attachedTo:` where it names them), as a filter tree; None where the card has no such entry."""
    for item in _listed(entry.get("effects")):
        if _kind(item) == "extrapossessionclass":
            return filters.parse(item["attachedTo"], card_id) if item.get("attachedTo") else ["and", []]
    return None


def effect_nodes(node: Any, depth: int = 0) -> list[dict[str, Any]]:
    """Every mapping with a `type` in a card's effect script (bounded in depth)."""
    if depth > 40:
        return []
    found = []
    if isinstance(node, dict):
        if isinstance(node.get("type"), str):
            found.append(node)
        for value in node.values():
            found += effect_nodes(value, depth + 1)
    elif isinstance(node, list):
        for value in node:
            found += effect_nodes(value, depth + 1)
    return found


def play_terms(entry: dict[str, Any], card_id: str) -> dict[str, Any]:
    """What a card entry says of playing the card and of what it lets be played, for Card.extra."""
    requirements, costs, own_cost = [], [], []
    for item in _listed(entry.get("effects")):
        kind = _kind(item)
        if kind in PLAY_ENTRIES:
            requirements += [requirement(r, card_id) for r in _listed(item.get("requires"))]
            # A response event is played only as its trigger happens, which a table does not show.
            requirements += [["unread", f"responds to {_kind(t)}"] for t in _listed(item.get("trigger"))]
        if kind in COST_ENTRIES:
            costs += [_kind(c) for c in _listed(item.get("cost"))]
        if kind in OWN_COST_ENTRIES:
            own_cost.append(kind)
    found: dict[str, Any] = {}
    if entry.get("target") is not None:
        title = re.sub(r"\(\d+\)$", "", str(entry.get("title", ""))).strip() or None
        found["target"] = filters.parse(entry["target"], card_id, title)
    twilight = entry.get("twilight")
    if isinstance(twilight, int) and not isinstance(twilight, bool) and 0 <= twilight <= 100:
        found["twilight"] = twilight
    for key, field in (("keywords", "keywords"), ("keywords", "keyword"), ("item_classes", "itemclass")):
        words = _words(entry.get(field))
        if words:
            found[key] = sorted(set(found.get(key, [])) | set(words))
    if entry.get("canStartWithRing") is True:
        found["can_start_with_ring"] = True
    if entry.get("signet"):
        found["signet"] = filters.word_key(str(entry["signet"]))
    extra_class = _extra_class(entry, card_id)
    if extra_class is not None:
        found["extra_class"] = extra_class
    for key, value in (("requirements", requirements), ("costs", sorted(set(costs))),
                       ("own_cost_changes", own_cost), ("play_modifiers", _play_modifiers(entry)),
                       ("attribute_modifiers", _attribute_modifiers(entry))):
        if value:
            found[key] = value
    return found


def entry_conditions(entry: Any) -> list[str]:
    """The requirement and cost types of one entry of a card's script (an ability a card plays cards through), as
    `requires:TYPE` and `cost:TYPE`."""
    found = []
    for part in ("requires", "cost"):
        for node in _listed(entry.get(part) if isinstance(entry, dict) else None):
            label = f"{part}:{_kind(node)}"
            if label not in found:
                found.append(label)
    return found


# What the census says of each field of a GEMP card entry: the rules that read it, or why it bears on no question the
# knowledge base answers. A field in neither is counted as dropped (a test keeps that at none).
READ_FIELDS = {
    "title": "lotr_unique_blocks_unique", "subtitle": "lotr_condition_no_subtitle",
    "unique": "lotr_unique_blocks_unique",
    "side": "lotr_palantir_cross_side", "type": "lotr_bearer_in_play", "culture": "lotr_bearer_target",
    "race": "lotr_bearer_target", "cardInfo": "lotr_same_collinfo", "target": "lotr_bearer_target",
    "keywords": "lotr_bearer_target", "keyword": "lotr_bearer_target", "itemclass": "lotr_bearer_target",
    "signet": "lotr_bearer_target", "effects": "lotr_via_lacks_ability",
}
NAMED_FIELDS = {"twilight": "lotr_twilight_unchecked", "canStartWithRing": "lotr_play_effect_unchecked"}
NO_BEARING = {
    "strength": "a skirmish value; filters on current strength are named where they decide",
    "vitality": "a value of wounds and exertion, which no question asked here turns on",
    "resistance": "a value of wounds and exertion, which no question asked here turns on",
    "site": "a minion's site number or a site's place on the path, which no question asked here turns on",
    "block": "a site's block (the adventure path's edition), which no question asked here turns on",
    "direction": "a site's shadow arrow, which no question asked here turns on",
    "allyHome": "an ally's home site; filters on it are named where they decide",
}
# Script entries whose content is what a card does once played or in play, not whether a card may be played: the
# census counts their play and stack effects (read as abilities) and their play modifiers apart.
EFFECT_RULES = {"ability": "lotr_via_lacks_ability", "requirement": "lotr_play_requirement",
                "requirement_unread": "lotr_play_requirement_unchecked", "cost": "lotr_play_cost_unchecked",
                "own_cost": "lotr_twilight_unchecked", "play_modifier": "lotr_play_effect_unchecked",
                "ability_condition": "lotr_via_conditions_unchecked"}
FILTER_RULES = {"target": ("lotr_bearer_target", "lotr_bearer_target_unchecked"),
                "extra class filter": ("lotr_bearer_item_class", "lotr_bearer_target_unchecked"),
                "ability filter": ("lotr_via_filter_excludes", "lotr_via_filter_unchecked"),
                "requirement filter": ("lotr_play_requirement", "lotr_play_requirement_unchecked")}


def _leaf_rows(kind: str, tree: list[Any]) -> list[tuple[str, str, str, str]]:
    """A census row per term of a filter tree: a test the rules read, or a term they name."""
    read, named = FILTER_RULES[kind]
    return [(f"{kind} term", leaf[1] if leaf[0] == "test" else filters.word_key(str(leaf[1]).split("(")[0]),
             "read" if leaf[0] == "test" else "named", read if leaf[0] == "test" else named)
            for leaf in filters.leaves(tree)]


# The fields of the script entries that bear on playing the card itself, and of the effects a card plays or stacks
# cards through: read (with a rule), named (with the rule an answer names them by) or of no bearing (why).
ENTRY_FIELDS = {
    "type": ("read", "lotr_via_lacks_ability"), "requires": ("read", "lotr_play_requirement"),
    "trigger": ("named", "lotr_play_requirement_unchecked"), "cost": ("named", "lotr_play_cost_unchecked"),
    "amount": ("named", "lotr_twilight_unchecked"), "discount": ("named", "lotr_twilight_unchecked"),
    "max": ("named", "lotr_twilight_unchecked"), "on": ("named", "lotr_twilight_unchecked"),
    "attachedTo": ("read", "lotr_bearer_item_class"), "skipValidate": ("named", "lotr_play_cost_unchecked"),
    "effect": ("no bearing", "what the card does once played (its play and stack effects are read as abilities)"),
    "requiresRanger": ("no bearing", "a mark other cards' effects look for, not a condition of this play"),
    "memorize": ("no bearing", "what the effect remembers for later effects"),
}
EFFECT_FIELDS = {
    "type": ("read", "lotr_via_lacks_ability"), "select": ("read", "lotr_via_filter_excludes"),
    "filter": ("read", "lotr_via_filter_excludes"), "ignoreInDeadPile": ("read", "lotr_hand_play_ignores_dead_pile"),
    "on": ("read", "lotr_via_bearer"), "where": ("read", "lotr_stack_where"),  # on a play from a stack: its host
}


def effect_field_rows(entry: dict[str, Any], play_effects: set[str], named: tuple[str, ...],
                      quiet: tuple[str, ...]) -> list[tuple[str, str, str, str]]:
    """A census row per field of each script entry bearing on the card's own play and of each effect that plays or
    stacks cards (`play_effects`, with the importer's `named` and `quiet` fields), dropped where none applies."""
    rows = []
    for item in _listed(entry.get("effects")):
        if _kind(item) in PLAY_ENTRIES | COST_ENTRIES | OWN_COST_ENTRIES | {"extrapossessionclass"}:
            rows += [("entry field", f"{_kind(item)}.{key}", *ENTRY_FIELDS.get(key, ("dropped", "")))
                     for key in item]
    for node in effect_nodes(entry.get("effects")):
        if _kind(node) in play_effects:
            for key in node:
                status = EFFECT_FIELDS.get(key) or (("named", "lotr_via_conditions_unchecked") if key in named else
                                                    ("no bearing", "what the effect remembers, shows or does after")
                                                    if key in quiet else ("dropped", ""))
                rows.append(("effect field", key, *status))
    return rows


def census_rows(entry: dict[str, Any], stored: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """Each term of a raw card entry that can bear on a question, as (kind, term, status, rule): status `read` (a rule
    consults it), `named` (an answer names it as not checked), `no bearing` (with its reason as the rule), or
    `dropped`. `stored` is the Card.extra the importer made of the entry, so the census counts what was kept."""
    rows = [field_row(field, READ_FIELDS, NAMED_FIELDS, NO_BEARING) for field in entry]
    if "target" in stored:
        rows += _leaf_rows("target", stored["target"])
    for ability, tree in stored.get("ability_filters", {}).items():
        rows.append(("ability", ability, "read", EFFECT_RULES["ability"]))
        rows += _leaf_rows("ability filter", tree)
    for requirement_item in stored.get("requirements", []):
        if requirement_item[0] == "unread":
            rows.append(("requirement", str(requirement_item[1]), "named", EFFECT_RULES["requirement_unread"]))
        else:
            rows.append(("requirement", requirement_item[0], "read", EFFECT_RULES["requirement"]))
            rows += _leaf_rows("requirement filter", requirement_item[1])
    rows += [("cost", cost, "named", EFFECT_RULES["cost"]) for cost in stored.get("costs", [])]
    rows += [("own cost change", kind, "named", EFFECT_RULES["own_cost"])
             for kind in stored.get("own_cost_changes", [])]
    rows += [("play modifier", kind, "named", EFFECT_RULES["play_modifier"])
             for kind in stored.get("play_modifiers", [])]
    rows += [("ability condition", label, "named", EFFECT_RULES["ability_condition"])
             for labels in stored.get("ability_conditions", {}).values() for label in labels]
    rows += [("attribute modifier", kind, "named", EFFECT_RULES["play_modifier"])
             for _test, kind in stored.get("attribute_modifiers", [])]
    if "extra_class" in stored:
        rows.append(("extra possession class", "extrapossessionclass", "read", "lotr_bearer_item_class"))
        rows += _leaf_rows("extra class filter", stored["extra_class"])
    return rows
