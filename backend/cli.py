"""The `marsa` command: ingest and search documents, check servers, run benchmarks."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from backend.config import get_settings

app = typer.Typer(
    help="MARSA, a multi-agent research assistant. Its store and run history live in "
    "~/.marsa, or in MARSA_DATA_DIR when set.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
eval_app = typer.Typer(help="Benchmarks that print their figures as JSON.", no_args_is_help=True)
app.add_typer(eval_app, name="eval")
out = Console()
err = Console(stderr=True)


DataDir = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        file_okay=False,
        help="Store and run history to use (default ~/.marsa; MARSA_DATA_DIR does the same).",
    ),
]


def _use_data_dir(data_dir: Path | None) -> None:
    """--data-dir is MARSA_DATA_DIR for this command and everything it starts."""
    if data_dir is not None:
        os.environ["MARSA_DATA_DIR"] = str(data_dir.expanduser().resolve())


def _parse_filters(pairs: list[str]) -> dict[str, Any] | None:
    filters: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise typer.BadParameter(
                f"{pair!r}: filters look like key=value (value may be a,b for any of)"
            )
        filters[key] = value.split(",") if "," in value else value
    return filters or None


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(exists=True, help="Files or folders.")],
    progress_every: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="Seconds between progress lines when stderr is not a terminal.",
        ),
    ] = 5.0,
    data_dir: DataDir = None,
) -> None:
    """Ingest files and folders into the document store: Markdown and MDX,
    reStructuredText, text, HTML, PDF, Word (.docx), JSON lines. Lists what it skipped
    and why, and ends with the totals."""
    from backend.ingest_cli import ingest_command
    from backend.mcp_client import ServerUnavailable

    _use_data_dir(data_dir)
    try:
        code = asyncio.run(
            ingest_command(paths, get_settings(), out=out, err=err, progress_every=progress_every)
        )
    except ServerUnavailable as exc:
        err.print(f"[red]error:[/] {exc}")
        code = 3
    raise typer.Exit(code)


async def _search(query: str, n: int, mode: str, filters: dict[str, Any] | None) -> dict[str, Any]:
    from backend.mcp_client import MCPHub, docs_only

    args: dict[str, Any] = {"query": query, "n_results": n, "mode": mode}
    if filters:
        args["filters"] = filters
    async with MCPHub(docs_only(get_settings()), servers=["docs"]) as hub:
        response = dict((await hub.call("docs", "search_documents", args)).structured)
        if not response.get("results"):  # an empty store, or nothing matches?
            listed = await hub.call("docs", "list_documents", {"limit": 1})
            response["_stored"] = int(dict(listed.structured).get("total", 0))
        return response


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    n: Annotated[int, typer.Option("-n", "--n-results", min=1, max=50)] = 5,
    mode: Annotated[str, typer.Option(help="hybrid, semantic or keyword")] = "hybrid",
    filter_: Annotated[
        list[str] | None, typer.Option("--filter", help="key=value; repeatable")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the raw JSON result.")] = False,
    data_dir: DataDir = None,
) -> None:
    """Search the document store through its MCP server."""
    from backend.mcp_client import ServerUnavailable, ToolCallError

    _use_data_dir(data_dir)
    try:
        response = asyncio.run(_search(query, n, mode, _parse_filters(filter_ or [])))
    except ToolCallError as exc:
        err.print(f"[red]error:[/] {exc.message}")
        raise typer.Exit(2) from exc
    except ServerUnavailable as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(3) from exc
    stored = response.pop("_stored", None)
    if as_json:
        out.print_json(json.dumps(response))
        return
    if not response["results"] and stored == 0:
        out.print("no results: the store is empty (try: marsa ingest docs/)")
    elif not response["results"]:
        out.print(f"no results in the {stored} document{'' if stored == 1 else 's'} stored")
    for rank, hit in enumerate(response["results"], start=1):
        where = f"{hit['source']}" + (f" › {hit['section']}" if hit["section"] else "")
        out.print(
            f"[bold]{rank}. {escape(hit['title'])}[/]  [dim]score {hit['score']:.3f} · "
            f"{escape(where)} · "
            f"{escape(hit['chunk_id'])}[/]"
        )
        text = hit["text"]
        shown = escape(text[:300])  # "[singledispatch](…)" is the document's text, not markup
        out.print(f"   {shown}{'…' if len(text) > 300 else ''}\n", highlight=False)


@app.command()
def servers(
    as_json: Annotated[bool, typer.Option("--json")] = False, data_dir: DataDir = None
) -> None:
    """List the built-in MCP servers, whether each answers and whether its outside API does."""
    _use_data_dir(data_dir)
    from backend.mcp_client.health import probe_all

    rows = asyncio.run(probe_all(get_settings()))
    if as_json:
        out.print_json(json.dumps([row.model_dump() for row in rows]))
    else:
        table = Table("server", "transport", "status", "tools", "note")
        for row in rows:
            colour = {"up": "green", "degraded": "yellow"}.get(row.status, "red")
            table.add_row(
                row.server,
                row.transport,
                f"[{colour}]{row.status}[/]",
                ", ".join(row.tools),
                row.note,
            )
        out.print(table)
    if any(row.status == "down" for row in rows):
        raise typer.Exit(1)  # degraded (its outside API does not answer) is shown, not fatal


def _fewer_malloc_arenas() -> None:
    """glibc gives each thread that allocates its own heap arena; the engine's worker threads
    then leave memory fragmented (the API grew to 1.4 GB over 45 runs; with two arenas 0.8 GB,
    no slower: bench/api.py). Same as MALLOC_ARENA_MAX=2, set before any thread starts."""
    if not sys.platform.startswith("linux") or os.environ.get("MALLOC_ARENA_MAX"):
        return
    import ctypes

    m_arena_max = -8
    try:
        ctypes.CDLL("libc.so.6").mallopt(m_arena_max, 2)
    except (OSError, AttributeError):
        return  # not glibc (musl has no arenas to limit)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535)] = 8000,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the web page in a browser once it is up.")
    ] = False,
    data_dir: DataDir = None,
) -> None:
    """Serve the REST API and the web UI (http://HOST:PORT/, API docs at /docs)."""
    _use_data_dir(data_dir)
    import uvicorn

    from backend.api.main import create_app

    _fewer_malloc_arenas()

    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    err.print(f"MARSA: web UI at [bold]{url}[/], API docs at {url}docs (Ctrl+C stops)")
    # Only where a desktop is: on a bare server webbrowser may start a text browser instead.
    desktop = sys.platform in ("darwin", "win32") or any(
        os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY")
    )
    if open_browser and desktop:
        import threading
        import webbrowser

        threading.Timer(3.0, webbrowser.open, args=(url,)).start()
    # A bounded graceful stop: open event streams would otherwise hold it forever.
    uvicorn.run(
        create_app(serve_host=host),
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=5,
    )


@app.command()
def worker(data_dir: DataDir = None) -> None:
    """Research queued runs (MARSA_RUN_IN=workers): take them from the queue in PostgreSQL,
    several at once (MARSA_MAX_ACTIVE_RUNS), until stopped. See docs/deployment.md."""
    _use_data_dir(data_dir)
    from backend.workers.worker import run_worker

    _fewer_malloc_arenas()
    asyncio.run(run_worker(get_settings()))


@app.command()
def research(
    query: Annotated[str, typer.Argument(help="The research question.")],
    sources: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated servers to use: docs,web,github,scholarly,searxng "
            "(default: all available)"
        ),
    ] = None,
    max_iterations: Annotated[
        int, typer.Option(min=1, max=20, help="Research rounds at most.")
    ] = 2,
    fmt: Annotated[str, typer.Option("--format", help="md or json")] = "md",
    output: Annotated[Path | None, typer.Option("--out", help="Write the result here.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No live progress.")] = False,
    data_dir: DataDir = None,
    follow_up: Annotated[
        str | None,
        typer.Option(
            "--follow-up",
            metavar="RUN_ID",
            help="Follow up a finished run of the history: start from its sources and answer "
            "(and its --sources unless given).",
        ),
    ] = None,
) -> None:
    """Research a question: plan, search, fact-check, and write a cited report."""
    if data_dir is not None and not data_dir.expanduser().is_dir():
        # A mistyped path would otherwise make a new, empty store and research MARSA's own
        # docs (what a first run with no store does), answering from the wrong corpus.
        raise typer.BadParameter(
            f"{data_dir} does not exist, so nothing was ingested there. Check the path, or "
            f"ingest documents into it first: marsa ingest PATH --data-dir {data_dir}",
            param_hint="--data-dir",
        )
    _use_data_dir(data_dir)
    if data_dir is None and "data_dir" in (chosen_settings := get_settings()).model_fields_set:
        # (MARSA_DATA_DIR, from the environment or .env, is read the same way: only the
        # default, ~/.marsa, is made on first use and filled with MARSA's own docs)
        where = chosen_settings.data_dir.expanduser()
        if not where.is_dir():
            raise typer.BadParameter(
                f"{where} does not exist, so nothing was ingested there. Check the path, or "
                f"ingest documents into it first: marsa ingest PATH (or unset MARSA_DATA_DIR "
                f"to use ~/.marsa)",
                param_hint="MARSA_DATA_DIR",
            )
    from backend.mcp_client import ServerUnavailable
    from backend.research_cli import render, research_command

    if fmt not in ("md", "json"):
        raise typer.BadParameter("--format must be md or json")
    if not query.strip():
        raise typer.BadParameter("the question is empty")
    chosen = [s.strip() for s in sources.split(",") if s.strip()] if sources else None
    try:
        result = asyncio.run(
            research_command(
                query,
                get_settings(),
                sources=chosen,
                max_iterations=max_iterations,
                quiet=quiet,
                console=err,
                follow_up=follow_up,
            )
        )
    except ServerUnavailable as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(3) from exc
    except ValueError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from exc
    text = render(result, fmt)
    if output:
        output.write_text(text)
        err.print(f"wrote {output}")
    else:
        sys.stdout.write(text + ("\n" if not text.endswith("\n") else ""))
    if result.status != "done":
        raise typer.Exit(1)


