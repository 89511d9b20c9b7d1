"""Line-of-fire speed on the big table (60 pieces, 30 models, 48"x48").

Budgets (DESIGN.md): one ruling under 1 ms median; all 870 ordered pairs under 150 ms.
A "ruling" here is the exact line of fire with its witness (`line_of_fire`); the full
answer with visible fraction and distance (`sight`) is timed too.
Run: python benchmarks/bench_lof.py
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.geometry import line_of_fire, lines_of_fire, sight
from game.scenario import load_scenario
from game.scenario.tables import table_from_scenario

TABLE = Path(__file__).with_name("tables") / "big-infinity.toml"


def main() -> None:
    scenario = load_scenario(TABLE)
    build0 = time.perf_counter()
    table = table_from_scenario(scenario)
    build = time.perf_counter() - build0
    ids = [b.id for b in table.bodies]
    pairs = list(itertools.permutations(ids, 2))
    kw = {"arc_degrees": 180.0, "models_block": True}
    for a, b in pairs:  # warm up
        line_of_fire(table, a, b, **kw)
    singles: list[float] = []
    for a, b in pairs:
        t0 = time.perf_counter()
        line_of_fire(table, a, b, **kw)
        singles.append(time.perf_counter() - t0)
    rounds: list[float] = []
    clear = 0
    for _ in range(5):
        t0 = time.perf_counter()
        clear = sum(r.clear for r in lines_of_fire(table, pairs, **kw))
        rounds.append(time.perf_counter() - t0)
    fulls: list[float] = []
    for a, b in pairs:
        t0 = time.perf_counter()
        sight(table, a, b, **kw)
        fulls.append(time.perf_counter() - t0)
    print(f"table: {len(table.pieces)} pieces, {len(ids)} models, built in {build * 1e3:.1f} ms")
    print(f"pairs with a clear sight line: {clear} of {len(pairs)}")
    print(
        f"line_of_fire, one ruling: median {statistics.median(singles) * 1e3:.3f} ms, "
        f"p90 {sorted(singles)[int(0.9 * len(singles))] * 1e3:.3f} ms, "
        f"max {max(singles) * 1e3:.3f} ms  (budget < 1 ms median)"
    )
    best = min(rounds) * 1e3
    print(f"lines_of_fire, all {len(pairs)} ordered pairs: {best:.1f} ms (budget < 150 ms)")
    median_full = statistics.median(fulls) * 1e3
    print(
        f"sight (LoF + visible fraction + distance): median {median_full:.3f} ms, "
        f"all pairs {sum(fulls) * 1e3:.0f} ms"
    )


if __name__ == "__main__":
    main()
