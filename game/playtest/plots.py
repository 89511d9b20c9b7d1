"""The playtest's pictures, drawn with matplotlib's Agg backend into PNG bytes (no window,
no pyplot state): win rate with its interval as games accumulate, game length, models
lost per side, and where models were taken out and where the shots came from, over the
table's picture. Imported only by the commands that draw them."""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import LogNorm
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FormatStrFormatter, MaxNLocator, NullLocator

from game.playtest.batch import Share
from game.playtest.record import GameRecord

DPI = 100
SIZE = (960, 540)  # pixels of each chart
HEAT_HEIGHT = 560  # pixels of the heat map figure; its width follows the table
FALLBACK = ("#2f6fd6", "#d63a2f", "#2fa84f", "#c9a227")
DRAW = "#9a9a9a"
Names = Mapping[str, str] | None  # each side's name (the scenario's), by id


def _figure(width: int, height: int) -> Figure:
    figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    FigureCanvasAgg(figure)
    return figure


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()


def _colour(colours: Mapping[str, str], sides: Sequence[str], side: str) -> str:
    return colours.get(side) or FALLBACK[list(sides).index(side) % len(FALLBACK)]


def _called(names: Names, side: str) -> str:
    """A side as the legends call it: the scenario's name for it, else its id."""
    return (names or {}).get(side, side)


def win_rate(
    records: Sequence[GameRecord],
    sides: Sequence[str],
    colours: Mapping[str, str],
    names: Names = None,
) -> bytes:
    """Each side's win rate after 1, 2, ... n games, with its 95% Wilson band."""
    return _png(win_rate_figure(records, sides, colours, names))


def win_rate_figure(
    records: Sequence[GameRecord],
    sides: Sequence[str],
    colours: Mapping[str, str],
    names: Names = None,
) -> Figure:
    """The win-rate chart; games are counted in whole numbers on its x axis."""
    figure = _figure(*SIZE)
    axes = figure.add_subplot()
    n = np.arange(1, len(records) + 1)
    for side in sides:
        wins = np.cumsum([r.winner == side for r in records])
        shares = [Share(int(w), int(k)) for w, k in zip(wins, n, strict=True)]
        colour = _colour(colours, sides, side)
        axes.fill_between(
            n, [s.low for s in shares], [s.high for s in shares], color=colour, alpha=0.2
        )
        axes.plot(n, wins / n, color=colour, label=f"{_called(names, side)} {shares[-1].share:.0%}")
    if len(sides) == 2:
        axes.axhline(0.5, color="#555555", linewidth=0.8, linestyle="--")
    axes.set_ylim(0, 1)
    axes.set_xlim(1, max(2, len(records)))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("games played")
    axes.set_ylabel("win rate (95% interval)")
    axes.set_title("Win rate as games accumulate")
    axes.legend(loc="upper right")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    return figure


def game_length(
    records: Sequence[GameRecord],
    sides: Sequence[str],
    colours: Mapping[str, str],
    names: Names = None,
    turn_word: str = "turn",
) -> bytes:
    """Games by the turn they ended in (`turn_word`: what the rule system calls a turn),
    stacked by who won."""
    return _png(game_length_figure(records, sides, colours, names, turn_word))


def game_length_figure(
    records: Sequence[GameRecord],
    sides: Sequence[str],
    colours: Mapping[str, str],
    names: Names = None,
    turn_word: str = "turn",
) -> Figure:
    """The game-length chart: a bar only for who won some game (a draw only with draws),
    and room over the tallest bar."""
    figure = _figure(*SIZE)
    axes = figure.add_subplot()
    turns = sorted({r.turn for r in records}) or [1]
    bottom = np.zeros(len(turns))
    for who in [*sides, None]:
        counts = np.array([sum(1 for r in records if r.turn == t and r.winner == who)
                           for t in turns])  # fmt: skip
        if not counts.any():
            continue  # no game of it: not in the legend ("draw" with no draws)
        colour = DRAW if who is None else _colour(colours, sides, who)
        axes.bar(
            turns,
            counts,
            bottom=bottom,
            color=colour,
            width=0.7,
            label="draw" if who is None else _called(names, who),
        )
        bottom += counts
    axes.set_xticks(turns)
    axes.set_ylim(0, max(1.0, float(bottom.max())) * 1.1)  # room over the tallest bar
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(f"last {turn_word} played")
    axes.set_ylabel("games")
    axes.set_title("Game length, by winner")
    axes.legend()
    axes.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    return figure


def models_lost(
    records: Sequence[GameRecord],
    sides: Sequence[str],
    colours: Mapping[str, str],
    names: Names = None,
    model_word: str = "model",
) -> bytes:
    """How many games each side ended with 0, 1, 2... models lost in the game (those a
    table starts out of the fight not counted), a model called `model_word`."""
    figure = _figure(*SIZE)
    axes = figure.add_subplot()
    most = max((r.down.get(s, 0) for r in records for s in sides), default=0)
    xs = np.arange(most + 1)
    width = 0.8 / len(sides)
    for i, side in enumerate(sides):
        counts = [sum(1 for r in records if r.down.get(side, 0) == k) for k in xs]
        mean = sum(r.down.get(side, 0) for r in records) / max(1, len(records))
        offset = (i - (len(sides) - 1) / 2) * width
        colour = _colour(colours, sides, side)
        label = f"{_called(names, side)} (mean {mean:.2f})"
        axes.bar(xs + offset, counts, width=width, color=colour, label=label)
    axes.set_xticks(xs)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(f"{model_word}s lost in the game")
    axes.set_ylabel("games")
    axes.set_title(f"{model_word.capitalize()}s lost per side")
    axes.legend()
    axes.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    return _png(figure)


