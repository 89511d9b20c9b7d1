"""What a computer player thinks without --think, as each command's help and the README
say it (tester9 finding 5: the README said the weights' budget of 120 steps, 0.1-0.2 s,
for the window too, which gives its search player 0.5 s a declaration; `play --help`
stated no default)."""

from __future__ import annotations

import re

import pytest

from game.ai.search import load_weights
from game.cli import main
from game.files import WINDOW_THINK
from game.render.play_rules import side_player, window_player
from game.rules.registry import RULESETS
from game.scenario import load_scenario
from game.sequencer.game import Game
from tests.conftest import REPO, SCENARIOS

SYSTEMS = {"infinity": "Infinity", "necromunda": "Necromunda", "open-rebellion": "Open Rebellion"}


def _help(capsys: pytest.CaptureFixture[str], command: str) -> str:
    assert main([command, "--help"]) == 0
    return " ".join(capsys.readouterr().out.split())


def _seconds(system: str) -> float:
    """The search player's think with neither budget nor think given: the weights'
    budget at its calibrated rate, to two places."""
    search = load_weights(system).search
    return round(search["budget"] / search["steps_per_second"], 2)


def test_play_help_and_the_window_think_the_same_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    said = _help(capsys, "play")
    think = "--think NUMBER Seconds the computer may think per declaration"
    assert f"{think} (by default {WINDOW_THINK:g}, or what a save records" in said
    game = Game(load_scenario(SCENARIOS / "infinity-demo.toml"), 1)
    assert window_player(game.engine).think == WINDOW_THINK
    assert side_player(game.engine, "search").think == WINDOW_THINK


@pytest.mark.parametrize("command", ["playtest", "balance"])
def test_batch_help_says_the_search_players_default_think(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    said = _help(capsys, command)
    seconds = [_seconds(system) for system in SYSTEMS]
    assert f"budget of 120 steps, about {min(seconds):g} to {max(seconds):g} s by rule system" in (
        said
    )
    assert {int(load_weights(s).search["budget"]) for s in SYSTEMS} == {120}


def test_readme_says_both_defaults() -> None:
    readme = " ".join((REPO / "README.md").read_text("utf-8").split())
    assert "0.1-0.2 s) is a ceiling" not in readme
    assert f"{WINDOW_THINK:g} s a declaration in the window, `skirmish play`" in readme
    for system, name in SYSTEMS.items():
        assert re.search(rf"about [^)]*{re.escape(f'{_seconds(system):g} s in {name}')}", readme), (
            system
        )
    assert set(SYSTEMS) <= set(RULESETS)
