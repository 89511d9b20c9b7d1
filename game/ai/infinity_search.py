"""The Infinity search player: a judged choice of Order and ARO (`judge`, weights), or
sampled lookahead over them (game.ai.search).

The judged choice (`_judged`): each candidate below is played to the end of its Order
without dice, the enemy's AROs and second skill as the careful player declares them
(the window's and the benchmark's opponent) and our own second skill judged the same
way (Idle, Dodge, the best shots, or on into cover); the Order's rolls are then taken
at their exact odds (`_order_wounds`: every outcome of wounds, each position after
scored by `evaluate` below, Guts Rolls left out; templates by a few sampled dice). The
best expected worth is the answer (at equal worth, a declaration that changes something
before one that changes nothing: a Move to where the trooper stands, a Dodge with no
attack to dodge, a shot at a trooper already out). So the exchange of fire decides
when to hide, when to close in and which Order to spend on whom, and an Unconscious
trooper is worth nothing (it no longer counts at the turn limit, and no doctor raises
it): no shot at one is offered.

Candidates (for both): an Order's BS Attacks from where each trooper stands and the
careful player's moves (move and shoot, move out of sight), moves into cover (a base
against a scenery piece, fewest enemies with a clear line there first) and onto
objectives, and ending the turn; an ARO's careful answer, shots from a few points of
the route, Dodge and no ARO; a second skill's shots, Dodge and Idle. The sampled
lookahead (`judge` 0) plays the Order to its end (the enemy's AROs and our second
skill by the simple player, or by the careful one where the weights say
`careful_replies`/`careful_own`). Both score a position (`evaluate`) by
`game/ai/weights/infinity.toml`: points of troopers kept and taken out (wounds and
Unconscious in between), a Lieutenant's Order in each turn to come (`_lieutenants`: its
side loses it with the Lieutenant), objectives held (more as the last turn nears), and the
exchange of fire still to come (`_exchange`): the Orders the active side has left this
turn and then the other side's next turn (none after the game's last), each spent on
its side's best shot with the exact Face-to-Face odds against the target's reply and
the Normal-roll AROs of the others that see the shooter, from where the shooter stands
or after a move of a fan toward its nearest enemy. A trooper left where the enemy's
next turn would shoot it costs what those shots are expected to take; one out of sight
costs nothing, or a share where an enemy's move would show it. (The plain count of
lines, `exposure`/`reach`, is nearly off.)

The step that resolves an Order rolls every die of it; its sampled result is taken off
against its exact expectation (`luck`, a control variate): the engine rolls each pair
apart (the active trooper against each target, Face-to-Face when it shoots back; each
other ARO a Normal roll), so each trooper's wounds are the sum of independent exact
distributions. A sample then differs from another by little more than Guts moves (the
demo's opening Orders: a sample's spread 4-10 points -> under 1)."""

from __future__ import annotations

import contextlib
import dataclasses
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from game.ai.infinity import CarefulInfinityPlayer, SimpleInfinityPlayer, _facing
from game.ai.search import REFUSED, Candidate, Detours, Policy, SearchPlayer, along, cover_spots
from game.errors import IllegalDeclaration
from game.rules.infinity.odds import RollSide
from game.rules.infinity.saves import Attack
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
from game.sequencer.infinity_orders import _length
from game.sequencer.sight import Cover
from game.sequencer.state import GameState, ModelState, renew

Point = tuple[float, float]
# a Move shorter than this changes nothing that counts (the careful player's moves are
# never shorter): no cover spot nearer offered, and at equal worth such a Move is wasted
# (issue 17: "Zhanshi LT moves 0.1"" into the cover it stood in, opening an Order)
STILL = 0.5
MOVE_FAN = (0.0, 45.0, -45.0, 90.0, -90.0)  # a move's headings from the nearest enemy's


Joint = dict[tuple[int, ...], float]  # wounds to each of some troopers -> probability


def _is_attack(declaration: Declaration) -> bool:
    return isinstance(declaration, Continue) and declaration.skill.kind is SkillKind.ATTACK


@lru_cache(maxsize=4096)
def _pair_wounds(one: RollSide, two: RollSide, attack: Attack, back: Attack | None) -> Joint:
    """The exact joint wounds (to the target, side two; to the roller, side one) of one
    Face-to-Face roll (a Normal roll when side two rolls no dice; `back` None when its
    roll does no harm): game.rules.infinity's distributions, the saves after each
    outcome independent."""
    from game.rules.infinity.odds import Side, face_to_face
    from game.rules.infinity.saves import wounds_from_hits

    def wounds(hits: tuple[int, int], attack: Attack | None) -> dict[int, float]:
        if attack is None or not sum(hits):
            return {0: 1.0}
        d = wounds_from_hits(*hits, attack.weapon, attack.defence)
        return {n: c / d.total for n, c in d.items()}

    f2f = face_to_face(one, two)
    out: Joint = {}
    for outcome, count in f2f.items():
        p = count / f2f.total
        to_them = wounds(outcome.hits_on(Side.TWO), attack)
        to_me = wounds(outcome.hits_on(Side.ONE), back)
        for a, pa in to_them.items():
            for b, pb in to_me.items():
                out[(a, b)] = out.get((a, b), 0.0) + p * pa * pb
    return out


