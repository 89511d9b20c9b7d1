"""Typed doors to the compiled kernels (`game.geometry.kernels`), which import numba
only when first called: commands that draw no sight line never load it."""

from __future__ import annotations

from game.geometry.table import BoolArray, FloatArray, IntArray


def strips_need(
    jj: IntArray,
    kd: FloatArray,
    qx: FloatArray,
    qy: FloatArray,
    trig: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
    ar2: float,
    bx: float,
    by: float,
    br2: float,
    ha: float,
    columns: int,
    pieces: tuple[IntArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray],
    bodies: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
) -> tuple[FloatArray, FloatArray, IntArray, FloatArray]:
    """`kernels.strips_need`: (zmin, zseg, col, need). `trig`: sin and cos of each
    direction's offset from the strip's centre line, cos and sin of the direction;
    `pieces`: offsets, x0, y0, ex, ey, top; `bodies`: cx, cy, cr, ch."""
    from game.geometry import kernels

    result: tuple[FloatArray, FloatArray, IntArray, FloatArray] = kernels.strips_need(
        jj, kd, qx, qy, *trig, ar2, bx, by, br2, ha, columns, *pieces, *bodies
    )
    return result


def blocked_by(
    segments: tuple[FloatArray, ...],
    pieces: tuple[FloatArray | IntArray | BoolArray, ...],
    bodies: tuple[FloatArray, ...],
    eps: float,
    angle_eps: float,
) -> BoolArray:
    """`kernels.blocked_by`. `segments`: px, py, dx, dy, h0, h1, ta, tb; `pieces`: top,
    offsets, x0, y0, ex, ey, elen, in_x, in_y, out_x, out_y, reflex; `bodies`: cx,
    cy, cr, ch."""
    from game.geometry import kernels

    result: BoolArray = kernels.blocked_by(*segments, *pieces, *bodies, eps, angle_eps)
    return result


def separated_in_parts(
    chosen: IntArray,
    bodies: IntArray,
    watcher: tuple[float, float, float, float],
    mover: tuple[float, float],
    leg: tuple[float, float, float, float],
    splits: int,
    scenery: tuple[FloatArray, FloatArray, FloatArray, FloatArray, IntArray, BoolArray],
    models: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
    eps: float,
    deep: float,
) -> bool:
    """`kernels.separated_in_parts`. `watcher`: x, y, radius, height; `mover`: radius,
    height; `leg`: x0, y0, x1, y1; `scenery`: corner x, corner y, edges (ex, ey, deep
    times the length), pieces (top, circle x, y, radius), spans (start, count), convex;
    `models`: x, y, radius, height of the table's models."""
    from game.geometry import kernels

    return bool(
        kernels.separated_in_parts(
            chosen, bodies, *watcher, *mover, *leg, splits, *scenery, *models, eps, deep
        )
    )


def nearby(
    centres: tuple[float, float, float, float],
    reach: float,
    min_top: float,
    pieces: tuple[FloatArray | BoolArray, ...],
    solid_only: bool,
    models: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
    models_block: bool,
    own: tuple[int, int],
) -> tuple[IntArray, IntArray]:
    """`kernels.nearby`: the pieces and models near the centre segment (ax, ay, bx, by).
    `pieces`: top, minx, maxx, miny, maxy, solid, cx, cy, radius of every piece;
    `models`: x, y, radius, height of every model; `own`: the pair's models' indices
    (-1: not on the table)."""
    from game.geometry import kernels

    result: tuple[IntArray, IntArray] = kernels.nearby(
        *centres, reach, min_top, *pieces, solid_only, *models, models_block, *own
    )
    return result


def compiled_afresh() -> int:
    """How many kernels this process compiled rather than loaded from the cache (0 when
    no kernel has been used: numba is not imported for that)."""
    import sys

    kernels = sys.modules.get("game.geometry.kernels")
    return 0 if kernels is None else int(kernels.compiled_afresh())


def compiled_note(seconds: float, before: str) -> str:
    """Said on stderr after the first run after an install compiled the kernels, by every
    command that waited for it (`playtest`, `play`), with how long it took and `before`
    what ("before the first game and not counted in the speed below")."""
    first = "The first run after an install compiles the sight-line loops"
    return f"{first}: {seconds:.1f} s, {before}."


# Said in the first run after an install, before the first sight line compiles the
# kernels: the window's first frame (App.prepare_line_of_fire), and before a saved game
# is replayed (`play --load`, `replay`).
PREPARING = "Preparing line of fire (the first run after an install takes a few seconds)..."


def compile_due() -> bool:
    """Whether the first sight line of this process will compile the kernels (a few
    seconds, once after an install) rather than load them from numba's cache. Imports
    numba: ask only where sight lines are about to be drawn."""
    from game.geometry import kernels

    return not kernels.cached_here()
