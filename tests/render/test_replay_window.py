"""A saved game stepped through on the table (issue 15, "Replay on the table"): for
each rule system, Right/Left one declaration, Up/Down a turn, Home/End, the table as
the game stood at each step; taking over at a middle step plays on as a new game,
saved apart, and the original save stays byte-identical."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.render.app import App
from game.render.game_actions import LoadGame
from game.render.panel import declares_next
from game.render.play_rules import Prompt
from game.render.session import SAVE_NAME, Session
from game.scenario import load_scenario
from game.sequencer.game import Game
from tests.render.driving import panel, press
from tests.render.test_app_load import DEMOS, played_save

SYSTEMS = ["infinity", "necromunda", "open-rebellion"]


def _replayed(game: Game, steps: int) -> Game:
    """The saved game replayed afresh to `steps` declarations (the reference)."""
    fresh = Game(game.setup, game.seed)
    for declaration in game.declarations[:steps]:
        fresh.declare(declaration)
    return fresh


def _positions(app: App) -> dict[str, tuple[float, float]]:
    return {m.id: m.at for m in app.scenario.models}


@pytest.mark.parametrize("system", SYSTEMS)
def test_step_through_a_save_and_take_over(
    system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    save = tmp_path / SAVE_NAME
    game = played_save(system, save, declarations=24, seed=5)
    original = save.read_bytes()
    last = len(game.declarations)
    scenario = load_scenario(DEMOS[system])
    app = App(scenario, size=(1024, 700))
    app.perform(LoadGame(save, first=True))
    assert app.replay is not None and app.replay.at == 0
    assert app.session is not None and app.session.game.declarations == []
    assert "declaration 0 of" in app.state.replay

    # Right: one declaration at a time, with that declaration's events in the log.
    for step in range(1, 4):
        before = len(app.state.log)
        press(app, pygame.K_RIGHT)
        assert app.replay.at == step
        reference = _replayed(game, step)
        assert app.session.game.state == reference.state
        assert app.session.game.events == reference.events
        assert len(app.state.log) > before
    # Left goes back: the table as it stood.
    press(app, pygame.K_LEFT)
    assert app.replay.at == 2
    assert app.session.game.state == _replayed(game, 2).state
    assert _positions(app) == {m.id: m.at for m in _replayed(game, 2).state.models
                               if m.id in _positions(app)}  # fmt: skip
    # End and Home.
    press(app, pygame.K_END)
    assert app.replay.at == last and app.session.game.state == game.state
    press(app, pygame.K_HOME)
    assert app.replay.at == 0
    # Up: the first declaration of a later turn; Down: back to where that turn starts.
    press(app, pygame.K_UP)
    fresh = Game(game.setup, game.seed)
    turn_of = [fresh.state.turn]
    for declaration in game.declarations:
        fresh.declare(declaration)
        turn_of.append(fresh.state.turn)
    up = app.replay.at
    assert up == last or turn_of[up] > turn_of[0]
    if up < last:
        assert all(turn_of[k] == turn_of[0] for k in range(up))
        press(app, pygame.K_RIGHT)
        press(app, pygame.K_DOWN)
        assert app.replay.at == up  # the start of that turn
    # Nobody declares in the middle of a replay; the computer waits too.
    middle = last // 2
    while app.replay.at != middle:
        press(app, pygame.K_RIGHT if app.replay.at < middle else pygame.K_LEFT)
    press(app, pygame.K_e)
    assert "T takes over" in app.state.message
    for _ in range(30):
        app.frame()
    assert app.replay is not None and app.replay.at == middle

    # T takes over: a new game from the middle step, played on.
    press(app, pygame.K_t)
    assert app.replay is None
    assert "a new game" in app.state.message
    session = app.session
    assert session is not None and len(session.game.declarations) == middle
    simple = scenario.ruleset.player("simple")(session.game.engine)
    for _ in range(3):
        if session.game.state.finished:
            break
        app.declare(simple.choose(session.game.state, session.game.awaiting()))
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    branch = tmp_path / f"{save.stem}-from-{middle}.json"
    assert app.state.message == f"saved {branch.name}"
    assert save.read_bytes() == original  # the save untouched
    loaded = Session.load(branch)
    assert loaded.game.declarations[:middle] == game.declarations[:middle]
    assert len(loaded.game.declarations) > middle


def test_replay_window_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    played_save("necromunda", save, declarations=8)
    original = save.read_bytes()
    shot = tmp_path / "replay.png"
    capsys.readouterr()
    code = main(["replay", str(save), "--window", "--frames", "2", "--screenshot", str(shot),
                 "--size", "800x600"])  # fmt: skip
    assert code == 0 and shot.exists()
    # its size, as play's and edit's screenshots say it (tester11: it said only the step)
    said = capsys.readouterr().out.splitlines()
    assert f"{shot}: 800x600 pixels after 2 frames, game.json at its first step" in said
    assert save.read_bytes() == original
    assert main(["replay", str(tmp_path / "nothing.json"), "--window", "--frames", "1"]) == 2


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_replay_panel_says_who_declares_next_not_the_keys(
    system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tester's finding 18, session 6: at declaration 0 the panel said 'select a trooper:
    M/S/D/I, E ends the turn', keys a replay does not take."""
    monkeypatch.chdir(tmp_path)
    save = tmp_path / SAVE_NAME
    played_save(system, save, declarations=6, seed=5)
    app = App(load_scenario(DEMOS[system]), size=(1024, 700))
    app.perform(LoadGame(save, first=True))
    text = panel(app)
    # no verb to agree with the side's name ("Rebels declares next" read wrong)
    assert "to declare next" in text and "declares next" not in text
    assert "M/S/D/I" not in text and "select a" not in text
    # tester7's finding 18: nor does the footer list the declaring keys
    app.draw()
    footer = " ".join(text for text, _ in app.cache.panel.drawn)
    assert app.session is not None
    assert not any(keys in footer for keys in app.session.rules.keys_help)
    assert "every key" in footer


def test_who_declares_next_reads_right_for_a_side_named_in_the_plural() -> None:
    # the dice log makes Open Rebellion's sides plural ("Rebels end ..."): the panel
    # read "Rebels declares next"
    prompt = Prompt("rebels", "activation", ("rebel-1",), "", status="2 units left")
    said = declares_next(prompt, {"rebels": "Rebels"})
    assert said == "Rebels to declare next: 2 units left"
