"""A line-of-fire ruling as a picture: the table from above with the witness line, the
blockers outlined and the hidden share of the target's base shaded (the part facing the
shooter), beside the shooter's-eye view of the target, under a two-line header."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from game.render import style
from game.render.frame import draw_marked_table, draw_marker, marked
from game.render.labels import Placed, crosses_box
from game.render.overlays import cover_words, draw_ruling, ruling_lines
from game.render.state import Hover, ui_scale
from game.render.table import (
    draw_labels,
    font,
    ruler_boxes,
    save_png,
    table_labels,
    wrap,
)
from game.render.view import View
from game.scenario.names import table_names
from game.sequencer.sentences import Names, named
from game.words import joined

if TYPE_CHECKING:
    from game.geometry import Table
    from game.scenario import Scenario
    from game.scenario.ruling import LofRuling

import pygame

RULING_TEXT = (250, 226, 120)
LEGEND_PX = 16  # the marks' legend under the eye view: its words' size
LEGEND_ROW = 20  # and the pixels a row of it takes
SWATCH = (200, 200, 200)  # a base in the legend, marked
HEADER = 70  # pixels above the panels: the table's name, then the ruling


def draw_ruling_top(surface: pygame.Surface, scenario: Scenario, ruling: LofRuling,
                    view: View, labels: list[Placed] | None = None
                    ) -> pygame.Rect | None:  # fmt: skip
    """The ruling over the drawn table, drawn as the window draws the ruling on the
    enemy pointed at (game.render.overlays.draw_ruling): the witness line, blockers
    outlined, the hidden share of the target's base shaded, the target ringed and
    labelled; so a picture reads like the window. `labels`: where the table's labels
    went (else as draw_table places them). Returns where the label went."""
    if labels is None:
        labels = table_labels(scenario, view, surface.get_size(), objectives=True)
    # the table's side of the picture: the ruling's label stays on it, off the names and
    # the inch ruler's numbers
    right = min(surface.get_width(), round(view.to_screen(scenario.header.table[0], 0)[0]))
    side = surface.subsurface(pygame.Rect(0, 0, right + style.MARGIN, surface.get_height()))
    taken = [label.box for label in labels] + ruler_boxes(scenario, view)
    hover = Hover(ruling.attacker, ruling.target, ruling, ())
    ui = ui_scale(surface.get_size())  # its words grow with the picture, as in the window
    # on the table itself (tester13: pushed over the y axis, off the table)
    (x0, y0), (x1, y1) = (view.to_screen(0, 0), view.to_screen(*scenario.header.table))
    table = (min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))
    said = draw_ruling(side, scenario, hover, view, True, taken, ui, table)
    lines = ruling_lines(scenario, hover, view, True, said)
    # the lines pass under the names they cross, as in the window
    crossed = [lb for lb in labels if any(crosses_box(p, q, lb.box, 3.0) for p, q in lines)]
    draw_labels(surface, crossed, view)
    return said


def verdict(ruling: LofRuling, names: Names | None = None, giving: bool = False) -> str:
    """The ruling in one line for a picture's header (`giving`: with what gives the cover,
    where no cover line follows it); models and scenery called by `names` when given
    ("Goliath juve -> Cawdor champion: ... partial cover from the barrels"), else by their
    ids."""
    from game.scenario.ruling import share_text

    if ruling.no_shot:  # one of them is off the table: why, alone
        text = f"{ruling.attacker} -> {ruling.target}: no shot: {ruling.no_shot}"
        return named(text, names) if names else text
    said = "line of fire" if ruling.lof else "no line of fire"
    sight = ruling.sight
    share = share_text(ruling.visible_fraction, sight.clear, bool(sight.hidden_by) and sight.clear)
    # the cover is the unit's where the rules give it to the unit: said whose
    unit = ruling.unit
    whose = f"its {ruling.unit_word} ({unit})" if unit else None
    cover = cover_words(ruling.cover, whose, ruling.unit_unseen)
    if giving and ruling.pieces:  # and what gives it, as the ruling's words name it
        cover += f" from {joined(ruling.pieces)}"
    text = f"{ruling.attacker} -> {ruling.target}: {said}, {share} visible, {cover}"
    if ruling.refused:  # the rules refuse the shot sight allows: that first (the target
        # named once: "no shot, hidden: prone and in cover; line of fire, ...")
        why = ruling.refused.removeprefix(f"{ruling.target} is ")
        text = f"{ruling.attacker} -> {ruling.target}: no shot, {why}; {said}, "
        text += f"{share} visible, {cover}"
    return named(text, names) if names else text


def _fitted(text: str, size: int, colour: style.Colour, width: int) -> pygame.Surface:
    """`text` rendered at `size`, or smaller (down to 12) until it fits in `width`."""
    image = font(size).render(text, True, colour)
    while image.get_width() > width and size > 12:
        size -= 1
        image = font(size).render(text, True, colour)
    return image


def _header(
    surface: pygame.Surface, scenario: Scenario, ruling: LofRuling
) -> tuple[pygame.Rect, pygame.Rect]:
    """Two lines that never overprint: the table's name, then the ruling (shrunk to fit);
    returns where each went."""
    width = surface.get_width() - 2 * style.MARGIN
    name = f"{scenario.header.name}  ·  {scenario.ruleset.title}"
    title = _fitted(name, 26, style.TEXT, width)
    first = surface.blit(title, (style.MARGIN, 8))
    line = _fitted(verdict(ruling, table_names(scenario), giving=True), 22, RULING_TEXT, width)
    second = surface.blit(line, (style.MARGIN, first.bottom + 6))
    return first, second


def marks_legend(scenario: Scenario, ruling: LofRuling) -> list[tuple[str, str]]:
    """The marks on the table's bases, each state marked (as the window marks it) once,
    with its words and what it does to this shot: "out of action: off the table" for a
    state that takes a model off the table, "pinned: hides nothing" where every model in
    it but the two is left out of the shot, as the game leaves it."""
    from game.scenario.tables import left_out_of

    gone = left_out_of(scenario, ruling.attacker, ruling.target)
    pair = (ruling.attacker, ruling.target)
    items = []
    for state in dict.fromkeys(m.state for m in scenario.models if m.state):
        if not marked(state):
            continue
        words = state.replace("-", " ")
        others = [m.id for m in scenario.models if m.state == state and m.id not in pair]
        if state in scenario.ruleset.off_table:
            words += ": off the table"
        elif others and all(m in gone for m in others):
            words += ": hides nothing"
        items.append((state, words))
    return items


def _legend_rows(items: list[tuple[str, str]], width: int) -> list[list[tuple[str, str]]]:
    """The legend's items in rows no wider than `width` (one to a row at least)."""
    rows: list[list[tuple[str, str]]] = []
    used = width
    for item in items:
        need = LEGEND_PX + 6 + font(LEGEND_PX).size(item[1])[0] + 14
        if used + need > width and (used > 0 or not rows):
            rows.append([])
            used = 0
        rows[-1].append(item)
        used += need
    return rows


