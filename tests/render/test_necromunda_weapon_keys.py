"""F1's "Declaring" section and the panel's foot say what the selected fighter's weapons
do to its Shoot (fix16a item 3): they listed the rule system's keys whatever it carried.
Now a fighter with an Unwieldy weapon (FACTS 2.9: "Shoot becomes a Double action"), one
jammed for the battle or out of ammo (FACTS 2.6: Reload first), has a line saying so
under the first, in the engine's words; a fighter with none of these lists the keys.

The demo, both gangs played here, seed 2: House Orlock has priority. Orlock heavy carries
a Heavy stubber (Unwieldy), Orlock ganger 2 an Autogun."""

from __future__ import annotations

from dataclasses import replace

import pygame

from game.render.app import App
from game.render.help import help_sections
from game.render.panel import foot_keys
from game.render.session import Session
from game.scenario import load_scenario
from game.sequencer.necromunda_types import Act, Action
from tests.conftest import REPO
from tests.render.driving import base, click, flagged

UNWIELDY = "its Heavy stubber is Unwieldy: Shoot takes both actions"


def _app() -> App:
    scenario = load_scenario(REPO / "scenarios" / "necromunda-demo.toml")
    sides = tuple(s.model_copy(update={"player": "human"}) for s in scenario.sides)
    scenario = replace(scenario, sides=sides)
    app = App(
        scenario, session=Session.start(scenario, seed=2), surface=pygame.Surface((1280, 800))
    )
    assert app.state.prompt is not None and "orlock-heavy" in app.state.prompt.models
    return app


def _said(app: App, model: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The foot's keys and F1's "Declaring" section with `model` selected."""
    click(app, base(app, model))
    return foot_keys(app.scenario, app.state), dict(help_sections(app.state, "round"))[
        "Declaring (this rule system)"
    ]


def test_an_unwieldy_weapon_is_said_for_the_fighter_carrying_it() -> None:
    # FACTS 2.9: Unwieldy = Shoot becomes a Double action
    app = _app()
    foot, declaring = _said(app, "orlock-heavy")
    assert foot[1] == UNWIELDY and declaring[1] == UNWIELDY
    assert foot[0].startswith("M move · S shoot")
    foot, declaring = _said(app, "orlock-leader")  # nothing of the kind: the keys alone
    assert not any(line.startswith("its ") for line in (*foot, *declaring))
    # its first action taken (a Move): one left, and the Shoot needs both
    assert app.session is not None
    game = app.session.game
    heavy = game.state.model("orlock-heavy")
    game.declare(Act("orlock-heavy", Action.move((heavy.at[0], heavy.at[1] - 1.0))))
    app.follow_game([], animate=False)
    foot, _ = _said(app, "orlock-heavy")
    assert foot[1] == f"{UNWIELDY}, and it has 1 action left"


def test_a_jammed_or_empty_weapon_is_said_in_the_engines_words() -> None:
    # FACTS 2.6: two or more Ammo failures jam it for the battle; one: out of ammo, Reload
    app = _app()
    flagged(app, "orlock-heavy", "jammed:Heavy stubber")
    foot, declaring = _said(app, "orlock-heavy")
    assert foot[1] == declaring[1] == "its Heavy stubber is jammed for the battle"
    flagged(app, "orlock-ganger-2", "out-of-ammo:Autogun")
    foot, declaring = _said(app, "orlock-ganger-2")
    assert foot[1] == declaring[1] == "its Autogun is out of ammo (Reload first)"