@eval_app.command("retrieval")
def eval_retrieval(
    corpus: Annotated[Path, typer.Option(exists=True, dir_okay=False)],
    claims: Annotated[Path, typer.Option(exists=True, dir_okay=False)],
    qrels: Annotated[Path, typer.Option(exists=True, dir_okay=False)],
    mode: Annotated[str, typer.Option(help="semantic, keyword, hybrid or all")] = "all",
    data_dir: Annotated[
        Path | None, typer.Option(help="Store to build (default: a temp dir)")
    ] = None,
) -> None:
    """Retrieval quality and speed on a SciFact-format corpus; one JSON object on stdout."""
    from backend.evals.retrieval import MODES, run

    modes = list(MODES) if mode == "all" else [mode]
    if any(m not in MODES for m in modes):
        raise typer.BadParameter(f"mode must be one of {', '.join(MODES)} or all")
    with tempfile.TemporaryDirectory(prefix="marsa-eval-") as tmp:
        settings = get_settings().model_copy(update={"data_dir": data_dir or Path(tmp)})
        report = run(corpus, claims, qrels, modes, settings)
    sys.stdout.write(json.dumps(report) + "\n")


@eval_app.command("hotpotqa")
def eval_hotpotqa(
    data: Annotated[Path, typer.Option(exists=True, dir_okay=False)],
    limit: Annotated[int | None, typer.Option(min=1, help="Ask only the first N questions")] = None,
    data_dir: Annotated[
        Path | None, typer.Option(help="Store to build (default: a temp dir)")
    ] = None,
    details: Annotated[
        Path | None,
        typer.Option(dir_okay=False, help="Write each question's answer and report here (JSONL)"),
    ] = None,
) -> None:
    """Multi-hop research quality of the whole graph; one JSON object on stdout."""
    from backend.evals.hotpotqa import run
    from backend.reasoning.offline.engine import OfflineEngine

    with tempfile.TemporaryDirectory(prefix="marsa-hotpot-") as tmp:
        settings = get_settings().model_copy(update={"data_dir": data_dir or Path(tmp)})
        report = asyncio.run(run(data, limit, settings, OfflineEngine, details=details))
    sys.stdout.write(json.dumps(report) + "\n")


