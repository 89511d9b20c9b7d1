"""Necromunda cover from the geometry's answer (FACTS 2.3).

Fully visible: no cover. Less than half the target hidden: partial cover (-1 to hit).
Half or more hidden: full cover (-2 to hit). A target no line of sight reaches cannot be
targeted at all; it is read as full cover with that reason.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from game.geometry.lof import Sight
from game.geometry.table import Table
from game.rules.cover import Cover, CoverRuling, SightOf

SEEN_ALL = 0.995  # visible share at which nothing counts as hidden (fraction is +-0.02)


class NecromundaCover(enum.Enum):
    NONE = "none"
    PARTIAL = "partial"
    FULL = "full"


@dataclass(frozen=True, slots=True)
class NecromundaCoverReading:
    level: NecromundaCover
    reason: str
    hidden: float  # share of the silhouette hidden
    pieces: tuple[str, ...] = ()  # what hides it: the scenery, or a fighter in the way


def read_cover(sight: Sight) -> NecromundaCoverReading:
    """Necromunda's cover for the target of `sight`."""
    if not sight.clear:
        by = ", ".join(sight.blockers) or "scenery"
        return NecromundaCoverReading(
            NecromundaCover.FULL,
            f"full: not in line of sight, {by} in the way",
            1.0,
            sight.blockers,
        )
    hidden = 1.0 - sight.visible_fraction
    names = ", ".join(sight.hidden_by) or "scenery"
    if sight.visible_fraction >= SEEN_ALL:
        return NecromundaCoverReading(NecromundaCover.NONE, "none: fully visible", 0.0)
    # Necromunda: less than half hidden is partial cover, half or more is full cover
    if hidden < 0.5:
        return NecromundaCoverReading(
            NecromundaCover.PARTIAL,
            f"partial: {hidden:.0%} hidden by {names}",
            hidden,
            sight.hidden_by,
        )
    return NecromundaCoverReading(
        NecromundaCover.FULL, f"full: {hidden:.0%} hidden by {names}", hidden, sight.hidden_by
    )


_LEVELS = {
    NecromundaCover.NONE: Cover.NONE,
    NecromundaCover.PARTIAL: Cover.PARTIAL,
    NecromundaCover.FULL: Cover.TOTAL,
}


def sequencer_cover(table: Table, sight: Sight, rule_values: dict[str, float]) -> tuple[Cover, str]:
    """The registry's "cover" part: partial below half hidden, full (read by the
    sequencer as its top level) at half or more."""
    reading = read_cover(sight)
    return _LEVELS[reading.level], reading.reason


def scenario_ruling(
    table: Table, sight: Sight, rule_values: dict[str, float], sight_of: SightOf
) -> CoverRuling:
    """The registry's "ruling" part: the cover people read."""
    reading = read_cover(sight)
    return CoverRuling(reading.level.value, reading.reason, pieces=reading.pieces)
