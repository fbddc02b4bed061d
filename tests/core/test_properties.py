"""Properties over random states: verdicts depend on the rules' inputs, never on labels, order, stacked
cards, unrelated cards, subtitles (LOTR), or which player asks about a shared card (Marvel)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pyengine.core.engine import answer
from pyengine.core.scenario import scenario_from_data
from pyengine.games.lotr.reader import builtin_catalog as lotr_catalog
from pyengine.games.marvel.reader import builtin_catalog as marvel_catalog

LOTR_CARDS = sorted(lotr_catalog().cards)  # type: ignore[attr-defined]
MARVEL_CARDS = marvel_catalog().cards  # type: ignore[attr-defined]
HEROES = sorted(c for c, card in MARVEL_CARDS.items() if card.type == "hero")
PLAYABLE = sorted(c for c, card in MARVEL_CARDS.items() if card.type == "ally")
ZONES = ("play", "support", "hand", "dead_pile", "discard")
SETTINGS = settings(max_examples=40, deadline=None)


def verdicts(data: dict[str, Any]) -> list[str | None]:
    return [a.verdict for a in answer(scenario_from_data(data, "<generated>"))]


@st.composite
def lotr_states(draw: st.DrawFn) -> dict[str, Any]:
    """A state of two players with up to ten instances, asking about every card not in play."""
    entries = draw(st.lists(st.tuples(st.sampled_from(LOTR_CARDS), st.sampled_from(("p1", "p2")),
                                      st.sampled_from(ZONES), st.booleans()), min_size=1, max_size=10))
    players: dict[str, dict[str, list]] = {"p1": {}, "p2": {}}
    questions = []
    for index, (card, owner, zone, active) in enumerate(entries):
        instance: dict[str, Any] = {"id": f"i{index}", "card": card}
        if zone in ("play", "support") and not active:
            instance["active"] = False
        players[owner].setdefault(zone, []).append(instance)
        if zone in ("hand", "discard"):
            questions.append({"id": f"q{index}", "ask": "play", "instance": f"i{index}"})
        if zone == "dead_pile":
            questions.append({"id": f"q{index}", "ask": "play", "instance": f"i{index}", "via": "9_27"})
    if not questions:
        players["p1"]["hand"] = [{"id": "extra", "card": LOTR_CARDS[0]}]
        questions.append({"id": "qx", "ask": "play", "instance": "extra"})
    return {"game": "lotr", "players": players, "questions": questions}


def _instances(data: dict[str, Any]):
    for zones in data["players"].values():
        for items in zones.values():
            yield from items


@SETTINGS
@given(lotr_states(), st.text(alphabet="abcxyz_-.\"'\\%#)", min_size=1, max_size=8))
def test_lotr_renaming_players_and_instances_changes_nothing(state: dict[str, Any], tag: str) -> None:
    renamed = copy.deepcopy(state)
    renamed["players"] = {f"{tag}{name}": zones for name, zones in renamed["players"].items()}
    for instance in _instances(renamed):
        instance["id"] = f"{tag}/{instance['id']}"
    for question in renamed["questions"]:
        question["instance"] = f"{tag}/{question['instance']}"
    assert verdicts(renamed) == verdicts(state)


@SETTINGS
@given(lotr_states())
def test_lotr_order_of_instances_changes_nothing(state: dict[str, Any]) -> None:
    reordered = copy.deepcopy(state)
    reordered["players"] = dict(reversed(list(reordered["players"].items())))
    for zones in reordered["players"].values():
        for zone in zones:
            zones[zone] = list(reversed(zones[zone]))
    assert verdicts(reordered) == verdicts(state)


@SETTINGS
@given(lotr_states(), st.sampled_from(ZONES), st.sampled_from(("p1", "p2")))
def test_lotr_a_card_of_an_unrelated_title_changes_nothing(state: dict[str, Any], zone: str, owner: str) -> None:
    extended = copy.deepcopy(state)
    extended["cards"] = [{"id": "stranger", "title": "A Title No Card Has", "unique": True, "type": "companion",
                          "side": "free_peoples"}]
    extended["players"][owner].setdefault(zone, []).append({"id": "stranger-1", "card": "stranger"})
    assert verdicts(extended) == verdicts(state)


@SETTINGS
@given(lotr_states(), st.sampled_from(LOTR_CARDS))
def test_lotr_a_stacked_card_never_changes_a_verdict(state: dict[str, Any], card: str) -> None:
    in_play = [i["id"] for zones in state["players"].values() for z in ("play", "support") for i in zones.get(z, [])]
    if not in_play:
        return
    stacked = copy.deepcopy(state)
    stacked["players"]["p1"].setdefault("stacked", []).append({"id": "on-top", "card": card, "on": in_play[0]})
    assert verdicts(stacked) == verdicts(state)


@SETTINGS
@given(lotr_states(), st.lists(st.text(alphabet="abc ", min_size=1, max_size=4), min_size=len(LOTR_CARDS),
                               max_size=len(LOTR_CARDS)))
def test_lotr_changing_only_subtitles_changes_no_verdict(state: dict[str, Any], subtitles: list[str]) -> None:
    catalog = lotr_catalog()

    def with_subtitles(new: list[str] | None) -> dict[str, Any]:
        data = copy.deepcopy(state)
        data["cards"] = []
        for index, card_id in enumerate(LOTR_CARDS):
            card = catalog.get(card_id)
            record = {"id": f"h{card_id}", "title": card.title, "unique": card.unique, "type": card.type}
            record |= {k: v for k, v in (("side", card.side), ("collinfo", card.collinfo)) if v}
            subtitle = new[index].strip() if new else card.subtitle
            if subtitle:
                record["subtitle"] = subtitle
            data["cards"].append(record)
        for instance in _instances(data):
            instance["card"] = f"h{instance['card']}"
        for question in data["questions"]:
            if "via" in question:
                question["via"] = f"h{question['via']}"
        return data

    assert verdicts(with_subtitles(subtitles)) == verdicts(with_subtitles(None))


@st.composite
def marvel_states(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """Two players with identities (face up at random) and allies in play, and an ally to ask about."""
    players: dict[str, dict[str, Any]] = {}
    for player in ("p1", "p2"):
        players[player] = {"identity": {"id": f"{player}-id", "card": draw(st.sampled_from(HEROES)),
                                        "face": draw(st.sampled_from(("hero", "alter_ego")))}}
        allies = draw(st.lists(st.sampled_from(PLAYABLE), max_size=3, unique=True))
        players[player]["play"] = [{"id": f"{player}-{a}", "card": a} for a in allies]
    shown = {i["card"] for p in players.values() for i in p["play"]}
    asked = draw(st.sampled_from(PLAYABLE))
    if asked in shown:
        asked = next((a for a in PLAYABLE if a not in shown), asked)
    return {"game": "marvel", "players": players}, asked


@SETTINGS
@given(marvel_states())
def test_marvel_verdict_is_the_same_whichever_player_asks(case: tuple[dict[str, Any], str]) -> None:
    state, card = case
    results = []
    for player in ("p1", "p2"):
        data = copy.deepcopy(state)
        data["players"][player]["hand"] = [{"id": "asked", "card": card}]
        data["questions"] = [{"ask": "play", "instance": "asked"}]
        results.append(verdicts(data))
    assert results[0] == results[1]


@SETTINGS
@given(marvel_states(), st.text(alphabet="abc\"\\#%). ", min_size=1, max_size=6))
def test_marvel_renaming_players_changes_nothing(case: tuple[dict[str, Any], str], tag: str) -> None:
    state, card = case
    state["players"]["p1"]["hand"] = [{"id": "asked", "card": card}]
    state["questions"] = [{"ask": "play", "instance": "asked"}, {"ask": "reveal", "card": "56180", "player": "p2"}]
    renamed = copy.deepcopy(state)
    renamed["players"] = {f"{tag}{p}": zones for p, zones in renamed["players"].items()}
    renamed["questions"][1]["player"] = f"{tag}p2"
    assert verdicts(renamed) == verdicts(state)


DFM_START = {
    "game": "dfm", "chapter": 1, "turn": "fellowship",
    "state": {
        "tokens": {"fellowship": 2, "sauron": 2, "box": 2},
        "coins": {"fellowship": 2, "sauron": 1},
        "allies": {"fellowship": {"hidden": ["tom_bombadil", "faramir", "goldberry", "lobelia"]},
                   "sauron": {"hidden": ["balrog", "shelob", "grima", "chieftain", "witch_king"]}},
        "stacks": {"elves": 1}, "units": {"fellowship": {"lindon": 1}, "sauron": {"arnor": 1}},
        "connections": [["lindon", "arnor"]], "tiles": ["helms_deep", "bree"], "ring": 2, "nazgul": 3,
        "extra_turns": {"fellowship": 1, "sauron": 1}, "symbols": {"fellowship": {"elves": 2}},
    },
}
# The same table with only the top row of chapter 1 left, so that a take or Faramir's discard ends the chapter.
DFM_LAST_CARDS = copy.deepcopy(DFM_START)
DFM_LAST_CARDS["state"]["taken"] = [[r, c] for r, n in enumerate((2, 3, 4, 5, 6), 1) for c in range(1, n + 1) if r > 1]
DFM_LAST_CARDS["state"]["tokens_gone"] = [[2, 1], [2, 3]]
DFM_LAST_CARDS["state"]["tokens"] = {"fellowship": 2, "sauron": 2, "box": 4}
DFM_ACTIONS = [
    {"call": "tom_bombadil"}, {"call": "faramir", "card": [5, 1]}, {"call": "faramir", "card": [5, 2], "card2": [4, 1]},
    {"call": "goldberry"}, {"call": "balrog", "connection": ["lindon", "arnor"]}, {"call": "shelob", "race": "elves"},
    {"call": "grima", "card": [5, 3]}, {"take": [5, 4], "use": "discard"}, {"take": [5, 5], "use": "play"},
    {"take": [4, 4], "use": "play"}, {"end_turn": True}, {"move_nazgul": True}, {"move_ring": True},
    {"call": "chieftain", "tile": "helms_deep"}, {"landmark": "helms_deep"}, {"landmark": "bree"},
    {"alliance": "pair", "race": "elves"},
    {"take": [1, 1], "use": "discard"}, {"take": [1, 2], "use": "play"}, {"call": "faramir", "card": [1, 2]},
    {"move": ["lindon", "arnor"]}, {"move": ["arnor", "lindon"]},
    {"call": "witch_king", "mode": "unit", "region": "lindon"},
    {"call": "lobelia", "region": "arnor", "move1": ["arnor", "lindon"], "place1": "arnor", "place2": "lindon"},
]


DUEL_MOVES = st.lists(st.tuples(st.sampled_from(DFM_ACTIONS), st.sampled_from(("enter", "exit")),
                                st.sampled_from(("fellowship", "sauron"))), min_size=1, max_size=8)


def duel_actions(moves: list[tuple[dict, str, str]]) -> list[dict[str, Any]]:
    """The drawn moves as a Duel action sequence: each call with its effect, by an ally of its player's side."""
    actions = []
    for template, effect, player in moves:
        action = {"player": player, **copy.deepcopy(template)}
        if "call" in action:
            action["effect"] = effect
            if (action["call"] in ("tom_bombadil", "faramir", "goldberry", "lobelia")) != (player == "fellowship"):
                continue
            if action["call"] == "faramir" and effect == "enter":
                action.pop("card2", None)
            if action["call"] == "faramir" and effect == "exit" and "card2" not in action:
                action["card2"] = [4, 2]
            if action["call"] == "witch_king" and effect == "exit":
                action.pop("mode")
            if action["call"] == "lobelia":
                for name in ("region",) if effect == "exit" else ("place1", "place2"):
                    action.pop(name)
        actions.append(action)
    return actions


