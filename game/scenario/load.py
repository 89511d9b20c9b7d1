"""Reading and checking scenario files and rule data.

Every problem is collected, not only the first, each as a `Problem` naming the file,
the line of the field at fault (the entry's table header when no one field is, or
when the field is not written on a line of its own table, as in an inline table) and
the entry; `load_scenario` raises `InputError` with all of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from difflib import get_close_matches
from functools import cache
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

import shapely
from pydantic import BaseModel, TypeAdapter, ValidationError
from shapely.geometry import LineString, Point, Polygon

from game.errors import InputError, Problem
from game.files import parse_toml, read_text
from game.paths import ASSETS_DIR, no_such_scenario
from game.rules.data import Profile, Weapon
from game.rules.registry import RULESETS, Ruleset, UnknownRuleset, find_ruleset
from game.scenario.model import (
    AI,
    HUMAN,
    ID_PATTERN,
    MAX_MODELS,
    MAX_OBJECTIVES,
    MAX_SCENERY,
    MAX_SCENERY_POINTS,
    MAX_SIDES,
    Header,
    ModelEntry,
    ObjectiveEntry,
    SceneryEntry,
    SideEntry,
)
from game.scenario.rule_values import load_rule_values
from game.scenario.scenario import Piece, PlacedModel, Scenario
from game.sequencer.setup import NO_MODELS, NO_SIDES, ONE_SIDE
from game.words import over

M = TypeVar("M", bound=BaseModel)

# Two bases may touch; a base may touch scenery. Anything deeper than this overlaps.
CONTACT_TOLERANCE = 1e-3
_TOP_LEVEL = {"scenario", "scenery", "side", "model", "profile", "weapon", "objective"}
# A scenario file is a few kilobytes; one this large is not one (README, "Limits").
MAX_FILE_BYTES = 4 * 1024 * 1024
# How many entries of each list a scenario may have (README, "Limits").
_MOST = {
    "side": MAX_SIDES,
    "model": MAX_MODELS,
    "scenery": MAX_SCENERY,
    "objective": MAX_OBJECTIVES,
    "profile": MAX_MODELS,
    "weapon": MAX_MODELS,
}


# A key at the start of a line: `at = ...`, `"at" = ...` (a dotted key counts by its first part).
_KEY = re.compile(r"""^(?:([A-Za-z0-9_\-]+)|"([^"\\]*)"|'([^']*)')\s*[.=]""")


class Where:
    """Where an entry is in the text: its header's line, and the line of each of its
    keys (`at(key)`: that key's line, or the header's when it is not known)."""

    def __init__(self, line: int | None, keys: Mapping[str, int] | None = None) -> None:
        self.line = line
        self.keys = dict(keys or {})

    def at(self, key: str) -> int | None:
        return self.keys.get(key, self.line)


class _Lines:
    """Line numbers of table headers in a TOML text, and of the keys written under
    each, to point at an entry and at a field of it."""

    def __init__(self, text: str) -> None:
        self._tables: dict[str, Where] = {}
        self._arrays: dict[str, list[Where]] = {}
        current: Where | None = None
        depth = 0  # brackets and braces left open by a value that runs over lines
        quoted = False  # inside a multi-line string
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            fences = line.count('"""') + line.count("'''")
            if quoted:
                quoted = fences % 2 == 0
                continue
            if fences % 2:
                quoted = True
            if depth > 0:
                depth += _open_brackets(line)
                continue
            if m := re.match(r"^\[\[\s*([A-Za-z0-9_\-]+)\s*\]\]", line):
                current = Where(number)
                self._arrays.setdefault(m[1], []).append(current)
            elif m := re.match(r"^\[\s*([A-Za-z0-9_\-]+)\s*\]", line):
                current = self._tables.setdefault(m[1], Where(number))
            elif line.startswith("["):
                current = None  # a sub-table ([a.b]): its keys are not the entry's
            elif m := _KEY.match(line):
                key = m[1] if m[1] is not None else (m[2] if m[2] is not None else m[3])
                if current is not None:
                    current.keys.setdefault(key, number)
                depth = max(0, _open_brackets(line.split("=", 1)[1] if "=" in line else ""))

    def table(self, name: str) -> int | None:
        return self.table_where(name).line

    def table_where(self, name: str) -> Where:
        return self._tables.get(name, Where(None))

    def entry(self, name: str, index: int) -> int | None:
        return self.entry_where(name, index).line

    def entry_where(self, name: str, index: int) -> Where:
        entries = self._arrays.get(name, [])
        return entries[index] if index < len(entries) else Where(None)


