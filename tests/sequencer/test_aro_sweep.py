"""Infinity AROs along the whole route: the sweep finds a reactor that sees the moving
trooper only through a slit, for less than 0.5" of its route, which points 0.5" apart
miss ("at any point along the Active Trooper's movement", FACTS 3.4 / seed 001)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np

from game.scenario import load_scenario
from game.sequencer.game import Game
from game.sequencer.infinity import (
    InfinityEngine,
    InfinityState,
    OrderInProgress,
    Skill,
    Stage,
    _along,
)
from game.sequencer.sight import Cover, Placement

Point = tuple[float, float]

# on the shared test header's 24" table: a building 3" deep with a slit 0.2" wide at
# y = 12 between the reactor (left) and the route (right); the moving trooper stands on
# a small base (5 mm) so that its stretch in sight is shorter than 0.5" (a 25 mm base is
# never seen for less than its own width)
TABLE = """
[[scenery]]
id = "below"
kind = "building"
polygon = [[8, 0], [11, 0], [11, 11.9], [8, 11.9]]

[[scenery]]
id = "above"
kind = "building"
polygon = [[8, 12.1], [11, 12.1], [11, 24], [8, 24]]

[[model]]
id = "runner"
side = "blue"
profile = "fusilier"
at = [11.5, 9.25]
facing = 90
base = 5

[[model]]
id = "watcher"
side = "red"
profile = "fusilier"
at = [1, 12]
facing = 0
"""

ROUTE: tuple[Point, ...] = ((11.5, 9.25), (11.5, 15.25))


def aro_lof(engine: InfinityEngine, state: InfinityState, at: Point) -> bool:
    moved = {"runner": Placement(at, 90.0)}
    s = engine.sighting(state, "watcher", "runner", moved)
    return s.lof and s.in_arc and s.cover is not Cover.TOTAL


def test_a_reactor_seeing_the_route_for_less_than_half_an_inch_may_react(
    write_scenario: Callable[..., Path],
) -> None:
    setup = load_scenario(write_scenario(TABLE))
    engine = Game(setup, seed=1).engine
    assert isinstance(engine, InfinityEngine)
    state = Game(setup, seed=1).state
    assert isinstance(state, InfinityState)
    # the premise: out of its Zone of Control all along, no line of fire at the points
    # 0.5" apart, and line of fire on a stretch shorter than 0.5" between two of them
    assert all(
        engine.distance(state, "watcher", "runner", {"runner": Placement(p, 90.0)}) > 8.0
        for p in _along(ROUTE, 0.05)
    )
    assert not any(aro_lof(engine, state, p) for p in _along(ROUTE))
    dense = [p for p in _along(ROUTE, 0.01) if aro_lof(engine, state, p)]
    assert dense and 0.0 < dense[-1][1] - dense[0][1] < 0.5
    skill = Skill.move(ROUTE[-1])
    order = OrderInProgress("runner", ROUTE[0], skill, ROUTE, 90.0, Stage.ARO_FIRST, ())
    assert engine._eligible(state, order, skill, ROUTE, already=()) == (("watcher", True),)
    # the points offered for the ARO lie around that stretch (where a clear line reaches
    # the minimum patch's depth), the first one with line of fire
    points = engine.aro_points(dataclasses.replace(state, order=order), "watcher")
    assert points and aro_lof(engine, state, points[0])
    assert all(dense[0][1] - 0.25 <= y <= dense[-1][1] + 0.25 for _, y in points)
    assert all(math.isclose(x, 11.5) for x, _ in points)


def test_an_aro_sees_where_the_sighting_has_line_of_fire_in_the_arc() -> None:
    # the sweep confirms an ARO's line of fire with the sight's own "line of fire in
    # the arc" (it may then skip the visible fraction where LoF is sure): the same as
    # Infinity's reading, because its cover is Total exactly where too little is seen
    from game.scenario import load_scenario as load
    from game.sequencer.table_sight import TableSight
    from tests.conftest import SCENARIOS

    setup = load(SCENARIOS / "infinity-checkpoint.toml")
    sight = TableSight(setup)
    ids = [m.id for m in setup.models]
    width, depth = setup.header.table
    rng = np.random.default_rng(3)
    kinds: set[tuple[bool, Cover]] = set()
    for _ in range(120):
        placements = {
            m: Placement(
                (rng.uniform(1, width - 1), rng.uniform(1, depth - 1)), rng.uniform(0, 360)
            )
            for m in ids
        }
        a, b = rng.choice(ids, 2, replace=False)
        s = sight.sighting(placements, str(a), str(b))
        assert (s.cover is Cover.TOTAL) == (not s.lof)
        kinds.add((s.lof, s.cover))
    assert {(False, Cover.TOTAL), (True, Cover.NONE)} <= kinds
