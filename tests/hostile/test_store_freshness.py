"""A process that keeps the catalog store open answers from the store as it is when it asks (issue 49, class 1):
a re-import that changes a card, or a store removed and made again, is seen by the next question of a
long-lived process (a server worker, a warm Dask worker), never answered from the records it read before."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyengine import api
from pyengine.core import store
from pyengine.core.catalog import Card


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


@pytest.fixture
def own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "catalog.sqlite"
    monkeypatch.setenv(store.STORE_ENV, str(path))
    store.forget_open_sources()
    yield path
    store.forget_open_sources()


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
