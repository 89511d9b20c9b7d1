"""Automatic Open Rebellion player.

`SimpleOpenRebellionPlayer`: names its unit with the most skill dice for initiative;
activates the unit with the best shot (else the first one left); sheds pin markers with
the Initiative Action when it has at least `SHED_AT`; puts support weapons in position
when it has a target and is not yet in position; fires at the enemy unit where its pool
most outnumbers the defender's; with no target it advances a standard move toward the
nearest enemy unit (trying a fan of directions and shorter steps). As the defender it
takes the morale check in the open unless the damage is at least its models left, and
stays in light cover. The "careful" policy plays the same for now.
"""

from __future__ import annotations

import math

from game.errors import IllegalDeclaration
from game.sequencer.declarations import Declaration
from game.sequencer.game import Awaiting
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
            if not e.has_flag(state, unit, IN_POSITION) and self._has_support(state, unit):
                return UnitAct(unit, Action.take_position())
            return UnitAct(unit, Action.fire(shot[1]))
        move = self.advance(state, unit)
        if move is not None:
            return UnitAct(unit, Action.move(*move))
        return EndUnit(unit)

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
                try:
                    plan = e.pools(state, unit, target)
                except IllegalDeclaration:
                    continue
                edge = (plan.attack - plan.defence, target)
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
