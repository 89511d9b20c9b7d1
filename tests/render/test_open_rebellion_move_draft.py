"""An Open Rebellion move laid out in the window as the rules take it (FACTS 1.3): the
whole unit by one vector, counted against the standard move's 5" that Enter declares,
or past it against the most a tac-move (C) may go, 5" and a bang a skill die."""

from __future__ import annotations

import dataclasses

import pygame
import pytest

from game.render import frame
from game.render.app import App
from game.render.session import Session
from game.scenario import load_scenario
from game.sequencer.open_rebellion_types import ActionKind, UnitAct
from game.words import over
from tests.conftest import SCENARIOS
from tests.render.driving import at, base, click, press

KEYS = "click where it goes, Enter moves the unit, C tac-moves it"
PAST = 'too far for a standard move (5"); C tac-moves the unit, 5" + its bangs (3" with none)'


def laying_out_a_move() -> App:
    """The demo with a person on both sides, the initiative rolled, M pressed with
    Reb a1 (10, 19.54) selected: Rebel squad a has 4 skill dice."""
    scenario = load_scenario(SCENARIOS / "open-rebellion-demo.toml")
    sides = tuple(s.model_copy(update={"player": "human"}) for s in scenario.sides)
    scenario = dataclasses.replace(scenario, sides=sides)
    app = App.window(scenario, size=(1280, 800), session=Session.start(scenario, 1))
    for model in ("reb-a1", "gov-a1"):
        click(app, base(app, model))
        press(app, pygame.K_e)
    assert app.session is not None and "reb-a1" in app.session.game.awaiting().models
    click(app, base(app, "reb-a1"))
    press(app, pygame.K_m)
    return app


def move_line(app: App) -> str:
    """The panel's line of the move laid out."""
    lines = [line.text for line in frame.panel_lines(app.scenario, app.state)]
    [line] = [text for text in lines if text.startswith("Reb a1 moves")]
    return line


def test_a_move_laid_out_says_the_standard_move_enter_makes_and_past_it_the_tac_moves() -> None:
    """FACTS 1.3: a standard move is 5" an action; a tac-move 5" + the bangs of a skill
    test (3" with none). The line said 'of 9"' (the tac-move's most) for a move Enter
    checks against 5"."""
    app = laying_out_a_move()
    assert move_line(app) == f'Reb a1 moves 0.0" of 5" (5.0" left): {KEYS}'
    click(app, at(app, (10, 22.54)))
    assert move_line(app) == f'Reb a1 moves 3.0" of 5" (2.0" left): {KEYS}'
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_m)
    click(app, at(app, (10, 26.54)))  # past 5": only C moves it, as far as 9"
    assert move_line(app) == f'Reb a1 moves 7.0" of 9" (2.0" left): {PAST}'
    draft = app.state.draft
    assert draft is not None
    press(app, pygame.K_RETURN)  # the engine's refusal, the draft's inches as it says them
    assert app.state.message == f'Rebel squad a moves {over(draft.length, 5)} but may move 5"'
    press(app, pygame.K_c)
    assert app.session is not None
    last = app.session.game.declarations[-1]
    assert isinstance(last, UnitAct) and last.action.kind is ActionKind.TACTICAL_MOVE


def test_a_move_laid_out_has_one_end_point_and_its_inches_are_counted_straight() -> None:
    """Open Rebellion moves a unit by one vector (the engine takes the path's last point
    alone): a second click moved the path on from the first, counting the inches along
    both legs (3" + 2.2" = 5.2" for a move of 2.8"); now it moves the one end point."""
    app = laying_out_a_move()
    click(app, at(app, (10, 22.54)))
    click(app, at(app, (12, 21.54)))  # 2" right and 2" down of Reb a1: 2.8" straight
    draft = app.state.draft
    assert draft is not None and len(draft.points) == 1
    assert draft.points[0] == pytest.approx((12, 21.54), abs=0.05)
    assert move_line(app) == f'Reb a1 moves 2.8" of 5" (2.2" left): {KEYS}'
    click(app, at(app, (10, 29.5)))  # 10" away: past the tac-move's 9" too
    assert app.state.message == 'too far: 10.0" away, 9" at most'
    assert move_line(app) == f'Reb a1 moves 2.8" of 5" (2.2" left): {KEYS}'
    press(app, pygame.K_RETURN)  # the whole unit by that one vector
    assert app.session is not None
    moved = app.session.game.state
    assert moved.model("reb-a1").at == pytest.approx((12, 21.54), abs=0.05)
    assert moved.model("reb-a4").at == pytest.approx((14, 23.5), abs=0.05)
