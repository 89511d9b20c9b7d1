"""Q (or closing the window) asks first when it would lose work (tester9 finding 1:
`skirmish edit mine.toml`, a model dragged after Ctrl+S, then Q closed the window at
once and the move was lost, stdout saying so only afterwards; in `skirmish play`, Q
ended an unsaved game). A second Q quits; `--frames` runs and a game with nothing to
lose quit at once."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.playtest.batch import automatic_player
from game.render.app import App
from game.render.editor import Editor
from game.render.game_actions import SaveGame, StepAI, Undo
from game.render.session import Session
from game.scenario import load_scenario
from game.scenario.editing import Editing, move_model
from tests.conftest import SCENARIOS

ASKED = "changes not saved: Q again to quit without saving, Ctrl+S to save"


def _key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="")


def _frame(app: App | Editor, *events: pygame.event.Event) -> None:
    for event in events:
        pygame.event.post(event)
    app.frame()


def _played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> App:
    """The demo with a person's first Order declared (the careful player's choice)."""
    monkeypatch.chdir(tmp_path)
    scenario = load_scenario(SCENARIOS / "infinity-demo.toml")
    session = Session.start(scenario, seed=3)
    app = App(scenario, session=session)
    careful = automatic_player(session.game.engine, "careful")
    awaiting = session.game.awaiting()
    assert not session.is_ai(awaiting.side)
    app.declare(careful.choose(session.game.state, awaiting))
    return app


CLOSE = "changes not saved: close the window again (or Q) to quit without saving, Ctrl+S to save"


@pytest.mark.parametrize(
    ("event", "said"),
    [(_key(pygame.K_q), ASKED), (pygame.event.Event(pygame.QUIT), CLOSE)],
    ids=["q", "closing the window"],
)
def test_q_or_closing_asks_before_ending_an_unsaved_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, event: pygame.event.Event, said: str
) -> None:
    app = _played(tmp_path, monkeypatch)
    _frame(app, event)
    assert app.state.running and app.state.message == said
    _frame(app, event)
    assert not app.state.running


def test_a_saved_game_or_one_with_nothing_of_a_persons_quits_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _played(tmp_path, monkeypatch)
    app.perform(SaveGame())
    _frame(app, _key(pygame.K_q))
    assert not app.state.running
    # undone back to what the file holds: nothing to lose
    again = _played(tmp_path, monkeypatch)
    again.perform(Undo())
    _frame(again, _key(pygame.K_q))
    assert not again.state.running
    # a new game nobody declared in
    fresh = App(load_scenario(SCENARIOS / "infinity-demo.toml"))
    _frame(fresh, _key(pygame.K_q))
    assert not fresh.state.running


def test_a_declaration_after_the_question_asks_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _played(tmp_path, monkeypatch)
    _frame(app, _key(pygame.K_q))
    session = app.session
    assert session is not None
    while session.is_ai(session.game.awaiting().side):  # the computer's AROs
        app.perform(StepAI())
    assert app.state.running
    awaiting = session.game.awaiting()
    careful = automatic_player(session.game.engine, "careful")
    app.declare(careful.choose(session.game.state, awaiting))
    _frame(app, _key(pygame.K_q))
    assert app.state.running and app.state.message == ASKED


def _editor(tmp_path: Path) -> Editor:
    path = tmp_path / "mine.toml"
    path.write_text((SCENARIOS / "infinity-demo.toml").read_text("utf-8"), encoding="utf-8")
    return Editor(Editing.open(path), surface=pygame.Surface((800, 600)))


def test_the_editor_asks_before_losing_a_move_made_after_the_save(tmp_path: Path) -> None:
    editor = _editor(tmp_path)
    editor.save()
    first = editor.editing.doc.models[0]
    editor.editing.apply(move_model(first.id, (first.at[0] + 1.0, first.at[1])))
    _frame(editor, _key(pygame.K_q))
    assert editor.state.running and editor.state.message == ASKED
    _frame(editor, _key(pygame.K_q))
    assert not editor.state.running


def test_the_editor_quits_at_once_with_nothing_to_lose(tmp_path: Path) -> None:
    editor = _editor(tmp_path)
    _frame(editor, _key(pygame.K_q))
    assert not editor.state.running
    closed = _editor(tmp_path)
    first = closed.editing.doc.models[0]
    closed.editing.apply(move_model(first.id, (first.at[0] + 1.0, first.at[1])))
    closed.editing.undo()
    _frame(closed, pygame.event.Event(pygame.QUIT))
    assert not closed.state.running


def test_frames_runs_still_end_by_themselves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for argv in (["play", "infinity-demo"], ["edit", "infinity-demo"]):
        assert main([*argv, "--frames", "3", "--screenshot", "s.png", "--size", "800x600"]) == 0


def _edited(tmp_path: Path) -> Editor:
    """The demo opened in the editor, its first model moved an inch (unsaved)."""
    editor = _editor(tmp_path)
    first = editor.editing.doc.models[0]
    editor.editing.apply(move_model(first.id, (first.at[0] + 1.0, first.at[1])))
    return editor


def _refused_click(editor: Editor) -> None:
    """With the model tool, a click on a model standing there: a new model is refused
    (overlap)."""
    from game.render.editor_script import click

    editor.state.tool = "model"
    click(editor, editor.editing.doc.models[1].at)
    assert editor.state.refused


def test_the_editors_q_warns_over_a_refusal_showing(tmp_path: Path) -> None:
    """tester13's finding 1a: with a refusal in the panel, Q left the refusal showing
    (the panel shows a refusal before any message) and the next Q quit unwarned."""
    editor = _edited(tmp_path)
    _refused_click(editor)
    _frame(editor, _key(pygame.K_q))
    assert editor.state.running and editor.state.message == ASKED
    assert editor.state.refused == ""
    _frame(editor, _key(pygame.K_q))
    assert not editor.state.running


@pytest.mark.parametrize(
    "between",
    ["escape", "a change of tool", "a refused click"],
)
def test_anything_but_q_after_the_warning_disarms_it(tmp_path: Path, between: str) -> None:
    """tester13's finding 1b: once warned, Esc, a change of tool or a refused click left
    the warning armed, and a Q pressed much later quit at once and lost the edits."""
    editor = _edited(tmp_path)
    _frame(editor, _key(pygame.K_q))
    assert editor.state.message == ASKED
    if between == "escape":
        _frame(editor, _key(pygame.K_ESCAPE))
    elif between == "a change of tool":
        _frame(editor, _key(pygame.K_b))
    else:
        _refused_click(editor)
    _frame(editor, _key(pygame.K_q))
    assert editor.state.running and editor.state.message == ASKED
    _frame(editor, _key(pygame.K_LSHIFT), _key(pygame.K_q))  # a modifier leaves it armed
    assert not editor.state.running


def _click(app: App) -> pygame.event.Event:
    """A left click on the table's middle (nothing of a person's declared by it)."""
    x, y = app.state.table_size
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x // 2, y // 2))


@pytest.mark.parametrize("between", ["escape", "tab", "a click", "s", "f2 and back"])
def test_the_play_windows_warning_is_disarmed_by_anything_but_q(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, between: str
) -> None:
    """retest13's finding 1: in play, Q warned, then Esc (or Tab, a click, S) and a Q
    seconds later quit at once and lost the declaration (the editor's 1b, mended there
    by 77dce61). The warning, disarmed, leaves the panel."""
    app = _played(tmp_path, monkeypatch)
    _frame(app, _key(pygame.K_q))
    assert app.state.message == ASKED
    event = {
        "escape": _key(pygame.K_ESCAPE),
        "tab": _key(pygame.K_TAB),
        "a click": _click(app),
        "s": _key(pygame.K_s),
        "f2 and back": _key(pygame.K_F2),
    }[between]
    _frame(app, event)
    if between == "f2 and back":  # the table unchanged: the game goes on as it was
        assert app.state.message == F2_ASKED  # F2's own warning (its declaration unsaved)
        _frame(app, event)
        assert app.editor is not None
        _frame(app, _key(pygame.K_F2))
        assert app.editor is None
    assert app.state.running and app.state.message != ASKED
    _frame(app, _key(pygame.K_q))
    assert app.state.running and app.state.message == ASKED
    _frame(app, _key(pygame.K_LSHIFT), _key(pygame.K_q))  # a modifier leaves it armed
    assert not app.state.running


def test_the_play_windows_warning_takes_a_refusals_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The warning is said in the plain colour, not a refusal's (the panel colours the
    message a refusal while the two are the same)."""
    app = _played(tmp_path, monkeypatch)
    from dataclasses import replace

    app.state = replace(app.state, message="refused: too far", refusal="refused: too far")
    _frame(app, _key(pygame.K_q))
    assert app.state.message == ASKED and app.state.refusal == ""


