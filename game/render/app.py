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

import itertools
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from game.errors import IllegalDeclaration
from game.render import dice_log
from game.render.frame import FrameCache, draw_frame
from game.render.link import TableGame, placed
from game.render.play_rules import AimKind, Intent, IntentKind, PlayRules, Prompt
from game.render.ruling import RulingProvider, default_provider
from game.render.session import SAVE_NAME, Session, SessionError
from game.render.state import (
    DEFAULT_SIZE,
    AppState,
    Draft,
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
AI_FRAMES = 20  # frames between the automatic player's declarations, so a person can follow
SHOT_FRAMES = 45  # frames a shot line stays on the table
EFFECT_FRAMES = 40  # frames a blast, scatter path, stray shot or template is animated
ROUTE_PICK_PIXELS = 8  # a click this close to the mover's route picks a point on it


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
        draft = app.state.draft if app.state.selected == model.id else None
        app.state = replace(
            app.state, selected=model.id, weapon=0, hover=None, message="", draft=draft
        )
        app.refresh_hover()


@dataclass(frozen=True, slots=True)
class Deselect(Action):
    def perform(self, app: App) -> None:
        app.state = replace(
            app.state, selected=None, hover=None, ruler=None, message="", draft=None
        )


@dataclass(frozen=True, slots=True)
class ChooseWeapon(Action):
    index: int

    def perform(self, app: App) -> None:
        weapons = app.selected_weapons()
        if not 0 <= self.index < len(weapons):
            raise Impossible(f"no weapon {self.index + 1} (it has {len(weapons)})")
        app.state = replace(app.state, weapon=self.index, message=weapons[self.index])
        draft = app.state.draft
        if draft is not None and draft.kind == "shoot" and app.rules is not None:
            name = weapons[self.index]
            burst = app.rules.burst(app.game, draft.model, name)
            aim = app.rules.aim_kind(app.game, draft.model, name).value
            targets = _spread(draft.targets, burst) if aim != AimKind.TEMPLATE else ()
            app.state = replace(
                app.state, draft=replace(draft, weapon=name, burst=burst, targets=targets,
                                         aim=aim, direction=None,
                                         point=draft.point if aim == AimKind.BLAST else None)
            )  # fmt: skip
            app.refresh_preview()
        app.refresh_hover()


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
        app.refresh_preview()


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
        app.declare(self.declaration)


@dataclass(frozen=True, slots=True)
class Propose(Action):
    """What the player means (`Intent`), named by the rule system's adapter as the
    declaration the game awaits now, then declared."""

    intent: Intent

    def perform(self, app: App) -> None:
        rules = app.require_turn()
        try:
            declaration = rules.declaration(app.game, self.intent)
        except IllegalDeclaration as why:
            raise Impossible(str(why)) from None
        app.declare(declaration)


def _spread(targets: tuple[tuple[str, int], ...], burst: int) -> tuple[tuple[str, int], ...]:
    """`burst` dice over the same targets, as evenly as it goes (first targets first)."""
    if not targets or burst <= 0:
        return targets
    n = min(len(targets), burst)
    share, extra = divmod(burst, n)
    return tuple((t, share + (1 if i < extra else 0)) for i, (t, _) in enumerate(targets[:n]))


def _actor(app: App, prompt: Prompt) -> str:
    """The model a declaration is for: the Order's trooper for its second skill,
    otherwise the selected one."""
    if prompt.kind == "second" and prompt.mover is not None:
        return prompt.mover
    if app.state.selected is None:
        if prompt.reacting:
            raise Impossible(f"pick a trooper to react: {', '.join(prompt.models)}")
        raise Impossible("select a model first")
    if prompt.reacting and app.state.selected not in prompt.models:
        raise Impossible(f"pick a trooper to react: {', '.join(prompt.models)}")
    return app.state.selected


@dataclass(frozen=True, slots=True)
class Quick(Action):
    """A declaration with nothing to lay out: dodge, idle, end the turn."""

    kind: IntentKind

    def perform(self, app: App) -> None:
        rules = app.require_turn()
        prompt = rules.prompt(app.game)
        end = self.kind is IntentKind.END
        model = app.state.selected if end else _actor(app, prompt)
        at = app.state.aro_at if prompt.reacting else None
        weapon = None
        if model is not None and self.kind is IntentKind.RELOAD:
            weapons = app.scenario.model(model).weapons
            weapon = weapons[app.state.weapon % len(weapons)] if weapons else None
        draft = app.state.draft
        path: tuple[Point, ...] = ()
        if self.kind is IntentKind.TAKE_COVER and draft is not None and draft.kind == "move":
            path = draft.points  # Take Cover along the path laid out (half the Move)
        Propose(Intent(self.kind, model, path=path, weapon=weapon, at=at)).perform(app)


@dataclass(frozen=True, slots=True)
class StartMove(Action):
    """M: lay out a move path with clicks, against the movement the model has."""

    def perform(self, app: App) -> None:
        rules = app.require_turn()
        prompt = rules.prompt(app.game)
        if prompt.reacting:
            raise Impossible("an ARO cannot be a Move here: S shoot, D dodge, I idle")
        model = _actor(app, prompt)
        allowance = rules.allowance(app.game, model)
        start = rules.path_start(app.game, model)
        draft = Draft("move", model, start, allowance=allowance)
        app.state = replace(app.state, draft=draft, selected=model, message="")


@dataclass(frozen=True, slots=True)
class StartShoot(Action):
    """S: shoot with the chosen weapon; click targets (an ARO's target is the mover), a
    point for a blast, or lay a template with the pointer and a click. B (`blind`):
    the same, fired blind."""

    blind: bool = False

    def perform(self, app: App) -> None:
        rules = app.require_turn()
        prompt = rules.prompt(app.game)
        model = _actor(app, prompt)
        weapons = app.scenario.model(model).weapons
        if not weapons:
            raise Impossible(f"{model} has no weapons")
        weapon = weapons[app.state.weapon % len(weapons)]
        burst = rules.burst(app.game, model, weapon)
        targets: tuple[tuple[str, int], ...] = ()
        if prompt.reacting and prompt.mover is not None:
            targets = ((prompt.mover, burst),)
        aim = rules.aim_kind(app.game, model, weapon).value
        draft = Draft("shoot", model, app.scenario.model(model).at, weapon=weapon,
                      burst=burst, targets=targets, aim=aim, blind=self.blind)  # fmt: skip
        app.state = replace(app.state, draft=draft, selected=model, message="", preview=None)
        app.refresh_preview()


@dataclass(frozen=True, slots=True)
class AddWaypoint(Action):
    pos: Point

    def perform(self, app: App) -> None:
        draft = app.state.draft
        if draft is None or draft.kind != "move":
            return
        point = app.state.view.to_table(*self.pos)
        longer = replace(draft, points=(*draft.points, point))
        left = longer.left
        if left is not None and left < -1e-6:
            raise Impossible(f'too far: {draft.left or 0:.2f}" of movement left')
        app.state = replace(app.state, draft=longer, message="")


@dataclass(frozen=True, slots=True)
class DropWaypoint(Action):
    def perform(self, app: App) -> None:
        draft = app.state.draft
        if draft is None or draft.kind != "move" or not draft.points:
            return
        app.state = replace(app.state, draft=replace(draft, points=draft.points[:-1]))


@dataclass(frozen=True, slots=True)
class AddTarget(Action):
    """Aim at another enemy: it gets a die from the target with the most."""

    model_id: str

    def perform(self, app: App) -> None:
        draft = app.state.draft
        if draft is None or draft.kind != "shoot":
            return
        target = app.scenario.model(self.model_id)
        if target.side == app.scenario.model(draft.model).side:
            raise Impossible(f"{target.id} is on {draft.model}'s side")
        names = [t for t, _ in draft.targets]
        if target.id in names:
            app.state = replace(app.state, draft=replace(draft, focus=names.index(target.id)))
            return
        if app.state.prompt is not None and app.state.prompt.reacting:
            raise Impossible(f"an ARO shoots at {app.state.prompt.mover}")
        targets: tuple[tuple[str, int], ...]
        if not draft.targets or draft.burst <= 1:
            targets = ((target.id, max(1, draft.burst)),)
        else:
            richest = max(range(len(draft.targets)), key=lambda i: draft.targets[i][1])
            dice = draft.targets[richest][1]
            if dice < 2:
                raise Impossible(f"all {draft.burst} dice are assigned: - frees one")
            fewer = ((t, n - 1 if i == richest else n) for i, (t, n) in enumerate(draft.targets))
            targets = (*fewer, (target.id, 1))
        new = replace(draft, targets=targets, focus=len(targets) - 1, point=None)
        app.state = replace(app.state, draft=new, message="")
        app.refresh_preview()


def _aim(app: App, draft: Draft, *, undo: Draft) -> None:
    """Aim the drafted blast or template; if the rules refuse where it lands, put the
    draft back as `undo` and say why."""
    app.state = replace(app.state, draft=draft)
    app.refresh_preview()
    preview = app.state.preview
    if preview is not None and preview.refused:
        app.state = replace(app.state, draft=undo)
        raise Impossible(preview.refused)
    app.state = replace(app.state, message="")


@dataclass(frozen=True, slots=True)
class AimPoint(Action):
    """A click on the table with a blast drafted: aim the marker at that point."""

    pos: Point

    def perform(self, app: App) -> None:
        draft = app.state.draft
        if draft is None or draft.kind != "shoot" or draft.aim != AimKind.BLAST:
            return
        point = app.state.view.to_table(*self.pos)
        _aim(app, replace(draft, point=point, targets=()), undo=draft)


@dataclass(frozen=True, slots=True)
class LayTemplate(Action):
    """A click with a template drafted: lay it toward the pointer, or say why not."""

    pos: Point

    def perform(self, app: App) -> None:
        draft = app.state.draft
        if draft is None or draft.kind != "shoot" or draft.aim != AimKind.TEMPLATE:
            return
        point = app.state.view.to_table(*self.pos)
        start = app.scenario.model(draft.model).at
        if math.dist(point, start) < 1e-6:
            raise Impossible("point the template away from the base")
        direction = math.degrees(math.atan2(point[1] - start[1], point[0] - start[0]))
        _aim(app, replace(draft, direction=direction), undo=replace(draft, direction=None))


@dataclass(frozen=True, slots=True)
class ShiftDice(Action):
    """+ gives the focused target a die from another; - gives one of its dice away."""

    step: int

    def perform(self, app: App) -> None:
        draft = app.state.draft
        if draft is None or draft.kind != "shoot" or len(draft.targets) < 2:
            raise Impossible("+/- move dice between two or more targets")
        dice = [n for _, n in draft.targets]
        focus = draft.focus
        others = [i for i in range(len(dice)) if i != focus]
        if self.step > 0:
            donor = max(others, key=lambda i: dice[i])
            if dice[donor] < 2:
                raise Impossible("every other target is down to one die")
            dice[donor] -= 1
            dice[focus] += 1
        else:
            if dice[focus] < 2:
                raise Impossible(f"{draft.targets[focus][0]} is down to one die")
            taker = min(others, key=lambda i: dice[i])
            dice[focus] -= 1
            dice[taker] += 1
        targets = tuple((t, n) for (t, _), n in zip(draft.targets, dice, strict=True))
        app.state = replace(app.state, draft=replace(draft, targets=targets), message="")


@dataclass(frozen=True, slots=True)
class Confirm(Action):
    """Enter: declare the draft."""

    def perform(self, app: App) -> None:
        draft = app.state.draft
        if draft is None:
            raise Impossible("nothing to confirm: M move or S shoot first")
        if draft.kind == "move":
            if not draft.points:
                raise Impossible("click where to move first")
            intent = Intent(IntentKind.MOVE, draft.model, path=draft.points)
        elif draft.aim == AimKind.TEMPLATE:
            if draft.direction is None:
                raise Impossible("point the template and click to lay it first")
            intent = Intent(IntentKind.SHOOT, draft.model, weapon=draft.weapon,
                            direction=draft.direction, blind=draft.blind)  # fmt: skip
        elif draft.aim == AimKind.BLAST and draft.point is not None and not draft.targets:
            intent = Intent(IntentKind.SHOOT, draft.model, weapon=draft.weapon,
                            point=draft.point, blind=draft.blind)  # fmt: skip
        else:
            if not draft.targets:
                what = "an enemy or a point" if draft.aim == AimKind.BLAST else "an enemy"
                raise Impossible(f"click {what} to shoot at first")
            at = app.state.aro_at
            intent = Intent(IntentKind.SHOOT, draft.model, weapon=draft.weapon,
                            targets=draft.targets, at=at, blind=draft.blind)  # fmt: skip
        Propose(intent).perform(app)


@dataclass(frozen=True, slots=True)
class CancelDraft(Action):
    def perform(self, app: App) -> None:
        app.state = replace(app.state, draft=None, message="", preview=None)


@dataclass(frozen=True, slots=True)
class PickRoutePoint(Action):
    """A click on the mover's route: the point a reaction is taken at."""

    at: Point

    def perform(self, app: App) -> None:
        app.state = replace(app.state, aro_at=self.at, message=f"ARO at ({self.at[0]:.1f}, "
                            f"{self.at[1]:.1f})")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Undo(Action):
    def perform(self, app: App) -> None:
        session = app.require_session()
        if not session.undo():
            raise Impossible("nothing to undo")
        app.restart_view()
        app.state = replace(app.state, message="undone")


@dataclass(frozen=True, slots=True)
class Redo(Action):
    def perform(self, app: App) -> None:
        session = app.require_session()
        if not session.redo_stack:
            raise Impossible("nothing to redo")
        events = session.redo()
        app.follow_game(events)
        app.state = replace(app.state, message="redone")


@dataclass(frozen=True, slots=True)
class SaveGame(Action):
    path: Path | None = None

    def perform(self, app: App) -> None:
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

    def perform(self, app: App) -> None:
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

    def perform(self, app: App) -> None:
        session = app.require_session()
        try:
            events = session.step_ai()
        except IllegalDeclaration as why:
            app.ai_stuck = True
            raise Impossible(f"the computer's declaration was refused: {why}") from None
        app.follow_game(events)


def _outline(origin: Point, direction: float, length: float, width: float) -> tuple[Point, ...]:
    """A template's outline for its animation."""
    from game.geometry.measures import teardrop

    shape = teardrop(origin, direction, length, width)
    return tuple((float(x), float(y)) for x, y in shape.exterior.coords)


def timestamped(folder: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"skirmish-{stamp}.png"
    n = 1
    while path.exists():
        path = folder / f"skirmish-{stamp}-{n}.png"
        n += 1
    return path


# --------------------------------------------------------------------------- input


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


def _key_action(event: pygame.event.Event, app: App) -> Action | None:
    key = event.key
    if event.mod & pygame.KMOD_CTRL:
        return _CTRL_KEYS.get(key)
    if key in _DECLARE_KEYS:
        return _DECLARE_KEYS[key]
    if key == pygame.K_q:
        return Quit()
    if key == pygame.K_ESCAPE:
        return CancelDraft() if app.state.draft is not None else Deselect()
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
    resizable pygame window instead. A `session` (game.render.session) is a game the
    table plays: declarations by mouse and keyboard, automatic players, undo, save.
    A bare `game` (any `TableGame`) is followed and takes `Declare` actions only.
    """

    def __init__(
        self,
        scenario: Scenario,
        *,
        size: Size = DEFAULT_SIZE,
        provider: RulingProvider | None = None,
        surface: pygame.Surface | None = None,
        game: TableGame | None = None,
        session: Session | None = None,
    ) -> None:
        self.scenario = scenario
        self.base_scenario = scenario
        self.provider: RulingProvider = provider or default_provider()
        self.session = session
        self._game = game
        self.state = initial_state(scenario, size)
        self.handler: Handler = Idle()
        self.cache = FrameCache()
        self.windowed = False
        self._surface = surface
        self._drawn: AppState | None = None
        self.frames = 0
        self.ai_wait = 0
        self.ai_stuck = False
        self._preview_key: tuple[object, ...] | None = None
        if session is not None:
            self.attach(session)
        elif game is not None:
            self.follow_game(())

    @classmethod
    def window(cls, scenario: Scenario, *, size: Size = DEFAULT_SIZE,
               provider: RulingProvider | None = None,
               session: Session | None = None) -> App:  # fmt: skip
        pygame.display.init()
        pygame.display.set_caption(f"skirmish: {scenario.header.name}")
        pygame.display.set_mode(size, pygame.RESIZABLE)
        app = cls(scenario, size=size, provider=provider, session=session)
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

    # -- the game

    @property
    def game(self) -> TableGame | None:
        return self.session.game if self.session is not None else self._game

    @property
    def rules(self) -> PlayRules | None:
        return self.session.rules if self.session is not None else None

    def attach(self, session: Session) -> None:
        """Play `session` from now on (a new game, or one loaded from a save)."""
        self.session = session
        self.ai_stuck = False
        if session.scenario is not self.base_scenario:
            self.base_scenario = session.scenario
            self.state = replace(
                initial_state(session.scenario, self.state.size), running=self.state.running
            )
        self.restart_view()

    def restart_view(self) -> None:
        """Follow the game afresh (after undo or load): the log is its whole event log."""
        self.state = replace(
            self.state, log=(), shots=(), effects=(), draft=None, aro_at=None, preview=None
        )
        game = self.game
        events = list(getattr(game, "events", ()))
        self.follow_game(events, animate=False)

    def require_session(self) -> Session:
        if self.session is None:
            raise Impossible("no game attached: this table is a viewer")
        return self.session

    def require_turn(self) -> PlayRules:
        """The rules adapter, when a person may declare now."""
        session = self.require_session()
        prompt = session.prompt()
        if prompt.over:
            raise Impossible(prompt.text)
        if session.is_ai(prompt.side):
            raise Impossible(f"{prompt.side} is played by the computer: wait for it")
        return session.rules

    def declare(self, declaration: object) -> None:
        """Hand a declaration to the game; an illegal one is explained with the reason."""
        game = self.game
        if game is None:
            raise Impossible("no game attached: declarations are not taken yet")
        try:
            if self.session is not None:
                events: Sequence[object] = self.session.declare(declaration)
            else:
                events = game.declare(declaration)
        except IllegalDeclaration as why:
            raise Impossible(str(why)) from None
        self.follow_game(events)

    def route_point(self, pos: Point) -> Point | None:
        """The point of the mover's route nearest `pos`, when a reaction may pick one
        and `pos` is within a few pixels of the route."""
        prompt = self.state.prompt
        if prompt is None or not prompt.reacting or len(prompt.route) < 2:
            return None
        view = self.state.view
        best: tuple[float, Point] | None = None
        px, py = view.to_table(*pos)
        for (ax, ay), (bx, by) in itertools.pairwise(prompt.route):
            dx, dy = bx - ax, by - ay
            length2 = dx * dx + dy * dy
            t = (
                0.0
                if length2 == 0
                else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
            )
            point = (ax + t * dx, ay + t * dy)
            d = math.dist(point, (px, py)) * view.scale
            if best is None or d < best[0]:
                best = (d, point)
        if best is None or best[0] > ROUTE_PICK_PIXELS:
            return None
        return best[1]

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
        weapon = shooter.weapons[state.weapon % len(shooter.weapons)] if shooter.weapons else None
        if state.hover is not None and (state.hover.shooter, state.hover.target) == (
            shooter.id,
            target.id,
        ):
            if state.hover.weapon == weapon:
                return
            hover = replace(
                state.hover, weapon=weapon, odds=self._odds(shooter.id, target.id, weapon)
            )
            self.state = replace(state, hover=hover)
            return
        try:
            ruling = self.provider.rule(self.scenario, shooter.id, target.id)
            lines = tuple(self.provider.describe(self.scenario, ruling))
        except (ValueError, KeyError) as err:
            self.state = replace(state, hover=None, message=f"no ruling: {err}")
            return
        odds = self._odds(shooter.id, target.id, weapon)
        risk = self._risk(shooter.id, target.id)
        self.state = replace(
            state, hover=Hover(shooter.id, target.id, ruling, lines, odds, weapon, risk)
        )

    def _risk(self, shooter: str, target: str) -> tuple[str, ...]:
        """Who a miss may hit instead (Necromunda stray shots), nearest first."""
        rules = self.rules
        if rules is None:
            return ()
        try:
            return tuple(rules.at_risk(self.game, shooter, target))
        except (IllegalDeclaration, KeyError, ValueError):
            return ()

    def refresh_preview(self) -> None:
        """Where the drafted blast or template would land: a blast at its target, its
        point, or the pointer until one is chosen; a template toward the pointer until
        it is laid. Asked of the rules only when what it depends on changes."""
        state = self.state
        draft = state.draft
        rules = self.rules
        if (
            draft is None or draft.kind != "shoot" or draft.aim == AimKind.DIRECT
            or rules is None or draft.weapon is None
        ):  # fmt: skip
            if state.preview is not None:
                self.state = replace(state, preview=None)
            self._preview_key = None
            return
        pointer = None
        if state.pointer is not None and self.in_table(state.pointer):
            pointer = state.view.to_table(*state.pointer)
        target: str | None = None
        point: Point | None = None
        direction: float | None = None
        if draft.aim == AimKind.TEMPLATE:
            direction = draft.direction
            start = self.scenario.model(draft.model).at
            if direction is None and pointer is not None and math.dist(pointer, start) > 1e-6:
                direction = math.degrees(math.atan2(pointer[1] - start[1], pointer[0] - start[0]))
        elif draft.targets:
            target = draft.targets[0][0]
        elif draft.point is not None:
            point = draft.point
        elif pointer is not None:
            under = self.model_at(state.pointer) if state.pointer is not None else None
            if under is not None and under.side != self.scenario.model(draft.model).side:
                target = under.id
            else:
                point = pointer
        key = (id(self.game), draft.model, draft.weapon, draft.blind, target, point, direction)
        if key == self._preview_key:
            return
        self._preview_key = key
        try:
            preview = rules.preview(
                self.game, draft.model, draft.weapon, target=target, point=point,
                direction=direction, blind=draft.blind,
            )  # fmt: skip
        except (IllegalDeclaration, KeyError, ValueError) as why:
            self.state = replace(self.state, preview=None, message=f"no preview: {why}")
            return
        self.state = replace(self.state, preview=preview)

    def _odds(self, shooter: str, target: str, weapon: str | None) -> tuple[str, ...]:
        """The rules' MODs, SV and exact odds for the hovered shot (none without a game)."""
        rules = self.rules
        if rules is None or weapon is None:
            return ()
        try:
            return tuple(rules.odds_lines(self.game, shooter, target, weapon))
        except (IllegalDeclaration, KeyError, ValueError) as why:
            return (f"no odds: {why}",)

    def follow_game(self, events: Sequence[object], *, animate: bool = True) -> None:
        """Copy the game's turn, active side, models, what it awaits and the markers on
        the bases; log its events and animate its shots."""
        game = self.game
        if game is None:
            return
        now = game.state
        before = {m.id: m.at for m in self.scenario.models}
        self.scenario = placed(self.base_scenario, now)
        state = self.state
        lines = dice_log.describe_all(events)
        ids = {m.id for m in self.scenario.models}
        shots = dice_log.shots(events, ids, SHOT_FRAMES) if animate else []
        effects = dice_log.effects(events, before, EFFECT_FRAMES, _outline) if animate else []
        session = self.session
        prompt = session.prompt() if session is not None else None
        human = prompt is not None and not session.is_ai(prompt.side) if session else True
        markers = tuple(sorted(session.rules.markers(session.game).items())) if session else ()
        selected = state.selected if state.selected in ids else None
        if prompt is not None and human and not prompt.over:
            if prompt.kind == "second" and prompt.mover is not None:
                selected = prompt.mover
            elif prompt.reacting and selected not in prompt.models and prompt.models:
                selected = prompt.models[0]
        keep_point = (
            prompt is not None and state.prompt is not None and (prompt.route == state.prompt.route)
        )
        self.state = replace(
            state,
            turn=now.turn,
            active_side=now.active,
            hover=None,
            log=(*state.log, *lines)[-LOG_LINES:],
            message="",
            prompt=prompt,
            human=human,
            draft=None,
            aro_at=state.aro_at if keep_point else None,
            markers=markers,
            shots=(*state.shots, *shots),
            effects=(*state.effects, *effects),
            preview=None,
            keys_help=session.rules.keys_help if session else (),
            selected=selected,
            weapon=state.weapon if selected == state.selected else 0,
        )
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
        self.tick()
        if self._drawn is not self.state:
            self.draw()
            if self.windowed:
                pygame.display.flip()
        self.frames += 1

    def tick(self) -> None:
        """Per frame: shot lines fade, blasts, scatter paths, stray shots and templates
        play on, and the automatic player declares every few frames."""
        if self.state.shots:
            shots = tuple(
                replace(shot, frames=shot.frames - 1)
                for shot in self.state.shots
                if shot.frames > 1
            )
            self.state = replace(self.state, shots=shots)
        if self.state.effects:
            effects = tuple(
                replace(effect, frames=effect.frames - 1)
                for effect in self.state.effects
                if effect.frames > 1
            )
            self.state = replace(self.state, effects=effects)
        session = self.session
        if session is None or self.ai_stuck or not session.ai_due():
            self.ai_wait = 0
            return
        self.ai_wait += 1
        if self.ai_wait >= AI_FRAMES:
            self.ai_wait = 0
            self.perform(StepAI())

    def run(self, frames: int | None = None) -> None:
        clock = pygame.time.Clock()
        while self.state.running and (frames is None or self.frames < frames):
            self.frame()
            if self.windowed:
                clock.tick(FPS)

    def save_screenshot(self, path: Path) -> None:
        save_png(self.draw(), path)
