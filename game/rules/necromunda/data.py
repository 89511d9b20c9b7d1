"""Necromunda (pre-2023) fighter and weapon profiles (FACTS 2.1, 2.2, 2.9)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import Field, model_validator

from game.rules.data import Profile, Weapon

_TRAIT = re.compile(r"^(?P<name>[A-Za-z][A-Za-z \-]*?)(?: \((?P<arg>[^)]+)\))?$")
KNOWN_TRAITS = frozenset(
    {
        "Plentiful", "Scarce", "Sidearm", "Rapid Fire", "Blast", "Template", "Knockback",
        "Grenade", "Unwieldy", "Blaze", "Rending", "Shock", "Power", "Scattershot", "Melta",
        "Demolitions", "Versatile", "Smoke",
    }
)  # fmt: skip


def _rapid_fire(arg: str) -> int:
    """Rapid Fire (X): X firepower dice hits at most (FACTS 2.2), a whole number 1-6."""
    if not arg.strip().isdigit() or not 1 <= int(arg) <= MAX_RAPID_FIRE:
        raise ValueError(f"Rapid Fire ({arg}): give a whole number of 1 to {MAX_RAPID_FIRE}")
    return int(arg)


def _blast(arg: str) -> float:
    """Blast (3") or Blast (5"): the marker's diameter in inches."""
    try:
        diameter = float(arg.strip().rstrip('"'))
    except ValueError:
        diameter = math.nan
    if not 0 < diameter <= MAX_BLAST:  # also refuses NaN
        raise ValueError(f'Blast ({arg}): give the diameter in inches, up to {MAX_BLAST:g}"')
    return diameter


MAX_RAPID_FIRE = 6
MAX_BLAST = 12.0
# The traits that take a value, and how the value is read (each refuses a bad one).
_TRAIT_VALUES = {"Rapid Fire": _rapid_fire, "Blast": _blast}
_PARSED: dict[tuple[str, ...], dict[str, str]] = {}


def _parsed(traits: tuple[str, ...]) -> dict[str, str]:
    """Each trait's name and argument ('' when it has none), the first of a name kept;
    read once for each list of traits."""
    found = _PARSED.get(traits)
    if found is None:
        found = {}
        for trait in traits:
            m = _TRAIT.match(trait)
            if m:
                found.setdefault(m["name"], m["arg"] or "")
        _PARSED[traits] = found
    return found


class NecromundaProfile(Profile):
    """A fighter. Target-number stats (WS, BS, I, Ld, Cl, Wil, Int) are given as N for N+,
    and written so (`WRITTEN`: "WS 3+", "Ld 4+", "Sv 5+", as the rulebook's profiles)."""

    WRITTEN: ClassVar[Mapping[str, str]] = {
        "m": 'M {}"', "ws": "WS {}+", "bs": "BS {}+", "s": "S {}", "t": "T {}", "w": "W {}",
        "i": "I {}+", "a": "A {}", "ld": "Ld {}+", "cl": "Cl {}+", "wil": "Wil {}+",
        "int_": "Int {}+", "armour": "{} armour", "save": "Sv {}+", "points": "{} credits",
        "role": "{}",
    }  # fmt: skip

    m: float = Field(ge=1, le=8)
    ws: int = Field(ge=2, le=6)
    bs: int = Field(ge=2, le=6)
    s: int = Field(ge=1, le=6)
    t: int = Field(ge=1, le=6)
    w: int = Field(ge=1, le=6)
    i: int = Field(ge=2, le=6)
    a: int = Field(ge=1, le=10)
    ld: int = Field(ge=3, le=10)
    cl: int = Field(ge=3, le=10)
    wil: int = Field(ge=3, le=10)
    int_: int = Field(ge=3, le=10, alias="int")
    armour: str | None = None
    save: int | None = Field(default=None, ge=2, le=6, description="armour save N+")
    points: int = Field(default=0, ge=0)
    role: str = "ganger"


