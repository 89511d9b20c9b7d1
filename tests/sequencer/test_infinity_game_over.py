"""Infinity's end of the game as people read it: the objectives held by their names, and,
where the objective points tied, the troopers' points that decided (tester13b finding 3)."""

from __future__ import annotations

from game.playtest.batch import automatic_player, play_out
from game.scenario import load_scenario
from game.scenario.names import reason_names, told_names
from game.sequencer.events import GameEnded
from game.sequencer.game import Game
from game.sequencer.sentences import Teller, describe, named
from tests.conftest import SCENARIOS

CHECKPOINT = SCENARIOS / "infinity-checkpoint.toml"

HELD = (
    "turn limit (3): objective points (barrier-gate to pano, guard-console to pano), then "
    "points of troopers still able to act"
)


def test_game_over_names_the_objectives_held() -> None:
    """The objectives are named as the window's labels name them, in the log, replay and
    playtest's reasons alike ("barrier-gate to PanOceania" before)."""
    scenario = load_scenario(CHECKPOINT)
    ended = GameEnded("pano", HELD, {"pano": 3, "yu-jing": 0})
    said = (
        "objective points (the gate between the barriers to PanOceania and Guard console "
        "to PanOceania), then points of troopers still able to act"
    )
    assert describe(ended, scenario.ruleset, told_names(scenario)) == (
        f"Game over: won by PanOceania; turn limit (3): {said} (objective points: "
        "PanOceania 3, Yu Jing 0)"
    )
    assert named(HELD, reason_names(scenario)) == f"turn limit (3): {said}"
    # named there alone: an objective whose id is a word is not named in the sentence
    still = reason_names(scenario)
    still.objectives = {"still": "the water still"}
    assert named("points of troopers still able to act", still) == (
        "points of troopers still able to act"
    )


def test_game_over_where_the_objective_points_tie_says_the_troopers_points() -> None:
    """README: at the turn limit the objective points decide and the points of troopers
    still able to act break a tie. Seed 1, simple players: no objective held, 0 each;
    the line said "PanOceania wins (PanOceania 0, Yu Jing 0)", a win at 0-0; now the
    points that decided, counted here from the game's end."""
    scenario = load_scenario(CHECKPOINT)
    game = play_out(Game(scenario, seed=1), automatic_player(Game(scenario, 1).engine, "simple"))
    ended = game.events[-1]
    assert isinstance(ended, GameEnded) and ended.scores == {"pano": 0, "yu-jing": 0}
    engine = game.engine
    left = {
        side: sum(engine.points[m.id] for m in game.state.side_models(side) if engine.can_act(m))
        for side in ("pano", "yu-jing")
    }
    assert left["pano"] > left["yu-jing"] and ended.winner == "pano"
    teller = Teller(scenario.ruleset, told_names(scenario))
    said = [teller.say(e) for e in game.events][-1]
    assert said == (
        "Game over: won by PanOceania; turn limit (3): objective points tied at 0 (none "
        "held), then points of troopers still able to act: "
        f"PanOceania {left['pano']}, Yu Jing {left['yu-jing']}"
    )
