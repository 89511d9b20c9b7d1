"""Edits of a scenario document: each kept only when the table stays valid."""

from __future__ import annotations

import math
import re
from dataclasses import replace
from pathlib import Path

import pytest

from game.scenario import load_scenario
from game.scenario.editing import (
    Editing,
    EditRefused,
    add_model,
    add_objective,
    add_rectangle,
    add_side,
    add_wall,
    delete,
    duplicate_model,
    move_piece,
    new_document,
    profiles,
    remove_side,
    resize_piece,
    rotate_piece,
    set_header,
    set_kind,
    set_piece,
    snap,
    turn_model,
)
from game.scenario.model import SceneryKind

from ..conftest import SCENARIOS


def _table() -> Editing:
    editing = Editing.start(new_document("necromunda", "Alley"))
    editing.apply(add_model("ganger", (3, 3), "blue"))
    editing.apply(add_rectangle((10, 10), (14, 12), SceneryKind.OBSTACLE, 1.0))
    return editing


def test_new_table_has_two_sides_and_the_systems_profiles() -> None:
    doc = new_document("open-rebellion")
    assert [s.id for s in doc.sides] == ["blue", "red"]
    assert "rifleman" in profiles(doc)


def test_ids_are_fresh_and_shared_across_kinds() -> None:
    editing = _table()
    editing.apply(duplicate_model("ganger-1", (2, 0)))
    editing.apply(add_wall((1, 20), (6, 20), 1.0))
    assert [m.id for m in editing.doc.models] == ["ganger-1", "ganger-2"]
    assert [p.id for p in editing.doc.scenery] == ["obstacle-1", "wall-1"]
    editing.apply(add_side("wall-2"))
    editing.apply(add_wall((1, 22), (6, 22), 1.0))
    assert editing.doc.scenery[-1].id == "wall-3"


def test_turning_keeps_facing_in_range() -> None:
    editing = _table()
    editing.apply(turn_model("ganger-1", 190))
    assert editing.doc.models[0].facing == -170
    editing.apply(turn_model("ganger-1", -180))
    assert editing.doc.models[0].facing == 180


def test_a_new_model_faces_the_enemy_or_the_tables_middle() -> None:
    """Set down as a player would: toward the other sides' models' middle, or the
    table's middle while there are none (every new model faced east before)."""
    editing = Editing.start(new_document("infinity", "Facing", table=(24.0, 32.0)))
    editing.apply(add_model("fusilier", (12, 28), "blue"))  # nobody else: the middle, north
    editing.apply(add_model("fusilier", (4, 16), "blue"))  # still nobody: east
    editing.apply(add_model("fusilier", (12, 16), "blue"))  # on the middle itself: east
    editing.apply(add_model("zhanshi", (8, 4), "red"))  # Blue's middle (28/3, 20)
    editing.apply(add_model("zhanshi", (16, 4), "red"))
    editing.apply(add_model("fusilier", (20, 20), "blue"))  # Red's middle (12, 4)
    editing.apply(add_model("zhanshi", (20, 4), "red", facing=45))  # a facing given is kept
    # atan2(20 - 4, 28/3 - 8) is 85 degrees, atan2(16, 28/3 - 16) 113, atan2(-16, -8) -117
    assert [m.facing for m in editing.doc.models] == [-90, 0, 0, 85, 113, -117, 45]


