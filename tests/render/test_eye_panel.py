"""The shooter's-eye view in the table window's panel, for the enemy pointed at."""

from __future__ import annotations

import pygame
import pytest

from game.render.app import App
from game.render.eye import SEEN
from game.render.eye_panel import EYE_HEIGHT, eye_room
from game.render.session import Session
from game.render.state import panel_width
from game.scenario import load_scenario
from game.scenario.ruling import LofRuling

from ..conftest import SCENARIOS
from .driving import base, click, point_at


def _green(surface: pygame.Surface, rect: pygame.Rect) -> int:
    return sum(
        1
        for x in range(rect.left, rect.right)
        for y in range(rect.top, rect.bottom)
        if tuple(surface.get_at((x, y)))[:3] == SEEN
    )


@pytest.mark.parametrize(
    ("size", "shown"), [((1280, 800), True), ((2560, 1440), True), ((1280, 560), False)]
)
def test_pointing_at_an_enemy_shows_its_eye_view(size: tuple[int, int], shown: bool) -> None:
    scenario = load_scenario(SCENARIOS / "infinity-demo.toml")
    app = App(scenario, size=size, session=Session.start(scenario, 1))
    click(app, base(app, "fusilier-2"))
    point_at(app, base(app, "zhanshi-hmg"))
    hover = app.state.hover
    assert hover is not None and isinstance(hover.ruling, LofRuling)
    assert hover.ruling.visible_fraction > 0
    surface = app.draw()
    kept = app.cache.panel.kept.move(surface.get_width() - panel_width(surface.get_size()), 0)
    if shown:
        # at most its room: it shrinks so the odds and the log's heading stay (issue 15)
        assert 120 <= kept.height <= eye_room(hover, size[1])
        assert eye_room(hover, size[1]) >= EYE_HEIGHT * size[1] // 800
        assert _green(surface, kept) > 100  # the seen part of the silhouette
        assert app.cache.eye.ruling is hover.ruling
    else:
        assert kept.height == 0 and app.cache.eye.surface is None
    # pointing away: the room goes back to the words
    point_at(app, (5, 5))
    app.draw()
    assert app.cache.panel.kept.height == 0
