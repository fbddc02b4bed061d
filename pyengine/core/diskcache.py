"""Values worked out from the package's own files and kept between processes: each as a JSON file in a cache folder
(PYENGINE_CACHE, else $XDG_CACHE_HOME/pyengine or ~/.cache/pyengine), named by a digest of the files it was worked
out from (the code doing it among them) and signed with that digest. The signature tells a damaged file from a
whole one, not a forged one: anyone who can write the folder can sign. So the folder is trusted as the package's
own files are, only where no one else can write: it is created 0700, and a folder or file owned by another user,
or writable by the group or the world, is never read or written (every value is worked out afresh). A cache file
is untrusted input besides: one that cannot be read or written, is not a regular file, is too large or nested too
deeply, does not match its signature or cannot be read back is left alone and the value worked out again."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from pyengine.core.files import write_whole

T = TypeVar("T")

# The largest cache file read (bytes); every value kept is well under 1 MB.
MAX_CACHE_BYTES = 16_000_000
# The deepest nesting of brackets a cache file's JSON may have; every value kept is at most 4 deep.
MAX_CACHE_DEPTH = 16
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _digest(files: Iterable[Path]) -> str:
    """A digest of the files' names and contents, in the order given."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _signature(digest: str, body: bytes) -> bytes:
    return hashlib.sha256(digest.encode() + b"\0" + body).hexdigest().encode()


def _owned(info: os.stat_result) -> bool:
    """Whether only this process's user can change what these status bits describe."""
    return info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _trusted_folder(folder: Path) -> bool:
    """Create the cache folder (0700) if it is missing; whether it is a folder only its owner, this user, can
    write."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and _owned(info)


def _shallow(text: str) -> bool:
    """Whether the JSON text's brackets nest at most MAX_CACHE_DEPTH deep (strings left out), counted without
    parsing: json.loads itself would recurse once per level."""
    depth = deepest = 0
    for bracket in re.findall(r"[\[\]{}]", _JSON_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest <= MAX_CACHE_DEPTH


def _read(path: Path, digest: str) -> str | None:
    """A cache file's body: only a regular file (never a pipe, a device or a link) this user owns and only this
    user can write, of a bounded size and depth, whose first line signs the rest with the digest (an edited or
    truncated file is not used); else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or not _owned(info) or info.st_size > MAX_CACHE_BYTES:
            return None
        signature, _, body = handle.read(MAX_CACHE_BYTES).partition(b"\n")
    if signature != _signature(digest, body):
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if _shallow(text) else None


def _write(path: Path, digest: str, text: str) -> None:
    """Write a cache file whole (a partial file renamed into place), or not at all."""
    body = text.encode("utf-8")
    with contextlib.suppress(OSError):
        write_whole(path, [_signature(digest, body).decode("ascii"), "\n", text], mode=0o600)


def cached(name: str, files: Iterable[Path], work_out: Callable[[], T], to_json: Callable[[T], str],
           from_json: Callable[[str], T]) -> T:
    """The value `work_out()` gives from these files, read from its cache file when that holds it (signed and
    readable back by `from_json`), else worked out and kept there (`to_json`); a folder others can write is not
    used at all."""
    digest = _digest(files)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    folder = Path(os.environ.get("PYENGINE_CACHE") or Path(xdg, "pyengine"))
    if not _trusted_folder(folder):
        return work_out()
    path = folder / f"{name}-{digest[:32]}.json"
    text = _read(path, digest)
    if text is not None:
        try:
            return from_json(text)
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            pass
    value = work_out()
    _write(path, digest, to_json(value))
    return value
