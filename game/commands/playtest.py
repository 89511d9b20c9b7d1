"""`skirmish playtest SCENARIO --games N`: batch games between automatic players."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from game.commands._args import scenario_argument
from game.errors import IllegalDeclaration, InputError, Problem
from game.scenario import load_scenario


def playtest(
    scenario: Annotated[Path, scenario_argument()],
    games: Annotated[int, typer.Option("--games", min=1, help="How many games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the whole batch.")] = 1,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="Processes on this machine.")
    ] = 1,
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", help="Address of a Dask scheduler to run the games on."),
    ] = None,
    detail: Annotated[
        bool, typer.Option("--detail", help="With --json: every game's seed and result.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
    ai: Annotated[
        str,
        typer.Option(
            "--ai",
            help="simple: fast (default); careful: weighs expected damage against risk "
            "with the exact odds (slower).",
        ),
    ] = "simple",
) -> None:
    """Play many games between the automatic players; print win rates with 95% intervals.

    Game i plays with its own seed, child i of --seed, so the figures do not depend on
    --workers and any game can be replayed alone."""
    from game.playtest.batch import run_cluster, run_local, summarize
    from game.sequencer.game import engine_for

    if ai not in ("simple", "careful"):
        raise InputError(
            Problem("<command line>", "--ai", f"expected simple or careful, got {ai!r}")
        )
    loaded = load_scenario(scenario)
    try:
        engine_for(loaded)
    except IllegalDeclaration as err:
        raise InputError(Problem(str(scenario), "[scenario] ruleset", str(err))) from None
    if workers > (os.cpu_count() or 1) * 4:
        raise InputError(
            Problem("<command line>", "--workers", f"{workers} is far more than the cores")
        )
    show = not as_json and sys.stderr.isatty()
    start = time.perf_counter()
    if show:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task("playing", total=games)

            def tick(n: int) -> None:
                bar.advance(task, n)

            results = (
                run_cluster(scenario, games, seed, scheduler, tick, ai)
                if scheduler
                else run_local(loaded, games, seed, workers, tick, ai)
            )
    elif scheduler:
        results = run_cluster(scenario, games, seed, scheduler, policy=ai)
    else:
        results = run_local(loaded, games, seed, workers, policy=ai)
    seconds = time.perf_counter() - start
    sides = [s.id for s in loaded.sides]
    summary = summarize(results, sides)
    report: dict[str, Any] = {
        "scenario": str(scenario),
        "ruleset": loaded.ruleset.name,
        "games": summary.games,
        "seed": seed,
        "workers": workers if not scheduler else None,
        "ai": ai,
        "scheduler": scheduler,
        "seconds": round(seconds, 3),
        "games_per_second": round(summary.games / seconds, 2) if seconds else None,
        "sides": {
            s: {
                "wins": summary.wins[s].count,
                "win_rate": summary.wins[s].share,
                "interval95": [summary.wins[s].low, summary.wins[s].high],
                "mean_down": summary.mean_down[s],
            }
            for s in sides
        },
        "draws": {"count": summary.draws.count, "rate": summary.draws.share},
        "mean_turn": summary.mean_turn,
        "reasons": summary.reasons,
    }
    if detail:
        report["results"] = [
            {"game": r.index, "seed": r.seed, "winner": r.winner, "reason": r.reason,
             "turn": r.turn, "declarations": r.declarations, "down": r.down}
            for r in results
        ]  # fmt: skip
    if as_json:
        typer.echo(json.dumps(report, indent=1))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{loaded.header.name}: {summary.games} games, seed {seed}")
    table.add_column("side")
    table.add_column("wins", justify="right")
    table.add_column("win rate [95% interval]", justify="right")
    table.add_column("models down (mean)", justify="right")
    for s in sides:
        w = summary.wins[s]
        table.add_row(s, str(w.count), f"{w.share:.1%} [{w.low:.1%}, {w.high:.1%}]",
                      f"{summary.mean_down[s]:.2f}")  # fmt: skip
    table.add_row("draw", str(summary.draws.count), f"{summary.draws.share:.1%}", "")
    console = Console()
    console.print(table)
    console.print(f"mean last turn {summary.mean_turn:.2f}; how games ended: "
                  + ", ".join(f"{k} ({v})" for k, v in summary.reasons.items()))  # fmt: skip
    console.print(f"{seconds:.1f} s, {summary.games / seconds:.1f} games per second")


def register(app: typer.Typer) -> None:
    app.command("playtest")(playtest)
