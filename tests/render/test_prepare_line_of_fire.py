"""The first run after an install compiles the line-of-fire loops (numba, about 6 s of
one core, once): the play window froze at its first sight line and said nothing (session
7's note). It says so on its first frame, then compiles them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from game.render.app import PREPARING, App
from game.render.session import Session
from game.scenario import load_scenario
from tests.conftest import REPO, SCENARIOS


def _watched(monkeypatch: pytest.MonkeyPatch, due: bool) -> tuple[App, list[tuple[str, str]]]:
    """A window on the Necromunda demo whose kernels are (or are not) `due` to compile,
    noting in order each frame drawn (with its message) and the warm-up game."""
    from game.geometry import compiled
    from game.playtest import batch

    seen: list[tuple[str, str]] = []
    monkeypatch.setattr(compiled, "compile_due", lambda: due)
    monkeypatch.setattr(batch, "play_one", lambda *a, **k: seen.append(("game", "")))
    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    app = App(scenario, session=Session.start(scenario, 2))
    draw = app.draw

    def drawn() -> Any:
        seen.append(("frame", app.state.message))
        return draw()

    monkeypatch.setattr(app, "draw", drawn)
    return app, seen


def test_the_first_frame_says_it_prepares_the_line_of_fire_before_it_compiles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app, seen = _watched(monkeypatch, due=True)
    before = app.state.message
    app.prepare_line_of_fire()
    assert seen == [("frame", PREPARING), ("game", "")]
    assert app.state.message == before


def test_nothing_is_said_when_the_loops_are_in_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app, seen = _watched(monkeypatch, due=False)
    app.prepare_line_of_fire()
    assert seen == []


def test_the_cache_is_read_as_numba_reads_it(tmp_path: Path) -> None:
    """An empty numba cache folder (the first run after an install): due; once a sight
    line has been drawn in this process: not."""
    from game.geometry.compiled import compile_due
    from game.playtest.batch import play_one

    code = "from game.geometry.compiled import compile_due; print(compile_due())"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(REPO)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "True"
    play_one(load_scenario(SCENARIOS / "open-rebellion-mirror.toml"), 0, 0)
    assert compile_due() is False
