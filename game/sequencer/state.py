"""Game state: immutable, replaced whole by each accepted declaration, so an illegal
declaration leaves it exactly as it was."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Self, TypeVar

from game.sequencer.sight import Placement

Point = tuple[float, float]


T = TypeVar("T")
D = TypeVar("D")

_INIT_FIELDS: dict[type, tuple[str, ...]] = {}


def renew(obj: D, **changes: object) -> D:
    """`dataclasses.replace(obj, **changes)` for the states' frozen dataclasses, by hand:
    the same new object (made by the class itself, so init-less fields start afresh) at
    a third of the cost; the states are replaced thousands of times a game."""
    cls = type(obj)
    names = _INIT_FIELDS.get(cls)
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(cls) if f.init)  # type: ignore[arg-type]
        _INIT_FIELDS[cls] = names
    for name in names:
        if name not in changes:
            changes[name] = getattr(obj, name)
    return cls(**changes)


def kept(state: object, name: str, make: Callable[[], T]) -> T:
    """The value a frozen state keeps in its field `name` (declared `None`, not
    compared, not copied by `replace`), made by `make` on first use: answers worked
    out once per state, forgotten by the states replaced from it."""
    found: T | None = getattr(state, name)
    if found is None:
        found = make()
        object.__setattr__(state, name, found)
    return found


@dataclass(frozen=True, slots=True)
class ModelState:
    """A model now: where it stands, which way it faces, its state and markers.

    `status` is the rule system's state name ("normal", "prone", "pinned", ...);
    `markers` count things such as wound or pin markers; `flags` are facts such
    as "activated" or "out-of-ammo"."""

    id: str
    side: str
    at: Point
    facing: float
    status: str
    wounds: int = 0
    markers: tuple[tuple[str, int], ...] = ()
    flags: frozenset[str] = frozenset()

    def marker(self, name: str) -> int:
        return dict(self.markers).get(name, 0)

    def with_marker(self, name: str, count: int) -> Self:
        markers = dict(self.markers)
        if count:
            markers[name] = count
        else:
            markers.pop(name, None)
        return renew(self, markers=tuple(sorted(markers.items())))

    def replace(self, **changes: object) -> Self:
        return renew(self, **changes)


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole game at one moment. `models` keep the scenario's order."""

    turn: int
    active: str
    sides: tuple[str, ...]
    models: tuple[ModelState, ...]
    finished: bool = False
    winner: str | None = None
    # built on first use, never compared or copied: a replaced state builds its own
    _index: dict[str, int] | None = field(default=None, init=False, repr=False, compare=False)
    _placed: dict[frozenset[str], dict[str, Placement]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def model(self, model_id: str) -> ModelState:
        """The model with that id (KeyError if there is none), found in O(1)."""
        index = self._index
        if index is None:
            index = kept(self, "_index", lambda: {m.id: k for k, m in enumerate(self.models)})
        return self.models[index[model_id]]

    def placements(self, gone: Collection[str] = ()) -> dict[str, Placement]:
        """Where every model stands, for the table's geometry: a fresh dict (the caller
        may change it), built once per state and per set of `gone` statuses (models in
        one of those statuses are off the table)."""
        return dict(self.placed(gone))

    def placed(self, gone: Collection[str] = ()) -> Mapping[str, Placement]:
        """`placements` itself, not a copy: only to read."""
        key = frozenset(gone)
        cache: dict[frozenset[str], dict[str, Placement]] = kept(self, "_placed", dict)
        found = cache.get(key)
        if found is None:
            found = {m.id: Placement(m.at, m.facing, m.status not in key) for m in self.models}
            cache[key] = found
        return found

    def with_model(self, new: ModelState) -> Self:
        models = tuple(new if m.id == new.id else m for m in self.models)
        return renew(self, models=models)

    def replace(self, **changes: object) -> Self:
        return renew(self, **changes)

    def side_models(self, side: str) -> tuple[ModelState, ...]:
        return tuple(m for m in self.models if m.side == side)

    def other_side(self, side: str) -> str:
        others = [s for s in self.sides if s != side]
        return others[0] if others else side
