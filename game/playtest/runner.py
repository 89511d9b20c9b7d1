"""Running a batch of recorded games here (one process or several) or on a Dask cluster.

A batch is its scenario, its jobs (index, seed, sides swapped or not) and the players'
choice; every game is played from its own seed whatever the workers, so the records do
not depend on where they were played. Workers get the scenario's text rather than its
path, so a cluster's machines need no shared folder and a changed scenario (a balance
search's variant) needs no file of its own."""

from __future__ import annotations

import hashlib
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.playtest.batch import chunked, seeds_for
from game.playtest.players import Choice, swapped
from game.playtest.record import GameRecord, Job, play_recorded
from game.sequencer.setup import Setup

Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class Source:
    """A scenario as workers receive it: its file name (for messages) and its text."""

    name: str
    text: str

    @classmethod
    def of(cls, path: Path) -> Source:
        return cls(path.name, path.read_text(encoding="utf-8"))


@dataclass(frozen=True, slots=True)
class Batch:
    """What every game of a batch shares: the players and how many saves to keep."""

    choice: Choice
    sides: tuple[str, ...]
    keep_saves: int = 0

    def play(self, setup: Setup, job: Job) -> GameRecord:
        choice = swapped(self.choice, list(self.sides)) if job.swapped else self.choice
        return play_recorded(setup, job, choice, keep_save=job.index < self.keep_saves)


def jobs_for(seed: int, games: int, swap: bool) -> list[Job]:
    """`games` games from child seeds of `seed`; with `swap`, each seed twice in a row,
    the second time with the players exchanged (so `games` is rounded up to even)."""
    if not swap:
        return [Job(i, s) for i, s in seeds_for(seed, games)]
    seeds = seeds_for(seed, (games + 1) // 2)
    return [Job(2 * i + k, s, bool(k)) for i, s in seeds for k in (0, 1)]


def rounded_up(games: int, swap: bool) -> str:
    """Where `jobs_for` plays more games than asked (sides swapped, an odd number), the
    line that says so and why; "" otherwise."""
    if not swap or games % 2 == 0:
        return ""
    return (
        f"--games {games} with the sides swapped: {games + 1} games, each of "
        f"{(games + 1) // 2} seeds played once each way round"
    )


_SETUPS: dict[str, Setup] = {}
_FOLDER: list[Path] = []
_SETUP_LOCK = threading.Lock()


def setup_of(source: Source) -> Setup:
    """The scenario of `source`, loaded once per process from a file of its own."""
    from game.scenario import load_scenario

    key = hashlib.sha256(source.text.encode("utf-8")).hexdigest()
    # A cluster's worker may run chunks in threads of one process: one of them writes and
    # reads the file while the others wait (one read a file another had just emptied).
    with _SETUP_LOCK:
        if key not in _SETUPS:
            if not _FOLDER:
                _FOLDER.append(Path(tempfile.mkdtemp(prefix="skirmish-batch-")))
            path = _FOLDER[0] / key[:16] / source.name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(source.text, encoding="utf-8")
            _SETUPS[key] = load_scenario(path)
        return _SETUPS[key]


def play_chunk(source: Source, batch: Batch, chunk: Sequence[Job]) -> list[GameRecord]:
    """A chunk of games in a worker (a local process or a cluster's)."""
    setup = setup_of(source)
    return [batch.play(setup, job) for job in chunk]


def run_here(
    sources: Sequence[Source],
    jobs: Sequence[Job],
    batch: Batch,
    workers: int = 1,
    progress: Progress | None = None,
    setups: Mapping[Source, Setup] | None = None,
) -> list[list[GameRecord]]:
    """Play the jobs on each scenario here: in this process (with the loaded `setups`
    where given), or in `workers` processes. One list of records per source."""
    records: list[list[GameRecord]] = [[] for _ in sources]
    if workers <= 1:
        for i, source in enumerate(sources):
            setup = (setups or {}).get(source) or setup_of(source)
            for job in jobs:
                records[i].append(batch.play(setup, job))
                if progress:
                    progress(1)
        return records
    size = max(1, min(20, len(jobs) * len(sources) // (workers * 4)))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [
            (i, pool.submit(play_chunk, source, batch, chunk))
            for i, source in enumerate(sources)
            for chunk in chunked(list(jobs), size)
        ]
        for i, future in futures:
            done = future.result()
            records[i].extend(done)
            if progress:
                progress(len(done))
    return [sorted(r, key=lambda g: g.index) for r in records]


def run_on(
    client: Any,
    sources: Sequence[Source],
    jobs: Sequence[Job],
    batch: Batch,
    progress: Progress | None = None,
) -> list[list[GameRecord]]:
    """Play the jobs on each scenario on the cluster behind a connected
    `distributed.Client`. One list of records per source."""
    from dask.distributed import as_completed

    size = max(1, min(10, len(jobs) * len(sources) // 16))
    which: dict[Any, int] = {}
    for i, source in enumerate(sources):
        scattered = client.scatter(source, broadcast=True)
        for chunk in chunked(list(jobs), size):
            which[client.submit(play_chunk, scattered, batch, chunk, pure=False)] = i
    records: list[list[GameRecord]] = [[] for _ in sources]
    for future in as_completed(list(which)):  # type: ignore[no-untyped-call]
        done = future.result()
        records[which[future]].extend(done)
        if progress:
            progress(len(done))
    return [sorted(r, key=lambda g: g.index) for r in records]
