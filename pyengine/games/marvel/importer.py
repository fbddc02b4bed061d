"""Importer of MarvelCDB's Marvel Champions card data (JSON: pack/*.json, translations/<lang>/pack/*.json).

Reprint stubs (`duplicate_of`) resolve to their original card, whose codes they become. A hero card is linked
to its alter ego (its `back_link`, or for a two-card identity such as SP//dr the alter ego of its set), to the
named card on the back of its alter ego where that is another card of the identity (SP//dr's upgrade), and to
the identity's other hero forms (the other hero cards of its set). German names become aliases, so scenarios
and decklists may name cards in German. The report counts the data and lists its anomalies.
"""

from __future__ import annotations

import difflib
import json
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pyengine.core.asp import MAX_NUMBER
from pyengine.core.catalog import Card
from pyengine.core.errors import InputError, closest
from pyengine.core.text import title_key
from pyengine.core.yamlio import MAX_FILE_BYTES, check_data, read_input
from pyengine.games.marvel.facts import loose_key
from pyengine.games.marvel.state import TYPES
from pyengine.games.marvel.terms import ABILITY_RULES, card_traits, census_rows, pool_names, read_text

PLAYER_EXCLUDED = {"encounter", "campaign"}

# The card types this importer writes (pyengine.core.store refuses a stored record of another).
CARD_TYPES = TYPES

# The fields of a card record that must be text, and those that must be whole numbers, when present.
TEXT_FIELDS = ("code", "name", "subname", "type_code", "back_link", "faction_code", "set_code", "pack_code",
               "duplicate_of", "text", "traits")
NUMBER_FIELDS = ("deck_limit", "quantity")


def _load(path: Path) -> list[dict[str, Any]]:
    text = read_input(path, "card file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON: {exc.msg}", file=str(path), line=exc.lineno, column=exc.colno) from None
    except (RecursionError, ValueError) as exc:
        raise InputError(f"unreadable JSON: {type(exc).__name__}", file=str(path)) from None
    if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
        raise InputError("not a list of cards", file=str(path), expected="a MarvelCDB pack file")
    check_data(data, str(path), MAX_FILE_BYTES)  # a NUL or lone surrogate in any text, named by its field
    for entry in data:
        code = entry.get("code")
        for key in TEXT_FIELDS:
            if key in entry and (entry[key] is not None or key in ("code", "name")) and not isinstance(entry[key], str):
                raise InputError(f"card {code!r} has {type(entry[key]).__name__} for {key}", file=str(path),
                                 field=f"{code}.{key}", expected="text")
        for key in NUMBER_FIELDS:
            value = entry.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 0 <= value <= MAX_NUMBER):
                raise InputError(f"card {code!r} has {value!r} for {key}", file=str(path), field=f"{code}.{key}",
                                 expected=f"a whole number from 0 to {MAX_NUMBER}")
        if "type_code" in entry and entry["type_code"] not in TYPES:
            raise InputError(f"card {code!r} has the unknown type {entry['type_code']!r}", file=str(path),
                             field=f"{code}.type_code", expected="a MarvelCDB type code such as hero, ally, minion",
                             suggestion=closest(str(entry["type_code"]), TYPES))
    return data


def read_raw(root: Path, language: str = "de",
             progress: Callable[[int, int], None] | None = None) -> tuple[dict[str, dict], dict[str, dict]]:
    """The raw card records by code, and the translated records of one language by code."""
    packs = sorted((root / "pack").glob("*.json")) if (root / "pack").is_dir() else []
    if not packs:
        raise InputError("no pack/*.json card files found", file=str(root),
                         expected="a MarvelCDB data folder (pack/*.json, translations/<lang>/pack/*.json)")
    raw: dict[str, dict] = {}
    for index, path in enumerate(packs, 1):
        for entry in _load(path):
            code = entry.get("code")
            if not isinstance(code, str):
                raise InputError("a card has no code", file=str(path), expected="every card with a `code`")
            if "name" not in entry and "duplicate_of" not in entry:
                raise InputError(f"card {code} has no name", file=str(path), field=f"{code}.name",
                                 expected="a name, or duplicate_of for a reprint")
            if code in raw:  # never keep one silently: which of the two is right is the data's to say
                raise InputError(f"card code {code} appears twice (also in {raw[code]['_file']})", file=str(path),
                                 field=f"{code}.code", expected="one entry per card code")
            raw[code] = entry | {"_file": str(path)}
        if progress:
            progress(index, len(packs))
    translated: dict[str, dict] = {}
    for path in sorted((root / "translations" / language / "pack").glob("*.json")):
        for entry in _load(path):
            if isinstance(entry.get("code"), str):
                translated[entry["code"]] = entry
    return raw, translated


