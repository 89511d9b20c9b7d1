"""Necromunda shooting on the sequencer, in the seed's five steps (seed 004, FACTS 2.3-2.7):

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
5. Each hit: wound roll, save (AP, cover bonus for blasts and templates), damage,
   Injury dice.

Dice are drawn in this order, which scripted tests rely on: Cool test (2D6), hit roll,
Firepower dice, Ammo tests, then scatter die, scatter D6, misfire D6 (or the scatter
direction from `rng.uniform`), stray-shot D6s, and per hit: wound, save, Injury dice.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from game.errors import IllegalDeclaration
from game.geometry import Body, BodyId, Table, edge_distance, sight
from game.geometry.measures import blast_hits, scatter, teardrop, template_hits
from game.rules.necromunda.cover import NecromundaCover
from game.rules.necromunda.cover import read_cover as read_necromunda_cover
from game.rules.necromunda.data import NecromundaProfile, NecromundaWeapon
from game.rules.necromunda.dice import FlameTemplate, InjuryResult, NecromundaDice
from game.rules.necromunda.odds import hit_chance, injury_dice_for, save_target, wound_target
from game.sequencer.events import Event, Hit, Missed, Modifier, Rolled, StateChanged, Wounded
from game.sequencer.necromunda_types import (
    AIMED,
    ENGAGED,
    FLESH_WOUNDS,
    OUT_OF_ACTION,
    PINNED,
    PRONE,
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
)
from game.sequencer.sight import Cover, Placement, Sight, Sighting
from game.sequencer.state import GameState, ModelState

Point = tuple[float, float]

D6 = 6
ARC = 90.0  # Necromunda: vision arc 90 degrees to the front (FACTS 2.3)
ENGAGED_GAP = 0.02  # base contact, inches
STRAY_REACH = 1.0  # Necromunda: fighters within 1" of the line are at risk (seed 004)
STRAY_HITS_ON = 3  # Necromunda: D6 1-3 hits the fighter at risk (seed 004)
POINT_MOD = -2  # Necromunda: targeting a point on the battlefield (FACTS 2.3)
AIM_MOD = 1  # Necromunda: Aim (Basic), +1 to the next shot (FACTS 2.3)
BLIND_FIRE_MOD = -2  # Necromunda: Blind Fire (Double) (seed 004)
TWIN_GUNS_MOD = -1  # Necromunda: Twin Guns Blazing, two Sidearms at one target (seed 004)
COVER_MOD = {Cover.PARTIAL: -1, Cover.TOTAL: -2}  # seed 004 hit modifiers
SAVE_BONUS = {Cover.PARTIAL: 1, Cover.TOTAL: 2}  # seed 004: blasts and templates
MARKER = BodyId("\x00marker")
POINT_HEIGHT = 0.05  # a point on the battlefield, seen as a thin disc on the floor
ARC_SLACK = 1e-6
RAPID_FIRE_REACH = 3.0  # Necromunda: extra Rapid Fire hits within 3" of the target (FACTS 2.6)
FLAK_AGAINST_BLAST = 5  # FACTS 2.5: Flak saves 5+ against Blast and Flame templates


def measured_line(a: Body, b: Body) -> tuple[Point, Point]:
    """The line range is measured along: from the nearest point of one base to the
    nearest point of the other (FACTS 2.3: range is to the nearest point of the target)."""
    dx, dy = b.at[0] - a.at[0], b.at[1] - a.at[1]
    d = math.hypot(dx, dy)
    if d <= 1e-12:
        return a.at, b.at
    ux, uy = dx / d, dy / d
    return (
        (a.at[0] + ux * a.radius, a.at[1] + uy * a.radius),
        (b.at[0] - ux * b.radius, b.at[1] - uy * b.radius),
    )


def _segment_gap(a: Point, b: Point, p: Point) -> float:
    """Distance from point p to segment ab."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n <= 1e-18 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def armour_save(profile: NecromundaProfile, weapon: NecromundaWeapon) -> int | None:
    """The armour save N+ against this weapon: Flak is 5+ against Blast and Flame
    template weapons (FACTS 2.5 [S]: "Flak 6+, 5+ against Blast/Flame template")."""
    if profile.armour == "flak" and (weapon.blast_diameter is not None or weapon.is_template):
        return min(profile.save or 7, FLAK_AGAINST_BLAST)
    return profile.save


