"""Necromunda (pre-2023) shooting odds: hit, wound, save, damage and injury, exact and sampled.

Rules implemented (seed 004, FACTS 2.1-2.6):

- Target numbers are "N+" on a d6; a natural 1 always fails; a +1 modifier
  improves a 4+ to a 3+.
- Hit roll: a BS test with the summed modifiers. If the modified target is 7+
  the shot is improbable: roll a 6, then a second BS test with no modifiers.
- Wound roll by Strength against Toughness (S >= 2T 2+, S > T 3+, S = T 4+,
  S < T 5+, S <= T/2 6+).
- Save: the armour save N+ worsened by AP (AP -1 turns 5+ into 6+), improved by
  cover bonuses (blasts and templates); a modified save above 6 is no save; a
  fighter without armour has a 7+ save when positive modifiers apply.
- Damage: each point of D removes a Wound; at 0 Wounds one Injury die, plus one
  more per point of D beyond the last Wound. Injury results stack: a Flesh Wound
  is -1 Toughness (Toughness 0: Out of Action); Seriously Injured; Out of Action.
- Firepower dice: one with every ranged attack; with Rapid Fire (X) a hit scores
  as many hits as the bullet holes on X Firepower dice. Each Ammo symbol is an
  Ammo test (d6 >= Am): one failure is Out of Ammo, two or more jam the weapon.

The faces of the injury and firepower dice are data (`NecromundaDice`).
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from math import comb

import numpy as np
import numpy.typing as npt

from game.dice.exact import Distribution
from game.rules.necromunda.dice import InjuryResult, NecromundaDice

D6 = 6


def pass_faces(target: int) -> int:
    """Faces of a d6 that pass an N+ test: a natural 1 always fails."""
    return max(0, D6 + 1 - max(target, 2))


def modified_target(stat: int, modifier: int) -> int:
    """Necromunda: a +1 modifier improves a 4+ to a 3+."""
    return stat - modifier


def hit_roll(bs: int, modifier: int = 0) -> Distribution[bool]:
    """Exact hit roll, over 36 (two dice for an improbable shot, else 6 x 6)."""
    target = modified_target(bs, modifier)
    if target > D6:
        # Necromunda: improbable shot: a 6, then an unmodified BS test
        return Distribution({True: pass_faces(bs), False: 36 - pass_faces(bs)}, 36)
    faces = pass_faces(target)
    return Distribution({True: faces * 6, False: (D6 - faces) * 6}, 36)


def hit_chance(bs: int, modifier: int = 0) -> Fraction:
    """The probability that a BS test with `modifier` hits."""
    return hit_roll(bs, modifier).probability(True)


def wound_target(strength: int, toughness: int) -> int:
    """Necromunda wound chart (FACTS 2.4): the N+ needed to wound."""
    if strength >= 2 * toughness:
        return 2
    if 2 * strength <= toughness:
        return 6
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    return 5


def save_target(save: int | None, ap: int = 0, bonus: int = 0) -> int | None:
    """The modified armour save N+, or None when no save is possible.

    `ap` is the weapon's AP (0 or negative: -1 worsens a 5+ to a 6+); `bonus` is a
    positive save modifier such as cover against blasts and templates.
    """
    if save is None:
        if bonus <= 0:
            return None
        save = 7  # Necromunda: no armour counts as a 7+ save when positive modifiers apply
    target = save - ap - bonus
    return target if target <= D6 else None


class AmmoState(enum.Enum):
    """The weapon after the attack's Ammo tests."""

    OK = "ok"
    OUT_OF_AMMO = "out of ammo"
    JAMMED = "jammed"  # Rapid Fire: two or more failed Ammo tests


class Status(enum.Enum):
    """The target after the attack (Pinned is left to the sequencer)."""

    STANDING = "standing"
    SERIOUSLY_INJURED = "seriously injured"
    OUT_OF_ACTION = "out of action"


@dataclass(frozen=True, slots=True)
class Shot:
    """One ranged attack: the shooter's BS and hit modifiers, the weapon profile."""

    bs: int
    strength: int
    modifier: int = 0
    ap: int = 0
    damage: int = 1
    rapid_fire: int = 0  # X of Rapid Fire (X); 0 for a single-shot weapon
    ammo: int | None = None  # Ammo test N+; None: no Ammo test


@dataclass(frozen=True, slots=True)
class Target:
    """The fighter shot at."""

    toughness: int
    wounds: int = 1
    save: int | None = None  # armour save N+
    save_bonus: int = 0  # cover bonus to the save against blasts and templates


@dataclass(frozen=True, slots=True)
class TargetState:
    """The target's condition: Wounds left, Flesh Wounds taken and its status."""

    wounds: int
    flesh_wounds: int = 0
    status: Status = Status.STANDING


@dataclass(frozen=True, slots=True)
class ShotOutcome:
    """One outcome of a whole attack."""

    hits: int
    ammo: AmmoState
    target: TargetState


