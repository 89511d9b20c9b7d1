"""Seeded random number generators: the only source of randomness in the game.

One `numpy.random.Generator` is made from a seed at each entry point and passed
down by keyword (`rng=`). Batches (playtests, Monte Carlo chunks) get independent
children spawned from the same `SeedSequence`, so a batch is reproducible from
one seed whatever the number of workers.
"""

from __future__ import annotations

import numpy as np

Seed = int | np.random.SeedSequence | None


def seed_sequence(seed: Seed) -> np.random.SeedSequence:
    """The `SeedSequence` for `seed` (a fresh one from OS entropy when `seed` is None)."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if seed is not None and seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    return np.random.SeedSequence(seed)


def make_rng(seed: Seed = None) -> np.random.Generator:
    """A PCG64 `Generator` from `seed`: the same seed gives the same stream."""
    return np.random.Generator(np.random.PCG64(seed_sequence(seed)))


def spawn_seeds(seed: Seed, n: int) -> list[np.random.SeedSequence]:
    """`n` independent child seed sequences of `seed` (for workers or batches)."""
    if n < 0:
        raise ValueError(f"cannot spawn {n} children")
    return seed_sequence(seed).spawn(n)


def spawn_rngs(seed: Seed, n: int) -> list[np.random.Generator]:
    """`n` independent generators, children of `seed`: game i of a batch uses child i."""
    return [make_rng(child) for child in spawn_seeds(seed, n)]


def child_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator split off `rng` (advances `rng`'s own seed sequence)."""
    return rng.spawn(1)[0]
