"""`skirmish import MAP --ruleset NAME --out SCENARIO.toml`: a Tiled (.tmx/.tmj) or
Universal VTT (.uvtt/.dd2vtt) map as a scenario file (game.scenario.maps)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from game.errors import InputError, Problem
from game.files import check_writable
from game.paths import as_typed, map_path, no_such_map
from game.words import joined


def import_command(
    map_file: Annotated[
        Path,
        typer.Argument(
            metavar="MAP",
            parser=map_path,
            help="A .tmx, .tmj, .uvtt or .dd2vtt map, or a bundled map by its file name "
            "(see skirmish scenarios).",
        ),
    ],
    ruleset: Annotated[str, typer.Option("--ruleset", help="The rule system of the scenario.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The scenario file (TOML) to write.")],
    scale: Annotated[
        float, typer.Option("--scale", help="Inches per map tile (Tiled) or grid square (VTT).")
    ] = 1.0,
    wall_height: Annotated[
        float | None,
        typer.Option(
            "--wall-height", help="Universal VTT walls' height in inches (default: full)."
        ),
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="The scenario's name.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Read a map and write it as a scenario: scenery with heights and kinds, and models."""
    if out.suffix.lower() != ".toml":
        raise InputError(Problem(str(out), "--out", "the scenario must be a .toml file"))
    check_writable(out, "--out")
    if (missing := no_such_map(map_file)) is not None:
        raise InputError(Problem(str(map_file), "", missing))
    from game.scenario.maps import import_map
    from game.scenario.writer import write_scenario

    doc, found = import_map(map_file, ruleset, scale=scale, wall_height=wall_height, name=name)
    scenario = write_scenario(doc, out)
    seats = [s.id for s in doc.sides]  # the first side the map names is the person's
    if as_json:
        report = {
            "map": as_typed(map_file),
            "out": str(out),
            "ruleset": scenario.ruleset.name,
            "table": list(scenario.header.table),
            "scenery": len(scenario.scenery),
            "models": len(scenario.models),
            "human": seats[0],
            "ai": seats[1:],
            "skipped": found.skipped,
            "unplayable": [f"{p.place} {p.problem}" for p in scenario.unplayable],
        }
        typer.echo(json.dumps(report, indent=2))
        return
    from game.sequencer.sentences import plural

    w, d = scenario.header.table
    scenery = plural(len(scenario.scenery), "scenery piece")
    models = plural(len(scenario.models), "model")
    said = f'{out}: {w:g}x{d:g}" table, {scenery}, {models} ({scenario.ruleset.name})'
    if scenario.unplayable:  # written all the same: a start for the editor, as its save says
        first = scenario.unplayable[0]
        said += f"; not playable yet: {first.place} {first.problem}"
    typer.echo(said)
    why = "the first side the map names" if found.sides else "the map names no side"
    others = joined([repr(s) for s in seats[1:]])  # "'red', 'green' and 'teal'"
    if others:
        typer.echo(
            f"side {seats[0]!r} is played by a person ({why}), {others} by the computer: "
            "skirmish play --side SIDE plays another"
        )
    else:  # one side only: no game yet (it said so), and none for the computer
        typer.echo(f"side {seats[0]!r} is played by a person ({why})")
    for line in found.skipped:
        typer.echo(f"skipped {line}")


def register(app: typer.Typer) -> None:
    app.command("import")(import_command)
