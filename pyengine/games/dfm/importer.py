"""Importer of the Duel for Middle-earth base game as one open-source implementation transcribes it
(Vermihunter/lotr-duel-for-middle-earth, `src/main/resources/DefaultConfig.json`; `pyengine import vermihunter
PATH`, PATH the clone, its resources folder or the file itself). Its records become the store's cards of source
`vermihunter`, each with a stable id (docs/card-pools.md): the 69 chapter cards `C.N` (chapter C, the N-th card of
that chapter in the file) of type `chapter_card`; the 7 Landmark tiles by their Fortress (`barad_dur`...) of type
`landmark_tile`; the 18 Alliance tokens `RACE.N` (`elves.1`...) of type `alliance_token`; `setup`, of type
`setup` (the starting player, coins, units and Fortresses, the regions and connections, the Ring track, the three
layouts, the tiles' rules). Names in snake case (`BaradDur`: `barad_dur`, `ALL_TO_SAME_REGION`:
`all_to_same_region`).

Nothing is taken on trust (import_checks.py): every field the rules read is required, of its kind and range,
every name one the encodings know; the setup values the encodings hold must be the data's; a token or card
real_cards.py could not make facts of is refused. Each error names the file, the record and the field. What no
rule reads is named in the report: an unknown effect type or field with its place (`unread`), each field the
rules do not read by kind of record (`not_read`). Each record keeps a digest of its data, so that the store
refuses a re-import that would bind an id to another card (pyengine.core.store.write_source)."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pyengine.core import jsonio
from pyengine.core.asp import MAX_NUMBER, is_const
from pyengine.core.catalog import Card
from pyengine.core.errors import InputError, closest
from pyengine.core.yamlio import check_data, read_input
from pyengine.games.dfm import import_checks
from pyengine.games.dfm.import_checks import Encoded, encoded
from pyengine.games.dfm.real_cards import REAL_CARD_ID

FILE = "DefaultConfig.json"
# The card types this importer writes (pyengine.core.store refuses a stored record of another).
CARD_TYPES = ("chapter_card", "landmark_tile", "alliance_token", "setup")
# Where the file sits in a clone of the implementation's repository.
IN_CLONE = Path("src", "main", "resources", FILE)

# Every effect type of the data, with its fields, all required (MultiChoice holds effects of its own).
EFFECT_FIELDS = {
    "GainSkill": {"SkillSet"}, "MoveOnTheRingQuestTrack": {"MoveCount"},
    "PlaceUnitsOnCentralBoard": {"UnitsToPlace", "Strategy", "PossibleRegionsToPlace"},
    "AddSupportOfARace": {"RaceToSupport"}, "GetCoinsFromReserve": {"CoinsToGet"}, "TakeEnemyCoins": {"CoinsToTake"},
    "MoveUnitsOnCentralBoard": {"Strategy", "UnitsToMove"}, "TakeEnemyUnitFromCentralBoard": {"UnitsToTake"},
    "PlayDiscardedChapterCard": {"CardsToPlay"}, "DiscardEnemyGreyCard": set(),
    "RevealAllianceTokensAndChooseSome": {"TokensToReveal", "TokensToChoose", "RacesToRevealFrom"},
    "TakeAnotherTurn": set(), "RemoveEnemyFortress": set(),
    "GainExtraCoinsForDiscardedChapterCard": {"ExtraCoinsPerRound"},
    "MultiChoice": {"ActionsToTake", "PossibleActions"},
}
# What each effect field holds, in words (the fields not named are counts of at least 1).
FIELD_WORDS = {"SkillSet": "the skills it gives (Ruse, Strength, Courage, Knowledge, Leadership, IsOptional)",
               "PossibleRegionsToPlace": "a list of regions of the board", "RacesToRevealFrom": "a list of races",
               "ExtraCoinsPerRound": "a list of three whole numbers, one for each chapter",
               "Strategy": "how the units spread", "RaceToSupport": "a race", "PossibleActions": "a list of effects"}
# The name a data field is kept by in an effect's record, where it is not its snake case.
STORED = {"SkillSet": "skills", "PossibleActions": "actions", "ExtraCoinsPerRound": "extra_coins_per_chapter"}
# The kinds of Alliance token, with their fields (all required) and the context their effect is read in.
TOKEN_FIELDS = {"EventBasedRaceEffect": {"Trigger", "Effect"}, "GainAttributeRaceEffect": {"Attribute"},
                "OneTimeImmediateRaceEffect": {"Effect"}}
TOKEN_CONTEXT = {"EventBasedRaceEffect": "token_trigger", "OneTimeImmediateRaceEffect": "token_once"}
CARD_FIELDS = {"Round", "Color", "RequiredSkills", "CoinsToPlay", "GainedChainingSymbol", "PlayForFreeChainingSymbol",
               "Effects"}
TILE_FIELDS = {"FortressToPlaceTo", "RequiredSkills", "Effects"}
SECTIONS = {"InitialConfig", "StartingPlayer", "TotalCoinCount", "LandmarkTileContextConfig", "LandmarkTilesToUse",
            "Regions", "ChapterCardsToUse", "QuestOfTheRingTrackConfig", "Races", "Rounds"}
# The sections the rules read or the import checks (InitialConfig may be left out: setup_coins/2 stand then).
REQUIRED_SECTIONS = SECTIONS - {"InitialConfig"}
SKILLS = ("Ruse", "Strength", "Courage", "Knowledge", "Leadership")
# The base game's chaining symbols, as the data names them: each gained by one card and playing another free. The
# encodings compare them as text, so the importer knows them (a misspelt one would chain nothing).
CHAINING_SYMBOLS = frozenset({"acorn", "anvil", "armor", "arrow", "axe", "backpack", "bedroll", "fire", "fish", "harp",
                              "helmet", "horse", "horseshoe", "knife", "pot", "scroll", "treasure_casket"})
# What the ids rest on, recorded in the report: an id of a chapter card or token is a place in the file.
IDS_BASIS = ("chapter cards C.N: the N-th card of chapter C in the file's order; Landmark tiles: their region's "
             "Fortress; Alliance tokens RACE.N: the N-th token of the race in the file's order")
# A name of the data: a word of letters, digits and underscores (snake case makes it a constant of the encodings).
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def snake(text: str) -> str:
    """A name of the data in snake case: BaradDur -> barad_dur, AddSupportOfARace -> add_support_of_a_race,
    ALL_TO_SAME_REGION -> all_to_same_region."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", text).lower()


