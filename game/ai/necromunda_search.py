"""The Necromunda search player: a judged choice of activation and action, with an
optional sampled lookahead over it (game.ai.search).

The judgement (`judge`, weights; `_judged`): every plan of an activation (aim and
shoot, shoot then move or take cover, move then shoot, move twice, take cover, stand
up, reload a weapon out of ammo by the odds of its Ammo test, stay) for every Ready
fighter, scored by the points its shot may take off (exact hit, wound, save and injury
odds; a target not the closest in the arc by the odds of the Cool test of target
priority, FACTS 2.3) and the exchange of fire from where the fighter ends
(`_exchange`): each fighter's best shot from where it stands or after a Move toward the
enemy (`mobile`), in points, times its activations left over `exchange_turns` rounds,
ours less theirs. A fighter
down costs its points (Seriously Injured: by its odds of not recovering) and the points
of its gang one more down may make flee by the end (bottle tests, `bottle`); a Prone
fighter in cover cannot be targeted this round (FACTS 2.3) but stands to shoot in later
ones; a Pinned fighter loses its Aim and its Unwieldy weapon this round (Stand Up takes
an action, FACTS 2.8, 2.9). The enemies' side counts `exchange_risk` times as much (a
temperament's caution), and less (`press`, `_pressing`) while our gang is not ahead on
the points of fighters in the fight that decide the game at the turn limit: a draw wins
nothing, so a shot that may break the tie is worth its risk. With `lookahead` 0 the
judged choice is the answer (weighed again by the exact expectimax below); otherwise it is
the default of the sampled lookahead below.

The exact expectimax (`_exact`, weights `exact_*`). The judged plans' first declarations
within `exact_margin` points of the best, `exact_top` of them (ties kept), are each played
by the forward model: a Shoot's outcomes enumerated, not sampled (`_landing`: the target,
past a closer enemy that one on a failed Cool test, on a miss the fighters at risk of a
stray; `hit_outcomes`: Pinned, a Wound or Flesh Wound that keeps a fighter up, Seriously
Injured, Out of Action, each a state edit with its exact odds; the unlikeliest dropped);
a move, a blast, a template or a volley with strays is one step of the player's seeded
generator. Then the rest of our activation by the judged choice (`exact_own`), the
enemy's reply by the careful player, its shots enumerated the same way, until the enemy's
next activation is done, the round ends (the End phase is not rolled) or `exact_depth`
steps. A leaf is worth its fighters (`_settled`) and the exchange of fire from there
(`_exchange`); at the end of the last round, the game's result plus `exact_final` times
that worth (0: the result alone). The judged choice stands unless another's expectation
beats it by `exact_lead` points; a decision where a Leader may lead a group is left to
the judged choice. The budget counts a forward step 1, a leaf's scoring and a reply by
the careful player `exact_leaf_cost` and `exact_reply_cost`, our activation's rest by the
judged choice `exact_judge_cost` (what each costs in time against a forward step); the
steps run out (`exact_share` of the budget), the candidates weighed by then decide.
With `exact_horizon` 2 or 3 the same candidates are weighed again, on the steps left,
to our next activation after the enemy's (2) and the enemy's after that (3): our later
activations by the careful player (`exact_later`), the lines less likely than
`exact_reach_late` stopped at the first horizon, past it a shot's outcomes pruned by
`exact_prune_late`; what the first horizon already worked out (replies, outcomes,
leaves) is kept and not charged again (`_keep`). Its answer counts only when it weighed
every candidate; otherwise the first horizon's stands.

A Leader or Champion the judgement activates leads a group activation (FACTS 2.8:
"Leaders may group-activate 2 fighters within 3\", Champions 1"; `group`, `_groups`)
of the Ready friends within 3" whose best plan shoots (`group_shots`: an Aim, a Shoot,
a Move then a Shoot) an enemy yet to activate this round (`group_ready`) and is worth
more than the exchange counts the friend kept for later, the most gained first (where
the judgement is even, the careful player's rule, a shot worth taking, decides); and
no more of them than the activations it has to spare (`group_spare`: ours left beyond
the enemy's, which would end the round in a row anyway). Nominating more gave the
enemy the round's last activations in a row and lost games (necromunda.toml).

The lookahead. Candidates: for a fighter to activate, the careful player's first
action (Aim or Shoot, turned to the enemy), its advance, moves into cover (a base
against scenery, fewest enemies with a clear line there first), Take Cover, standing
up, and activating to do nothing; within an activation, each eligible shot, Aim, the
moves, reloading and ending it. The lookahead plays on until the enemy has finished
its next activation: the enemy by the careful player (`careful_replies`), our
fighter's later actions by the careful player's shots without its moves (`hold_after`:
the search chooses its own moves when it gets there). The careful player's choice is
the default (`deviate_z`).

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
import copy
import math
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar, cast

import numpy as np

from game.ai.necromunda import (
    KEEP_AWAY,
    CarefulNecromundaPlayer,
    SimpleNecromundaPlayer,
    attack_outcome,
    coup_de_grace,
    coup_spots,
    hit_outcomes,
    worth,
)
from game.ai.necromunda_end import final_result
from game.ai.search import REFUSED, Policy, SearchPlayer, cover_spots, digest, reply_done
from game.errors import IllegalDeclaration
from game.geometry import Body, in_arc
from game.geometry.measures import blast_hits
from game.rules.necromunda.data import NecromundaWeapon
from game.rules.necromunda.dice import InjuryResult
from game.rules.necromunda.odds import hit_chance
from game.sequencer.declarations import Declaration
from game.sequencer.engine import Awaiting, Engine
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_fire import ARC, SAVE_BONUS, heading
from game.sequencer.necromunda_targeting import STRAY_HITS_ON
from game.sequencer.necromunda_types import (
    AIMED,
    BLAZE,
    BROKEN,
    FLESH_WOUNDS,
    OUT_OF_ACTION,
    PINNED,
    PRONE,
    READY,
    SERIOUSLY_INJURED,
    STANDING,
    UPRIGHT,
    Act,
    Action,
    ActionKind,
    EndActivation,
    NecromundaState,
    out_of_ammo_flag,
)
from game.sequencer.sight import Cover, Sighting
from game.sequencer.state import GameState, ModelState

Point = tuple[float, float]
FAN = (0, 45, -45, 90, -90, 180)
# a judged move's directions from the nearest enemy's
Plan = tuple[Declaration, float, ModelState]  # first declaration, value, the fighter at the end
GAIN_TIE = 1e-9  # a group's gain this near nothing is even: the careful rule decides


_T = TypeVar("_T")


class _Spent(Exception):
    """The expectimax's steps ran out: the candidate being weighed drops out."""


