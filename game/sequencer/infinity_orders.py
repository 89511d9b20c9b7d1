"""The declarations of Infinity's Order Expenditure Sequence and the state of an Order.

`Activate`, `React`, `Continue` and `EndTurn`, the `Skill` each declares (Move, BS
Attack, Dodge or Idle), the Order in progress with its AROs, the side's Order pools,
and the measures along a trooper's route that the sequence checks against (FACTS 3.4).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from game.sequencer.declarations import Declaration, declaration
from game.sequencer.events import OMIT_DEFAULT, Event
from game.sequencer.state import GameState, renew

Point = tuple[float, float]

ZONE_OF_CONTROL = 8.0  # Infinity: ZoC reaches 8" from the silhouette (FACTS 3.5)
ARO_BURST = 1  # Infinity: in ARO the Burst is always 1 (seed 002)
SPECULATIVE_MOD = -6  # Infinity: Speculative Attack, -6 plus range (FACTS 3.7)
MAX_BURST = 6  # Infinity: no Attack has more than Burst 6 (seed 002)
PARTIAL_COVER_MOD = -3  # Infinity: Partial Cover, -3 to the attacker's BS (seed 000)
CLOSE_COMBAT_MOD = -6  # Infinity: -6 per allied trooper engaged with the target (seed 000)
ENGAGED_GAP = 0.02  # base contact, inches
PATH_STEP = 0.5  # AROs are checked at points this far apart along a route
ACTIVE_STATES = ("normal", "prone")


class SkillKind(StrEnum):
    MOVE = "move"
    ATTACK = "attack"
    DODGE = "dodge"
    IDLE = "idle"


@dataclass(frozen=True, slots=True)
class Skill:
    """One skill of an Order or an ARO.

    Move: `path` are the waypoints after the start point; `facing` the facing at the
    end (default: the direction of the last leg). BS Attack: `weapon` and `targets`
    as (target id, dice) pairs; `origin` the point of the route it is made from
    (default: where the trooper is when the skill is declared); `allies_hit` the
    order in which allies engaged with the target take failed dice."""

    kind: SkillKind
    path: tuple[Point, ...] = ()
    facing: float | None = None
    weapon: str | None = None
    targets: tuple[tuple[str, int], ...] = ()
    origin: Point | None = None
    allies_hit: tuple[str, ...] = ()
    # Speculative Attack (FACTS 3.7): at a target out of LoF with an Impact Template
    # weapon, the template's centre at `at` (default: on the target)
    speculative: bool = False
    at: Point | None = None
    # Guts Roll (FACTS 3.3, "The player may choose to fail"): should this trooper have to
    # make one at the end of this Order, it fails it on purpose (no die is rolled)
    fail_guts: bool = dataclasses.field(default=False, metadata=OMIT_DEFAULT)

    def failing_guts(self, fail: bool = True) -> Skill:
        """The same skill, the trooper choosing to fail a Guts Roll this Order."""
        return renew(self, fail_guts=fail)

    @staticmethod
    def move(*path: Point, facing: float | None = None) -> Skill:
        return Skill(SkillKind.MOVE, path=tuple(path), facing=facing)

    @staticmethod
    def attack(weapon: str, *targets: tuple[str, int], origin: Point | None = None) -> Skill:
        return Skill(SkillKind.ATTACK, weapon=weapon, targets=tuple(targets), origin=origin)

    @staticmethod
    def speculative_attack(weapon: str, target: str, at: Point | None = None) -> Skill:
        """A Speculative Attack (Burst 1) at `target`, out of LoF, the Circular template
        centred at `at` (default: on the target)."""
        return Skill(SkillKind.ATTACK, weapon=weapon, targets=((target, 1),), speculative=True,
                     at=at)  # fmt: skip

    @staticmethod
    def dodge() -> Skill:
        return Skill(SkillKind.DODGE)

    @staticmethod
    def idle() -> Skill:
        return Skill(SkillKind.IDLE)


@declaration
@dataclass(frozen=True, slots=True)
class Activate(Declaration):
    model: str
    skill: Skill


@declaration
@dataclass(frozen=True, slots=True)
class React(Declaration):
    """An ARO. `at` is the point of the active trooper's route where it is taken
    (default: the end of the route so far). Idle = no ARO."""

    model: str
    skill: Skill
    at: Point | None = None


@declaration
@dataclass(frozen=True, slots=True)
class Continue(Declaration):
    skill: Skill


@declaration
@dataclass(frozen=True, slots=True)
class EndTurn(Declaration):
    pass


class Stage(StrEnum):
    ORDER = "order"
    ARO_FIRST = "aro-first"
    SECOND = "second"
    ARO_SECOND = "aro-second"


@dataclass(frozen=True, slots=True)
class Reaction:
    model: str
    skill: Skill
    at: Point


@dataclass(frozen=True, slots=True)
class OrderInProgress:
    model: str
    start: Point
    first: Skill
    route: tuple[Point, ...]  # the whole route so far, start included
    facing: float
    stage: Stage
    eligible: tuple[tuple[str, bool], ...]  # (reactor, may use any ARO / Dodge only)
    reactions: tuple[Reaction, ...] = ()
    second: Skill | None = None


@dataclass(frozen=True, slots=True)
class InfinityState(GameState):
    orders: int = 0  # the active side's regular Order pool
    irregular: frozenset[str] = frozenset()  # troopers with their Irregular Order unspent
    lieutenant_order: bool = False
    order: OrderInProgress | None = None


def _length(route: Iterable[Point]) -> float:
    pts = list(route)
    return sum(math.dist(a, b) for a, b in itertools.pairwise(pts))


def _along(route: tuple[Point, ...], step: float = PATH_STEP) -> list[Point]:
    """Points along a route, `step` apart, both ends included."""
    out = [route[0]]
    for a, b in itertools.pairwise(route):
        n = max(1, math.ceil(math.dist(a, b) / step))
        out.extend(
            (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(1, n + 1)
        )
    return out


def _on_route(route: tuple[Point, ...], p: Point, tol: float = 1e-6) -> bool:
    if len(route) == 1:
        return math.dist(route[0], p) <= tol
    for a, b in itertools.pairwise(route):
        ax, ay, bx, by = *a, *b
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        t = (
            0.0
            if length2 == 0
            else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
        )
        if math.dist((ax + t * dx, ay + t * dy), p) <= tol:
            return True
    return False


def _heading(a: Point, b: Point, default: float) -> float:
    if math.dist(a, b) < 1e-9:
        return default
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


def _skill_dict(skill: Skill) -> dict[str, object]:
    """The skill as a Declared event carries it: `_plain`'s JSON form without its empty
    fields, worked out field by field (a skill holds only text, numbers and tuples of
    them: one pass, not `_plain`'s general one)."""
    out: dict[str, object] = {}
    for name, omit, default in _SKILL_FIELDS:
        value = getattr(skill, name)
        if value is None or (isinstance(value, tuple | list) and not value):
            continue
        if omit and value == default:
            continue
        out[name] = _json(value)
    return out


_SKILL_FIELDS = tuple(
    (f.name, bool(f.metadata.get("omit_default")), f.default) for f in dataclasses.fields(Skill)
)


def _json(value: object) -> object:
    """`_plain` of text, numbers and tuples of them: tuples as lists, floats to 6 places."""
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    if isinstance(value, float):
        return round(value, 6)
    return value


@dataclass(frozen=True, slots=True)
class CircleTemplatePlaced(Event):
    """Infinity: an Impact Template's Circular template laid at `centre`; `affected`
    are the troopers it covers with no wall between them and the centre."""

    model: str
    weapon: str
    centre: Point
    diameter: float
    affected: tuple[str, ...]
    # the trooper it is centred on, where it is (the Main Target's place; session 9)
    on: str = dataclasses.field(default="", metadata=OMIT_DEFAULT)
