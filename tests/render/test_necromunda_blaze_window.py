"""The window shows a burning fighter (FACTS 2.9, Blaze: "target catches fire on 4+"):
an "on fire" tag on its base and in the panel, until the fire goes out."""

from __future__ import annotations

from game.render.necromunda_play import _not_in_the_odds
from game.render.session import Session
from game.rules.necromunda.dice import Blaze, Knockback, Traits
from game.scenario import load_scenario
from game.sequencer.necromunda_types import BLAZE, OUT_OF_ACTION
from tests.conftest import SCENARIOS


def test_blaze_a_burning_fighter_is_tagged_on_fire() -> None:
    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    session = Session.start(scenario, seed=1)
    game, rules = session.game, session.rules
    fighter = game.state.models[0]
    assert "on fire" not in rules.markers(game)[fighter.id].tags
    game.state = game.state.with_model(fighter.replace(flags=fighter.flags | {BLAZE}))
    assert "on fire" in rules.markers(game)[fighter.id].tags
    # shot down while burning it keeps the flag, and the tag goes, as Broken's does
    # (review14: an Out of Action fighter was tagged "on fire")
    burning = game.state.model(fighter.id)
    game.state = game.state.with_model(burning.replace(status=OUT_OF_ACTION))
    assert "on fire" not in rules.markers(game)[fighter.id].tags


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


def test_blaze_and_knockback_the_odds_say_the_traits_figures_the_engine_plays() -> None:
    """The odds' lines of what they leave out (FACTS 2.9's Blaze and Knockback) give the
    figures of assets/necromunda/traits.toml, as the engine plays them: they read "a 4+"
    and "1 Damage" whatever the file said (review14)."""
    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    session = Session.start(scenario, seed=1)
    engine = session.game.engine
    flamer = engine.weapon("escher-champion", "Flamer")  # type: ignore[attr-defined]
    frag = engine.weapon("orlock-grenadier", "Grenade launcher (frag)")  # type: ignore[attr-defined]
    bundled = engine.traits  # type: ignore[attr-defined]
    assert _not_in_the_odds(flamer, bundled) == [
        "Blaze: a fighter hit catches fire on a 4+ (not in the odds)"
    ]
    assert _not_in_the_odds(frag, bundled) == [
        "Knockback: a push stopped short adds 1 Damage (not in the odds)"
    ]
    other = Traits(Blaze(catches_fire_on=5), Knockback(blocked_damage=2))
    assert _not_in_the_odds(flamer, other) == [
        "Blaze: a fighter hit catches fire on a 5+ (not in the odds)"
    ]
    assert _not_in_the_odds(frag, other) == [
        "Knockback: a push stopped short adds 2 Damage (not in the odds)"
    ]
