"""Necromunda's special dice as data: injury, firepower and scatter faces.

The faces come from assets/necromunda/dice.toml (see game/rules/necromunda/assets.py);
rules functions take a `NecromundaDice` as a parameter and never read files.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class InjuryResult(enum.Enum):
    """The results on the faces of an Injury die (FACTS 2.4)."""

    FLESH_WOUND = "flesh wound"
    SERIOUSLY_INJURED = "seriously injured"
    OUT_OF_ACTION = "out of action"


@dataclass(frozen=True, slots=True)
class FirepowerFace:
    """One face of the Firepower die: bullet holes, and whether it shows the Ammo symbol."""

    holes: int
    ammo: bool = False


@dataclass(frozen=True, slots=True)
class ScatterFace:
    """One face of the Scatter die: a "Hit" face (with a small arrow) or an arrow."""

    hit: bool


@dataclass(frozen=True, slots=True)
class NecromundaDice:
    """The faces of the three special dice; `unconfirmed` names dice marked [U]."""

    injury: tuple[InjuryResult, ...]
    firepower: tuple[FirepowerFace, ...]
    scatter: tuple[ScatterFace, ...]
    unconfirmed: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        for name in ("injury", "firepower", "scatter"):
            if not getattr(self, name):
                raise ValueError(f"the {name} die has no faces")


@dataclass(frozen=True, slots=True)
class FlameTemplate:
    """The flame template's size in inches (assets/necromunda/templates.toml): a teardrop
    `length` long and `width` across its round end (FACTS 2.7: "about 8 inches long")."""

    length: float
    width: float
    unconfirmed: bool = False

    def __post_init__(self) -> None:
        if not (self.length > 0 and 0 < self.width <= self.length):
            raise ValueError("a flame template needs 0 < width <= length")


@dataclass(frozen=True, slots=True)
class GroupActivation:
    """Who may group-activate (assets/necromunda/activation.toml; FACTS 2.8: "Leaders may
    group-activate 2 fighters within 3\", Champions 1"): `roles`, how many other fighters a
    fighter of each role may nominate; `within`, how near they must be, in inches."""

    within: float
    roles: tuple[tuple[str, int], ...]

    def size(self, role: str) -> int:
        """How many fighters a fighter of `role` may nominate (0: it leads no group)."""
        return dict(self.roles).get(role, 0)
