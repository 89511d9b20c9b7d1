"""Drawing the interactive table: a function of the state and its view onto a surface.

`draw_frame` blits the static table layer (grid, scenery, bases and their state
markers: cached per view, size and model positions), then draws the overlays
(game.render.overlays) and the side panel (game.render.panel).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import pygame

from game.render import style
from game.render.eye_panel import EyeCache, draw_hover_eye, eye_least, eye_room
from game.render.help import (
    draw_help,
    draw_hint,
    draw_reaction_banner,
    help_sections,
    reaction_banner,
)
from game.render.labels import Box, Placed, Want, crosses_box
from game.render.overlays import (
    ahead_ends,
    draw_ahead,
    draw_draft,
    draw_effect,
    draw_group,
    draw_preview,
    draw_range_rings,
    draw_reacting,
    draw_risk,
    draw_route,
    draw_ruler,
    draw_ruling,
    draw_shot,
    ring_base,
    ruling_lines,
)
from game.render.panel import PanelCache, PanelLine, draw_panel, foot_keys, panel_lines
from game.render.play_rules import Marker, Prompt
from game.render.state import AppState, Point, Size, shot_table, ui_scale
from game.render.style import (
    DEAD,
    HIDES,
    LOF_NO,
    LOF_YES,
    PANEL_BG,
    RINGS,
    RISK,
    ROUTE,
    RULER,
    SELECT,
    TAG,
    WOUND,
    Colour,
)
from game.render.table import (
    draw_grid,
    draw_labels,
    draw_models,
    draw_objectives,
    draw_objectives_under_bases,
    draw_scenery,
    font,
    label_size,
    ruler_boxes,
    side_colours,
    table_bounds,
    table_labels,
    table_picture,
)
from game.render.view import View
from game.scenario import Scenario
from game.scenario.scenario import PlacedModel
from game.sequencer.sentences import names_of, plural

__all__ = [
    "DEAD", "HIDES", "LOF_NO", "LOF_YES", "PANEL_BG", "RINGS", "RISK", "RULER", "SELECT",
    "TAG", "FrameCache", "LayerCache", "PanelLine", "draw_frame", "draw_markers",
    "panel_lines",
]  # fmt: skip


@dataclass(slots=True)
class LayerCache:
    """The static table (grid, scenery, bases, their markers and every label) drawn
    once per view and size."""

    key: tuple[object, ...] | None = None
    surface: pygame.Surface | None = None
    builds: int = 0
    labels: list[Placed] = field(default_factory=list)  # where the labels went
    # what a label placed over the table keeps clear of: the labels and the inch
    # ruler's numbers
    taken: list[Box] = field(default_factory=list)

    def layer(self, scenario: Scenario, view: View, size: Size,
              markers: tuple[tuple[str, Marker], ...] = (), ui: float = 1.0
              ) -> pygame.Surface:  # fmt: skip
        key = (id(scenario), scenario.models, view, size, markers, ui)
        if self.surface is None or self.key != key:
            surface = pygame.Surface(size)
            surface.fill(style.BACKGROUND)
            self.labels = draw_marked_table(surface, scenario, view, dict(markers), ui)
            self.taken = [label.box for label in self.labels] + ruler_boxes(scenario, view)
            self.key, self.surface = key, surface.convert() if _display_ready() else surface
            self.builds += 1
        return self.surface


def draw_marked_table(surface: pygame.Surface, scenario: Scenario, view: View,
                      markers: dict[str, Marker], ui: float = 1.0) -> list[Placed]:  # fmt: skip
    """The table as the window draws it: grid, scenery, objectives, the bases with their
    state markers (`markers`; without them, the scenario's own model states: a fighter
    Out of Action greyed and crossed) and every label; returns where the labels went."""
    draw_grid(surface, scenario, view)
    draw_scenery(surface, scenario, view)
    draw_objectives(surface, scenario, view)
    draw_models(surface, scenario, view, side_colours(scenario))
    draw_markers(surface, scenario, view, markers)
    draw_objectives_under_bases(surface, scenario, view)
    wants, colours = marker_wants(scenario, view, markers, ui)
    labels = table_labels(scenario, view, surface.get_size(), wants, ui, objectives=True)
    draw_labels(surface, labels, view, colours)
    return labels


def marked_table_picture(scenario: Scenario, scale: float = 20.0) -> pygame.Surface:
    """`table_picture` with each base's state marked as the window marks it, from the
    scenario's own model states (a fighter Out of Action greyed and crossed, "pinned"
    beside a barred base): `skirmish render`'s picture and `playtest --out`'s table."""
    return table_picture(scenario, scale, lambda s, sc, v: draw_marked_table(s, sc, v, {}))


MARKER_WORDS = {"seriously-injured": "seriously injured", "out-of-action": "out of action"}
GONE = ("dead", "out-of-action")  # greyed and crossed
DOWN = ("unconscious", "seriously-injured")  # greyed
LYING = ("prone", "pinned")  # a bar across the base


def draw_markers(surface: pygame.Surface, scenario: Scenario, view: View,
                 markers: dict[str, Marker]) -> None:  # fmt: skip
    """State markers on the bases: the dead greyed and crossed, the unconscious greyed,
    the prone and pinned barred (the words beside the base are labels: `marker_wants`).
    Without markers the scenario's own model states are drawn."""
    for model in scenario.models:
        status = _marker(model.id, model.state, markers).status or "normal"
        draw_marker(surface, status, view.to_screen(*model.at), max(model.radius * view.scale, 3.0))


