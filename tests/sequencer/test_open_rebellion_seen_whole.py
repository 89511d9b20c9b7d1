"""`surely_all_seen`: the proof that a shooter sees the whole of a model, which lets the
Open Rebellion engine read "in the open" without working out the visible fraction. It
must never claim a model that the sighting finds hidden in part."""

from __future__ import annotations

import numpy as np

from game.geometry import sight
from game.geometry.table import Body, BodyId, Piece, PieceId, PieceKind, Table
from game.paths import SCENARIOS_DIR
from game.scenario import load_scenario
from game.sequencer.open_rebellion import OpenRebellionEngine
from game.sequencer.open_rebellion_fire import surely_all_seen

SHOOTER = Body(BodyId("a"), (2.0, 10.0), 0.5, 1.2)
TARGET = Body(BodyId("b"), (20.0, 10.0), 0.5, 1.2)


def table_with(*pieces: Piece) -> Table:
    return Table.build(24.0, 20.0, pieces, (SHOOTER, TARGET))


def low_wall(x: float) -> Piece:
    """A wall 0.5" high, 0.2" thick, across the line of fire at `x`."""
    return Piece(
        PieceId(f"wall-{x:g}"),
        PieceKind.WALL,
        ((x, 8.0), (x + 0.2, 8.0), (x + 0.2, 12.0), (x, 12.0)),
        0.5,
    )


def test_a_low_wall_by_the_target_hides_its_feet_and_is_not_proved_away() -> None:
    table = table_with(low_wall(18.5))
    seen = sight(table, "a", "b", models_block=False)
    assert seen.clear and seen.visible_fraction < 0.995  # the feet are hidden
    assert not surely_all_seen(table, SHOOTER, TARGET)


def test_a_low_wall_by_the_shooter_is_seen_over_and_proved_so() -> None:
    # the line from the shooter's top (1.2") down to the target's feet is still above
    # 0.5" for the first 1 - 0.5 / 1.2 of the way: a wall there hides nothing
    table = table_with(low_wall(4.0))
    seen = sight(table, "a", "b", models_block=False)
    assert seen.clear and seen.visible_fraction == 1.0 and not seen.hidden_by
    assert surely_all_seen(table, SHOOTER, TARGET)


def test_a_tall_piece_anywhere_between_is_not_proved_away() -> None:
    # taller than the shooter: it stands above every line, however near the shooter
    tower = Piece(
        PieceId("tower"), PieceKind.BUILDING, ((4.0, 9.9), (4.2, 9.9), (4.2, 10.1), (4.0, 10.1))
    )
    assert not surely_all_seen(table_with(tower), SHOOTER, TARGET)


def test_no_proof_on_the_demo_table_is_wrong() -> None:
    # random places for two models of the bundled demo (seeded): every pair proved seen
    # whole has a clear sighting with a visible fraction of 1 and nothing hiding it
    setup = load_scenario(SCENARIOS_DIR / "open-rebellion-demo.toml")
    engine = OpenRebellionEngine(setup)
    state, _ = engine.start(rng=np.random.default_rng(0))
    table = engine.table(state)
    first, last = table.bodies[0], table.bodies[-1]
    rng = np.random.default_rng(2026)
    proved = hidden_in_part = 0
    for _ in range(400):
        a, b = (
            Body(body.id, (float(x), float(y)), body.radius, body.height)
            for body, x, y in zip(
                (first, last),
                rng.uniform(1, table.width - 1, 2),
                rng.uniform(1, table.depth - 1, 2),
                strict=True,
            )
        )
        moved = table.with_bodies([a, b])
        seen = sight(moved, a.id, b.id, models_block=False)
        if surely_all_seen(moved, a, b):
            proved += 1
            assert seen.clear and seen.visible_fraction == 1.0 and not seen.hidden_by
        elif seen.clear and seen.visible_fraction < 0.995:
            hidden_in_part += 1
    assert proved > 20 and hidden_in_part > 20  # both kinds were met
