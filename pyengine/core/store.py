"""The local catalog store: imported card databases, kept in one SQLite file so that a query opens it in
milliseconds and reads only the cards it names, instead of re-reading thousands of source files.

Location: the environment variable PYENGINE_STORE, else $XDG_DATA_HOME/pyengine/catalog.sqlite, else
~/.local/share/pyengine/catalog.sqlite. Each import replaces one source (a registry SOURCE) in one transaction,
so a failed import leaves the previous contents as they were.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pyengine.core.catalog import Card, Catalog
from pyengine.core.errors import InputError
from pyengine.core.resources import STORE_ENV
from pyengine.core.text import printable, title_key
from pyengine.games import SOURCES, game, importer

# The store's format: what its tables and records hold. A store of another format is refused, naming the command
# that rebuilds it; the pyengine version that wrote it is recorded beside it.
STORE_FORMAT = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources (source TEXT PRIMARY KEY, game TEXT NOT NULL, path TEXT NOT NULL,
                                    report TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cards (source TEXT NOT NULL, id TEXT NOT NULL, record TEXT NOT NULL,
                                  PRIMARY KEY (source, id));
CREATE TABLE IF NOT EXISTS names (source TEXT NOT NULL, key TEXT NOT NULL, id TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS codes (source TEXT NOT NULL, code TEXT NOT NULL, id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS names_by_key ON names (source, key);
CREATE INDEX IF NOT EXISTS codes_by_code ON codes (source, code);
"""


def store_path() -> Path:
    if os.environ.get(STORE_ENV):
        return Path(os.environ[STORE_ENV])
    data_home = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return data_home / "pyengine" / "catalog.sqlite"


def _encode(card: Card) -> str:
    return json.dumps(dataclasses.asdict(card), ensure_ascii=False, separators=(",", ":"))


# Each field of a stored card record, and the types its value may have.
_RECORD_FIELDS: dict[str, tuple[type, ...]] = {
    "id": (str,), "title": (str,), "subtitle": (str, type(None)), "unique": (bool,), "side": (str, type(None)),
    "type": (str,), "culture": (str, type(None)), "collinfo": (str, type(None)), "split": (int, type(None)),
    "abilities": (list,), "translation_of": (str, type(None)), "hypothetical": (bool,),
    "stored_title": (str, type(None)), "aliases": (list,), "race": (str, type(None)), "extra": (dict,)}


def _decode(record: str, path: Path | None = None, card_id: str | None = None,
            card_types: tuple[str, ...] | None = None) -> Card:
    """A stored card record, read as input: every field present with a value of its type (a flag a true bool,
    never 0, null or "false"), the lists of text; a damaged record, or one written by another format, is an
    InputError naming the card and the store, never used."""

    def damaged(why: str) -> InputError:
        return InputError(f"card {card_id!r} of the catalog store is damaged: {why}", file=str(path or store_path()),
                          field=card_id, expected="a store made by this pyengine: run `pyengine import SOURCE PATH` "
                                                  "again to rebuild it")

    try:
        data = json.loads(record)
    except (ValueError, RecursionError, TypeError):
        raise damaged("its record is not JSON") from None
    if not isinstance(data, dict):
        raise damaged("its record is not an object")
    if set(data) != set(_RECORD_FIELDS):
        odd = sorted(set(data) ^ set(_RECORD_FIELDS))
        raise damaged(f"fields {', '.join(map(repr, odd))} missing or unknown")
    for name, types in _RECORD_FIELDS.items():
        value = data[name]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise damaged(f"{name} is {type(value).__name__}")
    if not data["id"] or not data["title"] or not data["type"] or (card_id is not None and data["id"] != card_id):
        raise damaged("its id, title or type is empty or another card's")
    if card_types is not None and data["type"] not in card_types:
        raise damaged(f"its type {printable(repr(data['type'][:100]))} is none its source's importer writes "
                      f"({', '.join(card_types)})")
    for name in ("abilities", "aliases"):
        if not all(isinstance(item, str) for item in data[name]):
            raise damaged(f"{name} holds something other than text")
        data[name] = tuple(data[name])
    return Card(**data)


