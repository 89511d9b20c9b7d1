"""What the tester of issue 16 found: the JSON on standard output must parse, bad
output paths are refused before playing, and the progress bar's rate is sane."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main
from game.errors import InputError
from game.files import write_text_atomic
from tests.conftest import REPO


def test_json_with_out_is_the_whole_standard_output(tmp_path: Path) -> None:
    # The table's picture imports pygame; its support banner must not reach stdout.
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    env["PYTHONPATH"] = str(REPO)
    argv = [sys.executable, "-m", "game.cli", "playtest", "infinity-demo", "--games", "2"]
    argv += ["--json", "--out", str(tmp_path / "out")]
    done = subprocess.run(argv, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["games"] == 2
    assert "pygame" not in done.stdout


@pytest.mark.parametrize(
    ("option", "where", "problem"),
    [
        ("--report", "X.html", "is a folder, not a file"),
        ("--out", "afile/sub", "{base}/afile is a file, not a folder"),
        ("--report", "afile/r.html", "{base}/afile is a file, not a folder"),
        ("--out", "afile", "is already a file, not a folder"),
    ],
)
def test_output_paths_are_refused_before_playing(
    small: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    option: str,
    where: str,
    problem: str,
) -> None:
    (tmp_path / "X.html").mkdir()
    (tmp_path / "afile").write_text("not a folder", encoding="utf-8")
    played: list[int] = []
    monkeypatch.setattr("game.playtest.plan.run_here", lambda *a, **k: played.append(1))
    path = tmp_path / where
    assert main(["playtest", str(small), "--games", "2", option, str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"skirmish: {path}: {option}: {problem.format(base=tmp_path)}"]
    assert played == []  # refused before a game was played


def test_a_write_that_fails_is_one_line_naming_the_file(tmp_path: Path) -> None:
    # A folder where the file must go: the rename over it fails; nothing is left behind.
    (tmp_path / "report.html").mkdir()
    with pytest.raises(InputError) as caught:
        write_text_atomic(tmp_path / "report.html", "<html></html>")
    assert [str(p) for p in caught.value.problems] == [
        f"{tmp_path / 'report.html'}: is a folder, not a file"
    ]
    assert isinstance(caught.value, OSError)  # the window's save handlers still catch it
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        write_text_atomic(tmp_path / "afile" / "sub" / "games.csv", "a,b\n")
    [problem] = caught.value.problems
    assert problem.file == str(tmp_path / "afile" / "sub" / "games.csv")
    assert problem.problem == f"{tmp_path / 'afile'} is a file, not a folder"  # not OS words
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "report.html"]
    assert list((tmp_path / "report.html").iterdir()) == []


def test_replay_help_names_both_kinds_of_save(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "A save file (from skirmish play or playtest --save-games)." in help_text