def _open_brackets(text: str) -> int:
    """How many [ and { a line leaves open (strings and comments skipped)."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'', "", text).split("#", 1)[0]
    return text.count("[") + text.count("{") - text.count("]") - text.count("}")


# What a field holding a list of numbers should look like: whatever pydantic finds wrong
# with its shape (not a list, too few or too many items, an item not a number), the
# field gets one message saying so.
_SHAPES = {
    "at": "[x, y], two numbers",
    "table": "[width, depth], two numbers",
    "colour": "[red, green, blue], three whole numbers",
}
# Fields holding a list of points: a point of the wrong shape is named by its number.
_POINT_LISTS = ("polygon", "line")
_SHAPE_ERRORS = {
    "tuple_type",
    "list_type",
    "too_long",
    "too_short",
    "missing",
    "float_type",
    "float_parsing",
    "int_type",
    "int_parsing",
    "int_from_float",
}
# What a single value should be, for the type errors pydantic words in its own terms.
_EXPECTED = {
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "float_type": "a number",
    "float_parsing": "a number",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "string_type": "text in quotes",
    "tuple_type": "a list in brackets",
    "list_type": "a list in brackets",
    "dict_type": "a table",
}


def _shown(value: object) -> str:
    """A value as it was written in the file (near enough: TOML's own spelling)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:  # JSON's null (a map's), which TOML has not
        return "null"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_shown(v)}" for k, v in value.items()) + "}"
    return str(value)


# The items of a field holding a fixed list of numbers, by position, as a message names them.
_ITEMS = {
    "table": ("width", "depth"),
    "at": ("x", "y"),
    "colour": ("red", "green", "blue"),
}
# A value out of its range, in our words: "thickness must be more than 0, got -1".
_BOUNDS = {
    "greater_than": ("gt", "more than"),
    "greater_than_equal": ("ge", "at least"),
    "less_than": ("lt", "less than"),
    "less_than_equal": ("le", "at most"),
}


def _what(loc: tuple[Any, ...]) -> str:
    """The field (and item of it) an error is about, as a message names it: "thickness",
    "table width", "line point 2 y", "weapons item 3"."""
    if not loc:
        return "the value"
    field = str(loc[0])
    words = [field]
    rest = list(loc[1:])
    if rest and isinstance(rest[0], int):
        index = rest.pop(0)
        if field in _ITEMS and index < len(_ITEMS[field]):
            words.append(_ITEMS[field][index])
        elif field in _POINT_LISTS:
            words.append(f"point {index + 1}")
            if rest and isinstance(rest[0], int):
                words.append(("x", "y")[rest.pop(0)] if rest[0] in (0, 1) else "")
        else:
            words.append(f"item {index + 1}")
    words += [str(part) if not isinstance(part, int) else f"item {part + 1}" for part in rest]
    return " ".join(w for w in words if w)


def in_our_words(error: Mapping[str, Any]) -> str | None:
    """Range, length, form and finiteness errors, naming the field and the value as
    written ("range must be more than 0, got -3"); None for any other error."""
    kind = error["type"]
    ctx = error.get("ctx") or {}
    what = _what(tuple(error["loc"]))
    value = error.get("input")
    if kind in _BOUNDS:
        key, words = _BOUNDS[kind]
        return f"{what} must be {words} {float(ctx[key]):g}, got {_shown(value)}"
    if kind == "finite_number":
        return f"{what} must be a finite number, got {_shown(value)}"
    if kind == "string_too_short":
        least = int(ctx.get("min_length", 1))
        if least <= 1:
            return f"{what} must not be empty"
        return f"{what} must be at least {least} characters, got {len(str(value))}"
    if kind == "string_too_long":
        return f"{what} must be at most {ctx.get('max_length')} characters, got {len(str(value))}"
    if kind == "too_long":
        return (
            f"{what} may have at most {ctx.get('max_length')} items, got {ctx.get('actual_length')}"
        )
    if kind == "too_short":
        return (
            f"{what} needs at least {ctx.get('min_length')} items, got {ctx.get('actual_length')}"
        )
    if kind == "string_pattern_mismatch":
        if ctx.get("pattern") == ID_PATTERN:
            return (
                f"{what} {_shown(value)} may hold only letters, digits and the marks _ . -"
                " (no spaces)"
            )
        return f"{what} {_shown(value)} is not of the form {ctx.get('pattern')}"
    return None


def expected(error: Mapping[str, Any]) -> str | None:
    """A value of the wrong kind, in our words ("expected a number, not 'abc'"); None
    for any other error."""
    kind = _EXPECTED.get(error["type"])
    return None if kind is None else f"expected {kind}, not {_shown(error.get('input'))}"


def _describe(error: Mapping[str, Any], raw: Mapping[str, Any]) -> str:
    loc = ".".join(str(part) for part in error["loc"] if not isinstance(part, int))
    field = str(error["loc"][0]) if error["loc"] else ""
    kind = error["type"]
    if field in _SHAPES and kind in _SHAPE_ERRORS and field in raw:
        return f"{field}: expected {_SHAPES[field]}, not {_shown(raw[field])}"
    if field in _POINT_LISTS and kind == "list_type" and len(error["loc"]) == 1:
        return f"{field}: expected a list of points [x, y], not {_shown(error['input'])}"
    if field in _POINT_LISTS and kind in _SHAPE_ERRORS and len(error["loc"]) > 1:
        index = error["loc"][1]
        point = raw[field][index] if isinstance(raw.get(field), list) else None
        shown = f", not {_shown(point)}" if point is not None else ""
        return f"{field}: point {index + 1}: expected [x, y], two numbers{shown}"
    ours = in_our_words(error)
    if ours is not None:
        return ours
    if kind == "missing" and len(error["loc"]) == 1:
        return f"missing field {loc!r}"
    if kind == "missing":
        return f"{loc}: too few items"
    if kind == "extra_forbidden":
        return f"unknown field {loc!r}"
    if kind in ("literal_error", "enum"):
        known = ", ".join(re.findall(r"'([^']*)'", str(error.get("ctx", {}).get("expected"))))
        if known and not isinstance(error["input"], str):  # a list or a number: no name
            return f"{loc}: expected text in quotes, not {_shown(error['input'])} (one of {known})"
        return f"unknown {loc} {_shown(error['input'])} (one of {known})"
    if (wrong := expected(error)) is not None:
        return f"{_what(tuple(error['loc']))}: {wrong}"
    message = str(error["msg"]).removeprefix("Value error, ")
    if message.startswith("Input should be "):  # pydantic's words for any other kind
        message = (
            f"expected {message.removeprefix('Input should be ')}, not {_shown(error['input'])}"
        )
    return f"{loc}: {message}" if loc else message


