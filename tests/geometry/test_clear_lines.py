"""The batched cheap question (`clear_lines`, bodies standing anywhere) agrees with the
single exact ruling on the table with the model moved there."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from game.geometry import Body, Table, clear_lines, line_of_fire

BIG = Path(__file__).resolve().parents[2] / "benchmarks" / "tables" / "big-infinity.toml"


def big_table() -> Table:
    from game.scenario import load_scenario
    from game.scenario.tables import table_from_scenario

    return table_from_scenario(load_scenario(BIG))


def test_one_model_along_routes_agrees_with_moving_it_there() -> None:
    table = big_table()
    rng = random.Random(11)
    pairs: list[tuple[Body, Body]] = []
    for _ in range(12):
        mover = rng.choice(table.bodies)
        watchers = [b for b in table.bodies if b.id != mover.id]
        x0, y0 = rng.uniform(2, table.width - 2), rng.uniform(2, table.depth - 2)
        x1, y1 = rng.uniform(2, table.width - 2), rng.uniform(2, table.depth - 2)
        for k in range(9):  # points of a straight route, a different placement each
            at = (x0 + (x1 - x0) * k / 8, y0 + (y1 - y0) * k / 8)
            moved = replace(mover, at=at)
            pairs += [(w, moved) for w in rng.sample(watchers, 4)]
    batch = clear_lines(table, pairs, models_block=True)
    answers = []
    for (w, moved), clear in zip(pairs, batch, strict=True):
        single = line_of_fire(table.moved(moved.id, moved.at), w.id, moved.id)
        assert clear == single.clear, (w.id, moved.id, moved.at)
        answers.append(clear)
    assert 0 < sum(answers) < len(answers)  # both answers occur: the check can fail
