"""Infinity profiles and weapons (N5 with CodeOne saves as an option)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, StrictBool, model_validator

from game.rules.data import Profile, Weapon
from game.rules.infinity.saves import Ammo  # the ammunition the saving rolls model


class InfinityProfile(Profile):
    """A trooper. Attributes as printed on the unit profile."""

    # the saving-roll rule (FACTS 3.2) and the Lieutenant (FACTS 3.4) are Infinity's;
    # troopers fight in units (fireteams)
    SCENARIO_FIELDS = frozenset({"saves", "lieutenant", "unit"})

    mov: tuple[float, float] = (4.0, 4.0)
    cc: int = Field(ge=0, le=30)
    bs: int = Field(ge=0, le=30)
    ph: int = Field(ge=0, le=30)
    wip: int = Field(ge=0, le=30)
    arm: int = Field(ge=0, le=15)
    bts: int = Field(ge=0, le=15)
    wounds: int = Field(ge=1, le=5, description="VITA (or STR for structure troopers)")
    structure: StrictBool = False
    silhouette: int = Field(ge=1, le=8)
    points: int = Field(default=0, ge=0)
    irregular: StrictBool = False
    # Mimetism (-3 / -6): enemy BS Attacks and Discover against this trooper (seed 002).
    mimetism: int = Field(default=0, le=0, ge=-6)
    skills: tuple[str, ...] = ()

    def placement_problem(self, *, lieutenant: bool) -> str | None:
        # Infinity: irregular troopers cannot be Lieutenant (FACTS 3.4).
        if lieutenant and self.irregular:
            return f"an irregular trooper ({self.name}) cannot be Lieutenant"
        return None


class InfinityWeapon(Weapon):
    """A BS weapon. `bands` are (upper limit in inches, MOD), nearest first;
    beyond the last band the attack fails automatically (seed 000)."""

    bands: tuple[tuple[float, int], ...] = ()
    dam: int | None = Field(default=None, ge=0, le=30, description="CodeOne Damage")
    ps: int | None = Field(default=None, ge=0, le=20, description="N5 Possibility of Survival")
    burst: int = Field(ge=1, le=6)
    ammo: Ammo = Ammo.N
    save: Literal["ARM", "BTS", "PH", "WIP"] = "ARM"
    # a save against another attribute is a Normal roll against it plus this MOD
    # (PARA: PH-6, FACTS 3.2)
    save_mod: int = Field(default=0, ge=-12, le=12)
    traits: tuple[str, ...] = ()
    template: Literal["small-teardrop", "large-teardrop", "circular"] | None = None

    @model_validator(mode="after")
    def _check(self) -> InfinityWeapon:
        if self.template is None and not self.bands:
            raise ValueError("a weapon needs range bands or a template")
        limits = [b[0] for b in self.bands]
        if limits != sorted(limits) or len(set(limits)) != len(limits):
            raise ValueError("range bands must go outward, each limit larger than the last")
        if self.dam is None and self.ps is None:
            raise ValueError("a weapon needs dam (CodeOne) or ps (N5)")
        return self

    def summary(self) -> str:
        """The profile in the game's own columns: the range bands with their MODs, DAM
        (or PS), B, AMMO and the Saving Roll Attribute, then the traits."""
        # a band's MOD where it changes (as the range rings show them)
        kept = [b for k, b in enumerate(self.bands)
                if k == len(self.bands) - 1 or self.bands[k + 1][1] != b[1]]  # fmt: skip
        parts = [", ".join(f'to {limit:g}" {mod:+d}' if mod else f'to {limit:g}" 0'
                           for limit, mod in kept)]  # fmt: skip
        if self.template is not None:
            parts.append(f"{self.template.replace('-', ' ')} template")
        parts.append(f"DAM {self.dam}" if self.dam is not None else f"PS {self.ps}")
        parts.append(f"B {self.burst}")
        parts.append(f"AMMO {self.ammo.value}")
        save = self.save + (f" {self.save_mod:+d}" if self.save_mod else "")
        parts.append(f"SAVE {save}")
        return "; ".join(p for p in [*parts, ", ".join(self.traits)] if p)

    @property
    def possibility_of_survival(self) -> int:
        """N5 PS; derived as 20 - DAM where only CodeOne's DAM is given (FACTS 3.2)."""
        return self.ps if self.ps is not None else 20 - (self.dam or 0)

    @property
    def damage(self) -> int:
        """CodeOne DAM; derived as 20 - PS where only N5's PS is given (FACTS 3.2)."""
        return self.dam if self.dam is not None else 20 - (self.ps or 0)

    @property
    def max_range(self) -> float:
        return self.bands[-1][0] if self.bands else 0.0

    def range_mod(self, distance: float) -> int | None:
        """The MOD for a target `distance` inches away, or None when out of range."""
        for limit, mod in self.bands:
            if distance <= limit:
                return mod
        return None


STATES = ("normal", "prone", "unconscious", "dead")


def scenario_advice(scenario: Any) -> list[tuple[str, str]]:
    """What validate refuses in a checked Infinity scenario though a game plays through
    it (the registry's `advise` part): a second Lieutenant of a side. One side, one
    Lieutenant (FACTS 3.4: the Lieutenant Special Order is the Lieutenant's); the engine
    gives a side one Lieutenant Order however many it has (any of them may spend it),
    so a file with two claims what the game does not play (tester13's finding 9). Files
    written before are played as they were."""
    out: list[tuple[str, str]] = []
    first: dict[str, str] = {}
    for m in scenario.models:
        if not m.lieutenant:
            continue
        chief = first.setdefault(m.side, m.id)
        if chief != m.id:
            problem = (
                f"lieutenant = true, but side {m.side!r} has its Lieutenant already "
                f"(model {chief!r}): a side has one Lieutenant"
            )
            out.append((f"model {m.id!r}", problem))
    return out
