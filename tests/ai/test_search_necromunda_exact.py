"""The Necromunda search player's exact expectimax (`_exact`): a shot's outcomes
enumerated with the exact odds of `attack_outcome` (whom it lands on, then Pinned, a
Wound that keeps a multi-wound fighter up, Seriously Injured, Out of Action), and the
expectation over them the same as the engine's own dice give."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from game.ai.necromunda import attack_outcome, hit_outcomes, wounded_outcome
from game.ai.necromunda_search import SearchNecromundaPlayer
from game.rules.necromunda.odds import hit_chance
from game.scenario import load_scenario
from game.sequencer.game import Game
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_fire import heading
from game.sequencer.necromunda_types import (
    OUT_OF_ACTION,
    PINNED,
    SERIOUSLY_INJURED,
    Act,
    Action,
    ActionKind,
    EndActivation,
    NecromundaState,
)
from tests.ai.test_search_necromunda import STREET, _last_round

# blue's leader (2 Wounds) 16" down the street from red's heavy stubber, in the open
LEADER_AT = (10.0, 14.0)


def _shot(
    write_scenario: Callable[..., Path],
) -> tuple[NecromundaEngine, NecromundaState, SearchNecromundaPlayer, Act]:
    """Red's heavy, activating, turned to blue's leader: its first action a stubber shot
    (no one near the line: no stray shots; the leader the only target)."""
    game = Game(load_scenario(write_scenario(STREET, header=False)), 1)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    state = game.state
    assert isinstance(state, NecromundaState)
    heavy = state.model("heavy")
    state = state.with_model(state.model("leader").replace(at=LEADER_AT))
    facing = round(heading(heavy.at, LEADER_AT), 6)
    state = state.with_model(heavy.replace(facing=facing)).replace(
        active="red", activating="heavy", actions_left=2, used=()
    )
    player = SearchNecromundaPlayer(engine, think=0.5, seed=1)
    player.weights.search["exact_prune"] = 0.0  # every outcome, however unlikely
    shot = Act("heavy", Action.shoot("Heavy stubber", "leader"))
    return engine, state, player, shot


def test_a_shots_outcomes_have_the_exact_odds_of_attack_outcome(
    write_scenario: Callable[..., Path],
) -> None:
    """FACTS 2.4: a hit pins a Standing fighter, its wound roll, save and damage may take
    one of the leader's 2 Wounds and leave it up (Pinned), or its Injury dice put it
    down. The expectimax's branches of the heavy stubber's shot (Rapid Fire: every hit
    of the Firepower dice) add up to 1, and the odds of each outcome are attack_outcome's
    and wounded_outcome's at the hit plan's chance (Out of Action, Seriously Injured,
    hit; a Wound taken and still up)."""
    engine, state, player, shot = _shot(write_scenario)
    assert engine.profiles["leader"].w == 2
    player._rng = np.random.default_rng(0)
    player._spend = 10
    branches = player._branches(state, shot)
    assert sum(p for p, _ in branches) == pytest.approx(1.0)
    leader = state.model("leader")
    weapon = engine.weapon("heavy", "Heavy stubber")
    bs = engine.profiles["heavy"].bs
    need = engine.hit_plan(state, "heavy", weapon, target="leader").need
    chance = float(hit_chance(bs, bs - need))
    hit, si, ooa = attack_outcome(engine, weapon, leader, chance)
    hurt = wounded_outcome(engine, weapon, leader, chance)
    assert hurt > 0.05  # a Wound that keeps the leader up is among the outcomes

    def odds(test: Callable[[object], bool]) -> float:
        return sum(p for p, s in branches if test(s.model("leader")))

    assert odds(lambda m: m.status == OUT_OF_ACTION) == pytest.approx(ooa)  # type: ignore[attr-defined]
    assert odds(lambda m: m.status == SERIOUSLY_INJURED) == pytest.approx(si)  # type: ignore[attr-defined]
    assert odds(lambda m: m.status != leader.status) == pytest.approx(hit)  # type: ignore[attr-defined]
    up = odds(lambda m: m.status == PINNED and m != leader.replace(status=PINNED))  # type: ignore[attr-defined]
    assert up == pytest.approx(hurt)
    # the rest of the heavy's activation is the engine's: the same in every branch
    assert {s.model("heavy") for _, s in branches} == {s.model("heavy") for _, s in branches[:1]}


def test_hit_outcomes_leave_the_fighter_as_the_engine_does(
    write_scenario: Callable[..., Path],
) -> None:
    """Every state the engine's dice leave the leader in after the shot is one of the
    enumerated outcomes (its Wounds, Flesh Wounds and status), or the leader untouched."""
    engine, state, _, shot = _shot(write_scenario)
    weapon = engine.weapon("heavy", "Heavy stubber")
    leader = state.model("leader")
    known = {m for _, m in hit_outcomes(engine, weapon, leader)} | {leader}
    for k in range(200):
        after, _ = engine.apply(state, shot, rng=np.random.default_rng(k))
        assert isinstance(after, NecromundaState)
        assert after.model("leader").replace(at=leader.at, facing=leader.facing) in known


def test_the_expectimax_of_a_shot_is_its_mean_over_the_engines_dice(
    write_scenario: Callable[..., Path],
) -> None:
    """The expected worth of the shot over its enumerated outcomes (each scored as the
    expectimax scores a leaf) agrees with the mean over the engine's own dice, within
    4 standard errors of 400 games' worth of shots."""
    engine, state, player, shot = _shot(write_scenario)
    player._rng = np.random.default_rng(0)
    player._spend = 10
    exact = sum(p * player._leaf(s, "red") for p, s in player._branches(state, shot))
    sampled = []
    for k in range(400):
        after, _ = engine.apply(state, shot, rng=np.random.default_rng(k))
        assert isinstance(after, NecromundaState)
        leader = after.model("leader")
        # the leader as the enumeration places it (a knockback's inch aside)
        after = after.with_model(leader.replace(at=LEADER_AT, facing=state.model("leader").facing))
        sampled.append(player._leaf(after, "red"))
    values = np.array(sampled)
    assert values.std() > 5  # the dice matter
    assert abs(values.mean() - exact) < 4 * values.std() / math.sqrt(len(values))


