"""The second tester's small findings (session 6, finding 10): a refusal says what would
do, a system's name misspelt is answered with the nearest, a weapon named in any case."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.cli import main


def refusal(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one line (exit 2) that refuses `skirmish ARGV`."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.strip()


def test_lof_names_the_models_of_the_table_as_shoot_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 'lof --to gov-b' said only "no model with id 'gov-b'"
    err = refusal(capsys, ["lof", "open-rebellion-demo", "--from", "gov-b1", "--to", "gov-b"])
    assert "--to: no model 'gov-b' (models: gov-a1, gov-a2, " in err
    assert err.endswith(", gov-b1, gov-b2, gov-b3, gov-hmg, reb-a1, reb-a2, reb-a3, reb-a4, "
                        "reb-b1, reb-b2, reb-b3, reb-b4)")  # fmt: skip


def test_odds_answers_a_misspelt_system_with_the_nearest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 'odds infinty' had no "did you mean" (the commands above it have)
    err = refusal(capsys, ["odds", "infinty"])
    assert "no such command 'infinty' (did you mean 'infinity'?)" in err


def test_odds_necromunda_refuses_a_weapon_of_no_damage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # '--damage 0' was accepted: a weapon's D is 1 or more
    argv = ["odds", "necromunda", "--bs", "3", "--strength", "3", "--toughness", "3"]
    assert "--damage: must be from 1 to 6" in refusal(capsys, [*argv, "--damage", "0"])
    assert main([*argv, "--damage", "1"]) == 0


@pytest.mark.parametrize(
    ("table", "attacker", "target", "weapon", "named"),
    [
        ("infinity-demo", "fusilier-1", "zhanshi-1", "combi rifle", "Combi Rifle"),
        ("necromunda-alley", "goliath-heavy", "cawdor-leader", "HEAVY STUBBER", "Heavy stubber"),
    ],
)
def test_a_weapon_is_named_in_any_case(
    capsys: pytest.CaptureFixture[str],
    table: str, attacker: str, target: str, weapon: str, named: str,
) -> None:  # fmt: skip
    # 'shoot --weapon "combi rifle"' was refused as case-sensitive
    argv = ["shoot", table, "--attacker", attacker, "--target", target, "--weapon", weapon]
    main([*argv, "--json"])
    captured = capsys.readouterr()
    assert f"has no {weapon}" not in captured.err
    if captured.out:
        assert f'"weapon": "{named}"' in captured.out
    else:  # refused for another reason (no line of fire) after the weapon was found
        assert "line of fire" in captured.err


def test_scenarios_says_a_copy_here_that_is_no_toml_does_not_validate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # a broken-TOML necromunda-alley.toml here showed the bundled title, without
    # "(does not validate)", though a command given the name reads the copy
    monkeypatch.chdir(tmp_path)
    (tmp_path / "necromunda-alley.toml").write_text("[scenario\nname =", encoding="utf-8")
    assert main(["scenarios"]) == 0
    [row] = [r for r in capsys.readouterr().out.splitlines() if r.startswith("necromunda-alley ")]
    assert "does not read: line 1: TOML syntax: " in row
    assert "Crowded alley" not in row
