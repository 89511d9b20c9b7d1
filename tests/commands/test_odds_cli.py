"""`skirmish odds`: JSON shape, exact counts, errors with exit status 2."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from game.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    code = main(["odds", *args])
    out, err = capsys.readouterr()
    doc = json.loads(out) if code == 0 and "--json" in args else out
    return code, doc, err


def test_infinity_json_issue_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, _ = run(
        capsys, "infinity", "--sv1", "13", "--b1", "3", "--sv2", "12", "--b2", "1", "--json"
    )
    assert code == 0
    rows = doc["outcomes"]
    assert {"winner": 1, "successes": 2, "crits": 0, "count": 39966, "total": 160000,
            "probability": 0.2497875} in rows  # fmt: skip
    assert sum(r["count"] for r in rows) == 160000
    assert "wounds" not in doc


def test_infinity_normal_roll_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    # SV 10, Burst 1, no opponent: 9 non-critical successes, 1 Critical, 10 failures
    code, doc, _ = run(capsys, "infinity", "--sv1", "10", "--b1", "1", "--b2", "0", "--json")
    assert code == 0
    got = {(r["winner"], r["successes"], r["crits"]): r["count"] for r in doc["outcomes"]}
    assert got == {(1, 1, 0): 9, (1, 0, 1): 1, (None, 0, 0): 10}


def test_infinity_wounds_section(capsys: pytest.CaptureFixture[str]) -> None:
    # Normal roll SV 10 B1; N5 PS 7 against ARM 3: wound on 11..20 (10 of 20)
    args = ["infinity", "--sv1", "10", "--b2", "0", "--ps1", "7", "--arm2", "3", "--json"]
    code, doc, _ = run(capsys, *args)
    assert code == 0
    wounds = {r["wounds"]: Fraction(r["count"], r["total"]) for r in doc["wounds"]["2"]}
    # 9/20 one save, 1/20 a Critical (two saves), each wounding 1/2
    expected = {
        0: Fraction(10, 20) + Fraction(9, 20) / 2 + Fraction(1, 20) / 4,
        1: Fraction(9, 20) / 2 + Fraction(1, 20) / 2,
        2: Fraction(1, 20) / 4,
    }
    assert wounds == expected
    assert "1" not in doc["wounds"]


def test_infinity_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "infinity", "--sv1", "12", "--sv2", "11")
    assert code == 0
    assert "154/400" in out and "side 1 wins" in out


@pytest.mark.parametrize(
    ("args", "place"),
    [
        (["--sv1", "12", "--sv2", "11", "--dam1", "13", "--ps1", "7"], "--dam1"),
        (["--sv1", "12", "--sv2", "11", "--ps1", "7", "--ammo1", "PLASMA"], "--ammo1"),
        (["--sv1", "12", "--sv2", "11", "--arm2", "3"], "--arm2"),
        (["--sv1", "12"], "--sv2"),
        (["--sv1", "12", "--sv2", "11", "--sd1", "--reroll1"], "--sd1"),
    ],
)
def test_infinity_bad_input(
    capsys: pytest.CaptureFixture[str], args: list[str], place: str
) -> None:
    code, _, err = run(capsys, "infinity", *args)
    assert code == 2
    assert err.startswith(f"skirmish: <command line>: {place}:")
    assert "Traceback" not in err


def test_bad_burst_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "infinity", "--sv1", "12", "--b1", "-1", "--sv2", "3")
    assert code == 2
    assert "--b1" in err


def test_necromunda_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["necromunda", "--bs", "4", "--strength", "3", "--toughness", "3", "--json"]
    code, doc, _ = run(capsys, *args)
    assert code == 0
    hits = {r["hits"]: Fraction(r["count"], r["total"]) for r in doc["hits"]}
    assert hits == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert sum(Fraction(r["count"], r["total"]) for r in doc["outcomes"]) == 1
    standing = [r for r in doc["outcomes"] if r["outcome"] == "standing" and r["wounds_left"] == 1]
    # unhurt: missed (1/2) or hit but not wounded on 4+ (1/2 * 1/2)
    assert Fraction(standing[0]["count"], standing[0]["total"]) == Fraction(3, 4)
    assert "injury" in doc["unconfirmed_dice"]


def test_open_rebellion_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["open-rebellion", "--attack", "1", "--defence", "1", "--cover", "light", "--json"]
    code, doc, _ = run(capsys, *args)
    assert code == 0
    assert doc["tier"] == "light"
    got = {(r["wounds"], r["pinned"]): Fraction(r["count"], r["total"]) for r in doc["outcomes"]}
    # damage 1 with 1/3 * 2/3; the defender's conversion die shifts it to pinned on 5-6
    assert got == {(0, 0): Fraction(7, 9), (1, 0): Fraction(4, 27), (0, 1): Fraction(2, 27)}


def test_open_rebellion_tier_shift_and_bad_cover(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, _ = run(
        capsys, "open-rebellion", "--attack", "2", "--defence", "0", "--cover", "hard",
        "--in-position", "--json",
    )  # fmt: skip
    assert code == 0 and doc["tier"] == "beyond-hard"
    assert all(r["wounds"] == 0 for r in doc["outcomes"])
    code, _, err = run(capsys, "open-rebellion", "--attack", "2", "--defence", "0", "--cover", "x")
    assert code == 2 and "--cover" in err
