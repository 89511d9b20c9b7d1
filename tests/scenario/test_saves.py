"""Save files: they carry their scenario and replay from any folder; `replay --check`
says what changed in the scenario file; format-1 saves still replay; every bad save is
one line and exit 2 (from `replay` and from `play --load`), a failed check exit 1 with
the reason on stderr."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from game.cli import main
from game.scenario import load_scenario
from game.scenario.saves import read_save, scenario_changes
from game.sequencer.game import Game
from tests.conftest import SCENARIOS

DEMO = SCENARIOS / "infinity-demo.toml"
FIXTURES = Path(__file__).parent / "saves"


def played(scenario_path: Path, save: Path, declarations: int = 8) -> Game:
    scenario = load_scenario(scenario_path)
    game = Game(scenario, 4)
    player = scenario.ruleset.player("simple")(game.engine)
    for _ in range(declarations):
        if game.state.finished:
            break
        game.declare(player.choose(game.state, game.awaiting()))
    game.save(save)
    return game


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


@pytest.fixture
def own_table(tmp_path: Path) -> Path:
    """A copy of the Infinity demo in a folder of its own."""
    folder = tmp_path / "tables"
    folder.mkdir()
    return Path(shutil.copy(DEMO, folder / "table.toml"))


def test_a_save_carries_its_scenario_and_replays_from_anywhere(
    own_table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    save = tmp_path / "game.json"
    game = played(own_table, save)
    data = json.loads(save.read_text())
    assert data["format"] == 2 and data["scenario"] == str(own_table)
    assert data["scenario_text"] == own_table.read_text()
    # Another machine: the save alone, in another folder, the table nowhere.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    moved = Path(shutil.move(save, elsewhere / "game.json"))
    shutil.rmtree(own_table.parent)
    monkeypatch.chdir(elsewhere)
    code, out, err = run(capsys, "replay", "game.json", "--check")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == (
        "check: the event log matches (the scenario file is not here: the save's copy)"
    )
    assert read_save(moved).replay().log() == game.log()


def test_a_save_moved_with_its_table_checks_against_the_table_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A save names its table by the path from the save's folder too: the two moved to
    another folder (another machine), the table there is the one checked, and a change
    to it is said; the path the save was made from is gone."""
    folder = tmp_path / "club"
    (folder / "saves").mkdir(parents=True)
    table = Path(shutil.copy(DEMO, folder / "table.toml"))
    played(table, folder / "saves" / "game.json")
    data = json.loads((folder / "saves" / "game.json").read_text())
    assert data["scenario_relative"] == "../table.toml"
    moved = Path(shutil.move(folder, tmp_path / "elsewhere"))
    save = moved / "saves" / "game.json"
    assert not Path(data["scenario"]).exists()
    code, out, err = run(capsys, "replay", str(save), "--check")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "check: the event log matches"  # the file was found
    here = moved / "table.toml"
    here.write_text(here.read_text().replace("at = [4, 29]", "at = [4.5, 29]", 1))
    code, out, err = run(capsys, "replay", str(save), "--check")
    assert code == 1 and f"{here} has changed since the save" in err


def test_a_save_of_a_bundled_table_finds_it_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A save made on another machine names the bundled table where that machine has it;
    this machine's bundled table of that name is the one checked."""
    save = tmp_path / "game.json"
    played(DEMO, save)
    data = json.loads(save.read_text())
    assert data["scenario_bundled"] == "infinity-demo"
    data["scenario"] = "/elsewhere/site-packages/game/_data/scenarios/infinity-demo.toml"
    data["scenario_relative"] = "../../elsewhere/infinity-demo.toml"
    save.write_text(json.dumps(data))
    saved = read_save(save)
    assert saved.on_disk and saved.scenario_file.resolve() == DEMO.resolve()
    code, out, err = run(capsys, "replay", str(save), "--check")
    assert (code, err) == (0, "") and out.splitlines()[-1] == "check: the event log matches"


@pytest.mark.parametrize("fmt", [1, 2])
def test_an_old_save_finds_its_table_moved_beside_it(fmt: int, tmp_path: Path) -> None:
    """A save written before saves named their table by name and relative path: only
    the absolute path, gone; a file of that name beside the save is the table (format
    1, which carries no copy, replays from it)."""
    folder = tmp_path / "then"
    folder.mkdir()
    table = Path(shutil.copy(DEMO, folder / "table.toml"))
    save = tmp_path / "game.json"
    game = played(table, save)
    data = json.loads(save.read_text())
    del data["scenario_relative"]
    if fmt == 1:
        data["format"] = 1
        del data["scenario_text"], data["scenario_sha256"]
    save.write_text(json.dumps(data))
    shutil.move(table, tmp_path / "table.toml")
    folder.rmdir()
    saved = read_save(save)
    assert saved.on_disk and saved.scenario_file == tmp_path / "table.toml"
    assert saved.replay().log() == game.log()


