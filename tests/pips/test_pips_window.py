"""The pips test system in the window, driven by posted events as a person would:
select, shoot, end the turn, and the computer answers (issue #10)."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from game.render.app import AI_FRAMES, App
from game.render.session import Session
from game.scenario import load_scenario
from tests.pips.play import PipsPlay
from tests.pips.system import SCENARIO, PipsEndTurn, PipsShoot, register_pips, unregister_pips
from tests.render.driving import base, click, press


@pytest.fixture(autouse=True)
def pips_and_display() -> Iterator[None]:
    register_pips()
    pygame.display.init()
    pygame.event.clear()
    yield
    pygame.event.clear()
    unregister_pips()


def test_pips_plays_in_the_window() -> None:
    scenario = load_scenario(SCENARIO)
    app = App(scenario, session=Session.start(scenario, seed=3))
    assert app.session is not None
    assert isinstance(app.session.rules, PipsPlay)
    game = app.session.game
    click(app, base(app, "gold-1"))
    press(app, pygame.K_s)
    click(app, base(app, "grey-1"))
    press(app, pygame.K_RETURN)
    assert game.declarations == [PipsShoot("gold-1", "grey-1")]
    press(app, pygame.K_e)
    assert game.declarations[-1] == PipsEndTurn()
    assert game.awaiting().side == "grey"  # the computer's side
    for _ in range(20 * AI_FRAMES):
        if game.state.finished or game.awaiting().side == "gold":
            break
        app.frame()
    assert game.state.finished or game.awaiting().side == "gold"
    assert len(game.declarations) > 2  # the computer declared for its models
