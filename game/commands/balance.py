"""`skirmish balance SCENARIO --vary PARAM ...`: playtests over small changes, and which
of them balance the scenario."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from game.commands._args import (
    MAX_GAMES,
    TEMPERAMENT_CHOICES,
    connect_timeout_option,
    number_between,
    scenario_argument,
    scheduler_wait,
    seed_option,
    think_option,
)
from game.errors import InputError, Problem
from game.paths import as_typed

if TYPE_CHECKING:
    from game.scenario import Scenario

VARY_HELP = (
    "A change to try, as PARAM=VALUES (each value one change): turns=2,4; "
    "shift:SIDE:x=-2,2 (or :y, inches); remove=MODEL,MODEL; profile:MODEL=NAME,NAME; "
    "points:OBJECTIVE=1,3. Give --vary as often as you like."
)

GAMES_HELP = "Games per change (and for the scenario as it is)."
SEED_HELP = "Seed of every batch: each change plays the same seeds."
SIDE_HELP = "The side whose share of decided games is judged (default: the first)."
TARGET_HELP = "The share sought, in percent."
TOLERANCE_HELP = "How far from the target still counts as balanced, in points."
SWAP_HELP = "Sides' players exchanged per seed, as for playtest."


def balance(
    scenario: Annotated[Path, scenario_argument()],
    vary: Annotated[list[str], typer.Option("--vary", help=VARY_HELP)],
    games: Annotated[int, typer.Option("--games", min=1, max=MAX_GAMES, help=GAMES_HELP)] = 100,
    seed: Annotated[int, seed_option(SEED_HELP)] = 1,
    side: Annotated[str | None, typer.Option("--side", help=SIDE_HELP)] = None,
    target: Annotated[
        float,
        typer.Option("--target", help=TARGET_HELP, callback=number_between(0, 100, "percent")),
    ] = 50.0,
    tolerance: Annotated[
        float,
        typer.Option("--tolerance", help=TOLERANCE_HELP, callback=number_between(0, 100, "points")),
    ] = 5.0,
    ai: Annotated[
        str | None, typer.Option("--ai", help="The automatic player(s), as for playtest.")
    ] = None,
    temperament: Annotated[
        str | None,
        typer.Option("--temperament", help=f"The players' weight set: {TEMPERAMENT_CHOICES}."),
    ] = None,
    think: Annotated[float | None, think_option("Seconds per declaration.")] = None,
    swap: Annotated[bool | None, typer.Option("--swap/--no-swap", help=SWAP_HELP)] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Processes here.")] = 1,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="A Dask scheduler (tcp://HOST:PORT).")
    ] = None,
    connect_timeout: Annotated[float | None, connect_timeout_option()] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Play the scenario as it is and with each change (the same seeds for all), and say
    which changes bring a side's share of the decided games within the target."""
    from game.playtest.balance import candidates, judge
    from game.playtest.plan import Where, choose_players, play_batches, playable, swap_default
    from game.playtest.players import describe
    from game.playtest.runner import Batch, jobs_for, rounded_up
    from game.playtest.variants import VaryError, parse_vary
    from game.scenario.load import read_toml

    wait = scheduler_wait(scheduler, connect_timeout)
    loaded = playable(scenario, workers)
    sides = [s.id for s in loaded.sides]
    judged = side or sides[0]
    if judged not in sides:
        raise InputError(
            Problem("<command line>", "--side", f"no side {judged!r} (sides: {', '.join(sides)})")
        )
    data, _ = read_toml(scenario)
    changes, notes = [], []
    unscored = loaded.ruleset.unscored(len(loaded.objectives))
    for text in vary:
        try:
            said: list[str] = []
            changes += parse_vary(text, data, list(loaded.profiles), unscored, said)
        except VaryError as err:
            raise InputError(Problem("<command line>", f"--vary {text}", str(err))) from None
        notes += [f"balance --vary {text}: {note}" for note in said]
    choice = choose_players(loaded, ai, {"temperament": temperament, "think": think})
    swapping = swap_default(choice, swap)
    found = candidates(scenario, data, changes)
    jobs = jobs_for(seed, games, swapping)
    for note in notes:  # before any game: a value left out of what --vary asked
        typer.echo(note, err=True)
    if rounded_up(games, swapping):  # before any game: the count differs from --games
        typer.echo(rounded_up(games, swapping), err=True)
    where = Where(workers, scheduler, wait)
    sources = [c.source for c in found if c.source is not None]
    played = play_batches(
        sources,
        jobs,
        Batch(choice, tuple(sides)),
        where,
        False if as_json else None,
        "balancing",
        setups={sources[0]: loaded},
    )
    results = iter(played)
    rows = [
        judge(c, next(results) if c.source else [], sides, judged, target / 100, tolerance / 100)
        for c in found
    ]
    document: dict[str, Any] = {
        "scenario": as_typed(scenario),
        "ruleset": loaded.ruleset.name,
        "side": judged,
        "target": target / 100,
        "tolerance": tolerance / 100,
        "games": len(jobs),
        "seed": seed,
        "swap": swapping,
        "ai": describe(choice),
        "scheduler": scheduler,
        "baseline": rows[0],
        "changes": rows[1:],
        "balanced": [r["change"] for r in rows[1:] if r.get("within")],
    }
    if as_json:
        typer.echo(json.dumps(document, indent=1))
        return
    _print(document, loaded)