@pytest.mark.parametrize(
    ("old", "new", "change"),
    [
        ("at = [4, 29]", "at = [4.5, 29]", "model 'fusilier-1' at: [4, 29] -> [4.5, 29]"),
        ("height = 4.0", "height = 4.5", "height: 4.0 -> 4.5"),
    ],
)
def test_check_says_what_changed_in_the_scenario_file(
    old: str, new: str, change: str, own_table: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    save = tmp_path / "game.json"
    played(own_table, save)
    text = own_table.read_text()
    assert old in text
    own_table.write_text(text.replace(old, new, 1))
    code, out, err = run(capsys, "replay", str(save), "--check")
    assert code == 1 and "matches" not in out
    [line] = err.splitlines()
    assert line.startswith(f"skirmish: {save}: check failed: {own_table} has changed since")
    assert change in line
    # Without --check the game replays from the copy it carries, with a note.
    code, out, err = run(capsys, "replay", str(save))
    assert code == 0 and out
    assert err.startswith(f"note: {own_table} has changed since the save") and change in err


def test_comments_and_layout_are_not_a_change(
    own_table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    played(own_table, save)
    own_table.write_text("# a comment\n\n" + own_table.read_text().replace(" = ", "  =  "))
    code, out, err = run(capsys, "replay", str(save), "--check")
    assert (code, err) == (0, "") and out.endswith("check: the event log matches\n")


def test_scenario_changes_in_the_files_own_terms() -> None:
    old = '[scenario]\nturns = 3\n[[model]]\nid = "a"\nat = [1, 2]\n[[model]]\nid = "b"\n'
    new = '[scenario]\nturns = 4\n[[model]]\nid = "a"\nat = [1, 2.5]\n[[model]]\nid = "c"\n'
    assert scenario_changes(old, new) == [
        "[scenario] turns: 3 -> 4",
        "model 'a' at: [1, 2] -> [1, 2.5]",
        "model 'b' removed",
        "model 'c' added",
    ]
    assert scenario_changes(old, "[scenario") == ["it no longer reads as TOML"]


def test_format_1_saves_still_replay(capsys: pytest.CaptureFixture[str]) -> None:
    """A save as format 1 wrote it (kept as a file): the scenario by path only, found
    relative to the save's folder."""
    save = FIXTURES / "format-1.json"
    data = json.loads(save.read_text())
    assert data["format"] == 1 and "scenario_text" not in data
    saved = read_save(save)
    assert saved.format == 1 and saved.scenario.ruleset.name == "infinity"
    game = saved.replay()
    assert [d.to_dict() for d in game.declarations] == data["declarations"]
    assert game.state.turn > 1
    code, out, err = run(capsys, "replay", str(save))
    assert (code, err) == (0, "") and out


def test_format_1_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "game.json"
    played(DEMO, save)
    data = json.loads(save.read_text())
    data["format"] = 1
    del data["scenario_text"], data["scenario_sha256"]
    save.write_text(json.dumps(data))
    code, out, err = run(capsys, "replay", str(save), "--check")
    assert (code, err) == (0, "") and out.endswith("check: the event log matches\n")


def _spoiled(tmp_path: Path, change: dict[str, Any]) -> Path:
    save = tmp_path / "game.json"
    if not save.exists():
        played(DEMO, save, declarations=4)
    data = json.loads(save.read_text())
    data.update(change)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    return bad


NECROMUNDA_ACT = {"declare": "Act", "model": "fusilier-1", "action": {"kind": "aim"}}


@pytest.mark.parametrize(
    ("change", "place"),
    [
        ({"format": 99}, "format: 99: this skirmish reads save formats 1 and 2"),
        # a number in quotes is text: "format: 2: this skirmish reads save formats 1 and 2"
        # contradicted itself
        ({"format": "2"}, 'format: expected a whole number, not "2"'),
        ({"format": True}, "format: expected a whole number, not true"),
        ({"format": 2.0}, "format: expected a whole number, not 2.0"),
        ({"format": None}, "format: expected a whole number, not null"),
        ({"format": 10**50}, "format: " + "1" + "0" * 36 + "...: this skirmish reads"),
        # (of a version Necromunda knows: Infinity's 2 is not yet Necromunda's)
        (
            {"ruleset": "necromunda", "rules_version": 1},
            "ruleset: the save is of necromunda, its scenario of",
        ),
        ({"ruleset": "chess"}, "ruleset: unknown ruleset 'chess'"),
        ({"seed": -5}, "seed: must be a whole number from 0 to 2**128 - 1, not -5"),
        ({"seed": 10**400}, "seed: must be a whole number from 0 to 2**128 - 1, not a number"),
        ({"seed": 1.5}, "seed: expected a whole number, not 1.5"),
        ({"seed": None}, "seed: expected a whole number, not null"),
        ({"rules_version": "1"}, 'rules_version: expected a whole number from 0 up, not "1"'),
        ({"rules_version": -1}, "rules_version: expected a whole number from 0 up, not -1"),
        ({"declarations": [NECROMUNDA_ACT]}, "declaration 1: "),
        (
            {"declarations": [{"declare": "Fly"}]},
            "declaration 1: Infinity (N5 / CodeOne) has no declaration called 'Fly'",
        ),
        (
            {"declarations": [{"model": "a"}]},
            "declaration 1: its kind is missing (a declaration names it in 'declare')",
        ),
        (
            {"declarations": [{"declare": "EndTurn", "bogus": 1}]},
            "declaration 1: unknown field 'bogus'",
        ),
        ({"declarations": [{}, 7]}, "declaration 1: its kind is missing"),
        (
            {"declarations": [7]},
            "declaration 1: expected a JSON object with its kind in 'declare', not 7",
        ),
        ({"scenario_sha256": "0" * 64}, "scenario_text: does not match scenario_sha256"),
        ({"scenario": "x" * 50_000_000}, "scenario: the file name is over 4096 characters"),
    ],
)
def test_a_bad_save_is_one_line_and_exit_2(
    change: dict[str, Any], place: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _spoiled(tmp_path, change)
    for command in (["replay", str(bad), "--check"], ["play", "--load", str(bad), "--frames", "1"]):
        code, out, err = run(capsys, *command)
        assert code == 2, (command, out, err)
        [line] = err.splitlines()
        assert line.startswith(f"skirmish: {bad}: {place}"), line
        assert len(line) < 600


def test_a_carried_scenario_that_does_not_check_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    played(DEMO, save, declarations=2)
    data = json.loads(save.read_text())
    text = data["scenario_text"].replace("turns = ", "turns = -", 1)
    from game.sequencer.game import text_hash

    bad = _spoiled(tmp_path, {"scenario_text": text, "scenario_sha256": text_hash(text)})
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2
    assert err.startswith(f"skirmish: {bad}: scenario_text: {DEMO}:")


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b'{"format": 2, "seed": ' + b"7" * 5000 + b"}", "JSON: Exceeds the limit"),
        (b'{"format": 2, "x": "\xff\xfe"}', "not UTF-8 text (byte 21): not a save file"),
        (b"[" * 100_000 + b"]" * 100_000, "JSON: values nested too deeply"),
        (b'{"format": 2,', ":1: not valid JSON: expecting property name enclosed in double quotes"),
        (b"  \n", ": the file is empty: not a save file"),
        (b"[]", "a save file is a JSON object"),
        (b'{"seed": 1}', "format: missing: is this a skirmish save file?"),
    ],
)
def test_unreadable_saves(
    content: bytes, problem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    for command in (["replay", str(bad)], ["play", "--load", str(bad), "--frames", "1"]):
        code, _, err = run(capsys, *command)
        assert code == 2
        [line] = err.splitlines()
        assert line.startswith(f"skirmish: {bad}") and problem in line, line


def test_a_save_naming_an_endless_file_or_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    played(DEMO, save, declarations=2)
    data = json.loads(save.read_text())
    data["format"] = 1  # as a format 1 save is: the scenario's path only
    del data["scenario_text"], data["scenario_sha256"]
    del data["scenario_bundled"], data["scenario_relative"]
    for target, problem in (("/dev/zero", "larger than 4 MB"), (str(tmp_path), "is a folder")):
        if not Path(target).exists():
            continue
        data["scenario"] = target
        save.write_text(json.dumps(data))
        code, _, err = run(capsys, "replay", str(save))
        assert code == 2
        [line] = err.splitlines()
        assert line == f"skirmish: {target}: {problem}, not a TOML file" or (
            line.startswith(f"skirmish: {target}: {problem}")
        ), line
    for command in (["replay", str(tmp_path)], ["play", "--load", str(tmp_path), "--frames", "1"]):
        code, _, err = run(capsys, *command)
        assert code == 2 and err == f"skirmish: {tmp_path}: is a folder, not a save file\n"
