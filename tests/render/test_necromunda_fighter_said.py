"""A Necromunda fighter as the panel and its base say it (tester14 findings 3 and 10):
Broken shown on the base and in the Selected heading (FACTS 2.4: a Broken fighter may
only Run for Cover, so the player must see which one is), its status in the rules'
words ("Seriously Injured", not the id "seriously-injured") and its profile written as
the rulebook writes one (FACTS 2.1: "WS 4+ ... Ld 6+", a save "Sv 6+")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from game.render.app import App
from game.render.session import Session
from game.scenario import load_scenario
from tests.render.driving import at, base, click, panel, press
from tests.render.test_app_necromunda import GAME, SEED

Write = Callable[..., Path]


def _app(write_scenario: Write, text: str = GAME) -> App:
    scenario = load_scenario(write_scenario(text, header=False))
    return App(scenario, session=Session.start(scenario, seed=SEED))


def make_broken(app: App, model: str) -> None:
    """`model` Broken (FACTS 2.4: a failed Nerve test), the window following."""
    assert app.session is not None
    game = app.session.game
    m = game.state.model(model)
    game.state = game.state.with_model(m.replace(flags=m.flags | {"broken"}))
    app.follow_game([])


def test_a_broken_fighter_is_marked_broken_on_its_base_and_in_the_panel(
    write_scenario: Write,
) -> None:
    app = _app(write_scenario)
    make_broken(app, "e1")
    assert "Broken" in dict(app.state.markers)["e1"].tags
    assert "Broken" not in dict(app.state.markers)["e2"].tags
    app.draw()
    assert [p for p in app.cache.table.labels if p.text == "Broken"]  # beside e1's base
    click(app, base(app, "e1"))
    assert "E1  (Escher)  Standing, Broken" in panel(app)
    click(app, base(app, "e2"))
    assert "E2  (Escher)  Standing" in panel(app) and "Broken" not in panel(app)


def test_necromunda_profile_and_status_in_the_rules_notation(write_scenario: Write) -> None:
    hurt = GAME.replace(
        'profile = "grenadier"', 'profile = "grenadier"\nstate = "seriously-injured"'
    )
    app = _app(write_scenario, hurt)
    click(app, base(app, "e1"))
    text = panel(app)
    # the ganger of FACTS 2.1: M 5, WS 4+, BS 4+, ..., Ld 6+, Cl 7+, Wil 7+, Int 7+
    assert 'M 5"  WS 4+  BS 4+  S 3  T 3  W 1  I 4+  A 1  Ld 6+  Cl 7+  Wil 7+  Int 7+' in text
    assert "Sv 6+" in text and "flak armour" in text
    assert "LD " not in text and "SAVE" not in text
    click(app, base(app, "grenadier"))
    text = panel(app)
    assert "Grenadier  (Orlock)  Seriously Injured" in text
    assert "seriously-injured" not in text
    # the prompt of an activation names the fighter's status in the same words
    click(app, base(app, "flamer"))
    press(app, pygame.K_m)
    click(app, at(app, (16.0, 18.0)))
    press(app, pygame.K_RETURN)
    prompt = app.state.prompt
    assert prompt is not None and prompt.text.startswith("Flamer (Standing): 1 action left")
