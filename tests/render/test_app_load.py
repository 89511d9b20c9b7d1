"""Loading saves into the table: `skirmish play --load SAVE` from a cold start (a fresh
process, where no rule system's engine has been imported yet) and Ctrl+O loading a save
of another rule system than the one on screen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from game.render.app import App
from game.render.session import SAVE_NAME, Session
from game.rules.registry import RULESETS
from game.scenario import load_scenario
from game.sequencer.game import Game
from tests.conftest import REPO, SCENARIOS
from tests.render.driving import press

DEMOS = {name: SCENARIOS / f"{name}-demo.toml" for name in RULESETS}


def played_save(ruleset: str, path: Path, declarations: int = 6, seed: int = 3) -> Game:
    """A save of the demo of `ruleset` after a few declarations of the simple player."""
    scenario = load_scenario(DEMOS[ruleset])
    game = Game(scenario, seed)
    player = scenario.ruleset.player("simple")(game.engine)
    for _ in range(declarations):
        if game.state.finished:
            break
        game.declare(player.choose(game.state, game.awaiting()))
    assert len(game.declarations) > 1
    game.save(path)
    return game


@pytest.mark.parametrize("ruleset", sorted(DEMOS))
def test_play_load_opens_a_save_of_each_system_from_a_cold_start(
    ruleset: str, tmp_path: Path
) -> None:
    save = tmp_path / f"{ruleset}.json"
    played_save(ruleset, save)
    shot = tmp_path / "shot.png"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYTHONPATH=str(REPO))
    done = subprocess.run(
        [sys.executable, "-m", "game.cli", "play", "--load", str(save), "--frames", "1",
         "--screenshot", str(shot)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and "viewer" not in done.stdout
    assert pygame.image.load(str(shot)).get_size() == (1280, 800)


@pytest.mark.parametrize(("on_screen", "saved"), [("infinity", "necromunda"),
                                                  ("necromunda", "open-rebellion"),
                                                  ("open-rebellion", "infinity")])  # fmt: skip
def test_ctrl_o_loads_a_save_of_another_rule_system(
    on_screen: str, saved: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = played_save(saved, tmp_path / SAVE_NAME)
    scenario = load_scenario(DEMOS[on_screen])
    app = App.window(scenario, size=(900, 640), session=Session.start(scenario))
    press(app, pygame.K_o, mod=pygame.KMOD_CTRL)
    assert app.session is not None
    assert app.session.scenario.ruleset.name == saved
    assert app.session.game.declarations == game.declarations
    assert app.session.game.log() == game.log()
    assert app.state.message == f"loaded {SAVE_NAME}"
