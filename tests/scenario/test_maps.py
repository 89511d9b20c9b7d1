"""Importing Tiled and Universal VTT maps (the examples in scenarios/maps/)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from game.errors import InputError
from game.scenario.maps import import_map
from game.scenario.model import SceneryKind

from ..conftest import SCENARIOS

MAPS = SCENARIOS / "maps"


@pytest.mark.parametrize("name", ["outpost.tmx", "outpost.tmj"])
def test_tiled_map_gives_its_pieces_heights_and_models(name: str) -> None:
    doc, found = import_map(MAPS / name, "infinity")
    assert doc.header.table == (24.0, 24.0)
    pieces = {p.id: p for p in doc.scenery}
    assert sorted(pieces) == ["bunker", "crate-stack", "hab", "low-wall"]
    # 32-pixel tiles at one inch each; the layer's height unless the object has its own
    assert pieces["hab"].kind is SceneryKind.BUILDING
    assert pieces["hab"].height == 3.0
    assert pieces["hab"].polygon == [(5.0, 6.0), (9.0, 6.0), (9.0, 9.0), (5.0, 9.0)]
    assert pieces["bunker"].height == 2.0
    assert pieces["bunker"].polygon is not None and len(pieces["bunker"].polygon) == 5
    assert pieces["low-wall"].kind is SceneryKind.WALL
    assert pieces["low-wall"].line == [(10.0, 3.0), (15.0, 3.0), (15.0, 5.0)]
    assert pieces["low-wall"].height == 1.0
    # the layer "crates" reads as obstacles; a rotation of 30 degrees turns the box
    crate = pieces["crate-stack"]
    assert crate.kind is SceneryKind.OBSTACLE and crate.height == 0.8
    assert crate.polygon is not None
    assert crate.polygon[1] == pytest.approx((3.0 + 1.5 * 3**0.5 / 2, 16.0 + 1.5 / 2))
    models = {m.id: m for m in doc.models}
    assert sorted(models) == ["fusilier-1", "fusilier-2", "zhanshi-1"]
    assert models["fusilier-1"].side == "blue" and models["fusilier-1"].at == (3.0, 22.0)
    assert models["fusilier-1"].facing == -90.0
    assert models["zhanshi-1"].side == "red" and models["zhanshi-1"].profile == "zhanshi"
    assert [s.id for s in doc.sides] == ["blue", "red"]
    assert found.skipped == ["object marker: a point that names no infinity profile"]


def test_tmx_and_tmj_of_one_map_give_one_table() -> None:
    assert (
        import_map(MAPS / "outpost.tmx", "infinity")[0]
        == import_map(MAPS / "outpost.tmj", "infinity")[0]
    )


def test_scale_converts_tiles_to_inches() -> None:
    doc, _ = import_map(MAPS / "outpost.tmj", "infinity", scale=1.5)
    assert doc.header.table == (36.0, 36.0)
    hab = next(p for p in doc.scenery if p.id == "hab")
    assert hab.polygon is not None and hab.polygon[0] == (7.5, 9.0)


def test_universal_vtt_walls_with_the_origin_taken_off() -> None:
    doc, _ = import_map(MAPS / "crypt.uvtt", "necromunda")
    assert doc.header.table == (16.0, 12.0)
    assert all(p.kind is SceneryKind.WALL and p.height is None for p in doc.scenery)
    lines = [p.line for p in doc.scenery if p.line is not None]
    # map_origin (2, 1) is taken off: the inner wall from (8, 1) starts at (6, 0)
    assert [(6.0, 0.0), (6.0, 4.0)] in lines
    assert [(6.0, 6.0), (10.0, 6.0), (10.0, 9.0)] in lines
    # the outer loop runs along the table's edge: cut at the edge, two halves
    edge = [p for p in doc.scenery if p.polygon is not None]
    assert len(edge) == 2
    for piece in edge:
        assert piece.polygon is not None
        assert all(0 <= x <= 16 and 0 <= y <= 12 for x, y in piece.polygon)


def test_wall_height_and_dd2vtt(tmp_path: Path) -> None:
    copy = tmp_path / "crypt.dd2vtt"
    shutil.copy(MAPS / "crypt.uvtt", copy)
    doc, _ = import_map(copy, "open-rebellion", scale=2.0, wall_height=3.0)
    assert doc.header.table == (32.0, 24.0)
    assert {p.height for p in doc.scenery} == {3.0}


TMX_WOODS = """ <objectgroup id="9" name="woods">
  <object id="9" name="copse" x="320" y="320" width="64" height="96">
   <ellipse/>
  </object>
 </objectgroup>
