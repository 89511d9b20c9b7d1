"""`skirmish replay SAVE [--check] [--window]`: replay a saved game; --check verifies its
event log; --window steps through it on the table.

Exit status: 0 when the replay (and the check) went through; 1 when the check fails (the
event log differs, the rules have been corrected since the save and play it otherwise, or
the scenario file has changed since the save), with the reason on stderr; 2 when the save
cannot be read or replayed, in one line naming the save and the place in it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from game.commands._args import check_png, frames_option
from game.errors import InputError, Problem

if TYPE_CHECKING:
    from game.scenario.saves import SavedGame


def _first_difference(log: list[dict[str, Any]], saved: SavedGame) -> str | None:
    """The first event the replay tells otherwise than the save (saves.first_difference),
    each told as the replay tells it, with its place: "turn 2, event 35: the replay
    tells 'Orc 1 moves 3.5"', the save 'Orc 1 moves 3.6"'"."""
    from game.scenario.names import told_names
    from game.scenario.saves import first_difference, turn_at

    events = saved.events
    i = first_difference(log, events)
    if i is None:
        return None
    rules = saved.scenario.ruleset
    names = told_names(saved.scenario)
    turn = turn_at(events if i < len(events) else log, i)
    where = f"{rules.turn_word} {turn}, event {i + 1}" if turn else f"event {i + 1}"
    if i < len(log) and i < len(events):
        mine, theirs = _told(log, i, rules, names), _told(events, i, rules, names)
        if mine == theirs:  # told alike: what differs is not in the sentence
            mine += f" ({_fields(log[i], events[i])})"
            theirs += f" ({_fields(events[i], log[i])})"
        return f"{where} differs: the replay tells {mine}, the save {theirs}"
    longer, told = (
        ("replay", _told(log, i, rules, names))
        if i < len(log)
        else ("save", _told(events, i, rules, names))
    )
    return (
        f"the replay has {len(log)} events, the save {len(events)}: the {longer} goes on "
        f"at {where}, {told}"
    )


def _told(events: list[Any], index: int, rules: Any, names: Any) -> str:
    """Event `index` of `events` as the replay tells it (told after the ones before it),
    in quotes; an event told with a later one, or not an event, by its kind."""
    from game.sequencer.sentences import Teller

    teller = Teller(rules, names)
    said = ""
    for event in events[: index + 1]:
        try:
            said = teller.say(event) if isinstance(event, dict) else ""
        except (AttributeError, KeyError, TypeError, ValueError):  # a save spelt wrongly
            said = ""
    event = events[index]
    kind = event.get("event") if isinstance(event, dict) else None
    if said and said != kind:  # a kind the sentences do not know is told by its name
        return f"'{said}'"
    return f"a {kind} event" if kind else f"{json.dumps(event)[:80]} (not an event)"


def _fields(event: dict[str, Any], other: Any) -> str:
    """The fields where `event` differs from `other`: "face 12"."""
    other = other if isinstance(other, dict) else {}
    differ = [k for k in event if k in other and event[k] != other[k] and k != "event"]
    return ", ".join(f"{k} {json.dumps(event[k])}" for k in differ) or "the same fields"


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
    side: Annotated[
        str | None,
        typer.Option(
            "--side",
            help="With --window: the side you play at the last step and when T takes "
            "over (its id); the computer plays the others.",
        ),
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
        _window(save, frames, screenshot, size or "1280x800", side)
        return
    for option, given in (
        ("--frames", frames), ("--screenshot", screenshot), ("--size", size), ("--side", side)
    ):  # fmt: skip
        if given is not None:  # it would be ignored without the window
            raise InputError(Problem("<command line>", option, "goes with --window"))
    from game.scenario.saves import read_save

    saved = read_save(save)
    from game.commands.play import say_preparing

    say_preparing()  # the replay's sight lines may compile first: seconds, silent
    game, diverged = saved.play()
    log = game.log()
    changed = saved.changes_sentence()
    corrected = None if diverged is None else diverged.sentence()
    failures: list[str] = []
    if check:
        told = _first_difference(log, saved)  # the two events, in sentences
        mismatch = told if corrected is None else "; ".join(filter(None, (corrected, told)))
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


def _window(
    save: Path, frames: int | None, screenshot: Path | None, size: str, side: str | None
) -> None:
    from game.commands.play import parse_size, say_preparing
    from game.display import no_display
    from game.files import check_writable
    from game.render.app import replay_window
    from game.render.session import SessionError
    from game.sequencer.sentences import plural

    width, height = parse_size(size)
    if screenshot is not None:
        check_png(screenshot, "--screenshot")
        check_writable(screenshot, "--screenshot")
    if not save.exists():  # said before the window's own words
        raise InputError(Problem(str(save), "", "no such file"))
    if frames is None and no_display():
        frames, screenshot = 1, screenshot or Path("skirmish-replay.png")
        typer.echo("no display: drawing one frame (use --frames N --screenshot FILE.png)")
    say_preparing()
    try:
        app = replay_window(
            save, size=(width, height), frames=frames, screenshot=screenshot, person=side
        )
    except SessionError as why:
        raise InputError(why.problems or Problem(str(save), "--window", str(why))) from None
    if screenshot is not None and app.shot_size is not None:
        # its size and frames as play's and edit's screenshots say them, and which step
        w, h = app.shot_size
        at = app.replay.at if app.replay is not None else 0
        step = "its first step" if at == 0 else f"declaration {at}"
        typer.echo(f"{screenshot}: {w}x{h} pixels after {plural(app.frames, 'frame')}, "
                   f"{save.name} at {step}")  # fmt: skip


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
