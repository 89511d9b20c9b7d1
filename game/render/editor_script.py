"""The table editor driven by a script of keys and clicks, posted as pygame events as a
person makes them: the editor's tests drive it so, and docs/pictures.py lays out the
README's picture of it with the same steps (`lay_out`)."""

from __future__ import annotations

import pygame

from game.render.editor import Editor
from game.scenario.writer import Document

Point = tuple[float, float]


def at(editor: Editor, point: Point) -> tuple[int, int]:
    """The screen pixel of a table point."""
    x, y = editor.state.view.to_screen(*point)
    return round(x), round(y)


def press(editor: Editor, key: int, mod: int = 0, unicode: str = "") -> None:
    event = pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0)
    pygame.event.post(event)
    editor.frame()


def click(editor: Editor, point: Point, mod: int = 0) -> None:
    drag(editor, point, point, mod=mod)


def drag(editor: Editor, a: Point, b: Point, mod: int = 0) -> None:
    pa, pb = at(editor, a), at(editor, b)
    for event in (
        pygame.event.Event(pygame.MOUSEMOTION, pos=pa, rel=(0, 0), buttons=(0, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pa, button=1, mod=mod),
        pygame.event.Event(pygame.MOUSEMOTION, pos=pb, rel=(0, 0), buttons=(1, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pb, button=1),
    ):
        pygame.event.post(event)
    editor.frame()


def lay_out(editor: Editor) -> list[Document]:
    """Two models, a building and a low wall from an empty table; the document after
    each step (the first: the empty table)."""
    steps = [editor.editing.doc]
    press(editor, pygame.K_m)  # the model tool, first profile: fusilier, side blue
    click(editor, (3, 12))
    steps.append(editor.editing.doc)
    press(editor, pygame.K_TAB)  # the next profile: zhanshi
    press(editor, pygame.K_s)  # new models join red
    click(editor, (20, 12))
    steps.append(editor.editing.doc)
    press(editor, pygame.K_b)  # boxes: a building, 2" high by default; + twice: 3"
    press(editor, pygame.K_EQUALS)
    press(editor, pygame.K_EQUALS)
    drag(editor, (10, 8), (13, 12))
    steps.append(editor.editing.doc)
    press(editor, pygame.K_w)  # walls: down to 0.5"
    for _ in range(5):
        press(editor, pygame.K_MINUS)
    drag(editor, (16, 11), (16, 14))
    steps.append(editor.editing.doc)
    return steps
