"""Infinity Saving Rolls: from Face-to-Face hits to the wounds each side takes.

Rules implemented (FACTS 3.2):

- CodeOne / N4 ("DAM vs ARM"): a save roll wounds when the d20 is at most the
  Attack Damage = weapon DAM - ARM, with a further -3 in Partial Cover.
- N5 ("PS + ARM"): a save roll is saved when the d20 is at most PS + ARM, +3 in
  Partial Cover (a Normal roll: below 1 always fails, 20 or more always saves).
- Save rolls per hit by ammunition: N 1, AP 1 (ARM halved, rounding up), DA 2,
  EXP 3. Each Critical forces one extra save roll with the same weapon.
- A save against another attribute (PH-6 for PARA and the like) is a Normal roll
  against the attribute plus MOD, +3 in Partial Cover (FACTS 3.2).
- Every failed save is one wound.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.dice.exact import Distribution, binomial
from game.rules.infinity.odds import FACES, F2FOutcome, Side

if TYPE_CHECKING:  # only the Monte Carlo wounds need numpy
    import numpy as np
    import numpy.typing as npt


class SaveSystem(enum.Enum):
    """Which edition's saving roll the weapon's damage number belongs to."""

    CODEONE = "codeone"  # weapon DAM; wound on d20 <= DAM - ARM
    N5 = "n5"  # weapon PS; saved on d20 <= PS + ARM


class Ammo(enum.Enum):
    """Ammunition types and their save rolls per hit (CodeOne / N4 chart)."""

    N = "N"
    AP = "AP"
    DA = "DA"
    EXP = "EXP"

    @property
    def saves_per_hit(self) -> int:
        return {Ammo.N: 1, Ammo.AP: 1, Ammo.DA: 2, Ammo.EXP: 3}[self]


PARTIAL_COVER_SAVE = 3  # Infinity: Partial Cover is worth 3 on the saving roll


@dataclass(frozen=True, slots=True)
class Weapon:
    """What a hit does: DAM (CodeOne) or PS (N5) and the ammunition."""

    system: SaveSystem
    value: int  # DAM for CodeOne, PS for N5
    ammo: Ammo = Ammo.N


@dataclass(frozen=True, slots=True)
class Defence:
    """What the target saves with: its ARM (or BTS); with `attribute`, the Success Value
    of a Normal roll against another attribute (PH-6 and the like), the weapon's DAM or
    PS then playing no part."""

    arm: int = 0
    partial_cover: bool = False
    attribute: bool = False


def effective_arm(arm: int, ammo: Ammo) -> int:
    """AP ammunition halves ARM, rounding up (Infinity rounds every half up)."""
    if ammo is Ammo.AP:
        return -(-arm // 2)
    return arm


def wound_faces(weapon: Weapon, defence: Defence) -> int:
    """How many of the 20 faces of one save roll cause a wound."""
    cover = PARTIAL_COVER_SAVE if defence.partial_cover else 0
    if defence.attribute:
        # a Normal roll against the attribute + MOD: saved at or below it
        return FACES - max(0, min(FACES, defence.arm + cover))
    arm = effective_arm(defence.arm, weapon.ammo)
    if weapon.system is SaveSystem.CODEONE:
        # CodeOne: wound when d20 <= DAM - ARM (- 3 in Partial Cover)
        return max(0, min(FACES, weapon.value - arm - cover))
    # N5: saved when d20 <= PS + ARM (+ 3 in Partial Cover)
    return FACES - max(0, min(FACES, weapon.value + arm + cover))


def save_threshold(weapon: Weapon, defence: Defence) -> int:
    """The number a save die is compared with: CodeOne wounds at or below it (DAM - ARM),
    N5 saves at or below it (PS + ARM)."""
    if defence.attribute:  # the Success Value itself, below 1 or above 20 as it is
        return defence.arm + (PARTIAL_COVER_SAVE if defence.partial_cover else 0)
    faces = wound_faces(weapon, defence)
    return faces if wounds_on_low(weapon, defence) else FACES - faces


def wounds_on_low(weapon: Weapon, defence: Defence) -> bool:
    """Whether a save die wounds at or below the threshold (CodeOne's Attack Damage)
    rather than saving there (N5, and any save against another attribute)."""
    return weapon.system is SaveSystem.CODEONE and not defence.attribute


def not_rolled(weapon: Weapon, defence: Defence) -> bool:
    """Infinity: a save whose Success Value is below 1 fails without rolling."""
    return not wounds_on_low(weapon, defence) and save_threshold(weapon, defence) < 1


def wounds_on(face: int, weapon: Weapon, defence: Defence) -> bool:
    """Whether one save die showing `face` causes a wound."""
    threshold = save_threshold(weapon, defence)
    if wounds_on_low(weapon, defence):
        return face <= threshold  # CodeOne: wound on d20 <= DAM - ARM
    return face > threshold  # N5: saved on d20 <= PS + ARM


def save_rolls(hits: int, crits: int, ammo: Ammo) -> int:
    """Save rolls forced by `hits` non-critical and `crits` critical hits."""
    # Infinity: each Critical forces one extra saving roll of the same weapon
    return (hits + crits) * ammo.saves_per_hit + crits


def wounds_from_hits(hits: int, crits: int, weapon: Weapon, defence: Defence) -> Distribution[int]:
    """Exact distribution of wounds from the hits, over 20^(save rolls)."""
    return binomial(save_rolls(hits, crits, weapon.ammo), wound_faces(weapon, defence), FACES)


@dataclass(frozen=True, slots=True)
class Attack:
    """What one side's hits do to the other: the attacker's weapon, the target's defence."""

    weapon: Weapon
    defence: Defence


def wounds_taken(
    f2f: Distribution[F2FOutcome], attacks: dict[Side, Attack]
) -> dict[Side, Distribution[int]]:
    """Each side's distribution of wounds taken, from a Face-to-Face distribution.

    `attacks[s]` describes side s's attack; a side that makes no damaging attack
    (e.g. it dodges) is left out and its hits do nothing. Counts are over
    20^(F2F dice) * 20^(most save rolls any outcome forces).
    """
    out: dict[Side, Distribution[int]] = {}
    for target in Side:
        attack = attacks.get(target.other)

        def wounds(
            outcome: F2FOutcome, target: Side = target, attack: Attack | None = attack
        ) -> Distribution[int]:
            hits, crits = outcome.hits_on(target)
            if attack is None or hits + crits == 0:
                return Distribution.certain(0)
            return wounds_from_hits(hits, crits, attack.weapon, attack.defence)

        out[target] = f2f.bind(wounds)
    return out


def sample_wounds(
    hits: npt.NDArray[np.int64],
    crits: npt.NDArray[np.int64],
    attack: Attack,
    *,
    rng: np.random.Generator,
) -> npt.NDArray[np.int64]:
    """Monte Carlo: wounds for arrays of (hits, crits); each save roll fails independently."""
    import numpy as np

    rolls = (hits + crits) * attack.weapon.ammo.saves_per_hit + crits
    p = wound_faces(attack.weapon, attack.defence) / FACES
    return rng.binomial(rolls, p).astype(np.int64)
