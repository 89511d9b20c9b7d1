"""Drawing the table editor: the table as it is (or as the drag would leave it), what an
edit in progress would add, the selection's handles, the line of fire and the
shooter's-eye view of the selected pair, and the panel with the tool, the selection,
the reason an edit is refused, and the keys."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from game.render import style
from game.render.editor_state import HANDLE, EditorState, Point, panel_width
from game.render.eye import draw_eye, eye_view, least_height
from game.render.eye_panel import MIN_PANEL_HEIGHT
from game.render.lof_picture import draw_ruling_top, verdict
from game.render.panel import EYE_ELSEWHERE, EYE_LEAST, PanelLine, fitted, gives_way
from game.render.state import Size, ui_scale
from game.render.table import (
    draw_grid,
    draw_labels,
    draw_model,
    draw_objectives,
    draw_scenery,
    font,
    side_colours,
    table_labels,
    wrap,
)
from game.render.unsaved import unsaved_warned
from game.scenario.editing import profiles
from game.scenario.model import ModelEntry, ObjectiveEntry, SceneryEntry
from game.scenario.names import table_names, with_article
from game.scenario.ruling import LofRuling, rule
from game.scenario.tables import table_from_scenario
from game.sequencer.sentences import named, names_of, plural, profile_called, readable

if TYPE_CHECKING:
    from pathlib import Path

    from game.geometry import Table
    from game.render.labels import Placed
    from game.scenario import Scenario
    from game.scenario.editing import Edit, Editing


class Editor(Protocol):
    """What the drawing reads of the editor window (game.render.editor.Editor)."""

    state: EditorState
    editing: Editing
    preview: Edit | None
    preview_scenario: Scenario | None
    ruling_cache: tuple[Scenario, tuple[str, str], LofRuling, Table] | None
    labels_cache: tuple[Scenario, object, list[Placed]] | None
    save_to: Path

    def placed(self, point: Point) -> Point: ...

    def handles(self) -> list[tuple[str, tuple[float, float], Point]]: ...

    def said(self, text: str) -> str: ...

    def called(self, entry_id: str) -> str: ...

    @property
    def has_units(self) -> bool: ...


REFUSED = (240, 90, 80)
DONE = (120, 210, 130)
HANDLE_FILL = (250, 250, 250)
GHOST = (250, 250, 250)
TOOL = (250, 226, 120)
PAD = 12  # pixels between the panel's left edge and its words (at 1280x800)
KEY_SIZE = 15  # the keys' words, at 1280x800
UNIT_KEY = "U unit  "  # listed only where the rule system has units (`editor_keys`)
NBSP = "\u00a0"  # a space no row breaks at
INDENT = 4  # pixels a line's words are set in for each space it begins with
KEYS = (
    "V select  M models  B box  P polygon  W wall  O objective",
    "drag: move; corners resize, round handle turns",
    "Shift+click a 2nd model: its line of fire",
    f"wheel / R: turn   S side  {UNIT_KEY}T state",
    "K kind  +/- or H height  F full  [ ] thickness",
    "Tab: profile or kind   G grid snap",
    "Ctrl+D copy  Del delete  Ctrl+N side",
    "N name  Y turns  X or Alt+arrows table size",
    "Ctrl+Z/Y undo/redo  Ctrl+S save  Q quit",
)


def editor_keys(has_units: bool) -> tuple[str, ...]:
    """The keys at the panel's foot: U only where the rule system has units."""
    return KEYS if has_units else tuple(k.replace(UNIT_KEY, "") for k in KEYS)


def keys_rows(size: Size, keys: tuple[str, ...]) -> list[str]:
    """The keys' rows in a window of `size`, each wrapped to the panel's width between
    its keys (two spaces apart: "O objective" is never broken)."""
    ui = ui_scale(size)
    room = panel_width(size) - 2 * round(PAD * ui)
    kept = [
        f"{NBSP} ".join(k.replace(" ", NBSP) for k in text.split("  ")) if "  " in text else text
        for text in keys
    ]
    rows = [row for text in kept for row in wrap(text, round(KEY_SIZE * ui), room)]
    return [row.replace(NBSP, " ").rstrip() for row in rows]


def keys_top(size: Size, keys: tuple[str, ...]) -> int:
    """Where the keys begin: they end 8 pixels above the window's foot."""
    return _rows_top(size, len(keys_rows(size, keys)))


def _rows_top(size: Size, rows: int) -> int:
    """Where `rows` rows of keys begin (`keys_top`, the rows already wrapped)."""
    step = font(round(KEY_SIZE * ui_scale(size))).get_linesize() + 1  # `_line`'s, less 2
    return size[1] - rows * step - 8


