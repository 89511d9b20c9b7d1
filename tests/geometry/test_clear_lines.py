"""The batched cheap question (`clear_lines`, bodies standing anywhere) agrees with the
single exact ruling on the table with the model moved there."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from game.geometry import (
    Body,
    Table,
    clear_lines,
    clear_witnesses,
    line_of_fire,
    patch_core,
    sight,
)

BIG = Path(__file__).resolve().parents[2] / "benchmarks" / "tables" / "big-infinity.toml"


DEMO = Path(__file__).resolve().parents[2] / "scenarios" / "infinity-demo.toml"


def table_of(path: Path) -> Table:
    from game.scenario import load_scenario
    from game.scenario.tables import table_from_scenario

    return table_from_scenario(load_scenario(path))


def test_one_model_along_routes_agrees_with_moving_it_there() -> None:
    table = table_of(BIG)
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


def test_no_clear_line_to_the_patch_core_means_no_patch_that_large() -> None:
    """patch_core's promise, against the visible fraction's own patch: on the Infinity
    demo's table (walls about as tall as the models) with models moved to seeded spots,
    whenever no clear line reaches the lowered body, the largest square seen is smaller
    than the side asked for."""
    table = table_of(DEMO)
    rng = random.Random(5)
    side = 3.0 / 25.4  # Infinity's minimum visible patch, 3 mm
    pairs: list[tuple[Body, Body]] = []
    for _ in range(600):
        a, b = rng.sample(table.bodies, 2)
        at = (rng.uniform(2, table.width - 2), rng.uniform(2, table.depth - 2))
        pairs.append((a, replace(b, at=at)))
    plain = clear_lines(table, pairs)
    core = clear_lines(table, [(a, patch_core(b, side)) for a, b in pairs])
    slivers = 0
    for (a, b), clear, deep in zip(pairs, plain, core, strict=True):
        if deep:
            assert clear  # the core is inside the body: a line to it is a line to the body
            continue
        s = sight(table.moved(b.id, b.at), a.id, b.id)
        assert s.visible_patch < side - 1e-9, (a.id, b.id, b.at)
        slivers += clear  # clear lines exist, but only to a sliver
    assert slivers > 0  # the lowered body does turn away some clear lines


def test_a_witness_found_before_gives_the_same_sight() -> None:
    """sight(..., witness=) skips the search, and everything the rules read is the same."""
    table = table_of(DEMO)
    rng = random.Random(8)
    pairs: list[tuple[Body, Body]] = []
    for _ in range(120):
        a, b = rng.sample(table.bodies, 2)
        at = (rng.uniform(2, table.width - 2), rng.uniform(2, table.depth - 2))
        pairs.append((a, replace(b, at=at)))
    lines = clear_witnesses(table, pairs)
    assert lines.count(None) not in (0, len(lines))
    for (a, b), line in zip(pairs, lines, strict=True):
        moved = table.moved(b.id, b.at)
        plain = sight(moved, a.id, b.id, arc_degrees=180)
        assert plain.clear == (line is not None)
        if line is not None:
            hinted = sight(moved, a.id, b.id, arc_degrees=180, witness=line)
            assert replace(hinted, witness=None) == replace(plain, witness=None)
