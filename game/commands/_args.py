"""Arguments several commands share."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from game.paths import SCENARIOS_DIR, SUFFIX, scenario_path

SCENARIO_HELP = (
    "Scenario file (TOML), or the name of a bundled table (see skirmish scenarios; "
    "NAME.toml in this folder comes first)."
)


def scenario_file(text: str | Path) -> Path:
    """The scenario a person means by `text` (`game.paths.scenario_path`), except that a
    bare NAME with a NAME.toml in this folder reads that file: a table copied here to
    be changed is the one meant. When a bundled table of that name exists too, one line
    on stderr says which was read."""
    path = Path(text)
    if path.exists() or len(path.parts) != 1 or path.suffix == SUFFIX:
        return scenario_path(text)
    here = Path(f"{path}{SUFFIX}")
    if not here.is_file():
        return scenario_path(text)
    bundled = SCENARIOS_DIR / here.name
    if bundled.is_file() and not here.resolve().samefile(bundled):
        typer.echo(
            f"skirmish: reading {here} in this folder, not the bundled table of that name",
            err=True,
        )
    return here


def scenario_argument(help: str = SCENARIO_HELP) -> Any:
    """A scenario argument: a file, or a bundled table by name (`skirmish scenarios`)."""
    return typer.Argument(help=help, parser=scenario_file, metavar="SCENARIO")
