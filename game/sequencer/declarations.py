"""Declarations: what a player (a person, a script or an AI) says a model does.

They are plain data, so a game is its scenario + seed + list of declarations:
the save file, the undo stack and the replay. Each class registers itself by name
for `decode`."""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any, TypeVar, get_type_hints

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
        body = {f.name: _plain(getattr(self, f.name), exact=True) for f in dataclasses.fields(self)}
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
