"""The dice log and the event animations: what the table makes of the game's events.

Each event becomes a log line (a roll with its SV, dice and what each die came to;
hits, saves, wounds, state changes, moves, turns), and attacks become shot lines drawn
for a few frames. Events are read by their fields, so any rule system's events that
use the sequencer's classes (game.sequencer.events) are logged the same way; a
system's own events are written by its play adapter (`PlayRules.log_lines`) and
animated by it (`PlayRules.effects`, as `Effect`s); others fall back to
`describe_event`.

No pygame here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from game.render.link import describe_event
from game.sequencer.events import (
    Declared,
    GameEnded,
    Hit,
    Missed,
    Moved,
    OrderSpent,
    Rolled,
    SaveRolled,
    StateChanged,
    TurnEnded,
    TurnStarted,
    Wounded,
)

Point = tuple[float, float]

# What each die came to, shortened for the panel.
RESULT_WORDS = {"critical": "crit", "success": "ok", "fail": "fail", "cancelled": "beaten"}


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the dice log; `kind` picks its colour."""

    text: str
    kind: str = "info"  # info | roll | hit | save | wound | state | turn


@dataclass(frozen=True, slots=True)
class Shot:
    """A shot line from one model to another, drawn for `frames` more frames."""

    shooter: str
    target: str
    hit: bool
    frames: int


@dataclass(frozen=True, slots=True)
class Effect:
    """An event animated on the table for `frames` more frames of `total`:

    - "blast": a marker of `radius` flashing at `points[0]`;
    - "scatter": the marker travelling from `points[0]` to `points[1]` (`gone`: it left
      the table or was a dud);
    - "stray": a shot line from `points[0]` to the bystander it hit at `points[1]`;
    - "template": the template's outline `points` flashing."""

    kind: str
    points: tuple[Point, ...]
    frames: int
    total: int
    radius: float = 0.0
    gone: bool = False

    @property
    def progress(self) -> float:
        """0 when it starts, 1 when it ends."""
        return 1.0 - self.frames / max(1, self.total)


def _declared(body: dict[str, object]) -> str:
    name = body.get("declare", "?")
    model = body.get("model")
    skill = body.get("skill")
    kind = skill.get("kind") if isinstance(skill, dict) else None
    words = [str(name)]
    if model:
        words.append(str(model))
    if kind:
        words.append(str(kind))
    if isinstance(skill, dict) and skill.get("targets"):
        targets = skill["targets"]
        if isinstance(targets, list):
            words.append("at " + ", ".join(f"{t[0]} x{t[1]}" for t in targets))
    return " ".join(words)


class SystemLog(Protocol):
    """A rule system's own log lines (its play adapter gives them: `PlayRules.log_lines`)."""

    def log_lines(self, event: object) -> list[LogLine] | None: ...


def log_lines(event: object, rules: SystemLog | None = None) -> list[LogLine]:
    """The dice log's lines for one event (none for bookkeeping events); events of the
    rule system's own are written by `rules`."""
    if isinstance(event, Rolled):
        mods = "".join(f" {m.value:+d} {m.source}" for m in event.modifiers)
        dice = " ".join(
            f"{face} {RESULT_WORDS.get(result, result)}"
            for face, result in zip(event.faces, event.results, strict=False)
        )
        return [
            LogLine(f"{event.model}: {event.purpose}", "roll"),
            LogLine(f"  {event.attribute} {event.base}{mods} = SV {event.target}: {dice}", "roll"),
        ]
    if isinstance(event, Hit):
        crit = " (critical)" if event.critical else ""
        return [LogLine(f"hit: {event.attacker} -> {event.target}, {event.weapon}{crit}", "hit")]
    if isinstance(event, Missed):
        return [LogLine(f"miss: {event.attacker} -> {event.target}: {event.reason}", "info")]
    if isinstance(event, SaveRolled):
        faces = " ".join(str(f) for f in event.faces)
        rule = f"<= {event.target} wounds" if event.wound_on_low else f"<= {event.target} saves"
        return [LogLine(f"{event.model} saves ({rule}): {faces}: {event.wounds} wounds", "save")]
    if isinstance(event, Wounded):
        return [LogLine(f"{event.model} wounded: {event.wounds} ({event.total} in all)", "wound")]
    if isinstance(event, StateChanged):
        return [LogLine(f"{event.model}: {event.before} -> {event.after}", "state")]
    if isinstance(event, Moved):
        return [LogLine(f'{event.model} moves {event.distance:.1f}"', "info")]
    if isinstance(event, TurnStarted):
        return [LogLine(f"turn {event.turn}: {event.side} ({event.orders} Orders)", "turn")]
    if isinstance(event, TurnEnded):
        return []
    if isinstance(event, OrderSpent):
        return []
    if isinstance(event, Declared):
        return [LogLine(f"{event.side}: {_declared(event.declaration)}", "info")]
    own = rules.log_lines(event) if rules is not None else None
    if own is not None:
        return own
    if isinstance(event, GameEnded):
        who = event.winner or "nobody"
        return [LogLine(f"game over: {who} wins ({event.reason})", "turn")]
    return [LogLine(describe_event(event))]


def describe_all(events: Iterable[object], rules: SystemLog | None = None) -> list[LogLine]:
    return [line for event in events for line in log_lines(event, rules)]


def shots(events: Sequence[object], models: Iterable[str], frames: int) -> list[Shot]:
    """A shot line per attack roll at a model (BS Attack ... at ID), marked hit when
    a Hit from that shooter on that target follows."""
    ids = set(models)
    hits = {(e.attacker, e.target) for e in events if isinstance(e, Hit)}
    out: list[Shot] = []
    seen: set[tuple[str, str]] = set()
    for e in events:
        pair: tuple[str, str] | None = None
        if isinstance(e, Rolled) and " at " in e.purpose:
            target = e.purpose.rsplit(" at ", 1)[1].strip()
            if target in ids:
                pair = (e.model, target)
        elif isinstance(e, Hit | Missed):
            pair = (e.attacker, e.target)
        if pair is not None and pair not in seen:
            seen.add(pair)
            out.append(Shot(pair[0], pair[1], pair in hits, frames))
    return out
