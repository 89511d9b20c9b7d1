"""Line of fire between two model cylinders, exact: the search for a clear sight line
(the witness) among finitely many candidate lines, one pair or many pairs at once.

What blocks a line is `game.geometry.blocking`; how much of the target a clear line
shows is `game.geometry.silhouette`.

How line of fire is decided exactly (the argument, in short):

1. Heights. Raising either end of a 3D segment raises every point of it, and every
   obstacle is a solid standing on the ground, so the best heights are the tops of
   both cylinders. Then a piece no taller than the lower model never blocks, and a
   piece at least as tall as the taller model blocks wherever the 2D segment enters
   its footprint: for those pieces the question is purely 2D. For a piece of height
   strictly between the two tops ("mid-height") only the part of the segment below
   its top blocks; for a fixed 2D line that part is smallest when the lower model's
   end is pushed to the back of its base and the higher model's end is the nearest
   point of its base, and that is the 3D segment we test for each 2D line.
2. 2D lines. The clear lines that meet both bases form regions of the 2D space of
   lines whose boundaries are made of lines tangent to a base or to a model in the
   way, or through a scenery corner. A non-empty region has a corner where two such
   constraints meet, so if any clear line exists, one of the common tangents of two
   "features" (the two bases, corners of the nearby pieces as discs of radius 0, the
   bases of models in the way) is clear. We build all those lines at once with numpy,
   test each one exactly (no sampling) against the nearby edges and discs, and
   return a clear one as the witness. Grazing lines are exactly the candidates, which
   is why touching must count as clear (and why a 0.05" gap is found). For
   mid-height pieces the same candidates are tested in 3D, which can miss a line that
   passes over a top edge.
3. Over top edges. When those candidates fail and some of them is clear of everything
   at least as tall as both models, the search goes on over pairs of end points on the
   rims of the two top discs, where the top edges of mid-height pieces are curves of a
   simple trigonometric form; their meeting points and folds are the remaining
   candidates (`game.geometry.over_tops`). Exact for scenery whose
   footprints keep off both bases; models in the way enter that step as 16-gons.

Speed: the nearby pieces are picked with bounding boxes and edge distances over
numpy arrays built once; the centre line and the four common tangents of the two
bases are tried first; a convex piece (or a model) that blocks both outer tangents
separates the two bases, which proves "no line of fire" without the full candidate set.
Step 4 is skipped when every candidate crosses an obstacle that blocks any line crossing
it: a wall at least as tall as both, or one of in-between height so near the lower model
(and far from the higher one) that no line has climbed over it there.
Many pairs at once (`lines_of_fire`, `clear_witnesses`) go through steps 1 to 3 together,
each pair against its own nearby obstacles held ragged in flat arrays
(`game.geometry.ragged`): the same arithmetic on the same numbers, so the same answers to
the last bit as one pair at a time, in a few dozen numpy calls rather than a few dozen
per pair.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from game.geometry.answers import LineOfFire, Point3, Sight, SightLine
from game.geometry.blocking import (
    EPS,
    Obstacles,
    Segments,
    blocked_by,
    gather,
    nearby,
    point_to_edges,
)
from game.geometry.over_tops import line_over_tops
from game.geometry.ragged import (
    Blocks,
    Ends,
    Groups,
    blocked_ragged,
    groups_near,
    ragged_arange,
)
from game.geometry.table import Body, BodyId, BoolArray, FloatArray, IntArray, Point, Table

__all__ = [
    "EPS",
    "LineOfFire",
    "Point3",
    "Sight",  # kept here for older importers: the answer types live in game.geometry.answers
    "SightLine",
    "clear_lines",
    "clear_sight",
    "clear_witnesses",
    "in_arc",
    "line_of_fire",
    "lines_of_fire",
    "tangents",
]


def in_arc(shooter: Body, target: Body, arc_degrees: float) -> bool:
    """Whether the target's base is at least partly inside the shooter's arc.

    The arc is centred on the shooter's facing and measured from its base centre
    (for example a 180 degree arc, a 90 degree one, or 360 for all round).
    """
    if arc_degrees >= 360.0:
        return True
    dx = target.at[0] - shooter.at[0]
    dy = target.at[1] - shooter.at[1]
    dist = math.hypot(dx, dy)
    if dist <= target.radius:
        return True
    off = math.degrees(math.atan2(dy, dx)) - shooter.facing
    off = (off + 180.0) % 360.0 - 180.0
    spread = math.degrees(math.asin(min(1.0, target.radius / dist)))
    return abs(off) <= arc_degrees / 2.0 + spread + 1e-9


# ------------------------------------------------------------- candidate lines


def tangents(
    x: FloatArray, y: FloatArray, r: FloatArray, i: IntArray, j: IntArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """All common tangent lines n.p = c of feature pairs (i, j) (discs; corners are r = 0)."""
    kinds = _tangent_kinds(x, y, r, i, j)
    return (
        np.concatenate([nx[ok] for nx, _, _, ok in kinds]),
        np.concatenate([ny[ok] for _, ny, _, ok in kinds]),
        np.concatenate([c[ok] for _, _, c, ok in kinds]),
    )


def _tangent_kinds(
    x: FloatArray, y: FloatArray, r: FloatArray, i: IntArray, j: IntArray
) -> list[tuple[FloatArray, FloatArray, FloatArray, BoolArray]]:
    """The four kinds of common tangent of each feature pair (outer two, then inner
    two): n.x, n.y, c and whether that tangent exists."""
    dx = x[j] - x[i]
    dy = y[j] - y[i]
    ll = np.hypot(dx, dy)
    phi = np.arctan2(dy, dx)
    out: list[tuple[FloatArray, FloatArray, FloatArray, BoolArray]] = []
    for s2 in (1.0, -1.0):
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = (s2 * r[j] - r[i]) / ll
        ok = (ll > 0) & (np.abs(ratio) <= 1.0)
        ang = np.arccos(np.clip(ratio, -1.0, 1.0))
        for sign in (1.0, -1.0):
            beta = phi + sign * ang
            nx, ny = np.cos(beta), np.sin(beta)
            c = nx * x[i] + ny * y[i] - r[i]
            out.append((nx, ny, c, ok))
    return out


def _segments_on_lines(
    nx: FloatArray, ny: FloatArray, c: FloatArray, a: Body, b: Body, back: bool
) -> Segments:
    """For each line meeting both bases, the 3D sight segment on it from a's top to b's.

    `back`: push the lower model's end to the far side of its base and take the nearest
    point of the higher one (best against mid-height pieces); otherwise near to near.
    """
    ax, ay = a.at
    bx, by = b.at
    ux, uy = -ny, nx
    flip = (ux * (bx - ax) + uy * (by - ay)) < 0
    ux = np.where(flip, -ux, ux)
    uy = np.where(flip, -uy, uy)
    da = nx * ax + ny * ay - c
    db = nx * bx + ny * by - c
    ha = np.sqrt(np.maximum(a.radius**2 - da * da, 0.0))
    hb = np.sqrt(np.maximum(b.radius**2 - db * db, 0.0))
    pax, pay = ax - da * nx, ay - da * ny
    pbx, pby = bx - db * nx, by - db * ny
    near_ax, near_ay = pax + ha * ux, pay + ha * uy
    near_bx, near_by = pbx - hb * ux, pby - hb * uy
    sx, sy, ex, ey = near_ax, near_ay, near_bx, near_by
    if back and a.height < b.height:
        sx, sy = pax - ha * ux, pay - ha * uy
    elif back and a.height > b.height:
        ex, ey = pbx + hb * ux, pby + hb * uy
    dx, dy = ex - sx, ey - sy
    ll = np.hypot(dx, dy)
    safe = np.where(ll == 0, 1.0, ll)
    ta = np.hypot(near_ax - sx, near_ay - sy) / safe
    tb = 1.0 - np.hypot(ex - near_bx, ey - near_by) / safe
    n = len(nx)
    return Segments(
        px=sx,
        py=sy,
        dx=dx,
        dy=dy,
        h0=np.full(n, a.height),
        h1=np.full(n, b.height),
        ta=ta,
        tb=tb,
    )


def _segments_few(
    nxs: Sequence[float], nys: Sequence[float], cs: Sequence[float], a: Body, b: Body, back: bool
) -> Segments:
    """`_segments_on_lines` for a handful of lines, float by float: the same operations
    in the same order (so the same segments to the last bit), without a numpy call per
    step; the lengths go through one np.hypot, as there."""
    ax, ay = a.at
    bx, by = b.at
    ra2, rb2 = a.radius**2, b.radius**2
    lower, higher = back and a.height < b.height, back and a.height > b.height
    sxs: list[float] = []
    sys_: list[float] = []
    dxs: list[float] = []
    dys: list[float] = []
    gaps_x: list[float] = []  # near_a - start, then end - near_b
    gaps_y: list[float] = []
    for nx, ny, c in zip(nxs, nys, cs, strict=True):
        ux, uy = -ny, nx
        if (ux * (bx - ax) + uy * (by - ay)) < 0:
            ux, uy = -ux, -uy
        da = nx * ax + ny * ay - c
        db = nx * bx + ny * by - c
        ha = math.sqrt(max(ra2 - da * da, 0.0))
        hb = math.sqrt(max(rb2 - db * db, 0.0))
        pax, pay = ax - da * nx, ay - da * ny
        pbx, pby = bx - db * nx, by - db * ny
        near_ax, near_ay = pax + ha * ux, pay + ha * uy
        near_bx, near_by = pbx - hb * ux, pby - hb * uy
        sx, sy, ex, ey = near_ax, near_ay, near_bx, near_by
        if lower:
            sx, sy = pax - ha * ux, pay - ha * uy
        elif higher:
            ex, ey = pbx + hb * ux, pby + hb * uy
        sxs.append(sx)
        sys_.append(sy)
        dxs.append(ex - sx)
        dys.append(ey - sy)
        gaps_x.append(near_ax - sx)
        gaps_y.append(near_ay - sy)
        gaps_x.append(ex - near_bx)
        gaps_y.append(ey - near_by)
    n = len(sxs)
    dx = np.array(dxs)
    dy = np.array(dys)
    lengths = np.hypot(np.concatenate((dx, gaps_x)), np.concatenate((dy, gaps_y)))
    ll = lengths[:n]
    safe = np.where(ll == 0, 1.0, ll)
    return Segments(
        px=np.array(sxs),
        py=np.array(sys_),
        dx=dx,
        dy=dy,
        h0=np.full(n, a.height),
        h1=np.full(n, b.height),
        ta=lengths[n::2] / safe,
        tb=1.0 - lengths[n + 1 :: 2] / safe,
    )


def _lines_through_both(
    nx: FloatArray, ny: FloatArray, c: FloatArray, a: Body, b: Body
) -> BoolArray:
    da = np.abs(nx * a.at[0] + ny * a.at[1] - c)
    db = np.abs(nx * b.at[0] + ny * b.at[1] - c)
    result: BoolArray = (da <= a.radius + 1e-9) & (db <= b.radius + 1e-9)
    return result


def _witness(seg: Segments, k: int) -> SightLine:
    x0, y0 = float(seg.px[k]), float(seg.py[k])
    return SightLine(
        Point3(x0, y0, float(seg.h0[k])),
        Point3(x0 + float(seg.dx[k]), y0 + float(seg.dy[k]), float(seg.h1[k])),
    )


def _centre_and_tangent_lists(a: Body, b: Body) -> tuple[list[float], list[float], list[float]]:
    """The centre line first, then the four common tangents of the two bases
    (the first two are the outer ones), as plain lists of n.x, n.y and c."""
    (ax, ay), (bx, by) = a.at, b.at
    nxs: list[float] = []
    nys: list[float] = []
    cs: list[float] = []
    _add_centre_and_tangents(
        nxs, nys, cs, ax, ay, a.radius, bx, by, b.radius, math.hypot(bx - ax, by - ay)
    )
    return nxs, nys, cs


def _add_centre_and_tangents(
    nxs: list[float],
    nys: list[float],
    cs: list[float],
    ax: float,
    ay: float,
    ar: float,
    bx: float,
    by: float,
    br: float,
    length: float,
) -> None:
    """Appends one pair's centre line and common tangents (those that exist) to the
    lists. The trigonometry is Python's math (the platform's libm) for one pair and for
    many alike: numpy's vectorised sin/cos/arctan2/arccos differ from libm in the last
    bits on some processors (AVX-512), and the many-pairs answers must equal the
    one-pair answers to the last bit."""
    phi = math.atan2(by - ay, bx - ax)
    nx0, ny0 = math.cos(phi + math.pi / 2), math.sin(phi + math.pi / 2)
    nxs.append(nx0)
    nys.append(ny0)
    cs.append(nx0 * ax + ny0 * ay)
    for s2 in (1.0, -1.0):
        ratio = (s2 * br - ar) / length
        if abs(ratio) > 1.0:
            continue
        ang = math.acos(ratio)
        for sign in (1.0, -1.0):
            nx, ny = math.cos(phi + sign * ang), math.sin(phi + sign * ang)
            nxs.append(nx)
            nys.append(ny)
            cs.append(nx * ax + ny * ay - ar)


def _contact_line(a: Body, b: Body) -> SightLine:
    ax, ay = a.at
    bx, by = b.at
    d = math.hypot(bx - ax, by - ay) or 1.0
    mx = ax + (bx - ax) * a.radius / d
    my = ay + (by - ay) * a.radius / d
    return SightLine(Point3(mx, my, a.height), Point3(mx, my, b.height))


def line_of_fire(
    table: Table,
    shooter: BodyId | str,
    target: BodyId | str,
    *,
    arc_degrees: float = 360.0,
    models_block: bool = True,
) -> LineOfFire:
    """The exact line-of-fire ruling between two models (see the module docstring)."""
    a = table.body(shooter)
    b = table.body(target)
    arc_ok = in_arc(a, b, arc_degrees)
    clear, witness, blockers = clear_sight(table, a, b, models_block)
    return LineOfFire(a.id, b.id, arc_ok, clear, witness, blockers)


def lines_of_fire(
    table: Table,
    pairs: Sequence[tuple[BodyId | str, BodyId | str]],
    *,
    arc_degrees: float = 360.0,
    models_block: bool = True,
) -> list[LineOfFire]:
    """Rulings for many (shooter, target) pairs, the same answers as `line_of_fire`.

    A clear sight line is the same set of segments both ways, so each unordered pair is
    solved once (the arc is per direction). The first two steps (centre line and common
    tangents of the bases; a convex solid across both outer tangents) run for all pairs
    in one numpy pass; the pairs they leave open take the full candidate set, together.
    """
    index, bodies = table.body_index, table.bodies
    keys: dict[tuple[int, int], int] = {}
    firsts: list[tuple[Body, Body]] = []
    asked: list[tuple[int, bool]] = []  # per pair: its unordered pair, and whether turned
    for shooter, target in pairs:
        i, j = index[BodyId(shooter)], index[BodyId(target)]
        key = (i, j) if i <= j else (j, i)
        k = keys.get(key)
        if k is None:
            k = keys[key] = len(firsts)
            firsts.append((bodies[i], bodies[j]))
            asked.append((k, False))
        else:
            asked.append((k, firsts[k][0].id != bodies[i].id))
    solved = _prepass(table, firsts, models_block)
    _solve_rest(table, firsts, solved, models_block)
    turned: dict[int, SightLine] = {}
    out: list[LineOfFire] = []
    for k, turn in asked:
        answer = solved[k]
        assert answer is not None
        clear, witness, blockers = answer
        a, b = firsts[k]
        if turn:
            a, b = b, a
            if witness is not None:
                w = turned.get(k)
                witness = turned[k] = SightLine(witness.end, witness.start) if w is None else w
        out.append(LineOfFire(a.id, b.id, in_arc(a, b, arc_degrees), clear, witness, blockers))
    return out


def clear_lines(
    table: Table, pairs: Sequence[tuple[Body, Body]], *, models_block: bool = True
) -> list[bool]:
    """Whether some clear sight line joins each pair of bodies (no arc, no visible
    fraction): the cheap question, exact, asked for many pairs at once.

    The bodies may stand anywhere, for instance one model at the points of its route:
    the table's models with the same ids are left out of the way, and the answer is
    `line_of_fire(...).clear` on the table with the two bodies moved there. All pairs
    go through the batched steps of `lines_of_fire`.
    """
    return [w is not None for w in clear_witnesses(table, pairs, models_block=models_block)]


def clear_witnesses(
    table: Table, pairs: Sequence[tuple[Body, Body]], *, models_block: bool = True
) -> list[SightLine | None]:
    """`clear_lines` with a clear sight line for each pair that has one (None: none)."""
    # the batched pass gathers the whole table once: worth it from a few pairs on
    solved: list[_Answer | None] = (
        _prepass(table, pairs, models_block, blockers_wanted=False)
        if len(pairs) >= 2
        else [None] * len(pairs)
    )
    _solve_rest(table, pairs, solved, models_block)
    return [answer[1] if answer is not None and answer[0] else None for answer in solved]


def _solve_rest(
    table: Table,
    pairs: Sequence[tuple[Body, Body]],
    solved: list[_Answer | None],
    models_block: bool,
) -> None:
    """Fill in the pairs `solved` leaves open (None) with `clear_sight`'s answers: one
    by one when they are few, else all at once."""
    rest = [k for k, answer in enumerate(solved) if answer is None]
    if len(rest) < 8:
        for k in rest:
            solved[k] = clear_sight(table, *pairs[k], models_block)
        return
    for k, answer in zip(
        rest, _solve_many(table, [pairs[k] for k in rest], models_block), strict=True
    ):
        solved[k] = answer


_Answer = tuple[bool, SightLine | None, tuple[str, ...]]
FEW = 20  # pairs at most that the first steps take all against the same obstacles


def _scenery_gap(table: Table, at: Point, radius: float) -> FloatArray:
    """How far a base at `at` keeps off each piece (negative: it overlaps), remembered
    with the scenery (bases may stand anywhere; watchers mostly stand still)."""
    memo = table.scenery_memo
    gaps = memo.get("gaps")
    if not isinstance(gaps, dict):
        gaps = memo["gaps"] = {}
    key = (at, radius)
    found = gaps.get(key)
    if found is None:
        polygons = memo.get("polygons")
        if polygons is None:
            polygons = memo["polygons"] = np.array(table.polygons)
        if len(table.pieces):
            found = shapely.distance(polygons, shapely.points(at)) - radius
        else:
            found = np.zeros(0)
        if len(gaps) > 8192:
            gaps.clear()
        gaps[key] = found
    result: FloatArray = found
    return result


def _centre_and_tangents_vec(
    ends: Ends, length: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """`_centre_and_tangent_lists` for many pairs whose bases keep apart (so all five
    lines exist): five lines a pair, pair by pair, the same numbers (`length`:
    math.hypot of the centres' offset)."""
    nxs: list[float] = []
    nys: list[float] = []
    cs: list[float] = []
    for ax, ay, ar, bx, by, br, ll in zip(
        ends.ax.tolist(),
        ends.ay.tolist(),
        ends.ar.tolist(),
        ends.bx.tolist(),
        ends.by.tolist(),
        ends.br.tolist(),
        length.tolist(),
        strict=True,
    ):
        _add_centre_and_tangents(nxs, nys, cs, ax, ay, ar, bx, by, br, ll)
    return np.array(nxs), np.array(nys), np.array(cs)


def _apart(pairs: Sequence[tuple[Body, Body]]) -> tuple[list[int], list[float]]:
    """The pairs whose bases keep apart (not in contact), with their centres' distance."""
    keep: list[int] = []
    lengths: list[float] = []
    for k, (a, b) in enumerate(pairs):
        length = math.hypot(b.at[0] - a.at[0], b.at[1] - a.at[1])
        if math.dist(a.at, b.at) > a.radius + b.radius + EPS:
            keep.append(k)
            lengths.append(length)
    return keep, lengths


def _owns(table: Table, pairs: Sequence[tuple[Body, Body]]) -> tuple[IntArray, IntArray]:
    """Each pair's two bodies' indices among the table's models (-1: none has the id)."""
    index = table.body_index
    return (
        np.array([index.get(a.id, -1) for a, _ in pairs], dtype=np.intp),
        np.array([index.get(b.id, -1) for _, b in pairs], dtype=np.intp),
    )


def _prepass(
    table: Table,
    pairs: Sequence[tuple[Body, Body]],
    models_block: bool,
    blockers_wanted: bool = True,
) -> list[_Answer | None]:
    """Steps 1 and 2 of `clear_sight` for many pairs at once (None: not settled): the
    centre line and the four common tangents of the bases (the lower model's end at the
    back of its base) each against its own pair's nearby obstacles, and a convex solid
    across both outer tangents."""
    if len(pairs) <= FEW:
        return _prepass_few(table, pairs, models_block, blockers_wanted)
    return _prepass_many(table, pairs, models_block, blockers_wanted)


def _prepass_many(
    table: Table,
    pairs: Sequence[tuple[Body, Body]],
    models_block: bool,
    blockers_wanted: bool = True,
) -> list[_Answer | None]:
    """`_prepass` for many pairs, each against its own nearby obstacles, held ragged."""
    answers: list[_Answer | None] = [None] * len(pairs)
    keep, lengths = _apart(pairs)
    if not keep:
        return answers
    group_pairs = [pairs[k] for k in keep]
    ends = Ends.of(group_pairs)
    ng = len(group_pairs)
    nx, ny, c = _centre_and_tangents_vec(ends, np.array(lengths))
    seg = _segments_vec(nx, ny, c, ends.take(np.repeat(np.arange(ng), 5)))
    groups = groups_near(table, ends, _owns(table, group_pairs), models_block)
    blocks = blocked_ragged(table, groups, np.repeat(np.arange(ng, dtype=np.intp), 5), seg)
    free: BoolArray = ~blocks.hit.reshape(ng, 5)
    settled: BoolArray = np.logical_or.reduce(free, axis=1)
    first = free.argmax(axis=1)
    high = np.maximum(ends.ah, ends.bh)
    across = _across(table, groups, blocks, high, np.arange(ng, dtype=np.intp) * 5)
    hidden: list[int] = []
    for g in np.flatnonzero(settled | across.any_piece | across.any_body):
        k = keep[g]
        a, b = group_pairs[g]
        if settled[g]:
            answers[k] = (True, _witness(seg, 5 * int(g) + int(first[g])), ())
            continue
        cut = bool(across.any_body[g])
        if not cut and across.any_piece[g]:
            pieces = across.pieces(groups, int(g))
            gap_a = _scenery_gap(table, a.at, a.radius)[pieces]
            gap_b = _scenery_gap(table, b.at, b.radius)[pieces]
            cut = bool(((gap_a > EPS) & (gap_b > EPS)).any())
        if cut:
            hidden.append(int(g))
    found = (
        _centre_blockers(table, groups, blocks, np.array(hidden, dtype=np.intp))
        if blockers_wanted
        else [()] * len(hidden)
    )
    for h, blockers in zip(hidden, found, strict=True):
        answers[keep[h]] = (False, None, blockers)
    return answers


def _prepass_few(
    table: Table,
    pairs: Sequence[tuple[Body, Body]],
    models_block: bool,
    blockers_wanted: bool = True,
) -> list[_Answer | None]:
    """`_prepass` for a few pairs (None: not settled), in fewer numpy calls: every pair's
    segments against the same obstacles, the pieces any of the pairs could meet and
    every model (the others' obstacles cannot block a pair's lines, so the answers are
    the same)."""
    answers: list[_Answer | None] = [None] * len(pairs)
    keep, _ = _apart(pairs)
    group = [pairs[k] for k in keep]
    lines = [_centre_and_tangent_lists(a, b) for a, b in group]
    if not group or any(len(ln[0]) != 5 for ln in lines):
        return answers
    ends = Ends.of(group)
    ng = len(group)
    nx = np.array([v for ln in lines for v in ln[0]])
    ny = np.array([v for ln in lines for v in ln[1]])
    c = np.array([v for ln in lines for v in ln[2]])
    seg = _segments_vec(nx, ny, c, ends.take(np.repeat(np.arange(ng), 5)))
    pa = table.arrays
    nbodies = len(table.bodies) if models_block else 0
    bodies = np.arange(nbodies, dtype=np.intp)
    # the pieces whose bounding circle comes near some pair's centre segment
    ax_, ay_, bx_, by_ = (v[:, None] for v in (ends.ax, ends.ay, ends.bx, ends.by))
    reach = np.maximum(ends.ar, ends.br)[:, None]
    ddx, ddy = bx_ - ax_, by_ - ay_  # the centre segments are longer than the bases
    t = np.clip(((pa.cx - ax_) * ddx + (pa.cy - ay_) * ddy) / (ddx * ddx + ddy * ddy), 0, 1)
    dist = np.hypot(pa.cx - (ax_ + t * ddx), pa.cy - (ay_ + t * ddy))
    chosen = np.flatnonzero((dist <= reach + 1e-6 + pa.radius).any(axis=0))
    sub = gather(table, chosen, bodies)
    # pieces lower than both ends are kept here: their height range is empty
    with np.errstate(invalid="ignore"):
        part = blocked_by(seg.px, seg.py, seg.dx, seg.dy, seg.h0, seg.h1, seg.ta, seg.tb, sub)
    # columns: the chosen pieces, then every model (each pair's own two left out)
    nc = len(chosen)
    rows: BoolArray = part.reshape(ng, 5, nc + nbodies)
    if nbodies:
        index = table.body_index
        for g, (a, b) in enumerate(group):
            for body in (index.get(a.id), index.get(b.id)):
                if body is not None:
                    rows[g, :, nc + body] = False
    free: BoolArray = ~np.logical_or.reduce(rows, axis=2)
    settled: BoolArray = np.logical_or.reduce(free, axis=1)
    first = free.argmax(axis=1)
    tops = np.concatenate((sub.top, table.body_arrays.h[bodies]))
    convex = np.concatenate((pa.convex[chosen], np.ones(nbodies, dtype=np.bool_)))
    high = np.maximum(ends.ah, ends.bh)
    across = rows[:, 1] & rows[:, 2] & convex & (tops >= high[:, None])
    for g in np.flatnonzero(settled | np.logical_or.reduce(across, axis=1)).tolist():
        k, (a, b) = keep[g], group[g]
        if settled[g]:
            answers[k] = (True, _witness(seg, 5 * g + int(first[g])), ())
            continue
        cut = across[g]
        if cut[:nc].any():
            cut[:nc] &= (_scenery_gap(table, a.at, a.radius)[chosen] > EPS) & (
                _scenery_gap(table, b.at, b.radius)[chosen] > EPS
            )
        if cut.any():
            blockers = (
                tuple(_column_id(table, chosen, j) for j in np.flatnonzero(rows[g, 0]).tolist())
                if blockers_wanted
                else ()
            )
            answers[k] = (False, None, blockers)
    return answers


def _column_id(table: Table, chosen: IntArray, j: int) -> str:
    """Id of column j of `_prepass_few`: the chosen pieces first, then every model."""
    if j < len(chosen):
        return str(table.pieces[int(chosen[j])].id)
    return str(table.bodies[j - len(chosen)].id)


@dataclass(frozen=True, slots=True)
class _Across:
    """Per group: which of its pieces (convex) and models, at least as tall as both ends,
    block both outer tangents (rows 1 and 2 after the group's first row)."""

    piece: BoolArray  # per group-piece
    any_piece: BoolArray  # per group
    any_body: BoolArray  # per group
    bent: BoolArray  # per group-piece: as `piece`, but the piece is not convex

    def pieces(self, groups: Groups, g: int) -> IntArray:
        lo, hi = groups.piece_start[g], groups.piece_start[g + 1]
        result: IntArray = groups.pieces[lo:hi][self.piece[lo:hi]]
        return result


def _across(
    table: Table, groups: Groups, blocks: Blocks, high: FloatArray, row0: IntArray
) -> _Across:
    """Step 2's test for every group at once; `row0`: each group's first segment."""
    ng = len(row0)
    npc = groups.piece_count()
    g_p = np.repeat(np.arange(ng, dtype=np.intp), npc)
    local = ragged_arange(npc)
    r1 = blocks.piece[blocks.piece_at[row0 + 1][g_p] + local]
    r2 = blocks.piece[blocks.piece_at[row0 + 2][g_p] + local]
    pa = table.arrays
    tall = r1 & r2 & (pa.top[groups.pieces] >= high[g_p])
    piece = tall & pa.convex[groups.pieces]
    nbc = groups.body_count()
    g_b = np.repeat(np.arange(ng, dtype=np.intp), nbc)
    local_b = ragged_arange(nbc)
    b1 = blocks.body[blocks.body_at[row0 + 1][g_b] + local_b]
    b2 = blocks.body[blocks.body_at[row0 + 2][g_b] + local_b]
    body = b1 & b2 & (table.body_arrays.h[groups.bodies] >= high[g_b])
    any_piece = np.zeros(ng, dtype=np.bool_)
    any_piece[g_p[piece]] = True
    any_body = np.zeros(ng, dtype=np.bool_)
    any_body[g_b[body]] = True
    return _Across(
        piece=piece, any_piece=any_piece, any_body=any_body, bent=tall & ~pa.convex[groups.pieces]
    )


def _bent_walls(
    table: Table,
    groups: Groups,
    across: _Across,
    ends: Ends,
    nx: FloatArray,
    ny: FloatArray,
    todo: IntArray,
) -> BoolArray:
    """Step 2 for pieces that are not convex, for the groups `todo` (whose lines are
    `nx`, `ny`, five a group): whether one of them, at least as tall as both ends,
    across both outer tangents and clear of both bases, leaves a single polygon inside
    the quadrilateral of the outer tangents' four touching points. Then it separates
    the bases: outside both bases every sight line runs inside that quadrilateral from
    one base to the other, and a connected solid joining its two long sides is crossed
    by every such line (no line threads a neck of the piece thinner than a touch)."""
    npc = groups.piece_count()
    g_p = np.repeat(np.arange(len(npc), dtype=np.intp), npc)
    wanted = np.zeros(len(npc), dtype=np.bool_)
    wanted[todo] = True
    entries = np.flatnonzero(across.bent & wanted[g_p])
    out = np.zeros(len(todo), dtype=np.bool_)
    if not len(entries):
        return out
    g = g_p[entries]
    pieces = groups.pieces[entries]
    shapes = np.array(table.polygons, dtype=object)[pieces]
    e = ends.take(g)
    clear = (shapely.distance(shapes, shapely.points(e.ax, e.ay)) - e.ar > EPS) & (
        shapely.distance(shapes, shapely.points(e.bx, e.by)) - e.br > EPS
    )
    n1x, n1y, n2x, n2y = nx[5 * g + 1], ny[5 * g + 1], nx[5 * g + 2], ny[5 * g + 2]
    corners = np.stack(
        (
            np.column_stack((e.ax - e.ar * n1x, e.ay - e.ar * n1y)),
            np.column_stack((e.bx - e.br * n1x, e.by - e.br * n1y)),
            np.column_stack((e.bx - e.br * n2x, e.by - e.br * n2y)),
            np.column_stack((e.ax - e.ar * n2x, e.ay - e.ar * n2y)),
        ),
        axis=1,
    )
    inside = shapely.intersection(shapes, shapely.polygons(corners))
    one = (shapely.get_type_id(inside) == 3) & ~shapely.is_empty(inside)
    hidden = np.zeros(len(npc), dtype=np.bool_)
    hidden[g[clear & one]] = True
    result: BoolArray = hidden[todo]
    return result


def _centre_blockers(
    table: Table, groups: Groups, blocks: Blocks, gs: IntArray
) -> list[tuple[str, ...]]:
    """Ids of the obstacles blocking each group's centre line (its first of five
    segments) for the groups `gs`: its pieces, then its models."""
    names: list[list[str]] = [[] for _ in range(len(gs))]
    rows = 5 * gs
    for at, flags, start, items, ids in (
        (blocks.piece_at, blocks.piece, groups.piece_start, groups.pieces, table.pieces),
        (blocks.body_at, blocks.body, groups.body_start, groups.bodies, table.bodies),
    ):
        n = at[rows + 1] - at[rows]
        local = ragged_arange(n)
        hit = flags[np.repeat(at[rows], n) + local]
        which = items[np.repeat(start[gs], n) + local][hit]
        for r, k in zip(
            np.repeat(np.arange(len(gs)), n)[hit].tolist(), which.tolist(), strict=True
        ):
            names[r].append(str(ids[k].id))
    return [tuple(found) for found in names]


def _solve_many(
    table: Table, pairs: Sequence[tuple[Body, Body]], models_block: bool
) -> list[_Answer]:
    """`clear_sight` for many pairs, the same answers to the last bit of the witness:
    steps 1 to 3 for all the pairs in a few array passes (each pair against its own
    nearby obstacles, its candidates in `clear_sight`'s order), step 4 pair by pair."""
    answers: list[_Answer | None] = [None] * len(pairs)
    todo: list[int] = []
    lengths: list[float] = []
    for k, (a, b) in enumerate(pairs):
        dist = math.hypot(b.at[0] - a.at[0], b.at[1] - a.at[1])
        if dist <= a.radius + b.radius + EPS:
            answers[k] = (True, _contact_line(a, b), ())
        else:
            todo.append(k)
            lengths.append(dist)
    if todo:
        mine = [pairs[k] for k in todo]
        for k, answer in zip(todo, _solve_apart(table, mine, lengths, models_block), strict=True):
            answers[k] = answer
    return [answer for answer in answers if answer is not None]


def _solve_apart(
    table: Table, pairs: list[tuple[Body, Body]], lengths: list[float], models_block: bool
) -> list[_Answer]:
    """`_solve_many` for pairs whose bases keep apart (`lengths`: centre to centre)."""
    ng = len(pairs)
    answers: list[_Answer | None] = [None] * ng
    ends = Ends.of(pairs)
    groups = groups_near(table, ends, _owns(table, pairs), models_block)
    pa, ba = table.arrays, table.body_arrays
    high = np.maximum(ends.ah, ends.bh)
    npc, nbc = groups.piece_count(), groups.body_count()
    g_p = np.repeat(np.arange(ng, dtype=np.intp), npc)
    g_b = np.repeat(np.arange(ng, dtype=np.intp), nbc)
    mid = np.zeros(ng, dtype=np.bool_)
    mid[g_p[pa.top[groups.pieces] < high[g_p]]] = True
    mid[g_b[ba.h[groups.bodies] < high[g_b]]] = True
    # 1. the centre line and the four common tangents of the two bases
    nx, ny, c = _centre_and_tangents_vec(ends, np.array(lengths))
    seg = _segments_vec(nx, ny, c, ends.take(np.repeat(np.arange(ng), 5)), np.repeat(mid, 5))
    rows = np.repeat(np.arange(ng, dtype=np.intp), 5)
    blocks = blocked_ragged(table, groups, rows, seg)
    free = ~blocks.hit.reshape(ng, 5)
    first = free.argmax(axis=1)
    # 2. a convex solid, at least as tall as both, across both outer tangents
    across = _across(table, groups, blocks, high, np.arange(ng, dtype=np.intp) * 5)
    shut = np.flatnonzero(~np.logical_or.reduce(free, axis=1))
    blockers = dict(zip(shut.tolist(), _centre_blockers(table, groups, blocks, shut), strict=True))
    open_: list[int] = []
    for g in range(ng):
        if free[g, first[g]]:
            answers[g] = (True, _witness(seg, 5 * g + int(first[g])), ())
            continue
        a, b = pairs[g]
        if across.any_body[g] or (
            across.any_piece[g] and _pieces_clear_of_bases(table, across.pieces(groups, g), a, b)
        ):
            answers[g] = (False, None, blockers[g])
        else:
            open_.append(g)
    if open_:
        todo = np.array(open_, dtype=np.intp)
        walled = _bent_walls(table, groups, across, ends, nx, ny, todo)
        for g in todo[walled].tolist():
            answers[g] = (False, None, blockers[g])
        todo = todo[~walled]
        if len(todo):
            _tangent_step(table, pairs, groups, todo, mid, answers, blockers)
    return [answer for answer in answers if answer is not None]


def _tangent_step(
    table: Table,
    pairs: list[tuple[Body, Body]],
    groups: Groups,
    todo: IntArray,
    mid: BoolArray,
    answers: list[_Answer | None],
    blockers: dict[int, tuple[str, ...]],
) -> None:
    """Steps 3 and 4 of `clear_sight` for the groups `todo` (answers filled in place)."""
    pa, ba = table.arrays, table.body_arrays
    edges, ne = groups.edges(table, todo)
    nb = groups.body_count()[todo]
    nf = 2 + ne + nb
    fstart = np.zeros(len(todo) + 1, dtype=np.intp)
    np.cumsum(nf, out=fstart[1:])
    ends = Ends.of(pairs).take(todo)
    fx = np.zeros(int(fstart[-1]))
    fy = np.zeros(len(fx))
    fr = np.zeros(len(fx))
    fx[fstart[:-1]], fy[fstart[:-1]], fr[fstart[:-1]] = ends.ax, ends.ay, ends.ar
    fx[fstart[:-1] + 1], fy[fstart[:-1] + 1], fr[fstart[:-1] + 1] = ends.bx, ends.by, ends.br
    at = np.repeat(fstart[:-1] + 2, ne) + ragged_arange(ne)
    fx[at], fy[at] = pa.x0[edges], pa.y0[edges]
    bodies = groups.bodies[np.repeat(groups.body_start[todo], nb) + ragged_arange(nb)]
    at = np.repeat(fstart[:-1] + 2 + ne, nb) + ragged_arange(nb)
    fx[at], fy[at], fr[at] = ba.x[bodies], ba.y[bodies], ba.r[bodies]
    fi: list[IntArray] = []
    fj: list[IntArray] = []
    for t, n in enumerate(nf.tolist()):
        i, j = _feature_pairs(n)
        fi.append(i + fstart[t])
        fj.append(j + fstart[t])
    i, j = np.concatenate(fi), np.concatenate(fj)
    pair_of = np.repeat(np.arange(len(todo), dtype=np.intp), nf * (nf - 1) // 2)
    # Two corners have one common tangent, the line through both, four times over (the
    # same segment each time): only its first copy can be the first clear candidate, and
    # only if that line meets both bases (tested here with room to spare, then exactly)
    corners = (fr[i] == 0) & (fr[j] == 0)
    on = ends.take(pair_of)
    ux, uy = fx[j] - fx[i], fy[j] - fy[i]
    room = np.hypot(ux, uy)
    meets_a = np.abs(ux * (on.ay - fy[i]) - uy * (on.ax - fx[i])) <= (on.ar + 1e-6) * room
    meets_b = np.abs(ux * (on.by - fy[i]) - uy * (on.bx - fx[i])) <= (on.br + 1e-6) * room
    tried = np.flatnonzero(~corners | (meets_a & meets_b))
    i, j, pair_of, corners, on = i[tried], j[tried], pair_of[tried], corners[tried], on.take(tried)
    # each kind of tangent that exists and meets both bases, then in clear_sight's order
    # (by pair: the kinds in turn, each in feature-pair order)
    kinds = []
    for kind, (nx, ny, c, ok) in enumerate(_tangent_kinds(fx, fy, fr, i, j)):
        if kind:
            ok = ok & ~corners
        with np.errstate(invalid="ignore"):
            da = np.abs(nx * on.ax + ny * on.ay - c)
            db = np.abs(nx * on.bx + ny * on.by - c)
        ok = ok & (da <= on.ar + 1e-9) & (db <= on.br + 1e-9)
        kinds.append((nx[ok], ny[ok], c[ok], pair_of[ok]))
    key = np.concatenate([t * 4 + v for v, (_, _, _, t) in enumerate(kinds)])
    order = np.argsort(key, kind="stable")
    nx = np.concatenate([v for v, _, _, _ in kinds])[order]
    ny = np.concatenate([v for _, v, _, _ in kinds])[order]
    c = np.concatenate([v for _, _, v, _ in kinds])[order]
    t_of = key[order] // 4
    per = ends.take(t_of)
    line_g = todo[t_of]
    seg = _segments_vec(nx, ny, c, per, mid[line_g])
    blocks = blocked_ragged(table, groups, line_g, seg)
    free = np.flatnonzero(~blocks.hit)
    found, at_first = np.unique(t_of[free], return_index=True)
    witness = dict(zip(found.tolist(), free[at_first].tolist(), strict=True))
    at = np.searchsorted(t_of, np.arange(len(todo) + 1))
    for t, g in enumerate(todo.tolist()):
        k = witness.get(t)
        if k is not None:
            answers[g] = (True, _witness(seg, k), ())
            continue
        a, b = pairs[g]
        if (
            mid[g]
            and min(a.height, b.height) < max(a.height, b.height)
            and _may_pass_over(
                table, *_group_rows(groups, blocks, g, int(at[t]), int(at[t + 1])), a, b
            )
        ):
            lo, hi = groups.piece_start[g], groups.piece_start[g + 1]
            blo, bhi = groups.body_start[g], groups.body_start[g + 1]
            over = line_over_tops(a, b, gather(table, groups.pieces[lo:hi], groups.bodies[blo:bhi]))
            if over is not None:
                answers[g] = (True, over, ())
                continue
        answers[g] = (False, None, blockers[g])


def _group_rows(
    groups: Groups, blocks: Blocks, g: int, first: int, last: int
) -> tuple[IntArray, IntArray, BoolArray, BoolArray]:
    """Group g's pieces and models, and which of them its segments first..last-1 are
    blocked by (one row a segment)."""
    pieces = groups.pieces[groups.piece_start[g] : groups.piece_start[g + 1]]
    bodies = groups.bodies[groups.body_start[g] : groups.body_start[g + 1]]
    by_piece = blocks.piece[blocks.piece_at[first] : blocks.piece_at[last]]
    by_body = blocks.body[blocks.body_at[first] : blocks.body_at[last]]
    return (
        pieces,
        bodies,
        by_piece.reshape(last - first, len(pieces)),
        by_body.reshape(last - first, len(bodies)),
    )


def _may_pass_over(
    table: Table,
    pieces: IntArray,
    bodies: IntArray,
    by_piece: BoolArray,
    by_body: BoolArray,
    a: Body,
    b: Body,
) -> bool:
    """Step 4's condition, from which of the nearby `pieces` and `bodies` each candidate
    of step 3 is blocked by (rows): some candidate is clear of every obstacle at least
    as tall as both ends, and of every one of in-between height that any sight line
    crossing it passes below its top (`_surely_under`). Those obstacles block a line
    wherever it crosses them, as walls do; when every candidate crosses one, the flat
    argument of step 3 says every line does, and the search over the top edges would
    find nothing."""
    high = max(a.height, b.height)
    wall_p = table.arrays.top[pieces] >= high
    wall_b = table.body_arrays.h[bodies] >= high
    crossed = by_piece[:, wall_p].any(axis=1) | by_body[:, wall_b].any(axis=1)
    if crossed.all():
        return False
    sure_p, sure_b = _surely_under(table, pieces, bodies, a, b)
    crossed |= by_piece[:, sure_p].any(axis=1) | by_body[:, sure_b].any(axis=1)
    return not crossed.all()


def _surely_under(
    table: Table, pieces: IntArray, bodies: IntArray, a: Body, b: Body
) -> tuple[BoolArray, BoolArray]:
    """Which pieces and models of in-between height every sight line from the lower
    model's top disc to the higher one's passes below the top of, wherever it crosses
    them (by a millionth of an inch). At a point x of the line between p (lower end)
    and q (higher end) the line has climbed |x - p| / (|x - p| + |q - x|) of the way,
    at most U / (U + V) with U the farthest any point of the obstacle is from the
    lower base and V the nearest it comes to the higher one."""
    lower, upper = (a, b) if a.height < b.height else (b, a)
    (lx, ly), (hx, hy) = lower.at, upper.at
    span = upper.height - lower.height
    pa, ba = table.arrays, table.body_arrays
    sure_p = np.zeros(len(pieces), dtype=np.bool_)
    for n, p in enumerate(pieces.tolist()):
        top = float(pa.top[p])
        if top >= upper.height:
            continue
        sel = slice(int(pa.start[p]), int(pa.start[p] + pa.count[p]))
        x0, y0, x1, y1 = pa.x0[sel], pa.y0[sel], pa.x1[sel], pa.y1[sel]
        far = float(np.hypot(x0 - lx, y0 - ly).max()) + lower.radius
        near = float(point_to_edges(hx, hy, x0, y0, x1, y1).min()) - upper.radius
        if near > 0 and not shapely.contains_xy(table.polygons[p], hx, hy):
            sure_p[n] = lower.height + span * far / (far + near) < top - 1e-6
    tops = ba.h[bodies]
    far_b = np.hypot(ba.x[bodies] - lx, ba.y[bodies] - ly) + ba.r[bodies] + lower.radius
    near_b = np.hypot(ba.x[bodies] - hx, ba.y[bodies] - hy) - ba.r[bodies] - upper.radius
    with np.errstate(divide="ignore", invalid="ignore"):
        climbed = lower.height + span * far_b / (far_b + near_b)
    sure_b = (tops < upper.height) & (near_b > 0) & (climbed < tops - 1e-6)
    return sure_p, sure_b


def _pieces_clear_of_bases(table: Table, pieces: IntArray, a: Body, b: Body) -> bool:
    """`_clear_of_bases` for table pieces: whether one keeps clear of both bases."""
    pa = table.arrays
    for p in pieces.tolist():
        sel = slice(int(pa.start[p]), int(pa.start[p] + pa.count[p]))
        x0, y0 = pa.x0[sel], pa.y0[sel]
        x1, y1 = x0 + (pa.x1[sel] - x0), y0 + (pa.y1[sel] - y0)
        da = float(point_to_edges(a.at[0], a.at[1], x0, y0, x1, y1).min())
        db = float(point_to_edges(b.at[0], b.at[1], x0, y0, x1, y1).min())
        if da > a.radius + EPS and db > b.radius + EPS:
            return True
    return False


def _segments_vec(
    nx: FloatArray, ny: FloatArray, c: FloatArray, ends: Ends, back: BoolArray | None = None
) -> Segments:
    """`_segments_on_lines` with one pair per line, in `back` mode where `back` says
    (everywhere if it is None)."""
    ax, ay, ar, ah = ends.ax, ends.ay, ends.ar, ends.ah
    bx, by, br, bh = ends.bx, ends.by, ends.br, ends.bh
    ux, uy = -ny, nx
    flip = (ux * (bx - ax) + uy * (by - ay)) < 0
    ux = np.where(flip, -ux, ux)
    uy = np.where(flip, -uy, uy)
    da = nx * ax + ny * ay - c
    db = nx * bx + ny * by - c
    ha = np.sqrt(np.maximum(ar**2 - da * da, 0.0))
    hb = np.sqrt(np.maximum(br**2 - db * db, 0.0))
    pax, pay = ax - da * nx, ay - da * ny
    pbx, pby = bx - db * nx, by - db * ny
    near_ax, near_ay = pax + ha * ux, pay + ha * uy
    near_bx, near_by = pbx - hb * ux, pby - hb * uy
    lower, higher = ah < bh, ah > bh
    if back is not None:
        lower, higher = lower & back, higher & back
    sx = np.where(lower, pax - ha * ux, near_ax)
    sy = np.where(lower, pay - ha * uy, near_ay)
    ex = np.where(higher, pbx + hb * ux, near_bx)
    ey = np.where(higher, pby + hb * uy, near_by)
    dx, dy = ex - sx, ey - sy
    ll = np.hypot(dx, dy)
    safe = np.where(ll == 0, 1.0, ll)
    ta = np.hypot(near_ax - sx, near_ay - sy) / safe
    tb = 1.0 - np.hypot(ex - near_bx, ey - near_by) / safe
    return Segments(px=sx, py=sy, dx=dx, dy=dy, h0=ah, h1=bh, ta=ta, tb=tb)


def clear_sight(
    table: Table, a: Body, b: Body, models_block: bool, solid_only: bool = False
) -> tuple[bool, SightLine | None, tuple[str, ...]]:
    dist = math.hypot(b.at[0] - a.at[0], b.at[1] - a.at[1])
    if dist <= a.radius + b.radius + EPS:
        return True, _contact_line(a, b), ()
    low, high = min(a.height, b.height), max(a.height, b.height)
    obs = nearby(table, a, b, min_top=low, models_block=models_block, solid_only=solid_only)
    if obs.empty:
        seg = _segments_few(*_centre_and_tangent_lists(a, b), a, b, back=False)
        return True, _witness(seg, 0), ()
    tops = np.concatenate((obs.top, obs.ch))
    mid = bool((tops < high).any())
    # 1. the centre line and the four common tangents of the two bases
    nxs, nys, cs = _centre_and_tangent_lists(a, b)
    seg = _segments_few(nxs, nys, cs, a, b, back=mid)
    blocked = blocked_by(seg.px, seg.py, seg.dx, seg.dy, seg.h0, seg.h1, seg.ta, seg.tb, obs)
    free = ~blocked.any(axis=1)
    if free.any():
        return True, _witness(seg, int(np.argmax(free))), ()
    blockers = tuple(obs.ids(table, int(k)) for k in np.flatnonzero(blocked[0]))
    # 2. one convex solid (at least as tall as both) across both outer tangents separates
    #    the bases: no line of fire. Pieces touching either base are left to step 3.
    full = tops >= high
    if len(nxs) >= 3:
        across = blocked[1] & blocked[2] & full
        across[: len(obs.pieces)] &= table.arrays.convex[obs.pieces]
        if across.any() and _clear_of_bases(obs, np.flatnonzero(across), a, b):
            return False, None, blockers
    # 3. every common tangent of two features (bases, corners, models in the way)
    fx = np.concatenate((np.array([a.at[0], b.at[0]]), obs.x0, obs.cx))
    fy = np.concatenate((np.array([a.at[1], b.at[1]]), obs.y0, obs.cy))
    fr = np.concatenate((np.array([a.radius, b.radius]), np.zeros(len(obs.x0)), obs.cr))
    i, j = _feature_pairs(len(fx))
    nx, ny, c = tangents(fx, fy, fr, i, j)
    keep = _lines_through_both(nx, ny, c, a, b)
    nx, ny, c = nx[keep], ny[keep], c[keep]
    if len(nx) == 0:
        return False, None, blockers
    seg = _segments_on_lines(nx, ny, c, a, b, back=mid)
    blocked = blocked_by(seg.px, seg.py, seg.dx, seg.dy, seg.h0, seg.h1, seg.ta, seg.tb, obs)
    free = ~blocked.any(axis=1)
    if free.any():
        return True, _witness(seg, int(np.argmax(free))), ()
    # 4. in-between pieces: when some candidate is clear of everything that blocks any
    #    line crossing it (else the flat problem already has no line), lines over their
    #    top edges
    npieces = len(obs.pieces)
    if (
        mid
        and low < high
        and _may_pass_over(
            table, obs.pieces, obs.bodies, blocked[:, :npieces], blocked[:, npieces:], a, b
        )
    ):
        over = line_over_tops(a, b, obs)
        if over is not None:
            return True, over, ()
    return False, None, blockers


_PAIRS: dict[int, tuple[IntArray, IntArray]] = {}


def _feature_pairs(n: int) -> tuple[IntArray, IntArray]:
    """Every pair i < j of n features (np.triu_indices, kept per n: read only)."""
    found = _PAIRS.get(n)
    if found is None:
        i, j = np.triu_indices(n, k=1)
        found = (i.astype(np.intp), j.astype(np.intp))
        if len(_PAIRS) > 512:
            _PAIRS.clear()
        _PAIRS[n] = found
    return found


def _clear_of_bases(obs: Obstacles, ks: IntArray, a: Body, b: Body) -> bool:
    """Whether at least one of the obstacles `ks` keeps clear of both bases."""
    npieces = len(obs.pieces)
    for k in ks:
        if k >= npieces:
            return True  # models never overlap the two bases (contact was handled)
        sel = slice(obs.offsets[k], obs.offsets[k + 1] if k + 1 < npieces else len(obs.x0))
        x0, y0 = obs.x0[sel], obs.y0[sel]
        x1, y1 = x0 + obs.ex[sel], y0 + obs.ey[sel]
        da = float(point_to_edges(a.at[0], a.at[1], x0, y0, x1, y1).min())
        db = float(point_to_edges(b.at[0], b.at[1], x0, y0, x1, y1).min())
        if da > a.radius + EPS and db > b.radius + EPS:
            return True
    return False
