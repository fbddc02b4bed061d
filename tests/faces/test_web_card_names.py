"""`GET /api/cards?card=REF`: the one card a table's reference names, as a scenario reads it, so that the table
builder can show a placed card by its name where a table opened from a link or a file gives only its reference."""

from __future__ import annotations

from starlette.testclient import TestClient

from pyengine.web.app import Settings, create_app


def test_a_reference_is_answered_with_the_one_card_it_names_or_none() -> None:
    # No lifespan (no `with`): the card lookups are answered in the server itself, without a worker.
    client = TestClient(create_app(Settings(workers=1)))

    def found(reference: str, game: str = "lotr") -> list[dict[str, object]]:
        response = client.get("/api/cards", params={"game": game, "card": reference, "catalog": "builtin"})
        assert response.status_code == 200, response.text
        return list(response.json()["cards"])

    for reference in ("1_313", "1R313", "Sting"):
        cards = found(reference)
        assert [(c["id"], c["title"], c["collinfo"], c["unique"]) for c in cards] == [("1_313", "Sting", "1R313", True)]
    assert [(c["id"], c["subtitle"]) for c in found("04045", "marvel")] == [("04045", "Peter Parker")]
    assert found("no such card") == []
    assert client.get("/api/cards", params={"game": "lotr", "card": "1_313", "catalog": "nowhere"}).status_code == 400
