"""Game state: immutable, replaced whole by each accepted declaration, so an illegal
declaration leaves it exactly as it was."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Self, TypeVar

from game.sequencer.sight import Placement

Point = tuple[float, float]


T = TypeVar("T")
D = TypeVar("D")

# Per class: each init field's name and slot setter, the setters of the init-less
# fields (which start as None), and the names and setters of those of them a state
# made with the same models keeps (`KEPT_WITH_MODELS`); None for a class without slots
# or with __post_init__
Setter = Callable[[object, object], None]
_Plan = tuple[tuple[tuple[str, Setter], ...], tuple[Setter, ...], tuple[tuple[str, Setter], ...]]
_PLANS: dict[type, _Plan | None] = {}


def _plan(cls: type) -> _Plan | None:
    fields = dataclasses.fields(cls)
    slots = all(hasattr(getattr(cls, f.name, None), "__set__") for f in fields)
    if not slots or hasattr(cls, "__post_init__"):
        return None
    if any(not f.init and f.default is not None for f in fields):
        return None
    shared = set(getattr(cls, "KEPT_WITH_MODELS", ()))
    return (
        tuple((f.name, getattr(cls, f.name).__set__) for f in fields if f.init),
        tuple(getattr(cls, f.name).__set__ for f in fields if not f.init and f.name not in shared),
        tuple((f.name, getattr(cls, f.name).__set__) for f in fields if f.name in shared),
    )


def renew(obj: D, **changes: object) -> D:
    """`dataclasses.replace(obj, **changes)` for the states' frozen dataclasses, by hand:
    the same new object (init-less fields start afresh, as None, but those the class
    names in `KEPT_WITH_MODELS`: answers worked out from its models alone, kept while
    `models` is not changed) with its slots filled directly, at about half the cost of
    calling the class; the states are replaced thousands of times a game. A class
    without slots, or with `__post_init__`, is called as `replace` would."""
    cls = type(obj)
    try:
        plan = _PLANS[cls]
    except KeyError:
        plan = _PLANS[cls] = _plan(cls)
    if plan is None:
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if f.init and f.name not in changes:
                changes[f.name] = getattr(obj, f.name)
        return cls(**changes)
    fields, fresh, shared = plan
    new = object.__new__(cls)
    used = 0
    for name, put in fields:
        if name in changes:
            put(new, changes[name])
            used += 1
        else:
            put(new, getattr(obj, name))
    for put in fresh:
        put(new, None)
    if shared:
        same = "models" not in changes
        for name, put in shared:
            put(new, getattr(obj, name) if same else None)
    if used != len(changes):
        unknown = set(changes) - {name for name, _ in fields}
        raise TypeError(f"{cls.__name__} has no init field {', '.join(sorted(unknown))}")
    return new


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

    # the fields below worked out from `models` alone: a state made from this one with
    # the same models keeps them (`renew`)
    KEPT_WITH_MODELS: ClassVar[tuple[str, ...]] = ("_index", "_placed")

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
            found = cache[key] = _placed_from(self.models, key)
        return found

    def with_model(self, new: ModelState) -> Self:
        """The state with `new` in place of the model with its id (the same order, so
        the new state keeps this one's model index)."""
        index = self._index
        if index is None:
            index = kept(self, "_index", lambda: {m.id: k for k, m in enumerate(self.models)})
        models = list(self.models)
        models[index[new.id]] = new
        state = renew(self, models=tuple(models))
        object.__setattr__(state, "_index", index)
        return state

    def replace(self, **changes: object) -> Self:
        return renew(self, **changes)

    def side_models(self, side: str) -> tuple[ModelState, ...]:
        return tuple(m for m in self.models if m.side == side)

    def other_side(self, side: str) -> str:
        others = [s for s in self.sides if s != side]
        return others[0] if others else side


# The models and placements `_placed_from` made last, per set of `gone` statuses: a
# state made with the same models keeps its placements (`KEPT_WITH_MODELS`), so most
# asked here have a few models replaced (the others the same objects)
_LAST_PLACED: dict[frozenset[str], tuple[tuple[ModelState, ...], dict[str, Placement]]] = {}


def _placed_from(models: tuple[ModelState, ...], gone: frozenset[str]) -> dict[str, Placement]:
    """Where `models` stand (those in a `gone` status off the table), sharing with the
    last answer for the same `gone` the placement of each model that is the same object
    (models are immutable and keep their order in a game, so the same object stands in
    the same place)."""
    last = _LAST_PLACED.get(gone)
    if last is not None and len(last[0]) == len(models):
        found = {
            m.id: p if m is old else Placement(m.at, m.facing, m.status not in gone)
            for m, old, p in zip(models, last[0], last[1].values(), strict=True)
        }
    else:
        found = {m.id: Placement(m.at, m.facing, m.status not in gone) for m in models}
    _LAST_PLACED[gone] = (models, found)
    return found
