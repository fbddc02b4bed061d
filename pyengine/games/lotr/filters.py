"""GEMP's card filters (a card's `target:`, an effect's `select:` or `filter:`, a requirement's `filter:`) read into
trees of typed tests, which rules/lotr/filters.lp evaluates on the instances of a state.

A tree is JSON-shaped so the store keeps it: ["and", [trees]], ["or", [trees]], ["not", tree], ["attached", tree]
(the instance bears a card the inner tree fits), ["test", kind, value] (a test on the instance's card or on the
state the rules read), or ["unread", text] (a term the rules cannot decide: named in the answer wherever the
filter's outcome turns on it). Words are matched as GEMP matches them: letter case, spaces, hyphens and underscores
ignored. Nothing here decides a verdict; the rules do.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from pyengine.core.text import title_key

Tree = list[Any]
MAX_DEPTH = 20
MAX_TEXT = 2_000

# Races of GEMP's card data (its Race enum), by their word keys.
RACES = {"elf", "dwarf", "hobbit", "man", "wizard", "ent", "orc", "urukhai", "nazgul", "troll", "balrog", "spider",
         "wraith", "creature", "halftroll", "maia", "crow", "bird", "giant", "tree", "dragon", "eagle", "warg"}
# Card types, by their word keys, and the type each names in the encodings.
TYPE_WORDS = {"companion": "companion", "ally": "ally", "minion": "minion", "possession": "possession",
              "artifact": "artifact", "condition": "condition", "event": "event", "site": "site",
              "follower": "follower", "theonering": "the_one_ring"}
CULTURES = {"dwarven", "elven", "gandalf", "gondor", "rohan", "shire", "esgaroth", "dunland", "isengard", "men",
            "moria", "orc", "raider", "sauron", "urukhai", "wraith", "ringwraith", "fallenrealms", "gundabad",
            "mirkwood", "smaug", "spider", "troll", "gollum"}
# Printed keywords (GEMP's Keyword enum, as the data writes them), by their word keys.
_KEYWORD_WORDS = ("ranger", "knight", "archer", "fierce", "damage", "ringbound", "southron", "easterling", "valiant",
            "enduring", "lurker", "ambush", "hunter", "toil", "muster", "tracker", "search", "spell", "tale", "stealth",
            "wise", "burglar", "machine", "engine", "besieger", "corsair", "fortification", "weather", "pipeweed",
            "support area", "villager", "warg-rider", "unhasty", "mountain", "forest", "river", "plains",
            "underground", "sanctuary", "battleground", "dwelling", "marsh", "tentacle", "fellowship", "defender",
                  "aid", "beacon", "cunning", "concealed", "exposed", "relentless", "twilight")
KEYWORDS = {re.sub(r"[^a-z0-9]", "", k) for k in _KEYWORD_WORDS}
# Possession classes (GEMP's PossessionClass), by their word keys; `weapon` is either kind of weapon.
ITEM_CLASSES = {"handweapon", "rangedweapon", "mount", "armor", "ring", "shield", "staff", "pipe", "cloak", "helm",
                "palantir", "bracers", "phial", "box", "brooch", "gauntlets", "horn"}
# Races and cultures as a card's data names them (card_race/2 and card_culture/2 hold them in lower case), where
# the word key differs; the Wraith culture's other name in filters.
RACE_NAMES = {"urukhai": "uruk-hai", "halftroll": "half-troll"}
CULTURE_NAMES = {"ringwraith": "wraith", "urukhai": "uruk-hai", "fallenrealms": "fallen realms"}
# Terms a table of the knowledge base cannot decide: what they test is not in a state (strength as modified,
# who controls a site, what was played this turn...) or depends on who asks. Any other unknown word is unread too.
_SELECTORS = re.compile(r"^(choose|all|random)\((.*)\)$", re.DOTALL)
_CALL = re.compile(r"^([A-Za-z][A-Za-z0-9_ -]*)\((.*)\)$", re.DOTALL)


def word_key(text: str) -> str:
    """A filter word as GEMP matches it: lower case, accents folded, without spaces, hyphens, underscores or other
    marks (GEMP keeps hyphens but registers each hyphenated name unhyphenated too)."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]", "", folded.lower())


def split_top(text: str) -> list[str]:
    """The comma-separated parts of `text` at the outer level of its parentheses."""
    parts, depth, current = [], 0, ""
    for char in text:
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        depth += (char == "(") - (char == ")")
        current += char
    parts.append(current.strip())
    return [p for p in parts if p]


def _number(text: str) -> int | None:
    return int(text) if re.fullmatch(r"\d{1,5}", text.strip()) else None


def _side(text: str) -> str | None:
    """A side as GEMP parses one: any text naming the Shadow, or the Free Peoples."""
    key = word_key(text)
    return "shadow" if "shadow" in key else "free_peoples" if "free" in key or "people" in key else None


