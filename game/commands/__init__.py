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
    --ai TEXT), and its arguments in the usage line as people write them: SCENARIO,
    SCENARIO... where it takes several, [SCENARIO] where it may be left out (typer's
    own read "{SCENARIO}" and "{save}")."""
    for param in getattr(command, "params", []):
        kind = _METAVARS.get(str(getattr(param.type, "name", "")))
        if type(param).__name__.endswith("Option") and param.metavar is None and kind:
            param.metavar = kind
        if type(param).__name__ == "TyperArgument":
            param.__class__ = _plain_argument()
            param.metavar = param.metavar or str(param.name).upper()  # as errors name it
    return command


def _plain_argument() -> type:
    """A typer argument whose usage metavar is its name in capitals, without braces."""
    global _PLAIN
    if _PLAIN is None:
        from typer.core import TyperArgument

        class PlainArgument(TyperArgument):
            def make_metavar(self, ctx: Any, *, usage: bool = False) -> str:
                name = (self.metavar or self.name or "").strip("[]{}").upper()
                if self.nargs != 1:
                    name += "..."
                return name if self.required or not usage else f"[{name}]"

        _PLAIN = PlainArgument
    return _PLAIN


_PLAIN: type | None = None
