"""A line-of-fire ruling as a picture: the table from above with the witness line, the
blockers outlined and the hidden share of the target's base shaded (the part facing the
shooter), beside the shooter's-eye view of the target, under a two-line header."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from game.render import style
from game.render.table import draw_table, font, save_png
from game.render.view import View

if TYPE_CHECKING:
    from game.geometry import Table
    from game.scenario import Scenario
    from game.scenario.ruling import LofRuling

import pygame

CLEAR = (40, 200, 90)
BLOCKED = (220, 50, 50)
SHADE = (20, 20, 24, 170)
RULING_TEXT = (250, 226, 120)
HEADER = 70  # pixels above the panels: the table's name, then the ruling


def _segment_offset(share: float) -> float:
    """Distance from a unit circle's centre to the chord cutting off `share` of its area."""
    lo, hi = -1.0, 1.0
    for _ in range(40):
        mid = (lo + hi) / 2
        area = (math.acos(mid) - mid * math.sqrt(1 - mid * mid)) / math.pi
        lo, hi = (mid, hi) if area > share else (lo, mid)
    return (lo + hi) / 2


def draw_ruling_top(surface: pygame.Surface, scenario: Scenario, ruling: LofRuling,
                    view: View) -> None:  # fmt: skip
    """The ruling over the drawn table: blockers outlined, the hidden share of the
    target's base shaded on the side facing the shooter, the witness line."""
    scale = view.scale
    shooter = scenario.model(ruling.attacker)
    target = scenario.model(ruling.target)
    for pid in ruling.blockers:
        try:
            piece = scenario.piece(pid)
        except KeyError:
            continue
        pts = [view.to_screen(x, y) for x, y in piece.footprint]
        pygame.draw.polygon(surface, BLOCKED, pts, 3)
    # the hidden share of the target, shaded on the side facing the shooter
    hidden = 1.0 - ruling.visible_fraction
    if hidden > 0.005:
        r = target.radius * scale
        cx, cy = view.to_screen(*target.at)
        ux, uy = shooter.at[0] - target.at[0], shooter.at[1] - target.at[1]
        norm = math.hypot(ux, uy) or 1.0
        ux, uy = ux / norm, uy / norm
        d = _segment_offset(min(hidden, 1.0))
        overlay = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        pts = []
        for k in range(65):
            ang = 2 * math.pi * k / 64
            px, py = math.cos(ang), math.sin(ang)
            if px * ux + py * uy >= d - 1e-9:
                pts.append((cx + r * px, cy + r * py))
        if hidden >= 0.995:
            pygame.draw.circle(overlay, SHADE, (cx, cy), r)
        elif len(pts) >= 3:
            pygame.draw.polygon(overlay, SHADE, pts)
        surface.blit(overlay, (0, 0))
    if ruling.witness is not None:
        (x0, y0), (x1, y1) = ruling.witness
        pygame.draw.line(surface, CLEAR, view.to_screen(x0, y0), view.to_screen(x1, y1), 3)
    else:
        a = view.to_screen(*shooter.at)
        b = view.to_screen(*target.at)
        steps = max(1, int(math.dist(a, b) // 8))
        for k in range(0, steps, 2):  # dashed: the centre line, for reference only
            s0, s1 = k / steps, min(1.0, (k + 1) / steps)
            pygame.draw.line(
                surface,
                BLOCKED,
                (a[0] + (b[0] - a[0]) * s0, a[1] + (b[1] - a[1]) * s0),
                (a[0] + (b[0] - a[0]) * s1, a[1] + (b[1] - a[1]) * s1),
                2,
            )


def verdict(ruling: LofRuling) -> str:
    """The ruling in one line for a picture's header."""
    said = "line of fire" if ruling.lof else "no line of fire"
    return (
        f"{ruling.attacker} -> {ruling.target}: {said}, {ruling.visible_fraction:.0%} visible, "
        f"cover {ruling.cover}"
    )


def _fitted(text: str, size: int, colour: style.Colour, width: int) -> pygame.Surface:
    """`text` rendered at `size`, or smaller (down to 12) until it fits in `width`."""
    image = font(size).render(text, True, colour)
    while image.get_width() > width and size > 12:
        size -= 1
        image = font(size).render(text, True, colour)
    return image


def _header(
    surface: pygame.Surface, scenario: Scenario, ruling: LofRuling
) -> tuple[pygame.Rect, pygame.Rect]:
    """Two lines that never overprint: the table's name, then the ruling (shrunk to fit);
    returns where each went."""
    width = surface.get_width() - 2 * style.MARGIN
    name = f"{scenario.header.name}  ·  {scenario.ruleset.title}"
    title = _fitted(name, 26, style.TEXT, width)
    first = surface.blit(title, (style.MARGIN, 8))
    line = _fitted(verdict(ruling), 22, RULING_TEXT, width)
    second = surface.blit(line, (style.MARGIN, first.bottom + 6))
    return first, second


def lof_picture(scenario: Scenario, ruling: LofRuling, scale: float = 20.0,
                table: Table | None = None) -> pygame.Surface:  # fmt: skip
    """Two panels under a header: the table from above with the ruling drawn over it,
    and the shooter's-eye view of the target (game.render.eye)."""
    from game.render.eye import draw_eye, eye_view
    from game.scenario.tables import table_from_scenario

    width, depth = scenario.header.table
    top_w = round(width * scale) + 2 * style.MARGIN
    top_h = round(depth * scale) + style.MARGIN
    eye_w = max(420, min(640, top_w * 2 // 3))
    body_h = max(top_h, 420)
    surface = pygame.Surface((top_w + eye_w, HEADER + body_h))
    surface.fill(style.BACKGROUND)
    view = View(scale, style.MARGIN, HEADER)
    draw_table(surface, scenario, view)
    draw_ruling_top(surface, scenario, ruling, view)
    eye = eye_view(scenario, table or table_from_scenario(scenario), ruling)
    draw_eye(surface, pygame.Rect(top_w, HEADER, eye_w, body_h), scenario, ruling, eye)
    pygame.draw.line(surface, style.GRID_MAJOR, (top_w, HEADER), (top_w, HEADER + body_h))
    _header(surface, scenario, ruling)
    return surface


def save_lof_picture(scenario: Scenario, ruling: LofRuling, out: Path, scale: float = 20.0,
                     table: Table | None = None) -> None:  # fmt: skip
    save_png(lof_picture(scenario, ruling, scale, table), out)
