"""From a loaded scenario to the table geometry the line-of-fire engine reads."""

from __future__ import annotations

from game.geometry.table import Body, BodyId, Piece, PieceId, PieceKind, Table
from game.scenario.scenario import Scenario


def table_from_scenario(scenario: Scenario) -> Table:
    """The scenario's scenery and models as prisms and cylinders, built once."""
    width, depth = scenario.header.table
    pieces = [
        Piece(
            id=PieceId(p.id),
            kind=PieceKind(str(p.kind.value)),
            footprint=tuple((float(x), float(y)) for x, y in p.footprint),
            height=None if p.height is None else float(p.height),
        )
        for p in scenario.scenery
    ]
    bodies = [
        Body(
            id=BodyId(m.id),
            at=(float(m.at[0]), float(m.at[1])),
            radius=float(m.radius),
            height=float(m.height),
            facing=float(m.facing),
            side=m.side,
            unit=m.unit,
        )
        for m in scenario.models
    ]
    return Table.build(width, depth, pieces, bodies)
