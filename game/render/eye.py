"""The shooter's-eye view of a ruling: the target's silhouette as the shooter sees it,
the part some clear sight line reaches shaded, each piece or model that hides the rest
drawn over the strips it hides and named, the minimum visible patch marked where the
rule system has one, heights to scale with an inch ruler.

It is drawn from the strips the ruling's visible fraction is measured over
(`game.geometry.silhouette_strips`), so its visible share is the ruling's: with no clear sight
line at all (the ruling's visible fraction is then 0) every strip is drawn hidden."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from game.geometry import Strips, Table, silhouette_strips
from game.geometry.measures import footprint_gap
from game.geometry.table import MM_PER_INCH
from game.render import style
from game.render.labels import Box, Want, place
from game.render.table import font
from game.rules.cover import patch_seen
from game.scenario.names import kind_words, table_names
from game.sequencer.sentences import names_of
from game.words import joined

if TYPE_CHECKING:
    from game.scenario import Scenario
    from game.scenario.ruling import LofRuling

import pygame

# a hider's band on one strip: (hider, from, to) in inches from the ground
Band = tuple[str, float, float]
SEEN = (60, 190, 100)
SEEN_EDGE = (20, 110, 50)
OUTLINE = (240, 240, 240)
PATCH = (250, 220, 60)
PATCH_SHORT = (240, 80, 70)
UNNAMED = (80, 80, 80)
LABEL_PX = 15  # the hiders' names on the silhouette
LABEL_ROW = 20  # pixels a row of names takes
RUN_BAR = 4  # pixels: the bar under the strips a name under the ground names (its least width too)
# colours of the pieces and models hiding the target, in the order they are named
HIDERS: tuple[style.Colour, ...] = (
    (120, 110, 150),
    (170, 120, 70),
    (90, 130, 160),
    (150, 90, 110),
    (110, 140, 90),
    (160, 150, 80),
)


@dataclass(frozen=True, slots=True)
class EyeView:
    """What the eye view shows: the ruling's strips (all hidden when no sight line is
    clear) and the runs of strips each hider covers."""

    strips: Strips
    hiders: tuple[str, ...]  # in the order first met from the shooter's left
    min_patch_mm: float  # 0: the rule system has no minimum patch
    patch_enough: bool  # the largest square seen is at least that patch (the ruling's reading)
    # per strip, what is drawn hiding it from the ground up: (hider, from, to) in inches,
    # the nearer hider in front of the farther; "" for a height only the strip's hiders
    # together hide (none: `strips.hidden_by`, bottom up, as the strips have them)
    bands: tuple[tuple[Band, ...], ...] = ()
    # each hider drawn nowhere, with the nearer ones that stand in front of all it hides
    # (none: it hides nothing alone, only with the others)
    behind: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def shows(self, j: int, hider: str) -> Band | None:
        """Where strip j shows `hider`: its own band, or the band hidden only by the
        strip's hiders together where it is one of them (None: not on strip j)."""
        for band in self.drawn(j):
            if band[0] == hider or (not band[0] and hider in self.strips.hidden_by[j]):
                return band
        return None

    def drawn(self, j: int) -> tuple[Band, ...]:
        """Strip j's hiding bands, from the ground up."""
        if self.bands:
            return self.bands[j]
        sil = self.strips
        cut = min(max(sil.low[j], 0.0), sil.height)
        if cut <= 1e-9:
            return ()
        names = sil.hidden_by[j] or ("",)
        part = cut / len(names)
        return tuple((name, k * part, (k + 1) * part) for k, name in enumerate(names))

    @property
    def together(self) -> tuple[str, ...]:
        """The hiders of the heights drawn striped, hidden only by several together (by
        none alone), in the order they are named; () where there is none."""
        sil = self.strips
        found = {
            h
            for j, strip in enumerate(self.bands)
            for band in strip
            if not band[0]
            for h in sil.hidden_by[j]
        }
        return tuple(h for h in self.hiders if h in found)

    @property
    def visible_fraction(self) -> float:
        return self.strips.fraction

    def runs(self) -> list[tuple[int, int, tuple[str, ...]]]:
        """(first strip, end strip, hiders) for each run of strips hidden by the same."""
        out: list[tuple[int, int, tuple[str, ...]]] = []
        sil = self.strips
        for j, names in enumerate(sil.hidden_by):
            if sil.low[j] <= 1e-9:
                continue
            if out and out[-1][1] == j and out[-1][2] == names:
                out[-1] = (out[-1][0], j + 1, names)
            else:
                out.append((j, j + 1, names))
        return out

    def widest_run(self, hider: str) -> tuple[int, int]:
        """(first strip, end strip) of the widest run of strips `hider` hides part of."""
        best, start = (0, 0), None
        sil = self.strips
        for j in range(len(sil.low) + 1):
            hides = j < len(sil.low) and self.shows(j, hider) is not None
            if hides and start is None:
                start = j
            elif not hides and start is not None:
                if j - start > best[1] - best[0]:
                    best = (start, j)
                start = None
        return best

    def patch_at(self) -> int | None:
        """The first strip of the largest square seen (None when nothing is seen)."""
        seen = self.strips.seen
        n = len(seen)
        width = self.strips.width / n
        best, at = 0.0, None
        for k in range(1, n + 1):
            for i in range(n - k + 1):
                side = min(k * width, min(seen[i : i + k]))
                if side > best + 1e-12:
                    best, at = side, i
        return at


