"""A table of one side is no game (retest13's finding 7: an imported map whose blue
layer was hidden gave a scenario with only `red`; `validate` said ok and `playtest`
reported "Red won 100%"). It is said as a side with no models is: validate exit 2,
playtest and balance refuse it in one line, play opens it as a viewer; the editor and
import still write it, a table being laid out."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.cli import main
from game.render.session import Session, SessionError
from game.scenario import load_scenario
from game.scenario.editing import Editing, add_side

ONE_SIDE = """[scenario]
name = "one"
ruleset = "infinity"
table = [24, 24]

[[side]]
id = "red"

[[model]]
id = "z"
side = "red"
profile = "zhanshi"
at = [10, 10]
"""
SAID = "side 'red': is the only side: a game needs two"


@pytest.fixture
def table(tmp_path: Path) -> Path:
    path = tmp_path / "one.toml"
    path.write_text(ONE_SIDE, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "argv",
    [["validate"], ["playtest", "--games", "2"], ["balance", "--vary", "turns=2", "--games", "2"]],
    ids=["validate", "playtest", "balance"],
)
def test_a_table_of_one_side_is_refused_in_one_line(
    table: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert main([argv[0], str(table), *argv[1:]]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"skirmish: {table}:6: {SAID}"]


def test_no_game_starts_on_it_and_the_editor_still_opens_it(table: Path) -> None:
    with pytest.raises(SessionError, match="side 'red' is the only side: a game needs two"):
        Session.start(load_scenario(table))
    editing = Editing.open(table)
    assert [p.problem for p in editing.scenario.unplayable] == [
        "is the only side: a game needs two"
    ]
    editing.apply(add_side("blue"))
    assert [p.place for p in editing.scenario.unplayable] == ["side 'blue'"]  # its models next


def test_an_import_of_one_side_says_who_plays_it_in_a_whole_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The outpost with its blue layer hidden: 'red' only. The import said "side 'red'
    is played by a person (the first side the map names),  by the computer: skirmish
    play --side SIDE plays another", naming no side for the computer."""
    import json

    from tests.conftest import SCENARIOS

    data = json.loads((SCENARIOS / "maps" / "outpost.tmj").read_text(encoding="utf-8"))
    next(layer for layer in data["layers"] if layer["name"] == "blue")["visible"] = False
    path = tmp_path / "hidden.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "hidden.toml"
    assert main(["import", str(path), "--ruleset", "infinity", "--out", str(out)]) == 0
    first, said = capsys.readouterr()[0].splitlines()[:2]
    assert first.endswith(f"not playable yet: {SAID.replace(':', '', 1)}")
    assert said == "side 'red' is played by a person (the first side the map names)"
