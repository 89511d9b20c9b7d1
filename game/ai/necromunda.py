"""Automatic Necromunda players.

`SimpleNecromundaPlayer`: activate a fighter that can shoot, turn it to the nearest
enemy, Aim and Shoot at the closest eligible target (so no Cool test is needed), flame
the nearest enemy when no friend is under the template, otherwise advance; stand up
when Pinned, reload when out of ammo. A Leader or Champion it activates leads a group
activation (FACTS 2.8) of the Ready friends within 3" that have a shot, the likeliest to
hit first. Fast: the playtests' default.

`CarefulNecromundaPlayer`: the same turn structure, but the fighter, weapon and target
are chosen by expected damage (exact odds of Seriously Injured and Out of Action,
`attack_outcome`) against the risk of stray shots on friends and of the enemies' shots
back, and a fighter with no shot moves to the point (of a few) where it has the best
shot next or is least exposed; a group activation takes the friends whose shot is worth
taking, the one worth most first. The window's computer player. It does not beat the
simple player yet (20 of 40 games on the demo, sides alternated), so playtests keep the
faster simple one by default (`skirmish playtest --ai careful` asks for it)."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache

from game.errors import IllegalDeclaration
from game.geometry import BodyId
from game.geometry.measures import blast_hits, template_hits
from game.rules.necromunda.data import ENGAGED_GAP, NecromundaWeapon
from game.rules.necromunda.dice import NecromundaDice
from game.rules.necromunda.odds import Shot, Status, Target, TargetState, firepower, resolve_hit
from game.rules.necromunda.odds import hit_chance as exact_hit_chance
from game.sequencer.declarations import Declaration
from game.sequencer.engine import Awaiting
from game.sequencer.necromunda import COUP_DE_GRACE_REACH, NecromundaEngine
from game.sequencer.necromunda_fire import ARC, SAVE_BONUS, heading
from game.sequencer.necromunda_targeting import armour_save
from game.sequencer.necromunda_types import (
    BLAZE,
    BROKEN,
    FLESH_WOUNDS,
    OUT_OF_ACTION,
    PINNED,
    SERIOUSLY_INJURED,
    STANDING,
    UPRIGHT,
    Act,
    Action,
    ActionKind,
    EndActivation,
    NecromundaState,
    jammed_flag,
    out_of_ammo_flag,
)
from game.sequencer.state import GameState, ModelState

Point = tuple[float, float]
ANGLES = (0, 30, -30, 60, -60, 90, -90)
KEEP_AWAY = 1.5  # inches short of the enemy: this player does not fight in melee
# What the careful player counts a result as worth (an enemy taken out is 1).
WORTH_OOA = 1.0
WORTH_SI = 0.6  # down and may recover, or bleed out
WORTH_PIN = 0.1  # a hit that only pins
STRAY_ON = 0.5  # Necromunda: a stray check hits on D6 1-3
RISK_WEIGHT = 0.4  # the enemies' shots back count for this much of what ours are worth
# an enemy this much past a gun's long range is out of it (the range test allows 1e-9)
OUT_OF_REACH = 1e-6
# Coup de Grace (FACTS 2.4): a Seriously Injured enemy finished off is worth what a shot
# that takes it out is (`worth` counts no Seriously Injured for a fighter down already)
WORTH_COUP = WORTH_OOA
# a Move to finish one off ends this far from its base, edge to edge (within the 1")
COUP_GAP = COUP_DE_GRACE_REACH / 2
# the headings around the enemy tried for that end, from the one facing the mover
COUP_HEADINGS = (0, 45, -45, 90, -90, 135, -135, 180)
# and this much farther than base contact from every enemy still in the fight
CONTACT_CLEAR = 0.05


@lru_cache(maxsize=4096)
def _hit_states(
    dice: NecromundaDice, strength: int, ap: int, damage: int, rapid_fire: int,
    toughness: int, wounds: int, save: int | None, bonus: int, flesh: int, down: bool,
) -> tuple[float, tuple[tuple[bool, TargetState, float], ...]]:  # fmt: skip
    """Given the hit roll passed: P at least one hit, and each (at least one hit, the
    target's state after every hit it brings, odds), exact (Rapid Fire: the Firepower
    dice's holes, none a miss; a state per number of hits, in that order)."""
    shot = Shot(bs=2, strength=strength, ap=ap, damage=damage, rapid_fire=rapid_fire)
    goal = Target(toughness, wounds, save, bonus)
    start = TargetState(wounds, flesh, Status.SERIOUSLY_INJURED if down else Status.STANDING)
    hits: dict[int, float] = {}
    if rapid_fire:
        fp = firepower(shot, dice)
        for (holes, _), ways in fp.counts.items():
            hits[holes] = hits.get(holes, 0.0) + ways / fp.total
    else:
        hits[1] = 1.0
    out: list[tuple[bool, TargetState, float]] = []
    some = 0.0
    for n, p in hits.items():
        if n:
            some += p
        states: dict[TargetState, float] = {start: 1.0}
        for _ in range(n):
            after: dict[TargetState, float] = {}
            for s, q in states.items():
                d = resolve_hit(s, shot, goal, dice)
                for s2, ways in d.counts.items():
                    after[s2] = after.get(s2, 0.0) + q * ways / d.total
            states = after
        out += [(n > 0, s, p * q) for s, q in states.items()]
    return some, tuple(out)


@lru_cache(maxsize=4096)
def _after_hit(
    dice: NecromundaDice, strength: int, ap: int, damage: int, rapid_fire: int,
    toughness: int, wounds: int, save: int | None, bonus: int, flesh: int, down: bool,
) -> tuple[float, float, float, float]:  # fmt: skip
    """Given the hit roll passed: (P at least one hit, P wounded and still up, P Seriously
    Injured, P Out of Action) after every hit it brings (`_hit_states`), exact. Wounded
    and still up: a Wound or a Flesh Wound taken, and neither Seriously Injured nor Out
    of Action after it."""
    hurt = si = ooa = 0.0
    some, states = _hit_states(
        dice, strength, ap, damage, rapid_fire, toughness, wounds, save, bonus, flesh, down
    )
    for _, s, q in states:
        if s.status is Status.OUT_OF_ACTION:
            ooa += q
        elif s.status is Status.SERIOUSLY_INJURED and not down:
            si += q
        elif s.status is Status.STANDING and (s.wounds < wounds or s.flesh_wounds > flesh):
            hurt += q
    return some, hurt, si, ooa


def attack_outcome(
    engine: NecromundaEngine, weapon: NecromundaWeapon, victim: ModelState, chance: float,
    bonus: int = 0,
) -> tuple[float, float, float]:  # fmt: skip
    """(P hit, P Seriously Injured, P Out of Action) of one attack on `victim` whose hit
    roll passes with `chance` (1 for a template's certain hit), exact from
    game.rules.necromunda.odds: wound roll, save with AP and `bonus`, damage, Injury
    dice, with the Flesh Wounds and Wounds the fighter has already taken. The save is
    the engine's (`armour_save`: Flak is 5+ against blasts and templates, FACTS 2.5)."""
    if chance <= 0 or victim.status == OUT_OF_ACTION:
        return 0.0, 0.0, 0.0
    some, _, si, ooa = _given_hit(engine, weapon, victim, bonus)
    return chance * some, chance * si, chance * ooa


def wounded_outcome(
    engine: NecromundaEngine,
    weapon: NecromundaWeapon,
    victim: ModelState,
    chance: float,
    bonus: int = 0,
) -> float:
    """P of `attack_outcome`'s attack leaving `victim` wounded and still up (a Wound or a
    Flesh Wound taken, neither Seriously Injured nor Out of Action): `skirmish shoot`'s
    "wounded, not down" (a 2-Wound leader read hit 0.478, SI 0, OOA 0)."""
    if chance <= 0 or victim.status == OUT_OF_ACTION:
        return 0.0
    return chance * _given_hit(engine, weapon, victim, bonus)[1]


def hit_outcomes(
    engine: NecromundaEngine, weapon: NecromundaWeapon, victim: ModelState, bonus: int = 0
) -> list[tuple[float, ModelState]]:
    """Each way `victim` may stand after a hit roll of `weapon` passed on it, with its
    exact odds (`_hit_states`): its Wounds, Flesh Wounds and status as the engine leaves
    them (FACTS 2.4: Out of Action, Seriously Injured, or still up and Pinned by the hit;
    a fighter already down or Pinned keeps its status). Outcomes alike are merged."""
    if victim.status == OUT_OF_ACTION:
        return [(1.0, victim)]
    p = engine.profiles[victim.id]
    _, states = _hit_states(
        engine.dice, weapon.strength, weapon.ap, weapon.damage, weapon.rapid_fire,
        p.t, max(0, p.w - victim.wounds), armour_save(p, weapon), bonus,
        victim.marker(FLESH_WOUNDS), victim.status == SERIOUSLY_INJURED,
    )  # fmt: skip
    merged: dict[ModelState, float] = {}
    for hit, s, q in states:
        if s.status is Status.OUT_OF_ACTION:
            status = OUT_OF_ACTION
        elif s.status is Status.SERIOUSLY_INJURED:
            status = SERIOUSLY_INJURED
        elif hit and victim.status == STANDING:
            status = PINNED
        else:
            status = victim.status
        after = victim.with_marker(FLESH_WOUNDS, s.flesh_wounds).replace(
            status=status, wounds=min(p.w, p.w - s.wounds)
        )
        merged[after] = merged.get(after, 0.0) + q
    return [(q, m) for m, q in merged.items()]


def _given_hit(
    engine: NecromundaEngine, weapon: NecromundaWeapon, victim: ModelState, bonus: int
) -> tuple[float, float, float, float]:
    """`_after_hit` of a hit of `weapon` on `victim` as it stands."""
    p = engine.profiles[victim.id]
    return _after_hit(
        engine.dice, weapon.strength, weapon.ap, weapon.damage, weapon.rapid_fire,
        p.t, max(0, p.w - victim.wounds), armour_save(p, weapon), bonus,
        victim.marker(FLESH_WOUNDS),
        victim.status == SERIOUSLY_INJURED,
    )  # fmt: skip


def template_outcome(
    engine: NecromundaEngine,
    state: NecromundaState,
    shooter: str,
    weapon: NecromundaWeapon,
    victim: ModelState,
) -> tuple[float, float, float]:
    """`attack_outcome` of a template's certain hit on `victim`, with the save bonus of
    the victim's cover judged from the attacker (FACTS 2.5), as the engine resolves it."""
    return attack_outcome(engine, weapon, victim, 1.0, cover_bonus(engine, state, shooter, victim))


def cover_bonus(
    engine: NecromundaEngine, state: NecromundaState, shooter: str, victim: ModelState
) -> int:
    """The save bonus of `victim`'s cover judged from `shooter` (FACTS 2.5)."""
    return SAVE_BONUS.get(engine.sighting(state, shooter, victim.id).cover, 0)


def worth(outcome: tuple[float, float, float]) -> float:
    hit, si, ooa = outcome
    return WORTH_OOA * ooa + WORTH_SI * si + WORTH_PIN * hit


def coup_de_grace(engine: NecromundaEngine, state: NecromundaState, m: ModelState) -> Action | None:
    """A Coup de Grace `m` may take now (FACTS 2.4: on a Seriously Injured enemy within
    1", a sure Out of Action of a fighter that might recover), on the nearest, or None."""
    targets = engine.coup_de_grace_targets(state, m.id)
    return Action.coup_de_grace(targets[0]) if targets else None


def coup_spots(
    engine: NecromundaEngine, state: NecromundaState, m: ModelState
) -> list[tuple[Point, str]]:
    """Where a Move of `m` ends within 1" of a Seriously Injured enemy, to finish it off
    with its next action (FACTS 2.4), and that enemy: for each one within reach, the
    first of a few points `COUP_GAP` from its base (the one facing `m` first) that `m`
    reaches by a clear straight Move, on the table, in base contact with no enemy still
    in the fight (that would make it Engaged, and an Engaged fighter takes none); the
    shortest Move first. None for a fighter that may take no Coup de Grace."""
    if engine.coup_de_grace_unable(m):
        return []
    reach = engine.profiles[m.id].m
    radius = engine.radius
    width, depth = engine.table_size
    standing = [e for e in state.models if e.side != m.side and e.status in (*UPRIGHT, PINNED)]
    out: list[tuple[float, Point, str]] = []
    for t in state.models:
        if t.side == m.side or t.status != SERIOUSLY_INJURED:
            continue
        apart = radius[m.id] + radius[t.id] + COUP_GAP
        if math.dist(m.at, t.at) - apart > reach + 1e-9:
            continue
        facing_me = heading(t.at, m.at)
        for turn in COUP_HEADINGS:
            a = math.radians(facing_me + turn)
            p = (round(t.at[0] + math.cos(a) * apart, 6), round(t.at[1] + math.sin(a) * apart, 6))
            length = math.dist(m.at, p)
            r = radius[m.id]
            if length > reach - 1e-6 or not (r <= p[0] <= width - r and r <= p[1] <= depth - r):
                continue
            if any(
                math.dist(p, e.at) - r - radius[e.id] <= ENGAGED_GAP + CONTACT_CLEAR
                for e in standing
            ):
                continue
            if engine.path_blocked(state, m.id, (m.at, p)) is None:
                out.append((length, p, t.id))
                break
    out.sort()
    return [(p, t) for _, p, t in out]


class SimpleNecromundaPlayer:
    """Chooses declarations for whichever side the game awaits."""

    def __init__(self, engine: NecromundaEngine) -> None:
        self.engine = engine
        # the weapons a fighter may fire, by its flags and whether it has both actions
        self._usable_memo: dict[tuple[str, frozenset[str], bool], tuple[NecromundaWeapon, ...]] = {}
        self._templates: dict[str, bool] = {}  # whether each weapon is a template one

    def choose(self, state: GameState, awaiting: Awaiting) -> Declaration:
        assert isinstance(state, NecromundaState)
        if awaiting.kind == "activate":
            return self._activate(state, awaiting.models)
        if awaiting.kind == "action":
            m = state.model(awaiting.models[0])
            action = self._action(state, m)
            return Act(m.id, action) if action is not None else EndActivation()
        raise ValueError(f"nothing to choose when awaiting {awaiting.kind}")

    # -- which fighter ------------------------------------------------------------

    def _activate(self, state: NecromundaState, ready: tuple[str, ...]) -> Declaration:
        burning = next((f for f in ready if BLAZE in state.model(f).flags), None)
        if burning is not None:  # FACTS 2.9, Blaze: the flames take its activation
            return EndActivation(burning)
        chosen = self._first(state, ready)
        if isinstance(chosen, Act) and state.leading is None:
            group = self._group(state, state.model(chosen.model))
            if group:  # FACTS 2.8: a Leader or Champion brings friends with a shot along
                return replace(chosen, group=group)
        return chosen

    def _group(self, state: NecromundaState, leader: ModelState) -> tuple[str, ...]:
        """The fighters `leader` nominates for a group activation (FACTS 2.8: "Leaders
        may group-activate 2 fighters within 3\", Champions 1"): the Ready friends it may
        take that have a shot from where they stand, best first (`_shot_worth`)."""
        most = self.engine.group_size(leader.id)
        if not most:
            return ()
        ranked: list[tuple[float, str]] = []
        for f in state.side_models(leader.side):
            if f.id == leader.id or f.status not in UPRIGHT or f.flags & {BROKEN, BLAZE}:
                continue
            if self.engine.may_join(state, leader.id, f.id) is not None:
                continue
            facing = self._face_enemy(state, f)
            turned = state if facing == f.facing else state.with_model(f.replace(facing=facing))
            shot = self._shot(turned, turned.model(f.id), actions_left=2)
            if shot is not None:
                ranked.append((-self._shot_worth(turned, f.id, shot), f.id))
        return tuple(f for _, f in sorted(ranked)[:most])

    def _shot_worth(self, state: NecromundaState, model_id: str, shot: Action) -> float:
        """How good `shot` is, to rank the fighters of a group: the chance it hits (a
        template's, certain, 1)."""
        if shot.target is None or shot.weapon is None:
            return 1.0
        weapon = self.engine.weapon(model_id, shot.weapon)
        plan = self.engine.hit_plan(state, model_id, weapon, target=shot.target)
        bs = self.engine.profiles[model_id].bs
        return float(exact_hit_chance(bs, bs - plan.need))

    def _first(self, state: NecromundaState, ready: tuple[str, ...]) -> Declaration:
        """The fighter to activate and its first action."""
        fighters = [state.model(f) for f in ready]
        # A Coup de Grace first: a sure Out of Action (FACTS 2.4)
        for m in fighters:
            coup = coup_de_grace(self.engine, state, m)
            if coup is not None:
                return Act(m.id, coup)
        # Fighters that can shoot go first, then the rest.
        for m in fighters:
            if m.status not in UPRIGHT or BROKEN in m.flags:
                continue
            facing = self._face_enemy(state, m)
            turned = state if facing == m.facing else state.with_model(m.replace(facing=facing))
            shot = self._shot(turned, turned.model(m.id), actions_left=2)
            if shot is not None:
                first = Action.aim() if self._worth_aiming(turned, m.id, shot) else shot
                return Act(m.id, first, turn_to=facing if facing != m.facing else None)
        for m in fighters:
            started = state.replace(activating=m.id, actions_left=2, used=())
            action = self._action(started, m)
            if action is not None:
                return Act(m.id, action)
        return EndActivation(fighters[0].id)

    def _face_enemy(self, state: GameState, m: ModelState) -> float:
        enemy = self._nearest_enemy(state, m)
        return m.facing if enemy is None else round(heading(m.at, enemy.at), 6)

    def _worth_aiming(self, state: NecromundaState, model_id: str, shot: Action) -> bool:
        if shot.weapon is None or shot.direction is not None:
            return False
        weapon = self.engine.weapon(model_id, shot.weapon)
        return weapon.trait("Unwieldy") is None

    # -- which action -------------------------------------------------------------

    def _action(self, state: NecromundaState, m: ModelState) -> Action | None:
        left = state.actions_left
        used = set(state.used)
        if m.status == SERIOUSLY_INJURED or m.status == OUT_OF_ACTION:
            return None
        if BROKEN in m.flags:  # Necromunda: a Broken fighter may only Run for Cover
            return Action.run_for_cover() if left >= 2 else None
        if m.status == PINNED:
            if ActionKind.STAND_UP.value in used:
                return None
            return Action.stand_up(facing=self._face_enemy(state, m))
        coup = coup_de_grace(self.engine, state, m)
        if coup is not None:  # FACTS 2.4: a Seriously Injured enemy within 1", taken out
            return coup
        if ActionKind.SHOOT.value not in used:
            shot = self._shot(state, m, left)
            if shot is not None:
                aim_ok = ActionKind.AIM.value not in used and left >= 2
                if aim_ok and self._worth_aiming(state, m.id, shot):
                    return Action.aim()
                return shot
        for name in self.engine.weapons[m.id]:
            if out_of_ammo_flag(name) in m.flags and jammed_flag(name) not in m.flags:
                weapon = self.engine.weapon(m.id, name)
                if weapon.trait("Scarce") is None and weapon.trait("Grenade") is None:
                    return Action.reload(name)
        if ActionKind.AIM.value in used:
            return None  # aimed but the target is gone: keep still
        return self._advance(state, m)

    def _usable(self, m: ModelState, left: int) -> tuple[NecromundaWeapon, ...]:
        key = (m.id, m.flags, left >= 2)
        found = self._usable_memo.get(key)
        if found is None:
            found = self._usable_memo[key] = tuple(
                weapon for weapon in self.engine.weapons_of(m.id)
                if out_of_ammo_flag(weapon.name) not in m.flags
                and jammed_flag(weapon.name) not in m.flags
                and (left >= 2 or weapon.trait("Unwieldy") is None)
            )  # fmt: skip
        return found

    def _template(self, weapon: NecromundaWeapon) -> bool:
        found = self._templates.get(weapon.name)
        if found is None:
            found = self._templates[weapon.name] = weapon.is_template
        return found

    def _shot(self, state: NecromundaState, m: ModelState, actions_left: int) -> Action | None:
        """The best shot from where the fighter stands, or None."""
        # only the closest eligible target is ever shot at: the others are not sighted,
        # nor is any enemy beyond the longest reach of the guns (a target that far is out
        # of range of every one of them, and so is any farther one)
        usable = [(w, self._template(w)) for w in self._usable(m, actions_left)]
        guns = [self.engine.long_range(m.id, w) for w, template in usable if not template]
        targets: list[str] = []
        if guns:
            standing = {t.id for t in state.models if t.status != SERIOUSLY_INJURED}
            nearer = max(guns) + OUT_OF_REACH
            eligible = self.engine.eligible(
                state, m.id, ARC, among=standing, limit=1, nearer=nearer
            )
            targets = [t for t, _ in eligible]
        best: tuple[tuple[int, int], Action] | None = None
        for weapon, template in usable:
            if template:
                action = self._flame(state, m, weapon)
                if action is not None:
                    key = (0, weapon.strength + 2)  # auto-hits: worth more than a shot
                    if best is None or key > best[0]:
                        best = (key, action)
                continue
            if not targets:
                continue
            target = targets[0]  # the closest: target priority needs no Cool test
            plan = self.engine.hit_plan(state, m.id, weapon, target=target)
            if plan.out_of_range or plan.need > 6:
                continue
            key = (-plan.need, weapon.strength)
            if best is None or key > best[0]:
                best = (key, Action.shoot(weapon.name, target))
        return best[1] if best is not None else None

    def _flame(
        self, state: NecromundaState, m: ModelState, weapon: NecromundaWeapon
    ) -> Action | None:
        enemy = self._nearest_enemy(state, m)
        if enemy is None:
            return None
        size = self.engine.flame
        reach = size.length + self.engine.profiles[m.id].radius
        if math.dist(m.at, enemy.at) > reach:
            return None
        direction = round(heading(m.at, enemy.at), 6)
        try:
            origin = self.engine.template_origin(m, weapon, direction, ARC)
        except IllegalDeclaration:
            return None
        table = self.engine.table_at(state)
        under = template_hits(
            table, origin, direction, size.length, size.width, exclude=(BodyId(m.id),)
        )
        sides = {state.model(str(b)).side for b in under}
        if enemy.id not in {str(b) for b in under} or m.side in sides:
            return None
        return Action.flame(weapon.name, direction)

    def _nearest_enemy(self, state: GameState, m: ModelState) -> ModelState | None:
        enemies = [t for t in state.models if t.side != m.side and t.status != OUT_OF_ACTION]
        return min(enemies, key=lambda t: (math.dist(t.at, m.at), t.id), default=None)

    def _advance(self, state: NecromundaState, m: ModelState) -> Action | None:
        """A Move to finish off a Seriously Injured enemy with the next action, where one
        reaches (`coup_spots`); else toward the nearest enemy, stopping short of it."""
        if state.actions_left >= 2:
            spots = coup_spots(self.engine, state, m)
            if spots:
                p, t = spots[0]
                return Action.move(p, facing=round(heading(p, state.model(t).at), 6))
        enemy = self._nearest_enemy(state, m)
        if enemy is None:
            return None
        toward = heading(m.at, enemy.at)
        allowance = self.engine.profiles[m.id].m
        room = math.dist(m.at, enemy.at) - KEEP_AWAY - 2 * self.engine.profiles[m.id].radius
        for length in (allowance, allowance / 2):
            step = min(length, room)
            if step < 0.25:
                return None
            for turn in ANGLES:
                angle = math.radians(toward + turn)
                end = (
                    round(m.at[0] + math.cos(angle) * step, 6),
                    round(m.at[1] + math.sin(angle) * step, 6),
                )
                if self.engine.path_blocked(state, m.id, (m.at, end)) is None:
                    return Action.move(end, facing=round(heading(end, enemy.at), 6))
        return None


class CarefulNecromundaPlayer(SimpleNecromundaPlayer):
    """Chooses by expected damage against risk (see the module's note)."""

    def _value(
        self, state: NecromundaState, m: ModelState, weapon: NecromundaWeapon, action: Action
    ) -> float:
        """Expected worth of a shot: enemies hit minus friends hit (strays, blasts, flames)."""
        engine = self.engine
        if action.direction is not None:  # a template: everyone under it is hit
            size = engine.flame
            origin = engine.template_origin(m, weapon, action.direction, ARC)
            under = template_hits(
                engine.table_at(state), origin, action.direction, size.length, size.width,
                exclude=(BodyId(m.id),),
            )  # fmt: skip
            return sum(self._sign(m, str(v), state) * worth(template_outcome(
                engine, state, m.id, weapon, state.model(str(v)))) for v in under)  # fmt: skip
        assert action.target is not None
        plan = engine.hit_plan(state, m.id, weapon, target=action.target)
        if plan.out_of_range:
            return 0.0
        bs = engine.profiles[m.id].bs
        chance = float(exact_hit_chance(bs, bs - plan.need))
        if weapon.blast_diameter is not None:
            centre, _ = engine.blast_centre(state, m.id, weapon, state.model(action.target).at)
            under = blast_hits(engine.table_at(state), centre, weapon.blast_diameter / 2)
            total = 0.0
            for v in under:
                victim = state.model(str(v))
                bonus = SAVE_BONUS.get(engine.cover_from_point(state, centre, victim.id), 0)
                total += self._sign(m, victim.id, state) * worth(
                    attack_outcome(engine, weapon, victim, chance, bonus)
                )
            return total
        target = state.model(action.target)
        value = worth(attack_outcome(engine, weapon, target, chance))
        # Stray shots: a miss may hit a friend near the line (D6 1-3, nearest first).
        for bystander in engine.at_risk(state, m.id, target.id):
            if state.model(bystander).side == m.side:
                value -= (
                    (1 - chance)
                    * STRAY_ON
                    * worth(attack_outcome(engine, weapon, state.model(bystander), 1.0))
                )
                break
        return value

    @staticmethod
    def _sign(m: ModelState, victim: str, state: GameState) -> float:
        return 1.0 if state.model(victim).side != m.side else -1.5

    def _shot(self, state: NecromundaState, m: ModelState, actions_left: int) -> Action | None:
        """The shot worth most from where the fighter stands (any eligible target: the
        closest needs no Cool test, another is worth its odds of passing one)."""
        eligible = self.engine.eligible(state, m.id, ARC, limit=4)
        best: tuple[float, Action] | None = None
        for weapon in self._usable(m, actions_left):
            candidates: list[Action] = []
            if weapon.is_template:
                flame = self._flame(state, m, weapon)
                if flame is not None:
                    candidates.append(flame)
            else:
                candidates = [Action.shoot(weapon.name, t) for t, _ in eligible]
            for k, action in enumerate(candidates):
                try:
                    value = self._value(state, m, weapon, action)
                except IllegalDeclaration:
                    continue
                if k > 0 and action.target is not None:
                    value *= self._cool(m)
                if value > 0.02 and (best is None or value > best[0]):
                    best = (value, action)
        return best[1] if best is not None else None

    def _cool(self, m: ModelState) -> float:
        """Necromunda: the chance of passing a Cool test (2D6 >= Cl; a 2 fails)."""
        return self.engine.cool_odds(m.id)

    def _danger(self, state: NecromundaState, m: ModelState) -> float:
        """What the enemies that see the fighter could do to it with their first weapon."""
        total = 0.0
        for e in state.models:
            if e.side == m.side or e.status not in UPRIGHT:
                continue
            weapons = self._usable(e, 2)
            if not weapons or weapons[0].is_template:
                continue
            try:
                s = self.engine.sighting(state.with_model(e.replace(facing=heading(e.at, m.at))),
                                         e.id, m.id)  # fmt: skip
            except KeyError:
                continue
            if not s.lof or self.engine.hidden(state, m, s):
                continue
            plan = self.engine.hit_plan(state, e.id, weapons[0], target=m.id)
            if plan.out_of_range:
                continue
            bs = self.engine.profiles[e.id].bs
            chance = float(exact_hit_chance(bs, bs - plan.need))
            total += worth(attack_outcome(self.engine, weapons[0], m, chance))
        return total

    def _advance(self, state: NecromundaState, m: ModelState) -> Action | None:
        """Of a few points within the Move, the one with the best shot next (for the
        fighter's second action) less the enemies' shots at it there."""
        enemy = self._nearest_enemy(state, m)
        if enemy is None:
            return None
        allowance = self.engine.profiles[m.id].m
        toward = heading(m.at, enemy.at)
        room = math.dist(m.at, enemy.at) - KEEP_AWAY - 2 * self.engine.profiles[m.id].radius
        best = self._coup_move(state, m)
        for turn in (0, 30, -30, 60, -60):
            for length in (allowance, allowance / 2):
                step = min(length, room) if turn == 0 else length
                if step < 0.25:
                    continue
                angle = math.radians(toward + turn)
                end = (
                    round(m.at[0] + math.cos(angle) * step, 6),
                    round(m.at[1] + math.sin(angle) * step, 6),
                )
                w, d = self.engine.table_size
                if not (0.5 <= end[0] <= w - 0.5 and 0.5 <= end[1] <= d - 0.5):
                    continue
                if self.engine.path_blocked(state, m.id, (m.at, end)) is not None:
                    continue
                facing = round(heading(end, enemy.at), 6)
                moved = m.replace(at=end, facing=facing)
                there = state.with_model(moved)
                shot = self._shot(there, moved, 1) if state.actions_left >= 2 else None
                value = self._value_of(there, moved, shot) - RISK_WEIGHT * self._danger(
                    there, moved
                )
                value += 0.01 * (1 if turn == 0 else 0)  # ties: close in
                if best is None or value > best[0]:
                    best = (value, Action.move(end, facing=facing))
        return best[1] if best is not None else super()._advance(state, m)

    def _coup_move(self, state: NecromundaState, m: ModelState) -> tuple[float, Action] | None:
        """The best Move to finish off a Seriously Injured enemy with the next action
        (FACTS 2.4; `coup_spots`), with its worth: the Out of Action less the enemies'
        shots at the fighter there (`_danger`); None when the fighter has not both actions
        left or no Move reaches one."""
        if state.actions_left < 2:
            return None
        best: tuple[float, Action] | None = None
        for p, t in coup_spots(self.engine, state, m):
            facing = round(heading(p, state.model(t).at), 6)
            moved = m.replace(at=p, facing=facing)
            value = WORTH_COUP - RISK_WEIGHT * self._danger(state.with_model(moved), moved)
            if best is None or value > best[0]:
                best = (value, Action.move(p, facing=facing))
        return best

    def _first(self, state: NecromundaState, ready: tuple[str, ...]) -> Declaration:
        """A Coup de Grace first where one is legal (`SimpleNecromundaPlayer._first`);
        then a Move to finish one off where it is worth more than the fighter's best shot
        from where it stands (the most worth first); else as the simple player."""
        best: tuple[float, Act] | None = None
        for f in ready:
            m = state.model(f)
            if coup_de_grace(self.engine, state, m) is not None:
                return super()._first(state, ready)
            started = state.replace(activating=m.id, actions_left=2, used=())
            move = self._coup_move(started, m) if m.status in UPRIGHT else None
            if move is None or (best is not None and move[0] <= best[0]):
                continue
            facing = self._face_enemy(state, m)
            turned = started.with_model(m.replace(facing=facing))
            shot = self._shot(turned, turned.model(m.id), 2)
            if move[0] > self._value_of(turned, turned.model(m.id), shot):
                best = (move[0], Act(m.id, move[1]))
        return best[1] if best is not None else super()._first(state, ready)

    def _shot_worth(self, state: NecromundaState, model_id: str, shot: Action) -> float:
        """The shot's expected worth (`_value`): it was taken for being worth more than
        this player's least (0.02)."""
        return self._value_of(state, state.model(model_id), shot)

    def _value_of(self, state: NecromundaState, m: ModelState, shot: Action | None) -> float:
        if shot is None or shot.weapon is None:
            return 0.0
        try:
            return self._value(state, m, self.engine.weapon(m.id, shot.weapon), shot)
        except IllegalDeclaration:
            return 0.0