@SETTINGS
@given(st.sampled_from((DFM_START, DFM_LAST_CARDS)), DUEL_MOVES)
def test_dfm_every_action_conserves_the_eight_power_tokens(start: dict[str, Any],
                                                           moves: list[tuple[dict, str, str]]) -> None:
    data = copy.deepcopy(start)
    data["actions"] = duel_actions(moves)
    data["questions"] = [{"ask": "tokens", "after": n} for n in range(len(data["actions"]) + 1)]
    assert set(verdicts(data)) == {"8"}


@SETTINGS
@given(st.sampled_from((DFM_START, DFM_LAST_CARDS)), DUEL_MOVES)
def test_dfm_every_action_keeps_the_thirty_coins(start: dict[str, Any], moves: list[tuple[dict, str, str]]) -> None:
    """The coins the players hold and the reserve add up to the game's 30 after every action (assumption
    coins_reserve: the reserve not given is the coins nobody holds)."""
    data = copy.deepcopy(start)
    data["actions"] = duel_actions(moves)
    places = (["coins", "fellowship"], ["coins", "sauron"], ["reserve"])
    data["questions"] = [{"ask": "value", "after": n, "of": of} for n in range(len(data["actions"]) + 1)
                         for of in places]
    got = [int(v or 0) for v in verdicts(data)]
    assert {sum(got[i:i + 3]) for i in range(0, len(got), 3)} == {30}


