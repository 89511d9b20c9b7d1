"""The careful automatic player (expected damage against risk, exact odds) beats the
simple one: a fixed-seed batch on the bundled Infinity demo, each player on each side
in turn; the careful player's win share has a 95% lower bound above one half."""

from __future__ import annotations

import math

import pytest

from game.playtest.batch import automatic_player, play_one, seeds_for
from game.scenario import load_scenario
from game.sequencer.game import Game
from game.sequencer.infinity import Activate, React
from tests.conftest import SCENARIOS

GAMES = 100
Z95 = 1.959963984540054


def wilson_lower(wins: int, games: int, z: float = Z95) -> float:
    """The lower end of the Wilson 95% interval of a share."""
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return (centre - spread) / (1 + z * z / games)


def test_wilson_lower_bound() -> None:
    assert wilson_lower(50, 100) < 0.5 < wilson_lower(65, 100)
    assert wilson_lower(60, 60) < 1.0


@pytest.mark.slow
def test_careful_beats_simple_on_the_infinity_demo() -> None:
    setup = load_scenario(SCENARIOS / "infinity-demo.toml")
    sides = [s.id for s in setup.sides]
    wins = 0
    for index, seed in seeds_for(7, GAMES):
        careful, simple = sides[index % 2], sides[1 - index % 2]
        result = play_one(setup, index, seed, {careful: "careful", simple: "simple"})
        wins += result.winner == careful  # a draw counts against the careful player
    assert wilson_lower(wins, GAMES) > 0.5, f"careful won {wins} of {GAMES}"


def test_careful_player_declares_legal_orders_and_aros() -> None:
    setup = load_scenario(SCENARIOS / "infinity-demo.toml")
    game = Game(setup, 5)
    player = automatic_player(game.engine, "careful")
    kinds: set[type] = set()
    for _ in range(60):
        if game.state.finished:
            break
        declaration = player.choose(game.state, game.awaiting())
        game.declare(declaration)  # IllegalDeclaration would fail the test
        kinds.add(type(declaration))
    assert Activate in kinds and React in kinds


def test_policies_are_checked_and_simple_stays_the_default() -> None:
    from game.ai.infinity import CarefulInfinityPlayer, SimpleInfinityPlayer
    from game.errors import IllegalDeclaration

    game = Game(load_scenario(SCENARIOS / "infinity-demo.toml"), 1)
    assert type(automatic_player(game.engine)) is SimpleInfinityPlayer
    assert isinstance(automatic_player(game.engine, "careful"), CarefulInfinityPlayer)
    with pytest.raises(IllegalDeclaration, match="no automatic player 'clever'"):
        automatic_player(game.engine, "clever")


def test_careful_necromunda_player_finishes_a_game() -> None:
    setup = load_scenario(SCENARIOS / "necromunda-demo.toml")
    result = play_one(setup, 0, 3, "careful")
    assert result.reason and result.declarations > 4


@pytest.mark.slow
def test_careful_beats_simple_at_open_rebellion_on_the_village() -> None:
    """The careful player picks targets by the exact expected markers: over 200 games
    with sides alternated it wins more often than not (the lower 95% bound above 0.5)."""
    setup = load_scenario(SCENARIOS / "open-rebellion-village.toml")
    sides = [s.id for s in setup.sides]
    games = 200
    wins = 0
    for index, seed in seeds_for(77, games):
        careful, simple = sides[index % 2], sides[1 - index % 2]
        result = play_one(setup, index, seed, {careful: "careful", simple: "simple"})
        wins += result.winner == careful  # a draw counts against the careful player
    assert wilson_lower(wins, games) > 0.5, f"careful won {wins} of {games}"
