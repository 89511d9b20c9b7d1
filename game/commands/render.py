"""`skirmish render SCENARIO --out FILE.png`: a picture of the table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from game.commands._args import number_between, scenario_argument
from game.errors import InputError, Problem
from game.files import check_writable


def render(
    scenario: Annotated[Path, scenario_argument()],
    out: Annotated[Path, typer.Option("--out", "-o", help="PNG file to write.")],
    scale: Annotated[
        float,
        typer.Option(
            "--scale",
            help="Pixels per inch.",
            callback=number_between(2.0, 200.0, "pixels an inch"),
        ),
    ] = 20.0,
    size: Annotated[
        str | None, typer.Option("--size", help="Fit the picture in WxH pixels (sets --scale).")
    ] = None,
) -> None:
    """Draw the table: scenery by kind with heights, bases with facings and ids, a grid.
    Labels never overprint: a crowded one moves aside with a leader line, or is left
    out when the scale leaves it no room."""
    if out.suffix.lower() != ".png":
        raise InputError(Problem(str(out), "--out", "the picture must be a .png file"))
    check_writable(out, "--out")
    from game.scenario import load_scenario

    loaded = load_scenario(scenario)
    from game.render.table import save_png, scale_to_fit, table_picture

    if size is not None:
        from game.commands.play import parse_size

        scale = scale_to_fit(loaded, parse_size(size))
    picture = table_picture(loaded, scale)
    save_png(picture, out)
    w, h = picture.get_size()
    typer.echo(f"{out}: {w}x{h} pixels, {loaded.header.name} ({loaded.ruleset.name})")


def register(app: typer.Typer) -> None:
    app.command("render")(render)
