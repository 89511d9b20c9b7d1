"""`skirmish import`: the shipped maps as scenarios that validate and rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.cli import main

from ..conftest import SCENARIOS


def test_import_writes_a_scenario_that_validates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "outpost.toml"
    code = main(
        [
            "import",
            str(SCENARIOS / "maps" / "outpost.tmx"),
            "--ruleset",
            "infinity",
            "--out",
            str(out),
        ]
    )
    text, _ = capsys.readouterr()
    assert code == 0
    assert '24x24" table, 4 scenery pieces, 3 models (infinity)' in text
    assert "skipped object marker" in text
    assert main(["validate", str(out)]) == 0
    assert main(["lof", str(out), "--from", "fusilier-1", "--to", "zhanshi-1"]) == 0


def test_malformed_map_exit_2_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.uvtt"
    bad.write_text('{"format": 0.3, "resolution": []}', encoding="utf-8")
    out = tmp_path / "out.toml"
    code = main(["import", str(bad), "--ruleset", "infinity", "--out", str(out)])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"skirmish: {bad}: ")
    assert not out.exists()


def test_unknown_ruleset_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "import",
            str(SCENARIOS / "maps" / "crypt.uvtt"),
            "--ruleset",
            "chess",
            "--out",
            str(tmp_path / "x.toml"),
        ]
    )
    _, err = capsys.readouterr()
    assert code == 2 and "unknown ruleset 'chess'" in err


def test_a_bundled_map_is_taken_by_its_file_name_and_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    monkeypatch.chdir(tmp_path)  # away from the checkout, as from a wheel install
    shipped = sorted(p.name for p in (SCENARIOS / "maps").iterdir())
    for name in shipped:
        out = f"{Path(name).stem}-{Path(name).suffix[1:]}.toml"
        assert main(["import", name, "--ruleset", "infinity", "--out", out]) == 0, name
        # a map with no models imports as a table to lay them out on, not yet played
        fielded = "0 models" not in capsys.readouterr().out
        assert main(["validate", out]) == (0 if fielded else 2)
        assert fielded or "has no models: a game needs one a side" in capsys.readouterr().err
    capsys.readouterr()
    assert main(["scenarios"]) == 0
    listed = capsys.readouterr()[0]
    assert f"maps: {', '.join(shipped)}" in listed
    assert main(["scenarios", "--json"]) == 0
    doc = json.loads(capsys.readouterr()[0])
    assert [m["name"] for m in doc["maps"]] == shipped
    assert all(Path(m["file"]).is_file() for m in doc["maps"])
    assert main(["import", "nowhere.tmx", "--ruleset", "infinity", "--out", "x.toml"]) == 2


def test_an_import_with_no_models_says_it_is_not_playable_yet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # tester7b's finding G: outpost's points name Infinity profiles, so an Open Rebellion
    # import fields no one. The file is still written (a start for the editor) and the
    # command says what the editor's save says of it (Scenario.unplayable).
    import json

    out = tmp_path / "outpost.toml"
    args = ["import", "outpost.tmx", "--ruleset", "open-rebellion", "--out", str(out)]
    assert main(args) == 0
    text, _ = capsys.readouterr()
    first = text.splitlines()[0]
    assert first.endswith(
        "0 models (open-rebellion); not playable yet: side 'blue' has no models: "
        "a game needs one a side"
    )
    assert out.exists()
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr()[0])
    assert [line.split(" has ")[0] for line in report["unplayable"]] == [
        "side 'blue'",
        "side 'red'",
    ]
    assert main(["import", "outpost.tmx", "--ruleset", "infinity", "--out", str(out)]) == 0
    assert "not playable" not in capsys.readouterr()[0]


def test_the_import_says_which_side_a_person_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """tester13's could-be-better 12 (fix13e): an import wrote side 'red' first, from its
    first layer, and red was the person's side without a word. The rule, stated: the
    first side the map names is played by a person, the others by the computer (blue
    and red where it names none), and the command says so."""
    import json

    data = json.loads((SCENARIOS / "maps" / "outpost.tmj").read_text(encoding="utf-8"))
    data["layers"][-2:] = data["layers"][:-3:-1]  # the red layer, then the blue one
    path = tmp_path / "swapped.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "swapped.toml"
    args = ["import", str(path), "--ruleset", "infinity", "--out", str(out)]
    assert main(args) == 0
    said = capsys.readouterr()[0].splitlines()[1]
    assert said == (
        "side 'red' is played by a person (the first side the map names), 'blue' by the "
        "computer: skirmish play --side SIDE plays another"
    )
    assert 'id = "red"\nplayer = "human"' in out.read_text(encoding="utf-8")
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr()[0])
    assert (report["human"], report["ai"]) == ("red", ["blue"])
    crypt = ["import", "crypt.uvtt", "--ruleset", "infinity", "--out", str(out)]
    assert main(crypt) == 0
    assert (
        "side 'blue' is played by a person (the map names no side), 'red' by the"
        in (capsys.readouterr()[0])
    )


def test_the_computers_sides_are_listed_as_people_write_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """review13, after cd77b07: a map of four sides said "'red' and 'green' and 'teal' by
    the computer"; a list reads "'red', 'green' and 'teal'" (game.words.joined)."""
    import copy
    import json

    data = json.loads((SCENARIOS / "maps" / "outpost.tmj").read_text(encoding="utf-8"))
    red = next(layer for layer in data["layers"] if layer["name"] == "red")
    for n, side in enumerate(("green", "teal")):
        layer = copy.deepcopy(red)
        layer["name"] = side
        for obj in layer["objects"]:
            obj["name"] = f"{side}-{obj['name']}"
            obj["id"] += 100 * (n + 1)
            obj["x"] += 3 * data["tilewidth"] * (n + 1)
        data["layers"].append(layer)
    path = tmp_path / "four.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "four.toml"
    assert main(["import", str(path), "--ruleset", "infinity", "--out", str(out)]) == 0
    said = capsys.readouterr()[0].splitlines()[1]
    assert said == (
        "side 'blue' is played by a person (the first side the map names), 'red', 'green' "
        "and 'teal' by the computer: skirmish play --side SIDE plays another"
    )
