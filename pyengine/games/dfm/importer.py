"""Importer of the Duel for Middle-earth base game as one open-source implementation transcribes it
(Vermihunter/lotr-duel-for-middle-earth, `src/main/resources/DefaultConfig.json`; `pyengine import vermihunter
PATH`, PATH the clone, its resources folder or the file itself).

Its records become the store's cards of source `vermihunter`, each with a stable id (docs/card-pools.md):
- the 69 chapter cards, `C.N`: chapter C, the N-th card of that chapter in the file (the data names no card), of
  type `chapter_card`: colour, skill cost, coin cost, chaining symbol gained and the one that plays it free, effects;
- the 7 Landmark tiles, by their Fortress (`barad_dur`...), of type `landmark_tile`: region, skill cost, effects;
- the 18 Alliance tokens, `RACE.N` (`elves.1`...), of type `alliance_token`: kind, trigger, effect or attribute;
- `setup`, of type `setup`: the starting player, coins, units and Fortresses, the regions with their connections,
  the Ring track with its bonus spaces, the three layouts with their covering relation, the tiles' rules.
Names become snake case (`BaradDur`: `barad_dur`, `ALL_TO_SAME_REGION`: `all_to_same_region`). Every effect type
and field is either read or named in the import report, with its place in the file (`unread`), and the card
keeps the list of what in it was not read: nothing is dropped in silence. A value of the wrong kind (a text
where a count is expected, a count out of range) is a located error."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyengine.core import jsonio
from pyengine.core.asp import MAX_NUMBER
from pyengine.core.catalog import Card
from pyengine.core.errors import InputError
from pyengine.core.yamlio import check_data, read_input

FILE = "DefaultConfig.json"
# Where the file sits in a clone of the implementation's repository.
IN_CLONE = Path("src", "main", "resources", FILE)

# Every effect type of the data, with the fields it is read with (MultiChoice holds effects of its own).
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
# The kinds of Alliance token, with their fields.
TOKEN_FIELDS = {"EventBasedRaceEffect": {"Trigger", "Effect"}, "GainAttributeRaceEffect": {"Attribute"},
                "OneTimeImmediateRaceEffect": {"Effect"}}
CARD_FIELDS = {"Round", "Color", "RequiredSkills", "CoinsToPlay", "GainedChainingSymbol", "PlayForFreeChainingSymbol",
               "Effects"}
TILE_FIELDS = {"FortressToPlaceTo", "RequiredSkills", "Effects"}
SECTIONS = {"InitialConfig", "StartingPlayer", "TotalCoinCount", "LandmarkTileContextConfig", "LandmarkTilesToUse",
            "Regions", "ChapterCardsToUse", "QuestOfTheRingTrackConfig", "Races", "Rounds"}
SKILLS = ("Ruse", "Strength", "Courage", "Knowledge", "Leadership")


def snake(text: str) -> str:
    """A name of the data in snake case: BaradDur -> barad_dur, AddSupportOfARace -> add_support_of_a_race,
    ALL_TO_SAME_REGION -> all_to_same_region."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", text).lower()


