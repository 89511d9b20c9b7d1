"""The dice log and the event animations: what the table makes of the game's events.

Each event becomes a log line: its sentence in the rule system's own words, from the
one place that words events (game.sequencer.sentences, the registry's "sentences"
part), coloured by the kind of event. Attacks become shot lines drawn for a few
frames; a system's own events are animated by its play adapter (`PlayRules.effects`,
as `Effect`s). Events no one words (a bare game's) fall back to `describe_event`.

No pygame here.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from game.render.link import describe_event
from game.rules.registry import Ruleset
from game.sequencer.events import Event, Hit, Missed, Moved, Rolled
from game.sequencer.sentences import Teller, describe

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the dice log; `kind` picks its colour."""

    text: str
    kind: str = "info"  # info | roll | hit | save | wound | state | turn


@dataclass(frozen=True, slots=True)
class Shot:
    """A shot line from one model to another, drawn for `frames` more frames from
    `start`, where the shooter fired, to `end`, where the target stood then (table
    inches: a model that moves on after the shot leaves the line where it was)."""

    shooter: str
    target: str
    hit: bool
    frames: int
    start: Point
    end: Point


# Where the events' order does not say where a shot was taken: (shooter, target) -> the
# shooter's place and the target's, None for where the events have the model then.
Aimed = Mapping[tuple[str, str], tuple[Point | None, Point | None]]


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


def places_along(
    events: Iterable[object], where: Mapping[str, Point]
) -> Iterator[tuple[object, dict[str, Point]]]:
    """Each event with every model's place as it happens: `where` (each model's place
    before the events) moved on by each Moved event once it has passed, so that a shot
    made before a move is placed where the shooter stood when it fired."""
    at = dict(where)
    for e in events:
        yield e, at
        if isinstance(e, Moved) and e.path and e.model in at:
            at[e.model] = e.path[-1]


def shots(
    events: Sequence[object], where: Mapping[str, Point], frames: int, aimed: Aimed | None = None
) -> list[Shot]:
    """A shot line per attack roll at a model (BS Attack ... at ID), marked hit when a
    Hit from that shooter on that target follows, from where the shooter stood when it
    fired to where the target stood then (`places_along`; `aimed`, from the rule
    system's adapter, where the events' order does not say it)."""
    hits = {(e.attacker, e.target) for e in events if isinstance(e, Hit)}
    aimed = aimed or {}
    out: list[Shot] = []
    seen: set[tuple[str, str]] = set()
    for e, at in places_along(events, where):
        pair: tuple[str, str] | None = None
        if isinstance(e, Rolled) and " at " in e.purpose:
            target = e.purpose.rsplit(" at ", 1)[1].strip()
            if target in at:
                pair = (e.model, target)
        elif isinstance(e, Hit | Missed):
            pair = (e.attacker, e.target)
        if pair is None or pair in seen or not (pair[0] in at and pair[1] in at):
            continue
        seen.add(pair)
        start, end = aimed.get(pair, (None, None))
        out.append(Shot(*pair, pair in hits, frames, start or at[pair[0]], end or at[pair[1]]))
    return out
