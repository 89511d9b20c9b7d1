"""`skirmish validate` and `skirmish render` as a person runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from game.cli import main
from tests.conftest import SCENARIOS, field_line, infinity_known

Write = Callable[..., Path]


def test_validate_bundled(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(str(p) for p in SCENARIOS.glob("*.toml"))
    assert main(["validate", *files]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok (") == len(files)


def test_validate_reports_every_problem_in_every_file(
    write_scenario: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    a = write_scenario('[[model]]\nid = "m"\nside = "blue"\nprofile = "x"\nat = [1, 1]\n', "a.toml")
    b = write_scenario("[scenario\n", "b.toml", header=False)
    good = SCENARIOS / "infinity-demo.toml"
    assert main(["validate", str(a), str(good), str(b)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    # and what the file would be told without it, in the file's order (tester15 finding 12)
    red = a.read_text().splitlines().index('id = "red"')
    assert lines[0] == f"skirmish: {a}:{red}: side 'red': has no models: a game needs one a side"
    # the line of the field at fault (profile), not the [[model]] header's
    assert (
        lines[1] == f"skirmish: {a}:{field_line(a, 14, 'profile')}: model 'm': unknown profile 'x' "
        f"({infinity_known('profile')})"
    )
    assert lines[2].startswith(f"skirmish: {b}:1: TOML syntax: ")
    assert len(lines) == 3
    assert f"{good}: ok" in captured.out


def test_validate_json(write_scenario: Write, capsys: pytest.CaptureFixture[str]) -> None:
    a = write_scenario('[[model]]\nid = "m"\nside = "blue"\nprofile = "x"\nat = [1, 1]\n')
    assert main(["validate", "--json", str(a)]) == 2
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    red = a.read_text().splitlines().index('id = "red"')
    assert report["files"][0]["problems"] == [
        {"line": red, "place": "side 'red'", "problem": "has no models: a game needs one a side"},
        {
            "line": field_line(a, 14, "profile"),
            "place": "model 'm'",
            "problem": f"unknown profile 'x' ({infinity_known('profile')})",
        },
    ]


def test_render_writes_png(tmp_path: Path) -> None:
    out = tmp_path / "t.png"
    assert main(["render", str(SCENARIOS / "necromunda-demo.toml"), "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_input_is_one_line_exit_2_no_traceback(tmp_path: Path) -> None:
    """Run the real console entry in a subprocess, as a person would."""
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[scenario]\nname = "x"\nruleset = "chess"\ntable = [4, 4]\n[[side]]\nid = "a"\n'
    )
    run = subprocess.run(
        [sys.executable, "-m", "game.cli", "render", str(bad), "--out", str(tmp_path / "x.png")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines() == [
        f"skirmish: {bad}:{field_line(bad, 1, 'ruleset')}: [scenario] ruleset: "
        "unknown ruleset 'chess' "
        "(known: infinity, necromunda, open-rebellion)"
    ]
    assert not (tmp_path / "x.png").exists()


def test_validate_says_whether_the_rule_system_scores_a_tables_objectives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The editor places an objective in any system; only Infinity's turn limit scores
    # objectives (README, "Optional objectives"). A Necromunda table with one played with
    # "Objective 1" drawn and nothing said whether it counted (tester12 item 17)
    necromunda = tmp_path / "mynec.toml"
    necromunda.write_text(
        (SCENARIOS / "necromunda-demo.toml").read_text(encoding="utf-8")
        + '\n[[objective]]\nid = "objective-1"\nat = [12, 12]\nradius = 2.0\npoints = 1\n',
        encoding="utf-8",
    )
    checkpoint = SCENARIOS / "infinity-checkpoint.toml"
    assert main(["validate", str(necromunda), str(checkpoint)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{necromunda}: ok (necromunda, ") and lines[0].endswith(
        " models, 1 objective)"
    )
    assert lines[1] == (
        "note: Necromunda (pre-2023) scores no objectives here: it is drawn on the table and "
        "decides nothing"
    )
    assert lines[2].endswith(", 2 objectives)") and len(lines) == 3
