"""An output path never replaces anything but a regular file (issue 62, class 2): `--out /dev/null` as root replaced
the machine's /dev/null with a regular file, a named pipe or a link in one's own folder was replaced by a file,
and `--out .` was an internal error after a whole search. Every output file goes through one writer
(pyengine.core.files), and the command line checks each output path before any work."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import ROOT
from pyengine.core.errors import InputError
from pyengine.core.files import output_file, write_folder, write_whole

STING = str(ROOT / "examples" / "judge_second_sting.yaml")

# Each command and option that writes one output file, with the arguments that make it write.
FILE_OUTPUTS = {
    "check --junit-xml": ["check", STING, "--junit-xml"],
    "census --report": ["census", "--game", "lotr", "--catalog", "builtin", "--states", "1", "--tries", "1",
                        "--compare", "default", "gemp", "--report"],
    "board --svg": ["board", str(ROOT / "examples" / "dfm_warg_and_elrond.yaml"), "--svg"],
    "board --snapshot": ["board", str(ROOT / "tests" / "scenarios" / "lotr_steps" / "kill.yaml"), "--snapshot"],
    "consistency --write-baseline": ["consistency", "lotr_unique", "--no-search", "--write-baseline"],
    "conformance export --out": ["conformance", "export", STING, "--out"],
}
FOLDER_OUTPUTS = {
    "edge-cases --out": ["edge-cases", "--game", "lotr", "--limit", "1", "--out"],
    "census --out": ["census", "--game", "lotr", "--catalog", "builtin", "--states", "1", "--tries", "1", "--out"],
}


@pytest.fixture
def unusual(tmp_path: Path) -> Iterator[dict[str, Path]]:
    """A named pipe, a socket, a folder, a link to a regular file and a dangling link, in a folder of one's own."""
    (tmp_path / "kept.txt").write_text("kept\n")
    os.mkfifo(tmp_path / "pipe")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "socket"))
    (tmp_path / "folder").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "kept.txt")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    try:
        yield {name: tmp_path / name for name in ("pipe", "socket", "folder", "link", "dangling")}
    finally:
        server.close()


def _unchanged(tmp_path: Path) -> None:
    assert (tmp_path / "pipe").is_fifo() and (tmp_path / "socket").is_socket() and (tmp_path / "folder").is_dir()
    assert (tmp_path / "link").is_symlink() and (tmp_path / "kept.txt").read_text() == "kept\n"
    assert (tmp_path / "dangling").is_symlink() and not (tmp_path / "nowhere").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("name", ["pipe", "socket", "folder", "link", "dangling"])
def test_the_one_writer_never_replaces_anything_but_a_regular_file(unusual: dict[str, Path], name: str,
                                                                   tmp_path: Path) -> None:
    with pytest.raises(OSError):
        write_whole(unusual[name], ["replaced\n"])
    with pytest.raises(InputError):
        output_file(unusual[name], "--out")
    _unchanged(tmp_path)


def test_a_device_is_refused_before_any_work() -> None:
    with pytest.raises(InputError) as raised:
        output_file(Path("/dev/null"), "--out")
    assert "not a regular file" in raised.value.message and raised.value.field == "--out"


@pytest.mark.parametrize("option", sorted(FILE_OUTPUTS))
@pytest.mark.parametrize("name", ["pipe", "socket", "folder", "link", "dangling"])
def test_every_output_file_option_refuses_what_is_not_a_regular_file(cli, unusual: dict[str, Path], option: str,
                                                                     name: str, tmp_path: Path) -> None:
    code, _, err = cli(*FILE_OUTPUTS[option], str(unusual[name]))
    assert code == 2, err
    assert err.count("\n") == 1 and option.split()[-1] in err and "internal error" not in err
    _unchanged(tmp_path)


def test_dev_null_and_the_current_folder_are_refused_by_every_output_file_option(cli) -> None:
    for option, args in FILE_OUTPUTS.items():
        for target in ("/dev/null", "."):
            code, _, err = cli(*args, target)
            assert code == 2 and option.split()[-1] in err and "internal error" not in err, (option, target, err)
    assert Path("/dev/null").is_char_device()


@pytest.mark.parametrize("option", sorted(FOLDER_OUTPUTS))
def test_the_current_folder_and_a_link_are_refused_as_output_folders(cli, option: str, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.txt").write_text("mine\n")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "linked").symlink_to(tmp_path / "elsewhere")
    for target in (".", str(tmp_path), "..", "linked"):
        code, _, err = cli(*FOLDER_OUTPUTS[option], target)
        assert code == 2 and "internal error" not in err, (target, err)
    assert (tmp_path / "mine.txt").read_text() == "mine\n" and (tmp_path / "linked").is_symlink()


def test_through_links_writes_the_file_a_link_points_to(cli, unusual: dict[str, Path], tmp_path: Path) -> None:
    code, _, err = cli(*FILE_OUTPUTS["check --junit-xml"], str(unusual["link"]), "--through-links")
    assert code == 0, err
    assert unusual["link"].is_symlink() and "<testsuites" in (tmp_path / "kept.txt").read_text()


def test_a_regular_file_is_replaced_whole_and_a_new_name_is_written(cli, tmp_path: Path) -> None:
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    old.write_text("old\n")
    for target in (old, new):
        code, _, err = cli(*FILE_OUTPUTS["check --junit-xml"], str(target))
        assert code == 0, err
        assert "<testsuites" in target.read_text()


def test_a_folder_written_whole_keeps_nothing_half_written_when_a_text_cannot_be_written(tmp_path: Path) -> None:
    with pytest.raises(UnicodeEncodeError):
        write_folder(tmp_path / "out", {"a.yaml": "fine\n", "b.yaml": "\ud800"}, "test")
    assert list(tmp_path.iterdir()) == []


def test_a_replaced_file_keeps_its_permissions(cli, tmp_path: Path) -> None:
    """`conformance export --out secret` over a 0600 file left it 0644."""
    private = tmp_path / "pack.jsonl"
    private.write_text("old\n")
    private.chmod(0o600)
    code, _, err = cli("conformance", "export", STING, "--out", str(private))
    assert code == 0, err
    assert private.stat().st_mode & 0o777 == 0o600 and "pyengine-conformance-pack" in private.read_text()
