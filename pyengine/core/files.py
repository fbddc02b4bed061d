"""Files and folders written whole or not at all: every output file (a pack, a report, a picture), every cache
file, and every folder a command fills (`--out` of census, edge-cases and conformance compare). Nothing is ever
renamed over anything but a regular file: a device (`/dev/null`), a pipe, a socket, a folder or a symbolic link at
an output's path is refused, before the command's work where the command checks its outputs first."""

from __future__ import annotations

import errno
import os
import shutil
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from pyengine.core.errors import InputError

# The file that marks a folder a command wrote: the command's next run may replace the folder, never one without it.
OUT_MARKER = ".pyengine-out"


def output_file(target: Path, option: str, through_links: bool = False) -> Path:
    """The path an output file named by `option` is written to, checked before any work: a new name in a folder
    that exists, or a regular file, which is replaced. A folder (`--out .`), a device, a pipe or a socket is a
    located error, and so is a symbolic link unless `through_links` asks to write the file it points to (whose
    path is returned: the link stays)."""
    try:
        info: os.stat_result | None = target.lstat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise InputError(f"cannot use the path: {exc.strerror}", file=str(target), field=option) from None
    if info is not None and stat.S_ISLNK(info.st_mode):
        if not through_links:
            raise InputError("is a symbolic link, never replaced by an output file", file=str(target), field=option,
                             expected="a regular file or a new name (or --through-links, to write the file the "
                                      "link points to)")
        return output_file(target.resolve(), option)
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise InputError("is a folder", file=str(target), field=option, expected="a file's name (a folder's "
                         "files are never replaced by one output file)")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise InputError("is not a regular file (a device, a pipe or a socket), never replaced by an output file",
                         file=str(target), field=option, expected="a regular file or a new name")
    if not target.parent.is_dir():
        raise InputError(f"the folder {target.parent} does not exist", file=str(target), field=option,
                         expected="a file in a folder that exists")
    return target


def _replaceable(target: Path) -> int | None:
    """The permission bits of `target` where it is a regular file, None where it is missing; anything else (a
    symbolic link included) is an OSError."""
    try:
        info = target.lstat()
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EEXIST, "is there and is not a regular file, which is never replaced", str(target))
    return stat.S_IMODE(info.st_mode)


def write_whole(target: Path, pieces: Iterable[str], mode: int | None = None) -> None:
    """Write the text `pieces` into a new temporary file beside `target` (created exclusively, never through a
    link planted at its name), then rename it over `target` if that is missing or a regular file (anything else,
    a link included, is an OSError and stays as it was): a reader sees the old file or the whole new one. The new
    file has `mode`, else the replaced file's permissions (a private 0600 file stays private), else 0644. An
    OSError is the caller's to report; the temporary file is removed whatever happens."""
    kept = _replaceable(target)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    chosen = mode if mode is not None else kept if kept is not None else 0o644
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, chosen)
    try:
        if mode is None and kept is not None:  # the replaced file's bits as they were, whatever the umask
            os.fchmod(handle, kept)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            for piece in pieces:
                stream.write(piece)
        _replaceable(target)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def check_out_folder(folder: Path) -> None:
    """Refuse a `--out` folder that write_folder would refuse (checked before a long run as well as at its end): a
    file, a link, the folder the command runs in or one holding it (`--out .`), or a folder holding files pyengine
    did not write."""
    if folder.is_symlink():
        raise InputError("is a symbolic link", file=str(folder), field="--out",
                         expected="a folder of its own, which is replaced whole")
    if folder.exists() and not folder.is_dir():
        raise InputError("is a file, not a folder", file=str(folder), field="--out", expected="a folder to write into")
    here = Path.cwd().resolve()
    if folder.resolve() == here or folder.resolve() in here.parents:
        raise InputError("is the folder the command runs in, or holds it", file=str(folder), field="--out",
                         expected="a folder of its own (a new name such as out/), which is replaced whole")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / OUT_MARKER).is_file():
        raise InputError("the folder holds files pyengine did not write", file=str(folder), field="--out",
                         expected="a new or empty folder, or one an earlier run of pyengine wrote")


def write_folder(folder: Path, files: Mapping[str, str], command: str) -> list[Path]:
    """Fill `folder` with exactly `files` (name -> text), whole or not at all: written into a new folder beside it,
    then put in its place, so that no earlier run's file stays beside the new ones and a run stopped halfway
    leaves the folder as it was. A folder holding files this command did not write (no OUT_MARKER) is refused,
    never emptied. The paths written, in the order given."""
    check_out_folder(folder)
    place = folder.resolve()  # `out/..` or `./out` named by its own name: the fresh and old folders sit beside it
    fresh = place.with_name(f".{place.name}.{os.getpid()}.new")
    old = place.with_name(f".{place.name}.{os.getpid()}.old")
    try:
        fresh.mkdir(parents=True)
        (fresh / OUT_MARKER).write_text(f"written by pyengine {command}; replaced whole by its next run\n",
                                        encoding="utf-8")
        for name, text in files.items():
            (fresh / name).write_text(text, encoding="utf-8")
        if place.is_dir():
            place.rename(old)
        fresh.rename(place)
    except BaseException as exc:  # a text that cannot be written (a lone surrogate) as well as a full disk
        shutil.rmtree(fresh, ignore_errors=True)
        if old.exists() and not place.exists():
            old.rename(place)
        if isinstance(exc, OSError):
            raise InputError(f"cannot write the folder: {exc.strerror}", file=str(folder), field="--out") from None
        raise
    shutil.rmtree(old, ignore_errors=True)
    return [folder / name for name in files]
