"""Which file Ctrl+S writes and Ctrl+O opens (tester9): a loaded game saves back to its
own file and opens it again; a new game never replaces a save of another game, taking a
new name the panel says; a new game that continues the file's game saves over it."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.render.app import App
from game.render.game_actions import LoadGame
from game.render.session import SAVE_NAME, Session
from game.scenario import load_scenario
from game.scenario.saves import read_save
from game.sequencer.game import Game
from tests.render.driving import press
from tests.render.test_app_load import DEMOS, played_save


def declare_once(app: App) -> None:
    """One declaration of the simple player's, made in the window (a person's)."""
    session = app.session
    assert session is not None
    game = session.game
    player = game.setup.ruleset.player("simple")(game.engine)
    app.declare(player.choose(game.state, game.awaiting()))


def new_window(ruleset: str, seed: int) -> App:
    scenario = load_scenario(DEMOS[ruleset])
    return App.window(scenario, size=(900, 640), session=Session.start(scenario, seed))


def test_a_new_game_never_replaces_a_save_of_another_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    other = played_save("infinity", tmp_path / SAVE_NAME)
    before = (tmp_path / SAVE_NAME).read_bytes()
    app = new_window("necromunda", 3)
    declare_once(app)
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert app.state.message == f"saved skirmish-save-2.json ({SAVE_NAME} holds another game: kept)"
    assert (tmp_path / SAVE_NAME).read_bytes() == before
    declare_once(app)
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)  # its own file from now on
    assert app.state.message == "saved skirmish-save-2.json"
    assert {p.name for p in tmp_path.iterdir()} == {SAVE_NAME, "skirmish-save-2.json"}
    game = app.session.game  # type: ignore[union-attr]
    press(app, pygame.K_o, mod=pygame.KMOD_CTRL)  # opens the game's own file
    assert app.state.message == "loaded skirmish-save-2.json"
    assert app.session.game.log() == game.log()  # type: ignore[union-attr]
    assert app.session.game.log() != other.log()  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", [3, 4])
def test_a_new_game_of_the_same_start_replaces_only_an_earlier_step_of_itself(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Game(load_scenario(DEMOS["necromunda"]), 3).save(tmp_path / SAVE_NAME)
    app = new_window("necromunda", seed)
    declare_once(app)
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    # seed 3: the file holds this game before its first declaration; seed 4: another game
    expected = SAVE_NAME if seed == 3 else "skirmish-save-2.json"
    assert app.state.message.startswith(f"saved {expected}")


def test_a_loaded_game_saves_back_to_its_own_file_and_ctrl_o_opens_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    played_save("infinity", tmp_path / SAVE_NAME)
    mine = tmp_path / "games" / "mine.json"
    mine.parent.mkdir()
    played_save("necromunda", mine)
    app = new_window("infinity", 1)
    LoadGame(mine).perform(app)  # as a save named in a dialog would be opened
    declare_once(app)
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert app.state.message == "saved mine.json"
    game = app.session.game  # type: ignore[union-attr]
    assert read_save(mine).declarations == tuple(game.declarations)
    assert len(game.declarations) == 7
    assert {p.name for p in tmp_path.iterdir()} == {SAVE_NAME, "games"}
    press(app, pygame.K_o, mod=pygame.KMOD_CTRL)
    assert app.state.message == "loaded mine.json"
    assert app.session.scenario.ruleset.name == "necromunda"  # type: ignore[union-attr]


def test_play_load_saves_back_to_the_save_it_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "mine.json"
    played_save("necromunda", mine)
    seen: list[tuple[Path | None, Path | None]] = []

    def run(app: App, frames: int | None) -> None:
        seen.append((app.save_path, app.opened_from))

    monkeypatch.setattr(App, "run", run)
    monkeypatch.setattr(App, "save_screenshot", lambda app, path: None)
    assert main(["play", "--load", str(mine), "--frames", "1"]) == 0
    assert seen == [(mine, mine)]