def eye_view(scenario: Scenario, table: Table, ruling: LofRuling) -> EyeView:
    """The eye view of `ruling` (made on `table`, the scenario's table): seen on the
    table the ruling judged the shot on (`judged_table`: what the engine's sight leaves out
    of this shot, gone)."""
    from game.scenario.tables import judged_table

    table = judged_table(table, scenario, ruling.attacker, ruling.target)
    sil = silhouette_strips(
        table, ruling.attacker, ruling.target, models_block=scenario.ruleset.models_block
    )
    if not ruling.sight.clear:
        # no clear sight line: the ruling sees none of the target, nor does the picture;
        # each strip is hidden by the ruling's blockers whose own shadow covers it
        hiding = _blocked_strips(scenario, ruling, len(sil.low))
        sil = Strips(sil.width, sil.height, (sil.height,) * len(sil.low), hiding)
    order: list[str] = []
    for names in sil.hidden_by:
        order.extend(n for n in names if n not in order)
    enough = patch_seen(ruling.sight, ruling.min_patch_mm)
    view = EyeView(sil, tuple(order), ruling.min_patch_mm, enough)
    several = sorted({n for names in sil.hidden_by if len(names) > 1 for n in names})
    if not several:
        return view
    # strips hidden by several: each drawn as far up as it alone hides, the nearest in
    # front, so a near wall hiding all of it is seen hiding all (tester13: the wall and
    # a building beyond it split the silhouette in two bands, neither one true)
    alone = {h: _alone(scenario, ruling, h).low for h in several}
    nearest = {h: _distance(scenario, ruling, h) for h in several}
    bands: list[tuple[Band, ...]] = []
    for j, names in enumerate(sil.hidden_by):
        if len(names) < 2:
            bands.append(view.drawn(j))
            continue
        cut = min(max(sil.low[j], 0.0), sil.height)
        strip: list[Band] = []
        top = 0.0
        for hider in sorted(names, key=lambda h: (nearest[h], h)):
            reach = min(alone[hider][j], cut)
            if reach > top + 1e-9:
                strip.append((hider, top, reach))
                top = reach
        if cut > top + 1e-9:
            strip.append(("", top, cut))  # hidden only by them together
        bands.append(tuple(strip))
    view = replace(view, bands=tuple(bands))
    behind = []
    for hider in order:
        if any(view.shows(j, hider) for j in range(len(bands))):
            continue
        front = {b[0] for j, strip in enumerate(bands) if alone.get(hider, sil.low)[j] > 1e-9
                 for b in strip if b[0]}  # fmt: skip
        behind.append((hider, tuple(h for h in order if h in front)))
    return replace(view, behind=tuple(behind))


