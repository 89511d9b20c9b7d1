"""Actions on the game as a whole: undo and redo a declaration, save the game, open a
saved one and step through it (taking over at any step), and let the automatic
player declare for the side it plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from game.errors import IllegalDeclaration
from game.render import dice_log
from game.render.actions import Action, warns_first
from game.render.following import Following
from game.render.pointing import Impossible
from game.render.replay import Replay, new_game_path
from game.render.session import SAVE_NAME, SessionError, Taken
from game.render.state import UNSAVED
from game.scenario.names import table_names, told_names
from game.sequencer.events import Declared
from game.sequencer.sentences import Teller, joined, readable


@dataclass(frozen=True, slots=True)
class Undo(Action):
    def perform(self, app: Following) -> None:
        session = app.require_session()
        before = list(session.game.events)
        if not session.undo():
            raise Impossible(session.nothing_to_undo())
        app.base_scenario = session.scenario  # seated as it was then (Session.undo)
        app.restart_view()
        undone = _what(app, before, len(session.game.events), session.redo_stack[-1][0])
        _said(app, "undone", undone, session.reseated)


@dataclass(frozen=True, slots=True)
class Redo(Action):
    def perform(self, app: Following) -> None:
        session = app.require_session()
        if not session.redo_stack:
            raise Impossible("nothing to redo")
        taken = session.redo_stack[-1][0]
        start = len(session.game.events)
        events = session.redo()
        if session.reseated:  # the log says again where a side changed hands
            app.base_scenario = session.scenario
            app.restart_view()
        else:
            app.follow_game(events)
        redone = _what(app, session.game.events, start, taken)
        _said(app, "redone", redone, session.reseated)


def _what(app: Following, events: Sequence[object], start: int, taken: Sequence[Taken]) -> str:
    """What the declarations `taken` from `events[start]` on did, as the dice log tells
    it: the line of the first declaration ("Orlock leader aims"; its side's name before a
    colon left off), with the lines told before it that it brought (a group activation it
    leads), the lines of those the same key made with it ("Red a is activated, then Red a
    makes a standard move"), and how many of the computer's declarations came after."""
    names = told_names(app.scenario)
    teller = Teller(app.scenario.ruleset, names)
    dice_log.tell_all(teller, events[:start])  # what the log remembers of the game so far
    lines = [(event, line.text) for event in events[start:]
             for line in dice_log.tell_all(teller, [event])]  # fmt: skip
    if not lines:
        return ""

    def own(event: object, text: str) -> str:  # the declaring side's name, and no other
        if isinstance(event, Declared):
            return text.removeprefix(f"{names.get(event.side) or readable(event.side)}: ")
        return text

    declared = [i for i, (event, _) in enumerate(lines) if isinstance(event, Declared)]
    first = declared[0] if declared else 0
    said = own(*lines[first])
    if first:  # told before the declaration's own line, and done with it
        said += f" ({'; '.join(text for _, text in lines[:first])})"
    keyed = 1 + sum(t.with_last for t in taken)  # made by the one key with the first
    said += "".join(f", then {own(*lines[i])}" for i in declared[1:keyed])
    later = len(taken) - keyed  # the computer's answers, undone or redone with it
    if later:
        theirs = "declaration" if later == 1 else f"{later} declarations"
        said += f", and the computer's {theirs} after it"
    return said


def _said(app: Following, done: str, what: str, reseated: str) -> None:
    """Undo's or redo's word on the panel with what it took back or made again ("undone:
    Orlock leader aims"); where it seated a side otherwise, who plays it now, on the panel
    and in the dice log ("undone: ...: you play Yu Jing again, as when you declared what
    was undone")."""
    said = f"{done}: {what}" if what else done
    if not reseated:
        app.state = replace(app.state, message=said)
        return
    when = "as when you declared what was undone" if done == "undone" else "as before the undo"
    app.tell(f"{said}: {reseated}, {when}")


@dataclass(frozen=True, slots=True)
class SaveGame(Action):
    path: Path | None = None

    def perform(self, app: Following) -> None:
        session = app.require_session()
        usual = Path.cwd() / SAVE_NAME
        path = self.path or app.save_path or new_game_path(usual.parent, session.game)
        try:
            session.save(path)
        except OSError as err:
            raise Impossible(f"not saved: {err}") from None
        # a new game's file, once chosen, is its own: saved again there, opened by Ctrl+O
        passed = app.save_path is None and self.path is None and path != usual
        app.save_path = self.path or path
        kept = f" ({usual.name} holds another game: kept)" if passed else ""
        app.tell(f"saved {path.name}{kept}")


@dataclass(frozen=True, slots=True)
class LoadGame(Action):
    """Ctrl+O: open a saved game at its last declaration, to play on or to step back
    through (`ReplayStep`); `first`: at its start instead (`skirmish replay --window`).
    The game's own file (saved here, or the save it was opened from), else
    skirmish-save.json in the current folder."""

    path: Path | None = None
    first: bool = False

    def perform(self, app: Following) -> None:
        own = [p for p in (app.save_path, app.opened_from) if p is not None and p.exists()]
        path = self.path or next(iter(own), Path.cwd() / SAVE_NAME)
        try:
            replay = Replay.open(path)
        except SessionError as why:
            # said at once: a file that cannot be opened loses nothing (no warning first)
            raise Impossible(f"not loaded: {why}") from None
        session = app.session
        unsaved = tuple(session.unsaved()) if session is not None else ()
        doing = f"open {path.name}"  # over the game: its declarations not saved are lost
        if warns_first(app, "open", unsaved, UNSAVED.format(again="Ctrl+O again", doing=doing)):
            return
        app.open_replay(replay, 0 if self.first else replay.last)
        said = "" if replay.diverged is None else f": {replay.diverged.sentence()}"
        app.state = replace(app.state, message=f"loaded {path.name}{said}", asked=None)


@dataclass(frozen=True, slots=True)
class ReplayStep(Action):
    """Left/Right one declaration, Up/Down a turn, Home/End the first or last step of
    the saved game open (`Replay.target` names the moves)."""

    move: str

    def perform(self, app: Following) -> None:
        replay = app.replay
        if replay is None:
            raise Impossible("no saved game open: Ctrl+O opens one")
        step = replay.target(self.move)
        if step == replay.at:
            where = "the start" if step == 0 else "the last declaration"
            raise Impossible(f"already at {where}")
        app.show_step(step)


# T on a game that has ended (the panel says who won already)
GAME_OVER = "the game is over: there is nothing to take over"


@dataclass(frozen=True, slots=True)
class TakeOver(Action):
    """T: play on from the step shown (before the last: as a new game, saved apart)."""

    def perform(self, app: Following) -> None:
        replay = app.replay
        if replay is None:
            raise Impossible("no saved game open: Ctrl+O opens one")
        step = replay.at
        if replay.at_end and app.require_session().prompt().over:  # the panel says who won
            raise Impossible(GAME_OVER)
        branch = app.take_over()
        session = app.require_session()
        # a game the computer played on every side: the person takes one (TakeSide)
        seat = session.computer_plays_all() and not session.prompt().over and app.take_side()
        if branch is None:
            message = f"playing on from the last declaration ({step})"
        else:
            message = f"took over at declaration {step}: a new game, Ctrl+S saves {branch.name}"
        app.state = replace(app.state, message=f"{message}; {seat}" if seat else message)


@dataclass(frozen=True, slots=True)
class TakeSide(Action):
    """T while the computer plays every side of a game going on: a person takes over
    the selected model's side, else the active side, from here; the computer plays on
    the others. T again hands that side back to the computer."""

    def perform(self, app: Following) -> None:
        session = app.require_session()
        prompt = session.prompt()
        if prompt.over:  # the panel says already who won
            raise Impossible(GAME_OVER)
        if session.taken:
            said = app.hand_back()  # it follows the game afresh: the state after it
            app.state = replace(app.state, message=said)
            return
        if not session.computer_plays_all():
            names = table_names(session.scenario)
            people = [names.get(s.id, s.id) for s in session.scenario.sides
                      if not session.is_ai(s.id)]  # fmt: skip
            raise Impossible(
                f"a person plays {joined(people)} here already: T takes a side over "
                "while the computer plays every side"
            )
        said = app.take_side()  # it follows the game afresh: the state after it
        app.state = replace(app.state, message=said)


@dataclass(frozen=True, slots=True)
class StepAI(Action):
    """The automatic player declares for the side it plays: `choice` when it was worked
    out already (on the window's worker thread), else it chooses now."""

    choice: Any = None
    chosen: bool = False

    def perform(self, app: Following) -> None:
        session = app.require_session()
        try:
            events = session.declare_ai(self.choice) if self.chosen else session.step_ai()
        except IllegalDeclaration as why:
            app.ai_stuck = True
            raise Impossible(f"the computer's declaration was refused: {why}") from None
        app.follow_game(events)
