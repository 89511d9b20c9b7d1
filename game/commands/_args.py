"""Arguments several commands share."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import typer

from game.errors import InputError, Problem
from game.files import MAX_THINK, WINDOW_THINK
from game.paths import SCENARIOS_DIR, SUFFIX, scenario_path, shown

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
    if path.is_file() and path.suffix.lower() != SUFFIX:
        if _json(path):  # fix10b: 'reading as TOML', then a TOML syntax error: two lines
            problem = (
                "JSON, not a scenario (TOML): a game saved with Ctrl+S carries on with "
                f"skirmish play --load {shown(path)}"
            )
            raise InputError(Problem(str(path), "", problem))
        typer.echo(
            f"skirmish: reading {shown(path)} as a scenario (TOML), though its name does "
            f"not end in {SUFFIX}",
            err=True,
        )
    if path.exists() or len(path.parts) != 1 or path.suffix == SUFFIX:
        return scenario_path(text)
    here = Path(f"{path}{SUFFIX}")
    if not here.is_file():
        return scenario_path(text)
    if local_override(path.name) is not None:
        typer.echo(
            f"skirmish: reading {here} in this folder, not the bundled table of that name",
            err=True,
        )
    return here


def _json(path: Path) -> bool:
    """Whether a file reads as JSON (a save), not TOML: it opens with "{", which no
    TOML file does."""
    try:
        with path.open("rb") as file:
            return file.read(4096).lstrip().startswith(b"{")
    except OSError:
        return False


def local_override(name: str) -> Path | None:
    """NAME.toml in this folder when a bundled table is called NAME too (and it is not
    that file): what a command given the bare NAME reads."""
    here = Path(f"{name}{SUFFIX}")
    bundled = SCENARIOS_DIR / here.name
    if here.is_file() and bundled.is_file() and not here.resolve().samefile(bundled):
        return here
    return None


def scenario_argument(help: str = SCENARIO_HELP) -> Any:
    """A scenario argument: a file, or a bundled table by name (`skirmish scenarios`)."""
    return typer.Argument(help=help, parser=scenario_file, metavar="SCENARIO")


# The automatic players' weight sets, as --temperament's help lists them (the names are
# game.scenario.model.TEMPERAMENTS, not imported here: the help must not load pydantic).
TEMPERAMENT_CHOICES = "cautious, balanced or aggressive"
# The most games a playtest or each change of a balance plays, and the most trials of
# one attack: more would take days, and their seeds alone fill the memory.
MAX_GAMES = 1_000_000
MAX_TRIALS = 1_000_000
# The longest wait for a cluster's scheduler to answer, in seconds, and the wait unless told.
MAX_WAIT = 600.0
WAIT = 10.0


def number_between(low: float, high: float | None, unit: str = "") -> Any:
    """A typer callback refusing a number that is not finite (nan, inf, 1e400) or lies
    outside [low, high], in one sentence naming the range: click's own range check lets
    nan through (every comparison with it is false)."""
    import math

    def check(value: float | None) -> float | None:
        if value is None:
            return value
        inside = math.isfinite(value) and value >= low and (high is None or value <= high)
        if not inside:
            what = f"{unit} " if unit else ""
            span = f"from {low:g} to {high:g}" if high is not None else f"of at least {low:g}"
            raise typer.BadParameter(f"expected a number of {what}{span}")  # the CLI adds the value
        return value

    return check


THINK_HELP = (
    "a ceiling, not a time spent. The search players use what their exact judgement needs "
    "(about 0.03-0.08 s a declaration) and more does not change their play; below the "
    "least the judgement is given (0.01 to 0.073 s by rule system), 0 for one, they take "
    "a fast choice instead"
)


# What a search player thinks without --think, by command (the weights' `budget` of 120
# steps at each system's `steps_per_second`, 120/1100 to 120/600; a test checks them
# against game/ai/weights/).
WINDOW_THINK_DEFAULT = (
    f"by default {WINDOW_THINK:g}, or what a save records for its computer player"
)
BATCH_THINK_DEFAULT = (
    "by default the search players' budget of 120 steps, about 0.11 to 0.2 s by rule system"
)


def think_option(
    help: str = "Seconds a player may think per declaration.", default: str = BATCH_THINK_DEFAULT
) -> Any:
    """`--think SECONDS`: finite, from 0 to `MAX_THINK`; `default` says what a player
    thinks without it."""
    return typer.Option(
        "--think",
        help=f"{help.rstrip('.')} ({default}): {THINK_HELP} (at most {MAX_THINK:g}).",
        callback=number_between(0.0, MAX_THINK, "seconds"),
    )


def _seed_check(value: int | None) -> int | None:
    from game.dice import seed_refused  # the check a save's seed passes

    refused = None if value is None else seed_refused(value, whole=True)
    if refused is not None:
        raise typer.BadParameter(refused)
    return value


def seed_option(help: str) -> Any:
    """`--seed N`: a whole number from 0 to 2**128 - 1, the seeds a save can carry."""
    return typer.Option("--seed", help=help, callback=_seed_check, metavar="N")


# The most frames --frames runs: over four hours at 60 frames a second.
MAX_FRAMES = 1_000_000


def frames_option(help: str = "Run this many frames, then exit.") -> Any:
    """`--frames N`: from 1 to `MAX_FRAMES`."""
    return typer.Option("--frames", min=1, max=MAX_FRAMES, help=help, metavar="N")


def connect_timeout_option() -> Any:
    """`--connect-timeout SECONDS`: finite, from 0.1 to `MAX_WAIT`; only with --scheduler."""
    return typer.Option(
        "--connect-timeout",
        help=f"With --scheduler: seconds to wait for it to answer (default {WAIT:g}).",
        callback=number_between(0.1, MAX_WAIT, "seconds"),
    )


def scheduler_wait(scheduler: str | None, connect_timeout: float | None) -> float:
    """How long to wait for the scheduler; --connect-timeout without one is refused, as
    it would change nothing."""
    from game.errors import InputError, Problem

    if connect_timeout is not None and scheduler is None:
        problem = "goes with --scheduler: the games play on this machine, with no one to wait for"
        raise InputError(Problem("<command line>", "--connect-timeout", problem))
    return WAIT if connect_timeout is None else connect_timeout


def no_such_model(value: str, ids: Iterable[str]) -> str:
    """The refusal of a model id the table does not hold, with the ids it does."""
    return f"no model {value!r} (models: {', '.join(sorted(ids))})"


def check_png(path: Path, option: str, refusal: str = "must be a .png file") -> None:
    """A picture to write (`--screenshot`, `render --out`): a .png file, and a folder
    given for it said as a folder, with a file named in it for an example ('--screenshot
    shots/' said "must be a .png file", as if the folder's name were the fault)."""
    if path.is_dir():
        problem = f"is a folder, not a .png file: name the picture in it, as {path / 'table.png'}"
        raise InputError(Problem(str(path), option, problem))
    if path.suffix.lower() != ".png":
        raise InputError(Problem(str(path), option, refusal))
