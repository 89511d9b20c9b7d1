"""`skirmish shoot`: one attack with its events, or its statistics over many trials.

The scenario's rule system resolves it: its registry entry's "shoot" part is a module
(or object) with `resolve(shot) -> report` (a JSON-ready dict) and `show(report)` (the
report printed for people)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol

import typer

from game.commands._args import MAX_TRIALS, scenario_argument, seed_option
from game.errors import InputError, Problem

if TYPE_CHECKING:
    from game.scenario import Scenario


def problem(scenario: Path, place: str, what: str) -> InputError:
    """A bad option for this scenario, as the one-line error."""
    return InputError(Problem(str(scenario), place, what))


def refused(scenario: Scenario, path: Path, place: str, why: Exception) -> InputError:
    """An attack the rules refuse, as the one-line error: the place keeps the ids as typed,
    the reason names the models and the scenery as the rest of the table's sentences do
    ("the habitation block in the way", as `lof` says it; an id that is a plain word,
    "target", is named too, except where the reason uses it as the word: "is the target
    itself")."""
    from game.scenario.names import told_names
    from game.sequencer.sentences import told

    return problem(path, place, told(str(why), told_names(scenario)))


@dataclass(frozen=True, slots=True)
class Shot:
    """What `skirmish shoot` was asked: the attack and how often to resolve it."""

    scenario: Scenario
    path: Path
    attacker: str
    target: str | None
    at: tuple[float, float] | None  # a point to aim at instead of a model
    weapon: str | None
    reply: bool
    trials: int
    seed: int
    # Rapid Fire: where the hits after the first go (models), or the extra blasts (points)
    extra: tuple[str, ...] = ()
    extra_at: tuple[tuple[float, float], ...] = ()


class ShootHandler(Protocol):
    def resolve(self, shot: Shot) -> dict[str, Any]: ...

    def show(self, report: dict[str, Any]) -> None: ...


def weapon_named(name: str | None, carried: Iterable[str]) -> str | None:
    """The carried weapon whose name `name` is in any case ("combi rifle" for "Combi
    Rifle"); `name` itself when none is, for the engine to refuse."""
    if name is None:
        return None
    return next((w for w in carried if w.casefold() == name.casefold()), name)


def parse_point(
    text: str, scenario: Path, table: tuple[float, float], flag: str = "--at"
) -> tuple[float, float]:
    """X,Y on the command line: a point of the `table` (width, depth)."""
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise problem(scenario, flag, f"{text!r} is not X,Y (e.g. {flag} 12,8.5)") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise problem(scenario, flag, f"{text!r} is not a point: X and Y must be finite numbers")
    width, depth = table
    if not (0 <= x <= width and 0 <= y <= depth):
        raise problem(scenario, flag, f'({x:g}, {y:g}) is off the {width:g}x{depth:g}" table')
    return x, y


# --reply where the target does not shoot back within the attack.
NO_REPLY = "in {system} the target does not shoot back within the attack: it shoots when activated"


def no_extra_hits(shot: Shot, why: str) -> None:
    """Refuse `--extra`/`--extra-at` in a system with no extra hits to place."""
    if shot.extra:
        raise problem(shot.path, "--extra", why)
    if shot.extra_at:
        raise problem(shot.path, "--extra-at", why)


def shoot(
    scenario: Annotated[Path, scenario_argument()],
    attacker: Annotated[str, typer.Option("--attacker", help="The shooting model's id.")],
    target: Annotated[str | None, typer.Option("--target", help="The target model's id.")] = None,
    at: Annotated[
        str | None, typer.Option("--at", help="X,Y: a point to aim a blast or template at.")
    ] = None,
    weapon: Annotated[str | None, typer.Option("--weapon", help="Weapon name.")] = None,
    reply: Annotated[
        bool, typer.Option("--reply", help="The target shoots back, where the rules let it.")
    ] = False,
    trials: Annotated[
        int | None,
        typer.Option("--trials", min=1, max=MAX_TRIALS, help="Resolve it N times (default once)."),
    ] = None,
    seed: Annotated[int, seed_option("Random seed.")] = 1,
    extra: Annotated[
        list[str] | None,
        typer.Option(
            "--extra",
            help="Rapid Fire: a model the hits after the first go to (repeat, or ID,ID).",
        ),
    ] = None,
    extra_at: Annotated[
        list[str] | None,
        typer.Option("--extra-at", help="Rapid Fire blast: X,Y where an extra blast goes."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Resolve one attack, or its statistics over many trials."""
    from game.scenario import load_scenario

    loaded = load_scenario(scenario)
    handler: ShootHandler | None = loaded.ruleset.load("shoot")
    if handler is None:
        raise problem(
            scenario, "[scenario] ruleset", f"shoot does not play {loaded.ruleset.title} yet"
        )
    table = loaded.header.table
    point = parse_point(at, scenario, table) if at is not None else None
    extras = tuple(name.strip() for text in extra or () for name in text.split(",") if name.strip())
    extra_points = tuple(
        parse_point(text, scenario, table, "--extra-at") for text in extra_at or ()
    )
    shot = Shot(
        loaded, scenario, attacker, target, point, weapon, reply, trials or 0, seed,
        extras, extra_points,
    )  # fmt: skip
    report = handler.resolve(shot)
    if as_json:
        typer.echo(json.dumps(report, indent=1))
    else:
        from game.scenario.names import told_names
        from game.sequencer.sentences import speaking

        with speaking(told_names(loaded)):  # models and scenery by name, as replay says them
            handler.show(report)


def register(app: typer.Typer) -> None:
    app.command("shoot")(shoot)
