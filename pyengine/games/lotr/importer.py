"""Importer of GEMP's LOTR TCG card files (HJSON, one file per set and culture, official and unofficial).

It keeps what the uniqueness rules and the explanations need: title (GEMP's stored title and the printed one),
subtitle, uniqueness (including the unofficial "at most N" values), side, type, culture, collector's info,
and the errata/variant links; and what the data says of playing a card (pyengine.games.lotr.terms: its target,
requirements, costs, twilight, keywords, classes and signet, and the filter of each effect it plays or stacks
cards through, read into trees by pyengine.games.lotr.filters). GEMP disambiguates two same-titled cards by
editing one title (`Orc Pursuer(2)`); the printed title is restored here and the stored one kept, because the
document decides which clashes are separate cards (facts/lotr/card_facts.lp), not the importer.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import hjson

from pyengine.core.asp import MAX_NUMBER
from pyengine.core.catalog import Card
from pyengine.core.errors import InputError, closest
from pyengine.core.text import title_key
from pyengine.core.yamlio import MAX_FILE_BYTES, check_data, read_input
from pyengine.games.lotr import filters
from pyengine.games.lotr.facts import check_cards
from pyengine.games.lotr.state import TYPES
from pyengine.games.lotr.terms import census_rows, effect_field_rows, effect_nodes, entry_conditions, play_terms

SIDES = {"free peoples": "free_peoples", "free_peoples": "free_peoples", "free_people": "free_peoples",
         "shadow": "shadow"}
# GEMP's cultures by side (its Culture enum): a card without a `side:` takes its culture's, as GEMP's card builder
# does; the Gollum culture, on both sides, gives none.
FREE_PEOPLES_CULTURES = ("dwarven", "elven", "gandalf", "gondor", "rohan", "shire", "esgaroth")
SHADOW_CULTURES = ("dunland", "isengard", "men", "moria", "orc", "raider", "sauron", "uruk-hai", "wraith", "ringwraith",
                   "fallen realms", "gundabad", "mirkwood", "smaug", "spider", "troll")
CULTURE_SIDES = {**dict.fromkeys(FREE_PEOPLES_CULTURES, "free_peoples"), **dict.fromkeys(SHADOW_CULTURES, "shadow")}
_DISAMBIGUATION = re.compile(r"^(?P<title>.*\S)\((?P<n>\d+)\)$")

# The card types this importer writes (pyengine.core.store refuses a stored record of another).
CARD_TYPES = TYPES

# GEMP effect types (any letter case) that play or stack cards, and the ability each gives its card.
PLAY_EFFECTS = {"playcardfromhand": "plays_from_hand", "playcardfromdiscard": "plays_from_discard",
                "playcardfromdrawdeck": "plays_from_draw_deck", "playcardfromstacked": "plays_from_stacked",
                "playcardfromdeadpile": "plays_from_dead_pile"}
STACK_EFFECTS = {"stackcardsfromhand", "stackcardsfromplay", "stackcardsfromdiscard", "stackcardsfromdeck",
                 "stacktopcardsofdrawdeck", "stackplayedevent"}
# The fields of a play or stack effect the rules do not decide, named in the answer with the ability's conditions:
# who may use it, a change to the played card's twilight cost, GEMP's own playability checks turned off.
NAMED_EFFECT_FIELDS = ("player", "discount", "maxDiscount", "removedTwilight", "ignoreRoamingPenalty",
                       "assumePlayable", "ignorePlayability", "ignoreCostCheckFailure")
# The fields of such an effect that bear on no question asked here: what it remembers, shows or does after.
QUIET_EFFECT_FIELDS = ("memorize", "showAll", "shuffle", "extraEffects", "optional", "mustExist", "count")
# With ignoreInDeadPile, a play from hand or from the dead pile has this ability too.
IGNORING = {"plays_from_hand": "plays_from_hand_ignoring_dead_pile",
            "plays_from_dead_pile": "bypasses_dead_pile_copies"}
# Words of an effect type that touch uniqueness: an effect type with one of them that is not understood is reported.
TOUCHING = ("play", "stack", "deadpile", "remove")
def _ability_entries(effects: Any) -> list[tuple[str | None, list[dict[str, Any]], list[str]]]:
    """Each entry of a card's effect script with the phase it is used in (an activated ability's `phase:`, in
    lower case; None for the rest), the effect nodes it holds and its requirement and cost types."""
    entries = effects if isinstance(effects, list) else [effects]
    found = []
    for entry in entries:
        phase = entry.get("phase") if isinstance(entry, dict) and str(entry.get("type")).lower() == "activated" \
            else None
        found.append((phase.strip().lower() if isinstance(phase, str) and phase.strip() else None,
                      effect_nodes(entry), entry_conditions(entry)))
    return found


def abilities(effects: Any, card_id: str) -> tuple[tuple[str, ...], dict[str, Any], list[str], dict[str, list[str]],
                                                 dict[str, list[str]], dict[str, Any]]:
    """The abilities a card's effect script gives it that touch uniqueness, the filter tree of each, the effect
    types it has that mention play, stack, the dead pile or removal without being understood, the phases each
    ability is used in where every entry giving it is an activated ability of a named phase, the requirement and
    cost types of the entries giving each (and the fields of its effect that change its cost or who may use it),
    and the filter tree of where each puts its card (a play's `on:` bearer, a stack's `where:`)."""
    found: dict[str, Any] = {}
    phases: dict[str, list[str]] = {}
    unphased = set()
    unknown = []
    conditions: dict[str, list[str]] = {}
    places: dict[str, Any] = {}
    for phase, nodes, entry_terms in _ability_entries(effects):
        for node in nodes:
            kind = node["type"].lower()
            if kind in PLAY_EFFECTS:
                ability = PLAY_EFFECTS[kind]
                names = [ability, IGNORING[ability]] if node.get("ignoreInDeadPile") is True and ability in IGNORING \
                    else [ability]
                select = node.get("select") or node.get("filter")
            elif kind in STACK_EFFECTS:
                names, select = ["stacks_cards"], node.get("select") or node.get("filter")
            else:
                if any(word in kind for word in TOUCHING):
                    unknown.append(kind)
                continue
            tree = filters.parse(select, card_id) if select is not None else ["and", []]
            place = node.get("on") if kind in PLAY_EFFECTS else node.get("where")
            node_terms = [f"{key}" for key in sorted(node) if key in NAMED_EFFECT_FIELDS]
            for name in names:
                # Two effects giving one ability play what either filter lets through.
                found[name] = tree if name not in found or found[name] == tree else ["or", [found[name], tree]]
                if place is not None:
                    places[name] = filters.parse(place, card_id)
                conditions.setdefault(name, [])
                conditions[name] += [t for t in entry_terms + node_terms if t not in conditions[name]]
                if phase is None:
                    unphased.add(name)
                elif phase not in phases.setdefault(name, []):
                    phases[name].append(phase)
    return (tuple(sorted(found)), found, unknown, {n: p for n, p in phases.items() if n not in unphased},
            {n: c for n, c in conditions.items() if c}, places)


def _type(raw: str) -> str:
    return "_".join(raw.strip().lower().split())


def printed_title(stored: str) -> tuple[str, int | None]:
    """GEMP's stored title without its disambiguating `(N)`, and N."""
    match = _DISAMBIGUATION.match(stored)
    return (match["title"], int(match["n"])) if match else (stored, None)


