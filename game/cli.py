"""The `skirmish` command.

Each subcommand lives in its own module under `game.commands` and exposes
`register(app)`. `COMMANDS` names them with a one-line summary, so that `skirmish
--help` lists them without importing any, and a command's module (with shapely,
pydantic, numpy or pygame behind it) is imported only when that command is called.
A module missing from `COMMANDS` still works (it is imported to list it; a test asks
for it to be added).

Bad input raises `InputError`, printed here as one line per problem with exit status
2; so is a usage error (a bad option value, a missing argument, an unknown command).
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

import typer
from typer.core import TyperGroup

from game.errors import InputError, Problem, said

CLI = "<command line>"

# typer raises click's exception classes (vendored in recent typer): find them by name.
_CLICK = {c.__name__: c for c in typer.BadParameter.__mro__}
UsageError: type[Exception] = _CLICK["UsageError"]
Abort: type[BaseException] = typer.Abort


class Entry(NamedTuple):
    module: str
    summary: str


# name -> the module that registers it, and the line `skirmish --help` shows for it.
COMMANDS: dict[str, Entry] = {
    "balance": Entry(
        "game.commands.balance", "Playtests over small changes; which balance the scenario."
    ),
    "edit": Entry("game.commands.edit", "Lay out a table in the window; save it as a scenario."),
    "import": Entry("game.commands.import_map", "A Tiled or Universal VTT map as a scenario file."),
    "lof": Entry("game.commands.lof", "Rule on line of fire between two models, or all pairs."),
    "odds": Entry("game.commands.odds", "Exact probabilities of an attack, for each rule system."),
    "play": Entry("game.commands.play", "Play on the table (no argument: the bundled demo)."),
    "playtest": Entry(
        "game.commands.playtest", "Play many games between automatic players; win rates."
    ),
    "render": Entry("game.commands.render", "Draw the table to a PNG picture."),
    "replay": Entry("game.commands.replay", "Replay a saved game; --check verifies its log."),
    "scenarios": Entry("game.commands.scenarios", "List the bundled tables, usable by name."),
    "shoot": Entry("game.commands.shoot", "Resolve one attack, or its statistics over trials."),
    "validate": Entry("game.commands.validate", "Check scenario files; print every problem."),
}
COMMANDS_DIR = Path(__file__).resolve().parent / "commands"


def command_modules() -> list[str]:
    """Every command module in game/commands (not the `_` helpers), by file name."""
    names = (p.stem for p in COMMANDS_DIR.glob("*.py"))
    return sorted(f"game.commands.{n}" for n in names if not n.startswith("_"))


def registered(module: str) -> dict[str, Any]:
    """The click commands that `module`'s `register(app)` adds, by name."""
    one = typer.Typer(add_completion=False, rich_markup_mode=None)
    importlib.import_module(module).register(one)
    commands = dict(typer.main.get_group(one).commands)
    from game.commands import plain_metavars  # imported with the command's module anyway

    for command in commands.values():
        plain_metavars(command)
    return commands


class LazyCommands(TyperGroup):
    """The subcommands, each imported when it is called (or asked for its help)."""

    def _unlisted(self) -> dict[str, Any]:
        known = {e.module for e in COMMANDS.values()}
        found: dict[str, Any] = {}
        for module in command_modules():
            if module not in known:
                found |= registered(module)
        return found

    def list_commands(self, ctx: Any) -> list[str]:
        return sorted({*COMMANDS, *self._unlisted()})

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return self._unlisted().get(cmd_name)
        return registered(entry.module).get(cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except UsageError as err:
            failed: Any = err
            message = str(failed.message)
            if args and message.startswith("No such command"):
                from difflib import get_close_matches

                if close := get_close_matches(args[0], self.list_commands(ctx)):
                    alike = " or ".join(repr(name) for name in close)
                    failed.message = f"{message.rstrip('.')} (did you mean {alike}?)"
            raise

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = {name: entry.summary for name, entry in COMMANDS.items()}
        for name, command in self._unlisted().items():
            rows[name] = command.get_short_help_str(80)
        with formatter.section("Commands"):
            formatter.write_dl(sorted(rows.items()))


app = typer.Typer(
    name="skirmish",
    cls=LazyCommands,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: rich would double the start-up of `--help`
)


def _version(asked: bool) -> None:
    """`skirmish --version`: the installed version, then stop."""
    if asked:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"skirmish {version('skirmish')}")
        except PackageNotFoundError:  # run from a checkout that was never installed
            typer.echo("skirmish (not installed: run from a source folder)")
        raise typer.Exit()


@app.callback()
def skirmish(
    version: bool = typer.Option(
        False, "--version", is_eager=True, callback=_version, help="Print the version and stop."
    ),
) -> None:
    """Tabletop skirmish simulator: line of fire, odds, solo play and playtesting.

    Every command has --help. Where a command takes a SCENARIO file it also takes the
    name of a bundled table (skirmish scenarios lists them)."""


