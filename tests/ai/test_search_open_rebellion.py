"""The Open Rebellion search player's evaluation and control variate: a unit's wound
markers are worth the kills they are expected to bring at its next activation (one bang
die each), and a sample's luck (small arms fire's damage, a kill roll) is taken off
against the exact odds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from game.ai.open_rebellion_search import SearchOpenRebellionPlayer
from game.scenario import load_scenario
from game.sequencer.game import Game
from game.sequencer.open_rebellion import OpenRebellionEngine
from game.sequencer.open_rebellion_types import (
    DEAD,
    WOUND,
    Action,
    ActivateUnit,
    OpenRebellionState,
    UnitAct,
)
from tests.conftest import SCENARIOS

VILLAGE = SCENARIOS / "open-rebellion-village.toml"


def opening() -> tuple[OpenRebellionState, OpenRebellionEngine, SearchOpenRebellionPlayer]:
    """The village after three careful declarations: the rebels' orchard squad is
    activating and has the government's east squad in its sights."""
    game = Game(load_scenario(VILLAGE), 7)
    engine = game.engine
    assert isinstance(engine, OpenRebellionEngine)
    careful = game.setup.ruleset.player("careful")(engine)
    for _ in range(3):
        game.declare(careful.choose(game.state, game.awaiting()))
    state = game.state
    assert isinstance(state, OpenRebellionState) and state.activating == "orchard-squad"
    return state, engine, SearchOpenRebellionPlayer(engine, budget=60, seed=1)


def test_kill_roll_expected_kills_agree_with_the_engine() -> None:
    """FACTS / seed 001: at the start of its activation each wound marker of a unit
    rolls one bang die, a bang is a kill (cheapest models first). The evaluation's
    exact expected points killed against the engine's own roll, 3000 times, within 4
    standard errors."""
    state, engine, player = opening()
    unit = "east-squad"
    alive = engine.alive(state, unit)
    for m in alive:
        state = state.with_model(m.with_marker(WOUND, 3))
    expected = player._expected_kills(state, unit)
    assert expected > 0
    rng = np.random.default_rng(4)
    killed = []
    for _ in range(3000):
        after = engine._kills(state, unit, [], rng)
        killed.append(
            sum(engine.profiles[m.id].points for m in alive if after.model(m.id).status == DEAD)
        )
    got = np.array(killed, dtype=float)
    assert abs(got.mean() - expected) < 4 * got.std() / math.sqrt(len(got))


def test_a_kill_rolls_luck_averages_to_nothing() -> None:
    state, engine, player = opening()
    state = state.replace(activating=None, phase="activate", active="government")
    for m in engine.alive(state, "east-squad"):
        state = state.with_model(m.with_marker(WOUND, 2))
    lucks = []
    for k in range(400):
        after, _ = engine.apply(state, ActivateUnit("east-squad"), rng=np.random.default_rng(k))
        lucks.append(player.luck(state, ActivateUnit("east-squad"), after, "rebels"))
    luck = np.array(lucks)
    assert luck.std() > 1
    assert abs(luck.mean()) < 4 * luck.std() / math.sqrt(len(luck))


@pytest.mark.parametrize("side", ["rebels", "government"])
def test_small_arms_fires_luck_averages_to_nothing(side: str) -> None:
    """The damage of a fire action against its exact expectation (`damage`): the luck
    averages to zero within 4 standard errors, and carries the sign of whom it helps."""
    state, engine, player = opening()
    fire = UnitAct("orchard-squad", Action.fire("east-squad"))
    lucks, hurts = [], []
    for k in range(400):
        after, _ = engine.apply(state, fire, rng=np.random.default_rng(k))
        assert isinstance(after, OpenRebellionState)
        lucks.append(player.luck(state, fire, after, side))
        if after.pending is not None:
            hurts.append(after.pending.damage)
        else:
            hurts.append(sum(engine.markers(after, "east-squad")))
    luck = np.array(lucks)
    assert luck.std() > 0.5
    assert abs(luck.mean()) < 4 * luck.std() / math.sqrt(len(luck))
    # more damage to the government's squad is good luck for the rebels only
    more = np.array(hurts) > np.mean(hurts)
    assert (luck[more].mean() > 0) == (side == "rebels")
