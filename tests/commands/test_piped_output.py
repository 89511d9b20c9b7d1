"""Output piped or redirected is not wrapped: each sentence stays on its line for a file
or another program to read (in a terminal rich wraps to its width)."""

from __future__ import annotations

import pytest

from game.cli import main


def test_piped_shoot_and_playtest_lines_are_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    shot = ["shoot", "necromunda-alley", "--attacker", "goliath-ganger-2", "--target",
            "cawdor-ganger-2"]  # fmt: skip
    assert main(shot) == 0
    lines = capsys.readouterr().out.splitlines()
    rolls = [line for line in lines if "hit roll" in line or "wound roll" in line]
    assert rolls and all("rolled" in line for line in rolls), lines
    assert max(len(line) for line in lines) > 80  # a line longer than the old wrap width
    assert main(["playtest", "necromunda-alley", "--games", "2", "--workers", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    [ended] = [line for line in lines if "how games ended" in line]
    assert ended.rstrip().endswith(("(1 game)", "games)")), lines
    assert any("│ House Goliath " in line for line in lines), lines