@dataclass(frozen=True, slots=True)
class _Line:
    """One trooper's line of fire to an enemy where both stand: its full-Burst rolls (one
    a weapon in range) and its best Burst 1 roll in ARO, each with what a hit does."""

    shots: tuple[tuple[RollSide, Attack], ...]
    aro: tuple[RollSide, Attack] | None


class SearchInfinityPlayer(SearchPlayer):
    """Chooses Orders and AROs by looking ahead (see the module's note)."""

    SYSTEM = "infinity"

    def __init__(self, engine: Engine, **options: object) -> None:
        assert isinstance(engine, InfinityEngine)
        self.inf = engine
        self.careful = CarefulInfinityPlayer(engine)
        self.detours = Detours(engine.setup)
        # each Order's exact wounds, by the position and the declaration that resolves it
        # (the same in every sample of a candidate: no dice are rolled before then)
        self.expected: dict[tuple[GameState, Declaration, str], tuple[tuple[str, ...], float]] = {}
        # by where all stand: for whom they were found, and the lines
        self.lines: dict[object, tuple[frozenset[str], dict[tuple[str, str, str], _Line]]] = {}
        self.exchanges: dict[object, float] = {}  # by position and side
        self.root: tuple[int, str] | None = None  # the turn of the decision being made
        super().__init__(engine, **options)  # type: ignore[arg-type]

    def forget(self) -> None:
        super().forget()
        self.expected.clear()
        self.lines.clear()
        self.exchanges.clear()

    def choose(self, state: GameState, awaiting: Awaiting) -> Declaration:
        # the turn the decision is made in: the exchange's turns are weighed from it
        self.root = (state.turn, state.active)
        light = self.budget < self.weights.search.get("light_below", 8)
        if light or not self.weights.search.get("judge", 0):
            return super().choose(state, awaiting)
        assert isinstance(state, InfinityState)
        self.steps = 0
        self.forget()
        judged = None
        with contextlib.suppress(IllegalDeclaration, ValueError, KeyError):
            judged = self._judged(state, awaiting)
        if judged is not None and self._legal(state, judged):
            return judged
        return self._fallback(state, awaiting)

    def rollout_policy(self) -> Policy:
        return SimpleInfinityPlayer(self.inf)

    def reply_policy(self) -> Policy:
        """The careful player (the window's computer player, the benchmark's opponent)
        for the enemy's AROs when the weights say `careful_replies`, else the simple one."""
        if self.weights.search.get("careful_replies", 0):
            return self.careful
        return self.rollout

    def own_policy(self) -> Policy:
        """The careful player for our own second skill after a candidate (`careful_own`):
        it shoots after a move only when the exchange is worth it."""
        if self.weights.search.get("careful_own", 0):
            return self.careful
        return self.rollout

    def default_choice(self, state: GameState, awaiting: Awaiting) -> Declaration | None:
        return self.careful.choose(state, awaiting)

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
        w = self.weights.search
        # the judged choice weighs more (no samples to spread): its own counts
        judged = "judge_" if w.get("judge", 0) else ""
        able = [state.model(m) for m in payable]
        shots: list[tuple[Declaration, float]] = []
        moves: list[tuple[Declaration, float]] = []
        for m in able:
            for value, weapon, target in self.careful._shots(state, m):
                if self._pointless(state.model(target)):
                    continue
                skill = Skill.attack(weapon.name, (target, weapon.burst))
                shots.append((Activate(m.id, skill), value))
        movers = (
            able if judged and w.get("judge_all_movers", 0) else self.careful._movers(state, able)
        )
        for m in movers:
            for value, skill in self.careful._moves(state, m):
                moves.append((Activate(m.id, skill), value))
        covers: list[tuple[Declaration, float]] = []
        for m in able:
            covers.extend(self._cover_moves(state, m))
            covers.extend(self._objective_moves(state, m))
        shots.sort(key=lambda c: -c[1])
        moves.sort(key=lambda c: -c[1])
        covers.sort(key=lambda c: -c[1])
        out = shots[: int(w[judged + "shots"])] + moves[: int(w[judged + "moves"])]
        out += covers[: int(w[judged + "covers"])]
        out.append((EndTurn(), 0.0))  # nothing dealt, nothing taken
        return out

    def _cover_moves(self, state: InfinityState, m: ModelState) -> list[tuple[Declaration, float]]:
        """Moves to a base against scenery within the first MOV (`_cover_skills`)."""
        reach = self.inf.profiles[m.id].mov[0]
        return [(Activate(m.id, skill), v) for skill, v in self._cover_skills(state, m, reach)]

    def _cover_skills(
        self, state: InfinityState, m: ModelState, reach: float
    ) -> list[tuple[Skill, float]]:
        """Moves to a base against scenery within `reach`, fewest enemies with a clear
        line there first (one batch); the straight route must be clear."""
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
        out: list[tuple[Skill, float]] = []
        for count, _, p in scored[:6]:
            if math.dist(p, m.at) < STILL:
                continue  # where it stands already: no move
            if self.inf.path_blocked(state, m.id, (m.at, p)) is not None:
                continue
            out.append((Skill.move(p, facing=_facing(p, enemy.at)), 0.1 * (here - count)))
            if len(out) >= 2:
                break
        return out

    def _objective_moves(
        self, state: InfinityState, m: ModelState
    ) -> list[tuple[Declaration, float]]:
        reach = self.inf.profiles[m.id].mov[0]
        return [(Activate(m.id, s), v) for s, v in self._objective_skills(state, m, reach)]

    def _objective_skills(
        self, state: InfinityState, m: ModelState, reach: float
    ) -> list[tuple[Skill, float]]:
        """Moves of up to `reach` toward each objective the trooper is not on, by the
        shortest route round the solid scenery (`Detours`): onto it where the reach
        allows (its base well within the radius), else as far along as it goes."""
        out: list[tuple[Skill, float]] = []
        radius = self.inf.radii[m.id]
        enemy = self.careful._nearest_enemy(state, m)
        for objective in self.inf.setup.objectives:
            if math.dist(m.at, objective.at) - radius <= objective.radius:
                continue
            # before the last round, a straight move only: objectives score at the end,
            # and a long way round them early walks into the enemy's turns to come
            route = (
                self.detours.route(m.at, objective.at, radius)
                if state.turn >= self.inf.turns
                else [objective.at]
            )
            if route is None:
                continue
            length = _length([m.at, *route])
            step = min(reach, length - radius - objective.radius * 0.5)
            if step <= 0.25:
                continue
            path = tuple(along(m.at, route, step))
            if self.inf.path_blocked(state, m.id, path) is not None:
                continue
            facing = _facing(path[-1], enemy.at) if enemy is not None else m.facing
            out.append((Skill.move(*path, facing=facing), 0.05 * objective.points))
        return out

    def _seconds(self, state: InfinityState) -> list[tuple[Declaration, float]]:
        order = state.order
        assert order is not None
        out: list[tuple[Declaration, float]] = [(Continue(Skill.idle()), 0.0)]
        if order.first.kind is SkillKind.MOVE:
            m = state.model(order.model)
            moved = m.replace(at=order.route[-1], facing=order.facing)
            for value, weapon, target in self.careful._shots(state.with_model(moved), moved):
                if self._pointless(state.model(target)):
                    continue
                out.append((Continue(Skill.attack(weapon.name, (target, weapon.burst))), value))
            out.append((Continue(Skill.dodge()), -0.05))
            if self.weights.search.get("judge", 0) and self.weights.search.get("second_moves", 0):
                # on into cover (the judged choice weighs these: Move and Move)
                there = state.with_model(moved)
                reach = self.inf.profiles[m.id].mov[1]
                for skill, value in self._cover_skills(there, moved, reach):
                    out.append((Continue(skill), value - 0.05))
                if state.turn >= self.inf.turns:  # on toward an objective: the last round
                    for skill, value in self._objective_skills(there, moved, reach):
                        out.append((Continue(skill), value - 0.05))
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
            out.append(
                (self.careful._aro(state, reactor), self.weights.search.get("careful_prior", 0.5))
            )
        if full:
            points = _along(order.route)
            picks = {points[0], points[len(points) // 2], points[-1]}
            many = int(self.weights.search.get("judge_aro_points", 0))
            if self.weights.search.get("judge", 0) and many:
                # the judged choice: where the route sweep found a clear line, spread out
                seen = self.inf.aro_points(state, reactor)
                if seen:
                    picks = set(seen[:: max(1, len(seen) // many)]) | {seen[-1]}
            for point in sorted(picks):
                for weapon in self.inf.weapons_of(reactor):
                    if not weapon.bands:
                        continue
                    skill = Skill.attack(weapon.name, (order.model, 1))
                    out.append((React(reactor, skill, at=point), 0.1))
        return out

    # -- the judged choice: the exact exchange of the Order and of the Orders after ------

    def _judged(self, state: InfinityState, awaiting: Awaiting) -> Declaration | None:
        """The candidate whose Order leaves the best expected position (`_after`): the
        Order played to its end with the enemy's AROs and second skill as the careful
        player declares them and our own second skill judged likewise, its rolls taken
        at their exact odds, the positions after scored by `evaluate` (points kept and
        taken, objectives, the exchange of fire of the Orders still to come)."""
        side = awaiting.side
        assert side is not None
        found = self._dedupe(self.candidates(state, awaiting))
        found.sort(key=lambda c: -c.prior)
        with contextlib.suppress(IllegalDeclaration, ValueError, KeyError, AssertionError):
            # the careful choice first (weighed whatever the budget), in place of its copy
            careful = self.careful.choose(state, awaiting)
            key = repr(careful.to_dict())
            found = [c for c in found if repr(c.declaration.to_dict()) != key]
            found.insert(0, Candidate(careful, -1.0))
        # equal worth (to the float's last digits) goes to a declaration that does
        # something before one that does nothing (`_wasted`), then to the prior; an
        # Order worth no more than ending the turn is wasted too (a move out and back
        # into the same cover: it spends an Order and shows nothing)
        valued: list[tuple[float, Candidate]] = []
        for c in found:
            value = self._after(state, c.declaration, side)
            if value is not None:
                valued.append((round(value, 9), c))
        ending = max((v for v, c in valued if isinstance(c.declaration, EndTurn)), default=None)
        best: tuple[tuple[float, bool, float], Declaration] | None = None
        for value, c in valued:
            idle = ending is not None and isinstance(c.declaration, Activate) and value <= ending
            rank = (value, not (idle or self._wasted(state, c.declaration)), c.prior)
            if best is None or rank > best[0]:
                best = (rank, c.declaration)
        return best[1] if best is not None else None

    def _wasted(self, state: InfinityState, declaration: Declaration) -> bool:
        """A declaration that changes nothing on the table: a Move that ends where the
        trooper stands (less than `STILL` from it), a second skill's Dodge with no
        attack declared to dodge, a shot only at troopers whose finishing is worth
        nothing (`_pointless`). Ending the turn or Idle is no worse, and reads better."""
        skill = declaration.skill if isinstance(declaration, Activate | Continue) else None
        if skill is None:
            return False
        if skill.kind is SkillKind.MOVE and skill.path:
            mover = declaration.model if isinstance(declaration, Activate) else None
            if mover is None and state.order is not None:
                return math.dist(skill.path[-1], state.order.route[-1]) < STILL
            return mover is not None and math.dist(skill.path[-1], state.model(mover).at) < STILL
        if skill.kind is SkillKind.DODGE and isinstance(declaration, Continue):
            order = state.order
            return order is not None and not any(
                r.skill.kind is SkillKind.ATTACK for r in order.reactions
            )
        if skill.kind is SkillKind.ATTACK and skill.targets:
            return all(self._pointless(state.model(t)) for t, _ in skill.targets)
        return False

    def _pointless(self, target: ModelState) -> bool:
        """A shot at `target` can gain nothing: it is Dead, or Unconscious and an
        Unconscious trooper is worth nothing (`unconscious` 0: no doctor in these
        rules to raise it, and only troopers able to act count at the turn limit)."""
        if target.status == "dead":
            return True
        return target.status == "unconscious" and self.weights["unconscious"] <= 0

    def _after(self, state: InfinityState, declaration: Declaration, side: str) -> float | None:
        """The expected worth to `side` of the position once the Order `declaration`
        belongs to is over (None: the engine refuses it, or the budget's steps are
        spent)."""
        inf = self.inf
        if self.steps >= self.budget:
            return None
        try:
            now, _ = inf.apply(state, declaration, rng=np.random.default_rng(self.seed))
        except REFUSED:
            return None
        self.steps += 1
        assert isinstance(now, InfinityState)
        if state.order is not None and now.order is None:  # it resolved the Order
            outcomes = self._outcomes(state, declaration)
            if outcomes is not None:
                return sum(p * self._leaf(s, side) for p, s in outcomes)
            # templates, Dodges: a few sampled dice, the same in every candidate
            values = [self._leaf(now, side)]
            for k in range(1, int(self.weights.search.get("judge_samples", 4))):
                with contextlib.suppress(*REFUSED):
                    again, _ = inf.apply(
                        state, declaration, rng=np.random.default_rng([self.seed, k])
                    )
                    self.steps += 1
                    values.append(self._leaf(again, side))
            return sum(values) / len(values)
        if now.finished or now.order is None:
            return self._leaf(now, side)
        waiting = inf.awaiting(now)
        if waiting.side == side and waiting.kind == "second":
            options = sorted(self._seconds(now), key=lambda c: -c[1])
            limit = int(self.weights.search.get("judge_seconds", 4))
            keep = [d for d, _ in options if not _is_attack(d)]
            keep += [d for d, _ in options if _is_attack(d)][:limit]
            values = [v for d in keep if (v := self._after(now, d, side)) is not None]
            return max(values) if values else None
        try:
            reply = self.careful.choose(now, waiting)
        except (IllegalDeclaration, ValueError, KeyError, AssertionError):
            reply = self.rollout.choose(now, waiting)
        return self._after(now, reply, side)

    def _leaf(self, state: GameState, side: str) -> float:
        """A judged position's worth: `evaluate` (points kept and taken and the exchange
        to come: about the final difference of points expected), or with `win_spread`
        the chance of winning it gives, as `win` * (2 P - 1), the final difference taken
        as normal about it with that spread: a side ahead keeps its lead rather than
        gamble it on dice, a side behind takes the chances that may turn the game."""
        value = self.evaluate(state, side)
        spread = self.weights.values.get("win_spread", 0.0)
        if spread > 0:
            value = self.weights["win"] * math.erf(value / (spread * math.sqrt(2.0)))
        return max(value, self._ending(state, side))

    def _ending(self, state: GameState, side: str) -> float:
        """In the game's last Active Turn, with `side` playing it and free to end it: the
        worth of ending it here (the result the turn limit gives now, `win` and all); an
        Order played on is worth at least that, since the turn may end after it. Else
        minus infinity (nothing is certain yet)."""
        inf = self.inf
        assert isinstance(state, InfinityState)
        if state.finished or state.order is not None or state.turn < inf.turns:
            return -math.inf
        if state.active != side or state.sides[-1] != side:
            return -math.inf
        ended = inf._victory(state, [], final=True)
        return -math.inf if ended is None else self.evaluate(ended, side)

    def _outcomes(
        self, state: InfinityState, declaration: Declaration
    ) -> list[tuple[float, InfinityState]] | None:
        """The positions after the Order that `declaration` resolves, each with its exact
        chance (wounds from `_order_wounds`; Guts Rolls left out), or None where the
        odds are not covered."""
        inf = self.inf
        try:
            ids, joint = self._order_wounds(state, declaration)
        except (IllegalDeclaration, KeyError, ValueError):
            return None
        if not joint:
            return None
        if isinstance(declaration, React):
            pending = inf._react(state, declaration, [])
        else:
            assert isinstance(declaration, Continue)
            pending = inf._continue(state, declaration, [])
        order = pending.order
        assert order is not None
        active = pending.model(order.model)
        base = renew(
            pending.with_model(active.replace(at=order.route[-1], facing=order.facing)),
            order=None,
        )
        out: list[tuple[float, InfinityState]] = []
        total = 0.0
        for wounds, p in joint.items():
            if p < 1e-4:
                continue
            there = base
            for i, n in zip(ids, wounds, strict=True):
                if n:
                    there = there.with_model(self._wounded(base.model(i), n))
            out.append((p, inf._after_order(there, [])))
            total += p
        return [(p / total, s) for p, s in out]

    # -- the lookahead ---------------------------------------------------------------

    def horizon(self, root: GameState, root_awaiting: Awaiting, state: GameState) -> bool:
        assert isinstance(state, InfinityState)
        return state.order is None

    def _worth(self, m: ModelState, side: str) -> float:
        """A trooper's points to `side` as it stands (Dead nothing, Unconscious a share,
        wounds a share), the enemy's counted against."""
        w = self.weights
        points = self.inf.points[m.id] or 10
        if m.status == "dead":
            worth = 0.0
        elif m.status == "unconscious":
            worth = w["unconscious"]
        else:
            worth = 1.0 - w["wound"] * m.wounds / self.inf.profiles[m.id].wounds
        return points * worth if m.side == side else -w["enemy"] * points * worth

    def evaluate(self, state: GameState, side: str) -> float:
        assert isinstance(state, InfinityState)
        total = 0.0
        able: dict[str, list[ModelState]] = {}
        for m in state.models:
            total += self._worth(m, side)
            if m.status not in ("dead", "unconscious"):
                able.setdefault(m.side, []).append(m)
        if state.finished:
            return total + self.won(state, side)
        total += self._objectives(state, side, able)
        total += self._lieutenants(state, side)
        if self.weights["exposure"] or self.weights["reach"]:
            total += self._lines(state, side, able)
        if self.weights["exchange"]:
            total += self.weights["exchange"] * self._exchange(state, side)
        return total

    def _lieutenants(self, state: InfinityState, side: str) -> float:
        """Loss of Lieutenant as these rules play it: the Lieutenant Special Order is the
        Lieutenant's alone (FACTS 3.4), so a side whose Lieutenant can no longer act has
        one Order fewer in each of its Active Turns still to come; each costs
        `lieutenant_order` points (an enemy's counted as its troopers are, `enemy`),
        save the turn the exchange of fire already counts with the Orders it will have
        (the other side's next one)."""
        per = self.weights.values.get("lieutenant_order", 0.0)
        inf = self.inf
        if not per or not inf.lieutenants:
            return 0.0
        order = state.sides
        total = 0.0
        for s in order:
            chiefs = [m for m in state.side_models(s) if m.id in inf.lieutenants]
            if not chiefs or any(inf.can_act(m) for m in chiefs):
                continue
            turns = inf.turns - state.turn + int(order.index(s) > order.index(state.active))
            if s != state.active and self.weights["exchange"] and turns > 0:
                turns -= 1  # its next turn: the exchange counts it without the Order
            total += per * turns * (-1.0 if s == side else self.weights["enemy"])
        return total

    def luck(
        self, state: GameState, declaration: Declaration, after: GameState, side: str
    ) -> float:
        """The declaration that completes an Order's AROs resolves its rolls: the
        troopers' worth after the sampled dice less its exact expectation (a control
        variate). Each Face-to-Face or Normal roll is its own dice (the engine rolls
        each pair apart), so each trooper's wounds are the sum of independent exact
        distributions (game.rules.infinity: face_to_face, wounds_taken; the active
        trooper's Dodge Face-to-Face against each ARO). Orders with templates or shots
        into close combat are left as sampled."""
        assert isinstance(state, InfinityState) and isinstance(after, InfinityState)
        if state.order is None or after.order is not None:
            return 0.0
        key = (state, declaration, side)
        found = self.expected.get(key)
        if found is None:
            try:
                ids, joint = self._order_wounds(state, declaration)
            except (IllegalDeclaration, KeyError, ValueError):
                ids, joint = (), {}
            mean = 0.0
            for wounds, p in joint.items():
                hurt = {
                    i: self._wounded(state.model(i), n) for i, n in zip(ids, wounds, strict=True)
                }
                mean += p * self._settled(state, hurt, side)
            found = self.expected[key] = (ids if joint else (), mean)
        ids, mean = found
        if not ids:
            return 0.0
        return self._settled(after, {i: after.model(i) for i in ids}, side) - mean

    def _settled(self, state: InfinityState, hurt: dict[str, ModelState], side: str) -> float:
        """The luck's measure: the worth of the troopers in `hurt` (as they are there) to
        `side`, and the game's (`win`) when a side has no trooper left able to act."""
        total = sum(self._worth(m, side) for m in hurt.values())
        beaten = [
            s
            for s in state.sides
            if not any(self.inf.can_act(hurt.get(m.id, m)) for m in state.side_models(s))
        ]
        if len(beaten) == 1:
            total += -self.weights["win"] if beaten[0] == side else self.weights["win"]
        return total

    def _wounded(self, m: ModelState, n: int) -> ModelState:
        """`m` after `n` more wounds (Infinity: Unconscious at exactly its Wounds, Dead
        beyond or hurt again while Unconscious)."""
        if n <= 0 or m.status == "dead":
            return m
        total = m.wounds + n
        vita = self.inf.profiles[m.id].wounds
        if m.status == "unconscious" or total > vita:
            return m.replace(wounds=total, status="dead")
        if total == vita:
            return m.replace(wounds=total, status="unconscious")
        return m.replace(wounds=total)

    def _order_wounds(
        self, state: InfinityState, declaration: Declaration
    ) -> tuple[tuple[str, ...], Joint]:
        """The troopers the Order that `declaration` completes may hurt and the exact
        joint distribution of their wounds (the engine's own planned rolls; each pair's
        roll independent of the others), or nothing where not covered."""
        from game.rules.infinity.odds import RollSide
        from game.rules.infinity.saves import Attack
        from game.sequencer.infinity_attacks import is_direct_template, is_impact_template

        inf = self.inf
        if isinstance(declaration, React):
            pending = inf._react(state, declaration, [])
        elif isinstance(declaration, Continue):
            pending = inf._continue(state, declaration, [])
        else:
            return (), {}
        order = pending.order
        assert order is not None
        active = state.model(order.model)
        end = order.route[-1]
        there = pending.with_model(active.replace(at=end, facing=order.facing))
        skills = [s for s in (order.first, order.second) if s is not None]
        dodging = any(s.kind is SkillKind.DODGE for s in skills)
        attack = next((s for s in skills if s.kind is SkillKind.ATTACK), None)
        mine: dict[str, Any] = {}
        if attack is not None:
            weapon = inf.weapon(active.id, attack.weapon)
            if weapon.template is not None or is_impact_template(weapon):
                return (), {}
            origin = attack.origin or (order.start if attack is order.first else end)
            mine = inf._attack_rolls(there, active.id, origin, order.facing, attack, reactive=False)
        theirs: dict[str, Any] = {}
        for r in order.reactions:
            if r.skill.kind is SkillKind.ATTACK:
                w = inf.weapon(r.model, r.skill.weapon)
                if w.template is not None or is_direct_template(w) or is_impact_template(w):
                    return (), {}
                reactor = there.model(r.model)
                rolls = inf._attack_rolls(there, r.model, reactor.at, reactor.facing, r.skill,
                                          reactive=True, target_at=r.at)  # fmt: skip
                theirs[r.model] = rolls[active.id]
            elif r.skill.kind is SkillKind.DODGE:
                theirs[r.model] = inf._dodge_roll(r.model, active.id)
        rolls_all = [*mine.values(), *theirs.values()]
        if any(getattr(roll, "engaged", ()) for roll in rolls_all):
            return (), {}

        def side_of(roll: Any) -> RollSide:
            return RollSide(roll.sv, roll.burst) if roll.rolled else RollSide(0, 0)

        def attack_of(roll: Any) -> Attack:
            placements = dict(roll.placements)
            for model_id in (roll.model, roll.target):
                placements[model_id] = dataclasses.replace(placements[model_id], present=True)
            cover = inf.sight.sighting(placements, roll.model, roll.target).cover
            plan = inf.save_against(roll.target, roll.weapon, cover is Cover.PARTIAL)
            return Attack(plan.weapon, plan.defence)

        sources: list[tuple[tuple[str, ...], Joint]] = []
        for target, roll in mine.items():
            other = theirs.pop(target, None)
            two = side_of(other) if other is not None else RollSide(0, 0)
            back = attack_of(other) if other is not None and other.weapon is not None else None
            sources.append(
                ((target, active.id), _pair_wounds(side_of(roll), two, attack_of(roll), back))
            )
        for roll in theirs.values():
            if roll.weapon is None:
                continue  # a Dodge against an attack not made: no roll
            # the active trooper's Dodge against it: Face-to-Face, a Normal roll otherwise
            two = side_of(inf._dodge_roll(active.id, roll.model)) if dodging else RollSide(0, 0)
            pair = _pair_wounds(side_of(roll), two, attack_of(roll), None)
            sources.append(((active.id, roll.model), pair))
        ids = tuple(dict.fromkeys(i for names, _ in sources for i in names))
        joint: Joint = {(0,) * len(ids): 1.0}
        for names, dist in sources:
            at = [ids.index(i) for i in names]
            mixed: Joint = {}
            for wounds, p in joint.items():
                for more, q in dist.items():
                    now = list(wounds)
                    for k, n in zip(at, more, strict=True):
                        now[k] += n
                    mixed[tuple(now)] = mixed.get(tuple(now), 0.0) + p * q
            joint = mixed
        return ids, joint

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

    # -- the exchange of fire: what the Orders still to come are expected to do ----------

    def _line(self, state: InfinityState, a: str, b: str) -> _Line | None:
        """`a`'s line of fire to `b` where `state` places them (None: no line, out of its
        arc or of every weapon's range): its full-Burst rolls, one a weapon in range
        (the engine's own MODs and SV; no templates), and its best Burst 1 roll in ARO."""
        inf = self.inf
        s = inf.sighting(state, a, b)
        if not (s.lof and s.in_arc) or s.cover is Cover.TOTAL:
            return None
        shots: list[tuple[RollSide, Attack]] = []
        aro: tuple[RollSide, Attack] | None = None
        for weapon in inf.weapons_of(a):
            if weapon.template is not None or not weapon.bands:
                continue
            if weapon.range_mod(s.distance) is None:
                continue
            plan = inf.save_against(b, weapon, s.cover is Cover.PARTIAL)
            attack = Attack(plan.weapon, plan.defence)
            roll = inf.planned_roll(state, a, b, weapon.name)
            if roll.auto_fail or roll.sv <= 0 or roll.engaged:
                continue
            shots.append((RollSide(roll.sv, roll.burst), attack))
            reply = inf.planned_roll(state, a, b, weapon.name, reactive=True)
            if aro is None or reply.sv > aro[0].sv:
                aro = (RollSide(reply.sv, 1), attack)
        return _Line(tuple(shots), aro) if shots else None

    def _fire_lines(self, state: InfinityState) -> dict[tuple[str, str, str], _Line]:
        """The lines of fire between troopers able to act: (shooter, target, "stand")
        where they stand, in the shooter's arc; (shooter, target, "move") after the
        shooter's first MOV (the route clear) toward its nearest enemy, straight or 45 or
        90 degrees off, facing it, at a target it cannot shoot where it stands (the
        first heading that shows it), and (target, shooter, "reply") the target's line
        back to it there. Kept by where everyone stands (the same in many lookaheads)."""
        inf = self.inf
        # kept by where everyone stands: the positions after an Order's outcomes differ
        # only in who is still able to act (fewer), and the lines of the others hold
        key = tuple((m.id, m.at, m.facing) for m in state.models)
        able = [m for m in state.models if inf.can_act(m)]
        found = self.lines.get(key)
        if found is not None and found[0] >= {m.id for m in able}:
            return found[1]
        pairs = [(a, b) for a in able for b in able if a.side != b.side]
        clear = inf.lof_possible(state, [(a.id, b.id, None) for a, b in pairs])
        out: dict[tuple[str, str, str], _Line] = {}
        for (a, b), ok in zip(pairs, clear, strict=True):
            line = self._line(state, a.id, b.id) if ok and inf.in_arc(state, a.id, b.id) else None
            if line is not None:
                out[(a.id, b.id, "stand")] = line
        if self.weights["exchange_move"]:
            width, depth = inf.setup.header.table
            for a in able:
                enemies = [b for b in able if b.side != a.side]
                blind = [b for b in enemies if (a.id, b.id, "stand") not in out]
                nearest = min(enemies, key=lambda b: math.dist(a.at, b.at), default=None)
                if not blind or nearest is None:
                    continue
                reach = inf.profiles[a.id].mov[0]
                toward = math.atan2(nearest.at[1] - a.at[1], nearest.at[0] - a.at[0])
                for turn in MOVE_FAN:
                    angle = toward + math.radians(turn)
                    step = min(reach, math.dist(a.at, nearest.at) - 2.0) if turn == 0 else reach
                    if step < 0.5:
                        continue
                    end = (a.at[0] + math.cos(angle) * step, a.at[1] + math.sin(angle) * step)
                    if not (0.5 <= end[0] <= width - 0.5 and 0.5 <= end[1] <= depth - 0.5):
                        continue
                    left = [b for b in blind if (a.id, b.id, "move") not in out]
                    if not left or inf.path_blocked(state, a.id, (a.at, end)) is not None:
                        continue
                    moved = a.replace(at=end, facing=_facing(end, nearest.at))
                    there = state.with_model(moved)
                    clear = inf.lof_possible(there, [(a.id, b.id, None) for b in left])
                    for b, ok in zip(left, clear, strict=True):
                        if not ok or not inf.in_arc(there, a.id, b.id):
                            continue
                        line = self._line(there, a.id, b.id)
                        if line is None:
                            continue
                        out[(a.id, b.id, "move")] = line
                        if inf.in_arc(there, b.id, a.id):
                            back = self._line(there, b.id, a.id)
                            if back is not None:
                                out[(b.id, a.id, "reply")] = back
        self.lines[key] = (frozenset(m.id for m in able), out)
        return out

    def _exchange(self, state: InfinityState, side: str) -> float:
        """The points `side` may expect to gain less those it may expect to lose in the
        Orders still to come: the active side's Orders left this turn, then the other
        side's next turn (none after the game's last turn), each Order its side's best
        shot (exact Face-to-Face odds with the target's reply, the Normal-roll AROs of
        the others that see the shooter where it stands), from where the shooter stands
        or after a move toward the target (`exchange_move` of its worth), greedily, the
        troopers' chances to be still able to act carried from Order to Order. A side
        stops shooting when no shot is worth it. The turn after the decision's (the
        Order may have ended it) counts `exchange_next`."""
        inf = self.inf
        usable = self._orders_usable(state)
        key = (tuple((m.id, m.at, m.facing, m.status, m.wounds) for m in state.models),
               state.active, state.turn, usable, side)  # fmt: skip
        found = self.exchanges.get(key)
        if found is not None:
            return found
        lines = self._fire_lines(state)
        alive = {m.id: 1.0 for m in state.models if inf.can_act(m)}
        sides = {m.id: m.side for m in state.models}
        worth = {m.id: float(inf.points[m.id] or 10) for m in state.models}
        moving = self.weights["exchange_move"]
        # each line's best shot: the chance the target is out, the shooter's from the
        # reply, each other trooper's ARO chance to put the shooter out, and its weight
        # each trooper's chance to be put out by the ARO of each enemy that sees it
        aros: dict[str, list[tuple[str, float]]] = {}
        for (z, t, how), sees in lines.items():
            if how == "stand" and sees.aro is not None and z in alive and t in alive:
                joint = _pair_wounds(sees.aro[0], RollSide(0, 0), sees.aro[1], None)
                aros.setdefault(t, []).append((z, self._out_chance(state.model(t), joint, 0)))
        shots: dict[tuple[str, str, str], tuple[float, float, list[tuple[str, float]], float]]
        shots = {}
        for (a, b, how), line in lines.items():
            if how == "reply" or a not in alive or b not in alive:
                continue
            back = lines.get((b, a, "reply" if how == "move" else "stand"))
            two, harm = back.aro if back is not None and back.aro else (RollSide(0, 0), None)
            best: tuple[float, float, float] | None = None
            for one, attack in line.shots:
                joint = _pair_wounds(one, two, attack, harm)
                qb = self._out_chance(state.model(b), joint, 0)
                qa = self._out_chance(state.model(a), joint, 1)
                value = qb * worth[b] - qa * worth[a]
                if best is None or value > best[0]:
                    best = (value, qb, qa)
            if best is None:
                continue
            others = [(z, q) for z, q in aros.get(a, ()) if z != b]
            shots[(a, b, how)] = (best[1], best[2], others, moving if how == "move" else 1.0)
        # the turn of the decision counts in full, the one after it `exchange_next`
        later = self.weights["exchange_next"]
        now = 1.0 if self.root in (None, (state.turn, state.active)) else later
        stages = [(state.active, usable, now)]
        if not (state.turn >= inf.turns and state.active == state.sides[-1]):
            other = state.other_side(state.active)
            troopers = [m for m in state.side_models(other) if inf.can_act(m)]
            lieutenant = any(m.id in inf.lieutenants for m in troopers)
            stages.append((other, len(troopers) + int(lieutenant), later))
        total = 0.0
        for shooter, orders, weight in stages:
            for _ in range(orders):
                pick: tuple[float, str, str, float, float] | None = None
                for (a, b, _), (qb, qa, others, trust) in shots.items():
                    if sides[a] != shooter or alive[a] < 0.02 or alive[b] < 0.02:
                        continue
                    spared = 1.0 - alive[b] * qa
                    for z, q in others:
                        spared *= 1.0 - alive[z] * q
                    lost = 1.0 - spared
                    value = trust * alive[a] * (alive[b] * qb * worth[b] - lost * worth[a])
                    if pick is None or value > pick[0]:
                        pick = (value, a, b, trust * alive[a] * qb, lost)
                if pick is None or pick[0] <= 0:
                    break
                value, a, b, down, lost = pick
                alive[b] *= 1.0 - down
                alive[a] *= 1.0 - lost
                total += weight * (value if shooter == side else -value)
        self.exchanges[key] = total
        return total

    def _orders_usable(self, state: InfinityState) -> int:
        """The active side's Orders left that a trooper able to act can spend
        (InfinityEngine.orders_usable)."""
        return self.inf.orders_usable(state)[0]

    def _out_chance(self, m: ModelState, joint: Joint, which: int) -> float:
        """The chance that `m` is out of the fight (Unconscious or Dead) after wounds
        drawn from `joint` at place `which`."""
        room = self.inf.profiles[m.id].wounds - m.wounds
        return sum(p for wounds, p in joint.items() if wounds[which] >= room)

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
