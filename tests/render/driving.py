"""Driving the table window in tests as a person would: screen points, mouse and keys
posted as pygame events, then a frame to handle them."""

from __future__ import annotations

import pygame

from game.render import frame
from game.render.app import App

Point = tuple[float, float]


def at(app: App, point: Point) -> tuple[int, int]:
    """The screen pixel of a table point."""
    x, y = app.state.view.to_screen(*point)
    return round(x), round(y)


def base(app: App, model_id: str) -> tuple[int, int]:
    """The screen pixel of a model's base centre."""
    return at(app, app.scenario.model(model_id).at)


def flagged(app: App, model_id: str, flag: str) -> None:
    """The game's model given `flag` (a condition its rules keep, such as being on fire),
    and the window reading the game afresh."""
    assert app.session is not None
    game = app.session.game
    m = game.state.model(model_id)
    game.state = game.state.with_model(m.replace(flags=m.flags | {flag}))
    app.follow_game([], animate=False)


def point_at(app: App, pos: tuple[int, int]) -> None:
    motion = pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    pygame.event.post(motion)
    app.frame()


def click(app: App, pos: tuple[int, int], *, hover_first: bool = True) -> None:
    """Move to `pos` and click the left button; `hover_first` lets a frame pass between."""
    if hover_first:
        point_at(app, pos)
    else:
        motion = pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        pygame.event.post(motion)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.frame()


def press(app: App, *keys: int, mod: int = 0) -> None:
    for k in keys:
        event = pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)
        pygame.event.post(event)
    app.frame()


def panel(app: App) -> str:
    """The side panel's text on one line."""
    return " ".join(line.text for line in frame.panel_lines(app.scenario, app.state))


def refused_at_once(app: App, model: str, keys: tuple[int, ...], said: str) -> None:
    """`model` clicked, then each of `keys`: refused at once with `said`, shown as a
    refusal, with no draft laid out and nothing declared."""
    assert app.session is not None
    game = app.session.game
    made = len(game.declarations)
    click(app, base(app, model))
    for key in keys:
        press(app, key)
        assert app.state.message == said and app.state.refusal == said
        assert app.state.draft is None
    assert len(game.declarations) == made