def _draw_legend(surface: pygame.Surface, rows: list[list[tuple[str, str]]], x0: int,
                 top: int) -> None:  # fmt: skip
    """The marks' legend from (x0, top): a marked base, then its words, row by row."""
    r = LEGEND_PX // 2
    for n, row in enumerate(rows):
        x, y = x0, top + n * LEGEND_ROW + LEGEND_ROW // 2
        for state, words in row:
            pygame.draw.circle(surface, SWATCH, (x + r, y), r)
            draw_marker(surface, state, (x + r, y), r)
            x += 2 * r + 6
            image = font(LEGEND_PX).render(words, True, style.TEXT)
            surface.blit(image, image.get_rect(midleft=(x, y)))
            x += image.get_width() + 14


def _panels(scenario: Scenario, scale: float) -> tuple[int, int, int]:
    """Widths of the table's panel and the eye view's, and the panels' height."""
    width, depth = scenario.header.table
    top_w = round(width * scale) + 2 * style.MARGIN
    top_h = round(depth * scale) + style.MARGIN
    return top_w, max(420, min(640, top_w * 2 // 3)), max(top_h, 420)


def lof_picture_size(scenario: Scenario, scale: float) -> tuple[int, int]:
    """Pixel size of the picture `lof_picture` makes at `scale`."""
    top_w, eye_w, body_h = _panels(scenario, scale)
    return top_w + eye_w, HEADER + body_h


def lof_scale_to_fit(scenario: Scenario, size: tuple[int, int]) -> float:
    """The largest scale (to 0.01 pixels an inch, from 2 to 200) whose picture fits in
    `size` (width, height), or 2 (the caller checks the picture against `size`): the
    picture grows with the scale, so halving finds it."""
    low, high = 200, 20000  # hundredths of a pixel an inch
    while low < high:
        middle = (low + high + 1) // 2
        w, h = lof_picture_size(scenario, middle / 100)
        low, high = (middle, high) if w <= size[0] and h <= size[1] else (low, middle - 1)
    return low / 100


def lof_picture(scenario: Scenario, ruling: LofRuling, scale: float = 20.0,
                table: Table | None = None) -> pygame.Surface:  # fmt: skip
    """Two panels under a header: the table from above, its models in the states the
    scenario gives them (a fighter Out of Action greyed and crossed, as the window draws
    it), with the ruling drawn over it, and the shooter's-eye view of the target
    (game.render.eye); where there is no shot (one of them off the table), no eye view
    but why, as the window's panel says it (tester15 finding 3: it drew a full
    silhouette, "seen: 100%", of a fighter Out of Action)."""
    from game.render.eye import draw_eye, eye_view
    from game.scenario.tables import table_from_scenario

    top_w, eye_w, body_h = _panels(scenario, scale)
    surface = pygame.Surface((top_w + eye_w, HEADER + body_h))
    surface.fill(style.BACKGROUND)
    view = View(scale, style.MARGIN, HEADER)
    # the eye view's words and ruler grow with the picture, as the window's panel does
    ui = ui_scale(surface.get_size())
    # each base's state marked as the window marks it (a model off the table crossed):
    # the legend under the eye view says what the marks do to this shot
    labels = draw_marked_table(surface, scenario, view, {}, 1.0)
    draw_ruling_top(surface, scenario, ruling, view, labels)
    # the marks' legend under the eye view, its rows taken from the eye view's room
    rows = _legend_rows(marks_legend(scenario, ruling), eye_w - 28)
    room = LEGEND_ROW * len(rows) + 6 * bool(rows)
    panel = pygame.Rect(top_w, HEADER, eye_w, body_h - room)
    if ruling.no_shot:
        _no_eye(surface, panel, scenario, ruling, ui)
    else:
        # on the shot's table (`shot_table`): the two there, even one off the table
        eye = eye_view(scenario, table or table_from_scenario(scenario), ruling)
        draw_eye(surface, panel, scenario, ruling, eye, ui)
    _draw_legend(surface, rows, top_w + 14, HEADER + body_h - room)
    pygame.draw.line(surface, style.GRID_MAJOR, (top_w, HEADER), (top_w, HEADER + body_h))
    _header(surface, scenario, ruling)
    return surface


def _no_eye(
    surface: pygame.Surface, rect: pygame.Rect, scenario: Scenario, ruling: LofRuling, ui: float
) -> None:
    """In the eye view's place, where there is no shot: why, as the window's panel says it
    ("no shot: Escher ganger 2 is out of action"), and that there is no eye view."""
    pygame.draw.rect(surface, style.BACKGROUND, rect)
    x, y, room = rect.x + 14, rect.y + 8, rect.width - 20
    said = f"no shot: {named(str(ruling.no_shot), table_names(scenario))}"
    for text, px, colour in ((said, round(22 * ui), style.TEXT),
                             (NO_EYE, round(16 * ui), style.DIM)):  # fmt: skip
        for line in wrap(text, px, room):
            surface.blit(font(px).render(line, True, colour), (x, y))
            y += font(px).get_linesize()
        y += round(6 * ui)


NO_EYE = "no shooter's-eye view: the shot is not taken"


def save_lof_picture(scenario: Scenario, ruling: LofRuling, out: Path, scale: float = 20.0,
                     table: Table | None = None) -> None:  # fmt: skip
    save_png(lof_picture(scenario, ruling, scale, table), out)
