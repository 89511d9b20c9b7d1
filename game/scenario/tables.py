"""From a loaded scenario to the table geometry the line-of-fire engine reads."""

from __future__ import annotations

from game.geometry.table import Table
from game.scenario.scenario import Scenario
from game.sequencer.table_sight import table_from_setup


def table_from_scenario(scenario: Scenario) -> Table:
    """The scenario's scenery and models as prisms and cylinders, built once
    (a loaded scenario is a sequencer `Setup`; one adapter serves both)."""
    return table_from_setup(scenario)