def _alone(scenario: Scenario, ruling: LofRuling, hider: str) -> Strips:
    """The strips as they would be with `hider` the only piece or model in the way."""
    from game.scenario.tables import judged_table, table_from_scenario

    keep = {ruling.attacker, ruling.target, hider}
    alone = replace(
        scenario,
        scenery=tuple(p for p in scenario.scenery if p.id == hider),
        models=tuple(m for m in scenario.models if m.id in keep),
    )
    return silhouette_strips(
        judged_table(table_from_scenario(alone), alone, ruling.attacker, ruling.target),
        ruling.attacker,
        ruling.target,
        models_block=scenario.ruleset.models_block,
    )


def _distance(scenario: Scenario, ruling: LofRuling, hider: str) -> float:
    """Inches from the shooter's centre to the nearest of `hider` (a piece or a base)."""
    at = scenario.model(str(ruling.attacker)).at
    try:
        return footprint_gap(scenario.piece(hider).footprint, at)
    except KeyError:
        model = scenario.model(hider)
        return max(0.0, math.dist(at, model.at) - model.radius)


def _blocked_strips(scenario: Scenario, ruling: LofRuling, n: int) -> tuple[tuple[str, ...], ...]:
    """Per strip, the ruling's blockers (`sight.hidden_by`) whose shadow alone reaches
    it; a blocker that shades no strip alone hides the target only with the others, so
    it is named on every strip."""
    blockers = ruling.sight.hidden_by or ruling.blockers
    names: list[list[str]] = [[] for _ in range(n)]
    together: list[str] = []
    for blocker in blockers:
        strips = _alone(scenario, ruling, blocker)
        shaded = [j for j, z in enumerate(strips.low) if z > 1e-9]
        for j in shaded:
            names[j].append(blocker)
        if not shaded:
            together.append(blocker)
    return tuple(tuple(sorted({*strip, *together})) for strip in names)


def _text(
    surface: pygame.Surface,
    text: str,
    size: int,
    colour: style.Colour,
    pos: tuple[float, float],
    anchor: str = "center",
    room: float | None = None,
) -> pygame.Rect:
    """A line of text; smaller, down to the panel's smallest text (LEAST_TEXT), until it
    fits in `room` pixels, if given; then its last words cut, ending with "..." (tester16:
    at 1280x800 a legend line shrank to 11 px, letters about 6 px high)."""
    image = font(size).render(text, True, colour)
    least = min(size, LEAST_TEXT)
    while room is not None and image.get_width() > room and size > least:
        size -= 1
        image = font(size).render(text, True, colour)
    words = text.split(" ")
    while room is not None and image.get_width() > room and len(words) > 1:
        words.pop()
        image = font(size).render(" ".join(words) + "...", True, colour)
    rect = image.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    surface.blit(image, rect)
    return rect


def _describe(scenario: Scenario, hider: str) -> str:
    """A hider in the legend: a model by its name; a piece by its name, with its kind
    and height where the name does not say them ("the wreck (obstacle, 1.2" high)")."""
    called = table_names(scenario).get(hider, hider)
    try:
        piece = scenario.piece(hider)
    except KeyError:
        return called
    height = "full height" if piece.height is None else f'{piece.height:g}" high'
    if height.removesuffix(" high") in called:  # its name says it (tester16: "hab stack
        return called  # (full height) (hab-west) (building, full height)", unreadable)
    if not called.startswith(kind_words(piece)):
        return f"{called} ({piece.kind.value}, {height})"
    return called if piece.height is not None else f"{called}, full height"


LEGEND_ROW = 20  # pixels a row of the legend takes
LEAST_TEXT = 12  # pixels: the panel's smallest text (panel.py: max(12, ...)), the eye's too
LEGEND_GAP = 8  # pixels between the picture (and the names under it) and the legend
RULER_BELOW = 10  # pixels the ruler's "0" reaches under the ground
MIN_PICTURE = 64  # pixels of silhouette kept before two hiders share a legend row
# Pixels (at ui scale 1) the silhouette is drawn at least: a room that leaves it less
# (a crowded panel) shows no eye view at all rather than a sliver (`least_height`).
MIN_SILHOUETTE = 48
HEADING = 34  # pixels from the heading's top to the picture's


@dataclass(frozen=True, slots=True)
class PlacedName:
    """A hider's name placed on the eye view; `inside` the run of strips it names."""

    want: Want
    box: Box
    inside: bool

    @property
    def text(self) -> str:
        return self.want.text


