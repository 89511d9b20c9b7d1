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
