"""The progress bar of a batch, here or on a cluster: games done of all, games per
second and time left (rich, on standard error, only when it is a terminal)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
)
from rich.text import Text

from game.sequencer.sentences import plural

# Below this many seconds since the batch started the rate is not shown: games played
# by several workers finish together, and a few of them over a few milliseconds read as
# tens of thousands of games per second.
SETTLE_SECONDS = 1.0


def rate(done: float, elapsed: float | None) -> float | None:
    """Games per second: `done` games over the `elapsed` seconds since the batch
    started; None before a game is done or before SETTLE_SECONDS have passed."""
    if elapsed is None or elapsed < SETTLE_SECONDS or done <= 0:
        return None
    return done / elapsed


class RateColumn(ProgressColumn):
    """Games per second since the batch started."""

    def render(self, task: Task) -> Text:
        speed = rate(task.completed, task.elapsed)
        return Text("-- games/s" if speed is None else f"{speed:.1f} games/s")


class LeftColumn(ProgressColumn):
    """Time left at the rate so far."""

    def render(self, task: Task) -> Text:
        speed = rate(task.completed, task.elapsed)
        if speed is None or task.total is None:
            return Text("-:--:--")
        seconds = round(max(task.total - task.completed, 0) / speed)
        return Text(f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}")


def columns() -> tuple[ProgressColumn, ...]:
    return (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        RateColumn(),
        LeftColumn(),
        TextColumn("left"),
    )


@contextlib.contextmanager
def progress_bar(
    total: int, description: str = "playing", show: bool | None = None
) -> Iterator[Callable[[int], None] | None]:
    """A callback `tick(n)` that advances the bar by `n` games, or None when the bar is
    not shown (`show` False; or standard error is not a terminal, said in one line)."""
    if show is None:
        show = sys.stderr.isatty()
        if not show:  # a log or a pipe: one line saying what is under way, in place of the bar
            print(
                f"{description} {plural(total, 'game')} (no progress bar: standard error is "
                "not a terminal)",
                file=sys.stderr,
                flush=True,
            )
    if not show:
        yield None
        return
    from rich.console import Console

    with Progress(*columns(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)

        def tick(n: int) -> None:
            bar.advance(task, n)

        yield tick
