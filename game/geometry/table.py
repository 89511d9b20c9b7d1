"""The table as geometry: scenery prisms and model cylinders, built once per scenario.

DESIGN.md "Geometry model (2.5D)": inches, origin at the table's top-left corner,
x to the right, y downward, facing in degrees (0 = +x, positive toward +y).
A model is a vertical cylinder (base circle, silhouette height); a scenery piece is
a prism (simple polygon footprint, height or None for "taller than anything").

`Table.build` turns the pieces into flat numpy arrays (edges, vertices with their
corner wedges, bounding boxes) that the sight-line code reads without building any
shapely object per query; shapely polygons and an STRtree are kept for the area
measures (blasts, templates, scatter).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import NewType

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Polygon

PieceId = NewType("PieceId", str)
BodyId = NewType("BodyId", str)

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

Point = tuple[float, float]

MM_PER_INCH = 25.4


class NotFiniteError(ValueError):
    """A number given to the geometry is NaN or infinite: a bug above this layer (scenario
    validation and declarations are the gates), stopped here before it reaches GEOS."""


def require_finite(what: str, *numbers: float) -> None:
    """Raise `NotFiniteError` naming `what` unless every number is finite."""
    for n in numbers:
        if not math.isfinite(n):
            shown = ", ".join(f"{x:g}" for x in numbers)
            raise NotFiniteError(
                f"{what} ({shown}) is not finite: the geometry takes only finite numbers"
            )


class PieceKind(enum.Enum):
    """How rules treat a piece (DESIGN.md): geometry blocks the same way for all kinds."""

    BUILDING = "building"
    WALL = "wall"
    OBSTACLE = "obstacle"
    AREA = "area"

    @property
    def solid(self) -> bool:
        """Walls, buildings and obstacles stop blasts, templates and scatter; area does not."""
        return self is not PieceKind.AREA


@dataclass(frozen=True, slots=True)
class Piece:
    """A scenery prism: footprint polygon (inches) and height (None = taller than anything)."""

    id: PieceId
    kind: PieceKind
    footprint: tuple[Point, ...]
    height: float | None = None

    def __post_init__(self) -> None:
        for x, y in self.footprint:
            require_finite(f"piece {self.id}: a footprint corner", x, y)
        if self.height is not None:
            require_finite(f"piece {self.id}: the height", self.height)

    @property
    def top(self) -> float:
        return math.inf if self.height is None else float(self.height)


@dataclass(frozen=True, slots=True)
class Body:
    """A model as a vertical cylinder: base centre, base radius and silhouette height (inches)."""

    id: BodyId
    at: Point
    radius: float
    height: float
    facing: float = 0.0
    side: str | None = None
    unit: str | None = None

    def __post_init__(self) -> None:
        x, y = self.at
        if not (
            math.isfinite(x)
            and math.isfinite(y)
            and math.isfinite(self.radius)
            and math.isfinite(self.height)
            and math.isfinite(self.facing)
        ):
            require_finite(f"model {self.id}: the position", x, y)
            require_finite(f"model {self.id}: the base radius and height", self.radius, self.height)
            require_finite(f"model {self.id}: the facing", self.facing)


def base_radius(base_mm: float) -> float:
    """Base radius in inches from a base diameter in millimetres (25.4 mm per inch)."""
    return base_mm / MM_PER_INCH / 2.0


def _ccw(points: Sequence[Point]) -> list[Point]:
    """The footprint ordered with positive shoelace area, so its interior lies to the left."""
    pts = [(float(x), float(y)) for x, y in points]
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts = pts[:-1]
    area = 0.0
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True):
        area += x0 * y1 - x1 * y0
    return pts if area > 0 else pts[::-1]


@dataclass(frozen=True, slots=True)
class PieceArrays:
    """Flat arrays over every piece; edge i runs from vertex i to the next vertex of its piece."""

    # per edge (= per start vertex)
    x0: FloatArray
    y0: FloatArray
    x1: FloatArray
    y1: FloatArray
    piece: IntArray
    # unit directions of the edge into the vertex (e_in) and out of it (e_out)
    in_x: FloatArray
    in_y: FloatArray
    out_x: FloatArray
    out_y: FloatArray
    reflex: BoolArray
    # per piece
    start: IntArray  # first edge index of each piece
    count: IntArray
    top: FloatArray  # height, inf for "taller than anything"
    solid: BoolArray
    convex: BoolArray
    minx: FloatArray
    miny: FloatArray
    maxx: FloatArray
    maxy: FloatArray
    cx: FloatArray  # centre of the bounding box
    cy: FloatArray
    radius: FloatArray  # half its diagonal: every vertex lies within it of (cx, cy)


def _piece_arrays(pieces: Sequence[Piece]) -> PieceArrays:
    xs0: list[float] = []
    ys0: list[float] = []
    xs1: list[float] = []
    ys1: list[float] = []
    owner: list[int] = []
    start: list[int] = []
    count: list[int] = []
    for k, piece in enumerate(pieces):
        pts = _ccw(piece.footprint)
        start.append(len(xs0))
        count.append(len(pts))
        for i, (x, y) in enumerate(pts):
            nx, ny = pts[(i + 1) % len(pts)]
            xs0.append(x)
            ys0.append(y)
            xs1.append(nx)
            ys1.append(ny)
            owner.append(k)
    x0 = np.array(xs0, dtype=np.float64)
    y0 = np.array(ys0, dtype=np.float64)
    x1 = np.array(xs1, dtype=np.float64)
    y1 = np.array(ys1, dtype=np.float64)
    piece_idx = np.array(owner, dtype=np.intp)
    starts = np.array(start, dtype=np.intp)
    counts = np.array(count, dtype=np.intp)
    length = np.hypot(x1 - x0, y1 - y0)
    length[length == 0] = 1.0
    out_x = (x1 - x0) / length
    out_y = (y1 - y0) / length
    # the edge into vertex i is edge i-1 of the same piece
    prev = np.arange(len(x0), dtype=np.intp) - 1
    if len(x0):
        first = starts[piece_idx] == np.arange(len(x0))
        prev[first] = (starts + counts - 1)[piece_idx[first]]
    in_x = out_x[prev] if len(x0) else out_x
    in_y = out_y[prev] if len(x0) else out_y
    reflex = (in_x * out_y - in_y * out_x) < 0
    polys = [Polygon(_ccw(p.footprint)) for p in pieces]
    convex = np.array(
        [abs(pg.convex_hull.area - pg.area) <= 1e-9 * max(pg.area, 1.0) for pg in polys],
        dtype=np.bool_,
    )
    bounds = np.array([pg.bounds for pg in polys], dtype=np.float64).reshape(-1, 4)
    return PieceArrays(
        x0=x0,
        y0=y0,
        x1=x1,
        y1=y1,
        piece=piece_idx,
        in_x=in_x,
        in_y=in_y,
        out_x=out_x,
        out_y=out_y,
        reflex=reflex,
        start=starts,
        count=counts,
        top=np.array([p.top for p in pieces], dtype=np.float64),
        solid=np.array([p.kind.solid for p in pieces], dtype=np.bool_),
        convex=convex,
        minx=bounds[:, 0],
        miny=bounds[:, 1],
        maxx=bounds[:, 2],
        maxy=bounds[:, 3],
        cx=(bounds[:, 0] + bounds[:, 2]) / 2,
        cy=(bounds[:, 1] + bounds[:, 3]) / 2,
        radius=np.hypot(bounds[:, 2] - bounds[:, 0], bounds[:, 3] - bounds[:, 1]) / 2,
    )


@dataclass(frozen=True, slots=True)
class BodyArrays:
    """Centres, radii and heights of all models, in table order."""

    x: FloatArray
    y: FloatArray
    r: FloatArray
    h: FloatArray


def _body_arrays(bodies: Sequence[Body]) -> BodyArrays:
    return BodyArrays(
        x=np.array([b.at[0] for b in bodies], dtype=np.float64),
        y=np.array([b.at[1] for b in bodies], dtype=np.float64),
        r=np.array([b.radius for b in bodies], dtype=np.float64),
        h=np.array([b.height for b in bodies], dtype=np.float64),
    )


@dataclass(frozen=True, slots=True)
class Table:
    """A table's geometry, built once with `Table.build`; models move with `moved`."""

    width: float
    depth: float
    pieces: tuple[Piece, ...]
    bodies: tuple[Body, ...]
    arrays: PieceArrays
    body_arrays: BodyArrays
    polygons: tuple[Polygon, ...]
    tree: shapely.STRtree
    piece_index: dict[PieceId, int] = field(default_factory=dict)
    body_index: dict[BodyId, int] = field(default_factory=dict)
    # what the sight-line code works out from the scenery alone, kept for later questions:
    # shared by every table `with_bodies` makes from this one (the scenery never moves)
    scenery_memo: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    @staticmethod
    def build(
        width: float,
        depth: float,
        pieces: Iterable[Piece] = (),
        bodies: Iterable[Body] = (),
    ) -> Table:
        """Build the arrays, polygons and STRtree of a table once."""
        require_finite("the table's width and depth", width, depth)
        pcs = tuple(pieces)
        bds = tuple(bodies)
        polys = tuple(Polygon(_ccw(p.footprint)) for p in pcs)
        for pg in polys:
            shapely.prepare(pg)
        return Table(
            width=float(width),
            depth=float(depth),
            pieces=pcs,
            bodies=bds,
            arrays=_piece_arrays(pcs),
            body_arrays=_body_arrays(bds),
            polygons=polys,
            tree=shapely.STRtree(list(polys)),
            piece_index={p.id: i for i, p in enumerate(pcs)},
            body_index={b.id: i for i, b in enumerate(bds)},
        )

    def body(self, body_id: BodyId | str) -> Body:
        """The model with that id (KeyError if there is none)."""
        return self.bodies[self.body_index[BodyId(body_id)]]

    def piece(self, piece_id: PieceId | str) -> Piece:
        return self.pieces[self.piece_index[PieceId(piece_id)]]

    def with_bodies(self, bodies: Iterable[Body]) -> Table:
        """The same scenery with other models; the scenery arrays are shared, not rebuilt."""
        bds = tuple(bodies)
        return replace(
            self,
            bodies=bds,
            body_arrays=_body_arrays(bds),
            body_index={b.id: i for i, b in enumerate(bds)},
        )

    def moved(self, body_id: BodyId | str, at: Point, facing: float | None = None) -> Table:
        """The table with one model moved (and turned, if `facing` is given)."""
        old = self.body(body_id)
        new = replace(old, at=at, facing=old.facing if facing is None else facing)
        return self.with_bodies(new if b.id == old.id else b for b in self.bodies)
