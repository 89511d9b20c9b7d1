"""Files written before session 10's checks still open and replay (review10): session
9's editor gave a Necromunda fighter a `unit` with U and `state = "engaged"` with no
enemy touching it with T, and its saves carry such a file as `scenario_text`.
`validate` refuses both at their lines (exit 2); a game plays through them as it did
(the unit left unread, the lone fighter stood up as the game starts)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from game.cli import main
from game.scenario import load_scenario
from game.scenario.editing import Editing
from tests.conftest import SCENARIOS

# a save of the rules as they are (rules version 3; the saves of versions 1 and 2,
# necromunda-rules-1.json and -2.json, go otherwise now, test_old_rules_saves)
FIXTURE = Path(__file__).parent / "saves" / "necromunda-rules-3.json"
CASES = (
    ('unit = "unit-a"', "unit: Necromunda (pre-2023) does not read it"),
    ('state = "engaged"', "state 'engaged', but no enemy's base touches it"),
)


def _with_field(text: str, line: str) -> str:
    """`text` with `line` added to its first [[model]]."""
    first = text.index("[[model]]")
    end = text.index("\n", text.index("profile =", first))
    return text[: end + 1] + line + "\n" + text[end + 1 :]


@pytest.mark.parametrize(("line", "problem"), CASES)
def test_validate_refuses_it_and_the_game_still_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, problem: str
) -> None:
    text = (SCENARIOS / "necromunda-demo.toml").read_text(encoding="utf-8")
    path = tmp_path / "old-editor.toml"
    path.write_text(_with_field(text, line), encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    out, err = capsys.readouterr()
    assert problem in out + err
    assert len(load_scenario(path).models) == 10  # refused before review10's fix


@pytest.mark.parametrize(("line", "problem"), CASES)
def test_a_save_of_such_a_file_replays_with_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, problem: str
) -> None:
    save = json.loads(FIXTURE.read_text(encoding="utf-8"))
    text = _with_field(save["scenario_text"], line)
    save["scenario_text"] = text
    save["scenario_sha256"] = hashlib.sha256(text.encode()).hexdigest()
    path = tmp_path / "old-save.json"
    path.write_text(json.dumps(save), encoding="utf-8")
    code = main(["replay", str(path), "--check"])
    out, err = capsys.readouterr()
    if "engaged" in line:  # the game stood it up: other events than the fixture's
        assert problem not in out + err and "Traceback" not in err
        return
    assert code == 0, err
    assert "the event log matches" in out


@pytest.mark.parametrize(("line", "problem"), CASES)
def test_the_editor_opens_such_a_file(tmp_path: Path, line: str, problem: str) -> None:
    text = (SCENARIOS / "necromunda-demo.toml").read_text(encoding="utf-8")
    path = tmp_path / "old-editor.toml"
    path.write_text(_with_field(text, line), encoding="utf-8")
    editing = Editing.open(path)  # refused before review10's fix
    (advice,) = editing.scenario.advice
    assert problem in advice.problem
