"""The one fence rule: a block closes with a run of its character at least as long."""

from __future__ import annotations

from marsa_common.fences import code_lines, step


def test_a_fence_closes_only_with_its_own_character_at_least_as_long_alone_on_its_line() -> None:
    lines = ["```` md-render", "``` { .html }", "<p>x</p>", "```", "````", "prose"]
    assert code_lines(lines) == [True, True, True, True, True, False]
    fence, fences = None, []
    for line in lines:
        fence, is_fence = step(line, fence)
        fences.append(is_fence)
    assert fences == [True, False, False, False, True, False]  # the inner ``` lines are code
    assert step("~~~~~", "~~~") == (None, True)  # longer closes
    assert step("```", "~~~") == ("~~~", False)  # the other character does not
    assert step("```python", "```") == ("```", False)  # an info string opens, never closes
    assert step("  ~~~ text", None) == ("~~~", True)
    assert step("``", None) == (None, False)
