"""A Necromunda group activation nominated in the window (SDL dummy driver). FACTS 2.8:
"Leaders may group-activate 2 fighters within 3", Champions 1": G takes the Ready friend
within 3" nearest the pointer into the selected leader's group (G again lets it go),
the nominated are ringed on the table, the group goes with the leader's first action
and the window then awaits one of them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from game.render.app import App
from game.render.session import Session
from game.render.style import GROUP
from game.scenario import load_scenario
from game.sequencer.necromunda_types import Act, Action, EndActivation
from tests.render.driving import at, base, click, panel, point_at, press

Write = Callable[..., Path]

GAME = """
[scenario]
name = "The leader brings the heavy"
ruleset = "necromunda"
table = [24, 24]
turns = 2

[[side]]
id = "orlock"
player = "human"

[[side]]
id = "escher"
player = "human"

[[model]]
id = "orlock-leader"
side = "orlock"
profile = "leader"
at = [6, 18]
facing = -90

[[model]]
id = "orlock-heavy"
side = "orlock"
profile = "heavy"
at = [8.5, 18]
facing = -90

[[model]]
id = "orlock-grenadier"
side = "orlock"
profile = "grenadier"
at = [6, 20.5]
facing = -90

[[model]]
id = "orlock-ganger"
side = "orlock"
profile = "ganger"
at = [3.5, 18]
facing = -90

[[model]]
id = "orlock-juve"
side = "orlock"
profile = "juve"
at = [16, 18]
facing = -90

[[model]]
id = "escher-ganger"
side = "escher"
profile = "ganger"
at = [8, 6]
facing = 90
"""
SEED = 2  # orlock wins the first priority roll


def _app(write_scenario: Write, size: tuple[int, int] = (1280, 800)) -> App:
    scenario = load_scenario(write_scenario(GAME, header=False))
    return App(scenario, session=Session.start(scenario, seed=SEED), size=size)


def _green_near(app: App, model: str) -> int:
    """Pixels of the group's ring colour around `model`'s base on the last frame."""
    x, y = base(app, model)
    r = round(app.scenario.model(model).radius * app.state.view.scale) + 12
    surface = app.draw()
    found = 0
    for px in range(x - r, x + r + 1):
        for py in range(y - r, y + r + 1):
            if 0 <= px < surface.get_width() and 0 <= py < surface.get_height():
                found += tuple(surface.get_at((px, py)))[:3] == GROUP
    return found


def test_group_activation_nominated_with_g_ringed_and_declared_with_the_first_action(
    write_scenario: Write, tmp_path: Path
) -> None:
    app = _app(write_scenario)
    assert app.session is not None
    game = app.session.game
    assert any(line.startswith("G group") for line in app.state.keys_help)
    click(app, base(app, "orlock-leader"))
    # the pointer by the heavy: G takes it
    point_at(app, base(app, "orlock-heavy"))
    press(app, pygame.K_g)
    assert app.state.group == ("orlock-heavy",)
    assert app.state.message == (
        "Orlock heavy joins Orlock leader's group activation (1 of 2): Orlock heavy "
        "activates after it"
    )
    # a fighter 7.5" off (edge to edge) is refused with the rule's reason
    point_at(app, base(app, "orlock-juve"))
    press(app, pygame.K_g)
    assert app.state.message.startswith('Orlock juve is 9.02" from Orlock leader')
    assert app.state.group == ("orlock-heavy",)
    point_at(app, at(app, (6, 21)))  # by the grenadier
    press(app, pygame.K_g)
    assert app.state.group == ("orlock-heavy", "orlock-grenadier")
    # a third is one too many for a leader (FACTS 2.8: 2)
    point_at(app, base(app, "orlock-ganger"))
    press(app, pygame.K_g)
    assert app.state.message.startswith("Orlock leader takes 2 fighters in a group activation")
    # both ringed on the table; the ganger not
    point_at(app, at(app, (20, 2)))
    assert _green_near(app, "orlock-heavy") > 20 and _green_near(app, "orlock-grenadier") > 20
    assert _green_near(app, "orlock-ganger") == 0
    pygame.image.save(app.draw(), str(tmp_path / "group-1280x800.png"))
    # G by one in the group lets it go; again, it comes back (second now)
    point_at(app, base(app, "orlock-heavy"))
    press(app, pygame.K_g)
    assert app.state.group == ("orlock-grenadier",)
    assert app.state.message.endswith("Orlock grenadier activates after it")
    press(app, pygame.K_g)
    assert app.state.group == ("orlock-grenadier", "orlock-heavy")
    # the leader's first action carries the group
    press(app, pygame.K_a)
    first = game.declarations[-1]
    assert isinstance(first, Act) and first.group == ("orlock-grenadier", "orlock-heavy")
    assert app.state.group == ()
    # undo says the action taken back, and the group with it (review11: it named the
    # group's line alone); redo the same
    said = (
        "Orlock leader aims (Orlock leader leads a group activation with Orlock grenadier "
        "and Orlock heavy)"
    )
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert app.state.message == f"undone: {said}"
    press(app, pygame.K_y, mod=pygame.KMOD_CTRL)
    assert app.state.message == f"redone: {said}"
    game = app.session.game  # undo and redo replay the game afresh
    assert game.declarations[-1] == first
    # mid-activation G says when a group is named
    press(app, pygame.K_g)
    assert "has activated already: a group activation is nominated with the first" in (
        app.state.message
    )
    press(app, pygame.K_e)
    assert game.awaiting().models == ("orlock-grenadier", "orlock-heavy")
    assert "still to activate in Orlock leader's group activation" in panel(app)
    tagged = {m for m, marker in app.state.markers if "group: to act" in marker.tags}
    assert tagged == {"orlock-grenadier", "orlock-heavy"}
    assert "Orlock leader leads a group activation with Orlock grenadier and Orlock heavy" in (
        panel(app)
    )
    # a fighter outside the group waits; a ganger leads none
    click(app, base(app, "orlock-ganger"))
    press(app, pygame.K_g)
    assert "is not about to activate" in app.state.message
    press(app, pygame.K_a)
    assert app.state.message == (
        "Orlock leader's group activation goes on: Orlock grenadier and Orlock heavy are "
        "still to activate in it"
    )
    click(app, base(app, "orlock-heavy"))
    press(app, pygame.K_a)
    assert game.declarations[-1] == Act("orlock-heavy", Action.aim())
    assert game.awaiting().kind == "action"


def test_group_activation_g_on_a_ganger_says_who_may_lead(write_scenario: Write) -> None:
    app = _app(write_scenario, (800, 600))
    click(app, base(app, "orlock-ganger"))
    press(app, pygame.K_g)
    assert app.state.message == (
        "Orlock ganger is a ganger: only a Leader or a Champion leads a group activation"
    )
    click(app, base(app, "orlock-heavy"))  # a champion: one
    point_at(app, base(app, "orlock-leader"))
    press(app, pygame.K_g)
    assert app.state.group == ("orlock-leader",)
    point_at(app, at(app, (20, 2)))
    assert _green_near(app, "orlock-leader") > 10
    # FACTS 2.8: a champion that does nothing still leads its group: E passes with it
    assert app.session is not None
    game = app.session.game
    press(app, pygame.K_e)
    assert game.declarations[-1] == EndActivation("orlock-heavy", group=("orlock-leader",))
    assert game.awaiting().models == ("orlock-leader",)
    assert "Orlock heavy leads a group activation with Orlock leader" in panel(app)


SIGHT = """
[[scenery]]
id = "block"
kind = "building"
polygon = [[3, 9], [13, 9], [13, 12], [3, 12]]

