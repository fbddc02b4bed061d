"""Kept tables count against a budget of their own (issue 49, class 7): a server worker keeps the tables it grounded
for the next request about them, and before this they were bounded in count only, so other clients' tables could
fill the worker until a request that fits the memory ceiling alone was refused. Now what a worker keeps is within
its budget when each request begins (the least recently used dropped first), and a worker's address space is
bounded by the ceiling and the budget together."""

from __future__ import annotations

import json

import pytest

from pyengine.run.runner import WorkerPool
from pyengine.web import jobs

MB = 1024 * 1024


def _table(n: int, tag: int) -> dict[str, object]:
    """A LOTR table of n support Stings (about 2 MB held each at 1,500), told apart by its title."""
    support = [{"id": f"s{i}", "card": "Sting"} for i in range(n)]
    return {"game": "lotr", "title": f"filler {tag}", "players": {"alice": {"support": support,
                                                                            "hand": [{"id": "h", "card": "Sting"}]}},
            "questions": [{"id": "q", "ask": "play", "instance": "h"}]}


def _plays(tag: int, kept_mb: int) -> dict[str, object]:
    reply = jobs.run({"kind": "plays", "scenario": _table(1500, tag), "player": "alice",
                      "limits": {"kept_mb": kept_mb}})
    assert "ok" in reply, reply
    return json.loads(reply["ok"])  # type: ignore[no-any-return]


@pytest.fixture
def fresh_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs, "_TABLES", type(jobs._TABLES)())
    monkeypatch.setattr(jobs, "_BOARDS", type(jobs._BOARDS)())
    monkeypatch.setattr(jobs, "_COSTS", {})


def test_kept_tables_stay_within_their_budget_by_eviction(fresh_worker: None) -> None:
    budget = 6
    for tag in range(10):
        _plays(tag, budget)  # every request answered: a full cache is an eviction, not a refusal
        assert sum(jobs._COSTS.values()) <= budget * MB
        assert set(jobs._COSTS) == set(jobs._TABLES)
    assert all(cost > MB for cost in jobs._COSTS.values())  # a table holds memory, and is charged it
    assert 1 <= len(jobs._TABLES) < 10
    assert list(jobs._TABLES)[-1] == jobs._table_key({"scenario": _table(1500, 9), "player": "alice"})


def test_a_budget_large_enough_keeps_every_table(fresh_worker: None) -> None:
    for tag in range(6):
        _plays(tag, 1000)
    assert len(jobs._TABLES) == 6


def test_a_workers_ceiling_is_the_requests_and_the_kept_budget_together() -> None:
    """The worker's address space limit leaves a request its whole ceiling beside the kept budget."""
    import asyncio

    async def limit_of_worker() -> tuple[int, int]:
        pool = WorkerPool(_address_space_and_limit, 1, 30, 300, [], kept_mb=100)
        pool.start()
        try:
            return await pool.call(None)  # type: ignore[no-any-return]
        finally:
            pool.close()

    held, limit = asyncio.run(limit_of_worker())
    assert 300 * MB + 100 * MB - 50 * MB <= limit - held <= 300 * MB + 100 * MB


def _address_space_and_limit(_: object) -> tuple[int, int]:
    import resource

    from pyengine.run.runner import _address_space

    return _address_space(), resource.getrlimit(resource.RLIMIT_AS)[0]
