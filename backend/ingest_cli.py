"""`marsa ingest`: walk the paths, send each file to the document-store server, say what
happened to every file (ingested, skipped and why, failed and why)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from backend.config import Settings
from backend.mcp_client import INGEST_TIMEOUT, MCPHub, ToolCallError, docs_only
from marsa_common.files import SUPPORTED_SUFFIXES, FoundFile, Walk, made_from_code, walk

PLAIN_EVERY = 5.0
"""Seconds between progress lines when stderr is not a terminal (a log, CI)."""


@dataclass
class Tally:
    """What an ingestion did, file by file and document by document."""

    files: int
    ingested: int = 0
    documents: Counter[str] = field(default_factory=Counter)  # added, replaced, unchanged
    failures: list[str] = field(default_factory=list)
    # read, but nothing in them to search: a heading and Sphinx directives only
    empty: list[str] = field(default_factory=list)
    # the very text of another file, stored once (kept under that file's name)
    same: list[str] = field(default_factory=list)

    @property
    def done(self) -> int:
        return self.ingested + len(self.failures) + len(self.empty)


PER_FILE = 8192
"""What a file costs beyond its bytes, in bytes: its round trip to the store and the setting
up of its chunks (an 85-byte page took as long as a few kilobytes of prose)."""


PACE_FILES = 2
"""Files done after the first before a time left is given: one file is no pace (peewee's
docs: "2/27 files · about 7 min 23 s left", then "16 min 0 s" while file 3 was read, for
a 60 s ingest; at file 3, "about 45 s left")."""


class Rate:
    """Files per second so far and the time the rest should take at that pace. Given the
    files' sizes (in the order they are sent), the time left follows the bytes still to go:
    files differ a hundredfold in size, so a large one early made the count of files a poor
    guide (a new user saw "about 43 s left" grow to "4 min 15 s" on file 2 of 19)."""

    def __init__(
        self,
        total: int,
        clock: Callable[[], float] = time.monotonic,
        sizes: list[int] | None = None,
    ):
        self.total = total
        self.clock = clock
        self.start = clock()
        # Each file also costs a round trip and its chunks' set-up whatever its size: counted
        # as PER_FILE bytes more, two tiny files first no longer make the rest look endless
        # (a new user saw "2/15 files · about 2 h 4 min left" for a 26 s ingest).
        self.sizes = (
            [size + PER_FILE for size in sizes]
            if sizes is not None and len(sizes) == total
            else None
        )
        # (time, files done) when the first file was done: the time before it holds the
        # servers' start and the embedder's warm-up, which no later file pays again (a new
        # user saw "about 11 min 40 s left", then "23 min 20 s", then "38 s")
        self.first: tuple[float, int] | None = None

    def advance(self, done: int) -> None:
        """Files done so far (called as each one is done)."""
        if self.first is None and done >= 1:
            self.first = (self.clock(), done)

    def figures(self, done: int) -> str:
        elapsed = self.clock() - self.start
        rate = done / elapsed if done and elapsed > 0 else 0.0
        if done >= self.total:
            left = "done"
        elif self.first is not None:
            since, first_done = self.first
            if done >= first_done + PACE_FILES and self.clock() > since:
                seconds = self._seconds_left(done, self.clock() - since, first_done)
                left = f"about {duration(seconds)} left"
            else:
                left = "time left known after the next file"
        elif rate:
            left = f"about {duration(self._seconds_left(done, elapsed))} left"
        else:
            # (a new user saw "0/11 files · time left not known yet" for a minute and could
            # not tell a slow start from a hang: the servers and the embedder start first)
            left = (
                f"starting, {duration(elapsed)} so far (the store and its embedding model "
                "load first); time left known after the first file"
            )
        return f"{rate:.1f} files/s · {left}"

    def _seconds_left(self, done: int, elapsed: float, after: int = 0) -> float:
        """The rest at the pace of the files from ``after`` to ``done`` (in ``elapsed``)."""
        if self.sizes is None or sum(self.sizes[after:done]) <= 0:
            return (self.total - done) * elapsed / (done - after)
        sent = sum(self.sizes[after:done])
        return sum(self.sizes[done:]) * elapsed / sent

    def line(self, done: int) -> str:
        return f"ingesting: {done}/{self.total} files · {self.figures(done)}"


def duration(seconds: float) -> str:
    """A short human duration: '4 s', '2 min 5 s', '1 h 3 min'."""
    whole = max(0, round(seconds))
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


class PlainProgress:
    """A progress line every `every` seconds, for a stderr that is not a terminal."""

    def __init__(self, console: Console, rate: Rate, every: float):
        self.console, self.rate, self.every = console, rate, every
        self.last = rate.clock()
        self.done = 0

    def advance(self, done: int) -> None:
        self.done = done
        self.rate.advance(done)
        self.tick()

    def tick(self) -> None:
        if self.rate.clock() - self.last >= self.every:
            self.last = self.rate.clock()
            self.console.print(self.rate.line(self.done), highlight=False, soft_wrap=True)

    async def keep_ticking(self) -> None:
        """Lines keep coming while one large file takes long."""
        while True:
            await asyncio.sleep(self.every)
            self.tick()


@contextlib.asynccontextmanager
async def _progress(
    console: Console, total: int, every: float, sizes: list[int] | None = None
) -> AsyncIterator[Any]:
    """A callable (done, name) that shows progress: a live bar on a terminal, else lines."""
    rate = Rate(total, sizes=sizes)
    if console.is_terminal:
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[figures]}"),
            console=console,
            transient=True,
        ) as bar:
            task = bar.add_task("ingesting", total=total, figures=rate.figures(0))

            def show(done: int, name: str) -> None:
                rate.advance(done)
                bar.update(
                    task,
                    completed=done,
                    description=f"ingesting {name}",
                    figures=rate.figures(done),
                )

            yield show
        return
    plain = PlainProgress(console, rate, every)
    ticker = asyncio.create_task(plain.keep_ticking()) if every > 0 else None
    try:
        yield lambda done, _name: plain.advance(done)
    finally:
        if ticker is not None:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker


async def ingest_command(
    paths: list[Path],
    settings: Settings,
    *,
    out: Console,
    err: Console,
    progress_every: float = PLAIN_EVERY,
) -> int:
    """Ingest files and folders through the docs server; returns the exit code (1 when a
    file failed or nothing was found)."""
    found = walk(paths)
    for skipped in found.skipped:
        out.print(
            escape(f"skipped {skipped.path}: {skipped.reason}"), highlight=False, soft_wrap=True
        )
    for gone in found.missing:
        by = gone.included_by
        pages = by[0] + (
            f" and {len(by) - 1} other page{'s' if len(by) > 2 else ''}" if by[1:] else ""
        )
        out.print(
            escape(f"include not found: {gone.path} ({pages} include{'' if by[1:] else 's'} it)"),
            highlight=False,
            soft_wrap=True,
        )
    for included in (f for f in found.files if f.included_by):
        out.print(
            escape(f"included {included.path}: {included.included_by} includes it"),
            highlight=False,
            soft_wrap=True,
        )
    if not found.files:
        err.print(
            "[yellow]no supported files found[/] "
            f"(supported: {' '.join(sorted(SUPPORTED_SUFFIXES))})"
        )
        return 1
    remote = settings.docs_server_url is not None
    if not remote:
        # The server started for this command may read exactly what it was asked to ingest.
        # (and the files outside them that their pages include, each by its own path)
        roots = [str(path.resolve()) for path in paths]
        roots += [str(f.path.resolve()) for f in found.files if f.included_by]
        settings = settings.model_copy(update={"docs_ingest_roots": roots})
    tally = Tally(files=len(found.files))
    async with (
        MCPHub(docs_only(settings), servers=["docs"]) as hub,
        _progress(err, len(found.files), progress_every, _sizes(found.files)) as show,
    ):
        for file in found.files:
            show(tally.done, file.relative_path)  # the file being sent, by name
            await _send(hub, file, remote, tally, found)
            show(tally.done, file.relative_path)
    out.print(escape(summary(tally, found)), highlight=False, soft_wrap=True)
    for failure in tally.failures:
        err.print(f"[red]not ingested[/] {escape(failure)}", highlight=False, soft_wrap=True)
    for empty in tally.empty:
        err.print(f"[yellow]nothing indexed[/] {escape(empty)}", highlight=False, soft_wrap=True)
    for same in tally.same:
        err.print(f"[yellow]stored once[/] {escape(same)}", highlight=False, soft_wrap=True)
    return 1 if tally.failures else 0


def _sizes(files: list[FoundFile]) -> list[int]:
    """Each file's size in bytes (0 for one that cannot be read now: its send will say why)."""
    sizes = []
    for file in files:
        try:
            sizes.append(file.path.stat().st_size)
        except OSError:
            sizes.append(0)
    return sizes