def digest(value: Any) -> str:
    """A short digest of a record of the data, whatever the order of its keys."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class _Reader:
    """Reads the file's values, each checked for its kind, range and name, and keeps what no rule reads."""

    def __init__(self, file: str, known: Encoded):
        self.file, self.known = file, known
        self.unread: list[str] = []  # unknown parts of the data, with their place
        self.not_read: list[tuple[str, str, str]] = []  # (kind of record, field, record id) no rule reads
        self.record = ""  # the record being read, in words, named in errors ("chapter card 1.5")
        self.record_id = "setup"  # its id, or its place while its id is not known yet
        self.kind = "setup"  # its kind of record

    def at(self, kind: str, words: str, record_id: str) -> None:
        """Read record `record_id` of `kind` next (`words` name it in errors)."""
        self.kind, self.record, self.record_id = kind, f"{words} {record_id}", record_id

    def error(self, where: str, what: str, expected: str, suggestion: str | None = None) -> InputError:
        """An error at field `where` of the record being read."""
        return InputError(f"{self.record}: {what}" if self.record else what, file=self.file, field=where,
                          expected=expected, suggestion=suggestion)

    def mapping(self, value: Any, where: str, known: set[str] | None = None) -> dict[str, Any]:
        """A JSON object; its keys outside `known` are named as unread."""
        if not isinstance(value, dict):
            raise self.error(where, f"got {type(value).__name__}", "a JSON object")
        if known is not None:
            self.unread += [f"{where}.{key}" for key in sorted(set(value) - known)]
        return value

    def field(self, found: dict[str, Any], key: str, where: str, expected: str) -> Any:
        """A required field of an object (`where`), or an error saying what it should hold."""
        if key not in found:
            raise self.error(f"{where}.{key}", "missing", f"{key}: {expected}")
        return found[key]

    def items(self, value: Any, where: str, least: int = 0, most: int | None = None) -> list[Any]:
        """A JSON list of `least` to `most` items."""
        if not isinstance(value, list):
            raise self.error(where, f"got {type(value).__name__}", "a JSON list")
        if len(value) < least or (most is not None and len(value) > most):
            bound = f"from {least} to {most}" if most is not None else f"at least {least}"
            raise self.error(where, f"{len(value)} items", f"a list of {bound} items")
        return value

    def count(self, value: Any, where: str, least: int = 0) -> int:
        """A whole number from `least` to MAX_NUMBER."""
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= MAX_NUMBER:
            raise self.error(where, f"got {value!r}", f"a whole number from {least} to {MAX_NUMBER}")
        return value

    def flag(self, value: Any, where: str) -> bool:
        """true or false."""
        if not isinstance(value, bool):
            raise self.error(where, f"got {value!r}", "true or false")
        return value

    def name(self, value: Any, where: str, known: Iterable[str] | None = None, what: str = "name") -> str:
        """A name of the data in snake case; one of `known` where given."""
        if not isinstance(value, str) or not NAME.fullmatch(value):
            raise self.error(where, f"got {value!r}", f"a name ({what}): a word of letters, digits and underscores")
        found = snake(value)
        if not is_const(found):
            raise self.error(where, f"got {value!r}, a word clingo reserves", f"a {what} the encodings can name")
        if known is not None and found not in known:
            choices = sorted(known)
            raise self.error(where, f"unknown {what} {value!r}", f"a {what} the encodings know: " + ", ".join(choices),
                             closest(found, choices))
        return found

    def optional_name(self, value: Any, where: str, known: Iterable[str], what: str) -> str | None:
        """A name of `known`, or null."""
        return None if value is None else self.name(value, where, known, what)

    def names(self, value: Any, where: str, known: Iterable[str], what: str) -> list[str]:
        """A list of one or more different names of `known`."""
        found = [self.name(n, f"{where}[{i}]", known, what) for i, n in enumerate(self.items(value, where, 1))]
        for index, item in enumerate(found):
            if item in found[:index]:
                raise self.error(f"{where}[{index}]", f"{item} is named twice", f"each {what} once")
        return found

    def skills(self, value: Any, where: str, gained: bool = False) -> dict[str, Any]:
        """A skill cost, or the skills a card gives (`gained`: with IsOptional, one of them or all)."""
        found = self.mapping(value, where, {*SKILLS, "IsOptional"} if gained else set(SKILLS))
        words = "a whole number for each skill"
        skills: dict[str, Any] = {snake(s): self.count(self.field(found, s, where, words), f"{where}.{s}")
                                  for s in SKILLS}
        if gained:
            skills["optional"] = self.flag(self.field(found, "IsOptional", where, "true or false"),
                                           f"{where}.IsOptional")
        return skills

    def effect(self, value: Any, where: str, context: str, pattern: str, region: str | None = None) -> dict[str, Any]:
        """One effect of a record read in `context` (card, tile, token_once, token_trigger, pick, bonus): its type and
        fields in snake case, each required and checked; an unknown type or field named in `unread`, each field no
        rule reads in `not_read` (as `pattern`Type.Field)."""
        found = self.mapping(value, where)
        kind = self.field(found, "Type", where, "an effect type")
        effect: dict[str, Any] = {"type": self.name(kind, f"{where}.Type", what="effect type")}
        if kind not in EFFECT_FIELDS:
            self.unread.append(f"{where}: effect type {kind}")
            effect["unread"] = True
            return effect
        self.mapping(found, where, EFFECT_FIELDS[kind] | {"Type"})
        inner = len(self.not_read)
        for key in sorted(EFFECT_FIELDS[kind]):
            at = f"{where}.{key}"
            words = FIELD_WORDS.get(key, f"a whole number from 1 to {MAX_NUMBER}")
            item = self.field(found, key, where, f"{words}, of a {kind} effect")
            effect[STORED.get(key, snake(key))] = self._value(key, item, at, context, f"{pattern}{kind}.")
        nested = self.not_read[inner:]
        del self.not_read[inner:]
        self._check_effect(effect, where, context)
        used = import_checks.used(context, effect, region)
        self.not_read += [(self.kind, f"{pattern}{kind}.{key}", self.record_id)
                          for key in sorted(EFFECT_FIELDS[kind]) if STORED.get(key, snake(key)) not in used]
        if "actions" in used:
            self.not_read += nested
        return effect

    def _value(self, key: str, item: Any, at: str, context: str, pattern: str) -> Any:
        """The value of an effect's field `key`, read and checked."""
        if key == "SkillSet":
            return self.skills(item, at, gained=True)
        if key == "PossibleActions":
            inner = "pick" if context in ("token_once", "pick") else context
            return [self.effect(e, f"{at}[{i}]", inner, f"{pattern}PossibleActions[].")
                    for i, e in enumerate(self.items(item, at, 1))]
        if key == "PossibleRegionsToPlace":
            return self.names(item, at, self.known.regions, "region")
        if key == "RacesToRevealFrom":
            return self.names(item, at, self.known.races, "race")
        if key == "ExtraCoinsPerRound":
            return [self.count(n, f"{at}[{i}]") for i, n in enumerate(self.items(item, at, 3, 3))]
        if key == "Strategy":
            return self.name(item, at, {s for spreads in import_checks.STRATEGIES.values() for s in spreads.values()},
                             "strategy")
        if key == "RaceToSupport":
            if context.startswith("token"):
                return self.name(item, at, {import_checks.EAGLE[1]}, "race of the Eagle's support")
            return self.name(item, at, self.known.races, "race")
        return self.count(item, at, 1)

    def _check_effect(self, effect: dict[str, Any], where: str, context: str) -> None:
        """What an effect's fields must agree on: a choice of no more effects than it offers, units spread as the
        encodings spread them in `context`, no more of a token's units or picks than the encodings can name."""
        if effect.get("actions_to_take", 0) > len(effect.get("actions", [])):
            raise self.error(f"{where}.ActionsToTake", f"{effect['actions_to_take']} choices of "
                             f"{len(effect['actions'])} effects", "at most as many as PossibleActions holds")
        wanted = import_checks.strategy(effect["type"], context)
        if wanted is not None and effect["strategy"] != wanted:
            raise self.error(f"{where}.Strategy", f"the data says {effect['strategy']}, the encodings {wanted}",
                             f"{wanted}: how the encodings spread this effect's units (assumptions card_units, "
                             "region_tiles, alliance_tokens)")
        if context == "token_once" and effect.get("units_to_place", 0) > self.known.place_slots:
            raise self.error(f"{where}.UnitsToPlace", f"{effect['units_to_place']} units",
                             f"at most {self.known.place_slots}, the places a take names (place_slot/1)")
        if context == "token_once" and effect.get("actions_to_take", 0) > self.known.pick_slots:
            raise self.error(f"{where}.ActionsToTake", f"{effect['actions_to_take']} picks",
                             f"at most {self.known.pick_slots}, the picks a take names (pick_slot/2)")

    def effects(self, value: Any, where: str, context: str, region: str | None = None) -> list[dict[str, Any]]:
        """A record's list of one or more effects."""
        return [self.effect(e, f"{where}[{i}]", context, "Effects[].", region)
                for i, e in enumerate(self.items(value, where, 1))]


