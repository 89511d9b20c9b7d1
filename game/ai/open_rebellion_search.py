"""The Open Rebellion search player: sampled lookahead over units' activations
(game.ai.search).

Candidates: each unit for initiative and for activation; within an activation, fire at
each enemy unit in sight, a fan of standard moves (the careful player's pick among
them, moves that end with the unit against scenery first), Take Position, the
Initiative Action and ending the activation; both answers to a fall-back choice. The
lookahead plays on (the simple player for both sides) until the enemy has finished its
next activation, and scores the position by `game/ai/weights/open-rebellion.toml`:
points of models kept and taken out, wound markers (likely kills) and pin markers on
each side, and the exact expected markers each side's units could place on the other's
from where they stand (exposure and reach, squad cover included)."""

from __future__ import annotations

import math

from game.ai.open_rebellion import CarefulOpenRebellionPlayer, SimpleOpenRebellionPlayer
from game.ai.search import Policy, SearchPlayer, cover_spots, reply_done
from game.sequencer.declarations import Declaration
from game.sequencer.engine import Awaiting, Engine
from game.sequencer.open_rebellion import OpenRebellionEngine
from game.sequencer.open_rebellion_types import (
    DEAD,
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
ANGLES = (0, 30, -30, 60, -60, 90, -90, 180)


class SearchOpenRebellionPlayer(SearchPlayer):
    """Chooses initiative, activations and actions by looking ahead."""

    SYSTEM = "open-rebellion"

    def __init__(self, engine: Engine, **options: object) -> None:
        assert isinstance(engine, OpenRebellionEngine)
        self.orb = engine
        self.careful = CarefulOpenRebellionPlayer(engine)
        self.radius = {m.id: m.radius for m in engine.setup.models}
        super().__init__(engine, **options)  # type: ignore[arg-type]

    def rollout_policy(self) -> Policy:
        return SimpleOpenRebellionPlayer(self.orb)

    def passes(self, state: GameState, awaiting: Awaiting) -> list[Declaration]:
        assert awaiting.side is not None
        if awaiting.kind == "activate":
            return [EndUnit(u) for u in self.orb.ready_units(state, awaiting.side)]
        if awaiting.kind == "fall-back":
            assert isinstance(state, OpenRebellionState) and state.pending is not None
            return [FallBackChoice(state.pending.target, False)]
        if awaiting.kind == "initiative":
            return [PickInitiative(u) for u in self.orb.side_units(state, awaiting.side)]
        return [EndUnit()]

    # -- candidates ------------------------------------------------------------------

    def candidates(self, state: GameState, awaiting: Awaiting) -> list[tuple[Declaration, float]]:
        assert isinstance(state, OpenRebellionState)
        side = awaiting.side
        assert side is not None
        e = self.orb
        if awaiting.kind == "initiative":
            return [(PickInitiative(u), e.skill_dice(state, u)) for u in e.side_units(state, side)]
        if awaiting.kind == "fall-back":
            assert state.pending is not None
            target = state.pending.target
            return [(FallBackChoice(target, False), 0.1), (FallBackChoice(target, True), 0.0)]
        if awaiting.kind == "activate":
            out: list[tuple[Declaration, float]] = []
            for u in e.ready_units(state, side):
                shot = self.careful.best_shot(state, u)
                out.append((ActivateUnit(u), shot[0] if shot else 0.0))
            return out
        unit = state.activating
        assert unit is not None
        return self._actions(state, unit)

    def _actions(self, state: OpenRebellionState, unit: str) -> list[tuple[Declaration, float]]:
        e = self.orb
        out: list[tuple[Declaration, float]] = [(EndUnit(unit), -0.1)]
        side = e.side_of_unit[unit]
        for enemy in (s for s in state.sides if s != side):
            for target in e.side_units(state, enemy):
                gain = self.careful._gain(state, unit, target)
                if gain is not None:
                    out.append((UnitAct(unit, Action.fire(target)), gain))
        if self.careful._has_support(state, unit) and not e.has_flag(state, unit, IN_POSITION):
            out.append((UnitAct(unit, Action.take_position()), 0.2))
        _, pins = e.markers(state, unit)
        if pins:
            out.append((UnitAct(unit, Action.initiative()), 0.05 * pins))
        out.extend(self._moves(state, unit))
        return out

    def _moves(self, state: OpenRebellionState, unit: str) -> list[tuple[Declaration, float]]:
        """Standard moves: a fan toward the nearest enemy unit and a few that bring the
        unit's first model against scenery (nearest the enemy first). No prior beyond
        closing in: the lookahead weighs them."""
        e = self.orb
        w = self.weights
        length = e.value("standard_move")
        here = e.centre(state, unit)
        models = e.alive(state, unit)
        side = e.side_of_unit[unit]
        enemies = [u for s in state.sides if s != side for u in e.side_units(state, s)]
        if not models or not enemies:
            return []
        goal = min((e.centre(state, u) for u in enemies), key=lambda c: math.dist(c, here))
        base = math.atan2(goal[1] - here[1], goal[0] - here[0])
        vectors: list[Point] = []
        for angle in ANGLES:
            a = base + math.radians(angle)
            vectors.append((round(math.cos(a) * length, 3), round(math.sin(a) * length, 3)))
        first = models[0]
        spots = cover_spots(e.setup, first.at, length, self.radius[first.id], every=2.0)
        spots.sort(key=lambda p: math.dist(p, goal))
        for p in spots[: int(w.search["covers"])]:
            vectors.append((round(p[0] - first.at[0], 3), round(p[1] - first.at[1], 3)))
        out: list[tuple[Declaration, float]] = []
        for v in vectors:
            if math.hypot(*v) > length or e.move_blocked(state, unit, v) is not None:
                continue
            closer = math.dist(here, goal) - math.dist((here[0] + v[0], here[1] + v[1]), goal)
            out.append((UnitAct(unit, Action.move(*v)), 0.01 * closer))
        return out

    # -- the lookahead ---------------------------------------------------------------

    def horizon(self, root: GameState, root_awaiting: Awaiting, state: GameState) -> bool:
        assert root_awaiting.side is not None
        if isinstance(root, OpenRebellionState) and root.phase == "initiative":
            return isinstance(state, OpenRebellionState) and state.phase != "initiative"
        return reply_done(root, state, root_awaiting.side, self._ready, self._busy)

    def _ready(self, state: GameState, side: str) -> int:
        return len(self.orb.ready_units(state, side))

    @staticmethod
    def _busy(state: GameState) -> bool:
        assert isinstance(state, OpenRebellionState)
        return state.activating is not None or state.phase == "fall-back"

    def evaluate(self, state: GameState, side: str) -> float:
        assert isinstance(state, OpenRebellionState)
        w = self.weights
        e = self.orb
        total = 0.0
        for m in state.models:
            if m.status == DEAD:
                continue
            points = e.profiles[m.id].points or 10
            total += points if m.side == side else -w["enemy"] * points
        for unit in e.units:
            alive = e.alive(state, unit)
            if not alive:
                continue
            wounds, pins = e.markers(state, unit)
            each = sum(e.profiles[m.id].points or 10 for m in alive) / len(alive)
            loss = each * (w["wound_marker"] * min(wounds, len(alive)) + w["pin_marker"] * pins)
            total += -loss if e.side_of_unit[unit] == side else w["enemy"] * loss
        if state.finished:
            return total + self.won(state, side)
        return total + self._lines(state, side)

    def _lines(self, state: OpenRebellionState, side: str) -> float:
        """Exposure and reach by clear lines (one batch): per unit, the enemy models with
        a clear line to any of its models, each a share of the unit's model points."""
        e = self.orb
        w = self.weights
        alive = [m for m in state.models if m.status != DEAD]
        pairs = [(a, b) for a in alive for b in alive if a.side != b.side]
        if not pairs:
            return 0.0
        clear = e.sight.clear_to(e.placements(state), [(a.id, b.id, b.at) for a, b in pairs])
        seen: dict[str, set[str]] = {}
        for (a, b), ok in zip(pairs, clear, strict=True):
            if ok:
                seen.setdefault(e.unit_of[b.id], set()).add(a.id)
        total = 0.0
        for unit, watchers in seen.items():
            models = e.alive(state, unit)
            each = sum(e.profiles[m.id].points or 10 for m in models) / max(1, len(models))
            weight = -w["exposure"] if e.side_of_unit[unit] == side else w["reach"]
            total += weight * len(watchers) * each
        return total
