"""`skirmish validate SCENARIO...`: check files, print every problem and where it is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from game.commands._args import scenario_argument
from game.errors import Problem, said
from game.paths import as_typed


def validate(
    scenarios: Annotated[
        list[Path], scenario_argument("Scenario files (TOML), or names of bundled tables.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Check scenario files; print each problem on one line naming file, place and problem
    ("skirmish: FILE:LINE: place: problem", as every command reports bad input)."""
    from game.scenario.load import check_to_play  # here: --help needs no scenario reader

    problems: list[Problem] = []
    report = []
    for path in scenarios:
        scenario, found = check_to_play(path)  # a table that cannot be played is not ok
        problems.extend(found)
        entry: dict[str, object] = {"file": str(path), "ok": not found}
        if scenario is not None:
            entry |= {
                "name": scenario.header.name,
                "ruleset": scenario.ruleset.name,
                "scenery": len(scenario.scenery),
                "models": len(scenario.models),
                "objectives": len(scenario.objectives),
            }
        entry["problems"] = [
            {"line": p.line, "place": p.place, "problem": p.problem} for p in found
        ]
        report.append(entry)
        if not as_json:
            if found:
                for problem in found:  # as every command says bad input (game.cli)
                    typer.echo(said(problem), err=True)
            else:
                assert scenario is not None
                from game.sequencer.sentences import plural

                scenery = plural(len(scenario.scenery), "scenery piece")
                models = plural(len(scenario.models), "model")
                n = len(scenario.objectives)
                held = f", {plural(n, 'objective')}" if n else ""
                typer.echo(
                    f"{as_typed(path)}: ok ({scenario.ruleset.name}, {scenery}, {models}{held})"
                )
                unscored = scenario.ruleset.unscored(n)
                if unscored:
                    # the editor places one in any system; only a rule system whose
                    # turn limit scores them (its registry entry says) counts them
                    typer.echo(f"note: {unscored}")
    if as_json:
        typer.echo(json.dumps({"files": report, "ok": not problems}, indent=2))
    if problems:
        raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    app.command("validate")(validate)
