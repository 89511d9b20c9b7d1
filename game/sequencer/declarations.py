"""Declarations: what a player (a person, a script or an AI) says a model does.

They are plain data, so a game is its scenario + seed + list of declarations:
the save file, the undo stack and the replay. Each class registers itself by name
for `decode`."""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import types
import typing
from collections.abc import Sequence
from dataclasses import MISSING, dataclass
from typing import Any, TypeVar, get_type_hints

from game.errors import IllegalDeclaration
from game.sequencer.events import _plain

_REGISTRY: dict[str, type[Declaration]] = {}
D = TypeVar("D", bound="type[Declaration]")
T = TypeVar("T")


def declaration(cls: D) -> D:
    """Register a declaration class so saves can name it."""
    _REGISTRY[cls.__name__] = cls
    return cls


def registered() -> dict[str, type[Declaration]]:
    """Every declaration class a save may name, by name (those of the rule systems whose
    engines have been imported)."""
    return dict(_REGISTRY)


@dataclass(frozen=True, slots=True)
class Declaration:
    """Base of all declarations."""

    def to_dict(self) -> dict[str, Any]:
        """The saved form; a field marked OMIT_DEFAULT is left out while it holds its
        default (a field added later: saves made before it stay byte-identical)."""
        body = {
            f.name: _plain(getattr(self, f.name), exact=True)
            for f in dataclasses.fields(self)
            if not (f.metadata.get("omit_default") and getattr(self, f.name) == f.default)
        }
        return {"declare": type(self).__name__, **body}


class Unread(ValueError):
    """A saved value that is not of its field's type; the message names the field
    ("action: path item 2") and says what was expected, in words."""


def _shown(value: Any) -> str:
    """A saved value as the save writes it, cut short."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _at(where: str, said: str) -> str:
    return f"{where}: {said}" if where else said


def described(kind: Any) -> str:
    """What a field of type `kind` holds in a save, in words ("a list", "text or null")."""
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        args = typing.get_args(kind)
        options = [o for o in args if o is not type(None)]
        said = " or ".join(described(o) for o in options)
        return f"{said} or null" if len(options) < len(args) else said
    if origin is tuple:
        args = typing.get_args(kind)
        if args == _PAIR:
            return "[x, y], two numbers"  # as a scenario file says a point
        if len(args) == 2 and args[1] is Ellipsis:
            return "a list"
        return f"a list of {len(args)} ({', '.join(described(a) for a in args)})"
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return "an object"
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return "one of " + ", ".join(json.dumps(m.value) for m in kind)
    return _KINDS.get(kind, "a value")


# A point of the table (or a move, `_DISPLACEMENTS`): said whole, as scenario files say one.
_PAIR = (float, float)

# The plain types of a declaration's fields, as `described` names them.
_KINDS: dict[Any, str] = {
    bool: "true or false",
    int: "a whole number",
    float: "a number",
    str: "text",
}


def _coerce(kind: Any, value: Any, where: str = "") -> Any:
    """Turn a JSON value back into the annotated field type `kind` (tuples, nested
    dataclasses, enums); Unread, naming the field `where`, when it is not of that type."""

    def unread() -> Unread:
        said = described(kind)
        if where.rsplit(" ", 1)[-1] in _DISPLACEMENTS:
            said = said.replace("[x, y]", "[dx, dy]")
        return Unread(_at(where, f"expected {said}, not {_shown(value)}"))

    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        options = typing.get_args(kind)
        if value is None and type(None) in options:
            return None
        for option in options:
            if option is type(None):
                continue
            try:
                return _coerce(option, value, where)
            except Unread:
                if len(options) - (type(None) in options) == 1:
                    raise  # one type or null: what is wrong with it, said exactly
        raise unread()
    if origin is tuple:
        args = typing.get_args(kind)
        if not isinstance(value, list | tuple):
            raise unread()
        if args == _PAIR and not (len(value) == 2 and all(_number(v) for v in value)):
            raise unread()
        item = "item"
        if len(args) == 2 and args[1] is Ellipsis:
            item = "point" if typing.get_args(args[0]) == _PAIR else "item"
            args = (args[0],) * len(value)  # a list of any length
        elif len(value) != len(args):
            raise unread()
        return tuple(
            _coerce(a, v, f"{where} {item} {i + 1}")
            for i, (a, v) in enumerate(zip(args, value, strict=True))
        )
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        if not isinstance(value, dict):
            raise unread()
        return _made(kind, value, where)
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise unread()
        try:
            return float(value)
        except OverflowError:
            raise Unread(_at(where, f"{_shown(value)} is too large a number")) from None
    if kind is int or kind is bool:
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise unread()
        return value
    if kind is str:
        if not isinstance(value, str):
            raise unread()
        return value
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        if not isinstance(value, str):
            raise unread()
        try:
            return kind(value)
        except ValueError:
            raise unread() from None
    return value


def _made(cls: type[T], data: dict[str, Any], where: str) -> T:
    """The dataclass `cls` from the saved fields `data`: each field read as its type; a
    field it does not have, or one it needs and is not given, named (Unread)."""
    hints, needed = _shape(cls)
    extra = [k for k in data if k not in hints]
    if extra:
        raise Unread(_at(where, f"unknown field {extra[0][:64]!r}"))
    for name in needed:
        if name not in data:
            raise Unread(_at(_at(where, name), f"missing: expected {described(hints[name])}"))
    return cls(**{k: _coerce(hints[k], v, _at(where, k)) for k, v in data.items()})


# Per dataclass, its fields' types by name and the fields it needs, found once (`_shape`).
_SHAPES: dict[type, tuple[dict[str, Any], tuple[str, ...]]] = {}


def _shape(cls: type) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The dataclass `cls`'s fields' types by name, and the fields it needs (no default)."""
    try:
        return _SHAPES[cls]
    except KeyError:
        fields = dataclasses.fields(cls)
        hints = get_type_hints(cls)
        needed = (f.name for f in fields if f.default is MISSING and f.default_factory is MISSING)
        shape = _SHAPES[cls] = {f.name: hints[f.name] for f in fields}, tuple(needed)
        return shape