</map>"""


@pytest.mark.parametrize("suffix", [".tmj", ".tmx"])
def test_tiled_ellipse_becomes_a_polygon(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"woods{suffix}"
    if suffix == ".tmj":
        data = json.loads((MAPS / "outpost.tmj").read_text(encoding="utf-8"))
        woods = {
            "id": 9,
            "name": "copse",
            "type": "",
            "x": 320,
            "y": 320,
            "width": 64,
            "height": 96,
            "ellipse": True,
        }
        data["layers"].append({"id": 9, "name": "woods", "type": "objectgroup", "objects": [woods]})
        path.write_text(json.dumps(data), encoding="utf-8")
    else:
        text = (MAPS / "outpost.tmx").read_text(encoding="utf-8")
        path.write_text(text.replace("</map>", TMX_WOODS), encoding="utf-8")
    doc, _ = import_map(path, "infinity")
    copse = next(p for p in doc.scenery if p.id == "copse")
    assert copse.kind is SceneryKind.AREA and copse.height is None
    assert copse.polygon is not None and len(copse.polygon) == 16
    xs = [x for x, _ in copse.polygon]
    ys = [y for _, y in copse.polygon]
    assert min(xs) == pytest.approx(10.0) and max(xs) == pytest.approx(12.0)
    assert min(ys) == pytest.approx(10.0) and max(ys) == pytest.approx(13.0)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("bad.tmx", "<map", "Tiled map"),
        ("bad.tmj", '{"width": 4}', "Tiled map: height: missing"),
        ("bad.uvtt", '{"format": 0.3, "resolution": {"map_size": {"x": 1}}}', "missing"),
        ("bad.dd2vtt", "{not json", "JSON syntax"),
        ("bad.png", "", "unknown map format"),
        (
            "zero.tmx",
            '<map orientation="orthogonal" width="4" height="4" tilewidth="0" tileheight="32"/>',
            "Tiled map: tilewidth must be more than 0, got 0",
        ),
        ("deep.tmj", "[" * 100000, "JSON syntax"),
        ("list.tmj", "[1, 2]", "list.tmj: Tiled map: must be a JSON object, not a list"),
        (
            "cut.tmj",
            '{\n"a": "abc',
            "cut.tmj:2: JSON syntax: Unterminated string starting at column 6",
        ),
        ("short.tmj", '{"width": ', "short.tmj:1: JSON syntax: Expecting value at column 11"),
    ],
)
def test_malformed_map_is_one_problem(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_map(path, "infinity")
    assert len(err.value.problems) == 1
    assert message in str(err.value)
    assert "\n" not in str(err.value)
    assert "Tiled map: Tiled map" not in str(err.value) and "_Tiled" not in str(err.value)


def test_a_model_placed_inside_a_building_is_named(tmp_path: Path) -> None:
    data = json.loads((MAPS / "outpost.tmj").read_text(encoding="utf-8"))
    blue = next(layer for layer in data["layers"] if layer["name"] == "blue")
    blue["objects"][0]["x"], blue["objects"][0]["y"] = 224, 224  # inside "hab"
    path = tmp_path / "inside.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError, match=r"fusilier-1.*inside building 'hab'"):
        import_map(path, "infinity")


def test_a_bad_object_value_names_the_object(tmp_path: Path) -> None:
    data = json.loads((MAPS / "outpost.tmj").read_text(encoding="utf-8"))
    hab = data["layers"][0]["objects"][0]
    hab["properties"] = [{"name": "height", "type": "float", "value": -1}]
    path = tmp_path / "negative.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError, match="object hab: height must be more than 0, got -1"):
        import_map(path, "infinity")


@pytest.mark.parametrize("height", [float("nan"), 0.0, 500.0])
def test_wall_height_out_of_range_is_refused(height: float) -> None:
    with pytest.raises(InputError, match="--wall-height"):
        import_map(MAPS / "crypt.uvtt", "infinity", wall_height=height)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('x="', 'x="abc', "object hab: x 'abc160' is not a number"),
        ('tilewidth="', 'tilewidth="wide', "map: tilewidth 'wide32' is not a number"),
    ],
)
def test_a_tmx_number_that_is_not_one_names_the_attribute_and_object(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    text = (MAPS / "outpost.tmx").read_text(encoding="utf-8").replace(old, new, 1)
    path = tmp_path / "words.tmx"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_map(path, "infinity")
    assert str(err.value) == f"{path}: {message}"


@pytest.mark.parametrize("scale", [float("nan"), float("inf"), 0.0, -1.0])
def test_scale_must_be_a_finite_number_above_0(scale: float) -> None:
    with pytest.raises(InputError) as err:
        import_map(MAPS / "outpost.tmj", "infinity", scale=scale)
    [problem] = err.value.problems
    assert (problem.file, problem.place) == ("<command line>", "--scale")
    assert problem.problem == f"expected a number of inches above 0 (got {scale:g})"


@pytest.mark.parametrize(
    ("scale", "ending"),
    [
        (600.0, '(at most 240"): lower --scale'),
        (1000.0, '(at most 240"): lower --scale'),
        (1e300, '(at most 240"): lower --scale'),
        # a 1.6e-299x1.2e-299" table was written, exit 0 (second tester's finding 2)
        (1e-300, '(at least 2"): raise --scale'),
        (0.001, '(at least 2"): raise --scale'),
    ],
)
def test_a_scale_too_large_or_small_for_any_table_is_one_line_before_any_wall_is_built(
    scale: float, ending: str
) -> None:
    # Above 625 the walls' points passed the coordinates' bound and pydantic's
    # ValidationError escaped as a traceback (tester's finding 1, session 6).
    with pytest.raises(InputError) as err:
        import_map(MAPS / "crypt.uvtt", "infinity", scale=scale)
    [problem] = err.value.problems
    assert (problem.place, problem.problem.endswith(ending)) == ("map size", True)


def _crypt_with(tmp_path: Path, wall: int, point: int, x: object) -> Path:
    data = json.loads((MAPS / "crypt.uvtt").read_text(encoding="utf-8"))
    data["line_of_sight"][wall][point]["x"] = x
    path = tmp_path / "changed.uvtt"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_map_coordinate_in_words_is_named_in_ours(tmp_path: Path) -> None:
    path = _crypt_with(tmp_path, 0, 1, "abc")
    with pytest.raises(InputError) as err:
        import_map(path, "infinity")
    assert str(err.value) == (
        f"{path}: Universal VTT map: line_of_sight 1 point 2 x: expected a number, not 'abc'"
    )


def test_a_wall_point_far_off_the_map_is_one_line(tmp_path: Path) -> None:
    path = _crypt_with(tmp_path, 2, 1, 1e9)
    with pytest.raises(InputError) as err:
        import_map(path, "infinity")
    [problem] = err.value.problems
    assert (problem.place, problem.problem) == (
        "line_of_sight 3",
        "the point (1e+09, 13) lies far off the map",
    )


@pytest.mark.parametrize("x", [float("nan"), float("inf")])
def test_a_wall_point_not_a_finite_number_is_one_line(tmp_path: Path, x: float) -> None:
    # JSON's NaN in a wall point escaped as StopIteration (second tester's finding 3,
    # session 6).
    path = _crypt_with(tmp_path, 0, 1, x)
    with pytest.raises(InputError) as err:
        import_map(path, "infinity")
    assert str(err.value) == (
        f"{path}: Universal VTT map: line_of_sight 1 point 2 x: expected a finite number, not {x}"
    )


# ------------------------------------------------ tester13's findings 2-5, 8, 10, 11

# A layer of things that are not scenery or are placed by another origin, added to the
# outpost map (the same objects in .tmj and .tmx).
ODD_OBJECTS = [
    {"id": 20, "name": "label", "x": 10, "y": 10, "width": 100, "height": 20,
     "text": {"text": "North", "wrap": True}},
    # a tile object's x, y is its bottom-left corner: this one spans y 576-640 px
    {"id": 21, "name": "barrel", "gid": 2, "x": 640, "y": 640, "width": 64, "height": 64,
     "properties": [{"name": "kind", "type": "string", "value": "obstacle"}]},
    {"id": 22, "name": "picture", "gid": 3, "x": 700, "y": 100, "width": 32, "height": 32},
    {"id": 23, "name": "hidden-thing", "x": 200, "y": 400, "width": 64, "height": 64,
     "visible": False},
    {"id": 24, "template": "crate.tx", "x": 600, "y": 300},
    {"id": 25, "name": "out", "x": 900, "y": 900, "width": 64, "height": 64},
]  # fmt: skip
ODD_TMX = """ <tileset firstgid="1" source="missing.tsx"/>
 <layer id="7" name="floor" width="2" height="1">
  <data encoding="base64" compression="zstd">KLUv/SAIQQAAAQAAAAEAAAA=</data>
 </layer>
 <objectgroup id="8" name="misc">
  <properties>
   <property name="extra" type="class" propertytype="Stuff">
    <properties><property name="a" type="int" value="1"/></properties>
   </property>
  </properties>
  <object id="20" name="label" x="10" y="10" width="100" height="20">
   <text wrap="1">North</text>
  </object>
  <object id="21" name="barrel" gid="2" x="640" y="640" width="64" height="64">
   <properties><property name="kind" value="obstacle"/></properties>
  </object>
  <object id="22" name="picture" gid="3" x="700" y="100" width="32" height="32"/>
  <object id="23" name="hidden-thing" x="200" y="400" width="64" height="64" visible="0"/>
  <object id="24" template="crate.tx" x="600" y="300"/>
  <object id="25" name="out" x="900" y="900" width="64" height="64"/>
 </objectgroup>
