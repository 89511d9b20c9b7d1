"""The interactive table (`skirmish play`): a pygame-ce window shell.

Three parts, after the tcod habit (STYLE.md):

- **State** is one frozen `AppState`: view (zoom/pan), selection, chosen weapon, the
  hovered target with its ruling, the ruler, the panel's message. Nothing else changes.
- **Input** goes through handlers, a small state machine: each `Handler` takes a pygame
  event and returns the next handler (`Idle`, `Pressing` a base, `Measuring` with the
  ruler, `Panning`). Handlers turn events into `Action` objects; `App.perform` runs an
  action, which replaces the state or raises `Impossible` with the reason shown to the
  player.
- **Drawing** is `draw_frame(surface, scenario, state, ...)`, a function of the state and
  its view. The grid, scenery and bases are a layer cached per view and table size, so a
  frame only blits it and draws the overlays (rings, ruling, ruler) and the panel.

Rules plug in from outside: line-of-fire rulings through a `RulingProvider`
(game.render.ruling), and later the sequencer's declarations through new handlers whose
actions call the game (see `Declare` below).
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from game.render import style
from game.render.ranges import profile_summary, range_rings, weapon_summary
from game.render.ruling import Ruling, RulingProvider, default_provider, edge_distance
from game.render.table import (
    draw_grid,
    draw_models,
    draw_scenery,
    font,
    save_png,
    side_colours,
)
from game.render.view import View
from game.scenario import PlacedModel, Scenario

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

Point = tuple[float, float]
Size = tuple[int, int]
Colour = style.Colour

DEFAULT_SIZE: Size = (1280, 800)
PANEL_WIDTH = 320
DRAG_PIXELS = 4  # a press that moves further than this is a drag (ruler), not a click
ZOOM_STEP = 1.15  # per wheel notch
FPS = 60

PANEL_BG: Colour = (22, 24, 28)
PANEL_RULE: Colour = (70, 74, 82)
DIM: Colour = (150, 154, 162)
SELECT: Colour = (255, 255, 255)
TARGET: Colour = (255, 210, 60)
LOF_YES: Colour = (40, 200, 90)
LOF_NO: Colour = (230, 50, 50)
NEUTRAL: Colour = (250, 250, 250)
RULER: Colour = (255, 150, 30)
RINGS: Colour = (30, 60, 110)
WARN: Colour = (255, 170, 90)


# --------------------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class Hover:
    """The enemy under the pointer with the selected model's ruling against it."""

    shooter: str
    target: str
    ruling: Ruling
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Ruler:
    """A measurement from `origin`'s base edge: to a point, or to `target`'s base edge."""

    origin: str
    start: Point
    end: Point
    distance: float
    target: str | None = None


@dataclass(frozen=True, slots=True)
class AppState:
    """Everything the frame shows besides the scenario itself."""

    size: Size
    view: View
    turn: int = 1
    active_side: str = ""
    selected: str | None = None
    weapon: int = 0
    pointer: Point | None = None
    hover: Hover | None = None
    ruler: Ruler | None = None
    message: str = ""
    log: tuple[str, ...] = ()
    running: bool = True

    @property
    def table_size(self) -> Size:
        """Pixels of the table area, left of the panel."""
        return (max(1, self.size[0] - panel_width(self.size)), self.size[1])