@SETTINGS
@given(st.sampled_from((DFM_START, DFM_LAST_CARDS)), DUEL_MOVES)
def test_dfm_units_of_both_sides_never_share_a_region(start: dict[str, Any],
                                                      moves: list[tuple[dict, str, str]]) -> None:
    """After every action no region holds units of both players (assumption unit_conflict: units that meet fight
    until one side remains), and a plain movement never adds a unit: the two sides' units only leave by a fight,
    which takes as many of each, or by an effect's removal."""
    data = copy.deepcopy(start)
    data["actions"] = duel_actions(moves)
    cells = [(p, r) for p in ("fellowship", "sauron") for r in ("lindon", "arnor")]
    data["questions"] = [{"ask": "value", "after": n, "of": ["units", p, r]} for n in range(len(data["actions"]) + 1)
                         for p, r in cells]
    got = [int(v or 0) for v in verdicts(data)]
    moments = [dict(zip(cells, got[i:i + len(cells)], strict=True)) for i in range(0, len(got), len(cells))]
    for units in moments:
        assert not any(units["fellowship", r] and units["sauron", r] for r in ("lindon", "arnor")), units
    for action, before, after in zip(data["actions"], moments, moments[1:], strict=False):
        if "move" in action:
            lost = {p: sum(before[p, r] - after[p, r] for r in ("lindon", "arnor")) for p in ("fellowship", "sauron")}
            assert lost["fellowship"] == lost["sauron"] >= 0, (action, lost)
