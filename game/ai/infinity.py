"""A simple automatic Infinity player: shoot the best visible target in range, otherwise
close in; answer every Order it can with the best ARO it has.

Good enough to play a scenario to its end for tests and playtests; a stronger player
weighs expected damage against risk with the exact odds."""

from __future__ import annotations

import math

from game.rules.infinity.data import InfinityWeapon
from game.sequencer.declarations import Declaration
from game.sequencer.game import Awaiting
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
from game.sequencer.sight import Cover, Placement
from game.sequencer.state import GameState, ModelState

Point = tuple[float, float]
ANGLES = (0, 30, -30, 60, -60, 90, -90)


def _facing(a: Point, b: Point) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


class SimpleInfinityPlayer:
    """Chooses declarations for whichever side the game awaits."""

    def __init__(self, engine: InfinityEngine) -> None:
        self.engine = engine

    def choose(self, state: GameState, awaiting: Awaiting) -> Declaration:
        assert isinstance(state, InfinityState)
        if awaiting.kind == "order":
            return self._order(state, awaiting.models)
        if awaiting.kind == "second":
            return Continue(self._second(state))
        if awaiting.kind == "aro":
            return self._aro(state, awaiting.models[0])
        raise ValueError(f"nothing to choose when awaiting {awaiting.kind}")

    def _shot(
        self, state: GameState, shooter: ModelState, at: Point, facing: float
    ) -> tuple[InfinityWeapon, str, int] | None:
        """The best (weapon, target, range MOD) from `at`: highest MOD, then nearest."""
        best: tuple[int, float, InfinityWeapon, str] | None = None
        moved = {shooter.id: Placement(at, facing)}
        for weapon in self.engine.weapons_of(shooter.id):
            if not weapon.bands:
                continue
            for t in state.models:
                if t.side == shooter.side or t.status == "dead":
                    continue
                # Cheap tests first: out of arc or beyond the last band needs no sight lines.
                if not self.engine.in_arc(state, shooter.id, t.id, moved):
                    continue
                if self.engine.distance(state, shooter.id, t.id, moved) > weapon.max_range:
                    continue
                s = self.engine.sighting(state, shooter.id, t.id, moved)
                if not (s.lof and s.in_arc) or s.cover is Cover.TOTAL:
                    continue
                mod = weapon.range_mod(s.distance)
                if mod is None:
                    continue
                mod += -3 if s.cover is Cover.PARTIAL else 0
                key = (mod, -s.distance)
                if best is None or key > (best[0], best[1]):
                    best = (mod, -s.distance, weapon, t.id)
        if best is None:
            return None
        return best[2], best[3], best[0]

    def _nearest_enemy(self, state: GameState, m: ModelState) -> ModelState | None:
        enemies = [t for t in state.models if t.side != m.side and t.status != "dead"]
        return min(enemies, key=lambda t: math.dist(t.at, m.at), default=None)

    def _order(self, state: InfinityState, payable: tuple[str, ...]) -> Declaration:
        able = [state.model(model_id) for model_id in payable]
        for m in able:  # shoot where it stands, turning to face the target first if need be
            shot = self._shot(state, m, m.at, m.facing)
            if shot is not None:
                weapon, target, _ = shot
                return Activate(m.id, Skill.attack(weapon.name, (target, weapon.burst)))
        for m in able:
            move = self._advance(state, m)
            if move is not None:
                return Activate(m.id, move)
        return EndTurn()

    def _advance(self, state: GameState, m: ModelState) -> Skill | None:
        enemy = self._nearest_enemy(state, m)
        if enemy is None:
            return None
        heading = _facing(m.at, enemy.at)
        allowance = self.engine.profiles[m.id].mov[0]
        room = max(0.0, math.dist(m.at, enemy.at) - 2.0)
        for length in (allowance, allowance / 2):
            step = min(length, room)
            if step < 0.25:
                return None
            for turn in ANGLES:
                angle = math.radians(heading + turn)
                end = (m.at[0] + math.cos(angle) * step, m.at[1] + math.sin(angle) * step)
                if self.engine.path_blocked(state, m.id, (m.at, end)) is None:
                    return Skill.move(end, facing=_facing(end, enemy.at))
        return None

    def _second(self, state: InfinityState) -> Skill:
        order = state.order
        assert order is not None
        if order.first.kind is not SkillKind.MOVE:
            return Skill.idle()
        m = state.model(order.model)
        shot = self._shot(state, m, order.route[-1], order.facing)
        if shot is None:
            return Skill.idle()
        weapon, target, _ = shot
        return Skill.attack(weapon.name, (target, weapon.burst))

    def _aro(self, state: InfinityState, reactor_id: str) -> Declaration:
        order = state.order
        assert order is not None
        full = dict(order.eligible)[reactor_id]
        reactor = state.model(reactor_id)
        if full:
            best: tuple[int, Point, str] | None = None
            for point in _along(order.route):
                moved = {order.model: Placement(point, order.facing)}
                s = self.engine.sighting(state, reactor_id, order.model, moved)
                if not (s.lof and s.in_arc) or s.cover is Cover.TOTAL:
                    continue
                for weapon in self.engine.weapons_of(reactor_id):
                    mod = weapon.range_mod(s.distance) if weapon.bands else None
                    if mod is None:
                        continue
                    mod += -3 if s.cover is Cover.PARTIAL else 0
                    if best is None or mod > best[0]:
                        best = (mod, point, weapon.name)
            if best is not None:
                _, point, weapon_name = best
                skill = Skill.attack(weapon_name, (order.model, 1))
                return React(reactor.id, skill, at=point)
        return React(reactor.id, Skill.dodge() if not full else Skill.idle())
