"""`skirmish replay SAVE` (its text) in the first run after an install compiles the
line-of-fire kernels before it tells anything: it says so on stderr, as `play --load`
does, rather than sit silent for seconds (tester 8b); stdout stays the game's log. `play
--load` and `replay --window` say it on stderr too (session 8 left it on their stdout)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.cli import main
from game.geometry import compiled
from game.geometry.compiled import PREPARING
from tests.conftest import SCENARIOS
from tests.scenario.test_saves import played


@pytest.mark.parametrize("due", [True, False])
@pytest.mark.parametrize(
    "command",
    [["replay"], ["play", "--frames", "1", "--load"], ["replay", "--window", "--frames", "1"]],
    ids=" ".join,
)
def test_a_replay_says_it_is_preparing_line_of_fire_on_stderr_when_it_compiles(
    due: bool,
    command: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    save = tmp_path / "game.json"
    played(SCENARIOS / "infinity-demo.toml", save)
    monkeypatch.chdir(tmp_path)  # where a window without a display leaves its picture
    monkeypatch.setattr(compiled, "compile_due", lambda: due)
    assert main([*command, str(save)]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == ([PREPARING] if due else [])
    assert PREPARING not in out
