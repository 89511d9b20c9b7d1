"""Open Rebellion in the window: a unit with wound markers activates on its own first (its
markers rolled into kills, FACTS "Wound markers stay on the unit until it next
activates, and are converted to kills (or not) at that point"); what the person asked
for with the same key follows, if the game still takes it (tester12 item 1: Enter on a
fire draft declared only the activation and dropped the shot without a word)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.render.app import App
from game.render.session import Session
from game.scenario import load_scenario
from game.sequencer.game import Game
from game.sequencer.open_rebellion_types import (
    WOUND,
    Action,
    ActivateUnit,
    EndUnit,
    FallBackChoice,
    PickInitiative,
    UnitAct,
)
from tests.render.driving import at, base, click, panel, press
from tests.render.test_app_open_rebellion import Point, scenario_text
from tests.sequencer.scripted import ScriptedDice

Write = Callable[..., Path]

# red-a-1 stands behind the tall wall from blue-a; red-a-2 and red-a-3 see past its end
GAME = """
[scenario]
name = "A wall between"
ruleset = "open-rebellion"
table = [24, 24]
turns = 2

[[scenery]]
id = "wall"
kind = "wall"
height = 3
line = [[9, 0.5], [9, 9]]
thickness = 0.5

[[side]]
id = "red"
player = "human"

