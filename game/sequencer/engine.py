"""What every rule system's engine is to the sequencer: the `Engine` protocol and the
`Awaiting` answer (who declares next). Engines import this module; `game.py` drives
them through it, so no engine imports the game loop."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from game.sequencer.declarations import Declaration
from game.sequencer.events import Event
from game.sequencer.state import GameState


@dataclass(frozen=True, slots=True)
class Awaiting:
    """Who must declare next and what: `kind` names the step (e.g. "order", "aro");
    `models` are the models the declaration may be for."""

    side: str | None
    kind: str
    models: tuple[str, ...] = ()


class Engine(Protocol):
    """A rule system's turn structure on the sequencer. An engine whose `apply` calls
    `check_numbers` first says so with a class attribute `checks_numbers = True`;
    Game.declare checks the numbers itself for any other."""

    def start(self, *, rng: np.random.Generator) -> tuple[GameState, list[Event]]: ...

    def apply(
        self, state: GameState, declaration: Declaration, *, rng: np.random.Generator
    ) -> tuple[GameState, list[Event]]:
        """The new state and events; raises IllegalDeclaration and changes nothing."""
        ...

    def awaiting(self, state: GameState) -> Awaiting: ...
