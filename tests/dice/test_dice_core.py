"""Seeded generators, roll records, exact distributions and sampling helpers."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from game.dice import (
    DieKind,
    Distribution,
    RollRecord,
    binomial,
    chunks,
    make_rng,
    roll,
    roll_faces,
    spawn_rngs,
    sum_of,
)


def test_same_seed_same_stream() -> None:
    a, b = make_rng(42), make_rng(42)
    assert np.array_equal(a.integers(0, 20, 50), b.integers(0, 20, 50))
    assert not np.array_equal(make_rng(1).integers(0, 20, 50), make_rng(2).integers(0, 20, 50))


def test_children_are_reproducible_and_distinct() -> None:
    first = [g.integers(0, 1 << 30, 4).tolist() for g in spawn_rngs(5, 3)]
    again = [g.integers(0, 1 << 30, 4).tolist() for g in spawn_rngs(5, 3)]
    assert first == again
    assert len({tuple(x) for x in first}) == 3


def test_negative_seed_rejected() -> None:
    with pytest.raises(ValueError):
        make_rng(-1)


def test_roll_record_roundtrip() -> None:
    rec = roll(DieKind.D20, 3, rng=make_rng(3), purpose="BS attack", target=13)
    assert len(rec.faces) == 3 and all(1 <= f <= 20 for f in rec.faces)
    assert RollRecord.from_dict(rec.to_dict()) == rec
    assert roll(DieKind.D20, 3, rng=make_rng(3), purpose="BS attack", target=13) == rec
    with pytest.raises(ValueError):
        RollRecord(DieKind.D6, (7,))


def test_binomial_counts_by_hand() -> None:
    # two d6 succeeding on 5-6: 0 -> 16, 1 -> 2*2*4 = 16, 2 -> 4, out of 36
    assert binomial(2, 2, 6).counts == {0: 16, 1: 16, 2: 4}
    assert binomial(2, 2, 6).total == 36


def test_distribution_checks_and_operations() -> None:
    with pytest.raises(ValueError):
        Distribution({1: 2}, 3)
    d6 = Distribution.uniform(range(1, 7))
    two = sum_of(d6, d6)
    assert two.probability(7) == Fraction(1, 6)
    assert two.mean() == 7
    assert d6.map(lambda x: x >= 5).probability(True) == Fraction(1, 3)
    bound = d6.bind(lambda x: binomial(1, 1, 2) if x == 6 else Distribution.certain(0))
    assert bound.probability(1) == Fraction(1, 12)
    assert Distribution.from_fractions({"a": Fraction(1, 3), "b": Fraction(2, 3)}).total == 3


def test_sampling_helpers() -> None:
    faces = roll_faces(1000, 4, 20, rng=make_rng(0))
    assert faces.shape == (1000, 4) and faces.min() >= 0 and faces.max() <= 19
    assert sum(chunks(200_001, 65_536)) == 200_001
    picks = Distribution.uniform("ab").sample(100, rng=make_rng(0))
    assert set(picks) <= {"a", "b"}