def test_the_editors_warning_leaves_the_panel_once_disarmed(tmp_path: Path) -> None:
    """retest13 on finding 1: after Esc the editor's old warning stayed in the panel."""
    editor = _edited(tmp_path)
    _frame(editor, _key(pygame.K_q))
    assert editor.state.message == ASKED
    _frame(editor, _key(pygame.K_ESCAPE))
    assert editor.state.message != ASKED


def _table_edited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> App:
    """The demo's table edited through F2 (its first model moved an inch) and the game
    back on it, nothing declared on it yet."""
    monkeypatch.chdir(tmp_path)
    scenario = load_scenario(SCENARIOS / "infinity-demo.toml")
    app = App(scenario, session=Session.start(scenario, seed=3))
    _frame(app, _key(pygame.K_F2))
    assert app.editor is not None
    first = app.editor.editing.doc.models[0]
    app.editor.editing.apply(move_model(first.id, (first.at[0] + 1.0, first.at[1])))
    _frame(app, _key(pygame.K_F2))
    assert app.editor is None and app.state.message.startswith("the table was edited")
    return app


def test_q_asks_before_losing_the_tables_edits_made_through_f2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """session 13's leftover: the table edited through F2 and the new game on it, nothing
    declared, Q quit at once and the edits were lost without a word (no file holds them:
    the editor's Ctrl+S was not pressed, nor the game's)."""
    app = _table_edited(tmp_path, monkeypatch)
    _frame(app, _key(pygame.K_q))
    assert app.state.running and app.state.message == ASKED
    _frame(app, _key(pygame.K_ESCAPE))  # anything else disarms it, as for declarations
    _frame(app, _key(pygame.K_q))
    assert app.state.running and app.state.message == ASKED
    _frame(app, _key(pygame.K_q))
    assert not app.state.running


