"""The window shows a burning fighter (FACTS 2.9, Blaze: "target catches fire on 4+"):
an "on fire" tag on its base and in the panel, until the fire goes out."""

from __future__ import annotations

from game.render.session import Session
from game.scenario import load_scenario
from game.sequencer.necromunda_types import BLAZE
from tests.conftest import SCENARIOS


def test_blaze_a_burning_fighter_is_tagged_on_fire() -> None:
    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    session = Session.start(scenario, seed=1)
    game, rules = session.game, session.rules
    fighter = game.state.models[0]
    assert "on fire" not in rules.markers(game)[fighter.id].tags
    game.state = game.state.with_model(fighter.replace(flags=fighter.flags | {BLAZE}))
    assert "on fire" in rules.markers(game)[fighter.id].tags


def test_blaze_the_prompt_says_a_ready_fighter_is_on_fire_and_what_e_does() -> None:
    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    session = Session.start(scenario, seed=1)
    game, rules = session.game, session.rules
    ready = game.awaiting().models
    fighter = game.state.model(ready[0])
    assert "on fire" not in rules.prompt(game).text
    game.state = game.state.with_model(fighter.replace(flags=fighter.flags | {BLAZE}))
    assert fighter.id == "escher-leader"
    assert rules.prompt(game).text.endswith(
        "; Escher leader is on fire: E, and the flames take the activation"
    )