def _heat(points: list[tuple[float, float]], table: tuple[float, float]) -> np.ndarray[Any, Any]:
    """Counts in 1-inch squares centred on whole inches (where models are usually set
    down), rows from the top edge; empty squares masked. The squares span `heat_extent`."""
    width, depth = table
    bins = (math.floor(depth) + 1, math.floor(width) + 1)
    rows = [[-0.5, bins[0] - 0.5], [-0.5, bins[1] - 0.5]]
    if points:
        ys = [p[1] for p in points]
        xs = [p[0] for p in points]
        counts, _, _ = np.histogram2d(ys, xs, bins=bins, range=rows)
    else:
        counts = np.zeros(bins)
    return np.ma.masked_equal(counts, 0)


def heat_extent(table: tuple[float, float]) -> tuple[float, float, float, float]:
    width, depth = table
    return (-0.5, math.floor(width) + 0.5, math.floor(depth) + 0.5, -0.5)


def whole_ticks(top: float) -> list[int]:
    """The count bar's ticks on its log scale, in whole models: every count up to 5, then
    1, 2, 5, 10, 20, 50 ... up to `top`, and the top count where it stands clear of the
    last of those (matplotlib's own log ticks read "2 x 10^0" for counts of 1 to 3)."""
    most = math.floor(top)
    if most <= 5:
        return list(range(1, most + 1))
    ticks, decade = [], 1
    while decade <= most:
        ticks += [n * decade for n in (1, 2, 5) if n * decade <= most]
        decade *= 10
    return [*ticks, most] if most >= 1.2 * ticks[-1] else ticks


def heat_map(
    records: Sequence[GameRecord],
    table: tuple[float, float],
    background: np.ndarray[Any, Any] | None,
    model_word: str = "model",
) -> bytes:
    """Two views of the table: where models were taken out, and where the shots that
    took them out came from, counted per square inch over the table's picture."""
    return _png(heat_map_figure(records, table, background, model_word))


def heat_map_figure(
    records: Sequence[GameRecord],
    table: tuple[float, float],
    background: np.ndarray[Any, Any] | None,
    model_word: str = "model",
) -> Figure:
    """`heat_map`'s figure, a model called `model_word`."""
    width, depth = table
    panel = HEAT_HEIGHT * 0.8 * width / depth  # each table's width, its depth near 0.8 high
    figure = _figure(round(2 * panel + 300), HEAT_HEIGHT)
    taken = [c.at for r in records for c in r.casualties]
    origins = [c.origin for r in records for c in r.casualties if c.origin is not None]
    extent = (0.0, width, depth, 0.0)
    # a model lost to no shot (fled, or out by its own side's rules) has no origin
    unshot = len(taken) - len(origins)
    shots = f"{len(origins)}; {unshot} lost to no shot" if unshot else f"{len(origins)}"
    for i, (points, title, cmap) in enumerate(
        (
            (taken, f"Where {model_word}s were taken out ({len(taken)})", "plasma"),
            (origins, f"Where the shots came from ({shots})", "viridis"),
        )
    ):
        axes = figure.add_subplot(1, 2, i + 1)
        if background is not None:
            axes.imshow(background, extent=extent, interpolation="bilinear")
        heat = _heat(points, table)
        top = float(heat.max()) if np.ma.count(heat) else 1.0
        # A log scale: the few squares where many fall (models shot where they stand)
        # would otherwise leave every square with one or two in the dark.
        most = max(2.0, top)
        norm = LogNorm(vmin=1, vmax=most)
        image = axes.imshow(heat, extent=heat_extent(table), cmap=cmap, alpha=0.8,
                            interpolation="nearest",
                            norm=norm)  # fmt: skip
        said = f"{model_word}s (log scale)"
        bar = figure.colorbar(image, ax=axes, fraction=0.046, pad=0.03, label=said)
        bar.ax.yaxis.set_major_locator(FixedLocator(whole_ticks(most)))
        bar.ax.yaxis.set_major_formatter(FormatStrFormatter("%d"))
        bar.ax.yaxis.set_minor_locator(NullLocator())
        axes.set_xlim(0, width)
        axes.set_ylim(depth, 0)
        axes.set_title(title)
        axes.set_xlabel("inches")
    figure.tight_layout()
    return figure


def all_plots(
    records: Sequence[GameRecord],
    sides: Sequence[str],
    table: tuple[float, float],
    background: np.ndarray[Any, Any] | None,
    colours: Mapping[str, str],
    names: Names = None,
    turn_word: str = "turn",
    model_word: str = "model",
) -> dict[str, bytes]:
    """Every chart, by the name of its file; the legends call the sides by `names`, the
    game length a turn by the rule system's `turn_word`, a model its `model_word`."""
    return {
        "win-rate": win_rate(records, sides, colours, names),
        "game-length": game_length(records, sides, colours, names, turn_word),
        "models-lost": models_lost(records, sides, colours, names, model_word),
        "heat-map": heat_map(records, table, background, model_word),
    }
