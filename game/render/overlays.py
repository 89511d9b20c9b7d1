"""What the window draws over the table: range rings, the ruling on the hovered
target, the route a reaction may pick a point on, the drafted move or shot, blast and
template previews, stray-shot risk, shot lines and event animations, and the ruler.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import re
from collections.abc import Sequence

import numpy as np
import pygame

from game.render import style
from game.render.dice_log import Effect
from game.render.labels import Box, Placed, Want, leader_line, place, place_anywhere, place_out
from game.render.play_rules import Ahead, AimKind, Preview
from game.render.ranges import range_rings
from game.render.ruling import Ruling
from game.render.state import AppState, Draft, Hover, Point, Ruler
from game.render.style import (
    BLAST,
    DRAFT,
    FLAME,
    GROUP,
    HIDES,
    LOF_NO,
    LOF_YES,
    NEUTRAL,
    REFUSED,
    RINGS,
    RISK,
    ROUTE,
    RULER,
    SCATTER,
    SHADE,
    SHOT_HIT,
    SHOT_MISS,
    TARGET,
    UNDER_FOE,
    UNDER_FRIEND,
    Colour,
)
from game.render.table import base_circles, font, table_bounds, translucent
from game.render.view import View
from game.scenario import PlacedModel, Scenario


def _label(surface: pygame.Surface, text: str, at: Point, colour: Colour,
           size: int = 18) -> pygame.Rect | None:  # fmt: skip
    """A label in a dark box centred at `at` (kept on the surface), its lines apart at
    newlines, each centred; returns the box."""
    images = [font(size).render(line, True, colour) for line in text.split("\n")]
    box = pygame.Rect((0, 0), _text_size(text, size))
    box.center = (round(at[0]), round(at[1]))
    if not surface.get_rect().colliderect(box):
        return None
    box = box.clamp(surface.get_rect().inflate(-8, -4))
    pygame.draw.rect(surface, style.INK, box.inflate(6, 2))
    top = box.top
    for image in images:
        surface.blit(image, image.get_rect(midtop=(box.centerx, top)))
        top += image.get_height()
    return box.inflate(6, 2)


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


def ring_base(surface: pygame.Surface, colour: Colour, model: PlacedModel, view: View,
          width: int = 3, pad: float = 4.0) -> None:  # fmt: skip
    centre = view.to_screen(*model.at)
    pygame.draw.circle(surface, colour, centre, max(model.radius * view.scale, 3.0) + pad, width)


# A circle on the screen: its centre and radius in pixels.
Disc = tuple[Point, float]


def draw_union_edge(surface: pygame.Surface, colour: Colour, discs: Sequence[Disc],
                    width: int = 2) -> None:  # fmt: skip
    """The edge of the discs taken together: each circle's arcs that lie inside none of
    the others (the range from a unit is from the nearest of its models)."""
    for k, ((cx, cy), r) in enumerate(discs):
        others = [d for j, d in enumerate(discs) if j != k]
        steps = max(24, min(720, round(2 * math.pi * r / 4)))
        angles = np.linspace(0.0, 2 * math.pi, steps + 1)
        xs, ys = cx + r * np.cos(angles), cy + r * np.sin(angles)
        outside = np.ones(steps + 1, dtype=bool)
        for (ox, oy), other in others:
            outside &= np.hypot(xs - ox, ys - oy) >= other
        # one step on into the other circles, so the arcs meet where the circles cross
        outside |= np.roll(outside, 1) | np.roll(outside, -1)
        run: list[Point] = []
        for x, y, out in zip(xs.tolist(), ys.tolist(), outside.tolist(), strict=True):
            if out:
                run.append((x, y))
                continue
            if len(run) > 1:
                pygame.draw.lines(surface, colour, False, run, width)
            run = []
        if len(run) > 1:
            pygame.draw.lines(surface, colour, False, run, width)


# Where on its ring a band's label goes, tried in turn (degrees, clockwise from east as
# drawn): the upper right first, then the other diagonals, then the sides; where none
# of those will do (a ring whose drawn edge shows as a sliver by the window's corner),
# every degree round.
RING_LABEL_ANGLES = (-35, -145, 35, 145, -60, -120, 60, 120, 0, 180, -90, 90)
RING_LABEL_FINER = tuple(range(-180, 180))


def ring_label_at(
    surface: pygame.Surface,
    text: str,
    size: int,
    centre: Point,
    radius: float,
    avoid: Sequence[pygame.Rect],
    never: Sequence[pygame.Rect] = (),
    within: Sequence[Disc] = (),
    area: pygame.Rect | None = None,
) -> Point | None:
    """Where a ring's label goes: the first spot on the ring whose box lies on the
    surface and clear of `avoid` (the table's labels and bases, the labels of the rings
    before) and of `never` (the reaction banner); else the first such box slid along
    onto the surface, still across the ring, that is clear (a long label where the ring
    runs near the window's edge); else the first clear of `never` alone; else the upper
    right as ever. A unit's ring is the edge of its discs, the one about `centre` and
    those `within`: the spots are on the part of each that lies inside none of the
    rest (the edge drawn), that disc's tried first, then each of the others' in turn,
    at RING_LABEL_ANGLES, then at RING_LABEL_FINER (session 13's leftover: only the
    first disc's spots were tried, so at 800x600 on the Hill farm a label lay over the
    names, and at 1280x800 one floated off every ring drawn). Given `area` (the table's
    rectangle), the label keeps inside it and clear of `avoid`, never over the ruler's
    margin nor over a name: None where the ring crosses the table with no such room
    (tester16: at 800x600, resized or opened so, 'past 36": +3 defence dice' lay over
    "Gov HMG" and off the table's corner the ring grazes)."""
    w, h = font(size).size(text)
    bounds = surface.get_rect().inflate(-8, -4)
    room = bounds if area is None else bounds.clip(area)
    discs: list[Disc] = [(centre, radius), *within]
    spots: list[tuple[Point, bool]] = []
    for angles in (RING_LABEL_ANGLES, RING_LABEL_FINER):
        for k in range(len(discs)):
            found, slid = _ring_spots(discs, k, angles, (w + 6, h + 2), room, avoid, never)
            spots += found
            clear = next((at for at, free in found if free), None)
            if clear is not None:
                return clear
            if slid:
                return slid[0]
    if area is not None:
        return None  # no room on the table clear of every label: none over them
    if spots:
        return spots[0][0]
    angle = math.radians(RING_LABEL_ANGLES[0])
    return (centre[0] + math.cos(angle) * radius, centre[1] + math.sin(angle) * radius)


def _ring_spots(
    discs: Sequence[Disc],
    k: int,
    angles: Sequence[int],
    size: tuple[int, int],
    bounds: pygame.Rect,
    avoid: Sequence[pygame.Rect],
    never: Sequence[pygame.Rect],
) -> tuple[list[tuple[Point, bool]], list[Point]]:
    """The spots at `angles` on disc `k`'s part of the discs' edge whose label box (of
    `size`) lies within `bounds` and clear of `never`, each with whether it is clear of
    `avoid` too; and the centres of those boxes that, slid onto `bounds`, still lie
    across the edge and are clear of both."""
    (cx, cy), r = discs[k]
    turns = np.radians(np.asarray(angles, dtype=float))
    xs, ys = cx + r * np.cos(turns), cy + r * np.sin(turns)
    # a box on the surface that lies across the edge holds its spot: those on it alone
    rx, ry = np.round(xs), np.round(ys)
    keep = (rx >= bounds.left) & (rx < bounds.right) & (ry >= bounds.top) & (ry < bounds.bottom)
    for j, ((ox, oy), other) in enumerate(discs):
        if j != k:
            keep &= np.hypot(xs - ox, ys - oy) >= other - 1
    spots: list[tuple[Point, bool]] = []
    slid: list[Point] = []
    for at in zip(xs[keep].tolist(), ys[keep].tolist(), strict=True):
        box = pygame.Rect((0, 0), size)
        box.center = (round(at[0]), round(at[1]))
        if bounds.contains(box) and box.collidelist(list(never)) < 0:
            spots.append((at, box.collidelist(list(avoid)) < 0))
            continue
        box = box.clamp(bounds)
        if (
            box.collidepoint(round(at[0]), round(at[1]))
            and box.collidelist(list(never)) < 0
            and box.collidelist(list(avoid)) < 0
        ):
            slid.append(box.center)
    return spots, slid


def draw_range_rings(surface: pygame.Surface, scenario: Scenario, state: AppState,
                     avoid: Sequence[pygame.Rect] = (),
                     never: Sequence[pygame.Rect] = (),
                     ui: float = 1.0) -> list[pygame.Rect]:  # fmt: skip
    """The chosen weapon's range bands around the selected base, labelled with their MODs.
    Ranges are measured from the base edge, so a ring's radius is the base radius plus
    the band's limit. Where the rules count a model's range by another weapon or from
    its whole unit (`AppState.rings_from`; at the pointed target, `Hover.rings`: the
    models that see it), the rings are that weapon's, each the edge of those models'
    circles, the first saying whose band it is. Each label sits on its ring where it
    covers nothing in `avoid` (where it can) and nothing in `never`; its text grows with
    the window (`ui`). None about a model that may fire no weapon now (`AppState.unarmed`).
    Where the labels went, for labels placed after them to keep off."""
    if state.selected is None or state.selected in state.unarmed:
        return []  # none, or it may fire no weapon now
    model = scenario.model(state.selected)
    ruled = dict(state.rings_from).get(model.id)
    hover = state.hover
    if hover is not None and hover.shooter == model.id and hover.rings is not None:
        ruled = hover.rings  # the band the fire at the pointed target rolls
    if ruled is not None:  # the rules count its range by the unit's weapon, from the unit
        name, bases = ruled.weapon, [scenario.model(i) for i in ruled.bases]
    elif model.weapons:
        name, bases = model.weapons[state.weapon % len(model.weapons)], [model]
    else:
        return []
    weapon = scenario.weapons.get(name)
    if weapon is None or not bases:
        return []
    # the label rides the selected model's circle, or the first measured from
    home = model if model in bases else bases[0]
    view = state.view
    cx, cy = view.to_screen(*home.at)
    width, depth = scenario.header.table
    farthest = math.hypot(width, depth)
    reach = max(surface.get_size()) * 1.5
    taken = list(avoid)
    # on the table, never in the ruler's margin (fix16a: "past 16"" lay over its inches)
    area = pygame.Rect(table_bounds(scenario, view, surface.get_size()))
    rings = range_rings(weapon, scenario.profiles.get(model.profile))
    for ring in rings:
        if ring.limit > farthest:
            break
        radius = (home.radius + ring.limit) * view.scale
        if radius > reach + math.hypot(cx, cy):
            break  # the rest are wholly off screen
        others: list[Disc] = [
            (view.to_screen(*m.at), (m.radius + ring.limit) * view.scale)
            for m in bases
            if m.id != home.id
        ]
        if others:
            draw_union_edge(surface, RINGS, [((cx, cy), radius), *others])
        else:
            pygame.draw.circle(surface, RINGS, (cx, cy), radius, 2)
        px = round(16 * ui)
        said = ring.label
        if ruled is not None and ring is rings[0]:
            said += f" ({ruled.said})"  # the weapon the rules count by, chosen or not
        # the band alone ('past 36"') where its dice find no room; nothing where neither
        # does (the Odds give the band at a target)
        for words in dict.fromkeys((said, said.split(":")[0])):
            at = ring_label_at(surface, words, px, (cx, cy), radius, taken, never, others, area)
            if at is None:
                continue
            box = _label(surface, words, at, (210, 225, 255), px)
            if box is not None:
                taken.append(box)
            break
    return taken[len(avoid) :]


def cover_words(level: str, unit_word: str | None = None, unseen: bool = False) -> str:
    """A cover level in words: "no cover", "partial cover", "in the open" (Open
    Rebellion's word); a unit's (`unit_word`, where cover belongs to the unit): "squad
    in light cover", "squad in the open", "squad out of sight" (`unseen`: the shooter
    sees none of it)."""
    if unit_word is not None and unseen:
        return f"{unit_word} out of sight"
    if unit_word is not None:
        held = {"none": "with no cover", "open": "in the open"}.get(level, f"in {level} cover")
        return f"{unit_word} {held}"
    return {"none": "no cover", "open": "in the open"}.get(level, f"{level} cover")


def ruling_cover(ruling: Ruling) -> str:
    """Whose cover a ruling gives, in words: the model's ("partial cover"), or its
    unit's ("squad in light cover")."""
    unit = getattr(ruling, "unit", None)
    word = getattr(ruling, "unit_word", "unit") if unit else None
    return cover_words(ruling.cover, word, bool(getattr(ruling, "unit_unseen", False)))


def draw_ruling(surface: pygame.Surface, scenario: Scenario, hover: Hover, view: View,
                engine_loaded: bool, taken: Sequence[Box] = (),
                ui: float = 1.0, within: Box | None = None) -> pygame.Rect | None:  # fmt: skip
    """The witness line (green), or the centre line (red: no line of fire; white dashed:
    no engine), the blocking pieces outlined in red, and a label at the target, placed
    clear of the table's labels (`taken`) and the bases where there is room, inside
    `within` (default: the surface; its box is returned)."""
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
                ring_base(surface, edge, scenario.model(blocker), view, 3, 2.0)
            continue
        points = [view.to_screen(x, y) for x, y in piece.footprint]
        pygame.draw.polygon(surface, edge, points, 3)
    a, b = (view.to_screen(*p) for p in ruling_line(scenario, hover, engine_loaded))
    # one of them off the table, or the rules refuse the shot sight allows: why
    no_shot = getattr(ruling, "no_shot", None) or getattr(ruling, "refused", None)
    laid = hover.laid  # a template laid toward the target: what it does, not the sight
    if not engine_loaded:
        colour = NEUTRAL
        _dashed(surface, colour, a, b)
        text = f'{ruling.distance:.2f}" (line of fire not ruled)'
    elif laid is not None:
        from game.scenario.names import table_names
        from game.sequencer.sentences import named

        colour = LOF_YES if laid.hits else LOF_NO
        if laid.hits:
            pygame.draw.line(surface, colour, a, b, 3)
        else:
            _dashed(surface, colour, a, b)
        text = named(laid.said, table_names(scenario))
    elif no_shot:
        from game.scenario.names import table_names
        from game.sequencer.sentences import named

        colour = LOF_NO
        _dashed(surface, colour, a, b)
        text = f"no shot: {named(no_shot, table_names(scenario))}"
    elif ruling.lof and ruling.witness is not None:
        colour = LOF_YES
        pygame.draw.line(surface, colour, a, b, 3)
        seen = ruling.visible_fraction
        share = "<1%" if seen < 0.005 else f"{seen:.0%}"  # a sliver seen is never "0%"
        text = f'{share} seen, {ruling_cover(ruling)}, {ruling.distance:.2f}"'
    else:
        colour = LOF_NO
        _dashed(surface, colour, a, b)
        text = f'no line of fire, {ruling.distance:.2f}"'
    if getattr(ruling, "turns", False) and ruling.lof and laid is None and not no_shot:
        text = f"turns to face: {text}"  # ruled as it will be, turned (the odds say so)
    if engine_loaded:
        shade_hidden(surface, shooter, target, 1.0 - ruling.visible_fraction, view)
    ring_base(surface, TARGET, target, view)
    tx, ty = view.to_screen(*target.at)
    r = max(target.radius * view.scale, 3.0)
    px = round(18 * ui)  # grows with the window, as the table's labels do
    bounds = within or (0.0, 0.0, float(surface.get_width()), float(surface.get_height()))
    circles = base_circles(scenario, view)
    # clear of names and bases: on one line near the target or further out, else on two
    # lines, else anywhere on the table (two lines, then one); else over bases. A label
    # too wide for the table on one line or two is wrapped to half its width: it stays
    # on the table, whole
    room = bounds[2] - 8
    one_fits = _text_size(text, px)[0] <= room
    two_lines = _two_lines(text)
    if _text_size(two_lines, px)[0] > room * 0.6:  # two long lines: wrapped narrower
        two_lines = wrapped(text, px, max(room / 2, 120.0))
    one, two = (_ruling_want(said, px, (tx, ty), r) for said in (text, two_lines))

    def near(want: Want) -> Placed | None:
        return ruling_spot(want, bounds, circles, taken, clear_only=True)

    def anywhere(want: Want) -> Placed | None:
        return place_anywhere(want, bounds, circles, taken)

    tries = [(one, near), (two, near), (two, anywhere), (one, anywhere)]
    for want, placer in tries if one_fits else tries[1:3]:
        spot = placer(want)
        if spot is not None:
            break
    else:
        want = one if one_fits else two
        spot = ruling_spot(want, bounds, circles, taken)
    if spot is not None and spot.leader:  # further out: a line back to the target
        pygame.draw.line(surface, colour, *leader_line(want, spot.box), 1)
    return _label(surface, want.text, spot.centre if spot else want.spots[0], colour, px)


def _ruling_want(text: str, px: int, at: Point, r: float) -> Want:
    """The ruling's label (its lines apart at newlines) for the target at `at`, of
    radius `r` on the screen: first tried above it."""
    w, h = _text_size(text, px)
    above = (at[0], at[1] - r - 4 - h)
    return Want("ruling", text, (w + 8, h + 2), at, r + 6, "ruling", (above,))


def _two_lines(text: str) -> str:
    """The ruling's words on two lines, broken at the space nearest the middle."""
    spaces = [i for i, c in enumerate(text) if c == " "]
    if not spaces:
        return text
    at = min(spaces, key=lambda i: abs(2 * i - len(text)))
    return text[:at] + "\n" + text[at + 1 :]


def wrapped(text: str, px: int, width: float) -> str:
    """`text` broken at spaces into lines no wider than `width` pixels at `px` (a word
    wider than that on a line of its own)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and font(px).size(f"{lines[-1]} {word}")[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return "\n".join(lines)


def _text_size(text: str, px: int) -> tuple[int, int]:
    """Pixels wide and high of `text`, its lines apart at newlines."""
    sizes = [font(px).size(line) for line in text.split("\n")]
    return max(w for w, _ in sizes), sum(h for _, h in sizes)


def ruling_line(scenario: Scenario, hover: Hover, engine_loaded: bool) -> tuple[Point, Point]:
    """The line the ruling draws (table inches): the witness line where there is line of
    fire (or no engine to say), else the centre line."""
    ruling = hover.ruling
    if ruling.witness is not None and (ruling.lof or not engine_loaded):
        return ruling.witness
    return scenario.model(hover.shooter).at, scenario.model(hover.target).at


def ruling_lines(scenario: Scenario, hover: Hover, view: View, engine_loaded: bool,
                 said: pygame.Rect | None) -> list[tuple[Point, Point]]:  # fmt: skip
    """The lines the ruling draws, on the screen: its line (`ruling_line`) and, with its
    label `said`, the line from the target's centre to the label, which holds the
    leader line where the label went further out (the names they cross are drawn over
    them)."""
    a, b = (view.to_screen(*p) for p in ruling_line(scenario, hover, engine_loaded))
    if said is None:
        return [(a, b)]
    at = view.to_screen(*scenario.model(hover.target).at)
    want = Want("ruling", "", said.size, at, 0.0, "ruling")
    return [(a, b), leader_line(want, (said.x, said.y, said.w, said.h))]


def ruling_spot(want: Want, bounds: Box, circles: Sequence[tuple[float, float, float]],
                taken: Sequence[Box], clear_only: bool = False) -> Placed | None:  # fmt: skip
    """Where the ruling's label goes: clear of every label and base, near the target;
    where the bases leave no room there, further out with a leader line back to it
    (`leader`), still clear of every label and base (tester14: at 800x500 it lay over
    most of a model's base); only where neither leaves room, over a base but still clear
    of every label (a label overprinted, 'Cawdor champion' under 'LoF 13% full', is worse
    than a base partly covered), near the target, then further out. `clear_only`: None
    where no spot is clear of both."""
    # no leader line is drawn to a spot of its first rings: any of them will do
    placed = place([want], bounds, circles, taken, leaders=False)
    clear = placed[0] if placed else place_out(want, bounds, circles, taken, over_bases=False)
    if clear is not None or clear_only:
        return clear
    placed = place([want], bounds, (), taken, leaders=False)
    if placed:
        return placed[0]
    return place_out(want, bounds, circles, taken)


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
    # Every inch of the route is a point a reaction may be taken at.
    for (ax, ay), (bx, by) in itertools.pairwise(route):
        length = math.hypot(bx - ax, by - ay)
        for k in range(1, int(length) + 1):
            t = k / length
            dot = view.to_screen(ax + (bx - ax) * t, ay + (by - ay) * t)
            pygame.draw.circle(surface, ROUTE, dot, 3)
    pygame.draw.circle(surface, ROUTE, points[-1], 5, 2)
    if at is not None:
        pygame.draw.circle(surface, TARGET, view.to_screen(*at), 6)


def draw_reacting(surface: pygame.Surface, scenario: Scenario, models: tuple[str, ...],
                  view: View) -> None:  # fmt: skip
    """The models that may answer now, each in a wide ring of its own."""
    for model_id in models:
        try:
            model = scenario.model(model_id)
        except KeyError:
            continue
        ring_base(surface, style.INK, model, view, 7, 7.0)
        ring_base(surface, TARGET, model, view, 4, 6.0)


def draw_draft(surface: pygame.Surface, scenario: Scenario, draft: Draft,
               pointer: Point | None, view: View,
               taken: Sequence[Box] = ()) -> list[pygame.Rect]:  # fmt: skip
    """A move path with the movement left, or the shot lines with their dice; their
    labels placed clear of the bases and of `taken` (the table's labels: names, state
    markers, scenery heights) where there is room (their boxes are returned)."""
    labels = _Labels(surface, base_circles(scenario, view), taken)
    if draft.kind == "move":
        points = [view.to_screen(*p) for p in (draft.start, *draft.points)]
        if len(points) > 1:
            pygame.draw.lines(surface, style.INK, False, points, 5)
            pygame.draw.lines(surface, DRAFT, False, points, 3)
        for p in points[1:]:
            pygame.draw.circle(surface, DRAFT, p, 5)
        if pointer is not None:  # where the next click puts the path's next point, or the end
            _dashed(surface, DRAFT, points[0 if draft.one_point else -1], pointer, 1, 6.0)
        left = draft.left
        if left is not None:
            colour = DRAFT if left >= 0 else LOF_NO
            end = points[-1]
            labels.put("left", f'{left:.1f}" left', end, 6.0, (end[0], end[1] - 20), colour, 18)
        return labels.drawn
    shooter = view.to_screen(*scenario.model(draft.model).at)
    for index, (target_id, dice) in enumerate(draft.targets):
        try:
            target = scenario.model(target_id)
        except KeyError:
            continue
        end = view.to_screen(*target.at)
        pygame.draw.line(surface, DRAFT, shooter, end, 3 if index == draft.focus else 2)
        ring_base(surface, DRAFT, target, view, 2 if index != draft.focus else 4)
        r = target.radius * view.scale + 4
        labels.put(f"dice:{target_id}", f"x{dice}", end, r, (end[0] + 18, end[1] - 18), DRAFT, 20)
    for extra_id in draft.extras:  # hits after the first placed on another model
        try:
            first, extra = scenario.model(draft.targets[0][0]), scenario.model(extra_id)
        except (KeyError, IndexError):
            continue
        end = view.to_screen(*extra.at)
        _dashed(surface, DRAFT, view.to_screen(*first.at), end, 2, 6.0)
        ring_base(surface, DRAFT, extra, view, 2)
        r = extra.radius * view.scale + 4
        labels.put(f"hit:{extra_id}", "+hit", end, r, (end[0] + 22, end[1] - 18), DRAFT, 20)
    return labels.drawn


def draw_ahead(surface: pygame.Surface, scenario: Scenario, ahead: Sequence[Ahead],
               view: View, taken: Sequence[Box] = ()) -> list[pygame.Rect]:  # fmt: skip
    """Where an answer awaited would take the models (a fall back), drawn as a move laid
    out is: each model's path from its base to its farthest end, its base outlined there,
    a dot at each nearer end the dice may give, each end with the model's number in it
    (tester15: which end is whose); a dashed line to the ends off those paths from the
    one model whose line crosses fewest of the others' bases (`ahead_turns`); the words
    on one model, clear of the bases and of `taken` (their boxes are returned)."""
    ends = [(float(r.x), float(r.y), float(r.w), float(r.h)) for r in ahead_ends(ahead, view)]
    # on the table, never in the ruler's margin; where there is no room near its end,
    # further out with a line back, then anywhere clear (tester15: over a unit's state)
    within = table_bounds(scenario, view, surface.get_size())
    labels = _Labels(surface, base_circles(scenario, view), [*taken, *ends], within)
    radii = _ahead_radii(scenario, ahead, view)
    for go in ahead:
        if go.ends:
            start, far = view.to_screen(*go.start), view.to_screen(*go.ends[-1])
            rim = _towards(start, far, radii[go.model])  # from its base's edge
            pygame.draw.line(surface, style.INK, rim, far, 5)
            pygame.draw.line(surface, DRAFT, rim, far, 3)
    for start, end in ahead_turns(ahead, view, radii):
        _dashed(surface, DRAFT, start, end, 2, 6.0)
    for number, go in enumerate(ahead, 1):
        said = _model_number(go.model, number)
        for end in go.ends[:-1]:
            _numbered_dot(surface, view.to_screen(*end), said)
        if go.ends:
            far = view.to_screen(*go.ends[-1])
            pygame.draw.circle(surface, style.INK, far, radii[go.model] + 1, 4)
            pygame.draw.circle(surface, DRAFT, far, radii[go.model] + 1, 2)
            _numbered_dot(surface, far, said)
    for go in ahead:
        if go.said:  # beside the model it is said on, where the squad stands (fix16a:
            # at its farthest end, at 800x600 it sat far off, by the banner)
            home = view.to_screen(*go.start)
            r = radii[go.model]
            labels.put(f"ahead:{go.model}", go.said, home, r + 2, (home[0], home[1] - r - 16),
                       DRAFT, 18)  # fmt: skip
        for index, (end, said) in enumerate(zip(go.ends, go.ends_said, strict=False)):
            if not said:  # said with a nearer end at the same spot
                continue
            dot = view.to_screen(*end)
            spot = (dot[0] + 16, dot[1] + 12)
            labels.put(f"ahead:{go.model}:{index}", said, dot, 9.0, spot, DRAFT, 14)
    return labels.drawn


def _ahead_radii(scenario: Scenario, ahead: Sequence[Ahead], view: View) -> dict[str, float]:
    """Each going model's base radius on the screen (3 pixels at the least)."""
    out = {}
    for go in ahead:
        try:
            out[go.model] = max(scenario.model(go.model).radius * view.scale, 3.0)
        except KeyError:
            out[go.model] = 3.0
    return out


def ahead_turns(ahead: Sequence[Ahead], view: View,
                radii: dict[str, float]) -> list[tuple[Point, Point]]:  # fmt: skip
    """The dashed lines to the ends off the models' paths (a length that turns toward
    cover), screen points from the base's edge: for each such length one line, from the
    model whose line crosses fewest of the others' bases (first the one the words are
    on); every model goes by the same vector, so one line shows the turn."""
    going = [go for go in ahead if go.ends]
    if not going:
        return []
    starts = {go.model: view.to_screen(*go.start) for go in going}
    lines = []
    for k in range(len(going[0].ends) - 1):
        turned = []
        for go in going:
            start, far = starts[go.model], view.to_screen(*go.ends[-1])
            end = view.to_screen(*go.ends[k])
            if _off_path(start, far, end):
                crossed = sum(
                    _from_segment(start, end, at) < radii[other]
                    for other, at in starts.items()
                    if other != go.model
                )
                turned.append((crossed, not go.said, go.model, start, end))
        if turned:
            _, _, model, start, end = min(turned)
            lines.append((_towards(start, end, radii[model]), end))
    return lines


def _towards(a: Point, b: Point, by: float) -> Point:
    """The point `by` pixels from `a` toward `b` (`a` where they are closer)."""
    length = math.dist(a, b)
    if length <= by or length < 1e-9:
        return a
    return (a[0] + (b[0] - a[0]) * by / length, a[1] + (b[1] - a[1]) * by / length)


def _model_number(model: str, order: int) -> str:
    """The number an end of `model` shows: its id's own ("reb-b2": 2), else its order."""
    digits = re.search(r"(\d+)$", model)
    return digits.group(1) if digits else str(order)


def _numbered_dot(surface: pygame.Surface, at: Point, number: str) -> None:
    """An end of a model's move: a draft-coloured dot with the model's number in ink."""
    image = font(11).render(number, True, style.INK)
    r = max(6, (max(image.get_width(), image.get_height()) + 3) // 2)
    pygame.draw.circle(surface, style.INK, at, r + 1)
    pygame.draw.circle(surface, DRAFT, at, r)
    surface.blit(image, image.get_rect(center=(round(at[0]), round(at[1]))))


def ahead_ends(ahead: Sequence[Ahead], view: View) -> list[pygame.Rect]:
    """The screen boxes of the ends `draw_ahead` marks and of its paths to the farthest
    (small boxes along each, 6 pixels apart), for labels to keep off: a range ring's
    label drawn before it was crossed by the paths (tester15 item 2)."""
    boxes = []
    for go in ahead:
        for end in go.ends:
            x, y = view.to_screen(*end)
            boxes.append(pygame.Rect(round(x) - 8, round(y) - 8, 16, 16))
        if go.ends:
            (ax, ay), (bx, by) = view.to_screen(*go.start), view.to_screen(*go.ends[-1])
            steps = max(1, int(math.dist((ax, ay), (bx, by)) // 6))
            for i in range(steps + 1):
                x, y = ax + (bx - ax) * i / steps, ay + (by - ay) * i / steps
                boxes.append(pygame.Rect(round(x) - 3, round(y) - 3, 6, 6))
    return boxes


def _off_path(a: Point, b: Point, p: Point) -> bool:
    """Whether screen point `p` lies over 2 pixels off the segment from `a` to `b`."""
    return _from_segment(a, b, p) > 2


def _from_segment(a: Point, b: Point, p: Point) -> float:
    """How far screen point `p` lies from the segment from `a` to `b`."""
    (ax, ay), (bx, by), (px, py) = a, b, p
    length = math.dist(a, b)
    if length < 1:
        return math.dist(a, p)
    t = max(0.0, min(1.0, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length**2))
    return math.dist((ax + t * (bx - ax), ay + t * (by - ay)), p)


class _Labels:
    """Labels drawn on `surface` one by one, each at its wanted spot or the nearest clear
    of the bases (`circles`), of `taken` and of those drawn before it (`labels.place`);
    where there is no such spot, at its wanted spot. Given `within` (a box they stay
    in), one with no room near its anchor goes further out with a line back to it, or
    to the nearest clear spot (`ruling_spot`, `place_anywhere`, as the ruling's label),
    and only where none is clear to its wanted spot."""

    def __init__(self, surface: pygame.Surface, circles: Sequence[tuple[float, float, float]],
                 taken: Sequence[Box], within: Box | None = None) -> None:  # fmt: skip
        self.surface = surface
        self.bounds = within or (0.0, 0.0, float(surface.get_width()), float(surface.get_height()))
        self.out = within is not None
        self.circles = circles
        self.boxes = list(taken)
        self.drawn: list[pygame.Rect] = []

    def put(self, key: str, text: str, anchor: Point, clear: float, spot: Point,
            colour: Colour, px: int) -> pygame.Rect | None:  # fmt: skip
        w, h = font(px).size(text)
        want = Want(key, text, (w + 6, h + 2), anchor, clear, "risk", (spot,))
        if self.out:  # beside its end on one line or two, further out, anywhere clear
            two = _two_lines(text)
            w2, h2 = _text_size(two, px)
            wants = (want, Want(key, two, (w2 + 6, h2 + 2), anchor, clear, "risk", (spot,)))
            found = self._clear(wants)
            if found is not None:
                want = found.want
            if found is not None and found.leader:
                pygame.draw.line(self.surface, colour, *leader_line(want, found.box), 1)
            box = _label(self.surface, want.text, found.centre if found else spot, colour, px)
            return self._taken(box)
        placed = place([want], self.bounds, self.circles, self.boxes)
        box = _label(self.surface, text, placed[0].centre if placed else spot, colour, px)
        return self._taken(box)

    def _clear(self, wants: Sequence[Want]) -> Placed | None:
        """The first spot clear of every label and base for one of `wants` (the same
        label on one line, on two): beside its anchor, then further out with a line back
        to it, then the nearest anywhere in `bounds` (the two lines first)."""
        room = (self.bounds, self.circles, self.boxes)
        for want in wants:
            placed = place([want], *room, leaders=False)
            if placed:
                return placed[0]
        out = next((o for o in (place_out(w, *room, over_bases=False) for w in wants) if o), None)
        anywhere = next((a for a in (place_anywhere(w, *room) for w in reversed(wants)) if a), None)
        # the nearer of the two (tester16: at 800x600 the spots out along its directions
        # were 150 px off, by an enemy's label, with room 60 px from the squad)
        found = [f for f in (out, anywhere) if f is not None]
        return min(found, key=lambda f: _box_gap(f.box, f.want.anchor), default=None)

    def _taken(self, box: pygame.Rect | None) -> pygame.Rect | None:
        if box is not None:
            self.boxes.append((float(box.x), float(box.y), float(box.w), float(box.h)))
            self.drawn.append(box)
        return box


def _box_gap(box: Box, point: Point) -> float:
    """Pixels from `point` to the nearest point of `box` (0 inside it)."""
    x, y, w, h = box
    return math.dist((min(max(point[0], x), x + w), min(max(point[1], y), y + h)), point)


def draw_shot(surface: pygame.Surface, start: Point, end: Point, hit: bool, view: View) -> None:
    """A shot just made, from where it was fired to where the target stood (table
    inches): red where it hit, pale where it did not."""
    a, b = view.to_screen(*start), view.to_screen(*end)
    pygame.draw.line(surface, style.INK, a, b, 5)
    pygame.draw.line(surface, SHOT_HIT if hit else SHOT_MISS, a, b, 3)


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
                 shooter: str, view: View) -> pygame.Rect | None:  # fmt: skip
    """The blast marker with its scatter ring, or the template, and who is under it (red
    rings: enemies, blue: friends); red throughout with the reason when it is refused.
    Returns the box of its label ("under it: N"), that labels drawn later keep clear of."""
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
            translucent(surface, colour, 90, points)
            pygame.draw.polygon(surface, colour, points, 2)
        far = max(points, key=lambda p: math.dist(p, centre)) if points else centre
        label_at = far
    side = scenario.model(shooter).side
    for model_id in preview.under:
        try:
            model = scenario.model(model_id)
        except KeyError:
            continue
        ring_base(surface, UNDER_FRIEND if model.side == side else UNDER_FOE, model, view, 3, 3.0)
    text = preview.refused if refused else f"under it: {len(preview.under)}"
    # the whole refusal, wrapped to a third of the window: never cut mid-sentence
    text = wrapped(text, 16, max(surface.get_width() / 3, 160.0))
    return _label(surface, text, label_at, REFUSED if refused else colour, 16)


def draw_risk(surface: pygame.Surface, scenario: Scenario, risk: tuple[str, ...],
              view: View, taken: Sequence[Box] = (),
              ui: float = 1.0) -> list[pygame.Rect]:  # fmt: skip
    """The fighters a miss may hit instead, numbered nearest the shooter first; each
    number placed clear of the bases and of `taken` (the table's labels, the ruling's)
    where there is room (the numbers' boxes are returned)."""
    return _numbered(surface, scenario, risk, view, taken, ui, RISK, "stray")


def draw_group(surface: pygame.Surface, scenario: Scenario, group: tuple[str, ...],
               view: View, taken: Sequence[Box] = (),
               ui: float = 1.0) -> list[pygame.Rect]:  # fmt: skip
    """The models nominated for a group activation, ringed and numbered in the order
    they were named ("group 1"), placed as `draw_risk` places its numbers."""
    return _numbered(surface, scenario, group, view, taken, ui, GROUP, "group")


def _numbered(surface: pygame.Surface, scenario: Scenario, models: tuple[str, ...],
              view: View, taken: Sequence[Box], ui: float, colour: Colour,
              word: str) -> list[pygame.Rect]:  # fmt: skip
    """Each of `models` ringed in `colour` and labelled "`word` N", in order."""
    labels = _Labels(surface, base_circles(scenario, view), taken)
    for index, model_id in enumerate(models, 1):
        try:
            model = scenario.model(model_id)
        except KeyError:
            continue
        ring_base(surface, colour, model, view, 2, 6.0)
        x, y = view.to_screen(*model.at)
        r = model.radius * view.scale
        px = round(14 * ui)
        below = (x, y + r + 4 + font(px).size("0")[1])
        labels.put(f"{word}:{model_id}", f"{word} {index}", (x, y), r + 7, below, colour, px)
    return labels.drawn


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
            translucent(surface, FLAME, fade, points)
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
