"""PyGithub, configured so that no call waits on GitHub longer than the settings allow.

PyGithub's defaults are made for scripts that may wait: ``GithubRetry`` sleeps
until the rate-limit reset (up to an hour) and the requester spaces requests by
0.25 s. A tool call must answer promptly instead, so here retries cover only
5xx and network errors, a bounded number of times, and nothing is throttled.
"""

from __future__ import annotations

import math
from typing import Any

from github import Auth, Github
from github.GithubObject import GithubObject
from urllib3.util import Retry

from mcp_servers.github_server.settings import GithubSettings

USER_AGENT = "MARSA-github-mcp"
RETRY_STATUSES = (500, 502, 503, 504)


def bounded_retry(retries: int) -> Retry:
    """Retry GETs on 5xx and network errors ``retries`` times; never on 403/429.

    ``respect_retry_after_header=False`` keeps urllib3 from sleeping on a
    Retry-After header, and ``raise_on_status=False`` hands the last 5xx back to
    PyGithub, which raises it as a GithubException with its status.
    """
    return Retry(
        total=retries,
        backoff_factor=0.2,
        backoff_max=2.0,
        status_forcelist=RETRY_STATUSES,
        allowed_methods=frozenset({"GET"}),
        respect_retry_after_header=False,
        raise_on_status=False,
    )


def request_timeout(settings: GithubSettings) -> int:
    """Seconds per request: PyGithub asserts an int, so round up (0.5 s must not become 0)."""
    return max(1, math.ceil(settings.github_timeout))


def build_github(settings: GithubSettings, per_page: int = 30) -> Github:
    """A Github client for one tool call; building it does no network I/O."""
    token = settings.github_token.get_secret_value() if settings.github_token else ""
    return Github(
        auth=Auth.Token(token) if token else None,
        base_url=settings.github_base_url.rstrip("/"),
        timeout=request_timeout(settings),
        user_agent=USER_AGENT,
        per_page=per_page,
        retry=bounded_retry(settings.github_retries),
        seconds_between_requests=0,
        seconds_between_writes=0,
        # get_repo() then costs no request: the tool's own request reports a 404.
        lazy=True,
    )


def payload(obj: GithubObject) -> dict[str, Any]:
    """The JSON GitHub sent for ``obj``, read without PyGithub's lazy completion.

    Reading an attribute absent from a list payload (``Issue.pull_request`` on a
    plain issue, ``text_matches`` without highlight) makes PyGithub fetch the
    whole object again: one extra request per item, against a 60/hour quota.
    """
    return obj._rawData