def test_at_the_end_of_the_last_round_the_result_decides(
    write_scenario: Callable[..., Path],
) -> None:
    """FACTS 2.8: at the turn limit the gang with more points of fighters in the fight
    wins. Round 4 of 4, blue's ganger (50 points) hidden behind the block from red's
    heavy (150), which has yet to activate: staying hidden ends the round a sure loss,
    worth exactly -`win` to blue whatever the heavy then does (`exact_final` 0: the
    fighters count only through the result); coming out to shoot keeps a chance to win,
    worth no less."""
    engine, state, player = _last_round(write_scenario)
    state = state.with_model(state.model("ganger").replace(at=(4.5, 5.4)))
    assert not engine.sighting(state, "heavy", "ganger").lof
    assert player.weights.search["exact_final"] == 0.0
    awaiting = engine.awaiting(state)
    player._rng = np.random.default_rng(0)
    player._spend = 10_000
    player._memo = {}
    stay = player._expect(state, EndActivation(), "blue", state, awaiting, 0)
    assert stay == -player.weights["win"]
    move = player.choose(state, awaiting)
    assert isinstance(move, Act) and move.action.kind is ActionKind.MOVE, move
    player._memo = {}
    out = player._expect(state, move, "blue", state, awaiting, 0)
    assert out is not None and out >= stay


def test_the_budget_counts_the_expectimaxs_leaves_and_replies(
    write_scenario: Callable[..., Path],
) -> None:
    """The step budget binds the expectimax: a leaf's scoring and a reply cost it steps
    as a forward step does (`exact_leaf_cost`, `exact_reply_cost`, `exact_judge_cost`:
    they cost more time than one), and it stops before a call would pass its budget. The
    last round's decision (blue's ganger beside the block), weighed in full, then with
    half and a tenth of the steps that took."""
    engine, state, player = _last_round(write_scenario)
    awaiting = engine.awaiting(state)
    search = player.weights.search
    player.budget = 100_000
    player.choose(state, awaiting)
    assert player.exact_weighed == 1
    full = player.steps
    costs = {c: search[c] for c in ("exact_leaf_cost", "exact_reply_cost", "exact_judge_cost")}
    assert min(costs.values()) >= 1
    search.update(dict.fromkeys(costs, 0.0))
    player.choose(state, awaiting)
    forward = player.steps  # the forward steps alone
    assert 0 < forward < full
    search.update(costs)
    for budget in (full // 2, max(8, full // 10)):
        player.budget = budget
        player.choose(state, awaiting)
        assert player.steps <= budget
        assert player.steps < full
