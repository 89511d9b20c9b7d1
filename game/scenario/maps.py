"""Maps people already have, as scenarios: Tiled (.tmx XML, .tmj JSON: only their object
layers are read) and Universal VTT (.uvtt / .dd2vtt JSON).

Tiled: polygon and rectangle objects become scenery pieces, ellipses 16-sided
polygons, polylines thin walls, a tile object that names a kind of scenery a box where
the tile stands; `kind`, `height` (inches) and `thickness` come from the object's
properties, else its class, else its layer's properties, else the layer's name
("walls", "buildings", "woods"...); a point object that names a profile (property
`profile`, its class or its name) becomes a model on the side its `side` property or
its layer names, with the model fields its properties give. A template instance is read
over its template's object (its .tx or .tj file). Text objects, hidden ones, instances
whose template file is missing and pieces and points wholly off the table (the map's
width by height from (0, 0): an infinite map's table does not grow) are listed as
skipped. Units: one tile's width is `scale` inches. The first side named is a person's.

Universal VTT: each `line_of_sight` and `objects_line_of_sight` polyline, and each
closed door (portal), becomes thin walls (full height unless `wall_height` is given),
with `map_origin` taken off; one grid square is `scale` inches. Pieces reaching past
the table's edge are cut at it."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from xml.etree import ElementTree

from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError
from shapely.geometry import LineString, MultiPolygon, Polygon, box

from game.errors import InputError, Problem
from game.files import MEGABYTE, read_text
from game.rules.registry import RULESETS, UnknownRuleset, find_ruleset
from game.scenario.load import expected, in_our_words, rule_data, unknown
from game.scenario.model import MAX_COORDINATE as FAR
from game.scenario.model import (
    MAX_TABLE,
    MIN_TABLE,
    Header,
    ModelEntry,
    SceneryEntry,
    SceneryKind,
    SideEntry,
)
from game.scenario.writer import Document, check_document

Point = tuple[float, float]
M = TypeVar("M", bound=BaseModel)

# Where an option given on the command line is named in a problem.
COMMAND_LINE = "<command line>"
TILED = (".tmx", ".tmj", ".json")
UVTT = (".uvtt", ".dd2vtt")
DEFAULT_THICKNESS = 0.25  # inches: a wall drawn as a line
MAX_MAP_BYTES = 128 * MEGABYTE  # a Universal VTT file carries its picture inside
_ID = re.compile(r"^[A-Za-z0-9_.\-]{1,64}$")
# layer or class names read as a kind of scenery
_KIND_WORDS = {
    "building": SceneryKind.BUILDING,
    "buildings": SceneryKind.BUILDING,
    "house": SceneryKind.BUILDING,
    "houses": SceneryKind.BUILDING,
    "wall": SceneryKind.WALL,
    "walls": SceneryKind.WALL,
    "fence": SceneryKind.WALL,
    "fences": SceneryKind.WALL,
    "obstacle": SceneryKind.OBSTACLE,
    "obstacles": SceneryKind.OBSTACLE,
    "crates": SceneryKind.OBSTACLE,
    "area": SceneryKind.AREA,
    "areas": SceneryKind.AREA,
    "woods": SceneryKind.AREA,
    "forest": SceneryKind.AREA,
    "rubble": SceneryKind.AREA,
}


@dataclass(slots=True)
class MapObject:
    """One object of a map, in the map's own units, before it is read as scenery or a model."""

    shape: str  # polygon | rectangle | polyline | point | ellipse | tile | sizeless
    points: list[Point]  # absolute, rotation applied (a point: one)
    name: str = ""
    cls: str = ""
    properties: Mapping[str, Any] = field(default_factory=dict)
    layer: str = ""
    layer_properties: Mapping[str, Any] = field(default_factory=dict)
    id: int = 0
    skip: str | None = None  # why it is not read (hidden, a text, a template instance)
    layer_cls: str = ""


@dataclass(slots=True)
class MapImport:
    """What a map file holds, in inches, ready to become a scenario."""

    name: str
    size: Point
    pieces: list[SceneryEntry] = field(default_factory=list)
    models: list[ModelEntry] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    beyond: str = ""  # why a thing off the table was not on it (an infinite map's)

    def off_table(self, where: str, what: str, lowest: Point) -> None:
        """List a thing off the table as skipped: on an infinite Tiled map, one at
        negative coordinates (drawn on the map in Tiled) says so plainly."""
        said = f"{where}: {what} off the table"
        if self.beyond and min(lowest) < 0:
            said += ", at negative coordinates of an infinite map"
        self.skipped.append(said + (f": {self.beyond}" if self.beyond else ""))


