"""Automatic Infinity players.

`SimpleInfinityPlayer`: shoot the best visible target in range, otherwise close in;
answer every Order it can with the best ARO it has. Fast: the playtests' default.

`CarefulInfinityPlayer`: weighs expected damage against risk with the exact odds
(game.sequencer.infinity_odds). Its candidate Orders: shoot each visible target from
where the trooper stands; move to one of a few points and shoot from there; move to
where fewer enemies see it. Each is worth the expected harm dealt (Dead, Unconscious,
wounded) less the harm the enemies that could ARO would do back: the target in a
Face-to-Face roll, the others in Normal rolls. AROs likewise: shoot when the exchange
favours it, Dodge when it does not and the trooper is under fire, else stay idle."""

from __future__ import annotations

import math

from game.errors import IllegalDeclaration
from game.rules.infinity.data import InfinityWeapon
from game.sequencer.declarations import Declaration
from game.sequencer.engine import Awaiting
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
        weapons = [w for w in self.engine.weapons_of(shooter.id) if w.bands]
        if not weapons:
            return None
        reach = max(w.max_range for w in weapons)
        # Cheap tests first: out of arc or beyond the last band needs no sight lines, and
        # one batched "any line at all" settles the targets no line of fire reaches.
        enemies = [t.id for t in state.models if t.side != shooter.side and t.status != "dead"]
        near = {
            t: d
            for t, (arc, d) in zip(
                enemies, self.engine.arcs_and_distances(state, shooter.id, enemies, moved),
                strict=True,
            )
            if arc and d <= reach
        }  # fmt: skip
        asks = [(shooter.id, t, None) for t in near]
        possible = self.engine.lof_possible(state, asks, moved)
        seen = {t for t, ok in zip(near, possible, strict=True) if ok}
        for weapon in weapons:
            for t in state.models:
                if t.id not in seen or near[t.id] > weapon.max_range:
                    continue
                bound = weapon.range_mod(near[t.id])
                if bound is None:
                    continue
                # the best this target could score (no cover): skip it if that cannot win
                if best is not None and (bound, -near[t.id]) <= (best[0], best[1]):
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
            points = self.engine.aro_points(state, reactor_id)
            if points:
                # they lie where the sweep found a clear line to the trooper's patch (the
                # cheap question's True): the sighting decides at each
                possible = [True] * len(points)
            else:
                points = _along(order.route)
                asks = [(reactor_id, order.model, p) for p in points]
                possible = self.engine.lof_possible(state, asks)
            weapons = [w for w in self.engine.weapons_of(reactor_id) if w.bands]
            for point, ok in zip(points, possible, strict=True):
                if not ok:
                    continue  # no line of fire here: the sighting would say so
                moved = {order.model: Placement(point, order.facing)}
                d = self.engine.distance(state, reactor_id, order.model, moved)
                bounds = [m for m in (w.range_mod(d) for w in weapons) if m is not None]
                # the best this point could score (no cover): skip it if that cannot win
                if not bounds or (best is not None and max(bounds) <= best[0]):
                    continue
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


# What the careful player counts a result as worth (a trooper killed is 1).
WORTH_DEAD = 1.0
WORTH_UNCONSCIOUS = 0.8
WORTH_WOUND = 0.3
RISK_WEIGHT = 1.0  # harm taken counts as much as harm dealt
PROGRESS = 0.04  # per inch closer to the nearest enemy, for a move with no shot
MOVE_ANGLES = (0, 45, -45, 90, -90)
MOVERS = 2  # troopers (nearest the enemy first) whose moves are weighed each Order


WORTH_FINISH = 0.1  # killing a trooper already Unconscious: it no longer scores anyway


def harm(odds: dict[str, float], down: bool = False) -> float:
    """Expected worth of what happens to one trooper (exact_odds' figures); `down`: it is
    Unconscious already, out of the fight and of the score."""
    if down:
        return WORTH_FINISH * odds["dead"]
    wounded_only = max(0.0, odds["wounded"] - odds["unconscious"] - odds["dead"])
    return (
        WORTH_DEAD * odds["dead"]
        + WORTH_UNCONSCIOUS * odds["unconscious"]
        + WORTH_WOUND * wounded_only
    )