def locate(root: Path) -> Path:
    """The data file: the path itself, DefaultConfig.json in it, or in the clone's resources folder."""
    for candidate in (root, root / FILE, root / IN_CLONE):
        if candidate.is_file():
            return candidate
    raise InputError(f"no {FILE} found", file=str(root),
                     expected=f"the file, or a clone of Vermihunter/lotr-duel-for-middle-earth holding {IN_CLONE}")


def _load(path: Path) -> tuple[dict[str, Any], str]:
    """The file's configuration, read by the one JSON reader (a repeated key refused, never resolved silently), and
    the digest of its bytes."""
    text = read_input(path, "data file")
    data = jsonio.loads(text, str(path))
    check_data(data, str(path))
    if not isinstance(data, dict):
        raise InputError(f"got {type(data).__name__}", file=str(path), expected="the configuration as a JSON object")
    return data, hashlib.sha256(text.encode("utf-8")).hexdigest()


def _chapter_cards(reader: _Reader, data: dict[str, Any]) -> list[Card]:
    """The chapter cards, each chapter with at least its layout's places, every chaining symbol one that a card
    gains."""
    cards, seen = [], Counter[int]()
    for index, entry in enumerate(reader.items(data["ChapterCardsToUse"], "ChapterCardsToUse")):
        where = f"ChapterCardsToUse[{index}]"
        reader.at("chapter_card", "chapter card at", where)
        unread_before = len(reader.unread)
        found = reader.mapping(entry, where, CARD_FIELDS)
        chapter = reader.count(reader.field(found, "Round", where, "its chapter, 1 to 3"), f"{where}.Round")
        if not 1 <= chapter <= 3:
            raise reader.error(f"{where}.Round", f"got {chapter}", "chapter 1, 2 or 3")
        seen[chapter] += 1
        card_id = f"{chapter}.{seen[chapter]}"
        if not REAL_CARD_ID.fullmatch(card_id):
            raise reader.error(where, f"card {card_id}", "at most 99 cards in a chapter (ids C.N)")
        reader.at("chapter_card", "chapter card", card_id)
        colour = reader.name(reader.field(found, "Color", where, "a colour"), f"{where}.Color", reader.known.colours,
                             "colour")
        symbols = {key: reader.optional_name(reader.field(found, key, where, "a chaining symbol or null"),
                                             f"{where}.{key}", CHAINING_SYMBOLS, "chaining symbol")
                   for key in ("GainedChainingSymbol", "PlayForFreeChainingSymbol")}
        extra = {"chapter": chapter, "colour": colour,
                 "skills": reader.skills(reader.field(found, "RequiredSkills", where, "the skills it asks"),
                                         f"{where}.RequiredSkills"),
                 "coins": reader.count(reader.field(found, "CoinsToPlay", where, "a whole number"),
                                       f"{where}.CoinsToPlay"),
                 "chain": symbols["GainedChainingSymbol"], "free_with": symbols["PlayForFreeChainingSymbol"],
                 "effects": reader.effects(reader.field(found, "Effects", where, "a list of effects"),
                                           f"{where}.Effects", "card"),
                 "place": where, "digest": digest(entry)}
        extra["unread"] = reader.unread[unread_before:]
        cards.append(Card(card_id, f"chapter {chapter} card {seen[chapter]} ({colour})", type="chapter_card",
                          extra=extra))
    reader.record = ""
    places = {chapter: sum(rows) for chapter, rows in reader.known.rows.items()}
    for chapter, needed in sorted(places.items()):
        if seen[chapter] < needed:
            raise reader.error("ChapterCardsToUse", f"{seen[chapter]} cards of chapter {chapter}",
                               f"at least {needed}, the places of its layout (facts/dfm/layouts.lp)")
    gained = {c.extra["chain"] for c in cards}
    for card in cards:
        if card.extra["free_with"] is not None and card.extra["free_with"] not in gained:
            raise InputError(f"chapter card {card.id}: no card gains {card.extra['free_with']}", file=reader.file,
                             field=f"{card.extra['place']}.PlayForFreeChainingSymbol",
                             expected="a chaining symbol a card gains (GainedChainingSymbol)")
    return cards


