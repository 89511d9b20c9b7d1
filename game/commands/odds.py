"""`skirmish odds RULESET ...`: exact probabilities of an attack, as a table or JSON.

Each rule system brings its own subcommand (its registry entry's "odds" part, a typer
command function), imported only when it is called; they share the output helpers
here (exact counts, probabilities, the same shape of JSON).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Annotated, Any, TypeVar

import typer
from typer.core import TyperGroup

from game.commands import plain_metavars
from game.dice.exact import Distribution
from game.errors import InputError, Problem

CLI = "<command line>"
K = TypeVar("K")

# The largest total whose exact counts a table shows (more digits are --json's).
MAX_SHOWN_TOTAL = 10**12

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]


class RulesetOdds(TyperGroup):
    """`skirmish odds`: one subcommand per registered rule system with an "odds" part,
    loaded when called (so `odds NAME` imports only that system's odds)."""

    def list_commands(self, ctx: Any) -> list[str]:
        from game.rules.registry import RULESETS

        return [name for name, rs in RULESETS.items() if rs.parts.get("odds") is not None]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        from game.rules.registry import RULESETS

        rs = RULESETS.get(cmd_name)
        command = rs.load("odds") if rs is not None else None
        if command is None:
            return None
        one = typer.Typer(add_completion=False, rich_markup_mode=None)
        one.command(cmd_name, help=command.__doc__)(command)
        return plain_metavars(typer.main.get_command(one))

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """A name that is no rule system's is answered with the nearest ones."""
        usage_error: type[Exception] = next(
            c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError"
        )
        try:
            return super().resolve_command(ctx, args)
        except usage_error as err:
            from difflib import get_close_matches

            failed: Any = err
            close = get_close_matches(args[0], self.list_commands(ctx)) if args else []
            if close and str(failed.message).startswith("No such command"):
                names = " or ".join(repr(name) for name in close)
                failed.message = f"{failed.message.rstrip('.')} (did you mean {names}?)"
            raise


odds_app = typer.Typer(
    name="odds",
    cls=RulesetOdds,
    help="Exact probabilities of an attack, for each rule system.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # plain help, like every other command's
)


def bad(system: str, place: str, problem: str) -> InputError:
    """A bad option of `skirmish odds SYSTEM`, said as a usage error is ("odds SYSTEM
    --OPTION: ...; see skirmish odds SYSTEM --help")."""
    help_cmd = f"skirmish odds {system} --help"
    return InputError(Problem(CLI, f"odds {system} {place}", f"{problem}; see {help_cmd}"))


def rows(dist: Distribution[K], fields: Callable[[K], dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {**fields(k), "count": v, "total": dist.total, "probability": v / dist.total}
        for k, v in dist.items()
    ]


def _print_table(title: str, rows: list[dict[str, Any]], columns: Iterable[str]) -> None:
    """A plain aligned table. Written by hand rather than with rich's Table: importing
    rich.console costs about a third of the command's start-up budget (DESIGN: odds
    under 200 ms in all), and these tables are a few right-aligned columns."""
    cols = list(columns)
    # Exact counts while a person can read them: 30 dice a side make totals of 79 digits.
    counted = all(row["total"] <= MAX_SHOWN_TOTAL for row in rows)
    head = [*(c.replace("_", " ") for c in cols), *(["count / total"] * counted), "probability"]
    body = [
        [
            *("-" if row[c] is None else str(row[c]) for c in cols),
            *([f"{row['count']}/{row['total']}"] * counted),
            f"{row['probability']:.4%}",
        ]
        for row in rows
    ]
    after = []
    if not counted:
        digits = max(len(str(row["total"])) for row in rows)
        title += f" (the exact counts, over totals of {digits} digits, are in --json)"
        # 30 dice a side give ~1000 outcomes, most of them printing as 0.0000%.
        shown = [cells for cells in body if cells[-1] != f"{0:.4%}"]
        if left := len(body) - len(shown):
            rows_ = "row" if left == 1 else "rows"
            after = [f"{left} {rows_} under 0.00005% left out (--json has them all)"]
            body = shown
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if h == "outcome" else c.rjust(w)
            for c, w, h in zip(cells, widths, head, strict=True)
        ).rstrip()

    rule = "  ".join("-" * w for w in widths)
    typer.echo("\n".join([title, line(head), rule, *map(line, body), *after, ""]))


Tables = list[tuple[str, list[dict[str, Any]], list[str]]]


def emit(doc: dict[str, Any], as_json: bool, tables: Tables) -> None:
    if as_json:
        typer.echo(json.dumps(doc, indent=2))
        return
    for title, found, columns in tables:
        _print_table(title, found, columns)


def register(app: typer.Typer) -> None:
    app.add_typer(odds_app, name="odds")
