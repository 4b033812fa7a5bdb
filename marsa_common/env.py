"""How a list is read from one environment variable, the same in every process."""

from __future__ import annotations

import json
import os
import re

_JSON_LIST = re.compile(r'^\s*\[\s*("|\])')
"""A value that opens a JSON list of strings, or an empty one; '[::1],…' does not."""


def path_list(value: object) -> object:
    """A JSON list, or paths separated by the system's path separator (':' on Linux)."""
    if isinstance(value, str):
        if _JSON_LIST.match(value):
            return json.loads(value)
        return [part for part in value.split(os.pathsep) if part.strip()]
    return value


def comma_list(value: object) -> object:
    """A JSON list, or items separated by commas ('[::1],localhost' is not JSON)."""
    if isinstance(value, str):
        if _JSON_LIST.match(value):
            return json.loads(value)  # a JSONDecodeError is a ValueError: reported as such
        return [item.strip() for item in value.split(",") if item.strip()]
    return value
