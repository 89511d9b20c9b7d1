"""The Infinity search player: sampled lookahead over Orders and AROs (game.ai.search).

Candidates: an Order's BS Attacks from where each trooper stands and the careful
player's moves (move and shoot, move out of sight), moves into cover (a base against
a scenery piece, fewest enemies with a clear line there first) and onto objectives,
and ending the turn; an ARO's careful answer, shots from a few points of the route,
Dodge and no ARO; a second skill's shots, Dodge and Idle. The lookahead plays the
Order to its end (the enemy's AROs by the simple player) and scores the position by
`game/ai/weights/infinity.toml`: points of troopers kept and taken out (wounds and
Unconscious in between), objectives held (more as the last turn nears), each trooper's
exposure to enemies with a clear line to it next turn (less in partial cover) and its
own lines to enemies (AROs kept for their turn)."""

from __future__ import annotations

import contextlib
import math

from game.ai.infinity import CarefulInfinityPlayer, SimpleInfinityPlayer, _facing
from game.ai.search import Policy, SearchPlayer, cover_spots
from game.errors import IllegalDeclaration
from game.sequencer.declarations import Declaration
from game.sequencer.engine import Awaiting, Engine
from game.sequencer.infinity import (
    Activate,
    Continue,
    EndTurn,
    InfinityEngine,
    InfinityState,
    React,
    Skill,
    SkillKind,
    _along,
)
from game.sequencer.sight import Cover
from game.sequencer.state import GameState, ModelState

Point = tuple[float, float]