def place_names(
    wants: Sequence[Want], picture: Box, area: Box, taken: Sequence[Box]
) -> list[PlacedName]:
    """The hiders' names: on the silhouette inside the run each names (its spot), the
    others off the picture, clear of `taken`, and only where no room is left there on
    the picture after all (a bar under the run then says which it names); none
    overprints another."""
    inner = place([w for w in wants if w.spots], picture, taken=taken, leaders=False)
    inside = {p.want.key for p in inner}
    rest = [w for w in wants if w.key not in inside]
    boxes = [p.box for p in inner]
    outer = place(rest, area, taken=(*taken, picture, *boxes), leaders=False)
    boxes += [p.box for p in outer]
    done = inside | {p.want.key for p in outer}
    last = place(
        [w for w in rest if w.key not in done], area, taken=(*taken, *boxes), leaders=False
    )
    return [PlacedName(p.want, p.box, p.want.key in inside) for p in [*inner, *outer, *last]]


def _width(run: tuple[int, int]) -> int:
    return run[1] - run[0]


def least_height(view: EyeView, ui: float = 1.0) -> int:
    """Pixels the eye view needs to show the silhouette MIN_SILHOUETTE tall with
    everything else readable: its heading, the row of names under the ground (the
    ruler's "0" without hiders) and the whole legend, hiders two to a row; a room
    smaller than this shows none of it."""
    under = round(LABEL_ROW * ui) if view.hiders else RULER_BELOW
    legend = round(LEGEND_ROW * ui) * legend_rows(view, len(view.hiders) > 1)
    return 8 + round((HEADING + MIN_SILHOUETTE) * ui) + under + LEGEND_GAP + legend + 6


def legend_rows(view: EyeView, two_columns: bool, hiders_listed: bool = True) -> int:
    """Rows of the legend: the share seen, the size, the minimum patch where the rule
    system has one, and each hider (or two hiders to a row; none when they are not
    `hiders_listed`), then the stripes' row where some height is hidden only by several
    together (with the hiders: fix13e, the last row, so the others keep their places)."""
    hiders = (len(view.hiders) + 1) // 2 if two_columns else len(view.hiders)
    hiders += 1 if view.together else 0
    return 2 + (1 if view.min_patch_mm > 0 else 0) + (hiders if hiders_listed else 0)


