"""The automatic Necromunda players take a Coup de Grace (FACTS 2.4: a Seriously Injured
fighter is "Vulnerable to Coup de Grace (Simple action from within 1", which takes it
OOA)"): a sure Out of Action of an enemy that might recover. From where the fighter
stands when one is within 1"; after a Move that reaches within 1" of one when nothing
better is on (the careful and judged weighing)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from game.ai.necromunda import CarefulNecromundaPlayer, SimpleNecromundaPlayer
from game.ai.necromunda_search import SearchNecromundaPlayer
from game.scenario import load_scenario
from game.sequencer.game import Game
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_types import (
    OUT_OF_ACTION,
    Act,
    ActionKind,
    NecromundaState,
)

Write = Callable[..., Path]
R = 25 / 25.4 / 2  # a 25 mm base's radius

TABLE = """
[scenario]
name = "Finishing off"
ruleset = "necromunda"
table = [24, 24]
turns = 3

[[scenery]]
id = "wall"
kind = "wall"
height = 3.0
polygon = [[4, 15], [23, 15], [23, 16], [4, 16]]

[[side]]
id = "blue"

[[side]]
id = "red"

[[model]]
id = "finisher"
side = "blue"
profile = "ganger"
at = [8, 12]
facing = 0

[[model]]
id = "down"
side = "red"
profile = "ganger"
at = [{down_x}, 12]
facing = 180
state = "seriously-injured"

[[model]]
id = "watcher"
side = "red"
profile = "ganger"
at = [{watcher[0]}, {watcher[1]}]
facing = 180
"""

PLAYERS: dict[str, Callable[[NecromundaEngine], object]] = {
    "simple": SimpleNecromundaPlayer,
    "careful": CarefulNecromundaPlayer,
    "search": lambda engine: SearchNecromundaPlayer(engine, think=0.5, seed=1),
}


def blue_to_activate(
    write: Write, down_x: float, watcher: tuple[float, float]
) -> tuple[NecromundaEngine, NecromundaState]:
    text = TABLE.format(down_x=down_x, watcher=watcher)
    game = Game(load_scenario(write(text, header=False)), 1)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine) and isinstance(game.state, NecromundaState)
    return engine, game.state.replace(active="blue", activating=None, actions_left=0, used=())


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_a_coup_de_grace_taken_when_one_is_legal(write_scenario: Write, name: str) -> None:
    """The Seriously Injured enemy 0.6" away is finished off first, though a standing
    enemy 10" off in the open offers a shot."""
    engine, state = blue_to_activate(write_scenario, 8 + 2 * R + 0.6, (20.0, 12.0))
    assert engine.sighting(state, "finisher", "watcher").lof
    player = PLAYERS[name](engine)
    choice = player.choose(state, engine.awaiting(state))  # type: ignore[attr-defined]
    assert isinstance(choice, Act) and choice.model == "finisher", choice
    assert choice.action.kind is ActionKind.COUP_DE_GRACE and choice.action.target == "down"


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_a_move_then_a_coup_de_grace_where_a_move_reaches_within_1_inch(
    write_scenario: Write, name: str
) -> None:
    """The Seriously Injured enemy 3" off, the other red fighter behind the wall (no
    shot either way): the fighter moves to within 1" of it and finishes it off."""
    engine, state = blue_to_activate(write_scenario, 8 + 2 * R + 3.0, (18.0, 21.0))
    assert not engine.sighting(state, "finisher", "watcher").lof
    player = PLAYERS[name](engine)
    rng = np.random.default_rng(0)
    first = player.choose(state, engine.awaiting(state))  # type: ignore[attr-defined]
    assert isinstance(first, Act) and first.action.kind is ActionKind.MOVE, first
    state, _ = engine.apply(state, first, rng=rng)
    assert isinstance(state, NecromundaState)
    assert engine.coup_de_grace_targets(state, "finisher") == ["down"]
    second = player.choose(state, engine.awaiting(state))  # type: ignore[attr-defined]
    assert isinstance(second, Act) and second.action.kind is ActionKind.COUP_DE_GRACE, second
    state, _ = engine.apply(state, second, rng=rng)
    assert state.model("down").status == OUT_OF_ACTION
