"""Measures the rules ask of the table: contact with scenery, stray-shot lines, blast and
template areas, scatter paths. Distances are in inches, edge to edge for models."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from game.geometry.blocking import seg_point_dist
from game.geometry.lof import clear_sight
from game.geometry.table import Body, BodyId, PieceId, Point, Table, require_finite


def edge_distance(a: Body, b: Body) -> float:
    """Distance between two models, edge to edge (closest points of the bases)."""
    return max(0.0, math.hypot(b.at[0] - a.at[0], b.at[1] - a.at[1]) - a.radius - b.radius)


def footprint_gap(footprint: Sequence[Point], point: Point) -> float:
    """Inches from `point` to a footprint polygon (0 inside it; a line of two corners,
    a thin wall's, measured to the line)."""
    shape = Polygon(footprint) if len(footprint) > 2 else shapely.LineString(footprint)
    return float(shape.distance(ShapelyPoint(point)))


def pieces_near(table: Table, body: Body, reach: float) -> tuple[PieceId, ...]:
    """Pieces whose footprint comes within `reach` of the model's base (overlap included),
    e.g. "in contact" within 0.1" is `reach=0.1`."""
    require_finite("the reach", reach)
    # a question of the scenery alone: kept in the table's scenery memo (bases stand still
    # for many questions)
    memo = table.scenery_memo
    near = memo.get("pieces_near")
    if not isinstance(near, dict):
        near = memo["pieces_near"] = {}
    key = (body.at, body.radius, reach)
    found = near.get(key)
    if found is None:
        centre = ShapelyPoint(body.at)
        hits = table.tree.query(centre, predicate="dwithin", distance=body.radius + reach)
        found = tuple(table.pieces[int(k)].id for k in sorted(hits))
        if len(near) > 8192:
            near.clear()
        near[key] = found
    result: tuple[PieceId, ...] = found
    return result


def within_of_line(
    table: Table,
    shooter: BodyId | str,
    target: BodyId | str,
    reach: float = 1.0,
) -> tuple[BodyId, ...]:
    """Models (not the shooter or target) whose base lies within `reach` of the line of
    fire between the two centres, nearest the shooter first.

    For example stray shots: models within 1" of the measured line are at risk, checked
    starting with the one closest to the attacker.
    """
    require_finite("the reach", reach)
    a = table.body(shooter)
    b = table.body(target)
    ba = table.body_arrays
    if len(ba.x) == 0:
        return ()
    gap = seg_point_dist(a.at[0], a.at[1], b.at[0], b.at[1], ba.x, ba.y) - ba.r
    from_shooter = np.hypot(ba.x - a.at[0], ba.y - a.at[1]) - ba.r - a.radius
    picked = [
        k
        for k in np.flatnonzero(gap <= reach + 1e-9)
        if table.bodies[int(k)].id not in (a.id, b.id)
    ]
    picked.sort(key=lambda k: (float(from_shooter[k]), str(table.bodies[int(k)].id)))
    return tuple(table.bodies[int(k)].id for k in picked)


def _reached_from(table: Table, origin: Point, body: Body) -> bool:
    """A clear 2D line from the point `origin` to some point of the base, through no solid
    piece (wall, building, obstacle) of any height; area terrain and models do not stop it."""
    return not _in_way(table, origin, body)


def _in_way(table: Table, origin: Point, body: Body) -> tuple[str, ...]:
    """The solid pieces in the way of every line from `origin` to the base, as
    `_reached_from` reads them (none: a line is clear)."""
    source = Body(BodyId("\x00origin"), origin, 0.0, 0.0)
    flat = Body(body.id, body.at, body.radius, 0.0)
    clear, _, blockers = clear_sight(table, source, flat, models_block=False, solid_only=True)
    return () if clear else blockers or ("solid terrain",)


def blast_hits(
    table: Table, centre: Point, radius: float, *, exclude: tuple[BodyId, ...] = ()
) -> tuple[BodyId, ...]:
    """Models whose base is under a circular marker (touching counts) with no wall or
    solid terrain between them and the centre.

    A blast marker: every model whose base is beneath the marker is hit unless there is
    a wall or solid terrain between it and the centre hole.
    """
    require_finite("the marker's centre and radius", *centre, radius)
    hits: list[BodyId] = []
    for body in table.bodies:
        if body.id in exclude:
            continue
        if math.dist(body.at, centre) > radius + body.radius + 1e-9:
            continue
        if _reached_from(table, centre, body):
            hits.append(body.id)
    return tuple(hits)


def teardrop(origin: Point, direction: float, length: float, width: float) -> Polygon:
    """A teardrop template: narrow end at `origin`, pointing `direction` degrees, `length`
    long and `width` across its round end (template sizes live in rule data)."""
    require_finite("the template's origin, direction and size", *origin, direction, length, width)
    r = width / 2.0
    ang = math.radians(direction)
    cx = origin[0] + (length - r) * math.cos(ang)
    cy = origin[1] + (length - r) * math.sin(ang)
    disc = ShapelyPoint(cx, cy).buffer(r, quad_segs=32)
    hull: Polygon = shapely.convex_hull(shapely.union(disc, ShapelyPoint(origin)))
    return hull


def template_hits(
    table: Table,
    origin: Point,
    direction: float,
    length: float,
    width: float,
    *,
    exclude: tuple[BodyId, ...] = (),
) -> tuple[BodyId, ...]:
    """Models whose base the teardrop touches with no wall or solid terrain between them
    and its narrow end (a teardrop flame or direct template)."""
    shape = teardrop(origin, direction, length, width)
    return tuple(
        body.id
        for body in table.bodies
        if body.id not in exclude and _touches(shape, body) and _reached_from(table, origin, body)
    )


def _touches(shape: Polygon, body: Body) -> bool:
    """A template's shape touches the model's base (a touch counts)."""
    return float(shapely.distance(shape, ShapelyPoint(body.at))) <= body.radius + 1e-9


def template_missed(
    table: Table, origin: Point, direction: float, length: float, width: float, target: BodyId
) -> tuple[bool, tuple[str, ...]] | None:
    """Why `template_hits` leaves out `target`: (False, ()) where the teardrop does not
    touch its base; (True, pieces) where it does but the pieces (wall or solid terrain)
    stand between the base and the narrow end; None where the template hits it."""
    body = table.body(target)
    if not _touches(teardrop(origin, direction, length, width), body):
        return False, ()
    in_way = _in_way(table, origin, body)
    return (True, in_way) if in_way else None


@dataclass(frozen=True, slots=True)
class ScatterPath:
    """Where a scattering marker's centre goes: it stops at the first solid edge it meets
    and is removed if it leaves the table."""

    start: Point
    end: Point
    stopped_by: PieceId | None
    left_table: bool


def scatter(table: Table, start: Point, direction: float, distance: float) -> ScatterPath:
    """Move a point `distance` inches toward `direction` degrees.

    A scattering marker stops if its centre comes into contact with a wall, structure or
    impassable terrain, and is removed if its centre leaves the table. Walls, buildings
    and obstacles stop it; area terrain does not.
    """
    require_finite("the scatter's start, direction and distance", *start, direction, distance)
    ang = math.radians(direction)
    dx, dy = distance * math.cos(ang), distance * math.sin(ang)
    pa = table.arrays
    stop_t = 1.0
    stopped: PieceId | None = None
    if len(pa.x0) and distance > 0:
        ex, ey = pa.x1 - pa.x0, pa.y1 - pa.y0
        wx, wy = pa.x0 - start[0], pa.y0 - start[1]
        denom = dx * ey - dy * ex
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (wx * ey - wy * ex) / denom
            u = (wx * dy - wy * dx) / denom
        ok = (denom != 0) & (u >= 0) & (u <= 1) & (t >= 0) & (t <= 1) & pa.solid[pa.piece]
        if ok.any():
            k = int(np.argmin(np.where(ok, t, np.inf)))
            stop_t = float(t[k])
            stopped = table.pieces[int(pa.piece[k])].id
    end = (start[0] + stop_t * dx, start[1] + stop_t * dy)
    off = not (0.0 <= end[0] <= table.width and 0.0 <= end[1] <= table.depth)
    return ScatterPath(start=start, end=end, stopped_by=stopped, left_table=off)
