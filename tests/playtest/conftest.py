"""Shared tables for the playtest tests: a small Infinity table that plays fast."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

Write = Callable[..., Path]

SMALL = """
[scenario]
name = "Small"
ruleset = "infinity"
table = [16, 16]
turns = 2

[[scenery]]
id = "box"
kind = "obstacle"
height = 2
polygon = [[6, 7], [10, 7], [10, 9], [6, 9]]

[[side]]
id = "blue"

[[side]]
id = "red"

[[model]]
id = "b1"
side = "blue"
profile = "fusilier"
at = [3, 14]
facing = -90

[[model]]
id = "b2"
side = "blue"
profile = "fusilier"
at = [12, 14]
facing = -90

[[model]]
id = "r1"
side = "red"
profile = "zhanshi"
at = [4, 2]
facing = 90

[[model]]
id = "r2"
side = "red"
profile = "zhanshi"
at = [13, 2]
facing = 90
"""


@pytest.fixture
def small(write_scenario: Write) -> Path:
    """The small table written to a temporary folder."""
    return write_scenario(SMALL, header=False)
