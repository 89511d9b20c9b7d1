"""The Infinity search player's own judgement: the exchange of fire to come."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from game.ai.infinity_search import SearchInfinityPlayer
from game.sequencer.infinity import InfinityState
from game.sequencer.state import renew
from tests.ai.test_search import _setup

MODELS = """
[[model]]
id = "fusilier"
side = "blue"
profile = "fusilier"
at = [12, 8]
facing = 0

[[model]]
id = "hmg"
side = "red"
profile = "zhanshi-hmg"
at = [28, 8]
facing = 180
"""


def test_the_exchange_of_fire_counts_the_enemy_turn_to_come_and_none_after_the_last(
    write_scenario: Callable[..., Path],
) -> None:
    """A fusilier and an HMG face each other across open ground, one game round. With
    blue's Orders spent, only red's turn is to come: the HMG's shots count against blue
    (exact odds, the fusilier's ARO in reply); nothing once the fusilier stands behind
    the block, and less than in sight where a move of the HMG's would show it. Red's
    Orders in the last turn count for red; with none left, nothing comes after the
    game's last turn."""
    game = _setup(write_scenario, MODELS, turns=1)  # open ground with a block
    player = SearchInfinityPlayer(game.engine, seed=1, budget=40)
    start = game.state
    assert isinstance(start, InfinityState) and start.active == "blue"
    spent = renew(start, orders=0, lieutenant_order=False)
    exposed = player._exchange(spent, "blue")
    assert exposed < 0
    assert player._exchange(spent, "red") == -exposed
    hidden = spent.with_model(spent.model("fusilier").replace(at=(3.0, 16.0)))
    assert player._exchange(hidden, "blue") == 0
    # out of sight, but a move of the HMG's (45 degrees off) would show it: some risk
    reachable = spent.with_model(spent.model("fusilier").replace(at=(2.5, 20.5)))
    assert not game.engine.sighting(reachable, "hmg", "fusilier").lof
    in_sight = spent.with_model(spent.model("fusilier").replace(at=(10.0, 19.0)))
    assert player._exchange(in_sight, "blue") < player._exchange(reachable, "blue") < 0
    # blue's Order first: its shot is worth something, so the exchange is better for it
    assert player._exchange(start, "blue") > exposed
    last = renew(start, active="red", orders=1)
    assert player._exchange(last, "red") > 0
    assert player._exchange(renew(last, orders=0), "red") == 0
