"""A model's display `name` (optional, an extension of the scenario format: old files read
as before) and the id made readable without one (session 7 tester's finding 8: "Zhanshi
hmg", "Fusilier lt" in every log and picture)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.errors import InputError
from game.scenario import load_scenario
from game.scenario.editing import Editing, duplicate_model
from game.sequencer.sentences import names_of, readable
from tests.conftest import SCENARIOS

DEMO = SCENARIOS / "infinity-demo.toml"


def _named(tmp_path: Path, name: str) -> Path:
    text = DEMO.read_text()
    text = text.replace('id = "zhanshi-hmg"\n', f'id = "zhanshi-hmg"\nname = {name}\n', 1)
    assert "name = " in text
    path = tmp_path / "named.toml"
    path.write_text(text)
    return path


def test_a_model_is_called_by_the_name_the_scenario_gives(tmp_path: Path) -> None:
    scenario = load_scenario(_named(tmp_path, '"Zhanshi gunner"'))
    assert names_of(scenario)["zhanshi-hmg"] == "Zhanshi gunner"
    assert names_of(scenario)["fusilier-1"] == "Fusilier 1"  # the others by their ids
    old = load_scenario(DEMO)  # a file without names reads as before
    assert all(m.name is None for m in old.models)


def test_a_name_is_kept_through_the_editor_and_not_copied(tmp_path: Path) -> None:
    editing = Editing.open(_named(tmp_path, '"Zhanshi gunner"'))
    editing.apply(duplicate_model("zhanshi-hmg", (1.0, 0.0)))
    out = editing.save(tmp_path / "saved.toml")
    again = load_scenario(out)
    names = {m.id: m.name for m in again.models}
    assert names["zhanshi-hmg"] == "Zhanshi gunner"
    assert [n for n in names.values() if n] == ["Zhanshi gunner"]  # the copy is its own


def test_an_empty_name_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="name"):
        load_scenario(_named(tmp_path, '""'))


def test_an_abbreviation_in_an_id_reads_in_capitals() -> None:
    assert readable("zhanshi-hmg") == "Zhanshi HMG"
    assert readable("fusilier-lt") == "Fusilier LT"
    assert readable("gov-b1") == "Gov b1" and readable("orlock-gyrinx") == "Orlock gyrinx"
    assert readable("escher-ganger-1") == "Escher ganger 1"


@pytest.mark.parametrize(
    ("words", "said"),
    [
        ("Orc trooper", "an Orc trooper"),
        ("Zhanshi HMG", "a Zhanshi HMG"),
        ("Akal commando", "an Akal commando"),
        ("HMG team", "an HMG team"),
        ("Saw gunner", "a Saw gunner"),
        ("Knight of justice", "a Knight of justice"),
        ("Veteran", "a Veteran"),
        ("unit", "a unit"),
        ("obstacle", "an obstacle"),
        ("area", "an area"),
    ],
)
def test_a_profile_or_kind_takes_the_article_it_is_said_with(words: str, said: str) -> None:
    from game.scenario.names import with_article

    assert with_article(words) == said


def test_a_profile_with_a_proper_name_is_called_by_it(tmp_path: Path) -> None:
    """A new user (session 10): "'Knight of justice' should read 'Knight of Justice'"
    (an Infinity unit's proper name; the id made readable lowers its second noun). The
    profile's data says how it is called (`called`), the panel, balance and every sentence
    naming a model after its profile read it; other profiles read as their ids do."""
    from game.sequencer.sentences import profile_called

    text = (SCENARIOS / "infinity-checkpoint.toml").read_text()
    assert 'id = "knight"\n' in text
    path = tmp_path / "knights.toml"
    path.write_text(text.replace('id = "knight"\n', 'id = "knight-of-justice-2"\n', 1))
    scenario = load_scenario(path)
    assert profile_called("knight-of-justice", scenario.profiles) == "Knight of Justice"
    assert profile_called("hac-tao", scenario.profiles) == "Hac Tao"
    assert profile_called("orc-trooper", scenario.profiles) == "Orc trooper"
    assert profile_called("no-such-profile", scenario.profiles) == "No such profile"
    assert names_of(scenario)["knight-of-justice-2"] == "Knight of Justice 2"
    assert names_of(load_scenario(SCENARIOS / "infinity-checkpoint.toml"))["knight"] == "Knight"


def test_the_panel_calls_a_selected_knight_s_profile_by_its_proper_name() -> None:
    from dataclasses import replace

    from game.render.app import App
    from game.render.panel import panel_lines

    scenario = load_scenario(SCENARIOS / "infinity-checkpoint.toml")
    app = App(scenario)
    said = [line.text for line in panel_lines(scenario, replace(app.state, selected="knight"))]
    assert "Knight of Justice" in said and "Knight of justice" not in said
