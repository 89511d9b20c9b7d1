"""A Flamer laid toward a fighter Out of Action is refused, as a shot at one is (fix15c
item 2). FACTS 2.8: Out of Action, the fighter is removed; 2.3: a shot is at an enemy in
the fight. `skirmish shoot --weapon Flamer --target <a fighter Out of Action>` laid the
template toward it and burnt whoever stood near (exit 0), while the window's odds said
"no shot: ... is out of action" and any other weapon was refused. The template's Shoot
action now names the fighter it is laid toward (`Action.flame(target=...)`, the saved
form's `target`, which a template's action always had empty), and the engine refuses the
declaration where no shot may be aimed at it, with the reason, changing nothing. A flame
laid by a direction alone plays as before (the window's, the players', every save's).

The table, tests/tables/necromunda-out-of-action.toml: Escher champion (a Flamer) at
(9, 11) facing the Orlocks, Orlock leader Out of Action 5" ahead, Orlock ganger beside it."""

from __future__ import annotations

import math

import pytest

from game.cli import main
from game.errors import IllegalDeclaration
from game.scenario import load_scenario
from game.sequencer.game import Game
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_types import Act, Action
from tests.conftest import REPO

TABLE = REPO / "tests" / "tables" / "necromunda-out-of-action.toml"


def _toward(game: Game, shooter: str, target: str) -> float:
    a, b = game.state.model(shooter).at, game.state.model(target).at
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


def test_the_shoot_command_refuses_a_flamer_at_a_fighter_out_of_action(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # it laid the template (exit 0); any other weapon was refused so
    for extra in ([], ["--trials", "20"], ["--json"]):
        args = ["shoot", str(TABLE), "--attacker", "escher-champion", "--weapon", "Flamer",
                "--target", "orlock-leader", *extra]  # fmt: skip
        assert main(args) == 2
        err = capsys.readouterr().err.strip()
        assert err.endswith(": Orlock leader is out of action") and len(err.splitlines()) == 1
    # toward a fighter in the fight it is laid as before
    args = ["shoot", str(TABLE), "--attacker", "escher-champion", "--weapon", "Flamer",
            "--target", "orlock-ganger"]  # fmt: skip
    assert main(args) == 0
    assert "Flamer" in capsys.readouterr().out


def test_the_engine_refuses_a_template_laid_toward_a_fighter_out_of_action() -> None:
    game = Game(load_scenario(TABLE), 1)
    assert isinstance(game.engine, NecromundaEngine)
    game.state = game.engine.ready_to_shoot(game.state, "escher-champion")  # as shoot does
    before, log = game.state, len(game.events)
    facing = _toward(game, "escher-champion", "orlock-leader")
    at_it = Act("escher-champion", Action.flame("Flamer", facing, target="orlock-leader"))
    with pytest.raises(IllegalDeclaration, match=r"^orlock-leader is out of action$"):
        game.declare(at_it)
    assert game.state is before and len(game.events) == log  # nothing changed
    # the reasons a shot has, but no line of sight asked: a friend, a fighter not there
    friend = Act("escher-champion", Action.flame("Flamer", 0.0, target="escher-leader"))
    with pytest.raises(IllegalDeclaration, match="escher-leader is a friendly fighter"):
        game.declare(friend)
    nobody = Act("escher-champion", Action.flame("Flamer", 0.0, target="nobody"))
    with pytest.raises(IllegalDeclaration, match="there is no fighter 'nobody'"):
        game.declare(nobody)
    # laid the same way by its direction alone (the window's, every save's): taken
    assert game.declare(Act("escher-champion", Action.flame("Flamer", facing)))
