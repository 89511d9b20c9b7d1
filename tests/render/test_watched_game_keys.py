"""Keys in a game the computer plays on every side, as a new user found them: T after
the game has ended."""

from __future__ import annotations

from dataclasses import replace

import pygame

from game.render.app import App
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


def test_t_after_a_watched_game_has_ended_says_there_is_nothing_to_take_over() -> None:
    # the tester: T repeated "game over: PanOceania wins" as a second line in the panel
    session = _watched()
    for _ in range(400):
        if session.game.state.finished:
            break
        session.step_ai()
    app = App(session.scenario, session=session)
    over = session.prompt().text
    assert over.startswith("game over: ")
    press(app, pygame.K_t)
    assert app.state.message == "the game is over: there is nothing to take over"
    assert panel(app).count(over) == 1
