"""How the automatic players do against each other: win shares with Wilson 95% intervals.

    python benchmarks/bench_players.py [SCENARIO...] [--games N] [--seed S]
        [--a search] [--b careful] [--think 0.5 | --budget STEPS] [--temperament T]
        [--workers K] [--each] [--parted] [--count EVENT]

Stopped early (Ctrl+C, or SIGTERM from `kill PID`), a single-worker run reports the
games it has played and stops.

Each seed is played twice, the players' sides swapped, so a side's advantage cancels
out; a draw counts against player A. Prints per scenario A's wins, draws, A's share with
its interval, the mean processor seconds per declaration of each player and the games per second
(`--a careful --b simple` gives the baseline). Figures depend on the machine and on
what else runs on it: say so when quoting them.

`--parted` also plays each game with player B in A's seat (B against B, the same seed
and sides) and, over the games whose result the two seats' players change, says where
A's game first parted from B's: the declaration A made there and the one B made, counted
by what came of it (a won game A lost and the other way round). Both games are the same
up to that declaration (the same seed rolls the same dice for the same declarations), so
these are the choices that decided something; a choice that wins as often as it loses
is a gamble, not a mistake.

`--count EVENT` also says how many events of that name (`CoupDeGrace`, `BrokenChanged`)
a game has, on average, by the player whose model the event names first (its `model`,
else its `attacker`)."""

from __future__ import annotations

import argparse
import math
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.playtest.batch import Share, play_out, seeds_for  # noqa: E402
from game.scenario import load_scenario  # noqa: E402
from game.sequencer.game import Game  # noqa: E402

DEFAULT = [
    "scenarios/infinity-demo.toml",
    "scenarios/necromunda-demo.toml",
    "scenarios/open-rebellion-village.toml",
]