[[side]]
id = "blue"
player = "human"
"""
UNITS: dict[str, tuple[str, list[Point]]] = {
    "red-a": ("red", [(4, 4), (4, 16), (4, 18)]),
    "red-b": ("red", [(4, 22), (6, 22)]),
    "blue-a": ("blue", [(14, 4), (14, 6)]),
    "blue-b": ("blue", [(20, 20), (20, 22)]),
}
NO_BANGS = (1,) * 40  # every later die a blank: the fire places nothing


def red_to_activate(
    write_scenario: Write, units: dict[str, tuple[str, list[Point]]] = UNITS
) -> tuple[App, Game]:
    """GAME with riflemen in `units`, red to activate a unit in turn 1 (red-a's
    initiative roll a bang, blue-a's none)."""
    scenario = load_scenario(write_scenario(scenario_text(GAME, units), header=False))
    app = App(scenario, session=Session.start(scenario, seed=4))
    assert app.session is not None
    game = app.session.game
    app.session.declare(PickInitiative("red-a"))  # as the window would: undo knows them
    game.rng = ScriptedDice(6, 1, 1, 1, 1, 1, 1, 1)  # type: ignore[assignment]
    app.session.declare(PickInitiative("blue-a"))
    assert game.state.active == "red" and game.awaiting().kind == "activate"
    app.follow_game([])
    return app, game


def red_wounded(write_scenario: Write, wounds: int) -> App:
    """Red to activate a unit in turn 1, red-a with `wounds` wound markers (a unit's
    markers are on every model of it)."""
    app, game = red_to_activate(write_scenario)
    for m in game.state.models:
        if m.id.startswith("red-a"):
            game.state = game.state.with_model(m.with_marker(WOUND, wounds))
    app.follow_game([])
    return app


def fire_draft(write_scenario: Write, wounds: int, model: str) -> tuple[App, Game, int]:
    """`red_wounded`, then S with `model` selected and a click on Blue a: the window, its
    game and how many declarations it has made."""
    app = red_wounded(write_scenario, wounds)
    click(app, base(app, model))
    press(app, pygame.K_s)
    click(app, base(app, "blue-a-1"))
    assert "Red a fires at Blue a: Enter" in panel(app)
    assert app.session is not None
    return app, app.session.game, len(app.session.game.declarations)


def test_enter_on_a_fire_draft_fires_after_the_wound_markers_are_rolled(
    write_scenario: Write,
) -> None:
    app, game, made = fire_draft(write_scenario, 1, "red-a-2")
    # a bang die a wound marker, a bang a kill: red-a-3 falls, red-a-2 still sees blue-a
    game.rng = ScriptedDice(6, *NO_BANGS)  # type: ignore[assignment]
    press(app, pygame.K_RETURN)
    assert game.declarations[made:] == [
        ActivateUnit("red-a"),
        UnitAct("red-a", Action.fire("blue-a")),
    ]
    told = [line.text for line in app.state.log]
    assert "Red a rolls its wound markers: 6; killed: Red a 3" in told
    assert any(line.startswith("Red: Red a fires at Blue a") for line in told), told
    assert app.state.draft is None
    assert "Red a, no wound or pinned markers: 1 action left" in panel(app)


def test_a_fire_draft_the_kills_make_illegal_is_kept_and_the_panel_says_why(
    write_scenario: Write,
) -> None:
    # the unit fires: the model selected need not see
    app, game, made = fire_draft(write_scenario, 2, "red-a-1")
    draft = app.state.draft
    # two kills: red-a-3 and red-a-2 fall; red-a-1 behind the wall is left
    game.rng = ScriptedDice(6, 6, *NO_BANGS)  # type: ignore[assignment]
    press(app, pygame.K_RETURN)
    assert game.declarations[made:] == [ActivateUnit("red-a")]
    assert app.state.draft == draft
    assert game.refusal(UnitAct("red-a", Action.fire("blue-a")))
    assert app.state.message == (
        "Red a activated first, its wound markers rolled: no model of Red a has line of "
        "sight to Blue a"
    )
    assert "Red a fires at Blue a: Enter" in panel(app)


@pytest.mark.parametrize(
    ("keys", "action"),
    [
        ((pygame.K_m, "click", pygame.K_RETURN), Action.move(3, 0)),
        ((pygame.K_m, "click", pygame.K_c), Action.tac_move(3, 0)),
        ((pygame.K_i,), Action.initiative()),
    ],
)
def test_a_move_or_an_initiative_action_follows_the_activation(
    write_scenario: Write, keys: tuple[int | str, ...], action: Action
) -> None:
    app = red_wounded(write_scenario, 1)
    assert app.session is not None
    game = app.session.game
    click(app, base(app, "red-a-2"))
    made = len(game.declarations)
    game.rng = ScriptedDice(1, *NO_BANGS)  # no kill  # type: ignore[assignment]
    for key in keys:
        if key == "click":
            click(app, at(app, (7.0, 16.0)))
        else:
            assert isinstance(key, int)
            press(app, key)
    assert game.declarations[made:] == [ActivateUnit("red-a"), UnitAct("red-a", action)]


def red_wounded_by_blue(write_scenario: Write) -> App:
    """Seed 1: Blue a fires at Red a (it holds, no fall back), which is left with a wound
    marker; Red to activate a unit."""
    scenario = load_scenario(write_scenario(scenario_text(GAME, UNITS), header=False))
    app = App(scenario, session=Session.start(scenario, seed=1))
    session = app.session
    assert session is not None
    for declaration in (
        PickInitiative("red-a"),
        PickInitiative("blue-a"),
        UnitAct("blue-a", Action.fire("red-a")),
        FallBackChoice("red-a", False),
        EndUnit(),
    ):
        session.declare(declaration)
    game = session.game
    assert game.state.active == "red" and game.awaiting().kind == "activate"
    assert game.engine.markers(game.state, "red-a")[0] == 1
    app.follow_game([])
    return app


def test_ctrl_z_takes_back_the_activation_and_the_action_one_key_declared(
    write_scenario: Write,
) -> None:
    app = red_wounded_by_blue(write_scenario)
    assert app.session is not None
    made = list(app.session.game.declarations)
    click(app, base(app, "red-a-2"))
    press(app, pygame.K_m)
    click(app, at(app, (7.0, 16.0)))
    press(app, pygame.K_RETURN)
    both = [ActivateUnit("red-a"), UnitAct("red-a", Action.move(3, 0))]
    assert app.session.game.declarations == [*made, *both]
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)  # one key, one undo
    assert app.session.game.declarations == made
    said = "Red a is activated, then Red a makes a standard move"
    assert app.state.message == f"undone: {said}"
    press(app, pygame.K_y, mod=pygame.KMOD_CTRL)
    assert app.session.game.declarations == [*made, *both]
    assert app.state.message == f"redone: {said}"
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)  # redone together, undone together
    assert app.session.game.declarations == made
