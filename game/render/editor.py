"""The table editor (`skirmish edit`): lay out a table with the mouse and keys and save
it as a scenario. The edits, their checks and undo live in game.scenario.editing; this
module turns pygame events into them, and game.render.editor_draw draws the result.

Tools (keys): V select, M models, B rectangles, P polygons (click corners, Enter or a
click on the first corner closes), W walls (drag a line), O objectives. Selecting: a
click on a model, piece or objective; Shift+click a second model to see the ruling of
the pair (the first shoots). A drag moves what it starts on; the handles of a selected
piece resize (corners) and turn it (the round handle), the handle of a selected model
turns it. An edit that would make the table invalid is refused with the reason shown."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import TYPE_CHECKING

from game.display import no_display
from game.paths import shown
from game.render.editor_draw import draw_editor
from game.render.editor_state import HANDLE, Drag, EditorState, panel_width
from game.render.state import DEFAULT_SIZE, UNSAVED_QUIT, Size
from game.render.table import keep_least, save_png
from game.render.unsaved import Asked, asks_first, disarmed, disarms
from game.render.view import View
from game.scenario import PlacedModel
from game.scenario.editing import (
    DEFAULT_THICKNESS,
    GRID,
    PLACES,
    Edit,
    Editing,
    EditRefused,
    add_model,
    add_objective,
    add_polygon,
    add_rectangle,
    add_side,
    add_wall,
    centre,
    corners,
    delete,
    duplicate_model,
    move_model,
    move_piece,
    own_axes,
    profiles,
    resize_piece,
    rotate_piece,
    set_header,
    set_kind,
    set_model,
    set_models,
    set_objective,
    set_piece,
    snap,
    turn_model,
    turned,
)
from game.scenario.model import ObjectiveEntry, SceneryEntry, SceneryKind
from game.scenario.names import (
    ARTICLES,
    kind_words,
    merged,
    objective_names,
    places_named,
    table_names,
    told_names,
    with_article,
)
from game.sequencer.sentences import ToldNames, joined, plural, profile_called, readable

if TYPE_CHECKING:
    from game.geometry import Table
    from game.render.labels import Placed
    from game.scenario import Scenario
    from game.scenario.ruling import LofRuling
    from game.scenario.writer import Document

if no_display():
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

Point = tuple[float, float]
MARGIN = 30
FPS = 60
TOOLS = {
    pygame.K_v: "select",
    pygame.K_m: "model",
    pygame.K_b: "rectangle",
    pygame.K_p: "polygon",
    pygame.K_w: "wall",
    pygame.K_o: "objective",
}
KINDS = tuple(SceneryKind)
NO_SIDES = "no sides yet: Ctrl+N adds one"
# What a tool's key says it does (the panel's header names the tool already: fix10b)
TOOL_SAID = {
    "select": "select: a click picks a model, piece or objective; a drag moves it",
    "model": "models: a click places one (Tab: its profile, S: its side)",
    "rectangle": "boxes: drag one out (K: its kind, +/- or H: its height)",
    "polygon": "polygons: click the corners; Enter or the first corner closes it",
    "wall": "walls: drag a line (+/- or H: its height)",
    "objective": "objectives: a click places one (+/- with one selected: its points)",
}
# the keys a form takes besides those typing a character (Editor.typing)
FORM_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE, pygame.K_BACKSPACE,
             pygame.K_RIGHT, pygame.K_END)  # fmt: skip
NUDGE = 0.1  # inches an arrow key moves the selection (the grid step when snapping)


# What a drag too short to make a piece says (with the snap on, a grid square at least).
NOT_PLACED = {
    "rectangle": f'not placed: drag a box at least {GRID:g}" each way',
    "wall": f'not placed: drag a wall at least {GRID:g}" long',
}


def as_written(refusal: str, typed: str) -> str:
    """A refusal of a typed value with the value as it was typed: "height must be at
    most 100, not '1e9'" rather than "..., got 1000000000.0" (finding 15)."""
    return re.sub(r", got [^,]*$", f", not {typed!r}", refusal)


