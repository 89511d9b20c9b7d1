"""Necromunda shooting on the sequencer, in the seed's five steps (seed 004, FACTS 2.3-2.7);
who may be targeted and the hit modifiers are in `necromunda_targeting`, this module
rolls the dice:

1. Declare: a weapon and an eligible target (closest visible enemy; a Cool test on 2D6
   to pick another, unless the closer ones are Seriously Injured or harder to hit;
   prone fighters in cover are hidden), a point for a Blast weapon, or a direction for
   a Template weapon.
2. Range: beyond Long range the attack misses (the Firepower die is still rolled); a
   blast centre beyond Long range is pulled straight back to it.
3. Hit roll: BS with cover, Accuracy, Engaged, Prone at long range, point (-2), Aim
   (+1) and Blind Fire (-2); improbable shots (7+) need a 6 then a plain BS test.
   A miss becomes stray shots (fighters engaged with the target or within 1" of the
   line, nearest the shooter first, D6 1-3 hits; once per hit the attack would have
   caused); a missed blast scatters D6" or misfires. A Blast with Rapid Fire places a
   blast per bullet hole (the extras within 3"), each scattering on its own on a miss.
   A Rapid Fire hit scores the Firepower dice's bullet holes: the first on the target,
   the others on enemies the firer named within 3" of it, in range and sight and no
   harder to hit (FACTS 2.6), the rest on the target.
4. Every Standing Active fighter hit is Pinned.
5. Each hit: Knockback (`necromunda_traits`), wound roll, save (AP, cover bonus for
   blasts and templates), damage, Injury dice, then Blaze's D6 to catch fire.

Dice are drawn in this order, which scripted tests rely on: Cool test (2D6), hit roll,
Firepower dice, Ammo tests, then scatter die, scatter D6, misfire D6 (or the scatter
direction from `rng.uniform`), stray-shot D6s, and per hit: Knockback's D6 (a fighter
not hit by the firer's own hit roll; its direction from `rng.uniform` when a blast's
centre is on it), wound, save, Injury dice, Blaze's D6.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from game.errors import IllegalDeclaration
from game.geometry import BodyId, edge_distance
from game.geometry.measures import blast_hits, scatter, teardrop, template_hits, template_missed
from game.rules.necromunda.data import NecromundaProfile, NecromundaWeapon
from game.rules.necromunda.dice import FlameTemplate, InjuryResult, NecromundaDice
from game.rules.necromunda.odds import injury_dice_for, save_target, wound_target
from game.sequencer.events import Event, Hit, Missed, Modifier, Rolled, StateChanged, Wounded
from game.sequencer.necromunda_targeting import (
    ARC,
    ARC_SLACK,
    D6,
    RAPID_FIRE_REACH,
    SAVE_BONUS,
    STRAY_HITS_ON,
    HitPlan,
    Point,
    angle_off,
    armour_save,
    d6,
    heading,
    point_said,
)
from game.sequencer.necromunda_traits import PUSHED, NecromundaTraits
from game.sequencer.necromunda_types import (
    ACTIONS_PER_ACTIVATION,
    AIMED,
    FLESH_WOUNDS,
    OUT_OF_ACTION,
    PINNED,
    READY,
    SERIOUSLY_INJURED,
    STANDING,
    UPRIGHT,
    Action,
    ActionKind,
    AmmoChanged,
    BlastPlaced,
    BlastRemoved,
    FirepowerRolled,
    InjuryRolled,
    Misfired,
    NecromundaState,
    Scattered,
    ScatterRolled,
    StrayChecked,
    TargetChanged,
    TemplatePlaced,
    jammed_flag,
    out_of_ammo_flag,
    status_said,
)
from game.sequencer.sentences import heading as compass
from game.sequencer.sight import Sight
from game.sequencer.state import GameState, ModelState
from game.words import joined, over

# names the rest of the game imports from here
__all__ = ["ARC", "D6", "SAVE_BONUS", "Hits", "NecromundaFire", "d6", "heading"]


@dataclass(frozen=True, slots=True)
class Hits:
    """Fighters hit, in resolution order, each with its save bonus; for Knockback, the
    point each is pushed away from (`away`: the firer's place, or its blast's centre)
    and `roll`, the hit roll's die when the hits came from it (0: each rolls a D6)."""

    items: tuple[tuple[str, int], ...] = ()
    away: tuple[Point, ...] = ()
    roll: int = 0

    def each(self) -> list[tuple[str, int, Point | None, int]]:
        """(victim, save bonus, pushed away from, roll) for each hit, in order: a fighter
        the one hit roll hit more than once (Rapid Fire) compares it at its first hit
        only (FACTS 2.9: "hit roll >= target S pushes it 1""), PUSHED at the others."""
        away: list[Point | None] = [*self.away, *[None] * (len(self.items) - len(self.away))]
        out, seen = [], set()
        for (v, b), a in zip(self.items, away, strict=True):
            out.append((v, b, a, PUSHED if self.roll and v in seen else self.roll))
            seen.add(v)
        return out