</map>"""  # fmt: skip
ODD_SKIPPED = [
    "object label: a text object: words on the map, not scenery",
    "object picture: a tile object (a picture) that names no kind of scenery: give it a "
    "kind property or a class, or put it on a layer named for one",
    "object hidden-thing: hidden in Tiled",
    "object 24: an instance of the template crate.tx, whose file is missing (copy it "
    "where the map names it, or detach the instance from its template in Tiled)",
    "object out: lies wholly off the table",
]


def _outpost_with(tmp_path: Path, suffix: str, layer: list[dict[str, object]]) -> Path:
    """The outpost map with one more object layer, `misc`, holding `layer`."""
    path = tmp_path / f"odd{suffix}"
    data = json.loads((MAPS / "outpost.tmj").read_text(encoding="utf-8"))
    data["layers"].append({"id": 8, "name": "misc", "type": "objectgroup", "objects": layer})
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("suffix", [".tmj", ".tmx"])
def test_tiled_objects_that_are_not_scenery_are_listed_as_skipped(
    tmp_path: Path, suffix: str
) -> None:
    # tester13's findings 2, 4, 10, 11: a text object became a full-height building (an
    # area in .tmx), a tile object one placed a tile too low, a hidden object solid
    # scenery, a template instance "a point that names no profile", an object off the
    # map vanished unlisted; the .tmx (a class-type property, an external tileset not
    # there, zstd tiles, none of them read) was not imported at all.
    if suffix == ".tmj":
        path = _outpost_with(tmp_path, suffix, ODD_OBJECTS)
    else:
        path = tmp_path / "odd.tmx"
        text = (MAPS / "outpost.tmx").read_text(encoding="utf-8")
        path.write_text(text.replace("</map>", ODD_TMX), encoding="utf-8")
    doc, found = import_map(path, "infinity")
    plain, _ = import_map(MAPS / "outpost.tmj", "infinity")
    [barrel] = [p for p in doc.scenery if p.id == "barrel"]
    assert barrel.kind is SceneryKind.OBSTACLE
    assert barrel.polygon == [(20.0, 18.0), (22.0, 18.0), (22.0, 20.0), (20.0, 20.0)]
    assert [p for p in doc.scenery if p.id != "barrel"] == list(plain.scenery)
    assert found.skipped == [
        "object marker: a point that names no infinity profile",
        *ODD_SKIPPED,
    ]


@pytest.mark.parametrize("suffix", [".tmj", ".tmx"])
def test_what_lies_at_negative_coordinates_of_an_infinite_map_is_said_off_the_table(
    tmp_path: Path, suffix: str
) -> None:
    """tester13's finding 4 (fix13e): on an infinite Tiled map a wall drawn at negative
    coordinates, on the map in Tiled, was listed as 'lies wholly off the table' with no
    reason, and a model's point there refused the whole import (exit 2). Both are listed
    as skipped, saying the table is the map's tiles from (0, 0) and does not grow; on a
    map of fixed size a point off it is listed too, as a piece off it is."""
    line = [{"x": 0, "y": 0}, {"x": 64, "y": 0}]
    wall = {"id": 30, "name": "far-wall", "x": -100, "y": -50, "polyline": line}
    fusilier = [{"name": "profile", "type": "string", "value": "fusilier"}]
    scout = {"id": 31, "name": "scout", "x": -64, "y": 40, "point": True, "properties": fusilier}
    path = _outpost_with(tmp_path, ".tmj", [wall, scout])
    data = json.loads(path.read_text(encoding="utf-8"))
    beyond = (
        "the table is the map's 24x24 tiles from (0, 0) and does not grow to hold what "
        "lies past them"
    )
    said = [
        f"object far-wall: lies wholly off the table, at negative coordinates of an "
        f"infinite map: {beyond}",
        f"object scout: a point at (-2, 1.25) lies off the table, at negative coordinates "
        f"of an infinite map: {beyond}",
    ]
    if suffix == ".tmx":  # the wall alone: a .tmx point is written as the .tmj's
        path = tmp_path / "inf.tmx"
        text = (MAPS / "outpost.tmx").read_text(encoding="utf-8")
        layer = (
            '<objectgroup id="8" name="misc"><object id="30" name="far-wall" x="-100" '
            'y="-50"><polyline points="0,0 64,0"/></object></objectgroup></map>'
        )
        text = text.replace('infinite="0"', 'infinite="1"').replace("</map>", layer)
        path.write_text(text, encoding="utf-8")
        assert import_map(path, "infinity")[1].skipped[-1] == said[0]
        return
    for infinite, lines in ((True, said), (False, [line.split(", at")[0] for line in said])):
        data["infinite"] = infinite
        path.write_text(json.dumps(data), encoding="utf-8")
        doc, found = import_map(path, "infinity")
        assert found.skipped[-2:] == lines
        assert "scout" not in {m.id for m in doc.models}


def test_a_hidden_layer_is_not_read_and_its_objects_are_listed(tmp_path: Path) -> None:
    data = json.loads((MAPS / "outpost.tmj").read_text(encoding="utf-8"))
    data["layers"][2]["visible"] = False  # crates
    path = tmp_path / "hidden.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    doc, found = import_map(path, "infinity")
    assert "crate-stack" not in {p.id for p in doc.scenery}
    assert "object crate-stack: hidden in Tiled (its layer 'crates' is hidden)" in found.skipped


def test_an_unknown_kind_is_refused_and_an_unknown_class_read_by_its_layer(
    tmp_path: Path,
) -> None:
    # tester13's finding 5: kind = "lava" became a building, exit 0
    lava = {"name": "kind", "type": "string", "value": "lava"}
    box = {"id": 30, "name": "pit", "x": 32, "y": 32, "width": 64, "height": 64}
    path = _outpost_with(tmp_path, ".tmj", [box | {"properties": [lava]}])
    with pytest.raises(InputError) as err:
        import_map(path, "infinity")
    assert str(err.value) == (
        f"{path}: object pit: kind 'lava' is not a kind of scenery "
        "(building, wall, obstacle or area)"
    )
    # a class is a Tiled user's own word for many things: one that names no kind is
    # passed over for the layer's
    doc, _ = import_map(_outpost_with(tmp_path, ".tmj", [box | {"class": "lava"}]), "infinity")
    assert next(p for p in doc.scenery if p.id == "pit").kind is SceneryKind.BUILDING


def test_a_point_carries_the_model_fields_its_properties_give(tmp_path: Path) -> None:
    # tester13's finding 5: lieutenant = true was dropped
    props = [
        {"name": "profile", "type": "string", "value": "fusilier"},
        {"name": "lieutenant", "type": "bool", "value": True},
        {"name": "base", "type": "float", "value": 40},
        {"name": "weapons", "type": "string", "value": "Combi Rifle, Pistol"},
    ]
    point = {"id": 30, "name": "lt", "x": 352, "y": 704, "point": True, "properties": props}
    doc, _ = import_map(_outpost_with(tmp_path, ".tmj", [point]), "infinity")
    lt = next(m for m in doc.models if m.id == "lt")
    assert (lt.lieutenant, lt.base, lt.weapons) == (True, 40.0, ("Combi Rifle", "Pistol"))
    props[1] = {"name": "lieutenant", "type": "string", "value": "yes"}
    path = _outpost_with(tmp_path, ".tmj", [point])
    with pytest.raises(InputError) as err:
        import_map(path, "infinity")
    assert str(err.value) == f"{path}: object lt: lieutenant 'yes' is not true or false"


def test_the_maps_name_property_names_the_scenario(tmp_path: Path) -> None:
    data = json.loads((MAPS / "outpost.tmj").read_text(encoding="utf-8"))
    data["properties"] = [{"name": "name", "type": "string", "value": "My yard"}]
    path = tmp_path / "yard.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert import_map(path, "infinity")[0].header.name == "My yard"
    assert import_map(path, "infinity", name="Other")[0].header.name == "Other"


def test_tiles_wider_than_high_keep_a_square_square(tmp_path: Path) -> None:
    # tester13's finding 11: 32x16 tiles made a 64 px square 2x4"
    data = {
        "type": "map", "orientation": "orthogonal", "width": 10, "height": 10,
        "tilewidth": 32, "tileheight": 16,
        "layers": [{"type": "objectgroup", "name": "buildings", "objects": [
            {"id": 1, "name": "hut", "x": 32, "y": 32, "width": 64, "height": 64}]}],
    }  # fmt: skip
    path = tmp_path / "wide.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    doc, _ = import_map(path, "infinity")
    assert doc.header.table == (10.0, 5.0)  # 320 x 160 px, a tile's width an inch
    assert doc.scenery[0].polygon == [(1.0, 1.0), (3.0, 1.0), (3.0, 3.0), (1.0, 3.0)]


def test_an_isometric_map_is_refused_in_words(tmp_path: Path) -> None:
    data = json.loads((MAPS / "outpost.tmj").read_text(encoding="utf-8"))
    data["orientation"] = "isometric"
    path = tmp_path / "iso.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError, match="Tiled map: an isometric map: only orthogonal"):
        import_map(path, "infinity")


def test_wall_height_is_refused_for_a_tiled_map() -> None:
    # tester13's finding 8: accepted and doing nothing
    with pytest.raises(InputError) as err:
        import_map(MAPS / "outpost.tmj", "infinity", wall_height=1.0)
    [problem] = err.value.problems
    assert (problem.file, problem.place) == ("<command line>", "--wall-height")
    assert problem.problem.startswith("only a Universal VTT map's walls take it")


def test_universal_vtt_doors_and_walls_of_no_length(tmp_path: Path) -> None:
    # tester13's finding 4: portals and a zero-length wall vanished unlisted; a closed
    # door left a gap in the wall it closes
    data = json.loads((MAPS / "crypt.uvtt").read_text(encoding="utf-8"))
    data["portals"] = [
        {"position": {"x": 8, "y": 6}, "bounds": [{"x": 8, "y": 5}, {"x": 8, "y": 7}],
         "rotation": 1.5708, "closed": True, "freestanding": False},
        {"position": {"x": 12, "y": 7}, "bounds": [{"x": 11.5, "y": 7}, {"x": 12.5, "y": 7}],
         "rotation": 0, "closed": False, "freestanding": False},
    ]  # fmt: skip
    data["line_of_sight"].append([{"x": 5, "y": 5}, {"x": 5, "y": 5}])
    path = tmp_path / "doors.uvtt"
    path.write_text(json.dumps(data), encoding="utf-8")
    doc, found = import_map(path, "infinity")
    plain, _ = import_map(MAPS / "crypt.uvtt", "infinity")
    [door] = [p for p in doc.scenery if p.id == "door"]
    assert (door.kind, door.line, door.height) == (SceneryKind.WALL, [(6.0, 4.0), (6.0, 6.0)], None)
    assert [p for p in doc.scenery if p.id != "door"] == list(plain.scenery)
    walls = len(data["line_of_sight"])
    assert found.skipped == [
        f"line_of_sight {walls}: a wall of no length",
        "portal 2: an open door, left open",
    ]


CRATE_TX = """<?xml version="1.0" encoding="UTF-8"?>
<template>
 <object name="crate" type="obstacle" width="32" height="32">
  <properties>
   <property name="height" type="float" value="1"/>
   <property name="kind" value="obstacle"/>
  </properties>
 </object>
