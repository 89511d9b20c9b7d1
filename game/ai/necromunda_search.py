"""The Necromunda search player: sampled lookahead over activations (game.ai.search).

Candidates: for a fighter to activate, the careful player's first action (Aim or Shoot,
turned to the enemy), its advance, moves into cover (a base against scenery, fewest
enemies with a clear line there first), Take Cover, standing up, and activating to do
nothing; within an activation, each eligible shot, Aim, the moves, reloading and ending
it. The lookahead plays on until the enemy has finished its next activation: the
enemy by the careful player (`careful_replies`), our fighter's later actions by the
careful player's shots without its moves (`hold_after`: the search chooses its own
moves when it gets there). The careful player's choice is the default (`deviate_z`).

The position is scored by `game/ai/weights/necromunda.toml` in what decides the game at
the turn limit (FACTS 2.8): the points of fighters each gang can expect to have in the
fight then. A fighter counts by its odds of not fleeing a bottled gang over the End
phases left (the gang bottles on D6 + fighters down > its starting crew, then each
fighter passes a Cool test every End phase or flees), a Seriously Injured one by its
odds of recovering; wounds, flesh wounds and Pinned cost a share, and each fighter's
exposure to enemies with a clear line to it (less in cover) and its own lines count.

Every non-blast shot in a lookahead is a chance node with exact odds (`attack_outcome`:
hit and Pinned, Seriously Injured, Out of Action; the Cool test of target priority and
the stray shots a miss may land, seed 004), so its sampled result is taken off
against its expectation (`luck`, a control variate): the samples of a candidate then
differ by little more than what the odds cannot say (a Heavy stubber's opening shot on
the demo: a sample's spread 127 -> 24 points), and a few samples tell candidates apart."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable

from game.ai.necromunda import (
    CarefulNecromundaPlayer,
    SimpleNecromundaPlayer,
    attack_outcome,
    worth,
)
from game.ai.search import Policy, SearchPlayer, cover_spots, reply_done
from game.errors import IllegalDeclaration
from game.rules.necromunda.data import NecromundaWeapon
from game.rules.necromunda.dice import InjuryResult
from game.rules.necromunda.odds import hit_chance
from game.sequencer.declarations import Declaration
from game.sequencer.engine import Awaiting, Engine
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_fire import ARC, heading
from game.sequencer.necromunda_targeting import STRAY_HITS_ON
from game.sequencer.necromunda_types import (
    FLESH_WOUNDS,
    OUT_OF_ACTION,
    PINNED,
    PRONE,
    SERIOUSLY_INJURED,
    UPRIGHT,
    Act,
    Action,
    ActionKind,
    EndActivation,
    NecromundaState,
)
from game.sequencer.sight import Cover
from game.sequencer.state import GameState, ModelState

Point = tuple[float, float]


class HoldingNecromundaPlayer(CarefulNecromundaPlayer):
    """The careful player's shots, Aims, reloads and standing up, but no moves: a
    lookahead's stand-in for our own later actions."""

    def _advance(self, state: NecromundaState, m: ModelState) -> Action | None:
        return None