def _tiles(reader: _Reader, data: dict[str, Any], fortress_of: dict[str, str]) -> list[Card]:
    """The Landmark tiles, one for each region of the board."""
    cards: list[Card] = []
    place_of: dict[str, str] = {}
    for index, entry in enumerate(reader.items(data["LandmarkTilesToUse"], "LandmarkTilesToUse")):
        where = f"LandmarkTilesToUse[{index}]"
        reader.at("landmark_tile", "Landmark tile at", where)
        unread_before = len(reader.unread)
        found = reader.mapping(entry, where, TILE_FIELDS)
        region = reader.name(reader.field(found, "FortressToPlaceTo", where, "its region"),
                             f"{where}.FortressToPlaceTo", fortress_of, "region")
        if region in place_of:
            raise reader.error(f"{where}.FortressToPlaceTo", f"a second tile of region {region} "
                               f"({place_of[region]} is one)", "one tile for each region")
        place_of[region] = where
        reader.at("landmark_tile", "Landmark tile", fortress_of[region])
        extra = {"region": region,
                 "skills": reader.skills(reader.field(found, "RequiredSkills", where, "the skills it asks"),
                                         f"{where}.RequiredSkills"),
                 "effects": reader.effects(reader.field(found, "Effects", where, "a list of effects"),
                                           f"{where}.Effects", "tile", region),
                 "place": where, "digest": digest(entry)}
        extra["unread"] = reader.unread[unread_before:]
        cards.append(Card(fortress_of[region], f"Landmark tile of {region}", type="landmark_tile", extra=extra))
    reader.record = ""
    missing = sorted(set(fortress_of) - set(place_of))
    if missing:
        raise reader.error("LandmarkTilesToUse", f"no tile of region {missing[0]}",
                           "a tile for each region of the board (facts/dfm/base_game.lp, tile_region/2)")
    return cards


