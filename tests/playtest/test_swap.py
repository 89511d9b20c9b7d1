"""--swap: every seed played twice with the sides' players exchanged, and the same games
whatever plays them: one process, two, or a Dask cluster."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main
from game.errors import InputError
from game.playtest.plan import choose_players, swap_default
from game.playtest.players import swapped
from game.playtest.runner import Batch, Source, jobs_for, run_here, run_on
from game.scenario import load_scenario


def test_jobs_play_each_seed_twice_in_a_row() -> None:
    jobs = jobs_for(3, 6, swap=True)
    assert [j.index for j in jobs] == list(range(6))
    assert [j.swapped for j in jobs] == [False, True] * 3
    assert [j.seed for j in jobs[::2]] == [j.seed for j in jobs[1::2]]
    assert len({j.seed for j in jobs}) == 3
    assert len(jobs_for(3, 5, swap=True)) == 6  # rounded up to whole pairs
    # the seeds are those of an unswapped batch of as many games as seeds
    assert [j.seed for j in jobs[::2]] == [j.seed for j in jobs_for(3, 3, swap=False)]


def test_swapped_choice_exchanges_the_players() -> None:
    choice = {"blue": ("careful", ()), "red": ("simple", ())}
    assert swapped(choice, ["blue", "red"]) == {
        "blue": ("simple", ()),
        "red": ("careful", ()),
    }
    assert swapped(swapped(choice, ["blue", "red"]), ["blue", "red"]) == choice


def test_swap_is_the_default_only_when_the_players_differ(small: Path) -> None:
    setup = load_scenario(small)
    assert swap_default(choose_players(setup, "blue=careful,red=simple", {}), None)
    assert not swap_default(choose_players(setup, "careful", {}), None)
    assert swap_default(choose_players(setup, "blue=simple,red=careful", {}), True)
    assert not swap_default(choose_players(setup, "red=careful,blue=simple", {}), False)


@pytest.fixture(scope="module")
def pairs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Batch, list]:  # type: ignore[type-arg]
    from tests.playtest.conftest import SMALL

    path = tmp_path_factory.mktemp("swap") / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    setup = load_scenario(path)
    choice = choose_players(setup, "blue=careful,red=simple", {})
    batch = Batch(choice, ("blue", "red"))
    jobs = jobs_for(11, 4, swap=True)
    return path, batch, run_here([Source.of(path)], jobs, batch, workers=1)[0]


def test_each_seed_is_played_with_the_players_exchanged(pairs: tuple) -> None:  # type: ignore[type-arg]
    _, _, records = pairs
    assert len(records) == 4
    for first, second in zip(records[::2], records[1::2], strict=True):
        assert first.seed == second.seed
        assert (first.swapped, second.swapped) == (False, True)
        assert first.players == {"blue": "careful", "red": "simple"}
        assert second.players == {"blue": "simple", "red": "careful"}


def test_swapped_games_are_the_same_for_any_worker_count(pairs: tuple) -> None:  # type: ignore[type-arg]
    path, batch, records = pairs
    jobs = jobs_for(11, 4, swap=True)
    assert run_here([Source.of(path)], jobs, batch, workers=2) == [records]


def test_swapped_games_are_the_same_on_a_dask_cluster(pairs: tuple) -> None:  # type: ignore[type-arg]
    from dask import distributed

    path, batch, records = pairs
    jobs = jobs_for(11, 4, swap=True)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert run_on(client, [Source.of(path)], jobs, batch) == [records]


def test_playtest_reports_the_swap_and_each_player(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["playtest", str(small), "--games", "4", "--seed", "11", "--json", "--detail"]
    assert main([*argv, "--ai", "blue=careful,red=simple"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["swap"] is True and report["games"] == 4 and report["seeds"] == 2
    assert [g["swapped"] for g in report["results"]] == [False, True, False, True]
    decided = [g for g in report["results"] if g["winner"] is not None]
    assert sum(p["decided_games"] for p in report["players"].values()) == 2 * len(decided)
    assert sum(p["wins"] for p in report["players"].values()) == len(decided)
    assert any("player" in sentence for sentence in report["verdict"])
    assert main([*argv, "--ai", "simple"]) == 0
    same = json.loads(capsys.readouterr().out)
    assert same["swap"] is False and same["players"] == {}


def test_swap_with_the_same_player_on_both_sides_is_refused(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Each swapped game would repeat its twin (same seed, same player): counting both
    # would narrow the intervals with no new information.
    for command in (["playtest"], ["balance", "--vary", "turns=1"]):
        argv = [command[0], str(small), *command[1:], "--games", "2", "--swap", "--ai", "careful"]
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err == [
            f"skirmish: <command line>: {command[0]} --swap: needs different players on the "
            "two sides: with the same player a swapped game repeats its twin; "
            f"see skirmish {command[0]} --help"
        ]
    with pytest.raises(InputError):
        swap_default(choose_players(load_scenario(small), "simple", {}), True)


def test_an_odd_number_of_swapped_games_says_why_one_more_is_played(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """tester13: `playtest --games 5` with the sides swapped played 6 games without
    saying why. It says so on standard error before any game (playtest and balance)."""
    said = "--games 3 with the sides swapped: 4 games, each of 2 seeds played once each way round"
    for command in (["playtest"], ["balance", "--vary", "turns=1"]):
        argv = [command[0], str(small), *command[1:], "--games", "3", "--json"]
        assert main([*argv, "--ai", "blue=careful,red=simple"]) == 0
        out, err = capsys.readouterr()
        assert err.splitlines()[0] == said
        assert json.loads(out)["games"] == 4
    assert (
        main(["playtest", str(small), "--games", "4", "--json", "--ai", "blue=careful,red=simple"])
        == 0
    )
    assert "swapped" not in capsys.readouterr().err  # an even number: played as asked
