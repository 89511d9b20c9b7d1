"""Arguments several commands share."""

from __future__ import annotations

from typing import Any

import typer

from game.paths import scenario_path

SCENARIO_HELP = "Scenario file (TOML), or the name of a bundled table (see skirmish scenarios)."


def scenario_argument(help: str = SCENARIO_HELP) -> Any:
    """A scenario argument: a file, or a bundled table by name (`skirmish scenarios`)."""
    return typer.Argument(help=help, parser=scenario_path, metavar="SCENARIO")
