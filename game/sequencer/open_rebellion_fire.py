"""Open Rebellion small arms fire (seed 001, FACTS 1.4): who fires, both dice pools,
the target unit's cover and tier, the fall back, and the damage converted into wound
or pin markers. Mixed into `OpenRebellionEngine`.
"""

from __future__ import annotations

import dataclasses
import math
import weakref
from collections.abc import Sequence
from typing import TypeVar

import numpy as np
import shapely

from game.errors import IllegalDeclaration
from game.geometry import Table
from game.geometry import sight as geometry_sight
from game.geometry.lof import Sight as GeometrySight
from game.geometry.lof import SightLine, clear_witnesses
from game.geometry.table import Body
from game.rules.open_rebellion.cover import (
    SEEN_ALL,
    OpenRebellionCover,
    SquadCover,
    cover_reach,
    model_cover,
    near_pieces,
    seen_whole_cover,
    standing_in,
    unit_cover,
)
from game.rules.open_rebellion.data import OpenRebellionWeapon
from game.rules.open_rebellion.odds import (
    CoverTier,
    attacker_pool,
    defender_pool,
    shifted_tier,
)
from game.sequencer.events import (
    Event,
)
from game.sequencer.open_rebellion_types import (
    IN_POSITION,
    DamageConverted,
    FellBack,
    OpenRebellionState,
    PendingFire,
    PlanFacts,
    SmallArmsFire,
)
from game.sequencer.open_rebellion_units import GONE, OpenRebellionUnits, bang_dice, bangs
from game.sequencer.sight import Sight
from game.sequencer.state import GameState, ModelState, renew

Point = tuple[float, float]
FALL_BACK_SPREAD = 75.0  # degrees either side of straight away: "generally away"
FALL_BACK_STEP = 25.0


def _spread(limit: float, step: float) -> list[float]:
    """0, +step, -step, +2 step, ... up to +-limit (degrees)."""
    out = [0.0]
    k = 1
    while k * step <= limit + 1e-9:
        out += [k * step, -k * step]
        k += 1
    return out


SIGHT_CACHE = 65536
PLANS_KEPT = 8192  # a plan holds every model's cover reading: fewer of them


SightKey = tuple[str, Point, str, Point]
CoverKey = tuple[str, Point, tuple[tuple[str, Point], ...]]
# what small arms fire from one unit at another depends on: the two units' models
# (place, status, in position), in the units' fixed order
PlanKey = tuple[str, str, PlanFacts, PlanFacts]


@dataclasses.dataclass(frozen=True, slots=True)
class Caches:
    """Sightings, cover readings and fire plans, exact answers kept for reuse. The
    plans also depend on the models' weapons and qualities and the rule values (not the
    table's): kept apart for each such army (`army`)."""

    sights: dict[SightKey, GeometrySight] = dataclasses.field(default_factory=dict)
    covers: dict[CoverKey, SquadCover] = dataclasses.field(default_factory=dict)
    # the cheap question's answers: a clear sight line, or None when there is none
    clears: dict[SightKey, SightLine | None] = dataclasses.field(default_factory=dict)
    plans: dict[object, dict[PlanKey, FirePlan | None]] = dataclasses.field(default_factory=dict)
    # `fire_edge`'s answers where no plan was made (the plans' keys)
    edges: dict[object, dict[PlanKey, int | None]] = dataclasses.field(default_factory=dict)
    # `surely_all_seen`'s answers
    whole: dict[SightKey, bool] = dataclasses.field(default_factory=dict)


_SHARED: weakref.WeakKeyDictionary[Sight, Caches] = weakref.WeakKeyDictionary()


def caches_for(sight: Sight) -> Caches:
    """The caches shared by every engine on the same (shared) table sight: a batch plays
    many games on one table; the scenery never moves and models never block, and every
    answer is keyed by what it depends on. They go when the sight does."""
    found = _SHARED.get(sight)
    if found is None:
        found = _SHARED[sight] = Caches()
    return found


K = TypeVar("K")
V = TypeVar("V")


def _remember(cache: dict[K, V], key: K, value: V, most: int = SIGHT_CACHE) -> V:
    """Keep `value` under `key`; a cache grown past `most` answers starts again."""
    if len(cache) > most:
        cache.clear()
    cache[key] = value
    return value


