"""The Open Rebellion search player: sampled lookahead over units' activations
(game.ai.search).

Candidates: each unit for initiative and for activation; within an activation, fire at
each enemy unit in sight, a fan of standard moves (the careful player's pick among
them, moves that end with the unit against scenery first), Take Position, the
Initiative Action and ending the activation; both answers to a fall-back choice. The
lookahead plays on (the simple player for both sides) until the enemy has finished its
next activation, and scores the position by `game/ai/weights/open-rebellion.toml`:
points of models left (what decides the game at the turn limit), less the points each
unit's wound markers are expected to kill when it next activates (one bang die a
marker, the cheapest models first; nothing for a unit that will not activate again),
and each unit's exposure to enemy models with a clear line to it and its own lines.
Pin markers count for nothing by default: the engine gives them no effect.

Small arms fire's damage and a unit's kill roll have exact odds, so a sample's luck in
them is taken off against the expectation (`luck`, a control variate: the spread of an
opening fire's samples 10 -> 3 points)."""

from __future__ import annotations

import math
from functools import lru_cache

from game.ai.open_rebellion import CarefulOpenRebellionPlayer, SimpleOpenRebellionPlayer
from game.ai.search import Policy, SearchPlayer, cover_spots, reply_done
from game.errors import IllegalDeclaration
from game.rules.open_rebellion.odds import BANG_FACES, CoverTier, damage
from game.sequencer.declarations import Declaration
from game.sequencer.engine import Awaiting, Engine
from game.sequencer.open_rebellion import OpenRebellionEngine
from game.sequencer.open_rebellion_types import (
    ACTIVATED,
    DEAD,
    IN_POSITION,
    Action,
    ActionKind,
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


@lru_cache(maxsize=1024)
def _mean_damage(attack: int, defence: int) -> float:
    """Expected damage points of small arms fire (attacker bangs less defender bangs)."""
    return float(damage(attack, defence).mean())


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
            out.append((UnitAct(unit, Action.initiative()), 0.0))  # pins change nothing here
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
        total = self._material(state, side)
        if state.finished:
            return total + self.won(state, side)
        return total + self._lines(state, side)

    def _material(self, state: OpenRebellionState, side: str) -> float:
        """Points of models left (what decides the game at the turn limit), less each
        unit's expected kills from its wound markers: one bang die a marker when the
        unit next activates (kill_on_bang), the cheapest models first; none when it
        will not activate again. Pin markers count `pin_marker` each."""
        w = self.weights
        e = self.orb
        total = 0.0
        for m in state.models:
            if m.status != DEAD:
                points = e.profiles[m.id].points or 10
                total += points if m.side == side else -w["enemy"] * points
        for unit in e.units:
            loss = w["wound_marker"] * self._expected_kills(state, unit)
            loss += w["pin_marker"] * e.markers(state, unit)[1] * self._cheapest(state, unit)
            total += -loss if e.side_of_unit[unit] == side else w["enemy"] * loss
        return total

    def _kill_odds(self) -> float:
        """The chance that one wound marker becomes a kill (a bang per kill_on_bang)."""
        return (BANG_FACES / 6) ** max(1, int(self.orb.value("kill_on_bang")))

    def _cheapest(self, state: OpenRebellionState, unit: str) -> float:
        alive = self.orb.alive(state, unit)
        return min((self.orb.profiles[m.id].points or 10 for m in alive), default=0.0)

    def _expected_kills(self, state: OpenRebellionState, unit: str) -> float:
        """The points the unit's wound markers are expected to kill at its next
        activation (exact: binomial, the cheapest models first), or none if it will
        not activate again before the game ends."""
        e = self.orb
        alive = e.alive(state, unit)
        wounds, _ = e.markers(state, unit)
        if not alive or not wounds or state.finished:
            return 0.0
        if state.turn >= e.turns and e.has_flag(state, unit, ACTIVATED):
            return 0.0
        p = self._kill_odds()
        points = sorted(e.profiles[m.id].points or 10 for m in alive)
        total = 0.0
        at_least = 1.0  # P(kills >= k), k = 0, 1, ...
        for k in range(1, min(wounds, len(points)) + 1):
            at_least -= math.comb(wounds, k - 1) * p ** (k - 1) * (1 - p) ** (wounds - k + 1)
            total += at_least * points[k - 1]
        return total

    def luck(
        self, state: GameState, declaration: Declaration, after: GameState, side: str
    ) -> float:
        """Small arms fire's damage against its exact expectation (`damage`), worth the
        kills a point of it is expected to bring at the target's cover tier; a unit's
        kill roll against its expected kills. Taken off a sample (search.luck)."""
        assert isinstance(state, OpenRebellionState) and isinstance(after, OpenRebellionState)
        e = self.orb
        if after.turn != state.turn or after.finished:
            return 0.0
        if isinstance(declaration, ActivateUnit):
            unit = declaration.unit
            if unit not in e.units or not e.markers(state, unit)[0]:
                return 0.0
            killed = sum(
                e.profiles[m.id].points or 10
                for m in e.alive(state, unit)
                if after.model(m.id).status == DEAD
            )
            sign = -1.0 if e.side_of_unit[unit] == side else self.weights["enemy"]
            return sign * (self._expected_kills(state, unit) - killed)
        if not isinstance(declaration, UnitAct) or declaration.action.kind is not ActionKind.FIRE:
            return 0.0
        target = declaration.action.target
        if state.activating != declaration.unit or target is None or target not in e.units:
            return 0.0  # a first action that begins the activation rolls its kills too
        try:
            plan = e.pools(state, declaration.unit, target)
        except IllegalDeclaration:
            return 0.0
        if after.phase == "fall-back" and after.pending is not None:
            hurt = after.pending.damage
        else:
            hurt = sum(e.markers(after, target)) - sum(e.markers(state, target))
        fw = {CoverTier.OPEN: 1.0, CoverTier.LIGHT: 1 - BANG_FACES / 6,
              CoverTier.HARD: BANG_FACES / 6}.get(plan.tier, 0.0)  # fmt: skip
        # a point of damage: a wound marker at this share, a kill at the odds, the cheapest first
        worth = (
            self.weights["wound_marker"] * fw * self._kill_odds() * self._cheapest(state, target)
        )
        if state.turn >= e.turns and e.has_flag(state, target, ACTIVATED):
            worth = 0.0  # its markers are never rolled
        sign = -1.0 if e.side_of_unit[target] == side else self.weights["enemy"]
        return sign * worth * (hurt - _mean_damage(plan.attack, plan.defence))

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