def _rotate(points: Iterable[Point], origin: Point, degrees: float) -> list[Point]:
    # Tiled: rotation in degrees clockwise on screen (y down) about the object's x, y
    if not degrees:
        return list(points)
    t = math.radians(degrees)
    c, s = math.cos(t), math.sin(t)
    ox, oy = origin
    return [(ox + c * (x - ox) - s * (y - oy), oy + s * (x - ox) + c * (y - oy)) for x, y in points]


def _box_points(x: float, y: float, w: float, h: float) -> list[Point]:
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def _ellipse_points(x: float, y: float, w: float, h: float, sides: int = 16) -> list[Point]:
    cx, cy = x + w / 2, y + h / 2
    return [
        (
            cx + w / 2 * math.cos(2 * math.pi * k / sides),
            cy + h / 2 * math.sin(2 * math.pi * k / sides),
        )
        for k in range(sides)
    ]


# ------------------------------------------------------------------- Tiled (.tmx)
# A .tmx map is read as the .tmj one is: its XML is turned into the JSON's shape and
# read by the same models. Only the object layers are read; tile layers, tilesets
# (external .tsx files too) and image layers are passed over unread.


def _tmx_data(path: Path) -> dict[str, Any]:
    """A .tmx map in the shape of its .tmj twin (numbers left as written: the models
    read them; a number that is not one is named by `_bad_tmx_number` first)."""
    text = read_text(path, MAX_MAP_BYTES, "map")
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as err:
        raise InputError(Problem(str(path), "Tiled map", _one_line(err), err.position[0])) from None
    if root.tag != "map":
        problem = f"the file holds a <{root.tag}>, not a Tiled <map>"
        raise InputError(Problem(str(path), "Tiled map", problem))
    if (found := _bad_tmx_number(root)) is not None:
        raise InputError(Problem(str(path), found[0], found[1]))
    data: dict[str, Any] = _tmx_numbers(root)
    data["orientation"] = root.get("orientation", "orthogonal")
    data["infinite"] = root.get("infinite", "0") == "1"
    data["properties"] = _tmx_properties(root)
    data["layers"] = _tmx_layers(root)
    return data


def _tmx_layers(parent: ElementTree.Element) -> list[dict[str, Any]]:
    layers: list[dict[str, Any]] = []
    for el in parent:
        kind = {"objectgroup": "objectgroup", "group": "group"}.get(el.tag)
        if kind is None:
            continue  # tile and image layers, tilesets: not read
        layer: dict[str, Any] = {
            "type": kind,
            "name": el.get("name", ""),
            "class": el.get("class", ""),
            **_tmx_numbers(el),
            "visible": el.get("visible", "1") != "0",
            "properties": _tmx_properties(el),
        }
        if kind == "group":
            layer["layers"] = _tmx_layers(el)
        else:
            layer["objects"] = [_tmx_object(o) for o in el.iter("object")]
        layers.append(layer)
    return layers


def _tmx_object(el: ElementTree.Element) -> dict[str, Any]:
    obj: dict[str, Any] = {k: v for k, v in el.attrib.items() if k != "visible"}
    obj |= _tmx_numbers(el)
    if (visible := el.get("visible")) is not None:  # else as its template, else shown
        obj["visible"] = visible != "0"
    obj["properties"] = _tmx_properties(el)
    for child in el:
        if child.tag in ("ellipse", "point"):
            obj[child.tag] = True
        elif child.tag in ("polygon", "polyline"):
            pairs = [pair.split(",") for pair in (child.get("points") or "").split()]
            obj[child.tag] = [{"x": float(p[0]), "y": float(p[-1])} for p in pairs]
        elif child.tag == "text":
            obj["text"] = {"text": child.text or ""}
    return obj


def _tmx_numbers(el: ElementTree.Element) -> dict[str, float | int]:
    """The element's number attributes as numbers (whole ones as int)."""
    found: dict[str, float | int] = {}
    for name in _TMX_NUMBERS.get(el.tag, ()):
        if (raw := el.get(name)) is not None:
            value = float(raw)
            found[name] = int(value) if value.is_integer() else value
    return found


def _tmx_properties(el: ElementTree.Element) -> list[dict[str, Any]]:
    """An element's own <properties>, typed as the .tmj has them (a class-type property,
    Tiled 1.8+, as a table of its members)."""
    out: list[dict[str, Any]] = []
    for prop in el.findall("properties/property"):
        kind = prop.get("type", "string")
        raw = prop.get("value")
        value: Any = (prop.text or "") if raw is None else raw
        if kind == "class":
            value = {p["name"]: p["value"] for p in _tmx_properties(prop)}
        elif kind in ("int", "float"):
            value = float(value)  # _bad_tmx_number has named one that is not a number
        elif kind == "bool":
            value = value == "true"
        out.append({"name": prop.get("name", ""), "type": kind, "value": value})
    return out


