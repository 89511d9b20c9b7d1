"""Infinity on the order sequencer: Orders, AROs and BS Attacks.

The Order Expenditure Sequence (FACTS 3.4) as declarations:

1. `Activate(model, skill)`: the active player spends an Order and declares the
   first skill (Move, BS Attack, Dodge or Idle).
2. `React(model, skill, at)`: each enemy trooper eligible for an ARO declares one
   (Idle = no ARO). Eligible: the active trooper acts in its LoF and inside its
   180 degree arc (any skill), or inside its 8" Zone of Control (Dodge only).
3. `Continue(skill)`: the second skill (Idle if none).
4. `React(...)` again, for troopers that first became eligible now.
5-7. Resolution: moves, rolls (Face-to-Face where both attacks affect each
   other, Normal otherwise), saves, wounds and states; then the next Order.

`EndTurn()` gives up the Orders left. A game round is one turn of each side.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from game.errors import IllegalDeclaration
from game.geometry import BodyId
from game.geometry.measures import template_hits
from game.rules.infinity.data import InfinityProfile, InfinityWeapon
from game.rules.infinity.odds import CRIT, RollSide, Side, cap_mod, kept_ranks, resolve_ranks
from game.rules.infinity.saves import Defence as SaveDefence
from game.rules.infinity.saves import SaveSystem, save_rolls, save_threshold, wounds_on
from game.rules.infinity.saves import Weapon as SaveWeapon
from game.sequencer.declarations import Declaration, declaration
from game.sequencer.engine import Awaiting
from game.sequencer.events import (
    Declared,
    Event,
    GameEnded,
    Hit,
    Missed,
    Modifier,
    Moved,
    OrderSpent,
    Rolled,
    SaveRolled,
    StateChanged,
    TemplatePlaced,
    TurnEnded,
    TurnStarted,
    Wounded,
    _plain,
)
from game.sequencer.setup import Setup
from game.sequencer.sight import Cover, Placement, Sight, Sighting
from game.sequencer.state import GameState, ModelState

Point = tuple[float, float]

ZONE_OF_CONTROL = 8.0  # Infinity: ZoC reaches 8" from the silhouette (FACTS 3.5)
ARO_BURST = 1  # Infinity: in ARO the Burst is always 1 (seed 002)
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

    @staticmethod
    def move(*path: Point, facing: float | None = None) -> Skill:
        return Skill(SkillKind.MOVE, path=tuple(path), facing=facing)

    @staticmethod
    def attack(weapon: str, *targets: tuple[str, int], origin: Point | None = None) -> Skill:
        return Skill(SkillKind.ATTACK, weapon=weapon, targets=tuple(targets), origin=origin)

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


def is_direct_template(weapon: InfinityWeapon) -> bool:
    """A Direct Template Weapon: a teardrop laid from the user, no attack roll."""
    return weapon.template in ("small-teardrop", "large-teardrop")


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


def _results(ranks: list[int], survivors: int | None) -> tuple[str, ...]:
    """Each die's result for the log: critical, success, fail; "cancelled" for
    successes beaten in a Face-to-Face (survivors: the opponent's best rank)."""
    out = []
    for r in ranks:
        if r == 0:
            out.append("fail")
        elif survivors is not None and r <= survivors:
            out.append("cancelled")
        else:
            out.append("critical" if r == CRIT else "success")
    return tuple(out)


@dataclass(frozen=True, slots=True)
class PlannedRoll:
    """One side's dice against one opponent (or none), with every MOD, before rolling."""

    model: str
    purpose: str
    attribute: str
    base: int
    modifiers: tuple[Modifier, ...]
    burst: int
    weapon: InfinityWeapon | None  # None: Dodge
    target: str
    auto_fail: str = ""  # reason the dice cannot succeed (out of range)

    @property
    def sv(self) -> int:
        if self.auto_fail:
            return 0
        return self.base + cap_mod(sum(m.value for m in self.modifiers))


class InfinityEngine:
    """Infinity's turn structure and BS Attack resolution."""

    def __init__(self, setup: Setup, sight: Sight | None = None) -> None:
        self.setup = setup
        if sight is None:
            from game.sequencer.table_sight import TableSight

            sight = TableSight(setup)
        self.sight = sight
        self.profiles: dict[str, InfinityProfile] = {}
        self.weapons: dict[str, tuple[str, ...]] = {}
        self.lieutenants: set[str] = set()
        self.points: dict[str, int] = {}
        self.radii: dict[str, float] = {}
        for m in setup.models:
            profile = setup.profiles[m.profile]
            assert isinstance(profile, InfinityProfile)
            self.profiles[m.id] = profile
            self.weapons[m.id] = m.weapons
            self.points[m.id] = profile.points
            self.radii[m.id] = m.radius
            if m.lieutenant:
                self.lieutenants.add(m.id)
        self.system = SaveSystem.CODEONE if setup.header.saves == "codeone" else SaveSystem.N5
        self.turns = setup.header.turns

    # -- state ---------------------------------------------------------------

    def start(self, *, rng: np.random.Generator) -> tuple[GameState, list[Event]]:
        models = tuple(
            ModelState(m.id, m.side, m.at, m.facing, m.state or "normal") for m in self.setup.models
        )
        sides = tuple(s.id for s in self.setup.sides)
        state = InfinityState(turn=1, active=sides[0], sides=sides, models=models)
        return self._begin_turn(state, [])

    def _can_act(self, m: ModelState) -> bool:
        return m.status in ACTIVE_STATES

    def _placements(
        self, state: GameState, moved: Mapping[str, Placement] | None = None
    ) -> dict[str, Placement]:
        out = {m.id: Placement(m.at, m.facing, m.status != "dead") for m in state.models}
        if moved:
            out.update(moved)
        return out

    def _begin_turn(
        self, state: InfinityState, events: list[Event]
    ) -> tuple[InfinityState, list[Event]]:
        """Infinity Tactical Phase: one Order per trooper able to act, plus the Lieutenant's."""
        able = [m for m in state.side_models(state.active) if self._can_act(m)]
        irregular = frozenset(m.id for m in able if self.profiles[m.id].irregular)
        regular = sum(1 for m in able if m.id not in irregular)
        lieutenant = any(m.id in self.lieutenants for m in able)
        state = dataclasses.replace(
            state, orders=regular, irregular=irregular, lieutenant_order=lieutenant, order=None
        )
        events.append(
            TurnStarted(state.turn, state.active, regular + len(irregular) + int(lieutenant))
        )
        return state, events

    def _pool_for(self, state: InfinityState, model_id: str) -> str | None:
        """Which Order pays for this trooper: its own Irregular Order, the regular pool,
        or (the Lieutenant only) the Lieutenant's Order."""
        if model_id in state.irregular:
            return "irregular"
        if state.orders > 0 and not self.profiles[model_id].irregular:
            return "regular"
        if model_id in self.lieutenants and state.lieutenant_order:
            return "lieutenant"
        return None

    def _orders_left(self, state: InfinityState) -> int:
        return state.orders + len(state.irregular) + int(state.lieutenant_order)

    def awaiting(self, state: GameState) -> Awaiting:
        assert isinstance(state, InfinityState)
        if state.finished:
            return Awaiting(None, "over")
        order = state.order
        if order is None:
            able = tuple(
                m.id
                for m in state.side_models(state.active)
                if self._can_act(m) and self._pool_for(state, m.id) is not None
            )
            return Awaiting(state.active, "order", able)
        if order.stage is Stage.SECOND:
            return Awaiting(state.active, "second", (order.model,))
        reacted = {r.model for r in order.reactions}
        waiting = tuple(r for r, _ in order.eligible if r not in reacted)
        return Awaiting(state.other_side(state.active), "aro", waiting)

    # -- questions players (and AI) ask ---------------------------------------

    def can_act(self, model: ModelState) -> bool:
        return self._can_act(model)

    def sighting(
        self,
        state: GameState,
        shooter: str,
        target: str,
        moved: Mapping[str, Placement] | None = None,
    ) -> Sighting:
        """Line of fire, arc, cover and distance, the models placed by `state` and `moved`."""
        return self.sight.sighting(self._placements(state, moved), shooter, target)

    def lof_possible(
        self,
        state: GameState,
        asks: Sequence[tuple[str, str, Point | None]],
        moved: Mapping[str, Placement] | None = None,
    ) -> list[bool]:
        """For each (shooter, target, where the target stands; None: where `state` and
        `moved` put it): False when surely no line of fire (the cheap exact question,
        batched); True: ask `sighting`."""
        placements = self._placements(state, moved)
        return self.sight.clear_to(
            placements, [(a, b, at if at is not None else placements[b].at) for a, b, at in asks]
        )

    def in_arc(
        self,
        state: GameState,
        shooter: str,
        target: str,
        moved: Mapping[str, Placement] | None = None,
    ) -> bool:
        """Whether the target is at least partly in the shooter's arc (cheap: no sight lines)."""
        return self.sight.in_arc(self._placements(state, moved), shooter, target)

    def distance(
        self, state: GameState, a: str, b: str, moved: Mapping[str, Placement] | None = None
    ) -> float:
        """Edge to edge, in inches."""
        return self.sight.distance(self._placements(state, moved), a, b)

    def weapon(self, model_id: str, name: str | None = None) -> InfinityWeapon:
        """The trooper's weapon called `name` (its first when None); IllegalDeclaration
        if it has no such weapon."""
        return self._weapon(model_id, name)

    def planned_roll(
        self,
        state: GameState,
        shooter: str,
        target: str,
        weapon: str,
        *,
        reactive: bool = False,
        origin: Point | None = None,
    ) -> PlannedRoll:
        """The roll `shooter` would make with `weapon` at `target` (full Burst; Burst 1
        when `reactive`) from `origin` (default: where it stands): MODs, SV, Burst."""
        m = state.model(shooter)
        w = self._weapon(shooter, weapon)
        skill = Skill.attack(w.name, (target, w.burst))
        rolls = self._attack_rolls(
            state, shooter, origin or m.at, m.facing, skill, reactive=reactive
        )
        return rolls[target]

    def weapons_of(self, model_id: str) -> list[InfinityWeapon]:
        return [self._weapon(model_id, name) for name in self.weapons[model_id]]

    def path_blocked(self, state: GameState, model_id: str, path: tuple[Point, ...]) -> str | None:
        return self.sight.path_blocked(self._placements(state), model_id, path)

    # -- declarations ----------------------------------------------------------

    def apply(
        self, state: GameState, declaration: Declaration, *, rng: np.random.Generator
    ) -> tuple[GameState, list[Event]]:
        assert isinstance(state, InfinityState)
        events: list[Event] = []
        if isinstance(declaration, Activate):
            state = self._activate(state, declaration, events)
        elif isinstance(declaration, React):
            state = self._react(state, declaration, events)
        elif isinstance(declaration, Continue):
            state = self._continue(state, declaration, events)
        elif isinstance(declaration, EndTurn):
            if state.order is not None:
                raise IllegalDeclaration("finish the Order in progress before ending the turn")
            events.append(Declared(state.active, declaration.to_dict()))
            return self._end_turn(state, events)
        else:
            raise IllegalDeclaration(f"Infinity has no declaration {type(declaration).__name__}")
        order = state.order
        if order is not None and order.stage in (Stage.ARO_FIRST, Stage.ARO_SECOND):
            reacted = {r.model for r in order.reactions}
            if all(r in reacted for r, _ in order.eligible):
                if order.stage is Stage.ARO_FIRST:
                    state = dataclasses.replace(
                        state, order=dataclasses.replace(order, stage=Stage.SECOND)
                    )
                else:
                    state = self._resolve(state, events, rng)
        return state, events

    def _model(self, state: GameState, model_id: str) -> ModelState:
        try:
            return state.model(model_id)
        except KeyError:
            raise IllegalDeclaration(f"there is no model {model_id!r}") from None

    def _activate(self, state: InfinityState, d: Activate, events: list[Event]) -> InfinityState:
        if state.order is not None:
            raise IllegalDeclaration(f"{state.order.model} is still carrying out its Order")
        m = self._model(state, d.model)
        if m.side != state.active:
            raise IllegalDeclaration(f"{m.id} is not on the active side ({state.active})")
        if not self._can_act(m):
            raise IllegalDeclaration(f"{m.id} is {m.status} and cannot act")
        pool = self._pool_for(state, m.id)
        if pool == "irregular":
            state2 = dataclasses.replace(state, irregular=state.irregular - {m.id})
        elif pool == "regular":
            state2 = dataclasses.replace(state, orders=state.orders - 1)
        elif pool == "lieutenant":
            state2 = dataclasses.replace(state, lieutenant_order=False)
        else:
            raise IllegalDeclaration(f"no Order left for {m.id}")
        route, facing = self._route_after(state, m, (m.at,), m.facing, d.skill, first=True)
        order = OrderInProgress(m.id, m.at, d.skill, route, facing, Stage.ARO_FIRST, ())
        eligible = self._eligible(state2, order, d.skill, route, already=())
        order = dataclasses.replace(order, eligible=eligible)
        events.append(
            Declared(m.side, {"declare": "Activate", "model": m.id, "skill": _skill_dict(d.skill)})
        )
        events.append(OrderSpent(m.side, m.id, pool, self._orders_left(state2)))
        return dataclasses.replace(state2, order=order)

    def _route_after(
        self,
        state: GameState,
        m: ModelState,
        route: tuple[Point, ...],
        facing: float,
        skill: Skill,
        *,
        first: bool,
    ) -> tuple[tuple[Point, ...], float]:
        """Check a skill against the route so far; return the route and facing after it."""
        profile = self.profiles[m.id]
        if skill.kind is SkillKind.MOVE:
            if not skill.path:
                raise IllegalDeclaration("a Move needs at least one point to move to")
            allowance = profile.mov[0] if first else profile.mov[1]
            legs = (route[-1], *skill.path)
            length = _length(legs)
            if length > allowance + 1e-6:
                raise IllegalDeclaration(
                    f'{m.id} can move {allowance:g}" with this Move, not {length:.2f}"'
                )
            placements = self._placements(state, {m.id: Placement(route[-1], facing)})
            blocked = self.sight.path_blocked(placements, m.id, legs)
            if blocked:
                raise IllegalDeclaration(f"{m.id} cannot move there: {blocked}")
            end_facing = (
                skill.facing if skill.facing is not None else _heading(legs[-2], legs[-1], facing)
            )
            return (*route, *skill.path), end_facing
        if skill.kind is SkillKind.ATTACK:
            self._check_attack(state, m, route, facing, skill)
        return route, facing

    def _check_attack(
        self, state: GameState, m: ModelState, route: tuple[Point, ...], facing: float, skill: Skill
    ) -> None:
        weapon = self._weapon(m.id, skill.weapon)
        if weapon.template == "circular":
            raise IllegalDeclaration(f"{weapon.name}: Impact Templates are not played yet")
        if not skill.targets:
            raise IllegalDeclaration("a BS Attack needs at least one target")
        dice = sum(n for _, n in skill.targets)
        burst = min(weapon.burst, MAX_BURST)
        if any(n < 1 for _, n in skill.targets):
            raise IllegalDeclaration("each target needs at least one die")
        if dice != burst:
            # Infinity: in the Active Turn a trooper uses its full Burst (seed 002).
            raise IllegalDeclaration(f"{weapon.name} has Burst {burst}; {dice} dice were assigned")
        origin = skill.origin if skill.origin is not None else route[-1]
        if not _on_route(route, origin):
            raise IllegalDeclaration(f"the attack's origin {origin} is not on {m.id}'s route")
        placements = self._placements(state, {m.id: Placement(origin, facing)})
        seen: set[str] = set()
        for target_id, _ in skill.targets:
            if target_id in seen:
                raise IllegalDeclaration(
                    f"{target_id} is named twice; give it all its dice at once"
                )
            seen.add(target_id)
            t = self._model(state, target_id)
            if t.side == m.side:
                raise IllegalDeclaration(f"{t.id} is on {m.id}'s own side")
            if t.status == "dead":
                raise IllegalDeclaration(f"{t.id} is dead")
            s = self.sight.sighting(placements, m.id, t.id)
            if not s.in_arc:
                raise IllegalDeclaration(f"{t.id} is outside {m.id}'s 180 degree arc")
            if not s.lof or s.cover is Cover.TOTAL:
                raise IllegalDeclaration(
                    f"{m.id} has no line of fire to {t.id}"
                    + (f" ({s.reason})" if s.reason else " (total cover)")
                )
            if is_direct_template(weapon):
                self._template(state, m.id, origin, facing, weapon, t.id)

    def _weapon(self, model_id: str, name: str | None) -> InfinityWeapon:
        names = self.weapons[model_id]
        if name is None:
            if not names:
                raise IllegalDeclaration(f"{model_id} has no weapon")
            name = names[0]
        if name not in names:
            raise IllegalDeclaration(f"{model_id} has no {name} (it has {', '.join(names)})")
        weapon = self.setup.weapons[name]
        assert isinstance(weapon, InfinityWeapon)
        return weapon

    def _eligible(
        self,
        state: GameState,
        order: OrderInProgress,
        skill: Skill,
        route: tuple[Point, ...],
        already: Iterable[str],
    ) -> tuple[tuple[str, bool], ...]:
        """Enemy troopers that may declare an ARO, with whether any ARO (True) or only Dodge."""
        done = set(already)
        points = _along(route) if skill.kind is SkillKind.MOVE else [route[-1]]
        active = state.model(order.model)
        reactors = [
            r
            for r in state.models
            if r.side != active.side and r.id not in done and self._can_act(r)
        ]
        if not reactors:
            return ()
        base = self._placements(state)
        at = [{**base, active.id: Placement(p, order.facing)} for p in points]
        # Infinity: an ARO needs LoF (in the arc, enough of the trooper seen, not total
        # cover) at some point of the route; the exact "is any line clear" of every
        # in-arc point goes first, in one batch, and the full sighting only where it is
        arcs = {
            r.id: [k for k, pl in enumerate(at) if self.sight.in_arc(pl, r.id, active.id)]
            for r in reactors
        }
        asks = [(r.id, active.id, points[k]) for r in reactors for k in arcs[r.id]]
        clear = iter(self.sight.clear_to(base, asks))
        out: list[tuple[str, bool]] = []
        for r in reactors:
            open_points = [k for k in arcs[r.id] if next(clear)]
            lof = False
            for k in open_points:
                s = self.sight.sighting(at[k], r.id, active.id)
                if s.lof and s.in_arc and s.cover is not Cover.TOTAL:
                    lof = True
                    break
            # Infinity: or inside its Zone of Control (8") at some point of the route
            zoc = lof or any(
                self.sight.distance(pl, r.id, active.id) <= ZONE_OF_CONTROL for pl in at
            )
            if lof or zoc:
                out.append((r.id, lof))
        return tuple(out)

    def _react(self, state: InfinityState, d: React, events: list[Event]) -> InfinityState:
        order = state.order
        if order is None or order.stage not in (Stage.ARO_FIRST, Stage.ARO_SECOND):
            raise IllegalDeclaration("no ARO can be declared now")
        eligible = dict(order.eligible)
        if d.model not in eligible:
            raise IllegalDeclaration(
                f"{d.model} cannot react to {order.model} now "
                "(no line of fire, not in its Zone of Control)"
            )
        if any(r.model == d.model for r in order.reactions):
            raise IllegalDeclaration(f"{d.model} has already declared its ARO")
        at = d.at if d.at is not None else order.route[-1]
        if not _on_route(order.route, at):
            raise IllegalDeclaration(f"{at} is not on {order.model}'s route")
        kind = d.skill.kind
        if kind is SkillKind.MOVE:
            raise IllegalDeclaration("Move is not an ARO here; declare Dodge, a BS Attack or Idle")
        if kind is SkillKind.ATTACK:
            if not eligible[d.model]:
                raise IllegalDeclaration(
                    f"{d.model} has no line of fire to {order.model}: "
                    "inside its Zone of Control it may only Dodge"
                )
            if len(d.skill.targets) != 1 or d.skill.targets[0][0] != order.model:
                raise IllegalDeclaration(f"an ARO must target the active trooper, {order.model}")
            if d.skill.targets[0][1] != ARO_BURST:
                raise IllegalDeclaration("in ARO the Burst is 1")
            weapon = self._weapon(d.model, d.skill.weapon)
            if weapon.template == "circular":
                raise IllegalDeclaration(f"{weapon.name}: Impact Templates are not played yet")
            moved = {order.model: Placement(at, order.facing)}
            placements = self._placements(state, moved)
            s = self.sight.sighting(placements, d.model, order.model)
            if not (s.lof and s.in_arc) or s.cover is Cover.TOTAL:
                raise IllegalDeclaration(f"{d.model} has no line of fire to {order.model} at {at}")
            if is_direct_template(weapon):
                reactor = state.model(d.model)
                self._template(
                    state, d.model, reactor.at, reactor.facing, weapon, order.model, moved
                )
        reactor = state.model(d.model)
        events.append(Declared(reactor.side, d.to_dict()))
        order = dataclasses.replace(
            order, reactions=(*order.reactions, Reaction(d.model, d.skill, at))
        )
        return dataclasses.replace(state, order=order)

    def _continue(self, state: InfinityState, d: Continue, events: list[Event]) -> InfinityState:
        order = state.order
        if order is None or order.stage is not Stage.SECOND:
            raise IllegalDeclaration("no second skill can be declared now")
        first, second = order.first.kind, d.skill.kind
        actions = {SkillKind.ATTACK, SkillKind.DODGE}
        # Infinity: Short Movement + Short Movement, or Short Movement + Short Skill.
        if first in actions and second in actions:
            raise IllegalDeclaration(
                f"{first} and {second} cannot share one Order (one Short Skill at most)"
            )
        m = state.model(order.model)
        route, facing = self._route_after(
            state, m, order.route, order.facing, d.skill, first=first is not SkillKind.MOVE
        )
        order = dataclasses.replace(order, route=route, facing=facing, second=d.skill)
        done = [r for r, _ in order.eligible]
        new = (
            self._eligible(state, order, d.skill, route, already=done)
            if second is SkillKind.MOVE
            else ()
        )
        order = dataclasses.replace(order, eligible=(*order.eligible, *new), stage=Stage.ARO_SECOND)
        events.append(
            Declared(state.active, {"declare": "Continue", "skill": _skill_dict(d.skill)})
        )
        return dataclasses.replace(state, order=order)

    # -- resolution ------------------------------------------------------------

    def _resolve(
        self, state: InfinityState, events: list[Event], rng: np.random.Generator
    ) -> InfinityState:
        order = state.order
        assert order is not None
        active = state.model(order.model)
        if len(order.route) > 1:
            events.append(Moved(active.id, order.route, _length(order.route)))
        end = order.route[-1]
        state = dataclasses.replace(
            state.with_model(active.replace(at=end, facing=order.facing)), order=None
        )
        skills = [s for s in (order.first, order.second) if s is not None]
        attack = next((s for s in skills if s.kind is SkillKind.ATTACK), None)
        dodging = any(s.kind is SkillKind.DODGE for s in skills)
        # The active trooper's rolls against each target, and each reactor's roll.
        active_rolls: dict[str, PlannedRoll] = {}
        template_attack: tuple[InfinityWeapon, Point, str] | None = None
        if attack is not None:
            origin = (
                attack.origin
                if attack.origin is not None
                else (order.start if attack is order.first else end)
            )
            weapon = self._weapon(active.id, attack.weapon)
            if is_direct_template(weapon):
                template_attack = (weapon, origin, attack.targets[0][0])
            else:
                active_rolls = self._attack_rolls(
                    state, active.id, origin, order.facing, attack, reactive=False
                )
        reaction_rolls: dict[str, PlannedRoll] = {}
        template_aros: list[Reaction] = []
        for r in order.reactions:
            if r.skill.kind is SkillKind.ATTACK and is_direct_template(
                self._weapon(r.model, r.skill.weapon)
            ):
                # Infinity: a Direct Template makes no roll, so no Face-to-Face with it.
                template_aros.append(r)
            elif r.skill.kind is SkillKind.ATTACK:
                reaction_rolls[r.model] = self._attack_rolls(
                    state,
                    r.model,
                    state.model(r.model).at,
                    state.model(r.model).facing,
                    r.skill,
                    reactive=True,
                    target_at=r.at,
                )[active.id]
            elif r.skill.kind is SkillKind.DODGE:
                reaction_rolls[r.model] = self._dodge_roll(r.model, active.id)
        damage: list[
            tuple[str, str, InfinityWeapon, int, int]
        ] = []  # attacker, target, weapon, hits, crits
        if template_attack is not None:
            weapon, origin, main = template_attack
            affected = self._lay_template(
                state, active.id, origin, order.facing, weapon, main, {}, events
            )
            for a in affected:
                theirs = reaction_rolls.get(a)
                if theirs is not None and theirs.weapon is None:  # it Dodges the template
                    del reaction_rolls[a]
                    if self._dodges_template(state, a, active.id, events, rng):
                        continue
                damage.append((active.id, a, weapon, 1, 0))
        for r in template_aros:
            weapon = self._weapon(r.model, r.skill.weapon)
            user = state.model(r.model)
            moved = {active.id: Placement(r.at, order.facing)}
            affected = self._lay_template(
                state, r.model, user.at, user.facing, weapon, active.id, moved, events
            )
            for a in affected:
                if (
                    a == active.id
                    and dodging
                    and self._dodges_template(state, a, r.model, events, rng)
                ):
                    continue
                damage.append((r.model, a, weapon, 1, 0))
        order_of_targets = list(active_rolls)
        for target in order_of_targets:
            mine = active_rolls[target]
            theirs = reaction_rolls.pop(target, None)
            if theirs is not None:  # both affect each other: Face-to-Face
                hits_me, hits_them, fails = self._face_to_face(mine, theirs, events, rng)
                if theirs.weapon is not None:
                    damage.append((theirs.model, active.id, theirs.weapon, *hits_me))
            else:
                hits_them, fails = self._normal(mine, events, rng)
            if mine.weapon is not None:
                damage.append((active.id, target, mine.weapon, *hits_them))
                # Infinity: shooting into close combat, every failed die hits an allied
                # trooper engaged with the target, the shooter's player choosing which.
                allies = self._engaged_allies(state, active.id, target)
                if allies and fails and not mine.auto_fail:
                    chosen = [a for a in attack.allies_hit if a in allies] if attack else []
                    pick = chosen + [a for a in allies if a not in chosen]
                    for i in range(fails):
                        damage.append((active.id, pick[i % len(pick)], mine.weapon, 1, 0))
        for reactor, roll in reaction_rolls.items():
            if roll.weapon is None:  # a Dodge against an attack that was not made: no roll
                continue
            if dodging:
                # The active trooper's Dodge against an attack that targets it: Face-to-Face.
                dodge = self._dodge_roll(active.id, reactor)
                _, hits_me, _ = self._face_to_face(roll, dodge, events, rng)
                damage.append((reactor, active.id, roll.weapon, *hits_me))
            else:
                reactor_hits, _ = self._normal(roll, events, rng)
                damage.append((reactor, active.id, roll.weapon, *reactor_hits))
        for attacker, target, weapon, hits, crits in damage:
            if hits + crits:
                state = self._hit(state, attacker, target, weapon, hits, crits, events, rng)
        return self._after_order(state, events)

    def _attack_rolls(
        self,
        state: GameState,
        shooter: str,
        origin: Point,
        facing: float,
        skill: Skill,
        *,
        reactive: bool,
        target_at: Point | None = None,
    ) -> dict[str, PlannedRoll]:
        weapon = self._weapon(shooter, skill.weapon)
        profile = self.profiles[shooter]
        moved = {shooter: Placement(origin, facing)}
        out: dict[str, PlannedRoll] = {}
        for target_id, dice in skill.targets:
            placements = self._placements(state, moved)
            if target_at is not None:
                placements[target_id] = Placement(target_at, placements[target_id].facing)
            s = self.sight.sighting(placements, shooter, target_id)
            mods: list[Modifier] = []
            band = weapon.range_mod(s.distance)
            auto_fail = ""
            if band is None:
                # Infinity: beyond the weapon's longest band the attack fails (seed 000).
                auto_fail = f'out of range ({s.distance:.1f}" > {weapon.max_range:g}")'
            else:
                mods.append(Modifier(f'range {s.distance:.1f}"', band))
            if s.cover is Cover.PARTIAL:
                mods.append(Modifier("partial cover", PARTIAL_COVER_MOD))
            mimetism = self.profiles[target_id].mimetism
            if mimetism:
                mods.append(Modifier("mimetism", mimetism))
            engaged = self._engaged_allies(state, shooter, target_id)
            if engaged:
                mods.append(
                    Modifier(
                        f"close combat ({len(engaged)} allies)", CLOSE_COMBAT_MOD * len(engaged)
                    )
                )
            out[target_id] = PlannedRoll(
                shooter, f"BS Attack ({weapon.name}) at {target_id}", "BS", profile.bs, tuple(mods),
                ARO_BURST if reactive else dice, weapon, target_id, auto_fail,
            )  # fmt: skip
        return out

    # -- Direct Template Weapons (FACTS 3.6) --------------------------------------

    def _template_size(self, weapon: InfinityWeapon) -> tuple[float, float]:
        """Length and width of the weapon's teardrop, from the rule data."""
        values = getattr(self.setup, "rule_values", {})
        key = (weapon.template or "").replace("-", "_")
        try:
            return float(values[f"{key}_length"]), float(values[f"{key}_width"])
        except KeyError:
            raise IllegalDeclaration(
                f"the size of a {weapon.template} template is not in the rule data"
            ) from None

    def _template(
        self,
        state: GameState,
        shooter: str,
        at: Point,
        facing: float,
        weapon: InfinityWeapon,
        target: str,
        moved: Mapping[str, Placement] | None = None,
    ) -> tuple[Point, float, float, float, tuple[str, ...]]:
        """Infinity: a teardrop with its narrow end touching the edge of the user's base,
        laid toward the target; everyone it touches with no wall between is affected,
        and it may not cover a friend. (start, direction, length, width, affected)."""
        length, width = self._template_size(weapon)
        placements = self._placements(state, {shooter: Placement(at, facing), **(moved or {})})
        direction = _heading(at, placements[target].at, facing)
        rad = math.radians(direction)
        r = self.radii[shooter]
        start = (at[0] + math.cos(rad) * r, at[1] + math.sin(rad) * r)
        table = self.sight.table_at(placements)
        hits = template_hits(table, start, direction, length, width, exclude=(BodyId(shooter),))
        affected = tuple(str(b) for b in hits)
        if target not in affected:
            raise IllegalDeclaration(
                f"{weapon.name}'s template ({length:g}\") does not reach {target}"
            )
        side = state.model(shooter).side
        friends = [a for a in affected if state.model(a).side == side]
        if friends:
            raise IllegalDeclaration(
                f"{weapon.name}'s template would cover {', '.join(friends)}, on {shooter}'s side"
            )
        return start, direction, length, width, affected

    def _lay_template(
        self,
        state: GameState,
        shooter: str,
        at: Point,
        facing: float,
        weapon: InfinityWeapon,
        target: str,
        moved: Mapping[str, Placement],
        events: list[Event],
    ) -> tuple[str, ...]:
        start, direction, length, width, affected = self._template(
            state, shooter, at, facing, weapon, target, moved
        )
        events.append(
            TemplatePlaced(shooter, weapon.name, start, direction, length, width, affected)
        )
        return affected

    def _dodges_template(
        self, state: GameState, model: str, user: str, events: list[Event], rng: np.random.Generator
    ) -> bool:
        """Infinity: Dodging a Direct Template is a Normal PH roll (with a MOD from the
        rule data when the dodger has no LoF to the template's user)."""
        mods: list[Modifier] = []
        value = getattr(self.setup, "rule_values", {}).get("dodge_template_without_lof_mod")
        if value and not self.sight.sighting(self._placements(state), model, user).lof:
            mods.append(Modifier(f"no line of fire to {user}", int(value)))
        roll = PlannedRoll(
            model, f"Dodge the template of {user}", "PH", self.profiles[model].ph,
            tuple(mods), 1, None, user,
        )  # fmt: skip
        (hits, crits), _ = self._normal(roll, events, rng)
        return hits + crits > 0

    def _dodge_roll(self, model: str, against: str) -> PlannedRoll:
        # Infinity: Dodge is a PH roll (Face-to-Face against the attack).
        return PlannedRoll(
            model, f"Dodge against {against}", "PH", self.profiles[model].ph, (), 1, None, against
        )

    def _engaged_allies(self, state: GameState, shooter: str, target: str) -> list[str]:
        placements = self._placements(state)
        side = state.model(shooter).side
        return [
            m.id for m in state.models
            if m.side == side and m.id != shooter and m.status != "dead"
            and self.sight.distance(placements, m.id, target) <= ENGAGED_GAP
        ]  # fmt: skip

    def _roll_dice(
        self, roll: PlannedRoll, rng: np.random.Generator
    ) -> tuple[list[int], list[int]]:
        side = RollSide(roll.sv, roll.burst)
        faces = [int(f) for f in rng.integers(1, 21, size=side.dice)]
        return faces, kept_ranks(side, faces)

    def _log(
        self,
        roll: PlannedRoll,
        faces: list[int],
        ranks: list[int],
        beaten_by: int | None,
        events: list[Event],
    ) -> None:
        events.append(
            Rolled(
                roll.model,
                roll.purpose,
                roll.attribute,
                roll.base,
                roll.modifiers,
                roll.sv,
                tuple(faces),
                _results(ranks, beaten_by),
            )
        )
        if roll.auto_fail:
            events.append(
                Missed(
                    roll.model, roll.target, roll.weapon.name if roll.weapon else "", roll.auto_fail
                )
            )

    def _normal(
        self, roll: PlannedRoll, events: list[Event], rng: np.random.Generator
    ) -> tuple[tuple[int, int], int]:
        """(non-critical hits, critical hits) and the number of failed dice."""
        faces, ranks = self._roll_dice(roll, rng)
        self._log(roll, faces, ranks, None, events)
        crits = sum(1 for r in ranks if r == CRIT)
        return (sum(1 for r in ranks if 0 < r < CRIT), crits), ranks.count(0)

    def _face_to_face(
        self, one: PlannedRoll, two: PlannedRoll, events: list[Event], rng: np.random.Generator
    ) -> tuple[tuple[int, int], tuple[int, int], int]:
        """Hits (non-critical, critical) that `one` takes and that `two` takes, and the
        number of `one`'s dice that failed."""
        faces1, ranks1 = self._roll_dice(one, rng)
        faces2, ranks2 = self._roll_dice(two, rng)
        outcome = resolve_ranks(ranks1, ranks2)
        self._log(one, faces1, ranks1, max(ranks2, default=0), events)
        self._log(two, faces2, ranks2, max(ranks1, default=0), events)
        return outcome.hits_on(Side.ONE), outcome.hits_on(Side.TWO), ranks1.count(0)

    def _hit(
        self,
        state: InfinityState,
        attacker: str,
        target: str,
        weapon: InfinityWeapon,
        hits: int,
        crits: int,
        events: list[Event],
        rng: np.random.Generator,
    ) -> InfinityState:
        for i in range(hits + crits):
            events.append(Hit(attacker, target, weapon.name, critical=i >= hits))
        t = state.model(target)
        profile = self.profiles[target]
        # Infinity: the exchange is simultaneous; a model dropped by an earlier hit of the
        # same Order still stands for the cover of the others.
        placements = self._placements(state)
        for model_id in (attacker, target):
            placements[model_id] = dataclasses.replace(placements[model_id], present=True)
        cover = self.sight.sighting(placements, attacker, target).cover is Cover.PARTIAL
        if is_direct_template(weapon):
            # Whether Partial Cover helps saves against a template is rule data (FACTS 3.6).
            cover = cover and bool(
                getattr(self.setup, "rule_values", {}).get("template_partial_cover_save")
            )
        ammo = weapon.ammo
        arm = profile.bts if weapon.save == "BTS" else profile.arm
        value = (
            weapon.damage if self.system is SaveSystem.CODEONE else weapon.possibility_of_survival
        )
        save_weapon = SaveWeapon(self.system, value, ammo)
        defence = SaveDefence(arm, cover)
        rolls = save_rolls(hits, crits, ammo)
        faces = [int(f) for f in rng.integers(1, 21, size=rolls)]
        wounds = sum(1 for f in faces if wounds_on(f, save_weapon, defence))
        threshold = save_threshold(save_weapon, defence)
        low = self.system is SaveSystem.CODEONE
        events.append(SaveRolled(target, tuple(faces), threshold, wounds, wound_on_low=low))
        if wounds == 0:
            return state
        total = t.wounds + wounds
        events.append(Wounded(target, wounds, total))
        # Infinity: Unconscious at exactly VITA/STR wounds; Dead beyond, or wounded
        # again while Unconscious.
        if t.status == "unconscious" or total > profile.wounds:
            after = "dead"
        elif total == profile.wounds:
            after = "unconscious"
        else:
            after = t.status
        if after != t.status:
            events.append(StateChanged(target, t.status, after))
        return state.with_model(t.replace(wounds=total, status=after))

    # -- turns and victory -----------------------------------------------------

    def _after_order(self, state: InfinityState, events: list[Event]) -> InfinityState:
        ended = self._victory(state, events)
        if ended is not None:
            return ended
        able = [m for m in state.side_models(state.active) if self._can_act(m)]
        if self._orders_left(state) == 0 or not able:
            new, _ = self._end_turn(state, events)
            assert isinstance(new, InfinityState)
            return new
        return state

    def _victory(
        self, state: InfinityState, events: list[Event], *, final: bool = False
    ) -> InfinityState | None:
        alive = {s: [m for m in state.side_models(s) if self._can_act(m)] for s in state.sides}
        beaten = [s for s, models in alive.items() if not models]
        scores = {s: sum(self.points[m.id] for m in alive[s]) for s in state.sides}
        if beaten:
            standing = [s for s in state.sides if s not in beaten]
            winner = standing[0] if len(standing) == 1 else None
            reason = f"{', '.join(beaten)} has nothing left able to act"
        elif final:
            held = self._objectives_held(state)
            if self.setup.objectives:
                # Scenario objectives decide; the points of troopers left break a tie.
                scores = {s: sum(p for side, _, p in held if side == s) for s in state.sides}
                left = {s: sum(self.points[m.id] for m in alive[s]) for s in state.sides}
                ranking = {s: (scores[s], left[s]) for s in state.sides}
                what = (
                    "objective points ("
                    + (", ".join(f"{o} to {side}" for side, o, _ in held) or "none held")
                    + "), then points of troopers still able to act"
                )
            else:
                ranking = {s: (scores[s], 0) for s in state.sides}
                what = "points of troopers still able to act"
            best = max(ranking.values())
            leaders = [s for s, v in ranking.items() if v == best]
            winner = leaders[0] if len(leaders) == 1 else None
            reason = f"turn limit ({self.turns}): {what}"
        else:
            return None
        events.append(GameEnded(winner, reason, scores))
        return dataclasses.replace(state, finished=True, winner=winner, order=None)

    def _objectives_held(self, state: GameState) -> list[tuple[str, str, int]]:
        """(side, objective, points) for each objective a side holds: more of its troopers
        able to act with their base within the objective's radius than any other side."""
        held = []
        for objective in self.setup.objectives:
            near: dict[str, int] = {}
            for m in state.models:
                radius = self.radii[m.id]
                gap = math.dist(m.at, objective.at) - radius
                if self._can_act(m) and gap <= objective.radius:
                    near[m.side] = near.get(m.side, 0) + 1
            if near:
                most = max(near.values())
                leaders = [side for side, n in near.items() if n == most]
                if len(leaders) == 1:
                    held.append((leaders[0], objective.id, objective.points))
        return held

    def _end_turn(
        self, state: InfinityState, events: list[Event]
    ) -> tuple[InfinityState, list[Event]]:
        events.append(TurnEnded(state.turn, state.active))
        index = state.sides.index(state.active)
        if index + 1 < len(state.sides):
            state = dataclasses.replace(state, active=state.sides[index + 1])
        else:
            if state.turn >= self.turns:
                ended = self._victory(state, events, final=True)
                assert ended is not None
                return ended, events
            state = dataclasses.replace(state, turn=state.turn + 1, active=state.sides[0])
        state, events = self._begin_turn(state, events)
        if self._orders_left(state) == 0:
            return self._end_turn(state, events)
        return state, events


def _skill_dict(skill: Skill) -> dict[str, object]:
    body = {f.name: _plain(getattr(skill, f.name)) for f in dataclasses.fields(skill)}
    return {k: v for k, v in body.items() if v not in ((), None, [])}
