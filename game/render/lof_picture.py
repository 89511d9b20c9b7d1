"""A line-of-fire ruling drawn on the table: the witness line, the blockers outlined, and
the hidden share of the target's base shaded (the part facing the shooter)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from game.render.table import default_view, draw_title, save_png, table_picture

if TYPE_CHECKING:
    from game.scenario import Scenario
    from game.scenario.ruling import LofRuling

import pygame

CLEAR = (40, 200, 90)
BLOCKED = (220, 50, 50)
SHADE = (20, 20, 24, 170)


def _segment_offset(share: float) -> float:
    """Distance from a unit circle's centre to the chord cutting off `share` of its area."""
    lo, hi = -1.0, 1.0
    for _ in range(40):
        mid = (lo + hi) / 2
        area = (math.acos(mid) - mid * math.sqrt(1 - mid * mid)) / math.pi
        lo, hi = (mid, hi) if area > share else (lo, mid)
    return (lo + hi) / 2


def lof_picture(scenario: Scenario, ruling: LofRuling, scale: float = 20.0) -> pygame.Surface:
    """The table with the ruling drawn over it."""
    surface = table_picture(scenario, scale)
    view = default_view(scale)
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
    verdict = "line of fire" if ruling.lof else "no line of fire"
    draw_title(
        surface,
        scenario,
        f"{ruling.attacker} -> {ruling.target}: {verdict}, {ruling.visible_fraction:.0%} "
        f"visible, cover {ruling.cover}",
    )
    return surface


def save_lof_picture(scenario: Scenario, ruling: LofRuling, out: Path, scale: float = 20.0) -> None:
    save_png(lof_picture(scenario, ruling, scale), out)