def injury_roll(dice: NecromundaDice, n: int) -> Distribution[tuple[int, bool, bool]]:
    """n Injury dice: (Flesh Wounds, any Seriously Injured, any Out of Action)."""
    faces = Distribution.uniform(dice.injury)

    def tally(results: tuple[InjuryResult, ...]) -> tuple[int, bool, bool]:
        return (
            sum(1 for r in results if r is InjuryResult.FLESH_WOUND),
            InjuryResult.SERIOUSLY_INJURED in results,
            InjuryResult.OUT_OF_ACTION in results,
        )

    counts: Counter[tuple[int, bool, bool]] = Counter()
    for combo in product(faces.counts.items(), repeat=n):
        ways = 1
        for _, w in combo:
            ways *= w
        counts[tally(tuple(face for face, _ in combo))] += ways
    return Distribution(dict(counts), faces.total**n)


def apply_injuries(
    state: TargetState, toughness: int, flesh: int, serious: bool, out: bool
) -> TargetState:
    """Stack Injury results on the target (a Flesh Wound at Toughness 0 is Out of Action)."""
    fw = state.flesh_wounds + flesh
    if out or toughness - fw <= 0:
        return TargetState(0, fw, Status.OUT_OF_ACTION)
    if serious or state.status is Status.SERIOUSLY_INJURED:
        return TargetState(0, fw, Status.SERIOUSLY_INJURED)
    return TargetState(0, fw, Status.STANDING)


def injury_dice_for(wounds_left: int, damage: int) -> int:
    """Injury dice from one unsaved wound of `damage` on a fighter with `wounds_left`."""
    if damage <= 0:
        return 0
    if wounds_left <= 0:
        return damage  # already at 0 Wounds: each point of D is an Injury die
    return max(0, damage - wounds_left + 1)


def resolve_hit(
    state: TargetState, shot: Shot, target: Target, dice: NecromundaDice
) -> Distribution[TargetState]:
    """Exact effect of one hit: wound roll, save, damage and Injury dice."""
    if state.status is Status.OUT_OF_ACTION:
        return Distribution.certain(state)
    toughness = target.toughness - state.flesh_wounds  # Flesh Wound: -1 Toughness
    wound = pass_faces(wound_target(shot.strength, toughness))
    save = save_target(target.save, shot.ap, target.save_bonus)
    saved = 0 if save is None else pass_faces(save)
    unsaved = wound * (D6 - saved)  # over 36
    injuries = injury_dice_for(state.wounds, shot.damage)
    after = replace(state, wounds=max(0, state.wounds - shot.damage))
    if injuries == 0:
        hurt: Distribution[TargetState] = Distribution.certain(after)
    else:
        hurt = injury_roll(dice, injuries).map(
            lambda r: apply_injuries(after, target.toughness, r[0], r[1], r[2])
        )
    unhurt = Distribution({True: 36 - unsaved, False: unsaved}, 36)
    return unhurt.bind(lambda ok: Distribution.certain(state) if ok else hurt)


def firepower(shot: Shot, dice: NecromundaDice) -> Distribution[tuple[int, int]]:
    """Firepower dice rolled: (bullet holes, Ammo symbols). Rapid Fire (X) rolls X dice."""
    n = max(1, shot.rapid_fire)
    counts: Counter[tuple[int, int]] = Counter()
    for faces in product(dice.firepower, repeat=n):
        counts[(sum(f.holes for f in faces), sum(1 for f in faces if f.ammo))] += 1
    return Distribution(dict(counts), len(dice.firepower) ** n)


def ammo_check(shot: Shot, symbols: int) -> Distribution[AmmoState]:
    """One Ammo test (d6 >= Am) per Ammo symbol: 1 failure Out of Ammo, 2+ jammed."""
    if shot.ammo is None or symbols == 0:
        return Distribution.certain(AmmoState.OK)
    fail = D6 - pass_faces(shot.ammo)
    counts: Counter[AmmoState] = Counter()
    for fails in range(symbols + 1):
        ways = comb(symbols, fails) * fail**fails * (D6 - fail) ** (symbols - fails)
        if fails == 0:
            state = AmmoState.OK
        elif fails == 1 or shot.rapid_fire == 0:
            state = AmmoState.OUT_OF_AMMO
        else:
            state = AmmoState.JAMMED  # Rapid Fire: two or more failures
        counts[state] += ways
    return Distribution(dict(counts), D6**symbols)


def hits_and_ammo(shot: Shot, dice: NecromundaDice) -> Distribution[tuple[int, AmmoState]]:
    """The number of hits on the target and the weapon's ammo state, jointly."""
    hit = hit_roll(shot.bs, shot.modifier)
    fp = firepower(shot, dice)

    def after_hit(hit_ok: bool) -> Distribution[tuple[int, AmmoState]]:
        def from_fp(roll: tuple[int, int]) -> Distribution[tuple[int, AmmoState]]:
            holes, symbols = roll
            hits = (holes if shot.rapid_fire else 1) if hit_ok else 0
            return ammo_check(shot, symbols).map(lambda a: (hits, a))

        return fp.bind(from_fp)

    return hit.bind(after_hit)