def draw_eye(
    surface: pygame.Surface,
    rect: pygame.Rect,
    scenario: Scenario,
    ruling: LofRuling,
    view: EyeView,
    ui: float = 1.0,
) -> pygame.Rect:
    """The eye view drawn into `rect` of `surface`; returns where the silhouette is.
    `ui`: how much larger its words, rows and ruler are drawn (a large picture)."""

    def k(pixels: float) -> int:
        return round(pixels * ui)

    label_px, label_row, row = k(LABEL_PX), k(LABEL_ROW), k(LEGEND_ROW)
    swatch, beside = k(12), k(18)
    pygame.draw.rect(surface, style.BACKGROUND, rect)
    sil = view.strips
    x0 = rect.x + 14
    y = rect.y + 8
    _text(
        surface,
        seen_by(ruling, names_of(scenario)),
        k(22),
        style.TEXT,
        (x0, y),
        "topleft",
        room=rect.right - x0 - 6,  # smaller until it fits the panel
    )
    top = y + k(HEADING)
    # room under the ground for the hiders' names: a row, and a row more for each
    # further hider, up to two, when the picture is tall enough to spare them; else
    # the ruler's "0" reaching below it
    rows = min(2, max(0, len(view.hiders) - 1)) if rect.height >= 400 else 0
    under = label_row * (1 + rows) if view.hiders else RULER_BELOW
    # the legend's rows under that, each hider on a row of its own while the silhouette
    # keeps at least MIN_PICTURE pixels, else two hiders to a row, by name only
    spare = rect.bottom - row * legend_rows(view, False) - LEGEND_GAP - under - top
    two_columns = len(view.hiders) > 1 and spare < MIN_PICTURE
    # a room too short even for that (a crowded panel): the hiders are named on the
    # picture alone, so the silhouette is never squeezed to nothing
    listed = (
        rect.bottom - row * legend_rows(view, two_columns) - LEGEND_GAP - under - top
        >= MIN_PICTURE // 2
    )
    legend_h = row * legend_rows(view, two_columns, listed)
    legend_top = rect.bottom - legend_h - 6
    bottom = legend_top - LEGEND_GAP - under
    # one scale for width and height: the silhouette as tall as it is, to scale
    avail_w = rect.width - k(110)
    avail_h = max(1, bottom - top)
    scale = min(avail_w / max(sil.width, 1e-6), avail_h / max(sil.height, 1e-6))
    w_px, h_px = sil.width * scale, sil.height * scale
    left = rect.x + k(60) + (avail_w - w_px) / 2
    ground = top + (avail_h + h_px) / 2
    # the inch ruler at the left, and the ground
    ruler_x = rect.x + k(44)
    pygame.draw.line(surface, style.TEXT, (ruler_x, ground), (ruler_x, ground - h_px))
    step = 0.25 if sil.height <= 2.5 else 1.0
    tick = 0.0
    said_at: float | None = None  # where the last inch label is: none overprints it
    while tick <= sil.height + 1e-9:
        ty = ground - tick * scale
        pygame.draw.line(surface, style.TEXT, (ruler_x - 5, ty), (ruler_x, ty))
        labelled = abs(tick * 2 - round(tick * 2)) < 1e-9  # whole and half inches
        if labelled and (said_at is None or said_at - ty >= font(k(15)).get_linesize()):
            _text(surface, f'{tick:g}"', k(15), style.TEXT, (ruler_x - 8, ty), "midright")
            said_at = ty
        tick += step
    ground_from = rect.x + k(50)
    pygame.draw.line(surface, style.GRID_MAJOR, (ground_from, ground), (rect.right - 10, ground), 2)
    n = len(sil.low)
    strip = w_px / n
    colours = {h: HIDERS[i % len(HIDERS)] for i, h in enumerate(view.hiders)}
    # each strip's pixel columns from one list of edges, so no column falls between two
    # (tester13: a background line down the picture at --size 746x490)
    edges = [round(left + j * strip) for j in range(n + 1)]
    for j in range(n):
        x, w = edges[j], max(1, edges[j + 1] - edges[j])
        cut = min(max(sil.low[j], 0.0), sil.height) * scale
        if cut < h_px - 1e-9:
            seen = pygame.Rect(x, round(ground - h_px), w, round(h_px - cut))
            pygame.draw.rect(surface, SEEN, seen)
        for name, lo, hi in view.drawn(j):
            # each hider as far up as it hides, the nearer in front (`EyeView.bands`)
            bottom, up = round(ground - lo * scale), round(ground - hi * scale)
            hid = pygame.Rect(x, up, w, max(1, bottom - up))
            if name:
                pygame.draw.rect(surface, colours.get(name, UNNAMED), hid)
            else:  # hidden only by the strip's hiders together: hatched in their colours
                _hatch(surface, hid, [colours.get(h, UNNAMED) for h in sil.hidden_by[j]], k(6))
    # the edge between what is seen and what is hidden
    for j in range(n):
        cut = min(max(sil.low[j], 0.0), sil.height) * scale
        if 1e-9 < cut < h_px - 1e-9:
            sx = left + j * strip
            pygame.draw.line(surface, SEEN_EDGE, (sx, ground - cut), (sx + strip, ground - cut), 2)
    pygame.draw.rect(
        surface,
        OUTLINE,
        pygame.Rect(round(left), round(ground - h_px), round(w_px), round(h_px)),
        2,
    )
    # each hider named once, over the widest run of strips it hides, or under the
    # ground with a line up to it; placed so that no name overprints another
    wants = []
    called = {key: name.removeprefix("the ") for key, name in table_names(scenario).items()}
    hidden_behind = dict(view.behind)
    for hider in view.hiders:
        if hider in hidden_behind:
            continue  # drawn nowhere: the legend says what stands in front of it
        first, end = view.widest_run(hider)
        cx = left + (first + end) / 2 * strip
        ours = [b for j in range(first, end) if (b := view.shows(j, hider))]
        lo, hi = max(b[1] for b in ours) * scale, min(b[2] for b in ours) * scale
        label = called.get(hider, hider)
        tw, th = font(label_px).size(label)
        within = hi - lo >= th + 4 and tw <= (end - first) * strip
        spots = ((cx, ground - (lo + hi) / 2),) if within else ()
        wants.append(Want(hider, label, (tw, th), (cx, ground), spots=spots, kind="scenery"))
    area = (rect.x + 4.0, top, rect.width - 8.0, legend_top - LEGEND_GAP - top)
    # kept clear of names: the ruler and its inches, and the ground line itself with the
    # bars under it that mark each named run
    ruler = (float(rect.x), top - 10, ruler_x - rect.x + 2.0, ground - top + 20)
    line = (float(ground_from), ground - 1, rect.right - 10.0 - ground_from, 2.0 + RUN_BAR + 2)
    picture = (left, ground - h_px, w_px, h_px)
    patches = _patch_boxes(view, left, strip, ground - h_px, scale)
    labels = place_names(wants, picture, area, (ruler, line, *patches))
    # the widest runs' bars first, so a narrow run's bar shows on top of a wide one
    for placed in sorted(labels, key=lambda p: -_width(view.widest_run(p.want.key))):
        bx, by, bw, bh = placed.box
        colour = colours.get(placed.want.key, OUTLINE)
        if not placed.inside:
            # off the picture: a bar in its colour under the very strips it names (two
            # hiders side by side are told apart), and a line from it to the name
            first, end = view.widest_run(placed.want.key)
            x0_run, x1_run = left + first * strip, left + end * strip
            if x1_run - x0_run < RUN_BAR:
                mid = (x0_run + x1_run) / 2
                x0_run, x1_run = mid - RUN_BAR / 2, mid + RUN_BAR / 2
            bar = pygame.Rect(round(x0_run), round(ground + 2), max(1, round(x1_run - x0_run)),
                              RUN_BAR)  # fmt: skip
            pygame.draw.rect(surface, colour, bar)
            end_y = by if by >= bar.bottom else by + bh  # the name's nearer edge
            pygame.draw.line(surface, colour, (bar.centerx, bar.bottom), (bx + bw / 2, end_y), 2)
        spot = pygame.Rect(round(bx), round(by), round(bw), round(bh))
        pygame.draw.rect(surface, style.BACKGROUND, spot)
        surface.blit(font(label_px).render(placed.text, True, colour), spot.topleft)
    # the minimum patch: a square of its size where the largest seen patch is
    if patches:
        *seen_box, (px, py, side, _) = patches
        for sx, sy, sw, sh in seen_box:
            pygame.draw.rect(surface, OUTLINE, pygame.Rect(round(sx), round(sy), round(sw),
                             round(sh)), 1)  # fmt: skip
        colour = PATCH if view.patch_enough else PATCH_SHORT
        square = pygame.Rect(round(px), round(py), max(2, round(side)), max(2, round(side)))
        pygame.draw.rect(surface, colour, square, 2)
    # the legend
    ly = legend_top
    from game.scenario.ruling import share_text

    clear = ruling.sight.clear
    seen_text = share_text(view.visible_fraction, clear, bool(view.hiders) and clear)
    share = f"seen: {seen_text} of the silhouette"
    if not ruling.sight.clear:
        share += " (no clear sight line)"
    elif not ruling.in_arc:
        share += " (outside the arc)"
    pygame.draw.rect(surface, SEEN, pygame.Rect(x0, ly + k(4), swatch, swatch))
    room = rect.right - x0 - beside - 6
    _text(surface, share, k(17), style.TEXT, (x0 + beside, ly), "topleft", room)
    ly += row
    size = f'silhouette {sil.width:.2f}" wide, {sil.height:.2f}" high, ruler in inches'
    _text(surface, size, k(17), style.TEXT, (x0, ly), "topleft", room + beside)
    ly += row
    if view.min_patch_mm > 0:
        got = sil.patch * MM_PER_INCH
        need = f"{view.min_patch_mm:g}x{view.min_patch_mm:g} mm"
        enough = view.patch_enough
        verdict = "enough" if enough else "too small"
        colour = PATCH if enough else PATCH_SHORT
        pygame.draw.rect(surface, colour, pygame.Rect(x0, ly + k(4), swatch, swatch), 2)
        _text(
            surface,
            f"patch {need}: largest seen (white) {got:.1f} mm, {verdict}",
            k(17),
            style.TEXT,
            (x0 + beside, ly),
            "topleft",
            room,
        )
        ly += row
    if not listed:
        return pygame.Rect(round(left), round(ground - h_px), round(w_px), round(h_px))
    if two_columns:  # each hider's colour and name, two to a row, without the details
        column = (rect.right - x0 - 6) // 2
        for n, hider in enumerate(view.hiders):
            cx, cy = x0 + (n % 2) * column, ly + (n // 2) * row
            pygame.draw.rect(surface, colours[hider], pygame.Rect(cx, cy + k(4), swatch, swatch))
            _text(surface, called.get(hider, hider), k(16), style.TEXT, (cx + beside, cy),
                  "topleft", column - beside - 6)  # fmt: skip
        ly += (len(view.hiders) + 1) // 2 * row
        _striped_row(surface, view, [colours[h] for h in view.together], (x0, ly), ui, room)
        return pygame.Rect(round(left), round(ground - h_px), round(w_px), round(h_px))
    for hider in view.hiders:
        pygame.draw.rect(surface, colours[hider], pygame.Rect(x0, ly + k(4), swatch, swatch))
        front = hidden_behind.get(hider)
        said = table_names(scenario)
        also = (
            ""
            if front is None
            else f" too, behind {joined([said.get(h, h) for h in front])}"
            if front
            else ": none of it alone, only with the others"
        )
        _text(
            surface,
            f"hidden by {_describe(scenario, hider)}{also}",
            k(17),
            style.TEXT,
            (x0 + beside, ly),
            "topleft",
            room,
        )
        ly += row
    _striped_row(surface, view, [colours[h] for h in view.together], (x0, ly), ui, room)
    return pygame.Rect(round(left), round(ground - h_px), round(w_px), round(h_px))


def _striped_row(surface: pygame.Surface, view: EyeView, colours: Sequence[style.Colour],
                 at: tuple[int, int], ui: float, room: int) -> None:  # fmt: skip
    """The legend's row for the stripes, where the picture has some: a striped swatch in
    the colours of the hiders that hide a height only together (fix13e: no row said
    what the stripes were)."""
    if not view.together:
        return
    x, y = at
    swatch = pygame.Rect(x, y + round(4 * ui), round(12 * ui), round(12 * ui))
    _hatch(surface, swatch, colours, round(3 * ui))
    said = "striped: hidden only by several together, by none of them alone"
    _text(surface, said, round(17 * ui), style.TEXT, (x + round(18 * ui), y), "topleft", room)


def _hatch(surface: pygame.Surface, rect: pygame.Rect, colours: Sequence[style.Colour],
           width: int) -> None:  # fmt: skip
    """`rect` in diagonal stripes of `colours` in turn, `width` pixels each."""
    if not colours:
        return
    kept = surface.get_clip()
    surface.set_clip(rect.clip(kept) if kept else rect)
    width = max(2, width)
    starts = range(rect.left - rect.height, rect.right + width, width)
    for n, start in enumerate(starts):
        a, b = (start, rect.bottom), (start + rect.height, rect.top)
        stripe = [a, b, (b[0] + width, b[1]), (a[0] + width, a[1])]
        pygame.draw.polygon(surface, colours[n % len(colours)], stripe)
    surface.set_clip(kept)


def _patch_boxes(view: EyeView, left: float, strip: float, top: float, scale: float) -> list[Box]:
    """Where the minimum patch is drawn at the silhouette's top: the largest square seen
    (when any is seen), then a square of the patch's size (none: no minimum patch)."""
    if view.min_patch_mm <= 0:
        return []
    at = view.patch_at()
    px = left + (at if at is not None else 0) * strip
    side = max(2.0, view.min_patch_mm / MM_PER_INCH * scale)
    seen = [] if at is None else [(px, top, view.strips.patch * scale, view.strips.patch * scale)]
    return [*seen, (px, top, side, side)]


def seen_by(ruling: LofRuling, names: Mapping[str, str]) -> str:
    """The eye picture's title: "Zhanshi 2 as Knight of Justice sees it"."""
    target, attacker = str(ruling.target), str(ruling.attacker)
    return f"{names.get(target, target)} as {names.get(attacker, attacker)} sees it"
