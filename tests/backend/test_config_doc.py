"""docs/configuration.md is generated from Settings and must match it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tests.helpers import REPO_ROOT


def test_configuration_doc_lists_every_setting_as_generated() -> None:
    path = Path(REPO_ROOT) / "scripts" / "config_doc.py"
    spec = importlib.util.spec_from_file_location("config_doc", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    current = (Path(REPO_ROOT) / "docs" / "configuration.md").read_text()
    assert current == module.render(), "run: python scripts/config_doc.py"
