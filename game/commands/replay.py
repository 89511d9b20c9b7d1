"""`skirmish replay SAVE [--check] [--window]`: replay a saved game; --check verifies its
event log; --window steps through it on the table.

Exit status: 0 when the replay (and the check) went through; 1 when the check fails (the
event log differs, or the scenario file has changed since the save), with the reason on
stderr; 2 when the save cannot be read or replayed, in one line naming the save and the
place in it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from game.commands._args import frames_option
from game.errors import InputError, Problem


def _first_difference(log: list[dict[str, Any]], saved: list[Any]) -> str | None:
    """The first event the replay tells otherwise than the save (saves.first_difference)."""
    from game.scenario.saves import first_difference

    i = first_difference(log, saved)
    if i is None:
        return None
    if i < len(log) and i < len(saved):
        a, b = log[i], saved[i]
        if isinstance(b, dict):
            a = {k: v for k, v in a.items() if k in b}
        return f"event {i} differs: replay gives {a}, the save has {b}"
    return f"the replay has {len(log)} events, the save {len(saved)}"


def replay(
    save: Annotated[
        Path, typer.Argument(help="A save file (from skirmish play or playtest --save-games).")
    ],
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Verify the saved event log and that the scenario file has not changed; "
            "exit 1 if either fails.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
    window: Annotated[
        bool, typer.Option("--window", help="Step through it on the table (T takes over).")
    ] = False,
    frames: Annotated[int | None, frames_option("With --window: run N frames, exit.")] = None,
    screenshot: Annotated[
        Path | None, typer.Option("--screenshot", help="With --window: save the last frame.")
    ] = None,
    size: Annotated[
        str | None, typer.Option("--size", help="With --window: window size WxH in pixels.")
    ] = None,
) -> None:
    """Replay a saved game from its scenario (the copy the save carries), seed and
    declarations: its events as sentences, or (--window) on the table, one declaration
    at a time."""
    if window:
        for option, asked, what in (
            ("--check", check, "check its log"),
            ("--json", as_json, "print it as JSON"),
        ):
            if asked:  # the window steps through the game; it neither checks nor prints it
                problem = "not with --window, which steps through the game: leave --window out"
                raise InputError(Problem("<command line>", option, f"{problem} to {what}"))
        _window(save, frames, screenshot, size or "1280x800")
        return
    for option, given in (("--frames", frames), ("--screenshot", screenshot), ("--size", size)):
        if given is not None:  # it would be ignored without the window
            raise InputError(Problem("<command line>", option, "goes with --window"))
    from game.scenario.saves import read_save

    saved = read_save(save)
    game, diverged = saved.play()
    log = game.log()
    changed = saved.changes_sentence()
    corrected = None if diverged is None else diverged.sentence()
    failures: list[str] = []
    if check:
        mismatch = corrected or _first_difference(log, saved.events)
        if mismatch is not None:
            failures.append(mismatch)
        if changed is not None:
            failures.append(f"{changed}; the save replays the copy it carries")
    if as_json:
        typer.echo(json.dumps({
            "scenario": str(saved.scenario_file), "seed": saved.seed, "events": log,
            "finished": game.state.finished, "winner": game.state.winner,
            "scenario_changes": list(saved.changes),
            "rules_corrected": corrected,
            "declarations_played": len(game.declarations),
            "check": None if not check else not failures,
        }, indent=1))  # fmt: skip
    else:
        from game.scenario.names import told_names
        from game.sequencer.sentences import Teller

        # models and scenery by name, as the window's dice log tells them
        teller = Teller(saved.scenario.ruleset, told_names(saved.scenario))
        for event in game.events:
            said = teller.say(event)
            if said:  # an event told with another (a pin with its hit) says nothing here
                typer.echo(said)
        if check and not failures:
            where = "" if saved.on_disk else " (the scenario file is not here: the save's copy)"
            typer.echo(f"check: the event log matches{where}")
        elif changed is not None and not check:
            typer.echo(f"note: {changed}; replayed the copy the save carries", err=True)
        if corrected is not None and not check:
            typer.echo(f"note: {corrected}", err=True)
    for failure in failures:
        typer.echo(f"skirmish: {save}: check failed: {failure}", err=True)
    if failures:
        raise typer.Exit(1)


def _window(save: Path, frames: int | None, screenshot: Path | None, size: str) -> None:
    from game.commands.play import parse_size, say_preparing
    from game.display import no_display
    from game.files import check_writable
    from game.render.app import replay_window
    from game.render.session import SessionError

    width, height = parse_size(size)
    if screenshot is not None:
        if screenshot.suffix.lower() != ".png":
            raise InputError(Problem(str(screenshot), "--screenshot", "must be a .png file"))
        check_writable(screenshot, "--screenshot")
    if not save.exists():  # said before the window's own words
        raise InputError(Problem(str(save), "", "no such file"))
    if frames is None and no_display():
        frames, screenshot = 1, screenshot or Path("skirmish-replay.png")
        typer.echo("no display: drawing one frame (use --frames N --screenshot FILE.png)")
    say_preparing()
    try:
        replay_window(save, size=(width, height), frames=frames, screenshot=screenshot)
    except SessionError as why:
        raise InputError(why.problems or Problem(str(save), "--window", str(why))) from None
    if screenshot is not None:
        typer.echo(f"{screenshot}: the first step of {save.name}")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
