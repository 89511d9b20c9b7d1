"""From a loaded scenario to the table geometry the line-of-fire engine reads."""

from __future__ import annotations

from collections.abc import Iterable

from game.geometry.table import Table
from game.scenario.scenario import Scenario
from game.sequencer.table_sight import body_of, table_from_setup


def table_from_scenario(scenario: Scenario) -> Table:
    """The scenario's scenery and models as prisms and cylinders, built once
    (a loaded scenario is a sequencer `Setup`; one adapter serves both). A model in a
    state that takes it off the table (one of its rule system's `off_table` states) is
    left out, as the game's own sight leaves it: it hides nothing and gives no cover."""
    table = table_from_setup(scenario)
    gone = {m.id for m in scenario.models if m.state in scenario.ruleset.off_table}
    if not gone:
        return table
    return table.with_bodies(b for b in table.bodies if b.id not in gone)


def with_models(table: Table, scenario: Scenario, models: Iterable[str]) -> Table:
    """`table` with those of the scenario's `models` it left out (off the table) put
    back where the scenario has them: to ask of one of them what a ruling needs to say
    there is no shot."""
    missing = [m for m in dict.fromkeys(models) if m not in table.body_index]
    if not missing:
        return table
    return table.with_bodies((*table.bodies, *(body_of(scenario.model(m)) for m in missing)))
