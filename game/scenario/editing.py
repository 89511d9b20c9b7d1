"""Laying out a table: edits of a scenario `Document`, each checked as a scenario file is
checked, with undo and redo. No pygame: the editor window (game.render.editor) turns
mouse and keys into these calls.

Every edit is a pure function `Document -> Document`; `Editing.apply` checks the result
(`check_document`, the same checks as a file on disk) and keeps it, or raises
`EditRefused` with the reason and changes nothing. A table that would be invalid (bases
overlapping, a polygon crossing itself, something off the table) is never kept, so it
is never saved."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

from game.errors import InputError
from game.rules.registry import find_ruleset
from game.scenario.load import in_our_words, rule_data
from game.scenario.model import (
    Header,
    ModelEntry,
    ObjectiveEntry,
    SceneryEntry,
    SceneryKind,
    SideEntry,
    folded,
)
from game.scenario.scenario import Scenario
from game.scenario.writer import Document, check_document, read_document, write_scenario

Point = tuple[float, float]
Edit = Callable[[Document], Document]
E = TypeVar("E", ModelEntry, SceneryEntry, ObjectiveEntry)

DEFAULT_SIDES = ("blue", "red")
DEFAULT_THICKNESS = 0.25
GRID = 0.5  # inches between snap points
PLACES = 4  # decimal places of a point the editor places (Editor.placed) or reshapes


class EditRefused(Exception):
    """An edit that would make the table invalid; the message is the reason."""


def snap(point: Point, grid: float = GRID) -> Point:
    """The nearest grid point."""
    return (round(point[0] / grid) * grid, round(point[1] / grid) * grid)


def new_document(ruleset: str, name: str = "New table", table: Point = (24.0, 24.0)) -> Document:
    """An empty table of `ruleset` with two sides, a person's and the computer's."""
    rs = find_ruleset(ruleset)
    sides = (SideEntry(id=DEFAULT_SIDES[0], player="human"), SideEntry(id=DEFAULT_SIDES[1]))
    return Document(header=Header(name=name, ruleset=rs.name, table=table), sides=sides)


def profiles(doc: Document) -> list[str]:
    """The profile names a model on this table may have: the rule system's bundled
    ones (assets/<system>/profiles.toml) and the scenario's own."""
    names = list(rule_data(doc.header.ruleset)[0])
    for key, tables in doc.rule_tables:
        if key == "profile":
            names += [str(t["name"]) for t in tables if t.get("name") not in names]
    return names


def fresh_id(doc: Document, stem: str) -> str:
    """`stem-N` for the lowest N not taken."""
    taken = doc.ids()
    n = 1
    while f"{stem}-{n}" in taken:
        n += 1
    return f"{stem}-{n}"


# ------------------------------------------------------------------------ lookups


def model(doc: Document, model_id: str) -> ModelEntry:
    for m in doc.models:
        if m.id == model_id:
            return m
    raise EditRefused(f"no model {model_id!r}")


def piece(doc: Document, piece_id: str) -> SceneryEntry:
    for p in doc.scenery:
        if p.id == piece_id:
            return p
    raise EditRefused(f"no scenery {piece_id!r}")


def objective(doc: Document, objective_id: str) -> ObjectiveEntry:
    for o in doc.objectives:
        if o.id == objective_id:
            return o
    raise EditRefused(f"no objective {objective_id!r}")


def _with_model(doc: Document, new: ModelEntry) -> Document:
    return replace(doc, models=tuple(new if m.id == new.id else m for m in doc.models))


def _with_piece(doc: Document, new: SceneryEntry) -> Document:
    return replace(doc, scenery=tuple(new if p.id == new.id else p for p in doc.scenery))


def _changed(entry: E, **values: object) -> E:
    # through validation, so a bad value (a negative height) is refused with its reason
    return type(entry).model_validate(entry.model_dump() | values)


# ------------------------------------------------------------------------- models


def facing_the_enemy(doc: Document, side: str, at: Point) -> float:
    """Where a player sets a new model of `side` down facing: toward the middle of the
    other sides' models, or the table's middle while there are none (whole degrees, 0
    east, in (-180, 180]); east where it stands on that very point."""
    others = [m.at for m in doc.models if m.side != side]
    width, depth = doc.header.table
    aims = [(width / 2, depth / 2)]
    if others:
        xs, ys = zip(*others, strict=True)
        aims.insert(0, (sum(xs) / len(xs), sum(ys) / len(ys)))
    for x, y in aims:
        if math.hypot(x - at[0], y - at[1]) > 1e-9:
            angle = round(math.degrees(math.atan2(y - at[1], x - at[0])))
            return 180.0 if angle == -180 else float(angle)
    return 0.0