class Timed:
    """A player that adds up the seconds and declarations it spends: processor seconds
    of this process (time.process_time), so that other work on a shared machine counts
    less than it would on the wall clock."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.seconds = 0.0
        self.count = 0

    def choose(self, state: Any, awaiting: Any) -> Any:
        start = time.process_time()
        try:
            return self.player.choose(state, awaiting)
        finally:
            self.seconds += time.process_time() - start
            self.count += 1


def make(engine: Any, policy: str, options: dict[str, Any]) -> Any:
    cls = engine.setup.ruleset.player(policy)
    if cls is None:
        raise SystemExit(f"{engine.setup.ruleset.name} has no player {policy!r}")
    return cls(engine, **options) if policy == "search" else cls(engine)


class Sides:
    def __init__(self, players: dict[str, Timed]) -> None:
        self.players = players

    def choose(self, state: Any, awaiting: Any) -> Any:
        return self.players[awaiting.side].choose(state, awaiting)


def one(
    path: str, seed: int, swap: bool, a: str, b: str, options: dict[str, Any], told: bool = False,
    count: str = "",
) -> dict[str, Any]:  # fmt: skip
    """One game, A against B; `told`: with its declarations as sentences (`--parted`);
    `count`: the events of that name, A's and B's (`--count`)."""
    setup = load_scenario(Path(path))
    game = Game(setup, seed)
    sides = [s.id for s in setup.sides]
    a_side = sides[1] if swap else sides[0]
    b_side = sides[0] if swap else sides[1]
    pa = Timed(make(game.engine, a, options))
    pb = Timed(make(game.engine, b, options))
    play_out(game, Sides({a_side: pa, b_side: pb}))
    said: list[str] = []
    made: list[str] = []
    if told:
        from game.scenario.names import told_names
        from game.sequencer.sentences import Teller

        teller = Teller(setup.ruleset, told_names(setup))
        told_all = [(e["event"], teller.say(e)) for e in game.log()]  # in order: the notebook
        said = [sentence for kind, sentence in told_all if kind == "Declared"]
        made = [repr(d.to_dict()) for d in game.declarations]
    counted = [0, 0]
    if count:
        side_of = {m.id: m.side for m in setup.models}
        for e in game.log():
            if e["event"] == count:
                who = e.get("model", e.get("attacker"))
                counted[0 if side_of.get(str(who)) == a_side else 1] += 1
    return {
        "counted": counted,
        "won": game.state.winner == a_side,
        "draw": game.state.winner is None,
        "a": (pa.seconds, pa.count),
        "b": (pb.seconds, pb.count),
        "finished": game.state.finished,
        "declared": said,  # a sentence per declaration, in order
        "made": made,  # the declarations themselves (a move's words do not say where)
    }


def _job(args: tuple[str, int, bool, str, str, dict[str, Any], bool, str]) -> dict[str, Any]:
    return one(*args)


def parted(played: list[dict[str, Any]], yardstick: list[dict[str, Any]], a: str, b: str) -> None:
    """Print where A's games first parted from B's in A's seat (`--parted`), over the games
    whose result differs, the most frequent first."""
    counts: dict[tuple[str, str], list[int]] = {}
    both = {"won": 0, "lost": 0}
    for mine, theirs in zip(played, yardstick, strict=True):
        if mine["won"] == theirs["won"]:
            both["won" if mine["won"] else "lost"] += 1
            continue
        pairs = enumerate(zip(mine["made"], theirs["made"], strict=False))
        at = next((i for i, (x, y) in pairs if x != y), None)
        if at is None:
            pair = ("(no declaration differs)", "")
        else:
            pair = (mine["declared"][at], theirs["declared"][at])
            if pair[0] == pair[1]:  # the same words: another place, target or point
                pair = (pair[0] + " (elsewhere)", pair[1])
        counts.setdefault(pair, [0, 0])[0 if mine["won"] else 1] += 1
    won = sum(c[0] for c in counts.values())
    lost = sum(c[1] for c in counts.values())
    print(
        f"  {b} in {a}'s seat: both won {both['won']}, both did not win {both['lost']}; "
        f"won by {a} only {won}, by {b} only {lost}. Where they parted:",
        flush=True,
    )
    for (mine_said, theirs_said), (w, n) in sorted(counts.items(), key=lambda kv: -sum(kv[1])):
        print(f"    {a} won {w}, {b} won {n}: {mine_said} ({b}: {theirs_said})", flush=True)


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenarios", nargs="*", default=DEFAULT)
    ap.add_argument("--games", type=int, default=30, help="seeds (each played both ways)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--a", default="search")
    ap.add_argument("--b", default="careful")
    ap.add_argument("--think", type=float, default=None)
    ap.add_argument("--budget", type=int, default=None)
    ap.add_argument("--temperament", default="balanced")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--each", action="store_true", help="a line per game as it ends (one worker)")
    ap.add_argument(
        "--parted", action="store_true", help="also B in A's seat: where the games parted"
    )
    ap.add_argument("--count", default="", help="events of this name per game, A's and B's")
    args = ap.parse_args()
    options: dict[str, Any] = {"temperament": args.temperament, "seed": args.seed}
    if args.think is not None:
        options["think"] = args.think
    if args.budget is not None:
        options["budget"] = args.budget
    # SIGTERM (kill PID) stops a long run like Ctrl+C: the games played so far are reported
    signal.signal(signal.SIGTERM, _stop)
    stopped = False
    for path in args.scenarios:
        jobs = [
            (str(ROOT / path) if not Path(path).is_absolute() else path, s, swap, args.a, args.b,
             options, args.parted, args.count)
            for _, s in seeds_for(args.seed, args.games)
            for swap in (False, True)
        ]  # fmt: skip
        start = time.perf_counter()
        if args.workers > 1:
            with ProcessPoolExecutor(args.workers) as pool:
                results = list(pool.map(_job, jobs))
        else:
            results = []
            try:
                for j in jobs:
                    results.append(_job(j))
                    if args.each:
                        r = results[-1]
                        wins = sum(x["won"] for x in results)
                        print(
                            f"  game {len(results)} (seed {j[1]}, swapped {j[2]}): "
                            f"{'won' if r['won'] else 'draw' if r['draw'] else 'lost'}; "
                            f"{wins} of {len(results)} so far; CPU s/declaration "
                            f"{r['a'][0] / max(1, r['a'][1]):.3f}",
                            flush=True,
                        )
            except KeyboardInterrupt:  # Ctrl+C or SIGTERM: the figures of the games played
                stopped = True
        seconds = time.perf_counter() - start
        if not results:
            print(f"{Path(path).stem}: stopped before a game ended", flush=True)
            break
        wins = sum(r["won"] for r in results)
        draws = sum(r["draw"] for r in results)
        share = Share(wins, len(results))
        a_s = sum(r["a"][0] for r in results) / max(1, sum(r["a"][1] for r in results))
        b_s = sum(r["b"][0] for r in results) / max(1, sum(r["b"][1] for r in results))
        unfinished = sum(not r["finished"] for r in results)
        print(
            f"{Path(path).stem}: {args.a} v {args.b}, {len(results)} games: {args.a} won {wins}, "
            f"draws {draws}, share {share.share:.3f} [{share.low:.3f}, {share.high:.3f}]; "
            f"CPU s/declaration {args.a} {a_s:.3f} {args.b} {b_s:.3f}; "
            f"{len(results) / seconds:.2f} games/s; unfinished {unfinished}",
            flush=True,
        )
        assert math.isfinite(share.low)
        if args.count:
            a_n = sum(r["counted"][0] for r in results) / len(results)
            b_n = sum(r["counted"][1] for r in results) / len(results)
            print(f"  {args.count} per game: {args.a} {a_n:.2f}, {args.b} {b_n:.2f}", flush=True)
        if args.parted and results:
            yard = [(p, s, swap, args.b, args.b, options, True, "") for p, s, swap, *_ in jobs]
            if args.workers > 1:
                with ProcessPoolExecutor(args.workers) as pool:
                    yardstick = list(pool.map(_job, yard[: len(results)]))
            else:
                yardstick = [_job(j) for j in yard[: len(results)]]
            parted(results, yardstick, args.a, args.b)
        if stopped:
            print("stopped early: the figures above are of the games played", flush=True)
            break


if __name__ == "__main__":
    main()
