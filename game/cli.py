"""The `skirmish` command.

Each subcommand lives in its own module under `game.commands` and exposes
`register(app)`; this module finds them, so adding a command touches no other file.
Bad input raises `InputError`, printed here as one line per problem with exit status 2.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import typer

from game.errors import InputError

app = typer.Typer(
    name="skirmish",
    help="Tabletop skirmish simulator: line of fire, odds, solo play and playtesting.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register_commands() -> None:
    import game.commands as commands

    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"game.commands.{info.name}")
        module.register(app)


_register_commands()


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 done, 2 bad input)."""
    try:
        app(args=argv, prog_name="skirmish")
    except InputError as err:
        for problem in err.problems:
            print(f"skirmish: {problem}", file=sys.stderr)
        return 2
    except SystemExit as done:  # typer ends every run with SystemExit
        code = done.code
        if code is None:
            return 0
        return code if isinstance(code, int) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
