"""The features the Necromunda search player's judgement is fitted on (issue 17,
benchmarks/fit_necromunda_value.py): a hand-made position counted by hand, and the
logistic fit recovering known coefficients."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.fit_necromunda_value import design
from game.ai.necromunda_search import SearchNecromundaPlayer
from game.ai.necromunda_value import FEATURES, ValueFeatures, fit_logistic, log_loss, sigmoid
from game.scenario import load_scenario
from game.sequencer.game import Game
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_types import (
    OUT_OF_ACTION,
    PINNED,
    READY,
    SERIOUSLY_INJURED,
    NecromundaState,
)
from tests.conftest import SCENARIOS

MIRROR = SCENARIOS / "necromunda-mirror.toml"


def test_features_of_a_hand_made_position_match_a_hand_count() -> None:
    game = Game(load_scenario(MIRROR), 5)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    state = game.state
    assert isinstance(state, NecromundaState)
    orlock = state.side_models("orlock")
    goliath = state.side_models("goliath")
    # Orlock: one Pinned, one Seriously Injured, one Out of Action; Goliath: two activated
    state = state.with_model(orlock[0].replace(status=PINNED))
    state = state.with_model(orlock[1].replace(status=SERIOUSLY_INJURED))
    state = state.with_model(orlock[2].replace(status=OUT_OF_ACTION))
    for m in goliath[:2]:
        state = state.with_model(m.replace(flags=m.flags - {READY}))
    pts = engine.points
    player = SearchNecromundaPlayer(engine, budget=60, seed=1)
    values = ValueFeatures(player)
    f = values.features(state, "orlock")
    assert f["pinned_us"] == pts[orlock[0].id]
    assert f["si_us"] == pts[orlock[1].id]
    assert f["up_us"] == sum(pts[m.id] or 50 for m in orlock[3:])
    assert f["up_them"] == sum(pts[m.id] or 50 for m in goliath)
    assert f["pinned_them"] == f["si_them"] == 0.0
    # five Ready at the start, one Out of Action: the Pinned and the Seriously Injured count
    assert len(orlock) == 5 and f["ready_us"] == 4
    assert f["ready_them"] == len(goliath) - 2
    # nothing down in Goliath's gang: no bottle test, every fighter's whole points
    assert f["mat_them"] == pytest.approx(sum(pts[m.id] or 50 for m in goliath))
    assert f["round"] == float(state.turn)
    assert f["bottled_us"] == f["bottled_them"] == 0.0
    # the other side's view is the same position mirrored
    g = values.features(state, "goliath")
    for name in ("mat", "ex", "up", "pinned", "si", "ready", "bottled"):
        assert g[f"{name}_us"] == f[f"{name}_them"] and g[f"{name}_them"] == f[f"{name}_us"]
    assert f["priority"] + g["priority"] == 1.0
    # the parts add up to the judgement's own value (enemy 1, exchange 1, no press in round 1)
    player._forget()
    whole = player._material(state, "orlock") + player._exchange(state, "orlock")
    assert f["hand"] == pytest.approx(whole, abs=1e-9)
    w = player.weights
    assert f["hand"] == pytest.approx(
        f["mat_us"]
        - w["enemy"] * f["mat_them"]
        + w["exchange"] * (f["ex_us"] - w["exchange_risk"] * f["ex_them"]),
        abs=1e-9,
    )
    assert f["to_act"] + g["to_act"] == 1.0 and f["to_act"] == float(state.active == "orlock")
    assert set(f) == set(FEATURES)


def test_the_logistic_fit_recovers_known_coefficients() -> None:
    rng = np.random.default_rng(3)
    n = 40_000
    x = np.column_stack([np.ones(n), rng.normal(size=n), rng.normal(size=n) * 2])
    truth = np.array([0.3, 1.2, -0.5])
    y = (rng.random(n) < sigmoid(x @ truth)).astype(float)
    beta = fit_logistic(x, y, l2=0.0)
    assert beta == pytest.approx(truth, abs=0.05)
    # the fitted model predicts better than the base rate
    assert log_loss(y, sigmoid(x @ beta)) < log_loss(y, np.full(n, y.mean()))
    # an L2 penalty shrinks the slopes, not the intercept's column
    shrunk = fit_logistic(x, y, l2=1.0)
    assert abs(shrunk[1]) < abs(beta[1]) and abs(shrunk[2]) < abs(beta[2])


def test_draws_count_as_half_a_win_in_the_fit() -> None:
    # results of 0.5 alone: the fit says even odds (intercept 0), whatever the feature
    x = np.column_stack([np.ones(8), np.arange(8.0)])
    beta = fit_logistic(x, np.full(8, 0.5), l2=0.0)
    assert beta == pytest.approx([0.0, 0.0], abs=1e-9)


def test_the_models_columns_split_by_round() -> None:
    rows = np.zeros((2, len(FEATURES) + 1))
    rows[:, FEATURES.index("mat_us")] = [300.0, 200.0]
    rows[:, FEATURES.index("mat_them")] = [100.0, 150.0]
    rows[:, FEATURES.index("round")] = [1.0, 3.0]
    names, x = design(rows, "rounds", 4)
    assert x[0, names.index("mat@1")] == 200.0 and x[0, names.index("mat@3")] == 0.0
    assert x[1, names.index("mat@3")] == 50.0 and x[1, names.index("mat@1")] == 0.0
