"""`skirmish shoot` (Infinity) and `skirmish replay` as a person runs them."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from game.ai.infinity import SimpleInfinityPlayer
from game.cli import main
from game.scenario import load_scenario
from game.sequencer.game import Game
from tests.conftest import SCENARIOS

DEMO = SCENARIOS / "infinity-demo.toml"


def saved_game(folder: Path, table: str, seed: int, policy: str) -> Path:
    """A seeded game of a bundled table played out by automatic players, saved."""
    from game.playtest.batch import automatic_player, play_out

    game = Game(load_scenario(SCENARIOS / f"{table}.toml"), seed)
    play_out(game, automatic_player(game.engine, policy))
    save = folder / "save.json"
    game.save(save)
    return save


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_one_attack_shows_the_arithmetic(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(
        capsys, "shoot", str(DEMO), "--attacker", "zhanshi-hmg", "--target", "fusilier-2",
        "--reply", "--seed", "3", "--json",
    )  # fmt: skip
    attacker, reply = report["rolls"]
    assert attacker["model"] == "zhanshi-hmg" and attacker["attribute"] == "BS"
    assert attacker["burst"] == 4  # the HMG's Burst
    assert reply["model"] == "fusilier-2" and reply["burst"] == 1  # B 1 in ARO
    for roll in (attacker, reply):
        total = sum(m["value"] for m in roll["modifiers"])
        assert roll["success_value"] == roll["base"] + max(-12, min(12, total))
    assert {m["source"].split(" ")[0] for m in attacker["modifiers"]} == {"range"}


@pytest.mark.slow
def test_trials_agree_with_exact_odds(capsys: pytest.CaptureFixture[str]) -> None:
    n = 20000
    report = run_json(
        capsys, "shoot", str(DEMO), "--attacker", "zhanshi-hmg", "--target", "fusilier-2",
        "--reply", "--trials", str(n), "--seed", "11", "--json",
    )  # fmt: skip
    assert set(report["models"]) == {"zhanshi-hmg", "fusilier-2"}
    for model, freq in report["models"].items():
        for key in ("hit", "wounded", "unconscious", "dead"):
            p = report["exact"][model][key]
            se = math.sqrt(max(p * (1 - p), 1e-12) / n)
            assert abs(freq[key] - p) <= 4 * se + 1e-12, (model, key, freq[key], p)
    # The Face-to-Face is lopsided: the HMG hits far more often than the reply.
    assert report["exact"]["fusilier-2"]["hit"] > 0.8 > report["exact"]["zhanshi-hmg"]["hit"]


def test_trial_rows_call_models_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    """The trials table names each trooper as the sentences above it do."""
    args = ["shoot", str(DEMO), "--attacker", "zhanshi-hmg", "--target", "fusilier-2"]
    assert main([*args, "--trials", "30", "--reply"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("│")]
    assert [row.split("│")[1].strip() for row in rows] == ["Zhanshi HMG", "Fusilier 2"]
    # without a reply nothing reaches the attacker: no row of zeros for it
    assert main([*args, "--trials", "30"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("│")]
    assert [row.split("│")[1].strip() for row in rows] == ["Fusilier 2"]


def test_shoot_refuses_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["shoot", str(DEMO), "--attacker", "zhanshi-hmg", "--target", "fusilier-lt"])
    assert code == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"skirmish: {DEMO}: --attacker zhanshi-hmg --target fusilier-lt: ")
    assert "no line of fire" in line
    assert main(["shoot", str(DEMO), "--attacker", "nobody", "--target", "fusilier-1"]) == 2
    assert "--attacker: no model 'nobody'" in capsys.readouterr().err


def test_replay_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(load_scenario(DEMO), seed=9)
    player = SimpleInfinityPlayer(game.engine)  # type: ignore[arg-type]
    for _ in range(12):
        game.declare(player.choose(game.state, game.awaiting()))
    save = tmp_path / "save.json"
    game.save(save)
    assert main(["replay", str(save), "--check"]) == 0
    assert "check: the event log matches" in capsys.readouterr().out
    data = json.loads(save.read_text())
    saved_kind = data["events"][3]["event"]
    data["events"][3]["event"] = "Tampered"
    save.write_text(json.dumps(data))
    assert main(["replay", str(save), "--check"]) == 1
    captured = capsys.readouterr()
    assert "differs" not in captured.out
    # the two events told as replay tells them, with their place, not as two dicts
    # (tester8); counted from 1, as the rules-corrected sentence counts them
    assert "turn 1, event 4 differs: the replay tells '" in captured.err, captured.err
    assert captured.err.rstrip().endswith("the save a Tampered event")
    assert "{" not in captured.err
    data["events"][3]["event"] = saved_kind
    rolled = next(i for i, e in enumerate(data["events"]) if e["event"] == "Rolled")
    data["events"][rolled]["faces"] = [21 - f for f in data["events"][rolled]["faces"]]
    save.write_text(json.dumps(data))
    assert main(["replay", str(save), "--check"]) == 1
    said = capsys.readouterr().err.strip()
    told = re.search(
        rf"event {rolled + 1} differs: the replay tells '(.*)', the save '(.*)'$", said
    )
    assert told is not None, said
    assert told.group(1).split("rolled ")[0] == told.group(2).split("rolled ")[0]
    assert told.group(1) != told.group(2)
    save.write_text("{ not json")
    assert main(["replay", str(save)]) == 2
    assert capsys.readouterr().err.startswith(f"skirmish: {save}:1: not valid JSON: ")


def test_open_rebellion_refusals_name_the_units(capsys: pytest.CaptureFixture[str]) -> None:
    """README: refusals use names; the place keeps the ids as typed."""
    args = ["shoot", str(SCENARIOS / "open-rebellion-demo.toml"), "--attacker", "reb-a1"]
    assert main([*args, "--target", "gov-a1"]) == 2
    err = capsys.readouterr().err
    assert "--attacker reb-a1 --target gov-a1: " in err
    assert "no model of Rebel squad a has line of sight to Gov squad a" in err


def test_open_rebellion_shoot_names_the_scenery(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tester7b's D: shoot said "touching stone-wall-2" where lof and replay name the
    piece (4e93a97: three stone walls read the same, so each is told apart by its number);
    --json, shoot's and replay's, keeps the ids (a contract)."""
    demo = str(SCENARIOS / "open-rebellion-demo.toml")
    args = ["shoot", demo, "--attacker", "gov-b1", "--target", "reb-b1"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "touching stone wall 2" in out
    assert "touching stone-wall-2" not in out
    assert "touching stone-wall-2" in run_json(capsys, *args, "--json")["cover_reason"]
    save = saved_game(tmp_path, "open-rebellion-demo", 2, "careful")
    assert "touching stone-wall-" in json.dumps(run_json(capsys, "replay", str(save), "--json"))


def test_replay_tells_the_events_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the seeded Necromunda game of tests/sequencer/test_sentences.py: hits after the
    # target went out of action read as lost, as the replay tells them in order
    save = saved_game(tmp_path, "necromunda-demo", 10440292027562319872, "simple")
    assert main(["replay", str(save)]) == 0
    out = capsys.readouterr().out
    assert "is lost: Escher ganger 2 is already out of action" in out


def test_necromunda_shoot_tells_a_hit_after_out_of_action_as_lost(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # seed 1: the heavy stubber's two bullet holes; the first hit takes Escher ganger 2
    # out of action, the second (allocated before the wound rolls, FACTS 2.6) is lost
    argv = ["shoot", "necromunda-demo", "--attacker", "orlock-heavy"]
    assert main([*argv, "--target", "escher-ganger-2", "--seed", "1"]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    out = lines.index("Escher ganger 2 is now out of action (was pinned)")
    assert lines[out + 1] == (
        "Another hit from Orlock heavy's Heavy stubber is lost: "
        "Escher ganger 2 is already out of action"
    )


@pytest.mark.parametrize(
    ("name", "seed", "said", "not_said"),
    [
        # the rules' cover reason names the wall by id; replay says it as the window does
        (
            "open-rebellion-demo",
            1,
            "touching stone wall 2",
            "touching stone-wall-2",
        ),
        # a piece whose id is a plain word ("still") is not named inside other words
        ("necromunda-demo", 3, "points of fighters still in the fight", "the water still"),
    ],
)
def test_replay_names_the_scenery_as_the_window_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, seed: int, said: str,
    not_said: str,
) -> None:  # fmt: skip
    # tester7b's finding D: replay said 'touching stone-wall-2' where the window's dice
    # log (game.scenario.names.told_names) says the wall by name
    save = saved_game(tmp_path, name, seed, "simple")
    assert main(["replay", str(save)]) == 0
    out = capsys.readouterr().out
    assert said in out and not_said not in out