# the attributes of a .tmx element read as numbers
_TMX_NUMBERS = {
    "map": ("width", "height", "tilewidth", "tileheight"),
    "objectgroup": ("offsetx", "offsety"),
    "group": ("offsetx", "offsety"),
    "object": ("id", "x", "y", "width", "height", "rotation", "gid"),
}


def _bad_tmx_number(root: ElementTree.Element) -> tuple[str, str] | None:
    """The first number in a .tmx map that is not one, as (place, problem), named by its
    element and attribute."""

    def named(el: ElementTree.Element, owner: str) -> str:
        if el.tag == "map":
            return "map"
        if el.tag in ("objectgroup", "group"):
            return f"layer {el.get('name') or el.get('id', '?')}"
        if el.tag == "object":
            return f"object {el.get('name') or el.get('id', '?')}"
        return owner

    def walk(el: ElementTree.Element, owner: str) -> tuple[str, str] | None:
        owner = named(el, owner)
        checks = [(a, el.get(a)) for a in _TMX_NUMBERS.get(el.tag, ())]
        if el.tag in ("polygon", "polyline"):
            pairs = (el.get("points") or "").split()
            checks += [("points", v) for pair in pairs for v in pair.split(",")]
        if el.tag == "property" and el.get("type") in ("float", "int"):
            checks.append((f"property {el.get('name', '?')}", el.get("value")))
        for attr, raw in checks:
            try:
                if raw is not None and not math.isfinite(float(raw)):
                    return owner, f"{attr} {raw!r} is not a finite number"
            except ValueError:
                return owner, f"{attr} {raw!r} is not a number"
        if el.tag in ("data", "tileset", "image"):
            return None  # tiles: not read
        return next((p for child in el if (p := walk(child, owner)) is not None), None)

    return walk(root, "map")


# ------------------------------------------------------------- Tiled JSON (.tmj)


