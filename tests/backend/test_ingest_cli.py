"""The figures `marsa ingest` shows while it works (backend/ingest_cli.py), on a fake clock."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from backend.ingest_cli import PlainProgress, Rate, duration


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_rate_and_time_left_follow_the_pace_so_far() -> None:
    clock = Clock()
    rate = Rate(total=40, clock=clock)
    clock.now += 5.0
    assert rate.line(10) == "ingesting: 10/40 files · 2.0 files/s · about 15 s left"


def test_before_the_first_file_the_line_says_it_is_starting_and_for_how_long() -> None:
    clock = Clock()
    rate = Rate(total=3, clock=clock)
    clock.now += 65.0
    assert rate.figures(0) == (
        "0.0 files/s · starting, 1 min 5 s so far (the store and its embedding model load "
        "first); time left known after the first file"
    )


@pytest.mark.parametrize(
    ("seconds", "shown"), [(0.4, "0 s"), (59, "59 s"), (125, "2 min 5 s"), (3725, "1 h 2 min")]
)
def test_durations_read_as_seconds_minutes_or_hours(seconds: float, shown: str) -> None:
    assert duration(seconds) == shown


def test_plain_progress_writes_a_line_only_once_its_interval_has_passed() -> None:
    clock, buffer = Clock(), io.StringIO()
    plain = PlainProgress(Console(file=buffer, width=200), Rate(10, clock=clock), every=5.0)
    for step in range(1, 10):
        clock.now += 1.0
        plain.advance(step)
    assert buffer.getvalue().splitlines() == [
        "ingesting: 5/10 files · 1.0 files/s · about 5 s left",
    ]


def test_the_time_left_follows_the_bytes_still_to_go_when_sizes_are_known() -> None:
    clock = Clock()
    # One large file first, then nine small ones: 10 s for the first tenth of the files is
    # most of the work, so about 2 s is left, not 90 s.
    rate = Rate(total=10, clock=clock, sizes=[900_000, *([11_000] * 9)])
    clock.now += 10.0
    assert rate.figures(1) == "0.1 files/s · about 2 s left"


def test_two_tiny_files_first_do_not_make_the_rest_look_endless() -> None:
    clock = Clock()
    # dateutil's docs: two pages of a line each, then 40 and 50 kB of prose and eleven pages
    rate = Rate(total=15, clock=clock, sizes=[85, 97, 40_000, 50_000, *([2_000] * 11)])
    clock.now += 5.0
    rate.advance(1)
    clock.now += 0.5
    rate.advance(2)
    # one file since the first is no pace yet (it was "about 2 h 4 min left"; the ingest
    # took 26 s)
    assert rate.figures(2).endswith("time left known after the next file")
    clock.now += 3.0
    rate.advance(3)
    seconds = int(rate.figures(3).split("about ")[1].split(" s left")[0])
    assert seconds < 60


def test_the_time_left_leaves_out_the_warm_up_the_first_file_paid_for() -> None:
    clock = Clock()
    rate = Rate(total=10, clock=clock, sizes=[100] * 10)
    clock.now += 30.0  # the servers' start and the embedder's warm-up, then file 1
    rate.advance(1)
    assert rate.figures(1) == "0.0 files/s · time left known after the next file"
    clock.now += 2.0
    rate.advance(3)
    # 2 files in the 2 s since the first: 7 to go is about 7 s, not 75 s (32 s for 3 files)
    assert rate.figures(3) == "0.1 files/s · about 7 s left"