def test_the_tables_edits_saved_with_the_game_or_in_the_editor_quit_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _table_edited(tmp_path, monkeypatch)
    app.perform(SaveGame())  # the save carries the edited table
    _frame(app, _key(pygame.K_q))
    assert not app.state.running
    # saved in the editor (Ctrl+S there) before going back
    again = _table_edited(tmp_path, monkeypatch)
    _frame(again, _key(pygame.K_F2))
    assert again.editor is not None
    again.editor.save()
    _frame(again, _key(pygame.K_F2))  # the table as the file holds it: the game goes on
    assert again.editor is None
    _frame(again, _key(pygame.K_q))
    assert not again.state.running


def test_the_tables_edits_stay_unsaved_through_a_second_trip_that_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second F2 trip whose edit is undone starts a new game on the same edited table:
    still no file holds it."""
    app = _table_edited(tmp_path, monkeypatch)
    _frame(app, _key(pygame.K_F2))
    assert app.editor is not None
    first = app.editor.editing.doc.models[0]
    app.editor.editing.apply(move_model(first.id, (first.at[0] + 1.0, first.at[1])))
    app.editor.editing.undo()
    _frame(app, _key(pygame.K_F2))
    assert app.editor is None
    _frame(app, _key(pygame.K_q))
    assert app.state.running and app.state.message == ASKED


CTRL_O = "changes not saved: Ctrl+O again to open skirmish-save.json without saving, Ctrl+S to save"
F2_ASKED = (
    "changes not saved: F2 again to edit the table (a changed table starts a new game) "
    "without saving, Ctrl+S to save"
)


def _declare(app: App) -> None:
    """A person's next declaration (the careful player's), past the computer's AROs."""
    session = app.session
    assert session is not None
    while session.is_ai(session.game.awaiting().side):
        app.perform(StepAI())
    careful = automatic_player(session.game.engine, "careful")
    app.declare(careful.choose(session.game.state, session.game.awaiting()))