class _Loose(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class _Tiled(_Loose):
    """A Tiled map's part, read strictly: a number in quotes or a flag in words is
    nothing Tiled writes (retest13's finding 5: `"x": "280"` was read as 280)."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True, strict=True)


class _TiledProperty(_Tiled):
    name: str
    type: str = "string"
    value: Any = None


class _TiledXY(_Tiled):
    x: float
    y: float


class _TiledObject(_Tiled):
    id: int = 0
    name: str = ""
    type: str = ""
    cls: str = Field(default="", alias="class")
    x: float
    y: float
    width: float = 0.0
    height: float = 0.0
    rotation: float = 0.0
    visible: bool = True
    point: bool = False
    ellipse: bool = False
    polygon: list[_TiledXY] | None = None
    polyline: list[_TiledXY] | None = None
    gid: int | None = None
    text: Any = None
    template: str | None = None
    properties: list[_TiledProperty] = []


class _TiledLayer(_Tiled):
    type: str
    name: str = ""
    cls: str = Field(default="", alias="class")
    visible: bool = True
    objects: list[_TiledObject] = []
    layers: list[_TiledLayer] = []
    properties: list[_TiledProperty] = []
    offsetx: float = 0.0
    offsety: float = 0.0


class _TiledMap(_Tiled):
    type: str = "map"
    orientation: str = "orthogonal"
    width: int = Field(gt=0)
    height: int = Field(gt=0)
    tilewidth: int = Field(gt=0)
    tileheight: int = Field(gt=0)
    infinite: bool = False
    layers: list[_TiledLayer] = []
    properties: list[_TiledProperty] = []


def _props(raw: list[_TiledProperty]) -> dict[str, Any]:
    return {p.name: p.value for p in raw}


def _json_layers(
    layers: list[_TiledLayer], dx: float = 0.0, dy: float = 0.0, shown: bool = True
) -> Iterable[tuple[_TiledLayer, float, float, bool]]:
    for layer in layers:
        ox, oy = dx + layer.offsetx, dy + layer.offsety
        if layer.type == "group":
            yield from _json_layers(layer.layers, ox, oy, shown and layer.visible)
        elif layer.type == "objectgroup":
            yield layer, ox, oy, shown and layer.visible


def _tiled_objects(tm: _TiledMap) -> list[MapObject]:
    """The map's objects in its own pixels, each with its shape, or the reason it is not
    read (`MapObject.skip`)."""
    objects: list[MapObject] = []
    for layer, dx, dy, shown in _json_layers(tm.layers):
        layer_props = _props(layer.properties)
        for obj in layer.objects:
            ox, oy = obj.x + dx, obj.y + dy
            skip = _not_read(obj, layer, shown)
            if obj.polygon is not None or obj.polyline is not None:
                shape = "polygon" if obj.polygon is not None else "polyline"
                raw = obj.polygon if obj.polygon is not None else obj.polyline
                points = [(ox + p.x, oy + p.y) for p in raw or []]
            elif obj.point:
                shape, points = "point", [(ox, oy)]
            elif obj.gid is not None:  # a tile: its x, y is its bottom-left corner
                # (an old map leaves a tile object's size out: the map's tile size)
                w, h = (obj.width, obj.height) if obj.width else (tm.tilewidth, tm.tileheight)
                shape, points = "tile", _box_points(ox, oy - h, w, h)
            elif obj.ellipse:
                shape, points = "ellipse", _ellipse_points(ox, oy, obj.width, obj.height)
            elif obj.width or obj.height:
                shape, points = "rectangle", _box_points(ox, oy, obj.width, obj.height)
            else:
                shape, points = "sizeless", [(ox, oy)]
            points = _rotate(points, (ox, oy), obj.rotation)
            objects.append(
                MapObject(
                    shape,
                    points,
                    obj.name,
                    obj.cls or obj.type,
                    _props(obj.properties),
                    layer.name,
                    layer_props,
                    obj.id,
                    skip,
                    layer.cls,
                )
            )
    return objects


def _not_read(obj: _TiledObject, layer: _TiledLayer, shown: bool) -> str | None:
    """Why a Tiled object is not read, or None."""
    if not shown:
        return f"hidden in Tiled (its layer {layer.name!r} is hidden)"
    if not obj.visible:
        return "hidden in Tiled"
    if obj.template is not None:
        return (
            f"an instance of the template {obj.template}, whose file is missing (copy it "
            "where the map names it, or detach the instance from its template in Tiled)"
        )
    if obj.text is not None:
        return "a text object: words on the map, not scenery"
    return None


def _with_templates(data: Any, path: Path) -> Any:
    """The map (its JSON shape) with each template instance read over its template's
    object, which Tiled keeps in a .tx (XML) or .tj (JSON) file of its own, named from
    the map's folder: the instance's own attributes and properties win. An instance
    whose file is not there keeps its `template` (and is listed as skipped)."""
    read: dict[str, dict[str, Any] | None] = {}

    def instance(obj: Any) -> Any:
        name = obj.get("template") if isinstance(obj, dict) else None
        if not isinstance(name, str):
            return obj
        if name not in read:
            read[name] = _template(path.parent / name)
        base = read[name]
        if base is None or not isinstance(obj.get("properties", []), list):
            return obj  # not read; or the check names its properties
        own = {k: v for k, v in obj.items() if k != "template"}
        props = [*base.get("properties", []), *own.get("properties", [])]
        return base | own | {"properties": props}

    def layers(items: Any) -> None:
        for layer in items if isinstance(items, list) else []:
            if isinstance(layer, dict):
                layers(layer.get("layers"))
                if isinstance(layer.get("objects"), list):
                    layer["objects"] = [instance(o) for o in layer["objects"]]

    if isinstance(data, dict):
        layers(data.get("layers"))
    return data


def _template(path: Path) -> dict[str, Any] | None:
    """A template's object in the JSON's shape; None when its file is not there."""
    if not path.is_file():
        return None
    if path.suffix.lower() == ".tx":
        try:
            root = ElementTree.fromstring(read_text(path, MAX_MAP_BYTES, "Tiled template"))
        except ElementTree.ParseError as err:
            where = Problem(str(path), "Tiled template", _one_line(err), err.position[0])
            raise InputError(where) from None
        if (found := _bad_tmx_number(root)) is not None:
            raise InputError(Problem(str(path), found[0], found[1]))
        obj = root.find("object")
        base = None if root.tag != "template" or obj is None else _tmx_object(obj)
    else:
        data = _read_json(path)
        base = data.get("object") if isinstance(data, dict) else None
    if not isinstance(base, dict):
        raise InputError(Problem(str(path), "Tiled template", "it holds no template object"))
    base.pop("template", None)
    if not isinstance(base.get("properties", []), list):
        base["properties"] = []
    return base


def _tiled(path: Path, ruleset: str, scale: float) -> MapImport:
    data = _tmx_data(path) if path.suffix.lower() == ".tmx" else _read_json(path)
    tm = _parse(_TiledMap, _with_templates(data, path), path, "Tiled map")
    if tm.orientation != "orthogonal":
        article = "an" if tm.orientation[:1] in "aeiou" else "a"
        problem = f"{article} {tm.orientation} map: only orthogonal Tiled maps can be read"
        raise InputError(Problem(str(path), "Tiled map", problem))

    # One tile's width is `scale` inches, and a pixel is as long either way: a map of
    # tiles 32 wide and 16 high keeps a square a square.
    def inches(p: Point) -> Point:
        return (p[0] / tm.tilewidth * scale, p[1] / tm.tilewidth * scale)

    profiles, _ = rule_data(ruleset)
    named = _props(tm.properties).get("name")
    name = named.strip() if isinstance(named, str) and named.strip() else Path(path).stem
    table = inches((float(tm.width * tm.tilewidth), float(tm.height * tm.tileheight)))
    out = MapImport(name, _table_size(path, *table))
    if tm.infinite:
        out.beyond = (
            f"the table is the map's {tm.width}x{tm.height} tiles from (0, 0) and does "
            "not grow to hold what lies past them"
        )
    names: set[str] = set()
    for obj in _tiled_objects(tm):
        where = f"object {obj.name or obj.id!s}"
        if obj.skip is not None:
            out.skipped.append(f"{where}: {obj.skip}")
            continue
        try:
            _read_object(
                obj, where, path, ruleset, profiles, [inches(p) for p in obj.points], names, out
            )
        except ValidationError as err:
            first = err.errors()[0]
            loc = ".".join(str(p) for p in first["loc"])
            message = str(first["msg"]).removeprefix("Value error, ")
            said = in_our_words(first) or f"{loc}: {message}"
            raise InputError(Problem(str(path), where, said)) from None
    return out


def _read_object(
    obj: MapObject,
    where: str,
    path: Path,
    ruleset: str,
    profiles: Mapping[str, Any],
    points: list[Point],
    names: set[str],
    out: MapImport,
) -> None:
    """One Tiled object as a model or a piece of scenery (or a line in `out.skipped`)."""
    if obj.shape in ("point", "sizeless"):
        profile = _profile_named(obj, profiles)
        if profile is None:
            what = "a point" if obj.shape == "point" else "an object of no size"
            told = _other_systems(obj.properties.get("profile"), ruleset, path, where)
            out.skipped.append(f"{where}: {what} that names no {ruleset} profile{told}")
            return
        _read_model(obj, where, path, profile, points[0], names, out)
        return
    kind = _kind(obj, path, where)
    if kind is None:
        out.skipped.append(
            f"{where}: a tile object (a picture) that names no kind of scenery: give it "
            "a kind property or a class, or put it on a layer named for one"
        )
        return
    height = _height(obj, path, where)
    piece_id = _unique(obj.name, kind.value, names)
    if obj.shape == "polyline":
        thickness = _number(
            obj.properties.get("thickness", obj.layer_properties.get("thickness")),
            DEFAULT_THICKNESS,
            path,
            where,
            "thickness",
        )
        entry = SceneryEntry(
            id=piece_id, kind=kind, height=height, line=points, thickness=thickness
        )
    else:
        entry = SceneryEntry(id=piece_id, kind=kind, height=height, polygon=points)
    _place_piece(entry, where, out)


def _read_model(
    obj: MapObject,
    where: str,
    path: Path,
    profile: str,
    at: Point,
    names: set[str],
    out: MapImport,
) -> None:
    """A point object naming a profile as a model, with the model fields its own
    properties give (`facing`, `unit`, `state`, `lieutenant`, `base`, `height`,
    `weapons`)."""
    if not (0 <= at[0] <= out.size[0] and 0 <= at[1] <= out.size[1]):
        out.off_table(where, f"a point at ({at[0]:g}, {at[1]:g}) lies", at)
        return
    side = str(obj.properties.get("side") or obj.layer_properties.get("side") or "")
    side = _slug(side or obj.layer or "blue")
    if side not in out.sides:
        out.sides.append(side)
    own = obj.properties
    weapons = _optional_str(own.get("weapons"))
    model = ModelEntry(
        id=_unique(obj.name, profile, names),
        side=side,
        profile=profile,
        at=at,
        facing=_number(own.get("facing"), 0.0, path, where, "facing"),
        unit=_optional_id(own.get("unit")),
        state=_optional_str(own.get("state")),
        lieutenant=_flag(own.get("lieutenant"), path, where, "lieutenant"),
        base=_optional_number(own.get("base"), path, where, "base"),
        height=_optional_number(own.get("height"), path, where, "height"),
        weapons=None if weapons is None else tuple(w.strip() for w in weapons.split(",")),
    )
    out.models.append(model)


def _profile_named(obj: MapObject, profiles: Mapping[str, Any]) -> str | None:
    for candidate in (obj.properties.get("profile"), obj.cls, obj.name):
        if isinstance(candidate, str) and candidate in profiles:
            return candidate
    return None


def _other_systems(raw: Any, ruleset: str, path: Path, where: str) -> str:
    """Why a point's own `profile` property, naming no profile of `ruleset`, is passed
    over: another rule system's profile (the bundled maps place one system's troopers, and
    import into any system, a start for the editor). One that names no profile of any
    system is refused, as a `kind` that names no kind is (retest13's finding 4: "dragon"
    was "a point that names no profile")."""
    if raw is None or raw == "":
        return ""
    known = rule_data(ruleset)[0]
    if not isinstance(raw, str):
        listed = ", ".join(sorted(known))
        problem = f"profile is {_json_kind(raw)}, not a profile's name (known: {listed})"
        raise InputError(Problem(str(path), where, problem))
    for name in RULESETS:
        if name != ruleset and raw in rule_data(name)[0]:
            return f" (its profile {raw!r} is one of {name}'s)"
    raise InputError(Problem(str(path), where, unknown("profile", raw, known)))


def _kind(obj: MapObject, path: Path, where: str) -> SceneryKind | None:
    """The kind a `kind` property, the class, the layer's `kind`, class or name give; a
    `kind` property that names none is refused. A drawn shape that names none is a
    building (a line a wall); a tile object that names none is a picture (None)."""
    for source, raw in (
        ("kind", obj.properties.get("kind")),
        ("", obj.cls),
        (f"layer {obj.layer!r}: kind", obj.layer_properties.get("kind")),
        ("", obj.layer_cls),
        ("", obj.layer),
    ):
        word = raw.strip().lower() if isinstance(raw, str) else None
        if word in _KIND_WORDS:
            return _KIND_WORDS[word]
        if source and raw not in (None, ""):
            known = "building, wall, obstacle or area"
            said = f"{raw!r} is" if isinstance(raw, str) else f"is {_json_kind(raw)},"
            problem = f"{source} {said} not a kind of scenery ({known})"
            raise InputError(Problem(str(path), where, problem))
    if obj.shape == "tile":
        return None
    return SceneryKind.WALL if obj.shape == "polyline" else SceneryKind.BUILDING


def _height(obj: MapObject, path: Path, where: str) -> float | None:
    return _optional_number(
        obj.properties.get("height", obj.layer_properties.get("height")), path, where, "height"
    )


def _optional_number(raw: Any, path: Path, where: str, what: str) -> float | None:
    if raw is None or raw == "":
        return None
    return _number(raw, 0.0, path, where, what)


def _number(raw: Any, default: float, path: Path, where: str, what: str) -> float:
    if raw is None or raw == "":
        return default
    try:
        if isinstance(raw, bool):
            raise TypeError
        return float(raw)
    except (TypeError, ValueError):
        raise InputError(Problem(str(path), where, f"{what} {raw!r} is not a number")) from None


def _flag(raw: Any, path: Path, where: str, what: str) -> bool:
    """A true-or-false property (Tiled's bool, or the words true and false)."""
    if raw is None or raw == "":
        return False
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
        return raw.strip().lower() == "true"
    raise InputError(Problem(str(path), where, f"{what} {raw!r} is not true or false"))


def _optional_str(raw: Any) -> str | None:
    return str(raw) if raw not in (None, "") else None


def _optional_id(raw: Any) -> str | None:
    text = _optional_str(raw)
    return _slug(text) if text is not None else None


def _slug(text: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9_.\-]+", "-", text.strip()).strip("-")[:64]
    return slug or "piece"


def _unique(name: str, fallback: str, taken: set[str]) -> str:
    base = name if _ID.match(name or "") else _slug(fallback)
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    taken.add(candidate)
    return candidate


# ----------------------------------------------------------- Universal VTT (.uvtt)


class _VttXY(_Loose):
    x: float = Field(allow_inf_nan=False)
    y: float = Field(allow_inf_nan=False)


class _VttResolution(_Loose):
    map_origin: _VttXY = _VttXY(x=0.0, y=0.0)
    map_size: _VttXY
    pixels_per_grid: float = Field(default=70.0, gt=0)


class _VttPortal(_Loose):
    bounds: list[_VttXY] = []
    # JSON's true or false only: "yes" was a closed door, "false" an open one
    # (retest13's finding 5)
    closed: StrictBool = False


class _Vtt(_Loose):
    format: float
    resolution: _VttResolution
    line_of_sight: list[list[_VttXY]] = []
    objects_line_of_sight: list[list[_VttXY]] = []
    portals: list[_VttPortal] = []


def _chains(points: list[Point]) -> list[list[Point]]:
    """A wall polyline as open, non-crossing chains (a closed loop in two halves; a
    crossing chain cut where it would cross itself)."""
    pts = [p for k, p in enumerate(points) if k == 0 or p != points[k - 1]]
    if len(pts) < 2:
        return []
    if len(pts) > 3 and pts[0] == pts[-1]:
        half = len(pts) // 2
        return _chains(pts[: half + 1]) + _chains(pts[half:])
    chains: list[list[Point]] = []
    current = [pts[0]]
    for p in pts[1:]:
        trial = [*current, p]
        if len(trial) > 2 and (not LineString(trial).is_simple or trial[0] == trial[-1]):
            chains.append(current)
            current = [current[-1], p]
        else:
            current = trial
    chains.append(current)
    return [c for c in chains if len(c) >= 2]


def _uvtt(path: Path, scale: float, wall_height: float | None) -> MapImport:
    vtt = _parse(_Vtt, _read_json(path), path, "Universal VTT map")
    res = vtt.resolution
    ox, oy = res.map_origin.x, res.map_origin.y
    width, depth = res.map_size.x * scale, res.map_size.y * scale
    if width <= 0 or depth <= 0:
        raise InputError(Problem(str(path), "resolution.map_size", "the map has no area"))
    out = MapImport(path.stem, _table_size(path, width, depth))
    names: set[str] = set()
    # A door (portal) closed on the map blocks as the wall it closes; an open one
    # leaves its gap (README, "Importing maps").
    doors = [door.bounds if door.closed else [] for door in vtt.portals]
    for key, polylines in (
        ("line_of_sight", vtt.line_of_sight),
        ("objects_line_of_sight", vtt.objects_line_of_sight),
        ("portals", doors),
    ):
        for n, raw in enumerate(polylines, start=1):
            points = [((p.x - ox) * scale, (p.y - oy) * scale) for p in raw]
            chains = _chains(points)
            where = _place((key, n - 1))  # "line_of_sight 3", "portal 2"
            if key == "portals" and not vtt.portals[n - 1].closed:
                out.skipped.append(f"{where}: an open door, left open")
            elif not chains:
                door = "door" if key == "portals" else "wall"
                out.skipped.append(f"{where}: a {door} of no length")
            for chain in chains:
                fallback = {"line_of_sight": "wall", "portals": "door"}.get(key, "object")
                piece_id = _unique("", fallback, names)
                try:
                    piece = SceneryEntry(
                        id=piece_id,
                        kind=SceneryKind.WALL,
                        height=wall_height,
                        line=chain,
                        thickness=DEFAULT_THICKNESS,
                    )
                except ValidationError:  # a point thousands of inches off the map
                    far = (p for p in raw if max(abs(p.x - ox), abs(p.y - oy)) * scale > FAR)
                    x, y = next((p.x, p.y) for p in far)
                    problem = f"the point ({x:g}, {y:g}) lies far off the map"
                    raise InputError(Problem(str(path), where, problem)) from None
                _place_piece(piece, where, out)
    return out


def _table_size(path: Path, width: float, depth: float) -> Point:
    """The table a map makes, refused before any piece is built on it when it is larger
    or smaller than a scenario's table may be (README, "Limits")."""
    size = f'the table would be {width:g}x{depth:g}"'
    if not (width <= MAX_TABLE and depth <= MAX_TABLE):
        problem = f'{size} (at most {MAX_TABLE:g}"): lower --scale'
        raise InputError(Problem(str(path), "map size", problem))
    if not (width >= MIN_TABLE and depth >= MIN_TABLE):
        problem = f'{size} (at least {MIN_TABLE:g}"): raise --scale'
        raise InputError(Problem(str(path), "map size", problem))
    return (width, depth)


# ------------------------------------------------------------------------ common


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split()) or type(err).__name__
    return text[:200]


