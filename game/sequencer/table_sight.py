"""The sequencer's view of the table: the geometry engine with the models where the
game has put them, read through the rule system's cover rules."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from functools import partial

import numpy as np
import shapely
from shapely.geometry import LineString

from game.geometry import (
    Body,
    BodyId,
    Piece,
    PieceId,
    PieceKind,
    Point3,
    Sight,
    SightLine,
    Table,
    clear_witnesses,
    edge_distance,
    in_arc,
    patch_core,
    require_finite,
    sight,
)
from game.geometry.silhouette import STRIPS
from game.geometry.sweep import (
    Span,
    arc_spans,
    clear_spans,
    convex_apart,
    plain_corners,
    polygon_point_gap,
    reach_spans,
    surely_hidden,
)
from game.geometry.table import MM_PER_INCH
from game.rules.cover import min_patch, patch_seen
from game.sequencer.setup import Setup, SetupModel
from game.sequencer.sight import Blocked, Cover, Placement, RouteSight, Sighting, Stretch
from game.sequencer.state import renew

Point = tuple[float, float]
CONTACT_TOLERANCE = 1e-3  # a moving base may touch scenery and other bases


def table_from_setup(setup: Setup) -> Table:
    """The geometry of a table, built once: scenery prisms and model cylinders."""
    width, depth = setup.header.table
    pieces = [
        Piece(PieceId(p.id), PieceKind(str(p.kind)), tuple(p.footprint), p.height)
        for p in setup.scenery
    ]
    return Table.build(width, depth, pieces, map(body_of, setup.models))


def body_of(m: SetupModel) -> Body:
    """A setup's model as the geometry's cylinder, standing where the setup has it."""
    return Body(BodyId(m.id), m.at, m.radius, m.height, m.facing, m.side, m.unit)


CoverReader = Callable[[Table, Sight], tuple[Cover, str]]
SHARED_TABLES = 4  # tables whose sight the games of this process share (the latest ones)
_shared: dict[tuple[object, ...], TableSight] = {}


def shared_sight(setup: Setup) -> TableSight:
    """The sight of the setup's table with its rule system's own cover reading, one for
    all the games this process plays on that table (a playtest's games ask many of the
    same questions, above all in their opening Orders). Every answer it keeps is keyed by
    exactly what the answer depends on (the models placed where they could be in the
    way, never the game or the order of the questions), so a game gets the same answers
    as it would alone. A setup changed since (its scenery, models or rule values) gets
    a sight of its own."""
    key = _fingerprint(setup)
    found = _shared.get(key)
    if found is None:
        found = TableSight(setup)
        while len(_shared) >= SHARED_TABLES:
            _shared.pop(next(iter(_shared)))
        _shared[key] = found
    return found


def forget_shared() -> None:
    """Drop the shared sights (a benchmark's repeats start from none)."""
    _shared.clear()


def _fingerprint(setup: Setup) -> tuple[object, ...]:
    """Everything of a setup that the sight's answers depend on."""
    values = getattr(setup, "rule_values", {}) or {}
    return (
        setup.ruleset.name,
        tuple(setup.header.table),
        tuple(sorted(values.items())),
        # points as tuples, whatever sequence a setup holds them in (a key must hash)
        tuple(
            (p.id, str(p.kind), tuple(tuple(pt) for pt in p.footprint), p.height)
            for p in setup.scenery
        ),
        tuple(
            (m.id, tuple(m.at), m.facing, m.radius, m.height, m.side, m.unit) for m in setup.models
        ),
    )


def _both(a: list[Span], b: list[Span]) -> list[Span]:
    """The stretches in both lists (each sorted, closed)."""
    out: list[Span] = []
    for lo1, hi1 in a:
        for lo2, hi2 in b:
            lo, hi = max(lo1, lo2), min(hi1, hi2)
            if lo <= hi:
                out.append((lo, hi))
    return sorted(out)


def _point(leg: tuple[Point, Point], t: float) -> Point:
    (x0, y0), (x1, y1) = leg
    return (x0 + t * (x1 - x0), y0 + t * (y1 - y0))


def _tries(lo: float, hi: float) -> list[float]:
    """Where in a stretch to confirm with the full sighting: the middle first."""
    return [lo + (hi - lo) * f for f in (0.5, 0.25, 0.75, 0.05, 0.95)] if hi > lo else [lo]


class TableSight:
    """Sight, distance and movement checks for the sequencer, with the rule system's
    cover reading (its registry entry's "cover" part unless `cover` is given)."""

    def __init__(self, setup: Setup, cover: CoverReader | None = None) -> None:
        self.table = table_from_setup(setup)
        # rule values (the minimum visible patch among them) the scenario loader attaches
        values: dict[str, float] = getattr(setup, "rule_values", {}) or {}
        self.min_patch_mm = min_patch(values)
        if cover is None:
            reader = setup.ruleset.load("cover")
            if reader is None:
                raise ValueError(f"{setup.ruleset.title} has no cover reading")
            cover = partial(reader, rule_values=values)
        self.read_cover = cover
        self.arc = setup.ruleset.arc_degrees
        self.models_block = setup.ruleset.models_block
        self._bodies = {b.id: b for b in self.table.bodies}
        self._radii = {str(b.id): b.radius for b in self.table.bodies}
        # (at, facing, radius) of each model where the scenario put it
        self._as_set = {str(b.id): (b.at, b.facing, b.radius) for b in self.table.bodies}
        self._static = [(str(b.id), b.at, b.radius) for b in self.table.bodies]
        self._placed: dict[tuple[str, Point, float], Body] = {}  # bodies moved, made once
        self._placed_cores: dict[tuple[str, Point], Body] = {}  # patch cores moved, likewise
        # path_blocked's scenery answers by (base radius, path): the scenery never moves
        self._through: dict[tuple[float, tuple[Point, ...]], Blocked | None] = {}
        # each model's patch core where the scenario put it (`patch_core`), made once
        self._cores = {
            b.id: patch_core(b, self.min_patch_mm / MM_PER_INCH) for b in self.table.bodies
        }
        self._solid = [
            poly
            for poly, piece in zip(self.table.polygons, self.table.pieces, strict=True)
            if piece.kind.solid
        ]
        self._solid_ids = [p.id for p in self.table.pieces if p.kind.solid]
        self._solid_array = np.array(self._solid, dtype=object)
        self._polygons = np.array(self.table.polygons, dtype=object)
        # (top, lo_x, hi_x, lo_y, hi_y) of every piece, as plain floats (tens of pieces)
        pa = self.table.arrays
        self._piece_boxes: list[tuple[float, float, float, float, float]] = list(
            zip(pa.top.tolist(), pa.minx.tolist(), pa.maxx.tolist(), pa.miny.tolist(),
                pa.maxy.tolist(), strict=True)
        )  # fmt: skip
        bounds = shapely.bounds(self._solid_array).reshape(-1, 4)
        self._solid_boxes: list[tuple[float, float, float, float]] = [
            (b[0], b[1], b[2], b[3]) for b in bounds.tolist()
        ]
        self._cache: dict[tuple[tuple[str, Point, float, bool], ...], Table] = {}
        self._sightings: dict[object, Sighting] = {}
        # clear_to's answers, keyed like sightings: a clear sight line, or None for none
        self._clears: dict[object, SightLine | None] = {}
        # route_sight's stretches in the arc with a clear line, per placements, pair, leg
        self._open: dict[object, list[Span]] = {}

    @staticmethod
    def _key(placements: Mapping[str, Placement]) -> tuple[tuple[str, Point, float, bool], ...]:
        return tuple(sorted((k, p.at, p.facing, p.present) for k, p in placements.items()))

    def _table(self, placements: Mapping[str, Placement]) -> Table:
        key = self._key(placements)
        table = self._cache.get(key)
        if table is None:
            bodies = []
            for body in self.table.bodies:
                p = placements.get(body.id)
                if p is None:
                    bodies.append(body)
                elif p.present:
                    bodies.append(
                        Body(
                            body.id, p.at, body.radius, body.height, p.facing, body.side, body.unit
                        )
                    )
            table = self.table.with_bodies(bodies)
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[key] = table
        return table

    def _corridor_key(
        self,
        placements: Mapping[str, Placement],
        shooter: str,
        target: str,
        target_at: Point | None = None,
        others: list[tuple[str, Point, float]] | None = None,
    ) -> tuple[object, ...]:
        """What a sighting depends on: the two models and, where models block, every
        other model whose base reaches into the hull of the two bases (every sight line
        between them lies in it; the capsule of the larger radius around the segment
        joining their centres holds it). Scenery never moves. `target_at`: the target
        standing there instead, with its facing from `placements`. `others`: what
        `_others(placements, ())` gives, for many keys of the same placements."""
        a_at, a_facing, ar = self._where(placements, shooter)
        b_at, b_facing, br = self._where(placements, target)
        if target_at is not None:
            b_at = target_at
        inside: list[tuple[str, Point]] = []
        if self.models_block:
            ax, ay = a_at
            dx, dy = b_at[0] - ax, b_at[1] - ay
            length2 = dx * dx + dy * dy
            reach = (ar if ar > br else br) + 1e-6
            if others is None:
                others = self._others(placements, ())
            # the capsule's box first (plain compares): most models are far from it
            lo_x, hi_x = min(ax, b_at[0]) - reach, max(ax, b_at[0]) + reach
            lo_y, hi_y = min(ay, b_at[1]) - reach, max(ay, b_at[1]) + reach
            for body_id, (x, y), radius in others:
                if (
                    x + radius < lo_x
                    or x - radius > hi_x
                    or y + radius < lo_y
                    or y - radius > hi_y
                    or body_id in (shooter, target)
                ):
                    continue
                px, py = x - ax, y - ay
                t = (px * dx + py * dy) / length2 if length2 > 0 else 0.0
                t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
                ex, ey = px - t * dx, py - t * dy
                r = radius + reach
                if ex * ex + ey * ey <= r * r:
                    inside.append((body_id, (x, y)))
        return (shooter, a_at, a_facing, target, b_at, b_facing, tuple(inside))

    def _where(
        self, placements: Mapping[str, Placement], model_id: str
    ) -> tuple[Point, float, float]:
        """(at, facing, radius) of a model as `placements` put it."""
        p = placements.get(model_id)
        if p is None:
            return self._as_set[model_id]
        return p.at, p.facing, self._radii[model_id]

    def sighting(self, placements: Mapping[str, Placement], shooter: str, target: str) -> Sighting:
        key = self._corridor_key(placements, shooter, target)
        found = self._sightings.get(key)
        if found is None:
            found = self._sighting(placements, shooter, target, self._clears.get(key))
            if len(self._sightings) > 65536:
                self._sightings.clear()
            self._sightings[key] = found
        return found

    def _sighting(
        self,
        placements: Mapping[str, Placement],
        shooter: str,
        target: str,
        witness: SightLine | None = None,
    ) -> Sighting:
        table = self._table(placements)
        s = sight(
            table,
            shooter,
            target,
            arc_degrees=self.arc,
            models_block=self.models_block,
            witness=witness,
        )
        cover, reason = self.read_cover(table, s)
        return Sighting(patch_seen(s, self.min_patch_mm), s.in_arc, cover, s.distance, reason)

    def surely_seen(self, placements: Mapping[str, Placement], shooter: str, target: str) -> bool:
        """True when the shooter surely has line of fire to the target as the sighting
        reads it (`sighting(...).lof`: a square of the rule system's minimum patch seen;
        no arc), found without working out the visible fraction; False: ask the sighting.

        Why: the sighting measures each strip of the target's silhouette from the lowest
        height a clear line from the shooter's top reaches, over lines from across the
        shooter's base, the one toward its centre among them (`game.geometry.silhouette`;
        the part of a line inside the shooter's own base is never blocked). Take a
        stretch across the top of the silhouette, as wide as the patch and a strip
        either side (so a run of whole strips at least the patch wide lies in it), from
        the top down a patch's depth. If nothing that could stand above a line from the
        shooter's top down to that stretch (a piece or, where models block, a model at
        least as tall as the lower of the shooter's top and the stretch's foot) reaches
        into the triangle joining the shooter's centre to the stretch, those lines are
        clear: each of those strips is seen a patch deep, so the patch is. The stretch
        may lie anywhere across the silhouette: its middle is tried first, then either
        edge (a target beside a wall is seen past it on one side)."""
        a = self._body(placements, shooter)
        b = self._body(placements, target)
        side = self.min_patch_mm / MM_PER_INCH
        (ax, ay), (bx, by) = a.at, b.at
        dist = math.hypot(bx - ax, by - ay)
        half = side / 2 + 2 * b.radius / STRIPS
        if dist <= a.radius + b.radius + 1e-3 or half > b.radius or b.height <= side + 1e-3:
            return False
        # below every line from the shooter's top to the stretch, with a margin
        low = min(a.height, b.height - side - 1e-6) - 1e-6
        px, py = -(by - ay) / dist, (bx - ax) / dist  # across the line of centres
        reach = half + 1e-6
        edge = b.radius - half  # the farthest from the middle a stretch's middle lies
        offsets = (0.0, -edge, edge) if edge > 0.0 else (0.0,)
        # first the boxes: what is tall enough and near the box of any stretch's triangle
        far = edge + reach
        (x1, y1), (x2, y2) = ((bx + k * far * px, by + k * far * py) for k in (-1.0, 1.0))
        box = (min(ax, x1, x2) - 1e-6, max(ax, x1, x2) + 1e-6,
               min(ay, y1, y2) - 1e-6, max(ay, y1, y2) + 1e-6)  # fmt: skip
        pieces = [k for k, bb in enumerate(self._piece_boxes) if bb[0] > low and _meets(bb, box)]
        tall: list[tuple[Point, float]] = []
        if self.models_block:
            lo_x, hi_x, lo_y, hi_y = box
            for body_id, (x, y), r in self._others(placements, (shooter, target)):
                near = lo_x - r <= x <= hi_x + r and lo_y - r <= y <= hi_y + r
                if near and self._bodies[BodyId(body_id)].height > low:
                    tall.append(((x, y), r))
        if not pieces and not tall:
            return True
        for offset in offsets:
            ends = [(bx + (offset + k * reach) * px, by + (offset + k * reach) * py)
                    for k in (-1.0, 1.0)]  # fmt: skip
            if self._clear_triangle((ax, ay), ends[0], ends[1], pieces, tall):
                return True
        return False

    def _clear_triangle(
        self,
        a: Point,
        b: Point,
        c: Point,
        pieces: list[int],
        tall: list[tuple[Point, float]],
    ) -> bool:
        """Whether none of `pieces` (the table's indices) and no base of `tall` reaches
        within 1e-6 of the triangle abc."""
        xs, ys = (a[0], b[0], c[0]), (a[1], b[1], c[1])
        box = (min(xs) - 1e-6, max(xs) + 1e-6, min(ys) - 1e-6, max(ys) + 1e-6)
        near = [k for k in pieces if _meets(self._piece_boxes[k], box)]
        lo_x, hi_x, lo_y, hi_y = box
        bases = [(at, r) for at, r in tall
                 if lo_x - r <= at[0] <= hi_x + r and lo_y - r <= at[1] <= hi_y + r]  # fmt: skip
        if not near and not bases:
            return True
        # plain floats: a convex piece proved farther off than 1e-6 along an edge's
        # normal, a base farther off than its radius and 1e-6 (the corners run
        # counter-clockwise: `surely_seen` puts the stretch's ends in that order)
        triangle = [a, b, c]
        corners, convex = plain_corners(self.table)
        other = [k for k in near if not convex[k]]
        if any(not convex_apart(triangle, corners[k], 1e-6) for k in near if convex[k]):
            return False
        if other and shapely.dwithin(shapely.Polygon(triangle), self._polygons[other], 1e-6).any():
            return False
        return all(polygon_point_gap(triangle, x, y) >= r + 1e-6 for (x, y), r in bases)

    def clear_to(
        self, placements: Mapping[str, Placement], asks: Sequence[tuple[str, str, Point]]
    ) -> list[bool]:
        """For each (watcher, model, point): False when surely no line of fire joins the
        watcher and `model` standing at `point` (everyone else where `placements` put
        them): no clear sight line reaches deep enough into its silhouette for the rule
        system's minimum visible patch (`patch_core`; any clear line elsewhere). True: ask the
        sighting. Exact, without arc or visible fraction; a sighting already made answers
        for itself, the rest share one batched pass."""
        out: list[bool | None] = []
        todo: list[int] = []
        keys: list[tuple[object, ...]] = []
        others = self._others(placements, ()) if self.models_block else None
        for watcher, model, at in asks:
            key = self._corridor_key(placements, watcher, model, at, others)
            keys.append(key)
            known = self._sightings.get(key)
            if known is not None:
                out.append(known.lof)
            elif key in self._clears:
                out.append(self._clears[key] is not None)
            else:
                out.append(None)
                todo.append(len(out) - 1)
        if todo:
            table = self._table(placements)
            if len(self._clears) > 65536:
                self._clears.clear()
            pairs = []
            open_ = []
            for k in todo:
                watcher, model, at = asks[k]
                core = self._core_at(model, at)
                w = self._body(placements, watcher)
                # one obstacle across the hull of the two bases, tall enough: no line
                # (most pairs asked have none), without the geometry's search
                if surely_hidden(table, w, core, (at, at), models_block=self.models_block):
                    out[k] = False
                    self._clears[keys[k]] = None
                else:
                    pairs.append((w, core))
                    open_.append(k)
            found = clear_witnesses(table, pairs, models_block=self.models_block) if pairs else []
            for k, line in zip(open_, found, strict=True):
                out[k] = line is not None
                # a line to the lowered body, its end raised to the top, is clear too
                # (raising an end raises every point): the sighting need not search again
                if line is not None:
                    top = self._bodies[BodyId(asks[k][1])].height
                    line = SightLine(line.start, Point3(line.end.x, line.end.y, top))
                self._clears[keys[k]] = line
        return [bool(x) for x in out]

    def route_sight(
        self,
        placements: Mapping[str, Placement],
        watcher: str,
        mover: str,
        route: Sequence[Point],
        facing: float,
        *,
        reach: float = 0.0,
        sees: Callable[[Sighting], bool] | None = None,
        first: bool = False,
    ) -> RouteSight:
        """What `watcher` has of `mover` along `route` (facing `facing`, everyone else
        where `placements` put them), leg by leg and continuously (RouteSight). `sees`
        reads a full sighting (default: line of fire in the arc); it is asked inside each
        stretch the geometry finds, the middle first. `first`: stop looking for line of
        fire at the first stretch that has it (the reach is still swept whole)."""

        def accept(moved: Mapping[str, Placement]) -> bool:
            if sees is not None:
                return sees(self.sighting(moved, watcher, mover))
            # line of fire in the arc: the arc is cheap, a sighting made before answers,
            # and line of fire surely there needs no visible fraction
            if not self.in_arc(moved, watcher, mover):
                return False
            known = self._sightings.get(self._corridor_key(moved, watcher, mover))
            if known is not None:
                return known.lof
            return (
                self.surely_seen(moved, watcher, mover) or self.sighting(moved, watcher, mover).lof
            )

        w = self._body(placements, watcher)
        body = self._bodies[BodyId(mover)]
        core = self._cores[BodyId(mover)]
        points = list(route)
        legs = list(itertools.pairwise(points)) or [(points[0], points[0])]
        seen: list[Stretch] = []
        near: list[Stretch] = []
        seen_at: Point | None = None
        others: list[tuple[str, Point, float]] | None = None  # for the legs' keys
        for leg in legs:
            spans = reach_spans(w, body.radius, leg, reach)
            near += [(_point(leg, lo), _point(leg, hi)) for lo, hi in spans]
            if first and seen_at is not None:
                continue
            if others is None and self.models_block:
                others = self._others(placements, ())
            for lo, hi in self._open_spans(placements, w, core, leg, others):
                for t in _tries(lo, hi):
                    at = _point(leg, t)
                    moved = {**placements, mover: Placement(at, facing)}
                    if accept(moved):
                        seen.append((_point(leg, lo), _point(leg, hi)))
                        seen_at = at if seen_at is None else seen_at
                        break
                if first and seen_at is not None:
                    break
        return RouteSight(tuple(seen), seen_at, tuple(near))

    def _open_spans(
        self,
        placements: Mapping[str, Placement],
        w: Body,
        core: Body,
        leg: tuple[Point, Point],
        others: list[tuple[str, Point, float]] | None = None,
    ) -> list[Span]:
        """The stretches of a leg inside the watcher's arc with a clear line to the
        mover's patch core, remembered per watcher, leg and models that could be in the
        way (`_leg_key`; `others` as it takes them)."""
        key = self._leg_key(placements, w, core, leg, others)
        found = self._open.get(key)
        if found is not None:
            return found
        found = []
        if leg[0] == leg[1]:
            asks = [(str(w.id), str(core.id), leg[0])]
            if (
                in_arc(w, self._core_at(str(core.id), leg[0]), self.arc)
                and self.clear_to(placements, asks)[0]
            ):
                found = [(0.0, 1.0)]
        else:
            table = self._table(placements)
            for a_lo, a_hi in arc_spans(w, core.radius, leg, self.arc):
                part = (_point(leg, a_lo), _point(leg, a_hi))
                found += [
                    (a_lo + lo * (a_hi - a_lo), a_lo + hi * (a_hi - a_lo))
                    for lo, hi in clear_spans(table, w, core, part, models_block=self.models_block)
                ]
        if len(self._open) > 16384:
            self._open.clear()
        self._open[key] = found
        return found

    def _leg_key(
        self,
        placements: Mapping[str, Placement],
        w: Body,
        core: Body,
        leg: tuple[Point, Point],
        others: list[tuple[str, Point, float]] | None = None,
    ) -> tuple[object, ...]:
        """What the stretches of a leg depend on: the watcher as placed, the mover (its id,
        radius and height), the leg and, where models block, every other model whose base
        reaches into the box around the watcher's base and the bases along the leg (every
        sight line between them lies inside it). The mover's own placement does not count:
        the sweep leaves it out of the way. `others`: `_others(placements, ())`, made
        once for many legs."""
        inside: tuple[tuple[str, Point], ...] = ()
        if self.models_block:
            (x0, y0), (x1, y1) = leg
            (wx, wy), grow = w.at, max(w.radius, core.radius) + 1e-6
            box = (
                min(wx, x0, x1) - grow,
                max(wx, x0, x1) + grow,
                min(wy, y0, y1) - grow,
                max(wy, y0, y1) + grow,
            )
            inside = self._in_box(placements, box, (str(w.id), str(core.id)), others)
        return (w.id, w.at, w.facing, w.radius, w.height, core.id, core.radius, core.height,
                leg, inside)  # fmt: skip

    def _in_box(
        self,
        placements: Mapping[str, Placement],
        box: tuple[float, float, float, float],
        skip: tuple[str, ...],
        others: list[tuple[str, Point, float]] | None = None,
    ) -> tuple[tuple[str, Point], ...]:
        """(id, where) of each model on the table, but `skip`, whose base reaches into the
        box (lo_x, hi_x, lo_y, hi_y). `others`: `_others(placements, ())`, made before."""
        lo_x, hi_x, lo_y, hi_y = box
        if others is None:
            others = self._others(placements, ())
        return tuple(
            (body_id, (x, y))
            for body_id, (x, y), r in others
            if body_id not in skip and lo_x - r <= x <= hi_x + r and lo_y - r <= y <= hi_y + r
        )

    def _others(
        self, placements: Mapping[str, Placement], skip: tuple[str, ...]
    ) -> list[tuple[str, Point, float]]:
        """(id, where, radius) of each model on the table but `skip`, as `placements`
        put them (a model they leave out stands where the scenario put it)."""
        out: list[tuple[str, Point, float]] = []
        get = placements.get
        for body_id, at, radius in self._static:
            if body_id in skip:
                continue
            p = get(body_id)
            if p is None:
                out.append((body_id, at, radius))
            elif p.present:
                out.append((body_id, p.at, radius))
        return out

    def table_at(self, placements: Mapping[str, Placement]) -> Table:
        """The table's geometry with the models where `placements` put them (absent
        models left out), for area measures such as blasts and templates."""
        return self._table(placements)

    def _body(self, placements: Mapping[str, Placement], model_id: str) -> Body:
        p = placements.get(model_id)
        if p is None:
            return self._bodies[BodyId(model_id)]
        return self._body_at(model_id, p)

    def _body_at(self, model_id: str, p: Placement) -> Body:
        """The model's body standing as `p` says (made once per place and facing)."""
        key = (model_id, p.at, p.facing)
        body = self._placed.get(key)
        if body is None:
            base = self._bodies[BodyId(model_id)]
            body = Body(base.id, p.at, base.radius, base.height, p.facing, base.side, base.unit)
            if len(self._placed) > 65536:
                self._placed.clear()
            self._placed[key] = body
        return body

    def _core_at(self, model_id: str, at: Point) -> Body:
        """The model's patch core (`patch_core`) standing at `at` (made once per place)."""
        key = (model_id, at)
        core = self._placed_cores.get(key)
        if core is None:
            core = renew(self._cores[BodyId(model_id)], at=at)
            if len(self._placed_cores) > 65536:
                self._placed_cores.clear()
            self._placed_cores[key] = core
        return core

    def distance(self, placements: Mapping[str, Placement], a: str, b: str) -> float:
        return float(edge_distance(self._body(placements, a), self._body(placements, b)))

    def arcs_and_distances(
        self, shooter: str, at: Placement, targets: Sequence[tuple[str, Placement]]
    ) -> list[tuple[bool, float]]:
        """`in_arc` and `distance` from the shooter standing at `at` to each target standing
        where it says, the shooter's body made once."""
        a = self._body_at(shooter, at)
        out = []
        for target, where in targets:
            b = self._body_at(target, where)
            out.append((bool(in_arc(a, b, self.arc)), float(edge_distance(a, b))))
        return out

    def in_arc(self, placements: Mapping[str, Placement], a: str, b: str) -> bool:
        """Whether b is at least partly inside a's arc: cheap, no sight lines."""
        return bool(in_arc(self._body(placements, a), self._body(placements, b), self.arc))

    def _through_scenery(
        self, path: tuple[Point, ...], r: float, box: tuple[float, float, float, float]
    ) -> Blocked | None:
        """Why a base of radius `r` swept along `path` (whose box, grown by `r`, is `box`)
        cannot pass the scenery: the first solid piece it would overlap, or None."""
        lo_x, hi_x, lo_y, hi_y = box
        # only pieces within reach of the path can meet its swept base (their boxes meet
        # the path's box grown by the radius, found on plain floats: tens of pieces cost
        # less so than in numpy calls; then one vectorised distance); the path's line and
        # swept shape are built, and cut by those alone, only when some piece is that near
        boxed = np.array(
            [
                k
                for k, (a_x, a_y, b_x, b_y) in enumerate(self._solid_boxes)
                if a_x <= hi_x and b_x >= lo_x and a_y <= hi_y and b_y >= lo_y
            ],
            dtype=np.intp,
        )
        if not len(boxed):
            return None
        line = LineString(path) if len(path) > 1 else shapely.Point(path[0])
        gaps = shapely.distance(line, self._solid_array[boxed])
        within = gaps < r - CONTACT_TOLERANCE + 1e-9
        near, gaps = boxed[within], gaps[within]
        if not len(near):
            return None
        # a piece reaching well inside the swept shape's polygon (shapely's buffer: 8
        # sides a quarter circle, so it holds every point within cos(pi/32) of its
        # radius) overlaps it by far more than the area test's 1e-9: only the pieces
        # before the first such one need that test
        sure = np.flatnonzero(gaps < (r - CONTACT_TOLERANCE) * math.cos(math.pi / 32) - 0.01)
        first = int(sure[0]) if len(sure) else len(near)
        if first:
            swept = line.buffer(r - CONTACT_TOLERANCE)
            overlap = shapely.area(shapely.intersection(swept, self._solid_array[near[:first]]))
            hit = np.flatnonzero(overlap > 1e-9)
            if len(hit):
                first = int(hit[0])
            elif first == len(near):
                return None
        return _through(str(self._solid_ids[int(near[first])]))

    def path_blocked(
        self, placements: Mapping[str, Placement], model: str, path: tuple[Point, ...]
    ) -> Blocked | None:
        body = self._bodies[BodyId(model)]
        r = body.radius
        for x, y in path:
            if not (math.isfinite(x) and math.isfinite(y)):  # the message made only then
                require_finite(f"a point of {model}'s path", x, y)
            if (
                x - r < -1e-9
                or y - r < -1e-9
                or x + r > self.table.width + 1e-9
                or y + r > self.table.depth + 1e-9
            ):
                return Blocked(f"({x:g}, {y:g}) is off the table")
        xs, ys = [x for x, _ in path], [y for _, y in path]
        lo_x, hi_x, lo_y, hi_y = min(xs) - r, max(xs) + r, min(ys) - r, max(ys) + r
        key = (r, tuple((float(x), float(y)) for x, y in path))
        if key not in self._through:
            if len(self._through) > 65536:
                self._through.clear()
            self._through[key] = self._through_scenery(path, r, (lo_x, hi_x, lo_y, hi_y))
        why = self._through[key]
        if why is not None:
            return why
        legs = list(itertools.pairwise(key[1])) or [(key[1][0], key[1][0])]
        radius = self._radii
        for other, p in placements.items():
            # a base whose centre is farther than both radii from the path cannot meet it
            # (most models: tested first, on plain floats)
            grow = radius[other]
            x, y = p.at
            if not (lo_x - grow <= x <= hi_x + grow and lo_y - grow <= y <= hi_y + grow):
                continue
            if other != model and p.present:
                gap = min(_point_to_segment(x, y, a, b) for a, b in legs)
                if gap < r + grow - CONTACT_TOLERANCE:
                    return _through(other)
        return None


def _through(piece: str) -> Blocked:
    """A path through a piece or model, named by its id alone: where people read it,
    its name says what it is ("stone wall 1", 'the 1" wall')."""
    return Blocked(f"the base would pass through {piece}", piece)


def _meets(
    piece: tuple[float, float, float, float, float], box: tuple[float, float, float, float]
) -> bool:
    """Whether a piece's box (top, lo_x, hi_x, lo_y, hi_y) meets the box (lo_x, hi_x,
    lo_y, hi_y)."""
    _, p_lo_x, p_hi_x, p_lo_y, p_hi_y = piece
    lo_x, hi_x, lo_y, hi_y = box
    return p_lo_x <= hi_x and p_hi_x >= lo_x and p_lo_y <= hi_y and p_hi_y >= lo_y


def _point_to_segment(px: float, py: float, a: Point, b: Point) -> float:
    """Distance from a point to a segment, worked as GEOS works it (shapely.distance),
    to the last bit: a base just touching another is judged as before."""
    (ax, ay), (bx, by) = a, b
    if ax == bx and ay == by:
        dx, dy = px - ax, py - ay
        return math.sqrt(dx * dx + dy * dy)
    len2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay)
    r = ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / len2
    if r <= 0.0:
        dx, dy = px - ax, py - ay
        return math.sqrt(dx * dx + dy * dy)
    if r >= 1.0:
        dx, dy = px - bx, py - by
        return math.sqrt(dx * dx + dy * dy)
    s = ((ay - py) * (bx - ax) - (ax - px) * (by - ay)) / len2
    return abs(s) * math.sqrt(len2)
