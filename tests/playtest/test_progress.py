"""The progress bar: games done of all, games per second and time left, advanced by
local and cluster runs alike."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from rich.progress import Progress

from game.playtest.plan import choose_players
from game.playtest.progress import SETTLE_SECONDS, columns, progress_bar, rate
from game.playtest.runner import Batch, Source, jobs_for, run_here, run_on
from game.scenario import load_scenario


def test_the_bar_shows_games_rate_and_time_left() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120, color_system=None)
    now = [100.0]
    with Progress(*columns(), console=console, auto_refresh=False, get_time=lambda: now[0]) as bar:
        task = bar.add_task("playing", total=40)
        now[0] += 0.004  # two workers' first games finish together: no rate yet
        bar.advance(task, 2)
        bar.refresh()
        early = out.getvalue().splitlines()[-1]
        now[0] += 3.996  # 20 games in 4 s since the batch started
        bar.advance(task, 18)
        bar.refresh()
    text = out.getvalue()
    assert "-- games/s" in early and "games/s" in early
    last = [line for line in text.splitlines() if "20/40" in line][-1]
    assert "20/40 games" in last
    assert "5.0 games/s" in last
    assert "0:00:04 left" in last  # 20 more at 5 a second


def test_the_rate_waits_for_the_batch_to_settle() -> None:
    # The tester's first reading with --workers 2: 2 games over 52 microseconds.
    assert rate(2, 52e-6) is None
    assert rate(0, 5.0) is None
    assert rate(3, None) is None
    assert rate(2, SETTLE_SECONDS) == 2 / SETTLE_SECONDS
    assert rate(30, 12.0) == 2.5


def test_no_bar_when_not_asked() -> None:
    with progress_bar(10, show=False) as tick:
        assert tick is None


def test_local_and_cluster_runs_count_every_game(small: Path) -> None:
    from dask import distributed

    setup = load_scenario(small)
    batch = Batch(choose_players(setup, "simple", {}), ("blue", "red"))
    jobs = jobs_for(2, 3, swap=False)
    sources = [Source.of(small)]
    ticks: list[int] = []
    run_here(sources * 2, jobs, batch, workers=1, progress=ticks.append)
    assert sum(ticks) == 6
    ticks.clear()
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        run_on(client, sources, jobs, batch, progress=ticks.append)
    assert sum(ticks) == 3


def test_without_a_terminal_one_line_says_what_is_under_way(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A batch with standard error in a log or a pipe said nothing until it was done."""
    with progress_bar(12, "playing") as tick:  # pytest's stderr is no terminal
        assert tick is None
    err = capsys.readouterr().err
    assert err == "playing 12 games (no progress bar: standard error is not a terminal)\n"
    with progress_bar(12, show=False):
        pass
    assert capsys.readouterr().err == ""
