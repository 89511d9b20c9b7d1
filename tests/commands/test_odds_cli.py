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
    assert err.startswith(f"skirmish: <command line>: odds infinity {place}:")
    assert err.endswith("; see skirmish odds infinity --help\n")
    assert "Traceback" not in err


def test_a_normal_roll_is_titled_and_summed_up_as_one(capsys: pytest.CaptureFixture[str]) -> None:
    """Tester's finding 13, session 6: --b2 0 (a Normal roll, README) was still titled
    'Face-to-Face' and said 'side 2 wins 0.0000%'."""
    code, out, _ = run(capsys, "infinity", "--sv1", "10", "--b2", "0")
    assert code == 0
    assert out.splitlines()[0] == "Normal roll of side 1"
    assert out.splitlines()[-1] == "side 1 succeeds 50.0000%, fails 50.0000%"
    code, out, _ = run(capsys, "infinity", "--sv1", "10", "--b1", "0", "--sv2", "5")
    assert out.splitlines()[0] == "Normal roll of side 2"
    assert out.splitlines()[-1] == "side 2 succeeds 25.0000%, fails 75.0000%"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--ps1", "-100"], "odds infinity --ps1: must be from 0 to 30 (got '-100')"),
        (["--dam1", "-5"], "odds infinity --dam1: must be from 0 to 30 (got '-5')"),
        (["--ps1", "99999999999999"],
         "odds infinity --ps1: must be from 0 to 30 (got '99999999999999')"),
        (["--ps1", "7", "--arm2", "-1"], "odds infinity --arm2: must be from 0 to 30 (got '-1')"),
        (["--sv2", "999"], "odds infinity --sv2: must be from -30 to 50 (got '999')"),
        (["--b1", "0", "--b2", "0"],
         "odds infinity --b1: neither side rolls: give side 1 or side 2 a Burst above 0"),
    ],
)  # fmt: skip
def test_infinity_numbers_out_of_their_range_are_refused(
    capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    """--ps1 -100, --dam1 -5 and --ps1 99999999999999 were taken while --arm2 -1 was
    refused (finding 13)."""
    code, _, err = run(capsys, "infinity", "--sv1", "12", *args)
    assert (code, err) == (
        2,
        f"skirmish: <command line>: {said}; see skirmish odds infinity --help\n",
    )


def test_counts_too_long_to_read_are_left_to_json(capsys: pytest.CaptureFixture[str]) -> None:
    """--b1 30 --b2 30 printed 78-digit counts over 79-digit totals (finding 13)."""
    code, out, _ = run(capsys, "infinity", "--sv1", "13", "--b1", "30", "--sv2", "12", "--b2", "30")
    assert code == 0
    title, head = out.splitlines()[:2]
    assert title == "Face-to-Face (the exact counts, over totals of 79 digits, are in --json)"
    assert head.split() == ["winner", "successes", "crits", "probability"]
    assert max(len(word) for word in out.split()) < 20
    code, doc, _ = run(
        capsys, "infinity", "--sv1", "13", "--b1", "30", "--sv2", "12", "--b2", "30", "--json"
    )
    assert doc["outcomes"][0]["total"] == 20**60


def test_open_rebellion_bad_cover_reads_as_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """'--cover: 'lite' is not one of ...' lacked the command and the help (finding 18)."""
    code, _, err = run(
        capsys, "open-rebellion", "--attack", "3", "--defence", "2", "--cover", "lite"
    )
    assert (code, err) == (
        2,
        "skirmish: <command line>: odds open-rebellion --cover: 'lite' is not one of open, "
        "light, hard, beyond-hard; see skirmish odds open-rebellion --help\n",
    )


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


def test_open_rebellion_says_each_kind_of_marker_on_its_own(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """tester14: the joint rows alone (40 of them for 9 dice a side) gave no total for
    "1 wound marker"; the window says "wound markers: 0: 90% · 1: 8% ...". Each kind's
    chances are the joint rows summed over the other kind, first in the text."""
    args = ["open-rebellion", "--attack", "1", "--defence", "1", "--cover", "light"]
    code, doc, _ = run(capsys, *args, "--json")
    assert code == 0
    wounds = {r["wound_markers"]: Fraction(r["count"], r["total"]) for r in doc["wound_markers"]}
    pinned = {r["pinned_markers"]: Fraction(r["count"], r["total"]) for r in doc["pinned_markers"]}
    # the joint rows (the test above): (0, 0) 7/9, (1, 0) 4/27, (0, 1) 2/27
    assert wounds == {0: Fraction(23, 27), 1: Fraction(4, 27)}
    assert pinned == {0: Fraction(25, 27), 1: Fraction(2, 27)}
    assert doc["expected"] == {"wound_markers": 4 / 27, "pinned_markers": 2 / 27}
    code, out, _ = run(capsys, *args)
    lines = out.splitlines()
    assert lines[0] == "Wound markers" and lines[3].split() == ["0", "23/27", "85.1852%"]
    assert "Both markers together" in lines
    assert lines[-1] == "expected: 0.15 wound markers, 0.07 pinned markers"


def test_open_rebellion_tier_shift_and_bad_cover(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, _ = run(
        capsys, "open-rebellion", "--attack", "2", "--defence", "0", "--cover", "hard",
        "--in-position", "--json",
    )  # fmt: skip
    assert code == 0 and doc["tier"] == "beyond-hard"
    assert all(r["wounds"] == 0 for r in doc["outcomes"])
    code, _, err = run(capsys, "open-rebellion", "--attack", "2", "--defence", "0", "--cover", "x")
    assert code == 2 and "--cover" in err


def test_rows_printing_as_nothing_are_left_out_and_counted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Burst 30 a side printed 996 lines, most of them 0.0000%: those rows are left out
    of the table, one line below it says how many, and --json keeps every one."""
    args = ("infinity", "--sv1", "13", "--b1", "30", "--sv2", "13", "--b2", "30")
    code, out, _ = run(capsys, *args)
    assert code == 0
    lines = out.splitlines()
    assert not any(line.endswith(" 0.0000%") for line in lines)
    [said] = [line for line in lines if line.endswith("left out (--json has them all)")]
    left = int(said.split()[0])
    _, doc, _ = run(capsys, *args, "--json")
    tiny = [r for r in doc["outcomes"] if f"{r['probability']:.4%}" == "0.0000%"]
    assert left == len(tiny) > 0
    table = lines[3 : lines.index(said)]  # title, heading and rule, then the rows
    assert len(table) == len(doc["outcomes"]) - left
