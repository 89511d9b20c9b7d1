"""The Necromunda search player's exact expectimax looking further ahead
(`exact_horizon`, weights): past the enemy's next activation to our next one (2) and
the enemy's after that (3), inside the step budget, the same choice every time."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import numpy as np

from game.ai.necromunda_search import SearchNecromundaPlayer
from game.scenario import load_scenario
from game.sequencer.declarations import Declaration
from game.sequencer.engine import Awaiting
from game.sequencer.game import Game
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_types import Act, ActionKind, NecromundaState
from tests.ai.test_search_necromunda import STREET, mirror_game


def _weighed() -> tuple[NecromundaState, Awaiting, SearchNecromundaPlayer]:
    """The position of `_found` and a fresh search player for it."""
    engine, state, awaiting = _found()
    return state, awaiting, SearchNecromundaPlayer(engine, think=0.5, seed=101)


@functools.cache
def _found() -> tuple[NecromundaEngine, NecromundaState, Awaiting]:
    """A mirror game's first decision of the search player (House Orlock, against the
    careful player) whose judged plans the expectimax weighs, a fighter to activate with
    two more of each side's to come this round."""
    game, engine, search, careful = mirror_game()
    while not game.state.finished:
        state, awaiting = game.state, game.awaiting()
        assert isinstance(state, NecromundaState)
        if awaiting.side != "orlock":
            game.declare(careful.choose(state, awaiting))
            continue
        weighed = search.exact_weighed
        choice = search.choose(state, awaiting)
        room = all(len(engine.ready(state, s)) >= 2 for s in state.sides)
        if search.exact_weighed > weighed and awaiting.kind == "activate" and room:
            return engine, state, awaiting
        game.declare(choice)
    raise AssertionError("the expectimax weighed no decision of the game")


def test_the_horizon_is_the_activations_done_since_the_root() -> None:
    """Necromunda's sides alternate activations (FACTS 2.8; a fighter stays Ready until
    its activation ends). From the first decision of round 1, the careful players playing
    on: horizon 1 ends when the enemy's activation after ours is done, 2 when our next is
    done, 3 when the enemy's after that is done; every declaration of ours after the
    root's activation, its second action too, is in a `later` one (the careful player's,
    `exact_later`), none of the root's."""
    game, _, player, careful = mirror_game()
    root, awaiting = game.state, game.awaiting()
    assert isinstance(root, NecromundaState) and awaiting.kind == "activate"
    side = awaiting.side
    assert side is not None
    first: dict[int, int] = {}  # horizon -> the declaration count where it is reached
    ours: list[tuple[int, bool]] = []  # our declarations: their count, in a later activation
    n = 0
    while len(first) < 3 and not game.state.finished:
        state = game.state
        assert isinstance(state, NecromundaState)
        for far in (1, 2, 3):
            player._horizon = far
            if far not in first and player._far(root, awaiting, state):
                first[far] = n
        waiting = game.awaiting()
        if waiting.side == side:
            ours.append((n, player._later(root, state, side)))
        game.declare(careful.choose(state, waiting))
        n += 1
    assert game.state.turn == root.turn
    assert 0 < first[1] < first[2] < first[3]
    root_own = [k for k, later in ours if not later]
    next_own = [k for k, later in ours if later and k < first[2]]
    assert root_own and max(root_own) < first[1] <= min(next_own)
    assert len(next_own) >= 2  # the later activation's second action is later too
    # the activations done: ours, theirs, ours again, theirs
    assert player._begun(root, game.state) == 4


