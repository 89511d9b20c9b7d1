"""The "changes not saved" question, the play window's and the editor's alike: a key
that would lose a person's work no file holds (Q or closing the window, and in play
Ctrl+O and F2) warns first (UNSAVED); the same key again straight after does it. Any
other key (not a modifier held for it) or any click disarms the warning, so that the
key warns again later (tester13's finding 1 in the editor, retest13's in play: armed
through Esc, Tab and clicks, a Q pressed much later lost the work at once).

The question asked is kept as `Asked`: what was pressed ("quit", "open", "edit",
"leave") and the work it would have lost, so that work changed since asks again.
"""

from __future__ import annotations

import pygame

from game.render.state import UNSAVED

# what was pressed and the unsaved work it was warned of
Asked = tuple[str, object]

# keys that press nothing of their own: held with another, they leave the warning armed
MODIFIERS = frozenset(
    {pygame.K_LSHIFT, pygame.K_RSHIFT, pygame.K_LCTRL, pygame.K_RCTRL, pygame.K_LALT,
     pygame.K_RALT, pygame.K_LMETA, pygame.K_RMETA, pygame.K_CAPSLOCK, pygame.K_NUMLOCK}
)  # fmt: skip

# The keys that press each question again, with Ctrl held (True), not (False) or either
# (None): play's Q, Ctrl+O and F2; the editor's Q and F2, both of which leave it.
AGAIN: dict[str, tuple[tuple[int, bool | None], ...]] = {
    "quit": ((pygame.K_q, False),),
    "open": ((pygame.K_o, True),),
    "edit": ((pygame.K_F2, None),),
    "leave": ((pygame.K_q, None), (pygame.K_F2, None)),
}


def asks_first(asked: Asked | None, key: str, unsaved: object) -> bool:
    """Whether `key` warns before it does its job: it would lose `unsaved` (anything
    true: the declarations or the table no file holds) and was not just warned of with
    the same work (`asked`). The caller then says UNSAVED and keeps (key, unsaved)."""
    return bool(unsaved) and asked != (key, unsaved)


def disarms(event: pygame.event.Event, key: str) -> bool:
    """Whether an event after the warning of `key` disarms it: any click, any key but
    that one (`AGAIN`) and the modifiers."""
    if event.type == pygame.MOUSEBUTTONDOWN:
        return True
    if event.type != pygame.KEYDOWN or event.key in MODIFIERS:
        return False
    ctrl = bool(event.mod & pygame.KMOD_CTRL)
    return not any(
        event.key == k and (held is None or held == ctrl) for k, held in AGAIN.get(key, ())
    )


def unsaved_warned(message: str) -> bool:
    """Whether the panel's message is a "changes not saved" warning (UNSAVED)."""
    head, _, rest = UNSAVED.partition("{again}")
    return message.startswith(head) and message.endswith(rest.partition("{doing}")[2])


def disarmed(message: str) -> str:
    """The panel's message once the warning is disarmed: gone, being no longer true,
    where it is the warning; any other kept."""
    return "" if unsaved_warned(message) else message