def _text_extra(entry: dict[str, Any], names: frozenset[str]) -> dict[str, Any]:
    """What a card's printed text and traits give it (terms.py, the classifier the census of terms shares): its
    abilities, the encounter zones each takes its card from, its traits, and whether some mention of entering play
    went unread."""
    reading = read_text(entry, names)
    extra: dict[str, Any] = {}
    if reading.abilities:
        extra["abilities"] = reading.abilities
    if reading.zones:
        extra["ability_zones"] = [[ability, zone] for ability, zone in reading.zones]
    if reading.unread:
        extra["text_unread"] = True
    traits = card_traits(entry.get("traits"))
    if traits:
        extra["traits"] = traits
    return extra


def _copies_each(entry: dict[str, Any]) -> int | None:
    """The copies of each of its non-signature cards a hero's deck must hold, where its data says so (MarvelCDB's
    `deck_requirements` with a `limit`: Adam Warlock's one of each), else None."""
    requirements = entry.get("deck_requirements")
    items = requirements if isinstance(requirements, list) else [requirements]
    limits = [r["limit"] for r in items if isinstance(r, dict) and isinstance(r.get("limit"), int)
              and not isinstance(r["limit"], bool) and 1 <= r["limit"] <= MAX_NUMBER]
    return limits[0] if limits else None


def build_cards(raw: dict[str, dict], translated: dict[str, dict]) -> list[Card]:
    """Cards with identities linked, reprints resolved and translated names as aliases."""
    real = {code: e for code, e in raw.items() if "name" in e}
    reprints: dict[str, list[str]] = defaultdict(list)
    for code, entry in raw.items():
        if "name" not in entry:
            original, seen = entry["duplicate_of"], {code}
            while original in raw and "name" not in raw[original]:
                if original in seen:
                    raise InputError(f"reprints refer to each other in a cycle: {', '.join(sorted(seen))}",
                                     file=entry.get("_file"), field=f"{code}.duplicate_of",
                                     expected="duplicate_of naming an original card")
                seen.add(original)
                original = raw[original]["duplicate_of"]
            reprints[original].append(code)
    by_set: dict[str, list[str]] = defaultdict(list)
    for code, entry in sorted(real.items()):
        if entry.get("set_code") and entry.get("type_code") in ("hero", "alter_ego"):
            by_set[entry["set_code"]].append(code)
    cards = []
    pool = pool_names(real.values())
    for code, entry in sorted(real.items()):
        kind = entry.get("type_code") or ""
        extra: dict[str, Any] = {k: entry[k] for k in ("deck_limit", "faction_code", "set_code", "pack_code", "hidden")
                                 if entry.get(k) is not None}
        extra.update(_text_extra(entry, pool))
        extra["codes"] = reprints.get(code, [])
        if kind == "hero":
            limit = _copies_each(entry)
            if limit is not None:
                extra["copies_each"] = limit
            family = by_set.get(entry.get("set_code") or "", [])
            back = entry.get("back_link")
            alter_egos = [c for c in family if real[c].get("type_code") == "alter_ego"]
            if back in real and real[back].get("type_code") == "alter_ego":
                extra["alter_ego"] = back
            elif len(alter_egos) == 1:
                extra["alter_ego"] = alter_egos[0]
            extra["forms"] = [c for c in family if c != code and real[c].get("type_code") == "hero"]
            # A two-card identity (SP//dr): the back of its alter-ego card is another named card of the identity,
            # shown with the hero side (the SP//dr upgrade beside the SP//dr Suit).
            sides = [code, extra.get("alter_ego")]
            extra["linked_faces"] = sorted({real[s]["back_link"] for s in sides if s in real
                                            and real[s].get("back_link") in real
                                            and real[real[s]["back_link"]].get("type_code") not in ("hero", "alter_ego")
                                            and real[real[s]["back_link"]]["name"] != real[s]["name"]})
        names = []
        german = translated.get(code, {})
        if german.get("name") and german["name"] != entry["name"]:
            names.append(german["name"])
        subname = german.get("subname") or entry.get("subname")
        if german.get("name") and subname:
            names.append(f"{german['name']}, {subname}")
        cards.append(Card(id=code, title=entry["name"], subtitle=entry.get("subname") or None,
                          unique=entry.get("is_unique") is True, type=kind, aliases=tuple(dict.fromkeys(names)),
                          extra=extra))
    for variant in person_variants(cards):
        for code in variant["cards"]:
            pairs = next(c for c in cards if c.id == code).extra.setdefault("person_aliases", [])
            if variant["names"] not in pairs:
                pairs.append(variant["names"])
    return cards


