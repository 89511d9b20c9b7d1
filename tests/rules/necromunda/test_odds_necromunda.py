"""Necromunda shooting odds: hand-derived values, a branch-by-branch reference, Monte Carlo."""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from fractions import Fraction

import pytest

from game.dice import make_rng
from game.rules.necromunda.assets import load_necromunda_dice
from game.rules.necromunda.dice import FirepowerFace, InjuryResult, NecromundaDice, ScatterFace
from game.rules.necromunda.odds import (
    AmmoState,
    Shot,
    ShotOutcome,
    Status,
    Target,
    TargetState,
    attack,
    hit_chance,
    sample_attack,
    save_target,
    wound_target,
)

FW, SI, OOA = (
    InjuryResult.FLESH_WOUND,
    InjuryResult.SERIOUSLY_INJURED,
    InjuryResult.OUT_OF_ACTION,
)
# test dice of our own, so that the tests do not depend on the [U] placeholder faces
DICE = NecromundaDice(
    injury=(FW, FW, SI, SI, OOA, OOA),
    firepower=(
        FirepowerFace(1),
        FirepowerFace(1, ammo=True),
        FirepowerFace(2),
        FirepowerFace(2),
        FirepowerFace(3),
        FirepowerFace(0, ammo=True),
    ),
    scatter=(ScatterFace(True),) * 2 + (ScatterFace(False),) * 4,
)


def test_hit_chance_by_hand() -> None:
    assert hit_chance(4) == Fraction(1, 2)
    assert hit_chance(4, +1) == Fraction(2, 3)  # a +1 modifier improves 4+ to 3+
    assert hit_chance(2, +3) == Fraction(5, 6)  # a natural 1 always misses
    assert hit_chance(4, -2) == Fraction(1, 6)  # 6+
    # improbable shot (7+): a 6, then the unmodified BS test (4+)
    assert hit_chance(4, -3) == Fraction(1, 6) * Fraction(1, 2)
    assert hit_chance(3, -5) == Fraction(1, 6) * Fraction(2, 3)


@pytest.mark.parametrize(
    ("s", "t", "need"),
    [(6, 3, 2), (4, 3, 3), (3, 3, 4), (2, 3, 5), (1, 3, 6), (2, 4, 6), (3, 4, 5), (8, 4, 2)],
)
def test_wound_chart(s: int, t: int, need: int) -> None:
    assert wound_target(s, t) == need


def test_save_target() -> None:
    assert save_target(5, -1) == 6  # AP -1: 5+ becomes 6+
    assert save_target(6, -1) is None
    assert save_target(None, 0, bonus=1) == 6  # no armour: 7+ with positive modifiers
    assert save_target(None) is None
    assert save_target(4, 0, bonus=2) == 2


def reference(shot: Shot, target: Target, dice: NecromundaDice) -> dict[ShotOutcome, Fraction]:
    """Walk every die of the attack in turn with exact branch weights."""
    out: dict[ShotOutcome, Fraction] = defaultdict(Fraction)
    sixth = Fraction(1, 6)

    def d6_passes(need: int) -> Fraction:
        return Fraction(sum(1 for f in range(1, 7) if f != 1 and f >= need), 6)

    def hit_p() -> Fraction:
        need = shot.bs - shot.modifier
        if need > 6:
            return sixth * d6_passes(shot.bs)
        return d6_passes(need)

    def one_hit(wounds: int, fw: int, status: Status) -> dict[tuple[int, int, Status], Fraction]:
        """Every branch of one hit on a fighter in the given condition."""
        if status is Status.OUT_OF_ACTION:
            return {(wounds, fw, status): Fraction(1)}
        s, t = shot.strength, target.toughness - fw
        need = 2 if s >= 2 * t else 6 if 2 * s <= t else 3 if s > t else 4 if s == t else 5
        sv = target.save
        if sv is None and target.save_bonus > 0:
            sv = 7  # no armour: a 7+ save when positive modifiers apply
        if sv is not None:
            sv = sv - shot.ap - target.save_bonus
        p_save = d6_passes(sv) if sv is not None and sv <= 6 else Fraction(0)
        p_hurt = d6_passes(need) * (1 - p_save)
        branches: dict[tuple[int, int, Status], Fraction] = defaultdict(Fraction)
        branches[(wounds, fw, status)] += 1 - p_hurt
        n_inj = shot.damage if wounds == 0 else max(0, shot.damage - wounds + 1)
        new_w = max(0, wounds - shot.damage)
        for faces in itertools.product(dice.injury, repeat=n_inj):
            fw2, st = fw, status
            for face in faces:
                if face is FW:
                    fw2 += 1
                elif face is SI and st is not Status.OUT_OF_ACTION:
                    st = Status.SERIOUSLY_INJURED
                elif face is OOA:
                    st = Status.OUT_OF_ACTION
            if target.toughness - fw2 <= 0:
                st = Status.OUT_OF_ACTION
            branches[(new_w, fw2, st)] += p_hurt / len(dice.injury) ** n_inj
        return branches

    def after_hits(hits: int) -> dict[tuple[int, int, Status], Fraction]:
        states: dict[tuple[int, int, Status], Fraction] = {
            (target.wounds, 0, Status.STANDING): Fraction(1)
        }
        for _ in range(hits):
            nxt: dict[tuple[int, int, Status], Fraction] = defaultdict(Fraction)
            for (w, f, st), p in states.items():
                for key, q in one_hit(w, f, st).items():
                    nxt[key] += p * q
            states = nxt
        return states

    def record(hits: int, ammo: AmmoState, p: Fraction) -> None:
        for (w, f, st), q in after_hits(hits).items():
            out[ShotOutcome(hits, ammo, TargetState(w, f, st))] += p * q

    k = max(1, shot.rapid_fire)
    ph = hit_p()

    def fp(j: int, holes: int, symbols: int, q: Fraction) -> None:
        if j < k:
            for face in dice.firepower:
                fp(j + 1, holes + face.holes, symbols + face.ammo, q / len(dice.firepower))
            return
        p_fail = Fraction(0) if shot.ammo is None else 1 - d6_passes(shot.ammo)
        for fails in range(symbols + 1):
            qa = q * math.comb(symbols, fails) * p_fail**fails * (1 - p_fail) ** (symbols - fails)
            if shot.ammo is None or fails == 0:
                ammo = AmmoState.OK
            elif fails == 1 or not shot.rapid_fire:
                ammo = AmmoState.OUT_OF_AMMO
            else:
                ammo = AmmoState.JAMMED
            if qa == 0:
                continue
            hits = holes if shot.rapid_fire else 1
            record(hits, ammo, qa * ph)
            record(0, ammo, qa * (1 - ph))

    fp(0, 0, 0, Fraction(1))
    return {k: v for k, v in out.items() if v}


