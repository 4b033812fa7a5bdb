"""What a document sent to MARSA may be: one set of rules for the document store's MCP tools
and the REST API (which imports them), so both refuse the same input with the same words.

The patterns are written for every engine that reads them: Python's ``re``, pydantic's Rust
regex, and the ECMA dialect of JSON Schema (clients and schemathesis generate from them).
"Blank" is what ``str.strip()`` removes, so a value the pattern accepts is never empty once
trimmed.
"""

from __future__ import annotations

import base64
import binascii
import re
from datetime import date
from typing import Any

MAX_TITLE_CHARS = 500
MAX_CONTENT_CHARS = 5_000_000
MAX_URL_CHARS = 2000
MAX_FILENAME_CHARS = 200
MAX_FILTER_KEYS = 32
MAX_ARGUMENT_DEPTH = 32
"""Deepest nesting of lists and objects a tool call's arguments may have. Far deeper than
any tool needs, far below where a JSON parser gives up (about 200 levels for the MCP SDK's,
which then drops the message unanswered, so the caller waits for its timeout)."""

WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
"""Every character ``str.isspace()`` is true for (tests check the list is whole)."""
_WS_CLASS = "".join(f"\\u{ord(c):04x}" for c in WHITESPACE)
NO_NUL = r"^[^\u0000]*$"
"""No NUL character (PostgreSQL text cannot hold one, and no document or question needs it)."""
TEXT = rf"^[^\u0000]*[^\u0000{_WS_CLASS}][^\u0000]*$"
"""Not blank, and no NUL character."""
DATE = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
URL = (
    rf"^[{_WS_CLASS}]*[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9._~%!$&'()*+,;=:-]+"
    rf"(?:[/?#][^\u0000]*)?[{_WS_CLASS}]*$"
)
"""An http or https address with a host (letters, digits and the punctuation a host and port
may have; no user@ part), spaces around it allowed (they are trimmed)."""


class InvalidInput(ValueError):
    """A value the rules refuse; the message says what to send instead."""


def text(name: str, value: str, max_chars: int) -> str:
    """A title, content or question: 1 to ``max_chars`` characters, not blank, no NUL;
    returned trimmed."""
    if "\x00" in value:
        raise InvalidInput(f"{name} must not contain NUL characters")
    if not value.strip():
        raise InvalidInput(f"{name} must not be blank")
    if len(value) > max_chars:
        raise InvalidInput(f"{name} is longer than {max_chars:,} characters")
    return value.strip()


def source_url(value: str) -> str:
    """A document's web address: reports and exports link to it, so a ``javascript:`` or
    ``data:`` URL would run there. ``URL``, no NUL; returned trimmed."""
    if len(value) > MAX_URL_CHARS:
        raise InvalidInput(f"source_url is longer than {MAX_URL_CHARS:,} characters")
    if "\x00" in value:
        raise InvalidInput("source_url must not contain NUL characters")
    if not re.match(URL, value):
        raise InvalidInput(
            "source_url must be an http:// or https:// address, e.g. https://example.org/page"
        )
    return value.strip()


def published_date(value: Any) -> str:
    """A publication date as YYYY-MM-DD, a real day of the calendar."""
    if not isinstance(value, str) or not re.match(DATE, value):
        raise InvalidInput(f"published_date {value!r} is not a date; use YYYY-MM-DD")
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise InvalidInput(f"published_date {value!r} is not a date; use YYYY-MM-DD") from None


def filename(value: str) -> str:
    """A file's name as sent: 1 to 200 characters, no NUL, not blank."""
    if "\x00" in value or not value.strip():
        raise InvalidInput("the file name must not be blank or contain NUL characters")
    if len(value) > MAX_FILENAME_CHARS:
        raise InvalidInput(
            f"the file name must be 1–{MAX_FILENAME_CHARS} characters (rename the file)"
        )
    return value


def file_bytes(data_base64: str) -> bytes:
    """The bytes of a file sent as base64: valid base64, and not empty."""
    try:
        data = base64.b64decode(data_base64, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise InvalidInput(f"data_base64 is not valid base64: {exc}") from exc
    if not data:
        raise InvalidInput("the file is empty (data_base64 holds no bytes)")
    return data


def depth(value: Any, limit: int = MAX_ARGUMENT_DEPTH) -> int:
    """How deep lists and objects nest in ``value`` (a scalar is 0), counted without
    recursion and only up to ``limit + 1``, so a hostile value costs little."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list | tuple):
            level += 1
            deepest = max(deepest, level)
            if level > limit:
                return deepest
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level) for child in children)
    return deepest
