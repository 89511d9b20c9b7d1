"""`skirmish shoot` for Open Rebellion: pools and cover from the table, the events of one
volley, and shares over trials beside the exact odds."""

from __future__ import annotations

import json
import math

import pytest

from game.cli import main
from game.rules.open_rebellion.odds import CoverTier, small_arms_fire
from tests.conftest import SCENARIOS

DEMO = SCENARIOS / "open-rebellion-demo.toml"


def test_one_volley_with_its_pools_and_events(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["shoot", str(DEMO), "--attacker", "gov-b1", "--target", "reb-b2", "--json"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["attacking_unit"], report["target_unit"]) == ("gov-squad-b", "rebel-squad-b")
    # the rebels touch their wall: hard cover, +4 defence dice
    assert report["cover"] == "hard" and report["tier"] == "hard"
    # two recruits (green, 3) and two regulars (4): the tie goes to the better, 4 dice
    assert report["defence_dice"] == report["range_bands"] + 4 + 4
    fire = next(e for e in report["events"] if e["event"] == "SmallArmsFire")
    assert len(fire["attack_faces"]) == report["attack_dice"]
    exact = small_arms_fire(report["attack_dice"], report["defence_dice"], CoverTier.HARD)
    assert sum(report["exact"].values()) == pytest.approx(1.0)
    assert len(report["exact"]) == len(exact.counts)


def test_trials_match_the_exact_odds(capsys: pytest.CaptureFixture[str]) -> None:
    trials = 3000
    args = ["shoot", str(DEMO), "--attacker", "gov-b1", "--target", "reb-b2"]
    assert main([*args, "--trials", str(trials), "--seed", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert sum(report["shares"].values()) == pytest.approx(1.0)
    # outcomes expected at least 5 times each, the rarer ones lumped together
    common = {k for k, p in report["exact"].items() if p * trials >= 5}
    rare = sum(p for k, p in report["exact"].items() if k not in common)
    checks = [(report["shares"].get(k, 0.0), report["exact"][k], k) for k in common]
    rare_seen = sum(v for k, v in report["shares"].items() if k not in common)
    checks.append((rare_seen, rare, "rare"))
    for seen, p, key in checks:
        se = math.sqrt(p * (1 - p) / trials)
        assert abs(seen - p) <= 4 * se + 1e-12, key
    assert main(args) == 0
    assert "fires at Rebel squad b" in capsys.readouterr().out


def test_bad_input_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["shoot", str(DEMO), "--attacker", "gov-b1", "--target", "nobody"]) == 2
    assert "no model 'nobody'" in capsys.readouterr().err
    assert main(["shoot", str(DEMO), "--attacker", "gov-b1", "--target", "gov-b2"]) == 2
    assert "Gov squad b cannot fire at itself" in capsys.readouterr().err
    assert main(["shoot", str(DEMO), "--attacker", "gov-b1", "--target", "gov-a1"]) == 2
    said = "Gov squad a is a friendly unit (Government), not an enemy unit"
    assert capsys.readouterr().err.endswith(f"--target gov-a1: {said}\n")


def test_the_cover_line_counts_the_squad_as_the_log_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # FACTS 1.4: hard cover needs more than half the models seen touching the wall. The
    # cover line read "hard: 3 of the 3 in sight touching stone wall 2; 1 of 4 out of
    # sight" while the log under it says the count as a player would (tester12 item 8)
    assert main(["shoot", str(DEMO), "--attacker", "gov-b1", "--target", "reb-b2"]) == 0
    out = capsys.readouterr().out
    cover = "hard: all 3 in sight are touching stone wall 2; the other one is out of sight"
    assert f"  cover: {cover}; damage converts as in hard cover if the unit stays put\n" in out
    assert f"in hard cover ({cover.removeprefix('hard: ')})" in out.replace("\n", " ")
