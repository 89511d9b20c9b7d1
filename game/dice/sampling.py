"""Vectorized dice sampling for Monte Carlo: whole batches of rolls as numpy arrays."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]


def roll_faces(trials: int, dice: int, sides: int, *, rng: np.random.Generator) -> U8:
    """A (trials, dice) array of faces 0..sides-1, each die uniform and independent.

    Faces are 0-based so that they index lookup tables directly.
    """
    if not 1 <= sides <= 256:
        raise ValueError(f"sides must be 1..256, got {sides}")
    return rng.integers(0, sides, size=(trials, dice), dtype=np.uint8)


def lookup(table: npt.ArrayLike, faces: U8) -> npt.NDArray[np.int8]:
    """Map 0-based faces through a per-face table (e.g. face -> success rank)."""
    return np.asarray(table, dtype=np.int8)[faces]


def chunks(n: int, size: int = 1 << 16) -> list[int]:
    """Split `n` trials into batch sizes of at most `size` (for cache-sized work)."""
    out = [size] * (n // size)
    if n % size:
        out.append(n % size)
    return out