def test_rotate_and_resize_about_centre_and_anchor() -> None:
    editing = _table()
    editing.apply(rotate_piece("obstacle-1", 90))
    poly = editing.doc.scenery[0].polygon
    assert poly is not None
    xs = sorted({round(x, 9) for x, _ in poly})
    ys = sorted({round(y, 9) for _, y in poly})
    assert (xs, ys) == ([11, 13], [9, 13])
    editing.apply(resize_piece("obstacle-1", (11, 9), 2.0, 0.5))
    poly = editing.doc.scenery[0].polygon
    assert poly is not None
    assert sorted({round(x, 9) for x, _ in poly}) == [11, 15]
    assert sorted({round(y, 9) for _, y in poly}) == [9, 11]
    with pytest.raises(EditRefused, match="inside out"):
        editing.apply(resize_piece("obstacle-1", (11, 9), -1.0, 1.0))


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (move_piece("obstacle-1", -8, -8), "ganger-1': stands inside obstacle 'obstacle-1'"),
        (move_piece("obstacle-1", 20, 0), "extends off the table"),
        (set_piece("obstacle-1", height=0), "height"),
        (set_header(table=(2, 2)), "extends off the table"),
        (remove_side("blue"), "still has models"),
        (add_model("no-such", (5, 5), "blue"), "no profile 'no-such'"),
        (add_objective((30, 30)), "off the table"),
        (delete("red"), "nothing to delete"),
    ],
)
def test_refused_edits_change_nothing(edit: object, reason: str) -> None:
    editing = _table()
    before, undo = editing.doc, list(editing.undo_stack)
    with pytest.raises(EditRefused, match=reason):
        editing.apply(edit)  # type: ignore[arg-type]
    assert editing.doc == before and editing.undo_stack == undo


def test_snap_to_the_half_inch_grid() -> None:
    assert snap((3.26, 4.74)) == (3.5, 4.5)


def test_open_and_save_round_trip(tmp_path: Path) -> None:
    editing = Editing.open(SCENARIOS / "open-rebellion-village.toml")
    assert not editing.dirty
    editing.apply(move_piece(editing.doc.scenery[0].id, 0.5, 0))
    assert editing.dirty
    out = editing.save(tmp_path / "village.toml")
    assert not editing.dirty
    assert load_scenario(out).scenery[0].footprint[0][0] == (
        load_scenario(SCENARIOS / "open-rebellion-village.toml").scenery[0].footprint[0][0] + 0.5
    )


def test_a_saved_table_keeps_its_comments_and_whole_numbers(tmp_path: Path) -> None:
    """tester7's finding 16: saving from the editor dropped the file's comments and wrote
    [36, 30] as [36.0, 30.0]. The comments go back by the tables and keys they stood by
    (a piece's gone with it); whole numbers are written whole."""
    source = tmp_path / "square.toml"
    source.write_text(
        "# Village square: written by skirmish\n"
        "# The club's square.\n\n"
        "[scenario]\n"
        'name = "Village square"\n'
        'ruleset = "infinity"\n'
        "table = [36, 30]  # the club's mat\n\n"
        "# the church in the middle\n"
        "[[scenery]]\n"
        'id = "church"\n'
        'kind = "building"\n'
        "height = 3  # roof not counted\n"
        "polygon = [[14, 10], [22, 10], [22, 18], [14, 18]]\n\n"
        "# the old well\n"
        "[[scenery]]\n"
        'id = "well"  # "#2" on the map\n'
        'kind = "obstacle"\n'
        "height = 0.5\n"
        "polygon = [[2, 2], [3, 2], [3, 3], [2, 3]]\n\n"
        '[[side]]\nid = "blue"\n\n[[side]]\nid = "red"\n\n'
        '[[model]]\nid = "fusilier-1"\nside = "blue"\nprofile = "fusilier"\nat = [4, 26]\n\n'
        '[[model]]\nid = "zhanshi-1"\nside = "red"\nprofile = "zhanshi"\nat = [30, 4]\n',
        encoding="utf-8",
    )
    editing = Editing.open(source)
    editing.apply(move_piece("church", 0.5, 0))
    editing.apply(delete("well"))
    text = editing.save(tmp_path / "saved.toml").read_text(encoding="utf-8")
    assert text.count("written by skirmish") == 1 and "# The club's square." in text
    assert "table = [36, 30]  # the club's mat" in text
    assert '# the church in the middle\n[[scenery]]\nid = "church"' in text
    assert "height = 3  # roof not counted" in text
    assert "polygon = [[14.5, 10], [22.5, 10], [22.5, 18], [14.5, 18]]" in text
    assert "well" not in text and "#2" not in text
    assert load_scenario(tmp_path / "saved.toml").piece("church").height == 3.0


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.toml")), ids=lambda p: p.stem)
def test_opening_and_saving_a_table_gives_the_same_file(path: Path, tmp_path: Path) -> None:
    """tester7b's finding F: a save changed more than the edit (height = 3.0 written 3,
    thickness = 0.25 and player = "ai" dropped as defaults, [[side]] moved above
    [[scenery]], turns below description). A table saved as it was opened is the same
    file byte for byte."""
    out = Editing.open(path).save(tmp_path / path.name)
    assert out.read_bytes() == path.read_bytes()


