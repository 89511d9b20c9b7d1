"""The editor inside `skirmish play`: F2 lays out the table the game is played on, in
the same window (game.render.editor); leaving it (F2 or Q) goes back to the game, which
starts again from its seed on the edited table when the table changed (and a game can
start on it)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pygame

from game.errors import InputError
from game.render.editor import Editor
from game.render.session import Session, SessionError
from game.render.state import AppState
from game.scenario.editing import Editing, EditRefused, document_of
from game.scenario.writer import Document, read_document

if TYPE_CHECKING:
    from game.scenario import Scenario


class Playing(Protocol):
    """What the edit mode reads and changes of the table window (game.render.app.App)."""

    session: Session | None
    state: AppState
    base_scenario: Scenario
    scenario: Scenario
    windowed: bool
    save_path: Path | None
    opened_from: Path | None

    def attach(self, session: Session) -> None: ...


def open_editor(app: Playing, surface: pygame.Surface) -> Editor | None:
    """An editor on the table being played (None, with the reason shown, if it cannot)."""
    scenario = app.base_scenario
    try:
        editing = Editing.start(document_of(scenario), scenario.path)
    except EditRefused as why:
        said = f"cannot edit this table: {why}"
        app.state = replace(app.state, message=said, refusal=said)
        return None
    # saved beside where skirmish runs, never over a bundled table
    where = Path.cwd() / scenario.path.name
    drawn_on = None if app.windowed else surface
    if where.resolve() == scenario.path.resolve():  # Ctrl+S writes the game's own file
        editing.saved = _file_holds(where)  # "saved" while it holds the table as it is
    editor = Editor(editing, size=app.state.size, surface=drawn_on, save_to=where)
    editor.windowed = app.windowed
    editor.asks_before_quitting = False  # leaving takes the edited table to the game
    editor.state.message = "editing the table: F2 or Q goes back to the game"
    return editor


def _file_holds(path: Path) -> Document | None:
    """The table a scenario file holds now (None when it is gone or not valid)."""
    try:
        return read_document(path)
    except (InputError, OSError):
        return None


def _table_unsaved(app: Playing, editor: Editor) -> bool:
    """Whether no file holds the edited table: the editor's Ctrl+S did not write it as
    it is, and it differs from the table the game was on, or that one was an edit no
    file holds either (a second trip to the editor, its edits undone)."""
    editing = editor.editing
    if editing.saved is not None:
        return editing.doc != editing.saved
    before = app.session is not None and app.session.table_unsaved
    return before or editor.unsaved()


def leave_editor(app: Playing, editor: Editor) -> bool:
    """Back to the game (True): on the edited table (a new game from the same seed) if
    it changed. A table no game can start on keeps the window in the editor (False),
    saying why: the game goes on as it was, on its own table, only when F2 or Q is
    pressed again with the table unchanged (fix10b: it went on drawn on the edited one)."""
    edited = editor.editing.scenario
    if editor.editing.undo_stack == [] and editor.editing.doc == document_of(app.base_scenario):
        if app.session is not None:  # Ctrl+S in the editor may have written it since
            app.session.table_unsaved = _table_unsaved(app, editor)
        app.state = replace(app.state, message="the table is as it was")
        return True
    seed = app.session.game.seed if app.session is not None else 1
    try:
        session = Session.start(edited, seed)
    except SessionError as why:
        if editor.left_unplayable == editor.editing.doc:
            said = "the edits were left: the game goes on as it was"
            app.state = replace(app.state, message=said)
            return True
        editor.left_unplayable = editor.editing.doc
        editor.state.running = True
        editor.state.refused = (
            f"no game on this table: {why}; F2 or Q again goes back to the game as it was, "
            "without these edits (Ctrl+S saves them)"
        )
        return False
    session.table_unsaved = _table_unsaved(app, editor)
    app.attach(session)
    app.save_path = app.opened_from = None  # a new game: saved under a name of its own
    app.state = replace(app.state, message="the table was edited: a new game starts on it")
    return True