CASES = [
    (Shot(bs=4, strength=3, ammo=2), Target(toughness=3, wounds=1, save=None)),
    (
        Shot(bs=3, strength=4, modifier=-1, ap=-1, damage=2, rapid_fire=2, ammo=4),
        Target(toughness=3, wounds=2, save=5),
    ),
    (Shot(bs=4, strength=3, modifier=-3, rapid_fire=1, ammo=4), Target(toughness=2, save=6)),
    (Shot(bs=2, strength=6, ap=-2, damage=2, ammo=6), Target(toughness=4, wounds=3, save=4)),
    (Shot(bs=4, strength=3, rapid_fire=1), Target(toughness=3, save=None, save_bonus=2)),
]


@pytest.mark.parametrize(("shot", "target"), CASES)
def test_attack_equals_reference(shot: Shot, target: Target) -> None:
    exact = attack(shot, target, DICE)
    assert exact.probabilities() == reference(shot, target, DICE)


@pytest.mark.parametrize(("shot", "target"), CASES[:3])
def test_monte_carlo_within_4_se(shot: Shot, target: Target) -> None:
    trials = 100_000
    exact = attack(shot, target, DICE)
    sampled = sample_attack(shot, target, DICE, trials, rng=make_rng(2024))
    for outcome in set(exact) | set(sampled):
        p = float(exact.probability(outcome))
        p_hat = sampled.counts.get(outcome, 0) / trials
        se = math.sqrt(p * (1 - p) / trials)
        if p * trials >= 25:
            assert abs(p_hat - p) <= 4 * se, (outcome, p, p_hat)
        else:  # rare outcome: the normal approximation fails; a Poisson-sized margin
            assert abs(p_hat - p) * trials <= 4 * math.sqrt(p * trials) + 4, (outcome, p, p_hat)


def test_single_hit_by_hand() -> None:
    # BS 4+, S3 against T3 W1 no armour: hit 1/2, wound 4+ 1/2, then one Injury die
    exact = attack(Shot(bs=4, strength=3), Target(toughness=3), DICE)
    status = exact.map(lambda o: o.target.status)
    assert status.probability(Status.OUT_OF_ACTION) == Fraction(1, 4) * Fraction(2, 6)
    assert status.probability(Status.SERIOUSLY_INJURED) == Fraction(1, 4) * Fraction(2, 6)


def test_bundled_dice_load_and_mark_unconfirmed() -> None:
    dice = load_necromunda_dice()
    assert len(dice.injury) == len(dice.firepower) == len(dice.scatter) == 6
    assert sum(f.hit for f in dice.scatter) == 2  # FACTS 2.7 [S]: two Hit faces
    assert {"injury", "firepower"} <= dice.unconfirmed
    dist = attack(Shot(bs=3, strength=4, rapid_fire=2, ammo=4), Target(toughness=3), dice)
    assert sum(dist.probabilities().values()) == 1