def add_model(profile: str, at: Point, side: str, facing: float | None = None) -> Edit:
    """A model of `profile` and `side` set down at `at`, facing `facing` or, without one,
    toward the enemy (`facing_the_enemy`)."""

    def edit(doc: Document) -> Document:
        if profile not in profiles(doc):
            raise EditRefused(f"no profile {profile!r} in {doc.header.ruleset}")
        faces = facing_the_enemy(doc, side, at) if facing is None else facing
        new = ModelEntry(id=fresh_id(doc, profile), side=side, profile=profile, at=at, facing=faces)
        return replace(doc, models=(*doc.models, new))

    return edit


def move_model(model_id: str, at: Point) -> Edit:
    return lambda doc: _with_model(doc, _changed(model(doc, model_id), at=at))


def turn_model(model_id: str, facing: float) -> Edit:
    # facing kept in (-180, 180]
    angle = (facing + 180.0) % 360.0 - 180.0
    angle = 180.0 if angle == -180.0 else angle
    return lambda doc: _with_model(doc, _changed(model(doc, model_id), facing=round(angle, 6)))


def set_model(model_id: str, **values: object) -> Edit:
    """Side, unit, state (None clears unit and state)."""

    def edit(doc: Document) -> Document:
        m = model(doc, model_id)
        side = values.get("side")
        if side is not None and side not in {s.id for s in doc.sides}:
            raise EditRefused(f"no side {side!r}")
        return _with_model(doc, _changed(m, **values))

    return edit


def set_models(model_ids: Sequence[str], **values: object) -> Edit:
    """`set_model` on several models in one edit (a unit's state: one undo takes it back)."""
    edits = [set_model(model_id, **values) for model_id in model_ids]

    def edit(doc: Document) -> Document:
        for each in edits:
            doc = each(doc)
        return doc

    return edit


def duplicate_model(model_id: str, offset: Point) -> Edit:
    def edit(doc: Document) -> Document:
        m = model(doc, model_id)
        at = (round(m.at[0] + offset[0], 4), round(m.at[1] + offset[1], 4))  # as placed
        # a name is one's, and so is being the Lieutenant (a side has one: FACTS 3.4)
        copy = _changed(m, id=fresh_id(doc, m.profile), at=at, name=None, lieutenant=False)
        return replace(doc, models=(*doc.models, copy))

    return edit


def delete(*entry_ids: str) -> Edit:
    """Delete models, pieces or objectives, all in one edit (one undo brings them back)."""
    gone = frozenset(entry_ids)

    def edit(doc: Document) -> Document:
        for entry_id in entry_ids:
            if entry_id not in doc.ids() or any(s.id == entry_id for s in doc.sides):
                raise EditRefused(f"nothing to delete called {entry_id!r}")
        return replace(
            doc,
            models=tuple(m for m in doc.models if m.id not in gone),
            scenery=tuple(p for p in doc.scenery if p.id not in gone),
            objectives=tuple(o for o in doc.objectives if o.id not in gone),
        )

    return edit


# ------------------------------------------------------------------------ scenery


def add_rectangle(a: Point, b: Point, kind: SceneryKind, height: float | None) -> Edit:
    (x0, y0), (x1, y1) = a, b
    x0, x1 = sorted((x0, x1))
    y0, y1 = sorted((y0, y1))
    return add_polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], kind, height)


def add_polygon(points: Sequence[Point], kind: SceneryKind, height: float | None) -> Edit:
    def edit(doc: Document) -> Document:
        if len(points) < 3:
            raise EditRefused(f"a polygon needs 3 corners or more, not {len(points)}")
        new = SceneryEntry(
            id=fresh_id(doc, kind.value), kind=kind, height=height, polygon=list(points)
        )
        return replace(doc, scenery=(*doc.scenery, new))

    return edit


