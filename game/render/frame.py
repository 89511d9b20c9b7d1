"""Drawing the interactive table: a function of the state and its view onto a surface.

`draw_frame` blits the static table layer (grid, scenery, bases: cached per view, size
and model positions), then draws the overlays (range rings, selection, the ruling,
the ruler) and the side panel (rendered again only when its text changes).
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
from dataclasses import dataclass, field

from game.render import style
from game.render.dice_log import Effect
from game.render.play_rules import AimKind, Marker, Preview
from game.render.ranges import profile_summary, range_rings, weapon_summary
from game.render.state import AppState, Draft, Hover, Point, Ruler, Size, panel_width
from game.render.table import draw_grid, draw_models, draw_scenery, font, side_colours
from game.render.view import View
from game.scenario import PlacedModel, Scenario

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

Colour = style.Colour

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
SHADE = (20, 20, 24, 170)
HIDES: Colour = (245, 130, 40)
DRAFT: Colour = (120, 230, 255)
ROUTE: Colour = (240, 240, 255)
SHOT_HIT: Colour = (255, 60, 40)
SHOT_MISS: Colour = (235, 235, 210)
DEAD: Colour = (120, 120, 120)
WOUND: Colour = (220, 30, 30)
BLAST: Colour = (255, 120, 20)
SCATTER: Colour = (255, 200, 120)
REFUSED: Colour = (230, 50, 50)
UNDER_FOE: Colour = (255, 60, 40)
UNDER_FRIEND: Colour = (80, 200, 255)
RISK: Colour = (255, 150, 220)
FLAME: Colour = (255, 110, 0)
TAG: Colour = (60, 60, 140)
LOG_SHOWN = 30  # log entries considered for the panel (the oldest drop first)


@dataclass(slots=True)
class LayerCache:
    """The static table (grid, scenery, bases) drawn once per view and size."""

    key: tuple[object, ...] | None = None
    surface: pygame.Surface | None = None
    builds: int = 0

    def layer(self, scenario: Scenario, view: View, size: Size,
              markers: tuple[tuple[str, Marker], ...] = ()) -> pygame.Surface:  # fmt: skip
        key = (id(scenario), scenario.models, view, size, markers)
        if self.surface is None or self.key != key:
            surface = pygame.Surface(size)
            surface.fill(style.BACKGROUND)
            draw_grid(surface, scenario, view)
            draw_scenery(surface, scenario, view)
            draw_models(surface, scenario, view, side_colours(scenario))
            draw_markers(surface, scenario, view, dict(markers))
            self.key, self.surface = key, surface.convert() if _display_ready() else surface
            self.builds += 1
        return self.surface


MARKER_WORDS = {
    "unconscious": "UNC",
    "prone": "PRONE",
    "dead": "DEAD",
    "pinned": "PINNED",
    "seriously-injured": "SER.INJ",
    "out-of-action": "OOA",
    "engaged": "ENGAGED",
}
GONE = ("dead", "out-of-action")  # greyed and crossed
DOWN = ("unconscious", "seriously-injured")  # greyed
LYING = ("prone", "pinned")  # a bar across the base


def draw_markers(surface: pygame.Surface, scenario: Scenario, view: View,
                 markers: dict[str, Marker]) -> None:  # fmt: skip
    """State markers on the bases: the dead greyed and crossed, the unconscious greyed;
    a tag beside the base names the state and the wounds taken. Without markers the
    scenario's own model states are drawn."""
    for model in scenario.models:
        marker = markers.get(model.id) or Marker(model.state or "normal")
        status = marker.status or "normal"
        if status == "normal" and not marker.wounds and not marker.tags:
            continue
        cx, cy = view.to_screen(*model.at)
        r = max(model.radius * view.scale, 3.0)
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
        words = [] if status == "normal" else [MARKER_WORDS.get(status, status.upper())]
        if marker.wounds and status not in GONE:
            words.append(f"{marker.wounds}W")
        top = round(cy - r * 0.6)
        if words:
            image = font(15).render(" ".join(words), True, (255, 255, 255))
            box = image.get_rect(bottomleft=(round(cx + r * 0.6), top))
            colour = WOUND if status in ("normal", *DOWN, *GONE) else (200, 120, 20)
            pygame.draw.rect(surface, DEAD if status in GONE else colour, box.inflate(4, 2))
            surface.blit(image, box)
            top = box.top - 2
        # Counters and flags (flesh wounds, aimed, out of ammo, jammed, blaze) stack above.
        for tag in marker.tags if status not in GONE else ():
            image = font(14).render(tag, True, (255, 255, 255))
            box = image.get_rect(bottomleft=(round(cx + r * 0.6), top))
            colour = TAG if tag != "done" else DEAD
            if tag.startswith(("no ammo", "jam", "BLAZE")):
                colour = (170, 60, 20)
            pygame.draw.rect(surface, colour, box.inflate(4, 2))
            surface.blit(image, box)
            top = box.top - 2


