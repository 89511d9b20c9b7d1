"""A fourth rule system that exists only in tests/ plays everywhere a system plays:
on the sequencer, in `playtest`, `shoot` and `odds` (issue #10), while no file under
game/ names it. It registers itself here and is removed afterwards."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from game.cli import main
from game.errors import IllegalDeclaration
from game.playtest.batch import automatic_player, play_out
from game.rules.registry import RULESETS
from game.scenario import load_scenario
from game.sequencer.events import GameEnded, Hit, Missed, Rolled
from game.sequencer.game import Game, decode_declarations
from tests.pips.system import NAME, SCENARIO, PipsShoot, register_pips, unregister_pips
from tests.sequencer.scripted import ScriptedDice

GAME_DIR = Path(__file__).resolve().parents[2] / "game"


@pytest.fixture(autouse=True)
def pips() -> Iterator[None]:
    register_pips()
    yield
    unregister_pips()


def test_registered_system_is_listed_and_loads() -> None:
    assert NAME in RULESETS
    scenario = load_scenario(SCENARIO)
    assert scenario.ruleset.name == NAME
    assert scenario.profiles["pip-trooper"].skill == 3  # type: ignore[attr-defined]


def test_no_file_under_game_names_the_test_system() -> None:
    named = [
        str(p) for p in GAME_DIR.rglob("*.py") if NAME in p.read_text(encoding="utf-8").lower()
    ]
    assert named == []


def test_pips_shot_hits_at_or_under_the_skill() -> None:
    # Pips: "a d6 at or under the shooter's skill hits" (tests/pips/system.py); skill 3
    for face, hit in ((3, True), (4, False)):
        game = Game(load_scenario(SCENARIO), seed=1)
        game.rng = ScriptedDice(face)  # type: ignore[assignment]
        events = game.declare(PipsShoot("gold-1", "grey-1"))
        rolled = [e for e in events if isinstance(e, Rolled)]
        assert [r.faces for r in rolled] == [(face,)]
        assert any(isinstance(e, Hit) for e in events) is hit
        assert any(isinstance(e, Missed) for e in events) is not hit


def test_pips_plays_whole_games_on_the_sequencer_and_replays() -> None:
    scenario = load_scenario(SCENARIO)
    logs = []
    for _ in range(2):
        game = Game(scenario, seed=7)
        play_out(game, automatic_player(game.engine, "simple"))
        assert game.state.finished
        assert isinstance(game.events[-1], GameEnded)
        logs.append(game.log())
    assert logs[0] == logs[1]
    again = Game.replay(scenario, 7, decode_declarations(game.to_save()["declarations"]))
    assert again.log() == logs[0]


def test_pips_playtest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["playtest", str(SCENARIO), "--games", "6", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 6
    wins = sum(share["wins"] for share in report["sides"].values())
    assert wins + report["draws"]["count"] == 6
    # every game ends with a side out of models or the turns over: someone was shot
    assert sum(share["mean_down"] for share in report["sides"].values()) > 0


def test_pips_shoot(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["shoot", str(SCENARIO), "--attacker", "gold-1", "--target", "grey-1"]
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ruleset"] == NAME
    assert [e["event"] for e in report["events"]][:2] == ["Declared", "Rolled"]
    assert main([*args, "--trials", "4000", "--json"]) == 0
    trials = json.loads(capsys.readouterr().out)
    # skill 3: exactly 1/2; 4 standard errors of 4000 shots
    assert trials["exact_hit"] == 0.5
    assert abs(trials["hit"] - 0.5) < 4 * (0.25 / 4000) ** 0.5
    assert main(args) == 0
    assert "gold-1 rolls" in capsys.readouterr().out


def test_pips_odds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "pips", "--skill", "4", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    hit = next(row for row in doc["outcomes"] if row["outcome"] == "hit")
    assert Fraction(hit["count"], hit["total"]) == Fraction(4, 6)
    assert main(["odds", "--help"]) == 0
    assert "pips" in capsys.readouterr().out


def test_the_game_checks_the_numbers_for_an_engine_that_does_not() -> None:
    """The pips engine does not call check_numbers in its apply (it has no
    `checks_numbers`): Game.declare refuses a non-finite or off-table point itself, in
    the check's words, and nothing changes."""
    from tests.pips.system import PipsMove

    game = Game(load_scenario(SCENARIO), seed=1)
    assert not getattr(game.engine, "checks_numbers", False)
    state = game.state
    mover = game.awaiting().models[0]
    with pytest.raises(IllegalDeclaration, match=r"^\(nan, 1.0\) is not a finite"):
        game.declare(PipsMove(mover, (math.nan, 1.0)))
    with pytest.raises(IllegalDeclaration, match=r"^\(1, -3\) is off the"):
        game.declare(PipsMove(mover, (1.0, -3.0)))
    assert game.state is state and game.declarations == []
