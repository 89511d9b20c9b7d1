"""The Open Rebellion search player: the careful player's choice, replaced only by
a candidate a sampled lookahead (game.ai.search) finds clearly better.

Why a floor: with the simple player as the rollout and a horizon of one enemy reply,
the lookahead's best-looking candidate lost to the careful player (39 of 99): among a
dozen noisy candidates the best-sampled one is mostly the luckiest, and the prior that
broke ties favoured firing over Take Position and over cover. So the careful player's
choice is the default (as if the unit had no pin markers while they count for nothing:
no action goes to shedding them), and another candidate replaces it only when its
advantage over the default, paired sample by sample on common dice, is more than
`margin_z` standard errors above `margin_min` points (weights file).

Where a unit stands (`_reposition`, weights `reposition_*`, `exchange_risk`): at the
start of an activation the default is a standard move instead when, from there, the
side's exchange of fire is better than staying: the wound markers each of our units may
expect to place (its best target in sight, exact odds, two actions a turn) less those
each enemy unit may expect to place on its best target of ours, over the rest of this
turn and the next `reposition_turns` - 1 turns, the move costing this turn's second
shot (and a support weapon its position). Against the careful player on Hill farm this
took the default from 0.53 to 0.74 of 240 games (a squad in the open moves into cover
before it fires). A side ahead on points weighs the wound markers it may take
`risk_ahead` times, unless the exchange is good on the exact odds (it places at least
as many as it may take: `ahead_takes_odds`). The careful choice is held to the same
exchange (`_judged`): a move it makes that leaves the exchange worse than staying is not
made (the second action would only take it back: the unit went out and back), and a
unit of a side behind with no shot closes in over the last `behind_turns` turns rather
than end its activation. A budget below `light_below` steps (think 0) takes the careful
choice as it is, at the careful player's speed. A fall-back answer (`_fall_back`) is
the one whose wound markers from this fire (the damage at the tier where the unit ends
up) and exchange after are worth more over `fall_back_tries` tac-move rolls.

Candidates: within an activation, fire at each enemy unit in sight, a fan of standard
moves (moves that end with the unit against scenery first), Take Position, the
Initiative Action and ending the activation; each unit for activation; both answers to a
fall-back choice. The initiative pick is the careful one (it only decides whose dice
roll). The lookahead plays both sides as the careful player does (ours without shedding
pins) to the end of the turn, and scores the position by
`game/ai/weights/open-rebellion.toml`: points of models left (what decides the game at
the turn limit), less the points each unit's wound markers are expected to kill when it
next activates (one bang die a marker, the cheapest models first; nothing for a unit
that will not activate again), and each unit's exposure to enemy models with a clear
line to it and its own lines. Pin markers count for nothing by default: the engine
gives them no effect.

Small arms fire's damage and a unit's kill roll have exact odds, so a sample's luck in
them is taken off against the expectation (`luck`, a control variate: the spread of an
opening fire's samples 10 -> 3 points)."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from game.ai.open_rebellion import (
    CarefulOpenRebellionPlayer,
    SimpleOpenRebellionPlayer,
    shots_after_position,
    support_dice,
)
from game.ai.search import Candidate, Policy, SearchPlayer, cover_spots, digest, reply_done
from game.errors import IllegalDeclaration
from game.rules.open_rebellion.cover import BASE_CONTACT
from game.rules.open_rebellion.odds import BANG_FACES, CoverTier, damage, small_arms_fire
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
# a spot against scenery leaves this gap: well inside the contact a wall's hard cover needs
# (at the full 0.05" the base touched the wall or not by rounding: the village's orchard
# squad never found the garden wall)
CONTACT = BASE_CONTACT / 2
ANGLES = (0, 30, -30, 60, -60, 90, -90, 180)


@lru_cache(maxsize=1024)
def _mean_damage(attack: int, defence: int) -> float:
    """Expected damage points of small arms fire (attacker bangs less defender bangs)."""
    return float(damage(attack, defence).mean())


# the share of a damage point that is a wound marker at each conversion tier (seed 001:
# light cover, the defender's bang shifts it to a pin; hard cover, the attacker's to a wound)
_WOUND_SHARE = {
    CoverTier.OPEN: 1.0,
    CoverTier.LIGHT: 1 - BANG_FACES / 6,
    CoverTier.HARD: BANG_FACES / 6,
    CoverTier.BEYOND_HARD: 0.0,
}


@lru_cache(maxsize=4096)
def _mean_wounds(attack: int, defence: int, tier: int) -> float:
    """Expected wound markers of small arms fire at a conversion tier (exact odds)."""
    dist = small_arms_fire(attack, defence, CoverTier(tier))
    return sum(float(p) * m.wounds for m, p in dist.probabilities().items())


class SearchOpenRebellionPlayer(SearchPlayer):
    """Chooses initiative, activations and actions by looking ahead."""

    SYSTEM = "open-rebellion"

    def __init__(self, engine: Engine, **options: object) -> None:
        assert isinstance(engine, OpenRebellionEngine)
        self.orb = engine
        self.careful = CarefulOpenRebellionPlayer(engine)
        self.radius = {m.id: m.radius for m in engine.setup.models}
        self.side: str | None = None  # the side choosing now (the rollout plays it as we do)
        # two moves out of sight under way: the unit, where its models stand after the
        # first, and the second move (`_hiding`)
        self.plan: tuple[str, tuple[Point, ...], Point] | None = None
        super().__init__(engine, **options)  # type: ignore[arg-type]

    def rollout_policy(self) -> Policy:
        if self.weights.search.get("careful_rollout", 0):
            return _Rollout(self)
        return SimpleOpenRebellionPlayer(self.orb)

    # -- the choice: careful's unless another is clearly better ---------------------

    def choose(self, state: GameState, awaiting: Awaiting) -> Declaration:
        """The careful player's choice, unless a candidate's paired advantage over it
        (common dice: the difference of two lookaheads with the same dice) is more than
        `margin_z` standard errors above nothing after sequential halving."""
        side = awaiting.side
        assert side is not None, "nothing to choose: the game is over"
        self.steps = 0
        self.side = side
        if self.budget < self.weights.search.get("light_below", 8):
            # too small a budget for the judgement: the careful choice as it is
            light = self._careful(state, awaiting)
            return light if self._legal(state, light) else self._fallback(state, awaiting)
        default = self._default(state, awaiting)
        if awaiting.kind == "initiative" or not self.weights.search.get("lookahead", 1):
            return default if self._legal(state, default) else self._fallback(state, awaiting)
        found = self._dedupe(self.candidates(state, awaiting))
        found.sort(key=lambda c: -c.prior)
        found = found[: int(self.weights.search.get("candidates", 12))]
        key = repr(default.to_dict())
        found = [c for c in found if repr(c.declaration.to_dict()) != key]
        if not found:
            return default if self._legal(state, default) else self._fallback(state, awaiting)
        rng = np.random.default_rng([self.seed, digest(state, awaiting)])
        best = self._floor(state, awaiting, side, default, found, rng)
        if best is not None:
            return best
        return default if self._legal(state, default) else self._fallback(state, awaiting)

    def _default(self, state: GameState, awaiting: Awaiting) -> Declaration:
        """The careful choice (`_careful`), or a move when one clearly improves the
        exchange of fire the rest of the game (`_reposition`)."""
        if awaiting.kind == "fall-back" and self.weights.search.get("fall_back_tries", 0):
            return self._fall_back(state, awaiting)
        if self.weights.search.get("reposition", 0):
            moved = self._reposition(state, awaiting)
            if moved is not None:
                return moved
        if self.weights.search.get("last_turn", 0):
            planned = self._last_turn(state, awaiting)
            if planned is not None:
                return planned
        return self._judged(state, awaiting)

    def _judged(self, state: GameState, awaiting: Awaiting) -> Declaration:
        """The careful choice, held to the exchange of fire: a move it makes (it has no
        shot) that leaves the side's exchange worse than staying by more than
        `reposition_margin` is not made (the second action would only take it back);
        and a unit of a side behind on points that would end its activation with no
        shot in the last `behind_turns` turns advances toward the nearest enemy unit
        instead (at the turn limit waiting loses)."""
        choice = self._careful(state, awaiting)
        unit = state.activating if isinstance(state, OpenRebellionState) else None
        if awaiting.kind != "action" or unit is None or not self.weights.search.get("reposition"):
            return choice
        assert isinstance(state, OpenRebellionState)
        e = self.orb
        if isinstance(choice, UnitAct) and choice.action.kind is ActionKind.STANDARD_MOVE:
            assert choice.action.vector is not None
            turns = self._turns(state)
            now = state.actions_left
            stay = self._exchange(state, unit, turns, now)
            there = e._move_by(state, unit, choice.action.vector, [])
            after = self._exchange(there, unit, turns, now - 1)
            if after >= stay - self.weights.search.get("reposition_margin", 0.05):
                return choice
            choice = EndUnit(unit)
        behind = self.weights.search.get("behind_turns", 0)
        side = e.side_of_unit[unit]
        if (
            isinstance(choice, EndUnit)
            and state.turn > e.turns - behind
            and self._material(state, side) < 0
            and self.careful.best_shot(state, unit) is None
        ):
            v = self._closing(state, unit)
            if v is not None:
                return UnitAct(unit, Action.move(*v))
        return choice

    def _closing(self, state: OpenRebellionState, unit: str) -> Point | None:
        """A side behind closing in: the standard move (`_spots`) from which the unit's
        best shot places most wound markers (exact odds), the nearer the nearest enemy
        unit the better between equals; with a shot from none, the simple player's
        advance toward the nearest enemy unit."""
        e = self.orb
        side = e.side_of_unit[unit]
        theirs = [u for s in state.sides if s != side for u in e.side_units(state, s)]
        if not theirs:
            return None
        best: tuple[float, float, Point] | None = None
        for v in self._spots(state, unit):
            if e.move_blocked(state, unit, v) is not None:
                continue
            there = e._move_by(state, unit, v, [])
            shots = [w for t in theirs if (w := self._wounds(there, unit, t)) is not None]
            if not shots:
                continue
            here = e.centre(there, unit)
            near = -min(math.dist(here, e.centre(there, t)) for t in theirs)
            if best is None or (max(shots), near) > best[:2]:
                best = (max(shots), near, v)
        if best is not None:
            return best[2]
        return SimpleOpenRebellionPlayer.advance(self.careful, state, unit)

    # -- the last turn: fire at a unit that has activated counts for nothing ------------

    def _last_turn(self, state: GameState, awaiting: Awaiting) -> Declaration | None:
        """On the last turn the wound markers of a unit that has activated are never
        rolled: the unit to activate is the one that leaves the side the best exchange
        over the turn's remaining activations (`_order`: each unit fires its actions at
        its best target that has not activated, sides alternating, each choosing its
        best order); fire goes to a target that has not activated when one is in
        sight, and Take Position is taken only when one shot at such a target with the
        support weapons in position places more than two without (nothing after the
        turn uses it). None: the careful choice stands (any other turn)."""
        assert isinstance(state, OpenRebellionState)
        e = self.orb
        side = awaiting.side
        if state.turn < e.turns or side is None or awaiting.kind not in ("activate", "action"):
            return None
        ready = {s: frozenset(e.ready_units(state, s)) for s in state.sides}
        if awaiting.kind == "action":
            unit = state.activating
            assert unit is not None
            choice = self._careful(state, awaiting)
            if not isinstance(choice, UnitAct):
                return None
            target = self._best_target(state, unit, ready)
            if choice.action.kind is ActionKind.TAKE_POSITION:
                # nothing after this turn uses a position: it is worth the one shot with
                # the support weapons' dice it adds later in this activation (seed 001)
                held = self._best_target(state, unit, ready, set_up=True)
                plain = 0.0 if target is None else target[0]
                shots = shots_after_position(e, state)
                if shots >= 1 and held is not None and held[0] * shots > plain * state.actions_left:
                    return None
            elif choice.action.kind is not ActionKind.FIRE or target is None:
                return None
            if target is None:
                return EndUnit(unit)
            if target[1] == choice.action.target:
                return None
            return UnitAct(unit, Action.fire(target[1]))
        other = next(s for s in state.sides if s != side)
        values = {
            unit: self._activation(state, unit, ready)
            + self._order(state, side, other, {**ready, side: ready[side] - {unit}}, other)
            for unit in sorted(ready[side])
        }
        if not values:
            return None
        unit = max(values, key=lambda u: values[u])
        careful = self._careful(state, awaiting)
        if isinstance(careful, ActivateUnit) and values.get(careful.unit, -math.inf) >= (
            values[unit] - 1e-9
        ):
            return None  # as good as the careful choice: keep it
        return ActivateUnit(unit)

    def _best_target(
        self,
        state: OpenRebellionState,
        unit: str,
        ready: dict[str, frozenset[str]],
        set_up: bool = False,
    ) -> tuple[float, str] | None:
        """The best target of `unit` among enemy units that have not activated (`set_up`:
        with its support weapons in position)."""
        side = self.orb.side_of_unit[unit]
        best: tuple[float, str] | None = None
        for s, units in ready.items():
            if s == side:
                continue
            for t in sorted(units):
                w = self._wounds(state, unit, t, set_up)
                if w is not None and (best is None or w > best[0]):
                    best = (w, t)
        return best

    def _activation(
        self, state: OpenRebellionState, unit: str, ready: dict[str, frozenset[str]]
    ) -> float:
        """The wound markers `unit` may expect to place with its two actions that will be
        rolled (its best target that has not activated)."""
        best = self._best_target(state, unit, ready)
        return 0.0 if best is None else 2 * best[0]

    def _order(
        self,
        state: OpenRebellionState,
        side: str,
        other: str,
        ready: dict[str, frozenset[str]],
        mover: str,
    ) -> float:
        """The rest of the last turn's exchange for `side` (markers it places less
        `exchange_risk` times those it takes, only on units yet to activate), sides
        alternating from `mover`, each activating the unit best for it (exact expected
        markers; a side with none left passes)."""
        if not ready[mover]:
            mover = side if mover == other else other
            if not ready[mover]:
                return 0.0
        nxt = side if mover == other else other
        risk = self._risk(state, side)
        values = []
        for unit in sorted(ready[mover]):
            gain = self._activation(state, unit, ready)
            rest = self._order(state, side, other, {**ready, mover: ready[mover] - {unit}}, nxt)
            values.append(rest + (gain if mover == side else -risk * gain))
        return max(values) if mover == side else min(values)

    def _careful(self, state: GameState, awaiting: Awaiting) -> Declaration:
        """The careful player's choice; while pin markers count for nothing
        (`pin_marker` 0: the engine gives them no effect) as if the activating unit had
        none, so that no action goes to shedding them."""
        assert isinstance(state, OpenRebellionState)
        unit = state.activating
        if awaiting.kind == "action" and unit is not None and not self.weights["pin_marker"]:
            wounds, pins = self.orb.markers(state, unit)
            if pins:
                bare = self.orb._set_markers(state, unit, wounds, 0, [])
                return self.careful.choose(bare, awaiting)
        return self.careful.choose(state, awaiting)

    def _floor(
        self,
        state: GameState,
        awaiting: Awaiting,
        side: str,
        default: Declaration,
        found: list[Candidate],
        rng: np.random.Generator,
    ) -> Declaration | None:
        """Sequential halving over `found` beside `default` (sampled every sweep, never
        dropped), common dice for all; the best survivor if its paired advantage is
        clear, else `default`; None if the engine refuses `default`."""
        search = self.weights.search
        fit = max(1, int(self.budget // search.get("sample_steps", 4)) - 1)
        others = found[:fit]
        values: dict[int, list[float]] = {id(c): [] for c in others}
        base: list[float] = []
        rounds = max(1, math.ceil(math.log2(len(others) + 1)))
        seeds = rng.integers(0, 2**63 - 1, size=4096)
        used = 0
        for r in range(rounds):
            share = (self.budget - self.steps) / (rounds - r)
            spent = 0
            while True:
                before = self.steps
                if self.steps >= self.budget:
                    break
                dice = int(seeds[used % len(seeds)])
                used += 1
                v = self._sample(state, awaiting, side, default, dice)
                if v is None:
                    return None
                row: dict[int, float] = {}
                for c in list(others):
                    if self.steps >= self.budget:
                        break
                    value = self._sample(state, awaiting, side, c.declaration, dice)
                    if value is None:
                        others.remove(c)
                        continue
                    row[id(c)] = value
                if others and id(others[-1]) not in row:
                    break  # the budget ran out in the sweep: keep only full rows
                base.append(v)
                for c in others:
                    values[id(c)].append(row[id(c)])
                cost = self.steps - before
                spent += cost
                if spent + cost > share or self.steps + cost > self.budget:
                    break
            if not others or self.steps >= self.budget or len(others) == 1:
                break
            others.sort(key=lambda c: -self._mean(values[id(c)], base))
            others = others[: max(1, math.ceil(len(others) / 2))]
        # the candidate whose advantage is surest: the highest lower bound of the paired
        # difference (mean less margin_z standard errors), if above margin_min
        z = search.get("margin_z", 2.0)
        best: tuple[float, Declaration] | None = None
        for c in found:
            diffs = np.array(values.get(id(c), [])) - np.array(base[: len(values.get(id(c), []))])
            if len(diffs) < search.get("margin_samples", 6):
                continue
            low = float(diffs.mean()) - z * float(diffs.std(ddof=1)) / math.sqrt(len(diffs))
            if low > search.get("margin_min", 0.0) and (best is None or low > best[0]):
                best = (low, c.declaration)
        return default if best is None else best[1]

    @staticmethod
    def _mean(values: list[float], base: list[float]) -> float:
        """A candidate's paired advantage over the default on the samples it has."""
        if not values:
            return -math.inf
        return float(np.mean(np.array(values) - np.array(base[: len(values)])))

    # -- the exchange of fire: where a unit stands ------------------------------------

    def _reposition(self, state: GameState, awaiting: Awaiting) -> Declaration | None:
        """At the start of an activation, a standard move (a fan of headings and the
        spots against scenery within reach) when the side's exchange of fire from
        there (`_exchange`) beats staying by more than `reposition_margin`; else None.
        The move costs the unit one of this turn's two actions, and a support weapon
        its position."""
        if awaiting.kind != "action":
            return None
        assert isinstance(state, OpenRebellionState)
        unit = state.activating
        if unit is None or not self.orb.alive(state, unit):
            return None
        if state.actions_left < 2:
            planned = self._planned(state, unit)
            if planned is not None:
                return planned
            if not self.weights.search.get("reposition_second", 0):
                return None
            turns = self._turns(state)
            stay = self._exchange(state, unit, turns, 1)
            best = self._best_move(state, unit, turns, 0)
            margin = self.weights.search.get("reposition_margin", 0.05)
            if best is None or best[0] <= stay + margin:
                return None
            return UnitAct(unit, Action.move(*best[1]))
        gain = self._move_gain(state, unit)
        return None if gain is None else UnitAct(unit, Action.move(*gain[1]))

    def _planned(self, state: OpenRebellionState, unit: str) -> Declaration | None:
        """The second of two moves out of sight (`_hiding`) when the first has taken the
        unit where it was meant to and the second is still open."""
        plan, self.plan = self.plan, None
        if plan is None or plan[0] != unit:
            return None
        at = tuple(m.at for m in self.orb.alive(state, unit))
        if len(at) != len(plan[1]) or any(
            math.dist(a, b) > 1e-6 for a, b in zip(at, plan[1], strict=True)
        ):
            return None
        if self.orb.move_blocked(state, unit, plan[2]) is not None:
            return None
        return UnitAct(unit, Action.move(*plan[2]))

    def _turns(self, state: OpenRebellionState) -> int:
        """Turns the exchange of fire is weighed over: `reposition_turns`, the rest of
        the game at most."""
        left = self.orb.turns - state.turn + 1
        return min(int(self.weights.search.get("reposition_turns", 3)), left)

    def _move_gain(self, state: OpenRebellionState, unit: str) -> tuple[float, Point] | None:
        """The standard move that betters the side's exchange of fire over staying by
        most (more than `reposition_margin`), with how much; None when none does. The
        unit has two actions this turn: the move costs one."""
        turns = self._turns(state)
        stay = self._exchange(state, unit, turns, 2)
        best = self._best_move(state, unit, turns, 1)
        self.plan = None
        hidden = self._hiding(state, unit, turns) if self.weights.search.get("hide_moves") else None
        if hidden is not None and (best is None or hidden[0] > best[0]):
            best = hidden[:2]
        if best is None or best[0] <= stay + self.weights.search.get("reposition_margin", 0.05):
            return None
        if hidden is not None and best[1] == hidden[1]:
            there = self.orb._move_by(state, unit, hidden[1], [])
            self.plan = (unit, tuple(m.at for m in self.orb.alive(there, unit)), hidden[2])
        return best[0] - stay, best[1]

    def _best_move(
        self, state: OpenRebellionState, unit: str, turns: int, now: int
    ) -> tuple[float, Point] | None:
        """The standard move (`_spots`) whose exchange of fire after it is best, the
        unit having `now` actions left this turn there."""
        e = self.orb
        best: tuple[float, Point] | None = None
        for v in self._spots(state, unit):
            if e.move_blocked(state, unit, v) is not None:
                continue
            there = e._move_by(state, unit, v, [])
            value = self._exchange(there, unit, turns, now)
            if best is None or value > best[0]:
                best = (value, v)
        return best

    def _hiding(
        self, state: OpenRebellionState, unit: str, turns: int
    ) -> tuple[float, Point, Point] | None:
        """Two standard moves (both actions) that take the unit out of every enemy
        model's sight: the exchange of fire there (the unit has no action left this
        turn) and the two moves. The places weighed lie on a grid `hide_grid`
        inches apart within two moves; each is reached by two equal moves, or a full
        move on one of eight headings and the rest."""
        e = self.orb
        length = e.value("standard_move")
        side = e.side_of_unit[unit]
        enemies = [m for m in state.models if m.status != DEAD and m.side != side]
        mine = e.alive(state, unit)
        if not enemies or not mine:
            return None
        grid = self.weights.search.get("hide_grid", 1.0)
        n = int(2 * length / grid)
        heads = [
            (math.cos(math.radians(a)) * length, math.sin(math.radians(a)) * length)
            for a in range(0, 360, 45)
        ]
        best: tuple[float, Point, Point] | None = None
        for i in range(-n, n + 1):
            for j in range(-n, n + 1):
                end = (i * grid, j * grid)
                if math.hypot(*end) > 2 * length or end == (0.0, 0.0):
                    continue
                last = e._move_by(state, unit, end, [])
                moved = e.alive(last, unit)
                # the first model alone first: most places are in some enemy's sight
                if any(e._clear(last, [(a, moved[0]) for a in enemies])):
                    continue
                if any(e._clear(last, [(a, b) for a in enemies for b in moved[1:]])):
                    continue
                first = self._two_moves(state, unit, end, heads)
                if first is None:
                    continue
                value = self._exchange(last, unit, turns, 0)
                if best is None or value > best[0]:
                    best = (value, first, (end[0] - first[0], end[1] - first[1]))
        return best

    def _two_moves(
        self, state: OpenRebellionState, unit: str, end: Point, heads: list[Point]
    ) -> Point | None:
        """The first of two standard moves that take the unit by `end`, or None."""
        e = self.orb
        length = e.value("standard_move")
        half = (end[0] / 2, end[1] / 2)
        for v1 in (half, *heads):
            v2 = (end[0] - v1[0], end[1] - v1[1])
            if math.hypot(*v2) > length + 1e-9 or e.move_blocked(state, unit, v1) is not None:
                continue
            if e.move_blocked(e._move_by(state, unit, v1, []), unit, v2) is None:
                return v1
        return None

    def _fall_back(self, state: GameState, awaiting: Awaiting) -> Declaration:
        """Fall back or stand (take the morale check in the open): the answer whose
        wound markers from this fire (the damage at the tier where the unit ends up,
        exact) and exchange of fire after (`_exchange`) are worth more, over
        `fall_back_tries` rolls of the tac-move, the same for both answers."""
        assert isinstance(state, OpenRebellionState) and state.pending is not None
        e = self.orb
        pending = state.pending
        unit = pending.target
        turns = self._turns(state)
        now = 0 if e.has_flag(state, unit, ACTIVATED) else 2
        risk = self._risk(state, e.side_of_unit[unit])
        tries = int(self.weights.search["fall_back_tries"])
        best: tuple[float, Declaration] | None = None
        for go in (False, True):
            choice = FallBackChoice(unit, go)
            total = 0.0
            for k in range(tries):
                rng = np.random.default_rng([self.seed, k])
                try:
                    after, _ = e.apply(state, choice, rng=rng)
                except IllegalDeclaration:
                    break
                assert isinstance(after, OpenRebellionState)
                if not e.alive(after, unit) or after.finished:
                    continue
                cover = e.cover(after, pending.attacker, unit).level
                tier = e.conversion_tier(after, unit, CoverTier(int(cover)), pending.lowers_tier)
                placed = pending.damage * _WOUND_SHARE[tier]
                total += -risk * placed + self._exchange(after, unit, turns, now)
            else:
                if best is None or total > best[0]:
                    best = (total, choice)
        return best[1] if best is not None else self._careful(state, awaiting)

    def _spots(self, state: OpenRebellionState, unit: str) -> list[Point]:
        """Standard-move vectors: eight headings from the nearest enemy unit's (full and
        half a move) and the `reposition_covers` spots against scenery nearest it."""
        e = self.orb
        length = e.value("standard_move")
        here = e.centre(state, unit)
        side = e.side_of_unit[unit]
        enemies = [u for s in state.sides if s != side for u in e.side_units(state, s)]
        if not enemies:
            return []
        goal = min((e.centre(state, u) for u in enemies), key=lambda c: math.dist(c, here))
        base = math.atan2(goal[1] - here[1], goal[0] - here[0])
        out: list[Point] = []
        for angle in (0, 45, -45, 90, -90, 135, -135, 180):
            a = base + math.radians(angle)
            for step in (1.0, 0.5):
                out.append((math.cos(a) * length * step, math.sin(a) * length * step))
        first = e.alive(state, unit)[0]
        spots = cover_spots(
            e.setup, first.at, length, self.radius[first.id], every=1.0, gap=CONTACT
        )
        spots.sort(key=lambda p: math.dist(p, goal))
        for p in spots[: int(self.weights.search.get("reposition_covers", 12))]:
            out.append((p[0] - first.at[0], p[1] - first.at[1]))
        return [v for v in out if math.hypot(*v) <= length + 1e-9]

    def _risk(self, state: OpenRebellionState, side: str) -> float:
        """What a wound marker taken weighs against one placed: `exchange_risk`, times
        `risk_behind` while the side is not ahead on points of models left (less the
        kills its wound markers are expected to bring) and `risk_ahead` while it is. At
        the turn limit only the margin decides (a draw is no win): a side behind must
        trade fire to win, one ahead wins by keeping what it has."""
        search = self.weights.search
        factor = "risk_ahead" if self._material(state, side) > 0 else "risk_behind"
        return self.weights["exchange_risk"] * search.get(factor, 1.0)

    def _wounds(
        self, state: GameState, unit: str, target: str, set_up: bool = False
    ) -> float | None:
        """Expected wound markers of one small arms fire (exact odds), None out of sight;
        `set_up`: with the unit's support weapons in position (their dice added)."""
        try:
            plan = self.orb.pools(state, unit, target)
        except IllegalDeclaration:
            return None
        attack = plan.attack
        if set_up:
            attack += support_dice(self.orb, state, unit, plan.firing)
        return _mean_wounds(attack, plan.defence, int(plan.tier))

    def _exchange(self, state: GameState, unit: str, turns: int, now: int) -> float:
        """The wound markers the side of `unit` may expect to place, less (times
        `reposition_risk`) those it may expect to take, over `turns` turns: every unit
        firing its two actions a turn at its best target in sight, `unit` `now` actions
        this turn, a unit that has activated none this turn. On the last turn a unit
        that has activated never rolls its markers: fire at it counts for nothing."""
        assert isinstance(state, OpenRebellionState)
        e = self.orb
        side = e.side_of_unit[unit]
        last = state.turn >= e.turns
        ours = e.side_units(state, side)
        theirs = [u for s in state.sides if s != side for u in e.side_units(state, s)]
        later = 2 * (turns - 1)

        def best(shooter: str, targets: list[str], skip: set[str]) -> tuple[float, float]:
            this_turn = after = 0.0
            for t in targets:
                w = self._wounds(state, shooter, t)
                if w is None:
                    continue
                after = max(after, w)
                if t not in skip:
                    this_turn = max(this_turn, w)
            return this_turn, after

        done = {u for u in e.units if e.has_flag(state, u, ACTIVATED)} if last else set()
        placed = taken = 0.0
        for u in ours:
            this_turn, after = best(u, theirs, done)
            n = now if u == unit else (0 if e.has_flag(state, u, ACTIVATED) else 2)
            placed += n * this_turn + later * after
        for t in theirs:
            skip = (done | {unit}) if last else set()
            this_turn, after = best(t, ours, skip)
            n = 0 if e.has_flag(state, t, ACTIVATED) else 2
            taken += n * this_turn + later * after
        risk = self._risk(state, side)
        if self.weights.search.get("ahead_takes_odds", 0) and placed >= taken:
            # good on the exact odds: a side ahead takes it as a side level would
            level = self.weights.search.get("risk_behind", 1.0)
            risk = min(risk, self.weights["exchange_risk"] * level)
        return placed - risk * taken

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
        spots = cover_spots(
            e.setup, first.at, length, self.radius[first.id], every=2.0, gap=CONTACT
        )
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
        if self.weights.search.get("to_turn_end", 0):
            return state.turn != root.turn
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
        fw = _WOUND_SHARE[plan.tier]
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


class _Rollout:
    """The lookahead's policy: the careful player (the likely opponent) for the other
    side, and our own default (careful, pins ignored) for the side choosing."""

    def __init__(self, player: SearchOpenRebellionPlayer) -> None:
        self.player = player

    def choose(self, state: GameState, awaiting: Awaiting) -> Declaration:
        if awaiting.side is not None and awaiting.side == self.player.side:
            return self.player._careful(state, awaiting)
        return self.player.careful.choose(state, awaiting)
