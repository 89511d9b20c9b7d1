"""The window rules a shot from where the engine takes it (Infinity, FACTS 3.4: the
skills of an Order are simultaneous, "a BS Attack may be taken at any point on the
declared route"; the engine takes a second skill's attack from the end of the route and
an ARO at the point of the route it names, the end by default): the ruling, the picture
and the odds before Enter come from that point, and say which it is."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.errors import IllegalDeclaration
from game.render.app import App
from game.render.overlays import ruling_line
from game.render.session import Session
from game.scenario import Scenario, load_scenario
from game.sequencer.infinity import React, Skill
from tests.render.driving import at, base, click, panel, point_at, press

Write = Callable[..., Path]

# b1 moves from (4, 20) to (7, 18): from where it stood the full-height tower hides r1
# from it (every line between the two bases runs up x 3.5-4.5), from the end of its
# move the lines pass east of the tower.
TABLE = """
[scenario]
name = "Behind the tower"
ruleset = "infinity"
table = [24, 24]
turns = 1

[[side]]
id = "blue"
player = "human"

[[side]]
id = "red"
player = "human"

[[scenery]]
id = "tower"
kind = "building"
polygon = [[3, 13], [4.8, 13], [4.8, 15], [3, 15]]

[[model]]
id = "b1"
side = "blue"
profile = "fusilier"
at = [4, 20]
facing = -90

[[model]]
id = "r1"
side = "red"
profile = "fusilier"
at = [4, 8]
facing = 90
"""
START, END = (4.0, 20.0), (7.0, 18.0)


def _moved(write_scenario: Write) -> App:
    """b1 has declared its move to END: red is asked for its ARO."""
    scenario = load_scenario(write_scenario(TABLE, header=False))
    app = App(scenario, session=Session.start(scenario))
    click(app, base(app, "b1"))
    press(app, pygame.K_m)
    click(app, at(app, END))
    press(app, pygame.K_RETURN)
    assert app.session is not None and app.session.game.awaiting().kind == "aro"
    return app


def _range(text: str) -> float:
    found = re.search(r'MODs: range ([0-9.]+)"', text)
    assert found is not None, text
    return float(found.group(1))


def test_a_shot_after_a_move_is_ruled_from_the_end_of_the_move(write_scenario: Write) -> None:
    app = _moved(write_scenario)
    assert app.session is not None
    press(app, pygame.K_i)  # red: no ARO
    assert app.session.game.awaiting().kind == "second"
    press(app, pygame.K_s)
    point_at(app, base(app, "r1"))
    hover = app.state.hover
    assert hover is not None and hover.target == "r1"
    # the engine takes the attack from the end of the route, and there it is seen
    assert hover.ruling.lof
    assert "B1 -> R1, from the end of its move" in panel(app)
    assert "no BS Attack" not in panel(app) and "R1 idle: hit" in panel(app)
    assert abs(_range(panel(app)) - (math.dist(END, (4, 8)) - 2 * 0.4921)) < 0.06
    line = ruling_line(hover.table or app.scenario, hover, True)
    assert math.dist(line[0], END) < 0.6  # the picture's line starts at the end of the move
    assert app.scenario.model("b1").at == START  # drawn where it stands until it resolves
    click(app, base(app, "r1"))
    press(app, pygame.K_RETURN)
    assert app.state.message == ""  # accepted, as the ruling said


def test_an_aro_is_ruled_at_its_point_of_the_route(write_scenario: Write) -> None:
    app = _moved(write_scenario)
    assert app.session is not None
    assert app.state.selected == "r1"
    point_at(app, base(app, "b1"))
    hover = app.state.hover
    assert hover is not None and hover.target == "b1"
    assert hover.ruling.lof  # at the end of the move, where an ARO is taken by default
    assert "R1 -> B1, with B1 at the end of its move" in panel(app)
    assert abs(_range(panel(app)) - (math.dist(END, (4, 8)) - 2 * 0.4921)) < 0.06
    # a point of the route near where b1 stood: the tower hides it there
    near = (4.6, 19.6)
    click(app, at(app, near))
    assert app.state.aro_at is not None
    # the point picked said in words, as the ruling's heading says it, not as numbers
    assert re.fullmatch(r'ARO with B1 [0-9.]+" short of the end of its move', app.state.message)
    point_at(app, base(app, "b1"))
    hover = app.state.hover
    assert hover is not None and not hover.ruling.lof
    assert re.search(r'R1 -> B1, with B1 [0-9.]+" short of the end of its move', panel(app))
    assert "no BS Attack: no line of fire to B1" in panel(app)
    game = app.session.game
    weapon = app.scenario.model("r1").weapons[0]
    try:  # and the engine refuses an ARO there, as the ruling says
        game.declare(React("r1", Skill.attack(weapon, ("b1", 1)), at=app.state.aro_at))
    except IllegalDeclaration as why:
        assert re.fullmatch(
            r'r1 has no line of fire to b1 at [0-9.]+" short of the end of its move', str(why)
        )
    else:
        raise AssertionError("the ARO was taken where the ruling saw no line of fire")
    try:  # a point off the route, in inches to a tenth
        game.declare(React("r1", Skill.attack(weapon, ("b1", 1)), at=(20.04096533, 2.0)))
    except IllegalDeclaration as why:
        assert str(why) == 'the point picked (20.0", 2.0") is not on b1\'s route'
    else:
        raise AssertionError("an ARO was taken off the route")


def _drafted_places(app: App, monkeypatch: pytest.MonkeyPatch) -> dict[str, tuple[float, float]]:
    """Where the drawn shot's lines run from and to (the models draw_draft is given)."""
    seen: dict[str, tuple[float, float]] = {}

    def spy(surface: object, scenario: Scenario, draft: object, *rest: object) -> list[object]:
        seen.update({m.id: m.at for m in scenario.models})
        return []  # no labels drawn

    monkeypatch.setattr("game.render.frame.draw_draft", spy)
    app.draw()
    return seen


def test_the_declared_shot_is_drawn_from_the_end_of_the_move(
    write_scenario: Write, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _moved(write_scenario)
    press(app, pygame.K_i)  # red: no ARO
    press(app, pygame.K_s)
    click(app, base(app, "r1"))
    assert app.state.draft is not None and app.state.draft.targets
    # the cyan line leaves b1 where the ruling's line does, not where it stood
    assert math.dist(_drafted_places(app, monkeypatch)["b1"], END) < 1e-9


def test_the_declared_aro_is_drawn_to_its_point_of_the_route(
    write_scenario: Write, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _moved(write_scenario)
    near = (5.5, 19.0)
    click(app, at(app, near))
    assert app.state.aro_at is not None
    press(app, pygame.K_s)
    click(app, base(app, "b1"))
    assert app.state.draft is not None and app.state.draft.targets
    assert math.dist(_drafted_places(app, monkeypatch)["b1"], app.state.aro_at) < 1e-9