def _meta(db: sqlite3.Connection) -> dict[str, str]:
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return dict(db.execute("SELECT key, value FROM meta").fetchall()) if "meta" in tables else {}


def _format_of(db: sqlite3.Connection) -> str | None:
    """The store's format, "1" for one written before formats were recorded, None for an empty file."""
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return _meta(db).get("format", "1") if "sources" in tables else None


def _check_format(db: sqlite3.Connection, path: Path) -> None:
    """Refuse a store of another format than this pyengine's (an earlier one had no meta table)."""
    found = _meta(db)
    if found.get("format", "1") != str(STORE_FORMAT):
        writer = found.get("writer", "an earlier pyengine")
        raise InputError(f"the catalog store is of format {found.get('format', '1')}, written by {writer}; this "
                         f"pyengine reads format {STORE_FORMAT}", file=str(path),
                         expected="a store of this format: run `pyengine import SOURCE PATH` again for each source "
                                  "(the first import rebuilds the store)")


def _writer() -> str:
    """This pyengine's version, recorded in the stores it writes."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"pyengine {version('pyengine')}"
    except PackageNotFoundError:
        return "pyengine (not installed)"


def _unusable(path: Path, why: object) -> InputError:
    return InputError(f"the catalog store cannot be used: {why}", file=str(path),
                      expected=f"a catalog store made by `pyengine import`, or another path in {STORE_ENV}")


def _open(path: Path, write: bool = False) -> sqlite3.Connection:
    """A connection to the store, read-write where the file allows it (so that a journal left by an import that
    was killed is rolled back and the data read), else read-only; waits up to 30 s for another import."""
    if path.is_dir():
        raise _unusable(path, "it is a folder")
    if path.exists() and not path.is_file():  # SQLite would write its journal beside a device (`/dev/null-journal`)
        raise _unusable(path, "it is not a regular file (a device, a pipe or a socket)")
    if write and path.is_symlink() and not path.exists():
        raise _unusable(path, "it is a link to nothing, whose target an import would create")
    try:
        if write:
            path.parent.mkdir(parents=True, exist_ok=True)
            return sqlite3.connect(path, timeout=30, check_same_thread=False)
        if os.access(path, os.W_OK) and os.access(path.parent, os.W_OK):
            return sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=30, check_same_thread=False)
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30, check_same_thread=False)
    except (OSError, sqlite3.Error) as exc:
        raise _unusable(path, exc) from None


@contextmanager
def _connect(path: Path, write: bool = False) -> Iterator[sqlite3.Connection]:
    connection = _open(path, write)
    try:
        yield connection
    except sqlite3.Error as exc:
        raise _unusable(path, exc) from None
    finally:
        connection.close()


def _digest(record: str) -> str | None:
    """The digest of its data a stored record keeps, or None (none kept, or the record damaged)."""
    try:
        data = json.loads(record)
    except (ValueError, RecursionError):
        return None
    extra = data.get("extra") if isinstance(data, dict) else None
    found = extra.get("digest") if isinstance(extra, dict) else None
    return found if isinstance(found, str) else None


def _rebound(db: sqlite3.Connection, source: str, cards: list[Card]) -> list[str]:
    """The ids of a source whose card an import would change, each in words: a card that keeps the digest of the
    data it was read from (`extra["digest"]`, where its id is a place in that data) and whose id the store holds
    with another digest, or without one (stored by an earlier pyengine, it cannot be told apart)."""
    if not any("digest" in card.extra for card in cards):
        return []
    stored = {card_id: _digest(record) for card_id, record in
              db.execute("SELECT id, record FROM cards WHERE source = ? ORDER BY rowid", (source,))}
    held: dict[str, str] = {}
    for card_id, found in stored.items():  # each digest's first id in the order imported
        if found:
            held.setdefault(found, card_id)
    rebound = []
    for card in cards:
        found = card.extra.get("digest")
        if found is None or card.id not in stored or stored[card.id] == found:
            continue
        if stored[card.id] is None:
            rebound.append(f"{card.id} (stored without a digest)")
        else:
            rebound.append(f"{card.id} (now the card stored as {held[found]})" if found in held
                           else f"{card.id} (now a card the store does not hold)")
    return rebound


def write_source(source: str, game: str, origin: str, cards: Iterable[Card], report: dict[str, Any],
                 path: Path | None = None, replace: bool = False) -> Path:
    """Replace one source's cards in the store, all at once. An import that would leave no cards, or fewer than
    half of those stored, is refused unless `replace` says so (an empty or truncated pool is a mistake far
    more often than an intent)."""
    path = path or store_path()
    cards = list(cards)
    with _connect(path, write=True) as db, db:
        # The checks, the tables and the writes are one transaction: no other import between them, and a killed
        # import leaves the store as it was (a first one, no tables at all), never tables without a format.
        db.execute("BEGIN IMMEDIATE")
        if _format_of(db) not in (None, str(STORE_FORMAT)):
            # A store of another format is rebuilt by the import: its sources must each be imported again.
            for table in ("meta", "sources", "cards", "names", "codes"):
                db.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        (stored,) = db.execute("SELECT COUNT(*) FROM cards WHERE source = ?", (source,)).fetchone()
        if not replace and (not cards or len(cards) < stored / 2):
            raise InputError(f"the import holds {len(cards)} cards where the store holds {stored} of {source!r}",
                             field="PATH", expected="the whole card database, or --replace to replace it anyway")
        rebound = [] if replace else _rebound(db, source, cards)
        if rebound:
            more = f" and {len(rebound) - 8} more" if len(rebound) > 8 else ""
            raise InputError(f"the import would bind {len(rebound)} ids of {source!r} to other cards than the "
                             f"store's: {', '.join(rebound[:8])}{more}", file=origin,
                             field="PATH", expected="the data imported before, or --replace to bind these ids "
                                                    "to the new data's cards (saved files naming them name those)")
        for table in ("sources", "cards", "names", "codes"):
            db.execute(f"DELETE FROM {table} WHERE source = ?", (source,))
        for card in cards:
            db.execute("INSERT INTO cards VALUES (?, ?, ?)", (source, card.id, _encode(card)))
            db.executemany("INSERT INTO names VALUES (?, ?, ?)",
                           [(source, key, card.id) for key in {title_key(n) for n in card.names()}])
            codes = {c.casefold() for c in [card.collinfo, *card.extra.get("codes", [])] if c}
            db.executemany("INSERT INTO codes VALUES (?, ?, ?)", [(source, code, card.id) for code in codes])
        db.execute("INSERT INTO sources VALUES (?, ?, ?, ?)",
                   (source, game, origin, json.dumps(report, ensure_ascii=False)))
        db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                       [("format", str(STORE_FORMAT)), ("writer", _writer())])
    return path


def sources(path: Path | None = None) -> dict[str, str]:
    """The imported sources and their games; empty when there is no store."""
    path = path or store_path()
    if not path.exists():
        return {}
    with _connect(path) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "sources" not in tables:
            return {}
        _check_format(db, path)
        return dict(db.execute("SELECT source, game FROM sources").fetchall())


def _identity(path: Path) -> tuple[int, int] | None:
    """Which file the store is: its device and inode (a store removed and made again is another file)."""
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_dev, found.st_ino


class StoreCatalog(Catalog):
    """One imported source of the store, read card by card. The records read are kept only while the store is
    as it was when they were read: every lookup first asks SQLite whether another connection changed the file
    (`PRAGMA data_version`, an import) and whether the path now names another file, and forgets what it kept
    (reopening the file) when it did, so that a long-lived process (a server worker) never answers from the
    catalog as it was before a re-import."""

    def __init__(self, source: str, path: Path | None = None):
        self.source, self.path = source, path or store_path()
        if source not in sources(self.path):
            raise not_imported(source, self.path)
        self._db = _open(self.path)
        self._file = _identity(self.path)
        self._version = self._data_version()
        self._cache: dict[str, Card | None] = {}
        self._names: list[str] | None = None
        # The card types its importer writes: a record of another (`spaceship`, `com panion`) is damaged.
        self._types = tuple(importer(source).CARD_TYPES) if source in SOURCES else None

    def _data_version(self) -> int:
        return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    def _fresh(self) -> None:
        """Forget the records kept if the store changed since they were read (see the class)."""
        file = _identity(self.path)
        if file != self._file:
            if file is None:
                raise _unusable(self.path, "it was removed while in use")
            self._db.close()
            self._db, self._file = _open(self.path), file
        elif self._data_version() == self._version:
            return
        self._version = self._data_version()
        self._cache, self._names = {}, None

    def _cards(self, query: str, arg: str) -> list[Card]:
        self._fresh()
        rows = self._db.execute(query, (self.source, arg)).fetchall()
        return [self._one(card_id) for (card_id,) in rows if self._one(card_id) is not None]  # type: ignore[misc]

    def _one(self, card_id: str) -> Card | None:
        if card_id not in self._cache:
            row = self._db.execute("SELECT record FROM cards WHERE source = ? AND id = ?",
                                   (self.source, card_id)).fetchone()
            self._cache[card_id] = _decode(row[0], self.path, card_id, self._types) if row else None
        return self._cache[card_id]

    def lookup_id(self, card_id: str) -> Card | None:
        self._fresh()
        return self._one(card_id)

    def lookup_code(self, code: str) -> list[Card]:
        return self._cards("SELECT id FROM codes WHERE source = ? AND code = ? ORDER BY id", code.casefold())

    def lookup_name(self, key: str) -> list[Card]:
        return self._cards("SELECT DISTINCT id FROM names WHERE source = ? AND key = ? ORDER BY id", key)

    def suggestion_names(self) -> Iterable[str]:
        self._fresh()
        if self._names is None:
            rows = self._db.execute("SELECT record FROM cards WHERE source = ?", (self.source,))
            self._names = [name for (record,) in rows
                           for name in _decode(record, self.path, card_types=self._types).references()]
        return self._names

    def candidates(self, key: str, code: str) -> Iterable[Card]:
        def like(text: str) -> str:
            return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")

        self._fresh()
        rows = self._db.execute(
            "SELECT id FROM names WHERE source = ? AND key LIKE ? ESCAPE '\\' UNION "
            "SELECT id FROM codes WHERE source = ? AND code LIKE ? ESCAPE '\\' UNION "
            "SELECT id FROM cards WHERE source = ? AND lower(id) LIKE ? ESCAPE '\\' ORDER BY id LIMIT 500",
            (self.source, f"%{like(key)}%", self.source, f"{like(code)}%", self.source, f"{like(code)}%")).fetchall()
        return [card for (card_id,) in rows if (card := self._one(card_id)) is not None]

    def all_cards(self) -> Iterator[Card]:
        self._fresh()
        for (record,) in self._db.execute("SELECT record FROM cards WHERE source = ? ORDER BY id", (self.source,)):
            yield _decode(record, self.path, card_types=self._types)


_OPEN: dict[tuple[str, Path], StoreCatalog] = {}


def not_imported(source: str, path: Path | None = None) -> InputError:
    """The error of a scenario naming a card pool the store does not hold, with the command that imports it (one
    wording for every game)."""
    return InputError(f"no imported catalog {source!r} in the card store {path or store_path()}: import it with "
                      f"`pyengine import {source} PATH` (docs/card-pools.md says which folder PATH is), or set "
                      f"{STORE_ENV} to a store that holds it", field="catalog",
                      expected="a card pool imported into the store")


def forget_open_sources() -> None:
    """Drop the catalogs opened so far, without closing them: a forked worker opens its own connections, since
    an SQLite connection must not be used on both sides of a fork."""
    _OPEN.clear()


def open_source(source: str) -> StoreCatalog:
    """The imported source as a catalog, opened once per process and store location (batch runs reuse it)."""
    key = (source, store_path())
    if key not in _OPEN:
        _OPEN[key] = StoreCatalog(source, key[1])
    return _OPEN[key]


def open_catalog(name: str, builtin: Callable[[], Catalog]) -> Catalog:
    """The built-in catalog, or a source imported into the store (`pyengine import SOURCE PATH`)."""
    if name == "builtin":
        return builtin()
    catalog = open_source(name)
    catalog.reference = builtin().reference  # the game's words for a card
    # What its rules read of a card: printings that agree on all of it are one card to a name they share.
    catalog.rules_view = getattr(game(SOURCES[name]).writer, "rules_view", None) if name in SOURCES else None
    return catalog