def _tokens(reader: _Reader, data: dict[str, Any]) -> list[Card]:
    """The Alliance tokens, by race: one to three a race, each of a kind real_cards.py reads, one Eagle, a Hobbit
    token."""
    cards: list[Card] = []
    races: dict[str, str] = {}
    for index, entry in enumerate(reader.items(data["Races"], "Races")):
        where = f"Races[{index}]"
        reader.at("alliance_token", "race at", where)
        found = reader.mapping(entry, where, {"Name", "AllianceTokens"})
        race = reader.name(reader.field(found, "Name", where, "a race"), f"{where}.Name", reader.known.races, "race")
        if race in races:
            raise reader.error(f"{where}.Name", f"a second race {race} ({races[race]} is one)", "each race once")
        races[race] = where
        tokens = reader.items(reader.field(found, "AllianceTokens", where, "a list of tokens"),
                              f"{where}.AllianceTokens", 1, 3)
        for number, token in enumerate(tokens, 1):
            cards.append(_token(reader, token, f"{where}.AllianceTokens[{number - 1}]", race, number))
    reader.record = ""
    eagles = [c for c in cards if c.extra.get("effect", {}).get("type") == "add_support_of_a_race"]
    if [c.extra["race"] for c in eagles] not in ([], [import_checks.EAGLE[0]]):
        raise InputError(f"the Eagle is {', '.join(c.id for c in eagles)}", file=reader.file,
                         field=eagles[-1].extra["place"], expected="one token of the Hobbits gives a race's support, "
                                                                   "the Eagle (rules/dfm/alliance.lp)")
    return cards


