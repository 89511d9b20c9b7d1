"""Odds benchmarks: exact Infinity Face-to-Face and Monte Carlo exchanges per second.

Run: `python benchmarks/bench_odds.py`. Budgets (DESIGN.md): exact 6 v 6 under 5 ms;
Monte Carlo over 5 million Face-to-Face exchanges a second.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial

from game.dice import make_rng
from game.rules.infinity.odds import Extra, RollSide, face_to_face, sample_face_to_face

EXACT_BUDGET_MS = 5.0
MC_BUDGET_PER_S = 5_000_000


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    print("exact Infinity Face-to-Face (no caching; median of 200 runs)")
    for one, two in [
        (RollSide(13, 6), RollSide(12, 6)),
        (RollSide(23, 6), RollSide(1, 6)),
        (RollSide(13, 6, Extra.SPECIAL_DIE), RollSide(12, 6, Extra.REROLL)),
        (RollSide(13, 3), RollSide(12, 1)),
        (RollSide(14, 12), RollSide(15, 12)),
    ]:
        ms = median_ms(partial(face_to_face, one, two), 200)
        flag = "ok" if ms < EXACT_BUDGET_MS else "OVER BUDGET"
        print(f"  SV {one.sv} B{one.burst} {one.extra.value:>6} v SV {two.sv} B{two.burst} "
              f"{two.extra.value:>6}: {ms:7.3f} ms  [{flag}]")  # fmt: skip

    print("Monte Carlo Face-to-Face exchanges per second (2,000,000 per run, best of 3)")
    rng = make_rng(2024)
    trials = 2_000_000
    for one, two in [
        (RollSide(13, 3), RollSide(12, 1)),
        (RollSide(13, 6), RollSide(12, 6)),
        (RollSide(13, 4, Extra.SPECIAL_DIE), RollSide(12, 2, Extra.REROLL)),
    ]:
        best = min(
            median_ms(partial(sample_face_to_face, one, two, trials, rng=rng), 1) for _ in range(3)
        )
        rate = trials / (best / 1000)
        flag = "ok" if rate > MC_BUDGET_PER_S else "UNDER BUDGET"
        print(f"  B{one.burst} v B{two.burst} ({one.extra.value}/{two.extra.value}): "
              f"{rate / 1e6:6.2f} million/s  [{flag}]")  # fmt: skip


if __name__ == "__main__":
    main()