def _print(document: dict[str, Any], loaded: Scenario) -> None:
    from rich.table import Table

    from game.commands._console import for_people
    from game.playtest.summary import side_called
    from game.scenario.names import places_named, told_names
    from game.sequencer.sentences import names_of, plural
    from game.words import joined

    names = names_of(loaded)
    told = change_names(loaded)
    name = loaded.header.name
    side = side_called(document["side"], names)
    target, tolerance = document["target"], document["tolerance"]
    table = Table(
        title=f"{name}: the share of decided games {side} won, target {target:.0%} ± "
        f"{tolerance:.0%}, {plural(document['games'], 'game')} each"
    )
    for column, justify in (("change", "left"), ("share [95% interval]", "right"),
                            ("wins / decided", "right"), ("draws", "right"),
                            ("balanced?", "left")):  # fmt: skip
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    rows = [document["baseline"], *sorted(
        document["changes"], key=lambda r: (r["refused"] is not None, r.get("off_by") or 0)
    )]  # fmt: skip
    for row in rows:
        if row["refused"] is not None:
            refused = places_named(row["refused"], told_names(loaded))
            table.add_row(told(row["change"]), "", "", "", f"refused: {refused}")
            continue
        low, high = row["interval95"]
        verdict = "surely" if row["surely_within"] else "yes" if row["within"] else "no"
        table.add_row(told(row["change"]), f"{row['share']:.0%} [{low:.0%}, {high:.0%}]",
                      f"{row['wins']} / {row['decided']}", str(row["draws"]), verdict)  # fmt: skip
    console = for_people()
    console.print(table)
    swapped = " (sides swapped per seed)" if document["swap"] else ""
    players = joined([f"{p} for {side_called(s, names)}" for s, p in document["ai"].items()])
    console.print(f"players: {players}{swapped}")
    if document["balanced"]:
        console.print("Within the target: " + "; ".join(map(told, document["balanced"])) + ".")
    else:
        console.print("No change tried brings the win rate within the target.")


def change_names(loaded: Scenario) -> Callable[[str], str]:
    """A change as people read it: its models, sides, profiles and objectives by name,
    each id in its own place (`label_named`: "Guilang 1 as Zhanshi HMG", "Fusilier 1
    removed"; --json keeps the ids, a contract), a turn limit in the system's word
    ("round limit 2")."""
    from game.playtest.variants import label_named
    from game.sequencer.sentences import limit_said, names_of, profile_called, readable

    ids = names_of(loaded)
    names = {
        "model": ids,
        "side": ids,
        "profile": {p: profile_called(p, loaded.profiles) for p in loaded.profiles},
        "objective": {o.id: o.label or readable(o.id) for o in loaded.objectives},
    }
    turn = loaded.ruleset.turn_word
    return lambda change: label_named(limit_said(change, turn), names)


def register(app: typer.Typer) -> None:
    app.command("balance")(balance)