def test_ctrl_o_asks_before_opening_the_save_over_an_unsaved_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fix14a's finding: Ctrl+O opened skirmish-save.json over the game at once, losing
    the declarations made since it was saved. Now it warns as Q does: any other key
    disarms the warning, Ctrl+O again straight after opens the save."""
    app = _played(tmp_path, monkeypatch)
    app.perform(SaveGame())
    _declare(app)
    session = app.session
    assert session is not None and session.unsaved_declarations()
    ctrl_o = _key(pygame.K_o, pygame.KMOD_LCTRL)
    _frame(app, ctrl_o)
    assert app.session is session and app.replay is None and app.state.message == CTRL_O
    _frame(app, _key(pygame.K_ESCAPE))  # anything else disarms it
    assert app.state.message != CTRL_O
    _frame(app, _key(pygame.K_LCTRL), ctrl_o)  # the Ctrl held for it leaves it armed
    assert app.session is session and app.state.message == CTRL_O
    _frame(app, _key(pygame.K_q))  # Q is another key: its own warning, not a quit
    assert app.state.running and app.state.message == ASKED
    _frame(app, ctrl_o)
    assert app.state.message == CTRL_O
    _frame(app, ctrl_o)
    assert app.state.message == "loaded skirmish-save.json" and app.session is not session


def test_ctrl_o_with_no_save_to_open_says_so_at_once_without_the_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """review14: with no skirmish-save.json here, Ctrl+O over an unsaved game warned
    "Ctrl+O again to open skirmish-save.json without saving", a file there was not; only
    the second Ctrl+O said so. A save that cannot be opened loses nothing: said at once,
    nothing armed, the game as it was."""
    app = _played(tmp_path, monkeypatch)
    session = app.session
    assert session is not None and session.unsaved_declarations()
    assert not (tmp_path / "skirmish-save.json").exists()
    _frame(app, _key(pygame.K_o, pygame.KMOD_LCTRL))
    assert app.state.message.startswith("not loaded: ")
    assert app.state.message.endswith("skirmish-save.json: no such file")
    assert app.state.asked is None and app.session is session and app.replay is None


def test_ctrl_o_asks_before_losing_the_tables_edits_and_opens_at_once_when_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _table_edited(tmp_path, monkeypatch)
    app.perform(SaveGame())  # the save carries the edited table: nothing to lose
    _frame(app, _key(pygame.K_o, pygame.KMOD_LCTRL))
    assert app.state.message == "loaded skirmish-save.json"
    edited = _table_edited(tmp_path, monkeypatch)
    _frame(edited, _key(pygame.K_o, pygame.KMOD_LCTRL))
    assert edited.state.message == CTRL_O


def test_f2_asks_before_a_changed_table_drops_the_games_unsaved_declarations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fix14a's finding: leaving the editor with edits started a new game on the table
    and dropped the old game's declarations not saved without a word. F2 warns first,
    where the game's Ctrl+S can still save them (the editor's saves the table); any other
    key disarms it; F2 again edits; saved, F2 edits at once."""
    app = _played(tmp_path, monkeypatch)
    session = app.session
    _frame(app, _key(pygame.K_F2))
    assert app.editor is None and app.state.message == F2_ASKED
    _frame(app, _key(pygame.K_TAB))
    assert app.state.message != F2_ASKED
    _frame(app, _key(pygame.K_F2))
    assert app.editor is None and app.state.message == F2_ASKED
    _frame(app, _key(pygame.K_F2))
    assert app.editor is not None
    first = app.editor.editing.doc.models[0]
    app.editor.editing.apply(move_model(first.id, (first.at[0] + 1.0, first.at[1])))
    _frame(app, _key(pygame.K_F2))
    assert app.editor is None and app.session is not session
    assert app.state.message == "the table was edited: a new game starts on it"
    # saved first: F2 opens the editor at once
    saved = _played(tmp_path, monkeypatch)
    saved.perform(SaveGame())
    _frame(saved, _key(pygame.K_F2))
    assert saved.editor is not None


