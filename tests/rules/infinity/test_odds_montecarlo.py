"""Monte Carlo Face-to-Face and wounds agree with the exact values (fixed seeds)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from game.dice import Distribution, make_rng
from game.rules.infinity.odds import (
    Extra,
    F2FOutcome,
    RollSide,
    Side,
    face_to_face,
    sample_face_to_face,
)
from game.rules.infinity.saves import (
    Ammo,
    Attack,
    Defence,
    SaveSystem,
    Weapon,
    sample_wounds,
    wounds_taken,
)


def assert_within_4_se(exact: Distribution, counts: dict, trials: int) -> None:  # type: ignore[type-arg]
    for outcome in set(exact) | set(counts):
        p = float(exact.probability(outcome))
        p_hat = counts.get(outcome, 0) / trials
        se = math.sqrt(p * (1 - p) / trials)
        if p * trials >= 25:
            assert abs(p_hat - p) <= 4 * se, (outcome, p, p_hat)
        else:  # rare outcome: the normal approximation fails; a Poisson-sized margin
            assert abs(p_hat - p) * trials <= 4 * math.sqrt(p * trials) + 4, (outcome, p, p_hat)


CASES = [
    (RollSide(13, 3), RollSide(12, 1)),
    (RollSide(12, 1), RollSide(11, 1)),
    (RollSide(23, 2), RollSide(15, 2)),
    (RollSide(1, 4), RollSide(0, 1)),
    (RollSide(14, 6), RollSide(17, 6)),
    (RollSide(11, 2, Extra.SPECIAL_DIE), RollSide(12, 3)),
    (RollSide(9, 3, Extra.REROLL), RollSide(10, 1, Extra.SPECIAL_DIE)),
    (RollSide(15, 4), RollSide(0, 0)),
]


@pytest.mark.parametrize(("one", "two"), CASES)
def test_monte_carlo_face_to_face(one: RollSide, two: RollSide) -> None:
    trials = 200_000
    sampled = sample_face_to_face(one, two, trials, rng=make_rng(1234))
    assert sampled.total == trials
    assert_within_4_se(face_to_face(one, two), dict(sampled.counts), trials)


def test_same_seed_same_sample() -> None:
    one, two = RollSide(13, 3), RollSide(12, 1)
    a = sample_face_to_face(one, two, 10_000, rng=make_rng(7))
    b = sample_face_to_face(one, two, 10_000, rng=make_rng(7))
    assert a == b


def test_monte_carlo_wounds() -> None:
    one, two = RollSide(13, 3), RollSide(12, 1)
    attack1 = Attack(Weapon(SaveSystem.N5, 7, Ammo.DA), Defence(arm=1, partial_cover=True))
    attack2 = Attack(Weapon(SaveSystem.CODEONE, 13, Ammo.N), Defence(arm=2))
    exact = wounds_taken(face_to_face(one, two), {Side.ONE: attack1, Side.TWO: attack2})
    trials = 200_000
    rng = make_rng(99)
    outcomes = face_to_face(one, two).sample(trials, rng=rng)
    for target, attack in ((Side.TWO, attack1), (Side.ONE, attack2)):
        hits = np.array([o.hits_on(target)[0] for o in outcomes])
        crits = np.array([o.hits_on(target)[1] for o in outcomes])
        wounds = sample_wounds(hits, crits, attack, rng=rng)
        values, counts = np.unique(wounds, return_counts=True)
        observed = {int(v): int(c) for v, c in zip(values, counts, strict=True)}
        assert_within_4_se(exact[target], observed, trials)


def test_outcome_objects_roundtrip() -> None:
    assert F2FOutcome(Side.ONE, 1, 0).hits_on(Side.TWO) == (1, 0)
    assert F2FOutcome(Side.ONE, 1, 0).hits_on(Side.ONE) == (0, 0)
