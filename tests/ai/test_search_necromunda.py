"""The Necromunda search player's evaluation and its control variate: what a gang can
expect to keep in the fight to the end (bottle tests, Cool tests, recovery), and a
shot's sampled result taken off against its exact odds."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from game.ai.necromunda import CarefulNecromundaPlayer
from game.ai.necromunda_search import SearchNecromundaPlayer
from game.scenario import load_scenario
from game.sequencer.game import Game
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_fire import heading
from game.sequencer.necromunda_types import (
    OUT_OF_ACTION,
    SERIOUSLY_INJURED,
    Act,
    Action,
    ActionKind,
    NecromundaState,
)
from game.sequencer.sight import Cover
from tests.conftest import SCENARIOS

DEMO = SCENARIOS / "necromunda-demo.toml"


def demo(seed: int = 7) -> tuple[Game, NecromundaEngine, SearchNecromundaPlayer]:
    game = Game(load_scenario(DEMO), seed)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    player = SearchNecromundaPlayer(engine, budget=60, seed=1)
    return game, engine, player


def cool(cl: int) -> float:
    """Necromunda: a Cool test passes on 2D6 >= Cl (a 2 always fails)."""
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= cl and a + b > 2) / 36


def stays(bottle: float, passes: float, left: int, bottled: bool) -> float:
    """A fighter's odds of not fleeing over `left` End phases, phase by phase."""
    if left == 0:
        return 1.0
    if bottled:
        return passes * stays(bottle, passes, left - 1, True)
    return bottle * passes * stays(bottle, passes, left - 1, True) + (1 - bottle) * stays(
        bottle, passes, left - 1, False
    )


@pytest.mark.parametrize("down", [0, 1, 2, 3])
@pytest.mark.parametrize("left", [1, 2, 4])
def test_bottle_test_odds_of_a_fighter_staying_to_the_end(down: int, left: int) -> None:
    # FACTS 2.8: "Bottle test: D6 + fighters Seriously Injured or Out of Action >
    # starting crew; a bottled gang's fighters each take a Cool test or flee."
    game, engine, player = demo()
    state = game.state
    assert isinstance(state, NecromundaState)
    fallen = [m for m in state.side_models("orlock")][:down]
    for m in fallen:
        state = state.with_model(m.replace(status=OUT_OF_ACTION))
    crew = engine.crew["orlock"]
    bottle = 0.0 if not down else sum(1 for face in range(1, 7) if face + down > crew) / 6
    keep = player._staying(state, "orlock", left)
    for m in state.side_models("orlock")[down:]:
        passes = cool(engine.profiles[m.id].cl)
        assert keep(m) == pytest.approx(stays(bottle, passes, left, False), abs=1e-12)
    bottled = state.replace(bottled=frozenset({"orlock"}))
    for m in bottled.side_models("orlock")[down:]:
        passes = cool(engine.profiles[m.id].cl)
        assert player._staying(bottled, "orlock", left)(m) == pytest.approx(passes**left)


def test_bottle_odds_agree_with_the_engines_end_phase() -> None:
    """One End phase of the engine's own bottle test, many times: the share of games in
    which a fighter is still in the fight is the evaluation's, within 4 standard errors."""
    game, engine, player = demo()
    state = game.state
    assert isinstance(state, NecromundaState)
    first = state.side_models("orlock")[0]
    state = state.with_model(first.replace(status=SERIOUSLY_INJURED))
    rng = np.random.default_rng(20)
    n = 3000
    watched = state.side_models("orlock")[1:]
    kept = dict.fromkeys((m.id for m in watched), 0)
    for _ in range(n):
        after = engine._bottle(state, [], rng)
        for m in watched:
            kept[m.id] += after.model(m.id).status != OUT_OF_ACTION
    keep = player._staying(state, "orlock", 1)
    for m in watched:
        p = keep(m)
        se = math.sqrt(p * (1 - p) / n)
        assert abs(kept[m.id] / n - p) < 4 * se, (m.id, kept[m.id] / n, p)


def test_recovery_odds_of_a_seriously_injured_fighter() -> None:
    # FACTS 2.8 Recovery: an Injury die each End phase; a Flesh Wound puts the fighter
    # back (Pinned), Seriously Injured leaves it down, Out of Action removes it.
    _, engine, player = demo()
    faces = [f.value for f in engine.dice.injury]
    back, stay = faces.count("flesh wound") / 6, faces.count("seriously injured") / 6
    assert player._recovering(0) == 0.0
    assert player._recovering(1) == pytest.approx(back)
    assert player._recovering(3) == pytest.approx(back + stay * back + stay * stay * back)