@pytest.mark.parametrize(
    ("event", "play_disarmed", "editor_disarmed"),
    [
        (_key(pygame.K_q), False, False),
        (_key(pygame.K_F2), True, False),  # F2 leaves the editor as Q does
        (_key(pygame.K_ESCAPE), True, True),
        (_key(pygame.K_LSHIFT), False, False),
        (pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(5, 5)), True, True),
        (pygame.event.Event(pygame.QUIT), False, False),  # closing again: the question
    ],
    ids=["q", "f2", "escape", "shift", "a click", "closing"],
)
def test_one_question_serves_the_play_window_and_the_editor(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    event: pygame.event.Event,
    play_disarmed: bool,
    editor_disarmed: bool,
) -> None:
    """fix15b: the editor's `quit_asked` and the play window's `asked` were two copies of
    one question; both windows now keep it as game.render.unsaved's `Asked` (what was
    pressed, the work it would lose) and disarm it by the same `disarms`."""
    from game.render.unsaved import AGAIN, disarms

    app = _played(tmp_path, monkeypatch)
    _frame(app, _key(pygame.K_q))
    editor = _edited(tmp_path)
    _frame(editor, _key(pygame.K_q))
    assert app.state.asked is not None and editor.asked == ("leave", editor.editing.doc)
    assert set(AGAIN) == {"quit", "open", "edit", "leave"}
    assert disarms(event, app.state.asked[0]) is play_disarmed
    assert disarms(event, editor.asked[0]) is editor_disarmed


def test_the_question_is_in_the_warning_colour_in_the_editor_and_in_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tester15 finding 13: the editor drew "changes not saved" green, the colour of
    "saved ..." and other successes, and the play window white: both draw it in the play
    window's warning colour, as a refusal; what was done stays as it was."""
    from game.render import editor_draw, frame
    from game.render.style import WARN

    editor = _edited(tmp_path)
    _frame(editor, _key(pygame.K_q))
    lines = editor_draw._panel_lines(editor, editor.editing.scenario, None)
    assert [line.colour for line in lines if line.text == ASKED] == [WARN]
    editor.save()
    lines = editor_draw._panel_lines(editor, editor.editing.scenario, None)
    said = [line.colour for line in lines if line.text == editor.state.message]
    assert said == [editor_draw.DONE] and editor.state.message.startswith("saved")
    app = _played(tmp_path, monkeypatch)
    _frame(app, _key(pygame.K_q))
    lines = frame.panel_lines(app.scenario, app.state)
    assert [line.colour for line in lines if line.text == ASKED] == [WARN]


def test_quitting_the_editor_unsaved_says_what_was_lost(tmp_path: Path) -> None:
    """tester15 finding 13: after Q Q, stdout said only "tri.toml: changes after the last
    save not saved": it says how many edits and what they changed, and what the file holds."""
    from game.commands.edit import unsaved_said
    from game.scenario.editing import add_wall, delete

    editor = _edited(tmp_path)  # a model moved, then saved: nothing lost
    editor.save()
    path = editor.editing.path
    assert path is not None and not editor.editing.lost()
    first, second = editor.editing.doc.models[:2]
    editor.editing.apply(move_model(first.id, (first.at[0] - 1.0, first.at[1])))
    editor.editing.apply(move_model(first.id, (first.at[0] - 0.5, first.at[1])))
    editor.editing.apply(delete(second.id))
    editor.editing.apply(add_wall((1, 1), (1, 4), 1.0))
    assert unsaved_said(editor.editing, path) == (
        f"{path}: not saved: 4 edits: scenery 'wall-1' added, model {first.id!r} changed, "
        f"model {second.id!r} removed; the file keeps the table as last saved"
    )
