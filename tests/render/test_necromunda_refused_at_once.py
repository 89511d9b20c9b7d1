"""Necromunda's refusals said at once, in the rules' words (tester14 finding 9): a
Seriously Injured fighter may only Crawl (FACTS 2.4), so S and B are refused as they
are pressed, not after a shot is laid out; its move is a Crawl, said so, and offers no
Take Cover; an Unwieldy weapon's Shoot is a Double action (FACTS 2.9), refused with
one action left naming the weapon and the trait; a Broken fighter may only Run for Cover
(C), so M and S are refused at once; a burning fighter's activation is the fire's
(FACTS 2.9, Blaze), so M, S and B are refused at once (review14)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from game.render.app import App
from game.render.session import Session
from game.scenario import load_scenario
from game.sequencer.necromunda_types import BLAZE, Act, Action
from tests.render.driving import at, base, click, flagged, panel, press, refused_at_once
from tests.render.test_app_necromunda import GAME, SEED
from tests.render.test_necromunda_fighter_said import make_broken

Write = Callable[..., Path]
HEAVIES = (
    GAME.replace('id = "grenadier"', 'id = "heavy-1"')
    .replace('profile = "grenadier"', 'profile = "heavy"\nstate = "seriously-injured"')
    .replace('id = "flamer"', 'id = "heavy-2"')
    .replace('profile = "champion-flamer"', 'profile = "heavy"')
)


def _app(write_scenario: Write) -> App:
    scenario = load_scenario(write_scenario(HEAVIES, header=False))
    return App(scenario, session=Session.start(scenario, seed=SEED))


def test_a_seriously_injured_fighter_is_refused_a_shot_at_once(write_scenario: Write) -> None:
    app = _app(write_scenario)
    said = "Heavy 1 is seriously injured: it may only Crawl"
    refused_at_once(app, "heavy-1", (pygame.K_s, pygame.K_b), said)


def test_a_prone_fighters_move_is_a_crawl_without_take_cover(write_scenario: Write) -> None:
    app = _app(write_scenario)
    click(app, base(app, "heavy-1"))
    press(app, pygame.K_m)
    click(app, at(app, (8.0, 19.0)))
    text = panel(app)
    assert 'Heavy 1 crawls 1.0" of 2"' in text  # half its Move of 4" (FACTS 2.4)
    assert "takes cover" not in text and "moves" not in text
    # a standing fighter's move still offers C
    app = _app(write_scenario)
    click(app, base(app, "heavy-2"))
    press(app, pygame.K_m)
    click(app, at(app, (16.0, 19.0)))
    assert 'Heavy 2 moves 1.0" of 4"' in panel(app) and "C takes cover" in panel(app)


def test_unwieldy_with_one_action_left_is_refused_naming_weapon_and_trait(
    write_scenario: Write,
) -> None:
    app = _app(write_scenario)
    assert app.session is not None
    game = app.session.game
    click(app, base(app, "heavy-2"))
    press(app, pygame.K_m)
    click(app, at(app, (16.0, 19.0)))
    press(app, pygame.K_RETURN)
    assert game.state.actions_left == 1
    said = (
        "Heavy 2's Heavy stubber is Unwieldy: shooting it is a Double action, and Heavy 2 "
        "has 1 action left"
    )
    press(app, pygame.K_1)  # the Heavy stubber
    refused_at_once(app, "heavy-2", (pygame.K_s,), said)
    # the engine says the same at the declaration
    shot = Act("heavy-2", Action.shoot("Heavy stubber", "e3"))
    assert game.refusal(shot) == said.replace("Heavy 2", "heavy-2")
    # the Stub gun is no Double action: its shot is laid out
    press(app, pygame.K_2)
    press(app, pygame.K_s)
    assert app.state.draft is not None and app.state.draft.weapon == "Stub gun"


def test_a_broken_fighter_is_refused_a_move_at_once(write_scenario: Write) -> None:
    # FACTS 2.4: a Broken fighter must take Running for Cover (C in the window)
    app = _app(write_scenario)
    make_broken(app, "heavy-2")
    said = "Heavy 2 is Broken: it may only Run for Cover"
    refused_at_once(app, "heavy-2", (pygame.K_m, pygame.K_s), said)


def test_a_crawl_with_one_action_left_is_refused_at_once(write_scenario: Write) -> None:
    # FACTS 2.8: Take Cover (Basic) leaves the fighter Pinned; its Crawl is a Double action
    app = _app(write_scenario)
    assert app.session is not None
    click(app, base(app, "heavy-2"))
    press(app, pygame.K_c)  # takes cover where it stands: Pinned, 1 action left
    assert app.session.game.state.model("heavy-2").status == "pinned"
    said = "Crawl is a Double action, and Heavy 2 has 1 action left"
    refused_at_once(app, "heavy-2", (pygame.K_m,), said)


def test_a_burning_fighter_is_refused_a_move_and_a_shot_at_once(write_scenario: Write) -> None:
    """FACTS 2.9, Blaze: the flames take a burning fighter's activation (the rulebook's
    reading, assets/necromunda/traits.toml), and the engine refuses its every action; M,
    S and B laid out a move or a shot that Enter then refused (review14)."""
    app = _app(write_scenario)
    assert app.session is not None
    game = app.session.game
    flagged(app, "heavy-2", BLAZE)
    said = (
        "Heavy 2 is on fire: the flames take its activation (activate it doing nothing, and "
        "it burns)"
    )
    refused_at_once(app, "heavy-2", (pygame.K_m, pygame.K_s, pygame.K_b), said)
    assert game.refusal(Act("heavy-2", Action.move((16.0, 19.0)))) == said.replace(
        "Heavy 2", "heavy-2"
    )


def test_the_help_of_a_crawl_offers_no_take_cover(write_scenario: Write) -> None:
    """F1 listed "C: take cover along the path" for a Prone fighter's Crawl, where C is
    refused (FACTS 2.4: a Seriously Injured fighter "may only Crawl (Double, 1/2 M)"; a
    Pinned one may Crawl or Blind Fire): it lists the Crawl's keys in the rules' words. A
    Standing fighter's move still lists C."""
    from game.render.help import help_sections

    app = _app(write_scenario)
    click(app, base(app, "heavy-1"))
    press(app, pygame.K_m)
    click(app, at(app, (8.0, 19.0)))
    press(app, pygame.K_F1)
    title, keys = help_sections(app.state, "round")[0]
    assert title == "Laying out a crawl"
    assert keys == (
        "click: add a point to the path (a Crawl: half the Move; the inches left are shown)",
        "Backspace: take the last point back · Enter: declare (a Crawl is a Double action) · "
        "Esc: cancel",
    )
    press(app, pygame.K_F1, pygame.K_c)  # the window has no C for it: refused, said why
    assert app.state.refusal == "Heavy 1 is seriously injured: it may only Crawl"
    app = _app(write_scenario)
    click(app, base(app, "heavy-2"))
    press(app, pygame.K_m)
    click(app, at(app, (16.0, 19.0)))
    title, keys = help_sections(app.state, "round")[0]
    assert title == "Laying out a move" and keys[-1].startswith("C: take cover along the path")


