"""One SIGTERM ends `skirmish play` (a logout, a shutdown, a service manager): the
window's close button asks first where declarations are not saved ("changes not
saved"), which SDL's own handler turned the signal into, so a single SIGTERM left the
game waiting (tester16 finding 5). Here the signal stops the window's loop at the next
frame; the game a person has not saved is written, atomically as Ctrl+S writes it, to a
recovery file beside where Ctrl+S would save it, and the process exits 0."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from game.render.following import Following
from game.render.replay import new_game_path

RECOVERY_SUFFIX = ".recovery.json"


@contextmanager
def ended_by_sigterm(app: Following) -> Iterator[None]:
    """While inside, SIGTERM asks `app` to stop (`app.terminated`, its loop ends at the
    next frame) instead of SDL's handler posting a close, which may ask first; the
    handler before is restored after."""

    def stop(signum: int, frame: FrameType | None) -> None:
        app.terminated = True

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def recovery_path(app: Following) -> Path:
    """Beside where Ctrl+S would save the game: the game's own file, or the new game's
    (`new_game_path` in the current folder), with RECOVERY_SUFFIX for its ".json"
    (skirmish-save.recovery.json)."""
    session = app.require_session()
    usual = app.save_path or new_game_path(Path.cwd(), session.game)
    return usual.with_name(usual.stem + RECOVERY_SUFFIX)


def save_recovery(app: Following) -> str:
    """Write the game to its recovery file where a person's work is not saved; what was
    done, in one line for stderr (OSError: it could not be written)."""
    session = app.session
    if session is None or not session.unsaved():
        return "skirmish play: ended by SIGTERM, nothing unsaved"
    path = recovery_path(app)
    session.save(path)
    return (
        f"skirmish play: ended by SIGTERM; the game not saved is in {path} "
        f"(skirmish play --load {path} plays on)"
    )