def attack(shot: Shot, target: Target, dice: NecromundaDice) -> Distribution[ShotOutcome]:
    """Exact distribution of one whole ranged attack (reduced to lowest terms)."""
    damage_by_hits: dict[int, Distribution[TargetState]] = {}

    def damage(hits: int) -> Distribution[TargetState]:
        if hits not in damage_by_hits:
            state: Distribution[TargetState] = Distribution.certain(TargetState(target.wounds))
            for _ in range(hits):
                state = state.bind(lambda s: resolve_hit(s, shot, target, dice)).reduced()
            damage_by_hits[hits] = state
        return damage_by_hits[hits]

    joint = hits_and_ammo(shot, dice).bind(
        lambda ha: damage(ha[0]).map(lambda s: ShotOutcome(ha[0], ha[1], s))
    )
    return joint.reduced()


# ---------------------------------------------------------------------------
# Monte Carlo


def sample_attack(
    shot: Shot, target: Target, dice: NecromundaDice, trials: int, *, rng: np.random.Generator
) -> Distribution[ShotOutcome]:
    """Monte Carlo: roll every die of the attack `trials` times (vectorized over trials)."""
    n = trials

    def d6() -> npt.NDArray[np.int64]:
        return rng.integers(1, D6 + 1, size=n)

    # hit roll (improbable shot: a 6, then an unmodified BS test)
    target_n = modified_target(shot.bs, shot.modifier)
    first = d6()
    if target_n > D6:
        second = d6()
        hit = (first == D6) & (second >= max(shot.bs, 2))
    else:
        hit = first >= max(target_n, 2)  # natural 1 always misses
    # firepower dice
    k = max(1, shot.rapid_fire)
    fp_idx = rng.integers(0, len(dice.firepower), size=(n, k))
    holes = np.array([f.holes for f in dice.firepower])[fp_idx].sum(axis=1)
    symbols = np.array([f.ammo for f in dice.firepower])[fp_idx].sum(axis=1)
    hits = np.where(hit, holes if shot.rapid_fire else 1, 0)
    # ammo tests
    fails = np.zeros(n, dtype=np.int64)
    if shot.ammo is not None:
        for j in range(k):
            fails += (symbols > j) & (d6() < max(shot.ammo, 2))
    ammo_code = np.where(fails == 0, 0, np.where((fails >= 2) & (shot.rapid_fire > 0), 2, 1))
    # hits, one at a time
    wounds = np.full(n, target.wounds)
    fw = np.zeros(n, dtype=np.int64)
    status = np.zeros(n, dtype=np.int64)  # 0 standing, 1 SI, 2 OOA
    save = save_target(target.save, shot.ap, target.save_bonus)
    injury_code = np.array(
        [
            {
                InjuryResult.FLESH_WOUND: 0,
                InjuryResult.SERIOUSLY_INJURED: 1,
                InjuryResult.OUT_OF_ACTION: 2,
            }[r]
            for r in dice.injury
        ]
    )
    need_by_toughness = np.array(
        [max(wound_target(shot.strength, t), 2) for t in range(target.toughness + 1)]
    )
    injuries_by_wounds = np.array(
        [injury_dice_for(w, shot.damage) for w in range(target.wounds + 1)], dtype=np.int64
    )
    for j in range(int(hits.max(initial=0))):
        live = (hits > j) & (status < 2)
        tough = np.clip(target.toughness - fw, 0, target.toughness)
        wounded = live & (d6() >= need_by_toughness[tough])
        saved = d6() >= max(save, 2) if save is not None else np.zeros(n, dtype=bool)
        hurt = wounded & ~saved
        n_injury = injuries_by_wounds[wounds]
        wounds = np.where(hurt, np.maximum(0, wounds - shot.damage), wounds)
        for i in range(int(n_injury.max(initial=0))):
            face = injury_code[rng.integers(0, len(dice.injury), size=n)]
            roll_it = hurt & (n_injury > i)
            fw += roll_it & (face == 0)
            status = np.where(roll_it & (face == 2), 2, status)
            status = np.where(roll_it & (face == 1) & (status < 2), 1, status)
        status = np.where(target.toughness - fw <= 0, 2, status)
    wounds = np.where(status > 0, 0, wounds)
    ammo_states = (AmmoState.OK, AmmoState.OUT_OF_AMMO, AmmoState.JAMMED)
    statuses = (Status.STANDING, Status.SERIOUSLY_INJURED, Status.OUT_OF_ACTION)
    counts: Counter[ShotOutcome] = Counter()
    keys = np.stack([hits, ammo_code, wounds, fw, status], axis=1)
    uniq, num = np.unique(keys, axis=0, return_counts=True)
    for (h, a, w, f, s), c in zip(uniq.tolist(), num.tolist(), strict=True):
        state = TargetState(int(w), int(f), statuses[s])
        counts[ShotOutcome(int(h), ammo_states[a], state)] += int(c)
    return Distribution(dict(counts), trials)
