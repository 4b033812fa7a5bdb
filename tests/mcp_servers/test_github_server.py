"""The GitHub MCP server in memory, against a local server speaking the GitHub REST API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from fastmcp import Client
from fastmcp.exceptions import ToolError
from pydantic import SecretStr

from backend.config import Settings
from mcp_servers.github_server import create_server
from mcp_servers.github_server.settings import GithubSettings
from tests.fakes.github_api import FakeGitHub, sample_github
from tests.fakes.github_data import SAMPLE_TOKEN as TOKEN
from tests.fakes.github_data import FakeIssue, FakeRepo
from tests.helpers import free_port

# Calls that might sleep until a rate-limit reset (an hour away) fail at this deadline instead.
DEADLINE_S = 60


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    api = sample_github()
    yield api
    api.stop()


def settings_for(fake: FakeGitHub, token: str | None = TOKEN, **extra: Any) -> Settings:
    return Settings(
        github_base_url=fake.url,
        github_token=SecretStr(token) if token else None,
        **extra,
    )


async def call(settings: Settings, tool: str, **arguments: Any) -> dict[str, Any]:
    async with Client(create_server(GithubSettings.taken_from(settings))) as client:
        result = await client.call_tool(tool, arguments)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def call_error(settings: Settings, tool: str, **arguments: Any) -> str:
    with anyio.fail_after(DEADLINE_S), pytest.raises(ToolError) as caught:
        await call(settings, tool, **arguments)
    return str(caught.value)


# --- listing ------------------------------------------------------------------


async def test_tools_are_listed_read_only_with_output_schemas(fake: FakeGitHub) -> None:
    async with Client(create_server(GithubSettings.taken_from(settings_for(fake)))) as client:
        tools = {tool.name: tool for tool in await client.list_tools()}
    assert set(tools) == {"search_code", "get_issues", "search_repositories", "get_file"}
    for tool in tools.values():
        assert tool.annotations is not None and tool.annotations.readOnlyHint is True
        assert tool.annotations.openWorldHint is True
        assert tool.outputSchema is not None and tool.outputSchema["type"] == "object"
    assert tools["get_issues"].inputSchema["properties"]["limit"]["maximum"] == 100
    assert tools["search_code"].inputSchema["properties"]["limit"]["maximum"] == 50


async def test_building_and_listing_the_server_sends_no_request(fake: FakeGitHub) -> None:
    async with Client(create_server(GithubSettings.taken_from(settings_for(fake)))) as client:
        await client.list_tools()
    assert fake.requests == []


# --- tools ----------------------------------------------------------------------


async def test_get_issues_returns_links_labels_counts_and_dates(fake: FakeGitHub) -> None:
    out = await call(settings_for(fake), "get_issues", repo="octo/widgets")
    assert [i["number"] for i in out["results"]] == [2, 1]
    crash = out["results"][1]
    assert crash["html_url"] == "https://github.com/octo/widgets/issues/1"
    assert crash["repo"] == "octo/widgets"
    assert crash["labels"] == ["bug"] and crash["comments"] == 3
    assert crash["created_at"] == "2024-01-01T00:00:00Z"


async def test_get_issues_flags_pull_requests(fake: FakeGitHub) -> None:
    out = await call(settings_for(fake), "get_issues", repo="octo/widgets")
    flags = {i["number"]: i["is_pull_request"] for i in out["results"]}
    assert flags == {1: False, 2: True}


async def test_get_issues_cuts_long_bodies_to_an_excerpt(fake: FakeGitHub) -> None:
    out = await call(settings_for(fake), "get_issues", repo="octo/widgets")
    assert out["results"][1]["body_excerpt"] == "x" * 500 + "…"


async def test_get_issues_passes_state_and_labels_to_github(fake: FakeGitHub) -> None:
    out = await call(
        settings_for(fake), "get_issues", repo="octo/widgets", state="all", labels=["bug"]
    )
    assert [i["number"] for i in out["results"]] == [3, 1]
    assert fake.requests[-1].query["labels"] == "bug"


async def test_get_issues_asks_for_one_page_of_limit_issues(fake: FakeGitHub) -> None:
    many = fake.add_repo(FakeRepo("octo/busy"))
    many.issues = [FakeIssue(n, f"Issue {n}") for n in range(1, 151)]
    out = await call(settings_for(fake), "get_issues", repo="octo/busy", limit=100)
    assert len(out["results"]) == 100
    assert len(fake.requests) == 1 and fake.requests[0].query["per_page"] == "100"


async def test_search_code_returns_files_with_text_match_snippets(fake: FakeGitHub) -> None:
    out = await call(settings_for(fake), "search_code", query="make_widget", repo="octo/widgets")
    core = next(r for r in out["results"] if r["path"] == "src/widgets/core.py")
    assert core["repo"] == "octo/widgets"
    assert core["snippet"] == "def make_widget(size):"
    assert core["html_url"].startswith("https://github.com/octo/widgets/blob/")
    assert len(core["sha"]) == 40 and out["total_count"] == 2


async def test_search_code_sends_qualifiers_and_asks_for_text_matches(fake: FakeGitHub) -> None:
    out = await call(settings_for(fake), "search_code", query="make_widget", language="rust")
    assert [r["repo"] for r in out["results"]] == ["octo/gadgets"]
    request = fake.requests[-1]
    assert request.query["q"] == "make_widget language:rust"
    assert "text-match" in request.headers["accept"]


async def test_search_code_without_token_says_to_set_one(fake: FakeGitHub) -> None:
    message = await call_error(settings_for(fake, token=None), "search_code", query="widget")
    assert "401" in message and "set GITHUB_TOKEN" in message


async def test_search_code_in_an_unknown_repo_explains_the_422(fake: FakeGitHub) -> None:
    message = await call_error(settings_for(fake), "search_code", query="x", repo="octo/none")
    assert "422" in message and "qualifiers" in message and "cannot be searched" in message


async def test_search_repositories_returns_stars_topics_and_dates(fake: FakeGitHub) -> None:
    out = await call(settings_for(fake), "search_repositories", query="widgets")
    assert [r["full_name"] for r in out["results"]] == ["octo/widgets", "octo/gadgets"]
    top = out["results"][0]
    assert top["stars"] == 420 and top["topics"] == ["ui", "widgets"]
    assert top["html_url"] == "https://github.com/octo/widgets"
    assert top["updated_at"] == "2024-06-01T12:00:00Z" and top["language"] == "Python"


async def test_get_file_returns_decoded_text_with_its_link(fake: FakeGitHub) -> None:
    out = await call(
        settings_for(fake), "get_file", repo="octo/widgets", path="src/widgets/core.py"
    )
    assert out["content"] == "def make_widget(size):\n    return {'size': size}\n"
    assert out["html_url"] == "https://github.com/octo/widgets/blob/main/src/widgets/core.py"
    assert out["truncated"] is False and out["size"] == len(out["content"])


async def test_get_file_reads_the_file_at_a_ref(fake: FakeGitHub) -> None:
    out = await call(
        settings_for(fake), "get_file", repo="octo/widgets", path="README.md", ref="v1"
    )
    assert out["content"] == "# Widgets v1\n" and out["ref"] == "v1"
    assert fake.requests[-1].query == {"ref": "v1"}


async def test_get_file_cuts_content_to_max_chars_and_flags_it(fake: FakeGitHub) -> None:
    fake.repos["octo/widgets"].files["main"]["big.txt"] = "word " * 1000
    out = await call(
        settings_for(fake), "get_file", repo="octo/widgets", path="big.txt", max_chars=100
    )
    assert len(out["content"]) == 100 and out["truncated"] is True and out["size"] == 5000


async def test_get_file_flags_binary_files_without_content(fake: FakeGitHub) -> None:
    out = await call(settings_for(fake), "get_file", repo="octo/widgets", path="logo.png")
    assert out["binary"] is True and out["content"] == ""


async def test_get_file_on_a_directory_lists_its_entries(fake: FakeGitHub) -> None:
    message = await call_error(settings_for(fake), "get_file", repo="octo/widgets", path="src")
    assert "is a directory" in message and "widgets" in message


async def test_get_file_sends_each_path_segment_url_encoded(fake: FakeGitHub) -> None:
    fake.repos["octo/widgets"].files["main"]["docs/notes 100%.md"] = "# Notes\n"
    out = await call(settings_for(fake), "get_file", repo="octo/widgets", path="docs/notes 100%.md")
    assert out["content"] == "# Notes\n"
    assert [r.path for r in fake.requests] == [
        "/repos/octo/widgets/contents/docs/notes%20100%25.md"
    ]


@pytest.mark.parametrize(
    "path",
    [
        "../../../../user",
        "src/../../../../user",
        "/user",
        "src/./widgets",
        "src//widgets",
        "src\\widgets",
        "README.md?ref=main",
        "README.md#top",
        "README\x00.md",
        "README\n.md",
    ],
)
async def test_get_file_refuses_a_path_leaving_the_repository_before_any_request(
    fake: FakeGitHub, path: str
) -> None:
    message = await call_error(settings_for(fake), "get_file", repo="octo/widgets", path=path)
    assert "invalid file path" in message
    assert fake.requests == []


@pytest.mark.parametrize(
    "ref", ["main/../../user", "v 1", "-v1", "main:x", "a@{1}", ".hidden", "v\n1"]
)
async def test_get_file_refuses_a_malformed_ref_before_any_request(
    fake: FakeGitHub, ref: str
) -> None:
    message = await call_error(
        settings_for(fake), "get_file", repo="octo/widgets", path="README.md", ref=ref
    )
    assert "invalid ref" in message
    assert fake.requests == []


# --- errors -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("get_issues", {"repo": "widgets"}),
        ("get_file", {"repo": "octo/widgets/extra", "path": "README.md"}),
        ("get_file", {"repo": "octo/..", "path": "README.md"}),
        ("get_file", {"repo": "../octo", "path": "README.md"}),
        ("search_code", {"query": "x", "repo": "https://github.com/octo/widgets"}),
    ],
)
async def test_malformed_repo_is_refused_before_any_request(
    fake: FakeGitHub, tool: str, arguments: dict[str, Any]
) -> None:
    message = await call_error(settings_for(fake), tool, **arguments)
    assert "expected 'owner/name'" in message
    assert fake.requests == []


async def test_missing_repository_is_reported_as_not_found_or_private(fake: FakeGitHub) -> None:
    message = await call_error(settings_for(fake, token=None), "get_issues", repo="octo/nothing")
    assert "'octo/nothing' not found, or it is private" in message
    assert "a token with access is needed" in message


async def test_private_repository_is_read_with_the_token(fake: FakeGitHub) -> None:
    out = await call(settings_for(fake), "get_file", repo="octo/secret", path="plan.md")
    assert out["content"] == "hidden\n"
    assert fake.requests[-1].headers["authorization"] == f"token {TOKEN}"


async def test_rejected_token_says_github_token_was_rejected(fake: FakeGitHub) -> None:
    message = await call_error(
        settings_for(fake, token="ghp_wrong"), "get_issues", repo="octo/widgets"
    )
    assert "GITHUB_TOKEN was rejected" in message


async def test_rate_limit_fails_at_once_with_reset_time_and_token_hint(fake: FakeGitHub) -> None:
    fake.rate_remaining = 0
    message = await call_error(settings_for(fake, token=None), "get_issues", repo="octo/widgets")
    assert "rate limit hit" in message and "resets at" in message
    assert "60/hour (10/min for search); set GITHUB_TOKEN" in message
    assert len(fake.requests) == 1


async def test_secondary_rate_limit_with_retry_after_is_not_waited_for(fake: FakeGitHub) -> None:
    fake.fail_with(403, retry_after=3600)
    message = await call_error(settings_for(fake), "search_repositories", query="widgets")
    assert "secondary rate limit" in message and "retry after 3600 s" in message
    assert len(fake.requests) == 1


async def test_too_many_requests_429_is_neither_retried_nor_waited_for(fake: FakeGitHub) -> None:
    fake.fail_with(429, retry_after=120)
    message = await call_error(settings_for(fake), "get_issues", repo="octo/widgets")
    assert "rate limit" in message and len(fake.requests) == 1


async def test_server_errors_are_retried_at_most_github_retries_times(fake: FakeGitHub) -> None:
    fake.fail_with(500)
    message = await call_error(
        settings_for(fake, github_retries=2), "get_issues", repo="octo/widgets"
    )
    assert "answered 500" in message and "try again later" in message
    assert len(fake.requests) == 3


async def test_a_passing_server_error_is_retried_into_success(fake: FakeGitHub) -> None:
    fake.fail_with(502, times=1)
    out = await call(settings_for(fake), "get_issues", repo="octo/widgets")
    assert len(out["results"]) == 2 and len(fake.requests) == 2


async def test_a_stalled_github_times_out_with_a_hint(fake: FakeGitHub) -> None:
    fake.stall()
    settings = settings_for(fake, github_timeout=1, github_retries=0)
    message = await call_error(settings, "get_issues", repo="octo/widgets")
    assert "did not answer within 1s" in message


async def test_unreachable_github_names_the_base_url(isolated_env: object) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    settings = Settings(github_base_url=url, github_retries=0)
    message = await call_error(settings, "get_issues", repo="octo/widgets")
    assert f"could not reach GitHub at {url}" in message


async def test_token_never_appears_in_error_text_or_log_line(
    fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.token = "ghp_the_right_one"
    fake.echo_auth_in_errors = True  # like a proxy that quotes the request back
    message = await call_error(settings_for(fake), "get_issues", repo="octo/widgets")
    assert "***" in message and TOKEN not in message
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("{") and '"server": "github"' in ln]
    assert len(lines) == 1 and "***" in lines[0]
    assert TOKEN not in err