def _given(argv: Sequence[str], opts: Sequence[str]) -> str | None:
    """The value given on the command line for an option called one of `opts`."""
    for i, arg in enumerate(argv):
        for opt in opts:
            if arg == opt and i + 1 < len(argv):
                return argv[i + 1]
            if arg.startswith(f"{opt}="):
                return arg[len(opt) + 1 :]
    return None


# click's words for a value of the wrong kind or out of its range, and ours.
_NOT_A = re.compile(r"^'.*' is not a valid (?P<kind>int|integer|float)(?: range)?$", re.S)
_KINDS = {"int": "a whole number", "integer": "a whole number", "float": "a number"}
_OUT_OF = re.compile(r"^.* is not in the range (?P<range>.+)$", re.S)
_RANGES = (
    (re.compile(r"^x>=(?P<a>\S+)$"), "at least {a}"),
    (re.compile(r"^x>(?P<a>\S+)$"), "more than {a}"),
    (re.compile(r"^x<=(?P<b>\S+)$"), "at most {b}"),
    (re.compile(r"^x<(?P<b>\S+)$"), "less than {b}"),
    (re.compile(r"^(?P<a>\S+)<=x<=(?P<b>\S+)$"), "from {a} to {b}"),
)
_POSSIBLE = re.compile(r" \(Possible options: (?P<options>[^)]*)\)$")


def in_our_words(message: str) -> str:
    """click's message for a bad value or an unknown option as our sentence: "'abc' is
    not a valid int range" -> "expected a whole number", "0 is not in the range x>=1" ->
    "must be at least 1", "(Possible options: --out)" -> "(did you mean --out?)"; any
    other message as it is."""
    if m := _NOT_A.match(message):
        return f"expected {_KINDS[m['kind']]}"
    if m := _OUT_OF.match(message):
        for pattern, words in _RANGES:
            if r := pattern.match(m["range"].strip()):
                return "must be " + words.format(**r.groupdict())
    if m := _POSSIBLE.search(message):
        *others, last = (o.strip() for o in m["options"].split(","))
        options = f"{', '.join(others)} or {last}" if others else last
        return f"{message[: m.start()]} (did you mean {options}?)"
    return message


def usage_problem(err: Any, argv: Sequence[str]) -> Problem:
    """A usage error as the one-line problem: the command and option, what is wrong,
    the value given, and where the help is."""
    ctx = getattr(err, "ctx", None)
    if ctx is not None:
        path = ctx.command_path.split()[1:]
    else:  # raised before a command had a context: name the command given, if any
        path = argv[:1] if argv and argv[0] in COMMANDS else []
    param = getattr(err, "param", None)
    opts = list(getattr(param, "opts", []) or []) if param is not None else []
    is_option = type(param).__name__.endswith("Option")
    if type(err).__name__ == "BadParameter" and param is not None:
        place = " ".join([*path, opts[0] if is_option and opts else param.human_readable_name])
        what = in_our_words(str(err.message).rstrip("."))
        value = _given(argv, opts) if is_option else None
        said = value is not None and re.search(rf"(?<![\w.-]){re.escape(value)}(?![\w.-])", what)
        if value is not None and not said:
            what += f" (got {value!r})"
    else:
        place = " ".join(path)
        what = in_our_words(err.format_message().strip().rstrip("."))
    what = what[:1].lower() + what[1:]
    help_cmd = " ".join(["skirmish", *path, "--help"])
    return Problem(CLI, place, f"{what}; see {help_cmd}")


def in_usage_form(problem: Problem, argv: Sequence[str]) -> Problem:
    """A problem with an option a command found wrong after reading it (--size 10,
    --ai foo) in the form of every usage error: "play --size: ...; see skirmish play
    --help". Any other problem as it is."""
    command = list(argv[:1]) if argv and argv[0] in COMMANDS else []
    if problem.file != CLI or not problem.place.startswith("-") or not command:
        return problem
    if problem.problem.endswith("--help"):
        return problem
    path = command + (list(argv[1:2]) if command == ["odds"] else [])
    help_cmd = " ".join(["skirmish", *path, "--help"])
    place = " ".join([*path, problem.place])
    return replace(problem, place=place, problem=f"{problem.problem}; see {help_cmd}")


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 done, 2 bad input or usage)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # before any command imports pygame
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        code = app(args=args, prog_name="skirmish", standalone_mode=False)
    except InputError as err:
        for problem in err.problems:
            print(said(in_usage_form(problem, args)), file=sys.stderr)
        return 2
    except UsageError as err:
        if type(err).__name__ == "NoArgsIsHelpError":  # a bare `skirmish`: the help
            failed: Any = err
            help_text = failed.format_message()
            if help_text:
                print(help_text, file=sys.stderr)
            return 2
        print(f"skirmish: {usage_problem(err, args)}", file=sys.stderr)
        return 2
    except Abort:
        print("skirmish: aborted", file=sys.stderr)
        return 1
    except SystemExit as done:  # a command may still end with SystemExit
        end = done.code
        if end is None:
            return 0
        return end if isinstance(end, int) else 1
    return code if isinstance(code, int) else 0


if __name__ == "__main__":
    sys.exit(main())
