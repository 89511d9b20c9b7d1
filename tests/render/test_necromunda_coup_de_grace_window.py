"""The window offers Necromunda's Coup de Grace (FACTS 2.4: a Seriously Injured fighter
is "Vulnerable to Coup de Grace (Simple action from within 1", which takes it OOA)"): K
with a fighter selected finishes off the Seriously Injured enemy within 1" (the one
pointed at, or the one nearest the pointer); the panel says so while it may; F1 lists
the key; a fighter that may take none is refused with the reason."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from game.render.app import App
from game.render.help import help_sections
from game.render.session import Session
from game.scenario import load_scenario
from game.sequencer.necromunda_types import BLAZE, OUT_OF_ACTION, Act, ActionKind
from tests.render.driving import at, base, click, flagged, panel, point_at, press

Write = Callable[..., Path]

R = 25 / 25.4 / 2  # a 25 mm base's radius

GAME = f"""
[scenario]
name = "Finished in the sump"
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
id = "orlock-ganger-1"
side = "orlock"
profile = "ganger"
at = [8, 12]
facing = 0

[[model]]
id = "orlock-ganger-2"
side = "orlock"
profile = "ganger"
at = [3, 3]
facing = 0

[[model]]
id = "escher-ganger-1"
side = "escher"
profile = "ganger"
at = [{8 + 2 * R + 0.6}, 12]
facing = 180
state = "seriously-injured"

[[model]]
id = "escher-ganger-2"
side = "escher"
profile = "ganger"
at = [20, 20]
facing = 180
"""
SEED = 2


def started(write_scenario: Write) -> App:
    scenario = load_scenario(write_scenario(GAME, header=False))
    seed = next(s for s in range(SEED, 60) if Session.start(scenario, seed=s).game.state.active
                == "orlock")  # fmt: skip
    return App(scenario, session=Session.start(scenario, seed=seed))


def test_k_finishes_off_the_seriously_injured_enemy_within_1_inch(write_scenario: Write) -> None:
    app = started(write_scenario)
    assert app.session is not None
    game = app.session.game
    keys = " ".join(app.state.keys_help)
    assert "K coup de grace" in keys
    assert any("K coup de grace" in " ".join(lines) for _, lines in help_sections(app.state))
    # offered while it may be taken: the prompt names who may finish off whom
    assert "K Coup de Grace: Orlock ganger 1 on Escher ganger 1" in panel(app)
    click(app, base(app, "orlock-ganger-1"))
    point_at(app, at(app, (12.0, 4.0)))  # over no fighter: the one nearest the pointer
    press(app, pygame.K_k)
    [act] = [d for d in game.declarations if isinstance(d, Act)]
    assert act.action.kind is ActionKind.COUP_DE_GRACE
    assert act.action.target == "escher-ganger-1"
    assert game.state.model("escher-ganger-1").status == OUT_OF_ACTION
    log = " ".join(line.text for line in app.state.log)
    assert (
        "Orlock ganger 1 finishes off the Seriously Injured Escher ganger 1 with a Coup de "
        "Grace: Out of Action" in log
    )
    assert "K Coup de Grace" not in panel(app)  # none left to finish off


def test_k_refused_with_the_reason_when_none_is_within_1_inch(write_scenario: Write) -> None:
    app = started(write_scenario)
    assert app.session is not None
    game = app.session.game
    click(app, base(app, "orlock-ganger-2"))
    press(app, pygame.K_k)
    assert app.state.message == (
        'no Seriously Injured enemy is within 1" of Orlock ganger 2 for a Coup de Grace'
    )
    assert game.declarations == []
    # pointed at an enemy out of reach: the engine's reason
    click(app, base(app, "orlock-ganger-1"))
    point_at(app, base(app, "escher-ganger-2"))
    press(app, pygame.K_k)
    assert "Escher ganger 2 is standing: only a Seriously Injured fighter" in app.state.message
    assert game.declarations == []


def test_a_burning_fighter_is_offered_no_coup_de_grace(write_scenario: Write) -> None:
    """review14: FACTS 2.9, Blaze: the flames take a burning fighter's activation (the
    rulebook's reading, assets/necromunda/traits.toml), yet the prompt offered "K Coup de
    Grace: Orlock ganger 1 on Escher ganger 1" beside "Orlock ganger 1 is on fire: E, and
    the flames take the activation", and K laid out the Coup de Grace the engine refuses.
    Now it offers none, and K says why."""
    app = started(write_scenario)
    assert app.session is not None
    game = app.session.game
    flagged(app, "orlock-ganger-1", BLAZE)
    text = panel(app)
    assert "Orlock ganger 1 is on fire: E, and the flames take the activation" in text
    assert "K Coup de Grace" not in text
    click(app, base(app, "orlock-ganger-1"))
    press(app, pygame.K_k)
    assert app.state.message.startswith("Orlock ganger 1 is on fire: the flames take its")
    assert game.declarations == []