def test_a_saved_edit_changes_only_its_own_lines(tmp_path: Path) -> None:
    import difflib

    source = SCENARIOS / "open-rebellion-village.toml"
    editing = Editing.open(source)
    first, last = editing.doc.scenery[0], editing.doc.scenery[-1]
    profile, side = editing.doc.models[0].profile, editing.doc.models[0].side
    editing.apply(move_piece(first.id, 0.5, 0))
    editing.apply(delete(last.id))
    editing.apply(add_model(profile, (12.0, 0.5), side))
    saved = editing.save(tmp_path / "village.toml")
    was = source.read_text(encoding="utf-8").splitlines()
    now = saved.read_text(encoding="utf-8").splitlines()
    changed = [
        line
        for line in difflib.unified_diff(was, now, lineterm="", n=0)
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    removed = [line[1:] for line in changed if line.startswith("-")]
    added = [line[1:] for line in changed if line.startswith("+")]
    # the moved piece's outline, the deleted piece's table, the new model's table (its
    # facing toward the enemy written out)
    assert sum(line.startswith("polygon = ") for line in removed) == 2
    assert sum(line.startswith("polygon = ") for line in added) == 1
    assert f'id = "{last.id}"' in removed and "[[scenery]]" in removed
    assert "[[model]]" in added and f'profile = "{profile}"' in added
    assert len(removed) == 1 + 6 and len(added) == 1 + 7
    assert load_scenario(saved).piece(first.id).footprint[0][0] == (
        load_scenario(source).piece(first.id).footprint[0][0] + 0.5
    )


def test_a_turned_piece_is_written_as_its_points_were_placed(tmp_path: Path) -> None:
    """tester13's finding 18: a piece turned 30 degrees was written
    [13.651923788646684, 6.834936490538903], ... in a file whose other numbers were as
    its author wrote them; a move, turn or stretch keeps the 4 places of a point
    placed, and four quarter turns give back the piece as it was."""
    editing = _table()
    before = editing.doc.scenery[0].polygon
    for _ in range(4):
        editing.apply(rotate_piece("obstacle-1", 90))
    assert editing.doc.scenery[0].polygon == before
    editing.apply(rotate_piece("obstacle-1", 30))
    editing.apply(move_piece("obstacle-1", 0.1, 0.2))
    editing.apply(resize_piece("obstacle-1", (11, 9), 1.1, 0.7))
    path = editing.save(tmp_path / "turned.toml")
    text = path.read_text(encoding="utf-8")
    (polygon,) = [line for line in text.splitlines() if line.startswith("polygon")]
    numbers = re.findall(r"-?\d+(?:\.\d+)?", polygon)
    assert len(numbers) == 8 and all(len(n.partition(".")[2]) <= 4 for n in numbers), polygon
    # 30 degrees about the centre, as turned, to within the places kept
    cx, cy = 12.0, 11.0
    t = math.radians(30)
    x, y = before[0]
    turned = (cx + math.cos(t) * (x - cx) - math.sin(t) * (y - cy),
              cy + math.sin(t) * (x - cx) + math.cos(t) * (y - cy))  # fmt: skip
    moved = (turned[0] + 0.1, turned[1] + 0.2)
    stretched = (11 + (moved[0] - 11) * 1.1, 9 + (moved[1] - 9) * 0.7)
    assert math.dist(editing.doc.scenery[0].polygon[0], stretched) < 1e-3


def test_set_kind_makes_up_only_the_editors_own_ids_again() -> None:
    """tester13's finding 18: a kind changed kept `building-1` on an obstacle; an id
    the editor made up (kind-N) follows the kind, the lowest N free; others stay."""
    editing = Editing.start(new_document("infinity", "Kinds"))
    editing.apply(add_rectangle((2, 2), (4, 4), SceneryKind.OBSTACLE, 1.0))
    editing.apply(add_rectangle((6, 2), (8, 4), SceneryKind.BUILDING, 1.0))
    editing.apply(set_kind("building-1", SceneryKind.OBSTACLE))
    assert [p.id for p in editing.doc.scenery] == ["obstacle-1", "obstacle-2"]
    editing.apply(set_kind("obstacle-1", SceneryKind.OBSTACLE))  # no change: kept
    editing.apply(  # an author's id
        lambda doc: replace(
            doc, scenery=(doc.scenery[0], doc.scenery[1].model_copy(update={"id": "church"}))
        )
    )
    editing.apply(set_kind("church", SceneryKind.AREA))
    assert [(p.id, p.kind) for p in editing.doc.scenery] == [
        ("obstacle-1", SceneryKind.OBSTACLE),
        ("church", SceneryKind.AREA),
    ]


def _turned_about(points: list[tuple[float, float]], degrees: float) -> list[tuple[float, float]]:
    t = math.radians(degrees)
    c, s = math.cos(t), math.sin(t)
    return [(c * x - s * y, s * x + c * y) for x, y in points]


def test_a_turned_rectilinear_piece_has_its_own_axes() -> None:
    """session 13's leftover (after 3fbf233, which gave a turned box its own axes): an
    L-shaped building or a wall turned 30 degrees had the table's axes (frame 0), so its
    handles sat on the table-aligned bounds and a handle dragged sheared it. A piece
    whose sides all meet at right angles, or a straight wall, is turned with its own."""
    from game.scenario.editing import corners, frame
    from game.scenario.model import SceneryEntry

    ell = [(0.0, 0.0), (4.0, 0.0), (4.0, 1.0), (1.0, 1.0), (1.0, 3.0), (0.0, 3.0)]
    turned = _turned_about(ell, 30)
    piece = SceneryEntry(id="ell", kind=SceneryKind.BUILDING, polygon=turned)
    assert frame(piece) == pytest.approx(30)
    assert corners(piece) == [pytest.approx(p) for p in _turned_about(
        [(0, 0), (4, 0), (4, 3), (0, 3)], 30)]  # fmt: skip
    wall = SceneryEntry(id="w", kind=SceneryKind.WALL, line=_turned_about([(0, 0), (3, 0)], 30))
    assert frame(wall) == pytest.approx(30)
    bent = SceneryEntry(id="b", kind=SceneryKind.WALL, line=_turned_about(
        [(0, 0), (3, 0), (3, 2)], -20))  # fmt: skip
    assert frame(bent) == pytest.approx(-20)
    # a triangle tells no axes of its own: the editor remembers the turns it made
    triangle = SceneryEntry(id="t", kind=SceneryKind.AREA, polygon=_turned_about(
        [(0, 0), (4, 0), (0, 3)], 30))  # fmt: skip
    assert frame(triangle) == 0


def _turned_round(points: list[tuple[float, float]], degrees: float,
                  about: tuple[float, float]) -> list[tuple[float, float]]:  # fmt: skip
    t = math.radians(degrees)
    c, s = math.cos(t), math.sin(t)
    cx, cy = about
    return [(round(cx + c * (x - cx) - s * (y - cy), 4) + 0.0,
             round(cy + s * (x - cx) + c * (y - cy), 4) + 0.0) for x, y in points]  # fmt: skip


def test_a_triangle_turned_and_turned_back_stays_where_it_was() -> None:
    """fix15c item 4: a piece turned about the middle of its table-aligned bounding box,
    which moves when a triangle turns, so a turn and its reverse moved it (15 degrees and
    back: 0.19" away). It turns about the middle of its bounds along its own axes, which
    the turn does not move: turned and turned back it is where it was, to the 4 places a
    turned point is written to (the editor's run of turns gives it back exactly:
    tests/render/test_editor.py)."""
    from game.scenario.editing import add_polygon, centre

    editing = Editing.start(new_document("infinity", "Turns"))
    editing.apply(add_polygon([(4, 4), (8, 4), (4, 7)], SceneryKind.AREA, 1.0))
    piece = editing.doc.scenery[0]
    before, middle = piece.polygon, centre(piece)
    assert before is not None
    for degrees in (15, 30, 45, 7.5, 100):
        editing.apply(rotate_piece(piece.id, degrees))
        assert math.dist(centre(editing.doc.scenery[0]), middle) < 1e-4  # it stays put
        editing.apply(rotate_piece(piece.id, -degrees))
        after = editing.doc.scenery[0].polygon
        assert after is not None
        assert max(math.dist(a, b) for a, b in zip(after, before, strict=True)) < 2e-4
    # turned from the piece before the turns (the editor's run), it is the very polygon
    start = editing.doc.scenery[0]
    editing.apply(rotate_piece(piece.id, 15, start))
    editing.apply(rotate_piece(piece.id, 0, start))
    assert editing.doc.scenery[0] == start


@pytest.mark.parametrize("degrees", [15, 30, 90, -45])
def test_a_box_and_a_wall_turn_as_before(degrees: float) -> None:
    """The middle of a box's or a straight wall's own bounds is the middle of its
    table-aligned bounding box, turned or not: they turn about the same point as before
    fix15c, to the same points (turned once, then again from there)."""
    editing = _table()
    editing.apply(add_wall((16, 11), (17, 14), 0.5))
    for _ in range(2):
        for p in editing.doc.scenery:
            pts = p.polygon if p.polygon is not None else p.line
            assert pts is not None
            xs, ys = [x for x, _ in pts], [y for _, y in pts]
            middle = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
            editing.apply(rotate_piece(p.id, degrees))
            turned = next(q for q in editing.doc.scenery if q.id == p.id)
            now = turned.polygon if turned.polygon is not None else turned.line
            assert now == _turned_round(list(pts), degrees, middle)


def test_a_stretch_that_squares_a_piece_drops_its_axes_key() -> None:
    """tester15 finding 12: validate says `axes` on a piece whose sides lie square is not
    read, and the editor makes nothing validate says (Editing.trial): a turned rhombus (its
    `axes` kept, -45) stretched square along its own axes was refused with that line; the
    key goes with the shape that gave it a use, the square's sides giving its axes."""
    from game.scenario.editing import add_polygon, piece, resize_piece, set_piece

    editing = _table()
    rhombus = [(9.0, 9.0), (12.0, 10.0), (13.0, 13.0), (10.0, 12.0)]  # a 2" square, stretched
    editing.apply(add_polygon(rhombus, SceneryKind.AREA, None))
    editing.apply(set_piece("area-1", axes=-45.0))
    editing.apply(resize_piece("area-1", (11.0, 11.0), 1.0, 0.5, -45.0))
    squared = piece(editing.doc, "area-1")
    assert squared.shape_axes is not None and squared.axes is None
    assert squared.polygon == [pytest.approx(p) for p in [(10, 10), (12, 10), (12, 12), (10, 12)]]