def _word(part: str, card_id: str, title: str | None) -> Tree:
    """A parameterless term."""
    key = word_key(part)
    if key in RACES:
        return ["test", "race", RACE_NAMES.get(key, key)]
    if key in TYPE_WORDS:
        return ["test", "type", TYPE_WORDS[key]]
    if key == "character":
        return ["or", [["test", "type", t] for t in ("companion", "ally", "minion")]]
    if key == "item":
        return ["or", [["test", "type", t] for t in ("possession", "artifact")]]
    if key in CULTURES:
        return ["test", "culture", CULTURE_NAMES.get(key, key)]
    if key in KEYWORDS:
        return ["test", "keyword", key]
    if key == "unbound":
        return ["and", [["test", "type", "companion"], ["not", ["test", "keyword", "ringbound"]]]]
    if key in ITEM_CLASSES:
        return ["test", "item_class", key]
    if key == "weapon":
        return ["or", [["test", "item_class", "handweapon"], ["test", "item_class", "rangedweapon"]]]
    if key == "unique":
        return ["test", "unique", "unique"]
    if key == "ringbearer":
        return ["test", "ring_bearer", "ring_bearer"]
    if key == "self":
        return ["test", "card", card_id]
    if key in ("oneperbearer", "limitoneperbearer", "limit1perbearer") and title is not None:
        return ["not", ["attached", ["test", "title", title_key(title)]]]
    if key in ("any", "anycard"):
        return ["and", []]
    return ["unread", part]


def _call(name: str, argument: str, card_id: str, title: str | None, depth: int) -> Tree:
    """A term with an argument."""
    key = word_key(name)
    if key in ("and", "or"):
        return [key, [parse(p, card_id, title, depth + 1) for p in split_top(argument)]]
    if key == "not":
        return ["not", parse(argument, card_id, title, depth + 1)]
    if key == "hasattached":
        return ["attached", parse(argument, card_id, title, depth + 1)]
    if key in ("name", "title"):
        return ["test", "title", title_key(argument.strip())]
    if key == "culture":
        return ["test", "culture", CULTURE_NAMES.get(word_key(argument), word_key(argument))]
    if key == "race":
        return ["test", "race", RACE_NAMES.get(word_key(argument), word_key(argument))]
    if key == "side":
        side = _side(argument)
        return ["test", "side", side] if side else ["unread", f"{name}({argument})"]
    if key == "signet":
        return ["test", "signet", word_key(argument)]
    if key in ("keyword", "haskeyword"):
        return ["test", "keyword", word_key(argument)]
    if key in ("maxtwilight", "mintwilight") and _number(argument) is not None:
        return ["test", "max_twilight" if key == "maxtwilight" else "min_twilight", _number(argument)]
    return ["unread", f"{name}({argument})"]


def parse(text: Any, card_id: str, title: str | None = None, depth: int = 0) -> Tree:
    """The tree of a filter expression of card `card_id` (a comma is "and"; a selector such as `choose(...)` stands
    for its filter)."""
    source = str(text).strip() if text is not None else ""
    if depth > MAX_DEPTH or len(source) > MAX_TEXT:
        return ["unread", source[:80]]
    selected = _SELECTORS.match(source)
    if selected:
        source = selected[2].strip()
    parts = split_top(source)
    if len(parts) != 1:
        return ["and", [parse(p, card_id, title, depth + 1) for p in parts]]
    call = _CALL.match(parts[0])
    return _call(call[1], call[2], card_id, title, depth) if call else _word(parts[0], card_id, title)


def flat(parts: list[list[str]]) -> Tree:
    """The tree of a hand-written filter: a list of [kind, value] tests, all of which must hold (kind `unchecked`:
    a term the rules cannot read)."""
    names = {"race": RACE_NAMES, "culture": CULTURE_NAMES}
    return ["and", [["unread", value] if kind == "unchecked" else
                    ["test", kind, title_key(value) if kind == "title" else
                     names[kind].get(word_key(value), word_key(value)) if kind in names else value]
                    for kind, value in parts]]


def leaves(tree: Tree) -> list[Tree]:
    """Every test and unread term of a tree."""
    if tree[0] in ("test", "unread"):
        return [tree]
    inner = tree[1] if tree[0] in ("and", "or") else [tree[1]]
    return [leaf for part in inner for leaf in leaves(part)]


def card_attributes(card: Any) -> list[tuple[str, str]]:
    """What a card shows to a filter's tests beyond the facts every card has (its type, title, race, culture, side
    and uniqueness): its printed keywords, possession classes and signet, as (kind, word key)."""
    extra = card.extra
    found = [("keyword", word) for word in extra.get("keywords", [])]
    found += [("item_class", word) for word in extra.get("item_classes", [])]
    if extra.get("signet"):
        found.append(("signet", extra["signet"]))
    return found