@pytest.mark.parametrize(
    ("shooter", "weapon", "target"),
    [
        ("orlock-heavy", "Heavy stubber", "escher-ganger-2"),
        ("orlock-grenadier", "Grenade launcher (krak)", "escher-ganger-1"),
        # past a closer enemy (a Cool test, FACTS 2.3) that is also at risk of a stray
        # shot on a miss (seed 004): both are in the expectation
        ("orlock-grenadier", "Grenade launcher (krak)", "escher-leader"),
    ],
)
def test_a_shots_luck_averages_to_nothing(shooter: str, weapon: str, target: str) -> None:
    """The control variate: a shot's worth after sampled dice less its exact expectation
    (attack_outcome) averages to zero over many dice, within 4 standard errors; and it
    is what makes the shot's samples differ (the luck taken off, little is left)."""
    game, engine, player = demo()
    state = game.state
    m, t = state.model(shooter), state.model(target)
    shot = Act(shooter, Action.shoot(weapon, target), turn_to=round(heading(m.at, t.at), 6))
    if target == "escher-leader":
        turned = state.with_model(m.replace(facing=shot.turn_to))
        assert isinstance(turned, NecromundaState)
        closer = player._closer(turned, shooter, engine.weapon(shooter, weapon), target)
        assert closer == "escher-ganger-1" and closer in engine.at_risk(turned, shooter, target)
    lucks, worths = [], []
    for k in range(300):
        after, _ = engine.apply(state, shot, rng=np.random.default_rng(k))
        assert isinstance(after, NecromundaState)
        lucks.append(player.luck(state, shot, after, "orlock"))
        worths.append(player._material(after, "orlock"))
    luck, worth = np.array(lucks), np.array(worths)
    assert luck.std() > 10  # the dice do matter to this shot
    assert abs(luck.mean()) < 4 * luck.std() / math.sqrt(len(luck))
    assert (worth - luck).std() < 0.2 * worth.std()


# -- hand-made positions -------------------------------------------------------------

STREET = """
[scenario]
name = "Open street"
ruleset = "necromunda"
table = [24, 32]
turns = 4

[[side]]
id = "blue"
player = "ai"

[[side]]
id = "red"
player = "ai"

[[scenery]]
id = "block"
kind = "building"
polygon = [[3, 6], [6, 6], [6, 9], [3, 9]]

[[model]]
id = "leader"
side = "blue"
profile = "leader"
at = [9, 4.5]
facing = 90

[[model]]
id = "ganger"
side = "blue"
profile = "ganger"
at = [1, 23]
facing = 0

[[model]]
id = "heavy"
side = "red"
profile = "heavy"
at = [10, 30]
facing = -90
"""


def _street(
    write_scenario: Callable[..., Path], at: tuple[float, float], wounds: int
) -> tuple[Game, NecromundaEngine, NecromundaState]:
    """Blue's leader (pistol and grenades, out of reach of everything) starts its
    activation at `at`; red's heavy stubber watches the street from 25" away; a second
    blue ganger far off keeps the round going after red's reply."""
    game = Game(load_scenario(write_scenario(STREET, header=False)), 1)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    state = game.state
    assert isinstance(state, NecromundaState)
    leader = state.model("leader").replace(at=at, wounds=wounds)
    state = state.with_model(leader).replace(
        active="blue", activating="leader", actions_left=2, used=()
    )
    return game, engine, state


def _cover_after(engine: NecromundaEngine, state: NecromundaState, choice: object) -> Cover:
    """The cover the leader has from the heavy after `choice` (TOTAL: out of sight)."""
    after, _ = engine.apply(state, choice, rng=np.random.default_rng(0))  # type: ignore[arg-type]
    s = engine.sighting(after, "heavy", "leader")
    return s.cover if s.lof else Cover.TOTAL


def test_a_wounded_fighter_moves_into_cover_rather_than_along_the_line_of_fire(
    write_scenario: Callable[..., Path],
) -> None:
    """The leader, one of its two Wounds gone, stands in the open in the heavy
    stubber's line of fire, nothing in its own reach: the careful player's advance
    keeps it in the open; the search player moves it behind the block."""
    _, engine, state = _street(write_scenario, (9, 4.5), 1)
    assert engine.sighting(state, "heavy", "leader").cover is Cover.NONE
    awaiting = engine.awaiting(state)
    careful = CarefulNecromundaPlayer(engine).choose(state, awaiting)
    assert _cover_after(engine, state, careful) is Cover.NONE, "no longer tempts careful"
    choice = SearchNecromundaPlayer(engine, budget=150, seed=1).choose(state, awaiting)
    assert isinstance(choice, Act) and choice.action.kind is ActionKind.MOVE
    assert _cover_after(engine, state, choice) is not Cover.NONE, f"search chose {choice}"


def test_does_not_walk_into_fire_it_can_avoid(write_scenario: Callable[..., Path]) -> None:
    """The leader starts hidden behind the block: the careful player's advance takes it
    out into the heavy stubber's line of fire; the search player's action does not."""
    _, engine, state = _street(write_scenario, (4.5, 5.4), 0)
    assert not engine.sighting(state, "heavy", "leader").lof
    awaiting = engine.awaiting(state)
    careful = CarefulNecromundaPlayer(engine).choose(state, awaiting)
    assert _cover_after(engine, state, careful) is Cover.NONE, "no longer tempts careful"
    choice = SearchNecromundaPlayer(engine, budget=150, seed=1).choose(state, awaiting)
    assert _cover_after(engine, state, choice) is Cover.TOTAL, f"search chose {choice}"