def person_variants(cards: list[Card]) -> list[dict[str, Any]]:
    """One person spelt two ways: a hero's alter ego and a same-named ally's subtitle whose words are one a part
    of the other (Greer Nelson, Greer Grant Nelson), with the cards that carry either spelling."""
    by_id = {c.id: c for c in cards}
    allies_by_title: dict[str, list[Card]] = defaultdict(list)
    for card in cards:
        if card.type == "ally" and card.subtitle:
            allies_by_title[card.title].append(card)
    found = []
    for hero in (c for c in cards if c.type == "hero"):
        alter_ego = by_id.get(hero.extra.get("alter_ego") or "")
        if alter_ego is None:
            continue
        for ally in allies_by_title.get(hero.title, []):
            a, b = title_key(alter_ego.title).split(), title_key(ally.subtitle or "").split()
            if a != b and (set(a) <= set(b) or set(b) <= set(a)):
                found.append({"hero": hero.id, "alter_ego": alter_ego.title, "ally": ally.id,
                              "subtitle": ally.subtitle, "names": [alter_ego.title, ally.subtitle],
                              "cards": [hero.id, alter_ego.id, ally.id]})
    return found


def census_terms(root: Path, progress: Callable[[int, int], None] | None = None
                 ) -> Iterator[tuple[str, list[tuple[str, str, str, str]]]]:
    """Each card of a MarvelCDB data folder with the census rows of its printed text's terms (terms.census_rows:
    kind, marker, read or named, the rules), read by the classifier the import uses (reprint stubs are their
    originals)."""
    raw, _ = read_raw(root, progress=progress)
    real = [entry for entry in raw.values() if "name" in entry]
    pool = pool_names(real)
    for entry in sorted(real, key=lambda e: e["code"]):
        yield entry["code"], census_rows(entry, pool)


def read(root: Path, progress: Callable[[int, int], None] | None = None) -> tuple[list[Card], dict[str, Any]]:
    """Every card of a MarvelCDB data folder, and the data report."""
    raw, translated = read_raw(root, progress=progress)
    cards = build_cards(raw, translated)
    return cards, report(raw, translated, cards)


def report(raw: dict[str, dict], translated: dict[str, dict], cards: list[Card]) -> dict[str, Any]:
    real = [e for e in raw.values() if "name" in e]
    unique = [e for e in real if e.get("is_unique") is True]

    def is_player(e: dict) -> bool:
        return e.get("faction_code") not in PLAYER_EXCLUDED

    by_loose: dict[str, set[str]] = defaultdict(set)
    for entry in real:
        for text in (entry["name"], entry.get("subname")):
            if text:
                by_loose[loose_key(text)].add(text)
    spelling = [sorted(group) for group in by_loose.values() if len({title_key(t) for t in group}) > 1]
    heroes = {c.id: c for c in cards if c.type == "hero"}
    by_id = {c.id: c for c in cards}
    variants = person_variants(cards)
    german_respellings = []
    for hero in heroes.values():
        alter_ego = by_id.get(hero.extra.get("alter_ego") or "")
        if alter_ego is None:
            continue
        for ally in (c for c in cards if c.type == "ally" and c.title == hero.title and c.subtitle):
            german = translated.get(ally.id, {}).get("subname")
            if german and german != alter_ego.title and difflib.SequenceMatcher(None, german,
                                                                                 alter_ego.title).ratio() > 0.85:
                german_respellings.append({"ally": ally.id, "german_subtitle": german, "alter_ego": alter_ego.title})
    characters = [e for e in unique if e.get("type_code") in ("hero", "alter_ego", "ally", "minion", "villain")]
    return {
        "entries": len(raw),
        "cards": len(real),
        "reprint_stubs": len(raw) - len(real),
        "unique": len(unique),
        "unique_by_type": {t: sum(1 for e in unique if e.get("type_code") == t)
                           for t in ("hero", "alter_ego", "ally", "minion", "villain")},
        "unique_allies_without_subtitle": sum(1 for e in unique
                                              if e.get("type_code") == "ally" and not e.get("subname")),
        "heroes_not_marked_unique": sorted(e["code"] for e in real if e.get("type_code") == "hero"
                                           and e.get("is_unique") is not True),
        "unique_player_cards_without_deck_limit": sum(1 for e in unique
                                                      if is_player(e) and e.get("deck_limit") is None),
        "non_unique_player_cards_with_deck_limit_1": sum(1 for e in real if e.get("is_unique") is not True
                                                         and e.get("faction_code") != "encounter"
                                                         and e.get("deck_limit") == 1),
        "names_differing_only_in_spelling": sorted(spelling),
        "alter_ego_and_ally_subtitle_variants": [{k: v[k] for k in ("hero", "alter_ego", "ally", "subtitle")}
                                                 for v in variants],
        "person_groups": sorted({tuple(sorted(v["names"])) for v in variants}),
        "card_text_shapes": {
            shape: sorted(c.id for c in cards if any(a[0] == shape for a in c.extra.get("abilities") or []))
            for shape in ABILITY_RULES if shape not in ("takes_from", "text_unread")},
        "card_text_not_classified": sorted(c.id for c in cards if c.extra.get("text_unread")),
        "two_card_identities": [{"hero": h.id, "title": h.title, "linked_faces": h.extra["linked_faces"]}
                                for h in sorted(heroes.values(), key=lambda c: c.id) if h.extra.get("linked_faces")],
        "hero_forms": [{"hero": h.id, "title": h.title, "forms": h.extra["forms"]}
                       for h in sorted(heroes.values(), key=lambda c: c.id) if h.extra.get("forms")],
        "german_respellings_of_alter_egos": german_respellings,
        "unique_characters_without_german_entry": sum(1 for e in characters if e["code"] not in translated),
        "identities_without_alter_ego": sorted(h.id for h in heroes.values() if not h.extra.get("alter_ego")),
        "definitions": {
            "player cards": "faction not encounter or campaign (for the deck-limit count); not encounter "
                            "(for the non-unique count)",
            "spelling variants": "names or subtitles equal once case, accents, spaces and punctuation are removed",
        },
    }


