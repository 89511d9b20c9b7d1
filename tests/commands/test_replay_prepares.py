"""`skirmish replay SAVE` (its text) in the first run after an install compiles the
line-of-fire kernels before it tells anything: it says so on stderr, as `play --load`
does, rather than sit silent for seconds (tester 8b); stdout stays the game's log."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.cli import main
from game.geometry import compiled
from game.geometry.compiled import PREPARING
from tests.conftest import SCENARIOS
from tests.scenario.test_saves import played


@pytest.mark.parametrize("due", [True, False])
def test_replay_says_it_is_preparing_line_of_fire_when_it_compiles(
    due: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    played(SCENARIOS / "infinity-demo.toml", save)
    monkeypatch.setattr(compiled, "compile_due", lambda: due)
    assert main(["replay", str(save)]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == ([PREPARING] if due else [])
    assert PREPARING not in out
