"""The tester's small wording findings (session 6, finding 18): counts said as a person
says them, no engine shorthand, no click metavars, a version."""

from __future__ import annotations

import pytest

from game.cli import main


def test_open_rebellion_shoot_says_line_of_sight(capsys: pytest.CaptureFixture[str]) -> None:
    """'9 attack dice (4 with LOS)': the models in line of sight, in words."""
    argv = ["shoot", "open-rebellion-demo", "--attacker", "gov-b1", "--target", "reb-b2"]
    assert main(argv) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "attack dice (4 models in line of sight) against" in first
    assert "LOS" not in first