def _display_ready() -> bool:
    return pygame.display.get_init() and pygame.display.get_surface() is not None


@dataclass(frozen=True, slots=True)
class PanelLine:
    text: str
    colour: Colour = style.TEXT
    size: int = 20
    gap: int = 0  # pixels of space above the line
    log: bool = False  # a dice log line: the oldest are left out when the panel is full


@dataclass(slots=True)
class PanelCache:
    lines: tuple[PanelLine, ...] | None = None
    height: int = 0
    surface: pygame.Surface | None = None


@dataclass(slots=True)
class FrameCache:
    table: LayerCache = field(default_factory=LayerCache)
    panel: PanelCache = field(default_factory=PanelCache)


LOG_COLOURS: dict[str, Colour] = {
    "roll": (200, 210, 255),
    "hit": (255, 120, 100),
    "save": (200, 200, 200),
    "wound": (255, 90, 80),
    "state": (255, 200, 90),
    "turn": (150, 230, 150),
    "info": DIM,
}


def panel_lines(
    scenario: Scenario, state: AppState, provider_name: str = ""
) -> tuple[PanelLine, ...]:
    """The panel's text, top to bottom: scenario, turn, what the game awaits, the
    message, the draft, the selection, the ruling and odds, the ruler, the dice log."""
    out: list[PanelLine] = [
        PanelLine(scenario.header.name, size=26),
        PanelLine(scenario.ruleset.title, DIM, 18),
    ]
    active = state.active_side
    colours = side_colours(scenario)
    if active:
        side = scenario.side(active)
        who = f"{side.name} ({side.id})" if side.name else side.id
        out.append(PanelLine(f"Turn {state.turn} of {scenario.header.turns}", gap=6))
        out.append(PanelLine(f"Active: {who}", colours.get(active, style.TEXT)))
    prompt = state.prompt
    if prompt is not None:
        text = prompt.text if state.human or prompt.over else f"{prompt.text} (computer)"
        colour = colours.get(prompt.side or "", TARGET) if state.human else DIM
        out.extend(PanelLine(t, colour, 16) for t in _wrap(text, 44))
    if state.message:
        out.extend(PanelLine(t, WARN, 18) for t in _wrap(state.message, 40))
    preview = state.preview
    if preview is not None:
        under = ", ".join(preview.under) or "nobody"
        out.extend(PanelLine(t, BLAST, 16) for t in _wrap(f"under it: {under}", 44))
    draft = state.draft
    if draft is not None:
        out.extend(PanelLine(t, DRAFT, 16, gap=4) for t in _wrap(draft_text(draft), 44))
    out.append(PanelLine("Selected", DIM, 18, gap=8))
    if state.selected is None:
        out.append(PanelLine("none: click a base", DIM, 18))
    else:
        model = scenario.model(state.selected)
        extra = f"  {model.state}" if model.state else ""
        out.append(
            PanelLine(f"{model.id}  ({model.side}){extra}", colours.get(model.side, style.TEXT))
        )
        out.append(PanelLine(model.profile, size=18))
        profile = scenario.profiles.get(model.profile)
        brief = state.hover is not None  # room for the ruling and the odds
        if profile is not None and not brief:
            out.extend(PanelLine(t, DIM, 16) for t in _wrap(profile_summary(profile), 44))
        for index, name in enumerate(model.weapons):
            chosen = index == state.weapon
            mark = ">" if chosen else " "
            out.append(PanelLine(f"{mark}{index + 1} {name}", TARGET if chosen else style.TEXT))
            weapon = scenario.weapons.get(name)
            if weapon is not None and chosen and not brief:
                out.extend(PanelLine(t, DIM, 16) for t in _wrap(weapon_summary(weapon), 44))
    named = provider_name and provider_name != "line of fire"
    title = "Line of fire" + (f"  [{provider_name}]" if named else "")
    out.append(PanelLine(title, DIM, 18, gap=8))
    if state.hover is not None:
        out.append(PanelLine(f"{state.hover.shooter} -> {state.hover.target}", TARGET))
        out.extend(PanelLine(t, size=18) for line in state.hover.lines for t in _wrap(line, 40))
    else:
        out.append(PanelLine("point at an enemy with a model selected", DIM, 16))
    out.append(PanelLine("Odds", DIM, 18, gap=8))
    if state.hover is not None and state.hover.odds:
        out.extend(PanelLine(t, size=16) for line in state.hover.odds for t in _wrap(line, 46))
        if state.hover.risk:
            risk = "at risk of a stray shot: " + ", ".join(state.hover.risk)
            out.extend(PanelLine(t, RISK, 16) for t in _wrap(risk, 46))
    elif state.prompt is None:
        out.append(PanelLine("no game attached: a table viewer", DIM, 16))
    else:
        out.append(PanelLine("point at an enemy for MODs, SV and odds", DIM, 16))
    if state.ruler is not None:
        r = state.ruler
        to = f" to {r.target}" if r.target else ""
        out.append(PanelLine("Ruler", DIM, 18, gap=8))
        out.append(PanelLine(f'{r.distance:.2f}" edge to edge from {r.origin}{to}', RULER))
    out.append(PanelLine("Dice log", DIM, 18, gap=8))
    for entry in state.log[-LOG_SHOWN:]:
        colour = LOG_COLOURS.get(entry.kind, style.TEXT)
        out.extend(PanelLine(t, colour, 16, log=True) for t in _wrap(entry.text, 46))
    if not state.log:
        out.append(PanelLine("no rolls yet", DIM, 16))
    return tuple(out)