def marked(status: str) -> bool:
    """Whether `draw_marker` marks a base in `status` at all."""
    return status in GONE or status in DOWN or status in LYING


def draw_marker(surface: pygame.Surface, status: str, centre: Point, r: float) -> None:
    """One base's state marker, the base `r` pixels round at `centre` (`draw_markers`)."""
    cx, cy = centre
    if status in GONE or status in DOWN:
        pygame.draw.circle(surface, DEAD, (cx, cy), r * (1.0 if status in GONE else 0.8))
        pygame.draw.circle(surface, style.INK, (cx, cy), r, 2)
    if status in GONE:
        k = r * 0.6
        pygame.draw.line(surface, style.INK, (cx - k, cy - k), (cx + k, cy + k), 3)
        pygame.draw.line(surface, style.INK, (cx - k, cy + k), (cx + k, cy - k), 3)
    if status in LYING:
        pygame.draw.line(surface, style.INK, (cx - r, cy), (cx + r, cy), 5)
        pygame.draw.line(surface, (200, 120, 20), (cx - r, cy), (cx + r, cy), 3)


def _marker(model: str, state: str | None, markers: dict[str, Marker]) -> Marker:
    return markers.get(model) or Marker(state or "normal")


def marker_wants(scenario: Scenario, view: View, markers: dict[str, Marker], ui: float = 1.0
                 ) -> tuple[list[Want], dict[str, tuple[Colour, Colour]]]:  # fmt: skip
    """The words beside each base: its state and wounds, then its counters and flags
    (flesh wounds, aimed, out of ammo, jammed, blaze) stacked above, up and to the
    right of the base first. Returns the labels and each one's box and text colours."""
    wants: list[Want] = []
    colours: dict[str, tuple[Colour, Colour]] = {}
    size = label_size(view, "marker", ui)
    white = (255, 255, 255)
    called = names_of(scenario)
    for model in scenario.models:
        marker = _marker(model.id, model.state, markers)
        status = marker.status or "normal"
        words = [] if status == "normal" else [MARKER_WORDS.get(status, status.replace("-", " "))]
        if marker.wounds and status not in GONE:
            words.append(f"{plural(marker.wounds, 'wound')} lost")
        boxes: list[tuple[str, Colour]] = []
        if words:
            colour = WOUND if status in ("normal", *DOWN, *GONE) else (200, 120, 20)
            said = ", ".join(words)
            if status in GONE:  # its name and its state in one label: the disc is crossed
                said = f"{called.get(model.id, model.id)}: {said}"
            boxes.append((said, DEAD if status in GONE else colour))
        for tag in marker.tags if status not in GONE else ():
            colour = TAG if tag != "done" else DEAD
            if tag.endswith(("out of ammo", "jammed")) or tag in ("on fire", "Broken"):
                colour = (170, 60, 20)
            boxes.append((tag, colour))
        cx, cy = view.to_screen(*model.at)
        r = max(model.radius * view.scale, 3.0)
        bottom = cy - r * 0.75  # up and to the right, just off the base
        for index, (text, colour) in enumerate(boxes):
            w, h = font(size).size(text)
            w += 4
            spot = (cx + r * 0.75 + w / 2, bottom - h / 2)
            bottom -= h + 2
            key = f"marker:{model.id}:{index}"
            wants.append(Want(key, text, (w, h), (cx, cy), r, "marker", (spot,), size))
            colours[key] = (colour, white)
    return wants, colours


