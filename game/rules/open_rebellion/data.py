"""Open Rebellion squad models and weapons (seed 001, FACTS 1)."""

from __future__ import annotations

from pydantic import Field

from game.rules.data import Profile, Weapon


class OpenRebellionProfile(Profile):
    """A model in a squad. Its quality gives the squad's skill dice (assets: quality)."""

    quality: str
    points: int = Field(default=0, ge=0)


class OpenRebellionWeapon(Weapon):
    """ROF dice per model with LOS, the range band that adds defender dice, and support dice
    for weapons that must be in position (HMG +3, SAW +2)."""

    rof: int = Field(ge=0, le=3)
    band: float = Field(gt=0, description="range band in inches (4, 8 or 12)")
    support_dice: int = Field(default=0, ge=0, le=6)
    # Blast effects and "really bad-ass guns" lower the damage tier by one (seed 001).
    lowers_tier: bool = False


STATES = ("ready", "activated", "in-position", "hidden")