class SearchInfinityPlayer(SearchPlayer):
    """Chooses Orders and AROs by looking ahead (see the module's note)."""

    SYSTEM = "infinity"

    def __init__(self, engine: Engine, **options: object) -> None:
        assert isinstance(engine, InfinityEngine)
        self.inf = engine
        self.careful = CarefulInfinityPlayer(engine)
        super().__init__(engine, **options)  # type: ignore[arg-type]

    def rollout_policy(self) -> Policy:
        return SimpleInfinityPlayer(self.inf)

    # -- candidates ------------------------------------------------------------------

    def candidates(self, state: GameState, awaiting: Awaiting) -> list[tuple[Declaration, float]]:
        assert isinstance(state, InfinityState)
        if awaiting.kind == "order":
            return self._orders(state, awaiting.models)
        if awaiting.kind == "second":
            return self._seconds(state)
        if awaiting.kind == "aro":
            return self._aros(state, awaiting.models[0])
        return []

    def passes(self, state: GameState, awaiting: Awaiting) -> list[Declaration]:
        if awaiting.kind == "order":
            return [EndTurn()]
        if awaiting.kind == "second":
            return [Continue(Skill.idle())]
        if awaiting.kind == "aro":
            return [
                React(awaiting.models[0], Skill.idle()),
                React(awaiting.models[0], Skill.dodge()),
            ]
        return []

    def _orders(
        self, state: InfinityState, payable: tuple[str, ...]
    ) -> list[tuple[Declaration, float]]:
        w = self.weights
        able = [state.model(m) for m in payable]
        shots: list[tuple[Declaration, float]] = []
        moves: list[tuple[Declaration, float]] = []
        for m in able:
            for value, weapon, target in self.careful._shots(state, m):
                skill = Skill.attack(weapon.name, (target, weapon.burst))
                shots.append((Activate(m.id, skill), value))
        for m in self.careful._movers(state, able):
            for value, skill in self.careful._moves(state, m):
                moves.append((Activate(m.id, skill), value))
        covers: list[tuple[Declaration, float]] = []
        for m in able:
            covers.extend(self._cover_moves(state, m))
            covers.extend(self._objective_moves(state, m))
        shots.sort(key=lambda c: -c[1])
        moves.sort(key=lambda c: -c[1])
        covers.sort(key=lambda c: -c[1])
        out = shots[: int(w.search["shots"])] + moves[: int(w.search["moves"])]
        out += covers[: int(w.search["covers"])]
        out.append((EndTurn(), 0.0))  # nothing dealt, nothing taken
        return out

    def _cover_moves(self, state: InfinityState, m: ModelState) -> list[tuple[Declaration, float]]:
        """Moves to a base against scenery within the first MOV, fewest enemies with a
        clear line there first (one batch); the straight route must be clear."""
        reach = self.inf.profiles[m.id].mov[0]
        radius = self.inf.radii[m.id]
        spots = cover_spots(self.inf.setup, m.at, reach, radius, every=1.5)
        enemy = self.careful._nearest_enemy(state, m)
        enemies = [e.id for e in state.models if e.side != m.side and self.inf.can_act(e)]
        if enemy is None or not spots or not enemies:
            return []
        points = [m.at, *spots]
        clear = self.inf.lof_possible(state, [(e, m.id, p) for p in points for e in enemies])
        seen = [sum(clear[i * len(enemies) : (i + 1) * len(enemies)]) for i in range(len(points))]
        here = seen[0]
        scored = sorted((seen[i + 1], math.dist(p, enemy.at), p) for i, p in enumerate(spots))
        out: list[tuple[Declaration, float]] = []
        for count, _, p in scored[:6]:
            if self.inf.path_blocked(state, m.id, (m.at, p)) is not None:
                continue
            skill = Skill.move(p, facing=_facing(p, enemy.at))
            out.append((Activate(m.id, skill), 0.1 * (here - count)))
            if len(out) >= 2:
                break
        return out

    def _objective_moves(
        self, state: InfinityState, m: ModelState
    ) -> list[tuple[Declaration, float]]:
        out: list[tuple[Declaration, float]] = []
        reach = self.inf.profiles[m.id].mov[0]
        radius = self.inf.radii[m.id]
        enemy = self.careful._nearest_enemy(state, m)
        for objective in self.inf.setup.objectives:
            gap = math.dist(m.at, objective.at)
            if gap - radius <= objective.radius:
                continue
            step = min(reach, gap - radius - objective.radius * 0.5)
            if step <= 0.25:
                continue
            f = step / gap
            end = (
                m.at[0] + (objective.at[0] - m.at[0]) * f,
                m.at[1] + (objective.at[1] - m.at[1]) * f,
            )
            if self.inf.path_blocked(state, m.id, (m.at, end)) is not None:
                continue
            facing = _facing(end, enemy.at) if enemy is not None else m.facing
            out.append((Activate(m.id, Skill.move(end, facing=facing)), 0.05 * objective.points))
        return out

    def _seconds(self, state: InfinityState) -> list[tuple[Declaration, float]]:
        order = state.order
        assert order is not None
        out: list[tuple[Declaration, float]] = [(Continue(Skill.idle()), 0.0)]
        if order.first.kind is SkillKind.MOVE:
            m = state.model(order.model)
            moved = m.replace(at=order.route[-1], facing=order.facing)
            for value, weapon, target in self.careful._shots(state.with_model(moved), moved):
                out.append((Continue(Skill.attack(weapon.name, (target, weapon.burst))), value))
            out.append((Continue(Skill.dodge()), -0.05))
        return out

    def _aros(self, state: InfinityState, reactor: str) -> list[tuple[Declaration, float]]:
        order = state.order
        assert order is not None
        full = dict(order.eligible)[reactor]
        out: list[tuple[Declaration, float]] = [
            (React(reactor, Skill.idle()), 0.0),
            (React(reactor, Skill.dodge()), 0.0),
        ]
        with contextlib.suppress(IllegalDeclaration, KeyError):
            out.append((self.careful._aro(state, reactor), 0.5))
        if full:
            points = _along(order.route)
            picks = {points[0], points[len(points) // 2], points[-1]}
            for point in sorted(picks):
                for weapon in self.inf.weapons_of(reactor):
                    if not weapon.bands:
                        continue
                    skill = Skill.attack(weapon.name, (order.model, 1))
                    out.append((React(reactor, skill, at=point), 0.1))
        return out

    # -- the lookahead ---------------------------------------------------------------

    def horizon(self, root: GameState, root_awaiting: Awaiting, state: GameState) -> bool:
        assert isinstance(state, InfinityState)
        return state.order is None

    def evaluate(self, state: GameState, side: str) -> float:
        assert isinstance(state, InfinityState)
        w = self.weights
        inf = self.inf
        total = 0.0
        able: dict[str, list[ModelState]] = {}
        for m in state.models:
            points = inf.points[m.id] or 10
            profile = inf.profiles[m.id]
            if m.status == "dead":
                worth = 0.0
            elif m.status == "unconscious":
                worth = w["unconscious"]
            else:
                worth = 1.0 - w["wound"] * m.wounds / profile.wounds
                able.setdefault(m.side, []).append(m)
            total += points * worth if m.side == side else -w["enemy"] * points * worth
        if state.finished:
            return total + self.won(state, side)
        total += self._objectives(state, side, able)
        total += self._lines(state, side, able)
        return total

    def _objectives(
        self, state: InfinityState, side: str, able: dict[str, list[ModelState]]
    ) -> float:
        if not self.inf.setup.objectives:
            return 0.0
        w = self.weights
        urgency = w["objective"] * (1.0 + w["objective_late"] * (state.turn - 1))
        total = 0.0
        for objective in self.inf.setup.objectives:
            near: dict[str, int] = {}
            for s, models in able.items():
                for m in models:
                    if math.dist(m.at, objective.at) - self.inf.radii[m.id] <= objective.radius:
                        near[s] = near.get(s, 0) + 1
            if not near:
                continue
            most = max(near.values())
            leaders = [s for s, n in near.items() if n == most]
            if len(leaders) == 1:
                total += objective.points * urgency * (1 if leaders[0] == side else -1)
        return total

    def _lines(self, state: InfinityState, side: str, able: dict[str, list[ModelState]]) -> float:
        """Exposure (enemy troopers with LoF to ours, partial cover counting less) and
        reach (ours with LoF to theirs, in our arc: AROs waiting for their turn)."""
        w = self.weights
        mine = able.get(side, [])
        theirs = [m for s, ms in able.items() if s != side for m in ms]
        if not mine or not theirs:
            return 0.0
        asks = [(e.id, m.id, None) for m in mine for e in theirs]
        asks += [(m.id, e.id, None) for m in mine for e in theirs]
        clear = self.inf.lof_possible(state, asks)
        n = len(mine) * len(theirs)
        total = 0.0
        for (shooter, target, _), ok in zip(asks[:n], clear[:n], strict=True):
            if not ok:
                continue
            s = self.inf.sighting(state, shooter, target)
            if not s.lof or s.cover is Cover.TOTAL:
                continue
            factor = w["partial_cover"] if s.cover is Cover.PARTIAL else 1.0
            total -= w["exposure"] * factor * (self.inf.points[target] or 10)
        for (shooter, target, _), ok in zip(asks[n:], clear[n:], strict=True):
            if not ok or not self.inf.in_arc(state, shooter, target):
                continue
            s = self.inf.sighting(state, shooter, target)
            if not s.lof or s.cover is Cover.TOTAL:
                continue
            factor = w["partial_cover"] if s.cover is Cover.PARTIAL else 1.0
            total += w["reach"] * factor * (self.inf.points[target] or 10)
        return total