def add_wall(
    a: Point, b: Point, height: float | None, thickness: float = DEFAULT_THICKNESS
) -> Edit:
    def edit(doc: Document) -> Document:
        if a == b:
            raise EditRefused("a wall needs two different ends")
        new = SceneryEntry(
            id=fresh_id(doc, "wall"),
            kind=SceneryKind.WALL,
            height=height,
            line=[a, b],
            thickness=thickness,
        )
        return replace(doc, scenery=(*doc.scenery, new))

    return edit


def _points(p: SceneryEntry) -> list[Point]:
    return list(p.polygon if p.polygon is not None else p.line or [])


def _reshaped(p: SceneryEntry, points: list[Point]) -> SceneryEntry:
    """`p` with its points moved; its `axes` key gone where its sides now give its axes
    (a turned rhombus stretched square: validate says the key is not read there)."""
    new = _changed(p, polygon=points) if p.polygon is not None else _changed(p, line=points)
    return _changed(new, axes=None) if new.axes is not None and new.shape_axes is not None else new


def centre(p: SceneryEntry) -> Point:
    """What a piece turns about: the middle of its bounds along its own axes (`corners`;
    of its points' bounding box where its axes are the table's), a point a turn does not
    move, the bounds turning with the piece. The middle of the table-aligned bounding box
    moved under a turn of a triangle, so a turn and its reverse moved it (fix15c)."""
    (x0, y0), _, (x1, y1), _ = corners(p)
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def bounds(p: SceneryEntry) -> tuple[float, float, float, float]:
    pts = _points(p)
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    return min(xs), min(ys), max(xs), max(ys)


def _as_placed(points: Iterable[Point]) -> list[Point]:
    """Points a move, turn or stretch made, to the 4 places a point placed has
    (tester13's finding 18: a turned piece was written [13.651923788646684, ...] in a
    file otherwise as its author wrote it); a quarter turn comes out whole."""
    return [(round(x, PLACES) + 0.0, round(y, PLACES) + 0.0) for x, y in points]


def move_piece(piece_id: str, dx: float, dy: float) -> Edit:
    def edit(doc: Document) -> Document:
        p = piece(doc, piece_id)
        return _with_piece(doc, _reshaped(p, _as_placed((x + dx, y + dy) for x, y in _points(p))))

    return edit


def rotate_piece(piece_id: str, degrees: float, start: SceneryEntry | None = None) -> Edit:
    """Turn a piece about its `centre` (positive: clockwise on screen), a point the turn
    does not move, so a turn and its reverse give the piece back to the 4 places a turned
    point is written to. `start`: the piece as it stood before turns of it that, with
    this one, add up to `degrees` (the editor's run of turns): the turn is made from it,
    so turns that add up to none give it back to the last digit."""

    def edit(doc: Document) -> Document:
        p = piece(doc, piece_id)
        base = p if start is None else start
        if abs(math.remainder(degrees, 360.0)) < 1e-9:  # turned back: as it stood
            new = _reshaped(p, _points(base))
        else:
            cx, cy = centre(base)
            t = math.radians(degrees)
            c, s = math.cos(t), math.sin(t)
            pts = _as_placed(
                (cx + c * (x - cx) - s * (y - cy), cy + s * (x - cx) + c * (y - cy))
                for x, y in _points(base)
            )
            new = _reshaped(p, pts)
        # the axes turn with it; kept in the file where the shape does not tell them (a
        # triangle: fix15b, lost when the file was opened again)
        turned_axes = round(folded(own_axes(base) + degrees), PLACES)
        axes = None if new.shape_axes is not None else turned_axes
        return _with_piece(doc, _changed(new, axes=axes or None))

    return edit


def turned(point: Point, degrees: float) -> Point:
    """`point` turned about (0, 0) by `degrees` (positive: clockwise on screen)."""
    t = math.radians(degrees)
    c, s = math.cos(t), math.sin(t)
    return (c * point[0] - s * point[1], s * point[0] + c * point[1])


def frame(p: SceneryEntry) -> float:
    """The degrees a piece's own axes are turned from the table's, where its shape tells
    them: a piece whose sides all lie along two axes at right angles (a box, an L- or
    T-shaped building, a straight wall or one bent square) turned by R or a handle is
    turned with them; any other, 0 (the axes a turn gave such a piece are its `axes`
    key: `own_axes`)."""
    told = p.shape_axes
    return 0.0 if told is None else told