class NecromundaWeapon(Weapon):
    """Rng S | Rng L | Acc S | Acc L | Str | AP | D | Am | Traits (FACTS 2.2).

    `short` None with `template` trait = flame template; `long_strength_multiple`
    is for grenades (long range = S x 3)."""

    short: float | None = Field(default=None, ge=0)
    long: float | None = Field(default=None, ge=0)
    long_strength_multiple: int | None = None
    acc_short: int = Field(default=0, ge=-3, le=3)
    acc_long: int = Field(default=0, ge=-3, le=3)
    strength: int = Field(ge=1, le=10)
    ap: int = Field(default=0, ge=-6, le=0)
    damage: int = Field(default=1, ge=0, le=6)
    ammo: int | None = Field(default=None, ge=2, le=7, description="Ammo test N+")
    traits: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _check(self) -> NecromundaWeapon:
        for trait in self.traits:
            m = _TRAIT.match(trait)
            if not m or m["name"] not in KNOWN_TRAITS:
                raise ValueError(f"unknown trait {trait!r}")
            if m["name"] in _TRAIT_VALUES:
                _TRAIT_VALUES[m["name"]](m["arg"] or "")
        if not self.is_template and self.long is None and self.long_strength_multiple is None:
            raise ValueError("a ranged weapon needs long, long_strength_multiple or Template")
        return self

    def trait(self, name: str) -> str | None:
        """The trait's argument ('' when it has none), or None when the weapon lacks it."""
        return _parsed(self.traits).get(name)

    @property
    def rapid_fire(self) -> int:
        arg = self.trait("Rapid Fire")
        return _rapid_fire(arg) if arg else 0

    @property
    def blast_diameter(self) -> float | None:
        arg = self.trait("Blast")
        return _blast(arg) if arg else None

    @property
    def is_template(self) -> bool:
        return self.trait("Template") is not None

    def long_range(self, strength: int) -> float | None:
        if self.long_strength_multiple is not None:
            return float(strength * self.long_strength_multiple)
        return self.long

    def summary(self) -> str:
        """The profile as the armoury lists it (FACTS 2.2): 'Rng 4"/12", Acc +1/-, Str 3,
        D 1, Am 4+, Rapid Fire (1), Sidearm'."""
        parts = []
        if self.long_strength_multiple is not None:
            parts.append(f"Rng L S x{self.long_strength_multiple}")
        elif self.short is not None or self.long is not None:
            short = f'{self.short:g}"' if self.short is not None else "-"
            long = f'{self.long:g}"' if self.long is not None else "-"
            parts.append(f"Rng {short}/{long}")
        if self.acc_short or self.acc_long:
            parts.append(f"Acc {_signed(self.acc_short)}/{_signed(self.acc_long)}")
        parts.append(f"Str {self.strength}")
        if self.ap:
            parts.append(f"AP {self.ap}")
        parts.append(f"D {self.damage}")
        if self.ammo is not None:
            parts.append(f"Am {self.ammo}+")
        return ", ".join([*parts, *self.traits])


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "-"


STATES = ("standing", "engaged", "pinned", "seriously-injured", "out-of-action")
ENGAGED_GAP = 0.02  # inches between two bases that are in base contact


def scenario_problems(scenario: Any) -> list[tuple[str, str]]:
    """What validate refuses in a checked Necromunda scenario though a game plays through
    it (the registry's `advise` part): (place, problem) pairs. A fighter is Engaged in
    base contact with an enemy (FACTS 2.8), and the game says so itself as it starts: one
    given "engaged" with no enemy's base touching it would stand up before the first
    round (fix10b). A gang's second Leader (`_second_leaders`)."""
    out: list[tuple[str, str]] = []
    for m in scenario.models:
        if m.state != "engaged":
            continue
        touching = any(
            o.side != m.side and math.dist(m.at, o.at) - m.radius - o.radius <= ENGAGED_GAP
            for o in scenario.models
        )
        if not touching:
            problem = (
                "state 'engaged', but no enemy's base touches it: a fighter is engaged "
                "in base contact with an enemy"
            )
            out.append((f"model {m.id!r}", problem))
    return out + _second_leaders(scenario)


def _second_leaders(scenario: Any) -> list[tuple[str, str]]:
    """A second Leader of one gang (a profile of role "leader"). FACTS leaves a gang's
    make-up open; the reading chosen (README) is the gang rules' own: a gang has one
    Leader. The engine lets each Leader it is given group-activate (FACTS 2.8), so a
    side with two would get a second group the rules never give (tester13's finding
    18). Refused by validate and the editor; a file that has one is played as it was."""
    out: list[tuple[str, str]] = []
    first: dict[str, str] = {}
    for m in scenario.models:
        if scenario.profiles[m.profile].role != "leader":
            continue
        chief = first.setdefault(m.side, m.id)
        if chief != m.id:
            problem = (
                f"a second Leader of side {m.side!r} (its Leader: model {chief!r}): "
                "a gang has one Leader"
            )
            out.append((f"model {m.id!r}", problem))
    return out
