"""The interactive table's state: one frozen value the frame is drawn from.

No pygame here: the state, the initial view and the ruler's geometry are plain data,
so tests and a future replay viewer can build and compare them.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

from game.render import style
from game.render.dice_log import Effect, LogLine, Shot
from game.render.play_rules import (
    HOVER_HINT,
    Ahead,
    Laid,
    Marker,
    Preview,
    Prompt,
    Rings,
    ShotPlace,
)
from game.render.ruling import Ruling, edge_distance
from game.render.view import View
from game.scenario import PlacedModel, Scenario

Point = tuple[float, float]
Size = tuple[int, int]

DEFAULT_SIZE: Size = (1280, 800)
PANEL_WIDTH = 320


@dataclass(frozen=True, slots=True)
class Hover:
    """The enemy under the pointer with the selected model's ruling against it, ruled
    with the models where the rules take the shot: `place` is a model that is not there
    yet (a trooper moving) and `table` the scenario with it there (None: as shown)."""

    shooter: str
    target: str
    ruling: Ruling
    lines: tuple[str, ...]
    odds: tuple[str, ...] = ()
    weapon: str | None = None
    risk: tuple[str, ...] = ()  # models a miss may hit instead, nearest the shooter first
    place: ShotPlace | None = None
    table: Scenario | None = None
    rings: Rings | None = None  # the rings of this shot, where not `AppState.rings_from`'s
    blind: bool = False  # ruled for a shot fired blind (the draft's, B)
    # what the weapon does laid toward the target (a template), said in the line-of-fire
    # ruling's place where the rules lay it rather than aim it; None: the ruling stands
    laid: Laid | None = None


@dataclass(frozen=True, slots=True)
class Ruler:
    """A measurement from `origin`'s base edge: to a point, or to `target`'s base edge."""

    origin: str
    start: Point
    end: Point
    distance: float
    target: str | None = None


@dataclass(frozen=True, slots=True)
class Draft:
    """A declaration being laid out: a move path (`points` after `start`, against
    `allowance` inches, or `reach` where another key moves further; where the rules move
    by one vector, `one_point`, a click sets its one end point) or a shot (`targets`
    as (model, dice) of `burst`; `focus` is the target +/- move dice to or from). A shot's
    `aim` is how the weapon is pointed (game.render.play_rules.AimKind): a blast may take
    a `point` instead of a target, a template takes a `direction`; `blind` is a shot fired
    blind; `extras` the other models the hits after the first go to (Rapid Fire, where the
    rules have it); `unit` the shooter's unit where the rules fire unit at unit
    (`PlayRules.firing_unit`); `verb` and `hint` how a move is said (`PlayRules.move_words`),
    `keys` its keys as F1 lists them (`PlayRules.move_keys`)."""

    kind: str  # "move" | "shoot"
    model: str
    start: Point
    points: tuple[Point, ...] = ()
    allowance: float | None = None
    reach: float | None = None  # the most another key moves it, past `allowance`
    one_point: bool = False  # a move by one vector: a click sets its end point
    weapon: str | None = None
    burst: int = 0
    targets: tuple[tuple[str, int], ...] = ()
    focus: int = 0
    at: Point | None = None  # a reaction's point on the opponent's route
    aim: str = "direct"
    point: Point | None = None
    direction: float | None = None
    blind: bool = False
    extras: tuple[str, ...] = ()
    unit: str | None = None  # the unit that fires, where the rules fire unit at unit
    verb: str = "moves"  # a move's verb, as the rules say it ("crawls")
    hint: str = ""  # a move's keys in short, where not the prompt's `move_hint`
    keys: tuple[str, ...] = ()  # a move's keys for F1, where not the prompt's `move_keys`

    @property
    def noun(self) -> str:
        """What a move laid out is called, by its verb: "move", "crawl"."""
        return self.verb.removesuffix("s")

    @property
    def length(self) -> float:
        route = (self.start, *self.points[-1:]) if self.one_point else (self.start, *self.points)
        return sum(math.dist(a, b) for a, b in itertools.pairwise(route))

    @property
    def most(self) -> float | None:
        """The most inches a move may be laid out (`reach`, else `allowance`)."""
        return self.allowance if self.reach is None else self.reach

    @property
    def limit(self) -> float | None:
        """The inches of the move that would take the path laid out: the `allowance`
        of the move Enter declares while the path is within it, else the `reach`."""
        if self.allowance is None or self.reach is None:
            return self.allowance
        return self.allowance if self.length <= self.allowance + 1e-6 else self.reach

    @property
    def left(self) -> float | None:
        limit = self.limit
        return None if limit is None else limit - self.length


# Said in the window when a key would lose what is not saved: Q or closing it (play,
# edit), and in play Ctrl+O (a save opened over the game) and F2 (a changed table starts
# a new game); `again`: the key again ("Q again"), `doing`: what it then does.
UNSAVED = "changes not saved: {again} to {doing} without saving, Ctrl+S to save"
UNSAVED_QUIT = UNSAVED.replace("{doing}", "quit")


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
    refusal: str = ""  # the message, while it says why something was refused (its colour)
    log: tuple[LogLine, ...] = ()
    running: bool = True
    prompt: Prompt | None = None  # what the game awaits (None: no game attached)
    human: bool = True  # the awaited side is played by a person
    draft: Draft | None = None
    aro_at: Point | None = None  # the point of the mover's route a reaction is taken at
    place: ShotPlace | None = None  # where the rules have the mover when a shot is taken now
    toggled: frozenset[str] = frozenset()  # options switched on for the next declaration
    # the models nominated for a group activation and the one to lead it (G), for the
    # leader's first declaration
    group: tuple[str, ...] = ()
    group_of: str | None = None
    markers: tuple[tuple[str, Marker], ...] = ()
    # who holds each objective now, as the rules would score it (objective id, side)
    holding: tuple[tuple[str, str], ...] = ()
    # a model's state in the rules' words where its status alone would mislead (`states`)
    states: tuple[tuple[str, str], ...] = ()
    # a model's range rings where the rules count its range by another weapon than the
    # chosen one, or from more bases than its own (`rings_from`)
    rings_from: tuple[tuple[str, Rings], ...] = ()
    shots: tuple[Shot, ...] = ()
    effects: tuple[Effect, ...] = ()  # blasts, scatter paths, stray shots, templates
    preview: Preview | None = None  # where the drafted blast or template would land
    # where the models would go by the answer a person is asked for (`PlayRules.ahead`)
    ahead: tuple[Ahead, ...] = ()
    keys_help: tuple[str, ...] = ()  # the rule system's declaration keys
    # the keys of a model that may take fewer declarations (`PlayRules.keys_of`), and
    # the models that may fire no weapon now, drawn without range rings (`unarmed`)
    keys_of: tuple[tuple[str, tuple[str, ...]], ...] = ()
    unarmed: frozenset[str] = frozenset()
    undoable: bool = False  # Ctrl+Z takes back a declaration a person made here
    redoable: bool = False  # Ctrl+Y declares again what undo took back
    hover_hint: str = HOVER_HINT  # what pointing at an enemy shows, in the system's words
    log_scroll: int = 0  # dice log lines scrolled back from the newest
    replay: str = ""  # where a replay stands ("" when none is open)
    # how a person may take a side when the computer plays every side ("" otherwise)
    watching: str = ""
    taken_here: str = ""  # the side a person took over here, by its name (T hands it back)
    help: bool = False  # the F1 overlay is open
    hint: bool = True  # the opening hint (how to get help) shows until a key or click
    # the key whose "changes not saved" warning is armed ("quit", "open", "edit") and
    # what was not saved when it was pressed: the same key again straight after goes on
    asked: tuple[str, tuple[object, ...]] | None = None

    @property
    def declaring(self) -> tuple[str, ...]:
        """The declaration keys F1 and the panel's foot list: the selected model's own
        where it may declare now and takes fewer (`keys_of`), else `keys_help`."""
        prompt = self.prompt
        if self.keys_help and prompt is not None and self.selected in prompt.models:
            return dict(self.keys_of).get(self.selected, self.keys_help)
        return self.keys_help

    @property
    def table_size(self) -> Size:
        """Pixels of the table area, left of the panel."""
        return (max(1, self.size[0] - panel_width(self.size)), self.size[1])


def shot_table(scenario: Scenario, place: ShotPlace | None) -> Scenario:
    """The scenario with the model `place` names where the rules take a shot from or at."""
    if place is None:
        return scenario
    models = tuple(
        replace(m, at=place.at, facing=place.facing) if m.id == place.model else m
        for m in scenario.models
    )
    return replace(scenario, models=models)


def ui_scale(size: Size) -> float:
    """How much larger the panel's text is drawn than at 1280x800: 1 up to there,
    growing with the window to 2 (2560x1600), so a large screen stays readable."""
    return max(1.0, min(2.0, size[0] / 1280, size[1] / 800))


def panel_width(size: Size) -> int:
    """The side panel's width: wider on large windows, never more than a third."""
    return min(round(PANEL_WIDTH * ui_scale(size)), size[0] // 3)


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


def side_to_take(scenario: Scenario, state: AppState) -> str:
    """The side T takes over while the computer plays every side: the selected model's,
    else the active side (else the first)."""
    if state.selected is not None:
        return scenario.model(state.selected).side
    ids = [s.id for s in scenario.sides]
    return state.active_side if state.active_side in ids else ids[0]


def initial_state(scenario: Scenario, size: Size = DEFAULT_SIZE) -> AppState:
    humans = [s.id for s in scenario.sides if s.player == "human"]
    active = humans[0] if humans else (scenario.sides[0].id if scenario.sides else "")
    state = AppState(size=size, view=View(), active_side=active)
    return replace(state, view=fit_view(scenario, state.table_size))


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
