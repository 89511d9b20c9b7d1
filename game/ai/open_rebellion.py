"""Automatic Open Rebellion player.

`SimpleOpenRebellionPlayer`: names its unit with the most skill dice for initiative;
activates the unit with the best shot (else the first one left); sheds pin markers with
the Initiative Action when it has at least `SHED_AT`; puts support weapons in position
when it has a target and is not yet in position; fires at the enemy unit where its pool
most outnumbers the defender's; with no target it advances a standard move toward the
nearest enemy unit (trying a fan of directions and shorter steps). As the defender it
takes the morale check in the open unless the damage is at least its models left, and
stays in light cover.

`CarefulOpenRebellionPlayer`: the same turn, but targets are chosen by the exact
expected markers placed (`small_arms_fire`), and moves by the best shot from where the
unit ends up less the enemy units' expected fire at it there; on the game's last turn it
takes position only where one shot in position is worth more than two without (nothing
after the turn uses a position).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from game.errors import IllegalDeclaration
from game.rules.open_rebellion.odds import CoverTier, small_arms_fire
from game.sequencer.declarations import Declaration
from game.sequencer.engine import Awaiting
from game.sequencer.open_rebellion import OpenRebellionEngine
from game.sequencer.open_rebellion_types import (
    IN_POSITION,
    Action,
    ActivateUnit,
    EndUnit,
    FallBackChoice,
    OpenRebellionState,
    PickInitiative,
    UnitAct,
)
from game.sequencer.state import GameState

Point = tuple[float, float]
SHED_AT = 3  # pin markers that make this player spend an action shedding them
ANGLES = (0, 25, -25, 50, -50, 80, -80)
STEPS = (1.0, 0.6, 0.3)
KEEP_AWAY = 3.0  # inches: this player stops advancing this close to the enemy


class SimpleOpenRebellionPlayer:
    def __init__(self, engine: OpenRebellionEngine) -> None:
        self.engine = engine

    def choose(self, state: GameState, awaiting: Awaiting) -> Declaration:
        assert isinstance(state, OpenRebellionState)
        assert awaiting.side is not None
        side = awaiting.side
        e = self.engine
        if awaiting.kind == "initiative":
            units = e.side_units(state, side)
            return PickInitiative(max(units, key=lambda u: e.skill_dice(state, u)))
        if awaiting.kind == "fall-back":
            assert state.pending is not None
            target = state.pending.target
            heavy = state.pending.damage >= len(e.alive(state, target))
            return FallBackChoice(target, heavy and state.pending.tier == 0)
        if awaiting.kind == "activate":
            ready = e.ready_units(state, side)
            if not ready:
                raise IllegalDeclaration(f"{side} has no unit to activate")
            shots = [(self.best_shot(state, u), u) for u in ready]
            with_shot = [(s[0], u) for s, u in shots if s is not None]
            if with_shot:
                return ActivateUnit(max(with_shot)[1])
            return ActivateUnit(ready[0])
        unit = state.activating
        assert unit is not None
        _, pins = e.markers(state, unit)
        if pins >= SHED_AT:
            return UnitAct(unit, Action.initiative())
        shot = self.best_shot(state, unit)
        if shot is not None:
            if self._takes_position(state, unit):
                return UnitAct(unit, Action.take_position())
            return UnitAct(unit, Action.fire(shot[1]))
        move = self.advance(state, unit)
        if move is not None:
            return UnitAct(unit, Action.move(*move))
        return EndUnit(unit)

    def _takes_position(self, state: GameState, unit: str) -> bool:
        """Whether the unit, with a target, puts its support weapons in position first:
        whenever it has one not yet in position."""
        e = self.engine
        return not e.has_flag(state, unit, IN_POSITION) and self._has_support(state, unit)

    def _has_support(self, state: GameState, unit: str) -> bool:
        return any(
            (w := self.engine.weapon[m.id]) is not None and w.support_dice
            for m in self.engine.alive(state, unit)
        )

    def best_shot(self, state: GameState, unit: str) -> tuple[int, str] | None:
        """(attacker dice - defender dice, target) of the best target in sight, if any."""
        e = self.engine
        side = e.side_of_unit[unit]
        best: tuple[int, str] | None = None
        for enemy in (s for s in state.sides if s != side):
            for target in e.side_units(state, enemy):
                dice = e.fire_edge(state, unit, target)
                if dice is None:
                    continue
                edge = (dice, target)
                if best is None or edge > best:
                    best = edge
        return best

    def advance(self, state: GameState, unit: str) -> Point | None:
        e = self.engine
        side = e.side_of_unit[unit]
        here = e.centre(state, unit)
        enemies = [u for s in state.sides if s != side for u in e.side_units(state, s)]
        if not enemies:
            return None
        goal = min((e.centre(state, u) for u in enemies), key=lambda c: math.dist(c, here))
        gap = math.dist(goal, here)
        if gap <= KEEP_AWAY:
            return None
        length = min(e.value("standard_move"), gap - KEEP_AWAY)
        base = math.atan2(goal[1] - here[1], goal[0] - here[0])
        for angle in ANGLES:
            a = base + math.radians(angle)
            for step in STEPS:
                v = (math.cos(a) * length * step, math.sin(a) * length * step)
                if e.move_blocked(state, unit, v) is None:
                    return v
        return None


def support_dice(
    engine: OpenRebellionEngine, state: GameState, unit: str, firing: Sequence[str]
) -> int:
    """The dice the firing models' support weapons would add once in position (none
    when the unit is in position already: its pools count them)."""
    if engine.has_flag(state, unit, IN_POSITION):
        return 0
    return sum(w.support_dice for w in (engine.weapon[f] for f in firing) if w is not None)


def shots_after_position(engine: OpenRebellionEngine, state: OpenRebellionState) -> int:
    """The actions the activating unit has left once it takes position: what it may
    fire with the support weapons in position (Take Position costs take_position_actions)."""
    return state.actions_left - engine.cost(Action.take_position())


# What the careful player counts markers as worth: a wound marker is a likely kill,
# a pin marker costs the unit an action later.
WOUND_WORTH = 1.0
PIN_WORTH = 0.25
RISK_WEIGHT = 0.5  # the enemies' fire back counts for this much of ours


@lru_cache(maxsize=4096)
def expected_markers(attack: int, defence: int, tier: int) -> float:
    """Expected worth of the markers one small arms fire action places (exact odds)."""
    dist = small_arms_fire(attack, defence, CoverTier(tier))
    return sum(
        float(p) * (m.wounds * WOUND_WORTH + m.pinned * PIN_WORTH)
        for m, p in dist.probabilities().items()
    )


class CarefulOpenRebellionPlayer(SimpleOpenRebellionPlayer):
    """Chooses by expected damage against risk: a target by the exact expected markers
    its fire places, and a move by the best such shot from where the unit ends up less
    what the enemy units could do to it there."""

    def _gain(self, state: GameState, unit: str, target: str) -> float | None:
        try:
            plan = self.engine.pools(state, unit, target)
        except IllegalDeclaration:
            return None
        return expected_markers(plan.attack, plan.defence, int(plan.tier))

    def _gains(self, state: GameState, unit: str, target: str) -> tuple[float, float]:
        """`_gain` as the unit stands and with its support weapons in position, their
        dice added (seed 001: support weapons in position add their dice, HMG +3, SAW
        +2), from one reading of the pools (0.0 each where it may not fire)."""
        try:
            plan = self.engine.pools(state, unit, target)
        except IllegalDeclaration:
            return 0.0, 0.0
        attack = plan.attack + support_dice(self.engine, state, unit, plan.firing)
        tier = int(plan.tier)
        return (
            expected_markers(plan.attack, plan.defence, tier),
            expected_markers(attack, plan.defence, tier),
        )

    def _takes_position(self, state: GameState, unit: str) -> bool:
        """As the simple player, but on the game's last turn Take Position counts only
        through the fire it adds later in the same activation (nothing after the turn
        uses it): only when the shots left after it (take_position_actions) with the
        support weapons in position are worth more than a shot each action left without
        (at one action a Take Position: one shot in position against two)."""
        if not super()._takes_position(state, unit):
            return False
        e = self.engine
        if state.turn < e.turns:
            return True
        assert isinstance(state, OpenRebellionState)
        shots = shots_after_position(e, state)
        if shots < 1:
            return False
        side = e.side_of_unit[unit]
        plain = set_up = 0.0
        for enemy in (s for s in state.sides if s != side):
            for target in e.side_units(state, enemy):
                now, later = self._gains(state, unit, target)
                plain, set_up = max(plain, now), max(set_up, later)
        return set_up * shots > plain * state.actions_left

    def best_shot(self, state: GameState, unit: str) -> tuple[float, str] | None:  # type: ignore[override]
        e = self.engine
        side = e.side_of_unit[unit]
        best: tuple[float, str] | None = None
        for enemy in (s for s in state.sides if s != side):
            for target in e.side_units(state, enemy):
                gain = self._gain(state, unit, target)
                if gain is not None and (best is None or (gain, target) > best):
                    best = (gain, target)
        return best

    def _threat(self, state: GameState, unit: str) -> float:
        e = self.engine
        side = e.side_of_unit[unit]
        total = 0.0
        for enemy in (s for s in state.sides if s != side):
            for shooter in e.side_units(state, enemy):
                gain = self._gain(state, shooter, unit)
                total += gain or 0.0
        return total

    def _moved(self, state: GameState, unit: str, v: Point) -> GameState:
        for m in self.engine.alive(state, unit):
            state = state.with_model(m.replace(at=(m.at[0] + v[0], m.at[1] + v[1])))
        return state

    def advance(self, state: GameState, unit: str) -> Point | None:
        """Of a fan of standard moves (and staying put), the one whose best shot next,
        less the enemies' expected fire there, is worth most."""
        e = self.engine
        here = e.centre(state, unit)
        side = e.side_of_unit[unit]
        enemies = [u for s in state.sides if s != side for u in e.side_units(state, s)]
        if not enemies:
            return None
        goal = min((e.centre(state, u) for u in enemies), key=lambda c: math.dist(c, here))
        base = math.atan2(goal[1] - here[1], goal[0] - here[0])
        length = e.value("standard_move")
        stay = -RISK_WEIGHT * self._threat(state, unit)
        best: tuple[float, Point] | None = None
        for angle in ANGLES:
            a = base + math.radians(angle)
            for step in STEPS:
                v = (math.cos(a) * length * step, math.sin(a) * length * step)
                if e.move_blocked(state, unit, v) is not None:
                    continue
                there = self._moved(state, unit, v)
                shot = self.best_shot(there, unit)
                value = (shot[0] if shot else 0.0) - RISK_WEIGHT * self._threat(there, unit)
                value += 0.01 * step * (1 if angle == 0 else 0)  # ties: close in
                if best is None or value > best[0]:
                    best = (value, v)
        if best is None or best[0] <= stay:
            return super().advance(state, unit) if best is None else None
        return best[1]
