"""An identifier that looks like a number is the text written (issue 62, class 1): the Duel's real card `1.10`,
unquoted, was read as the number 1.1 and became the green card 1.1 instead of the yellow 1.10, silently; the
same in a JSON request. Every number with a fraction or an exponent is kept as written, in YAML and in JSON,
since no field of the formats reads such a number; a float given by a program is refused where text is meant."""

from __future__ import annotations

import json

import pytest

from pyengine import api
from pyengine.core import jsonio
from pyengine.core.errors import InputError
from pyengine.core.yamlio import load_plain, load_text
from tests.paths import DFM_DATA, not_found

WRITTEN = ["1.10", "1.20", "2.10", "2.20", "3.10", "3.20", "1.5", "1e3", ".5", "1.", "-0.0", "2E-3"]


@pytest.mark.parametrize("written", WRITTEN)
def test_a_yaml_number_with_a_fraction_is_the_text_written(written: str) -> None:
    text = f"card: {written}\nat: [{written}, 3]\n"
    for read in (load_text, load_plain):
        data = read(text, "t.yaml")
        assert data["card"] == written and isinstance(data["card"], str)
        assert data["at"] == [written, 3]


@pytest.mark.parametrize("written", WRITTEN[:8])
def test_a_json_number_with_a_fraction_is_the_text_written(written: str) -> None:
    data = jsonio.loads(f'{{"card": {written}, "count": 3}}', "request")
    assert data == {"card": written, "count": 3} and isinstance(data["count"], int)


def test_whole_numbers_stay_numbers_and_a_number_field_shows_a_fraction_as_written() -> None:
    data = load_text("wounds: 2\nlimit: 1.50\n", "t.yaml")
    assert data["wounds"] == 2 and isinstance(data["wounds"], int)
    table = {"game": "lotr", "turn": {"player": "alice", "phase": "fellowship"},
             "players": {"alice": {"play": [{"id": "a", "card": "sting", "wounds": data["limit"]}]}}}
    with pytest.raises(InputError) as raised:
        api.load(table)
    assert "got 1.50" in str(raised.value) and "'1.50'" not in str(raised.value)


def test_a_float_given_by_a_program_for_an_identifier_is_refused_with_its_fix() -> None:
    table = {"game": "lotr", "turn": {"player": "alice", "phase": "fellowship"},
             "players": {"alice": {"play": [{"id": 1.1, "card": "sting"}]}}}
    with pytest.raises(InputError) as raised:
        api.load(table)
    assert "in quotes" in str(raised.value) and raised.value.field == "players.alice.play[0].id"


def test_a_written_number_survives_a_yaml_round_trip() -> None:
    import yaml

    data = load_plain("pile: [1.10, '1.5']\n", "t.yaml")
    assert load_plain(yaml.safe_dump(data), "again.yaml") == {"pile": ["1.10", "1.5"]}
    assert json.loads(json.dumps(data)) == {"pile": ["1.10", "1.5"]}


DUEL = """game: dfm
catalog: vermihunter
turn: fellowship
state:
  pile: [{pile}]
  cards:
    - {{at: [5, 1], card: {card}}}
questions:
  - {{id: in-pile, ask: value, of: [in_pile, "{expected_pile}"], expect: true}}
"""


@pytest.mark.skipif(not DFM_DATA.is_dir(), reason=not_found("the Duel's real data", DFM_DATA))
@pytest.mark.parametrize(("card", "pile"), [("1.10", "1.20"), ("1.20", "2.10"), ("1.11", "1.10")])
def test_an_unquoted_duel_card_is_the_card_written_in_yaml_and_json(card: str, pile: str) -> None:
    quoted = api.facts(api.load(text=DUEL.format(card=f'"{card}"', pile=f'"{pile}"', expected_pile=pile)))
    unquoted = api.facts(api.load(text=DUEL.format(card=card, pile=pile, expected_pile=pile)))
    assert unquoted.facts == quoted.facts
    assert any(f'"{card}"' in f for f in unquoted.facts) and any(f'"{pile}"' in f for f in unquoted.facts)
    assert api.answer(api.load(text=DUEL.format(card=card, pile=pile, expected_pile=pile))).questions[0].passed
    request = json.dumps(load_plain(DUEL.format(card=f'"{card}"', pile=f'"{pile}"', expected_pile=pile), "t"))
    request = request.replace(f'"{card}"', card, 1).replace(f'["{pile}"]', f"[{pile}]")
    assert f'"card": {card}' in request  # the request writes the card as a JSON number
    assert api.facts(api.load(jsonio.loads(request, "request"))).facts == quoted.facts
