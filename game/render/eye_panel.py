"""The shooter's-eye view in the table window's panel, for the pair under the pointer:
drawn once per ruling (game.render.eye) and kept while the pointer stays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from game.render.eye import EyeView, draw_eye, eye_view, least_height
from game.render.state import ui_scale
from game.scenario.ruling import LofRuling
from game.scenario.tables import table_from_scenario

if TYPE_CHECKING:
    from game.geometry import Table
    from game.render.state import Hover
    from game.scenario import Scenario

EYE_HEIGHT = 250  # pixels of the panel the eye view takes while a target is pointed at
EYE_FROM = 800  # window height from which the eye view's room grows with it
MIN_PANEL_HEIGHT = 640  # a shorter window keeps its panel for the words


@dataclass
class EyeCache:
    """The last eye view drawn, and the table geometry of the scenario it was drawn on."""

    ruling: LofRuling | None = None
    size: tuple[int, int] = (0, 0)
    surface: pygame.Surface | None = None
    table: tuple[Scenario, Table] | None = None
    view: tuple[LofRuling, EyeView] | None = None  # the last ruling's strips and hiders


def seen_through(ruling: object) -> bool:
    """Whether a ruling has a shooter's-eye view: a line-of-fire ruling of a pair both on
    the table (none where there is no shot: a fighter Out of Action, say)."""
    return isinstance(ruling, LofRuling) and not ruling.no_shot


def eye_room(hover: Hover | None, height: int) -> int:
    """Pixels of the panel to keep for the eye view: some when the pointed-at target's
    ruling is a line-of-fire ruling and the window is tall enough, else none; more in a
    window taller than EYE_FROM (a large screen's panel had it small under empty room)."""
    if hover is None or not seen_through(hover.ruling) or height < MIN_PANEL_HEIGHT:
        return 0
    return round(EYE_HEIGHT * max(1.0, height / EYE_FROM))


def hover_view(scenario: Scenario, hover: Hover | None, cache: EyeCache) -> EyeView | None:
    """The eye view of `hover`'s line-of-fire ruling (None for any other), worked out
    once per ruling."""
    ruling = hover.ruling if hover is not None else None
    if not isinstance(ruling, LofRuling) or not seen_through(ruling):
        return None
    if cache.view is None or cache.view[0] is not ruling:
        if cache.table is None or cache.table[0] is not scenario:
            cache.table = (scenario, table_from_scenario(scenario))
        cache.view = (ruling, eye_view(scenario, cache.table[1], ruling))
    return cache.view[1]


def eye_least(scenario: Scenario, hover: Hover | None, cache: EyeCache,
              size: tuple[int, int]) -> int:  # fmt: skip
    """Pixels `hover`'s eye view needs in a window of `size` (`eye.least_height`): a
    panel with less room keeps its words and shows none of it."""
    view = hover_view(scenario, hover, cache)
    return 0 if view is None else least_height(view, ui_scale(size))


def draw_hover_eye(surface: pygame.Surface, rect: pygame.Rect, scenario: Scenario,
                   hover: Hover, cache: EyeCache) -> None:  # fmt: skip
    """The eye view of `hover`'s ruling into `rect` of `surface`."""
    ruling = hover.ruling
    view = hover_view(scenario, hover, cache)
    if view is None or not isinstance(ruling, LofRuling) or min(rect.size) < 100:
        return
    size = (rect.width, rect.height)
    if cache.surface is None or cache.ruling is not ruling or cache.size != size:
        picture = pygame.Surface(size)
        # its words grow with the window, as the panel's do
        draw_eye(picture, picture.get_rect(), scenario, ruling, view, ui_scale(surface.get_size()))
        cache.ruling, cache.size, cache.surface = ruling, size, picture
    surface.blit(cache.surface, rect)
