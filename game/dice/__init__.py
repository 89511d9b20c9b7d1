"""Dice: seeded generators, roll records, exact distributions, vectorized sampling.

The names below are imported from their modules on first use, so that exact odds
(game.dice.exact) do not pay for numpy, which only rolling and sampling need."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.dice.exact import Distribution, binomial, binomial_counts, sum_of
    from game.dice.records import DieKind, RollRecord, roll
    from game.dice.rng import child_rng, make_rng, seed_sequence, spawn_rngs, spawn_seeds
    from game.dice.sampling import chunks, lookup, roll_faces

# The largest seed a game, a batch or a trial takes (and a save carries): 128 bits, as
# much as a SeedSequence's entropy is worth; longer numbers only make saves nobody opens.
MAX_SEED = 2**128 - 1


def seed_refused(seed: int, whole: bool = False) -> str | None:
    """Why `seed` is no seed, in one sentence (a save's seed and --seed say the same);
    None when it is one. A number of over 40 digits is shown by its length unless
    `whole` (the command line shows what was typed)."""
    if 0 <= seed <= MAX_SEED:
        return None
    digits = str(seed)
    shown = digits if whole or len(digits) <= 40 else f"a number of {len(digits)} digits"
    return f"must be a whole number from 0 to 2**128 - 1, not {shown}"


_HOME = {
    **dict.fromkeys(("Distribution", "binomial", "binomial_counts", "sum_of"), "exact"),
    **dict.fromkeys(("DieKind", "RollRecord", "roll"), "records"),
    **dict.fromkeys(("child_rng", "make_rng", "seed_sequence", "spawn_rngs", "spawn_seeds"), "rng"),
    **dict.fromkeys(("chunks", "lookup", "roll_faces"), "sampling"),
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    globals()[name] = value
    return value


__all__ = [
    "MAX_SEED",
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
