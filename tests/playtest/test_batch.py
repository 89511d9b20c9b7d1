"""Playtesting: reproducible batches whatever the workers, and honest intervals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main
from game.playtest.batch import Share, play_one, seeds_for, summarize
from game.playtest.plan import choose_players
from game.playtest.record import Job
from game.playtest.runner import Batch, Source, jobs_for, run_here, run_on
from game.scenario import load_scenario
from tests.playtest.conftest import SMALL, Write


def _batch(path: Path) -> Batch:
    return Batch(choose_players(load_scenario(path), "simple", {}), ("blue", "red"))


def test_results_do_not_depend_on_the_number_of_workers(small: Path) -> None:
    source, batch = Source.of(small), _batch(small)
    [one] = run_here([source], jobs_for(5, 8, swap=False), batch, workers=1)
    [two] = run_here([source], jobs_for(5, 8, swap=False), batch, workers=2)
    assert one == two
    assert [r.index for r in one] == list(range(8))
    assert len({r.seed for r in one}) == 8  # every game its own seed
    assert run_here([source], jobs_for(6, 8, swap=False), batch)[0] != one


def test_any_game_replays_alone_from_its_seed(small: Path) -> None:
    setup, batch = load_scenario(small), _batch(small)
    [records] = run_here([Source.of(small)], jobs_for(9, 4, swap=False), batch)
    index, seed = seeds_for(9, 4)[2]
    assert batch.play(setup, Job(index, seed)) == records[2]
    alone = play_one(setup, index, seed)  # the plain result agrees with the record
    assert (alone.winner, alone.reason, alone.turn, alone.down) == (
        records[2].winner,
        records[2].reason,
        records[2].turn,
        records[2].down,
    )


def test_summary_counts_every_game(small: Path) -> None:
    [records] = run_here([Source.of(small)], jobs_for(3, 6, swap=False), _batch(small))
    summary = summarize(records, ["blue", "red"])
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
    from dask import distributed  # in the test extra: this test always runs

    source, batch, jobs = Source.of(small), _batch(small), jobs_for(5, 4, swap=False)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_cluster = run_on(client, [source], jobs, batch)
    assert on_cluster == run_here([source], jobs, batch)


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