class Editor:
    """The editor window: an `Editing` (the table, undo, save) and the input on it."""

    def __init__(
        self,
        editing: Editing,
        *,
        size: Size = DEFAULT_SIZE,
        surface: pygame.Surface | None = None,
        save_to: Path | None = None,
    ) -> None:
        self.editing = editing
        self.save_to = save_to or editing.path or Path("skirmish-table.toml")
        self.state = EditorState(view=self.fit(size), size=size)
        self._surface = surface
        self.windowed = False
        self.frames = 0
        self.preview: Edit | None = None  # the drag's edit, drawn over the table
        self.preview_scenario: Scenario | None = None  # what it makes, when it is valid
        self.previewing = False  # the pointer moved during a drag: check it again
        # Q and closing ask first when edits would be lost (not inside skirmish play,
        # where leaving takes the edited table to the game); what it asked of, the
        # table, as the play window keeps its question (game.render.unsaved)
        self.asks_before_quitting = True
        self.asked: Asked | None = None
        # inside skirmish play: the table when leaving found no game on it (editor_mode)
        self.left_unplayable: object = None
        # (scenario drawn, (view, size, handles' boxes), its labels placed): placed
        # again on a change
        self.labels_cache: tuple[Scenario, object, list[Placed]] | None = None
        # (scenario drawn, selected pair, its ruling, its table): made again on a change
        self.ruling_cache: tuple[Scenario, tuple[str, str], LofRuling, Table] | None = None
        # the run of turns of a piece just made (R, the wheel, the round handle): the piece
        # before them, the degrees they add up to and the piece they left. The next turn
        # of it is made from the first, so a turn and its reverse give it back to the last
        # digit (each turn rounded to the 4 places a point is written to would not: fix15c)
        self.turning: tuple[SceneryEntry, float, SceneryEntry] | None = None
        self.turn_asked: tuple[Edit, SceneryEntry, float] | None = None  # the last turn_edit
        # the names of every id the table has had (a deleted model's too: "deleted ...")
        self.seen = told_names(editing.scenario)
        # what each edit kept said, to say it again at undo and redo (Editor._remember)
        self.done: list[str] = []
        self.undone: list[str] = []
        # what a refused edit would have added, by the words the refusal names it with
        self.unmade: dict[str, str] = {}

    @classmethod
    def window(cls, editing: Editing, *, size: Size = DEFAULT_SIZE,
               save_to: Path | None = None) -> Editor:  # fmt: skip
        pygame.display.init()
        pygame.display.set_caption(f"skirmish edit: {editing.doc.header.name}")
        pygame.display.set_mode(size, pygame.RESIZABLE)
        keep_least()
        editor = cls(editing, size=size, save_to=save_to)
        editor.windowed = True
        return editor

    # -- geometry of the window

    def fit(self, size: Size) -> View:
        width, depth = self.editing.doc.header.table
        room_w = max(100, size[0] - panel_width(size) - 2 * MARGIN)
        room_h = max(100, size[1] - 2 * MARGIN)
        scale = max(2.0, min(room_w / width, room_h / depth))
        left = MARGIN + max(0.0, (room_w - width * scale) / 2)
        return View(scale, left, MARGIN)

    @property
    def surface(self) -> pygame.Surface:
        if self.windowed:
            window = pygame.display.get_surface()
            if window is not None:
                return window
        if self._surface is None or self._surface.get_size() != self.state.size:
            self._surface = pygame.Surface(self.state.size)
        return self._surface

    def table_point(self, pos: tuple[int, int]) -> Point:
        return self.state.view.to_table(*pos)

    def placed(self, point: Point) -> Point:
        """Where a point lands: on the grid when snapping."""
        x, y = snap(point) if self.state.snap else point
        return (round(x, PLACES), round(y, PLACES))

    # -- what is under the pointer

    def model_at(self, point: Point) -> str | None:
        best: tuple[float, str] | None = None
        for m in self.editing.scenario.models:
            d = math.dist(point, m.at)
            if d <= m.radius and (best is None or d < best[0]):
                best = (d, m.id)
        return best[1] if best else None

    def objective_at(self, point: Point) -> str | None:
        for o in self.editing.doc.objectives:
            if math.dist(point, o.at) <= 0.4:
                return o.id
        return None

    def piece_at(self, point: Point) -> str | None:
        for p in reversed(self.editing.scenario.scenery):
            if _inside(point, p.footprint):
                return p.id
        return None

    def handles(self) -> list[tuple[str, tuple[float, float], Point]]:
        """(what, screen pixel, table point) of the selection's handles."""
        sel = self.selected_piece()
        view = self.state.view
        out: list[tuple[str, tuple[float, float], Point]] = []
        if sel is not None:
            own = corners(sel)  # on a turned piece's own axes
            for corner in own:
                out.append(("resize", view.to_screen(*corner), corner))
            out.append(("rotate", _beyond_top(view, own), centre(sel)))
        m = self.selected_model()
        if m is not None:
            reach = m.radius + 0.35
            tip = (
                m.at[0] + math.cos(math.radians(m.facing)) * reach,
                m.at[1] + math.sin(math.radians(m.facing)) * reach,
            )
            out.append(("turn", view.to_screen(*tip), tip))
        return out

    def selected_piece(self) -> SceneryEntry | None:
        if len(self.state.selected) != 1:
            return None
        for p in self.editing.doc.scenery:
            if p.id == self.state.selected[0]:
                return p
        return None

    def selected_model(self) -> PlacedModel | None:
        if not self.state.selected:
            return None
        for m in self.editing.scenario.models:
            if m.id == self.state.selected[0]:
                return m
        return None

    def selected_objective(self) -> ObjectiveEntry | None:
        if len(self.state.selected) != 1:
            return None
        for o in self.editing.doc.objectives:
            if o.id == self.state.selected[0]:
                return o
        return None

    # -- edits

    def do(self, edit: Edit, done: str = "") -> bool:
        """Apply an edit; a refused one leaves everything as it was and says why."""
        self.seen = merged(self.seen, told_names(self.editing.scenario))
        try:
            self.editing.apply(edit)
        except EditRefused as why:
            self.refuse(edit, why)
            self.state.message = ""
            return False
        self.state.refused = ""
        self.state.message = done
        if self.turn_asked is not None and self.turn_asked[0] is edit:  # a turn: kept
            _, start, degrees = self.turn_asked
            now = next(p for p in self.editing.doc.scenery if p.id == start.id)
            self.turning = (start, degrees, now)
        live = self.editing.doc.ids()
        self.state.selected = [s for s in self.state.selected if s in live]
        return True

    def undo(self) -> None:
        """Ctrl+Z, saying what it took back: "undone: moved Fusilier 1"."""
        kept, before = len(self.editing.undo_stack), self.editing.doc
        if self.editing.undo():
            what = self.done.pop() if len(self.done) == kept else ""
            self.undone.append(what)
            self.state.message = f"undone: {what}" if what else "undone"
        else:
            self.state.message = "nothing to undo"
        self.state.refused = ""
        self._after_history(before)

    def redo(self) -> None:
        """Ctrl+Y, saying what it made again: "redone: moved Fusilier 1"."""
        before = self.editing.doc
        if self.editing.redo():
            what = self.undone.pop() if self.undone else ""
            self.done.append(what)
            self.state.message = f"redone: {what}" if what else "redone"
        else:
            self.state.message = "nothing to redo"
        self.state.refused = ""
        self._after_history(before)

    def _remember(self) -> None:
        """After an event: a new edit kept is said again by undo and redo as the panel
        said it (its message); the edits undone are gone with the redo an edit drops."""
        made = len(self.editing.undo_stack) - len(self.done)
        if made > 0:  # what it did, without the advice after it ("; give it models ...")
            self.done += [self.state.message.split("; ")[0]] * made
            self.undone = []
        elif made < 0:  # taken back other than by undo (a fresh start): said plainly
            self.done = self.done[:made]

    def _after_history(self, before: Document) -> None:
        """The selection kept through an undo or redo: a piece whose id the edit made up
        again (K: `building-1` back from `obstacle-1`) is the one in its place, still
        selected (fix13e: nothing was); what the step took away is no longer selected."""
        now = self.editing.doc
        live = now.ids()
        was = [p.id for p in before.scenery]
        kept = []
        for s in self.state.selected:
            if s in live:
                kept.append(s)
            elif s in was and len(was) == len(now.scenery):
                again = now.scenery[was.index(s)].id
                if again not in before.ids():  # renamed, not another piece in its place
                    kept.append(again)
        self.state.selected = kept

    def beside(self, m: PlacedModel) -> float:
        """How far right of a model Ctrl+D puts its copy: clear of it by the grid step,
        and with the snap on, on the grid as a model placed is (fix10b: 'at (7.48425,
        20)', written 7.484251968503937)."""
        reach = 2 * m.radius + GRID
        if not self.state.snap:
            return reach
        return math.ceil((m.at[0] + reach) / GRID - 1e-9) * GRID - m.at[0]

    def save(self) -> None:
        try:
            path = self.editing.save(self.save_to)
        except (EditRefused, OSError) as why:
            self.state.refused = f"not saved: {why}"
            return
        self.state.message = f"saved as {shown(path)}"
        self.state.refused = ""
        unplayable = self.editing.scenario.unplayable
        if unplayable:  # valid, kept, but not a game yet (tester7's finding 11)
            first = unplayable[0]
            problem = self.said(f"{first.place} {first.problem}")
            self.state.message += f"; not playable yet: {problem}"

    def said(self, text: str) -> str:
        """What the panel says for a refusal kept with ids (the edits and the checks
        speak in ids): the table's names, as its labels and the ruling say them
        ("Fusilier 2: stands inside the 3.5\" building")."""
        names = merged(self.seen, told_names(self.editing.scenario))
        more = {**objective_names(self.editing.doc.objectives), **self.unmade}
        return places_named(text, merged(names, ToldNames(more, {})))

    def refuse(self, edit: Edit, why: EditRefused) -> None:
        """Keep the reason an edit is refused, and names for what it would have added,
        whose ids were never shown: "the new Zhanshi", 'the new 2\" building'."""
        self.state.refused = str(why)
        doc = self.editing.doc
        try:
            after = edit(doc)
        except (EditRefused, ValueError):
            self.unmade = {}
            return
        known = self.editing.scenario.profiles
        self.unmade = {
            **{m.id: f"the new {profile_called(m.profile, known)}" for m in after.models},
            **{p.id: kind_words(p).replace("the ", "the new ", 1) for p in after.scenery},
            **{o.id: "the new objective" for o in after.objectives},
        }
        for entry_id in doc.ids():
            self.unmade.pop(entry_id, None)

    def called(self, entry_id: str) -> str:
        """A model, side, unit, piece or objective of the table as the window names it
        (its labels, the ruling, the play window): "Fusilier 2", "PanOceania", 'the 3\"
        building', "Objective 1"; one deleted since by the name it had."""
        seen = self.seen
        now = table_names(self.editing.scenario)
        names = {**seen.in_phrases, **seen, **now, **objective_names(self.editing.doc.objectives)}
        return names.get(entry_id) or readable(entry_id)

    # -- input

    def unsaved(self) -> bool:
        """Whether quitting now loses edits: the table differs from what was last saved,
        or, never saved, from what was opened."""
        return self.editing.doc != self.editing.kept

    def quit(self, closing: bool = False) -> None:
        """Q, F2 or closing the window: stop, unless edits would be lost; then say so,
        and a second Q or close straight after, the table unchanged between, stops.
        The warning takes the place of a refusal showing (tester13's finding 1: the
        refusal stayed, the warning unseen, and the next Q quit)."""
        lost = self.editing.doc if self.asks_before_quitting and self.unsaved() else None
        if asks_first(self.asked, "leave", lost):
            again = "close the window again (or Q)" if closing else "Q again"
            self.asked = ("leave", lost)
            self.state.refused = ""
            self.state.message = UNSAVED_QUIT.format(again=again)
            return
        self.state.running = False

    def handle(self, event: pygame.event.Event) -> None:
        if self.asked is not None and disarms(event, self.asked[0]):
            self.asked = None  # a second Q quits only straight after the warning
            self.state.message = disarmed(self.state.message)
        if event.type == pygame.QUIT:
            self.quit(closing=True)
        elif event.type == pygame.VIDEORESIZE:
            self.state.size = (max(400, event.w), max(300, event.h))
            self.state.view = self.fit(self.state.size)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.press(event)
        elif event.type == pygame.MOUSEMOTION:
            self.motion(event)
        elif event.type == pygame.MOUSEBUTTONUP:
            self.release(event)
        elif event.type == pygame.MOUSEWHEEL:
            self.wheel(event)
        elif event.type == pygame.KEYDOWN:
            self.key(event)
        self._remember()

    def press(self, event: pygame.event.Event) -> None:
        st = self.state
        point = self.table_point(event.pos)
        st.pointer = point
        if event.button == 3:
            st.drag = Drag("pan", None, point, point, screen=event.pos, view=st.view)
            return
        if event.button != 1:
            return
        spot = self.placed(point)
        if st.tool == "model":
            names = profiles(self.editing.doc)
            sides = self.editing.doc.sides
            if not sides:  # a file laid out before its sides
                st.refused = NO_SIDES
                return
            side = sides[st.side % len(sides)].id
            profile = names[st.profile % len(names)]
            shown = profile_called(profile, self.editing.scenario.profiles)
            placed = f"placed {with_article(shown)} of {self.called(side)}"
            self.do(add_model(profile, spot, side), placed)
            return
        if st.tool in ("rectangle", "wall"):
            st.drag = Drag(st.tool, None, spot, spot)
            return
        if st.tool == "objective":
            if self.do(add_objective(spot)):
                placed = f"placed {self.called(self.editing.doc.objectives[-1].id)}"
                unscored = self.editing.scenario.ruleset.unscored(1)
                st.message = f"{placed}; {unscored}" if unscored else placed
            return
        if st.tool == "polygon":
            if len(st.corners) >= 3 and math.dist(spot, st.corners[0]) <= max(0.3, GRID / 2):
                self.finish_polygon()
            else:
                st.corners.append(spot)
            return
        # select: the handles of the selection first, then what is under the pointer
        for what, pixel, where in self.handles():
            if (
                abs(pixel[0] - event.pos[0]) <= HANDLE + 2
                and abs(pixel[1] - event.pos[1]) <= HANDLE + 2
            ):
                target = st.selected[0]
                if what == "resize":
                    sel = self.selected_piece()
                    assert sel is not None
                    own = corners(sel)
                    anchor = own[(own.index(where) + 2) % 4]  # the corner across
                    st.drag = Drag("resize", target, point, point, anchor=anchor, corner=where)
                elif what == "rotate":
                    st.drag = Drag("rotate", target, point, point, anchor=where)
                else:
                    st.drag = Drag("turn", target, point, point)
                return
        shift = (
            bool(event.mod & pygame.KMOD_SHIFT)
            if hasattr(event, "mod")
            else bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
        )
        hit = self.model_at(point)
        if hit is not None:
            if (
                shift
                and st.selected
                and st.selected[0] != hit
                and self.selected_model() is not None
            ):
                st.selected = [st.selected[0], hit]
            elif hit not in st.selected:
                st.selected = [hit]
            st.drag = Drag("move-model", hit, point, point)
            return
        hit = self.objective_at(point)
        if hit is not None:
            st.selected = [hit]
            st.drag = Drag("move-objective", hit, point, point)
            return
        hit = self.piece_at(point)
        if hit is not None:
            st.selected = [hit]
            st.drag = Drag("move-piece", hit, point, point)
            return
        st.selected = []

    def drag_edit(self, drag: Drag) -> Edit | None:
        """The edit the drag would make if it ended now (None: nothing yet)."""
        doc = self.editing.doc
        start, at = drag.start, drag.at
        if drag.kind == "move-model" and drag.target is not None:
            m = next(m for m in doc.models if m.id == drag.target)
            spot = (m.at[0] + at[0] - start[0], m.at[1] + at[1] - start[1])
            return move_model(drag.target, self.placed(spot)) if at != start else None
        if drag.kind == "move-objective" and drag.target is not None:
            o = next(o for o in doc.objectives if o.id == drag.target)
            spot = (o.at[0] + at[0] - start[0], o.at[1] + at[1] - start[1])
            return set_objective(drag.target, at=self.placed(spot)) if at != start else None
        if drag.kind == "move-piece" and drag.target is not None:
            dx, dy = at[0] - start[0], at[1] - start[1]
            if self.state.snap:
                dx, dy = snap((dx, dy))
            return move_piece(drag.target, dx, dy) if (dx, dy) != (0, 0) else None
        if drag.kind == "turn" and drag.target is not None:
            m = next(m for m in doc.models if m.id == drag.target)
            facing = math.degrees(math.atan2(at[1] - m.at[1], at[0] - m.at[0]))
            if self.state.snap:
                facing = round(facing / 15) * 15
            return turn_model(drag.target, facing)
        if drag.kind == "rotate" and drag.target is not None:
            degrees = self.rotation(drag)
            return self.turn_edit(drag.target, degrees) if degrees else None
        if drag.kind == "resize" and drag.target is not None:
            ax, ay = drag.anchor
            cx, cy = drag.corner
            nx, ny = self.placed((cx + at[0] - start[0], cy + at[1] - start[1]))
            # along the piece's own axes: a turned box stretches as a box (`own_axes`)
            degrees = own_axes(next(p for p in doc.scenery if p.id == drag.target))
            (ox, oy), (mx, my) = (turned((x - ax, y - ay), -degrees)
                                  for x, y in ((cx, cy), (nx, ny)))  # fmt: skip
            if abs(ox) < 1e-9 and abs(oy) < 1e-9:
                return None
            # a straight wall has no depth along one axis: it stretches along the other
            fx = mx / ox if abs(ox) >= 1e-9 else 1.0
            fy = my / oy if abs(oy) >= 1e-9 else 1.0
            if (round(fx, 9), round(fy, 9)) == (1, 1):
                return None
            return resize_piece(drag.target, drag.anchor, fx, fy, degrees)
        if drag.kind == "rectangle" and at[0] != start[0] and at[1] != start[1]:
            return add_rectangle(start, at, self.state.kind, self.state.height)
        if drag.kind == "wall" and at != start:
            return add_wall(start, at, self.state.height, DEFAULT_THICKNESS)
        return None

    def turn_edit(self, piece_id: str, degrees: float) -> Edit:
        """The turn of a piece by `degrees`, made from the piece before the run of turns
        of it just made (`turning`), where it is as they left it."""
        now = next(p for p in self.editing.doc.scenery if p.id == piece_id)
        run = self.turning
        start, before = (run[0], run[1]) if run is not None and run[2] == now else (now, 0.0)
        edit = rotate_piece(piece_id, before + degrees, start)
        self.turn_asked = (edit, start, before + degrees)
        return edit

    def rotation(self, drag: Drag) -> float:
        """The degrees the round handle dragged turns its piece (by 15 with the snap)."""
        (cx, cy), start, at = drag.anchor, drag.start, drag.at
        a0 = math.atan2(start[1] - cy, start[0] - cx)
        a1 = math.atan2(at[1] - cy, at[0] - cx)
        degrees = math.degrees(a1 - a0)
        return round(degrees / 15) * 15 if self.state.snap else degrees

    def motion(self, event: pygame.event.Event) -> None:
        st = self.state
        point = self.table_point(event.pos)
        st.pointer = point
        drag = st.drag
        if drag is None:
            return
        if drag.kind == "pan" and drag.view is not None:
            dx, dy = event.pos[0] - drag.screen[0], event.pos[1] - drag.screen[1]
            st.view = drag.view.panned(dx, dy)
            return
        drag.at = point if drag.kind in ("move-model", "move-piece", "move-objective", "turn",
                                         "rotate", "resize") else self.placed(point)  # fmt: skip
        self.previewing = True  # checked once a frame, not at every motion

    def preview_drag(self) -> None:
        """Check what the drag would make now: drawn when valid, the reason when not."""
        self.previewing = False
        st = self.state
        drag = st.drag
        edit = self.drag_edit(drag) if drag is not None and drag.kind != "pan" else None
        self.preview = edit
        if edit is None:
            self.preview_scenario = None
            st.refused = ""
            return
        try:
            _, self.preview_scenario = self.editing.trial(edit)
            st.refused = ""
        except EditRefused as why:
            self.preview_scenario = None
            self.refuse(edit, why)

    def release(self, event: pygame.event.Event) -> None:
        st = self.state
        drag = st.drag
        st.drag = None
        self.preview = None
        self.preview_scenario = None
        self.previewing = False
        if drag is None or drag.kind == "pan" or event.button != 1:
            return
        drag.at = self.table_point(event.pos)
        if drag.kind in ("rectangle", "wall"):
            drag.at = self.placed(drag.at)
        edit = self.drag_edit(drag)
        if edit is None:
            # a drag too short to make anything says so (it went unsaid: finding 15)
            st.refused = NOT_PLACED.get(drag.kind, "")
            return
        what = self.called(drag.target) if drag.target is not None else ""
        if self.do(edit, _done(drag.kind, what)) and drag.kind in ("rectangle", "wall"):
            new = self.editing.doc.scenery[-1].id
            st.selected = [new]
            st.message = self.placed_piece(new)

    def wheel(self, event: pygame.event.Event) -> None:
        st = self.state
        m = self.selected_model()
        step = 5 if pygame.key.get_mods() & pygame.KMOD_SHIFT else 15
        if m is not None or self.selected_piece() is not None:
            self.turn(step * event.y)
        else:
            pos = pygame.mouse.get_pos()
            st.view = st.view.zoomed(1.1**event.y, (float(pos[0]), float(pos[1])))

    def finish_polygon(self) -> None:
        st = self.state
        corners, st.corners = st.corners, []
        if self.do(add_polygon(corners, st.kind, st.height)):
            new = self.editing.doc.scenery[-1].id
            st.selected = [new]
            st.message = self.placed_piece(new)

    def placed_piece(self, piece_id: str) -> str:
        """What placing a piece says: 'placed the 2" wall'; one of a name another piece
        has, numbered as the names say it, with its kind ('placed another 2" wall: 2"
        wall 2'; fix10b: 'placed 2" wall (wall-1)' had no article and showed an id)."""
        name = self.called(piece_id)
        if name.lower().startswith(ARTICLES):
            return f"placed {name}"
        piece = next(p for p in self.editing.doc.scenery if p.id == piece_id)
        return f"placed another {kind_words(piece).removeprefix('the ')}: {name}"

    def key(self, event: pygame.event.Event) -> None:
        st = self.state
        mod = event.mod
        ctrl = bool(mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
        shift = bool(mod & pygame.KMOD_SHIFT)
        k = event.key
        if st.form is not None:
            self.typing(event)
            return
        if ctrl:
            if k == pygame.K_z:
                self.redo() if shift else self.undo()
            elif k == pygame.K_y:
                self.redo()
            elif k == pygame.K_s:
                self.save()
            elif k == pygame.K_d and (m := self.selected_model()) is not None:
                name = self.called(m.id)
                if self.do(duplicate_model(m.id, (self.beside(m), 0.0))):
                    copy = self.editing.doc.models[-1].id
                    st.selected = [copy]
                    st.message = f"copied {name}: {self.called(copy)}"
                else:  # the copy's id was never shown: say it is the copy
                    why = re.sub(r"^model '[^']*': ", "", st.refused)
                    st.refused = f"not copied: the copy of {name} beside it: {why}"
            elif k == pygame.K_n and self.do(add_side()):
                new = self.called(self.editing.doc.sides[-1].id)
                st.message = f"added a side, {new}; give it models (M, then S) to play it"
            return
        if k in TOOLS:
            st.tool = TOOLS[k]
            st.corners = []
            if st.tool != "select":
                st.selected = []  # keys then set what the tool places
            st.message = TOOL_SAID[st.tool]
        elif k == pygame.K_ESCAPE:
            if st.corners:
                st.corners = []
            elif st.tool != "select":
                st.tool = "select"
            else:
                st.selected = []
            st.drag = None
            self.preview = None
            self.preview_scenario = None
        elif k in (pygame.K_q, pygame.K_F2):
            self.quit()
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER) and st.tool == "polygon":
            self.finish_polygon()
        elif k in (pygame.K_DELETE, pygame.K_BACKSPACE):
            if st.corners:
                st.corners.pop()
            elif st.selected:
                gone = list(st.selected)
                self.do(delete(*gone), f"deleted {joined([self.called(e) for e in gone])}")
        elif k == pygame.K_TAB:
            step = -1 if shift else 1
            if st.tool == "model":
                st.profile += step
            else:
                st.kind = KINDS[(KINDS.index(st.kind) + step) % len(KINDS)]
        elif k == pygame.K_g:
            st.snap = not st.snap
            st.message = f'snap to the {GRID:g}" grid: {"on" if st.snap else "off"}'
        elif k == pygame.K_k:
            self.cycle_kind(-1 if shift else 1)
        elif k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS, pygame.K_MINUS,
                   pygame.K_KP_MINUS):  # fmt: skip
            up = k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)
            self.step_value((0.1 if shift else 0.5) * (1 if up else -1))
        elif k == pygame.K_f:
            self.full_height()
        elif k in (pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET):
            self.thicker(0.05 if k == pygame.K_RIGHTBRACKET else -0.05)
        elif k == pygame.K_r:
            self.turn(-15 if shift else 15)
        elif k == pygame.K_s:
            self.cycle_side()
        elif k == pygame.K_u:
            self.cycle_unit()
        elif k == pygame.K_t:
            self.cycle_state()
        elif k == pygame.K_n:
            st.form, st.form_fresh = ("name", self.editing.doc.header.name), True
        elif k == pygame.K_h:
            p = self.selected_piece()
            height = p.height if p is not None else st.height
            st.form, st.form_fresh = ("height", "" if height is None else f"{height:g}"), True
        elif k == pygame.K_x:
            w, d = self.editing.doc.header.table
            st.form, st.form_fresh = ("table", f"{w:g}x{d:g}"), True
        elif k == pygame.K_y:
            turns = self.editing.doc.header.turns + (-1 if shift else 1)
            word = self.editing.scenario.ruleset.turn_word
            self.do(set_header(turns=turns), f"the game lasts {plural(turns, word)}")
        elif k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            dx = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1}.get(k, 0)
            dy = {pygame.K_UP: -1, pygame.K_DOWN: 1}.get(k, 0)
            if mod & pygame.KMOD_ALT:
                w, d = self.editing.doc.header.table
                self.do(set_header(table=(w + dx, d + dy)), f'the table is {w + dx:g}x{d + dy:g}"')
                st.view = self.fit(st.size)
            else:
                self.nudge(dx, dy)
        elif k == pygame.K_F12:
            self.save_screenshot(Path("skirmish-edit.png"))

    def typing(self, event: pygame.event.Event) -> None:
        """A small form: one field typed in the panel, Enter sets it, Esc leaves it. It
        opens showing the value it had, as if selected: the first key typed replaces
        it, Backspace clears it (tester7's finding 14: '2.5' typed over 2.5 read
        '2.52.5'); the Right arrow keeps it to type on after it."""
        st = self.state
        assert st.form is not None
        field, text = st.form
        typed = bool(event.unicode) and event.unicode.isprintable()
        if event.key not in FORM_KEYS and not typed:
            return  # Shift and other keys with no character: the value stays selected
        fresh, st.form_fresh = st.form_fresh, False
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            st.form = None
            self.fill(field, text.strip())
        elif event.key == pygame.K_ESCAPE:
            st.form = None
        elif event.key == pygame.K_BACKSPACE:
            st.form = (field, "" if fresh else text[:-1])
        elif event.key in (pygame.K_RIGHT, pygame.K_END):
            pass  # the value kept, the next key typed after it
        elif typed:
            st.form = (field, event.unicode if fresh else text + event.unicode)

    def fill(self, field: str, text: str) -> None:
        """Set what a form's field names: the table's name or size, a height."""
        st = self.state
        if field == "name":
            if text:
                self.do(set_header(name=text), f'the table is called "{text}"')
            return
        if field == "table":
            w, _, d = text.lower().partition("x")
            try:
                size = (float(w), float(d))
            except ValueError:
                st.refused = f"table: {text!r} is not a size like 24x24"
                return
            if self.do(set_header(table=size), f'the table is {size[0]:g}x{size[1]:g}"'):
                st.view = self.fit(st.size)
            else:
                typed = d if "depth" in st.refused else w
                st.refused = as_written(st.refused, typed.strip())
            return
        # height: a number of inches, or nothing for full height
        try:
            height = None if text in ("", "full") else float(text)
        except ValueError:
            st.refused = f"height: {text!r} is not a number of inches"
            return
        p = self.selected_piece()
        if p is None:
            if height is None or 0 < height < math.inf:
                st.height = height
            else:
                st.refused = f"height must be a number of inches above 0, not {text!r}"
            return
        said = "full height" if height is None else f'{height:g}" high'
        if not self.do(set_piece(p.id, height=height), f"{self.called(p.id)} is now {said}"):
            st.refused = as_written(st.refused, text)

    def cycle_kind(self, step: int) -> None:
        p = self.selected_piece()
        if p is None:
            self.state.kind = KINDS[(KINDS.index(self.state.kind) + step) % len(KINDS)]
            return
        if p.line is not None:
            self.state.refused = "a wall drawn as a line stays a wall"
            return
        kind = KINDS[(KINDS.index(p.kind) + step) % len(KINDS)]
        said = f"{self.called(p.id)} is now {with_article(kind.value)}"
        at = self.editing.doc.scenery.index(p)
        if self.do(set_kind(p.id, kind), said):  # its id may be made up again: still selected
            self.state.selected = [self.editing.doc.scenery[at].id]

    def step_value(self, delta: float) -> None:
        """Height of the selected piece (or of new ones); points of an objective."""
        o = self.selected_objective()
        if o is not None:
            points = o.points + (1 if delta > 0 else -1)
            said = f"{self.called(o.id)} is now worth {plural(points, 'point')}"
            self.do(set_objective(o.id, points=points), said)
            return
        p = self.selected_piece()
        current = p.height if p is not None else self.state.height
        height = round((current if current is not None else 6.0) + delta, 3)
        if p is None:
            if height > 0:
                self.state.height = height
            return
        self.do(set_piece(p.id, height=height), f'{self.called(p.id)} is now {height:g}" high')

    def full_height(self) -> None:
        p = self.selected_piece()
        if p is None:
            self.state.height = None
        else:
            self.do(set_piece(p.id, height=None), f"{self.called(p.id)} is now full height")

    def thicker(self, delta: float) -> None:
        p = self.selected_piece()
        if p is not None and p.line is not None:
            thickness = round(p.thickness + delta, 3)
            said = f'{self.called(p.id)} is now {thickness:g}" thick'
            self.do(set_piece(p.id, thickness=thickness), said)

    def turn(self, degrees: float) -> None:
        m = self.selected_model()
        if m is not None:
            self.do(turn_model(m.id, m.facing + degrees), f"turned {self.called(m.id)}")
        elif (p := self.selected_piece()) is not None:
            self.do(self.turn_edit(p.id, degrees), f"turned {self.called(p.id)}")

    def cycle_side(self) -> None:
        sides = [s.id for s in self.editing.doc.sides]
        m = self.selected_model()
        if m is None and not sides:
            self.state.refused = NO_SIDES
            return
        if m is None:
            self.state.side += 1
            joins = self.called(sides[self.state.side % len(sides)])
            self.state.message = f"new models join {joins}"
            return
        side = sides[(sides.index(m.side) + 1) % len(sides)]
        # a unit is one side's: a model changing sides leaves a unit it shares with others
        shared = m.unit is not None and any(
            x.unit == m.unit and x.id != m.id for x in self.editing.doc.models
        )
        name, joins = self.called(m.id), self.called(side)
        if shared:
            out = f"{name} joins {joins}, out of {self.called(str(m.unit))}"
            self.do(set_model(m.id, side=side, unit=None), out)
        else:
            self.do(set_model(m.id, side=side), f"{name} joins {joins}")

    def cycle_unit(self) -> None:
        """The selected model's unit: none, then each unit of its own side, then a new
        one (never another side's: tester7's finding 13)."""
        m = self.selected_model()
        if m is None:
            return
        if not self.has_units:
            self.state.refused = f"{self.editing.scenario.ruleset.title} has no units"
            return
        models = self.editing.doc.models
        every = {x.unit for x in models if x.unit is not None}
        others = {x.unit for x in models if x.unit is not None and x.side != m.side}
        alone = m.unit is not None and not any(x.unit == m.unit and x.id != m.id for x in models)
        units = sorted(every - others - ({m.unit} if alone else set()))
        # a unit of its own stands last, as a new one would: the next press wraps round
        fresh = next(f"unit-{c}" for c in "abcdefghijklmnopqrstuvwxyz" if f"unit-{c}" not in every)
        choices: list[str | None] = [None, *units, m.unit if alone else fresh]
        at = choices.index(m.unit) if m.unit in choices else 0
        unit = choices[(at + 1) % len(choices)]
        name = self.called(m.id)
        if unit is None:
            said = f"{name} leaves {self.called(str(m.unit))}: in no unit"
        else:  # a new unit is named as the panel will name it (its id made readable)
            said = f"{name} joins {self.called(unit)}"
        self.do(set_model(m.id, unit=unit), said)

    @property
    def has_units(self) -> bool:
        """Whether the rule system groups models in units (its profile reads `unit`)."""
        return "unit" in self.editing.scenario.ruleset.profile_model.SCENARIO_FIELDS

    def cycle_state(self) -> None:
        """T: the selected model's next state the rule system lets it start in where it
        stands, of those it offers (`Ruleset.offered_states`; fix10b: a lone fighter was
        made 'engaged', which needs an enemy in base contact); a state the system has a
        unit share is the whole unit's."""
        m = self.selected_model()
        if m is None:
            return
        states: list[str | None] = [None, *self.editing.scenario.ruleset.offered_states]
        current = m.state if m.state in states else None
        at = states.index(current)
        unit = [x.id for x in self.editing.doc.models if m.unit is not None and x.unit == m.unit]
        name = self.called(m.id)
        refused = ""
        for state in states[at + 1 :] + states[:at]:
            said = f"is now {state.replace('-', ' ')}" if state else "has no state set"
            if self.do(set_model(m.id, state=state), f"{name} {said}"):
                return
            refused = refused or self.state.refused
            if len(unit) > 1:
                whole = f"{name} and the rest of {self.called(str(m.unit))}"
                said = f"are now {state.replace('-', ' ')}" if state else "have no state set"
                if self.do(set_models(unit, state=state), f"{whole} {said}"):
                    return
        self.state.refused = refused

    def nudge(self, dx: int, dy: int) -> None:
        step = GRID if self.state.snap else NUDGE
        m, p, o = self.selected_model(), self.selected_piece(), self.selected_objective()
        if m is not None:
            at = (round(m.at[0] + dx * step, 4), round(m.at[1] + dy * step, 4))
            self.do(move_model(m.id, at), f"moved {self.called(m.id)}")
        elif p is not None:
            self.do(move_piece(p.id, dx * step, dy * step), f"moved {self.called(p.id)}")
        elif o is not None:
            at = (o.at[0] + dx * step, o.at[1] + dy * step)
            self.do(set_objective(o.id, at=at), f"moved {self.called(o.id)}")

    # -- the loop

    def frame(self) -> None:
        for event in pygame.event.get():
            self.handle(event)
            if not self.state.running:
                return
        if self.previewing:
            self.preview_drag()
        self.draw()
        if self.windowed:
            pygame.display.flip()
        self.frames += 1

    def draw(self) -> pygame.Surface:
        surface = self.surface
        draw_editor(surface, self)
        return surface

    def run(self, frames: int | None = None) -> None:
        clock = pygame.time.Clock()
        while self.state.running and (frames is None or self.frames < frames):
            self.frame()
            if self.windowed:
                clock.tick(FPS)

    def save_screenshot(self, path: Path) -> None:
        save_png(self.draw(), path)