def report_lines(report: dict[str, Any]) -> list[str]:
    """The data report in words, a line each (what `pyengine import marvelsdb` prints)."""
    lines = []
    lines.append(f"entries: {report['entries']} ({report['cards']} cards, {report['reprint_stubs']} reprint stubs "
          "resolved to their originals)")
    by_type = ", ".join(f"{n} {t}" for t, n in report["unique_by_type"].items())
    lines.append(f"unique: {report['unique']} ({by_type}); {report['unique_allies_without_subtitle']} unique allies "
          "without subtitle")
    heroes = ", ".join(report["heroes_not_marked_unique"])
    lines.append(f"heroes not marked unique (treated as unique, p5/p7): {heroes}")
    lines.append(f"unique player cards without deck_limit: {report['unique_player_cards_without_deck_limit']}; "
          f"non-unique player cards with deck_limit 1: {report['non_unique_player_cards_with_deck_limit_1']}")
    lines.append("names differing only in spelling: " + "; ".join(" / ".join(g) for g in
                                                            report["names_differing_only_in_spelling"]))
    for v in report["alter_ego_and_ally_subtitle_variants"]:
        lines.append(f"one person spelt two ways: alter ego {v['alter_ego']!r} of {v['hero']}, "
              f"ally {v['ally']} subtitled {v['subtitle']!r}")
    groups = "; ".join(" / ".join(group) for group in report["person_groups"])
    lines.append(f"person groups (reading marvel_person_spelling): {groups}")
    forms = "; ".join(f"{h['hero']} {h['title']}: {', '.join(h['forms'])}" for h in report["hero_forms"])
    lines.append(f"hero forms: {forms}")
    for v in report["german_respellings_of_alter_egos"]:
        lines.append(f"German re-spelling: ally {v['ally']} subtitled {v['german_subtitle']!r}, "
                     f"alter ego {v['alter_ego']!r}")
    lines.append(f"unique characters without a German entry: {report['unique_characters_without_german_entry']}")
    two = "; ".join(f"{h['hero']} {h['title']}: {', '.join(h['linked_faces'])}" for h in report["two_card_identities"])
    lines.append(f"two-card identities (a named card on the alter ego's back): {two}")
    shapes = report["card_text_shapes"]
    read = "; ".join(f"{shape} {len(codes)} ({', '.join(codes)})" for shape, codes in shapes.items() if codes)
    lines.append(f"card text read: {read}")
    lines.append(f"card text speaking of entering play, not classified: {len(report['card_text_not_classified'])}")
    return lines
