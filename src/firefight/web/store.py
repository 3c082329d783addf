"""Where the tracker keeps its encounters: one row each, holding the same record JSON that
``firefight encounter`` saves to a file.

Each step is one transaction that writes the whole record and bumps a version number, guarded by
the version it read (``UPDATE ... WHERE version = ?``): a step either commits whole or not at all,
and two servers sharing a database cannot both write on the same version. SQLite (the default) runs
in WAL mode with ``synchronous=FULL``, so a killed server loses no committed step. Any SQLAlchemy
URL works for a group that hosts its own database (e.g. ``postgresql://...``).

Tokens are kept only as SHA-256 digests; :func:`token_digest` is how a token presented later is
compared (in constant time, by the caller).
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine as SqlEngine
from sqlalchemy.exc import ArgumentError, OperationalError

from firefight.errors import InputError

metadata = MetaData()

encounters = Table(
    "encounters",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("title", String(200), nullable=False),
    Column("ruleset", String(40), nullable=False),
    Column("gm_digest", String(64), nullable=False),
    Column("player_digest", String(64), nullable=False),
    Column("players_side", String(100), nullable=False),
    #: What the players' page shows of the other sides: "status" or "names".
    Column("enemy_detail", String(16), nullable=False),
    Column("record", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)


def token_digest(token: str) -> str:
    """The stored form of a token (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def default_database() -> Path:
    """``$XDG_DATA_HOME/firefight/tracker.sqlite3`` (``~/.local/share/...`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "firefight" / "tracker.sqlite3"


def database_url(db: str | None) -> str:
    """``--db``: a SQLAlchemy URL as given, or a file path made into a SQLite URL."""
    if db and "://" in db:
        return db
    path = Path(db).expanduser() if db else default_database()
    if path.is_dir():
        raise InputError(f"--db {path} is a folder", tip="give a file path, e.g. --db tracker.db")
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path.resolve()}"


def shown_url(url: str) -> str:
    """``url`` with any password in it replaced by ``***`` (for banners and error lines)."""
    return re.sub(r"(://[^/:@]*:)[^/@]*@", r"\1***@", url)


@dataclass(frozen=True)
class Row:
    """One stored encounter as read."""

    id: str
    title: str
    ruleset: str
    gm_digest: str
    player_digest: str
    players_side: str
    enemy_detail: str
    record: str
    version: int


class StaleVersion(InputError):
    """The encounter was changed by someone else since it was read."""


class Store:
    """The encounters table on one database."""

    def __init__(self, url: str) -> None:
        self.url = url
        #: The URL as it may be printed: a password in it shown as ***.
        self.shown = shown_url(url)
        try:
            self.engine: SqlEngine = create_engine(url, future=True)
        except ImportError as err:  # the URL is fine; its database's driver is not installed
            raise InputError(
                f"--db {self.shown!r} needs the Python driver {err.name or err}, not installed",
                tip=f"install it (e.g. pip install {err.name}) or give a SQLite file path",
            ) from None
        except ArgumentError as err:
            raise InputError(
                f"--db {self.shown!r} is not a database URL SQLAlchemy can open ({err})",
                tip="give a file path, or a URL such as sqlite:///tracker.db",
            ) from None
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            metadata.create_all(self.engine)
        except OperationalError as err:
            raise InputError(
                f"--db {self.shown!r}: cannot open the database ({err.orig})",
                tip="check the path and its permissions",
            ) from None

    def add(self, row: Row) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(encounters).values(**_values(row), created=now, updated=now))

    def get(self, encounter_id: str) -> Row | None:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(encounters).where(encounters.c.id == encounter_id)
            ).one_or_none()
        if found is None:
            return None
        m = found._mapping
        return Row(**{k: m[k] for k in Row.__dataclass_fields__})

    def version(self, encounter_id: str) -> int | None:
        with self.engine.connect() as conn:
            value = conn.execute(
                select(encounters.c.version).where(encounters.c.id == encounter_id)
            ).scalar_one_or_none()
        return None if value is None else int(value)

    def versions(self, encounter_ids: Collection[str]) -> dict[str, int]:
        """The versions of ``encounter_ids`` in one query (ids not in the table are left out)."""
        if not encounter_ids:
            return {}
        with self.engine.connect() as conn:
            found = conn.execute(
                select(encounters.c.id, encounters.c.version).where(
                    encounters.c.id.in_(list(encounter_ids))
                )
            )
            return {str(i): int(v) for i, v in found}

    def write(self, encounter_id: str, version: int, **values: Any) -> int:
        """Write ``values`` in one transaction unless someone wrote since ``version``."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(encounters)
                .where(encounters.c.id == encounter_id, encounters.c.version == version)
                .values(**values, version=version + 1, updated=time.time())
            )
            if done.rowcount != 1:
                raise StaleVersion(
                    f"encounter {encounter_id} changed elsewhere since it was read",
                    tip="reload the page and try again",
                )
        return version + 1

    def close(self) -> None:
        self.engine.dispose()


def _values(row: Row) -> dict[str, Any]:
    return {k: getattr(row, k) for k in Row.__dataclass_fields__}


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