def _read_json(path: Path) -> Any:
    text = read_text(path, MAX_MAP_BYTES, "map")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        at = "" if err.msg.endswith(" at") else " at"
        problem = f"{err.msg}{at} column {err.colno}"
        raise InputError(Problem(str(path), "JSON syntax", problem, err.lineno)) from None
    except RecursionError:
        raise InputError(Problem(str(path), "JSON syntax", "nested too deeply")) from None


def _parse(model: type[M], data: Any, path: Path, what: str) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        place = _place(first["loc"])
        message = str(first["msg"])
        if first["type"] == "missing":
            message = "missing"
        elif first["type"] in ("model_type", "dict_type"):
            message = f"must be a JSON object, not {_json_kind(first['input'])}"
        elif (wrong := expected(first)) is not None:
            message = wrong
        elif first["type"] == "finite_number":
            message = f"expected a finite number, not {first['input']}"
        elif (ours := in_our_words(first)) is not None:
            raise InputError(Problem(str(path), what, ours)) from None
        where = f"{what}: {place}" if place else what
        raise InputError(Problem(str(path), where, message)) from None


# What one item of a map's list is called ("layer 2", "object 5").
_ITEM = {"layers": "layer", "objects": "object", "properties": "property", "portals": "portal"}


def _place(loc: Iterable[int | str]) -> str:
    """Where in a map's JSON an error is, as a person counts: ("layers", 0, "objects", 3,
    "x") -> "layer 1 object 4 x"; ("line_of_sight", 0, 1, "x") -> "line_of_sight 1 point
    2 x" (a list of lists of points)."""
    words: list[str] = []
    last: int | str | None = None
    for part in loc:
        if isinstance(part, int) and isinstance(last, int):
            words.append(f"point {part + 1}")
        elif isinstance(part, int) and words:
            words[-1] = f"{_ITEM.get(str(last), words[-1])} {part + 1}"
        else:
            words.append(str(part))
        last = part
    return " ".join(words)