# a piece near the lines of `surely_all_seen`: its box, top and footprint
_Near = tuple[float, float, float, float, float, shapely.Polygon]
GAP = 1e-6  # inches: a piece this near the lines may touch them


def _standing_pieces(table: Table) -> list[_Near]:
    """The pieces with a top above the floor, kept with the table's scenery."""
    memo = table.scenery_memo
    found = memo.get("standing pieces")
    if not isinstance(found, list):
        pa = table.arrays
        found = memo["standing pieces"] = [
            (float(pa.minx[k]), float(pa.miny[k]), float(pa.maxx[k]), float(pa.maxy[k]),
             float(pa.top[k]), table.polygons[k])
            for k in range(len(table.pieces))
            if pa.top[k] > 0.0
        ]  # fmt: skip
    return found


def surely_all_seen(table: Table, a: Body, b: Body) -> bool:
    """True when the shooter `a` surely sees the whole of `b`'s silhouette (the visible
    fraction is 1, so `b` is not hidden in part: models never block in Open Rebellion),
    found without working out the visible fraction; False: ask the sighting.

    Why: the visible fraction measures each strip of the silhouette (across `b`'s centre,
    square to the line of centres, a base wide) from the lowest height a clear line from
    the shooter's top reaches, over lines from across the shooter's base, among them the
    one toward its centre from the base's near edge (`game.geometry.silhouette`; the part
    of a line inside either base is never blocked). That line is higher, everywhere
    between the base's edge and the strip, than the line from the shooter's centre at its
    top down to the strip's foot; a piece of top t stands above the latter only where it
    has come down below t, the last 1 - t / height of the way (all of it for a piece at
    least as tall as the shooter). If no piece comes within GAP of the part of the
    triangle (shooter's centre, both ends of the silhouette's foot) where the lines are
    that low, each strip is seen to its foot past every piece."""
    (ax, ay), (bx, by) = a.at, b.at
    dist = math.hypot(bx - ax, by - ay)
    if dist <= a.radius + b.radius or a.height <= 0.0:
        return False
    px, py = -(by - ay) / dist * b.radius, (bx - ax) / dist * b.radius
    lx, ly, rx, ry = bx + px, by + py, bx - px, by - py
    lo_x, hi_x = min(ax, lx, rx) - GAP, max(ax, lx, rx) + GAP
    lo_y, hi_y = min(ay, ly, ry) - GAP, max(ay, ly, ry) + GAP
    corners: list[tuple[Point, Point, Point, Point]] = []
    near: list[shapely.Polygon] = []
    for x0, y0, x1, y1, top, polygon in _standing_pieces(table):
        if x0 > hi_x or x1 < lo_x or y0 > hi_y or y1 < lo_y:
            continue
        # the lines come below the piece's top from s0 of the way on (all the way for a
        # piece at least as tall as the shooter: the region is the whole triangle)
        s0 = max(0.0, 1.0 - top / a.height - 1e-9) if math.isfinite(top) else 0.0
        corners.append(
            ((ax + s0 * (lx - ax), ay + s0 * (ly - ay)), (lx, ly), (rx, ry),
             (ax + s0 * (rx - ax), ay + s0 * (ry - ay)))
        )  # fmt: skip
        near.append(polygon)
    if not near:
        return True
    return not bool(shapely.dwithin(shapely.polygons(corners), near, GAP).any())


def tier_label(tier: CoverTier) -> str:
    return tier.name.lower().replace("_", "-")