def _numbers(annotation: Any) -> str | None:
    """What a field holds when it holds only numbers ("a whole number", "a number"), else
    None: `true` is no number, though pydantic reads it as 1."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _numbers(get_args(annotation)[0])
    if annotation is bool:
        return None
    if annotation is int:
        return "a whole number"
    if annotation is float:
        return "a number"
    if origin in (Union, UnionType, tuple, list):
        kinds = {_numbers(a) for a in get_args(annotation) if a not in (type(None), Ellipsis)}
        if not kinds or None in kinds:
            return None
        return "a whole number" if kinds == {"a whole number"} else "a number"
    return None


def _not_number(value: object) -> bool:
    """Whether `value` (or an item of it) is true or false, or text: pydantic would read
    `true` as 1 and "3" as 3, but a number in a scenario is written as a number."""
    if isinstance(value, list | tuple):
        return any(_not_number(v) for v in value)
    return isinstance(value, bool | str)


@cache
def _number_fields(model: type[BaseModel]) -> dict[str, Any]:
    """The keys (as written in the file) of a model's fields that hold only numbers, with
    their types."""
    out = {}
    for name, info in model.model_fields.items():
        if _numbers(info.annotation) is not None:
            out[info.alias or name] = info.annotation
    return out


def _unwrapped(annotation: Any) -> Any:
    """A field's type with None and Annotated set aside."""
    while get_origin(annotation) in (Annotated, Union, UnionType):
        annotation = next(a for a in get_args(annotation) if a is not type(None))
    return annotation


def _item_type(annotation: Any, index: int) -> Any:
    """The type of item `index` of a list or tuple field (None and Annotated set aside)."""
    annotation = _unwrapped(annotation)
    items = get_args(annotation)
    if get_origin(annotation) is tuple and items and items[-1] is not Ellipsis:
        return items[index] if index < len(items) else None
    return items[0] if items else None


def _not_number_item(
    annotation: Any, value: object, where: tuple[Any, ...]
) -> tuple[tuple[Any, ...], Any, object]:
    """Where in a list of numbers (`where`, as pydantic places it) the first true, false
    or text is, the type that place holds and what it holds."""
    if isinstance(value, list | tuple) and get_origin(_unwrapped(annotation)) in (list, tuple):
        index = next(i for i, v in enumerate(value) if _not_number(v))
        return _not_number_item(_item_type(annotation, index), value[index], (*where, index))
    return where, annotation, value