class CarefulInfinityPlayer(SimpleInfinityPlayer):
    """Chooses Orders and AROs by expected harm dealt against harm taken (see above)."""

    def _odds(self, state: GameState, shooter: str, target: str, weapon: InfinityWeapon,
              *, reply: InfinityWeapon | None = None, reactive: bool = False,
              burst: int | None = None) -> dict[str, dict[str, float]] | None:  # fmt: skip
        from game.sequencer.infinity_odds import attack_roll, exact_odds

        roll = attack_roll(self.engine, state, shooter, target, weapon, reactive=reactive)
        if roll.auto_fail:
            return None
        sv2 = 0
        if reply is not None:
            back = attack_roll(self.engine, state, target, shooter, reply, reactive=True)
            if back.auto_fail:
                reply = None
            else:
                sv2 = back.sv
        return exact_odds(self.engine, state, shooter, target, weapon, roll.sv, reply, sv2,
                          burst=burst if burst is not None else roll.burst)  # fmt: skip

    def _seen_by(self, state: GameState, m: ModelState) -> list[tuple[str, InfinityWeapon]]:
        """Enemies that could shoot `m` in ARO where it stands, with the weapon."""
        from game.sequencer.infinity_odds import reply_weapon

        out = []
        for e in state.models:
            if e.side == m.side or not self.engine.can_act(e):
                continue
            if not self.engine.in_arc(state, e.id, m.id):
                continue
            weapon = reply_weapon(self.engine, state, e.id, m.id)
            if weapon is not None:
                out.append((e.id, weapon))
        return out

    def _danger(self, state: GameState, m: ModelState, skip: str | None = None) -> float:
        """Harm the enemies that see `m` would do in Normal rolls (Burst 1 each)."""
        total = 0.0
        for e, weapon in self._seen_by(state, m):
            if e == skip:
                continue
            odds = self._odds(state, e, m.id, weapon, reactive=True)
            if odds is not None:
                total += harm(odds[m.id])
        return total

    def _shots(self, state: GameState, m: ModelState) -> list[tuple[float, InfinityWeapon, str]]:
        """Each visible target's exchange from where `m` stands: harm dealt less harm
        taken (the target's reply Face-to-Face, the others' Normal rolls)."""
        from game.sequencer.infinity_odds import reply_weapon

        out: list[tuple[float, InfinityWeapon, str]] = []
        danger: dict[str, float] = {}
        for t in state.models:
            if t.side == m.side or t.status == "dead":
                continue
            if not self.engine.in_arc(state, m.id, t.id):
                continue
            s = None
            best: tuple[float, InfinityWeapon] | None = None
            for weapon in self.engine.weapons_of(m.id):
                if not weapon.bands:
                    continue
                if s is None:
                    if self.engine.distance(state, m.id, t.id) > weapon.max_range:
                        continue
                    s = self.engine.sighting(state, m.id, t.id)
                    if not (s.lof and s.in_arc) or s.cover is Cover.TOTAL:
                        break
                if weapon.range_mod(s.distance) is None:
                    continue
                reply = reply_weapon(self.engine, state, t.id, m.id)
                try:
                    odds = self._odds(state, m.id, t.id, weapon, reply=reply)
                except (IllegalDeclaration, KeyError):
                    continue
                if odds is None:
                    continue
                down = not self.engine.can_act(t)
                value = harm(odds[t.id], down) - RISK_WEIGHT * harm(odds[m.id])
                if best is None or value > best[0]:
                    best = (value, weapon)
            if best is None:
                continue
            if t.id not in danger:
                danger[t.id] = self._danger(state, m, skip=t.id)
            out.append((best[0] - RISK_WEIGHT * danger[t.id], best[1], t.id))
        return out

    def _order(self, state: InfinityState, payable: tuple[str, ...]) -> Declaration:
        candidates: list[tuple[float, Declaration]] = []
        able = [state.model(model_id) for model_id in payable]
        for m in able:
            for value, weapon, target in self._shots(state, m):
                skill = Skill.attack(weapon.name, (target, weapon.burst))
                candidates.append((value, Activate(m.id, skill)))
        for m in self._movers(state, able):
            for value, skill in self._moves(state, m):
                candidates.append((value, Activate(m.id, skill)))
        if not candidates:
            return super()._order(state, payable)
        value, best = max(candidates, key=lambda c: c[0])
        return best

    def _movers(self, state: GameState, able: list[ModelState]) -> list[ModelState]:
        def gap(m: ModelState) -> float:
            enemy = self._nearest_enemy(state, m)
            return math.inf if enemy is None else math.dist(m.at, enemy.at)

        return sorted(able, key=gap)[:MOVERS]

    def _moves(self, state: GameState, m: ModelState) -> list[tuple[float, Skill]]:
        """A few moves of the full first MOV: each worth its best shot from the end
        point (the second skill), or, with none, the danger avoided and ground gained."""
        enemy = self._nearest_enemy(state, m)
        if enemy is None:
            return []
        allowance = self.engine.profiles[m.id].mov[0]
        toward = _facing(m.at, enemy.at)
        here = self._danger(state, m)
        width, depth = self.engine.setup.header.table
        out: list[tuple[float, Skill]] = []
        for turn in MOVE_ANGLES:
            angle = math.radians(toward + turn)
            room = math.dist(m.at, enemy.at) - 2.0 if turn == 0 else allowance
            step = min(allowance, room)
            if step < 0.5:
                continue
            end = (m.at[0] + math.cos(angle) * step, m.at[1] + math.sin(angle) * step)
            if not (0.5 <= end[0] <= width - 0.5 and 0.5 <= end[1] <= depth - 0.5):
                continue
            if self.engine.path_blocked(state, m.id, (m.at, end)) is not None:
                continue
            facing = _facing(end, enemy.at)
            moved = m.replace(at=end, facing=facing)
            there = state.with_model(moved)
            shots = self._shots(there, moved)
            if shots:
                value = max(v for v, _, _ in shots)
            else:
                gained = math.dist(m.at, enemy.at) - math.dist(end, enemy.at)
                value = RISK_WEIGHT * (here - self._danger(there, moved)) + PROGRESS * gained
                value -= 0.05  # an Order spent on a move alone
            out.append((value, Skill.move(end, facing=facing)))
        return out

    def _second(self, state: InfinityState) -> Skill:
        order = state.order
        assert order is not None
        if order.first.kind is not SkillKind.MOVE:
            return Skill.idle()
        m = state.model(order.model)
        moved = m.replace(at=order.route[-1], facing=order.facing)
        shots = self._shots(state.with_model(moved), moved)
        if not shots:
            return Skill.idle()
        value, weapon, target = max(shots, key=lambda s: s[0])
        if value < -0.05:
            return Skill.dodge() if self._danger(state.with_model(moved), moved) else Skill.idle()
        return Skill.attack(weapon.name, (target, weapon.burst))

    def _aro(self, state: InfinityState, reactor_id: str) -> Declaration:
        order = state.order
        assert order is not None
        full = dict(order.eligible)[reactor_id]
        reactor = state.model(reactor_id)
        first = order.first
        attacked = first.kind is SkillKind.ATTACK and any(t == reactor_id for t, _ in first.targets)
        if not full:
            return React(reactor.id, Skill.dodge() if attacked else Skill.idle())
        mover = state.model(order.model)
        best: tuple[float, Point, str] | None = None
        points = self.engine.aro_points(state, reactor_id) or _along(order.route)
        for point in [*points[:: max(1, len(points) // 6)], points[-1]]:
            placed = state.with_model(mover.replace(at=point, facing=order.facing))
            s = self.engine.sighting(placed, reactor_id, order.model)
            if not (s.lof and s.in_arc) or s.cover is Cover.TOTAL:
                continue
            for weapon in self.engine.weapons_of(reactor_id):
                if not weapon.bands or weapon.range_mod(s.distance) is None:
                    continue
                reply = None
                if attacked:
                    reply = self.engine.weapon(order.model, first.weapon)
                try:
                    odds = self._odds(placed, reactor_id, order.model, weapon, reply=reply,
                                      reactive=True, burst=1)  # fmt: skip
                except (IllegalDeclaration, KeyError):
                    continue
                if odds is None:
                    continue
                value = harm(odds[order.model]) - RISK_WEIGHT * harm(odds[reactor_id])
                if best is None or value > best[0]:
                    best = (value, point, weapon.name)
        if best is not None and (best[0] > 0 or not attacked):
            _, point, weapon_name = best
            return React(reactor.id, Skill.attack(weapon_name, (order.model, 1)), at=point)
        return React(reactor.id, Skill.dodge() if attacked else Skill.idle())
