"""Line of fire, visible fraction and distance between two models in one answer; the
search for a clear line is skipped when a witness is already known."""

from __future__ import annotations

from game.geometry.answers import Sight, SightLine
from game.geometry.lof import clear_sight, in_arc
from game.geometry.measures import edge_distance
from game.geometry.silhouette import SPREAD, STRIPS, visibility_of
from game.geometry.table import BodyId, Table


def sight(
    table: Table,
    shooter: BodyId | str,
    target: BodyId | str,
    *,
    arc_degrees: float = 360.0,
    models_block: bool = True,
    witness: SightLine | None = None,
) -> Sight:
    """Line of fire, visible fraction and edge-to-edge distance in one answer.
    `witness`: a clear sight line between the two, found before (`clear_witnesses`);
    given one, the line of fire is not searched for again."""
    a = table.body(shooter)
    b = table.body(target)
    arc_ok = in_arc(a, b, arc_degrees)
    blockers: tuple[str, ...] = ()
    if witness is not None:
        clear = True
    else:
        clear, witness, blockers = clear_sight(table, a, b, models_block)
    if clear:
        vis = visibility_of(table, a, b, models_block, STRIPS, SPREAD)
        fraction, hidden, patch = vis.fraction, vis.hidden_by, vis.patch
    else:
        fraction, hidden, patch = 0.0, blockers, 0.0
    return Sight(
        shooter=a.id,
        target=b.id,
        in_arc=arc_ok,
        clear=clear,
        witness=witness,
        blockers=blockers if not clear else hidden,
        visible_fraction=fraction,
        hidden_by=hidden,
        distance=edge_distance(a, b),
        visible_patch=patch,
    )
