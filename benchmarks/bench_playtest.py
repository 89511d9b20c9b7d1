"""Playtest speed: whole games between the simple automatic players, on one core.

Budget (DESIGN.md): a bundled 5-against-5 scenario over 50 games per second per core.
Each scenario plays the same seeded games several times in this process (one core,
no workers) and prints the median games per second, with a digest of the results
(winner, turn and declaration count per game): the digest must not change when the
engine only gets faster.
Run: python benchmarks/bench_playtest.py [--games N] [--repeats R] [scenario names]
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.playtest.batch import play_one, seeds_for
from game.scenario import load_scenario

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
DEMOS = ("infinity-demo", "necromunda-demo", "open-rebellion-demo")


def digest(results: list[tuple[str | None, str, int, int]]) -> str:
    return hashlib.sha256(repr(results).encode()).hexdigest()[:12]


def bench(name: str, games: int, repeats: int, seed: int) -> None:
    path = SCENARIOS / f"{name}.toml"
    try:
        setup = load_scenario(path)
        play_one(setup, 0, seeds_for(seed, 1)[0][1])  # warm up (imports, first tables)
    except Exception as exc:  # an engine not there yet (Open Rebellion) is reported, not fatal
        print(f"{name:22s} skipped: {type(exc).__name__}: {exc}")
        return
    jobs = seeds_for(seed, games)
    rates: list[float] = []
    seen: set[str] = set()
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = [play_one(setup, i, s) for i, s in jobs]
        rates.append(games / (time.perf_counter() - t0))
        seen.add(digest([(r.winner, r.reason, r.turn, r.declarations) for r in out]))
    spread = f"{min(rates):.1f}-{max(rates):.1f}"
    print(
        f"{name:22s} {statistics.median(rates):7.1f} games/s median of {repeats} "
        f"(range {spread}, {games} games each)  results {'/'.join(sorted(seen))}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(DEMOS))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    for name in args.names:
        bench(name, args.games, args.repeats, args.seed)


if __name__ == "__main__":
    main()