</template>"""
FUSILIER_TJ = {
    "type": "template",
    "object": {"name": "", "point": True, "x": 0, "y": 0, "properties": [
        {"name": "profile", "type": "string", "value": "fusilier"},
        {"name": "facing", "type": "float", "value": -90}]},
}  # fmt: skip


@pytest.mark.parametrize("suffix", [".tmj", ".tmx"])
def test_a_template_instance_is_read_over_its_template(tmp_path: Path, suffix: str) -> None:
    # tester13's finding 11: an instance was read as a bare point, "a point that names
    # no profile"; its template's shape and properties are in the .tx/.tj beside the map
    (tmp_path / "crate.tx").write_text(CRATE_TX, encoding="utf-8")
    (tmp_path / "fusilier.tj").write_text(json.dumps(FUSILIER_TJ), encoding="utf-8")
    own = [{"name": "height", "type": "float", "value": 2}]
    objects = [
        {"id": 30, "template": "crate.tx", "x": 64, "y": 64},
        {"id": 31, "template": "crate.tx", "name": "tall", "x": 128, "y": 64, "properties": own},
        {"id": 32, "template": "fusilier.tj", "name": "f3", "x": 352, "y": 704},
    ]
    path = _outpost_with(tmp_path, ".tmj", objects)
    if suffix == ".tmx":
        path = tmp_path / "templates.tmx"
        layer = """ <objectgroup id="8" name="misc">
  <object id="30" template="crate.tx" x="64" y="64"/>
  <object id="31" template="crate.tx" name="tall" x="128" y="64">
   <properties><property name="height" type="float" value="2"/></properties>
  </object>
  <object id="32" template="fusilier.tj" name="f3" x="352" y="704"/>
 </objectgroup>
