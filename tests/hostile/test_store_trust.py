"""The catalog store read as it is now and as untrusted input (issue 49, classes 1 and 9): a re-import that changes
a card, or a store removed and made again, is seen by the next question of a long-lived process (a server worker,
a warm Dask worker), never answered from the records it read before; a store of another format is refused with the
command that rebuilds it, and a damaged record is named by card and store, never used."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyengine import api
from pyengine.core import store
from pyengine.core.catalog import Card
from pyengine.core.errors import InputError


def _import(unique: bool) -> None:
    card = Card(id="1_999", title="Horn of Testing", unique=unique, type="possession", side="free_peoples",
                collinfo="1R999")
    store.write_source("gemp", "lotr", "test", [card], {}, replace=True)


TABLE = {"game": "lotr", "catalog": "gemp",
         "players": {"alice": {"support": [{"id": "horn", "card": "1_999"}],
                               "hand": [{"id": "horn-2", "card": "1_999"}]}},
         "questions": [{"id": "q", "ask": "play", "instance": "horn-2"}]}


def _verdict() -> str | None:
    [question] = api.answer(TABLE).questions
    return question.got


def test_a_reimport_is_seen_by_the_next_question_in_both_directions(own_store: Path) -> None:
    _import(unique=True)
    assert _verdict() == "illegal"
    _import(unique=False)
    assert _verdict() == "legal"
    _import(unique=True)
    assert _verdict() == "illegal"


def test_a_store_made_again_is_read_afresh(own_store: Path) -> None:
    _import(unique=True)
    assert _verdict() == "illegal"
    own_store.unlink()
    _import(unique=False)
    assert _verdict() == "legal"


def test_the_store_records_its_format_and_writer_and_refuses_another_format(own_store: Path) -> None:
    """Issue 49, class 9: nothing recorded which version wrote a store; one of another format was read as it was."""
    import sqlite3

    _import(unique=True)
    with sqlite3.connect(own_store) as db:
        meta = dict(db.execute("SELECT key, value FROM meta"))
        assert meta["format"] == str(store.STORE_FORMAT) and meta["writer"].startswith("pyengine ")
        db.execute("DELETE FROM meta")
    store.forget_open_sources()
    with pytest.raises(InputError) as raised:
        _verdict()
    assert raised.value.message.startswith("the catalog store is of format 1, written by an earlier pyengine")
    assert "run `pyengine import SOURCE PATH` again for each source" in (raised.value.expected or "")
    _import(unique=True)  # the import rebuilds it
    assert _verdict() == "illegal"


@pytest.mark.parametrize(("change", "why"), [
    ({"unique": 0}, "unique is int"), ({"unique": None}, "unique is NoneType"), ({"unique": "false"}, "unique is str"),
    ({"type": ""}, "its id, title or type is empty"), ({"abilities": [1]}, "abilities holds something other"),
    ({"added_later": True}, "fields 'added_later' missing or unknown"),
    # Issue 62, class 7: a type no importer writes was accepted, one with a space failed naming no store or card.
    ({"type": "spaceship"}, "its type 'spaceship' is none its source's importer writes"),
    ({"type": "com panion"}, "its type 'com panion' is none its source's importer writes"),
])
def test_a_damaged_record_is_named_by_card_and_store_never_used(own_store: Path, change: dict, why: str) -> None:
    import json
    import sqlite3

    _import(unique=True)
    with sqlite3.connect(own_store) as db:
        (record,) = db.execute("SELECT record FROM cards WHERE id = '1_999'").fetchone()
        db.execute("UPDATE cards SET record = ? WHERE id = '1_999'", (json.dumps({**json.loads(record), **change}),))
    with pytest.raises(InputError) as raised:
        _verdict()
    assert raised.value.message.startswith("card '1_999' of the catalog store is damaged: " + why)
    assert raised.value.file == str(own_store)


def test_a_reimport_under_a_running_server_changes_its_answers_at_once(own_store: Path) -> None:
    """The fuzz of class 1 on a real worker pool: the server's workers (forked before the re-import) answer
    /api/answer and /api/plays from the store as it is, in both directions, including a table a worker keeps."""
    from starlette.testclient import TestClient

    from pyengine.web.app import Settings, create_app

    _import(unique=True)
    with TestClient(create_app(Settings(workers=1, wait_seconds=120, solve_seconds=120))) as client:
        def verdicts() -> tuple[str, list[str]]:
            answered = client.post("/api/answer", json={"scenario": TABLE})
            plays = client.post("/api/plays", json={"scenario": TABLE, "player": "alice"})
            assert answered.status_code == plays.status_code == 200, (answered.text, plays.text)
            return (answered.json()["questions"][0]["got"], plays.json()["questions"][0]["got"]["illegal"])

        assert verdicts() == ("illegal", ["horn-2"])
        _import(unique=False)
        assert verdicts() == ("legal", [])
        _import(unique=True)
        assert verdicts() == ("illegal", ["horn-2"])


def test_an_import_stopped_midway_leaves_no_tables_without_a_format(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A first import killed after making the store's tables used to leave them without a format, so every later
    command refused the store as "written by an earlier pyengine" (found by the kill fuzz): the tables, the checks
    and the writes are now one transaction."""
    path = tmp_path / "store.sqlite"

    def stopped(card: Card) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(store, "_encode", stopped)
    card = Card(id="1_999", title="Horn of Testing", unique=True, type="possession", side="free_peoples")
    with pytest.raises(KeyboardInterrupt):
        store.write_source("gemp", "lotr", "data", [card], {}, path=path)
    assert store.sources(path) == {}