@eval_app.command("qa")
def eval_qa(
    corpus: Annotated[Path, typer.Option(exists=True, file_okay=False, help="Folder to ask")],
    questions: Annotated[Path, typer.Option(exists=True, dir_okay=False, help="Questions (JSONL)")],
    details: Annotated[
        Path | None,
        typer.Option(dir_okay=False, help="Write each question's answer and report here (JSONL)"),
    ] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Ask only the first N questions")] = None,
    data_dir: Annotated[
        Path | None,
        typer.Option(help="Store to use; one that already holds the folder is not re-embedded"),
    ] = None,
) -> None:
    """Questions over a documentation folder, scored on the direct answer; JSON on stdout."""
    from backend.evals.qa import CorpusError, QuestionFileError, run
    from backend.reasoning.offline.engine import OfflineEngine

    with tempfile.TemporaryDirectory(prefix="marsa-qa-") as tmp:
        settings = get_settings().model_copy(update={"data_dir": data_dir or Path(tmp)})
        try:
            report = asyncio.run(
                run(corpus, questions, settings, OfflineEngine, limit=limit, details=details)
            )
        except (QuestionFileError, CorpusError) as exc:
            err.print(f"[red]error:[/] {exc}")
            raise typer.Exit(2) from exc
    sys.stdout.write(json.dumps(report) + "\n")


@eval_app.command("scifact-verify")
def eval_scifact_verify(
    corpus: Annotated[Path, typer.Option(exists=True, dir_okay=False)],
    claims: Annotated[Path, typer.Option(exists=True, dir_okay=False)],
    limit: Annotated[int | None, typer.Option(min=1, help="Check only the first N claims")] = None,
    evidence_k: Annotated[
        int, typer.Option(min=1, max=50, help="Abstracts retrieved per claim")
    ] = 5,
    data_dir: Annotated[
        Path | None,
        typer.Option(help="Store to use; an existing store with the corpus skips re-embedding"),
    ] = None,
    details: Annotated[
        Path | None,
        typer.Option(dir_okay=False, help="Write one JSON line per claim (verdict, evidence)"),
    ] = None,
) -> None:
    """The fact-checker's verdicts against SciFact labels; one JSON object on stdout."""
    from backend.evals.scifact_verify import run
    from backend.reasoning.offline.engine import OfflineEngine

    with tempfile.TemporaryDirectory(prefix="marsa-scifact-") as tmp:
        settings = get_settings().model_copy(update={"data_dir": data_dir or Path(tmp)})
        report = asyncio.run(
            run(
                corpus,
                claims,
                settings,
                OfflineEngine(),
                limit=limit,
                evidence_k=evidence_k,
                details=details,
            )
        )
    sys.stdout.write(json.dumps(report) + "\n")


if __name__ == "__main__":
    app()