class _Reader:
    """Reads the file's values, each checked for its kind and range, and keeps what it did not read."""

    def __init__(self, file: str):
        self.file = file
        self.unread: list[str] = []

    def error(self, where: str, what: str, expected: str) -> InputError:
        return InputError(what, file=self.file, field=where, expected=expected)

    def mapping(self, value: Any, where: str, known: set[str] | None = None) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.error(where, f"got {type(value).__name__}", "a JSON object")
        if known is not None:
            self.unread += [f"{where}.{key}" for key in sorted(set(value) - known)]
        return value

    def items(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.error(where, f"got {type(value).__name__}", "a JSON list")
        return value

    def count(self, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_NUMBER:
            raise self.error(where, f"got {value!r}", f"a whole number from 0 to {MAX_NUMBER}")
        return value

    def name(self, value: Any, where: str, optional: bool = False) -> str | None:
        if value is None and optional:
            return None
        if not isinstance(value, str) or not value:
            raise self.error(where, f"got {value!r}", "a name (text)")
        return snake(value)

    def skills(self, value: Any, where: str) -> dict[str, Any]:
        found = self.mapping(value, where, {*SKILLS, "IsOptional"})
        skills: dict[str, Any] = {snake(s): self.count(found.get(s, 0), f"{where}.{s}") for s in SKILLS}
        if "IsOptional" in found:
            if not isinstance(found["IsOptional"], bool):
                raise self.error(f"{where}.IsOptional", f"got {found['IsOptional']!r}", "true or false")
            skills["optional"] = found["IsOptional"]
        return skills

    def effect(self, value: Any, where: str) -> dict[str, Any]:
        """One effect: its type and fields in snake case; an unknown type or field named in `unread`."""
        found = self.mapping(value, where)
        kind = found.get("Type")
        if not isinstance(kind, str):
            raise self.error(f"{where}.Type", f"got {kind!r}", "an effect type (text)")
        effect: dict[str, Any] = {"type": snake(kind)}
        if kind not in EFFECT_FIELDS:
            self.unread.append(f"{where}: effect type {kind}")
            effect["unread"] = True
            return effect
        self.mapping(found, where, EFFECT_FIELDS[kind] | {"Type"})
        for key in sorted(EFFECT_FIELDS[kind] & set(found)):
            at, item = f"{where}.{key}", found[key]
            if key == "SkillSet":
                effect["skills"] = self.skills(item, at)
            elif key == "PossibleActions":
                effect["actions"] = [self.effect(e, f"{at}[{i}]") for i, e in enumerate(self.items(item, at))]
            elif key in ("PossibleRegionsToPlace", "RacesToRevealFrom"):
                effect[snake(key)] = [self.name(n, f"{at}[{i}]") for i, n in enumerate(self.items(item, at))]
            elif key == "ExtraCoinsPerRound":
                effect["extra_coins_per_chapter"] = [self.count(n, f"{at}[{i}]")
                                                     for i, n in enumerate(self.items(item, at))]
            elif key in ("Strategy", "RaceToSupport"):
                effect[snake(key)] = self.name(item, at)
            else:
                effect[snake(key)] = self.count(item, at)
        return effect

    def effects(self, value: Any, where: str) -> list[dict[str, Any]]:
        return [self.effect(e, f"{where}[{i}]") for i, e in enumerate(self.items(value, where))]


def locate(root: Path) -> Path:
    """The data file: the path itself, DefaultConfig.json in it, or in the clone's resources folder."""
    for candidate in (root, root / FILE, root / IN_CLONE):
        if candidate.is_file():
            return candidate
    raise InputError(f"no {FILE} found", file=str(root),
                     expected=f"the file, or a clone of Vermihunter/lotr-duel-for-middle-earth holding {IN_CLONE}")


def _load(path: Path) -> dict[str, Any]:
    """The file's configuration, read by the one JSON reader (a repeated key refused, never resolved silently)."""
    data = jsonio.loads(read_input(path, "data file"), str(path))
    check_data(data, str(path))
    if not isinstance(data, dict):
        raise InputError(f"got {type(data).__name__}", file=str(path), expected="the configuration as a JSON object")
    return data


def _chapter_cards(reader: _Reader, data: dict[str, Any]) -> list[Card]:
    cards, seen = [], Counter[int]()
    for index, entry in enumerate(reader.items(data.get("ChapterCardsToUse"), "ChapterCardsToUse")):
        where = f"ChapterCardsToUse[{index}]"
        found = reader.mapping(entry, where, CARD_FIELDS)
        chapter = reader.count(found.get("Round"), f"{where}.Round")
        if not 1 <= chapter <= 3:
            raise reader.error(f"{where}.Round", f"got {chapter}", "chapter 1, 2 or 3")
        seen[chapter] += 1
        card_id = f"{chapter}.{seen[chapter]}"
        colour = reader.name(found.get("Color"), f"{where}.Color")
        unread_before = len(reader.unread)
        extra = {"chapter": chapter, "colour": colour,
                 "skills": reader.skills(found.get("RequiredSkills", {}), f"{where}.RequiredSkills"),
                 "coins": reader.count(found.get("CoinsToPlay", 0), f"{where}.CoinsToPlay"),
                 "chain": reader.name(found.get("GainedChainingSymbol"), f"{where}.GainedChainingSymbol", True),
                 "free_with": reader.name(found.get("PlayForFreeChainingSymbol"), f"{where}.PlayForFreeChainingSymbol",
                                          True),
                 "effects": reader.effects(found.get("Effects", []), f"{where}.Effects"), "place": where}
        extra["unread"] = reader.unread[unread_before:]
        cards.append(Card(card_id, f"chapter {chapter} card {seen[chapter]} ({colour})", type="chapter_card",
                          extra=extra))
    return cards


def _tiles(reader: _Reader, data: dict[str, Any], fortress_of: dict[str, str]) -> list[Card]:
    cards = []
    for index, entry in enumerate(reader.items(data.get("LandmarkTilesToUse"), "LandmarkTilesToUse")):
        where = f"LandmarkTilesToUse[{index}]"
        found = reader.mapping(entry, where, TILE_FIELDS)
        region = reader.name(found.get("FortressToPlaceTo"), f"{where}.FortressToPlaceTo")
        if region not in fortress_of:
            raise reader.error(f"{where}.FortressToPlaceTo", f"no region {region!r}", "a region of `Regions`")
        unread_before = len(reader.unread)
        extra = {"region": region, "skills": reader.skills(found.get("RequiredSkills", {}), f"{where}.RequiredSkills"),
                 "effects": reader.effects(found.get("Effects", []), f"{where}.Effects"), "place": where}
        extra["unread"] = reader.unread[unread_before:]
        cards.append(Card(fortress_of[region], f"Landmark tile of {region}", type="landmark_tile", extra=extra))
    return cards


def _tokens(reader: _Reader, data: dict[str, Any]) -> list[Card]:
    cards = []
    for index, entry in enumerate(reader.items(data.get("Races"), "Races")):
        where = f"Races[{index}]"
        found = reader.mapping(entry, where, {"Name", "AllianceTokens"})
        race = reader.name(found.get("Name"), f"{where}.Name")
        for number, token in enumerate(reader.items(found.get("AllianceTokens"), f"{where}.AllianceTokens"), 1):
            at = f"{where}.AllianceTokens[{number - 1}]"
            item = reader.mapping(token, at)
            kind = item.get("Type")
            unread_before = len(reader.unread)
            extra: dict[str, Any] = {"race": race, "kind": snake(kind) if isinstance(kind, str) else None, "place": at}
            if kind not in TOKEN_FIELDS:
                reader.unread.append(f"{at}: token type {kind}")
            else:
                reader.mapping(item, at, TOKEN_FIELDS[kind] | {"Type"})
                if "Trigger" in item:
                    extra["trigger"] = reader.name(item["Trigger"], f"{at}.Trigger")
                if "Attribute" in item:
                    extra["attribute"] = reader.name(item["Attribute"], f"{at}.Attribute")
                if "Effect" in item:
                    extra["effect"] = reader.effect(item["Effect"], f"{at}.Effect")
            extra["unread"] = reader.unread[unread_before:]
            cards.append(Card(f"{race}.{number}", f"{race} Alliance token {number}", type="alliance_token",
                              extra=extra))
    return cards


def _setup(reader: _Reader, data: dict[str, Any]) -> tuple[Card, dict[str, str]]:
    """The setup record, and the Fortress (tile id) of each region."""
    regions, fortress_of = [], {}
    for index, entry in enumerate(reader.items(data.get("Regions"), "Regions")):
        where = f"Regions[{index}]"
        found = reader.mapping(entry, where, {"Name", "Fortress", "ConnectedWith", "StartingState"})
        name, fortress = reader.name(found.get("Name"), f"{where}.Name"), reader.name(found.get("Fortress"),
                                                                                        f"{where}.Fortress")
        start = reader.mapping(found.get("StartingState", {}), f"{where}.StartingState", {"Fortress", "Units"})
        units = reader.mapping(start.get("Units") or {}, f"{where}.StartingState.Units", {"Count", "Player"})
        regions.append({"name": name, "fortress": fortress,
                        "connected": [reader.name(n, f"{where}.ConnectedWith[{i}]")
                                      for i, n in enumerate(reader.items(found.get("ConnectedWith", []),
                                                                         f"{where}.ConnectedWith"))],
                        "units": reader.count(units.get("Count", 0), f"{where}.StartingState.Units.Count"),
                        "units_of": reader.name(units.get("Player"), f"{where}.StartingState.Units.Player", True),
                        "fortress_of": reader.name(start.get("Fortress"), f"{where}.StartingState.Fortress", True)})
        fortress_of[str(name)] = str(fortress)
    players = {}
    initial = reader.mapping(data.get("InitialConfig"), "InitialConfig", {"FellowshipPlayer", "SauronPlayer"})
    for key, value in sorted(initial.items()):
        where = f"InitialConfig.{key}"
        found = reader.mapping(value, where, {"Coins", "Units", "Towers"})
        players[snake(key).removesuffix("_player")] = {snake(k): reader.count(found.get(k, 0), f"{where}.{k}")
                                                       for k in ("Coins", "Units", "Towers")}
    track = reader.mapping(data.get("QuestOfTheRingTrackConfig"), "QuestOfTheRingTrackConfig",
                           {"FellowshipPlayerStartPosition", "SauronPlayerStartPosition", "Width", "BonusActions"})
    bonuses = []
    spaces = reader.items(track.get("BonusActions", []), "QuestOfTheRingTrackConfig.BonusActions")
    for index, entry in enumerate(spaces):
        where = f"QuestOfTheRingTrackConfig.BonusActions[{index}]"
        found = reader.mapping(entry, where, {"Position", "BonusActions"})
        bonuses.append({"position": reader.count(found.get("Position"), f"{where}.Position"),
                        "effects": reader.effects(found.get("BonusActions", []), f"{where}.BonusActions")})
    layouts = []
    for index, entry in enumerate(reader.items(data.get("Rounds"), "Rounds")):
        where = f"Rounds[{index}]"
        found = reader.mapping(entry, where, {"Round", "CoinsPerChapterCardDiscard", "ChapterCardConfig"})
        places = []
        for number, place in enumerate(reader.items(found.get("ChapterCardConfig"), f"{where}.ChapterCardConfig")):
            at = f"{where}.ChapterCardConfig[{number}]"
            item = reader.mapping(place, at, {"ID", "DependsOn", "IsFaceUp", "Row"})
            if not isinstance(item.get("IsFaceUp"), bool):
                raise reader.error(f"{at}.IsFaceUp", f"got {item.get('IsFaceUp')!r}", "true or false")
            covering = reader.items(item.get("DependsOn", []), f"{at}.DependsOn")
            places.append({"id": reader.count(item.get("ID"), f"{at}.ID"),
                           "row": reader.count(item.get("Row"), f"{at}.Row"), "face_up": item["IsFaceUp"],
                           "covered_by": [reader.count(n, f"{at}.DependsOn[{i}]") for i, n in enumerate(covering)]})
        layouts.append({"chapter": reader.count(found.get("Round"), f"{where}.Round"),
                        "coins_per_discard": reader.count(found.get("CoinsPerChapterCardDiscard", 0),
                                                          f"{where}.CoinsPerChapterCardDiscard"),
                        "places": places})
    context = reader.mapping(data.get("LandmarkTileContextConfig", {}), "LandmarkTileContextConfig",
                             {"CoinPerAlreadyPlacedFortressPawn", "LandmarkTilesAtTime"})
    extra = {"starting_player": reader.name(data.get("StartingPlayer"), "StartingPlayer"),
             "total_coins": reader.count(data.get("TotalCoinCount"), "TotalCoinCount"), "players": players,
             "regions": regions, "ring_track": {
                 "fellowship_start": reader.count(track.get("FellowshipPlayerStartPosition"),
                                                  "QuestOfTheRingTrackConfig.FellowshipPlayerStartPosition"),
                 "sauron_start": reader.count(track.get("SauronPlayerStartPosition"),
                                              "QuestOfTheRingTrackConfig.SauronPlayerStartPosition"),
                 "width": reader.count(track.get("Width"), "QuestOfTheRingTrackConfig.Width"), "bonuses": bonuses},
             "layouts": layouts,
             "tiles": {snake(k): reader.count(v, f"LandmarkTileContextConfig.{k}") for k, v in sorted(context.items())
                       if k in {"CoinPerAlreadyPlacedFortressPawn", "LandmarkTilesAtTime"}}}
    return Card("setup", "the base game's setup", type="setup", extra=extra), fortress_of


def read(root: Path, progress: Callable[[int, int], None] | None = None) -> tuple[list[Card], dict[str, Any]]:
    """Every record of the configuration as cards of the store, and the import report."""
    path = locate(root)
    data = _load(path)
    reader = _Reader(str(path))
    reader.mapping(data, "(the file)", SECTIONS)
    setup, fortress_of = _setup(reader, data)
    cards = [setup, *_chapter_cards(reader, data), *_tiles(reader, data, fortress_of), *_tokens(reader, data)]
    if progress:
        progress(1, 1)
    return cards, report(cards, reader.unread)


def report(cards: list[Card], unread: list[str]) -> dict[str, Any]:
    """What the import read: records by type, chapter cards by chapter and colour, effects by type, and every part of
    the file it did not read, with its place."""
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
    return {"records": dict(sorted(Counter(c.type for c in cards).items())),
            "chapter_cards": {str(n): sum(c.extra["chapter"] == n for c in chapter) for n in (1, 2, 3)},
            "colours": dict(sorted(Counter(c.extra["colour"] for c in chapter).items())),
            "effects": dict(sorted(effects.items())), "unread": unread}


def report_lines(report: dict[str, Any]) -> list[str]:
    """The import report in words, a line each (what `pyengine import vermihunter` prints)."""
    lines = ["records: " + ", ".join(f"{n} {t}" for t, n in report["records"].items()),
             "chapter cards by chapter: " + ", ".join(f"{n} in chapter {c}"
                                                      for c, n in report["chapter_cards"].items()),
             "colours: " + ", ".join(f"{n} {c}" for c, n in report["colours"].items()),
             "effects: " + ", ".join(f"{n} {t}" for t, n in report["effects"].items())]
    lines.append("not read: " + ("; ".join(report["unread"]) if report["unread"] else "nothing"))
    return lines
