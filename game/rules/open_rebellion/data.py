"""Open Rebellion squad models and weapons (seed 001, FACTS 1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from pydantic import Field, StrictBool

from game.rules.data import Profile, Weapon


class OpenRebellionProfile(Profile):
    """A model in a squad. Its quality gives the squad's skill dice (assets: quality)."""

    SCENARIO_FIELDS = frozenset({"unit"})  # its squad

    quality: str
    points: int = Field(default=0, ge=0)


class OpenRebellionWeapon(Weapon):
    """ROF dice per model with LOS, the range band that adds defender dice, and support dice
    for weapons that must be in position (HMG +3, SAW +2)."""

    rof: int = Field(ge=0, le=3)
    band: float = Field(gt=0, description="range band in inches (4, 8 or 12)")
    support_dice: int = Field(default=0, ge=0, le=6)
    # Blast effects and "really bad-ass guns" lower the damage tier by one (seed 001).
    lowers_tier: StrictBool = False

    def summary(self) -> str:
        """The profile in seed 001's words: 'ROF 1, range band 8"'."""
        parts = [f"ROF {self.rof}", f'range band {self.band:g}"']
        if self.support_dice:
            parts.append(f"{self.support_dice} support dice in position")
        if self.lowers_tier:
            parts.append("lowers the damage tier by one")
        return ", ".join(parts)


# The rule value naming a quality's skill dice: skill_dice_<quality>.
SKILL_DICE = "skill_dice_"

STATES = ("ready", "activated", "in-position", "hidden")


def _odd_states(models: Iterable[Any]) -> dict[str, str]:
    """The models whose state is not their unit's, each with its problem. A model's state
    is its unit's (the unit activates, takes position or hides as one): the state most of
    its models have is the unit's, the first written where they split evenly, so the odd
    one out is blamed, not the models that agree."""
    units: dict[str, list[tuple[str, str]]] = {}
    for model in models:
        units.setdefault(model.unit or model.id, []).append((model.id, model.state or STATES[0]))
    odd: dict[str, str] = {}
    for unit, members in units.items():
        counts = Counter(state for _, state in members)
        usual, most = counts.most_common(1)[0]  # ties: the first counted, the first written
        for model_id, state in members:
            if state != usual:
                are = "is" if most == 1 else "are"
                odd[model_id] = (
                    f"state {state!r}, but {most} of the {len(members)} models of unit "
                    f"{unit!r} {are} {usual!r}: a unit's models share one state"
                )
    return odd


def scenario_problems(scenario: Any) -> list[tuple[str, str]]:
    """What a checked Open Rebellion scenario has that the game cannot play (the
    registry's `validate` part): (place, problem) pairs.

    Open Rebellion is a game of two players: "each player picks one unit and both units
    make a skill test" (FACTS 1, turn sequence). A model's
    quality must be one the rule data gives skill dice for (assets/open-rebellion/
    rules.toml `skill_dice_<quality>`)."""
    out: list[tuple[str, str]] = []
    sides = [side.id for side in scenario.sides]
    if len(sides) != 2:
        place = f"side {sides[-1]!r}" if sides else "[[side]]"
        out.append((place, f"Open Rebellion is played by two sides, not {len(sides)}"))
    values = scenario.rule_values
    qualities = sorted(k.removeprefix(SKILL_DICE) for k in values if k.startswith(SKILL_DICE))
    odd = _odd_states(scenario.models)
    for model in scenario.models:
        if model.id in odd:
            out.append((f"model {model.id!r}", odd[model.id]))
        profile = scenario.profiles.get(model.profile)
        quality = getattr(profile, "quality", None)
        if quality is not None and quality not in qualities:
            known = ", ".join(qualities)
            problem = f"profile {model.profile!r} has quality {quality!r} (known: {known})"
            out.append((f"model {model.id!r}", problem))
    return out