def panel_width(size: Size) -> int:
    return min(PANEL_WIDTH, size[0] // 3)


def fit_view(scenario: Scenario, table_size: Size) -> View:
    """The view showing the whole table, centred in the table area, with room for labels."""
    width, depth = scenario.header.table
    room_x = table_size[0] - 2 * style.MARGIN
    room_y = table_size[1] - 2 * style.MARGIN
    scale = min(max(room_x, 20) / width, max(room_y, 20) / depth)
    scale = min(max(scale, 2.0), 200.0)
    return View(
        scale,
        (table_size[0] - width * scale) / 2,
        (table_size[1] - depth * scale) / 2,
    )


def initial_state(scenario: Scenario, size: Size = DEFAULT_SIZE) -> AppState:
    humans = [s.id for s in scenario.sides if s.player == "human"]
    active = humans[0] if humans else (scenario.sides[0].id if scenario.sides else "")
    state = AppState(size=size, view=View(), active_side=active)
    return replace(state, view=fit_view(scenario, state.table_size))


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
    """Hand a declaration to the game (the sequencer). Until one is attached, the table
    says so instead of ignoring the input."""

    declaration: object

    def perform(self, app: App) -> None:
        if app.declare is None:
            raise Impossible("no game attached: declarations are not taken yet")
        lines = app.declare(self.declaration)
        app.state = replace(app.state, log=(*app.state.log, *lines)[-200:])


def timestamped(folder: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"skirmish-{stamp}.png"
    n = 1
    while path.exists():
        path = folder / f"skirmish-{stamp}-{n}.png"
        n += 1
    return path


def ruler_between(a: PlacedModel, b: PlacedModel) -> Ruler:
    """Edge to edge along the line of centres (DESIGN.md: closest points of the bases)."""
    dx, dy = b.at[0] - a.at[0], b.at[1] - a.at[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    start = (a.at[0] + ux * a.radius, a.at[1] + uy * a.radius)
    end = (b.at[0] - ux * b.radius, b.at[1] - uy * b.radius)
    return Ruler(a.id, start, end, edge_distance(a, b), b.id)


def ruler_to_point(a: PlacedModel, point: Point) -> Ruler:
    dx, dy = point[0] - a.at[0], point[1] - a.at[1]
    length = math.hypot(dx, dy)
    if length <= a.radius:
        return Ruler(a.id, point, point, 0.0)
    start = (a.at[0] + dx / length * a.radius, a.at[1] + dy / length * a.radius)
    return Ruler(a.id, start, point, length - a.radius)


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


@dataclass(slots=True)
class LayerCache:
    """The static table (grid, scenery, bases) drawn once per view and size."""

    key: tuple[object, ...] | None = None
    surface: pygame.Surface | None = None
    builds: int = 0

    def layer(self, scenario: Scenario, view: View, size: Size) -> pygame.Surface:
        key = (id(scenario), scenario.models, view, size)
        if self.surface is None or self.key != key:
            surface = pygame.Surface(size)
            surface.fill(style.BACKGROUND)
            draw_grid(surface, scenario, view)
            draw_scenery(surface, scenario, view)
            draw_models(surface, scenario, view, side_colours(scenario))
            self.key, self.surface = key, surface.convert() if _display_ready() else surface
            self.builds += 1
        return self.surface


def _display_ready() -> bool:
    return pygame.display.get_init() and pygame.display.get_surface() is not None


@dataclass(frozen=True, slots=True)
class PanelLine:
    text: str
    colour: Colour = style.TEXT
    size: int = 20
    gap: int = 0  # pixels of space above the line


@dataclass(slots=True)
class PanelCache:
    lines: tuple[PanelLine, ...] | None = None
    height: int = 0
    surface: pygame.Surface | None = None


@dataclass(slots=True)
class FrameCache:
    table: LayerCache = field(default_factory=LayerCache)
    panel: PanelCache = field(default_factory=PanelCache)


def panel_lines(
    scenario: Scenario, state: AppState, provider_name: str = ""
) -> tuple[PanelLine, ...]:
    """The panel's text, top to bottom: scenario, turn, selection, ruling, ruler, log."""
    out: list[PanelLine] = [
        PanelLine(scenario.header.name, size=26),
        PanelLine(scenario.ruleset.title, DIM, 18),
    ]
    active = state.active_side
    if active:
        side = scenario.side(active)
        who = f"{side.name} ({side.id})" if side.name else side.id
        out.append(PanelLine(f"Turn {state.turn} of {scenario.header.turns}", gap=6))
        out.append(PanelLine(f"Active: {who}", side_colours(scenario)[active]))
    out.append(PanelLine("Selected", DIM, 18, gap=10))
    if state.selected is None:
        out.append(PanelLine("none: click a base", DIM, 18))
    else:
        model = scenario.model(state.selected)
        out.append(PanelLine(f"{model.id}  ({model.side})", side_colours(scenario)[model.side]))
        extra = f", {model.state}" if model.state else ""
        out.append(PanelLine(f"{model.profile}{extra}", size=18))
        profile = scenario.profiles.get(model.profile)
        if profile is not None:
            out.extend(PanelLine(t, DIM, 16) for t in _wrap(profile_summary(profile), 44))
        for index, name in enumerate(model.weapons):
            chosen = index == state.weapon
            mark = ">" if chosen else " "
            out.append(PanelLine(f"{mark}{index + 1} {name}", TARGET if chosen else style.TEXT))
            weapon = scenario.weapons.get(name)
            if weapon is not None and chosen:
                out.extend(PanelLine(t, DIM, 16) for t in _wrap(weapon_summary(weapon), 44))
    title = "Line of fire" + (f"  [{provider_name}]" if provider_name else "")
    out.append(PanelLine(title, DIM, 18, gap=10))
    if state.hover is not None:
        out.append(PanelLine(f"{state.hover.shooter} -> {state.hover.target}", TARGET))
        out.extend(PanelLine(t, size=18) for line in state.hover.lines for t in _wrap(line, 40))
    else:
        out.append(PanelLine("point at an enemy with a model selected", DIM, 16))
    out.append(PanelLine("Odds", DIM, 18, gap=10))
    out.append(PanelLine("not loaded", DIM, 16))
    if state.ruler is not None:
        r = state.ruler
        to = f" to {r.target}" if r.target else ""
        out.append(PanelLine("Ruler", DIM, 18, gap=10))
        out.append(PanelLine(f'{r.distance:.2f}" edge to edge from {r.origin}{to}', RULER))
    out.append(PanelLine("Dice log", DIM, 18, gap=10))
    out.extend(PanelLine(t, size=16) for t in state.log[-8:])
    if not state.log:
        out.append(PanelLine("no rolls yet", DIM, 16))
    if state.message:
        out.append(PanelLine(state.message, WARN, 18, gap=10))
    return tuple(out)


HELP = (
    "click select · drag base: ruler · wheel zoom",
    "right-drag pan · Tab/1-9 weapon · Home fit",
    "Esc deselect · F12 screenshot · Q quit",
)


def _wrap(text: str, width: int) -> list[str]:
    words = text.split(" ")
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def draw_panel(surface: pygame.Surface, lines: tuple[PanelLine, ...], cache: PanelCache) -> None:
    """The side panel at the right edge of `surface` (rendered again only when it changes)."""
    width = panel_width(surface.get_size())
    height = surface.get_height()
    if cache.surface is None or cache.lines != lines or cache.height != height:
        panel = pygame.Surface((width, height))
        panel.fill(PANEL_BG)
        pygame.draw.line(panel, PANEL_RULE, (0, 0), (0, height))
        y = 12
        for line in lines:
            y += line.gap
            image = font(line.size).render(line.text, True, line.colour)
            panel.blit(image, (14, y))
            y += image.get_height() + 2
        y = height - 8
        for text in reversed(HELP):
            image = font(16).render(text, True, DIM)
            y -= image.get_height() + 2
            panel.blit(image, (14, y))
        cache.surface, cache.lines, cache.height = panel, lines, height
    surface.blit(cache.surface, (surface.get_width() - width, 0))


def _label(surface: pygame.Surface, text: str, at: Point, colour: Colour,
           size: int = 18) -> None:  # fmt: skip
    image = font(size).render(text, True, colour)
    box = image.get_rect(center=(round(at[0]), round(at[1])))
    pygame.draw.rect(surface, style.INK, box.inflate(6, 2))
    surface.blit(image, box)


def _dashed(surface: pygame.Surface, colour: Colour, a: Point, b: Point, width: int = 2,
            dash: float = 10.0) -> None:  # fmt: skip
    length = math.dist(a, b)
    if length < 1:
        return
    steps = max(1, int(length // dash))
    for i in range(0, steps, 2):
        t0, t1 = i / steps, min(1.0, (i + 1) / steps)
        p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
        p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
        pygame.draw.line(surface, colour, p0, p1, width)


def _ring(surface: pygame.Surface, colour: Colour, model: PlacedModel, view: View,
          width: int = 3, pad: float = 4.0) -> None:  # fmt: skip
    centre = view.to_screen(*model.at)
    pygame.draw.circle(surface, colour, centre, max(model.radius * view.scale, 3.0) + pad, width)


def draw_range_rings(surface: pygame.Surface, scenario: Scenario, state: AppState) -> None:
    """The chosen weapon's range bands around the selected base, labelled with their MODs.
    Ranges are measured from the base edge, so a ring's radius is the base radius plus
    the band's limit."""
    if state.selected is None:
        return
    model = scenario.model(state.selected)
    if not model.weapons:
        return
    weapon = scenario.weapons.get(model.weapons[state.weapon % len(model.weapons)])
    if weapon is None:
        return
    view = state.view
    cx, cy = view.to_screen(*model.at)
    width, depth = scenario.header.table
    farthest = math.hypot(width, depth)
    reach = max(surface.get_size()) * 1.5
    angle = math.radians(-35)
    for ring in range_rings(weapon, scenario.profiles.get(model.profile)):
        if ring.limit > farthest:
            break
        radius = (model.radius + ring.limit) * view.scale
        if radius > reach + math.hypot(cx, cy):
            break  # the rest are wholly off screen
        pygame.draw.circle(surface, RINGS, (cx, cy), radius, 2)
        at = (cx + math.cos(angle) * radius, cy + math.sin(angle) * radius)
        _label(surface, ring.label, at, (210, 225, 255), 16)


def draw_ruling(surface: pygame.Surface, scenario: Scenario, hover: Hover, view: View,
                engine_loaded: bool) -> None:  # fmt: skip
    """The witness line (green), or the centre line (red: no line of fire; white dashed:
    no engine), the blocking pieces outlined in red, and a label at the target."""
    ruling = hover.ruling
    shooter = scenario.model(hover.shooter)
    target = scenario.model(hover.target)
    for blocker in ruling.blockers:
        try:
            piece = scenario.piece(blocker)
        except KeyError:
            with contextlib.suppress(KeyError):
                _ring(surface, LOF_NO, scenario.model(blocker), view, 3, 2.0)
            continue
        points = [view.to_screen(x, y) for x, y in piece.footprint]
        pygame.draw.polygon(surface, LOF_NO, points, 3)
    if not engine_loaded:
        colour = NEUTRAL
        line = ruling.witness or (shooter.at, target.at)
        _dashed(surface, colour, view.to_screen(*line[0]), view.to_screen(*line[1]))
        text = f'{ruling.distance:.2f}"  (no LoF engine)'
    elif ruling.lof and ruling.witness is not None:
        colour = LOF_YES
        a, b = ruling.witness
        pygame.draw.line(surface, colour, view.to_screen(*a), view.to_screen(*b), 3)
        text = f'LoF {ruling.visible_fraction:.0%} {ruling.cover}  {ruling.distance:.2f}"'
    else:
        colour = LOF_NO
        _dashed(surface, colour, view.to_screen(*shooter.at), view.to_screen(*target.at))
        text = f'no LoF  {ruling.distance:.2f}"'
    _ring(surface, TARGET, target, view)
    tx, ty = view.to_screen(*target.at)
    _label(surface, text, (tx, ty - target.radius * view.scale - 22), colour)


def draw_ruler(surface: pygame.Surface, ruler: Ruler, view: View) -> None:
    a = view.to_screen(*ruler.start)
    b = view.to_screen(*ruler.end)
    pygame.draw.line(surface, style.INK, a, b, 5)
    pygame.draw.line(surface, RULER, a, b, 3)
    pygame.draw.circle(surface, RULER, a, 4)
    pygame.draw.circle(surface, RULER, b, 4)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - 16)
    _label(surface, f'{ruler.distance:.2f}"', mid, RULER, 22)


def draw_frame(
    surface: pygame.Surface,
    scenario: Scenario,
    state: AppState,
    cache: FrameCache,
    *,
    engine_loaded: bool = False,
    provider_name: str = "",
) -> None:
    """One frame: the cached table layer, the overlays, the panel."""
    tw, th = state.table_size
    tw = min(tw, surface.get_width())
    th = min(th, surface.get_height())
    table = surface.subsurface(pygame.Rect(0, 0, tw, th))
    table.blit(cache.table.layer(scenario, state.view, (tw, th)), (0, 0))
    view = state.view
    draw_range_rings(table, scenario, state)
    if state.selected is not None:
        _ring(table, SELECT, scenario.model(state.selected), view)
    if state.hover is not None:
        draw_ruling(table, scenario, state.hover, view, engine_loaded)
    if state.ruler is not None:
        draw_ruler(table, state.ruler, view)
    draw_panel(surface, panel_lines(scenario, state, provider_name), cache.panel)


# --------------------------------------------------------------------------- the app


Declarer = Callable[[object], Sequence[str]]


class App:
    """The window shell: owns the state, the input handler and the frame cache.

    Made with a surface it draws off screen (tests, benchmarks); `App.window` opens a
    resizable pygame window instead. `declare`, when set, takes a declaration and
    returns dice-log lines: the hook the sequencer's Game plugs into.
    """

    def __init__(
        self,
        scenario: Scenario,
        *,
        size: Size = DEFAULT_SIZE,
        provider: RulingProvider | None = None,
        surface: pygame.Surface | None = None,
        declare: Declarer | None = None,
    ) -> None:
        self.scenario = scenario
        self.provider: RulingProvider = provider or default_provider()
        self.declare = declare
        self.state = initial_state(scenario, size)
        self.handler: Handler = Idle()
        self.cache = FrameCache()
        self.windowed = False
        self._surface = surface
        self._drawn: AppState | None = None
        self.frames = 0

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

    # -- running

    def perform(self, action: Action) -> None:
        try:
            action.perform(self)
        except Impossible as why:
            self.state = replace(self.state, message=str(why))

    def handle(self, event: pygame.event.Event) -> None:
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
