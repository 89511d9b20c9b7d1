"""Necromunda group activations in the window, said plainly (tester12 item 13): G once
the leader has acted says it has activated already; the last fighter of a group is
"selected", not "picked" from one; a fighter joining is said in plain colour, not the
colour of a refusal; M or S on a fighter outside a group activation that goes on is
refused at once, with the engine's reason (FACTS 2.8: the group activates before play
passes on), not at Enter."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from game.render import frame
from game.render.app import App
from game.render.style import NEUTRAL, WARN
from game.sequencer.necromunda_types import Act, ActionKind
from tests.render.driving import at, base, click, panel, point_at, press, refused_at_once
from tests.render.test_app_necromunda_groups import _app

Write = Callable[..., Path]


def message_colour(app: App) -> tuple[int, int, int]:
    [line] = [line for line in frame.panel_lines(app.scenario, app.state)
              if line.text == app.state.message]  # fmt: skip
    return line.colour


def leader_with_group(write_scenario: Write) -> App:
    """The leader selected, the heavy and the grenadier nominated (G twice)."""
    app = _app(write_scenario)
    click(app, base(app, "orlock-leader"))
    point_at(app, base(app, "orlock-heavy"))
    press(app, pygame.K_g)
    # joining is no refusal: said in plain colour (it was in the warning colour)
    assert app.state.message == (
        "Orlock heavy joins Orlock leader's group activation (1 of 2): Orlock heavy "
        "activates after it"
    )
    assert message_colour(app) == NEUTRAL
    point_at(app, at(app, (6, 21)))  # by the grenadier
    press(app, pygame.K_g)
    assert app.state.group == ("orlock-heavy", "orlock-grenadier")
    return app


def test_g_after_the_leaders_first_action_says_it_has_activated_already(
    write_scenario: Write,
) -> None:
    app = leader_with_group(write_scenario)
    press(app, pygame.K_a)  # the leader aims: its group goes with it
    press(app, pygame.K_g)
    assert app.state.message == (
        "Orlock leader has activated already: a group activation is nominated with the "
        "first action of an activation"
    )
    assert message_colour(app) == WARN


def test_the_last_of_a_group_is_to_be_selected_not_picked_from_one(
    write_scenario: Write,
) -> None:
    app = leader_with_group(write_scenario)
    assert app.session is not None
    game = app.session.game
    press(app, pygame.K_a, pygame.K_e)  # the leader aims and ends its activation
    assert "Orlock heavy and Orlock grenadier still to activate in Orlock leader's " in (panel(app))
    assert "group activation: pick one" in panel(app)
    click(app, base(app, "orlock-heavy"))
    press(app, pygame.K_a, pygame.K_e)
    assert game.awaiting().models == ("orlock-grenadier",)
    assert (
        "Orlock: Orlock grenadier still to activate in Orlock leader's group activation: "
        "select it" in panel(app)
    )
    assert "pick one" not in panel(app)


def test_m_on_a_fighter_outside_the_group_is_refused_at_once(write_scenario: Write) -> None:
    app = leader_with_group(write_scenario)
    assert app.session is not None
    game = app.session.game
    press(app, pygame.K_a, pygame.K_e)
    said = (
        "Orlock leader's group activation goes on: Orlock heavy and Orlock grenadier are "
        "still to activate in it"
    )
    refused_at_once(app, "orlock-ganger", (pygame.K_m, pygame.K_s), said)
    assert message_colour(app) == WARN
    # one of the group: M lays out its move as before
    click(app, base(app, "orlock-heavy"))
    press(app, pygame.K_m)
    assert app.state.draft is not None and app.state.draft.model == "orlock-heavy"
    click(app, at(app, (8.5, 16.5)))
    press(app, pygame.K_RETURN)
    last = game.declarations[-1]
    assert isinstance(last, Act) and last.model == "orlock-heavy"
    assert last.action.kind is ActionKind.MOVE