def draft_text(draft: Draft) -> str:
    if draft.kind == "move":
        moved = f'{draft.length:.1f}"'
        if draft.allowance is not None:
            moved += f' of {draft.allowance:g}" ({draft.left or 0:.1f}" left)'
        return f"{draft.model} moves {moved}: click points, Backspace undoes one, Enter"
    blind = " blind" if draft.blind else ""
    if draft.aim == AimKind.TEMPLATE:
        laid = "laid: Enter" if draft.direction is not None else "point it and click to lay it"
        return f"{draft.model} fires{blind} {draft.weapon} (template): {laid}"
    if draft.aim == AimKind.BLAST:
        if draft.targets:
            aimed = f"at {draft.targets[0][0]}: Enter"
        elif draft.point is not None:
            aimed = f"at ({draft.point[0]:.1f}, {draft.point[1]:.1f}): Enter"
        else:
            aimed = "click an enemy or a point"
        return f"{draft.model} fires{blind} {draft.weapon} (blast) {aimed}"
    dice = ", ".join(f"{t} x{n}" for t, n in draft.targets) or "click an enemy"
    if draft.burst <= 1:
        return f"{draft.model} shoots{blind} {draft.weapon}: {dice}; Enter"
    return f"{draft.model} shoots {draft.weapon} (Burst {draft.burst}): {dice}; +/- dice, Enter"


