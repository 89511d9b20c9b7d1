"""A move laid out through a wall is said as its point is placed, in the words Enter
would refuse it with, as "too far" is said at the click (tester12 item 6: the dashed
line crossed a stone wall and the panel counted '5.0" of 5"' with no word until Enter).
The point stays, so the person sees what is refused and moves it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from tests.render.driving import at, base, click, panel, press
from tests.render.test_app_open_rebellion import Point
from tests.render.test_open_rebellion_activates_first import red_to_activate

Write = Callable[..., Path]

# red-a-1 stands 1.75" west of the wall (x 8.75 to 9.25, y 0.5 to 9); its unit's others
# south of the wall's end
UNITS: dict[str, tuple[str, list[Point]]] = {
    "red-a": ("red", [(7, 4), (7, 16), (7, 18)]),
    "red-b": ("red", [(4, 22), (6, 22)]),
    "blue-a": ("blue", [(16, 4), (16, 6)]),
    "blue-b": ("blue", [(20, 20), (20, 22)]),
}
THROUGH = "Red a 1: the base would pass through wall"  # the piece's id is "wall"


def test_a_move_through_a_wall_is_said_at_the_click(write_scenario: Write) -> None:
    app, game = red_to_activate(write_scenario, UNITS)
    click(app, base(app, "red-a-1"))
    press(app, pygame.K_m)
    click(app, at(app, (11.0, 4.0)))  # 4" east, through the wall
    draft = app.state.draft
    assert draft is not None and draft.points == (app.state.view.to_table(*at(app, (11, 4))),)
    assert app.state.message == THROUGH
    assert app.state.refusal == THROUGH  # in the refusal colour
    made = len(game.declarations)
    press(app, pygame.K_RETURN)  # Enter says the same, and declares nothing
    assert app.state.message == THROUGH and len(game.declarations) == made
    # past the standard move, clear of the wall: only the tac-move's words, no refusal
    click(app, at(app, (1.5, 4.0)))
    assert app.state.message == ""
    assert 'too far for a standard move (5"); C tac-moves the unit' in panel(app)
    # a point this side of the wall: nothing said, Enter moves the unit
    click(app, at(app, (8.0, 4.0)))
    assert app.state.message == ""
    assert 'Red a 1 moves 1.0" of 5"' in panel(app)
    press(app, pygame.K_RETURN)
    assert len(game.declarations) == made + 1