def d6(rng: np.random.Generator) -> int:
    return int(rng.integers(1, D6 + 1))


def heading(a: Point, b: Point) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


def angle_off(a: float, b: float) -> float:
    """|a - b| in degrees, folded to [0, 180]."""
    return abs((a - b + 180.0) % 360.0 - 180.0)


@dataclass(frozen=True, slots=True)
class HitPlan:
    """What a BS test needs against one target: its modifiers and the D6 score."""

    modifiers: tuple[Modifier, ...]
    need: int  # BS - modifiers; 7+ is an improbable shot
    distance: float
    long_range: bool
    out_of_range: bool


@dataclass(frozen=True, slots=True)
class Hits:
    """Fighters hit, in resolution order, each with its save bonus."""

    items: tuple[tuple[str, int], ...] = ()


class NecromundaFire:
    """The shooting half of the Necromunda engine (mixed into `NecromundaEngine`)."""

    sight: Sight
    profiles: dict[str, NecromundaProfile]
    weapons: dict[str, tuple[str, ...]]
    dice: NecromundaDice
    flame: FlameTemplate
    all_weapons: Mapping[str, object]
    table_size: tuple[float, float]

    # -- placements and sight ---------------------------------------------------

    def placements(
        self, state: GameState, shooter: str | None = None, target: str | None = None
    ) -> dict[str, Placement]:
        """Where the fighters stand; for a sighting from `shooter` to `target`, prone
        fighters do not block LoS and friends touching the firer are ignored (FACTS 2.3)."""
        out: dict[str, Placement] = {}
        firer = state.model(shooter) if shooter is not None else None
        for m in state.models:
            present = m.status != OUT_OF_ACTION
            if present and firer is not None and m.id not in (shooter, target):
                touching = m.side == firer.side and self._gap(m, firer) <= ENGAGED_GAP
                present = m.status not in PRONE and not touching
            out[m.id] = Placement(m.at, m.facing, present)
        return out

    def sighting(self, state: GameState, shooter: str, target: str) -> Sighting:
        return self.sight.sighting(self.placements(state, shooter, target), shooter, target)

    def table_at(self, state: GameState) -> Table:
        table_at = getattr(self.sight, "table_at", None)
        if table_at is None:
            raise IllegalDeclaration("this table cannot measure blasts and templates")
        table: Table = table_at(self.placements(state))
        return table

    def _with_marker(self, table: Table, at: Point, height: float) -> Table:
        return table.with_bodies((*table.bodies, Body(MARKER, at, 0.05, height)))

    def point_seen(self, state: GameState, shooter: str, at: Point, arc: float) -> str | None:
        """Why the point is not in the shooter's line of sight (or None when it is)."""
        width, depth = self.table_size
        if not (0 <= at[0] <= width and 0 <= at[1] <= depth):
            return f"({at[0]:g}, {at[1]:g}) is off the table"
        table = self.table_at(state)
        marked = self._with_marker(table, at, POINT_HEIGHT)
        s = sight(marked, shooter, MARKER, arc_degrees=arc, models_block=True)
        if not s.in_arc:
            return f"({at[0]:g}, {at[1]:g}) is outside {shooter}'s vision arc"
        if not s.clear:
            by = ", ".join(s.blockers) or "scenery"
            return f"({at[0]:g}, {at[1]:g}) is out of line of sight ({by} in the way)"
        return None

    def cover_from_point(self, state: GameState, at: Point, target: str) -> Cover:
        """Necromunda Blast: cover is judged from the centre hole (seed 004), as if a
        fighter of the target's height stood there."""
        table = self.table_at(state)
        marked = self._with_marker(table, at, self.profiles[target].height)
        reading = read_necromunda_cover(sight(marked, MARKER, target, models_block=True))
        return {
            NecromundaCover.NONE: Cover.NONE,
            NecromundaCover.PARTIAL: Cover.PARTIAL,
            NecromundaCover.FULL: Cover.TOTAL,
        }[reading.level]

    def distance(self, state: GameState, a: str, b: str) -> float:
        return self.sight.distance(self.placements(state), a, b)

    def engaged_with(self, state: GameState, model: str) -> list[str]:
        """Enemies in base contact (Seriously Injured and Out of Action ones excluded)."""
        me = state.model(model)
        out = []
        for m in state.models:
            if m.side == me.side or m.status in (OUT_OF_ACTION, SERIOUSLY_INJURED):
                continue
            if self._gap(me, m) <= ENGAGED_GAP:
                out.append(m.id)
        return out

    def _gap(self, a: ModelState, b: ModelState) -> float:
        return math.dist(a.at, b.at) - self.profiles[a.id].radius - self.profiles[b.id].radius

    # -- weapons -----------------------------------------------------------------

    def weapon(self, model_id: str, name: str | None) -> NecromundaWeapon:
        names = self.weapons[model_id]
        if name is None:
            if not names:
                raise IllegalDeclaration(f"{model_id} has no weapon")
            name = names[0]
        if name not in names:
            raise IllegalDeclaration(f"{model_id} has no {name} (it has {', '.join(names)})")
        weapon = self.all_weapons[name]
        assert isinstance(weapon, NecromundaWeapon)
        return weapon

    def long_range(self, model_id: str, weapon: NecromundaWeapon) -> float:
        reach = weapon.long_range(self.profiles[model_id].s)
        return math.inf if reach is None else reach

    # -- step 1: who may be targeted -----------------------------------------------

    def hidden(self, state: GameState, target: ModelState, s: Sighting) -> bool:
        """Necromunda: a Prone fighter in partial or full cover cannot be targeted."""
        return target.status in PRONE and s.cover is not Cover.NONE

    def eligible(
        self,
        state: GameState,
        shooter: str,
        arc: float,
        *,
        among: Collection[str] | None = None,
        limit: int | None = None,
    ) -> list[tuple[str, Sighting]]:
        """Enemies the shooter may target: in its arc and LoS, not hidden, nearest first.
        `among`: only these enemies; `limit`: only the nearest so many (the farther ones
        are not sighted at all)."""
        me = state.model(shooter)
        out: list[tuple[str, Sighting]] = []
        enemies = [m for m in state.models if m.side != me.side and m.status != OUT_OF_ACTION]
        if among is not None:
            enemies = [m for m in enemies if m.id in among]
        # Cheap tests first (the sighting would refuse the same): outside the arc, or no
        # clear line at all, asked for every enemy in one batch. Each enemy's own
        # sighting leaves out the fighters any other enemy's would (prone ones, friends
        # touching the firer) except itself, and a sight line never meets its own target.
        placements = self.placements(state, shooter)
        if arc < 360:
            enemies = [m for m in enemies if self.sight.in_arc(placements, shooter, m.id)]
        asks = [(shooter, m.id, m.at) for m in enemies]
        clear = self.sight.clear_to(placements, asks)
        # nearest first (a sighting's distance is this edge-to-edge distance)
        order = sorted(
            ((self.sight.distance(placements, shooter, m.id), m.id), m)
            for m, ok in zip(enemies, clear, strict=True)
            if ok
        )
        for _, m in order:
            s = self.sighting(state, shooter, m.id)
            if not s.lof or (arc < 360 and not s.in_arc) or self.hidden(state, m, s):
                continue
            out.append((m.id, s))
            if limit is not None and len(out) >= limit:
                break
        out.sort(key=lambda e: (e[1].distance, e[0]))
        return out

    def why_not_target(self, state: GameState, shooter: str, target: str, arc: float) -> str:
        t = state.model(target)
        if t.side == state.model(shooter).side:
            return f"{target} is on {shooter}'s side"
        if t.status == OUT_OF_ACTION:
            return f"{target} is out of action"
        s = self.sighting(state, shooter, target)
        if not s.lof:
            return f"{shooter} has no line of sight to {target} ({s.reason})"
        if arc < 360 and not s.in_arc:
            return f"{target} is outside {shooter}'s vision arc"
        if self.hidden(state, t, s):
            return f"{target} is hidden: prone and in cover ({s.reason})"
        return ""

    # -- step 3: the hit roll's modifiers ------------------------------------------

    def hit_plan(
        self,
        state: GameState,
        shooter: str,
        weapon: NecromundaWeapon,
        *,
        target: str | None = None,
        at: Point | None = None,
        blind: bool = False,
        twin: bool = False,
    ) -> HitPlan:
        me = state.model(shooter)
        profile = self.profiles[shooter]
        mods: list[Modifier] = []
        cover = Cover.NONE
        if target is not None:
            s = self.sighting(state, shooter, target)
            dist, cover = s.distance, s.cover
        else:
            assert at is not None
            dist = max(0.0, math.dist(me.at, at) - profile.radius)
        long_reach = self.long_range(shooter, weapon)
        short = weapon.short if weapon.short is not None else -1.0
        long_range = dist > short + 1e-9
        out = dist > long_reach + 1e-9
        acc = weapon.acc_long if long_range else weapon.acc_short
        if acc:
            band = "long" if long_range else "short"
            mods.append(Modifier(f'{band} range {dist:.1f}"', acc))
        if cover in COVER_MOD:
            name = "partial cover" if cover is Cover.PARTIAL else "full cover"
            mods.append(Modifier(name, COVER_MOD[cover]))
        if target is not None:
            t = state.model(target)
            if t.status == ENGAGED:
                mods.append(Modifier("target engaged", -1))
            if t.status in PRONE and long_range:
                mods.append(Modifier("target prone at long range", -1))
        else:
            mods.append(Modifier("a point on the battlefield", POINT_MOD))
        if AIMED in me.flags:
            mods.append(Modifier("aim", AIM_MOD))
        if blind:
            mods.append(Modifier("blind fire", BLIND_FIRE_MOD))
        if twin:
            mods.append(Modifier("twin guns blazing", TWIN_GUNS_MOD))
        need = profile.bs - sum(m.value for m in mods)
        return HitPlan(tuple(mods), need, dist, long_range, out)

    def hit_probability(
        self, state: GameState, shooter: str, weapon: NecromundaWeapon, target: str, blind: bool
    ) -> Fraction:
        """The exact chance that a shot at `target` hits (target priority compares these)."""
        plan = self.hit_plan(state, shooter, weapon, target=target, blind=blind)
        return hit_chance(self.profiles[shooter].bs, sum(m.value for m in plan.modifiers))

    # -- the attack ----------------------------------------------------------------

    def check_shot(
        self, state: NecromundaState, shooter: str, action: Action
    ) -> tuple[NecromundaWeapon, float]:
        """The weapon and the arc; raises IllegalDeclaration for a shot the rules forbid."""
        me = state.model(shooter)
        blind = action.kind is ActionKind.BLIND_FIRE
        weapon = self.weapon(shooter, action.weapon)
        if jammed_flag(weapon.name) in me.flags:
            raise IllegalDeclaration(f"{shooter}'s {weapon.name} is jammed for the battle")
        if out_of_ammo_flag(weapon.name) in me.flags:
            raise IllegalDeclaration(f"{shooter}'s {weapon.name} is out of ammo: Reload first")
        if blind and me.status != PINNED:
            raise IllegalDeclaration("only a Pinned fighter may Blind Fire")
        if not blind and me.status not in UPRIGHT:
            raise IllegalDeclaration(f"{shooter} is {me.status}: only Blind Fire when Pinned")
        arc = 360.0 if blind else ARC
        if weapon.is_template:
            if action.direction is None:
                raise IllegalDeclaration(f"{weapon.name} is a template: give a direction")
            if action.target is not None or action.at is not None:
                raise IllegalDeclaration(f"{weapon.name} is a template: give only a direction")
            self.template_origin(me, weapon, action.direction, arc)
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
        try:
            state.model(action.target)
        except KeyError:
            raise IllegalDeclaration(f"there is no fighter {action.target!r}") from None
        why = self.why_not_target(state, shooter, action.target, arc)
        if why:
            raise IllegalDeclaration(why)
        if action.extra:
            if weapon.rapid_fire <= 0 or weapon.blast_diameter is not None:
                raise IllegalDeclaration(
                    f"{weapon.name} is not a Rapid Fire gun: it has no extra hits to place"
                )
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
                raise IllegalDeclaration(f"the extra blast at {p} is off the table")
            if math.dist(p, aim) > RAPID_FIRE_REACH + 1e-9:
                raise IllegalDeclaration(
                    f'the extra blast at {p} is {math.dist(p, aim):.1f}" from the aimed point, '
                    'more than 3"'
                )

    def why_not_extra(
        self,
        state: GameState,
        shooter: str,
        weapon: NecromundaWeapon,
        target: str,
        extra: str,
        arc: float,
        blind: bool,
    ) -> str:
        """Why a Rapid Fire hit may not go to `extra` (FACTS 2.6: "other targets within
        range, in LoS, within 3" of the original, and no harder to hit"); "" when it may."""
        if extra == target:
            return f"{extra} is the target itself: its hits need no placing"
        try:
            state.model(extra)
        except KeyError:
            return f"there is no fighter {extra!r}"
        why = self.why_not_target(state, shooter, extra, arc)
        if why:
            return f"no extra hit on {extra}: {why}"
        if self.hit_plan(state, shooter, weapon, target=extra, blind=blind).out_of_range:
            return f"no extra hit on {extra}: out of the {weapon.name}'s range"
        gap = self.distance(state, target, extra)
        if gap > RAPID_FIRE_REACH + 1e-9:
            return f'no extra hit on {extra}: {gap:.1f}" from {target}, more than 3"'
        harder = self.hit_probability(state, shooter, weapon, extra, blind)
        if harder < self.hit_probability(state, shooter, weapon, target, blind):
            return f"no extra hit on {extra}: harder to hit than {target}"
        return ""

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
        self, me: ModelState, weapon: NecromundaWeapon, direction: float, arc: float
    ) -> Point:
        """Necromunda Flame template: the narrow end touches the front of the base and
        the whole template lies inside the 90 degree vision arc (seed 004)."""
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
            raise IllegalDeclaration(
                f"the template at {direction:g} degrees leaves {me.id}'s 90 degree vision arc "
                f"(facing {me.facing:g}; it reaches {worst:.1f} degrees off)"
            )
        return origin

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
        for victim, bonus in hits.items:
            state = self.resolve_hit(state, shooter, weapon, victim, bonus, events, rng)
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
            for victim, bonus in hits.items:
                state = self.resolve_hit(state, shooter, w, victim, bonus, events, rng)
        for w, _, fails in fired:
            if fails:
                state = self._out_of_ammo(state, shooter, w, fails, events)
        return state

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
        choices = self.eligible(state, shooter, arc)
        mine = dict(choices)[target]
        chance = self.hit_probability(state, shooter, weapon, target, blind)
        # "easier to hit" compares the real chances: a natural 1 always misses, and 7+ and
        # 8+ both need a 6 and then the plain BS (seed 004, Improbable Shots)
        closer = [
            c for c, s in choices
            if s.distance < mine.distance - 1e-9
            and state.model(c).status != SERIOUSLY_INJURED
            and self.hit_probability(state, shooter, weapon, c, blind) >= chance
        ]  # fmt: skip
        if not closer:
            return target
        cl = self.profiles[shooter].cl
        faces = [d6(rng), d6(rng)]
        passed = sum(faces) >= cl and sum(faces) > 2  # a roll of 2 always fails a 2D6 test
        events.append(
            Rolled(shooter, f"Cool test to target {target} past {closer[0]}", "Cl", cl, (), cl,
                   tuple(faces), ("success" if passed else "fail",) * 2)
        )  # fmt: skip
        if passed:
            return target
        events.append(TargetChanged(shooter, target, closer[0], "failed the Cool test"))
        return closer[0]

    def _hit_roll(
        self,
        shooter: str,
        weapon: NecromundaWeapon,
        plan: HitPlan,
        aimed_at: str,
        events: list[Event],
        rng: np.random.Generator,
    ) -> bool:
        """BS test: a natural 1 fails; 7+ is improbable: a 6, then a plain BS test."""
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
        return hit

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
            events.append(FirepowerRolled(shooter, weapon.name, tuple(faces), holes, symbols))
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
            return Hits(tuple((v, 0) for v in victims)), fails
        events.append(Missed(shooter, target, weapon.name, "hit roll failed"))
        return Hits(tuple((v, 0) for v in self._stray(state, shooter, target, shots, events,
                                                        rng))), fails  # fmt: skip

    def at_risk(self, state: GameState, shooter: str, target: str) -> list[str]:
        """Fighters a miss may hit instead (seed 004), nearest the firer first: any
        fighter engaged with the target (an enemy of it in base contact), and any whose
        base comes within 1" of the measured line "between attacker and target": the
        line range is measured along (base edge to base edge), and only the stretch
        between the two bases (a fighter behind the firer or beyond the target is not at
        risk)."""
        table = self.table_at(state)
        firer, aimed = table.body(shooter), table.body(target)
        (ax, ay), (bx, by) = measured_line(firer, aimed)
        length = math.hypot(bx - ax, by - ay)
        risk = set()
        for body in table.bodies:
            if body.id in (firer.id, aimed.id):
                continue
            if length > 1e-9:
                # where the base lies along the line, 0 at the firer's edge, 1 at the target's
                t = ((body.at[0] - ax) * (bx - ax) + (body.at[1] - ay) * (by - ay)) / length**2
                spread = body.radius / length
                if t + spread <= 0.0 or t - spread >= 1.0:
                    continue
            if _segment_gap((ax, ay), (bx, by), body.at) - body.radius <= STRAY_REACH + 1e-9:
                risk.add(str(body.id))
        them = state.model(target)
        risk |= {
            m.id for m in state.models
            if m.id not in (shooter, target) and m.status != OUT_OF_ACTION
            and m.side != them.side and self._gap(m, them) <= ENGAGED_GAP
        }  # fmt: skip
        return sorted(risk, key=lambda m: (edge_distance(firer, table.body(m)), m))

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
        events.append(BlastPlaced(shooter, weapon.name, centre, diameter, reason))
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
                                              "extra Rapid Fire blast"))  # fmt: skip
                landed.append(aimed)
            else:
                end = self._scatter(state, shooter, weapon, aimed, events, rng)
                if end is not None:
                    landed.append(end)
        table = self.table_at(state)
        items: list[tuple[str, int]] = []
        for spot in landed:
            for v in blast_hits(table, spot, diameter / 2):
                bonus = SAVE_BONUS.get(self.cover_from_point(state, spot, str(v)), 0)
                items.append((str(v), bonus))
        return Hits(tuple(items)), fails

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
        size = self.flame
        found = template_hits(
            table, origin, direction, size.length, size.width, exclude=(BodyId(shooter),)
        )
        under = [str(b) for b in found]
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
    ) -> NecromundaState:
        """Wound roll, save (AP and cover bonus), damage and Injury dice (FACTS 2.4)."""
        v = state.model(victim)
        events.append(Hit(attacker, victim, weapon.name))
        if v.status == OUT_OF_ACTION:
            return state
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
        left = profile.w - v.wounds
        dice = injury_dice_for(left, weapon.damage)
        lost = min(profile.w, v.wounds + weapon.damage)
        events.append(Wounded(victim, weapon.damage, lost))
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
