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
    TimeRemainingColumn,
)
from rich.text import Text


class RateColumn(ProgressColumn):
    """Games per second so far."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if speed is None else f"{speed:.1f} games/s")


def columns() -> tuple[ProgressColumn, ...]:
    return (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        RateColumn(),
        TimeRemainingColumn(),
        TextColumn("left"),
    )


@contextlib.contextmanager
def progress_bar(
    total: int, description: str = "playing", show: bool | None = None
) -> Iterator[Callable[[int], None] | None]:
    """A callback `tick(n)` that advances the bar by `n` games, or None when the bar is
    not shown (not a terminal, or `show` False)."""
    if show is None:
        show = sys.stderr.isatty()
    if not show:
        yield None
        return
    from rich.console import Console

    with Progress(*columns(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)

        def tick(n: int) -> None:
            bar.advance(task, n)

        yield tick
