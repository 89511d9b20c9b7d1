"""Keys in a game the computer plays on every side, as a new user found them: T after
the game has ended, and Ctrl+S's confirmation while the computer declares on."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game.render.app import AI_FRAMES, App
from game.render.following import KEPT_FRAMES
from game.render.help import UNDO_KEYS, help_sections
from game.render.panel import COMMON_HELP, foot_keys
from game.render.replay import Replay
from game.render.session import Session
from game.scenario import load_scenario
from tests.conftest import SCENARIOS
from tests.render.driving import panel, press

DEMO = SCENARIOS / "infinity-demo.toml"


def _watched() -> Session:
    """The Infinity demo with the computer on both sides (the simple player: quick)."""
    scenario = load_scenario(DEMO)
    sides = tuple(s.model_copy(update={"player": "simple"}) for s in scenario.sides)
    return Session.start(replace(scenario, sides=sides))


def _ended() -> Session:
    session = _watched()
    for _ in range(400):
        if session.game.state.finished:
            break
        session.step_ai()
    return session


def test_t_after_a_watched_game_has_ended_says_there_is_nothing_to_take_over() -> None:
    # the tester: T repeated "game over: won by PanOceania" as a second line in the panel
    session = _ended()
    app = App(session.scenario, session=session)
    over = session.prompt().text
    assert over.startswith("game over: ")
    press(app, pygame.K_t)
    assert app.state.message == "the game is over: there is nothing to take over"
    assert panel(app).count(over) == 1


def test_t_at_the_end_of_a_replay_of_an_ended_game_says_so_too(tmp_path: Path) -> None:
    # it said "playing on from the last declaration (55)", with nothing to play on
    session = _ended()
    session.save(tmp_path / "ended.json")
    replay = Replay.open(tmp_path / "ended.json")
    app = App(replay.scenario)
    app.open_replay(replay, len(session.game.declarations))
    press(app, pygame.K_t)
    assert app.state.message == "the game is over: there is nothing to take over"
    assert app.replay is replay  # still open: the steps before can be taken over
    press(app, pygame.K_LEFT)
    press(app, pygame.K_t)
    assert app.state.message.startswith("took over at declaration ")


@pytest.mark.parametrize("thinks", [False, True])
def test_ctrl_s_in_a_watched_game_stays_said_while_the_computer_declares_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, thinks: bool
) -> None:
    # the tester: "saved ..." was replaced by the computer's status within a second
    monkeypatch.chdir(tmp_path)
    session = _watched()
    app = App(session.scenario, session=session)
    if thinks:  # a player that takes a while says so on the panel: the notice stays too
        monkeypatch.setattr(session, "ai_slow", lambda: True)
    app.run(frames=AI_FRAMES + 1)
    press(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    said = app.state.message
    assert said.startswith("saved ") and said.endswith(".json")
    assert app.state.log[-1].text == said  # and in the dice log
    made = len(session.game.declarations)
    app.run(frames=app.frames + KEPT_FRAMES - 2)
    assert len(session.game.declarations) > made  # the computer declared meanwhile
    assert said in app.state.message
    # then the panel is the computer's again
    app.run(frames=app.frames + 2 * AI_FRAMES + 2)
    assert said not in app.state.message


def test_keys_after_a_watched_game_has_ended_say_once_what_is_left() -> None:
    # session 10 left it: M repeated "game over: won by PanOceania" as another line
    session = _ended()
    app = App(session.scenario, session=session)
    over = session.prompt().text
    for key in (pygame.K_m, pygame.K_m, pygame.K_i):
        press(app, key)
        assert app.state.message == (  # nothing to undo: the computer declared it all
            "nothing more to declare: Ctrl+S saves the game, Q quits; click a base or "
            "point at an enemy to look at the table"
        )
        assert panel(app).count(over) == 1 and panel(app).count("nothing more") == 1


def test_an_ended_watched_game_offers_no_undo_it_cannot_do() -> None:
    """review11: the key list of an ended game the computer played throughout offered
    Ctrl+Z, which takes nothing back there (the computer declared it all); the panel's
    foot and F1 leave it out (a game a person declared in offers it: test_app_play's
    OVER_HELP)."""
    session = _ended()
    app = App(session.scenario, session=session)
    foot = foot_keys(app.scenario, app.state)
    assert foot == ("drag a base: ruler · wheel: zoom", *COMMON_HELP)
    assert not any("Ctrl+Z" in keys for keys in foot)
    game_keys = dict(help_sections(app.state))["The game"]
    assert not any("Ctrl+Z" in keys for keys in game_keys)
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert app.state.message == "nothing to undo: the computer made every declaration so far"
    assert UNDO_KEYS not in game_keys
