"""Events: the one record of what happened. The renderer animates them, logs print
them, replays compare them. Each is a frozen dataclass; `event_dict` gives the
JSON form a save file keeps."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from game.words import joined

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events."""

    @property
    def name(self) -> str:
        return type(self).__name__


@dataclass(frozen=True, slots=True)
class Declared(Event):
    """A declaration was accepted."""

    side: str
    declaration: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    turn: int
    side: str
    orders: int = 0


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    turn: int
    side: str


@dataclass(frozen=True, slots=True)
class OrderSpent(Event):
    """An Order taken from a pool (regular, irregular or the Lieutenant's)."""

    side: str
    model: str
    pool: str
    remaining: int


@dataclass(frozen=True, slots=True)
class Moved(Event):
    model: str
    path: tuple[Point, ...]
    distance: float


@dataclass(frozen=True, slots=True)
class Modifier:
    source: str
    value: int


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A roll against an attribute: its modifiers, the success value or target number,
    and the dice with what each came to ("critical", "success", "fail", "cancelled")."""

    model: str
    purpose: str
    attribute: str
    base: int
    modifiers: tuple[Modifier, ...]
    target: int
    faces: tuple[int, ...]
    results: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Hit(Event):
    attacker: str
    target: str
    weapon: str
    critical: bool = False


@dataclass(frozen=True, slots=True)
class Missed(Event):
    attacker: str
    target: str
    weapon: str
    reason: str


@dataclass(frozen=True, slots=True)
class SaveRolled(Event):
    """Saving rolls: `target` is the number a die must not exceed to be saved (N5) or
    to wound (CodeOne, `wound_on_low`). No faces: the dice were not rolled (a target
    that cannot be reached fails every roll)."""

    model: str
    faces: tuple[int, ...]
    target: int
    wounds: int
    wound_on_low: bool = False
    # what the save is rolled against (ARM, BTS, PH...) and what moved the number
    # (partial cover, the weapon's MOD); empty where a system does not say
    attribute: str = ""
    modifiers: tuple[Modifier, ...] = ()


@dataclass(frozen=True, slots=True)
class TemplatePlaced(Event):
    """A teardrop template laid from the narrow end at `origin` toward `direction`
    (degrees); `affected` are the models it touches with no wall in between."""

    model: str
    weapon: str
    origin: Point
    direction: float
    length: float
    width: float
    affected: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Wounded(Event):
    model: str
    wounds: int
    total: int


@dataclass(frozen=True, slots=True)
class StateChanged(Event):
    model: str
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    winner: str | None
    reason: str
    scores: dict[str, int]


def beaten_reason(beaten: list[str], what: str) -> str:
    """Why a game ended with `beaten` sides out of it, as GameEnded's reason: "red has
    `what`", "red and blue have `what`" (the sides' ids, which the sentences name)."""
    return f"{joined(beaten)} {'has' if len(beaten) == 1 else 'have'} {what}"


# A field's metadata: leave the field out of the JSON form while it holds its default
# (an option added later, so logs and saves made before it stay byte-identical).
OMIT_DEFAULT = {"omit_default": True}


# Per class, its dataclass fields (None: not a dataclass), found once: asking
# `dataclasses.is_dataclass` of every value cost more than the rest of `_plain`.
_FIELDS: dict[type, tuple[dataclasses.Field[Any], ...] | None] = {}


def _fields_of(cls: type) -> tuple[dataclasses.Field[Any], ...] | None:
    try:
        return _FIELDS[cls]
    except KeyError:
        found = dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else None
        _FIELDS[cls] = found
        return found


def _plain(value: Any, exact: bool = False) -> Any:
    """JSON-ready values; floats rounded to 6 places unless `exact` (declarations must
    replay to the bit, logs read better rounded)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value  # the plain values first: most are
    if kind is float:
        return value if exact else round(value, 6)
    fields = None if kind is type else _fields_of(kind)
    if fields is not None:
        return {
            f.name: _plain(getattr(value, f.name), exact)
            for f in fields
            if not (f.metadata.get("omit_default") and getattr(value, f.name) == f.default)
        }
    if isinstance(value, tuple | list):
        return [_plain(v, exact) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v, exact) for k, v in value.items()}
    if isinstance(value, float) and not exact:
        return round(value, 6)
    return value


def event_dict(event: Event) -> dict[str, Any]:
    """The JSON form: {"event": "Hit", "attacker": ..., ...}, floats to 6 places (a field
    marked OMIT_DEFAULT left out while it holds its default)."""
    body: dict[str, Any] = _plain(event)
    return {"event": event.name, **body}
