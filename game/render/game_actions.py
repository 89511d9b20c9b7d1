"""Actions on the game as a whole: undo and redo a declaration, save and load the
game, and let the automatic player declare for the side it plays.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from game.errors import IllegalDeclaration
from game.render.actions import Action
from game.render.following import Following
from game.render.pointing import Impossible
from game.render.session import SAVE_NAME, Session, SessionError


@dataclass(frozen=True, slots=True)
class Undo(Action):
    def perform(self, app: Following) -> None:
        session = app.require_session()
        if not session.undo():
            raise Impossible("nothing to undo")
        app.restart_view()
        app.state = replace(app.state, message="undone")


@dataclass(frozen=True, slots=True)
class Redo(Action):
    def perform(self, app: Following) -> None:
        session = app.require_session()
        if not session.redo_stack:
            raise Impossible("nothing to redo")
        events = session.redo()
        app.follow_game(events)
        app.state = replace(app.state, message="redone")


@dataclass(frozen=True, slots=True)
class SaveGame(Action):
    path: Path | None = None

    def perform(self, app: Following) -> None:
        session = app.require_session()
        path = self.path or Path.cwd() / SAVE_NAME
        try:
            session.save(path)
        except OSError as err:
            raise Impossible(f"not saved: {err}") from None
        app.state = replace(app.state, message=f"saved {path.name}")


@dataclass(frozen=True, slots=True)
class LoadGame(Action):
    path: Path | None = None

    def perform(self, app: Following) -> None:
        path = self.path or Path.cwd() / SAVE_NAME
        try:
            session = Session.load(path)
        except SessionError as why:
            raise Impossible(f"not loaded: {why}") from None
        app.attach(session)
        app.state = replace(app.state, message=f"loaded {path.name}")


@dataclass(frozen=True, slots=True)
class StepAI(Action):
    """The automatic player declares for the side it plays."""

    def perform(self, app: Following) -> None:
        session = app.require_session()
        try:
            events = session.step_ai()
        except IllegalDeclaration as why:
            app.ai_stuck = True
            raise Impossible(f"the computer's declaration was refused: {why}") from None
        app.follow_game(events)
