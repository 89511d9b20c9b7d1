"""Range rings of a weapon and one-line summaries of profiles and weapons, for the panel.

Each rule system writes its ranges differently; this module reads them by their
columns (duck typing), so a new system's weapon with one of these shapes gets rings
without touching the table:

- range bands with a MOD each: `bands` = ((upper limit, MOD), ...), nearest first;
- short and long range: `short` / `long` (or `long_strength_multiple` x the model's
  S) with their accuracy modifiers `acc_short` / `acc_long`;
- one band length: `band`, each full band between the units adds a defender die.

No pygame here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.rules.data import Profile, Weapon

# One band length: at most this many rings; beyond them the table is usually over.
MAX_BAND_RINGS = 12


@dataclass(frozen=True, slots=True)
class Ring:
    """A range limit in inches from the shooter's base edge, and what lies inside it."""

    limit: float
    label: str


def _mod(value: int) -> str:
    return f"{value:+d}" if value else "0"


def range_rings(weapon: Weapon, profile: Profile | None = None) -> list[Ring]:
    """The rings to draw around a shooter for `weapon`, nearest first (may be empty)."""
    bands = getattr(weapon, "bands", None)
    if bands:
        # MOD bands: one ring where the MOD changes; the last ring is the maximum range.
        rings: list[Ring] = []
        for index, (limit, mod) in enumerate(bands):
            last = index == len(bands) - 1
            if last or bands[index + 1][1] != mod:
                rings.append(Ring(float(limit), f'{_mod(mod)} to {limit:g}"'))
        return rings
    if hasattr(weapon, "short") and hasattr(weapon, "long"):
        # Short and long range with their accuracy modifiers.
        rings = []
        short = getattr(weapon, "short", None)
        long = getattr(weapon, "long", None)
        multiple = getattr(weapon, "long_strength_multiple", None)
        if long is None and multiple is not None and profile is not None:
            strength = getattr(profile, "s", None)
            if isinstance(strength, int):
                long = float(strength * multiple)
        if short:
            rings.append(Ring(float(short), _band("short", short, getattr(weapon, "acc_short", 0))))
        if long:
            rings.append(Ring(float(long), _band("long", long, getattr(weapon, "acc_long", 0))))
        return rings
    band = getattr(weapon, "band", None)
    if isinstance(band, int | float) and band > 0:
        # One band length: +1 defender die per full band between the units.
        return [
            Ring(band * k, f'past {band * k:g}": +{k} defence {"die" if k == 1 else "dice"}')
            for k in range(1, MAX_BAND_RINGS + 1)
        ]
    return []


def _band(name: str, reach: float, accuracy: object) -> str:
    """A short or long range ring's label: 'short to 4", +1', 'long to 12"'."""
    acc = accuracy if isinstance(accuracy, int) else 0
    return f'{name} to {reach:g}"' + (f", {acc:+d}" if acc else "")


def weapon_summary(weapon: Weapon) -> str:
    """The weapon's columns in one short line (its name left out): the rule system's own
    `summary()` where its weapons have one, else each column by its name."""
    own = getattr(weapon, "summary", None)
    if callable(own):
        return str(own())
    skip = {"name", "unconfirmed", "note", "bands", "traits"}
    parts: list[str] = []
    bands = getattr(weapon, "bands", None)
    if bands:
        parts.append("/".join(f"{limit:g}:{_mod(mod)}" for limit, mod in bands))
    for key, value in weapon.model_dump().items():
        if key in skip or value is None or value is False or (value == 0 and key != "rof"):
            continue
        if hasattr(value, "value"):
            value = value.value
        words = key.replace("_", " ")
        parts.append(f"{words} {value}" if value is not True else words)
    traits = getattr(weapon, "traits", ())
    if traits:
        parts.append(", ".join(traits))
    return " ".join(str(p) for p in parts)


def profile_summary(profile: Profile) -> str:
    """The profile's own statistics (those a system adds to the shared columns), each
    as the rule system writes it where its profile says (`Profile.WRITTEN`: "WS 3+")."""
    shared = set(Profile.model_fields)
    written = profile.WRITTEN
    parts: list[str] = []
    for key, value in profile.model_dump().items():
        if key in shared or value is None:
            continue
        if key in written:
            parts.append(written[key].format(f"{value:g}" if isinstance(value, float) else value))
            continue
        if isinstance(value, list | tuple):
            if value and all(isinstance(v, int | float) for v in value):
                parts.append(f"{key.upper()} " + "-".join(f"{v:g}" for v in value))
            continue
        if isinstance(value, bool):
            if value:
                parts.append(key)
            continue
        if isinstance(value, float) and math.isclose(value, round(value)):
            value = round(value)
        parts.append(f"{key.rstrip('_').upper()} {value}")
    return "  ".join(parts)
