"""Dice: seeded generators, roll records, exact distributions, vectorized sampling."""

from __future__ import annotations

from game.dice.exact import Distribution, binomial, binomial_counts, sum_of
from game.dice.records import DieKind, RollRecord, roll
from game.dice.rng import child_rng, make_rng, seed_sequence, spawn_rngs, spawn_seeds
from game.dice.sampling import chunks, lookup, roll_faces

__all__ = [
    "DieKind",
    "Distribution",
    "RollRecord",
    "binomial",
    "binomial_counts",
    "child_rng",
    "chunks",
    "lookup",
    "make_rng",
    "roll",
    "roll_faces",
    "seed_sequence",
    "spawn_rngs",
    "spawn_seeds",
    "sum_of",
]