def _base_rect(model: PlacedModel, view: View, margin: float = 0.0) -> pygame.Rect:
    """The square around a model's base on the screen, `margin` pixels wider each way."""
    cx, cy = view.to_screen(*model.at)
    r = max(model.radius * view.scale, 3.0) + margin
    return pygame.Rect(round(cx - r), round(cy - r), round(2 * r), round(2 * r))


def _rect(box: tuple[float, float, float, float]) -> pygame.Rect:
    x, y, w, h = box
    return pygame.Rect(round(x), round(y), round(w), round(h))


def _box(rect: pygame.Rect) -> Box:
    return (float(rect.x), float(rect.y), float(rect.w), float(rect.h))


# How much the reaction banner minds covering each thing (`banner_avoids`).
ASKED_WEIGHT = 10  # a model asked to react: its base, its label and its markers
MOVER_WEIGHT = 4  # the model whose move or attack it answers
ROUTE_WEIGHT = 2  # each point of that move's route
OTHER_WEIGHT = 1  # any other label
BASE_WEIGHT = 2  # any other model's base


def banner_avoids(
    scenario: Scenario, prompt: Prompt, labels: Sequence[Placed], view: View
) -> list[tuple[pygame.Rect, int]]:
    """What the reaction banner should not cover, with weights: the bases and labels of
    the models asked to react most (the person decides for them), the mover and its
    route less, every other base and label a little."""
    weights = dict.fromkeys(prompt.models, ASKED_WEIGHT)
    if prompt.mover and prompt.mover not in weights:
        weights[prompt.mover] = MOVER_WEIGHT
    out: list[tuple[pygame.Rect, int]] = []
    for label in labels:
        key = label.want.key.removeprefix("marker:").split(":")[0]
        out.append((_rect(label.box), weights.get(key, OTHER_WEIGHT)))
    for model in scenario.models:
        out.append((_base_rect(model, view, 6), weights.get(model.id, BASE_WEIGHT)))
    for point in prompt.route:
        px, py = view.to_screen(*point)
        out.append((pygame.Rect(round(px) - 4, round(py) - 4, 8, 8), ROUTE_WEIGHT))
    return out


def names_over(surface: pygame.Surface, layer: pygame.Surface, labels: Sequence[Placed],
               across: tuple[Point, Point] | None = None) -> None:  # fmt: skip
    """The table's labels (names, state markers, heights) copied back from the table
    layer over the shot lines and animations just drawn, or (`across`: a line on the
    screen) over that line: the lines pass under the names, which stay readable."""
    for label in labels:
        if across is not None and not crosses_box(*across, label.box, 3.0):
            continue
        box = _rect(label.box)
        surface.blit(layer, box.topleft, box)


def _display_ready() -> bool:
    return pygame.display.get_init() and pygame.display.get_surface() is not None


@dataclass(slots=True)
class FrameCache:
    table: LayerCache = field(default_factory=LayerCache)
    panel: PanelCache = field(default_factory=PanelCache)
    eye: EyeCache = field(default_factory=EyeCache)
    ruling_label: pygame.Rect | None = None  # where the hovered ruling's label went
    ring_labels: list[pygame.Rect] = field(default_factory=list)  # the range rings' labels
    # the draft's and the group's labels ('2.0" left', "x1", "group 1")
    draft_labels: list[pygame.Rect] = field(default_factory=list)


