"""The smaller classes of issue 49 (class 11): a bound reached in a batch names its file; a profile or reading of
another game is an error naming it; --jobs is bounded by the processors; --out folders are written whole; the
quick and the marked YAML readings agree on merged mappings' depth, and a request's envelope does not count
against its scenario; a decklist's `#` is a comment only standing alone. (A Dask run bounded by --timeout as a whole:
tests/hostile/test_cluster.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyengine import api
from pyengine.core import yamlio
from pyengine.core.errors import InputError
from pyengine.core.files import OUT_MARKER, write_folder
from pyengine.core.limits import processors

ROOT = Path(__file__).resolve().parents[2]
STING = ROOT / "examples" / "judge_second_sting.yaml"


def test_a_memory_bound_reached_in_a_batch_names_its_file(monkeypatch: pytest.MonkeyPatch) -> None:
    from pyengine.core import batch
    from pyengine.run import bulk

    monkeypatch.setattr(batch, "answer_many", lambda items: [MemoryError() for _ in items])
    [result] = bulk.check_files([(str(STING), None, None, None)])
    [error] = result.errors
    assert error.file == str(STING) and error.text.startswith(f"{STING}: stopped: over the memory ceiling")


@pytest.mark.parametrize(("option", "value"), [("--profile", "marvelcdb"), ("--reading", "marvel_deck_key=card_code")])
def test_an_option_of_another_game_is_an_error_naming_it(cli, option: str, value: str) -> None:
    for command in ("explain", "check"):
        code, _, err = cli(command, str(STING), option, value)
        assert code == 2 and option in err and "not a" in err and "lotr" in err, (command, err)


def test_the_api_refuses_a_reading_of_another_game_too() -> None:
    with pytest.raises(InputError, match="not a reading of lotr") as raised:
        api.answer(STING, readings={"marvel_deck_key": "card_code"})
    assert raised.value.file == str(STING)
    with pytest.raises(InputError, match="not a profile of lotr"):
        api.table(STING).plays("alice", profile="marvelcdb")


def test_jobs_are_bounded_by_the_processors(cli, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli("check", str(STING), "--jobs", "300")
    err = capsys.readouterr().err
    assert exited.value.code == 2 and f"argument --jobs: 300 processes: at most {processors()}" in err
    with pytest.raises(InputError) as raised:
        api.check([STING], jobs=processors() + 1)
    assert raised.value.field == "jobs"


def test_an_out_folder_is_written_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    write_folder(out, {"a.yaml": "1", "b.yaml": "2", "c.yaml": "3"}, "test")
    write_folder(out, {"a.yaml": "new"}, "test")  # the earlier run's b and c do not stay beside it
    assert sorted(p.name for p in out.iterdir()) == sorted([OUT_MARKER, "a.yaml"])
    assert (out / "a.yaml").read_text(encoding="utf-8") == "new"
    with pytest.raises(InputError, match="cannot write the folder"):  # stopped halfway: the folder as it was
        write_folder(out, {"x.yaml": "1", "no/such/y.yaml": "2"}, "test")
    assert sorted(p.name for p in out.iterdir()) == sorted([OUT_MARKER, "a.yaml"])
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep", encoding="utf-8")
    with pytest.raises(InputError, match="pyengine did not write"):
        write_folder(mine, {"a.yaml": "1"}, "test")
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]


def test_edge_cases_out_leaves_no_earlier_file(cli, tmp_path: Path) -> None:
    out = tmp_path / "found"
    arguments = ("edge-cases", "--game", "lotr", "--compare", "default", "gemp", "--max-cards", "2", "--out", str(out))
    assert cli(*arguments, "--limit", "3")[0] == 0
    assert len(list(out.glob("*.yaml"))) == 3
    assert cli(*arguments, "--limit", "1")[0] == 0
    assert len(list(out.glob("*.yaml"))) == 1


def _nested(levels: int, inner: str) -> str:
    return "a: " + "[" * levels + inner + "]" * levels + "\n"


@pytest.mark.parametrize("inner", ["{y: 2}", "{<<: {x: 1}, y: 2}", "{<<: [{x: 1}, {z: 3}], y: 2}"],
                         ids=["plain", "merged-mapping", "merged-list"])
def test_the_quick_and_the_marked_reading_agree_on_depth(inner: str) -> None:
    """A merge key's mapping is read into the mapping holding it: the marked reading counted it a level deeper,
    so a file `check` read quickly was refused by the server's marked reading."""
    def deepest(read) -> int:  # type: ignore[no-untyped-def]
        fits = []
        for levels in range(55, 66):
            try:
                read(_nested(levels, inner), "t")
                fits.append(levels)
            except InputError:
                pass
        return max(fits)

    assert deepest(yamlio.load_plain) == deepest(yamlio.load_text) == yamlio.MAX_DEPTH - 3


def test_a_request_holds_a_scenario_as_deep_as_a_file_may_be() -> None:
    from starlette.testclient import TestClient

    from pyengine.web.app import Settings, create_app

    deepest = yamlio.load_text(_nested(yamlio.MAX_DEPTH - 3, "{y: 2}"), "t")
    yamlio.check_data(deepest, "as a file")
    with TestClient(create_app(Settings(workers=1))) as client:
        response = client.post("/api/parse", content=json.dumps({"yaml": "game: lotr", "extra": deepest}),
                               headers={"content-type": "application/json"})
    assert "nested" not in response.text


def test_a_decklist_comment_stands_alone(tmp_path: Path) -> None:
    deck = tmp_path / "safe.txt"
    deck.write_text("# a comment line\nIdentity: 01001a\n1 Safe House #29  # the pack's card\n#2 not a card\n",
                    encoding="utf-8")
    from pyengine.core.decks import _text_decklist

    data = _text_decklist(deck)
    assert list(data["cards"]) == ["1 Safe House #29"]
    assert data["identity"] == "01001a"
