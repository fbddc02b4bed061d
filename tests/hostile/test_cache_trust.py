"""The kept caches trusted only where no one else can write (issue 49, class 3): the signature of a cache file is a
digest of the package's public files, so anyone who can write the cache folder can sign any body. A folder or file
another user owns, or the group or the world can write, is never read; a cache body is bounded in depth like any
input; a temporary file is never written through a link planted at its name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pyengine.core import diskcache
from pyengine.core.files import write_whole

ROOT = Path(__file__).resolve().parents[2]


def _forge(folder: Path, name: str, files: list[Path], body: str) -> Path:
    """A cache file holding `body`, signed as pyengine signs: what anyone who can write the folder can make."""
    digest = diskcache._digest(files)
    path = folder / f"{name}-{digest[:32]}.json"
    path.write_text(diskcache._signature(digest, body.encode()).decode() + "\n" + body, encoding="utf-8")
    return path


def _value(folder: Path, monkeypatch: pytest.MonkeyPatch, files: list[Path]) -> str:
    monkeypatch.setenv("PYENGINE_CACHE", str(folder))
    return diskcache.cached("probe", files, lambda: "worked out", json.dumps, json.loads)


def test_a_cache_folder_others_can_write_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = [Path(diskcache.__file__)]
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    forged = _forge(folder, "probe", files, json.dumps("forged"))
    assert _value(folder, monkeypatch, files) == "forged"  # the owner's own folder is trusted as its files are
    folder.chmod(0o777)
    assert _value(folder, monkeypatch, files) == "worked out"
    folder.chmod(0o770)
    assert _value(folder, monkeypatch, files) == "worked out"
    folder.chmod(0o700)
    forged.chmod(0o666)  # a file the world can write, in a folder only its owner can
    assert _value(folder, monkeypatch, files) == "worked out"
    assert forged.read_text(encoding="utf-8").endswith('"worked out"')  # replaced by the owner's own
    assert forged.stat().st_mode & 0o777 == 0o600
    forged = _forge(folder, "probe", files, json.dumps("forged"))
    monkeypatch.setattr(os, "getuid", lambda: os.stat(folder).st_uid + 1)  # a folder another user owns
    assert _value(folder, monkeypatch, files) == "worked out"
    assert forged.read_text(encoding="utf-8").endswith('"forged"')  # and nothing written into it


def test_a_cache_folder_is_made_for_its_owner_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    previous = os.umask(0o002)
    try:
        folder = tmp_path / "made" / "cache"
        assert _value(folder, monkeypatch, [Path(diskcache.__file__)]) == "worked out"
    finally:
        os.umask(previous)
    assert folder.stat().st_mode & 0o777 == 0o700
    [kept] = folder.glob("probe-*.json")
    assert kept.stat().st_mode & 0o777 == 0o600
    assert _value(folder, monkeypatch, [Path(diskcache.__file__)]) == "worked out"


def test_a_deeply_nested_cache_body_is_worked_around(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A signed body nested 100,000 deep would be a RecursionError in json.loads: it is refused unread."""
    files = [Path(diskcache.__file__)]
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    _forge(folder, "probe", files, "[" * 100_000 + "]" * 100_000)
    assert _value(folder, monkeypatch, files) == "worked out"
    _forge(folder, "probe", files, json.dumps({"a": [[["[[[[[[[[[[[[[[[[[[[[ in a string"]]]}))
    assert _value(folder, monkeypatch, files) == {"a": [[["[[[[[[[[[[[[[[[[[[[[ in a string"]]]}


def _readings(cache: Path) -> dict[str, str]:
    done = subprocess.run([sys.executable, "-m", "pyengine", "readings", "--game", "lotr", "--json"], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "PYENGINE_CACHE": str(cache)},
                          timeout=60, check=True)
    return {r["reading"]: r["default"] for r in json.loads(done.stdout)["readings"]}


def test_a_forged_declarations_cache_in_a_shared_folder_cannot_flip_a_default(tmp_path: Path) -> None:
    """The issue's case: a shared PYENGINE_CACHE whose declarations file was re-signed with a reading's default
    flipped. Its owner's own folder is read (the forgery shows); shared with the group, it is not."""
    cache = tmp_path / "shared"
    assert _readings(cache)["lotr_dead_pile_scope"] == "own"
    [kept] = cache.glob("kb-lotr-*.json")
    _, _, body = kept.read_text(encoding="utf-8").partition("\n")
    forged = body.replace('"default": "own"', '"default": "any_player"')
    assert forged != body
    from pyengine.core import kb

    files = [Path(kb.__file__), *sorted((ROOT / "facts" / "lotr").glob("*.lp"))]
    assert _forge(cache, "kb-lotr", files, forged) == kept
    assert _readings(cache)["lotr_dead_pile_scope"] == "any_player"
    cache.chmod(0o775)
    assert _readings(cache)["lotr_dead_pile_scope"] == "own"


def test_a_temporary_file_is_never_written_through_a_planted_link(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    victim = tmp_path / "victim"
    victim.write_text("kept", encoding="utf-8")
    (tmp_path / f".out.json.{os.getpid()}.tmp").symlink_to(victim)
    with pytest.raises(FileExistsError):
        write_whole(target, ["new"])
    assert victim.read_text(encoding="utf-8") == "kept" and not target.exists()
