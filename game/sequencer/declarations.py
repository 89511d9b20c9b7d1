"""Declarations: what a player (a person, a script or an AI) says a model does.

They are plain data, so a game is its scenario + seed + list of declarations:
the save file, the undo stack and the replay. Each class registers itself by name
for `decode`."""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, get_type_hints

from game.errors import IllegalDeclaration
from game.sequencer.events import _plain

_REGISTRY: dict[str, type[Declaration]] = {}
D = TypeVar("D", bound="type[Declaration]")


def declaration(cls: D) -> D:
    """Register a declaration class so saves can name it."""
    _REGISTRY[cls.__name__] = cls
    return cls


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


def _coerce(kind: Any, value: Any) -> Any:
    """Turn JSON values back into the annotated field types (tuples, nested dataclasses)."""
    origin = typing.get_origin(kind)
    if value is None:
        return None
    if origin in (types.UnionType, typing.Union):
        for option in typing.get_args(kind):
            if option is type(None):
                continue
            try:
                return _coerce(option, value)
            except (TypeError, ValueError, KeyError):
                continue
        raise ValueError(f"cannot read {value!r} as {kind}")
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(args[0], v) for v in value)
        return tuple(_coerce(a, v) for a, v in zip(args, value, strict=True))
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = get_type_hints(kind)
        return kind(**{k: _coerce(hints[k], v) for k, v in value.items()})
    if kind is float:
        return float(value)
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"expected a whole number, got {value!r}")
        return value
    if kind is str and not isinstance(value, str):
        raise ValueError(f"expected text, got {value!r}")
    if isinstance(kind, type) and issubclass(kind, str) and kind is not str:
        return kind(value)  # a StrEnum
    return value


def decode(data: dict[str, Any]) -> Declaration:
    """The declaration a `to_dict` produced; ValueError names what is wrong."""
    name = data.get("declare")
    cls = _REGISTRY.get(str(name))
    if cls is None:
        raise ValueError(f"unknown declaration {name!r}")
    hints = get_type_hints(cls)
    fields = {f.name for f in dataclasses.fields(cls)}
    extra = set(data) - fields - {"declare"}
    if extra:
        raise ValueError(f"{name}: unknown field {sorted(extra)[0]!r}")
    try:
        return cls(**{k: _coerce(hints[k], v) for k, v in data.items() if k != "declare"})
    except TypeError as err:
        raise ValueError(f"{name}: {err}") from None


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
