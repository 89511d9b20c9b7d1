"""The window's input modes, a small state machine after the tcod tutorial: each
`Handler` takes a pygame event, performs the actions it means on the window and
returns the handler for the next event (`Idle`, `Pressing` a base, `Measuring` with
the ruler, `Panning` the table). Keys and the wheel mean the same in every mode
(`common_action`); a new mode is one more `Handler`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from game.render.actions import (
    Action,
    ChooseWeapon,
    ClearRuler,
    CycleWeapon,
    Deselect,
    FitView,
    Measure,
    PointAt,
    Quit,
    Resize,
    Screenshot,
    ScrollLog,
    Select,
    SetView,
    ToggleHelp,
    ZoomAt,
)
from game.render.declaring import (
    AddTarget,
    AddWaypoint,
    AimPoint,
    Confirm,
    DropWaypoint,
    LayTemplate,
    NominateGroup,
    PickRoutePoint,
    Quick,
    ShiftDice,
    StartMove,
    StartShoot,
    ToggleOption,
    escape_action,
)
from game.render.following import Following
from game.render.game_actions import (
    LoadGame,
    Redo,
    ReplayStep,
    SaveGame,
    TakeOver,
    TakeSide,
    Undo,
)
from game.render.play_rules import AimKind, IntentKind
from game.render.state import Point, Size
from game.render.view import View

DRAG_PIXELS = 4  # a press that moves further than this is a drag (ruler), not a click
ZOOM_STEP = 1.15  # per wheel notch
LOG_PAGE = 10  # dice log lines per PgUp / PgDn


_CTRL_KEYS: dict[int, Action] = {
    pygame.K_z: Undo(),
    pygame.K_y: Redo(),
    pygame.K_s: SaveGame(),
    pygame.K_o: LoadGame(),
}
_DECLARE_KEYS: dict[int, Action] = {
    pygame.K_m: StartMove(),
    pygame.K_s: StartShoot(),
    pygame.K_d: Quick(IntentKind.DODGE),
    pygame.K_i: Quick(IntentKind.IDLE),
    pygame.K_e: Quick(IntentKind.END),
    pygame.K_a: Quick(IntentKind.AIM),
    pygame.K_r: Quick(IntentKind.RELOAD),
    pygame.K_c: Quick(IntentKind.TAKE_COVER),
    pygame.K_u: Quick(IntentKind.STAND_UP),
    pygame.K_k: Quick(IntentKind.COUP_DE_GRACE),
    pygame.K_b: StartShoot(blind=True),
    pygame.K_RETURN: Confirm(),
    pygame.K_KP_ENTER: Confirm(),
    pygame.K_BACKSPACE: DropWaypoint(),
    pygame.K_PLUS: ShiftDice(1),
    pygame.K_EQUALS: ShiftDice(1),
    pygame.K_KP_PLUS: ShiftDice(1),
    pygame.K_MINUS: ShiftDice(-1),
    pygame.K_KP_MINUS: ShiftDice(-1),
}


_REPLAY_KEYS: dict[int, Action] = {
    pygame.K_RIGHT: ReplayStep("next"),
    pygame.K_LEFT: ReplayStep("back"),
    pygame.K_UP: ReplayStep("turn"),
    pygame.K_DOWN: ReplayStep("turn-back"),
    pygame.K_HOME: ReplayStep("first"),
    pygame.K_END: ReplayStep("last"),
    pygame.K_t: TakeOver(),
}


def _key_action(event: pygame.event.Event, app: Following) -> Action | None:
    key = event.key
    if key == pygame.K_F1 or getattr(event, "unicode", "") == "?":
        return ToggleHelp()
    if app.state.help and key == pygame.K_ESCAPE:
        return ToggleHelp()
    if app.replay is not None and key in _REPLAY_KEYS and not event.mod & pygame.KMOD_CTRL:
        return _REPLAY_KEYS[key]
    if event.mod & pygame.KMOD_CTRL:
        return _CTRL_KEYS.get(key)
    if key in _DECLARE_KEYS:
        return _DECLARE_KEYS[key]
    if key == pygame.K_q:
        return Quit()
    if key == pygame.K_t:  # while the computer plays every side (a replay's T is above)
        return TakeSide()
    if key == pygame.K_ESCAPE:
        return escape_action(app.state) or Deselect()
    if key == pygame.K_F12:
        return Screenshot()
    if key == pygame.K_TAB:
        return CycleWeapon(-1 if event.mod & pygame.KMOD_SHIFT else 1)
    if pygame.K_1 <= key <= pygame.K_9:
        return ChooseWeapon(key - pygame.K_1)
    if key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
        return ScrollLog(LOG_PAGE if key == pygame.K_PAGEUP else -LOG_PAGE)
    if key == pygame.K_HOME:
        return FitView()
    letter = pygame.key.name(key) if pygame.K_a <= key <= pygame.K_z else ""
    session = getattr(app, "session", None)
    if letter and session is not None and letter == session.rules.group_key:
        return NominateGroup()
    if letter and session is not None and letter in dict(session.rules.toggles(app.game)):
        return ToggleOption(letter)
    return None


def common_action(event: pygame.event.Event, app: Following) -> Action | None:
    """What every handler does with an event: quit, keys, wheel zoom, resize."""
    kind = event.type
    if kind == pygame.QUIT:
        return Quit(closing=True)
    if kind == pygame.KEYDOWN:
        return _key_action(event, app)
    if kind == pygame.MOUSEWHEEL:
        notches = float(getattr(event, "precise_y", event.y) or event.y)
        if notches == 0:
            return None
        pointer = app.state.pointer
        if pointer is not None and pointer[0] >= app.state.table_size[0]:
            return ScrollLog(round(notches * 3) or (1 if notches > 0 else -1))
        about = app.state.pointer or _centre(app.state.table_size)
        return ZoomAt(ZOOM_STEP**notches, about)
    if kind == pygame.VIDEORESIZE:
        return Resize((int(event.w), int(event.h)))
    return None


def _centre(size: Size) -> Point:
    return (size[0] / 2, size[1] / 2)


class Handler:
    """One state of the input machine: `handle` takes an event and returns the next handler."""

    def handle(self, event: pygame.event.Event, app: Following) -> Handler:
        action = common_action(event, app)
        if action is not None:
            app.perform(action)
            if isinstance(action, Deselect):
                return Idle()
        return self


@dataclass(frozen=True, slots=True)
class Idle(Handler):
    """Nothing pressed: point, click a base, start a pan."""

    def handle(self, event: pygame.event.Event, app: Following) -> Handler:
        if event.type == pygame.MOUSEMOTION:
            app.perform(PointAt(event.pos))
            return self
        if event.type == pygame.MOUSEBUTTONDOWN:
            app.perform(PointAt(event.pos))
            if event.button in (2, 3):
                return Panning(event.button, event.pos, app.state.view)
            if event.button == 1 and app.in_table(event.pos):
                model = app.model_at(event.pos)
                draft = app.state.draft
                if draft is not None and draft.kind == "move":
                    app.perform(AddWaypoint(event.pos))
                    return self
                if draft is not None and draft.kind == "shoot":
                    if draft.aim == AimKind.TEMPLATE:
                        app.perform(LayTemplate(event.pos))
                        return self
                    if model is not None:
                        app.perform(AddTarget(model.id))
                        return self
                    if draft.aim == AimKind.BLAST:
                        app.perform(AimPoint(event.pos))
                        return self
                on_route = app.route_point(event.pos)
                if on_route is not None and (model is None or draft is not None):
                    app.perform(PickRoutePoint(on_route))
                    return self
                if model is not None:
                    return Pressing(model.id, event.pos)
                # An empty spot: reserved for declarations (move here); clears the ruler.
                app.perform(ClearRuler())
            return self
        return Handler.handle(self, event, app)


@dataclass(frozen=True, slots=True)
class Pressing(Handler):
    """The left button went down on a base: a click selects it, a drag measures from it."""

    model_id: str
    start: Point

    def handle(self, event: pygame.event.Event, app: Following) -> Handler:
        if event.type == pygame.MOUSEMOTION:
            app.perform(PointAt(event.pos))
            if math.dist(event.pos, self.start) > DRAG_PIXELS:
                app.perform(Measure(self.model_id, event.pos))
                return Measuring(self.model_id)
            return self
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            app.perform(ClearRuler())
            app.perform(Select(self.model_id))
            return Idle()
        return Handler.handle(self, event, app)


@dataclass(frozen=True, slots=True)
class Measuring(Handler):
    """Dragging the ruler from a base; it stays on the table after the button comes up."""

    model_id: str

    def handle(self, event: pygame.event.Event, app: Following) -> Handler:
        if event.type == pygame.MOUSEMOTION:
            app.perform(PointAt(event.pos))
            app.perform(Measure(self.model_id, event.pos))
            return self
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            app.perform(Measure(self.model_id, event.pos))
            return Idle()
        return Handler.handle(self, event, app)


@dataclass(frozen=True, slots=True)
class Panning(Handler):
    """Right or middle button held: the table follows the pointer."""

    button: int
    start: Point
    view: View

    def handle(self, event: pygame.event.Event, app: Following) -> Handler:
        if event.type == pygame.MOUSEMOTION:
            dx, dy = event.pos[0] - self.start[0], event.pos[1] - self.start[1]
            app.perform(SetView(self.view.panned(dx, dy)))
            app.perform(PointAt(event.pos))
            return self
        if event.type == pygame.MOUSEBUTTONUP and event.button == self.button:
            return Idle()
        return Handler.handle(self, event, app)