def _card(card_id: str, entry: Any, official: bool, file: str) -> Card:
    if not isinstance(entry, dict):
        raise InputError(f"card {card_id} is not a mapping of fields", file=file, field=card_id,
                         expected="a GEMP card entry")
    stored = entry.get("title")
    if not isinstance(stored, str) or not stored.strip():
        raise InputError(f"card {card_id} has no title", file=file, field=f"{card_id}.title",
                         expected="a non-empty title")
    raw_type = entry.get("type")
    if not isinstance(raw_type, str):
        raise InputError(f"card {card_id} has no type", file=file, field=f"{card_id}.type", expected="a card type")
    if _type(raw_type) not in TYPES:
        raise InputError(f"card {card_id} has the unknown type {raw_type!r}", file=file, field=f"{card_id}.type",
                         expected="one of " + ", ".join(TYPES), suggestion=closest(_type(raw_type), TYPES))
    info = entry.get("cardInfo") if isinstance(entry.get("cardInfo"), dict) else {}
    for key, value in (("subtitle", entry.get("subtitle")), ("side", entry.get("side")), ("race", entry.get("race")),
                       ("culture", entry.get("culture")), ("cardInfo.collInfo", info.get("collInfo"))):
        if value is not None and (isinstance(value, bool) or not isinstance(value, str | int)):
            raise InputError(f"card {card_id} has {type(value).__name__} for {key}", file=file,
                             field=f"{card_id}.{key}", expected="text (or a whole number)")
    unique = entry.get("unique")
    if not (unique is None or isinstance(unique, bool)
            or (isinstance(unique, int) and 0 <= unique <= MAX_NUMBER)):
        raise InputError(f"card {card_id} has unique: {unique!r}", file=file, field=f"{card_id}.unique",
                         expected=f"true, false, or a whole number up to {MAX_NUMBER}")
    title, variant = printed_title(stored.strip())
    derived = abilities(entry.get("effects"), card_id)
    raw_side = entry.get("side")
    culture = str(entry["culture"]).strip().lower() if entry.get("culture") else None
    side = SIDES.get(str(raw_side).strip().lower()) if raw_side else CULTURE_SIDES.get(culture or "")
    subtitle = entry.get("subtitle")
    return Card(
        id=card_id, title=title, stored_title=stored.strip(),
        subtitle=str(subtitle).strip() if subtitle not in (None, "") else None,
        unique=unique is True or (isinstance(unique, int) and not isinstance(unique, bool) and unique >= 1),
        side=side, type=_type(raw_type), culture=culture,
        collinfo=str(info["collInfo"]) if info.get("collInfo") else None,
        race=str(entry["race"]).strip().lower() if entry.get("race") else None,
        abilities=derived[0],
        extra={"official": official, "file": file, "ability_filters": derived[1], "unknown_effects": derived[2],
               **({"ability_phases": derived[3]} if derived[3] else {}),
               **({"ability_conditions": derived[4]} if derived[4] else {}),
               **({"ability_places": derived[5]} if derived[5] else {}),
               **play_terms(entry, card_id),
               **({"unique_limit": unique} if isinstance(unique, int) and not isinstance(unique, bool) else {}),
               **({"title_edit": variant} if variant else {}),
               **({"side_from_culture": True} if side and not raw_side else {}),
               **{k: info[k] for k in ("parent", "variant", "revision") if k in info}},
    )


