"""Necromunda targeting: who a fighter may shoot and how hard the shot is (seed 004,
FACTS 2.3): placements and sight as the shooting rules read them, eligible targets and
why a fighter is not one, the hit roll's modifiers and chances, where Rapid Fire's
extra hits may go, and the fighters a miss may stray into. The base of
`NecromundaFire`, which rolls the dice.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from game.errors import IllegalDeclaration
from game.geometry import Body, BodyId, Table, edge_distance, in_arc, sight
from game.geometry.blocking import seg_point_dist
from game.rules.necromunda.cover import NecromundaCover
from game.rules.necromunda.cover import read_cover as read_necromunda_cover
from game.rules.necromunda.data import ENGAGED_GAP, NecromundaProfile, NecromundaWeapon
from game.rules.necromunda.odds import hit_chance
from game.rules.necromunda.sight import hidden as prone_in_cover
from game.rules.necromunda.sight import hidden_why, left_out, on_table
from game.sequencer.declarations import carried
from game.sequencer.events import Modifier
from game.sequencer.faces import face
from game.sequencer.necromunda_types import (
    AIMED,
    ENGAGED,
    OUT_OF_ACTION,
    PRONE,
    SERIOUSLY_INJURED,
    NecromundaState,
)
from game.sequencer.sight import Cover, Placement, Sight, Sighting
from game.sequencer.state import GameState, ModelState
from game.words import over

Point = tuple[float, float]

D6 = 6
ARC = 90.0  # Necromunda: vision arc 90 degrees to the front (FACTS 2.3)
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
BODIES_KEPT = 65536


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


def armour_save(profile: NecromundaProfile, weapon: NecromundaWeapon) -> int | None:
    """The armour save N+ against this weapon: Flak is 5+ against Blast and Flame
    template weapons (FACTS 2.5 [S]: "Flak 6+, 5+ against Blast/Flame template")."""
    if profile.armour == "flak" and (weapon.blast_diameter is not None or weapon.is_template):
        return min(profile.save or 7, FLAK_AGAINST_BLAST)
    return profile.save


def d6(rng: np.random.Generator) -> int:
    return face(rng, D6)


def point_said(p: Point) -> str:
    """A point of the table as a refusal says it: in inches to two decimals at most, as
    distances are said ("(13.25, 5)"), never a pointer's float noise ("13.2456")."""
    return "({}, {})".format(*(f"{v:.2f}".rstrip("0").rstrip(".") for v in p))


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


