"""The remainders of issue 62 (classes 7 and 8): a table's own card named in decomposed Unicode is that card, never
the pool's card of the same title; a document over the value bound with no alias is not blamed on aliases; a
query parameter given twice is an error, never its last value; an unknown game is quoted in part, never echoed
whole."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import ROOT
from pyengine import api
from pyengine.core import yamlio
from pyengine.core.errors import InputError
from tests.paths import DFM_DATA, GEMP_CARDS, not_found


@pytest.mark.parametrize("catalog", ["builtin", "gemp"])
def test_a_tables_own_card_named_decomposed_is_that_card(catalog: str) -> None:
    """The table defines a card whose id is `Andúril` (composed); a reference written decomposed was the real
    Andúril of the pool (7R79), a unique artifact, where the table's card is a non-unique possession."""
    if catalog == "gemp" and not GEMP_CARDS.is_dir():
        pytest.skip(not_found("GEMP's cards", GEMP_CARDS))
    composed = "And\u00faril"
    table = {"game": "lotr", "catalog": catalog, "turn": {"player": "alice", "phase": "fellowship"},
             "cards": [{"id": composed, "title": "Plain Blade", "unique": False, "type": "possession",
                        "side": "free_peoples"}],
             "players": {"alice": {"support": [{"id": "one", "card": composed}],
                                   "hand": [{"id": "two", "card": unicodedata.normalize("NFD", composed)}]}},
             "questions": [{"id": "q", "ask": "play", "instance": "two"}]}
    [question] = api.answer(table).questions
    assert question.got == "legal"  # non-unique: a second copy may be played
    facts = "\n".join(api.facts(api.load(table)).facts)
    assert "7_79" not in facts


def test_a_document_over_the_bound_without_aliases_is_not_blamed_on_aliases(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlio, "MAX_NODES", 50)
    plain = "items: [" + ", ".join(str(n) for n in range(60)) + "]\n"
    with pytest.raises(InputError) as raised:
        yamlio.load_text(plain, "plain.yaml")
    assert "alias" not in str(raised.value) and "more than 50 values" in raised.value.message
    bomb = "a: &a [1, 2, 3, 4, 5, 6, 7, 8]\nb: [*a, *a, *a, *a, *a, *a, *a, *a]\n"
    with pytest.raises(InputError) as raised:
        yamlio.load_text(bomb, "bomb.yaml")
    assert "through YAML aliases" in raised.value.message


@pytest.fixture(scope="module")
def client() -> Iterator[object]:
    from starlette.testclient import TestClient

    from pyengine.web.app import Settings, create_app

    with TestClient(create_app(Settings(workers=1))) as test_client:
        yield test_client


@pytest.mark.parametrize("query", ["/api/readings?game=lotr&game=marvel", "/api/rules?game=lotr&game=lotr",
                                   "/api/cards?game=lotr&q=sting&q=gandalf", "/api/cards?game=lotr&limit=2&limit=5",
                                   "/api/cards?game=lotr&catalog=builtin&catalog=gemp"])
def test_a_query_parameter_given_twice_is_an_error(client: object, query: str) -> None:
    response = client.get(query)  # type: ignore[attr-defined]
    assert response.status_code == 400
    assert "given 2 times" in response.text


@pytest.mark.parametrize("query", ["/api/rules?gmae=marvel", "/api/cards?game=lotr&query=frodo",
                                   "/api/catalogs?game=lotr"])
def test_an_unknown_query_parameter_is_an_error(client: object, query: str) -> None:
    """`?gmae=marvel` listed every game's rules, and `?query=frodo` found no card, both with 200."""
    response = client.get(query)  # type: ignore[attr-defined]
    assert response.status_code == 400 and "unknown query parameter" in response.text


def test_an_unknown_game_is_quoted_in_part(client: object) -> None:
    response = client.get("/api/readings?game=" + "x" * 20_000)  # type: ignore[attr-defined]
    assert response.status_code == 400
    assert len(response.text) < 1_000 and "19,900 more characters" in response.text
    response = client.get("/api/readings?game=lotrr")  # type: ignore[attr-defined]
    assert response.status_code == 400 and "lotr" in response.text


