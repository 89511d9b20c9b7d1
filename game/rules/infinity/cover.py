"""Infinity cover from the geometry's answer (seed 000, FACTS 3.5).

Total Cover: scenery blocks every line of fire to the silhouette. Partial Cover: the
target is in contact with (within 0.1" of) a piece of scenery that obscures part of its
silhouette; a low wall the line passes over still gives it when the target touches the
wall, because the wall hides the lower part. Models block LoF but give no cover.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from game.geometry.lof import Sight
from game.geometry.measures import pieces_near
from game.geometry.table import Table

CONTACT = 0.1  # inches: "in contact" with scenery (brief)
SEEN_ALL = 0.995  # visible share at which nothing counts as hidden (fraction is +-0.02)


class InfinityCover(enum.Enum):
    NONE = "none"
    PARTIAL = "partial"
    TOTAL = "total"


@dataclass(frozen=True, slots=True)
class InfinityCoverReading:
    level: InfinityCover
    reason: str
    pieces: tuple[str, ...]


def read_cover(table: Table, sight: Sight) -> InfinityCoverReading:
    """Infinity's cover for the target of `sight`."""
    if not sight.clear:
        by = ", ".join(sight.blockers) or "scenery"
        return InfinityCoverReading(
            InfinityCover.TOTAL, f"total: no line of fire reaches it ({by} in the way)", ()
        )
    hidden = 1.0 - sight.visible_fraction
    target = table.body(sight.target)
    touching = {str(p) for p in pieces_near(table, target, CONTACT)}
    # Infinity: Partial Cover needs scenery in contact that obscures part of the silhouette
    obscuring = tuple(p for p in sight.hidden_by if p in touching)
    if obscuring and hidden > 0.0:
        names = ", ".join(obscuring)
        return InfinityCoverReading(
            InfinityCover.PARTIAL,
            f'partial: within {CONTACT}" of {names}, which hides {hidden:.0%}',
            obscuring,
        )
    if sight.visible_fraction >= SEEN_ALL or not sight.hidden_by:
        return InfinityCoverReading(InfinityCover.NONE, "none: the whole silhouette is seen", ())
    names = ", ".join(sight.hidden_by)
    return InfinityCoverReading(
        InfinityCover.NONE,
        f"none: {hidden:.0%} hidden by {names}, not in contact with the target",
        (),
    )
