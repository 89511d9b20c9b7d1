"""Necromunda's own events animated on the table: a blast marker and its scatter,
stray shots that hit a bystander, flame templates (`NecromundaRules.effects`; their
log lines are sentences, game.sequencer.necromunda_sentences).

No pygame here.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.geometry.measures import teardrop
from game.render.dice_log import Effect, Point, places_along
from game.sequencer.necromunda_types import (
    BlastPlaced,
    Misfired,
    Scattered,
    StrayChecked,
    TemplatePlaced,
)


def effects(events: Sequence[object], where: dict[str, Point], frames: int) -> list[Effect]:
    """The animations of a blast (its marker, then its scatter path), stray shots that
    hit a bystander, and flame templates. `where` is each model's position before the
    events, moved on by each move as it happens (`places_along`: a stray line starts
    where the shooter fired and ends where the bystander stood then)."""
    out: list[Effect] = []
    radius = 0.0
    for e, at in places_along(events, where):
        if isinstance(e, BlastPlaced):
            radius = e.diameter / 2
            out.append(Effect("blast", (e.centre,), frames, frames, radius))
        elif isinstance(e, Scattered):
            out.append(Effect("scatter", (e.start, e.end), frames, frames, radius, e.left_table))
        elif isinstance(e, Misfired) and e.result == "dud":
            out.append(Effect("blast", (), frames, frames, radius, gone=True))
        elif isinstance(e, StrayChecked) and e.hit:
            if e.attacker in at and e.model in at:
                out.append(Effect("stray", (at[e.attacker], at[e.model]), frames, frames))
        elif isinstance(e, TemplatePlaced):
            outline = _outline(e.origin, e.direction, e.length, e.width)
            out.append(Effect("template", outline, frames, frames))
    return [e for e in out if e.points]


def _outline(origin: Point, direction: float, length: float, width: float) -> tuple[Point, ...]:
    """A template's outline for its animation."""
    shape = teardrop(origin, direction, length, width)
    return tuple((float(x), float(y)) for x, y in shape.exterior.coords)