def _beyond_top(view: View, own: list[Point]) -> tuple[float, float]:
    """Where a piece's turn handle sits: 24 pixels out from the middle of its top side,
    square to it (fix13e: a turned box's sat above its table-aligned bounds, off it)."""
    (ax, ay), (bx, by) = view.to_screen(*own[0]), view.to_screen(*own[1])
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = by - ay, ax - bx  # the side turned a quarter, outward (up while unturned)
    length = math.hypot(dx, dy)
    if length == 0:  # an upright wall drawn as a line: no top side, straight up
        return (mx, my - 24)
    return (mx + 24 * dx / length, my + 24 * dy / length)


def _done(kind: str, what: str) -> str:
    """What a drag did to `what` (its name): "moved Fusilier 1", 'resized the 3" building'."""
    verb = {
        "move-model": "moved",
        "move-piece": "moved",
        "move-objective": "moved",
        "turn": "turned",
        "rotate": "turned",
        "resize": "resized",
    }.get(kind)
    return f"{verb} {what}" if verb and what else ""


def _inside(point: Point, polygon: tuple[Point, ...]) -> bool:
    """Point in polygon (even-odd rule)."""
    x, y = point
    inside = False
    n = len(polygon)
    for i in range(n):
        (x0, y0), (x1, y1) = polygon[i], polygon[(i + 1) % n]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside
