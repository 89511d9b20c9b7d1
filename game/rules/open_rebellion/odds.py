"""Open Rebellion small arms fire: bang-dice pools and damage conversion, exact and sampled.

Rules implemented (seed 001, FACTS 1.4):

- A bang die is a d6; a 5 or 6 is a bang.
- Attacker and defender roll their pools; each defender bang cancels one attacker
  bang; the attacker's remaining bangs are damage.
- Damage conversion, one bang die per damage point, by the defender's cover tier:
  open: all wound markers; light cover: wound markers, the defender rolls and each
  bang shifts one to a pinned marker; hard cover: pinned markers, the attacker rolls
  and each bang shifts one to a wound marker; better than hard: all pinned.
- Tier shifts: in position +1, hidden (a card on the table) +1, blast weapons and
  "really bad-ass guns" -1.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

from game.dice.exact import Distribution, binomial, binomial_counts

D6 = 6
BANG_FACES = 2  # Open Rebellion: 5 and 6 are bangs
COVER_DICE = 4  # +4 defender dice in cover


class CoverTier(enum.IntEnum):
    """The defender's position, from worst to best."""

    OPEN = 0
    LIGHT = 1
    HARD = 2
    BEYOND_HARD = 3  # "position improved beyond hard cover"


def shifted_tier(
    base: CoverTier, *, in_position: bool = False, hidden: bool = False, blast: bool = False
) -> CoverTier:
    """Open Rebellion tier shifts: in position +1, hidden +1, blast / bad-ass guns -1."""
    tier = int(base) + int(in_position) + int(hidden) - int(blast)
    return CoverTier(max(CoverTier.OPEN, min(CoverTier.BEYOND_HARD, tier)))


def attacker_pool(rof: list[int] | tuple[int, ...], skill_dice: int, support_dice: int = 0) -> int:
    """Attacker dice: each model's ROF (those with LOS), skill dice, support weapons."""
    return sum(rof) + skill_dice + support_dice


def defender_pool(range_bands: int, skill_dice: int, in_cover: bool) -> int:
    """Defender dice: +1 per full range band, skill dice, +4 in cover."""
    return range_bands + skill_dice + (COVER_DICE if in_cover else 0)


def damage(attack_dice: int, defence_dice: int) -> Distribution[int]:
    """Exact damage: attacker bangs minus defender bangs (at least 0), over 6^(a+d)."""
    att = binomial_counts(attack_dice, BANG_FACES, D6)
    dfn = binomial_counts(defence_dice, BANG_FACES, D6)
    counts: dict[int, int] = {}
    for a, wa in enumerate(att):
        for d, wd in enumerate(dfn):
            hurt = max(0, a - d)  # each defender bang cancels one attacker bang
            counts[hurt] = counts.get(hurt, 0) + wa * wd
    return Distribution(counts, D6 ** (attack_dice + defence_dice))


@dataclass(frozen=True, slots=True, order=True)
class Markers:
    """Markers placed on the target unit."""

    wounds: int
    pinned: int


def convert(damage_points: int, tier: CoverTier) -> Distribution[Markers]:
    """Exact conversion of damage into markers, over 6^(conversion dice)."""
    if tier is CoverTier.OPEN:
        return Distribution.certain(Markers(damage_points, 0))
    if tier is CoverTier.BEYOND_HARD:
        return Distribution.certain(Markers(0, damage_points))
    bangs = binomial(damage_points, BANG_FACES, D6)
    if tier is CoverTier.LIGHT:
        # defender rolls: each bang shifts a wound marker to a pinned marker
        return bangs.map(lambda b: Markers(damage_points - b, b))
    # hard cover: attacker rolls: each bang shifts a pinned marker to a wound marker
    return bangs.map(lambda b: Markers(b, damage_points - b))


def small_arms_fire(attack_dice: int, defence_dice: int, tier: CoverTier) -> Distribution[Markers]:
    """Exact markers from one small arms fire action (in lowest terms)."""
    return damage(attack_dice, defence_dice).bind(lambda d: convert(d, tier)).reduced()


def sample_small_arms_fire(
    attack_dice: int,
    defence_dice: int,
    tier: CoverTier,
    trials: int,
    *,
    rng: np.random.Generator,
) -> Distribution[Markers]:
    """Monte Carlo: roll every bang die `trials` times."""
    att = (rng.integers(0, D6, size=(trials, attack_dice)) >= D6 - BANG_FACES).sum(axis=1)
    dfn = (rng.integers(0, D6, size=(trials, defence_dice)) >= D6 - BANG_FACES).sum(axis=1)
    hurt = np.maximum(0, att - dfn)
    most = int(hurt.max(initial=0))
    conv = rng.integers(0, D6, size=(trials, most)) >= D6 - BANG_FACES
    bangs = (conv & (np.arange(most)[None, :] < hurt[:, None])).sum(axis=1)
    if tier is CoverTier.OPEN:
        wounds = hurt
    elif tier is CoverTier.LIGHT:
        wounds = hurt - bangs
    elif tier is CoverTier.HARD:
        wounds = bangs
    else:
        wounds = np.zeros_like(hurt)
    keys, counts = np.unique(np.stack([wounds, hurt - wounds], axis=1), axis=0, return_counts=True)
    return Distribution(
        {
            Markers(int(w), int(p)): int(c)
            for (w, p), c in zip(keys.tolist(), counts.tolist(), strict=True)
        },
        trials,
    )
