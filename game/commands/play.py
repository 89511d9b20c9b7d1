"""`skirmish play [SCENARIO]`: the interactive table in a pygame-ce window."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from game.commands._args import (
    TEMPERAMENT_CHOICES,
    WINDOW_THINK_DEFAULT,
    check_png,
    frames_option,
    scenario_argument,
    seed_option,
    think_option,
)
from game.display import WINDOW_LEAST, no_display
from game.errors import InputError, Problem
from game.files import check_writable
from game.paths import scenario_path
from game.rules.registry import DEMO_SCENARIO

if TYPE_CHECKING:
    from game.render.app import App

_SIZE = re.compile(r"^(\d{2,5})[xX](\d{2,5})$")
# The largest window or picture side, in pixels (pygame's limit is 16384; no screen is
# near it).
MAX_SIDE = 8192


def parse_size(text: str, least: tuple[int, int] = WINDOW_LEAST) -> tuple[int, int]:
    """`WxH` in pixels, from `least` up to MAX_SIDE each."""
    m = _SIZE.match(text.strip())
    if not m or not (least[0] <= int(m[1]) <= MAX_SIDE and least[1] <= int(m[2]) <= MAX_SIDE):
        problem = (
            f"expected WxH in pixels, from {least[0]}x{least[1]} up to {MAX_SIDE} each "
            f"(got {text!r})"
        )
        raise InputError(Problem("<command line>", "--size", problem))
    return int(m[1]), int(m[2])


def _named(ai: str | None) -> dict[str, str]:
    """The sides `--ai` names (`red=careful`), each with its pair as written."""
    return {
        pair.partition("=")[0].strip(): pair.strip()
        for pair in (ai or "").split(",")
        if "=" in pair
    }


def _refuse_people(ai: str | None, people: list[str], side: str | None, load: Path | None) -> None:
    """`--ai side=NAME` for a side a person plays is refused where the window would
    silently leave it to the person: the side `--side` gives the person, and a side a
    save records a person for. (A new game's side the scenario gives a person goes to the
    computer: `computer_plays`.) The refusal names what made the side a person's."""
    named = _named(ai)
    for person in people:
        if person not in named:
            continue
        if person == side:  # two options give the one side to two players
            problem = (
                f"--side {side} makes side {side!r} yours and --ai {named[person]} gives it "
                "to the computer: leave out one of the two"
            )
        elif load is not None:
            problem = (
                f"side {person!r} is played by a person in this save (its players record a "
                "person for it); --side with another of its sides seats you there and gives "
                f"{person!r} to the computer, whose player --ai then chooses"
            )
        else:
            continue  # a new game's: the computer plays it (computer_plays)
        raise InputError(Problem("<command line>", "--ai", problem))