def _token(reader: _Reader, token: Any, at: str, race: str, number: int) -> Card:
    """One Alliance token (`at`, the `number`-th of `race`): its kind and what it does, all required."""
    reader.at("alliance_token", "Alliance token", f"{race}.{number}")
    item = reader.mapping(token, at)
    kind = reader.field(item, "Type", at, "a kind of token: " + ", ".join(sorted(TOKEN_FIELDS)))
    if not isinstance(kind, str) or kind not in TOKEN_FIELDS:
        raise reader.error(f"{at}.Type", f"unknown kind of token {kind!r}", "a kind of token the encodings read: "
                           + ", ".join(sorted(TOKEN_FIELDS)), closest(str(kind), TOKEN_FIELDS))
    unread_before = len(reader.unread)
    reader.mapping(item, at, TOKEN_FIELDS[kind] | {"Type"})
    extra: dict[str, Any] = {"race": race, "kind": snake(kind), "place": at, "digest": digest([race, token])}
    if "Trigger" in TOKEN_FIELDS[kind]:
        extra["trigger"] = reader.name(reader.field(item, "Trigger", at, "an event"), f"{at}.Trigger",
                                       reader.known.triggers, "trigger")
    if "Attribute" in TOKEN_FIELDS[kind]:
        extra["attribute"] = reader.name(reader.field(item, "Attribute", at, "an attribute"), f"{at}.Attribute")
        if extra["attribute"] not in reader.known.attributes:
            reader.unread.append(f"{at}.Attribute: attribute {item['Attribute']}, which no rule applies")
    if "Effect" in TOKEN_FIELDS[kind]:
        extra["effect"] = reader.effect(reader.field(item, "Effect", at, "an effect"), f"{at}.Effect",
                                        TOKEN_CONTEXT[kind], "Effect.")
    extra["unread"] = reader.unread[unread_before:]
    return Card(f"{race}.{number}", f"{race} Alliance token {number}", type="alliance_token", extra=extra)


