"""Open Rebellion on the sequencer: the declarations, the state and the events it adds.

Units (squads) are the scenario's `unit` names; a model without one is a unit of its
own. A model's `status` is "ready" (on the table) or "dead" (removed). Wound and pin
markers belong to the unit: every living model of the unit carries the unit's counts
as the markers "wound" and "pin". Flags: "activated" (done this turn), "in-position"
(the unit took position; lost when it moves).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from game.geometry import Table
from game.sequencer.declarations import Declaration, declaration
from game.sequencer.events import OMIT_DEFAULT, Event
from game.sequencer.sight import Placement, Sight
from game.sequencer.state import GameState, ModelState, kept

Point = tuple[float, float]

ALIVE = "ready"
DEAD = "dead"
WOUND = "wound"
PIN = "pin"
ACTIVATED = "activated"
IN_POSITION = "in-position"
# FellBack.stopped_by when the table's edge cut the fall back short
TABLE_EDGE = "table-edge"
HIDDEN = "hidden"  # a unit shown on the table by a card (seed 001): one tier better


class ActionKind(StrEnum):
    STANDARD_MOVE = "standard-move"
    TACTICAL_MOVE = "tactical-move"
    FIRE = "fire"
    INITIATIVE = "initiative"
    TAKE_POSITION = "take-position"


@dataclass(frozen=True, slots=True)
class Action:
    """One action of a unit's activation. Moves: `vector`, the same displacement for
    every model of the unit (a tactical move goes as far along it as the test allows).
    Small Arms Fire: the `target` enemy unit."""

    kind: ActionKind
    vector: Point | None = None
    target: str | None = None

    @staticmethod
    def move(dx: float, dy: float) -> Action:
        return Action(ActionKind.STANDARD_MOVE, vector=(dx, dy))

    @staticmethod
    def tac_move(dx: float, dy: float) -> Action:
        return Action(ActionKind.TACTICAL_MOVE, vector=(dx, dy))

    @staticmethod
    def fire(target: str) -> Action:
        return Action(ActionKind.FIRE, target=target)

    @staticmethod
    def initiative() -> Action:
        return Action(ActionKind.INITIATIVE)

    @staticmethod
    def take_position() -> Action:
        return Action(ActionKind.TAKE_POSITION)


@declaration
@dataclass(frozen=True, slots=True)
class PickInitiative(Declaration):
    """At the start of a turn each side names the unit that rolls for initiative."""

    unit: str


@declaration
@dataclass(frozen=True, slots=True)
class ActivateUnit(Declaration):
    """Activate `unit`: its wound markers are rolled into kills first."""

    unit: str


@declaration
@dataclass(frozen=True, slots=True)
class UnitAct(Declaration):
    """One action of the activating `unit`."""

    unit: str
    action: Action


@declaration
@dataclass(frozen=True, slots=True)
class EndUnit(Declaration):
    """End the activating unit's activation, or activate `unit` and do nothing."""

    unit: str | None = None


@declaration
@dataclass(frozen=True, slots=True)
class FallBackChoice(Declaration):
    """The defender's answer after damage: `fall_back` True fails the morale check on
    purpose (in the open) or falls back from light cover; False takes the check (in
    the open) or stays (in light cover)."""

    unit: str
    fall_back: bool


@dataclass(frozen=True, slots=True)
class PendingFire:
    """Small arms fire waiting for the defender's fall-back choice."""

    attacker: str
    target: str
    damage: int
    lowers_tier: bool
    tier: int  # the defender's cover tier when the dice were rolled


# what a fire plan depends on, for one unit: its models' (place, status, in position)
PlanFacts = tuple[tuple[Point, str, bool], ...]


