"""Files and folders written whole or not at all: every output file (a pack, a report, a picture), every cache
file, and every folder a command fills (`--out` of census, edge-cases and conformance compare)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path

from pyengine.core.errors import InputError

# The file that marks a folder a command wrote: the command's next run may replace the folder, never one without it.
OUT_MARKER = ".pyengine-out"


def write_whole(target: Path, pieces: Iterable[str], mode: int = 0o644) -> None:
    """Write the text `pieces` into a new temporary file beside `target` (created exclusively, never through a
    link planted at its name), then rename it over `target`: a reader sees the old file or the whole new one. An
    OSError is the caller's to report; the temporary file is removed whatever happens."""
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            for piece in pieces:
                stream.write(piece)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def check_out_folder(folder: Path) -> None:
    """Refuse a `--out` folder that write_folder would refuse (checked before a long run as well as at its end): a
    file, or a folder holding files pyengine did not write."""
    if folder.exists() and not folder.is_dir():
        raise InputError("is a file, not a folder", file=str(folder), field="--out", expected="a folder to write into")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / OUT_MARKER).is_file():
        raise InputError("the folder holds files pyengine did not write", file=str(folder), field="--out",
                         expected="a new or empty folder, or one an earlier run of pyengine wrote")


def write_folder(folder: Path, files: Mapping[str, str], command: str) -> list[Path]:
    """Fill `folder` with exactly `files` (name -> text), whole or not at all: written into a new folder beside it,
    then put in its place, so that no earlier run's file stays beside the new ones and a run stopped halfway
    leaves the folder as it was. A folder holding files this command did not write (no OUT_MARKER) is refused,
    never emptied. The paths written, in the order given."""
    check_out_folder(folder)
    fresh = folder.with_name(f".{folder.name}.{os.getpid()}.new")
    old = folder.with_name(f".{folder.name}.{os.getpid()}.old")
    try:
        fresh.mkdir(parents=True)
        (fresh / OUT_MARKER).write_text(f"written by pyengine {command}; replaced whole by its next run\n",
                                        encoding="utf-8")
        for name, text in files.items():
            (fresh / name).write_text(text, encoding="utf-8")
        if folder.is_dir():
            folder.rename(old)
        fresh.rename(folder)
    except OSError as exc:
        shutil.rmtree(fresh, ignore_errors=True)
        if old.exists() and not folder.exists():
            old.rename(folder)
        raise InputError(f"cannot write the folder: {exc.strerror}", file=str(folder), field="--out") from None
    shutil.rmtree(old, ignore_errors=True)
    return [folder / name for name in files]
