"""Choosing players: `--ai` with one name or side=name pairs, and options passed to the
classes that take them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.cli import main
from game.playtest.players import PlayerError, make_choice, parse_ai, takes
from game.rules.registry import find_ruleset

SIDES = ["blue", "red"]
KNOWN = ["simple", "careful", "search"]


def test_one_name_plays_every_side() -> None:
    assert parse_ai("careful", SIDES, KNOWN) == {"blue": "careful", "red": "careful"}


def test_side_pairs_name_each_sides_player() -> None:
    assert parse_ai("blue=search,red=careful", SIDES, KNOWN) == {
        "blue": "search",
        "red": "careful",
    }
    assert parse_ai(" red = careful ", SIDES, KNOWN) == {"red": "careful"}  # only the sides named


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("clever", "no automatic player 'clever' (one of simple, careful, search)"),
        ("green=simple", "no side 'green' in the scenario (--ai takes the sides' ids: blue, red)"),
        ("blue=simple,blue=careful", "side 'blue' is named twice"),
        ("blue=", "'blue=' is not side=name (as in blue=search,red=careful)"),
        # tester8: one player per side without the sides' ids, and a trailing comma,
        # pointed to the side=name form
        (
            "search,careful",
            "'search,careful': name one player for every side (search), or one per side "
            "as side=name pairs: blue=search,red=careful",
        ),
        (
            "blue=search,",
            "'blue=search,' has a comma too many (an empty pair): as in blue=search,red=careful",
        ),
        ("blue=simple,red=clever", "no automatic player 'clever' (one of simple, careful, search)"),
        ("", "expected a player name (simple, careful, search) or side=name pairs"),
    ],
)
def test_bad_choices_say_why(text: str, problem: str) -> None:
    with pytest.raises(PlayerError) as caught:
        parse_ai(text, SIDES, KNOWN)
    assert str(caught.value) == problem


class Thinking:
    def __init__(self, engine: Any, *, think: float = 1.0, temperament: str = "balanced") -> None:
        self.think, self.temperament = think, temperament


class Plain:
    def __init__(self, engine: Any) -> None:
        pass


def test_options_reach_only_the_classes_that_take_them() -> None:
    assert takes(Thinking, "think") and takes(Thinking, "temperament")
    assert not takes(Plain, "think")

    class Rules:
        name = "test"

        def player(self, name: str) -> Any:
            return {"search": Thinking, "simple": Plain}[name]

    names = {"blue": "search", "red": "simple"}
    choice = make_choice(Rules(), names, {"think": 0.5, "temperament": None})  # type: ignore[arg-type]
    assert choice == {"blue": ("search", (("think", 0.5),)), "red": ("simple", ())}
    with pytest.raises(PlayerError, match="--think: not an option of the chosen player"):
        make_choice(Rules(), {"blue": "simple", "red": "simple"}, {"think": 0.5})  # type: ignore[arg-type]


def test_every_registered_player_builds(small: Path) -> None:
    from game.playtest.players import build_player
    from game.scenario import load_scenario
    from game.sequencer.game import engine_for

    setup = load_scenario(small)
    engine = engine_for(setup)
    for name in find_ruleset("infinity").players:
        player = build_player(engine, make_choice(setup.ruleset, dict.fromkeys(SIDES, name), {}))
        assert hasattr(player, "choose")


def test_bad_ai_on_the_command_line_is_one_line(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["playtest", str(small), "--games", "1", "--ai", "blue=clever"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(
        "skirmish: <command line>: playtest --ai: no automatic"
    )
    assert main(["playtest", str(small), "--games", "1", "--think", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "skirmish: <command line>: playtest --think: not an option of the chosen player "
        "(simple); see skirmish playtest --help"
    ]


@pytest.mark.parametrize("command", ["play", "playtest", "balance"])
def test_temperament_help_lists_the_choices(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """tester8: --temperament's help did not say which weight sets there are."""
    from game.cli import main
    from game.commands._args import TEMPERAMENT_CHOICES
    from game.scenario.model import TEMPERAMENTS

    *first, last = TEMPERAMENTS
    assert f"{', '.join(first)} or {last}" == TEMPERAMENT_CHOICES  # the names, not a copy
    assert main([command, "--help"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert f"weight set{', if' if command != 'balance' else ':'}" in said
    assert TEMPERAMENT_CHOICES in said.replace("│ ", "").replace(" │", "")
