"""Subcommands of `skirmish`: one module each, with `register(app: typer.Typer)`."""

from __future__ import annotations

from typing import Any

# What --help shows after an option for the kind of value it takes, where the option
# does not name it itself (click's own words were "<int range>", "<str>", "<float>").
_METAVARS = {
    "int": "N",
    "int range": "N",
    "float": "NUMBER",
    "float range": "NUMBER",
    "str": "TEXT",
    "path": "PATH",
}


def plain_metavars(command: Any) -> Any:
    """`command` with each option's value named in capitals in its help (--games N,
    --ai TEXT), as the usage line names the arguments."""
    for param in getattr(command, "params", []):
        kind = _METAVARS.get(str(getattr(param.type, "name", "")))
        if type(param).__name__.endswith("Option") and param.metavar is None and kind:
            param.metavar = kind
    return command