def census_terms(root: Path, progress: Callable[[int, int], None] | None = None
                 ) -> Iterator[tuple[str, list[tuple[str, str, str, str]]]]:
    """Each card of a GEMP folder with the census rows of its terms (pyengine.games.lotr.terms.census_rows), read
    as the import reads it."""
    for path, data in _card_files(root, progress):
        base = root / "cards" if (root / "cards").is_dir() else root
        official = str(path.relative_to(base)).split("/")[0] == "official"
        for card_id, entry in data.items():
            card = _card(str(card_id), entry, official, str(path))
            rows = census_rows(entry, card.extra) + effect_field_rows(
                entry, set(PLAY_EFFECTS) | STACK_EFFECTS, NAMED_EFFECT_FIELDS, QUIET_EFFECT_FIELDS)
            yield card.id, rows


def _card_files(root: Path, progress: Callable[[int, int], None] | None) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Each GEMP card file of a `cards/` folder (or of the repository above it), read and checked."""
    if (root / "cards").is_dir():
        root = root / "cards"
    if not root.is_dir():
        raise InputError("not a folder", file=str(root), expected="GEMP's cards/ folder of .hjson files")
    files = sorted(root.rglob("*.hjson"))
    if not files:
        raise InputError("no .hjson card files found", file=str(root),
                         expected="GEMP's cards/ folder (official/setNN/*.hjson, unofficial/...)")
    for index, path in enumerate(files, 1):
        text = read_input(path, "card file")
        try:
            data = hjson.loads(text)
        except hjson.HjsonDecodeError as exc:
            raise InputError(f"malformed HJSON: {exc.msg}", file=str(path), line=exc.lineno,
                             column=exc.colno) from None
        except (RecursionError, ValueError, TypeError) as exc:
            raise InputError(f"unreadable HJSON: {type(exc).__name__}", file=str(path),
                             expected="card entries nested a few levels deep") from None
        check_data(data, str(path), MAX_FILE_BYTES)  # a NUL or lone surrogate in any text, named by its field
        if not isinstance(data, dict):
            raise InputError("not a mapping of card ids to cards", file=str(path), expected="a GEMP card file")
        yield path, data
        if progress:
            progress(index, len(files))


def read_cards(root: Path, progress: Callable[[int, int], None] | None = None) -> list[Card]:
    """Every card of a GEMP `cards/` folder (or of the repository above it)."""
    base = root / "cards" if (root / "cards").is_dir() else root
    cards: dict[str, Card] = {}
    for path, data in _card_files(root, progress):
        official = str(path.relative_to(base)).split("/")[0] == "official"
        for card_id, entry in data.items():
            card = _card(str(card_id), entry, official, str(path))
            if card.id in cards:
                raise InputError(f"card id {card.id} appears twice (also in {cards[card.id].extra['file']})",
                                 file=str(path), field=card.id, expected="one entry per card id")
            cards[card.id] = card
    return list(cards.values())


def read(root: Path, progress: Callable[[int, int], None] | None = None) -> tuple[list[Card], dict[str, Any]]:
    """Every card of a GEMP folder, and the data report."""
    cards = read_cards(root, progress)
    return cards, report(cards)


def report(cards: list[Card]) -> dict[str, Any]:
    """Counts and anomalies of the data, against what the document states of cards."""
    official = [c for c in cards if c.extra.get("official")]

    def grouped(items: list[Card], key: Callable[[Card], Any]) -> dict[Any, list[Card]]:
        groups: dict[Any, list[Card]] = defaultdict(list)
        for card in items:
            groups[key(card)].append(card)
        return groups

    def mixed(items: list[Card], attribute: Callable[[Card], Any]) -> list[dict[str, Any]]:
        return [{"title": title, "values": sorted({str(attribute(c)) for c in group}),
                 "cards": sorted(c.id for c in group)}
                for title, group in sorted(grouped(items, lambda c: c.title).items())
                if len({attribute(c) for c in group}) > 1]

    spelling = [{"key": key, "titles": sorted({c.title for c in group}), "cards": sorted(c.id for c in group)}
                for key, group in sorted(grouped(cards, lambda c: title_key(c.title)).items())
                if len({c.title for c in group}) > 1]
    shared_info = [{"collinfo": info, "titles": sorted({c.full_name for c in group}),
                    "cards": sorted(c.id for c in group)}
                   for info, group in sorted(grouped([c for c in cards if c.collinfo], lambda c: c.collinfo).items())
                   if len({c.title for c in group}) > 1]
    return {
        "entries": len(cards),
        "official": {
            "entries": len(official),
            "unique": sum(c.unique for c in official),
            "distinct_stored_titles": len({c.stored_title for c in official}),
            "distinct_printed_titles": len({c.title for c in official}),
            "stored_titles_shared_by_several_cards": sum(
                1 for g in grouped(official, lambda c: c.stored_title).values() if len(g) > 1),
            "titles_mixing_uniqueness": mixed(official, lambda c: c.unique),
            "titles_mixing_sides": mixed([c for c in official if c.side], lambda c: c.side),
            "titles_mixing_types": len(mixed(official, lambda c: c.type)),
        },
        "unofficial_entries": len(cards) - len(official),
        "title_edits": [{"card": c.id, "stored": c.stored_title, "printed": c.title}
                        for c in cards if c.extra.get("title_edit")],
        "titles_differing_only_in_spelling": spelling,
        "collinfo_shared_by_different_titles": shared_info,
        "sides_from_culture": sum(bool(c.extra.get("side_from_culture")) for c in cards),
        "unique_limits_not_in_the_document": [{"card": c.id, "title": c.full_name, "at_most": c.extra["unique_limit"]}
                                              for c in cards if c.extra.get("unique_limit", 1) > 1],
        "invariant_breaks": check_cards(cards),
        "abilities": {name: sum(name in c.abilities for c in cards)
                      for name in sorted({a for c in cards for a in c.abilities})},
        "effect_types_not_understood": dict(sorted(Counter(t for c in cards for t in c.extra.get("unknown_effects", []))
                                                   .items())),
    }


def report_lines(report: dict[str, Any]) -> list[str]:
    """The data report in words, a line each (what `pyengine import gemp` prints)."""
    lines = []
    official = report["official"]
    lines.append(f"entries: {report['entries']} ({official['entries']} official, "
                 f"{report['unofficial_entries']} unofficial)")
    lines.append(f"official: {official['unique']} unique, {official['distinct_stored_titles']} distinct stored titles "
          f"({official['distinct_printed_titles']} printed), {official['stored_titles_shared_by_several_cards']} "
          "titles shared by several cards")
    for key, label in (("titles_mixing_uniqueness", "titles mixing unique and non-unique"),
                       ("titles_mixing_sides", "titles mixing sides")):
        names = "; ".join(f"{t['title']} ({', '.join(t['cards'])})" for t in official[key])
        lines.append(f"official {label}: {len(official[key])}: {names}")
    lines.append(f"official titles mixing types: {official['titles_mixing_types']}")
    edits = "; ".join(f"{e['card']} stored {e['stored']!r}, printed {e['printed']!r}" for e in report["title_edits"])
    lines.append(f"GEMP title edits: {len(report['title_edits'])}: {edits}")
    spelling = report["titles_differing_only_in_spelling"]
    lines.append(f"title groups differing only in accents, case or spacing: {len(spelling)}, e.g. "
          + "; ".join(" / ".join(g["titles"]) for g in spelling[:4]))
    shared = report["collinfo_shared_by_different_titles"]
    lines.append(f"collector's info shared by different titles: {len(shared)}, e.g. "
          + "; ".join(f"{g['collinfo']}: {' / '.join(g['titles'])}" for g in shared[:3]))
    limits = report["unique_limits_not_in_the_document"]
    lines.append(f"'at most N copies' uniqueness (not in the document: one copy by default, N under the reading "
                 f"lotr_unique_count=data_count): {len(limits)}")
    lines.append(f"sides taken from the culture, as GEMP does, for cards without a side: "
                 f"{report['sides_from_culture']}")
    for entry in report["invariant_breaks"]:
        lines.append(f"breaks {entry['rule']} ({', '.join(entry['paragraphs'])}): {entry['card']} {entry['title']}")
    lines.append("abilities from the effect scripts: " + ", ".join(f"{k} {v}" for k, v in report["abilities"].items()))
    unknown = report["effect_types_not_understood"]
    lines.append(f"effect types mentioning play, stack, the dead pile or removal, not understood: {len(unknown)}: "
          + ", ".join(f"{k} ({v})" for k, v in unknown.items()))
    return lines