def _text_of(path: Path) -> str:
    """A file's text, as far as it reads (none when it cannot be read)."""
    try:
        return path.read_text("utf-8", errors="replace")
    except OSError:
        return ""


async def _send(
    hub: MCPHub, file: FoundFile, remote: bool, tally: Tally, found: Walk | None = None
) -> None:
    args: dict[str, Any] = {"filename": file.filename, "relative_path": file.relative_path}
    if remote:
        # A server elsewhere cannot read this machine's files: it gets the bytes.
        args["data_base64"] = base64.b64encode(file.path.read_bytes()).decode()
    else:
        args["path"] = str(file.path.resolve())
    try:
        result = (await hub.call("docs", "ingest_file", args, timeout=INGEST_TIMEOUT)).structured
    except ToolCallError as exc:
        tally.failures.append(f"{file.path}: {exc.message}")
        return
    if not result["documents"]:
        kept = [
            f.relative_path
            for f in (found.files if found else [])
            if f.included_by == file.relative_path
        ]
        names = made_from_code(_text_of(file.path))
        why = (
            f"its text is in what it includes: {', '.join(kept)}"
            if kept
            else f"its text is made from the code's docstrings ({', '.join(names[:3])}), "
            "which are not read"
            if names
            else "headings or directives only"
        )
        tally.empty.append(f"{file.path}: no text to search in it ({why})")
        return
    tally.ingested += 1
    for doc in result["documents"]:
        if doc.get("same_as"):  # not "unchanged": it was never stored under this name
            tally.same.append(f"{file.path}: the same text as {doc['same_as']}")
            tally.documents["same"] += 1
        else:
            tally.documents[doc["status"]] += 1


def summary(tally: Tally, found: Walk) -> str:
    """The closing line: every file the walk found, then what became of each (ingested, with
    the documents added/replaced/unchanged; nothing to search in it; skipped; failed), the
    parts adding up to the total."""
    outside = sum(1 for f in found.files if f.included_by and f.relative_path.startswith("../"))
    return (
        f"{tally.files + len(found.skipped)} files found"
        + (f" ({outside} outside the folder, included by its pages)" if outside else "")
        + f": {tally.ingested} ingested "
        f"({tally.documents['added']} documents added, {tally.documents['replaced']} replaced, "
        f"{tally.documents['unchanged']} unchanged"
        + (f", {tally.documents['same']} the same as another file" if tally.same else "")
        + f"), {len(tally.empty)} with no text, "
        f"{len(found.skipped)} skipped, {len(tally.failures)} failed"
        + (
            f"; {len(found.missing)} included file{'s' if len(found.missing) > 1 else ''} not found"
            if found.missing
            else ""
        )
    )
