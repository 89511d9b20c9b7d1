"""A batch as the commands ask for it: players chosen by name with their options, the
sides swapped per seed or not, played here or on a cluster behind the progress bar.

Shared by `skirmish playtest` and `skirmish balance`; bad choices are bad input (one
line naming the option, exit 2)."""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.errors import IllegalDeclaration, InputError, Problem
from game.playtest.players import Choice, PlayerError, make_choice, parse_ai, players_differ
from game.playtest.progress import progress_bar
from game.playtest.record import GameRecord, Job
from game.playtest.runner import Batch, Source, run_here, run_on
from game.sequencer.sentences import names_of
from game.sequencer.setup import Setup

if TYPE_CHECKING:
    from game.scenario import Scenario

COMMAND_LINE = "<command line>"
DEFAULT_AI = "simple"  # the batch's player for a side whose [[side]] names none: the fast one
SAME_PLAYER = (
    "needs different players on the two sides: with the same player a swapped game repeats its twin"
)


@dataclass(frozen=True, slots=True)
class Where:
    """Where the games are played: `workers` processes here, or the Dask scheduler at
    `scheduler` (reached within `connect_timeout` seconds)."""

    workers: int = 1
    scheduler: str | None = None
    connect_timeout: float = 10.0


def playable(scenario: Path, workers: int = 1) -> Scenario:
    """The scenario at `scenario`, checked, of a rule system the sequencer plays, with a
    sensible number of local workers asked for."""
    from game.scenario import load_scenario
    from game.sequencer.game import engine_for

    if workers > (os.cpu_count() or 1) * 4:
        raise InputError(
            Problem(COMMAND_LINE, "--workers", f"{workers} is far more than the cores")
        )
    loaded = load_scenario(scenario)
    if loaded.unplayable:  # each at its own line (a side with no models: its [[side]])
        raise InputError(list(loaded.unplayable))
    try:
        engine_for(loaded)
    except IllegalDeclaration as err:
        raise InputError(Problem(str(scenario), "[scenario] ruleset", str(err))) from None
    return loaded


def choose_players(
    setup: Setup,
    ai: str | None,
    options: Mapping[str, Any],
    default: str = DEFAULT_AI,
    only: Collection[str] | None = None,
) -> Choice:
    """`--ai` and the players' options as a choice for each side of `setup`. A side
    `--ai` does not name plays the automatic player its [[side]] names (`player =
    "search"`), and `default` when it names none ("human" or "ai"); a side's
    `temperament` is used unless `--temperament` is given, by a player that takes one.
    `only`: the sides automatic players play (the window's computer sides); the
    options are checked against those sides' players alone."""
    sides = [s.id for s in setup.sides]
    known = list(setup.ruleset.players)
    try:
        names = {s.id: s.player if s.player in known else default for s in setup.sides}
        if ai is not None:
            names |= parse_ai(ai, sides, known, names_of(setup))
        if only is not None:
            names = {side: name for side, name in names.items() if side in only}
        own = {s.id: {"temperament": getattr(s, "temperament", None)} for s in setup.sides}
        return make_choice(setup.ruleset, names, options, own)
    except PlayerError as err:
        option = str(err).split(":")[0] if str(err).startswith("--") else "--ai"
        message = str(err).removeprefix(f"{option}: ")
        raise InputError(Problem(COMMAND_LINE, option, message)) from None


def swap_default(choice: Choice, swap: bool | None) -> bool:
    """`--swap` / `--no-swap` as given; otherwise swap when the sides' players differ,
    the only case where exchanging them can change a game (the players choose from the
    state alone, the dice come from the seed). `--swap` with the same player on both
    sides is refused: each swapped game would repeat its twin and be counted twice."""
    if swap and not players_differ(choice):
        raise InputError(Problem(COMMAND_LINE, "--swap", SAME_PLAYER))
    return players_differ(choice) if swap is None else swap


def play_batches(
    sources: Sequence[Source],
    jobs: Sequence[Job],
    batch: Batch,
    where: Where,
    show_progress: bool | None = None,
    description: str = "playing",
    setups: Mapping[Source, Setup] | None = None,
) -> list[list[GameRecord]]:
    """Play the jobs on each scenario here or on the cluster, behind one progress bar;
    one list of records per scenario."""
    total = len(jobs) * len(sources)
    if where.scheduler is None:
        with progress_bar(total, description, show_progress) as tick:
            return run_here(sources, jobs, batch, where.workers, tick, setups)
    from game.playtest.cluster import ClusterError, connect

    # the bar (or the line in its place) once the cluster has answered: a bad address
    # is the one line of bad input
    try:
        with (
            connect(where.scheduler, where.connect_timeout) as client,
            progress_bar(total, description, show_progress) as tick,
        ):
            return run_on(client, sources, jobs, batch, tick)
    except ClusterError as err:
        raise InputError(Problem(COMMAND_LINE, "--scheduler", str(err))) from None