@dataclass(slots=True)
class Asked:
    """What has been asked of one state, kept while it lives: the table with the models
    where they stand (for the sight it was built by), each unit's plan facts, the
    placements a move of each unit is checked against, and each side's units left."""

    table: tuple[Sight, Table] | None = None
    facts: dict[str, PlanFacts] = field(default_factory=dict)
    others: dict[str, dict[str, Placement]] = field(default_factory=dict)
    side_units: dict[str, list[str]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class OpenRebellionState(GameState):
    """`phase`: "initiative" (sides name units), "activate", "action" (a unit is
    activating), "fall-back" (the defender of `pending` chooses)."""

    # what is asked of a state (its living models, the seen counts, `Asked`) depends
    # on its models alone, as the index and placements do
    KEPT_WITH_MODELS: ClassVar[tuple[str, ...]] = (
        *GameState.KEPT_WITH_MODELS, "_alive", "_seen", "_asked",
    )  # fmt: skip

    phase: str = "initiative"
    picks: tuple[tuple[str, str], ...] = ()
    activating: str | None = None
    actions_left: int = 0
    pending: PendingFire | None = None
    # built on first use, never compared or copied: a unit's living models
    _alive: dict[str, tuple[ModelState, ...]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    _seen: dict[tuple[str, str], list[tuple[str, int]]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    _asked: Asked | None = field(default=None, init=False, repr=False, compare=False)

    def asked(self) -> Asked:
        return kept(self, "_asked", Asked)

    def seen_counts(self) -> dict[tuple[str, str], list[tuple[str, int]]]:
        """Per (unit, target unit), how many of the target's models each model of the
        unit sees (`OpenRebellionFire._seen_counts`), once per state."""
        return kept(self, "_seen", dict)

    def alive_in(self, unit: str, models: tuple[str, ...]) -> tuple[ModelState, ...]:
        """The living models of `unit` (whose models are `models`), once per state."""
        found = self._alive
        if found is None:
            found = kept(self, "_alive", dict)
        mine = found.get(unit)
        if mine is None:
            mine = found[unit] = tuple(m for m in map(self.model, models) if m.status != DEAD)
        return mine


@dataclass(frozen=True, slots=True)
class BangTest(Event):
    """A skill test or other bang-dice roll: a 5 or 6 is a bang. `needed`: the bangs a
    test passes with (a morale check's morale_min_bangs), 0 for a roll that counts its
    bangs (initiative, a tac-move); left out of the saved form at 0, and absent from the
    saves written before it."""

    unit: str
    purpose: str
    faces: tuple[int, ...]
    bangs: int
    needed: int = field(default=0, metadata=OMIT_DEFAULT)


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    turn: int
    picks: tuple[tuple[str, str], ...]
    bangs: tuple[int, ...]
    winner: str  # "" on a tie (rolled again)


@dataclass(frozen=True, slots=True)
class SmallArmsFire(Event):
    """Both pools and what they came to: `damage` attacker bangs left after cancelling."""

    attacker: str
    target: str
    firing: tuple[str, ...]
    attack_dice: int
    defence_dice: int
    range_bands: int
    cover: str
    cover_reason: str
    attack_faces: tuple[int, ...]
    defence_faces: tuple[int, ...]
    damage: int


@dataclass(frozen=True, slots=True)
class FellBack(Event):
    """A fall back by `vector`; `stopped_by`, when something cut it short of the whole
    tac-move (`allowance`), is what: the id of a piece or a model, or TABLE_EDGE;
    `out_of_reach`, when no heading ended it in the cover it fell back toward, so that it
    fell back straight away from the shooters, is that cover's tier ("hard" from light
    cover, "light", any cover, from the open). All three added since: a save without them
    had none recorded."""

    unit: str
    reason: str
    vector: Point
    stopped_by: str = field(default="", metadata=OMIT_DEFAULT)
    allowance: float = field(default=0.0, metadata=OMIT_DEFAULT)
    out_of_reach: str = field(default="", metadata=OMIT_DEFAULT)


@dataclass(frozen=True, slots=True)
class DamageConverted(Event):
    """Damage into markers: `roller` ("attacker", "defender" or "" for no roll)."""

    unit: str
    tier: str
    roller: str
    faces: tuple[int, ...]
    wounds: int
    pins: int


@dataclass(frozen=True, slots=True)
class MarkersChanged(Event):
    unit: str
    wounds: int
    pins: int


@dataclass(frozen=True, slots=True)
class KillsRolled(Event):
    """At activation: one bang die per wound marker; bangs are kills."""

    unit: str
    faces: tuple[int, ...]
    killed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TookPosition(Event):
    unit: str