def test_a_seriously_injured_fighter_selected_lists_only_the_crawl(write_scenario: Write) -> None:
    """F1's "Declaring" section and the panel's foot listed "M move · S shoot · A aim · R
    reload · C take cover" for a selected Seriously Injured fighter, and its range rings
    showed (tester15 finding 8): it "may only Crawl (Double, 1/2 M)" and "cannot attack"
    (FACTS 2.4), so they list the Crawl and E, and no rings are drawn about it. A Standing
    fighter selected lists every key, with its rings."""
    from game.render.help import help_sections
    from game.render.overlays import draw_range_rings
    from game.render.panel import foot_keys

    app = _app(write_scenario)
    click(app, base(app, "heavy-1"))
    sections = dict(help_sections(app.state, "round"))
    crawl = "M crawl (it may only Crawl: a Double action, half the Move) · E end activation"
    assert sections["Declaring (this rule system)"][0] == crawl
    keys = " ".join(foot_keys(app.scenario, app.state))
    assert crawl in keys and "S shoot" not in keys and "C take cover" not in keys
    surface = pygame.Surface(app.state.size)
    assert draw_range_rings(surface, app.scenario, app.state) == []
    click(app, base(app, "heavy-2"))
    assert "S shoot" in dict(help_sections(app.state, "round"))["Declaring (this rule system)"][0]
    assert "S shoot" in " ".join(foot_keys(app.scenario, app.state))
    assert draw_range_rings(surface, app.scenario, app.state) != []
