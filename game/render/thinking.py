"""The automatic player's choice worked out beside the window: on a worker thread, so
that the window keeps taking its events (it can be closed, resized and redrawn) while
the computer thinks. Only the waiting changes: the choice is asked of the same player
on the same game as it would be at once, and the game is not changed meanwhile (the
window takes only closing, resizing, help and screenshots until the choice is in; T,
taking a side over, waits for it), so the same seed gives the same declaration.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pygame

# What the window still does while the computer thinks: nothing that reads the game
# beyond drawing it, nothing that changes it.
STILL_TAKEN = frozenset({
    pygame.QUIT, pygame.VIDEORESIZE, pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED,
    pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED, pygame.WINDOWCLOSE,
})  # fmt: skip
KEYS_TAKEN = frozenset({pygame.K_q, pygame.K_F1, pygame.K_F12})


class Thinking:
    """`work()` running on a daemon thread (closing the window does not wait for it)."""

    def __init__(self, work: Callable[[], Any]) -> None:
        self.result: Any = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._run, args=(work,), name="skirmish-thinking", daemon=True
        )
        self._thread.start()

    def _run(self, work: Callable[[], Any]) -> None:
        try:
            self.result = work()
        except BaseException as error:  # handed to the window's thread by take()
            self.error = error

    @property
    def done(self) -> bool:
        return not self._thread.is_alive()

    def take(self) -> Any:
        """The choice (raises what the player raised)."""
        if self.error is not None:
            raise self.error
        return self.result


def taken_while_thinking(event: pygame.event.Event) -> bool:
    """Whether the window takes `event` while the computer thinks."""
    if event.type in STILL_TAKEN:
        return True
    return event.type == pygame.KEYDOWN and (
        event.key in KEYS_TAKEN or getattr(event, "unicode", "") == "?"
    )
