"""`marsa serve` on a machine where no LLM provider package is installed.

``None`` in ``sys.modules`` makes ``import langchain_openai`` (and the others) raise
ImportError, as it does where the package was never installed, whatever this machine has.
Run it as ``python -m tests.backend.api.no_llm_package_serve serve --port N``
(``api_server(module=…)``).
"""

from __future__ import annotations

import sys

from backend.llm import PROVIDERS

for module_name, _, _ in PROVIDERS.values():
    sys.modules[module_name] = None  # type: ignore[assignment]

from backend.cli import app  # noqa: E402  (after the packages are made unimportable)

if __name__ == "__main__":
    app()
