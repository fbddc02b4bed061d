"""Files written whole or not at all: every output file (a pack, a report, a picture) and every cache file."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


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
