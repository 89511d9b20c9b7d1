"""Infinity cover from the geometry's answer (seed 000, FACTS 3.5).

Total Cover: scenery blocks every line of fire to the silhouette. Partial Cover: the
target is in contact with (within 0.1" of) a piece of scenery that obscures part of its
silhouette; a low wall the line passes over still gives it when the target touches the
wall, because the wall hides the lower part. Models block LoF but give no cover.

Minimum patch (FACTS 3.5): LoF needs at least about a 3x3 mm patch of the silhouette
visible. The size is a rule value (assets/infinity/rules.toml, `min_visible_patch_mm`,
passed in by the caller); it is compared with the side of the largest square of the
silhouette that clear sight lines reach (`Sight.visible_patch`). A target seen only in
a sliver (over a wall top, past an edge) has no LoF: it reads as Total Cover.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from game.geometry.lof import Sight
from game.geometry.measures import pieces_near
from game.geometry.table import MM_PER_INCH, Table
from game.rules.cover import (
    MIN_PATCH_KEY,
    Cover,
    CoverRuling,
    SightOf,
    has_lof,
    min_patch,
    patch_seen,
)

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
    pieces: tuple[str, ...]  # what gives the cover: in the way, or in contact and hiding


def read_cover(table: Table, sight: Sight, min_patch_mm: float = 0.0) -> InfinityCoverReading:
    """Infinity's cover for the target of `sight` (`min_patch_mm`: the rule value)."""
    if not sight.clear:
        by = ", ".join(sight.blockers) or "scenery"
        return InfinityCoverReading(
            InfinityCover.TOTAL,
            f"total: no line of fire reaches it, {by} in the way",
            sight.blockers,
        )
    if not patch_seen(sight, min_patch_mm):
        seen = sight.visible_patch * MM_PER_INCH
        by = ", ".join(sight.hidden_by) or "scenery"
        return InfinityCoverReading(
            InfinityCover.TOTAL,
            f"total: only a sliver is seen past {by}: the largest patch is {seen:.1f} mm, "
            f"line of fire needs {min_patch_mm:g}x{min_patch_mm:g} mm",
            sight.hidden_by,
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


__all__ = ["MIN_PATCH_KEY", "has_lof", "patch_seen"]

_LEVELS = {
    InfinityCover.NONE: Cover.NONE,
    InfinityCover.PARTIAL: Cover.PARTIAL,
    InfinityCover.TOTAL: Cover.TOTAL,
}


def sequencer_cover(table: Table, sight: Sight, rule_values: dict[str, float]) -> tuple[Cover, str]:
    """The registry's "cover" part: partial cover needs contact with scenery that hides
    part of the target; less than the minimum patch seen is total cover (no LoF)."""
    reading = read_cover(table, sight, min_patch(rule_values))
    return _LEVELS[reading.level], reading.reason


def scenario_ruling(
    table: Table, sight: Sight, rule_values: dict[str, float], sight_of: SightOf
) -> CoverRuling:
    """The registry's "ruling" part: the cover people read, with the minimum patch
    (FACTS 3.5: a patch of the silhouette must be seen; a rule value in assets)."""
    patch = min_patch(rule_values)
    reading = read_cover(table, sight, patch)
    return CoverRuling(reading.level.value, reading.reason, patch, pieces=reading.pieces)
