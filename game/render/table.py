"""Drawing the table: scenery shaded by kind with heights, bases in side colours with
facing wedges and ids, an inch grid and a title. Pure drawing onto a surface."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path

import pygame
import pygame.gfxdraw

from game.render import style
from game.render.view import View
from game.scenario import PlacedModel, Scenario

_fonts: dict[int, pygame.font.Font] = {}


def font(size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    if size not in _fonts:
        _fonts[size] = pygame.font.Font(None, size)
    return _fonts[size]


def side_colours(scenario: Scenario) -> dict[str, style.Colour]:
    colours: dict[str, style.Colour] = {}
    for index, side in enumerate(scenario.sides):
        colours[side.id] = side.colour or style.SIDE_COLOURS[index % len(style.SIDE_COLOURS)]
    return colours


def picture_size(scenario: Scenario, scale: float) -> tuple[int, int]:
    """Pixel size of the picture `render_png` makes: the table plus margins."""
    width, depth = scenario.header.table
    return (
        round(width * scale) + 2 * style.MARGIN,
        round(depth * scale) + style.MARGIN + style.TITLE,
    )


def default_view(scale: float) -> View:
    return View(scale, style.MARGIN, style.TITLE)


def _text(surface: pygame.Surface, text: str, size: int, colour: style.Colour,
          centre: tuple[float, float]) -> None:  # fmt: skip
    image = font(size).render(text, True, colour)
    surface.blit(image, image.get_rect(center=(round(centre[0]), round(centre[1]))))


def draw_grid(surface: pygame.Surface, scenario: Scenario, view: View) -> None:
    width, depth = scenario.header.table
    x0, y0 = view.to_screen(0, 0)
    x1, y1 = view.to_screen(width, depth)
    pygame.draw.rect(surface, style.TABLE, pygame.Rect(x0, y0, x1 - x0, y1 - y0))
    step = 1 if view.scale >= 8 else 6
    labels = 6 if view.scale < 30 else 2
    for i in range(0, math.floor(width) + 1, step):
        sx, _ = view.to_screen(i, 0)
        colour = style.GRID_MAJOR if i % 6 == 0 else style.GRID
        pygame.draw.line(surface, colour, (sx, y0), (sx, y1))
        if i % labels == 0:
            _text(surface, str(i), 16, style.TEXT, (sx, y1 + 10))
    for j in range(0, math.floor(depth) + 1, step):
        _, sy = view.to_screen(0, j)
        colour = style.GRID_MAJOR if j % 6 == 0 else style.GRID
        pygame.draw.line(surface, colour, (x0, sy), (x1, sy))
        if j % labels == 0:
            _text(surface, str(j), 16, style.TEXT, (x0 - 12, sy))


def draw_scenery(surface: pygame.Surface, scenario: Scenario, view: View,
                 highlight: frozenset[str] = frozenset()) -> None:  # fmt: skip
    """Each piece shaded by kind, its height written on it (no height: "full")."""
    for piece in scenario.scenery:
        points = [view.to_screen(x, y) for x, y in piece.footprint]
        fill = style.SCENERY[piece.kind]
        edge = style.SCENERY_EDGE[piece.kind]
        if piece.id in highlight:
            edge = (255, 60, 60)
        if piece.kind.value == "area":
            overlay = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            pygame.draw.polygon(overlay, (*fill, 150), points)
            surface.blit(overlay, (0, 0))
            # Area terrain: hatched so it reads as woods or rubble, not a solid block.
            pygame.draw.polygon(surface, edge, points, 2)
        else:
            pygame.draw.polygon(surface, fill, points)
            pygame.draw.polygon(surface, edge, points, 3 if piece.id in highlight else 2)
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        centre = (sum(xs) / len(xs), sum(ys) / len(ys))
        label = "full" if piece.height is None else f'{piece.height:g}"'
        size = max(12, min(22, round(view.scale * 0.8)))
        if max(xs) - min(xs) > size * 1.5 and max(ys) - min(ys) > size * 0.7:
            _text(surface, label, size, style.TEXT, centre)
        else:  # thin walls: the height beside the piece
            _text(surface, label, max(12, size - 4), style.INK, (centre[0], min(ys) - 8))


def draw_model(surface: pygame.Surface, model: PlacedModel, view: View,
               colour: style.Colour, arc_degrees: float, selected: bool = False,
               label: bool = True) -> None:  # fmt: skip
    """A base in its side's colour with a wedge showing its facing and arc."""
    cx, cy = view.to_screen(*model.at)
    r = max(model.radius * view.scale, 3.0)
    pygame.draw.circle(surface, colour, (cx, cy), r)
    pygame.draw.circle(surface, (250, 250, 250) if selected else style.INK, (cx, cy), r, 2)
    if arc_degrees < 360:
        half = math.radians(min(arc_degrees, 150) / 2)
        facing = math.radians(model.facing)
        tip = (cx + math.cos(facing) * r, cy + math.sin(facing) * r)
        left = (cx + math.cos(facing - half) * r * 0.55, cy + math.sin(facing - half) * r * 0.55)
        right = (cx + math.cos(facing + half) * r * 0.55, cy + math.sin(facing + half) * r * 0.55)
        pygame.draw.polygon(surface, (250, 250, 250), [(cx, cy), left, tip, right])
    if label:
        _text(surface, model.id, max(12, min(18, round(view.scale * 0.7))), style.INK,
              (cx, cy + r + 8))  # fmt: skip


def draw_models(surface: pygame.Surface, scenario: Scenario, view: View,
                colours: Mapping[str, style.Colour] | None = None) -> None:  # fmt: skip
    colours = colours or side_colours(scenario)
    for model in scenario.models:
        draw_model(surface, model, view, colours[model.side], scenario.ruleset.arc_degrees)


def draw_title(surface: pygame.Surface, scenario: Scenario, text: str | None = None) -> None:
    """The scenario's name and rule system, and a legend of scenery kinds at the right."""
    title = text or f"{scenario.header.name}  ·  {scenario.ruleset.title}"
    image = font(26).render(title, True, style.TEXT)
    surface.blit(image, (style.MARGIN, (style.TITLE - image.get_height()) // 2))
    x = surface.get_width() - style.MARGIN
    for kind in reversed(list(style.SCENERY)):
        word = font(16).render(kind.value, True, style.TEXT)
        x -= word.get_width()
        if x < style.MARGIN + image.get_width() + 20:
            break
        surface.blit(word, (x, (style.TITLE - word.get_height()) // 2))
        x -= 16
        pygame.draw.rect(surface, style.SCENERY[kind], pygame.Rect(x, style.TITLE // 2 - 6, 12, 12))
        x -= 10


def draw_table(surface: pygame.Surface, scenario: Scenario, view: View) -> None:
    """The whole table: grid, scenery, models."""
    draw_grid(surface, scenario, view)
    draw_scenery(surface, scenario, view)
    draw_models(surface, scenario, view)


def table_picture(scenario: Scenario, scale: float = 20.0) -> pygame.Surface:
    """The table as a surface of `picture_size(scenario, scale)` pixels, with its title."""
    surface = pygame.Surface(picture_size(scenario, scale))
    surface.fill(style.BACKGROUND)
    draw_table(surface, scenario, default_view(scale))
    draw_title(surface, scenario)
    return surface


def save_png(surface: pygame.Surface, out: Path) -> None:
    """Write the picture atomically: a temporary file beside `out`, then a rename."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp.png")
    pygame.image.save(surface, str(tmp))
    tmp.replace(out)
