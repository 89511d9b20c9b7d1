"""The progress bar: games done of all, games per second and time left, advanced by
local and cluster runs alike."""

from __future__ import annotations

import io
import time
from pathlib import Path

from rich.console import Console
from rich.progress import Progress

from game.playtest.plan import choose_players
from game.playtest.progress import columns, progress_bar
from game.playtest.runner import Batch, Source, jobs_for, run_here, run_on
from game.scenario import load_scenario


def test_the_bar_shows_games_rate_and_time_left() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120, color_system=None)
    with Progress(*columns(), console=console, auto_refresh=False) as bar:
        task = bar.add_task("playing", total=40)
        bar.advance(task, 10)
        time.sleep(0.05)
        bar.advance(task, 10)
        bar.refresh()
    text = out.getvalue()
    assert "20/40 games" in text
    assert "games/s" in text and "-- games/s" not in text.splitlines()[-1]
    assert "left" in text


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
