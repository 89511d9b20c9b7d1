"""The interactive table (`skirmish play`): a pygame-ce window shell.

Three parts, after the tcod habit (STYLE.md):

- **State** is one frozen `AppState` (game.render.state): view (zoom/pan), selection,
  chosen weapon, the hovered target with its ruling, the ruler, the panel's message.
- **Input** goes through handlers, a small state machine: each `Handler` takes a pygame
  event and returns the next handler (`Idle`, `Pressing` a base, `Measuring` with the
  ruler, `Panning`). Handlers turn events into `Action` objects; `App.perform` runs an
  action, which replaces the state or raises `Impossible` with the reason shown to the
  player.
- **Drawing** is `draw_frame(surface, scenario, state, ...)` (game.render.frame), a
  function of the state and its view. The grid, scenery and bases are a layer cached per
  view and table size, so a frame only blits it and draws the overlays and the panel.

Rules plug in from outside: line-of-fire rulings through a `RulingProvider`
(game.render.ruling), and later the sequencer's declarations through new handlers whose
actions call the game (see `Declare` below).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from game.errors import IllegalDeclaration
from game.render.frame import FrameCache, draw_frame
from game.render.link import TableGame, describe_event, placed
from game.render.ruling import RulingProvider, default_provider
from game.render.state import (
    DEFAULT_SIZE,
    AppState,
    Hover,
    Point,
    Size,
    fit_view,
    initial_state,
    ruler_between,
    ruler_to_point,
)
from game.render.table import save_png
from game.render.view import View
from game.scenario import PlacedModel, Scenario

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

__all__ = ["App", "AppState", "Handler", "Idle", "Impossible"]

DRAG_PIXELS = 4  # a press that moves further than this is a drag (ruler), not a click
ZOOM_STEP = 1.15  # per wheel notch
FPS = 60
LOG_LINES = 200  # kept in the state; the panel shows the last few


# --------------------------------------------------------------------------- actions


class Impossible(Exception):
    """An action that cannot be done now; the message is shown in the panel."""


class Action:
    """Something the player asked for. `perform` changes `app.state` or raises Impossible."""

    def perform(self, app: App) -> None:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Quit(Action):
    def perform(self, app: App) -> None:
        app.state = replace(app.state, running=False)


@dataclass(frozen=True, slots=True)
class Select(Action):
    model_id: str

    def perform(self, app: App) -> None:
        model = app.scenario.model(self.model_id)
        app.state = replace(app.state, selected=model.id, weapon=0, hover=None, message="")
        app.refresh_hover()


@dataclass(frozen=True, slots=True)
class Deselect(Action):
    def perform(self, app: App) -> None:
        app.state = replace(app.state, selected=None, hover=None, ruler=None, message="")


@dataclass(frozen=True, slots=True)
class ChooseWeapon(Action):
    index: int

    def perform(self, app: App) -> None:
        weapons = app.selected_weapons()
        if not 0 <= self.index < len(weapons):
            raise Impossible(f"no weapon {self.index + 1} (it has {len(weapons)})")
        app.state = replace(app.state, weapon=self.index, message=weapons[self.index])


@dataclass(frozen=True, slots=True)
class CycleWeapon(Action):
    step: int = 1

    def perform(self, app: App) -> None:
        weapons = app.selected_weapons()
        ChooseWeapon((app.state.weapon + self.step) % len(weapons)).perform(app)


@dataclass(frozen=True, slots=True)
class PointAt(Action):
    """The pointer moved: remember where, and rule on the enemy under it."""

    pos: Point

    def perform(self, app: App) -> None:
        app.state = replace(app.state, pointer=self.pos)
        app.refresh_hover()


@dataclass(frozen=True, slots=True)
class ZoomAt(Action):
    factor: float
    about: Point

    def perform(self, app: App) -> None:
        app.state = replace(app.state, view=app.state.view.zoomed(self.factor, self.about))


@dataclass(frozen=True, slots=True)
class SetView(Action):
    view: View

    def perform(self, app: App) -> None:
        app.state = replace(app.state, view=self.view)


@dataclass(frozen=True, slots=True)
class FitView(Action):
    def perform(self, app: App) -> None:
        app.state = replace(app.state, view=fit_view(app.scenario, app.state.table_size))


@dataclass(frozen=True, slots=True)
class Resize(Action):
    size: Size

    def perform(self, app: App) -> None:
        app.state = replace(app.state, size=(max(1, self.size[0]), max(1, self.size[1])))
        app.resized()


@dataclass(frozen=True, slots=True)
class Measure(Action):
    """The ruler from `origin`'s base edge to the pointer, or to the base under it."""

    origin: str
    pos: Point

    def perform(self, app: App) -> None:
        origin = app.scenario.model(self.origin)
        other = app.model_at(self.pos)
        if other is not None and other.id != origin.id:
            ruler = ruler_between(origin, other)
        else:
            ruler = ruler_to_point(origin, app.state.view.to_table(*self.pos))
        app.state = replace(app.state, ruler=ruler)