def test_memory_running_out_in_a_command_is_the_bound_not_a_defect(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    from pyengine.cli import commands

    def exhausted(args: object) -> int:
        raise MemoryError

    monkeypatch.setattr(commands, "cmd_readings", exhausted)
    from pyengine.cli import parser

    monkeypatch.setattr(parser, "cmd_readings", exhausted)
    code, _, err = cli("readings")
    assert code == 3 and "--memory" in err and "internal error" not in err


@pytest.mark.parametrize("item", [1.1, ["alice-gandalf"], True, {"x": 1}])
def test_a_play_id_that_is_not_text_is_a_located_error(item: object) -> None:
    table = {"game": "lotr", "turn": {"player": "alice", "phase": "fellowship"},
             "players": {"alice": {"hand": [{"id": "sting", "card": "Sting"}]}},
             "questions": [{"id": "q", "ask": "plays", "player": "alice", "expect": {"legal": [item], "illegal": []}}]}
    with pytest.raises(InputError) as raised:
        api.load(table)
    assert raised.value.field == "questions[0].expect.legal[0]"


def test_not_is_no_constant_of_the_encodings() -> None:
    """clingo reserves `not`: a name of a card database kept as a constant made the program unparsable."""
    from pyengine.core.asp import Const, is_const

    assert not is_const("not") and is_const("note")
    with pytest.raises(InputError):
        Const("not")


@pytest.mark.parametrize("kind", ["device", "pipe", "dangling link"])
def test_an_import_never_writes_a_store_that_is_not_a_regular_file(cli, kind: str, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """As root, `PYENGINE_STORE=/dev/null pyengine import ...` left a journal file `/dev/null-journal` in /dev."""
    import os

    from pyengine.core.resources import STORE_ENV

    target = {"device": Path("/dev/null"), "pipe": tmp_path / "pipe", "dangling link": tmp_path / "link"}[kind]
    if kind == "pipe":
        os.mkfifo(target)
    if kind == "dangling link":
        target.symlink_to(tmp_path / "nowhere")
    monkeypatch.setenv(STORE_ENV, str(target))
    if not DFM_DATA.is_dir():
        pytest.skip(not_found("the Duel's data", DFM_DATA))
    code, _, err = cli("import", "vermihunter", str(DFM_DATA))
    assert code == 2 and "catalog store cannot be used" in err, err
    assert not Path("/dev/null-journal").exists() and not (tmp_path / "nowhere").exists()
    assert Path("/dev/null").is_char_device()


@pytest.mark.parametrize(("card", "damage", "scenario"), [
    ("1.5", lambda extra: next(e for e in extra["effects"] if "move_count" in e).pop("move_count"),
     "real_card_ring.yaml"),
    ("barad_dur", lambda extra: extra.pop("skills"), "real_cards.yaml"),
    ("elves.1", lambda extra: extra.pop("effect"), "real_alliance_tokens.yaml"),
])
def test_a_stored_duel_record_lacking_a_field_is_a_damaged_store(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 card: str, damage: object, scenario: str) -> None:
    """The review of issue 62: a store record of a blue card without its move count answered 2 Ring steps where
    the card gives 3, naming no rule (the count was read as 0); a tile or token lacking a field was a defect."""
    import json
    import sqlite3

    from pyengine.core.resources import STORE_ENV

    if not DFM_DATA.is_dir():
        pytest.skip(not_found("the Duel's data", DFM_DATA))
    own = tmp_path / "catalog.sqlite"
    monkeypatch.setenv(STORE_ENV, str(own))
    assert cli("import", "vermihunter", str(DFM_DATA))[0] == 0
    with sqlite3.connect(own) as db:
        (record,) = db.execute("SELECT record FROM cards WHERE source = 'vermihunter' AND id = ?", (card,)).fetchone()
        data = json.loads(record)
        damage(data["extra"])  # type: ignore[operator]
        db.execute("UPDATE cards SET record = ? WHERE source = 'vermihunter' AND id = ?", (json.dumps(data), card))
    code, _, err = cli("check", str(ROOT / "tests" / "scenarios" / "dfm" / scenario))
    assert code == 2 and f"card '{card}' of the catalog store is damaged" in err and "internal error" not in err, err
