"""`skirmish render SCENARIO --out FILE.png`: a picture of the table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from game.commands._args import scenario_argument
from game.errors import InputError, Problem
from game.scenario import load_scenario


def render(
    scenario: Annotated[Path, scenario_argument()],
    out: Annotated[Path, typer.Option("--out", "-o", help="PNG file to write.")],
    scale: Annotated[
        float, typer.Option("--scale", min=2.0, max=200.0, help="Pixels per inch.")
    ] = 20.0,
) -> None:
    """Draw the table: scenery by kind with heights, bases with facings and ids, a grid."""
    if out.suffix.lower() != ".png":
        raise InputError(Problem(str(out), "--out", "the picture must be a .png file"))
    loaded = load_scenario(scenario)
    from game.render.table import save_png, table_picture

    picture = table_picture(loaded, scale)
    save_png(picture, out)
    w, h = picture.get_size()
    typer.echo(f"{out}: {w}x{h} pixels, {loaded.header.name} ({loaded.ruleset.name})")


def register(app: typer.Typer) -> None:
    app.command("render")(render)