def _regions(reader: _Reader, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The board's regions: each a region the encodings know, once, with its Fortress and connections."""
    regions: list[dict[str, Any]] = []
    factions = reader.known.factions
    for index, entry in enumerate(reader.items(data["Regions"], "Regions")):
        where = f"Regions[{index}]"
        found = reader.mapping(entry, where, {"Name", "Fortress", "ConnectedWith", "StartingState"})
        name = reader.name(reader.field(found, "Name", where, "a region"), f"{where}.Name", reader.known.regions,
                           "region")
        if name in [r["name"] for r in regions]:
            raise reader.error(f"{where}.Name", f"a second region {name}", "each region once")
        region: dict[str, Any] = {
            "name": name, "fortress": reader.name(reader.field(found, "Fortress", where, "a Fortress"),
                                                  f"{where}.Fortress"),
            "connected": reader.names(reader.field(found, "ConnectedWith", where, "a list of regions"),
                                      f"{where}.ConnectedWith", reader.known.regions, "region")}
        if "StartingState" in found:
            start = reader.mapping(found["StartingState"], f"{where}.StartingState", {"Fortress", "Units"})
            units = reader.mapping(start.get("Units") or {}, f"{where}.StartingState.Units", {"Count", "Player"})
            region |= {"units": reader.count(units.get("Count", 0), f"{where}.StartingState.Units.Count"),
                       "units_of": reader.optional_name(units.get("Player"), f"{where}.StartingState.Units.Player",
                                                        factions, "player"),
                       "fortress_of": reader.optional_name(start.get("Fortress"), f"{where}.StartingState.Fortress",
                                                           factions, "player")}
        regions.append(region)
    return regions


def _layouts(reader: _Reader, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The three chapters' layouts: each place's id, row, face and the places covering it."""
    layouts: list[dict[str, Any]] = []
    for index, entry in enumerate(reader.items(data["Rounds"], "Rounds", 3, 3)):
        where = f"Rounds[{index}]"
        found = reader.mapping(entry, where, {"Round", "CoinsPerChapterCardDiscard", "ChapterCardConfig"})
        chapter = reader.count(reader.field(found, "Round", where, "its chapter, 1 to 3"), f"{where}.Round", 1)
        if chapter > 3 or chapter in [layout["chapter"] for layout in layouts]:
            raise reader.error(f"{where}.Round", f"got {chapter}", "chapters 1, 2 and 3, each once")
        places: list[dict[str, Any]] = []
        config = reader.items(reader.field(found, "ChapterCardConfig", where, "the layout's places"),
                              f"{where}.ChapterCardConfig", 1)
        for number, place in enumerate(config):
            at = f"{where}.ChapterCardConfig[{number}]"
            item = reader.mapping(place, at, {"ID", "DependsOn", "IsFaceUp", "Row"})
            covering = reader.items(reader.field(item, "DependsOn", at, "the ids of the places covering it"),
                                    f"{at}.DependsOn")
            places.append({"id": reader.count(reader.field(item, "ID", at, "a whole number"), f"{at}.ID"),
                           "row": reader.count(reader.field(item, "Row", at, "a whole number"), f"{at}.Row", 1),
                           "face_up": reader.flag(reader.field(item, "IsFaceUp", at, "true or false"),
                                                  f"{at}.IsFaceUp"),
                           "covered_by": [reader.count(n, f"{at}.DependsOn[{i}]") for i, n in enumerate(covering)]})
        ids = [p["id"] for p in places]
        for number, place in enumerate(places):
            at = f"{where}.ChapterCardConfig[{number}]"
            if place["id"] in ids[:number]:
                raise reader.error(f"{at}.ID", f"a second place {place['id']}", "each id once")
            for i, other in enumerate(place["covered_by"]):
                if other not in ids or other == place["id"] or other in place["covered_by"][:i]:
                    raise reader.error(f"{at}.DependsOn[{i}]", f"no other place {other}, or one named twice",
                                       "ids of the layout's other places, each once")
        layouts.append({"chapter": chapter, "places": places, "coins_per_discard": reader.count(
            reader.field(found, "CoinsPerChapterCardDiscard", where, "a whole number"),
            f"{where}.CoinsPerChapterCardDiscard")})
    return layouts


def _setup(reader: _Reader, data: dict[str, Any]) -> tuple[Card, dict[str, str]]:
    """The setup record, checked against the encodings', and the Fortress (tile id) of each region."""
    reader.kind, reader.record, reader.record_id = "setup", "", "setup"
    regions = _regions(reader, data)
    players = {}
    if "InitialConfig" in data:
        initial = reader.mapping(data["InitialConfig"], "InitialConfig", {"FellowshipPlayer", "SauronPlayer"})
        for key in sorted(set(initial) & {"FellowshipPlayer", "SauronPlayer"}):
            where = f"InitialConfig.{key}"
            found = reader.mapping(initial[key], where, {"Coins", "Units", "Towers"})
            players[snake(key).removesuffix("_player")] = {snake(k): reader.count(found[k], f"{where}.{k}")
                                                           for k in ("Coins", "Units", "Towers") if k in found}
    track = reader.mapping(data["QuestOfTheRingTrackConfig"], "QuestOfTheRingTrackConfig",
                           {"FellowshipPlayerStartPosition", "SauronPlayerStartPosition", "Width", "BonusActions"})
    bonuses = []
    spaces = reader.field(track, "BonusActions", "QuestOfTheRingTrackConfig", "the bonus spaces")
    for index, entry in enumerate(reader.items(spaces, "QuestOfTheRingTrackConfig.BonusActions")):
        where = f"QuestOfTheRingTrackConfig.BonusActions[{index}]"
        found = reader.mapping(entry, where, {"Position", "BonusActions"})
        effects = reader.items(reader.field(found, "BonusActions", where, "a list of effects"), f"{where}.BonusActions")
        bonuses.append({"position": reader.count(reader.field(found, "Position", where, "a space of the Ring track"),
                                                 f"{where}.Position"),
                        "effects": [reader.effect(e, f"{where}.BonusActions[{i}]", "bonus", "BonusActions[].")
                                    for i, e in enumerate(effects)]})
    kept = {"FellowshipPlayerStartPosition": "fellowship_start", "SauronPlayerStartPosition": "sauron_start",
            "Width": "width"}
    ring_track: dict[str, Any] = {name: reader.count(track[key], f"QuestOfTheRingTrackConfig.{key}")
                                  for key, name in kept.items() if key in track}
    context = reader.mapping(data["LandmarkTileContextConfig"], "LandmarkTileContextConfig",
                             {"CoinPerAlreadyPlacedFortressPawn", "LandmarkTilesAtTime"})
    reader.field(context, "CoinPerAlreadyPlacedFortressPawn", "LandmarkTileContextConfig", "a whole number")
    extra = {"starting_player": reader.name(data["StartingPlayer"], "StartingPlayer", reader.known.factions, "player"),
             "total_coins": reader.count(data["TotalCoinCount"], "TotalCoinCount"), "players": players,
             "regions": regions, "ring_track": ring_track | {"bonuses": bonuses}, "layouts": _layouts(reader, data),
             "tiles": {snake(k): reader.count(v, f"LandmarkTileContextConfig.{k}") for k, v in sorted(context.items())
                       if k in {"CoinPerAlreadyPlacedFortressPawn", "LandmarkTilesAtTime"}}}
    import_checks.check_setup(reader.file, extra)
    reader.not_read += [("setup", field, "setup") for field in import_checks.SETUP_NOT_READ if _holds(data, field)]
    return Card("setup", "the base game's setup", type="setup", extra=extra), {r["name"]: r["fortress"]
                                                                              for r in regions}


def _holds(data: Any, field: str) -> bool:
    """Whether the data holds a field written as a path (`Regions[].StartingState.Units.Count`: in any region)."""
    values = [data]
    for part in field.split("."):
        key, many = part.removesuffix("[]"), part.endswith("[]")
        values = [v[key] for v in values if isinstance(v, dict) and key in v]
        if many:
            values = [item for v in values if isinstance(v, list) for item in v]
    return bool(values)


def read(root: Path, progress: Callable[[int, int], None] | None = None) -> tuple[list[Card], dict[str, Any]]:
    """Every record of the configuration as cards of the store, and the import report; a damaged record is an
    InputError naming the file, the record and the field, and nothing is imported."""
    path = locate(root)
    data, file_digest = _load(path)
    reader = _Reader(str(path), encoded())
    reader.mapping(data, "(the file)", SECTIONS)
    missing = sorted(REQUIRED_SECTIONS - set(data))
    if missing:
        raise reader.error(missing[0], "missing", f"the section {missing[0]} of {FILE}")
    setup, fortress_of = _setup(reader, data)
    cards = [setup, *_chapter_cards(reader, data), *_tiles(reader, data, fortress_of), *_tokens(reader, data)]
    if progress:
        progress(1, 1)
    source = {"file": path.name, "sha256": file_digest, "ids": IDS_BASIS}
    return cards, report(cards, reader.unread, reader.not_read, source)


def report(cards: list[Card], unread: list[str], not_read: list[tuple[str, str, str]],
           source: dict[str, str]) -> dict[str, Any]:
    """What the import read: records by type, chapter cards by chapter and colour, effects by type, every part of
    the file it did not know, with its place (`unread`), every field no rule reads, by kind of record with the ids
    of the records holding it (`not_read`), and the file's digest with what the ids rest on (`source`)."""
    chapter = [c for c in cards if c.type == "chapter_card"]

    def kinds(effects: list[dict[str, Any]]) -> list[str]:
        return [k for e in effects for k in [e["type"], *kinds(e.get("actions", []))]]

    effects: Counter[str] = Counter()
    for card in cards:
        effects.update(kinds(card.extra.get("effects", [])))
        if "effect" in card.extra:
            effects.update(kinds([card.extra["effect"]]))
    for bonus in next(c for c in cards if c.type == "setup").extra["ring_track"]["bonuses"]:
        effects.update(kinds(bonus["effects"]))
    fields: dict[str, dict[str, list[str]]] = {}
    for kind, field, record in not_read:
        held = fields.setdefault(kind, {}).setdefault(field, [])
        if record not in held:
            held.append(record)
    return {"records": dict(sorted(Counter(c.type for c in cards).items())),
            "chapter_cards": {str(n): sum(c.extra["chapter"] == n for c in chapter) for n in (1, 2, 3)},
            "colours": dict(sorted(Counter(c.extra["colour"] for c in chapter).items())),
            "effects": dict(sorted(effects.items())), "unread": unread,
            "not_read": {kind: dict(sorted(found.items())) for kind, found in sorted(fields.items())},
            "source": source}


def report_lines(report: dict[str, Any]) -> list[str]:
    """The import report in words, a line each (what `pyengine import vermihunter` prints)."""
    lines = ["records: " + ", ".join(f"{n} {t}" for t, n in report["records"].items()),
             "chapter cards by chapter: " + ", ".join(f"{n} in chapter {c}"
                                                      for c, n in report["chapter_cards"].items()),
             "colours: " + ", ".join(f"{n} {c}" for c, n in report["colours"].items()),
             "effects: " + ", ".join(f"{n} {t}" for t, n in report["effects"].items())]
    source = report["source"]
    lines.append(f"source: {source['file']}, sha256 {source['sha256']}; ids: {source['ids']}")
    parts = list(report["unread"])
    for kind, found in report["not_read"].items():
        parts.append(f"{kind}: " + ", ".join(field if kind == "setup" else f"{field} ({_ids(ids)})"
                                             for field, ids in found.items()))
    lines.append("not read: " + ("; ".join(parts) if parts else "nothing"))
    return lines


def _ids(ids: list[str]) -> str:
    """A few record ids, and how many more."""
    return ", ".join(ids[:3]) + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
