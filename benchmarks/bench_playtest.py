"""Playtest speed: whole games between the simple automatic players, on one core.

Budget (DESIGN.md): every bundled demo over 50 games per second per core, no bundled
table under 25. Each bundled table (or the names given) plays the same seeded games
several times in this process (one core, no workers); the best of the repeats is
printed in games per second of this process's CPU time (the machine is shared: CPU
time is what one core gives, wall time is printed beside it), with a digest of the
results (winner, how it ended, turn and declaration count per game). The games of a
repeat share one sight of the table, as a playtest's games in one worker do; each repeat
starts without one.

`--record` keeps the figures in benchmarks/playtest_before.json; later runs print each
table beside that figure and say whether its digest is the same (it must be, when only
the speed changed and the rules did not; compare with the same --games and --seed).
The column "first" is the figure from when the speed work began (issue #13's first
session, taken under load), kept in the same file under "first".
Run: python benchmarks/bench_playtest.py [--games N] [--repeats R] [--record] [names]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.paths import SCENARIOS_DIR
from game.playtest.batch import play_one, seeds_for
from game.scenario import load_scenario
from game.sequencer.table_sight import forget_shared

BEFORE = Path(__file__).with_name("playtest_before.json")


def digest(results: list[tuple[str | None, str, int, int]]) -> str:
    return hashlib.sha256(repr(results).encode()).hexdigest()[:12]


def bench(name: str, games: int, repeats: int, seed: int) -> dict[str, object]:
    setup = load_scenario(SCENARIOS_DIR / f"{name}.toml")
    play_one(setup, 0, seeds_for(seed, 1)[0][1])  # warm up (imports, first tables)
    jobs = seeds_for(seed, games)
    cpu: list[float] = []
    wall: list[float] = []
    seen: set[str] = set()
    for _ in range(repeats):
        forget_shared()  # each repeat's games share answers among themselves, not with the last
        c0, w0 = time.process_time(), time.perf_counter()
        out = [play_one(setup, i, s) for i, s in jobs]
        cpu.append(games / max(time.process_time() - c0, 1e-9))
        wall.append(games / (time.perf_counter() - w0))
        seen.add(digest([(r.winner, r.reason, r.turn, r.declarations) for r in out]))
    return {
        "games_per_cpu_s": round(max(cpu), 2),
        "games_per_wall_s": round(max(wall), 2),
        "digest": "/".join(sorted(seen)),
        "games": games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    names = sorted(p.stem for p in SCENARIOS_DIR.glob("*.toml"))
    parser.add_argument("names", nargs="*", default=names)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--record", action="store_true", help="keep these figures as 'before'")
    args = parser.parse_args()
    before = json.loads(BEFORE.read_text()) if BEFORE.exists() else {}
    recorded = dict(before) if args.record else {}
    print(
        f"{'table':24s} {'games/s':>8s} {'before':>7s} {'first':>6s}  {'(wall)':>7s}"
        "  budget  results"
        "  (best of repeats, per CPU second of one core)"
    )
    for name in args.names:
        now = bench(name, args.games, args.repeats, args.seed)
        old = before.get(name)
        budget = 50 if name.endswith("-demo") else 25
        rate = float(str(now["games_per_cpu_s"]))
        mark = "ok" if rate >= budget else f"< {budget}"
        first = "-" if old is None or "first" not in old else f"{old['first']:.1f}"
        if old is None:
            was, same = "-", "no figure before"
        else:
            was = f"{old['games_per_cpu_s']:.1f}"
            if old["games"] != now["games"]:
                same = f"(before was {old['games']} games: digests not comparable)"
            else:
                same = "same as before" if old["digest"] == now["digest"] else "CHANGED"
        print(
            f"{name:24s} {rate:8.1f} {was:>7s} {first:>6s}  "
            f"({float(str(now['games_per_wall_s'])):5.1f})"
            f"  {mark:6s}  {now['digest']} {same}",
            flush=True,
        )
        if args.record:
            if old is not None:
                now["first"] = old.get("first", old["games_per_cpu_s"])
            recorded[name] = now
    if args.record:
        BEFORE.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