class NecromundaTargeting:
    """Targets, modifiers and chances: no dice (the base of `NecromundaFire`)."""

    sight: Sight
    profiles: dict[str, NecromundaProfile]
    weapons: dict[str, tuple[str, ...]]
    all_weapons: Mapping[str, object]
    table_size: tuple[float, float]
    radius: dict[str, float]  # each fighter's profile's base radius
    shapes: dict[str, tuple[float, float]]  # each model's radius and height on the table
    _bodies: dict[tuple[str, Point, float], Body]
    _placements: dict[tuple[Point, float, bool], Placement]

    # -- placements and sight ---------------------------------------------------

    def placements(
        self,
        state: GameState,
        shooter: str | None = None,
        target: str | None = None,
        *,
        facing: bool = True,
    ) -> dict[str, Placement]:
        """Where the fighters stand; for a sighting from `shooter` to `target`, prone
        fighters do not block LoS and friends touching the firer are ignored (FACTS 2.3).
        `facing=False`: every fighter faces 0 (for questions the facing does not change).
        A fresh dict (the caller may change it), built once per state and question."""
        return dict(self._placed(state, shooter, target, facing=facing))

    def _placed(
        self,
        state: GameState,
        shooter: str | None = None,
        target: str | None = None,
        *,
        facing: bool = True,
    ) -> Mapping[str, Placement]:
        """`placements` itself, not a copy: only to read."""
        asked = state.asked() if isinstance(state, NecromundaState) else None
        key = (shooter, target, facing)
        found: Mapping[str, Placement] | None = (
            asked.placements.get(key) if asked is not None else None
        )
        if found is None:
            if shooter is not None and target is not None:
                found = self._placed_for(state, shooter, target, facing)
            else:
                # the rule the line-of-fire ruling reads too (game.rules.necromunda.sight)
                gone = (
                    left_out(state.models, self.radius, shooter)
                    if shooter is not None
                    else {m.id for m in state.models if not on_table(m.status)}
                )
                found = {
                    m.id: self._placement(m.at, m.facing if facing else 0.0, m.id not in gone)
                    for m in state.models
                }
            if asked is not None:
                asked.placements[key] = found
        return found

    def _placed_for(
        self, state: GameState, shooter: str, target: str, facing: bool
    ) -> Mapping[str, Placement]:
        """The placements for a sighting from `shooter` to `target`: those for any target
        of the shooter's, the target itself on the table unless out of action."""
        every = self._placed(state, shooter, None, facing=facing)
        was = every[target]
        present = on_table(state.model(target).status)
        if was.present == present:
            return every
        found = dict(every)
        found[target] = self._placement(was.at, was.facing, present)
        return found

    def _placement(self, at: Point, facing: float, present: bool) -> Placement:
        """One Placement for each place, facing and presence (kept: most fighters stand
        still from one state to the next)."""
        key = (at, facing, present)
        found = self._placements.get(key)
        if found is None:
            if len(self._placements) > BODIES_KEPT:
                self._placements.clear()
            found = self._placements[key] = Placement(at, facing, present)
        return found

    def sighting(self, state: GameState, shooter: str, target: str) -> Sighting:
        """The sighting as the shooting rules read it (once per state). Only its `in_arc`
        depends on which way the fighters face (cover, line of sight and distance do
        not): the rest is asked with every fighter facing 0, so that a fighter turning
        asks nothing new."""
        asked = state.asked() if isinstance(state, NecromundaState) else None
        found = asked.sightings.get((shooter, target)) if asked is not None else None
        if found is not None:
            return found
        s = self.sight.sighting(self._placed(state, shooter, target, facing=False),
                                shooter, target)  # fmt: skip
        arc = in_arc(self.body(state.model(shooter)), self.body(state.model(target)), ARC)
        if s.in_arc != arc:
            s = Sighting(s.lof, arc, s.cover, s.distance, s.reason)
        if asked is not None:
            asked.sightings[(shooter, target)] = s
        return s

    def body(self, m: ModelState) -> Body:
        """The fighter's base and height where it stands, facing its way (for the arc and
        distances; kept per place and facing)."""
        key = (m.id, m.at, m.facing)
        found = self._bodies.get(key)
        if found is None:
            radius, height = self.shapes[m.id]
            found = Body(BodyId(m.id), m.at, radius, height, m.facing)
            if len(self._bodies) > BODIES_KEPT:
                self._bodies.clear()
            self._bodies[key] = found
        return found

    def table_at(self, state: GameState) -> Table:
        table_at = getattr(self.sight, "table_at", None)
        if table_at is None:
            raise IllegalDeclaration("this table cannot measure blasts and templates")
        table: Table = table_at(self._placed(state))
        return table

    def _with_marker(self, table: Table, at: Point, height: float) -> Table:
        return table.with_bodies((*table.bodies, Body(MARKER, at, 0.05, height)))

    def point_seen(self, state: GameState, shooter: str, at: Point, arc: float) -> str | None:
        """Why the point is not in the shooter's line of sight (or None when it is)."""
        width, depth = self.table_size
        if not (0 <= at[0] <= width and 0 <= at[1] <= depth):
            return f"{point_said(at)} is off the table"
        table = self.table_at(state)
        marked = self._with_marker(table, at, POINT_HEIGHT)
        s = sight(marked, shooter, MARKER, arc_degrees=arc, models_block=True)
        if not s.in_arc:
            return f"{point_said(at)} is outside {shooter}'s vision arc"
        if not s.clear:
            by = ", ".join(s.blockers) or "scenery"
            return f"{point_said(at)} is out of line of sight ({by} in the way)"
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
        return self.sight.distance(self._placed(state), a, b)

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
        return math.dist(a.at, b.at) - self.radius[a.id] - self.radius[b.id]

    # -- weapons -----------------------------------------------------------------

    def weapon(self, model_id: str, name: str | None) -> NecromundaWeapon:
        weapon = self.all_weapons[carried(self.weapons[model_id], model_id, name)]
        assert isinstance(weapon, NecromundaWeapon)
        return weapon

    def long_range(self, model_id: str, weapon: NecromundaWeapon) -> float:
        reach = weapon.long_range(self.profiles[model_id].s)
        return math.inf if reach is None else reach

    # -- step 1: who may be targeted -----------------------------------------------

    def hidden(self, state: GameState, target: ModelState, s: Sighting) -> bool:
        """Necromunda: a Prone fighter in partial or full cover cannot be targeted."""
        return prone_in_cover(target.status, s.cover)

    def eligible(
        self,
        state: GameState,
        shooter: str,
        arc: float,
        *,
        among: Collection[str] | None = None,
        limit: int | None = None,
        nearer: float | None = None,
    ) -> list[tuple[str, Sighting]]:
        """Enemies the shooter may target: in its arc and LoS, not hidden, nearest first.
        `among`: only these enemies; `limit`: only the nearest so many; `nearer`: only
        those closer than this, edge to edge (the others are not sighted at all)."""
        return list(itertools.islice(self._eligible(state, shooter, arc, among, nearer), limit))

    def _eligible(
        self,
        state: GameState,
        shooter: str,
        arc: float,
        among: Collection[str] | None,
        nearer: float | None,
    ) -> Iterator[tuple[str, Sighting]]:
        """The eligible enemies nearest first, each sighted only when asked for."""
        me = state.model(shooter)
        # Cheap tests first (the sighting would refuse the same): too far, outside the
        # arc, or no clear line at all. Each enemy's own sighting leaves out the fighters
        # any other enemy's would (prone ones, friends touching the firer) except itself,
        # and a sight line never meets its own target. Nearest first: a sighting's
        # distance is this edge-to-edge distance, so the order is the answer's.
        eye = self.body(me)
        order = []
        for m in state.models:
            if m.side == me.side or m.status == OUT_OF_ACTION:
                continue
            if among is not None and m.id not in among:
                continue
            body = self.body(m)
            dist = edge_distance(eye, body)
            if nearer is not None and not dist < nearer:
                continue
            if arc < 360 and not in_arc(eye, body, ARC):
                continue
            order.append((dist, m.id, m))
        order.sort()
        facingless: Mapping[str, Placement] = {}
        for _, _, m in order:
            if not facingless:
                facingless = self._placed(state, shooter, facing=False)
            if not self.sight.clear_to(facingless, [(shooter, m.id, m.at)])[0]:
                continue
            s = self.sighting(state, shooter, m.id)
            if not s.lof or (arc < 360 and not s.in_arc) or self.hidden(state, m, s):
                continue
            yield m.id, s

    @staticmethod
    def why_not_aimed_at(state: GameState, shooter: str, target: str) -> str:
        """Why `shooter` may not aim anything at `target` whatever it fires, a template
        too (no line of sight asked): a fighter Out of Action, shooter or target, is off
        the table, and a shot is at an enemy (FACTS 2.3, 2.8); "": it may."""
        t = state.model(target)
        if state.model(shooter).status == OUT_OF_ACTION:
            return f"{shooter} is out of action"
        if target == shooter:
            return f"{shooter} cannot shoot at itself"
        if t.side == state.model(shooter).side:
            return f"{target} is a friendly fighter ({t.side}), not an enemy"
        if t.status == OUT_OF_ACTION:
            return f"{target} is out of action"
        return ""

    def why_not_target(self, state: GameState, shooter: str, target: str, arc: float) -> str:
        """Why `shooter` may not shoot at `target`, in the rules' words ("": it may). A
        fighter Out of Action, shooter or target, is off the table (no body in the
        sight: nothing is asked of it)."""
        why = self.why_not_aimed_at(state, shooter, target)
        if why:
            return why
        t = state.model(target)
        s = self.sighting(state, shooter, target)
        if not s.lof:
            return f"{shooter} has no line of sight to {target} ({s.reason})"
        if arc < 360 and not s.in_arc:
            return f"{target} is outside {shooter}'s vision arc"
        if self.hidden(state, t, s):
            return f"{hidden_why(target)} ({s.reason})"
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
            far = over(gap, RAPID_FIRE_REACH)
            return f'no extra hit on {extra}: {far} from {target}, not within 3"'
        harder = self.hit_probability(state, shooter, weapon, extra, blind)
        if harder < self.hit_probability(state, shooter, weapon, target, blind):
            return f"no extra hit on {extra}: harder to hit than {target}"
        return ""

    def stray_risk(
        self, state: GameState, shooter: str, weapon: NecromundaWeapon, target: str,
        blind: bool = False,
    ) -> list[str]:  # fmt: skip
        """Who a miss of this shot may hit instead (`at_risk`), for a shot that is rolled
        for strays: none for a blast (it scatters) or a template (no hit roll), a target
        out of range (FACTS 2.3: the shot simply misses) or one the fighter may not
        shoot. `state` has the shooter facing as it shoots."""
        if weapon.is_template or weapon.blast_diameter is not None:
            return []
        if self.why_not_target(state, shooter, target, 360.0 if blind else ARC):
            return []
        if self.hit_plan(state, shooter, weapon, target=target, blind=blind).out_of_range:
            return []
        return self.at_risk(state, shooter, target)

    def at_risk(self, state: GameState, shooter: str, target: str) -> list[str]:
        """Fighters a miss may hit instead (seed 004), nearest the firer first: any
        fighter engaged with the target (an enemy of it in base contact), and any whose
        base comes within 1" of the measured line "between attacker and target": the
        line range is measured along (base edge to base edge), and only the stretch
        between the two bases (a fighter behind the firer or beyond the target is not at
        risk). None when either is Out of Action (off the table)."""
        if OUT_OF_ACTION in (state.model(shooter).status, state.model(target).status):
            return []
        table = self.table_at(state)
        firer, aimed = table.body(shooter), table.body(target)
        (ax, ay), (bx, by) = measured_line(firer, aimed)
        length = math.hypot(bx - ax, by - ay)
        ba = table.body_arrays
        gap = seg_point_dist(ax, ay, bx, by, ba.x, ba.y) - ba.r
        near = gap <= STRAY_REACH + 1e-9
        if length > 1e-9:
            # where each base lies along the line, 0 at the firer's edge, 1 at the target's
            t = ((ba.x - ax) * (bx - ax) + (ba.y - ay) * (by - ay)) / length**2
            spread = ba.r / length
            near &= (t + spread > 0.0) & (t - spread < 1.0)
        risk = {
            str(table.bodies[int(k)].id)
            for k in np.flatnonzero(near)
            if table.bodies[int(k)].id not in (firer.id, aimed.id)
        }
        them = state.model(target)
        risk |= {
            m.id for m in state.models
            if m.id not in (shooter, target) and m.status != OUT_OF_ACTION
            and m.side != them.side and self._gap(m, them) <= ENGAGED_GAP
        }  # fmt: skip
        return sorted(risk, key=lambda m: (edge_distance(firer, table.body(m)), m))
