"""Objectives on the table wherever the table is drawn: the play window, `skirmish
render` and `skirmish lof --out` (a new user's report: they were drawn only in the
editor, though they decide a game at its turn limit)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from game.render import style
from game.render.app import App
from game.render.labels import overlaps
from game.render.lof_picture import HEADER, lof_picture
from game.render.session import Session
from game.render.table import (
    OBJECTIVE,
    default_view,
    picture_view,
    table_labels,
    table_picture,
)
from game.render.view import View
from game.scenario import Scenario, load_scenario
from game.scenario.model import ObjectiveEntry
from game.scenario.ruling import rule
from game.scenario.tables import table_from_scenario
from tests.conftest import SCENARIOS
from tests.render.driving import at, panel

CHECKPOINT = SCENARIOS / "infinity-checkpoint.toml"
# infinity-checkpoint.toml: barrier-gate (16, 12) labelled "the gate between the
# barriers", 2 points; guard-console (16, 10), 1 point
GATE = "The gate between the barriers, 2 points"
CONSOLE = "Guard console, 1 point"


def _objective_labels(scenario: Scenario, scale: float, size: tuple[int, int]) -> list[str]:
    placed = table_labels(scenario, default_view(scale), size, objectives=True)
    return [p.text for p in placed if p.want.kind == "objective"]


@pytest.mark.parametrize("scale", [9.0, 12.0, 20.0, 30.0])
def test_render_draws_each_objective_with_its_name_and_points(scale: float) -> None:
    scenario = load_scenario(CHECKPOINT)
    picture = table_picture(scenario, scale)
    view = picture_view(scenario, scale)
    for objective in scenario.objectives:
        x, y = view.to_screen(*objective.at)
        assert picture.get_at((round(x), round(y)))[:3] == OBJECTIVE
    placed = table_labels(scenario, view, picture.get_size(), objectives=True)
    assert sorted(p.text for p in placed if p.want.kind == "objective") == sorted([GATE, CONSOLE])
    # the labels' rule (README): none overprints another
    boxes = [p.box for p in placed]
    assert not any(overlaps(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def test_the_lof_picture_draws_the_objectives() -> None:
    scenario = load_scenario(CHECKPOINT)
    ruling = rule(scenario, table_from_scenario(scenario), "knight", "zhanshi-1")
    picture = lof_picture(scenario, ruling, 12.0)
    view = View(12.0, style.MARGIN, HEADER)  # where lof_picture puts the table
    for objective in scenario.objectives:
        x, y = view.to_screen(*objective.at)
        assert picture.get_at((round(x), round(y)))[:3] == OBJECTIVE


def test_an_objective_placed_in_the_editor_is_drawn_by_its_name_where_it_scores() -> None:
    scenario = load_scenario(CHECKPOINT)
    placed = replace(scenario, objectives=(ObjectiveEntry(id="objective-1", at=(4.0, 20.0)),))
    assert _objective_labels(placed, 20.0, (700, 700)) == ["Objective 1, 1 point"]


def test_objectives_where_the_rules_score_none_are_drawn_by_name_alone() -> None:
    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    assert not scenario.ruleset.scores_objectives
    placed = replace(scenario, objectives=(ObjectiveEntry(id="objective-1", at=(4.0, 4.0)),))
    assert _objective_labels(placed, 20.0, (700, 700)) == ["Objective 1"]


def test_the_play_window_draws_them_and_says_who_holds_each() -> None:
    scenario = load_scenario(CHECKPOINT)
    app = App(scenario, size=(800, 600), session=Session.start(scenario))
    surface = app.draw()
    for objective in scenario.objectives:
        assert surface.get_at(at(app, objective.at))[:3] == OBJECTIVE
    texts = [p.text for p in app.cache.table.labels if p.want.kind == "objective"]
    assert sorted(texts) == sorted([GATE, CONSOLE])
    text = panel(app)
    assert f"{GATE}: held by no side" in text and f"{CONSOLE}: held by no side" in text


def test_the_window_says_the_side_that_holds_an_objective() -> None:
    # a Yu Jing trooper set 1" from the console (within its 2", base edge to point) and
    # 3" from the gate (outside it), none of PanOceania's near: the engine scores the
    # console to Yu Jing (its `objectives_held`), the gate to no side
    scenario = load_scenario(CHECKPOINT)
    moved = tuple(replace(m, at=(16.0, 9.0)) if m.id == "hmg" else m for m in scenario.models)
    scenario = replace(scenario, models=moved)
    app = App(scenario, size=(1280, 800), session=Session.start(scenario))
    assert dict(app.state.holding) == {"guard-console": "yu-jing"}
    text = panel(app)
    assert f"{CONSOLE}: held by Yu Jing" in text and f"{GATE}: held by no side" in text


@pytest.mark.parametrize("size", [(1280, 800), (800, 600)])
def test_an_objective_under_a_base_shows_round_it_and_the_base_stays_whole(
    size: tuple[int, int],
) -> None:
    # session 10 left it: a model standing on an objective hid its disc (the ring and
    # the label still showed), so nothing said where the objective's point was
    scenario = load_scenario(CHECKPOINT)
    moved = tuple(
        replace(m, at=(16.0, 12.0), facing=45.0) if m.id == "orc-1" else m for m in scenario.models
    )  # Orc 1 centred on the gate
    standing = replace(scenario, models=moved)
    bare = replace(standing, objectives=())
    pictures = []
    for table in (standing, bare):
        app = App(table, size=size, session=Session.start(table))
        pictures.append(app.draw().copy())
    on, off = pictures
    cx, cy = at(app, (16.0, 12.0))
    r = standing.model("orc-1").radius * app.state.view.scale
    # the base and its facing as they are with no objective under them
    inside = [(cx + dx, cy + dy) for dx in range(-20, 21) for dy in range(-20, 21)
              if math.hypot(dx, dy) < r - 2]  # fmt: skip
    assert inside and all(on.get_at(p) == off.get_at(p) for p in inside)
    # and the objective's colour round the base, just outside it (the model's name may
    # cross it with its leader line: at most a few of the 24 directions)
    round_it = [
        any(
            on.get_at((round(cx + d * math.cos(a)), round(cy + d * math.sin(a))))[:3] == OBJECTIVE
            for d in range(math.ceil(r), math.ceil(r) + 7)
        )
        for a in (math.radians(step * 15) for step in range(24))
    ]
    assert sum(round_it) >= 21, round_it