class SearchNecromundaPlayer(SearchPlayer):
    """Chooses activations and actions by looking ahead (see the module's note)."""

    SYSTEM = "necromunda"

    def __init__(self, engine: Engine, **options: object) -> None:
        assert isinstance(engine, NecromundaEngine)
        self.nec = engine
        self.careful = CarefulNecromundaPlayer(engine)
        self.cools: dict[str, float] = {}  # each fighter's odds of passing a Cool test
        super().__init__(engine, **options)  # type: ignore[arg-type]

    def rollout_policy(self) -> Policy:
        return SimpleNecromundaPlayer(self.nec)

    def reply_policy(self) -> Policy:
        """The careful player (the window's computer player, the benchmark's opponent)
        when the weights say `careful_replies`, else the simple one."""
        if self.weights.search.get("careful_replies", 0):
            return self.careful
        return self.rollout

    def own_policy(self) -> Policy:
        """After the candidate, our fighter shoots if the careful player would and
        otherwise holds (`hold_after`): the search chooses its own moves when it gets
        there, and a rollout's advance into the open would blame the candidate for it."""
        if self.weights.search.get("hold_after", 0):
            return HoldingNecromundaPlayer(self.nec)
        return self.rollout

    def default_choice(self, state: GameState, awaiting: Awaiting) -> Declaration | None:
        return self.careful.choose(state, awaiting)

    def _cool(self, m: ModelState) -> float:
        found = self.cools.get(m.id)
        if found is None:
            found = self.cools[m.id] = self.careful._cool(m)
        return found

    def passes(self, state: GameState, awaiting: Awaiting) -> list[Declaration]:
        if awaiting.kind == "activate":
            return [EndActivation(m) for m in awaiting.models]
        return [EndActivation()]

    # -- candidates ------------------------------------------------------------------

    def candidates(self, state: GameState, awaiting: Awaiting) -> list[tuple[Declaration, float]]:
        assert isinstance(state, NecromundaState)
        if awaiting.kind == "activate":
            return self._activations(state, awaiting.models)
        if awaiting.kind == "action":
            m = state.model(awaiting.models[0])
            return [(Act(m.id, a), p) for a, p in self._actions(state, m)] + [
                (EndActivation(), -0.2)
            ]
        return []

    def _activations(
        self, state: NecromundaState, ready: tuple[str, ...]
    ) -> list[tuple[Declaration, float]]:
        w = self.weights
        out: list[tuple[Declaration, float]] = []
        with contextlib.suppress(IllegalDeclaration, ValueError):
            choice = self.careful.choose(state, Awaiting(state.active, "activate", ready))
            out.append((choice, w.search.get("careful_prior", 0.5)))
        near = set(self._nearest(state, ready, int(w.search["movers"])))
        shooters: list[tuple[Declaration, float]] = []
        movers: list[tuple[Declaration, float]] = []
        for f in ready:
            m = state.model(f)
            if m.status == PINNED:
                out.append((Act(m.id, Action.stand_up(facing=self._face(state, m))), 0.2))
                continue
            if m.status not in UPRIGHT:
                out.append((EndActivation(m.id), 0.0))
                continue
            facing = self._face(state, m)
            turned_m = m.replace(facing=facing)
            turned = state.replace(activating=m.id, actions_left=2, used=()).with_model(turned_m)
            turn_to = facing if facing != m.facing else None
            shot = self.careful._shot(turned, turned_m, 2)
            if shot is not None:
                value = self.careful._value_of(turned, turned_m, shot)
                shooters.append((Act(m.id, shot, turn_to=turn_to), value))
                shooters.append((Act(m.id, Action.aim(), turn_to=turn_to), value + 0.01))
            if m.id in near:
                for action, prior in self._moves(turned, m):
                    movers.append((Act(m.id, action), prior))
        shooters.sort(key=lambda c: -c[1])
        movers.sort(key=lambda c: -c[1])
        out += shooters[: int(w.search["shots"])] + movers[: int(w.search["moves"])]
        return out

    def _nearest(self, state: NecromundaState, ready: tuple[str, ...], n: int) -> list[str]:
        """The `n` upright Ready fighters nearest an enemy (the ones whose moves are weighed)."""

        def gap(f: str) -> float:
            m = state.model(f)
            enemy = self.careful._nearest_enemy(state, m)
            return math.inf if enemy is None else math.dist(m.at, enemy.at)

        upright = [f for f in ready if state.model(f).status in UPRIGHT]
        return sorted(upright, key=gap)[:n]

    def _face(self, state: GameState, m: ModelState) -> float:
        return self.careful._face_enemy(state, m)

    def _actions(self, state: NecromundaState, m: ModelState) -> list[tuple[Action, float]]:
        out: list[tuple[Action, float]] = []
        try:
            first = self.careful._action(state, m)
        except IllegalDeclaration:
            first = None
        if first is not None:
            out.append((first, self.weights.search.get("careful_prior", 0.5)))
        used = set(state.used)
        if m.status == PINNED and ActionKind.STAND_UP.value not in used:
            out.append((Action.stand_up(facing=self._face(state, m)), 0.2))
        if m.status not in UPRIGHT:
            return out
        if ActionKind.SHOOT.value not in used:
            for t, _ in self.nec.eligible(state, m.id, ARC)[:3]:
                for weapon in self.careful._usable(m, state.actions_left):
                    if weapon.is_template or weapon.blast_diameter is not None:
                        continue
                    action = Action.shoot(weapon.name, t)
                    try:
                        value = self.careful._value(state, m, weapon, action)
                    except IllegalDeclaration:
                        continue
                    out.append((action, value))
            if ActionKind.AIM.value not in used and state.actions_left >= 2:
                out.append((Action.aim(), 0.0))
        if ActionKind.AIM.value not in used:
            out.extend(self._moves(state, m))
        if ActionKind.TAKE_COVER.value not in used:
            out.append((Action.take_cover(), -0.1))
        return out

    def _moves(self, state: NecromundaState, m: ModelState) -> list[tuple[Action, float]]:
        """The careful player's advance and moves into cover (fewest enemies seeing)."""
        out: list[tuple[Action, float]] = []
        try:
            advance = self.careful._advance(state, m)
        except IllegalDeclaration:
            advance = None
        if advance is not None:
            out.append((advance, 0.1))
        enemy = self.careful._nearest_enemy(state, m)
        if enemy is None:
            return out
        profile = self.nec.profiles[m.id]
        spots = cover_spots(self.nec.setup, m.at, profile.m, profile.radius, every=1.5)
        enemies = [
            e.id for e in state.models if e.side != m.side and e.status in (*UPRIGHT, PINNED)
        ]
        placements = self.nec.placements(state)
        clear = self.nec.sight.clear_to(placements, [(e, m.id, p) for p in spots for e in enemies])
        n = len(enemies)
        scored = [
            (sum(clear[i * n : (i + 1) * n]), math.dist(p, enemy.at), p)
            for i, p in enumerate(spots)
        ]
        scored.sort()
        for seen, _, p in scored[:6]:
            if self.nec.path_blocked(state, m.id, (m.at, p)) is not None:
                continue
            out.append((Action.move(p, facing=round(heading(p, enemy.at), 6)), -0.05 * seen))
            if len(out) >= 3:
                break
        return out

    # -- the lookahead ---------------------------------------------------------------

    def horizon(self, root: GameState, root_awaiting: Awaiting, state: GameState) -> bool:
        assert root_awaiting.side is not None
        return reply_done(root, state, root_awaiting.side, self._ready, self._busy)

    def _ready(self, state: GameState, side: str) -> int:
        return len(self.nec.ready(state, side))

    @staticmethod
    def _busy(state: GameState) -> bool:
        assert isinstance(state, NecromundaState)
        return state.activating is not None

    def evaluate(self, state: GameState, side: str) -> float:
        """Points each gang can expect to have in the fight when the game ends (what
        decides it, FACTS 2.8): a fighter Seriously Injured counts by its odds of
        recovering, and every fighter by its odds of not fleeing a bottled gang over the
        End phases left; plus wounds, Pinned and the lines of fire."""
        assert isinstance(state, NecromundaState)
        total = self._material(state, side)
        if state.finished:
            return total + self.won(state, side)
        return total + self._lines(state, side)

    def _material(self, state: NecromundaState, side: str) -> float:
        """The fighters' worth to `side` (see `evaluate`), without the lines of fire."""
        w = self.weights
        left = 0 if state.finished else max(0, self.nec.turns - state.turn + 1)
        total = 0.0
        for s in state.sides:
            keep = self._staying(state, s, left)
            for m in state.side_models(s):
                points = self.nec.points[m.id] or 50
                profile = self.nec.profiles[m.id]
                if m.status == OUT_OF_ACTION:
                    continue
                if m.status == SERIOUSLY_INJURED:
                    worth = self._recovering(left)
                else:
                    worth = 1.0 - w["wound"] * m.wounds / profile.w
                    worth -= w["flesh_wound"] * m.marker(FLESH_WOUNDS)
                    if m.status == PINNED:
                        worth -= w["pinned"]
                worth *= keep(m)
                total += points * worth if s == side else -w["enemy"] * points * worth
        return total

    def luck(
        self, state: GameState, declaration: Declaration, after: GameState, side: str
    ) -> float:
        """A shot's sampled result against its exact odds: the fighters' worth after it
        less their expected worth over whom it may land on (the target, or past a closer
        enemy that one on a failed Cool test; on a miss, the fighters at risk of a stray
        in turn) and what it does there (`attack_outcome`: Pinned, Seriously Injured,
        Out of Action). Blasts, templates, a volley's strays and shots that end the
        round (the End phase rolled in the same step) are left as sampled."""
        assert isinstance(state, NecromundaState) and isinstance(after, NecromundaState)
        if not isinstance(declaration, Act) or after.turn != state.turn:
            return 0.0
        if after.finished:
            if all(self.nec.fighting(after, s) for s in after.sides):
                return 0.0  # the turn limit: the End phase's dice are in the same step
            # a gang wiped out by the shot: weighed with the game's worth to either side
            after = after.replace(finished=False, winner=None)
        action = declaration.action
        if action.kind is not ActionKind.SHOOT or action.target is None or action.weapon is None:
            return 0.0
        m = state.model(declaration.model)
        weapon = self.nec.weapon(m.id, action.weapon)
        if weapon.is_template or weapon.blast_diameter is not None:
            return 0.0
        if declaration.turn_to is not None:
            m = m.replace(facing=declaration.turn_to)
        turned = state.with_model(m)
        try:
            # target priority (FACTS 2.3): past a closer enemy the shot needs a Cool
            # test, and goes to that enemy when the test fails
            closer = self._closer(turned, m.id, weapon, action.target)
        except (IllegalDeclaration, KeyError, ValueError):
            return 0.0
        branches = [(1.0, action.target)]
        if closer is not None:
            passes = self._cool(m)
            branches = [(passes, action.target), (1 - passes, closer)]
        # who the shot may land on in each branch: the target on a hit; on a miss, the
        # fighters at risk of a stray shot in turn (seed 004: D6 1-3 hits each)
        stray = STRAY_HITS_ON / 6
        landing: list[tuple[float, str]] = []
        for share, aimed in branches:
            try:
                plan = self.nec.hit_plan(turned, m.id, weapon, target=aimed)
                risk = self.nec.at_risk(turned, m.id, aimed)
            except (IllegalDeclaration, KeyError, ValueError):
                return 0.0
            if plan.out_of_range or (risk and weapon.rapid_fire):
                return 0.0  # a volley's strays are left as sampled
            bs = self.nec.profiles[m.id].bs
            chance = float(hit_chance(bs, bs - plan.need))
            landing.append((share * chance, aimed))
            for i, bystander in enumerate(risk):
                landing.append((share * (1 - chance) * stray * (1 - stray) ** i, bystander))
        base = after
        for v in {v for _, v in landing}:
            base = base.with_model(state.model(v))  # each victim as it was
        plain = self._settled(base, side)
        expected = plain
        for p_land, v in landing:
            victim = state.model(v)
            some, si, ooa = attack_outcome(self.nec, weapon, victim, 1.0)
            pinned = victim.status if victim.status not in UPRIGHT else PINNED
            for status, p in (
                (OUT_OF_ACTION, ooa),
                (SERIOUSLY_INJURED, si),
                (pinned, some - si - ooa),
            ):
                if p > 0:
                    worth = self._settled(base.with_model(victim.replace(status=status)), side)
                    expected += p_land * p * (worth - plain)
        return self._settled(after, side) - expected

    def _settled(self, state: NecromundaState, side: str) -> float:
        """The fighters' worth to `side`, and the game's (`win`) when a gang has no
        fighter left in the fight (it ends there, FACTS 2.8): the luck's measure."""
        total = self._material(state, side)
        beaten = [s for s in state.sides if not self.nec.fighting(state, s)]
        if len(beaten) == 1:
            total += -self.weights["win"] if beaten[0] == side else self.weights["win"]
        return total

    def _closer(
        self, state: NecromundaState, shooter: str, weapon: NecromundaWeapon, target: str
    ) -> str | None:
        """The enemy a shot at `target` would go to on a failed Cool test (the closest
        eligible one not Seriously Injured and at least as easy to hit), or None when no
        test is needed (the engine's target priority)."""
        mine = self.nec.sighting(state, shooter, target)
        chance = self.nec.hit_probability(state, shooter, weapon, target, False)
        for c, _ in self.nec.eligible(state, shooter, ARC, nearer=mine.distance - 1e-9):
            if state.model(c).status != SERIOUSLY_INJURED and (
                self.nec.hit_probability(state, shooter, weapon, c, False) >= chance
            ):
                return c
        return None

    def _recovering(self, left: int) -> float:
        """The odds a Seriously Injured fighter is back in the fight (a Flesh Wound on
        its Recovery die) by the end, over `left` End phases (one die each)."""
        faces = self.nec.dice.injury
        back = faces.count(InjuryResult.FLESH_WOUND) / len(faces)
        stay = faces.count(InjuryResult.SERIOUSLY_INJURED) / len(faces)
        return back * sum(stay**j for j in range(left))

    def _staying(
        self, state: NecromundaState, side: str, left: int
    ) -> Callable[[ModelState], float]:
        """The odds a fighter of `side` is not fleeing by the end: a gang not yet bottled
        bottles in an End phase on D6 + fighters down > its starting crew, and from that
        phase on each fighter passes a Cool test (2D6 >= Cl) each End phase or flees."""
        down = sum(
            1 for m in state.side_models(side) if m.status in (SERIOUSLY_INJURED, OUT_OF_ACTION)
        )
        crew = self.nec.crew[side]
        bottled = side in state.bottled
        chance = 0.0 if not down else (6 - min(6, max(0, crew - down))) / 6

        def keep(m: ModelState) -> float:
            if not left:
                return 1.0
            cool = self._cool(m)
            if bottled:
                return cool**left
            calm = (1 - chance) ** left
            for j in range(1, left + 1):
                calm += (1 - chance) ** (j - 1) * chance * cool ** (left - j + 1)
            return calm

        return keep

    def _lines(self, state: NecromundaState, side: str) -> float:
        """Exposure (enemies in the fight with a clear line to ours, less in cover; a
        prone fighter in cover cannot be targeted) and reach (ours to theirs)."""
        w = self.weights
        fighting = [m for m in state.models if m.status in (*UPRIGHT, PINNED)]
        mine = [m for m in fighting if m.side == side]
        theirs = [m for m in fighting if m.side != side]
        if not mine or not theirs:
            return 0.0
        placements = self.nec.placements(state)
        asks = [(e.id, m.id, m.at) for m in mine for e in theirs]
        clear = self.nec.sight.clear_to(placements, asks)
        total = 0.0
        for (shooter, target, _), ok in zip(asks, clear, strict=True):
            if not ok:
                continue
            s = self.nec.sighting(state, shooter, target)
            if not s.lof:
                continue
            t = state.model(target)
            if t.status in PRONE and s.cover is not Cover.NONE:
                continue
            cover = {Cover.NONE: 1.0, Cover.PARTIAL: w["partial_cover"]}.get(
                s.cover, w["full_cover"]
            )
            total -= w["exposure"] * cover * (self.nec.points[target] or 50)
            e = state.model(shooter)
            if e.status in UPRIGHT and t.status in UPRIGHT:
                total += w["reach"] * (self.nec.points[shooter] or 50)
            if w["threat"] and e.status in UPRIGHT:
                total -= w["threat"] * self._harm(state, e, t) * (self.nec.points[target] or 50)
            if w["threat_reach"] and e.status in UPRIGHT and t.status in UPRIGHT:
                harm = self._harm(state, t, e)
                total += w["threat_reach"] * harm * (self.nec.points[shooter] or 50)
        return total

    def _harm(self, state: NecromundaState, shooter: ModelState, target: ModelState) -> float:
        """What `shooter`'s best shot could do to `target` where both stand (the careful
        player's worth of its exact outcome: taken out 1, Seriously Injured 0.6, a hit
        that pins 0.1), its cover and range in the hit roll; 0 out of range."""
        best = 0.0
        bs = self.nec.profiles[shooter.id].bs
        for weapon in self.careful._usable(shooter, 2):
            if weapon.is_template:
                continue
            plan = self.nec.hit_plan(state, shooter.id, weapon, target=target.id)
            if plan.out_of_range or plan.need > 6:
                continue
            chance = float(hit_chance(bs, bs - plan.need))
            best = max(best, worth(attack_outcome(self.nec, weapon, target, chance)))
        return best