def _json_kind(value: Any) -> str:
    """What a JSON value is, in words."""
    if isinstance(value, bool):
        return "true or false"
    kinds = {
        list: "a list",
        str: "a string",
        int: "a number",
        float: "a number",
        dict: "a class-type value",
    }
    return next((w for t, w in kinds.items() if isinstance(value, t)), "null")


def _place_piece(piece: SceneryEntry, where: str, out: MapImport) -> None:
    """The piece on the table, cut at its edge; one wholly off it listed as skipped."""
    cut = _clip(piece, box(0, 0, *out.size))
    if not cut:
        pts = piece.line or piece.polygon or [(0.0, 0.0)]
        out.off_table(where, "lies wholly", (min(x for x, _ in pts), min(y for _, y in pts)))
    out.pieces += cut


def _clip(piece: SceneryEntry, table: Polygon) -> list[SceneryEntry]:
    """The piece cut at the table's edge (a wall along the edge would reach half its
    thickness past it); [] for a piece wholly off the table."""
    if len(piece.line or piece.polygon or []) < (2 if piece.line is not None else 3):
        return [piece]  # the scenario check names a line or polygon of too few points
    if piece.line is not None:
        shape = LineString(piece.line).buffer(
            piece.thickness / 2, cap_style="flat", join_style="mitre"
        )
    else:
        shape = Polygon(piece.polygon or [])
        if not shape.is_valid:
            return [piece]  # the scenario check names the crossing
    if table.buffer(1e-9).contains(shape):
        return [piece]
    cut = shape.intersection(table)
    parts = list(cut.geoms) if isinstance(cut, MultiPolygon) else [cut]
    polys = [p for p in parts if isinstance(p, Polygon) and p.area > 1e-9]
    out = []
    for k, poly in enumerate(polys):
        suffix = f"-{k + 1}" if len(polys) > 1 else ""
        coords = [(float(x), float(y)) for x, y in list(poly.exterior.coords)[:-1]]
        out.append(
            SceneryEntry(
                id=f"{piece.id}{suffix}",
                kind=piece.kind,
                height=piece.height,
                polygon=coords,
                label=piece.label,
            )
        )
    return out


