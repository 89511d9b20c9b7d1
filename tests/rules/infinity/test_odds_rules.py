"""Infinity rolls: the seeds' worked examples, hand-derived odds and properties."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.infinity.odds import (
    CRIT,
    NO_WINNER,
    Extra,
    F2FOutcome,
    RollSide,
    Side,
    cap_mod,
    face_to_face,
    normal_roll,
    rank_table,
    resolve,
    success_value,
)


def test_mod_cap() -> None:
    assert cap_mod(-15) == -12
    assert cap_mod(13) == 12
    assert cap_mod(-12) == -12
    assert cap_mod(5) == 5


def test_akal_commando_capped_to_sv_1() -> None:
    # seed 003: BS 13 with Mimetism -6, Cover -3, Range -6 = -15, capped to -12: SV 1
    sv = success_value(13, [-6, -3, -6])
    assert sv == 1
    dist = normal_roll(RollSide(sv, 3))
    # only a 1 succeeds, and a 1 equals the SV: every success is a Critical
    assert all(o.successes == 0 for o in dist)
    assert dist.probability(NO_WINNER) == Fraction(19, 20) ** 3


def test_knight_of_justice_crits_on_17_or_more() -> None:
    # seed 003: CC 23 adds 3 to the die; 17 + 3 = 20, so 17..20 are Criticals
    ranks = rank_table(23)
    assert [face for face, r in enumerate(ranks, start=1) if r == CRIT] == [17, 18, 19, 20]
    assert ranks[3] == 7  # a 4 counts as 4 + 3 = 7
    dist = normal_roll(RollSide(23, 1))
    assert dist.probability(NO_WINNER) == 0  # every Normal roll succeeds
    assert dist.probability(F2FOutcome(Side.ONE, 0, 1)) == Fraction(4, 20)


def test_sv_below_one_never_succeeds() -> None:
    dist = face_to_face(RollSide(0, 3), RollSide(-2, 2))
    assert dist.counts == {NO_WINNER: 20**5}


def test_fusilier_against_zhanshi_worked_examples() -> None:
    fusilier = RollSide(success_value(12, [3, -3]), 1)  # SV 12
    zhanshi = RollSide(success_value(11, [3, -3]), 1)  # SV 11
    assert (fusilier.sv, zhanshi.sv) == (12, 11)
    # the Zhanshi's 7 cancels every lower success and wins
    assert resolve(fusilier, [5], zhanshi, [7]) == F2FOutcome(Side.TWO, 1, 0)
    # both roll Criticals: all cancelled, nobody is hit
    assert resolve(fusilier, [12], zhanshi, [11]) == NO_WINNER
    # Fusilier with 2 shots (4 and 9) against a 5: the 5 cancels the 4, the 9 wins
    assert resolve(RollSide(12, 2), [4, 9], zhanshi, [5]) == F2FOutcome(Side.ONE, 1, 0)
    # both roll 11: a success for the Fusilier, a Critical for the Zhanshi, who wins
    assert resolve(fusilier, [11], zhanshi, [11]) == F2FOutcome(Side.TWO, 0, 1)


def test_fusilier_against_zhanshi_hand_counted() -> None:
    # SV 12 v SV 11, one die each, counted by hand over 400 rolls:
    # Fusilier: Critical (12) against any non-Critical: 19; a success f against a
    # failure (9 faces) or a lower result (f - 1): sum_{f=1}^{11} (8 + f) = 154.
    # Zhanshi: Critical (11) against any non-Critical: 19; sum_{z=1}^{10} (7 + z) = 125.
    dist = face_to_face(RollSide(12, 1), RollSide(11, 1))
    assert dist.total == 400
    assert dist.counts[F2FOutcome(Side.ONE, 1, 0)] == 154
    assert dist.counts[F2FOutcome(Side.ONE, 0, 1)] == 19
    assert dist.counts[F2FOutcome(Side.TWO, 1, 0)] == 125
    assert dist.counts[F2FOutcome(Side.TWO, 0, 1)] == 19
    # ties: both Criticals 1, equal results 1..10, both fail 8 * 9
    assert dist.counts[NO_WINNER] == 1 + 10 + 72


def test_normal_roll_is_binomial() -> None:
    # SV 13, Burst 3: each die a non-critical success on 12 faces, Critical on 1
    dist = normal_roll(RollSide(13, 3))
    for s in range(4):
        for c in range(4 - s):
            f = 3 - s - c
            expected = math.factorial(3) // (
                math.factorial(s) * math.factorial(c) * math.factorial(f)
            )
            expected *= 12**s * 1**c * 7**f
            outcome = NO_WINNER if s + c == 0 else F2FOutcome(Side.ONE, s, c)
            assert dist.counts.get(outcome, 0) == expected


def test_special_die_normal_roll_is_best_of_two() -> None:
    # +1 SD on Burst 1: roll two, keep the better; fails only if both fail
    dist = normal_roll(RollSide(10, 1, Extra.SPECIAL_DIE))
    assert dist.total == 400
    assert dist.counts[NO_WINNER] == 10 * 10
    # a Critical if either die is the 10
    assert dist.counts[F2FOutcome(Side.ONE, 0, 1)] == 400 - 19 * 19


def test_reroll_normal_roll() -> None:
    # ReRoll on Burst 1: fails only if the die and its reroll both fail
    dist = normal_roll(RollSide(8, 1, Extra.REROLL))
    assert dist.counts[NO_WINNER] == 12 * 12
    # Critical: first die an 8 (20 ways for the unused die) or a failure then an 8
    assert dist.counts[F2FOutcome(Side.ONE, 0, 1)] == 20 + 12


sides = st.builds(
    RollSide,
    sv=st.integers(-3, 30),
    burst=st.integers(0, 8),
    extra=st.sampled_from(list(Extra)),
)


@settings(max_examples=150, deadline=None)
@given(one=sides, two=sides)
def test_probabilities_sum_to_one(one: RollSide, two: RollSide) -> None:
    dist = face_to_face(one, two)
    assert dist.total == 20 ** (one.dice + two.dice)
    assert sum(dist.probabilities().values()) == 1
    assert all(v > 0 for v in dist.counts.values())
    for outcome in dist:
        if outcome.winner is not None:
            kept = one.burst if outcome.winner is Side.ONE else two.burst
            assert 1 <= outcome.successes + outcome.crits <= kept


@settings(max_examples=100, deadline=None)
@given(one=sides, two=sides)
def test_swapping_sides_swaps_winners(one: RollSide, two: RollSide) -> None:
    a, b = face_to_face(one, two), face_to_face(two, one)

    def swap(o: F2FOutcome) -> F2FOutcome:
        return o if o.winner is None else F2FOutcome(o.winner.other, o.successes, o.crits)

    assert a.map(swap) == b


@pytest.mark.parametrize("burst", [1, 3, 6, 10])
def test_more_burst_never_hurts(burst: int) -> None:
    def win(b: int) -> Fraction:
        dist = face_to_face(RollSide(12, b), RollSide(13, 2))
        return sum(
            (p for o, p in dist.probabilities().items() if o.winner is Side.ONE), Fraction(0)
        )

    assert win(burst + 1) > win(burst)