class OpenRebellionFire(OpenRebellionUnits):
    """Small arms fire, the fall back and damage conversion (mixed into the engine)."""

    caches: Caches
    army: tuple[object, ...]  # what fire plans depend on besides the table (see Caches)
    plans: dict[PlanKey, FirePlan | None]  # caches.plans[army]
    edges: dict[PlanKey, int | None]  # caches.edges[army]

    @property
    def reach(self) -> float:
        """How near a piece a model must stand for it to cover the model by hiding part of
        it (`cover_reach`, assets/open-rebellion/rules.toml)."""
        return cover_reach(self.values)

    def sights(self, state: GameState, shooter: str, unit: str) -> list[GeometrySight]:
        """Sight from one model to each living model of `unit` (models never block)."""
        table: list[Table] = []  # built when first needed
        me = state.model(shooter)
        return [self._sight(state, table, me, m) for m in self.alive(state, unit)]

    def _sight(
        self, state: GameState, table: list[Table], me: ModelState, m: ModelState
    ) -> GeometrySight:
        # models never block in Open Rebellion: a sight depends on the two places only
        key = (me.id, me.at, m.id, m.at)
        found = self.caches.sights.get(key)
        if found is None:
            if not table:
                table.append(self.table(state))
            # a clear line found by the cheap question spares the search for one
            witness = self.caches.clears.get(key)
            found = geometry_sight(
                table[0], me.id, m.id, arc_degrees=360.0, models_block=False, witness=witness
            )
            _remember(self.caches.sights, key, found)
        return found

    def _seen_whole(self, table: Table, me: ModelState, m: ModelState) -> bool:
        """Whether `me` surely sees all of `m` (`surely_all_seen`), unless a full sighting
        made before answers for itself (False: read that one)."""
        key = (me.id, me.at, m.id, m.at)
        if key in self.caches.sights:
            return False
        found = self.caches.whole.get(key)
        if found is None:
            found = surely_all_seen(table, table.body(me.id), table.body(m.id))
            _remember(self.caches.whole, key, found)
        return found

    def _clear(
        self, state: GameState, pairs: Sequence[tuple[ModelState, ModelState]]
    ) -> list[bool]:
        """Whether any clear sight line joins each pair (the cheap question, asked in one
        batch for the pairs not answered before; a full sighting answers for itself)."""
        keys = [(s.id, s.at, t.id, t.at) for s, t in pairs]
        clear: list[bool | None] = []
        for key in keys:
            full = self.caches.sights.get(key)
            if full is not None:
                clear.append(full.clear)
            elif key in self.caches.clears:
                clear.append(self.caches.clears[key] is not None)
            else:
                clear.append(None)
        todo = [k for k, c in enumerate(clear) if c is None]
        if todo:
            table = self.table(state)
            bodies = [(table.body(keys[k][0]), table.body(keys[k][2])) for k in todo]
            lines = clear_witnesses(table, bodies, models_block=False)
            for k, line in zip(todo, lines, strict=True):
                clear[k] = _remember(self.caches.clears, keys[k], line) is not None
        return [bool(c) for c in clear]

    def _seen_counts(self, state: GameState, unit: str, target: str) -> list[tuple[str, int]]:
        """For each living model of `unit`, how many living models of `target` it sees
        (once per state: who fires and who cover is read from both ask it)."""
        known = state.seen_counts() if isinstance(state, OpenRebellionState) else {}
        found = known.get((unit, target))
        if found is None:
            shooters = self.alive(state, unit)
            targets = self.alive(state, target)
            clear = self._clear(state, [(s, t) for s in shooters for t in targets])
            n = len(targets)
            found = known[(unit, target)] = [
                (s.id, sum(1 for c in clear[i * n : (i + 1) * n] if c))
                for i, s in enumerate(shooters)
            ]
        return found

    def firing_models(self, state: GameState, unit: str, target: str) -> list[str]:
        """Models of `unit` with line of sight to at least one model of `target`."""
        armed = [(m, seen) for m, seen in self._seen_counts(state, unit, target) if seen]
        return [m for m, _ in armed if self.weapon[m] is not None]

    def cover_shooter(self, state: GameState, unit: str, target: str) -> str | None:
        """The attacking model cover is read from: the one that sees the most of the
        target unit's models (ties: the first in the scenario's order)."""
        best: tuple[int, str] | None = None
        for m, seen in self._seen_counts(state, unit, target):
            if best is None or seen > best[0]:
                best = (seen, m)
        return None if best is None else best[1]

    def cover(self, state: GameState, unit: str, target: str) -> SquadCover:
        """The target unit's cover from the attacking unit: read from the attacking model
        that sees the most of its models."""
        shooter = self.cover_shooter(state, unit, target)
        if shooter is None:
            return SquadCover(OpenRebellionCover.OPEN, "no attacker", ())
        return self.cover_from(state, shooter, target)

    def cover_from(self, state: GameState, shooter: str, target: str) -> SquadCover:
        """The target unit's cover as one attacking model sees it."""
        # a model's cover depends on the scenery, the shooter's place and its own
        key = (
            shooter,
            state.model(shooter).at,
            tuple((m.id, m.at) for m in self.alive(state, target)),
        )
        found = self.caches.covers.get(key)
        if found is None:
            # a model surely seen whole is read without its sighting
            table = self.table(state)
            me = state.model(shooter)
            models = tuple(
                seen_whole_cover(table, m.id)
                if self._seen_whole(table, me, m)
                else model_cover(table, self._sight(state, [table], me, m), self.reach)
                for m in self.alive(state, target)
            )
            found = _remember(self.caches.covers, key, unit_cover(models))
        return found

    def in_light_cover(self, state: GameState, shooter: str, target: str) -> bool:
        """Whether `cover_from(state, shooter, target)` is light cover or better, asking
        only what decides it: light needs more than half the models the shooter sees in
        cover (touching a wall, in area terrain, or partly hidden by a piece it stands
        within the cover reach of), so the sight lines first (the cheap question), then
        the visible fraction of the models in the open near a piece one by one until the
        count is settled."""
        me = state.model(shooter)
        alive = self.alive(state, target)
        key = (shooter, me.at, tuple((m.id, m.at) for m in alive))
        known = self.caches.covers.get(key)
        if known is not None:
            return known.level >= OpenRebellionCover.LIGHT
        seen = [
            m
            for m, ok in zip(alive, self._clear(state, [(me, m) for m in alive]), strict=True)
            if ok
        ]
        table = [self.table(state)]
        covered = 0
        maybe = []
        for m in seen:
            walls, areas = standing_in(table[0], table[0].body(m.id))
            if walls or areas:
                covered += 1
            else:
                maybe.append(m)
        n = len(seen)
        if 2 * covered > n or 2 * (covered + len(maybe)) <= n:
            return 2 * covered > n
        # a model no piece stands near, or surely seen whole, is in the open: no sighting
        # needed for it (only a piece within the cover reach covers by hiding, `cover_reach`)
        maybe = [
            m
            for m in maybe
            if near_pieces(table[0], table[0].body(m.id), self.reach)
            and not self._seen_whole(table[0], me, m)
        ]
        for k, m in enumerate(maybe):
            if 2 * covered > n or 2 * (covered + len(maybe) - k) <= n:
                break
            sight = self._sight(state, table, me, m)
            if sight.visible_fraction < SEEN_ALL and model_cover(table[0], sight, self.reach).level:
                covered += 1
        return 2 * covered > n

    def band_weapon(self, firing: Sequence[str]) -> OpenRebellionWeapon:
        """The weapon whose band a volley's range is counted in: the longest band among
        the firing models' weapons (a reading: the seed gives one band to the attacker's
        weapon type; the first listed of equal bands)."""
        weapons = [w for w in (self.weapon[f] for f in firing) if w is not None]
        return max(weapons, key=lambda w: w.band)

    def range_bands(self, state: GameState, firing: Sequence[str], target: str) -> int:
        band = self.band_weapon(firing).band
        placements = state.placed(GONE)
        gap = min(
            self.sight.distance(placements, f, m.id)
            for f in firing
            for m in self.alive(state, target)
        )
        return math.floor(gap / band + 1e-9)

    def pools(self, state: GameState, unit: str, target: str) -> FirePlan:
        """Both dice pools of small arms fire from `unit` at `target` as things stand
        (remembered by what they depend on: the two units' models)."""
        key = (unit, target, self._plan_facts(state, unit), self._plan_facts(state, target))
        plans = self.plans
        if key in plans:
            plan = plans[key]
        else:
            plan = _remember(plans, key, self._pools(state, unit, target), PLANS_KEPT)
        if plan is None:
            raise IllegalDeclaration(f"no model of {unit} has line of sight to {target}")
        return plan

    def fire_edge(self, state: GameState, unit: str, target: str) -> int | None:
        """The attacker's dice less the defender's of small arms fire from `unit` at
        `target` (`pools`' figures; None when no model of `unit` sees it), asking only
        what they depend on: whether the target is in light cover or better, not its
        full reading (remembered by what the plans are)."""
        key = (unit, target, self._plan_facts(state, unit), self._plan_facts(state, target))
        plans = self.plans
        if key in plans:
            plan = plans[key]
            return None if plan is None else plan.attack - plan.defence
        edges = self.edges
        if key in edges:
            return edges[key]
        edge = None
        firing = self.firing_models(state, unit, target)
        shooter = self.cover_shooter(state, unit, target)
        if firing and shooter is not None:
            light = self.in_light_cover(state, shooter, target)
            bands = self.range_bands(state, firing, target)
            defence = defender_pool(bands, self.skill_dice(state, target), light)
            edge = self._attack(state, unit, firing) - defence
        return _remember(edges, key, edge, PLANS_KEPT)

    def _attack(self, state: GameState, unit: str, firing: Sequence[str]) -> int:
        """The attacker's dice pool: the firing models' rate of fire, the unit's skill
        dice and, in position, its support weapons' dice."""
        weapons = [w for w in (self.weapon[f] for f in firing) if w is not None]
        in_position = self.has_flag(state, unit, IN_POSITION)
        support = sum(w.support_dice for w in weapons) if in_position else 0
        return attacker_pool([w.rof for w in weapons], self.skill_dice(state, unit), support)

    def _plan_facts(self, state: GameState, unit: str) -> PlanFacts:
        known = state.asked().facts if isinstance(state, OpenRebellionState) else {}
        found = known.get(unit)
        if found is None:
            found = known[unit] = tuple(
                (m.at, m.status, IN_POSITION in m.flags)
                for m in (state.model(i) for i in self.units[unit])
            )
        return found

    def _pools(self, state: GameState, unit: str, target: str) -> FirePlan | None:
        firing = self.firing_models(state, unit, target)
        if not firing:
            return None
        attack = self._attack(state, unit, firing)
        cover = self.cover(state, unit, target)
        bands = self.range_bands(state, firing, target)
        defence = defender_pool(
            bands, self.skill_dice(state, target), cover.level >= OpenRebellionCover.LIGHT
        )
        lowers = any(w is not None and w.lowers_tier for w in (self.weapon[f] for f in firing))
        tier = self.conversion_tier(state, target, CoverTier(int(cover.level)), lowers)
        return FirePlan(tuple(firing), attack, defence, bands, cover, lowers, tier)

    def conversion_tier(
        self, state: GameState, target: str, base: CoverTier, lowers: bool
    ) -> CoverTier:
        """Open Rebellion tier shifts: in position +1, hidden +1, blast -1 (seed 001)."""
        return shifted_tier(
            base,
            in_position=self.has_flag(state, target, IN_POSITION),
            hidden=self.hidden(state, target),
            blast=lowers,
        )

    # -- small arms fire -------------------------------------------------------------

    def _fire(
        self,
        state: OpenRebellionState,
        unit: str,
        target: str,
        events: list[Event],
        rng: np.random.Generator,
    ) -> OpenRebellionState:
        plan = self.pools(state, unit, target)
        attack = bang_dice(plan.attack, rng)
        defence = bang_dice(plan.defence, rng)
        # Open Rebellion: each defender bang cancels one attacker bang
        hurt = max(0, bangs(attack) - bangs(defence))
        events.append(
            SmallArmsFire(
                unit, target, plan.firing, plan.attack, plan.defence, plan.bands,
                plan.cover.level.label, plan.cover.reason, attack, defence, hurt,
            )
        )  # fmt: skip
        pending = PendingFire(unit, target, hurt, plan.lowers, int(plan.cover.level))
        if hurt and plan.cover.level <= OpenRebellionCover.LIGHT:
            # the defender chooses: take the morale check / fall back (FallBackChoice)
            return renew(state, phase="fall-back", pending=pending)
        return self._convert(state, pending, events, rng)

    def fall_back(
        self,
        state: OpenRebellionState,
        unit: str,
        away_from: str,
        reason: str,
        events: list[Event],
        rng: np.random.Generator,
    ) -> OpenRebellionState:
        """A tac-move generally away from the shooting unit, toward cover (seed 001: "fall
        back toward cover" from the open, "toward hard cover" from light cover), every
        model by the same vector, stopping short of scenery and other units.

        Reading: of the headings within FALL_BACK_SPREAD degrees of straight away from the
        shooters' centre (every FALL_BACK_STEP degrees, nearest straight away first), the
        unit takes the first that ends it in the cover it falls back toward, as seen from
        the shooter (any cover from the open, hard cover from light cover); when none
        does, straight away."""
        allowance = self.tac_allowance(state, unit, "fall back", events, rng)
        plan = self.fall_back_plan(state, unit, away_from, allowance)
        stopped = self.stopped_by(state, unit, plan.vector, plan.share)
        events.append(
            FellBack(unit, reason, plan.moved, stopped, allowance if stopped else 0.0, plan.missed)
        )
        return self._move_by(state, unit, plan.moved, events)

    def fall_back_plan(
        self, state: OpenRebellionState, unit: str, away_from: str, allowance: float
    ) -> FallBackPlan:
        """Where a fall back of `allowance` inches (its skill test rolled) takes `unit`,
        every model by the same vector, as `fall_back` reads the seed; no dice, so the
        window shows it before the defender chooses."""
        mine, theirs = self.centre(state, unit), self.centre(state, away_from)
        away = math.atan2(mine[1] - theirs[1], mine[0] - theirs[0])
        if math.hypot(mine[0] - theirs[0], mine[1] - theirs[1]) <= 1e-9:
            away = math.pi / 2
        # each heading is judged from the attacking model cover is read from now (one
        # model's sights, not the whole unit's, for each heading tried)
        shooter = self.cover_shooter(state, away_from, unit)
        now = self.cover(state, away_from, unit).level
        goal = (
            OpenRebellionCover.HARD if now >= OpenRebellionCover.LIGHT else OpenRebellionCover.LIGHT
        )
        best: tuple[Point, Point, float] | None = None  # moved by, heading's vector, share
        for turn in _spread(FALL_BACK_SPREAD, FALL_BACK_STEP):
            heading = away + math.radians(turn)
            vector = (math.cos(heading) * allowance, math.sin(heading) * allowance)
            share = self.farthest(state, unit, vector)
            moved = (vector[0] * share, vector[1] * share)
            if turn == 0:
                straight = (moved, vector, share)
            after = self._move_by(state, unit, moved, [])
            if shooter is None:
                continue
            if goal is OpenRebellionCover.LIGHT:
                reached = self.in_light_cover(after, shooter, unit)
            else:
                reached = self.cover_from(after, shooter, unit).level >= goal
            if reached:
                best = (moved, vector, share)
                break
        chosen, vector, share = best if best is not None else straight
        missed = goal.label if best is None else ""  # said: the log told "toward hard cover"
        return FallBackPlan(chosen, vector, share, missed)

    def _convert(
        self,
        state: OpenRebellionState,
        pending: PendingFire,
        events: list[Event],
        rng: np.random.Generator,
    ) -> OpenRebellionState:
        """Damage into wound or pin markers by the defender's tier after any fall back."""
        if pending.damage == 0 or not self.alive(state, pending.target):
            return state
        cover = self.cover(state, pending.attacker, pending.target)
        tier = self.conversion_tier(
            state, pending.target, CoverTier(int(cover.level)), pending.lowers_tier
        )
        n = pending.damage
        faces: tuple[int, ...] = ()
        roller = ""
        if tier is CoverTier.OPEN:
            wounds = n
        elif tier is CoverTier.BEYOND_HARD:
            wounds = 0
        else:
            faces = bang_dice(n, rng)
            if tier is CoverTier.LIGHT:
                roller = "defender"  # each bang shifts a wound marker to a pinned marker
                wounds = n - bangs(faces)
            else:
                roller = "attacker"  # each bang shifts a pinned marker to a wound marker
                wounds = bangs(faces)
        pins = n - wounds
        events.append(
            DamageConverted(pending.target, tier_label(tier), roller, faces, wounds, pins)
        )
        w, p = self.markers(state, pending.target)
        return self._set_markers(state, pending.target, w + wounds, p + pins, events)


@dataclasses.dataclass(frozen=True, slots=True)
class FallBackPlan:
    """A fall back before it is made: the unit moved by `moved` (`share` of the heading's
    whole `vector`, cut short by what stops it); `missed`, where no heading ended it in
    the cover it fell back toward, that cover's tier (it went straight away)."""

    moved: Point
    vector: Point
    share: float
    missed: str


@dataclasses.dataclass(frozen=True, slots=True)
class FirePlan:
    """Small arms fire before the dice: who fires, both pools, the cover and the tier the
    damage would convert at if the defender stays put."""

    firing: tuple[str, ...]
    attack: int
    defence: int
    bands: int
    cover: SquadCover
    lowers: bool
    tier: CoverTier
