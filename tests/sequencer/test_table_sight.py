"""The sequencer's view of the table: a bad number from a bug above stops with a clear
error before the geometry's GEOS calls (issue 18: a model at NaN crashed `playtest`)."""

from __future__ import annotations

import math

import pytest

from game.geometry import NotFiniteError
from game.scenario import load_scenario
from game.sequencer.sight import Placement
from game.sequencer.table_sight import TableSight
from tests.conftest import SCENARIOS


def test_a_path_or_a_placement_that_is_not_finite_is_an_error_not_a_crash() -> None:
    setup = load_scenario(SCENARIOS / "infinity-demo.toml")
    sight = TableSight(setup)
    first, second = (m.id for m in setup.models[:2])
    start = setup.models[0].at
    with pytest.raises(NotFiniteError, match="path"):
        sight.path_blocked({}, first, (start, (math.nan, start[1])))
    with pytest.raises(NotFiniteError, match="position"):
        sight.sighting({first: Placement((math.nan, 3.0), 0.0)}, second, first)
    with pytest.raises(NotFiniteError, match="position"):
        sight.clear_to({}, [(second, first, (3.0, math.inf))])
    # a sound question still has its answer
    assert sight.path_blocked({}, first, (start,)) is None
