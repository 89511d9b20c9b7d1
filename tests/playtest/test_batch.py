"""Playtesting: reproducible batches whatever the workers, and honest intervals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main
from game.playtest.batch import Share, play_one, run_local, seeds_for, summarize
from game.scenario import load_scenario
from tests.playtest.conftest import SMALL, Write


def test_results_do_not_depend_on_the_number_of_workers(small: Path) -> None:
    setup = load_scenario(small)
    one = run_local(setup, 8, seed=5, workers=1)
    two = run_local(setup, 8, seed=5, workers=2)
    assert one == two
    assert [r.index for r in one] == list(range(8))
    assert len({r.seed for r in one}) == 8  # every game its own seed
    assert run_local(setup, 8, seed=6, workers=1) != one


def test_any_game_replays_alone_from_its_seed(small: Path) -> None:
    setup = load_scenario(small)
    results = run_local(setup, 4, seed=9)
    index, seed = seeds_for(9, 4)[2]
    assert play_one(setup, index, seed) == results[2]


def test_summary_counts_every_game(small: Path) -> None:
    results = run_local(load_scenario(small), 6, seed=3)
    summary = summarize(results, ["blue", "red"])
    assert summary.games == 6
    assert summary.wins["blue"].count + summary.wins["red"].count + summary.draws.count == 6
    assert sum(summary.reasons.values()) == 6


@pytest.mark.parametrize(
    ("count", "total", "low", "high"),
    [
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_interval_matches_published_values(
    count: int, total: int, low: float, high: float
) -> None:
    share = Share(count, total)
    assert share.low == pytest.approx(low, abs=5e-5)
    assert share.high == pytest.approx(high, abs=5e-5)


def test_playtest_json(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["playtest", str(small), "--games", "5", "--seed", "2", "--json", "--detail"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 5 and len(report["results"]) == 5
    wins = sum(side["wins"] for side in report["sides"].values())
    assert wins + report["draws"]["count"] == 5
    for side in report["sides"].values():
        low, high = side["interval95"]
        assert low <= side["win_rate"] <= high


def test_playtest_on_a_dask_cluster_gives_the_same_games(small: Path) -> None:
    from dask import distributed  # in the dev extra: this test always runs

    from game.playtest.batch import run_cluster

    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        on_cluster = run_cluster(small, 4, seed=5, scheduler=cluster.scheduler_address)
    assert on_cluster == run_local(load_scenario(small), 4, seed=5)


def test_playtest_plays_open_rebellion(
    write_scenario: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_scenario(
        SMALL.replace('"infinity"', '"open-rebellion"')
        .replace("fusilier", "rifleman")
        .replace("zhanshi", "rifleman"),
        header=False,
    )
    assert main(["playtest", str(path), "--games", "2", "--json"]) == 0
    assert '"games": 2' in capsys.readouterr().out
