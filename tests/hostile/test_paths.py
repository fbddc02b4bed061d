"""The API's path arguments and the search of folders (issue 49, classes 4 and 5): one path given as a `str` is
that path, not its characters; a wrong type is an InputError naming the argument; a folder that vanishes while it
is searched is named in the report and every other file is answered."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import GEMP_CARDS, ROOT
from pyengine import api
from pyengine.core import scenario as scenario_module
from pyengine.core.errors import InputError

STING = ROOT / "examples" / "judge_second_sting.yaml"


def _folder(tmp_path: Path) -> Path:
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        shutil.copy(STING, tmp_path / name / "sting.yaml")
    return tmp_path


def test_one_path_as_text_is_that_path(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    for given in (str(folder), folder, [str(folder)], (folder,)):
        result = api.check(given)
        assert [s.file for s in result.scenarios] == [str(folder / n / "sting.yaml") for n in ("a", "b")]
    if GEMP_CARDS.is_dir():  # the decklist names GEMP's cards, imported into the session's store where they exist
        decks = api.check_decks(str(ROOT / "tests" / "decks" / "tournament_gemp.txt"), game="lotr", catalog="gemp")
        assert len(decks.decks) + len(decks.errors) == 1


@pytest.mark.parametrize("given", [b"examples", 3, None, {"examples": 1}, ["examples", 4], [""], ["ex\x00amples"]])
def test_a_path_argument_of_another_type_is_an_input_error_naming_it(given: Any) -> None:
    for function in (api.check, api.check_decks, api.conformance_export):
        args = (given, "pack.jsonl") if function is api.conformance_export else (given,)
        with pytest.raises(InputError) as raised:
            function(*args)
        assert raised.value.field is not None and raised.value.field.startswith("paths")


def test_a_folder_vanishing_during_the_search_is_named_and_the_rest_answered(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _folder(tmp_path)
    gone = folder / "a"
    real_scandir = os.scandir

    def scandir(path: Any = ".") -> Any:
        if isinstance(path, str | os.PathLike) and Path(path) == gone:
            shutil.rmtree(gone)
            raise FileNotFoundError(2, "No such file or directory", str(gone))
        return real_scandir(path)

    monkeypatch.setattr(scenario_module.os, "scandir", scandir, raising=True)
    result = api.check(str(folder))
    assert [s.file for s in result.scenarios] == [str(folder / "b" / "sting.yaml")]
    assert [e.file for e in result.errors] == [str(gone)] and result.exit_code == 2
    assert "vanished or unreadable while the folders were searched" in result.errors[0].errors[0].message


def test_the_search_is_bounded_in_depth(tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*["d"] * (scenario_module.MAX_SCAN_DEPTH + 1))
    deep.mkdir(parents=True)
    with pytest.raises(InputError, match="folders nested over"):
        api.check(str(tmp_path))


def test_a_churning_folder_under_check_never_ends_the_run(tmp_path: Path) -> None:
    """The fuzz of class 5: while `check` searches a folder again and again, another thread makes and removes
    subfolders of scenario files under it. No run raises; the stable file is answered in every one, and any file
    or folder that vanished is named as such."""
    import threading

    stable = tmp_path / "stable"
    stable.mkdir()
    shutil.copy(STING, stable / "sting.yaml")
    stop = threading.Event()

    def churn() -> None:
        n = 0
        while not stop.is_set():
            folder = tmp_path / f"churn{n % 4}" / "deeper"
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copy(STING, folder / "sting.yaml")
            shutil.rmtree(folder.parent, ignore_errors=True)
            n += 1

    worker = threading.Thread(target=churn)
    worker.start()
    try:
        for _ in range(15):
            result = api.check(str(tmp_path))
            assert str(stable / "sting.yaml") in [s.file for s in result.scenarios]
            for error in result.errors:
                assert "churn" in error.file and any(
                    "vanished" in e.message or "cannot read" in e.message or "no such" in e.message.lower()
                    for e in error.errors), error
    finally:
        stop.set()
        worker.join()
