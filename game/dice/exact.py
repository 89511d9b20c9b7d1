"""Exact distributions as integer counts over a common total.

A `Distribution` maps outcomes to the number of equally likely elementary rolls
that give them, out of `total` (for dice: the product of the faces rolled). Counts
stay integers so that fast algorithms can be compared with brute force to the last
count; `probability` gives the exact `Fraction`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    import numpy as np

K = TypeVar("K", bound=Hashable)
J = TypeVar("J", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Distribution(Generic[K]):
    """Outcome -> count of equally likely elementary rolls, out of `total`.

    Outcomes with count 0 are dropped; the counts sum to `total`.
    """

    counts: Mapping[K, int]
    total: int

    def __post_init__(self) -> None:
        cleaned = {k: int(v) for k, v in self.counts.items() if v != 0}
        if any(v < 0 for v in cleaned.values()):
            raise ValueError("negative count in a distribution")
        if sum(cleaned.values()) != self.total:
            raise ValueError(
                f"counts sum to {sum(cleaned.values())}, not to the total {self.total}"
            )
        object.__setattr__(self, "counts", cleaned)

    @staticmethod
    def certain(outcome: K) -> Distribution[K]:
        """The distribution with one outcome."""
        return Distribution({outcome: 1}, 1)

    @staticmethod
    def uniform(outcomes: Iterable[K]) -> Distribution[K]:
        """Each listed outcome (e.g. the faces of a die, repeats allowed) equally likely."""
        counts: dict[K, int] = {}
        n = 0
        for outcome in outcomes:
            counts[outcome] = counts.get(outcome, 0) + 1
            n += 1
        return Distribution(counts, n)

    @staticmethod
    def from_fractions(probabilities: Mapping[K, Fraction]) -> Distribution[K]:
        """Exact probabilities -> counts over their least common denominator."""
        total = math.lcm(*(p.denominator for p in probabilities.values())) or 1
        counts = {k: p.numerator * (total // p.denominator) for k, p in probabilities.items()}
        return Distribution(counts, total)

    def probability(self, outcome: K) -> Fraction:
        """The exact probability of `outcome` (0 if it cannot happen)."""
        return Fraction(self.counts.get(outcome, 0), self.total)

    def probabilities(self) -> dict[K, Fraction]:
        """Every possible outcome with its exact probability."""
        return {k: Fraction(v, self.total) for k, v in self.counts.items()}

    def __iter__(self) -> Iterator[K]:
        return iter(self.counts)

    def __len__(self) -> int:
        return len(self.counts)

    def items(self) -> Iterable[tuple[K, int]]:
        return self.counts.items()

    def scaled_to(self, total: int) -> Distribution[K]:
        """The same distribution over a larger `total` (a multiple of this one)."""
        factor, rest = divmod(total, self.total)
        if rest:
            raise ValueError(f"{total} is not a multiple of {self.total}")
        return Distribution({k: v * factor for k, v in self.counts.items()}, total)

    def reduced(self) -> Distribution[K]:
        """The same distribution with counts and total divided by their common factor."""
        g = math.gcd(self.total, *self.counts.values())
        if g <= 1:
            return self
        return Distribution({k: v // g for k, v in self.counts.items()}, self.total // g)

    def map(self, fn: Callable[[K], J]) -> Distribution[J]:
        """The distribution of `fn(outcome)` (outcomes that map together add up)."""
        counts: dict[J, int] = {}
        for k, v in self.counts.items():
            j = fn(k)
            counts[j] = counts.get(j, 0) + v
        return Distribution(counts, self.total)

    def bind(self, fn: Callable[[K], Distribution[J]]) -> Distribution[J]:
        """Each outcome leads to a further distribution; the result over a common total."""
        parts = [(v, fn(k)) for k, v in self.counts.items()]
        inner = math.lcm(*(d.total for _, d in parts)) if parts else 1
        counts: dict[J, int] = {}
        for v, d in parts:
            factor = inner // d.total
            for j, w in d.counts.items():
                counts[j] = counts.get(j, 0) + v * w * factor
        return Distribution(counts, self.total * inner)

    def mean(self, value: Callable[[K], float | int | Fraction] | None = None) -> Fraction:
        """Exact expected value of `value(outcome)` (the outcome itself by default)."""
        acc = Fraction(0)
        for k, v in self.counts.items():
            x = value(k) if value is not None else k
            acc += Fraction(x) * v  # type: ignore[arg-type]
        return acc / self.total

    def sorted_items(self) -> list[tuple[K, int]]:
        """Outcomes in a stable display order (sorted by their repr when not comparable)."""
        try:
            return sorted(self.counts.items())
        except TypeError:
            return sorted(self.counts.items(), key=lambda kv: repr(kv[0]))

    def sample(self, n: int, *, rng: np.random.Generator) -> list[K]:
        """`n` outcomes drawn from this distribution (the chance-node way to roll)."""
        import numpy as np  # here: exact odds alone need no numpy

        outcomes = list(self.counts)
        weights = np.array([self.counts[k] / self.total for k in outcomes], dtype=np.float64)
        picks = rng.choice(len(outcomes), size=n, p=weights / weights.sum())
        return [outcomes[i] for i in picks]


def binomial_counts(n: int, success_faces: int, faces: int) -> list[int]:
    """Counts of k successes (k = 0..n) among n dice of `faces` faces, over faces**n."""
    fail = faces - success_faces
    return [math.comb(n, k) * success_faces**k * fail ** (n - k) for k in range(n + 1)]


def binomial(n: int, success_faces: int, faces: int) -> Distribution[int]:
    """The number of successes among n dice, each succeeding on `success_faces` of `faces`."""
    return Distribution(dict(enumerate(binomial_counts(n, success_faces, faces))), faces**n)


def sum_of(a: Distribution[int], b: Distribution[int]) -> Distribution[int]:
    """The distribution of the sum of two independent integer outcomes."""
    counts: dict[int, int] = {}
    for x, v in a.counts.items():
        for y, w in b.counts.items():
            counts[x + y] = counts.get(x + y, 0) + v * w
    return Distribution(counts, a.total * b.total)
