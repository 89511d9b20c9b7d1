"""The shooter's-eye view in the table window's panel, for the enemy pointed at."""

from __future__ import annotations

import pygame
import pytest

from game.render.eye import SEEN
from game.render.eye_panel import EYE_HEIGHT, eye_room
from game.render.panel import EYE_ELSEWHERE
from game.render.state import panel_width
from game.scenario.ruling import LofRuling

from .driving import point_at
from .test_eye_least import SLACK, _pointing, _room_left


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
def test_pointing_at_an_enemy_shows_its_eye_view(
    size: tuple[int, int], shown: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`shown`: where the window is tall enough for it (640 px); it is drawn there
    wherever the words that stay leave it its least, measured with the font's metrics
    (test_eye_least), and the panel says where it is wherever they do not."""
    app, panel = _pointing("infinity-demo", "fusilier-2", "zhanshi-hmg", size, monkeypatch)
    hover = app.state.hover
    assert hover is not None and isinstance(hover.ruling, LofRuling)
    assert hover.ruling.visible_fraction > 0
    surface = app.surface
    kept = app.cache.panel.kept.move(surface.get_width() - panel_width(surface.get_size()), 0)
    left = _room_left(panel, size)
    if shown and left >= panel.least + SLACK:
        # at most its room: it shrinks so the odds and the log's heading stay (issue 15)
        assert panel.least <= kept.height <= eye_room(hover, size[1])
        assert eye_room(hover, size[1]) >= EYE_HEIGHT * size[1] // 800
        assert _green(surface, kept) > 0  # the seen part of the silhouette
        assert app.cache.eye.ruling is hover.ruling
    elif not shown or left < panel.least - SLACK:  # a font too tall for it here
        assert kept.height == 0 and app.cache.eye.surface is None
        assert EYE_ELSEWHERE in " ".join(text for text, _ in app.cache.panel.drawn)
    # pointing away: the room goes back to the words
    point_at(app, (5, 5))
    app.draw()
    assert app.cache.panel.kept.height == 0
