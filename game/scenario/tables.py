"""From a loaded scenario to the table geometry the line-of-fire engine reads."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

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


def left_out_of(scenario: Scenario, attacker: str, target: str) -> dict[str, str]:
    """The models a shot from `attacker` at `target` is judged without, as the game's
    engine judges it, each with why in words ("pinned", "out of action"): those in one
    of the rule system's `off_table` states, and those its sight leaves out of this shot
    (its "left_out" part, the very rule the engine reads: in one system a fighter prone
    or touching the firer's base). Never the two themselves."""
    gone = {m.id: m.state.replace("-", " ") for m in scenario.models
            if m.state is not None and m.state in scenario.ruleset.off_table}  # fmt: skip
    leave = scenario.ruleset.load("left_out")
    if leave is not None:
        gone.update(leave(scenario.models, attacker, target))
    for m in (attacker, target):
        gone.pop(m, None)
    return gone


def judged_table(table: Table, scenario: Scenario, attacker: str, target: str,
                 gone: Mapping[str, str] | None = None) -> Table:  # fmt: skip
    """`table` (the scenario's, `table_from_scenario`) as a shot from `attacker` at
    `target` is judged on it: without the models `left_out_of` names (`gone`, when
    given), and with the two themselves put back where one is off the table (to ask of
    it all the same)."""
    if gone is None:
        gone = left_out_of(scenario, attacker, target)
    if any(b.id in gone for b in table.bodies):
        table = table.with_bodies(b for b in table.bodies if b.id not in gone)
    return with_models(table, scenario, (attacker, target))
