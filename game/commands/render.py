"""`skirmish render SCENARIO --out FILE.png`: a picture of the table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from game.commands._args import check_png, number_between, scenario_argument
from game.errors import InputError, Problem
from game.files import check_writable
from game.render.labels import MIN_FIT_SCALE

if TYPE_CHECKING:
    from game.scenario import Scenario

DEFAULT_SCALE = 20.0  # pixels an inch


def scale_option() -> Any:
    """`--scale` pixels an inch, from MIN_FIT_SCALE to 200 (`render`, `lof --out`)."""
    return typer.Option(
        "--scale",
        help=f"Pixels per inch (default 20; at least {MIN_FIT_SCALE:g}, where the "
        "names and heights still find room).",
        callback=number_between(MIN_FIT_SCALE, 200.0, "pixels an inch"),
    )


def size_option() -> Any:
    """`--size WxH`: the picture fitted in it (`render`, `lof --out`)."""
    return typer.Option(
        "--size", help="Fit the picture in WxH pixels (instead of --scale).", metavar="WxH"
    )


def refuse_both(scale: float | None, size: str | None) -> None:
    if size is not None and scale is not None:
        raise InputError(Problem("<command line>", "--size", "give --scale or --size, not both"))


def chosen_scale(
    loaded: Scenario,
    scale: float | None,
    size: str | None,
    fit: Callable[[Scenario, tuple[int, int]], float],
    measure: Callable[[Scenario, float], tuple[int, int]],
) -> float:
    """`--scale`, or the scale `fit` finds for `--size` (checked by `fitted`), or 20."""
    if size is None:
        return scale or DEFAULT_SCALE
    from game.commands.play import parse_size

    return fitted(loaded, parse_size(size, least=(200, 200)), fit, measure)


def render(
    scenario: Annotated[Path, scenario_argument()],
    out: Annotated[Path, typer.Option("--out", "-o", help="PNG file to write.")],
    scale: Annotated[float | None, scale_option()] = None,
    size: Annotated[str | None, size_option()] = None,
) -> None:
    """Draw the table: scenery by kind with heights, bases with facings and ids, a grid.
    Labels never overprint: a crowded one moves aside with a leader line, or is left
    out when the scale leaves it no room."""
    check_png(out, "--out", "the picture must be a .png file")
    check_writable(out, "--out")
    from game.scenario import load_scenario

    refuse_both(scale, size)
    loaded = load_scenario(scenario)
    from game.render.frame import marked_table_picture
    from game.render.table import picture_size, save_png, scale_to_fit

    at = chosen_scale(loaded, scale, size, scale_to_fit, picture_size)
    # each base's state marked as the window and `lof --out` mark it (a fighter Out of
    # Action or a trooper dead greyed and crossed, its state said beside it)
    picture = marked_table_picture(loaded, at)
    save_png(picture, out)
    w, h = picture.get_size()
    typer.echo(f"{out}: {w}x{h} pixels, {loaded.header.name} ({loaded.ruleset.name})")


def fitted(
    loaded: Scenario,
    size: tuple[int, int],
    fit: Callable[[Scenario, tuple[int, int]], float],
    measure: Callable[[Scenario, float], tuple[int, int]],
) -> float:
    """The scale `fit` finds for the picture (of pixel size `measure`) in `size`; refused
    (one line) when that is below the least that keeps the labels readable, or the
    picture would not fit."""
    scale = fit(loaded, size)
    w, h = measure(loaded, scale)
    if scale >= MIN_FIT_SCALE and w <= size[0] and h <= size[1]:
        return scale
    least = measure(loaded, MIN_FIT_SCALE)
    width, depth = loaded.header.table
    problem = (
        f'{size[0]}x{size[1]} is too small for the {width:g}x{depth:g}" table: its names '
        f"and heights need {MIN_FIT_SCALE:g} pixels an inch: give at least "
        f"{least[0]}x{least[1]}"
    )
    raise InputError(Problem("<command line>", "--size", problem))


def register(app: typer.Typer) -> None:
    app.command("render")(render)
