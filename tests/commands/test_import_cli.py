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
    assert '24x24" table, 4 scenery, 3 models (infinity)' in text
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
