"""`skirmish replay SAVE [--check]`: replay a saved game; --check verifies its event log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from game.errors import IllegalDeclaration, InputError, Problem
from game.scenario import load_scenario


def _load_save(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(Problem(str(path), "", "no such file")) from None
    except json.JSONDecodeError as err:
        raise InputError(Problem(str(path), "JSON", err.msg, err.lineno)) from None
    if not isinstance(data, dict):
        raise InputError(Problem(str(path), "", "a save file is a JSON object"))
    for key, kind in (("scenario", str), ("seed", int), ("declarations", list), ("events", list)):
        if not isinstance(data.get(key), kind):
            raise InputError(Problem(str(path), key, f"missing or not a {kind.__name__}"))
    return data


def replay(
    save: Annotated[Path, typer.Argument(help="A save file written by skirmish play.")],
    check: Annotated[bool, typer.Option("--check", help="Verify the saved event log.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
    window: Annotated[
        bool, typer.Option("--window", help="Step through it on the table (T takes over).")
    ] = False,
    frames: Annotated[
        int | None, typer.Option("--frames", min=1, help="With --window: run N frames, exit.")
    ] = None,
    screenshot: Annotated[
        Path | None, typer.Option("--screenshot", help="With --window: save the last frame.")
    ] = None,
) -> None:
    """Replay a saved game from its scenario, seed and declarations: its events as
    sentences, or (--window) on the table, one declaration at a time."""
    if window:
        _window(save, frames, screenshot)
        return
    from game.sequencer.declarations import decode
    from game.sequencer.game import Game

    data = _load_save(save)
    scenario_path = Path(data["scenario"])
    if not scenario_path.exists() and (save.parent / scenario_path).exists():
        scenario_path = save.parent / scenario_path
    scenario = load_scenario(scenario_path)
    game = Game(scenario, data["seed"])
    for index, raw in enumerate(data["declarations"]):
        place = f"declarations[{index}]"
        try:
            declaration = decode(raw)
        except (ValueError, TypeError, AttributeError) as err:
            raise InputError(Problem(str(save), place, str(err))) from None
        try:
            game.declare(declaration)
        except IllegalDeclaration as err:
            raise InputError(Problem(str(save), place, f"illegal: {err}")) from None
    log = game.log()
    mismatch = None
    if check:
        saved = data["events"]
        for i, (a, b) in enumerate(zip(log, saved, strict=False)):
            if a != b:
                mismatch = f"event {i} differs: replay gives {a}, the save has {b}"
                break
        else:
            if len(log) != len(saved):
                mismatch = f"the replay has {len(log)} events, the save {len(saved)}"
    if as_json:
        typer.echo(json.dumps({
            "scenario": str(scenario_path), "seed": data["seed"], "events": log,
            "finished": game.state.finished, "winner": game.state.winner,
            "check": None if not check else mismatch is None,
        }, indent=1))  # fmt: skip
    else:
        from game.sequencer.sentences import say

        for event in game.events:
            typer.echo(say(event, scenario.ruleset))
        if check:
            typer.echo("check: " + ("the event log matches" if mismatch is None else mismatch))
    if mismatch is not None:
        raise typer.Exit(1)


def _window(save: Path, frames: int | None, screenshot: Path | None) -> None:
    from game.display import no_display
    from game.render.app import replay_window
    from game.render.session import SessionError

    if frames is None and no_display():
        frames, screenshot = 1, screenshot or Path("skirmish-replay.png")
        typer.echo("no display: drawing one frame (use --frames N --screenshot FILE.png)")
    try:
        replay_window(save, frames=frames, screenshot=screenshot)
    except SessionError as why:
        raise InputError(Problem(str(save), "--window", str(why))) from None
    if screenshot is not None:
        typer.echo(f"{screenshot}: the first step of {save.name}")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