def test_a_deeper_horizon_stays_within_the_budget_and_replays() -> None:
    """The step budget binds the deeper horizon as it does the first (`_charge`, never a
    clock): weighed in full with horizon 3, then with half and a tenth of those steps,
    it never passes its budget; short of steps for the deeper horizon the first
    horizon's answer stands; and the same position gives the same choice and steps."""
    state, awaiting, player = _weighed()
    search = player.weights.search
    search["exact_horizon"] = 1
    player.budget = 100_000
    shallow = player.choose(state, awaiting)
    first = player.steps
    search["exact_horizon"] = 3
    search["exact_reach_late"] = 0.1
    deep = player.choose(state, awaiting)
    full = player.steps
    assert player.exact_deeper == 1
    assert full > first  # the deeper horizon plays on past the first
    again = player.choose(state, awaiting)
    assert (again, player.steps) == (deep, full)
    for budget in (full // 2, max(8, full // 10)):
        player.budget = budget
        player.choose(state, awaiting)
        assert player.steps <= budget
    player.budget = first  # the first horizon's steps and none to spare
    assert player.choose(state, awaiting) == shallow
    assert player.exact_deeper == 2  # as before: the deeper horizon ran out of steps


def test_the_deeper_horizon_follows_the_likely_lines_on_what_the_first_weighed() -> None:
    """Past the first horizon only lines at least `exact_reach_late` likely play on, and
    the deeper horizon charges only what the first did not already weigh (`_keep`): it
    costs a small part of the steps of every line played on, and repeats itself."""
    state, awaiting, player = _weighed()
    search = player.weights.search
    search.update(exact_horizon=1, exact_reach_late=0.0)
    player.budget = 100_000
    player.choose(state, awaiting)
    first = player.steps
    search["exact_horizon"] = 3
    player.choose(state, awaiting)
    every = player.steps - first
    search["exact_reach_late"] = 0.1
    choice = player.choose(state, awaiting)
    likely = player.steps - first
    assert player.exact_deeper == 2
    assert 0 < likely < every / 4
    assert (player.choose(state, awaiting), player.steps - first) == (choice, likely)


# -- a hand-made position: the last round's end seen from its first activation --------

# the street's table and block; the gangs level on points (a Leader and a ganger each,
# 170 points), round 4 of 4, blue's ganger in the open south-east of the block with a
# lasgun, both red fighters 22-25" up the table, every fighter still to activate
LEVEL = (
    STREET[: STREET.index("[[model]]")]
    + """[[model]]
id = "leader"
side = "blue"
profile = "leader"
at = [6.0, 1.8]
facing = 90

[[model]]
id = "ganger"
side = "blue"
profile = "ganger"
at = [9.4, 1.9]
facing = 90

[[model]]
id = "red-leader"
side = "red"
profile = "leader"
at = [3.5, 24.3]
facing = -90

[[model]]
id = "red-ganger"
side = "red"
profile = "ganger"
at = [11.7, 26.7]
facing = -90
"""
)


def _level(
    write_scenario: Callable[..., Path],
) -> tuple[NecromundaEngine, NecromundaState, Awaiting]:
    """`LEVEL`'s position: round 4 of 4, blue to activate."""
    game = Game(load_scenario(write_scenario(LEVEL, header=False)), 1)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    state = game.state
    assert isinstance(state, NecromundaState)
    state = state.replace(turn=4, active="blue", activating=None, actions_left=0, used=())
    return engine, state, engine.awaiting(state)


def _deciding(
    engine: NecromundaEngine, horizon: int, last_result: int = 1
) -> SearchNecromundaPlayer:
    """The search player with `exact_horizon` `horizon`, steps enough to weigh it whole;
    `last_result` 0: a line of the last round stopped before its end scored in points
    (the old mixed scales), not by the result (`exact_last_result`)."""
    player = SearchNecromundaPlayer(engine, think=0.5, seed=1)
    assert player.weights.search["exact_last_result"] == 1  # the default weights'
    player.weights.search["exact_last_result"] = last_result
    player.weights.search["exact_horizon"] = horizon
    player.budget = 100_000
    return player


def _to_the_end(
    player: SearchNecromundaPlayer, state: NecromundaState, awaiting: Awaiting, d: Declaration
) -> float:
    """`d`'s expected worth to blue played to the game's end by exact enumeration: the
    expectimax to the end of the round (`exact_horizon` 3 reaches it here: four
    activations left) with no line stopped early (`exact_reach_late` 0) and a shot's
    outcomes pruned only as the first horizon's are (`exact_prune`), the last End
    phase's dice counted (`final_result`)."""
    search = player.weights.search
    search.update(exact_reach_late=0.0, exact_prune_late=search["exact_prune"])
    player._rng = np.random.default_rng(0)
    player._spend = 10**9
    player._memo = {}
    player._horizon = 3
    try:
        worth = player._expect(state, d, "blue", state, awaiting, 0)
    finally:
        player._horizon = 1
    assert worth is not None
    return worth


def test_level_in_the_last_round_the_deeper_look_shoots_now_rather_than_from_cover(
    write_scenario: Callable[..., Path],
) -> None:
    """FACTS 2.8: at the turn limit the gang with more points of fighters in the fight
    wins, and level points win nothing; 2.3: partial cover is -1 to hit. The last round,
    the gangs level, every fighter still to act. Blue's ganger stands in the open, both
    enemies in its lasgun's long range. Looking only as far as the enemy's next
    activation (horizon 1) the search ducks it behind the block's corner first, out of
    the enemy leader's sight, and would shoot the enemy ganger from there through the
    corner's partial cover (5+ to hit): safer in the exchange of fire it expects. Looking
    to the end of the round (horizon 3: ours, theirs, ours, theirs) it sees the game's
    end, where only a fighter taken out wins: it shoots now from the open (4+), then
    moves. Played to the game's end by exact enumeration, shooting now is worth more.
    The first horizon's mistake was one of scales: its lines in the last round were
    scored in points, the deeper ones that reach the round's end by the result; with
    every line of the last round scored by the result (`exact_last_result`, the
    default) the first horizon shoots too."""
    engine, state, awaiting = _level(write_scenario)
    points = {s: sum(engine.points[m.id] or 0 for m in state.side_models(s)) for s in state.sides}
    assert points["blue"] == points["red"] == 170
    lasgun = engine.weapon("ganger", "Lasgun")
    assert engine.hit_plan(state, "ganger", lasgun, target="red-ganger").need == 4
    assert engine.sighting(state, "red-leader", "ganger").lof

    shallow = _deciding(engine, 1, last_result=0)
    duck = shallow.choose(state, awaiting)
    assert isinstance(duck, Act) and duck.model == "ganger", duck
    assert duck.action.kind is ActionKind.MOVE, duck
    corner, _ = engine.apply(state, duck, rng=np.random.default_rng(0))
    assert isinstance(corner, NecromundaState)
    assert not engine.sighting(corner, "red-leader", "ganger").lof
    assert engine.hit_plan(corner, "ganger", lasgun, target="red-ganger").need == 5

    deep = _deciding(engine, 3)
    assert deep.weights.search["exact_horizon"] == 3  # the default weights' horizon
    shoot = deep.choose(state, awaiting)
    assert deep.exact_deeper == 1  # weighed whole to the deeper horizon
    assert isinstance(shoot, Act) and shoot.model == "ganger", shoot
    assert shoot.action.kind is ActionKind.SHOOT and shoot.action.target == "red-ganger", shoot

    one_scale = _deciding(engine, 1).choose(state, awaiting)
    assert one_scale == shoot, one_scale

    exact = _deciding(engine, 3)
    now, ducked = (_to_the_end(exact, state, awaiting, d) for d in (shoot, duck))
    assert now > ducked + exact.weights.search["exact_lead"], (now, ducked)
