"""Table inches <-> screen pixels: a scale and an offset (zoom and pan)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class View:
    """Pixels per inch and where the table's origin lands on the surface."""

    scale: float = 20.0
    left: float = 0.0
    top: float = 0.0

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        return self.left + x * self.scale, self.top + y * self.scale

    def to_table(self, px: float, py: float) -> tuple[float, float]:
        return (px - self.left) / self.scale, (py - self.top) / self.scale

    def zoomed(self, factor: float, about: tuple[float, float]) -> View:
        """Zoom by `factor`, keeping the table point under screen point `about` still."""
        ax, ay = about
        scale = min(max(self.scale * factor, 2.0), 200.0)
        f = scale / self.scale
        return View(scale, ax - (ax - self.left) * f, ay - (ay - self.top) * f)

    def panned(self, dx: float, dy: float) -> View:
        return View(self.scale, self.left + dx, self.top + dy)