def draw_frame(
    surface: pygame.Surface,
    scenario: Scenario,
    state: AppState,
    cache: FrameCache,
    *,
    engine_loaded: bool = False,
    provider_name: str = "",
) -> None:
    """One frame: the cached table layer, the overlays, a reaction's banner and the
    opening hint, the panel, and the help overlay when it is open."""
    tw, th = state.table_size
    tw = min(tw, surface.get_width())
    th = min(th, surface.get_height())
    table = surface.subsurface(pygame.Rect(0, 0, tw, th))
    ui = ui_scale(surface.get_size())
    layer = cache.table.layer(scenario, state.view, (tw, th), state.markers, ui)
    table.blit(layer, (0, 0))
    view = state.view
    if state.shots or state.effects:
        for shot in sorted(state.shots, key=lambda shot: shot.hit):  # hits on top
            draw_shot(table, shot.start, shot.end, shot.hit, view)
        for effect in state.effects:
            draw_effect(table, effect, view)
        names_over(table, layer, cache.table.labels)
    # a reaction asked of a person: its banner (placed first, for the rings' labels)
    prompt = state.prompt
    shown: Prompt | None = None
    avoid: list[tuple[pygame.Rect, int]] = []
    banner: list[pygame.Rect] = []
    if prompt is not None and prompt.choices and state.human:
        shown = replace(prompt, text=prompt.said(state.selected),
                        choices=prompt.choices_with(state.toggled))  # fmt: skip
        avoid = banner_avoids(scenario, prompt, cache.table.labels, view)
        banner = [reaction_banner((tw, th), shown, (tw, th), avoid)[0]]
    # where an answer awaited would take the models (a fall back), over the rings: their
    # labels kept off its ends
    ahead = state.ahead if state.human else ()
    rings_said: list[pygame.Rect] = []
    if state.selected is not None:
        # the rings' labels kept off the table's labels and bases, and from under the banner
        kept_clear = [_rect(box) for box in cache.table.taken] + ahead_ends(ahead, view)
        kept_clear += [_base_rect(model, view) for model in scenario.models]
        # the bands from where the rules take its shot (the end of its move so far)
        moving = state.place is not None and state.place.model == state.selected
        ringed = shot_table(scenario, state.place) if moving else scenario
        rings_said = draw_range_rings(table, ringed, state, kept_clear, banner, ui)
        names_over(table, layer, cache.table.labels)  # the rings pass under names and tags
    cache.ring_labels = rings_said
    if state.prompt is not None and len(state.prompt.route) > 1:
        draw_route(table, state.prompt.route, state.aro_at, view)
    # the labels drawn over the table so far, that those drawn later keep clear of
    over = [*cache.table.taken, *(_box(r) for r in rings_said)]
    drafted: list[pygame.Rect] = []
    if ahead:
        drafted += draw_ahead(table, scenario, ahead, view, [*over, *map(_box, banner)])
        names_over(table, layer, cache.table.labels)  # its paths pass under names and states
        over += map(_box, drafted)
    if state.draft is not None:  # the shot's lines from and to where the rules take it
        placed = shot_table(scenario, state.place)
        drafted += draw_draft(table, placed, state.draft, state.pointer, view, over)
        over += map(_box, drafted)
    if state.preview is not None and state.draft is not None:
        laid = draw_preview(table, scenario, state.preview, state.draft.model, view)
        if laid is not None:  # the ruling's label keeps off "under it: N"
            over.append(_box(laid))
    if state.selected is not None:
        ring_base(table, SELECT, scenario.model(state.selected), view)
    if state.group and state.group_of == state.selected:  # a group activation named (G)
        grouped = draw_group(table, scenario, state.group, view, over, ui)
        drafted += grouped
        over += map(_box, grouped)
    cache.draft_labels = drafted
    if state.hover is not None:  # its label keeps off the rings' and the draft's labels too
        taken = over
        ruled = state.hover.table or scenario  # the mover where the rules take the shot
        if state.hover.place is not None:
            ring_base(table, ROUTE, ruled.model(state.hover.place.model), view, 2)
        # on the table, as the table's labels are (tester16: one line 910 px wide ran
        # off both its sides, into the ruler's margin)
        on = table_bounds(scenario, view, table.get_size())
        cache.ruling_label = draw_ruling(table, ruled, state.hover, view, engine_loaded, taken,
                                         ui, on)  # fmt: skip
        said = cache.ruling_label
        for across in ruling_lines(ruled, state.hover, view, engine_loaded, said):
            names_over(table, layer, cache.table.labels, across)  # the lines pass under them
        if said is not None:
            taken.append(_box(said))
        draw_risk(table, scenario, state.hover.risk, view, taken, ui)
    if state.ruler is not None:
        draw_ruler(table, state.ruler, view)
    hint_top = 3
    if prompt is not None and shown is not None:
        draw_reacting(table, scenario, prompt.models, view)
        drawn = draw_reaction_banner(table, shown, (tw, th), avoid)
        if drawn.top < th // 2:
            hint_top += drawn.bottom  # the hint below it
    if state.hint:
        draw_hint(table, (tw, th), hint_top)
    room = eye_room(state.hover, surface.get_height())
    least = 0
    if room and state.hover is not None:
        eyed = state.hover.table or scenario
        least = eye_least(eyed, state.hover, cache.eye, surface.get_size())
    lines = panel_lines(scenario, state, provider_name)
    keys = foot_keys(scenario, state)
    kept = draw_panel(surface, lines, cache.panel, keys, state.log_scroll, room, least)
    if room and state.hover is not None:
        draw_hover_eye(surface, kept, state.hover.table or scenario, state.hover, cache.eye)
    if state.help:
        sections = help_sections(state, scenario.ruleset.turn_word)
        draw_help(surface, sections, pygame.Rect(0, 0, tw, th))
