"""What the player may ask of the window itself: `Action` objects that quit, select a
base, choose a weapon, point, zoom, pan, resize, measure with the ruler and save a
screenshot. An action's `perform` replaces the window's state or raises `Impossible`
with the reason shown to the player.

Declarations are drafted by the actions in game.render.declaring, and the game as a
whole (undo, save, the computer's turn) by those in game.render.game_actions.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from game.render.following import Following
from game.render.play_rules import AimKind
from game.render.pointing import Impossible
from game.render.state import (
    UNSAVED,
    Point,
    Size,
    fit_view,
    ruler_between,
    ruler_to_point,
)
from game.render.unsaved import asks_first
from game.render.view import View
from game.sequencer.sentences import listed, names_of, who

__all__ = ["Action", "Impossible"]


class Action:
    """Something the player asked for. `perform` changes `app.state` or raises Impossible."""

    def perform(self, app: Following) -> None:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Quit(Action):
    """Q, or closing the window: quits, unless a person's declarations would be lost
    (the game not saved since they were made): then the window says so, and a second Q
    or close, nothing declared between, quits."""

    closing: bool = False  # the window's close button, not Q

    def perform(self, app: Following) -> None:
        session = getattr(app, "session", None)
        unsaved = tuple(session.unsaved()) if session is not None else ()
        again = "close the window again (or Q)" if self.closing else "Q again"
        if warns_first(app, "quit", unsaved, UNSAVED.format(again=again, doing="quit")):
            return
        app.state = replace(app.state, running=False)


def warns_first(app: Following, key: str, unsaved: tuple[object, ...], message: str) -> bool:
    """Whether `key` ("quit", "open", "edit") would lose `unsaved` (a person's work no
    file holds) and is not pressed again straight after its warning: then the warning,
    `message`, is said in the place of a refusal showing (tester13's finding 1, as the
    editor's) and armed; any other key or a click disarms it (App.disarm_unsaved). The
    question is the editor's too (game.render.unsaved)."""
    if not asks_first(app.state.asked, key, unsaved):
        return False
    app.state = replace(app.state, asked=(key, unsaved), message=message, refusal="")
    return True


@dataclass(frozen=True, slots=True)
class Select(Action):
    model_id: str

    def perform(self, app: Following) -> None:
        model = app.scenario.model(self.model_id)
        if app.out_of_fight(model.id):
            name = names_of(app.scenario).get(model.id, model.id)
            gone = str(model.state).replace("-", " ")  # "out of action", as the rules say it
            raise Impossible(f"{name} is {gone}: out of the fight")
        draft = app.state.draft if app.state.selected == model.id else None
        app.state = replace(
            app.state, selected=model.id, weapon=0, hover=None, message=_group_said(app, model.id),
            draft=draft,
        )  # fmt: skip
        app.refresh_hover()


def after_the_leader(group: Sequence[str]) -> str:
    """A group activation's fighters as they go: "Orlock heavy activates after it"."""
    return f"{listed(group)} {'activates' if len(group) == 1 else 'activate'} after it"


def _group_said(app: Following, model: str) -> str:
    """What becomes of a group activation nominated (G) as `model` is selected: kept, and
    said so, as another is looked at ("... waits: select Orlock leader to declare with
    it"), and again once its leader is selected; "" with none, or nothing changing."""
    state = app.state
    leader, group = state.group_of, state.group
    if not group or leader is None or state.selected == model:
        return ""
    if model == leader:
        return f"{who(leader)}'s group activation: {after_the_leader(group)}"
    return (
        f"{who(leader)}'s group activation with {listed(group)} waits: select {who(leader)} "
        "to declare with it"
    )


@dataclass(frozen=True, slots=True)
class Deselect(Action):
    def perform(self, app: Following) -> None:
        app.state = replace(
            app.state, selected=None, hover=None, ruler=None, message="", draft=None
        )


@dataclass(frozen=True, slots=True)
class ChooseWeapon(Action):
    index: int

    def perform(self, app: Following) -> None:
        weapons = app.selected_weapons()
        if not 0 <= self.index < len(weapons):
            raise Impossible(f"no weapon {self.index + 1} (it has {len(weapons)})")
        app.state = replace(app.state, weapon=self.index, message=weapons[self.index])
        draft = app.state.draft
        if draft is not None and draft.kind == "shoot" and app.rules is not None:
            name = weapons[self.index]
            burst = app.rules.burst(app.game, draft.model, name)
            aim = app.rules.aim_kind(app.game, draft.model, name).value
            targets = spread(draft.targets, burst) if aim != AimKind.TEMPLATE else ()
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

    def perform(self, app: Following) -> None:
        weapons = app.selected_weapons()
        ChooseWeapon((app.state.weapon + self.step) % len(weapons)).perform(app)


@dataclass(frozen=True, slots=True)
class PointAt(Action):
    """The pointer moved: remember where, and rule on the enemy under it."""

    pos: Point

    def perform(self, app: Following) -> None:
        app.state = replace(app.state, pointer=self.pos)
        app.refresh_hover()
        app.refresh_preview()


@dataclass(frozen=True, slots=True)
class ZoomAt(Action):
    factor: float
    about: Point

    def perform(self, app: Following) -> None:
        app.state = replace(app.state, view=app.state.view.zoomed(self.factor, self.about))


@dataclass(frozen=True, slots=True)
class SetView(Action):
    view: View

    def perform(self, app: Following) -> None:
        app.state = replace(app.state, view=self.view)


@dataclass(frozen=True, slots=True)
class FitView(Action):
    def perform(self, app: Following) -> None:
        app.state = replace(app.state, view=fit_view(app.scenario, app.state.table_size))


@dataclass(frozen=True, slots=True)
class Resize(Action):
    size: Size

    def perform(self, app: Following) -> None:
        """The window changed size: the panel reflows and the table is fitted again."""
        app.state = replace(app.state, size=(max(1, self.size[0]), max(1, self.size[1])))
        app.state = replace(app.state, view=fit_view(app.scenario, app.state.table_size))
        app.resized()


@dataclass(frozen=True, slots=True)
class ToggleHelp(Action):
    """F1 or ?: open or close the overlay with every key."""

    def perform(self, app: Following) -> None:
        app.state = replace(app.state, help=not app.state.help, hint=False)


@dataclass(frozen=True, slots=True)
class ScrollLog(Action):
    """Scroll the dice log `lines` back (positive: older) or forward."""

    lines: int

    def perform(self, app: Following) -> None:
        limit = app.log_scroll_limit()
        scroll = max(0, min(limit, app.state.log_scroll + self.lines))
        app.state = replace(app.state, log_scroll=scroll)


@dataclass(frozen=True, slots=True)
class Measure(Action):
    """The ruler from `origin`'s base edge to the pointer, or to the base under it."""

    origin: str
    pos: Point

    def perform(self, app: Following) -> None:
        origin = app.scenario.model(self.origin)
        other = app.model_at(self.pos)
        if other is not None and other.id != origin.id:
            ruler = ruler_between(origin, other)
        else:
            ruler = ruler_to_point(origin, app.state.view.to_table(*self.pos))
        app.state = replace(app.state, ruler=ruler)


@dataclass(frozen=True, slots=True)
class ClearRuler(Action):
    def perform(self, app: Following) -> None:
        if app.state.ruler is not None:
            app.state = replace(app.state, ruler=None)


@dataclass(frozen=True, slots=True)
class Screenshot(Action):
    """Save the frame as a PNG: `path`, or a timestamped name in the current directory."""

    path: Path | None = None

    def perform(self, app: Following) -> None:
        path = self.path or timestamped(Path.cwd())
        try:
            app.save_screenshot(path)
        except OSError as err:
            raise Impossible(f"screenshot not saved: {err}") from None
        app.state = replace(app.state, message=f"saved {path.name}")


def spread(targets: tuple[tuple[str, int], ...], burst: int) -> tuple[tuple[str, int], ...]:
    """`burst` dice over the same targets, as evenly as it goes (first targets first)."""
    if not targets or burst <= 0:
        return targets
    n = min(len(targets), burst)
    share, extra = divmod(burst, n)
    return tuple((t, share + (1 if i < extra else 0)) for i, (t, _) in enumerate(targets[:n]))


def timestamped(folder: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"skirmish-{stamp}.png"
    n = 1
    while path.exists():
        path = folder / f"skirmish-{stamp}-{n}.png"
        n += 1
    return path