def line_height(line: PanelLine, size: Size) -> int:
    """Pixels a panel line takes in a window of `size`: its gap and each row it wraps to
    (`_line`'s step), its words grown as the panel is (`ui_scale`)."""
    ui = ui_scale(size)
    indent = INDENT * (len(line.text) - len(line.text.lstrip(" ")))
    px = round(line.size * ui)
    rows = wrap(line.text, px, panel_width(size) - 2 * round(PAD * ui) - indent)
    return line.gap + len(rows) * (font(px).get_linesize() + 3)


def _line(surface: pygame.Surface, text: str, pos: tuple[int, int], size: int = 18,
          colour: style.Colour = style.TEXT) -> int:  # fmt: skip
    """Draw one line of the panel; returns the y below it."""
    surface.blit(font(size).render(text, True, colour), pos)
    return pos[1] + font(size).get_linesize() + 3


def _ruling(editor: Editor, scenario: Scenario) -> tuple[LofRuling, Table] | None:
    """The ruling of the selected pair on the table as drawn (made again only when the
    table or the pair changes)."""
    sel = editor.state.selected
    ids = {m.id for m in scenario.models}
    if len(sel) != 2 or not all(s in ids for s in sel):
        return None
    key = (sel[0], sel[1])
    cached = editor.ruling_cache
    if cached is not None and cached[0] is scenario and cached[1] == key:
        return cached[2], cached[3]
    table = table_from_scenario(scenario)
    ruling = rule(scenario, table, sel[0], sel[1])
    editor.ruling_cache = (scenario, key, ruling, table)
    return ruling, table


