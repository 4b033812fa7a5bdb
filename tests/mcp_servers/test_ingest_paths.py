"""ingest_file reads a path only inside the folders the operator allowed (in memory)."""

from __future__ import annotations

import base64
import os
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.exceptions import ToolError

from backend.config import Settings
from mcp_servers.document_store import create_server
from mcp_servers.document_store.settings import DocsSettings

ClientFor = Callable[..., AbstractAsyncContextManager[Client]]


@pytest.fixture
def client_for(settings: Settings) -> ClientFor:
    """A client of a server allowed to read the given roots (none: no path at all)."""

    @asynccontextmanager
    async def open_client(*roots: Path) -> AsyncIterator[Client]:
        allowed = settings.model_copy(update={"docs_ingest_roots": [str(r) for r in roots]})
        async with Client(create_server(DocsSettings.taken_from(allowed))) as client:
            yield client

    return open_client


async def call(client: Client, tool: str, **args: Any) -> Any:
    return (await client.call_tool(tool, args)).structured_content


async def total(client: Client) -> int:
    return int((await call(client, "list_documents"))["total"])


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "allowed"
    (folder / "guide").mkdir(parents=True)
    (folder / "guide" / "intro.md").write_text(
        "---\nstatus: Proposal\ndraft: true\n---\n# Intro\nBasalt is a volcanic rock."
    )
    return folder


async def test_no_path_is_read_when_no_roots_are_set(client_for: ClientFor, root: Path) -> None:
    async with client_for() as client:
        with pytest.raises(ToolError, match="MARSA_DOCS_INGEST_ROOTS"):
            await client.call_tool(
                "ingest_file", {"filename": "intro.md", "path": str(root / "guide" / "intro.md")}
            )
        assert await total(client) == 0


async def test_etc_passwd_is_refused_outside_the_roots(client_for: ClientFor, root: Path) -> None:
    async with client_for(root) as client:
        with pytest.raises(ToolError, match=r"outside the folders .*MARSA_DOCS_INGEST_ROOTS"):
            await client.call_tool("ingest_file", {"filename": "passwd.txt", "path": "/etc/passwd"})
        assert await total(client) == 0


async def test_a_link_inside_a_root_to_a_file_outside_is_refused(
    client_for: ClientFor, root: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("the launch code is 0000")
    (root / "innocent.txt").symlink_to(secret)
    async with client_for(root) as client:
        with pytest.raises(ToolError, match="outside the folders"):
            await client.call_tool(
                "ingest_file", {"filename": "innocent.txt", "path": str(root / "innocent.txt")}
            )
        assert await total(client) == 0


async def test_a_dot_dot_escape_from_a_root_is_refused(
    client_for: ClientFor, root: Path, tmp_path: Path
) -> None:
    (tmp_path / "secret.txt").write_text("the launch code is 0000")
    escape = f"{root}/guide/../../secret.txt"
    async with client_for(root) as client:
        with pytest.raises(ToolError, match="outside the folders"):
            await client.call_tool("ingest_file", {"filename": "secret.txt", "path": escape})
        assert await total(client) == 0


async def test_a_file_inside_a_root_is_ingested_with_its_real_path(
    client_for: ClientFor, root: Path
) -> None:
    path = root / "guide" / "intro.md"
    async with client_for(root) as client:
        result = await call(client, "ingest_file", filename="intro.md", path=str(path))
        assert result["documents"][0]["status"] == "added"
        assert result["documents"][0]["source"] == str(path.resolve())


async def test_search_hits_carry_the_relative_path_and_the_declared_status(
    client_for: ClientFor, root: Path
) -> None:
    path = root / "guide" / "intro.md"
    async with client_for(root) as client:
        args = {"filename": "intro.md", "path": str(path), "relative_path": "guide/intro.md"}
        await call(client, "ingest_file", **args)
        (hit,) = (await call(client, "search_documents", query="basalt", n_results=1))["results"]
    assert hit["relative_path"] == "guide/intro.md"
    assert (hit["status"], hit["draft"], hit["deprecated"]) == ("Proposal", True, None)


async def test_a_missing_file_inside_a_root_is_not_readable(
    client_for: ClientFor, root: Path
) -> None:
    async with client_for(root) as client:
        with pytest.raises(ToolError, match="not a readable file"):
            await client.call_tool("ingest_file", {"filename": "x.md", "path": str(root / "x.md")})


async def test_a_named_pipe_inside_a_root_is_refused_without_waiting_for_a_writer(
    client_for: ClientFor, root: Path
) -> None:
    os.mkfifo(root / "pipe.md")
    async with client_for(root) as client:
        with pytest.raises(ToolError, match="not a readable file"):
            await client.call_tool(
                "ingest_file", {"filename": "pipe.md", "path": str(root / "pipe.md")}
            )


async def test_a_file_sent_as_bytes_gets_its_name_as_relative_path(client_for: ClientFor) -> None:
    data = base64.b64encode(b"# Notes\nGneiss is a metamorphic rock.").decode()
    async with client_for() as client:
        await call(client, "ingest_file", filename="notes.md", data_base64=data)
        (hit,) = (await call(client, "search_documents", query="gneiss", n_results=1))["results"]
    assert (hit["relative_path"], hit["source"]) == ("notes.md", "notes.md")


async def test_two_uploads_of_one_name_from_different_folders_stay_two_documents(
    client_for: ClientFor,
) -> None:
    async with client_for() as client:
        for folder, text in (("api", "Tokens expire daily."), ("cli", "Flags come first.")):
            data = base64.b64encode(f"# README\n{text}".encode()).decode()
            await call(
                client,
                "ingest_file",
                filename="README.md",
                data_base64=data,
                relative_path=f"{folder}/README.md",
            )
        assert await total(client) == 2


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("/srv/docs:/home/me/notes", ["/srv/docs", "/home/me/notes"]),
        ('["/srv/docs", "/a:b"]', ["/srv/docs", "/a:b"]),
        ("", []),
    ],
)
def test_ingest_roots_are_read_as_a_path_list_or_json(
    value: str, expected: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MARSA_DOCS_INGEST_ROOTS", value)
    assert Settings().docs_ingest_roots == expected
    assert DocsSettings().docs_ingest_roots == expected  # the server reads it the same way
