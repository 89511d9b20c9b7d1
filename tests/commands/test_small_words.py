"""The tester's small wording findings (session 6, finding 18): counts said as a person
says them, no engine shorthand, no click metavars, a version."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.cli import main


def test_open_rebellion_shoot_says_line_of_sight(capsys: pytest.CaptureFixture[str]) -> None:
    """'9 attack dice (4 with LOS)': the models in line of sight, in words."""
    argv = ["shoot", "open-rebellion-demo", "--attacker", "gov-b1", "--target", "reb-b2"]
    assert main(argv) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "attack dice (4 models in line of sight) against" in first
    assert "LOS" not in first


def test_one_frame_is_said_in_the_singular(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """'after 1 frames' (play, edit)."""
    monkeypatch.chdir(tmp_path)
    for argv in (["play", "necromunda-alley"], ["edit", "necromunda-alley"]):
        assert main([*argv, "--frames", "1", "--screenshot", "s.png", "--size", "800x600"]) == 0
        assert capsys.readouterr().out.rstrip().endswith("s.png: 800x600 pixels after 1 frame")


def test_one_game_is_said_in_the_singular(capsys: pytest.CaptureFixture[str]) -> None:
    """'playing 1 games', 'Refinery crossfire: 1 games', 'of the 1 decided games'."""
    argv = ["playtest", "necromunda-alley", "--games", "1", "--seed", "2"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith("playing 1 game (no progress bar")
    assert "Crowded alley: 1 game, seed 2" in captured.out
    # Not a rate such as '11.1 games a second', which depends on the machine's load.
    assert re.search(r"(?<![\d.])1 games", captured.out + captured.err) is None
    decided = [line for line in captured.out.splitlines() if "decided game" in line]
    assert all("the one decided game" in line for line in decided), decided


def test_the_verdict_of_a_single_decided_game() -> None:
    from game.playtest.record import GameRecord
    from game.playtest.summary import verdict

    record = GameRecord(
        index=0, seed=1, swapped=False, players={"blue": "simple", "red": "simple"},
        winner="blue", reason="", turn=1, declarations=1, down={}, points={}, objectives={},
        casualties=(),
    )  # fmt: skip
    [said] = verdict([record], ["blue", "red"], False, {"blue": "Blues"})
    assert "of the one decided game." in said


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert re.fullmatch(
        r"skirmish (\d+\.\d+\.\d+\S*|\(not installed.*\))\n", capsys.readouterr().out
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["playtest"], ["play"], ["shoot"], ["render"], ["lof"], ["balance"], ["import"],
        ["odds", "infinity"], ["odds", "necromunda"], ["odds", "open-rebellion"], ["replay"],
        ["edit"],
    ],
)  # fmt: skip
def test_help_names_values_in_capitals_not_clicks_words(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """--games <int range>, --ai <str>, --think <float> in the help."""
    assert main([*argv, "--help"]) == 0
    out = capsys.readouterr().out
    assert not re.search(r"<(int|float|str|path|int range|float range)>", out), out
    assert re.search(r"--\w[\w-]* [A-Z]", out)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('[scenario]\nname = "abc\n', 'text in quotes runs to the end of the line: its closing " '
         "is missing"),
        ("[scenario]\nname = abc\n", 'not a value: write text in quotes ("abc"), a number, '
         "true or false, [a list] or {a table}"),
        ('[scenario]\nname = "a"\nname = "b"\n', "a key given a second time, or a table named "
         "twice"),
        ("[scenario\n", "a [table] header's closing ] is missing"),
    ],
)  # fmt: skip
def test_toml_mistakes_in_our_words(text: str, said: str) -> None:
    """'Illegal character '\\n'' for a string left open (tomllib's words)."""
    from game.errors import InputError
    from game.files import parse_toml

    with pytest.raises(InputError) as err:
        parse_toml(text, "t.toml")
    [problem] = err.value.problems
    assert (problem.place, problem.problem) == ("TOML syntax", said)
    assert problem.line == text.count("\n")