def own_axes(p: SceneryEntry) -> float:
    """The degrees piece `p`'s own axes are turned from the table's, that its handles
    sit on and a stretch follows: as its shape tells them (`frame`), else as its `axes`
    key keeps them (a triangle turned in the editor, saved and opened again: fix15b;
    session 13's leftover before it, a triangle turned 30 degrees stretched along the
    table's axes, sheared), else the table's."""
    told = p.shape_axes
    if told is not None:
        return told
    return folded(p.axes) if p.axes is not None else 0.0


def corners(p: SceneryEntry, degrees: float | None = None) -> list[Point]:
    """The corners of a piece's bounds along its own axes (turned `degrees`, else as
    `own_axes` tells them), clockwise on screen from the top left as the piece stood before
    it was turned: a turned piece's own corners (tester13's finding 18: after a turn the
    handles sat off the piece). A straight wall's are its two ends, each twice."""
    if degrees is None:
        degrees = own_axes(p)
    own = [turned(q, -degrees) for q in _points(p)]
    xs, ys = [x for x, _ in own], [y for _, y in own]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    return [turned(q, degrees) for q in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]


def resize_piece(piece_id: str, anchor: Point, fx: float, fy: float, degrees: float = 0.0) -> Edit:
    """Stretch a piece by `fx` along its own first axis and `fy` along its second (its
    axes turned `degrees` from the table's: `own_axes`), `anchor` staying where it is."""

    def edit(doc: Document) -> Document:
        if fx <= 0 or fy <= 0:
            raise EditRefused("a piece cannot be turned inside out")
        p = piece(doc, piece_id)
        ax, ay = anchor

        def stretched(x: float, y: float) -> Point:
            ox, oy = turned((x - ax, y - ay), -degrees)
            dx, dy = turned((ox * fx, oy * fy), degrees)
            return (ax + dx, ay + dy)

        pts = _as_placed(stretched(x, y) for x, y in _points(p))
        return _with_piece(doc, _reshaped(p, pts))

    return edit


def set_kind(piece_id: str, kind: SceneryKind) -> Edit:
    """A piece's kind; an id the editor made up for the kind it had ("building-1") is
    made up again for the new one ("obstacle-1": tester13's finding 18, K kept
    `building-1` on an obstacle); any other id is the author's and stays."""

    def edit(doc: Document) -> Document:
        p = piece(doc, piece_id)
        if not re.fullmatch(rf"{re.escape(p.kind.value)}-\d+", p.id) or p.kind == kind:
            return _with_piece(doc, _changed(p, kind=kind))
        others = replace(doc, scenery=tuple(q for q in doc.scenery if q.id != p.id))
        new = _changed(p, kind=kind, id=fresh_id(others, kind.value))
        return replace(doc, scenery=tuple(new if q.id == p.id else q for q in doc.scenery))

    return edit


def set_piece(piece_id: str, **values: object) -> Edit:
    """Kind, height (None: full height), thickness, label."""
    return lambda doc: _with_piece(doc, _changed(piece(doc, piece_id), **values))


# ------------------------------------------------------------ table and objectives


def set_header(**values: object) -> Edit:
    """Name, table size, turns."""

    def edit(doc: Document) -> Document:
        header = Header.model_validate(doc.header.model_dump() | values)
        return replace(doc, header=header)

    return edit


def add_side(side_id: str | None = None, player: str = "ai") -> Edit:
    def edit(doc: Document) -> Document:
        new = SideEntry.model_validate({"id": side_id or fresh_id(doc, "side"), "player": player})
        if new.id in doc.ids():
            raise EditRefused(f"the id {new.id!r} is taken")
        return replace(doc, sides=(*doc.sides, new))

    return edit


def remove_side(side_id: str) -> Edit:
    def edit(doc: Document) -> Document:
        if any(m.side == side_id for m in doc.models):
            raise EditRefused(f"side {side_id!r} still has models on the table")
        return replace(doc, sides=tuple(s for s in doc.sides if s.id != side_id))

    return edit


def add_objective(at: Point, points: int = 1, radius: float = 2.0) -> Edit:
    def edit(doc: Document) -> Document:
        new = ObjectiveEntry(id=fresh_id(doc, "objective"), at=at, points=points, radius=radius)
        return replace(doc, objectives=(*doc.objectives, new))

    return edit


