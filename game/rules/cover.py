"""Cover as the shared layers read it: three levels for the sequencer, the minimum
visible patch (a rule value some systems set), and the reading a ruleset's "ruling"
part returns for the rulings people read. Each system's own cover module turns the
geometry's answer into these."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from game.geometry.lof import Sight
from game.geometry.table import MM_PER_INCH

MIN_PATCH_KEY = "min_visible_patch_mm"  # the rule value's name in assets/<system>/rules.toml


class Cover(StrEnum):
    """The sequencer's three levels; each system maps its own tiers onto them."""

    NONE = "none"
    PARTIAL = "partial"
    TOTAL = "total"


@dataclass(frozen=True, slots=True)
class CoverRuling:
    """A cover reading for people: the level in the system's own word, why, and the
    smallest patch of silhouette that gives line of fire (0: any clear line does);
    `unit`: the unit whose cover it is, where cover belongs to the unit and not the
    model, called `unit_word` ("squad") by the system; `pieces`: the ids of what gives
    the cover the reason names (the scenery in the way of a target out of sight, hiding
    part of it, touched or stood in; a model where the system lets models hide), none
    where there is no cover; `unit_unseen`: the shooter sees no model of the `unit`, whose
    `level` is then the system's reading of none seen (a squad's "open"), said "out of
    sight"; `rules_reason`: the reason in the words `lof --json` has always given (a
    contract), where those people read say more (None: the same)."""

    level: str
    reason: str
    min_patch_mm: float = 0.0
    unit: str | None = None
    unit_word: str = "unit"
    pieces: tuple[str, ...] = ()
    unit_unseen: bool = False
    rules_reason: str | None = None


# (model id) -> the sight from the same shooter to that model (for unit-wide readings)
SightOf = Callable[[str], Sight]


def patch_seen(sight: Sight, min_patch_mm: float) -> bool:
    """A clear sight line counts only if a patch of at least `min_patch_mm` square of
    the silhouette is seen (0: any clear line)."""
    return sight.clear and sight.visible_patch * MM_PER_INCH >= min_patch_mm - 1e-9


def has_lof(sight: Sight, min_patch_mm: float = 0.0) -> bool:
    """Line of fire: in the arc, and a large enough patch seen."""
    return sight.in_arc and patch_seen(sight, min_patch_mm)


def min_patch(rule_values: dict[str, float]) -> float:
    """The minimum visible patch in mm from a scenario's rule values (0 when unset)."""
    return float(rule_values.get(MIN_PATCH_KEY, 0.0))
