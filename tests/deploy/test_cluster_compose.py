"""deploy/cluster/docker-compose.yml describes the same services as deploy/cluster/Procfile.

No Docker daemon runs here, so the file is checked by its structure: every Procfile process has
a service (with as many replicas), every service a health check, and the settings the replicas
and workers read are MARSA's own, pointing at services and ports that exist."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from backend.config import Settings

CLUSTER = Path(__file__).resolve().parents[2] / "deploy" / "cluster"


def _compose() -> dict[str, Any]:
    return dict(yaml.safe_load((CLUSTER / "docker-compose.yml").read_text()))


def _procfile() -> dict[str, str]:
    lines = (CLUSTER / "Procfile").read_text().splitlines()
    return dict(line.split(":", 1) for line in lines if line.strip() and not line.startswith("#"))


def _env_file() -> dict[str, str]:
    lines = (CLUSTER / "cluster.env").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line.strip() and not line.startswith("#"))


def _port(service: dict[str, Any]) -> int:
    command = service["command"]
    return int(command[command.index("--port") + 1])


def test_every_procfile_process_has_a_service_with_as_many_replicas() -> None:
    services = _compose()["services"]
    wanted = Counter(re.sub(r"\d+$", "", name) for name in _procfile())
    for name, count in wanted.items():
        assert name in services, f"the Procfile's {name} has no service"
        assert services[name].get("deploy", {}).get("replicas", 1) == count, name
    # The Procfile leaves PostgreSQL and Redis to services of their own; compose runs them.
    assert {"postgres", "redis"} <= set(services)


def test_every_service_has_a_health_check() -> None:
    for name, service in _compose()["services"].items():
        assert service.get("healthcheck", {}).get("test"), f"{name} has no health check"


def test_replicas_and_workers_start_once_what_they_need_is_healthy() -> None:
    services = _compose()["services"]
    for name in ("api", "worker"):
        needs = services[name]["depends_on"]
        for dependency in ("postgres", "redis", "docs"):
            assert needs[dependency] == {"condition": "service_healthy"}, (name, dependency)


def test_replicas_and_workers_read_marsas_settings_for_the_distributed_shape() -> None:
    services = _compose()["services"]
    fields = {f"MARSA_{name.upper()}" for name in Settings.model_fields}
    # What the Procfile's processes read from cluster.env, but where to keep local files.
    needed = set(_env_file()) - {"MARSA_CLUSTER_DIR", "MARSA_DATA_DIR"}
    for name in ("api", "worker"):
        env = services[name]["environment"]
        unknown = {k for k in env if k.startswith("MARSA_")} - fields
        assert not unknown, f"{name} sets variables MARSA does not read: {unknown}"
        assert needed <= set(env), f"{name} lacks {needed - set(env)}"
        assert env["MARSA_RUN_IN"] == "workers"
        assert urlsplit(env["MARSA_DATABASE_URL"]).hostname == "postgres"
        assert urlsplit(env["MARSA_REDIS_URL"]).hostname == "redis"
        for key, value in env.items():
            if key.endswith("_SERVER_URL"):
                target = urlsplit(value)
                assert target.hostname in services, (key, value)
                assert target.port == _port(services[target.hostname]), (key, value)


def test_the_mcp_servers_require_the_token() -> None:
    services = _compose()["services"]
    for name in ("docs", "web", "github", "scholarly", "api", "worker"):
        token = services[name]["environment"]["MARSA_MCP_TOKEN"]
        assert token.startswith("${MARSA_MCP_TOKEN:?"), name  # compose refuses to start without