@dataclass(frozen=True, slots=True)
class ClearRuler(Action):
    def perform(self, app: App) -> None:
        if app.state.ruler is not None:
            app.state = replace(app.state, ruler=None)


@dataclass(frozen=True, slots=True)
class Screenshot(Action):
    """Save the frame as a PNG: `path`, or a timestamped name in the current directory."""

    path: Path | None = None

    def perform(self, app: App) -> None:
        path = self.path or timestamped(Path.cwd())
        try:
            app.save_screenshot(path)
        except (OSError, pygame.error) as err:
            raise Impossible(f"screenshot not saved: {err}") from None
        app.state = replace(app.state, message=f"saved {path.name}")


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """Hand a declaration to the game (the sequencer's Game). An illegal one is explained
    with the rules' reason; without a game attached the table says so."""

    declaration: object

    def perform(self, app: App) -> None:
        if app.game is None:
            raise Impossible("no game attached: declarations are not taken yet")
        try:
            events = app.game.declare(self.declaration)
        except IllegalDeclaration as why:
            raise Impossible(str(why)) from None
        app.follow_game(events)


def timestamped(folder: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"skirmish-{stamp}.png"
    n = 1
    while path.exists():
        path = folder / f"skirmish-{stamp}-{n}.png"
        n += 1
    return path


# --------------------------------------------------------------------------- input


def _key_action(event: pygame.event.Event, app: App) -> Action | None:
    key = event.key
    if key == pygame.K_q:
        return Quit()
    if key == pygame.K_ESCAPE:
        return Deselect()
    if key == pygame.K_F12:
        return Screenshot()
    if key == pygame.K_TAB:
        return CycleWeapon(-1 if event.mod & pygame.KMOD_SHIFT else 1)
    if pygame.K_1 <= key <= pygame.K_9:
        return ChooseWeapon(key - pygame.K_1)
    if key == pygame.K_HOME:
        return FitView()
    return None


def common_action(event: pygame.event.Event, app: App) -> Action | None:
    """What every handler does with an event: quit, keys, wheel zoom, resize."""
    kind = event.type
    if kind == pygame.QUIT:
        return Quit()
    if kind == pygame.KEYDOWN:
        return _key_action(event, app)
    if kind == pygame.MOUSEWHEEL:
        notches = float(getattr(event, "precise_y", event.y) or event.y)
        if notches == 0:
            return None
        about = app.state.pointer or _centre(app.state.table_size)
        return ZoomAt(ZOOM_STEP**notches, about)
    if kind == pygame.VIDEORESIZE:
        return Resize((int(event.w), int(event.h)))
    return None


def _centre(size: Size) -> Point:
    return (size[0] / 2, size[1] / 2)


class Handler:
    """One state of the input machine: `handle` takes an event and returns the next handler."""

    def handle(self, event: pygame.event.Event, app: App) -> Handler:
        action = common_action(event, app)
        if action is not None:
            app.perform(action)
            if isinstance(action, Deselect):
                return Idle()
        return self


@dataclass(frozen=True, slots=True)
class Idle(Handler):
    """Nothing pressed: point, click a base, start a pan."""

    def handle(self, event: pygame.event.Event, app: App) -> Handler:
        if event.type == pygame.MOUSEMOTION:
            app.perform(PointAt(event.pos))
            return self
        if event.type == pygame.MOUSEBUTTONDOWN:
            app.perform(PointAt(event.pos))
            if event.button in (2, 3):
                return Panning(event.button, event.pos, app.state.view)
            if event.button == 1 and app.in_table(event.pos):
                model = app.model_at(event.pos)
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

    def handle(self, event: pygame.event.Event, app: App) -> Handler:
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

    def handle(self, event: pygame.event.Event, app: App) -> Handler:
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

    def handle(self, event: pygame.event.Event, app: App) -> Handler:
        if event.type == pygame.MOUSEMOTION:
            dx, dy = event.pos[0] - self.start[0], event.pos[1] - self.start[1]
            app.perform(SetView(self.view.panned(dx, dy)))
            app.perform(PointAt(event.pos))
            return self
        if event.type == pygame.MOUSEBUTTONUP and event.button == self.button:
            return Idle()
        return Handler.handle(self, event, app)


# --------------------------------------------------------------------------- drawing


# --------------------------------------------------------------------------- the app


class App:
    """The window shell: owns the state, the input handler and the frame cache.

    Made with a surface it draws off screen (tests, benchmarks); `App.window` opens a
    resizable pygame window instead. `game`, when given, is the sequencer's Game (any
    `TableGame`): `Declare` actions go to it and the table follows its state.
    """

    def __init__(
        self,
        scenario: Scenario,
        *,
        size: Size = DEFAULT_SIZE,
        provider: RulingProvider | None = None,
        surface: pygame.Surface | None = None,
        game: TableGame | None = None,
    ) -> None:
        self.scenario = scenario
        self.provider: RulingProvider = provider or default_provider()
        self.game = game
        self.state = initial_state(scenario, size)
        self.handler: Handler = Idle()
        self.cache = FrameCache()
        self.windowed = False
        self._surface = surface
        self._drawn: AppState | None = None
        self.frames = 0
        if game is not None:
            self.follow_game(())

    @classmethod
    def window(cls, scenario: Scenario, *, size: Size = DEFAULT_SIZE,
               provider: RulingProvider | None = None) -> App:  # fmt: skip
        pygame.display.init()
        pygame.display.set_caption(f"skirmish: {scenario.header.name}")
        pygame.display.set_mode(size, pygame.RESIZABLE)
        app = cls(scenario, size=size, provider=provider)
        app.windowed = True
        return app

    # -- the surface

    @property
    def surface(self) -> pygame.Surface:
        if self.windowed:
            window = pygame.display.get_surface()
            if window is not None:
                return window
        if self._surface is None or self._surface.get_size() != self.state.size:
            self._surface = pygame.Surface(self.state.size)
        return self._surface

    def resized(self) -> None:
        if self.windowed:
            current = pygame.display.get_surface()
            if current is None or current.get_size() != self.state.size:
                pygame.display.set_mode(self.state.size, pygame.RESIZABLE)

    # -- queries the handlers use

    def in_table(self, pos: Point) -> bool:
        tw, th = self.state.table_size
        return 0 <= pos[0] < tw and 0 <= pos[1] < th

    def model_at(self, pos: Point) -> PlacedModel | None:
        """The base under screen point `pos` (the nearest, if bases touch)."""
        if not self.in_table(pos):
            return None
        view = self.state.view
        x, y = view.to_table(*pos)
        best: tuple[float, PlacedModel] | None = None
        for model in self.scenario.models:
            d = math.dist((x, y), model.at)
            if d <= max(model.radius, 3.0 / view.scale) and (best is None or d < best[0]):
                best = (d, model)
        return best[1] if best else None

    def selected_weapons(self) -> tuple[str, ...]:
        if self.state.selected is None:
            raise Impossible("select a model first")
        weapons = self.scenario.model(self.state.selected).weapons
        if not weapons:
            raise Impossible(f"{self.state.selected} has no weapons")
        return weapons

    def refresh_hover(self) -> None:
        """Ask the provider about the enemy under the pointer, once per pair."""
        state = self.state
        target = self.model_at(state.pointer) if state.pointer is not None else None
        if state.selected is None or target is None:
            if state.hover is not None:
                self.state = replace(state, hover=None)
            return
        shooter = self.scenario.model(state.selected)
        if target.side == shooter.side:
            if state.hover is not None:
                self.state = replace(state, hover=None)
            return
        if state.hover is not None and (state.hover.shooter, state.hover.target) == (
            shooter.id,
            target.id,
        ):
            return
        try:
            ruling = self.provider.rule(self.scenario, shooter.id, target.id)
            lines = tuple(self.provider.describe(self.scenario, ruling))
        except (ValueError, KeyError) as err:
            self.state = replace(state, hover=None, message=f"no ruling: {err}")
            return
        self.state = replace(state, hover=Hover(shooter.id, target.id, ruling, lines))

    def follow_game(self, events: Sequence[object]) -> None:
        """Copy the game's turn, active side and model positions; log its events."""
        if self.game is None:
            return
        now = self.game.state
        self.scenario = placed(self.scenario, now)
        lines = tuple(describe_event(e) for e in events)
        self.state = replace(
            self.state,
            turn=now.turn,
            active_side=now.active,
            hover=None,
            log=(*self.state.log, *lines)[-LOG_LINES:],
            message="",
        )
        if self.state.selected is not None and self.state.selected not in {
            m.id for m in self.scenario.models
        }:
            self.state = replace(self.state, selected=None)
        self.refresh_hover()

    # -- running

    def perform(self, action: Action) -> None:
        try:
            action.perform(self)
        except Impossible as why:
            self.state = replace(self.state, message=str(why))

    def handle(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
            self._drawn = None  # the window lost its pixels: draw again
        self.handler = self.handler.handle(event, self)

    def draw(self) -> pygame.Surface:
        surface = self.surface
        draw_frame(
            surface,
            self.scenario,
            self.state,
            self.cache,
            engine_loaded=self.provider.engine_loaded,
            provider_name=self.provider.name,
        )
        self._drawn = self.state
        return surface

    def frame(self) -> None:
        """Take the queued events, then draw if anything changed."""
        for event in pygame.event.get():
            self.handle(event)
            if not self.state.running:
                return
        if self._drawn is not self.state:
            self.draw()
            if self.windowed:
                pygame.display.flip()
        self.frames += 1

    def run(self, frames: int | None = None) -> None:
        clock = pygame.time.Clock()
        while self.state.running and (frames is None or self.frames < frames):
            self.frame()
            if self.windowed:
                clock.tick(FPS)

    def save_screenshot(self, path: Path) -> None:
        save_png(self.draw(), path)
