"""M or S on a model that may declare nothing now is refused at once, with the rules'
reason, no draft laid out to be refused at Enter (after tester12 item 13, the group's
case): in Open Rebellion a model of a unit that is not the one activating, or of the
other side; in Necromunda a fighter while another is activating."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from tests.render.driving import at, base, click, press, refused_at_once
from tests.render.test_app_necromunda_groups import _app
from tests.render.test_open_rebellion_activates_first import red_to_activate

Write = Callable[..., Path]


def test_open_rebellion_m_or_s_on_a_unit_that_may_not_act_is_refused_at_once(
    write_scenario: Write,
) -> None:
    app, game = red_to_activate(write_scenario)
    other_side = "Blue a is not a unit of Red to activate (Red a and Red b)"
    refused_at_once(app, "blue-a-1", (pygame.K_m, pygame.K_s), other_side)
    # Red a moves: it is activating now, so Red b waits
    click(app, base(app, "red-a-2"))
    press(app, pygame.K_m)
    click(app, at(app, (4.0, 14.0)))
    press(app, pygame.K_RETURN)
    assert game.state.activating == "red-a"
    said = "Red a is activating: E ends its activation"
    refused_at_once(app, "red-b-1", (pygame.K_m, pygame.K_s, pygame.K_i), said)


def test_necromunda_m_on_another_fighter_while_one_activates_is_refused_at_once(
    write_scenario: Write,
) -> None:
    app = _app(write_scenario)
    click(app, base(app, "orlock-leader"))
    press(app, pygame.K_a)  # the leader aims: its activation goes on
    said = "Orlock leader is activating: E ends its activation"
    refused_at_once(app, "orlock-ganger", (pygame.K_m, pygame.K_s), said)