[[model]]
id = "escher-juve"
side = "escher"
profile = "juve"
at = [16, 14]
facing = 90
"""


def test_a_refused_shot_keeps_the_group_and_selecting_another_says_it_waits(
    write_scenario: Write,
) -> None:
    """A refused draft changes nothing (README): the leader's nominated group stays
    through a shot the rules refuse at Enter (tester11: the group was gone), and selecting
    another fighter keeps it and says so; another fighter declaring first lets it go, said."""
    scenario = load_scenario(write_scenario(GAME + SIGHT, header=False))
    app = App(scenario, session=Session.start(scenario, seed=SEED), size=(1280, 800))
    assert app.session is not None
    game = app.session.game
    click(app, base(app, "orlock-leader"))
    point_at(app, base(app, "orlock-heavy"))
    press(app, pygame.K_g)
    point_at(app, at(app, (6, 21)))  # by the grenadier
    press(app, pygame.K_g)
    both = ("orlock-heavy", "orlock-grenadier")
    assert app.state.group == both
    # behind the building: refused as it is clicked, and Enter refused, the group kept
    # and still ringed
    press(app, pygame.K_s)
    click(app, base(app, "escher-ganger"))
    assert "has no line of sight to Escher ganger" in app.state.message
    press(app, pygame.K_RETURN)
    assert app.state.message == "click an enemy to shoot at first"
    assert len(game.declarations) == 0
    assert app.state.group == both and app.state.group_of == "orlock-leader"
    point_at(app, at(app, (20, 2)))
    assert _green_near(app, "orlock-heavy") > 20
    # another fighter selected: the group waits, said so; the leader again: there it is
    press(app, pygame.K_ESCAPE)
    assert app.state.group == both
    click(app, base(app, "orlock-ganger"))
    assert app.state.message == (
        "Orlock leader's group activation with Orlock heavy and Orlock grenadier waits: "
        "select Orlock leader to declare with it"
    )
    click(app, base(app, "orlock-leader"))
    assert app.state.message == (
        "Orlock leader's group activation: Orlock heavy and Orlock grenadier activate after it"
    )
    # a target in sight: the shot is declared with the group
    press(app, pygame.K_s)
    click(app, base(app, "escher-juve"))
    press(app, pygame.K_RETURN)
    first = game.declarations[-1]
    assert isinstance(first, Act) and first.group == both
    assert app.state.group == ()


def test_another_fighter_going_first_lets_the_group_go_and_says_so(
    write_scenario: Write,
) -> None:
    app = _app(write_scenario)
    assert app.session is not None
    click(app, base(app, "orlock-leader"))
    point_at(app, base(app, "orlock-heavy"))
    press(app, pygame.K_g)
    click(app, base(app, "orlock-ganger"))
    press(app, pygame.K_a)
    assert app.session.game.declarations[-1] == Act("orlock-ganger", Action.aim())
    assert app.state.group == ()
    assert app.state.message.endswith(
        "Orlock leader's group activation with Orlock heavy is let go: Orlock ganger went first"
    )
