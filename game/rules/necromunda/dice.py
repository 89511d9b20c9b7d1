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


@dataclass(frozen=True, slots=True)
class Blaze:
    """The Blaze trait (assets/necromunda/traits.toml; FACTS 2.9): a hit that leaves the
    fighter in the fight sets it on fire on a D6 >= `catches_fire_on`; as it next
    activates it takes a hit of `strength`, `ap`, `damage`, then, Standing and Active,
    moves `move_dice` D6" at random (a Pinned one stands first when `pinned_stands`),
    then the fire goes out on a D6 >= `out_on` (+`prone_bonus` Pinned or Seriously
    Injured, +`friend_bonus` per Active friend within `friend_reach`"). The fire takes
    the fighter's whole activation when `takes_activation`."""

    catches_fire_on: int = 4
    strength: int = 3
    ap: int = -1
    damage: int = 1
    move_dice: int = 2
    out_on: int = 6
    prone_bonus: int = 2
    friend_bonus: int = 1
    friend_reach: float = 1.0
    pinned_stands: bool = True
    takes_activation: bool = True
    unconfirmed: bool = False


@dataclass(frozen=True, slots=True)
class Knockback:
    """The Knockback trait (FACTS 2.9): a hit roll >= the target's Strength pushes it
    `distance`" directly away from the firer (a blast's centre); stopped short, the
    hit's Damage is + `blocked_damage`."""

    distance: float = 1.0
    blocked_damage: int = 1


@dataclass(frozen=True, slots=True)
class Traits:
    """The traits played after the hit roll (assets/necromunda/traits.toml)."""

    blaze: Blaze
    knockback: Knockback