def set_objective(objective_id: str, **values: object) -> Edit:
    """Where it is, its points, its radius."""

    def edit(doc: Document) -> Document:
        new = _changed(objective(doc, objective_id), **values)
        objectives = tuple(new if o.id == objective_id else o for o in doc.objectives)
        return replace(doc, objectives=objectives)

    return edit


def document_of(scenario: Scenario) -> Document:
    """The document of a loaded scenario: its file when that still holds this table,
    else the table as loaded (walls as their footprints, profiles by name)."""
    try:
        doc = read_document(scenario.path)
    except (InputError, OSError):
        doc = None
    if doc is not None:
        again, _ = check(doc)
        if again is not None and (again.header, again.scenery, again.models, again.sides) == (
            scenario.header,
            scenario.scenery,
            scenario.models,
            scenario.sides,
        ):
            return doc
    bundled = rule_data(scenario.ruleset.name)[0]
    models = []
    for m in scenario.models:
        prof = bundled.get(m.profile)
        models.append(
            ModelEntry(
                id=m.id,
                side=m.side,
                profile=m.profile,
                at=m.at,
                facing=m.facing,
                unit=m.unit,
                state=m.state,
                base=None if prof is not None and prof.base == m.base_mm else m.base_mm,
                height=None if prof is not None and prof.height == m.height else m.height,
                weapons=None if prof is not None and prof.weapons == m.weapons else m.weapons,
                lieutenant=m.lieutenant,
                name=m.name,
            )
        )
    scenery = tuple(
        SceneryEntry(
            id=p.id, kind=p.kind, height=p.height, polygon=list(p.footprint), label=p.label
        )
        for p in scenario.scenery
    )
    return Document(
        header=scenario.header,
        scenery=scenery,
        sides=scenario.sides,
        models=tuple(models),
        objectives=scenario.objectives,
    )


# ------------------------------------------------------------------- the editing


def check(doc: Document) -> tuple[Scenario | None, list[str]]:
    """The scenario the document makes, and the reasons it is not valid (if any)."""
    scenario, problems = check_document(doc)
    return scenario, [f"{p.place}: {p.problem}" if p.place else p.problem for p in problems]


@dataclass
class Editing:
    """A document being edited: the current (always valid) table, undo and redo."""

    doc: Document
    scenario: Scenario
    path: Path | None = None
    undo_stack: list[Document] = field(default_factory=list)
    redo_stack: list[Document] = field(default_factory=list)
    saved: Document | None = None

    @classmethod
    def start(cls, doc: Document, path: Path | None = None) -> Editing:
        scenario, reasons = check(doc)
        if scenario is None:
            raise EditRefused("; ".join(reasons))
        editing = cls(doc, scenario, path)
        editing.scenario = editing._here(scenario)
        return editing

    @classmethod
    def open(cls, path: Path) -> Editing:
        """An existing scenario file (InputError when it is not valid)."""
        editing = cls.start(read_document(path), path)
        editing.saved = editing.doc
        return editing

    def trial(self, edit: Edit) -> tuple[Document, Scenario]:
        """What the edit would make, checked; raises EditRefused and changes nothing."""
        try:
            doc = edit(self.doc)
        except ValueError as err:  # a pydantic validation: a value out of range
            raise EditRefused(_first_line(err)) from None
        scenario, reasons = check(doc)
        if scenario is None:
            raise EditRefused(reasons[0] if reasons else "the table would not be valid")
        # what validate refuses is never made here; a file that had it opens (review10)
        had = {(p.place, p.problem) for p in self.scenario.advice}
        new = [(p.place, p.problem) for p in scenario.advice if (p.place, p.problem) not in had]
        if new:
            place, problem = _blamed(self.doc, doc, scenario) or new[0]
            raise EditRefused(f"{place}: {problem}" if place else problem)
        return doc, self._here(scenario)

    def _here(self, scenario: Scenario) -> Scenario:
        # checked through a scratch file: the table belongs where it is edited from
        return replace(scenario, path=self.path) if self.path is not None else scenario

    def apply(self, edit: Edit) -> Document:
        doc, scenario = self.trial(edit)
        if doc != self.doc:
            self.undo_stack.append(self.doc)
            self.redo_stack.clear()
            self.doc, self.scenario = doc, scenario
        return doc

    def undo(self) -> bool:
        if not self.undo_stack:
            return False
        self.redo_stack.append(self.doc)
        self._restore(self.undo_stack.pop())
        return True

    def redo(self) -> bool:
        if not self.redo_stack:
            return False
        self.undo_stack.append(self.doc)
        self._restore(self.redo_stack.pop())
        return True

    def _restore(self, doc: Document) -> None:
        scenario, _ = check(doc)
        assert scenario is not None  # every document kept was valid
        self.doc, self.scenario = doc, self._here(scenario)

    @property
    def dirty(self) -> bool:
        return self.doc != self.saved

    @property
    def kept(self) -> Document:
        """The table a file holds: as last saved, or, never saved, as it was opened."""
        if self.saved is not None:
            return self.saved
        return self.undo_stack[0] if self.undo_stack else self.doc

    def lost(self) -> str:
        """What quitting now loses, in words: how many edits since the table `kept` (the
        undo steps back to it; all of them where an undo went past it and editing went
        on) and what they changed, entry by entry ("2 edits: scenery 'tri' changed, model
        'ganger-2' added"); "" when nothing."""
        if self.doc == self.kept:
            return ""
        back = [i for i, doc in enumerate(self.undo_stack) if doc == self.kept]
        edits = len(self.undo_stack) - back[-1] if back else len(self.undo_stack)
        changed = what_changed(self.kept, self.doc)
        shown = ", ".join(changed[:MOST_SAID])
        if len(changed) > MOST_SAID:
            shown += f" and {len(changed) - MOST_SAID} more"
        count = f"{edits} edit{'s' if edits != 1 else ''}" if edits else "edits"
        return f"{count}: {shown}"

    def save(self, path: Path | None = None) -> Path:
        """Write the table (atomically) to `path` or where it came from."""
        target = path or self.path
        if target is None:
            raise EditRefused("no file to save to")
        write_scenario(self.doc, target, comments_from=self.path)  # its comments kept
        self.path, self.saved = target, self.doc
        return target