def decode(data: dict[str, Any]) -> Declaration:
    """The declaration a `to_dict` produced; ValueError (Unread) names what is wrong."""
    name = data.get("declare")
    cls = _REGISTRY.get(str(name))
    if cls is None:
        raise ValueError(f"unknown declaration {name!r}")
    try:
        return _made(cls, {k: v for k, v in data.items() if k != "declare"}, "")
    except Unread as err:
        raise Unread(f"{name}: {err}") from None


# Field names whose pair of numbers is a displacement, not a point of the table.
_DISPLACEMENTS = frozenset({"vector"})


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _words(path: tuple[str, ...]) -> str:
    return " ".join(path).replace("_", " ")


# Per class, the names of its fields when it is a dataclass (None: it is not), found once.
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _field_names(cls: type) -> tuple[str, ...] | None:
    try:
        return _FIELDS[cls]
    except KeyError:
        names = (
            tuple(f.name for f in dataclasses.fields(cls))
            if dataclasses.is_dataclass(cls)
            else None
        )
        _FIELDS[cls] = names
        return names


def _check(value: object, path: tuple[str, ...], table: tuple[float, float]) -> str | None:
    """Why `value` (at `path` in a declaration) is not allowed, or None."""
    if value is None or isinstance(value, str):
        return None  # text (names, enums) holds no number
    names = _field_names(type(value))
    if names is not None:
        for name in names:
            why = _check(getattr(value, name), (*path, name), table)
            if why:
                return why
        return None
    if _number(value):
        assert isinstance(value, int | float)
        if not math.isfinite(value):
            return f"{_words(path[-1:])} {value} is not a finite number"
        return None
    if isinstance(value, tuple | list):
        width, depth = table
        if len(value) == 2 and all(_number(v) for v in value):
            x, y = value
            if not (math.isfinite(x) and math.isfinite(y)):
                return f"({x}, {y}) is not a finite point"
            if path and path[-1] in _DISPLACEMENTS:
                if abs(x) > width or abs(y) > depth:
                    return f"the move ({x:g}, {y:g}) is longer than the table"
            elif not (0 <= x <= width and 0 <= y <= depth):
                return f"({x:g}, {y:g}) is off the {width:g}x{depth:g} table"
            return None
        for index, item in enumerate(value):
            why = _check(item, (*path, f"point {index + 1}"), table)
            if why:
                return why
    return None


def check_numbers(declaration: Declaration, table: tuple[float, float]) -> None:
    """Refuse (IllegalDeclaration, with the reason) a declaration holding a number that is
    not finite, or a point off the `table` (width, depth); a displacement (`vector`) may
    be no longer than the table. Every engine's `apply` calls it first, and Game.declare
    for an engine that does not say it does (`checks_numbers`), so no non-finite number
    (NaN, an infinite value) ever reaches the rules or the geometry."""
    why = _check(declaration, (), table)
    if why:
        raise IllegalDeclaration(why)


def carried(names: Sequence[str], model_id: str, name: str | None) -> str:
    """The weapon a declaration names among a model's `names` (its first when None);
    IllegalDeclaration, saying what it carries, when it has no such weapon."""
    if name is None:
        if not names:
            raise IllegalDeclaration(f"{model_id} has no weapon")
        return names[0]
    if name not in names:
        # a name as typed unless it could break the one-line refusal (the fuzzer named a
        # weapon '\n'): then quoted, as an unknown unit's name is
        shown = name if name.isprintable() and name.strip() == name and name else repr(name)
        raise IllegalDeclaration(f"{model_id} has no {shown} (it has {', '.join(names)})")
    return name
