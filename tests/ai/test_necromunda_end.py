"""The last End phase's odds (game.ai.necromunda_end) against the engine's own End phase:
the Bottle test and Recovery face by face with scripted dice, and the game's result at
the turn limit against many End phases rolled by a seeded generator."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from game.ai.necromunda_end import final_result, points_after_end
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_types import (
    OUT_OF_ACTION,
    PINNED,
    SERIOUSLY_INJURED,
    UPRIGHT,
    NecromundaState,
)
from tests.ai.test_search_necromunda import demo
from tests.sequencer.scripted import ScriptedDice


def _battered() -> tuple[NecromundaEngine, NecromundaState]:
    """The demo's gangs late in a fight: Orlock's leader Out of Action, its ganger 1
    Seriously Injured beside its heavy (a friend within 1": two Recovery dice), its
    ganger 2 Pinned; Escher's champion and juve Out of Action, its ganger 1 Seriously
    Injured alone."""
    game, engine, _ = demo()
    state = game.state
    assert isinstance(state, NecromundaState)
    heavy = state.model("orlock-heavy")
    edits = {
        "orlock-leader": {"status": OUT_OF_ACTION},
        "orlock-ganger-1": {
            "status": SERIOUSLY_INJURED,
            "at": (heavy.at[0] + 2 * engine.radius[heavy.id] + 0.5, heavy.at[1]),
        },
        "orlock-ganger-2": {"status": PINNED},
        "escher-champion": {"status": OUT_OF_ACTION},
        "escher-juve": {"status": OUT_OF_ACTION},
        "escher-ganger-1": {"status": SERIOUSLY_INJURED},
    }
    for id_, change in edits.items():
        state = state.with_model(state.model(id_).replace(**change))
    return engine, state.replace(turn=engine.turns)


def _in_fight(engine: NecromundaEngine, state: NecromundaState, side: str) -> float:
    return float(sum(engine.points[m.id] or 50 for m in engine.fighting(state, side)))


def test_recovery_odds_are_the_engines_recovery_face_by_face() -> None:
    # FACTS 2.8: "Recovery: each SI fighter rolls an Injury die — FW = flesh wound +
    # Pinned, SI = no change, OOA = removed; one Active friend within 1" adds an extra
    # die and the player picks one"
    engine, battered = _battered()
    for id_, dice, other in (
        ("orlock-ganger-1", 2, "escher-ganger-1"),
        ("escher-ganger-1", 1, "orlock-ganger-1"),
    ):
        # the other Seriously Injured fighter Out of Action: only this one rolls
        state = battered.with_model(battered.model(other).replace(status=OUT_OF_ACTION))
        m = state.model(id_)
        assert engine.recovery_helped(state, m) == (dice == 2)
        back = 0
        faces = list(itertools.product(range(1, 7), repeat=dice))
        for roll in faces:
            after = engine._recovery(state, [], ScriptedDice(*roll))  # type: ignore[arg-type]
            back += after.model(id_).status in (*UPRIGHT, PINNED)
        assert engine.recovery_odds(state, m) == pytest.approx(back / len(faces), abs=1e-12)
        assert 0 < back < len(faces)


def test_bottle_odds_are_the_engines_bottle_test_face_by_face() -> None:
    # FACTS 2.8: "Bottle test: D6 + number of SI/OOA > starting crew → bottled"
    engine, battered = _battered()
    for side in battered.sides:
        # the other gang's fighters all up: only this gang rolls its test
        state = battered
        for m in battered.models:
            if m.side != side:
                state = state.with_model(m.replace(status=UPRIGHT[0]))
        bottled = 0
        for face in range(1, 7):
            dice = ScriptedDice(face, *[6] * 20)  # the test, then Cool tests that pass
            after = engine._bottle(state, [], dice)  # type: ignore[arg-type]
            bottled += side in after.bottled
        assert engine.bottle_odds(state, side) == pytest.approx(bottled / 6, abs=1e-12)
        assert 0 < bottled < 6
    assert engine.bottle_odds(battered.replace(bottled=frozenset({"orlock"})), "orlock") == 1.0


def test_points_after_the_end_phase_sum_to_one_and_match_the_odds_alone() -> None:
    # No gang down: no Bottle test and no Recovery, the points standing are the result.
    game, engine, _ = demo()
    state = game.state
    assert isinstance(state, NecromundaState)
    for side in state.sides:
        assert points_after_end(engine, state, side) == {_in_fight(engine, state, side): 1.0}
    engine, state = _battered()
    for side in state.sides:
        dist = points_after_end(engine, state, side)
        assert sum(dist.values()) == pytest.approx(1.0, abs=1e-12)
    # a bottled gang of fighters all Standing: each stays by its Cool test alone
    game, engine, _ = demo()
    state = game.state
    assert isinstance(state, NecromundaState)
    bottled = state.replace(bottled=frozenset({"escher"}))
    mean = sum(v * p for v, p in points_after_end(engine, bottled, "escher").items())
    expected = sum(
        (engine.points[m.id] or 50) * engine.cool_odds(m.id) for m in bottled.side_models("escher")
    )
    assert mean == pytest.approx(expected, abs=1e-9)


def test_final_result_is_the_engines_end_phase_result_on_average() -> None:
    """FACTS 2.8: at the turn limit the side with more points of fighters in the fight
    wins, after the End phase (Bottle test, fleeing, Recovery). Many End phases by the
    engine's own `_bottle` and `_recovery`, a seeded generator: the mean result is the
    exact one within 4 standard errors."""
    engine, state = _battered()
    exact = final_result(engine, state, "orlock")
    assert final_result(engine, state, "escher") == pytest.approx(-exact, abs=1e-12)
    rng = np.random.default_rng(2026)
    n = 6000
    results = []
    for _ in range(n):
        after = engine._recovery(engine._bottle(state, [], rng), [], rng)
        mine, theirs = _in_fight(engine, after, "orlock"), _in_fight(engine, after, "escher")
        results.append((mine > theirs) - (mine < theirs))
    mean = float(np.mean(results))
    se = float(np.std(results)) / math.sqrt(n)
    assert abs(mean - exact) < 4 * se, (mean, exact, se)
    # and not the points standing before the End phase (the test means something)
    before = _in_fight(engine, state, "orlock") - _in_fight(engine, state, "escher")
    assert abs(exact - (before > 0) + (before < 0)) > 8 * se
