"""The dice log and the event animations: what the table makes of the game's events.

Each event becomes a log line: its sentence in the rule system's own words, from the
one place that words events (game.sequencer.sentences, the registry's "sentences"
part), coloured by the kind of event. Attacks become shot lines drawn for a few
frames; a system's own events are animated by its play adapter (`PlayRules.effects`,
as `Effect`s). Events no one words (a bare game's) fall back to `describe_event`.

No pygame here.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from game.render.link import describe_event
from game.rules.registry import Ruleset
from game.sequencer.events import Event, Hit, Missed, Rolled
from game.sequencer.sentences import Teller, describe

Point = tuple[float, float]


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


# The colour of an event's log line, by the kind of event: the shared ones by name,
# a system's own by what its name says it is (a roll, a hit, a wound, a new state...).
TONES = {
    "Rolled": "roll", "Hit": "hit", "Missed": "info", "SaveRolled": "save",
    "Wounded": "wound", "StateChanged": "state", "Moved": "info", "TurnStarted": "turn",
    "TurnEnded": "turn", "GameEnded": "turn", "Declared": "info", "OrderSpent": "info",
}  # fmt: skip
TONE_WORDS = (
    (("Priority", "Initiative"), "turn"),
    (("Injury", "Kills", "Damage", "Wound"), "wound"),
    (("Rolled", "Test", "Checked"), "roll"),
    (("Fire", "Scatter", "Blast", "Template", "Misfire", "Hit"), "hit"),
    (("Changed", "Fell", "Turned", "Position"), "state"),
)


def tone(event: object) -> str:
    """The log colour's name for an event (info | roll | hit | save | wound | state | turn)."""
    name = type(event).__name__
    if name in TONES:
        return TONES[name]
    for words, kind in TONE_WORDS:
        if any(w in name for w in words):
            return kind
    return "info"


def log_lines(
    event: object, ruleset: Ruleset | None = None, ids: Collection[str] = ()
) -> list[LogLine]:
    """The dice log's line for one event: its sentence in the rule system's words
    (game.sequencer.sentences), the table's `ids` named; an event no one words is
    shown as it is."""
    said = describe(event, ruleset, ids) if isinstance(event, Event) else None
    return [LogLine(said if said is not None else describe_event(event), tone(event))]


def tell_all(teller: Teller, events: Iterable[object]) -> list[LogLine]:
    """The dice log's lines for the game's next events, told in order by the game's
    `Teller` (what it remembers of the events before: a hit on a fighter already down,
    the Wounds lost in all, a system's own notes), as `skirmish replay` tells them; an
    event no one words is shown as it is."""
    out: list[LogLine] = []
    for event in events:
        if not isinstance(event, Event):
            out.append(LogLine(describe_event(event), tone(event)))
            continue
        said = teller.say(event)
        if said:
            out.append(LogLine(said, tone(event)))
    return out


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
