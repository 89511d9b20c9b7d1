"""Every command that writes a file behaves the same about where it goes: the folders on
its way are made; a file where a folder must be, or a folder where the file must be, is
refused before any work in one sentence naming the option (never an OS error's
"File exists" or "Not a directory"); and a bundled table or map is named as it was
typed, not by the folder it is installed in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main
from game.paths import SCENARIOS_DIR

WRITERS = [
    (["render", "necromunda-demo", "--out", "{p}.png"], "--out"),
    (["lof", "necromunda-demo", "--all", "--out", "{p}"], "--out"),
    (["import", "outpost.tmx", "--ruleset", "necromunda", "--out", "{p}.toml"], "--out"),
    (["play", "--frames", "1", "--screenshot", "{p}.png"], "--screenshot"),
    (["edit", "--frames", "1", "--out", "{p}.toml"], "--out"),
    (["edit", "--frames", "1", "--screenshot", "{p}.png"], "--screenshot"),
    (["playtest", "necromunda-demo", "--games", "1", "--out", "{p}"], "--out"),
    (["playtest", "necromunda-demo", "--games", "1", "--report", "{p}.html"], "--report"),
]


@pytest.mark.parametrize(("argv", "option"), WRITERS)
def test_a_file_where_a_folder_must_be_is_one_sentence(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    option: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("afile").write_text("x")
    args = [a.format(p="afile/sub") for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err.splitlines()
    target = args[args.index(option) + 1]
    assert err == [f"skirmish: {target}: {option}: afile is a file, not a folder"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


@pytest.mark.parametrize(("argv", "option"), WRITERS[:3])
def test_missing_folders_are_made(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    option: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    args = [a.format(p="new/deeper/x") for a in argv]
    assert main(args) == 0, capsys.readouterr().err
    assert Path(args[args.index(option) + 1]).exists()


def test_a_bundled_table_and_map_are_named_as_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """summary.json said /.../site-packages/game/_data/scenarios/necromunda-demo.toml."""
    monkeypatch.chdir(tmp_path)
    assert main(["playtest", "necromunda-demo", "--games", "1", "--out", "o"]) == 0
    assert json.loads(Path("o/summary.json").read_text())["scenario"] == "necromunda-demo"
    capsys.readouterr()
    assert main(["import", "outpost.tmx", "--ruleset", "chess", "--out", "x.toml"]) == 2
    assert (
        main(["import", "outpost.tmx", "--ruleset", "infinity", "--out", "y.toml", "--json"]) == 0
    )
    captured = capsys.readouterr()
    assert json.loads(captured.out)["map"] == "outpost.tmx"
    assert str(SCENARIOS_DIR) not in captured.err + captured.out
    assert captured.err.startswith(
        "skirmish: <command line>: import --ruleset: unknown ruleset 'chess'"
    )


def test_a_bad_size_names_its_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--frames", "1", "--size", "10x10"]) == 2
    assert capsys.readouterr().err == (
        "skirmish: <command line>: play --size: expected WxH in pixels, from 800x600 up to 8192 "
        "each (got '10x10'); see skirmish play --help\n"
    )


# A folder where a file inside an output folder must be (one of --out's tables, pictures
# or saves; one pair's picture of lof --all): refused before any game or ruling.
INSIDE = [
    (["playtest", "necromunda-demo", "--games", "2", "--out", "o"], "o/games.csv"),
    (["playtest", "necromunda-demo", "--games", "2", "--out", "o"], "o/heat-map.png"),
    (
        ["playtest", "necromunda-demo", "--games", "2", "--out", "o", "--save-games", "2"],
        "o/saves/game-0001.json",
    ),
    (["lof", "infinity-demo", "--all", "--out", "o"], "o/zhanshi-hmg-fusilier-2.png"),
]


@pytest.mark.parametrize(("argv", "folder"), INSIDE)
def test_a_folder_where_a_file_in_the_output_folder_must_be_is_refused_first(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    folder: str,
) -> None:
    """The playtest played every game, wrote what it could, then failed on the folder."""
    monkeypatch.chdir(tmp_path)
    Path(folder).mkdir(parents=True)
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err == f"skirmish: {folder}: --out: is a folder, not a file\n"
    assert captured.out == ""
    assert [p for p in Path("o").rglob("*") if p.is_file()] == []  # nothing written


def test_out_files_are_the_files_playtest_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from game.playtest.output import out_files

    monkeypatch.chdir(tmp_path)
    argv = ["playtest", "necromunda-demo", "--games", "3", "--out", "o", "--save-games", "2"]
    assert main(argv) == 0, capsys.readouterr().err
    written = {p for p in Path("o").rglob("*") if p.is_file()}
    assert written == set(out_files(Path("o"), 3, 2))
