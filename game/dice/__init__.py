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
