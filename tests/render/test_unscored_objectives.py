"""An objective on a table whose rule system scores none (tester12 item 17): the editor
says so as it places one, and the play panel says it once, in the words `skirmish
validate` uses (RuleSet.unscored): 'Necromunda (pre-2023) scores no objectives here: it
is drawn on the table and decides nothing'. Where the rules score them, nothing of it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame

from game.render.app import App
from game.render.editor import Editor
from game.render.editor_script import click, press
from game.render.session import Session
from game.scenario import Scenario, load_scenario
from game.scenario.editing import Editing
from game.scenario.model import ObjectiveEntry
from tests.conftest import SCENARIOS
from tests.render.driving import panel
from tests.render.test_editor import NECROMUNDA_TWO

ONE = (
    "Necromunda (pre-2023) scores no objectives here: it is drawn on the table and decides nothing"
)


def test_the_editor_says_a_necromunda_objective_decides_nothing(tmp_path: Path) -> None:
    path = tmp_path / "two.toml"
    path.write_text(NECROMUNDA_TWO, encoding="utf-8")
    editor = Editor(Editing.open(path), surface=pygame.Surface((1280, 800)), save_to=path)
    press(editor, pygame.K_o)
    click(editor, (12, 6))
    assert editor.state.message == f"placed Objective 1; {ONE}"


def test_the_play_panel_says_it_once_where_the_rules_score_none() -> None:
    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    two = tuple(ObjectiveEntry(id=f"objective-{i}", at=(4.0 * i, 4.0)) for i in (1, 2))
    app = _played(replace(scenario, objectives=two[:1]))
    assert ONE in panel(app)
    app = _played(replace(scenario, objectives=two))
    assert (
        "Necromunda (pre-2023) scores no objectives here: they are drawn on the table and "
        "decide nothing"
    ) in panel(app)
    app = _played(scenario)
    assert "scores no objectives" not in panel(app)


def _played(scenario: Scenario) -> App:
    return App(scenario, session=Session.start(scenario))


def test_where_the_rules_score_them_nothing_of_it_is_said() -> None:
    scenario = load_scenario(SCENARIOS / "infinity-checkpoint.toml")
    assert scenario.objectives
    app = _played(scenario)
    assert "scores no objectives" not in panel(app)
    assert "held by no side" in panel(app)