def _no_end_phase(state: NecromundaState, events: object, rng: object) -> NecromundaState:
    """The End phase not rolled (the expectimax's horizon is the round's end)."""
    return state


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
        # the judgement's answers, kept for one decision (by the fighters' places)
        self._sights: dict[tuple[object, ...], Sighting | None] = {}
        self._outcomes: dict[tuple[object, ...], tuple[float, float, float]] = {}
        self._threats: dict[tuple[object, ...], float] = {}
        self._pools: dict[tuple[object, ...], list[tuple[Point, float]]] = {}
        self._paths: dict[tuple[object, ...], bool] = {}
        self._finished: dict[tuple[object, ...], float] = {}
        self._bottles: dict[tuple[object, ...], float] = {}
        self._moves_memo: dict[tuple[object, ...], list[Point]] = {}
        self._strays: dict[tuple[object, ...], float] = {}
        self._risk = 1.0  # the enemies' side of the exchange this decision (`_pressing`)
        self.refused = 0  # judged choices the engine refused (a fault: the tests count them)
        # the forward model of the expectimax: the engine, the End phase left unrolled
        self._no_end = copy.copy(engine)
        setattr(self._no_end, "_end_phase", _no_end_phase)  # noqa: B010
        self._memo: dict[tuple[NecromundaState, int], float] = {}
        self._rng = np.random.default_rng(0)
        self._spend = 0
        self.exact_weighed = 0  # decisions the expectimax weighed, and changed (benchmarks)
        self.exact_changed = 0
        self.exact_spent = 0  # decisions whose candidates the budget cut short
        self._horizon = 1  # the expectimax's horizon being weighed (`exact_horizon`)
        self.exact_deeper = 0  # decisions weighed whole beyond the first horizon
        self._kept: dict[tuple[object, ...], object] | None = None  # `_keep`
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
            if BLAZE in m.flags:  # FACTS 2.9, Blaze: the flames take its activation
                out.append((EndActivation(m.id), 0.0))
                continue
            coup = coup_de_grace(self.nec, state, m)
            if coup is not None:  # FACTS 2.4: a sure Out of Action
                out.append((Act(m.id, coup), 1.0))
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
        coup = coup_de_grace(self.nec, state, m)
        if coup is not None:  # FACTS 2.4: a sure Out of Action
            out.append((coup, 1.0))
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
        """An activation goes on, or a group activation (FACTS 2.8) has fighters still
        to activate before play passes on."""
        assert isinstance(state, NecromundaState)
        return state.activating is not None or bool(state.group)

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
        found = self._landing(state, declaration)
        if found is None:
            return 0.0
        weapon, landing = found
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

    def _landing(
        self, state: NecromundaState, declaration: Act
    ) -> tuple[NecromundaWeapon, list[tuple[float, str]]] | None:
        """Whom a Shoot may land on, each with its odds: the target on a hit, or past a
        closer enemy that one on a failed Cool test of target priority (FACTS 2.3); on a
        miss, the fighters at risk of a stray shot in turn (seed 004: D6 1-3 hits each).
        The odds left over land on no one. None for anything else: not a Shoot, a blast,
        a template or a volley with strays (left to the dice)."""
        action = declaration.action
        if action.kind is not ActionKind.SHOOT or action.target is None or action.weapon is None:
            return None
        m = state.model(declaration.model)
        weapon = self.nec.weapon(m.id, action.weapon)
        if weapon.is_template or weapon.blast_diameter is not None:
            return None
        if declaration.turn_to is not None:
            m = m.replace(facing=declaration.turn_to)
        turned = state.with_model(m)
        try:
            # target priority (FACTS 2.3): past a closer enemy the shot needs a Cool
            # test, and goes to that enemy when the test fails
            closer = self._closer(turned, m.id, weapon, action.target)
        except (IllegalDeclaration, KeyError, ValueError):
            return None
        branches = [(1.0, action.target)]
        if closer is not None:
            passes = self._cool(m)
            branches = [(passes, action.target), (1 - passes, closer)]
        stray = STRAY_HITS_ON / 6
        landing: list[tuple[float, str]] = []
        for share, aimed in branches:
            try:
                plan = self.nec.hit_plan(turned, m.id, weapon, target=aimed)
                risk = self.nec.at_risk(turned, m.id, aimed)
            except (IllegalDeclaration, KeyError, ValueError):
                return None
            if plan.out_of_range or (risk and weapon.rapid_fire):
                return None  # a volley's strays are left as sampled
            bs = self.nec.profiles[m.id].bs
            chance = float(hit_chance(bs, bs - plan.need))
            landing.append((share * chance, aimed))
            for i, bystander in enumerate(risk):
                landing.append((share * (1 - chance) * stray * (1 - stray) ** i, bystander))
        return weapon, landing

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
        self, state: NecromundaState, side: str, left: int, extra: int = 0
    ) -> Callable[[ModelState], float]:
        """The odds a fighter of `side` is not fleeing by the end: a gang not yet bottled
        bottles in an End phase on D6 + fighters down > its starting crew, and from that
        phase on each fighter passes a Cool test (2D6 >= Cl) each End phase or flees."""
        down = self.nec.down_count(state, side) + extra
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

    # -- the judgement: an exact one-step exchange of fire ----------------------------

    def choose(self, state: GameState, awaiting: Awaiting) -> Declaration:
        """With `lookahead` 0 (weights): the judged choice (`_judged`: the activation
        whose plan leaves the best exchange of fire), else the careful one; with the
        lookahead on, the sampled search with that choice as its default. A budget below
        `light_below` is the light choice either way (game.ai.search)."""
        light = self.budget < self.weights.search.get("light_below", 8)
        if light or self.weights.search.get("lookahead", 1):
            return super().choose(state, awaiting)
        self.steps = 0
        choice = self.default_choice(state, awaiting)
        if choice is not None and self._legal(state, choice):
            return choice
        self.refused += 1
        return self._fallback(state, awaiting)

    def default_choice(self, state: GameState, awaiting: Awaiting) -> Declaration | None:
        if self.weights.search.get("judge", 0):
            assert isinstance(state, NecromundaState)
            self._forget()
            assert awaiting.side is not None
            self._risk = self._pressing(state, awaiting.side)
            with contextlib.suppress(IllegalDeclaration, ValueError, KeyError):
                judged = self._judged(state, awaiting)
                if judged is not None:
                    return judged
        return self.careful.choose(state, awaiting)

    def _forget(self) -> None:
        """Drop the judgement's answers kept for the last decision."""
        for kept in (self._sights, self._outcomes, self._threats, self._pools,
                     self._paths, self._finished, self._bottles, self._moves_memo,
                     self._strays):  # fmt: skip
            kept.clear()

    def _pressing(self, state: NecromundaState, side: str) -> float:
        """How much the enemies' side of the exchange counts this decision: less
        (1 - `press`, weights) in the last `press_rounds` rounds while `side` is not
        ahead on the points of fighters in the fight (what decides the game at the turn
        limit, FACTS 2.8): a draw wins nothing, so a shot that may break the tie is
        worth the risk of one of ours going down."""
        press = self.weights["press"]
        if not press or state.turn <= self.nec.turns - int(self.weights["press_rounds"]):
            return 1.0
        points = {
            s: sum(self.nec.points[m.id] or 50 for m in self.nec.fighting(state, s))
            for s in state.sides
        }
        ahead = all(points[side] > v for s, v in points.items() if s != side)
        return 1.0 if ahead else 1.0 - press

    def _judged(
        self, state: NecromundaState, awaiting: Awaiting, *, exact: bool = True
    ) -> Declaration | None:
        """The first action of the best plan of an activation: each plan (aim and shoot,
        shoot then move or take cover, move then shoot, move or take cover alone, stand
        up, stay) scored by the points its shot may take off (exact odds) plus the
        exchange of fire from where the fighter ends (`_exchange`)."""
        plans: list[Plan] = []
        groups: dict[str, tuple[tuple[str, ...], float]] = {}
        if awaiting.kind == "activate":
            best: dict[str, Plan] = {}
            for f in awaiting.models:
                m = state.model(f)
                if m.flags & {BROKEN, BLAZE} or m.status not in (*UPRIGHT, PINNED):
                    continue
                started = state.replace(activating=f, actions_left=2, used=())
                mine = self._plans(started, m, first=True)
                best[f] = max(mine, key=lambda p: p[1])
                plans += mine
            if state.leading is None and not state.group and self.weights["group"]:
                groups = self._groups(state, awaiting.models, best)
        elif awaiting.kind == "action":
            m = state.model(awaiting.models[0])
            if BROKEN in m.flags or m.status not in (*UPRIGHT, PINNED):
                return None
            plans = self._plans(state, m, first=False)
        if not plans:
            return None
        lead = self.weights["group_lead"]

        def value(plan: Plan) -> float:
            # the leader's activation brings its group's gain along (`group_lead`)
            found = groups.get(plan[2].id)
            return plan[1] + lead * found[1] if found else plan[1]

        choice = max(plans, key=value)[0]
        if isinstance(choice, Act | EndActivation) and choice.model in groups:
            choice = replace(choice, group=groups[choice.model][0])
        if exact and not groups and self.weights.search.get("exact_top", 0) >= 2:
            return self._exact(state, awaiting, choice, plans, value, groups)
        return choice

    # -- the exact expectimax over the judged plans' first declarations --------------

    def _exact(
        self,
        state: NecromundaState,
        awaiting: Awaiting,
        choice: Declaration,
        plans: list[Plan],
        value: Callable[[Plan], float],
        groups: dict[str, tuple[tuple[str, ...], float]],
    ) -> Declaration:
        """The judged `choice`, unless another of the judged plans' first declarations
        (the best `exact_top` within `exact_margin` points of it) leads to a better
        expected position by more than `exact_lead` points (`_expect`: the declaration,
        our activation's rest and the enemy's careful reply, every non-blast shot's
        outcomes enumerated with their exact odds). A group's leader declares with its
        group (`_groups`). The steps run out (`exact_share` of the budget): the
        candidates weighed so far decide, the judged one always among them."""
        search = self.weights.search
        side = awaiting.side
        assert side is not None
        firsts: dict[str, tuple[float, Declaration]] = {}
        for plan in plans:
            key = repr(plan[0].to_dict())
            worth_ = value(plan)
            if key not in firsts or worth_ > firsts[key][0]:
                firsts[key] = (worth_, plan[0])
        ranked = sorted(firsts.values(), key=lambda c: -c[0])
        top = int(search["exact_top"])
        floor = ranked[0][0] - search.get("exact_margin", 5.0)
        if len(ranked) > top:  # ties with the last one kept
            floor = max(floor, ranked[top - 1][0] - GAIN_TIE)
        bare = repr(replace(choice, group=()).to_dict()) if isinstance(
            choice, Act | EndActivation) else repr(choice.to_dict())  # fmt: skip
        others = [d for v, d in ranked if v >= floor and repr(d.to_dict()) != bare]
        others = others[: 2 * top - 1]
        if not others:
            return choice
        for i, d in enumerate(others):
            if isinstance(d, Act | EndActivation) and d.model in groups:
                others[i] = replace(d, group=groups[d.model][0])
        self.forget()
        self._kept = {} if int(search.get("exact_horizon", 1)) > 1 else None
        self._spend = self.steps + int(self.budget * search.get("exact_share", 1.0))
        weighed: list[tuple[float, Declaration]] = []
        # the first horizon, then the deeper one (`exact_horizon`) on the steps left: its
        # answer counts only when it weighed every candidate
        levels = sorted({1, int(search.get("exact_horizon", 1))})
        for self._horizon in levels:
            self._memo = {}
            self._rng = np.random.default_rng([self.seed, digest(state, awaiting), 15])
            deeper: list[tuple[float, Declaration]] = []
            whole = True
            for d in [choice, *others]:
                try:
                    found = self._expect(state, d, side, state, awaiting, 0)
                except _Spent:
                    self.exact_spent += 1
                    whole = False
                    break
                if found is not None:
                    deeper.append((found, d))
            if whole or self._horizon == 1:
                weighed = deeper
                self.exact_deeper += whole and self._horizon > 1
            if not whole:
                break
        self._horizon = 1
        self._kept = None
        if not weighed or weighed[0][1] is not choice:
            return choice
        self.exact_weighed += 1
        best = max(weighed, key=lambda c: c[0])
        if best[0] > weighed[0][0] + search.get("exact_lead", 0.0) and self._legal(state, best[1]):
            self.exact_changed += 1
            return best[1]
        return choice

    def _expect(
        self,
        state: NecromundaState,
        declaration: Declaration,
        side: str,
        root: NecromundaState,
        root_awaiting: Awaiting,
        depth: int,
        reach: float = 1.0,
    ) -> float | None:
        """The expected worth to `side` of `declaration` at `state` over its outcomes
        (`_branches`), each played on (`_node`); None when the engine refuses it."""
        prune = None
        if self._horizon > 1 and self.horizon(root, root_awaiting, state):
            # beyond the first horizon: the coarser prune, or a shot's dice rolled
            # (`exact_prune_late`; 1 or more: the generator's one outcome)
            prune = self.weights.search.get("exact_prune_late")
        try:
            branches = self._keep(
                ("branches", state, declaration, prune),
                lambda: self._branches(state, declaration, prune),
            )
        except REFUSED:
            return None
        return sum(
            p * self._node(after, side, root, root_awaiting, depth + 1, reach * p)
            for p, after in branches
        )

    def _node(
        self,
        state: NecromundaState,
        side: str,
        root: NecromundaState,
        root_awaiting: Awaiting,
        depth: int,
        reach: float = 1.0,
    ) -> float:
        """The worth to `side` of `state` in the expectimax: at the horizon (the enemy's
        next activation done, the round over, a gang out of the fight, `exact_depth`
        steps) the leaf's (`_leaf`); else that of the declaration the careful player
        (the enemy) or our own policy (`own_policy`) makes there."""
        key = (state, depth)
        found = self._memo.get(key)
        if found is not None:
            return found
        found = self._keep(("leaf", state), lambda: self._scored(state, side))
        stop = (
            state.finished
            or depth >= int(self.weights.search.get("exact_depth", 8))
            or any(not self.nec.fighting(state, s) for s in state.sides)
            or self._far(root, root_awaiting, state, reach)
            or not (self._busy(state) or any(self._ready(state, s) for s in state.sides))
        )
        if not stop:
            # IndexError: a policy finding no fighter of the ones the engine lists
            with contextlib.suppress(*REFUSED, IndexError):
                waiting = self.nec.awaiting(state)
                if waiting.side is not None and waiting.kind in ("activate", "action"):
                    step = self._keep(
                        ("reply", state), lambda: self._reply(state, waiting, side, root)
                    )
                    deeper = self._expect(state, step, side, root, root_awaiting, depth, reach)
                    if deeper is not None:
                        found = deeper
        self._memo[key] = found
        return found

    def _scored(self, state: NecromundaState, side: str) -> float:
        """A leaf's worth (`_leaf`), its cost charged (`exact_leaf_cost`)."""
        self._charge(int(self.weights.search.get("exact_leaf_cost", 1)))
        return self._leaf(state, side)

    def _keep(self, key: tuple[object, ...], make: Callable[[], _T]) -> _T:
        """`make()`, or its answer kept from an earlier horizon of this decision
        (`exact_horizon` 2 or more: the deeper horizon walks the first one's tree again,
        and the steps it charges go to what is new; its cost charged once)."""
        if self._kept is None:
            return make()
        if key not in self._kept:
            self._kept[key] = make()
        return cast(_T, self._kept[key])

    def _far(
        self,
        root: NecromundaState,
        root_awaiting: Awaiting,
        state: NecromundaState,
        reach: float = 1.0,
    ) -> bool:
        """The expectimax's horizon (`exact_horizon`, weights): 1, the enemy's next
        activation done (`horizon`); 2, and then our next one; 3, and the enemy's after
        that (the root's activation and that many more done).
        The round's end is a horizon either way (the End phase is not rolled). A line
        less likely than `exact_reach_late` (its outcomes' odds from the root, `reach`)
        stops at the first horizon: the steps go to the likely ones."""
        far = self._horizon
        if far <= 1 or reach < self.weights.search.get("exact_reach_late", 0.0):
            return self.horizon(root, root_awaiting, state)
        if state.turn != root.turn:
            return True
        if self._busy(state):
            return False
        return self._begun(root, state) > far

    def _done(self, root: NecromundaState, state: NecromundaState, side: str) -> int:
        """`side`'s activations done since `root`: its fighters Ready there and not in
        `state` (a fighter stays Ready until its activation ends; one taken Out of Action
        Ready does not count)."""
        return sum(
            1
            for m in root.side_models(side)
            if READY in m.flags and READY not in state.model(m.id).flags
        )

    def _begun(self, root: NecromundaState, state: NecromundaState) -> int:
        """Activations done since `root`, both sides' (the one going on at `root`, or
        declared there, among them once it ends)."""
        return sum(self._done(root, state, s) for s in root.sides)

    def _later(self, root: NecromundaState, state: NecromundaState, side: str) -> bool:
        """`state` is in an activation of `side`'s after the root's (`exact_horizon`):
        the root's is done."""
        return self._done(root, state, side) > 0

    def _reply(
        self, state: NecromundaState, waiting: Awaiting, side: str, root: NecromundaState
    ) -> Declaration:
        """The declaration the expectimax plays at `state`: the enemy's by the careful
        player; the rest of our activation by the judged choice (`exact_own`, weights:
        its plans weighed afresh, the decision's kept ends of activations belong to the
        root's position), else, and for a group's fighters, `own_policy`."""
        search = self.weights.search
        if waiting.side != side:
            self._charge(int(search.get("exact_reply_cost", 1)))
            return self.replies.choose(state, waiting)
        if self._later(root, state, side) and search.get("exact_later", 0):
            # a later activation of ours (`exact_horizon` 2 or more): the careful player
            self._charge(int(search.get("exact_reply_cost", 1)))
            return self.careful.choose(state, waiting)
        if waiting.kind == "action" and search.get("exact_own", 0):
            self._charge(int(search.get("exact_judge_cost", 20)))
            kept, self._finished = self._finished, {}
            try:
                found = self._judged(state, waiting, exact=False)
            finally:
                self._finished = kept
            if found is not None:
                return found
        self._charge(int(search.get("exact_reply_cost", 1)))
        return self.mine.choose(state, waiting)

    def _charge(self, cost: int) -> None:
        """`cost` steps of the decision's budget spent (a leaf's scoring, a reply: they
        cost the expectimax more time than its forward steps, so the budget counts
        them, `exact_*_cost`, weights); a call that would pass what the expectimax may
        spend is not made: it stops there (`_Spent`), never over its budget."""
        if self.steps + cost > self._spend:
            raise _Spent
        self.steps += cost

    def _leaf(self, state: NecromundaState, side: str) -> float:
        """A position's worth to `side` at the expectimax's horizon: the fighters'
        (`_settled`, the game's when a gang is out of the fight) and the exchange of fire
        from there (`_exchange`), in points as the judged plans count them. At the end of
        the last round, and (`exact_last_result`) anywhere in it, the game's result as if
        the round ended there (`win`, weights) plus `exact_final` times that worth (0, as
        kept: the result alone; by then what the fighters are worth matters only through
        it, and a sure loss hidden is no better than a likely one in the open): one scale
        for every line of the last round, stopped early or not."""
        value = self._settled(state, side) + self._exchange(state, side)
        if state.turn < self.nec.turns:
            return value
        going = self._busy(state) or any(self._ready(state, s) for s in state.sides)
        if going and not self.weights.search.get("exact_last_result", 0):
            return value
        # the game is decided at the turn limit on the points of fighters in the fight
        # after the last End phase (FACTS 2.8; `exact_end_phase`: its dice counted)
        if self.weights.search.get("exact_end_phase", 0):
            result = self.weights["win"] * final_result(self.nec, state, side)
        else:
            points = {
                s: sum(self.nec.points[m.id] or 50 for m in self.nec.fighting(state, s))
                for s in state.sides
            }
            mine = points[side]
            theirs = max(v for s, v in points.items() if s != side)
            result = self.weights["win"] * ((mine > theirs) - (mine < theirs))
        return result + self.weights.search.get("exact_final", 0.0) * value

    def _branches(
        self, state: NecromundaState, declaration: Declaration, prune: float | None = None
    ) -> list[tuple[float, NecromundaState]]:
        """`declaration` applied by the forward model (the End phase not rolled: the
        round's end is a horizon), a Shoot's outcomes enumerated (`_landing`, then
        `hit_outcomes` on whom it lands: exact odds), each a state with that fighter as
        the shot leaves it; outcomes under `exact_prune` dropped and the rest
        renormalised. Anything else (a move, a blast, a template, a volley with strays)
        is one step with the player's generator."""
        after, _ = self._no_end.apply(state, declaration, rng=self._rng)
        assert isinstance(after, NecromundaState)
        self._charge(1)
        if prune is None:
            prune = self.weights.search.get("exact_prune", 1e-3)
        found = None
        if isinstance(declaration, Act) and prune < 1.0:
            found = self._landing(state, declaration)
        if found is None or after.finished:
            return [(1.0, after)]
        weapon, landing = found
        base = after
        for v in {v for _, v in landing}:
            base = base.with_model(state.model(v))  # each victim as it was
        out: dict[NecromundaState, float] = {}
        missed = 1.0
        for p_land, v in landing:
            missed -= p_land
            for q, victim in hit_outcomes(self.nec, weapon, state.model(v)):
                there = base.with_model(victim)
                out[there] = out.get(there, 0.0) + p_land * q
        out[base] = out.get(base, 0.0) + max(0.0, missed)
        kept = [(p, s) for s, p in out.items() if p >= prune]
        total = sum(p for p, _ in kept)
        return [(p / total, s) for p, s in kept]

    def _groups(
        self, state: NecromundaState, ready: tuple[str, ...], best: dict[str, Plan]
    ) -> dict[str, tuple[tuple[str, ...], float]]:
        """For each Leader or Champion in `ready`, the group it would lead (FACTS 2.8:
        "Leaders may group-activate 2 fighters within 3\", Champions 1") and what the
        group gains: the Ready friends it may take whose best plan shoots an enemy yet
        to activate (`group_shots`, `group_ready`) and whose activation now, straight
        after the leader's and before the enemy answers, the judgement prefers to
        keeping it for later (the value of its best plan, `best`, over the exchange with
        it still to activate, where its shot denies nothing), the most gained first, no
        more than the activations to spare (`group_spare`). A friend the judgement is
        even on comes when the careful player would take it (its shot worth taking),
        after the others."""
        side = state.active
        shots = self.weights["group_shots"]
        tempo = self.weights["group_ready"]
        keep: float | None = None
        out: dict[str, tuple[tuple[str, ...], float]] = {}
        aims: dict[str, str | None] = {}  # each friend's best plan's target, found once
        # activations to spare: ours after this one beyond the enemy's, which would end
        # the round in a row anyway; the group takes no more, so the enemy answers each
        # as it would have (`group_spare`)
        spare = len(ready) - 1 - len(self.nec.ready(state, state.other_side(side)))
        for f in ready:
            most = self.nec.group_size(f)
            if self.weights["group_spare"]:
                most = min(most, spare)
            if most <= 0 or f not in best:
                continue
            gains: list[tuple[float, int, str]] = []
            even: list[str] = []
            for g in ready:
                if g == f or g not in best or self.nec.may_join(state, f, g) is not None:
                    continue
                if shots:
                    if g not in aims:
                        aims[g] = self._shot_at(state, best[g])
                    target = aims[g]
                    if target is None or (tempo and READY not in state.model(target).flags):
                        continue
                if keep is None:
                    keep = self._exchange(state, side)
                gain = best[g][1] - keep
                if gain > GAIN_TIE:
                    gains.append((-gain, 0, g))
                elif gain >= -GAIN_TIE:
                    even.append(g)
            if even:  # the default: the careful player's rule, its order
                careful = self.careful._group(state, state.model(f))
                gains += [(0.0, 1 + careful.index(g), g) for g in even if g in careful]
            gains.sort()
            group = tuple(g for _, _, g in gains[:most])
            if group and self.nec.group_refused(state, f, group) is None:
                out[f] = (group, -sum(gain for gain, _, _ in gains[:most]))
        return out

    def _shot_at(self, state: NecromundaState, plan: Plan) -> str | None:
        """Whom an activation's plan (`_plans`) shoots: its first action a Shoot, an Aim
        (then its best shot), or a Move after which it shoots (it ends where the Move
        took it, as it stood, with a shot from there worth something: `_second`'s choice
        of the shot over staying); a template's, the nearest enemy; None when it shoots
        none."""
        first, _, end = plan
        if not isinstance(first, Act):
            return None
        action = first.action
        m = state.model(first.model)
        shots: list[tuple[Action, float | None, float]] = []
        if action.kind is ActionKind.SHOOT:
            shots = [(action, None, 0.0)]
        elif action.kind is ActionKind.AIM:
            shots = self._shots(state, m, 2, aimed=True, turn=True, one=True)
        elif action.kind is ActionKind.MOVE and action.path:
            # it shot from where the Move took it unless it went on or took cover there
            moved_on = end.at != action.path[-1] or end.status != m.status
            shots = (
                [] if moved_on else self._shots(state, end, 1, aimed=False, turn=False, one=True)
            )
        if not shots:
            return None
        if shots[0][0].target is not None:
            return shots[0][0].target
        enemy = self.careful._nearest_enemy(state, m)
        return None if enemy is None else enemy.id

    def _plans(self, state: NecromundaState, m: ModelState, *, first: bool) -> list[Plan]:
        """(first declaration, value, where and how `m` ends) of each plan for the rest
        of `m`'s activation."""
        left = state.actions_left
        used = set(state.used)
        stay = EndActivation(m.id) if first else EndActivation()
        out: list[Plan] = [(stay, self._finish(state, m), m)]
        if m.status == PINNED:
            if ActionKind.STAND_UP.value in used:
                return out
            up = m.replace(status=STANDING, facing=self._face(state, m))
            value, end = self._second(state, m, up) if left >= 2 else (self._finish(state, up), up)
            out.append((Act(m.id, Action.stand_up(facing=up.facing)), value, end))
            return out
        can_shoot = ActionKind.SHOOT.value not in used
        coup = coup_de_grace(self.nec, state, m)
        if coup is not None and coup.target is not None:
            # FACTS 2.4: the Seriously Injured enemy within 1" taken out, surely; then
            # the best last action
            gain = self._finished_off(state, state.model(coup.target))
            rest, end = self._second(state, m, m, shot=can_shoot) if left >= 2 else (
                self._finish(state, m), m)  # fmt: skip
            out.append((Act(m.id, coup), gain + rest, end))
        if left >= 2:
            # a Move to within 1" of one, to finish it off with the second action
            for p, t in coup_spots(self.nec, state, m):
                target = state.model(t)
                moved = m.replace(at=p, facing=round(heading(p, target.at), 6))
                value = self._finished_off(state, target) + self._finish(state, moved)
                out.append((Act(m.id, Action.move(p, facing=moved.facing)), value, moved))
        if can_shoot:
            shots = self._shots(state, m, left, aimed=AIMED in m.flags, turn=first)
            if shots:
                shot, turn_to, value = shots[0]
                after = m if turn_to is None else m.replace(facing=turn_to)
                weapon = self.nec.weapon(m.id, shot.weapon)
                if left >= 2 and weapon.trait("Unwieldy") is None:
                    rest, end = self._second(state, m, after, shot=False)
                else:
                    rest, end = self._finish(state, after), after
                out.append((Act(m.id, shot, turn_to=turn_to), value + rest, end))
            if left >= 2 and ActionKind.AIM.value not in used:
                aimed = self._shots(state, m, left, aimed=True, turn=first, one=True)
                if aimed:
                    _, turn_to, value = aimed[0]
                    after = m if turn_to is None else m.replace(facing=turn_to)
                    aim = Act(m.id, Action.aim(), turn_to=turn_to)
                    out.append((aim, value + self._finish(state, after), after))
        for name, chance in self._reloads(m):
            # Reload (Simple): a new Ammo test; the second action from the weapon as the
            # test leaves it (FACTS 2.6)
            loaded = m.replace(flags=m.flags - {out_of_ammo_flag(name)})
            if left >= 2:
                good, end = self._second(state, m, loaded, shot=can_shoot)
                bad, _ = self._second(state, m, m, shot=can_shoot)
            else:
                good, end, bad = self._finish(state, loaded), loaded, self._finish(state, m)
            value = chance * good + (1 - chance) * bad
            out.append((Act(m.id, Action.reload(name)), value, end))
        reach = self.nec.profiles[m.id].m
        if ActionKind.AIM.value not in used or not can_shoot:
            for p, facing in self._reachable(state, m, m.at, reach):
                moved = m.replace(at=p, facing=facing)
                if left >= 2:
                    # ties: the plan whose first move already stands better
                    value, end = self._second(state, m, moved, shot=can_shoot)
                    value += 0.01 * self._finish(state, moved)
                else:
                    value, end = self._finish(state, moved), moved
                out.append((Act(m.id, Action.move(p, facing=facing)), value, end))
        if ActionKind.TAKE_COVER.value not in used:
            down = m.replace(status=PINNED)
            out.append((Act(m.id, Action.take_cover()), self._finish(state, down), down))
            for p, facing in self._reachable(state, m, m.at, reach / 2):
                down = m.replace(at=p, facing=facing, status=PINNED)
                action = Action.take_cover(p, facing=facing)
                out.append((Act(m.id, action), self._finish(state, down), down))
        return out

    def _second(
        self, state: NecromundaState, start: ModelState, m: ModelState, *, shot: bool = True
    ) -> tuple[float, ModelState]:
        """The best last action from where `m` stands after its first (`start`: where
        the activation began): shoot, move, take cover or stay; its value and where and
        how `m` ends."""
        stay = self._finish(state, m)
        best = (stay, m)
        if shot:
            shots = self._shots(state, m, 1, aimed=False, turn=False, one=True)
            if shots and shots[0][2] > 0:
                best = (shots[0][2] + stay, m)
        reach = self.nec.profiles[m.id].m
        ends = [m.replace(at=p, facing=f) for p, f in self._reachable(state, start, m.at, reach)]
        ends.append(m.replace(status=PINNED))
        ends += [
            m.replace(at=p, facing=f, status=PINNED)
            for p, f in self._reachable(state, start, m.at, reach / 2)
        ]
        for end in ends:
            value = self._finish(state, end)
            if value > best[0]:
                best = (value, end)
        for name, chance in self._reloads(m):
            loaded = m.replace(flags=m.flags - {out_of_ammo_flag(name)})
            value = chance * self._finish(state, loaded) + (1 - chance) * stay
            if value > best[0]:
                best = (value, loaded)
        return best

    def _reloads(self, m: ModelState) -> list[tuple[str, float]]:
        """`m`'s weapons out of ammo that a Reload may load, each with its odds: the
        Ammo test (D6 >= Am; Plentiful passes), none jammed, Scarce or a Grenade (FACTS
        2.6)."""
        weapons = (self.nec.weapon(m.id, name) for name in self.nec.weapons[m.id])
        return [
            (w.name, self.nec.ammo_chance(w))
            for w in weapons
            if self.nec.reload_refused(m, w) is None
        ]

    def _shots(
        self,
        state: NecromundaState,
        m: ModelState,
        left: int,
        *,
        aimed: bool,
        turn: bool,
        one: bool = False,
    ) -> list[tuple[Action, float | None, float]]:
        """`m`'s shots from where it stands, best first: (the Shoot, the facing to turn
        to or None, its worth in points: what it may take off the target by the exact
        odds, and the target's shots it may stop). A target that is not the closest
        eligible one in the arc (turned to face it) counts by the odds of passing the
        Cool test, and else the closest one's. Without `turn` (a fighter turns only at
        the start of its activation) only the targets in its arc as it faces."""
        st = state if state.model(m.id) == m else state.with_model(m)
        usable = self.careful._usable(m, left)
        if aimed and AIMED not in m.flags:  # an Aim first: the Shoot is the last action
            usable = tuple(w for w in usable if w.trait("Unwieldy") is None)
        out: list[tuple[Action, float | None, float]] = []
        for w in usable:
            if w.is_template:
                facing = self._face(st, m) if turn else m.facing
                flame = self.careful._flame(st.with_model(m.replace(facing=facing)), m, w)
                if flame is not None and flame.direction is not None:
                    aimed_at = st.with_model(m.replace(facing=flame.direction))
                    worth_ = self.careful._value(aimed_at, aimed_at.model(m.id), w, flame)
                    enemy = self.careful._nearest_enemy(st, m)
                    pts = self.nec.points[enemy.id] or 50 if enemy is not None else 50
                    if turn and flame.direction != m.facing:
                        out.append((flame, flame.direction, worth_ * pts))
                    else:
                        out.append((flame, None, worth_ * pts))
        seen = self._visible(st, m)
        if not seen:
            out.sort(key=lambda s: -s[2])
            return out
        cool = self._cool(m)
        eye = self.nec.body(m)
        for t, dist in seen:
            facing = round(heading(m.at, st.model(t).at), 6) if turn else m.facing
            turned = Body(eye.id, eye.at, eye.radius, eye.height, facing)
            if not turn and not in_arc(turned, self.nec.body(st.model(t)), ARC):
                continue
            closer = [
                st.model(u)
                for u, d in seen
                if d < dist and in_arc(turned, self.nec.body(st.model(u)), ARC)
            ]
            for w in usable:
                if w.is_template:
                    continue
                value = self._shot_worth(st, m, w, t, aimed)
                # target priority (FACTS 2.3): past the closest eligible enemy at least as
                # easy to hit only by a Cool test, and to that one when it fails
                easy = self._outcome(st, m, w, st.model(t), False)[0]
                for u in closer:
                    if self._outcome(st, m, w, u, False)[0] >= easy:
                        value = cool * value + (1 - cool) * self._shot_worth(st, m, w, u.id, aimed)
                        break
                out.append((Action.shoot(w.name, t), facing if facing != m.facing else None, value))
        out = [shot for shot in out if shot[2] > 0]  # a shot that can do nothing is no plan
        out.sort(key=lambda s: -s[2])
        return out[:1] if one else out

    def _visible(self, state: NecromundaState, m: ModelState) -> list[tuple[str, float]]:
        """Enemies in the fight `m` could target turning to face them (line of fire,
        not hidden), nearest first, with their distances."""
        out = []
        for t in state.models:
            if t.side == m.side or t.status not in (*UPRIGHT, PINNED):
                continue
            s = self._sight(state, m, t)
            if s is not None:
                out.append((s.distance, t.id))
        out.sort()
        return [(t, d) for d, t in out]

    def _sight(self, state: NecromundaState, m: ModelState, t: ModelState) -> Sighting | None:
        """The sighting from `m` to `t` where both stand (kept for the decision by their
        places), or None without a line of fire or when `t` is hidden."""
        key = (m.id, m.at, t.id, t.at, t.status in PRONE)
        if key in self._sights:
            return self._sights[key]
        s: Sighting | None = self.nec.sighting(state, m.id, t.id)
        if s is not None and (not s.lof or self.nec.hidden(state, t, s)):
            s = None
        self._sights[key] = s
        return s

    def _shot_worth(
        self, state: NecromundaState, m: ModelState, w: NecromundaWeapon, target: str,
        aimed: bool,
    ) -> float:  # fmt: skip
        """Points a shot of `w` may take off `target` (exact odds), and the share of the
        target's own shots it stops (down: all that are left; pinned: what standing up
        costs its shot this round)."""
        t = state.model(target)
        hit, si, ooa = self._outcome(state, m, w, t, aimed)
        if not hit:
            return 0.0
        value = self._loss(state, t, si, ooa) + self._bystanders(state, m, w, t, hit)
        return value + self._denial(state, t, hit, si, ooa)

    def _denial(
        self, state: NecromundaState, t: ModelState, hit: float, si: float, ooa: float
    ) -> float:
        """The share of `t`'s own shots a shot at it stops (down: all that are left;
        pinned: what standing up costs its shot this round), in points of its threat."""
        acts_now, acts_later = self._acts(state, t)
        threat = self._threat(state, t)
        value = (si + ooa) * (acts_now + acts_later) * threat
        if acts_now and t.status in UPRIGHT and hit > si + ooa:
            # Pinned, it stands up first: no Aim, no Unwieldy weapon, this round
            pinned = self._threat(state, t.replace(status=PINNED))
            value += (hit - si - ooa) * acts_now * (threat - pinned)
        return value

    def _bystanders(
        self, state: NecromundaState, m: ModelState, w: NecromundaWeapon, t: ModelState,
        hit: float,
    ) -> float:  # fmt: skip
        """Points a shot at `t` hitting with odds `hit` may take off fighters other than
        `t`, theirs less ours (`bystanders`, weights): a Blast marker on `t` hits everyone
        under it (FACTS 2.7; its scatter on a miss is left out), a miss of another shot
        may stray into the fighters near the line, nearest the firer first, each on a D6
        of 1-3 (seed 004). Kept for the decision by the fighters' places."""
        weight = self.weights["bystanders"]
        if not weight or w.is_template:
            return 0.0
        key = (m.id, m.at, w.name, t.id, t.at, round(hit, 9))
        found = self._strays.get(key)
        if found is not None:
            return found
        landing: list[tuple[float, str, int]] = []  # (odds, fighter, save bonus)
        if w.blast_diameter is not None:
            centre, _ = self.nec.blast_centre(state, m.id, w, t.at)
            for body in blast_hits(self.nec.table_at(state), centre, w.blast_diameter / 2):
                if str(body) != t.id:
                    cover = self.nec.cover_from_point(state, centre, str(body))
                    landing.append((hit, str(body), SAVE_BONUS.get(cover, 0)))
        else:
            stray = STRAY_HITS_ON / 6
            for i, near in enumerate(self.nec.at_risk(state, m.id, t.id)):
                landing.append(((1 - hit) * stray * (1 - stray) ** i, near, 0))
        found = 0.0
        for odds, v, bonus in landing:
            victim = state.model(v)
            if victim.status == OUT_OF_ACTION:
                continue
            _, si, ooa = attack_outcome(self.nec, w, victim, odds, bonus)
            loss = self._loss(state, victim, si, ooa)
            found += loss if victim.side != m.side else -loss
        found *= weight
        self._strays[key] = found
        return found

    def _outcome(
        self, state: NecromundaState, m: ModelState, w: NecromundaWeapon, t: ModelState,
        aimed: bool,
    ) -> tuple[float, float, float]:  # fmt: skip
        """(P hit, P Seriously Injured, P Out of Action) of `m`'s shot with `w` at `t`
        where both stand, aimed or not (no line or out of range: nothing). The judge's
        sighting (kept by the two fighters' places) only says whether there is a line;
        the hit plan is the state's own (a third fighter may give cover or block), and
        nothing the judge keeps is put into a state: the game's would resolve its real
        shot with it."""
        s = self._sight(state, m, t)
        if s is None:
            return 0.0, 0.0, 0.0
        key = (m.id, m.at, w.name, t.id, t.at, t.status, t.wounds, t.marker(FLESH_WOUNDS), aimed)
        found = self._outcomes.get(key)
        if found is not None:
            return found
        plan = self.nec.hit_plan(state, m.id, w, target=t.id)
        result = (0.0, 0.0, 0.0)
        if not plan.out_of_range and plan.need <= 7:
            need = plan.need
            if aimed and AIMED not in m.flags and w.trait("Unwieldy") is None:
                need -= 1
            bs = self.nec.profiles[m.id].bs
            result = attack_outcome(self.nec, w, t, float(hit_chance(bs, bs - need)))
        self._outcomes[key] = result
        return result

    def _finished_off(self, state: NecromundaState, t: ModelState) -> float:
        """Points a Coup de Grace takes off `t`'s side (FACTS 2.4): what `t` is worth
        Seriously Injured, its odds of recovering by the end (`_si_loss`); its gang's
        count of fighters down, for the Bottle test, is the same either way."""
        return (self.nec.points[t.id] or 50) * (1.0 - self._si_loss(state))

    def _si_loss(self, state: NecromundaState) -> float:
        """The share of a fighter's points lost when it is Seriously Injured: the odds it
        does not recover over the End phases left."""
        return 1.0 - self._recovering(max(1, self.nec.turns - state.turn + 1))

    def _acts(self, state: NecromundaState, f: ModelState) -> tuple[int, int]:
        """`f`'s activations left this round (0 or 1) and later ones the exchange counts
        (weights: `exchange_turns`, this round included)."""
        later = min(self.nec.turns - state.turn, int(self.weights["exchange_turns"]) - 1)
        return (1 if READY in f.flags else 0), max(0, later)

    def _threat(self, state: NecromundaState, f: ModelState) -> float:
        """Points `f`'s best shot may take off the other side where all stand now (an
        activation's worth: aimed unless Pinned), kept for the decision (by its place,
        status and flags: a weapon out of ammo fires nothing)."""
        key = (f.id, f.at, f.status, f.flags - {READY, AIMED})
        found = self._threats.get(key)
        if found is None:
            found = self._threats[key] = self._best(state, f)
        return found

    def _best(self, state: NecromundaState, f: ModelState, *, deny: float = 0.0) -> float:
        """The points `f`'s best shot in an activation may take off the other side:
        from where it stands (aimed unless Pinned), or, with `mobile` (weights), after a
        Move toward the nearest enemy (unaimed); with `deny`, that share of the target's
        own shots it stops (`_denial`) counts too."""
        if f.status not in (*UPRIGHT, PINNED) or BROKEN in f.flags:
            return 0.0
        best = self._shot_from(state, f, f.status in UPRIGHT, deny=deny)
        if f.status in UPRIGHT and self.weights["mobile"]:
            for p in self._advances(state, f):
                moved = f.replace(at=p)
                there = state.with_model(moved)
                best = max(best, self._shot_from(there, moved, False, one=True, deny=deny))
        return best

    def _advances(self, state: NecromundaState, f: ModelState) -> list[Point]:
        """Where `f` may stand after a Move toward its nearest enemy (straight on and
        45 degrees either side, the path clear), kept for the decision."""
        enemy = self.careful._nearest_enemy(state, f)
        if enemy is None:
            return []
        key = (f.id, f.at, enemy.at)
        found = self._moves_memo.get(key)
        if found is not None:
            return found
        found = []
        width, depth = self.nec.table_size
        radius = self.nec.profiles[f.id].radius
        reach = self.nec.profiles[f.id].m
        toward = heading(f.at, enemy.at)
        room = math.dist(f.at, enemy.at) - KEEP_AWAY - 2 * radius
        for turn in (0, 45, -45):
            step = min(reach, room) if turn == 0 else reach
            if step < 0.25:
                continue
            a = math.radians(toward + turn)
            p = (round(f.at[0] + math.cos(a) * step, 3), round(f.at[1] + math.sin(a) * step, 3))
            if not (radius <= p[0] <= width - radius and radius <= p[1] <= depth - radius):
                continue
            if self.nec.path_blocked(state, f.id, (f.at, p)) is None:
                found.append(p)
        self._moves_memo[key] = found
        return found

    def _shot_from(
        self, state: NecromundaState, f: ModelState, aimed: bool, *, one: bool = False,
        deny: float = 0.0,
    ) -> float:  # fmt: skip
        """The points `f`'s best shot from where it stands may take off the other side:
        turned to any target, the closest in that arc free, another by a Cool test;
        `one`: the shot is its last action (no Unwieldy weapon)."""
        # a Pinned fighter stands up first: one action left, no Unwieldy weapon
        usable = self.careful._usable(f, 2 if aimed and not one else 1)
        # the gang's flight counts once, on the shot at hand, not on every later one
        flee = bool(self.weights["exchange_bottle"])
        best = 0.0
        flames = [w for w in usable if w.is_template]
        if flames:  # a template hits the nearest enemy within its reach (no hit roll)
            enemy = self.careful._nearest_enemy(state, f)
            reach = self.nec.flame.length + self.nec.profiles[f.id].radius
            if (
                enemy is not None
                and enemy.status in (*UPRIGHT, PINNED)
                and math.dist(f.at, enemy.at) - self.nec.profiles[enemy.id].radius <= reach
            ):
                for w in flames:
                    _, si, ooa = attack_outcome(self.nec, w, enemy, 1.0)
                    best = max(best, self._loss(state, enemy, si, ooa, bottle=flee))
        guns = [w for w in usable if not w.is_template]
        seen = self._visible(state, f) if guns else []
        if not seen:
            return best
        cool = self._cool(f)
        eye = self.nec.body(f)

        def plain(t: str) -> float:
            victim = state.model(t)
            found = 0.0
            for w in guns:
                hit, si, ooa = self._outcome(state, f, w, victim, aimed)
                value = self._loss(state, victim, si, ooa, bottle=flee)
                if deny and hit:
                    value += deny * self._denial(state, victim, hit, si, ooa)
                found = max(found, value)
            return found

        values = []
        for t, dist in seen:
            value = plain(t)
            facing = heading(f.at, state.model(t).at)
            turned = Body(eye.id, eye.at, eye.radius, eye.height, facing)
            for u, d in seen:
                if d >= dist:
                    break
                if in_arc(turned, self.nec.body(state.model(u)), ARC):
                    value = cool * value + (1 - cool) * plain(u)
                    break
            values.append(value)
        top = max(values)
        # the other targets count a little: the shooter may yet choose one of them
        return max(best, top) + self.weights["exchange_spread"] * (sum(values) - top)

    def _loss(
        self, state: NecromundaState, t: ModelState, si: float, ooa: float, *, bottle: bool = True
    ) -> float:
        """Points `t`'s side may expect to lose when `t` is Seriously Injured with odds
        `si` and taken Out of Action with odds `ooa`: its own (a Seriously Injured
        fighter by its odds of not recovering) and the points of its gang that one more
        fighter down may make flee (bottle tests, `_bottle_cost`)."""
        pts = self.nec.points[t.id] or 50
        value = pts * (ooa + si * self._si_loss(state))
        return value + (si + ooa) * self._bottle_cost(state, t.side) if bottle else value

    def _bottle_cost(self, state: NecromundaState, side: str) -> float:
        """The points of `side`'s fighters in the fight that one more of them down may
        make flee by the end (their odds of staying, `_staying`, with one more down),
        weighed by `bottle` (weights). Kept for the decision."""
        if not self.weights["bottle"]:
            return 0.0
        down = self.nec.down_count(state, side)
        key = (side, down, side in state.bottled, state.turn)
        found = self._bottles.get(key)
        if found is None:
            left = max(0, self.nec.turns - state.turn + 1)
            now = self._staying(state, side, left)
            more = self._staying(state, side, left, extra=1)
            found = self.weights["bottle"] * sum(
                (self.nec.points[m.id] or 50) * (now(m) - more(m))
                for m in state.side_models(side)
                if m.status in (*UPRIGHT, PINNED)
            )
            self._bottles[key] = found
        return found

    def _finish(self, state: NecromundaState, m: ModelState) -> float:
        """The exchange of fire once `m`'s activation is over with `m` where and as
        given (kept for the decision by its place, status and flags (a weapon out of
        ammo or reloaded): facing does not count, a fighter turns when it activates)."""
        done = m.replace(flags=m.flags - {READY, AIMED})
        key = (done.id, done.at, done.status, done.flags)
        found = self._finished.get(key)
        if found is None:
            found = self._finished[key] = self._exchange(state.with_model(done), m.side)
        return found

    def _exchange(self, state: NecromundaState, side: str) -> float:
        """The exchange of fire to `side`: each fighter's best shot (points, exact odds)
        times its activations left that the exchange counts (this round's where all
        stand now, later ones' with the Pinned stood up, one that has activated standing
        up at its next activation, `pinned_later`; a fighter with a weapon out of
        ammo by the odds it reloads it, `exchange_reload`), ours less theirs (theirs
        weighed by `exchange_risk`: a temperament's caution), all by `exchange`."""
        total = 0.0
        deny = self.weights["exchange_deny"]
        # in later rounds a Pinned fighter stands to shoot: no longer hidden by its cover
        up = state
        for f in state.models:
            if f.status == PINNED:
                up = up.with_model(f.replace(status=STANDING))
        for f in state.models:
            if f.status not in (*UPRIGHT, PINNED) or BROKEN in f.flags:
                continue
            now, later = self._acts(state, f)
            value = now * self._best(state, f, deny=deny) if now else 0.0
            if later:
                stood = up.model(f.id)
                full = self._best(up, stood, deny=deny)
                value += later * full
                if f.status == PINNED and not now and self.weights["pinned_later"]:
                    # Pinned past its activation, it stands up at its next one (an action,
                    # FACTS 2.8): then one shot, unaimed, no Unwieldy weapon, no move
                    first = self._shot_from(up, stood, False, one=True, deny=deny)
                    value += first - full
            reloads = self._reloads(f) if self.weights["exchange_reload"] else []
            if reloads:
                # a weapon out of ammo is reloaded first (FACTS 2.6), by the Ammo test's odds
                name, chance = reloads[0]
                loaded = f.replace(flags=f.flags - {out_of_ammo_flag(name)})
                there = state.with_model(loaded)
                again = now * self._best(there, loaded, deny=deny) if now else 0.0
                if later:
                    up_loaded = up.model(f.id).replace(flags=loaded.flags)
                    again += later * self._best(up.with_model(up_loaded), up_loaded, deny=deny)
                value += chance * (again - value)
            risk = self.weights["exchange_risk"] * self._risk
            total += value if f.side == side else -risk * value
        return self.weights["exchange"] * total

    def _reachable(
        self, state: NecromundaState, start: ModelState, at: Point, reach: float
    ) -> list[tuple[Point, float]]:
        """The places of `start`'s pool (`_pool`) within `reach` of `at` by a clear
        straight path, each facing the nearest enemy."""
        out = []
        for p, facing in self._pool(state, start):
            if p == at or math.dist(p, at) > reach + 1e-9:
                continue
            key = (start.id, at, p)
            clear = self._paths.get(key)
            if clear is None:
                clear = self._paths[key] = self.nec.path_blocked(state, start.id, (at, p)) is None
            if clear:
                out.append((p, facing))
        return out

    def _pool(self, state: NecromundaState, m: ModelState) -> list[tuple[Point, float]]:
        """Where `m` may end its activation's moves: a fan toward and away from the
        nearest enemy out to two Moves, and the spots against scenery within two Moves
        nearest that enemy; each facing the enemy. Kept for the decision."""
        key = (m.id, m.at)
        found = self._pools.get(key)
        if found is not None:
            return found
        enemy = self.careful._nearest_enemy(state, m)
        out: list[tuple[Point, float]] = []
        self._pools[key] = out
        if enemy is None:
            return out
        width, depth = self.nec.table_size
        radius = self.nec.profiles[m.id].radius
        reach = self.nec.profiles[m.id].m
        toward = heading(m.at, enemy.at)
        points: list[Point] = []
        for turn in FAN:
            a = math.radians(toward + turn)
            for share in (0.5, 1.0, 2.0):
                points.append(
                    (round(m.at[0] + math.cos(a) * reach * share, 3),
                     round(m.at[1] + math.sin(a) * reach * share, 3))
                )  # fmt: skip
        spots = cover_spots(self.nec.setup, m.at, 2 * reach, radius, every=1.5)
        spots.sort(key=lambda p: math.dist(p, enemy.at))
        points += spots[: int(self.weights.search.get("cover_spots", 8))]
        for p in points:
            if not (radius <= p[0] <= width - radius and radius <= p[1] <= depth - radius):
                continue
            if math.dist(p, enemy.at) < KEEP_AWAY + 2 * radius:
                continue
            out.append((p, round(heading(p, enemy.at), 6)))
        return out
