"""One database URL, two kinds of database: a SQLite file (the default) or PostgreSQL."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qsl, urlencode, urlsplit

from backend.config import Settings

SCHEMA_LOCK = 0x4D41525341
"""PostgreSQL advisory lock key ("MARSA") held while tables are created: API replicas and
workers starting together would otherwise race to create the same ones."""


class DatabaseURLError(ValueError):
    """MARSA_DATABASE_URL is not a SQLite or PostgreSQL URL."""


@dataclass(frozen=True)
class Database:
    """Where MARSA keeps its runs: the kind, and how each library should reach it."""

    kind: Literal["sqlite", "postgresql"]
    url: str
    """The URL as configured (secrets included: never log it; use ``display``)."""
    sqlite_path: Path | None = None

    @property
    def sqlalchemy_url(self) -> str:
        """The URL with the async driver SQLAlchemy should use."""
        if self.kind == "sqlite":
            return f"sqlite+aiosqlite:///{self.sqlite_path}"
        return "postgresql+psycopg://" + self.url.split("://", 1)[1]

    @property
    def libpq_url(self) -> str:
        """The URL psycopg (and LangGraph's Postgres checkpointer) takes."""
        return "postgresql://" + self.url.split("://", 1)[1]

    def named(self, application_name: str) -> Database:
        """The same database, every connection to it carrying ``application_name`` (PostgreSQL
        shows it in pg_stat_activity for as long as the connection lives)."""
        if self.kind != "postgresql":
            return self
        parts = urlsplit(self.url)
        query = [(k, v) for k, v in parse_qsl(parts.query) if k != "application_name"]
        query.append(("application_name", application_name))
        return replace(self, url=parts._replace(query=urlencode(query)).geturl())

    @property
    def display(self) -> str:
        """The URL without a password, for logs and /api/health."""
        if self.kind == "sqlite":
            return f"sqlite:///{self.sqlite_path}"
        parts = urlsplit(self.url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
        user = f"{parts.username}@" if parts.username else ""
        return f"postgresql://{user}{host}{port}{parts.path}"


def database_target(settings: Settings) -> Database:
    """The configured database, or a SQLite file in the data directory."""
    url = settings.database_url
    if not url:
        path = settings.data_dir / "marsa.db"
        return Database(kind="sqlite", url=f"sqlite:///{path}", sqlite_path=path)
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme in ("sqlite", "sqlite+aiosqlite"):
        raw = url.split("://", 1)[1]
        # sqlite:///relative.db and sqlite:////absolute.db, as SQLAlchemy reads them.
        path = Path(raw[1:] if raw.startswith("/") else raw)
        if not path.name or raw in ("", "/"):
            raise DatabaseURLError(f"{url!r}: give a file, e.g. sqlite:///{Path.cwd()}/marsa.db")
        return Database(kind="sqlite", url=url, sqlite_path=path.expanduser().resolve())
    if scheme in ("postgresql", "postgres", "postgresql+psycopg"):
        return Database(kind="postgresql", url=url)
    raise DatabaseURLError(
        f"MARSA_DATABASE_URL must start with sqlite:/// or postgresql:// (got {scheme or url!r})"
    )
