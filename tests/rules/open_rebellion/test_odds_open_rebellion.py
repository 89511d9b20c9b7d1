"""Open Rebellion bang-dice odds against brute force and hand counts; Monte Carlo."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.dice import make_rng
from game.rules.open_rebellion.odds import (
    CoverTier,
    Markers,
    attacker_pool,
    damage,
    defender_pool,
    sample_small_arms_fire,
    shifted_tier,
    small_arms_fire,
)


def brute(att: int, dfn: int, tier: CoverTier) -> dict[Markers, int]:
    """Roll every face of every die: pools, then the conversion dice (all of them, 6^max)."""
    conv_n = att
    counts: Counter[Markers] = Counter()
    for faces in itertools.product(range(1, 7), repeat=att + dfn + conv_n):
        a = sum(1 for f in faces[:att] if f >= 5)
        d = sum(1 for f in faces[att : att + dfn] if f >= 5)
        hurt = max(0, a - d)
        bangs = sum(1 for f in faces[att + dfn : att + dfn + hurt] if f >= 5)
        if tier is CoverTier.OPEN:
            m = Markers(hurt, 0)
        elif tier is CoverTier.LIGHT:
            m = Markers(hurt - bangs, bangs)
        elif tier is CoverTier.HARD:
            m = Markers(bangs, hurt - bangs)
        else:
            m = Markers(0, hurt)
        counts[m] += 1
    return dict(counts)


@pytest.mark.parametrize("tier", list(CoverTier))
@pytest.mark.parametrize(("att", "dfn"), [(1, 0), (2, 1), (2, 2), (1, 3)])
def test_against_brute_force(att: int, dfn: int, tier: CoverTier) -> None:
    exact = small_arms_fire(att, dfn, tier)
    ref = brute(att, dfn, tier)
    total = 6 ** (2 * att + dfn)
    assert {m: p * total for m, p in exact.probabilities().items()} == ref


def test_one_die_each_by_hand() -> None:
    # attacker bang 1/3, defender no bang 2/3: damage 1 with probability 2/9
    assert damage(1, 1).probabilities() == {0: Fraction(7, 9), 1: Fraction(2, 9)}


def test_pools_and_tiers() -> None:
    assert attacker_pool([1, 1, 2, 3], skill_dice=4, support_dice=3) == 14
    assert defender_pool(range_bands=2, skill_dice=3, in_cover=True) == 9
    assert shifted_tier(CoverTier.HARD, in_position=True) is CoverTier.BEYOND_HARD
    assert shifted_tier(CoverTier.LIGHT, blast=True) is CoverTier.OPEN
    assert shifted_tier(CoverTier.OPEN, blast=True) is CoverTier.OPEN
    assert shifted_tier(CoverTier.HARD, in_position=True, hidden=True) is CoverTier.BEYOND_HARD


@settings(max_examples=60, deadline=None)
@given(att=st.integers(0, 14), dfn=st.integers(0, 14), tier=st.sampled_from(list(CoverTier)))
def test_probabilities_sum_to_one(att: int, dfn: int, tier: CoverTier) -> None:
    dist = small_arms_fire(att, dfn, tier)
    assert sum(dist.probabilities().values()) == 1
    assert all(m.wounds + m.pinned <= att for m in dist)


@pytest.mark.parametrize("tier", list(CoverTier))
def test_monte_carlo_within_4_se(tier: CoverTier) -> None:
    trials = 100_000
    exact = small_arms_fire(10, 7, tier)
    sampled = sample_small_arms_fire(10, 7, tier, trials, rng=make_rng(11))
    for outcome in set(exact) | set(sampled):
        p = float(exact.probability(outcome))
        p_hat = sampled.counts.get(outcome, 0) / trials
        se = math.sqrt(p * (1 - p) / trials)
        if p * trials >= 25:
            assert abs(p_hat - p) <= 4 * se, (outcome, p, p_hat)
        else:  # rare outcome: the normal approximation fails; a Poisson-sized margin
            assert abs(p_hat - p) * trials <= 4 * math.sqrt(p * trials) + 4, (outcome, p, p_hat)
