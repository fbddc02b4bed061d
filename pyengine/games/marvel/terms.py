"""What a MarvelCDB card's printed text says of cards entering play, read into typed abilities: the one classifier
the importer (importer.py) and the census of card-text terms (text_terms) share, so the two cannot drift apart.

Each shape is a pattern over the text with its markup removed; a match becomes abilities that rules consult
(rules/marvel/card_text.lp, minions.lp), with the encounter zones it takes its card from where the text says so.
Every mention of a card entering play (or of a villain coming in from the villain deck or the set-aside cards)
that no shape covers is a marker the answers name (`text_unread`, rule marvel_card_text_unread). The text itself
is never kept: abilities carry names, traits and zones only, and the markers are this module's own labels."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pyengine.core.text import title_key
from pyengine.games.common.terms import field_row
from pyengine.games.marvel.facts import loose_key

# Tags and icons ([star], [energy]) are dropped; traits in double brackets ([[Hydra]]) are kept.
MARKUP = re.compile(r"<[^>]+>|\[[a-z_]+\]")

# Every ability the reader gives a card, by kind, with the rule ids consulting it (the census names the first).
ABILITY_RULES: dict[str, tuple[str, ...]] = {
    "discards_same_named_ally": ("marvel_card_text_wins",),
    "discards_same_named_minion": ("marvel_card_text_wins",),
    "puts_into_play": ("marvel_card_text_wins", "marvel_via_card_cannot"),
    "puts_any_minion": ("marvel_card_text_wins", "marvel_via_card_cannot"),
    "puts_trait_minion": ("marvel_card_text_wins", "marvel_via_card_cannot"),
    "puts_next_villain": ("marvel_card_text_wins", "marvel_via_card_cannot"),
    "puts_set_aside_villain": ("marvel_card_text_wins", "marvel_via_card_cannot"),
    "puts_if_absent": ("marvel_via_condition_unmet",),
    "puts_typed": ("marvel_via_card_cannot",),
    # Not an ability but a restriction of one (card_ability_from/3), and the text left unread (text_unread/1).
    "takes_from": ("marvel_via_not_from_zone",),
    "text_unread": ("marvel_card_text_unread",),
}
# The abilities that take an argument: a card's name, or a trait (as trait_key gives it); puts_typed takes a name
# and a card type ([puts_typed, NAME, TYPE]: the card named K it puts is of type T).
NAMED = ("puts_into_play", "puts_if_absent")
TRAITED = ("puts_trait_minion",)
WORDS = tuple(k for k in ABILITY_RULES if k not in (*NAMED, *TRAITED, "puts_typed", "takes_from", "text_unread"))

# Each read ability as a census term: (kind of term, this module's own label).
MARKERS: dict[str, tuple[str, str]] = {
    "discards_same_named_ally": ("forced_interrupt", "discards the same-named ally as it would enter play"),
    "discards_same_named_minion": ("replacement", "discards the same-named minion as the villain enters"),
    "puts_into_play": ("puts_into_play", "puts a card of a given name into play"),
    "puts_any_minion": ("puts_into_play", "puts a minion into play"),
    "puts_trait_minion": ("puts_into_play", "puts a minion of a given trait into play"),
    "puts_next_villain": ("enters_play", "brings in the next villain of the villain deck"),
    "puts_set_aside_villain": ("enters_play", "puts a set-aside villain into play"),
    "puts_if_absent": ("condition", "puts its card only while none of that name is in play"),
    "puts_typed": ("puts_into_play", "names the type of the card it puts into play"),
}

_TYPE_WORD = r"(?: (?P<type>ally|minion|environment|side scheme|support|attachment|upgrade|villain))?"
_PRONOUN = r"(?:it|him|her)"
# Where a search looks, in the encounter's zones only (a player's deck or hand is another shape, left unread).
_WHERE = (r"(?P<where>the encounter deck(?:,? (?:and )?(?:the )?discard pile)?"
          r"(?:,? (?:and )?(?:the )?set-aside area)?)")
_TRAIT_MINION = r"an? (?:copy of )?(?:\[\[(?P<trait>[^\]]+)\]\] )?minion"
# A mention of a card entering play; each must lie inside a read shape, or the card's text is unread.
_TRIGGER = re.compile(r"into play|enters? play|enter the game|reveal the next villain|villain deck|"
                      r"set-aside (?:\[\[[^\]]+\]\] |[\w.'-]+ )?villain|\bswap\b[^.]*\bvillain", re.IGNORECASE)
# Where a sentence, or the clause after an ability's label ("When Revealed:"), ends.
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)\]!?])[.!?]\)?\s+|:\s+")
# The label of an ability ("When Revealed:", "Forced Interrupt:", "Boost:"), which says when it resolves.
_LABEL = re.compile(r"\b(?P<label>when defeated|when revealed|when completed|forced response|forced interrupt|"
                    r"response|interrupt|action|boost|setup|special)\b[^:.]*:", re.IGNORECASE)
# Words that make what follows them in a sentence conditional.
_CONDITION = re.compile(r"\b(?:if|unless|otherwise|instead)\b|\bwho (?:is|was|were|are|has|have|did|does) not\b|"
                        r"\bnot engaged\b", re.IGNORECASE)
# Small words a card's name may hold in lower case.
_NAME_PARTICLES = {"of", "the", "and", "de", "in", "on", "to", "a"}

Ability = list[str]


@dataclass(frozen=True)
class Shape:
    """A pattern of printed text and what a match of it gives: abilities with their zones, or nothing that bears
    on a question (a follow-up such as "if it did not enter this way"), which still covers its mentions."""

    pattern: re.Pattern[str]
    read: Callable[[re.Match[str], Context], list[tuple[Ability, tuple[str, ...]]] | None]
    conditional: bool = False  # the shape reads its own condition ("if NAME is not in play, ...")


def trait_key(trait: str) -> str:
    """A trait as rules compare it: case, accents, spaces and punctuation removed (S.H.I.E.L.D. = SHIELD)."""
    return loose_key(trait.strip().rstrip("."))


def card_traits(text: str | None) -> list[str]:
    """A MarvelCDB `traits` field ("Elite. Hydra.") as trait keys."""
    return [trait_key(t) for t in re.split(r"\.\s+", text or "") if trait_key(t)]


def card_name(candidate: str | None) -> str | None:
    """A printed card name the text names, or None where the words are no name (a pronoun, "the top card of your
    deck", "a [[Hydra]] minion"): each word capitalised or a small particle; a lower-case leading "the" dropped."""
    if not candidate:
        return None
    words = candidate.strip().split()
    if words and words[0] == "the":
        words = words[1:]
    if not words or not (words[0][0].isupper() or words[0][0].isdigit()) or "[[" in candidate:
        return None
    if any(not (w[0].isupper() or w[0].isdigit() or w in _NAME_PARTICLES) for w in words):
        return None
    return " ".join(words)


def _zones(where: str | None) -> tuple[str, ...]:
    """The encounter zones a search's words name (none: the text does not restrict it)."""
    if not where:
        return ()
    return tuple(z for z, word in (("deck", "encounter deck"), ("discard", "discard pile"),
                                   ("set_aside", "set-aside")) if word in where)


@dataclass(frozen=True)
class Context:
    """The card whose text is read (its own name) and the name keys of its pool, where known: a name the text
    gives is read as a card's only where the pool holds a card of that name."""

    own: str
    names: frozenset[str] | None = None

    def known(self, candidate: str | None) -> str | None:
        """The card name `candidate` gives (card_name), where the pool has it."""
        name = card_name(candidate)
        return name if name and (self.names is None or title_key(name) in self.names) else None


def _typed(name: str, match: re.Match[str]) -> list[tuple[Ability, tuple[str, ...]]]:
    """The type the text gives the card it names ("the Rhino minion"), as an ability of its own."""
    kind = match.groupdict().get("type")
    return [(["puts_typed", name, kind.replace(" ", "_").lower()], ())] if kind else []


def _named(match: re.Match[str], context: Context) -> list[tuple[Ability, tuple[str, ...]]] | None:
    name = context.known(match["name"])
    zones = _zones(match.groupdict().get("where")) + (("set_aside",) if match.groupdict().get("aside") else ())
    return [(["puts_into_play", name], zones), *_typed(name, match)] if name else None


def _named_if_absent(match: re.Match[str], context: Context) -> list[tuple[Ability, tuple[str, ...]]] | None:
    name = context.known(match["cond"])
    searched = context.known(match["name"]) if match["name"] else name
    if not name or searched is None or title_key(searched) != title_key(name):
        return None
    zones = _zones(match["where"])
    return [(["puts_into_play", name], zones), (["puts_if_absent", name], ()), *_typed(name, match)]


def _minion(zones: tuple[str, ...] | None = None) -> Callable[..., list[tuple[Ability, tuple[str, ...]]]]:
    def read(match: re.Match[str], _context: Context) -> list[tuple[Ability, tuple[str, ...]]]:
        found = _zones(match.groupdict().get("where")) if zones is None else zones
        trait = match["trait"]
        return [(["puts_trait_minion", trait_key(trait)] if trait else ["puts_any_minion"], found)]
    return read


def _own_ally(match: re.Match[str], context: Context) -> list[tuple[Ability, tuple[str, ...]]] | None:
    return [(["discards_same_named_ally"], ())] if title_key(match["name"]) == title_key(context.own) else None


def _word(kind: str, zones: tuple[str, ...] = ()) -> Callable[..., list[tuple[Ability, tuple[str, ...]]]]:
    return lambda _match, _context: [([kind], zones)]


def _shape(pattern: str, read: Callable[..., Any], conditional: bool = False) -> Shape:
    return Shape(re.compile(pattern, re.IGNORECASE), read, conditional)


SHAPES: tuple[Shape, ...] = (
    _shape(r"would enter play, discard the (?P<name>.+?) ally from play", _own_ally),
    _shape(rf"\bif (?P<cond>[^,]+?) is not in play, (?:find {_PRONOUN}|search(?:es)? {_WHERE} for "
           rf"(?:a copy of )?(?P<name>[^,]+?){_TYPE_WORD}) and puts? {_PRONOUN} into play\b", _named_if_absent, True),
    _shape(rf"\b(?:search(?:es)? {_WHERE} for|finds?) (?:a copy of )?(?P<name>[^,:()]+?){_TYPE_WORD}"
           rf"(?: and|\.) puts? {_PRONOUN} into play\b", _named),
    _shape(rf"\bputs? (?:1 )?(?:the )?(?P<aside>set-aside )?(?P<name>[^,:()]+?){_TYPE_WORD} into play\b", _named),
    _shape(rf"\bsearch(?:es)? {_WHERE} for {_TRAIT_MINION},? and puts? (?:it|that minion) into play\b", _minion()),
    _shape(rf"\bdiscards? cards from (?:the top of )?the encounter deck until (?:they discard )?{_TRAIT_MINION}"
           r"(?: is discard(?:ed)?)?(?:[.,]| →)? (?:then,? )?puts? (?:that minion|it) into play\b", _minion(("deck",))),
    _shape(r"\breveal the next villain\b|\bthe top villain of the villain deck\. \(that villain is in play\.\)",
           _word("puts_next_villain", ("villain_deck",))),
    _shape(r"\bchoose a set-aside villain at random, put that villain into play\b",
           _word("puts_set_aside_villain", ("set_aside",))),
    _shape(r"\bif a minion with the same title as the new villain is engaged with a player, discard that minion\b"
           r"|\bdiscard each minion that shares a title with the top villain of the villain deck\b",
           _word("discards_same_named_minion")),
    # What follows a card entering or not ("if no minion was put into play this way, ..."): the rest of the
    # ability, which resolves whatever happened (p13), so it bears on no verdict.
    _shape(r"\bif (?:no )?[^,]*? (?:was put into play|did not enter play|does not enter (?:play|the game)|"
           r"entered play) this way\b", lambda _match, _context: []),
)


@dataclass
class Reading:
    """What one card's text gives: its abilities, the zones each takes its card from, and the markers no shape
    covers (their census kind and label)."""

    abilities: list[Ability]
    zones: list[tuple[Ability, str]]
    unread: list[tuple[str, str]]


def plain_text(record: dict[str, Any]) -> str:
    """A card record's printed text without markup, on one line."""
    return " ".join(MARKUP.sub("", record.get("text") or "").split())


def pool_names(records: Iterable[dict[str, Any]]) -> frozenset[str]:
    """The name keys of a pool's card records, which read_text and text_terms check the names a text gives against."""
    return frozenset(title_key(r["name"]) for r in records if isinstance(r.get("name"), str))


def read_text(record: dict[str, Any], names: frozenset[str] | None = None) -> Reading:
    """The abilities a card record's printed text gives it, their zones, and the mentions of entering play that
    no shape reads; a name the text gives counts only where `names` (pool_names) holds it, when given."""
    text, context = plain_text(record), Context(record.get("name") or "", names)
    covered: list[tuple[int, int]] = []
    unread: list[tuple[str, str]] = []
    conditions: list[tuple[int, int]] = []  # the spans of shapes that read their own condition
    abilities: list[Ability] = []
    zones: list[tuple[Ability, str]] = []
    for shape in SHAPES:
        for match in shape.pattern.finditer(text):
            found = shape.read(match, context)
            if found is None:
                continue
            if shape.conditional:
                conditions.append(match.span())
            elif found and not _inside(match.span(), conditions) and _conditioned(text, match.start()):
                unread.append(("condition", "a condition on bringing a card into play, not checked"))
            if found and _when_defeated(text, match.start()):
                unread.append(("timing", "resolves as its own card is defeated and leaves play, not checked"))
            covered.append(match.span())
            for ability, where in found:
                if ability not in abilities:
                    abilities.append(ability)
                zones += [(ability, z) for z in where if (ability, z) not in zones]
    unread += [_marker(text, m) for m in _TRIGGER.finditer(text)
               if not _inside(m.span(), covered)]
    return Reading(abilities, zones, list(dict.fromkeys(unread)))


def _inside(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    """Whether a span lies inside one of `spans`."""
    return any(a <= span[0] and span[1] <= b for a, b in spans)


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    """The bounds of the sentence (or the clause after an ability's label) that holds text[start:end]: a full stop
    ends a sentence after a lower-case letter, a digit or a bracket, so that M.O.D.O.K. or A.I.M. do not."""
    before = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    after = _SENTENCE_END.search(text, end)
    return (before[-1] if before else 0), (after.start() if after else len(text))


def _when_defeated(text: str, start: int) -> bool:
    """Whether a read shape is part of an ability that resolves when its own card is defeated: the card has left
    play by then, which a state with the card in play (the reach of `via:`) does not say."""
    labels = [m["label"].lower() for m in _LABEL.finditer(text, 0, start)]
    return bool(labels) and labels[-1] == "when defeated"


def _conditioned(text: str, start: int) -> bool:
    """Whether the words before a read shape, in its sentence, make it conditional (if, unless, otherwise, each
    player who...): a condition no rule reads."""
    return bool(_CONDITION.search(text, _sentence(text, start, start)[0], start))


def _marker(text: str, match: re.Match[str]) -> tuple[str, str]:
    """A mention no shape reads, as a census kind and a label of this module's (never the card's words)."""
    said = match[0].lower()
    around = text[slice(*_sentence(text, match.start(), match.end()))].lower()
    if "villain" in said:
        return "enters_play", "a villain entering, in a shape not read"
    if "would enter" in around:
        return "forced_interrupt", "an effect as a card would enter play, in a shape not read"
    if "instead" in around:
        return "replacement", "a card entering play instead, in a shape not read"
    if "enter" in said:
        return "enters_play", "a card entering play, in a shape not read"
    for word, label in (("facedown", "a facedown card"), ("nemesis", "a nemesis card"), ("ally", "an ally"),
                        ("minion", "a minion"), ("top card", "the top card of a deck")):
        if word in around:
            return "puts_into_play", f"puts {label} into play, in a shape not read"
    return "puts_into_play", "puts a card into play, in a shape not read"


# What the census says of each field of a MarvelCDB record: the rule that reads it, or why it bears on no question
# the knowledge base answers (uniqueness, decks, reveals, putting into play). A field in neither is dropped.
READ_FIELDS = {
    "code": "marvel_group_unique_in_play", "name": "marvel_group_unique_in_play",
    "subname": "marvel_ally_without_subtitle", "is_unique": "marvel_group_unique_in_play",
    "type_code": "marvel_hero_ally_differ", "back_link": "marvel_alter_ego_same_person",
    "duplicate_of": "marvel_deck_one_per_name", "deck_limit": "marvel_deck_no_code_limit",
    "faction_code": "marvel_hero_deck_rule_unchecked", "set_code": "marvel_alter_ego_same_person",
    "deck_requirements": "marvel_hero_deck_rule_unchecked", "text": "marvel_card_text_wins",
    "traits": "marvel_via_card_cannot",
}
# Deck-building options beyond uniqueness: every deck answer names the rule saying they are not encoded.
NAMED_FIELDS = {"deck_options": "marvel_deck_uniqueness_only"}
# A two-sided card's back face (an upgrade that flips): bears on no question unless its text speaks of entering or
# putting into play, which back_face_rows checks with the same classifier.
BACK_FACE = ("back_text", "back_name", "double_sided")
_STATS = "a game value (cost, resources, stats, threat, boost) that no question asked here turns on"
NO_BEARING = {
    **dict.fromkeys(("cost", "cost_per_hero", "cost_star", "resource_mental", "resource_energy", "resource_physical",
                     "resource_wild", "attack", "attack_star", "attack_cost", "thwart", "thwart_star", "thwart_cost",
                     "defense", "defense_star", "recover", "recover_star", "health", "health_star", "health_per_hero",
                     "health_per_group", "hand_size", "scheme", "scheme_star", "scheme_acceleration",
                     "scheme_amplify", "scheme_crisis", "scheme_hazard", "base_threat", "base_threat_fixed",
                     "base_threat_per_group", "threat", "threat_fixed", "threat_star", "threat_per_group",
                     "escalation_threat", "escalation_threat_fixed", "escalation_threat_star", "boost",
                     "boost_star", "stage", "permanent"), _STATS),
    "pack_code": "the pack a card was printed in, which no rule of the document looks at",
    "position": "the card's number in its pack", "set_position": "the card's number in its set",
    "quantity": "how many copies a pack holds, which no rule of the document looks at",
    "card_set_code": "a campaign card's set, which no rule of the document looks at",
    "hidden": "MarvelCDB's own flag for a card its site lists only under another card",
}
# What the importer notes on a record (the file it came from), not MarvelCDB's data.
OWN_NOTES = ("_file",)


def field_rows(record: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """A census row per field of a raw record: read (with a rule), named, of no bearing (with why) or dropped."""
    rows = []
    for name in record:
        if name in OWN_NOTES:
            continue
        rows.append(_back_face_row(record, name) if name in BACK_FACE else
                    field_row(name, READ_FIELDS, NAMED_FIELDS, NO_BEARING))
    return rows


def _back_face_row(record: dict[str, Any], name: str) -> tuple[str, str, str, str]:
    """A back-face field: of no bearing where the back's text speaks of no entering or putting into play, else
    dropped (the importer reads only the front's text)."""
    back = read_text({"text": record.get("back_text") or "", "name": record.get("back_name") or ""})
    if back.abilities or back.unread:
        return ("field", name, "dropped", "")
    return ("field", name, "no bearing", "a two-sided card's back face, whose text speaks of no entering or putting "
            "into play (checked by the same classifier)")


def census_rows(record: dict[str, Any], names: frozenset[str] | None = None) -> list[tuple[str, str, str, str]]:
    """Every field of a raw MarvelCDB card record and every marker of its text that can bear on a question, as
    (kind, marker, status, rule): a text marker "read" with the first rule that consults the ability carrying it
    (ABILITY_RULES), or "named" with the rule an answer names it by (marvel_card_text_unread)."""
    reading = read_text(record, names)
    found = field_rows(record)
    found += [(*MARKERS[a[0]], "read", ABILITY_RULES[a[0]][0]) for a in reading.abilities]
    found += [("source_zone", f"takes its card from the encounter's {zone}", "read", ABILITY_RULES["takes_from"][0])
              for _, zone in reading.zones]
    found += [(kind, marker, "named", ABILITY_RULES["text_unread"][0]) for kind, marker in reading.unread]
    return list(dict.fromkeys(found))


def text_terms(record: dict[str, Any], names: frozenset[str] | None = None) -> list[tuple[str, str, str]]:
    """Every marker of a raw MarvelCDB card record's text that can bear on a play, put-into-play, reveal or deck
    question, as (kind, marker, status): status "read" where an ability fact a rule consults (ABILITY_RULES) carries
    it, "named" where the card is text_unread and an answer names it. With the pool's `names` (pool_names of its
    records) the terms are exactly the importer's; without, a name the text gives is taken as a card's."""
    return list(dict.fromkeys(row[:3] for row in census_rows(record, names)))