def _ghost(surface: pygame.Surface, editor: Editor) -> None:
    """What a drag in progress would make, outlined (red when it would be refused)."""
    st = editor.state
    drag = st.drag
    view = st.view
    colour = REFUSED if st.refused else GHOST
    if drag is None:
        return
    if drag.kind == "rectangle":
        (x0, y0), (x1, y1) = drag.start, drag.at
        pts = [view.to_screen(x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        pygame.draw.polygon(surface, colour, pts, 2)
        return
    if drag.kind == "wall":
        pygame.draw.line(surface, colour, view.to_screen(*drag.start), view.to_screen(*drag.at), 3)
        return
    edit = editor.preview
    if edit is None or not st.refused:
        return
    try:
        doc = edit(editor.editing.doc)
    except Exception:  # an edit that cannot even be made: nothing to outline
        return
    old = editor.editing.doc
    for m in doc.models:
        if m not in old.models:
            placed = next((p for p in editor.editing.scenario.models if p.id == m.id), None)
            radius = placed.radius if placed is not None else 0.5
            pygame.draw.circle(surface, colour, view.to_screen(*m.at), radius * view.scale, 3)
    for p in doc.scenery:
        if p not in old.scenery:
            pts = [view.to_screen(x, y) for x, y in (p.polygon or p.line or [])]
            if p.polygon is not None and len(pts) >= 3:
                pygame.draw.polygon(surface, colour, pts, 3)
            elif len(pts) >= 2:
                pygame.draw.lines(surface, colour, False, pts, 3)


def _handle_box(x: float, y: float) -> tuple[int, int, int, int]:
    """The square a handle at (x, y) is drawn in, in pixels (left, top, width, height)."""
    return round(x) - HANDLE, round(y) - HANDLE, 2 * HANDLE, 2 * HANDLE


def _handles(surface: pygame.Surface, editor: Editor) -> None:
    for what, (x, y), _ in editor.handles():
        rect = pygame.Rect(_handle_box(x, y))
        if what == "resize":
            pygame.draw.rect(surface, HANDLE_FILL, rect)
            pygame.draw.rect(surface, style.INK, rect, 1)
        else:
            pygame.draw.circle(surface, HANDLE_FILL, (x, y), HANDLE)
            pygame.draw.circle(surface, style.INK, (x, y), HANDLE, 1)


def _polygon_in_progress(surface: pygame.Surface, editor: Editor) -> None:
    st = editor.state
    if not st.corners:
        return
    view = st.view
    pts = [view.to_screen(*c) for c in st.corners]
    pointer = view.to_screen(*editor.placed(st.pointer))
    if len(pts) >= 2:
        pygame.draw.lines(surface, GHOST, False, pts, 2)
    pygame.draw.line(surface, GHOST, pts[-1], pointer, 1)
    for x, y in pts:
        pygame.draw.circle(surface, GHOST, (x, y), 4)


def _selection(editor: Editor) -> list[str]:
    """The panel's lines about the selection, by name as the play window's (a model's
    id beside its name where the scenario gives it one: what --attacker takes)."""
    doc = editor.editing.doc
    called = editor.called
    out: list[str] = []
    for sel in editor.state.selected:
        entry: ModelEntry | SceneryEntry | ObjectiveEntry | None = next(
            (
                e
                for group in (doc.models, doc.scenery, doc.objectives)
                for e in group
                if e.id == sel
            ),
            None,
        )
        if isinstance(entry, ModelEntry):
            name = called(entry.id)
            if name != readable(entry.id):
                name += f" ({entry.id})"
            known = editor.editing.scenario.profiles
            profile = with_article(profile_called(entry.profile, known))
            out.append(f"{name}: {profile} of {called(entry.side)}")
            out.append(f"  at ({entry.at[0]:g}, {entry.at[1]:g}), facing {entry.facing:g}")
            unit = f"in {called(entry.unit)}, " if entry.unit else "in no unit, "
            state = entry.state.replace("-", " ") if entry.state else "no state set"
            out.append(f"  {unit if editor.has_units else ''}{state}")
        elif isinstance(entry, SceneryEntry):
            height = "full height" if entry.height is None else f'{entry.height:g}" high'
            kind = with_article(entry.kind.value)
            if entry.line is not None:
                shape = f'a line {entry.thickness:g}" thick'
            else:
                shape = f"{len(entry.polygon or ())} corners"
            out.append(f"{called(entry.id)}: {kind}, {height}, {shape}")
        elif isinstance(entry, ObjectiveEntry):
            points = plural(entry.points, "point")
            out.append(f'{called(entry.id)}: {points} within {entry.radius:g}"')
    return out


def draw_editor(surface: pygame.Surface, editor: Editor) -> None:
    st = editor.state
    editing = editor.editing
    scenario = editor.preview_scenario or editing.scenario
    surface.fill(style.BACKGROUND)
    view = st.view
    draw_grid(surface, scenario, view)
    draw_scenery(surface, scenario, view, frozenset(st.selected))
    colours = side_colours(scenario)
    for m in scenario.models:
        draw_model(surface, m, view, colours[m.side], scenario.ruleset.arc_degrees,
                   selected=m.id in st.selected, label=False)  # fmt: skip
    size = surface.get_size()
    draw_objectives(surface, scenario, view, frozenset(st.selected))
    # no label under a selection handle (one there read "Zhan○ HMG")
    taken = [] if st.drag is not None else [_handle_box(x, y) for _, (x, y), _ in editor.handles()]
    cached = editor.labels_cache
    key = (view, size, tuple(taken))
    if cached is None or cached[0] is not scenario or cached[1] != key:
        # names, objectives and heights placed so that none overprints another (made
        # again on a change)
        labels = table_labels(scenario, view, size, objectives=True, taken=taken)
        cached = (scenario, key, labels)
        editor.labels_cache = cached
    draw_labels(surface, cached[2], view)
    ruled = _ruling(editor, scenario)
    ruling = ruled[0] if ruled is not None else None
    if ruling is not None:
        draw_ruling_top(surface, scenario, ruling, view)
    _ghost(surface, editor)
    _polygon_in_progress(surface, editor)
    if st.drag is None:
        _handles(surface, editor)

    _panel(surface, editor, scenario, ruled)


def _panel_lines(editor: Editor, scenario: Scenario, ruling: LofRuling | None) -> list[PanelLine]:
    """The panel's words, top to bottom: the table, the tool, what a form or the tool
    takes, the selection, the last edit or refusal, and the selected pair's ruling, whose
    lines saying what the table and the picture show already give way to the picture as
    in the play panel (`gives_way`), with the note saying where the picture is."""
    st = editor.state
    doc = editor.editing.doc
    w, d = doc.header.table
    turns = plural(doc.header.turns, scenario.ruleset.turn_word)
    out = [
        PanelLine(doc.header.name, size=24),
        PanelLine(f'{scenario.ruleset.title}, {w:g}x{d:g}", {turns}', size=17),
        PanelLine(f"sides: {sides_named(scenario) or 'none yet (Ctrl+N adds one)'}", size=17),
        PanelLine(f"file: {editor.save_to.name} ({file_status(editor)})", size=17),
        PanelLine(f"tool: {st.tool}   snap: {'on' if st.snap else 'off'}", TOOL, 19, gap=6),
    ]
    if st.form is not None:
        field, text = st.form
        hint = {"height": " (inches; empty: full)", "table": " (width x depth)"}.get(field, "")
        shown = f"[{text}]" if st.form_fresh and text else f"{text}_"
        out.append(PanelLine(f"{field}: {shown}{hint}", HANDLE_FILL, 19))
        if st.form_fresh and text:
            out.append(PanelLine("typing replaces it, Right keeps it to type on", size=15))
        out.append(PanelLine("Enter sets it, Esc leaves it as it was", size=15))
    if st.tool == "model":
        names = profiles(doc)
        current = st.profile % len(names)
        sides = doc.sides  # none yet in a file laid out before its sides
        side = names_of(scenario).get(sides[st.side % len(sides)].id, "") if sides else "none"
        out.append(PanelLine(f"profile (Tab), side {side} (S):", size=17))
        for k in range(max(0, current - 3), min(len(names), current + 4)):
            mark, colour = ("> ", TOOL) if k == current else ("  ", style.TEXT)
            shown = profile_called(names[k], scenario.profiles)
            out.append(PanelLine(f"  {mark}{shown}", colour, 17))
    elif st.tool in ("rectangle", "polygon", "wall"):
        h = "full height" if st.height is None else f'{st.height:g}" high'
        kind = "wall" if st.tool == "wall" else st.kind.value
        out.append(PanelLine(f"new: {kind}, {h} (Tab kind, +/- height)", size=17))
        if st.tool == "polygon":
            out.append(PanelLine(f"{len(st.corners)} corners; Enter closes", size=17))
    out.extend(PanelLine(text, size=17) for text in _selection(editor))
    if st.refused:
        out.append(PanelLine(f"refused: {editor.said(st.refused)}", REFUSED, 17))
    elif st.message:  # said in names already (Editor.called); a warning as play says one
        out.append(PanelLine(st.message, style.WARN if unsaved_warned(st.message) else DONE, 17))
    if ruling is not None:
        called = table_names(scenario)  # as `skirmish lof` says the ruling
        out.append(PanelLine(verdict(ruling, called), TOOL, 17, gap=4))
        out.append(PanelLine(EYE_ELSEWHERE, style.DIM, 15, no_eye=True))
        out.extend(PanelLine(named(text, called), size=15, spare=gives_way(text))
                   for text in ruling.lines()[2:])  # fmt: skip
    return out


def _panel(surface: pygame.Surface, editor: Editor, scenario: Scenario,
           ruled: tuple[LofRuling, Table] | None) -> None:  # fmt: skip
    """The panel at the right: its words from the top, the keys at the foot and the
    selected pair's shooter's-eye view between, where the words leave it its least; as
    wide as `panel_width`, its words grown with the window (`ui_scale`)."""
    size = surface.get_size()
    width, height = size
    ui = ui_scale(size)
    wide = panel_width(size)
    left = width - wide
    pygame.draw.rect(surface, (22, 24, 28), pygame.Rect(left, 0, wide, height))
    x = left + round(PAD * ui)
    top = 10
    keys = editor_keys(editor.has_units)
    rows = keys_rows(size, keys)  # wrapped once a frame: measured and drawn
    below = _rows_top(size, len(rows))
    lines = _panel_lines(editor, scenario, ruled[0] if ruled is not None else None)
    least = 0
    eyed = None
    if ruled is not None and height >= MIN_PANEL_HEIGHT:  # a shorter one keeps its words
        eyed = eye_view(scenario, ruled[1], ruled[0])
        least = max(least_height(eyed, ui), EYE_LEAST) + 12  # its box's margins
    body, free = fitted(lines, lambda line: line_height(line, size), below - top, least)
    y = top
    room = wide - 2 * round(PAD * ui)
    for line in body:
        y += line.gap
        indent = INDENT * (len(line.text) - len(line.text.lstrip(" ")))
        px = round(line.size * ui)
        for row in wrap(line.text, px, room - indent):
            if y + font(px).get_linesize() > below:
                break  # a panel too short for its words: none over the keys
            y = _line(surface, row, (x + indent, y), px, line.colour)
    if ruled is not None and eyed is not None and free is not None:
        box = pygame.Rect(left, y + 4, wide, below - y - 8)
        draw_eye(surface, box, scenario, ruled[0], eyed, ui)
    ky = below
    for text in rows:
        ky = _line(surface, text, (x, ky), round(KEY_SIZE * ui), (170, 170, 170)) - 2


def sides_named(scenario: Scenario) -> str:
    """The table's sides by name, each with its id where the name is not the id made
    readable ("House Orlock (orlock), Blue")."""
    names = names_of(scenario)
    said = [names[s.id] if names[s.id] == readable(s.id) else f"{names[s.id]} ({s.id})"
            for s in scenario.sides]  # fmt: skip
    return ", ".join(said)


def file_status(editor: Editor) -> str:
    """What the file Ctrl+S writes holds: "saved" only when it holds the table as it is
    now (a bundled table opened with --out somewhere else is not written yet)."""
    editing = editor.editing
    path = editing.path
    if editing.saved is None or path is None or editor.save_to.resolve() != path.resolve():
        return "not written yet"
    return "changes not saved" if editing.dirty else "saved"
