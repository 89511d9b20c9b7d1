"""The line-of-fire ruling says the engine's refusal of a shot sight allows (fix15g).

Necromunda, FACTS 2.3: a Prone fighter (Pinned, Seriously Injured) in partial or full
cover is hidden and cannot be targeted. `skirmish lof`, its picture's header and the
window's panel said "line of fire: yes" and partial cover at such a fighter, where the
engine refused the shot. The ruling now asks the engine's own check (the rule system's
"refused" part, `game.rules.necromunda.sight.hidden`) and says why first, the sight and
cover figures kept below it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.render.lof_picture import verdict
from game.scenario import load_scenario
from game.scenario.names import table_names
from game.scenario.ruling import LofProvider, rule
from game.scenario.scenario import Scenario
from game.scenario.tables import table_from_scenario
from game.sequencer.game import Game
from game.sequencer.necromunda_targeting import ARC
from tests.conftest import REPO

# in the demo, orlock-ganger-1 stands 47% hidden by barricade-1 from escher-champion
SHOOTER, TARGET = "escher-champion", "orlock-ganger-1"


def _demo(state: str | None, at: tuple[float, float] | None = None) -> Scenario:
    scenario = load_scenario(REPO / "scenarios" / "necromunda-demo.toml")
    models = tuple(
        replace(m, state=state, at=at or m.at) if m.id == TARGET else m for m in scenario.models
    )
    return replace(scenario, models=models)


@pytest.mark.parametrize("state", ["pinned", "seriously-injured"])
def test_necromunda_prone_in_cover_ruling_says_no_shot_as_the_engine(state: str) -> None:
    scenario = _demo(state)
    ruling = rule(scenario, table_from_scenario(scenario), SHOOTER, TARGET)
    game = Game(scenario, 1)
    refusal = game.engine.why_not_target(game.state, SHOOTER, TARGET, ARC)  # type: ignore[attr-defined]
    assert ruling.refused == f"{TARGET} is hidden: prone and in cover"
    assert refusal.startswith(ruling.refused)  # the engine's own words
    lines = ruling.lines()
    assert lines[1] == f"no shot: {ruling.refused}"
    assert "line of fire: yes" in lines and any(x.startswith("cover: partial") for x in lines)
    assert LofProvider().describe(scenario, ruling)[0] == lines[1]  # the window's panel
    doc = ruling.to_json(scenario)
    assert doc["no_shot"] == "Orlock ganger 1 is hidden: prone and in cover"
    assert doc["cover"] == "partial" and doc["visible_fraction"] > 0.4  # figures kept
    header = verdict(ruling, table_names(scenario), giving=True)
    assert header.startswith("Escher champion -> Orlock ganger 1: no shot, hidden: prone")
    assert "partial cover" in header


@pytest.mark.parametrize(("state", "at"), [(None, None), ("pinned", (14.0, 16.0))])
def test_necromunda_standing_or_in_the_open_ruling_takes_the_shot(
    state: str | None, at: tuple[float, float] | None
) -> None:
    scenario = _demo(state, at)
    ruling = rule(scenario, table_from_scenario(scenario), SHOOTER, TARGET)
    game = Game(scenario, 1)
    refusal = game.engine.why_not_target(game.state, SHOOTER, TARGET, ARC)  # type: ignore[attr-defined]
    assert ruling.refused is None and refusal == ""
    assert not any(x.startswith("no shot") for x in ruling.lines())
    assert ruling.to_json(scenario)["no_shot"] is None
