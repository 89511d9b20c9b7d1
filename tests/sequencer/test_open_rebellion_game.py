"""Whole Open Rebellion games between automatic players, replays, and small arms fire
frequencies from the engine against the exact distribution."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from game.ai.open_rebellion import SimpleOpenRebellionPlayer
from game.playtest.batch import automatic_player, play_out
from game.rules.open_rebellion.odds import CoverTier, Markers, small_arms_fire
from game.scenario import load_scenario
from game.sequencer.events import GameEnded
from game.sequencer.game import Game, decode_declarations
from game.sequencer.open_rebellion import OpenRebellionEngine
from game.sequencer.open_rebellion_types import (
    DEAD,
    Action,
    DamageConverted,
    FallBackChoice,
    OpenRebellionState,
    UnitAct,
)
from game.sequencer.state import GameState
from tests.conftest import SCENARIOS
from tests.sequencer.test_open_rebellion_engine import WALL, WOODS, Write, field, red_activating

DEMO = SCENARIOS / "open-rebellion-demo.toml"


def play(seed: int, scenario: Path = DEMO, limit: int = 3000) -> Game:
    game = Game(load_scenario(scenario), seed=seed)
    return play_out(game, SimpleOpenRebellionPlayer(game.engine), limit)  # type: ignore[arg-type]


def no_model_in_two_places(state: GameState) -> bool:
    spots = [m.at for m in state.models if m.status != DEAD]
    return len(spots) == len(set(spots))


def test_the_demo_plays_to_its_end_and_the_same_seed_gives_the_same_log() -> None:
    first = play(seed=2024)
    assert first.state.finished
    [ended] = [e for e in first.events if isinstance(e, GameEnded)]
    assert first.events[-1] == ended
    assert ended.winner == first.state.winner
    assert set(ended.scores) == {"rebels", "government"}
    assert no_model_in_two_places(first.state)
    names = Counter(e.name for e in first.events)
    assert names["SmallArmsFire"] > 0 and names["TurnEnded"] > 0
    again = play(seed=2024)
    assert again.log() == first.log()
    assert play(seed=2025).log() != first.log()


def test_a_saved_game_replays_to_the_identical_log(tmp_path: Path) -> None:
    game = play(seed=77)
    path = tmp_path / "game.json"
    game.save(path)
    saved = json.loads(path.read_text())
    assert saved["ruleset"] == "open-rebellion"
    declarations = decode_declarations(saved["declarations"])
    assert declarations == game.declarations
    replayed = Game.replay(load_scenario(saved["scenario"]), saved["seed"], declarations)
    assert replayed.log() == saved["events"]


def test_every_open_rebellion_scenario_plays_out() -> None:
    for path in sorted(SCENARIOS.glob("open-rebellion-*.toml")):
        game = play(seed=5, scenario=path)
        assert game.state.finished, path.name


def test_the_batch_player_is_the_simple_one_for_both_policies() -> None:
    engine = OpenRebellionEngine(load_scenario(DEMO))
    assert isinstance(automatic_player(engine), SimpleOpenRebellionPlayer)
    assert isinstance(automatic_player(engine, "careful"), SimpleOpenRebellionPlayer)


@pytest.mark.parametrize(("cover", "tier"), [("hard", CoverTier.HARD), ("light", CoverTier.LIGHT)])
def test_fire_frequencies_match_the_exact_distribution(
    write_scenario: Write, cover: str, tier: CoverTier
) -> None:
    if cover == "hard":
        engine = field(write_scenario, WALL, blue_x=19.125 + 20 / 25.4 / 2 + 0.02)
    else:
        engine = field(write_scenario, WOODS.format(bottom=16))
    state = red_activating(engine)
    plan = engine.pools(state, "red-a", "blue-a")
    assert plan.tier is tier
    exact = small_arms_fire(plan.attack, plan.defence, tier)
    rng = np.random.default_rng(20261122)
    trials = 4000
    seen: Counter[Markers] = Counter()
    for _ in range(trials):
        after, events = engine.apply(state, UnitAct("red-a", Action.fire("blue-a")), rng=rng)
        assert isinstance(after, OpenRebellionState)
        if after.phase == "fall-back":  # light cover: the defender stays put
            after, more = engine.apply(after, FallBackChoice("blue-a", False), rng=rng)
            events += more
        conv = [e for e in events if isinstance(e, DamageConverted)]
        seen[Markers(conv[0].wounds, conv[0].pins) if conv else Markers(0, 0)] += 1
    assert set(seen) <= set(exact.counts)
    # each outcome expected at least 5 times on its own; the rarer ones lumped together
    shares = {m: ways / exact.total for m, ways in exact.counts.items()}
    common = [m for m, p in shares.items() if p * trials >= 5]
    checks = [(seen[m] / trials, shares[m], str(m)) for m in common]
    rare = sum(p for m, p in shares.items() if m not in common)
    rare_seen = sum(n for m, n in seen.items() if m not in common) / trials
    checks.append((rare_seen, rare, "rare"))
    assert len(common) >= 6
    for got, p, name in checks:
        se = math.sqrt(p * (1 - p) / trials)
        assert abs(got - p) <= 4 * se + 1e-12, name


def test_games_sharing_a_tables_answers_play_as_each_would_alone() -> None:
    """The games of a playtest share one sight of the table and the sightings, cover
    readings and fire plans kept beside it: the third game's log is the one it gives
    alone (every shared answer is keyed by what it depends on)."""
    from game.sequencer.table_sight import forget_shared

    setup = load_scenario(SCENARIOS / "open-rebellion-demo.toml")

    def play(seed: int) -> Game:
        game = Game(setup, seed)
        return play_out(game, automatic_player(game.engine))

    forget_shared()
    alone = play(3)
    forget_shared()
    first = play(1)
    play(2)
    third = play(3)
    forget_shared()
    engines = (first.engine, third.engine)
    assert all(isinstance(e, OpenRebellionEngine) for e in engines)
    assert third.engine.caches is first.engine.caches  # type: ignore[attr-defined]
    assert third.log() == alone.log()