def known(state: NecromundaState, fighter: str) -> str:
    """`fighter`, refused where the table has no such fighter."""
    try:
        state.model(fighter)
    except KeyError:
        raise IllegalDeclaration(f"there is no fighter {fighter!r}") from None
    return fighter


class NecromundaFire(NecromundaTraits):
    """The shooting half of the Necromunda engine (mixed into `NecromundaEngine`): the
    dice of an attack; who may be shot and how hard comes from `NecromundaTargeting`."""

    sight: Sight
    profiles: dict[str, NecromundaProfile]
    weapons: dict[str, tuple[str, ...]]
    dice: NecromundaDice
    flame: FlameTemplate
    all_weapons: Mapping[str, object]
    table_size: tuple[float, float]

    # -- the attack ----------------------------------------------------------------

    @staticmethod
    def shooter_refused(me: ModelState, weapon: NecromundaWeapon, blind: bool) -> str | None:
        """Why `me` may not shoot `weapon` (`blind`: fire it blind) whatever it aims at,
        or None: a jammed weapon, one out of ammo, Blind Fire by a fighter not Pinned,
        a shot by one not Standing."""
        shooter = me.id
        if jammed_flag(weapon.name) in me.flags:
            return f"{shooter}'s {weapon.name} is jammed for the battle"
        if out_of_ammo_flag(weapon.name) in me.flags:
            return f"{shooter}'s {weapon.name} is out of ammo (Reload first)"
        if blind and me.status != PINNED:
            return "only a Pinned fighter may Blind Fire"
        if not blind and me.status not in UPRIGHT:
            return f"{shooter} is {status_said(me.status)}: only Blind Fire when Pinned"
        return None

    def check_shot(
        self, state: NecromundaState, shooter: str, action: Action
    ) -> tuple[NecromundaWeapon, float]:
        """The weapon and the arc; raises IllegalDeclaration for a shot the rules forbid."""
        me = state.model(shooter)
        blind = action.kind is ActionKind.BLIND_FIRE
        weapon = self.weapon(shooter, action.weapon)
        refused = self.shooter_refused(me, weapon, blind)
        if refused:
            raise IllegalDeclaration(refused)
        arc = 360.0 if blind else ARC
        if weapon.is_template:
            if action.direction is None:
                raise IllegalDeclaration(f"{weapon.name} is a template: give a direction")
            if action.at is not None:
                raise IllegalDeclaration(f"{weapon.name} is a template: give only a direction")
            if action.target is not None:  # the fighter it is laid toward: one to aim at
                refused = self.why_not_aimed_at(state, shooter, known(state, action.target))
                if refused:
                    raise IllegalDeclaration(refused)
            self.template_origin(
                me, weapon, action.direction, arc, state=state, target=action.target
            )
            return weapon, arc
        if action.direction is not None:
            raise IllegalDeclaration(f"{weapon.name} is not a template weapon")
        if action.extra_at:
            self._check_extra_blasts(state, weapon, action)
        if action.at is not None:
            if weapon.blast_diameter is None:
                raise IllegalDeclaration(f"only a Blast weapon may target a point ({weapon.name})")
            if action.target is not None:
                raise IllegalDeclaration("give a target fighter or a point, not both")
            why = self.point_seen(state, shooter, action.at, arc)
            if why:
                raise IllegalDeclaration(why)
            return weapon, arc
        if action.target is None:
            raise IllegalDeclaration(f"{weapon.name}: give a target")
        if action.twin is not None:
            self._check_twin(me, weapon, self.weapon(shooter, action.twin))
        why = self.why_not_target(state, shooter, known(state, action.target), arc)
        if why:
            raise IllegalDeclaration(why)
        if action.extra:
            if weapon.rapid_fire > 0 and weapon.blast_diameter is not None:
                raise IllegalDeclaration(
                    f"the {weapon.name} is a Rapid Fire Blast weapon: its extra hits are "
                    'blasts, placed at points within 3" of the aimed point, not on fighters'
                )
            if weapon.rapid_fire <= 0:
                raise IllegalDeclaration(
                    f"{weapon.name} is not a Rapid Fire gun: it has no extra hits to place"
                )
            self._check_extra_count(weapon, len(action.extra), "extra hits")
            if action.twin is not None:
                raise IllegalDeclaration("twin guns blazing place no extra hits")
            blind = action.kind is ActionKind.BLIND_FIRE
            for extra in action.extra:
                why = self.why_not_extra(state, shooter, weapon, action.target, extra, arc, blind)
                if why:
                    raise IllegalDeclaration(why)
        return weapon, arc

    def _check_extra_blasts(
        self, state: NecromundaState, weapon: NecromundaWeapon, action: Action
    ) -> None:
        """Rapid Fire + Blast: extra blasts go within 3" of the aimed point (FACTS 2.7)."""
        if weapon.blast_diameter is None or weapon.rapid_fire <= 0:
            raise IllegalDeclaration(f"{weapon.name} is not a Rapid Fire Blast weapon")
        self._check_extra_count(weapon, len(action.extra_at), "extra blasts")
        if action.target is not None:
            try:
                aim = state.model(action.target).at
            except KeyError:
                raise IllegalDeclaration(f"there is no fighter {action.target!r}") from None
        else:
            assert action.at is not None
            aim = action.at
        width, depth = self.table_size
        for p in action.extra_at:
            if not (0 <= p[0] <= width and 0 <= p[1] <= depth):
                raise IllegalDeclaration(f"the extra blast at {point_said(p)} is off the table")
            if math.dist(p, aim) > RAPID_FIRE_REACH + 1e-9:
                far = over(math.dist(p, aim), RAPID_FIRE_REACH)
                raise IllegalDeclaration(
                    f"the extra blast at {point_said(p)} is {far} from the aimed point, "
                    'not within 3"'
                )

    def most_extra_hits(self, weapon: NecromundaWeapon) -> int:
        """The most hits after the first a Rapid Fire weapon can make: every Firepower die
        it may roll showing the most bullet holes (FACTS 2.6), less the first hit."""
        most_holes = max(face.holes for face in self.dice.firepower)
        return max(0, weapon.rapid_fire * most_holes - 1)

    def _check_extra_count(self, weapon: NecromundaWeapon, placed: int, what: str) -> None:
        """More placements than the dice can ever make is refused, not dropped unsaid."""
        most = self.most_extra_hits(weapon)
        if placed > most:
            raise IllegalDeclaration(
                f"the {weapon.name} (Rapid Fire ({weapon.rapid_fire})) makes at most {most} "
                f"{what}, not {placed}"
            )

    def _check_twin(self, me: ModelState, one: NecromundaWeapon, two: NecromundaWeapon) -> None:
        """Twin Guns Blazing: two Sidearms, both able to fire, at the same target."""
        if one.name == two.name:
            raise IllegalDeclaration("twin guns blazing needs two different Sidearms")
        for w in (one, two):
            if w.trait("Sidearm") is None:
                raise IllegalDeclaration(f"{w.name} is not a Sidearm: no twin guns blazing")
            if w.blast_diameter is not None or w.is_template:
                raise IllegalDeclaration(f"{w.name} cannot fire twin guns blazing")
            if out_of_ammo_flag(w.name) in me.flags or jammed_flag(w.name) in me.flags:
                raise IllegalDeclaration(f"{me.id}'s {w.name} cannot fire: out of ammo")

    def template_origin(
        self, me: ModelState, weapon: NecromundaWeapon, direction: float, arc: float, *,
        state: NecromundaState | None = None, target: str | None = None,
    ) -> Point:  # fmt: skip
        """Necromunda Flame template: the narrow end touches the front of the base and
        the whole template lies inside the 90 degree vision arc (seed 004); one leaving
        it is refused in the rules' words (`arc_refusal`)."""
        r = self.profiles[me.id].radius
        ang = math.radians(direction)
        origin = (me.at[0] + r * math.cos(ang), me.at[1] + r * math.sin(ang))
        if arc >= 360:
            return origin
        shape = teardrop(origin, direction, self.flame.length, self.flame.width)
        worst = max(
            angle_off(heading(me.at, (float(x), float(y))), me.facing)
            for x, y in shape.exterior.coords
        )
        if worst > arc / 2 + ARC_SLACK:
            raise IllegalDeclaration(self.arc_refusal(me, weapon, direction, arc, state, target))
        return origin

    def arc_refusal(
        self, me: ModelState, weapon: NecromundaWeapon, direction: float, arc: float,
        state: NecromundaState | None, target: str | None,
    ) -> str:  # fmt: skip
        """A template leaving `me`'s vision arc in the rules' words, no bearings: the
        fighter it is laid toward outside the arc, or where it is laid, and why the
        fighter cannot turn to it where the `state` says (it has acted)."""
        said = f"{me.id}'s {weapon.name} template must lie within its {arc:g}° vision arc"
        if (
            state is not None
            and target is not None
            and not self.sighting(state, me.id, target).in_arc
        ):
            said += f", and {target} is outside it"
        else:
            toward = compass(direction)
            said += f" (it faces {compass(me.facing)}), and laid to the {toward} it leaves it"
        if (
            state is not None
            and state.activating == me.id
            and state.actions_left < ACTIONS_PER_ACTIVATION
        ):
            said += ": it has acted, so it cannot turn"
        elif state is not None and READY not in me.flags:
            said += ": it has activated, so it cannot turn"
        return said

    def shoot(
        self,
        state: NecromundaState,
        shooter: str,
        action: Action,
        events: list[Event],
        rng: np.random.Generator,
    ) -> NecromundaState:
        weapon, arc = self.check_shot(state, shooter, action)
        blind = action.kind is ActionKind.BLIND_FIRE
        if weapon.is_template:
            assert action.direction is not None
            hits = self._flame(state, shooter, weapon, action, arc, events)
            fails = self._firepower(state, shooter, weapon, events, rng)[1]
        else:
            target = action.target
            if target is not None:
                target = self._priority(state, shooter, weapon, target, arc, blind, events, rng)
            if weapon.blast_diameter is not None:
                hits, fails = self._blast(state, shooter, weapon, target, action.at, blind,
                                          events, rng, action.extra_at)  # fmt: skip
            elif action.twin is not None:
                assert target is not None
                return self._twin(state, shooter, weapon, action.twin, target, blind, events, rng)
            else:
                assert target is not None
                # Rapid Fire: extra hits checked against the target actually shot
                extras = tuple(
                    x for x in action.extra
                    if not self.why_not_extra(state, shooter, weapon, target, x, arc, blind)
                )  # fmt: skip
                hits, fails = self._bullet(
                    state, shooter, weapon, target, blind, events, rng, extras=extras
                )
        me = state.model(shooter)
        state = state.with_model(me.replace(flags=me.flags - {AIMED}))
        state = self._pin(state, hits, events)
        for victim, bonus, away, roll in hits.each():
            state = self.resolve_hit(state, shooter, weapon, victim, bonus, events, rng,
                                     away=away, roll=roll)  # fmt: skip
        if fails:
            state = self._out_of_ammo(state, shooter, weapon, fails, events)
        return state

    def _twin(
        self,
        state: NecromundaState,
        shooter: str,
        weapon: NecromundaWeapon,
        other: str,
        target: str,
        blind: bool,
        events: list[Event],
        rng: np.random.Generator,
    ) -> NecromundaState:
        """Twin Guns Blazing: both hit rolls (each -1) before any hit is resolved."""
        second = self.weapon(shooter, other)
        fired = [
            (w, *self._bullet(state, shooter, w, target, blind, events, rng, twin=True))
            for w in (weapon, second)
        ]
        me = state.model(shooter)
        state = state.with_model(me.replace(flags=me.flags - {AIMED}))
        state = self._pin(state, Hits(tuple(h for _, hits, _ in fired for h in hits.items)), events)
        for w, hits, _ in fired:
            for victim, bonus, away, roll in hits.each():
                state = self.resolve_hit(state, shooter, w, victim, bonus, events, rng,
                                         away=away, roll=roll)  # fmt: skip
        for w, _, fails in fired:
            if fails:
                state = self._out_of_ammo(state, shooter, w, fails, events)
        return state

    def closer_target(
        self, state: NecromundaState, shooter: str, weapon: NecromundaWeapon, target: str,
        arc: float, blind: bool,
    ) -> str | None:  # fmt: skip
        """The enemy that makes shooting `target` need a Cool test (FACTS 2.3): the
        closest eligible one no harder to hit and not Seriously Injured; None when the
        target may be shot without one."""
        mine = self.sighting(state, shooter, target)  # eligible: check_shot said so
        chance = self.hit_probability(state, shooter, weapon, target, blind)
        # "easier to hit" compares the real chances: a natural 1 always misses, and 7+ and
        # 8+ both need a 6 and then the plain BS (seed 004, Improbable Shots); only the
        # eligible enemies closer than the target and not Seriously Injured are sighted,
        # nearest first
        able = {m.id for m in state.models if m.status != SERIOUSLY_INJURED}
        return next((
            c for c, _ in self._eligible(state, shooter, arc, able, mine.distance - 1e-9)
            if self.hit_probability(state, shooter, weapon, c, blind) >= chance
        ), None)  # fmt: skip

    def _priority(
        self,
        state: NecromundaState,
        shooter: str,
        weapon: NecromundaWeapon,
        target: str,
        arc: float,
        blind: bool,
        events: list[Event],
        rng: np.random.Generator,
    ) -> str:
        """Target priority (FACTS 2.3): the closest eligible enemy, unless every closer
        one is Seriously Injured or harder to hit; otherwise a Cool test (2D6 >= Cl) to
        shoot the chosen one, failing which the shot goes to the closest that mattered."""
        closer = self.closer_target(state, shooter, weapon, target, arc, blind)
        if closer is None:
            return target
        cl = self.profiles[shooter].cl
        faces = [d6(rng), d6(rng)]
        passed = sum(faces) >= cl and sum(faces) > 2  # a roll of 2 always fails a 2D6 test
        events.append(
            Rolled(shooter, f"Cool test to target {target} past {closer}", "Cl", cl, (), cl,
                   tuple(faces), ("success" if passed else "fail",) * 2)
        )  # fmt: skip
        if passed:
            return target
        events.append(TargetChanged(shooter, target, closer, "failed the Cool test"))
        return closer

    def _hit_roll(
        self,
        shooter: str,
        weapon: NecromundaWeapon,
        plan: HitPlan,
        aimed_at: str,
        events: list[Event],
        rng: np.random.Generator,
    ) -> int:
        """BS test: a natural 1 fails; 7+ is improbable: a 6, then a plain BS test. The
        first die's face on a hit (Knockback compares it), 0 on a miss."""
        bs = self.profiles[shooter].bs
        purpose = f"hit roll ({weapon.name}) at {aimed_at}"
        if plan.need > D6:
            first = d6(rng)
            faces = [first]
            results = ["success" if first == D6 else "fail"]
            hit = False
            if first == D6:
                second = d6(rng)
                hit = second >= max(bs, 2)
                faces.append(second)
                results.append("success" if hit else "fail")
            purpose += f" (improbable: a 6, then BS {bs}+ unmodified)"
        else:
            face = d6(rng)
            hit = face >= max(plan.need, 2)
            faces, results = [face], ["success" if hit else "fail"]
        events.append(
            Rolled(shooter, purpose, "BS", bs, plan.modifiers, plan.need, tuple(faces),
                   tuple(results))
        )  # fmt: skip
        return faces[0] if hit else 0

    def _firepower(
        self,
        state: NecromundaState,
        shooter: str,
        weapon: NecromundaWeapon,
        events: list[Event],
        rng: np.random.Generator,
    ) -> tuple[int, int]:
        """(bullet holes, failed Ammo tests). Grenades roll no Firepower die but always
        take an Ammo test (FACTS 2.6)."""
        if weapon.trait("Grenade") is not None:
            holes, symbols = 1, 1
        else:
            n = max(1, weapon.rapid_fire)
            faces = [d6(rng) for _ in range(n)]
            picked = [self.dice.firepower[f - 1] for f in faces]
            holes = sum(p.holes for p in picked)
            symbols = sum(1 for p in picked if p.ammo)
            events.append(
                FirepowerRolled(
                    shooter, weapon.name, tuple(faces), holes, symbols, weapon.rapid_fire
                )
            )
        fails = 0
        if weapon.ammo is not None:
            for _ in range(symbols):
                face = d6(rng)
                ok = face >= max(weapon.ammo, 2)
                fails += not ok
                events.append(
                    Rolled(shooter, f"ammo test ({weapon.name})", "Am", weapon.ammo, (),
                           weapon.ammo, (face,), ("success" if ok else "fail",))
                )  # fmt: skip
        return holes, fails

    def _bullet(
        self,
        state: NecromundaState,
        shooter: str,
        weapon: NecromundaWeapon,
        target: str,
        blind: bool,
        events: list[Event],
        rng: np.random.Generator,
        twin: bool = False,
        extras: tuple[str, ...] = (),
    ) -> tuple[Hits, int]:
        plan = self.hit_plan(state, shooter, weapon, target=target, blind=blind, twin=twin)
        if plan.out_of_range:
            reach = self.long_range(shooter, weapon)
            events.append(
                Missed(shooter, target, weapon.name,
                       f'out of range ({plan.distance:.1f}" > {reach:g}")')
            )  # fmt: skip
            _, fails = self._firepower(state, shooter, weapon, events, rng)
            return Hits(), fails
        hit = self._hit_roll(shooter, weapon, plan, target, events, rng)
        holes, fails = self._firepower(state, shooter, weapon, events, rng)
        shots = holes if weapon.rapid_fire else 1
        if hit:
            # Rapid Fire: the first hit goes to the target, the others where the firer
            # placed them (FACTS 2.6), all placed before any wound roll
            placed = extras[: max(0, shots - 1)]
            victims = (target,) * (shots - len(placed)) + placed
            return Hits(tuple((v, 0) for v in victims), roll=hit), fails
        events.append(Missed(shooter, target, weapon.name, "hit roll failed"))
        return Hits(tuple((v, 0) for v in self._stray(state, shooter, target, shots, events,
                                                        rng))), fails  # fmt: skip

    def _stray(
        self,
        state: GameState,
        shooter: str,
        target: str,
        shots: int,
        events: list[Event],
        rng: np.random.Generator,
    ) -> list[str]:
        """Necromunda stray shots: for each hit the attack would have caused, a D6 for
        each fighter at risk in turn: 1-3 hits it instead, 4-6 goes on to the next."""
        risk = self.at_risk(state, shooter, target)
        hit: list[str] = []
        for shot in range(1, shots + 1):
            for m in risk:
                face = d6(rng)
                struck = face <= STRAY_HITS_ON
                events.append(StrayChecked(shooter, m, face, struck, shot))
                if struck:
                    hit.append(m)
                    break
        return hit

    def blast_centre(
        self, state: GameState, shooter: str, weapon: NecromundaWeapon, aim: Point
    ) -> tuple[Point, bool]:
        """The centre hole, pulled straight back toward the firer to Long range when it is
        beyond it (seed 004); and whether it was."""
        me = state.model(shooter)
        reach = self.long_range(shooter, weapon) + self.profiles[shooter].radius
        d = math.dist(me.at, aim)
        if d <= reach + 1e-9:
            return aim, False
        k = reach / d
        return (me.at[0] + (aim[0] - me.at[0]) * k, me.at[1] + (aim[1] - me.at[1]) * k), True

    def _blast(
        self,
        state: NecromundaState,
        shooter: str,
        weapon: NecromundaWeapon,
        target: str | None,
        at: Point | None,
        blind: bool,
        events: list[Event],
        rng: np.random.Generator,
        extra_at: tuple[Point, ...] = (),
    ) -> tuple[Hits, int]:
        diameter = weapon.blast_diameter
        assert diameter is not None
        aim = state.model(target).at if target is not None else at
        assert aim is not None
        offsets = [(p[0] - aim[0], p[1] - aim[1]) for p in extra_at]
        centre, pulled = self.blast_centre(state, shooter, weapon, aim)
        # Pulled back to long range: while the marker still covers the fighter aimed at it
        # stays a shot at that fighter; once it does not, it is a shot at a point.
        table = self.table_at(state)
        if (
            pulled
            and target is not None
            and BodyId(target) not in blast_hits(table, centre, diameter / 2)
        ):
            target = None
        reason = "pulled back to long range" if pulled else ""
        on = target if target is not None and not pulled else ""  # the centre on the fighter
        events.append(BlastPlaced(shooter, weapon.name, centre, diameter, reason, on))
        plan = self.hit_plan(state, shooter, weapon, target=target, at=centre, blind=blind)
        label = target or f"({centre[0]:.2f}, {centre[1]:.2f})"
        hit = self._hit_roll(shooter, weapon, plan, label, events, rng)
        holes, fails = self._firepower(state, shooter, weapon, events, rng)
        # Rapid Fire + Blast (FACTS 2.7): a blast per bullet hole; the extras where the
        # firer put them (kept at the same offset from a pulled-back centre), the rest on
        # the first. On a miss every blast scatters separately.
        blasts = max(1, holes) if weapon.rapid_fire > 0 else 1
        extras = [(centre[0] + dx, centre[1] + dy) for dx, dy in offsets]
        aims = [centre, *(extras + [centre] * blasts)[: blasts - 1]]
        width, depth = self.table_size
        landed: list[Point] = []
        for k, aimed in enumerate(aims):
            if hit:
                if k and not (0 <= aimed[0] <= width and 0 <= aimed[1] <= depth):
                    events.append(BlastRemoved(shooter, weapon.name, "off the table"))
                    continue
                if k:
                    events.append(BlastPlaced(shooter, weapon.name, aimed, diameter,
                                              "extra Rapid Fire blast",
                                              on if aimed == centre else ""))  # fmt: skip
                landed.append(aimed)
            else:
                end = self._scatter(state, shooter, weapon, aimed, events, rng)
                if end is not None:
                    landed.append(end)
        table = self.table_at(state)
        items: list[tuple[str, int]] = []
        away: list[Point] = []
        for spot in landed:
            for v in blast_hits(table, spot, diameter / 2):
                bonus = SAVE_BONUS.get(self.cover_from_point(state, spot, str(v)), 0)
                items.append((str(v), bonus))
                away.append(spot)
        return Hits(tuple(items), tuple(away)), fails

    def _scatter(
        self,
        state: NecromundaState,
        shooter: str,
        weapon: NecromundaWeapon,
        centre: Point,
        events: list[Event],
        rng: np.random.Generator,
    ) -> Point | None:
        """A missed blast: the scatter die and a D6. Hit and 1 is a misfire (D6: 1 the
        blast centres on the firer, 2-6 a dud); otherwise it moves D6" in the arrow's
        direction, stopping at a wall, removed if the centre leaves the table."""
        face = d6(rng)
        hit_face = self.dice.scatter[face - 1].hit
        distance = d6(rng)
        events.append(ScatterRolled(shooter, face, hit_face, distance))
        if hit_face and distance == 1:
            roll = d6(rng)
            if roll == 1:
                events.append(Misfired(shooter, weapon.name, roll, "centred on the firer"))
                return state.model(shooter).at
            events.append(Misfired(shooter, weapon.name, roll, "dud"))
            return None
        # The arrow (on a Hit face, its small arrow) points any way: uniform in angle.
        direction = float(rng.uniform(0.0, 360.0))
        path = scatter(self.table_at(state), centre, direction, float(distance))
        travelled = math.dist(path.start, path.end)
        stopped = str(path.stopped_by) if path.stopped_by is not None else None
        events.append(
            Scattered(shooter, centre, path.end, direction, travelled, stopped, path.left_table)
        )
        if path.left_table:
            events.append(BlastRemoved(shooter, weapon.name, "its centre left the table"))
            return None
        return path.end

    def _flame(
        self,
        state: NecromundaState,
        shooter: str,
        weapon: NecromundaWeapon,
        action: Action,
        arc: float,
        events: list[Event],
    ) -> Hits:
        """Necromunda Flame template: every fighter under it is hit unless a wall or
        solid terrain is in between; ignores LoS; the save bonus is judged from the
        attacker (seed 004)."""
        me = state.model(shooter)
        direction = action.direction
        assert direction is not None
        origin = self.template_origin(me, weapon, direction, arc)
        table = self.table_at(state)
        under = self.template_under(state, shooter, weapon, direction, arc)
        first = [m for m in action.hit_order if m in under]
        rest = sorted(
            (m for m in under if m not in first),
            key=lambda m: (edge_distance(table.body(shooter), table.body(m)), m),
        )
        order = first + rest
        events.append(
            TemplatePlaced(shooter, weapon.name, origin, direction, self.flame.length,
                           self.flame.width, tuple(order))
        )  # fmt: skip
        items = tuple((m, SAVE_BONUS.get(self.sighting(state, shooter, m).cover, 0)) for m in order)
        return Hits(items)

    def template_under(
        self,
        state: NecromundaState,
        shooter: str,
        weapon: NecromundaWeapon,
        direction: float,
        arc: float,
    ) -> tuple[str, ...]:
        """The fighters the Flame template laid from `shooter` toward `direction` hits:
        every one under it unless a wall or solid terrain is in the way; it ignores line
        of sight (FACTS 2.7), so a fighter hidden from a shot (prone in cover) is hit too.
        Raises IllegalDeclaration where the template leaves the `arc`."""
        origin = self.template_origin(state.model(shooter), weapon, direction, arc)
        size = self.flame
        table = self.table_at(state)
        found = template_hits(
            table, origin, direction, size.length, size.width, exclude=(BodyId(shooter),)
        )
        return tuple(str(b) for b in found)

    def why_not_under(
        self,
        state: NecromundaState,
        shooter: str,
        target: str,
        laid: tuple[NecromundaWeapon, float, float],
    ) -> str:
        """Why the Flame template `laid` (the weapon, direction, arc) misses `target`, in the
        rules' words (FACTS 2.7), "" where it does: not under it, or under it with a wall
        or solid terrain in the way (those on the line from its narrow end to the fighter's
        centre, where one is)."""
        weapon, direction, arc = laid
        me = state.model(shooter)
        origin = self.template_origin(me, weapon, direction, arc, state=state, target=target)
        size = self.flame
        table = self.table_at(state)
        missed = template_missed(table, origin, direction, size.length, size.width, BodyId(target))
        if missed is None:
            return ""
        touched, pieces = missed
        if not touched:
            return f'{target} is not under the template ({size.length:g}" long)'
        verb = "is" if len(pieces) == 1 else "are"
        return f"{joined(pieces)} {verb} in the way of {target}"

    # -- steps 4 and 5 -------------------------------------------------------------

    def _pin(self, state: NecromundaState, hits: Hits, events: list[Event]) -> NecromundaState:
        """A Standing Active fighter hit by a ranged attack is Pinned; Engaged ones never."""
        for victim in dict.fromkeys(v for v, _ in hits.items):
            m = state.model(victim)
            if m.status == STANDING:
                events.append(StateChanged(victim, STANDING, PINNED))
                state = state.with_model(m.replace(status=PINNED))
        return state

    def resolve_hit(
        self,
        state: NecromundaState,
        attacker: str,
        weapon: NecromundaWeapon,
        victim: str,
        save_bonus: int,
        events: list[Event],
        rng: np.random.Generator,
        *,
        away: Point | None = None,
        roll: int = 0,
    ) -> NecromundaState:
        """Knockback (away from `away`, the firer's place by default; `roll` the hit
        roll's die, 0: a D6), then wound roll, save (AP and cover bonus), damage and
        Injury dice (FACTS 2.4), then Blaze's roll to catch fire (FACTS 2.9)."""
        events.append(Hit(attacker, victim, weapon.name))
        if state.model(victim).status == OUT_OF_ACTION:
            return state
        away = state.model(attacker).at if away is None else away
        state, more = self.knockback(state, weapon, victim, away, roll, events, rng)
        state = self.wound(state, attacker, weapon, victim, save_bonus, events, rng, more)
        return self.catch_fire(state, weapon, victim, events, rng)

    def wound(
        self,
        state: NecromundaState,
        attacker: str,
        weapon: NecromundaWeapon,
        victim: str,
        save_bonus: int,
        events: list[Event],
        rng: np.random.Generator,
        more: int = 0,
    ) -> NecromundaState:
        """A hit's wound roll, save, damage (the weapon's, + `more`) and Injury dice."""
        v = state.model(victim)
        profile = self.profiles[victim]
        flesh = v.marker(FLESH_WOUNDS)
        toughness = profile.t - flesh
        need = wound_target(weapon.strength, toughness)
        face = d6(rng)
        wounded = face >= max(need, 2)
        events.append(
            Rolled(attacker, f"wound roll ({weapon.name}, S{weapon.strength} vs T{toughness}) "
                   f"on {victim}", "S", weapon.strength, (), need, (face,),
                   ("success" if wounded else "fail",))
        )  # fmt: skip
        if not wounded:
            return state
        armour = armour_save(profile, weapon)
        save = save_target(armour, weapon.ap, save_bonus)
        if save is not None:
            mods = []
            if weapon.ap:
                mods.append(Modifier("AP", weapon.ap))
            if save_bonus:
                mods.append(Modifier("cover", save_bonus))
            face = d6(rng)
            saved = face >= max(save, 2)
            events.append(
                Rolled(victim, f"save against {weapon.name}", "Sv", armour or 7,
                       tuple(mods), save, (face,), ("success" if saved else "fail",))
            )  # fmt: skip
            if saved:
                return state
        damage = weapon.damage + more
        left = profile.w - v.wounds
        dice = injury_dice_for(left, damage)
        lost = min(profile.w, v.wounds + damage)
        events.append(Wounded(victim, damage, lost))
        v = v.replace(wounds=lost)
        if dice:
            faces = [d6(rng) for _ in range(dice)]
            results = [self.dice.injury[f - 1] for f in faces]
            events.append(InjuryRolled(victim, tuple(faces), tuple(r.value for r in results)))
            v = self.apply_injuries(v, results, events)
        return state.with_model(v)

    def apply_injuries(
        self, v: ModelState, results: Sequence[InjuryResult], events: list[Event]
    ) -> ModelState:
        """Injury results stack: Flesh Wound -1 Toughness (at 0: Out of Action);
        Seriously Injured goes Prone; Out of Action is removed (FACTS 2.4)."""
        flesh = v.marker(FLESH_WOUNDS) + sum(1 for r in results if r is InjuryResult.FLESH_WOUND)
        before = v.status
        if InjuryResult.OUT_OF_ACTION in results or self.profiles[v.id].t - flesh <= 0:
            after = OUT_OF_ACTION
        elif InjuryResult.SERIOUSLY_INJURED in results or before == SERIOUSLY_INJURED:
            after = SERIOUSLY_INJURED
        else:
            after = before
        v = v.with_marker(FLESH_WOUNDS, flesh).replace(status=after)
        if after != before:
            events.append(StateChanged(v.id, before, after))
        return v

    def _out_of_ammo(
        self,
        state: NecromundaState,
        shooter: str,
        weapon: NecromundaWeapon,
        fails: int,
        events: list[Event],
    ) -> NecromundaState:
        """A failed Ammo test: Out of Ammo after the attack; Rapid Fire with two or more
        failures jams it for the battle (FACTS 2.6)."""
        me = state.model(shooter)
        if me.status == OUT_OF_ACTION:
            return state
        jam = fails >= 2 and weapon.rapid_fire > 0
        flag = jammed_flag(weapon.name) if jam else out_of_ammo_flag(weapon.name)
        events.append(AmmoChanged(shooter, weapon.name, "jammed" if jam else "out of ammo"))
        return state.with_model(me.replace(flags=me.flags | {flag}))

    @staticmethod
    def ammo_chance(weapon: NecromundaWeapon) -> float:
        """The odds `ammo_test` passes: D6 >= Am (a 1 always fails); Plentiful passes."""
        if weapon.trait("Plentiful") is not None or weapon.ammo is None:
            return 1.0
        return (7 - max(weapon.ammo, 2)) / 6

    def ammo_test(
        self, shooter: str, weapon: NecromundaWeapon, events: list[Event], rng: np.random.Generator
    ) -> bool:
        """Reload (Simple): a new Ammo test; Plentiful passes automatically."""
        if weapon.trait("Plentiful") is not None or weapon.ammo is None:
            return True
        face = d6(rng)
        ok = face >= max(weapon.ammo, 2)
        events.append(
            Rolled(shooter, f"reload ({weapon.name})", "Am", weapon.ammo, (), weapon.ammo,
                   (face,), ("success" if ok else "fail",))
        )  # fmt: skip
        return ok
