"""`skirmish edit [SCENARIO]`: lay out a table in the window and save it as a scenario
(game.scenario.editing for the edits, game.render.editor for the window)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from game.commands._args import check_png, frames_option, scenario_argument
from game.display import no_display
from game.errors import InputError, Problem
from game.files import check_writable
from game.paths import is_bundled, save_path, shown
from game.rules.registry import RULESETS, UnknownRuleset, find_ruleset

if TYPE_CHECKING:
    from game.scenario.editing import Editing


def edit(
    scenario: Annotated[
        Path | None,
        scenario_argument(
            "Scenario file (TOML) to edit, or a new file to lay out; none: a new table."
        ),
    ] = None,
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", help="Rule system of a new table.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Save here (default: SCENARIO; a bundled table: ./NAME.toml)."
        ),
    ] = None,
    frames: Annotated[int | None, frames_option()] = None,
    screenshot: Annotated[
        Path | None, typer.Option("--screenshot", help="Save the last frame to this PNG.")
    ] = None,
    size: Annotated[
        str, typer.Option("--size", help="Window size WxH in pixels.", metavar="WxH")
    ] = "1280x800",
) -> None:
    """Lay out a table: V select, M models, B box, P polygon, W wall, O objective; drag to
    move, handles to resize and turn; Shift+click a second model for the line of fire;
    Ctrl+Z/Y undo/redo, Ctrl+S save (checked, atomic), Q quits. An edit that would make
    the table invalid is refused with the reason."""
    from game.commands.play import parse_size
    from game.scenario.editing import Editing, EditRefused, new_document

    width, height = parse_size(size)
    if screenshot is not None:
        check_png(screenshot, "--screenshot")
    for path, option in ((screenshot, "--screenshot"), (out, "--out")):
        if path is not None:
            check_writable(path, option)
    for path, option in ((out, "--out"), (scenario, "SCENARIO")):
        if path is not None and path.suffix.lower() != ".toml" and not path.exists():
            raise InputError(Problem(str(path), option, "a scenario is a .toml file"))
    if scenario is not None and scenario.exists():
        if ruleset is not None:
            problem = "the table's rule system is in the file; --ruleset is for a new table"
            raise InputError(Problem(str(scenario), "--ruleset", problem))
        editing = Editing.open(scenario)
    else:
        name = ruleset or next(iter(RULESETS))
        try:
            find_ruleset(name)
        except UnknownRuleset:
            known = ", ".join(RULESETS)
            problem = f"unknown ruleset {name!r} (known: {known})"
            raise InputError(Problem("<command line>", "--ruleset", problem)) from None
        title = scenario.stem if scenario is not None else "New table"
        try:
            editing = Editing.start(new_document(name, title), scenario)
        except EditRefused as why:
            raise InputError(Problem("<command line>", "--ruleset", str(why))) from None
    save_to = out or (save_path(scenario) if scenario is not None else None)
    save_to = save_to or Path("skirmish-table.toml")
    if frames is None and no_display():
        frames = 1
        screenshot = screenshot or Path("skirmish-edit.png")
        typer.echo("no display: drawing one frame (use --frames N --screenshot FILE.png)")
    from game.render.editor import Editor
    from game.sequencer.sentences import plural

    editor = Editor.window(editing, size=(width, height), save_to=save_to)
    if scenario is not None and out is None and is_bundled(scenario):
        editor.state.message = f"a bundled table: Ctrl+S saves it as {shown(save_to)}"
    try:
        editor.run(frames)
        if screenshot is not None:
            editor.save_screenshot(screenshot)
            w, h = editor.surface.get_size()
            typer.echo(f"{screenshot}: {w}x{h} pixels after {plural(editor.frames, 'frame')}")
    finally:
        import pygame

        pygame.display.quit()
    if editor.unsaved():  # the window asked first (Q twice, or closed twice)
        typer.echo(unsaved_said(editing, save_to))


def unsaved_said(editing: Editing, save_to: Path) -> str:
    """What quitting without saving lost, on stdout: the edits and what they changed
    (`Editing.lost`), and what the file holds."""
    held = "the file keeps the table as last saved" if save_to.exists() else "no file written"
    return f"{save_to}: not saved: {editing.lost()}; {held}"


def register(app: typer.Typer) -> None:
    app.command("edit")(edit)