def _not_numbers(model: type[BaseModel], raw: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(key, problem) for each field holding only numbers that was given true or false,
    or a number in quotes ("3")."""
    found = []
    for key, annotation in _number_fields(model).items():
        value = raw.get(key)
        if not _not_number(value):
            continue
        if key in _SHAPES:
            found.append((key, f"{key}: expected {_SHAPES[key]}, not {_shown(value)}"))
        elif key in _POINT_LISTS and isinstance(value, list):
            index = next(i for i, point in enumerate(value) if _not_number(point))
            shown = _shown(value[index])
            found.append(
                (key, f"{key}: point {index + 1}: expected [x, y], two numbers, not {shown}")
            )
        else:  # the item named, as pydantic's errors name one: "bands item 2 item 1"
            where, kind, item = _not_number_item(annotation, value, (key,))
            listed = get_origin(kind) in (tuple, list)
            holds = "a list in brackets" if listed else _numbers(kind) or "a number"
            found.append((key, f"{_what(where)}: expected {holds}, not {_shown(item)}"))
    return found


def _validate(
    model: type[M], raw: object, file: str, place: str, where: Where, out: list[Problem]
) -> M | None:
    if not isinstance(raw, dict):
        out.append(Problem(file, place, "expected a table", where.line))
        return None
    refused = _not_numbers(model, raw)
    for key, problem in refused:
        out.append(Problem(file, place, problem, where.at(key)))
    try:
        entry = model.model_validate(raw)
        return None if refused else entry
    except ValidationError as err:
        said: set[tuple[int | None, str]] = set()
        for e in err.errors():
            if e["loc"] and any(e["loc"][0] == key for key, _ in refused):
                continue  # said once: a number is expected there, not true, false or text
            # a field's own line; a field left out is missing from the entry's header
            whole = e["type"] == "missing" and len(e["loc"]) == 1
            line = where.at(str(e["loc"][0])) if e["loc"] and not whole else where.line
            problem = _describe(e, raw)
            if (line, problem) not in said:  # one message for one field's shape
                said.add((line, problem))
                out.append(Problem(file, place, problem, line))
        bad = {str(e["loc"][0]) for e in err.errors() if e["loc"]} | {k for k, _ in refused}
        for problem in _whole_entry_problems(model, raw, bad):
            if (where.line, problem) not in said:
                out.append(Problem(file, place, problem, where.line))
        return None


def _whole_entry_problems(model: type[M], raw: Mapping[str, Any], bad: set[str]) -> list[str]:
    """What the entry's own checks of its fields together ("needs exactly one of polygon
    or line") find once its `bad` fields are left out: pydantic runs them only on an entry
    whose every field is good, and a bad thickness would hide a piece with no shape. A
    check that names a field left out is not said (leaving `line` out, the entry has no
    shape). A check of one field alone is that field's own (validate names its line)."""
    if not bad:
        return []
    try:
        model.model_validate({k: v for k, v in raw.items() if k not in bad})
    except ValidationError as err:
        found = []
        for e in err.errors():
            message = str(e["msg"]).removeprefix("Value error, ")
            if not e["loc"] and not any(re.search(rf"\b{re.escape(k)}\b", message) for k in bad):
                found.append(message)
        return found
    return []


def good_field(model: type[BaseModel], raw: object, key: str) -> Any:
    """The value of field `key` of an entry that failed as a whole, when that field alone
    is good (a model's side and profile are still checked against the file's); else None."""
    if not isinstance(raw, dict) or key not in raw or isinstance(raw[key], bool):
        return None
    try:
        return _field_adapter(model, key).validate_python(raw[key])
    except ValidationError:
        return None


@cache
def _field_adapter(model: type[BaseModel], key: str) -> TypeAdapter[Any]:
    info = model.model_fields[key]
    form: Any = Annotated[info.annotation, *info.metadata]  # the field's type and bounds
    return TypeAdapter(form)


def _entry_place(kind: str, raw: object, index: int) -> str:
    key = "name" if kind in ("profile", "weapon") else "id"
    if isinstance(raw, dict) and isinstance(raw.get(key), str):
        return f"{kind} {raw[key]!r}"
    return f"{kind} #{index + 1}"


def read_toml(path: Path) -> tuple[dict[str, Any], _Lines]:
    """The parsed file and its header lines; a missing file or a syntax error is bad input."""
    text = read_scenario_text(path)
    return parse_toml(text, str(path)), _Lines(text)


def read_scenario_text(path: Path) -> str:
    """The text of a scenario file; a bare name that is no file and no bundled table is
    bad input naming the tables close to it."""
    if (missing := no_such_scenario(path)) is not None:
        raise InputError(Problem(str(path), "", missing))
    return read_text(path, MAX_FILE_BYTES, "TOML file")


def _read_entries(
    model: type[M], kind: str, data: Mapping[str, Any], lines: _Lines, file: str, out: list[Problem]
) -> list[tuple[M, Where]]:
    return [
        (entry, where)
        for entry, _, where in _read_each(model, kind, data, lines, file, out)
        if entry is not None
    ]


def _read_each(
    model: type[M], kind: str, data: Mapping[str, Any], lines: _Lines, file: str, out: list[Problem]
) -> list[tuple[M | None, object, Where]]:
    """Every entry of the list `kind`, in the file's order: the checked entry, or None
    when it has a problem (said in `out`), beside what the file holds there."""
    raw_list = data.get(kind, [])
    if not isinstance(raw_list, list):
        out.append(Problem(file, kind, f"write each {kind} as a [[{kind}]] table", None))
        return []
    most = _MOST.get(kind)
    if most is not None and len(raw_list) > most:
        problem = f"{len(raw_list)} entries; a scenario may have at most {most}"
        out.append(Problem(file, f"[[{kind}]]", problem, lines.entry(kind, most)))
        return []
    found: list[tuple[M | None, object, Where]] = []
    for index, raw in enumerate(raw_list):
        where = lines.entry_where(kind, index)
        entry = _validate(model, raw, file, _entry_place(kind, raw, index), where, out)
        found.append((entry, raw, where))
    return found


def _check_rule_data(
    profiles: Iterable[tuple[Profile, str, int | None]],
    weapons: Mapping[str, Weapon],
    out: list[Problem],
) -> None:
    for profile, file, line in profiles:
        for weapon in profile.weapons:
            if weapon not in weapons:
                problem = unknown("weapon", weapon, weapons)
                out.append(Problem(file, f"profile {profile.name!r}", problem, line))


@cache
def rule_data(ruleset_name: str) -> tuple[dict[str, Profile], dict[str, Weapon]]:
    """The bundled profiles and weapons of a rule system (assets/<system>/)."""
    ruleset = find_ruleset(ruleset_name)
    folder = ASSETS_DIR / ruleset.assets
    problems: list[Problem] = []
    profiles: dict[str, Profile] = {}
    weapons: dict[str, Weapon] = {}
    profile_places: list[tuple[Profile, str, int | None]] = []
    path = folder / "weapons.toml"
    data, lines = read_toml(path)
    for weapon, where in _read_entries(
        ruleset.weapon_model, "weapon", data, lines, str(path), problems
    ):
        if weapon.name in weapons:
            problem = Problem(
                str(path), f"weapon {weapon.name!r}", "duplicate name", where.at("name")
            )
            problems.append(problem)
        weapons[weapon.name] = weapon
    path = folder / "profiles.toml"
    data, lines = read_toml(path)
    for prof, where in _read_entries(
        ruleset.profile_model, "profile", data, lines, str(path), problems
    ):
        if prof.name in profiles:
            problem = Problem(
                str(path), f"profile {prof.name!r}", "duplicate name", where.at("name")
            )
            problems.append(problem)
        profiles[prof.name] = prof
        profile_places.append((prof, str(path), where.at("weapons")))
    _check_rule_data(profile_places, weapons, problems)
    if problems:
        raise InputError(problems)
    return profiles, weapons


def _collinear(points: list[tuple[float, float]]) -> bool:
    (x0, y0), (x1, y1) = points[0], points[1]
    return all(abs((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)) <= 1e-9 for x, y in points[2:])


def _footprint(entry: SceneryEntry, file: str, where: Where, out: list[Problem]) -> Polygon:
    place = f"scenery {entry.id!r}"
    line = where.at("line" if entry.line is not None else "polygon")
    if entry.line is not None:
        path = LineString(entry.line)
        if path.length == 0:
            out.append(Problem(file, place, "line has zero length", line))
            return Polygon()
        if not path.is_simple:
            out.append(Problem(file, place, "line crosses itself", line))
            return Polygon()
        shape = path.buffer(entry.thickness / 2, cap_style="flat", join_style="mitre")
        return shape if isinstance(shape, Polygon) else Polygon()
    points = list(entry.polygon or [])
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()
    if len(points) < 3:
        out.append(Problem(file, place, f"polygon has {len(points)} points, needs 3 or more", line))
        return Polygon()
    poly = Polygon(points)
    # A polygon whose points all lie on one line has no area (shapely calls it
    # self-intersecting); a bow-tie has two lobes and crosses itself.
    if _collinear(points):
        out.append(Problem(file, place, "polygon has zero area", line))
        return Polygon()
    if not poly.is_valid:
        reason = shapely.is_valid_reason(poly)
        found = re.search(r"\[([-\d.e ]+)\]", reason)
        at = ""
        if found:
            x, y = (float(v) for v in found[1].split()[:2])
            at = f" at ({x:g}, {y:g})"
        out.append(Problem(file, place, f"polygon crosses itself{at}", line))
        return Polygon()
    return poly


# One of each kind of entry, as a sentence names it ("already a scenery piece").
_ONE = {"scenery": "scenery piece"}
# The table's size when [scenario] does not say it: nothing is off a table this large.
_UNBOUNDED = 1e9


def _read_rule_data(
    ruleset: Ruleset,
    data: Mapping[str, Any],
    lines: _Lines,
    file: str,
    out: list[Problem],
    weapons: dict[str, Weapon],
    profiles: dict[str, Profile],
) -> None:
    """A scenario's own [[weapon]] and [[profile]] entries, each replacing a bundled one
    of its name in `weapons` and `profiles`; their problems to `out`."""
    local_profiles: list[tuple[Profile, str, int | None]] = []
    seen: set[str] = set()
    for weapon, where in _read_entries(ruleset.weapon_model, "weapon", data, lines, file, out):
        if weapon.name in seen:
            out.append(Problem(file, f"weapon {weapon.name!r}", "duplicate name", where.at("name")))
        seen.add(weapon.name)
        weapons[weapon.name] = weapon
    seen = set()
    for prof, where in _read_entries(ruleset.profile_model, "profile", data, lines, file, out):
        if prof.name in seen:
            out.append(Problem(file, f"profile {prof.name!r}", "duplicate name", where.at("name")))
        seen.add(prof.name)
        profiles[prof.name] = prof
        local_profiles.append((prof, file, where.at("weapons")))
    _check_rule_data(local_profiles, weapons, out)


def check_scenario(path: Path, to_play: bool = False) -> tuple[Scenario | None, list[Problem]]:
    """Read a scenario and find every problem in it (`to_play`: as `check_data`)."""
    try:
        text = read_scenario_text(path)
    except InputError as err:
        return None, err.problems
    return check_scenario_text(text, path, to_play)


def check_scenario_text(
    text: str, path: Path, to_play: bool = False
) -> tuple[Scenario | None, list[Problem]]:
    """Find every problem in the scenario `text` (the contents of `path`, or a copy of them
    carried in a save file; `to_play`: as `check_data`)."""
    try:
        data = parse_toml(text, str(path))
    except InputError as err:
        return None, err.problems
    return check_data(data, path, _Lines(text), text, to_play)


# `axes` on a piece whose sides give its axes (a box, a wall): the shape wins
UNREAD_AXES = (
    "axes: not read: the piece's sides lie square, and give its axes (the key is for a "
    "shape whose sides do not, a triangle): leave it out"
)


def check_data(
    data: Mapping[str, Any],
    path: Path,
    lines: _Lines | None = None,
    text: str = "",
    to_play: bool = False,
) -> tuple[Scenario | None, list[Problem]]:
    """Find every problem in a scenario's tables as read from its TOML (`lines`: where
    each table starts in the text, when there is one; `text`: the text itself). With
    `to_play` (`check_to_play`: validate), a file with problems is told too what a valid
    one would be told beside them (`advice`, `unplayable`: a side with no models), not
    only the problems that stop it being read (tester15 finding 12)."""
    file = str(path)
    lines = lines or _Lines("")
    out: list[Problem] = []
    advice: list[Problem] = []  # what validate says and a game plays through
    for key in data:
        if key not in _TOP_LEVEL:
            line = lines.table(key) or lines.entry(key, 0)  # [name] or [[name]]
            problem = f"unknown table ({_hint(key, _TOP_LEVEL)})"
            out.append(Problem(file, f"[{key}]", problem, line))
    if "scenario" not in data:
        out.append(Problem(file, "[scenario]", "missing: the file needs a [scenario] table"))
        return None, out
    header_where = lines.table_where("scenario")
    # A [scenario] table with a problem hides none of the file's other problems: what
    # can be checked without it (or without its rule system) still is.
    header = _validate(Header, data["scenario"], file, "[scenario]", header_where, out)
    ruleset = None
    raw_ruleset = data["scenario"].get("ruleset") if isinstance(data["scenario"], dict) else None
    if isinstance(raw_ruleset, str):
        try:
            ruleset = find_ruleset(raw_ruleset)
        except UnknownRuleset:
            known = ", ".join(RULESETS)
            problem = f"unknown ruleset {raw_ruleset!r} (known: {known})"
            out.append(Problem(file, "[scenario] ruleset", problem, header_where.at("ruleset")))
    if ruleset is not None and isinstance(data["scenario"], dict) and "saves" in data["scenario"]:
        unread = _not_read(ruleset, "saves")
        if unread is not None:
            out.append(Problem(file, "[scenario]", unread, header_where.at("saves")))
    weapons: dict[str, Weapon] = {}
    profiles: dict[str, Profile] = {}
    if ruleset is not None:
        try:
            base_profiles, base_weapons = rule_data(ruleset.name)
        except InputError as err:
            return None, out + err.problems
        weapons, profiles = dict(base_weapons), dict(base_profiles)
        _read_rule_data(ruleset, data, lines, file, out, weapons, profiles)

    width, depth = header.table if header is not None else (_UNBOUNDED, _UNBOUNDED)
    table = Polygon([(0, 0), (width, 0), (width, depth), (0, depth)])
    ids: dict[str, str] = {}

    def claim(kind: str, entry_id: str | None, line: int | None) -> None:
        if entry_id is None:
            return  # an id that is no id: said where it is
        if entry_id in ids:
            already = _ONE.get(ids[entry_id], ids[entry_id])
            problem = f"duplicate id (already a {already})"
            out.append(Problem(file, f"{kind} {entry_id!r}", problem, line))
        else:
            ids[entry_id] = kind

    sides: list[SideEntry] = []
    places: dict[str, Where] = {}  # "side 'blue'" -> where its entry is
    for side, raw, where in _read_each(SideEntry, "side", data, lines, file, out):
        if side is None:
            bad_id = good_field(SideEntry, raw, "id")
            claim("side", bad_id, where.at("id"))
            if bad_id is not None:  # where it is, for what else is said of it
                places.setdefault(f"side {bad_id!r}", where)
            continue
        claim("side", side.id, where.at("id"))
        if ruleset is not None and side.player not in (HUMAN, AI, *ruleset.players):
            known = ", ".join((HUMAN, AI, *ruleset.players))
            problem = f"unknown player {side.player!r} (one of {known})"
            out.append(Problem(file, f"side {side.id!r}", problem, where.at("player")))
        sides.append(side)
        places[f"side {side.id!r}"] = where
    no_sides = not data.get("side")  # a table laid out before its sides: unplayable

    pieces: list[tuple[Piece, Polygon]] = []
    points = 0
    for entry, raw, where in _read_each(SceneryEntry, "scenery", data, lines, file, out):
        if entry is None:
            claim("scenery", good_field(SceneryEntry, raw, "id"), where.at("id"))
            continue
        claim("scenery", entry.id, where.at("id"))
        if entry.axes is not None and entry.shape_axes is not None:
            # said by validate, not refused (the shape wins: a game and the editor read
            # the piece as it is); the editor writes it only where the shape does not
            advice.append(Problem(file, f"scenery {entry.id!r}", UNREAD_AXES, where.at("axes")))
        shape_line = where.at("line" if entry.line is not None else "polygon")
        points += len(entry.polygon or entry.line or ())
        if points > MAX_SCENERY_POINTS:
            problem = f"the scenery has over {MAX_SCENERY_POINTS} points in all"
            out.append(Problem(file, f"scenery {entry.id!r}", problem, shape_line))
            break
        shape = _footprint(entry, file, where, out)
        if shape.is_empty:
            continue
        if not table.buffer(1e-9).contains(shape):
            out.append(Problem(file, f"scenery {entry.id!r}", "extends off the table", shape_line))
        coords = tuple((float(x), float(y)) for x, y in list(shape.exterior.coords)[:-1])
        pieces.append((Piece(entry.id, entry.kind, entry.height, coords, entry.label), shape))

    # a side whose entry has another problem (a bad colour, say) still exists: its
    # models are not "on an unknown side" too
    side_ids = dict.fromkeys(
        [s.id for s in sides]
        + [
            str(entry["id"])
            for entry in data.get("side") or []
            if isinstance(entry, dict) and isinstance(entry.get("id"), str)
        ]
    )  # in the file's order, for `_unknown_side`
    placed: list[tuple[PlacedModel, int | None]] = []
    units: dict[str, tuple[str, str]] = {}  # unit -> its first model and that model's side
    for index, (spec, raw, where) in enumerate(
        _read_each(ModelEntry, "model", data, lines, file, out)
    ):
        if spec is None:  # what can still be checked of it against the rest of the file
            model_id = good_field(ModelEntry, raw, "id")
            claim("model", model_id, where.at("id"))
            place = _entry_place("model", raw, index)
            side = good_field(ModelEntry, raw, "side")
            if side is not None and side not in side_ids:
                out.append(Problem(file, place, _unknown_side(side, side_ids), where.at("side")))
            profile_name = good_field(ModelEntry, raw, "profile")
            if ruleset is not None and profile_name is not None and profile_name not in profiles:
                problem = unknown("profile", profile_name, profiles)
                out.append(Problem(file, place, problem, where.at("profile")))
            continue
        place = f"model {spec.id!r}"
        places[place] = where
        claim("model", spec.id, where.at("id"))
        if spec.side not in side_ids:
            problem = _unknown_side(spec.side, side_ids)
            out.append(Problem(file, place, problem, where.at("side")))
        if spec.unit is not None:  # a unit fights for one side
            first = units.setdefault(spec.unit, (spec.id, spec.side))
            if first[1] != spec.side:
                problem = (
                    f"unit {spec.unit!r} is of side {first[1]!r} (model {first[0]!r}), "
                    f"this model of {spec.side!r}: a unit's models are all of one side"
                )
                out.append(Problem(file, place, problem, where.at("unit")))
        if ruleset is None:
            continue  # its profile, weapons and state are the rule system's
        profile = profiles.get(spec.profile)
        if profile is None:
            problem = unknown("profile", spec.profile, profiles)
            out.append(Problem(file, place, problem, where.at("profile")))
            continue
        if spec.unit is not None and (unread := _not_read(ruleset, "unit")) is not None:
            # said by validate, not refused: session 9's editor wrote it (U) in systems
            # without units, and saves carry such files; a game leaves it unread
            advice.append(Problem(file, place, unread, where.at("unit")))
        given = isinstance(raw, dict) and "lieutenant" in raw
        if given and (unread := _not_read(ruleset, "lieutenant")) is not None:
            out.append(Problem(file, place, unread, where.at("lieutenant")))
        if spec.state is not None and spec.state not in ruleset.states:
            known = ", ".join(ruleset.states)
            problem = f"unknown state {spec.state!r} (known: {known})"
            out.append(Problem(file, place, problem, where.at("state")))
        for weapon_name in spec.weapons or ():
            if weapon_name not in weapons:
                problem = unknown("weapon", weapon_name, weapons)
                out.append(Problem(file, place, problem, where.at("weapons")))
        refused = profile.placement_problem(lieutenant=spec.lieutenant)
        if refused:
            out.append(Problem(file, place, refused, where.at("lieutenant")))
        placed.append(
            (
                PlacedModel(
                    id=spec.id,
                    side=spec.side,
                    profile=spec.profile,
                    at=spec.at,
                    facing=spec.facing,
                    unit=spec.unit,
                    state=spec.state,
                    base_mm=spec.base if spec.base is not None else profile.base,
                    height=spec.height if spec.height is not None else profile.height,
                    weapons=spec.weapons if spec.weapons is not None else profile.weapons,
                    lieutenant=spec.lieutenant,
                    name=spec.name,
                ),
                where.at("at"),
            )
        )

    for index, (m, line) in enumerate(placed):
        place = f"model {m.id!r}"
        x, y = m.at
        r = m.radius
        if x - r < -1e-9 or y - r < -1e-9 or x + r > width + 1e-9 or y + r > depth + 1e-9:
            out.append(
                Problem(
                    file,
                    place,
                    f"base at ({x:g}, {y:g}) is off the {width:g}x{depth:g} table",
                    line,
                )
            )
        centre = Point(x, y)
        for piece, shape in pieces:
            if piece.kind.solid and shape.distance(centre) < r - CONTACT_TOLERANCE:
                out.append(Problem(file, place, f"stands inside {piece.kind} {piece.id!r}", line))
        for other, _ in placed[:index]:
            gap = ((x - other.at[0]) ** 2 + (y - other.at[1]) ** 2) ** 0.5 - r - other.radius
            if gap < -CONTACT_TOLERANCE:
                said = f"base overlaps model {other.id!r} by {over(-gap, 0)}"
                out.append(Problem(file, place, said, line))

    objectives: list[ObjectiveEntry] = []
    for objective, raw, where in _read_each(ObjectiveEntry, "objective", data, lines, file, out):
        if objective is None:
            claim("objective", good_field(ObjectiveEntry, raw, "id"), where.at("id"))
            continue
        claim("objective", objective.id, where.at("id"))
        line = where.at("at")
        x, y = objective.at
        if not (0 <= x <= width and 0 <= y <= depth):
            out.append(
                Problem(
                    file, f"objective {objective.id!r}", f"({x:g}, {y:g}) is off the table", line
                )
            )
        objectives.append(objective)

    # the sides a model names, its entry good or not (every entry, however many)
    raw_models = data.get("model")
    fielded = {
        str(m["side"]) for m in raw_models if isinstance(m, dict) and "side" in m
    } if isinstance(raw_models, list) else set()  # fmt: skip
    unplayable = _unplayable(file, list(side_ids), fielded, places, no_sides)
    told = [*out, *advice, *unplayable] if to_play else out
    if out or header is None or ruleset is None:
        # In the order of the file, whatever check found them
        return None, sorted(told, key=lambda p: p.line or 0)
    scenario = Scenario(
        text=text,
        path=path,
        header=header,
        ruleset=ruleset,
        scenery=tuple(p for p, _ in pieces),
        sides=tuple(sides),
        models=tuple(m for m, _ in placed),
        objectives=tuple(objectives),
        profiles=profiles,
        weapons=weapons,
        rule_values=load_rule_values(ruleset.assets),
    )
    # What only the rule system knows it cannot play (its registry `validate` part): a
    # problem that starts with a field's name ("state 'ready', but ...") is that field's.
    system_check = ruleset.load("validate")
    nowhere = Where(None)
    if system_check is not None and not no_sides:  # a system checks the sides there are
        for place, problem in system_check(scenario):
            where = places.get(place, nowhere)
            out.append(Problem(file, place, problem, where.at(problem.split(" ", 1)[0])))
    advise = ruleset.load("advise")
    if advise is not None and not no_sides:
        for place, problem in advise(scenario):
            where = places.get(place, nowhere)
            advice.append(Problem(file, place, problem, where.at(problem.split(" ", 1)[0])))
    if out:
        told = [*out, *advice, *unplayable] if to_play else out
        return None, sorted(told, key=lambda p: p.line or 0)
    if advice:
        scenario = replace(scenario, advice=tuple(sorted(advice, key=lambda p: p.line or 0)))
    return (replace(scenario, unplayable=unplayable) if unplayable else scenario), []


def _unplayable(
    file: str, sides: Sequence[str], fielded: set[str], places: dict[str, Where], no_sides: bool
) -> tuple[Problem, ...]:
    """What keeps a table from being played: a side with no models (`fielded`: the sides
    that have one), no sides, one side only (`sides`: every side's id, its entry good or
    not)."""
    nowhere = Where(None)
    unplayable = tuple(
        Problem(file, place, NO_MODELS, places.get(place, nowhere).line)
        for place in (f"side {side!r}" for side in sides if side not in fielded)
    )
    if no_sides:  # fix10b: `skirmish edit` refused it, though the editor adds sides
        unplayable = (Problem(file, "[[side]]", NO_SIDES), *unplayable)
    if len(sides) == 1:  # retest13: validated "ok" and playtested "Red won 100%"
        place = f"side {sides[0]!r}"
        unplayable = (*unplayable, Problem(file, place, ONE_SIDE, places.get(place, nowhere).line))
    return unplayable


def unknown(what: str, name: str, known: Iterable[str]) -> str:
    """An unknown name, with the known one nearest it ("did you mean 'ganger'?"), else
    the known ones, as ruleset, state and temperament are refused."""
    return f"unknown {what} {name!r} ({_hint(name, known)})"


def _unknown_side(name: str, sides: Iterable[str]) -> str:
    """A model's side the file has no [[side]] for, with the sides it has (a few, in its
    order: "unknown side 'green' (the sides: blue, red)")."""
    listed = ", ".join(sides)
    known = f"the sides: {listed}" if listed else "no [[side]] in the file"
    return f"unknown side {name!r} ({known})"


def _hint(name: str, known: Iterable[str]) -> str:
    names = sorted(known)
    close = get_close_matches(name, names, n=1)
    return f"did you mean {close[0]!r}?" if close else f"known: {', '.join(names)}"


def _not_read(ruleset: Ruleset, key: str) -> str | None:
    """Why `key`, a field only some rule systems read (their profile's
    `SCENARIO_FIELDS`), is refused in a scenario of `ruleset`; None when it reads it."""
    if key in ruleset.profile_model.SCENARIO_FIELDS:
        return None
    readers = [r.title for r in RULESETS.values() if key in r.profile_model.SCENARIO_FIELDS]
    of = f" (a field of {', '.join(readers)})" if readers else ""
    return f"{key}: {ruleset.title} does not read it{of}"


def check_to_play(path: Path) -> tuple[Scenario | None, list[Problem]]:
    """`check_scenario`, and what keeps a valid table from being played (`unplayable`)
    and what a game plays through but a file should not say (`advice`) as its problems:
    what `validate` and `scenarios` say of a file."""
    scenario, problems = check_scenario(path, to_play=True)
    if scenario is not None and (scenario.unplayable or scenario.advice):
        return scenario, [*scenario.advice, *scenario.unplayable]
    return scenario, problems


def load_scenario(path: Path | str) -> Scenario:
    """The checked scenario at `path`; raises InputError listing every problem."""
    scenario, problems = check_scenario(Path(path))
    if problems or scenario is None:
        raise InputError(problems)
    return scenario
