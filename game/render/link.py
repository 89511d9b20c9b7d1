"""How the table follows a game: the sequencer's `Game` as the window sees it.

The window does not import the sequencer. Anything with a `state` (turn, active side,
models with positions, facings and states) and a `declare` that returns events or
raises `IllegalDeclaration` with the reason can drive it; `game.sequencer.Game` is one.
After each accepted declaration the table copies the models' positions into the
scenario it draws (`placed`), the turn and active side into the panel, and one log
line per event into the dice log (`describe_event`).

No pygame here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from game.scenario import Scenario

Point = tuple[float, float]


class GameModel(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def at(self) -> Point: ...
    @property
    def facing(self) -> float: ...
    @property
    def status(self) -> str: ...


class GameNow(Protocol):
    @property
    def turn(self) -> int: ...
    @property
    def active(self) -> str: ...
    @property
    def models(self) -> Sequence[GameModel]: ...


class TableGame(Protocol):
    """A game the table can show and hand declarations to."""

    @property
    def state(self) -> GameNow: ...

    def declare(self, declaration: Any) -> Sequence[object]:
        """The events of an accepted declaration; raises IllegalDeclaration otherwise."""
        ...

    def refusal(self, declaration: Any) -> str:
        """Why `declaration` would be refused now ("" if taken); nothing changes."""
        ...


def placed(scenario: Scenario, now: GameNow) -> Scenario:
    """The scenario with its models where the game has them (models it lacks: removed)."""
    where = {m.id: m for m in now.models}
    models = []
    for model in scenario.models:
        current = where.get(model.id)
        if current is None:
            continue
        status = None if current.status in ("", "normal") else current.status
        at = (float(current.at[0]), float(current.at[1]))
        moved = replace(model, at=at, facing=current.facing, state=status)
        models.append(moved if moved != model else model)
    if tuple(models) == scenario.models:
        return scenario
    return replace(scenario, models=tuple(models))


def describe_event(event: object) -> str:
    """One log line: the event's kind and its fields."""
    if hasattr(event, "describe"):
        return str(event.describe())
    if dataclasses.is_dataclass(event) and not isinstance(event, type):
        fields = ", ".join(f"{f.name}={getattr(event, f.name)}" for f in dataclasses.fields(event))
        return f"{type(event).__name__}: {fields}"
    return str(event)