def play(
    scenario: Annotated[
        Path | None,
        scenario_argument("Scenario file (TOML) or bundled table; default: the bundled demo."),
    ] = None,
    frames: Annotated[int | None, frames_option()] = None,
    screenshot: Annotated[
        Path | None, typer.Option("--screenshot", help="Save the last frame to this PNG.")
    ] = None,
    size: Annotated[
        str, typer.Option("--size", help="Window size WxH in pixels.", metavar="WxH")
    ] = "1280x800",
    seed: Annotated[int | None, seed_option("Random seed of the game (default 1).")] = None,
    load: Annotated[
        Path | None, typer.Option("--load", help="Carry on a game saved with Ctrl+S.")
    ] = None,
    ai: Annotated[
        str | None,
        typer.Option(
            "--ai",
            help="The computer sides' player (simple, careful, search) or one per side: "
            "red=careful. Default: the player each [[side]] names, else search.",
        ),
    ] = None,
    temperament: Annotated[
        str | None,
        typer.Option(
            "--temperament",
            help=f"The computer's weight set, if it takes one: {TEMPERAMENT_CHOICES}.",
        ),
    ] = None,
    think: Annotated[
        float | None,
        think_option("Seconds the computer may think per declaration.", WINDOW_THINK_DEFAULT),
    ] = None,
    side: Annotated[
        str | None,
        typer.Option(
            "--side",
            help="The side you play (its id); the computer plays the others. Default: as "
            "the scenario, or the save, seats them.",
        ),
    ] = None,
) -> None:
    """Play on the table: select with a click, then declare with the keys of the table's
    rule system (M moves and S shoots in each; the others are its own: what ends a turn or
    an activation, dodges, falls back or takes cover; F1 in the window lists them, and
    README's Playing part has each system's), Enter confirms; sides with player = "ai"
    are played by the computer.
    Point at an enemy for the line of fire and the odds, drag from a base to measure,
    wheel to zoom, right-drag to pan, Ctrl+Z/Y undo/redo, Ctrl+S/O save/load, T takes
    over a side while the computer plays every side (T again hands it back), F2 edits
    the table (a new game starts on it), F12 screenshot, F1 every key, Q quits. Rule
    systems the sequencer does not play open as a viewer."""
    from game.render.session import Session, SessionError, computer_plays, seated
    from game.sequencer.sentences import plural

    width, height = parse_size(size)
    if screenshot is not None:
        check_png(screenshot, "--screenshot")
    if screenshot is not None:
        check_writable(screenshot, "--screenshot")
    session: Session | None = None
    if load is not None:
        if scenario is not None:
            raise InputError(Problem(str(load), "--load", "give a save or a scenario, not both"))
        if seed is not None:
            problem = "a save carries its game's seed: --seed is for a new game"
            raise InputError(Problem(str(load), "--seed", problem))
        if not load.exists():  # said before the note on compiling, as replay says it
            raise InputError(Problem(str(load), "", "no such file"))
        say_preparing()  # the save is replayed before the window opens
        try:
            session = Session.load(load, side)
        except SessionError as why:
            raise InputError(why.problems or Problem(str(load), "--load", str(why))) from None
        loaded = session.scenario
        # a finished game (a playtest's save, say) has nothing left to play: say where
        # it can be watched
        over = session.game.state.finished and (
            f"this game is over: skirmish replay {load} --window steps through it"
        )
        for note in (session.note, session.diverged and session.diverged.sentence(), over):
            if note:  # on stderr, as replay says it: a note is not the command's output
                typer.echo(f"note: {note}", err=True)
    else:
        from game.scenario import load_scenario

        loaded = load_scenario(scenario or scenario_path(DEMO_SCENARIO))
        if side is not None:
            loaded = seated(loaded, side)
        # `--ai SIDE=PLAYER` for a side the scenario gives a person: the computer plays
        # it (both sides, watched: playtesting in the window); not the side --side gives
        handed = [s.id for s in loaded.sides if s.id in _named(ai) and s.id != side]
        loaded = computer_plays(loaded, handed)
        try:
            session = Session.start(loaded, 1 if seed is None else seed)
        except SessionError as why:
            typer.echo(f"{why}: the table opens as a viewer")
    if session is not None and (ai, temperament, think) != (None, None, None):
        from game.playtest.plan import choose_players
        from game.render.play_rules import WINDOW_POLICY

        options = {"temperament": temperament, "think": think}
        computer = [s.id for s in loaded.sides if session.is_ai(s.id)]
        if not computer:
            raise InputError(
                Problem(
                    "<command line>",
                    "--ai" if ai is not None else "--temperament" if temperament else "--think",
                    "a person plays every side of this scenario: there is no computer "
                    "side to choose a player for (--ai SIDE=PLAYER gives the computer a "
                    'side, as player = "ai" in its [[side]] does)',
                )
            )
        people = [s.id for s in loaded.sides if s.id not in computer]
        _refuse_people(ai, people, side, load)
        choice = choose_players(loaded, ai, options, default=WINDOW_POLICY, only=computer)
        session.use_players(choice)
    if no_display() and (frames is None or screenshot is None):
        # No screen to open a window on: draw the table (once, unless --frames says) and
        # save it, rather than run an invisible window for ever or for nothing.
        if frames is None:
            typer.echo("no display: drawing one frame (use --frames N --screenshot FILE.png)")
        else:
            typer.echo(f"no display: drawing {plural(frames, 'frame')} to a picture")
        frames = frames or 1
        screenshot = screenshot or Path("skirmish-play.png")
    from game.render.app import App

    app = App.window(loaded, size=(width, height), session=session)
    if load is not None:  # the save is the game: Ctrl+S saves it back, Ctrl+O opens it
        app.save_path = app.opened_from = load
    if load is not None and session is not None and session.diverged is not None:
        from dataclasses import replace

        from game.render.replay import branch_path

        # the save keeps every declaration it has: Ctrl+S saves this game beside it
        app.save_path = branch_path(load, session.diverged.played)
        said = session.diverged.sentence()
        app.state = replace(app.state, message=said[:1].upper() + said[1:])
    from game.render.recovery import ended_by_sigterm, save_recovery

    try:
        with ended_by_sigterm(app):
            _prepare(app)
            app.run(frames)
        if app.terminated:  # one SIGTERM: the unsaved game kept, then exit 0
            try:
                typer.echo(save_recovery(app), err=True)
            except OSError as err:
                typer.echo(f"skirmish play: ended by SIGTERM; not saved: {err}", err=True)
                raise typer.Exit(1) from None
            return
        if screenshot is not None:
            app.save_screenshot(screenshot)
            w, h = app.surface.get_size()
            typer.echo(f"{screenshot}: {w}x{h} pixels after {plural(app.frames, 'frame')}")
    finally:
        import pygame

        pygame.display.quit()


def _prepare(app: App) -> None:
    """The window's line of fire prepared before its first frame (App.prepare_line_of_fire),
    and, when the first run after an install compiled it, how long that took, said on
    stderr as playtest says it: a window with no display (--frames, --screenshot) waited
    about 9 s saying nothing (tester9)."""
    import time

    from game.geometry.compiled import compiled_afresh, compiled_note

    before, start = compiled_afresh(), time.perf_counter()
    app.prepare_line_of_fire()
    if compiled_afresh() > before:
        took = time.perf_counter() - start
        typer.echo(compiled_note(took, "before the table's first frame"), err=True)


def say_preparing() -> None:
    """Said before a saved game is replayed in the first run after an install, which
    compiles the line-of-fire loops first (the window, not yet open, cannot say it); on
    stderr, by every command (a note is not output: replay's stdout is the game's log)."""
    from game.geometry.compiled import PREPARING, compile_due

    if compile_due():
        typer.echo(PREPARING, err=True)


def register(app: typer.Typer) -> None:
    app.command("play")(play)
