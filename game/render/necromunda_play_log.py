"""Necromunda's own events in the window: their dice log lines and their animations
(a blast marker and its scatter, stray shots that hit a bystander, flame templates).
`NecromundaRules.log_lines` and `.effects` hand these to the shared dice log.

No pygame here.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.geometry.measures import teardrop
from game.render.dice_log import Effect, LogLine, Point
from game.sequencer.necromunda_types import (
    AmmoChanged,
    BlastPlaced,
    BlastRemoved,
    FirepowerRolled,
    InjuryRolled,
    Misfired,
    PriorityRolled,
    Scattered,
    ScatterRolled,
    StrayChecked,
    TargetChanged,
    TemplatePlaced,
)


def log_lines(event: object) -> list[LogLine] | None:
    """The dice log's lines for a Necromunda event (None: not one of its own)."""
    if isinstance(event, PriorityRolled):
        faces = ", ".join(f"{side} {face}" for side, face in event.faces)
        who = event.side or "a tie: again"
        return [LogLine(f"round {event.turn} priority: {faces}: {who}", "turn")]
    if isinstance(event, FirepowerRolled):
        faces = " ".join(str(f) for f in event.faces)
        return [LogLine(f"{event.model}: firepower {faces}: {event.holes} hits, "
                        f"{event.ammo_symbols} ammo", "roll")]  # fmt: skip
    if isinstance(event, StrayChecked):
        result = "hit!" if event.hit else "missed"
        return [LogLine(f"stray shot at {event.model}: D6 {event.face}: {result}",
                        "hit" if event.hit else "info")]  # fmt: skip
    if isinstance(event, BlastPlaced):
        x, y = event.centre
        why = f" ({event.reason})" if event.reason else ""
        return [LogLine(f'{event.attacker}: {event.weapon} {event.diameter:g}" blast at '
                        f"({x:.1f}, {y:.1f}){why}", "info")]  # fmt: skip
    if isinstance(event, ScatterRolled):
        face = "hit" if event.hit_face else "arrow"
        return [LogLine(f"scatter die: {face}, D6 {event.distance}", "roll")]
    if isinstance(event, Scattered):
        x, y = event.end
        where = "off the table" if event.left_table else f"to ({x:.1f}, {y:.1f})"
        stop = f", stopped by {event.stopped_by}" if event.stopped_by else ""
        return [LogLine(f'blast scatters {event.distance:.1f}" {where}{stop}', "hit")]
    if isinstance(event, Misfired):
        return [LogLine(f"{event.weapon} misfires: D6 {event.face}: {event.result}", "hit")]
    if isinstance(event, BlastRemoved):
        return [LogLine(f"{event.weapon} blast removed: {event.reason}", "info")]
    if isinstance(event, TemplatePlaced):
        under = ", ".join(event.under) or "nobody"
        return [LogLine(f"{event.attacker}: {event.weapon} template at {event.direction:.0f}"
                        f" degrees: {under}", "hit")]  # fmt: skip
    if isinstance(event, TargetChanged):
        return [LogLine(f"{event.attacker} shoots {event.target}, not {event.declared}: "
                        f"{event.reason}", "state")]  # fmt: skip
    if isinstance(event, InjuryRolled):
        dice = ", ".join(f"{f} {r}" for f, r in zip(event.faces, event.results, strict=False))
        return [LogLine(f"{event.model} {event.purpose}: {dice}", "wound")]
    if isinstance(event, AmmoChanged):
        return [LogLine(f"{event.model}'s {event.weapon}: {event.state}", "state")]
    return None


def effects(events: Sequence[object], where: dict[str, Point], frames: int) -> list[Effect]:
    """The animations of a blast (its marker, then its scatter path), stray shots that
    hit a bystander, and flame templates. `where` is each model's position before the
    events (the shooter's end of a stray line)."""
    out: list[Effect] = []
    radius = 0.0
    for e in events:
        if isinstance(e, BlastPlaced):
            radius = e.diameter / 2
            out.append(Effect("blast", (e.centre,), frames, frames, radius))
        elif isinstance(e, Scattered):
            out.append(Effect("scatter", (e.start, e.end), frames, frames, radius, e.left_table))
        elif isinstance(e, Misfired) and e.result == "dud":
            out.append(Effect("blast", (), frames, frames, radius, gone=True))
        elif isinstance(e, StrayChecked) and e.hit:
            if e.attacker in where and e.model in where:
                out.append(Effect("stray", (where[e.attacker], where[e.model]), frames, frames))
        elif isinstance(e, TemplatePlaced):
            outline = _outline(e.origin, e.direction, e.length, e.width)
            out.append(Effect("template", outline, frames, frames))
    return [e for e in out if e.points]


def _outline(origin: Point, direction: float, length: float, width: float) -> tuple[Point, ...]:
    """A template's outline for its animation."""
    shape = teardrop(origin, direction, length, width)
    return tuple((float(x), float(y)) for x, y in shape.exterior.coords)