HELP = (
    "M move · S shoot · D dodge · I idle · E end turn",
    "Enter confirm · Esc cancel · Ctrl+Z/Y undo/redo",
    "Ctrl+S/O save/load · drag base: ruler · wheel zoom",
    "right-drag pan · Tab/1-9 weapon · F12 shot · Q quit",
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


COMMON_HELP = (
    "Ctrl+S/O save/load · drag base: ruler · wheel zoom",
    "right-drag pan · Tab/1-9 weapon · F12 shot · Q quit",
)


def draw_panel(surface: pygame.Surface, lines: tuple[PanelLine, ...], cache: PanelCache,
               keys_help: tuple[str, ...] = ()) -> None:  # fmt: skip
    """The side panel at the right edge of `surface` (rendered again only when it changes).
    `keys_help`: the rule system's declaration keys (default: Infinity's)."""
    width = panel_width(surface.get_size())
    height = surface.get_height()
    helps = (*keys_help, *COMMON_HELP) if keys_help else HELP
    lines = (*lines, PanelLine("\x00".join(helps), size=0))  # the help is part of the key
    if cache.surface is None or cache.lines != lines or cache.height != height:
        panel = pygame.Surface((width, height))
        panel.fill(PANEL_BG)
        pygame.draw.line(panel, PANEL_RULE, (0, 0), (0, height))
        bottom = height - 8
        for text in reversed(helps):
            image = font(16).render(text, True, DIM)
            bottom -= image.get_height() + 2
            panel.blit(image, (14, bottom))
        images = [
            (line, font(line.size).render(line.text, True, line.colour))
            for line in lines
            if line.size
        ]
        # Too tall: the oldest dice log lines give way first.
        total = 12 + sum(line.gap + image.get_height() + 2 for line, image in images)
        while total > bottom - 4 and any(line.log for line, _ in images):
            index = next(i for i, (line, _) in enumerate(images) if line.log)
            line, image = images.pop(index)
            total -= line.gap + image.get_height() + 2
        y = 12
        for line, image in images:
            y += line.gap
            if y + image.get_height() > bottom - 4:
                break
            panel.blit(image, (14, y))
            y += image.get_height() + 2
        cache.surface, cache.lines, cache.height = panel, lines, height
    surface.blit(cache.surface, (surface.get_width() - width, 0))


def _label(surface: pygame.Surface, text: str, at: Point, colour: Colour,
           size: int = 18) -> None:  # fmt: skip
    image = font(size).render(text, True, colour)
    box = image.get_rect(center=(round(at[0]), round(at[1])))
    if not surface.get_rect().colliderect(box):
        return
    box = box.clamp(surface.get_rect().inflate(-8, -4))
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
    # Red: what blocks the line of fire; orange: what hides part of a target that is seen.
    edge = HIDES if ruling.lof else LOF_NO
    for blocker in ruling.blockers:
        try:
            piece = scenario.piece(blocker)
        except KeyError:
            with contextlib.suppress(KeyError):
                _ring(surface, edge, scenario.model(blocker), view, 3, 2.0)
            continue
        points = [view.to_screen(x, y) for x, y in piece.footprint]
        pygame.draw.polygon(surface, edge, points, 3)
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
    if engine_loaded:
        shade_hidden(surface, shooter, target, 1.0 - ruling.visible_fraction, view)
    _ring(surface, TARGET, target, view)
    tx, ty = view.to_screen(*target.at)
    _label(surface, text, (tx, ty - target.radius * view.scale - 22), colour)


def _chord_offset(share: float) -> float:
    """Distance from a unit circle's centre to the chord cutting off `share` of its area."""
    lo, hi = -1.0, 1.0
    for _ in range(30):
        mid = (lo + hi) / 2
        area = (math.acos(mid) - mid * math.sqrt(1 - mid * mid)) / math.pi
        lo, hi = (mid, hi) if area > share else (lo, mid)
    return (lo + hi) / 2


def shade_hidden(surface: pygame.Surface, shooter: PlacedModel, target: PlacedModel,
                 hidden: float, view: View) -> None:  # fmt: skip
    """Shade `hidden` of the target's base, on the side facing the shooter (as the
    `skirmish lof` picture does): a picture of the share, not of which part is hidden."""
    if hidden <= 0.005:
        return
    r = max(target.radius * view.scale, 3.0)
    size = math.ceil(2 * r) + 2
    patch = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size / 2
    if hidden >= 0.995:
        pygame.draw.circle(patch, SHADE, (c, c), r)
    else:
        ux, uy = shooter.at[0] - target.at[0], shooter.at[1] - target.at[1]
        norm = math.hypot(ux, uy) or 1.0
        ux, uy = ux / norm, uy / norm
        d = _chord_offset(hidden)
        points = []
        for k in range(65):
            angle = 2 * math.pi * k / 64
            px, py = math.cos(angle), math.sin(angle)
            if px * ux + py * uy >= d - 1e-9:
                points.append((c + r * px, c + r * py))
        if len(points) >= 3:
            pygame.draw.polygon(patch, SHADE, points)
    tx, ty = view.to_screen(*target.at)
    surface.blit(patch, (round(tx - c), round(ty - c)))


def draw_route(surface: pygame.Surface, route: tuple[Point, ...], at: Point | None,
               view: View) -> None:  # fmt: skip
    """The route of the model being reacted to (a click on it picks the ARO's point)."""
    points = [view.to_screen(*p) for p in route]
    for a, b in itertools.pairwise(points):
        _dashed(surface, ROUTE, a, b, 2, 8.0)
    pygame.draw.circle(surface, ROUTE, points[-1], 5, 2)
    if at is not None:
        pygame.draw.circle(surface, TARGET, view.to_screen(*at), 6)


def draw_draft(surface: pygame.Surface, scenario: Scenario, draft: Draft,
               pointer: Point | None, view: View) -> None:  # fmt: skip
    """A move path with the movement left, or the shot lines with their dice."""
    if draft.kind == "move":
        points = [view.to_screen(*p) for p in (draft.start, *draft.points)]
        if len(points) > 1:
            pygame.draw.lines(surface, style.INK, False, points, 5)
            pygame.draw.lines(surface, DRAFT, False, points, 3)
        for p in points[1:]:
            pygame.draw.circle(surface, DRAFT, p, 5)
        if pointer is not None:
            _dashed(surface, DRAFT, points[-1], pointer, 1, 6.0)
        left = draft.left
        if left is not None:
            colour = DRAFT if left >= 0 else LOF_NO
            _label(surface, f'{left:.1f}" left', (points[-1][0], points[-1][1] - 20), colour, 18)
        return
    shooter = view.to_screen(*scenario.model(draft.model).at)
    for index, (target_id, dice) in enumerate(draft.targets):
        try:
            target = scenario.model(target_id)
        except KeyError:
            continue
        end = view.to_screen(*target.at)
        pygame.draw.line(surface, DRAFT, shooter, end, 3 if index == draft.focus else 2)
        _ring(surface, DRAFT, target, view, 2 if index != draft.focus else 4)
        _label(surface, f"x{dice}", (end[0] + 18, end[1] - 18), DRAFT, 20)


def draw_shot(surface: pygame.Surface, scenario: Scenario, shooter_id: str, target_id: str,
              hit: bool, view: View) -> None:  # fmt: skip
    """A shot just made: red where it hit, pale where it did not."""
    try:
        a = view.to_screen(*scenario.model(shooter_id).at)
        b = view.to_screen(*scenario.model(target_id).at)
    except KeyError:
        return
    pygame.draw.line(surface, style.INK, a, b, 5)
    pygame.draw.line(surface, SHOT_HIT if hit else SHOT_MISS, a, b, 3)


def _translucent(surface: pygame.Surface, colour: Colour, alpha: int,
                 points: list[tuple[float, float]]) -> None:  # fmt: skip
    """A filled polygon at `alpha`, blended on a patch the size of its bounds."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    left, top = math.floor(min(xs)), math.floor(min(ys))
    w, h = math.ceil(max(xs)) - left + 2, math.ceil(max(ys)) - top + 2
    area = pygame.Rect(left, top, w, h).clip(surface.get_rect())
    if area.width <= 0 or area.height <= 0:
        return
    patch = pygame.Surface(area.size, pygame.SRCALPHA)
    pygame.draw.polygon(patch, (*colour, alpha), [(x - area.left, y - area.top) for x, y in points])
    surface.blit(patch, area.topleft)


def _disc(surface: pygame.Surface, colour: Colour, alpha: int, centre: Point,
          radius: float) -> None:  # fmt: skip
    r = max(1, round(radius))
    area = pygame.Rect(round(centre[0]) - r, round(centre[1]) - r, 2 * r + 1, 2 * r + 1)
    clipped = area.clip(surface.get_rect())
    if clipped.width <= 0 or clipped.height <= 0:
        return
    patch = pygame.Surface(area.size, pygame.SRCALPHA)
    pygame.draw.circle(patch, (*colour, alpha), (r, r), r)
    surface.blit(patch, area.topleft)


def draw_preview(surface: pygame.Surface, scenario: Scenario, preview: Preview,
                 shooter: str, view: View) -> None:  # fmt: skip
    """The blast marker with its scatter ring, or the template, and who is under it (red
    rings: enemies, blue: friends); red throughout with the reason when it is refused."""
    refused = bool(preview.refused)
    colour = REFUSED if refused else (BLAST if preview.kind == AimKind.BLAST else FLAME)
    centre = view.to_screen(*preview.centre)
    if preview.kind == AimKind.BLAST:
        radius = preview.radius * view.scale
        _disc(surface, colour, 90, centre, radius)
        pygame.draw.circle(surface, colour, centre, max(radius, 2), 2)
        pygame.draw.circle(surface, style.INK, centre, 3)
        if preview.scatter:
            ring = (preview.scatter + preview.radius) * view.scale
            pygame.draw.circle(surface, SCATTER, centre, ring, 1)
            _label(surface, f'scatter up to {preview.scatter:g}"',
                   (centre[0], centre[1] + ring + 12), SCATTER, 15)  # fmt: skip
        label_at = (centre[0], centre[1] - radius - 16)
    else:
        points = [view.to_screen(*p) for p in preview.outline]
        if len(points) >= 3:
            _translucent(surface, colour, 90, points)
            pygame.draw.polygon(surface, colour, points, 2)
        far = max(points, key=lambda p: math.dist(p, centre)) if points else centre
        label_at = far
    side = scenario.model(shooter).side
    for model_id in preview.under:
        try:
            model = scenario.model(model_id)
        except KeyError:
            continue
        _ring(surface, UNDER_FRIEND if model.side == side else UNDER_FOE, model, view, 3, 3.0)
    text = preview.refused if refused else f"under it: {len(preview.under)}"
    _label(surface, text[:60], label_at, REFUSED if refused else colour, 16)


def draw_risk(surface: pygame.Surface, scenario: Scenario, risk: tuple[str, ...],
              view: View) -> None:  # fmt: skip
    """The fighters a miss may hit instead, numbered nearest the shooter first."""
    for index, model_id in enumerate(risk, 1):
        try:
            model = scenario.model(model_id)
        except KeyError:
            continue
        _ring(surface, RISK, model, view, 2, 6.0)
        x, y = view.to_screen(*model.at)
        r = model.radius * view.scale
        _label(surface, f"stray {index}", (x, y + r + 14), RISK, 14)


def draw_effect(surface: pygame.Surface, effect: Effect, view: View) -> None:
    """One frame of an event's animation (game.render.dice_log.Effect)."""
    t = effect.progress
    fade = max(40, round(200 * (1.0 - t)))
    if effect.kind == "blast":
        centre = view.to_screen(*effect.points[0])
        radius = effect.radius * view.scale * (0.6 + 0.4 * min(1.0, t * 3))
        _disc(surface, BLAST, fade, centre, radius)
        pygame.draw.circle(surface, BLAST, centre, max(radius, 2), 2)
    elif effect.kind == "scatter":
        a = view.to_screen(*effect.points[0])
        b = view.to_screen(*effect.points[1])
        k = min(1.0, t * 1.5)  # travels in the first two thirds, then rests
        now = (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)
        _dashed(surface, SCATTER, a, now, 2, 6.0)
        radius = effect.radius * view.scale
        if effect.gone and k >= 1.0:
            _label(surface, "off the table", now, REFUSED, 16)
        else:
            _disc(surface, BLAST, fade, now, radius)
            pygame.draw.circle(surface, BLAST, now, max(radius, 2), 2)
    elif effect.kind == "stray":
        a = view.to_screen(*effect.points[0])
        b = view.to_screen(*effect.points[1])
        pygame.draw.line(surface, style.INK, a, b, 5)
        pygame.draw.line(surface, RISK, a, b, 3)
        _label(surface, "stray shot", b, RISK, 15)
    elif effect.kind == "template":
        points = [view.to_screen(*p) for p in effect.points]
        if len(points) >= 3:
            _translucent(surface, FLAME, fade, points)
            pygame.draw.polygon(surface, FLAME, points, 2)


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
    table.blit(cache.table.layer(scenario, state.view, (tw, th), state.markers), (0, 0))
    view = state.view
    draw_range_rings(table, scenario, state)
    if state.prompt is not None and len(state.prompt.route) > 1:
        draw_route(table, state.prompt.route, state.aro_at, view)
    if state.draft is not None:
        draw_draft(table, scenario, state.draft, state.pointer, view)
    if state.preview is not None and state.draft is not None:
        draw_preview(table, scenario, state.preview, state.draft.model, view)
    for shot in sorted(state.shots, key=lambda shot: shot.hit):  # hits on top
        draw_shot(table, scenario, shot.shooter, shot.target, shot.hit, view)
    for effect in state.effects:
        draw_effect(table, effect, view)
    if state.selected is not None:
        _ring(table, SELECT, scenario.model(state.selected), view)
    if state.hover is not None:
        draw_ruling(table, scenario, state.hover, view, engine_loaded)
        draw_risk(table, scenario, state.hover.risk, view)
    if state.ruler is not None:
        draw_ruler(table, state.ruler, view)
    draw_panel(surface, panel_lines(scenario, state, provider_name), cache.panel, state.keys_help)
