"""Loading Necromunda's dice faces: the bundled file and bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.errors import InputError
from game.rules.necromunda.assets import load_necromunda_dice
from game.rules.necromunda.dice import InjuryResult

GOOD = """
[injury]
faces = ["flesh wound", "out of action"]
[firepower]
unconfirmed = true
faces = [{ holes = 1 }, { holes = 2, ammo = true }]
[scatter]
faces = [{ hit = true }, { hit = false }]
"""


def test_bundled_file_loads() -> None:
    dice = load_necromunda_dice()
    assert set(dice.injury) == set(InjuryResult)


def test_custom_file(tmp_path: Path) -> None:
    path = tmp_path / "dice.toml"
    path.write_text(GOOD)
    dice = load_necromunda_dice(path)
    assert dice.injury == (InjuryResult.FLESH_WOUND, InjuryResult.OUT_OF_ACTION)
    assert dice.firepower[1].ammo and dice.unconfirmed == frozenset({"firepower"})


@pytest.mark.parametrize(
    ("text", "place"),
    [
        (GOOD.replace('"out of action"', '"dead"'), "injury.faces[1]"),
        (GOOD.replace("holes = 2", "holes = -1"), "firepower.faces[1]"),
        (GOOD.replace("hit = false", "hit = 3"), "scatter.faces[1]"),
        (GOOD.replace("{ hit = true }", "{ hit = true, arrow = 1 }"), "scatter.faces[0]"),
        (GOOD.replace("[scatter]", "[scater]"), "[scatter]"),
        ("not toml [", "TOML syntax"),  # as in scenario files, with its line
    ],
)
def test_bad_files_name_the_place(tmp_path: Path, text: str, place: str) -> None:
    path = tmp_path / "dice.toml"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        load_necromunda_dice(path)
    problem = err.value.problems[0]
    assert problem.file == str(path)
    assert problem.place == place