def import_map(
    path: Path,
    ruleset: str,
    *,
    scale: float = 1.0,
    wall_height: float | None = None,
    name: str | None = None,
) -> tuple[Document, MapImport]:
    """A map file as a scenario document, checked as a scenario file is (InputError
    naming the map and the problem when it cannot be read or makes no valid table)."""
    try:
        rs = find_ruleset(ruleset)
    except UnknownRuleset:
        known = ", ".join(RULESETS)
        problem = f"unknown ruleset {ruleset!r} (known: {known})"
        raise InputError(Problem(COMMAND_LINE, "--ruleset", problem)) from None
    if not (math.isfinite(scale) and scale > 0):
        problem = f"expected a number of inches above 0 (got {scale:g})"
        raise InputError(Problem(COMMAND_LINE, "--scale", problem))
    suffix = path.suffix.lower()
    if wall_height is not None and not 0 < wall_height <= 100:
        problem = f"expected a number of inches above 0 and at most 100 (got {wall_height:g})"
        raise InputError(Problem(COMMAND_LINE, "--wall-height", problem))
    if suffix in TILED:
        if wall_height is not None:
            problem = (
                "only a Universal VTT map's walls take it: a Tiled map's heights come "
                "from its objects' and layers' height properties"
            )
            raise InputError(Problem(COMMAND_LINE, "--wall-height", problem))
        found = _tiled(path, rs.name, scale)
    elif suffix in UVTT:
        found = _uvtt(path, scale, wall_height)
    else:
        known = ", ".join(TILED + UVTT)
        raise InputError(Problem(str(path), "", f"unknown map format {suffix!r} (known: {known})"))
    width, depth = found.size
    side_ids = found.sides or ["blue", "red"]
    sides = tuple(
        SideEntry(id=s, player="human" if k == 0 else "ai") for k, s in enumerate(side_ids)
    )
    doc = Document(
        header=Header(name=name or found.name, ruleset=rs.name, table=(width, depth)),
        scenery=tuple(found.pieces),
        sides=sides,
        models=tuple(found.models),
    )
    scenario, problems = check_document(doc)
    # what validate refuses though a game plays through it (a second Lieutenant or
    # Leader of a side, a `unit` where the system has none) is refused too: README
    # promises a scenario that validates (retest13's finding 2)
    problems = problems or list(scenario.advice if scenario is not None else ())
    if problems:
        raise InputError([Problem(str(path), p.place, p.problem) for p in problems])
    return doc, found