MOST_SAID = 4  # entries `Editing.lost` names; the rest are counted


def what_changed(before: Document, after: Document) -> list[str]:
    """The entries `after` adds, changes or removes from `before`, as validate names
    their places ("scenery 'tri' changed"), in the file's order."""
    out = ["the [scenario] table changed"] if before.header != after.header else []
    groups = (
        ("scenery", before.scenery, after.scenery), ("side", before.sides, after.sides),
        ("model", before.models, after.models),
        ("objective", before.objectives, after.objectives),
    )  # fmt: skip
    for kind, old_entries, new_entries in groups:
        old: dict[str, object] = {e.id: e for e in old_entries}
        new: dict[str, object] = {e.id: e for e in new_entries}
        for key, entry in new.items():
            if key not in old:
                out.append(f"{kind} {key!r} added")
            elif old[key] != entry:
                out.append(f"{kind} {key!r} changed")
        out += [f"{kind} {key!r} removed" for key in old if key not in new]
    if before.rule_tables != after.rule_tables:
        out.append("the rule data changed")
    return out


def _blamed(before: Document, after: Document, scenario: Scenario) -> tuple[str, str] | None:
    """What validate would say of the models the edit changed, were they last in the
    file: the edit's own model is the second Lieutenant or Leader, not the side's one
    it joins (retest13's finding 6: S on Lieutenant C to a side whose Lieutenant is D
    blamed D, the earlier in the file)."""
    advise = scenario.ruleset.load("advise")
    changed = {m.id for m in after.models} - {m.id for m in after.models if m in before.models}
    if advise is None or not changed:
        return None
    last = sorted(scenario.models, key=lambda m: m.id in changed)
    said: list[tuple[str, str]] = advise(replace(scenario, models=tuple(last)))
    places = {f"model {m!r}" for m in changed}
    return next(((place, problem) for place, problem in said if place in places), None)


def _first_line(err: ValueError) -> str:
    errors = getattr(err, "errors", None)
    if callable(errors):
        first = errors()[0]
        ours = in_our_words(first)
        if ours is not None:
            return ours
        loc = ".".join(str(p) for p in first.get("loc", ()))
        message = str(first.get("msg", err)).removeprefix("Value error, ")
        return f"{loc}: {message}" if loc else message
    return str(err).splitlines()[0]
