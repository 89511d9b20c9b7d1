"""The sequencer's view of the table: the geometry engine with the models where the
game has put them, read through the rule system's cover rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial

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
from game.geometry.table import MM_PER_INCH
from game.rules.cover import min_patch, patch_seen
from game.sequencer.setup import Setup
from game.sequencer.sight import Cover, Placement, Sighting

Point = tuple[float, float]
CONTACT_TOLERANCE = 1e-3  # a moving base may touch scenery and other bases


def table_from_setup(setup: Setup) -> Table:
    """The geometry of a table, built once: scenery prisms and model cylinders."""
    width, depth = setup.header.table
    pieces = [
        Piece(PieceId(p.id), PieceKind(str(p.kind)), tuple(p.footprint), p.height)
        for p in setup.scenery
    ]
    bodies = [
        Body(BodyId(m.id), m.at, m.radius, m.height, m.facing, m.side, m.unit) for m in setup.models
    ]
    return Table.build(width, depth, pieces, bodies)


CoverReader = Callable[[Table, Sight], tuple[Cover, str]]


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
        self._solid = [
            poly
            for poly, piece in zip(self.table.polygons, self.table.pieces, strict=True)
            if piece.kind.solid
        ]
        self._solid_ids = [p.id for p in self.table.pieces if p.kind.solid]
        self._cache: dict[tuple[tuple[str, Point, float, bool], ...], Table] = {}
        self._sightings: dict[object, Sighting] = {}
        # clear_to's answers, keyed like sightings: a clear sight line, or None for none
        self._clears: dict[object, SightLine | None] = {}

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
    ) -> tuple[object, ...]:
        """What a sighting depends on: the two models and, where models block, every
        other model whose base reaches into the box around the two bases (no sight
        line between them leaves it). Scenery never moves. `target_at`: the target
        standing there instead, with its facing from `placements`."""
        a_at, a_facing, ar = self._where(placements, shooter)
        b_at, b_facing, br = self._where(placements, target)
        if target_at is not None:
            b_at = target_at
        lo_x = min(a_at[0] - ar, b_at[0] - br)
        hi_x = max(a_at[0] + ar, b_at[0] + br)
        lo_y = min(a_at[1] - ar, b_at[1] - br)
        hi_y = max(a_at[1] + ar, b_at[1] + br)
        inside: list[tuple[str, Point]] = []
        if self.models_block:
            for body_id, body in self._bodies.items():
                if body_id in (shooter, target):
                    continue
                p = placements.get(body_id)
                if p is not None and not p.present:
                    continue
                x, y = p.at if p is not None else body.at
                r = body.radius
                if lo_x - r <= x <= hi_x + r and lo_y - r <= y <= hi_y + r:
                    inside.append((body_id, (x, y)))
        return (shooter, a_at, a_facing, target, b_at, b_facing, tuple(inside))

    def _where(
        self, placements: Mapping[str, Placement], model_id: str
    ) -> tuple[Point, float, float]:
        """(at, facing, radius) of a model as `placements` put it."""
        base = self._bodies[BodyId(model_id)]
        p = placements.get(model_id)
        if p is None:
            return base.at, base.facing, base.radius
        return p.at, p.facing, base.radius

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
        for watcher, model, at in asks:
            key = self._corridor_key(placements, watcher, model, at)
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
            side = self.min_patch_mm / MM_PER_INCH
            pairs = []
            for k in todo:
                watcher, model, at = asks[k]
                moved = replace(self._bodies[BodyId(model)], at=at)
                pairs.append((self._body(placements, watcher), patch_core(moved, side)))
            found = clear_witnesses(self._table(placements), pairs, models_block=self.models_block)
            if len(self._clears) > 65536:
                self._clears.clear()
            for k, line in zip(todo, found, strict=True):
                out[k] = line is not None
                # a line to the lowered body, its end raised to the top, is clear too
                # (raising an end raises every point): the sighting need not search again
                if line is not None:
                    top = self._bodies[BodyId(asks[k][1])].height
                    line = SightLine(line.start, Point3(line.end.x, line.end.y, top))
                self._clears[keys[k]] = line
        return [bool(x) for x in out]

    def table_at(self, placements: Mapping[str, Placement]) -> Table:
        """The table's geometry with the models where `placements` put them (absent
        models left out), for area measures such as blasts and templates."""
        return self._table(placements)

    def _body(self, placements: Mapping[str, Placement], model_id: str) -> Body:
        base = self._bodies[BodyId(model_id)]
        p = placements.get(model_id)
        if p is None:
            return base
        return Body(base.id, p.at, base.radius, base.height, p.facing, base.side, base.unit)

    def distance(self, placements: Mapping[str, Placement], a: str, b: str) -> float:
        return float(edge_distance(self._body(placements, a), self._body(placements, b)))

    def in_arc(self, placements: Mapping[str, Placement], a: str, b: str) -> bool:
        """Whether b is at least partly inside a's arc: cheap, no sight lines."""
        return bool(in_arc(self._body(placements, a), self._body(placements, b), self.arc))

    def path_blocked(
        self, placements: Mapping[str, Placement], model: str, path: tuple[Point, ...]
    ) -> str | None:
        body = self._bodies[BodyId(model)]
        r = body.radius
        for x, y in path:
            require_finite(f"a point of {model}'s path", x, y)
            if (
                x - r < -1e-9
                or y - r < -1e-9
                or x + r > self.table.width + 1e-9
                or y + r > self.table.depth + 1e-9
            ):
                return f"({x:g}, {y:g}) is off the table"
        line = LineString(path) if len(path) > 1 else shapely.Point(path[0])
        swept = line.buffer(r - CONTACT_TOLERANCE)
        for piece_id, poly in zip(self._solid_ids, self._solid, strict=True):
            if swept.intersects(poly) and swept.intersection(poly).area > 1e-9:
                kind = self.table.piece(piece_id).kind.value
                return f"the base would pass through {kind} {piece_id}"
        for other, p in placements.items():
            if other == model or not p.present:
                continue
            o = self._bodies[BodyId(other)]
            if line.distance(shapely.Point(p.at)) < r + o.radius - CONTACT_TOLERANCE:
                return f"the base would pass through {other}"
        return None