</map>"""
        text = (MAPS / "outpost.tmx").read_text(encoding="utf-8")
        path.write_text(text.replace("</map>", layer), encoding="utf-8")
    doc, found = import_map(path, "infinity")
    pieces = {p.id: p for p in doc.scenery}
    assert pieces["crate"].kind is SceneryKind.OBSTACLE and pieces["crate"].height == 1.0
    assert pieces["crate"].polygon == [(2.0, 2.0), (3.0, 2.0), (3.0, 3.0), (2.0, 3.0)]
    assert pieces["tall"].height == 2.0
    f3 = next(m for m in doc.models if m.id == "f3")
    assert (f3.profile, f3.at, f3.facing, f3.side) == ("fusilier", (11.0, 22.0), -90.0, "misc")
    assert found.skipped == ["object marker: a point that names no infinity profile"]
    (tmp_path / "crate.tx").write_text("<template>", encoding="utf-8")
    with pytest.raises(InputError, match=r"crate\.tx:1: Tiled template: "):
        import_map(path, "infinity")


def test_a_layers_class_names_its_kind_and_a_tile_object_without_size_is_a_tile(
    tmp_path: Path,
) -> None:
    # a layer's class (Tiled 1.9+) is read as an object's class is, after the layer's
    # kind property and before its name; a tile object an old Tiled saved with no size
    # takes the map's tile size
    objects = [
        {"id": 30, "name": "bin", "gid": 5, "x": 64, "y": 96},
        {"id": 31, "name": "shed", "x": 128, "y": 64, "width": 32, "height": 32},
    ]
    path = _outpost_with(tmp_path, ".tmj", objects)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["layers"][-1]["class"] = "obstacle"
    path.write_text(json.dumps(data), encoding="utf-8")
    doc, _ = import_map(path, "infinity")
    pieces = {p.id: p for p in doc.scenery}
    assert pieces["bin"].kind is SceneryKind.OBSTACLE is pieces["shed"].kind
    assert pieces["bin"].polygon == [(2.0, 2.0), (3.0, 2.0), (3.0, 3.0), (2.0, 3.0)]


@pytest.mark.parametrize(
    ("shape", "message"),
    [
        ({"polygon": [{"x": 1, "y": 2}]}, "scenery 'building': polygon has 1 points"),
        ({"polyline": [{"x": 1, "y": 2}]}, "object 1: line: needs at least 2 points"),
        (
            {
                "width": 9,
                "height": 9,
                "properties": [{"name": "kind", "type": "class", "value": {}}],
            },
            "object 1: kind is a class-type value, not a kind of scenery",
        ),
    ],
)
def test_a_tiled_shape_of_too_few_points_or_a_kind_not_in_words_is_one_line(
    tmp_path: Path, shape: dict[str, object], message: str
) -> None:
    # a polygon of one point was a shapely ValueError traceback, exit 1 (.tmj too), and
    # a class-type property named kind a TypeError
    path = _outpost_with(tmp_path, ".tmj", [{"id": 1, "x": 32, "y": 32} | shape])
    with pytest.raises(InputError) as err:
        import_map(path, "infinity")
    assert str(err.value).startswith(f"{path}: {message}")


def test_a_template_instance_whose_properties_are_no_list_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "c.tj").write_text('{"type": "template", "object": {"width": 32}}')
    path = _outpost_with(tmp_path, ".tmj", [{"id": 1, "x": 1, "y": 40, "template": "c.tj",
                                            "properties": 5}])  # fmt: skip
    with pytest.raises(InputError) as err:
        import_map(path, "infinity")
    assert str(err.value).endswith("object 1 properties: expected a list in brackets, not 5")


@pytest.mark.parametrize(
    ("bounds", "said"),
    [
        ([{"x": 3, "y": 3}], "skipped: portal 1: a door of no length"),
        ([{"x": 3, "y": 3}, {"x": 1e9, "y": 3}], "refused: portal 1: the point (1e+09, 3) lies"),
    ],
)
def test_a_closed_door_of_no_length_or_far_off_the_map_is_named_as_a_portal(
    tmp_path: Path, bounds: list[dict[str, float]], said: str
) -> None:
    data = json.loads((MAPS / "crypt.uvtt").read_text(encoding="utf-8"))
    data["portals"] = [{"bounds": bounds, "closed": True}]
    path = tmp_path / "door.uvtt"
    path.write_text(json.dumps(data), encoding="utf-8")
    try:
        told = f"skipped: {'; '.join(import_map(path, 'infinity')[1].skipped)}"
    except InputError as err:
        [problem] = err.problems
        told = f"refused: {problem.place}: {problem.problem}"
    assert told.startswith(said)
