"""How much a player's first declaration decides: each of its openings played out.

    python benchmarks/bench_openings.py SCENARIO [--seeds N] [--side first|second]
        [--seat SIDE] [--a search] [--b careful] [--think 0.5] [--workers K] [--moves 3]

Over the first N game seeds (from 1000 on) whose Priority falls as `--side` says
(`first`: player A declares the game's first declaration; `second`: B does, and A
answers), A playing `--seat` (a side's id; the scenario's first side by default), every
opening A could declare there is played: each fighter's plans as the search player
weighs them (Take Cover in place, at most `--moves` moves each), its every shot at every
enemy with every weapon, Aim, and the judged choice, each then played out to the end by
A against B (a draw counts as not won). Prints each opening's win share for A, and
whether the openings differ more than chance: every opening plays the same seeds, so the
results are paired by seed (and correlated: a move rolls no dice), and the test is
within each seed, Cochran's Q and a permutation test (each seed's results shuffled
among the openings, 2,000 times, a fixed seed): a high p says no first declaration
decides measurably more than another. Slow: 1.3-1.6 processor seconds a game a worker.
Necromunda only (its openings are activations)."""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
from bench_players import Sides, make  # noqa: E402

from game.errors import InputError  # noqa: E402
from game.playtest.batch import play_out  # noqa: E402
from game.scenario import load_scenario  # noqa: E402
from game.scenario.names import told_names  # noqa: E402
from game.sequencer.game import Game  # noqa: E402
from game.sequencer.necromunda_types import Act, Action  # noqa: E402
from game.sequencer.sentences import Teller  # noqa: E402


def _players(game: Game, side: str, a: str, b: str, options: dict[str, Any]) -> dict[str, Any]:
    other = next(s.id for s in game.setup.sides if s.id != side)
    return {side: make(game.engine, a, options), other: make(game.engine, b, options)}


def opening(path: str, seed: int, mode: str, a: str, b: str, options: dict[str, Any]) -> Game:
    """The game at the first side's first declaration (`mode` second: at the other side's
    first, after the first side's first activation played by B)."""
    game = Game(load_scenario(Path(path)), seed)
    if mode == "second":
        first = game.awaiting().side
        mine = next(s.id for s in game.setup.sides if s.id != first)
        them = _players(game, mine, a, b, options)[first]
        while game.awaiting().side == first:
            game.declare(them.choose(game.state, game.awaiting()))
    return game


def openings(game: Game, a: str, b: str, options: dict[str, Any], moves: int) -> list[Any]:
    awaiting = game.awaiting()
    assert awaiting.side is not None
    search = make(game.engine, "search", options)
    state = game.state
    found: dict[str, Any] = {}

    def add(declaration: Any) -> bool:
        key = json.dumps(declaration.to_dict(), default=str, sort_keys=True)
        if key in found or game.refusal(declaration):
            return False
        found[key] = declaration
        return True

    enemies = [m.id for m in state.models if m.side != awaiting.side]
    for fighter in awaiting.models:
        m = state.model(fighter)
        moved = 0
        for declaration, _, _ in search._plans(state, m, first=True):
            action = getattr(declaration, "action", None)
            if action is not None and action.kind.value in ("move", "take-cover") and action.path:
                moved += action.kind.value == "move"
                if action.kind.value == "take-cover" or moved > moves:
                    continue
            add(declaration)
        for weapon in search.nec.profiles[fighter].weapons:
            for target in enemies:
                t = state.model(target)
                toward = math.degrees(math.atan2(t.at[1] - m.at[1], t.at[0] - m.at[0]))
                if not add(Act(fighter, Action.shoot(weapon, target))):
                    add(Act(fighter, Action.shoot(weapon, target), turn_to=round(toward, 6)))
        add(Act(fighter, Action.aim()))
    add(search.default_choice(state, awaiting))
    return list(found.values())


def _job(
    args: tuple[str, int, str, str, str, dict[str, Any], int, int],
) -> tuple[str, str, bool]:
    path, seed, mode, a, b, options, moves, k = args
    game = opening(path, seed, mode, a, b, options)
    side = game.awaiting().side
    assert side is not None
    declaration = openings(game, a, b, options, moves)[k]
    teller = Teller(game.setup.ruleset, told_names(game.setup))
    events = game.declare(declaration)
    said = next((teller.say(e) for e in game.log()[-len(events) :] if e["event"] == "Declared"), "")
    play_out(game, Sides(_players(game, side, a, b, options)))
    key = json.dumps(declaration.to_dict(), default=str, sort_keys=True)
    action = getattr(declaration, "action", None)
    if action is not None and action.path:  # the words do not say where
        said += " to ({:g}, {:g})".format(*action.path[-1])
    if getattr(declaration, "turn_to", None) is not None:
        said += f", turned to {declaration.turn_to:g} degrees first"
    return key, said or key, game.state.winner == side


def differ(
    results: np.ndarray, rng: np.random.Generator, rounds: int = 2000
) -> tuple[float, float, float]:
    """Cochran's Q of `results` (openings x seeds, 1 won), its p by the chi-square's
    Wilson-Hilferty approximation, and the permutation test's p: how often the shares'
    spread is as wide with each seed's results shuffled among the openings."""
    k = results.shape[0]
    col, row, n = results.sum(1), results.sum(0), results.sum()
    below = k * n - (row**2).sum()
    q = (k - 1) * (k * (col**2).sum() - n**2) / below if below else 0.0
    df = k - 1
    z = ((q / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    p_q = 0.5 * math.erfc(z / math.sqrt(2))
    seen = results.mean(1).std()
    wider = 0
    for _ in range(rounds):
        shuffled = rng.permuted(results, axis=0)
        wider += shuffled.mean(1).std() >= seen - 1e-12
    return q, p_q, wider / rounds


def _refuse(problem: str) -> NoReturn:
    print(problem, file=sys.stderr)
    raise SystemExit(2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario")
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--side", choices=("first", "second"), default="first")
    parser.add_argument("--a", default="search")
    parser.add_argument("--b", default="careful")
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--moves", type=int, default=3)
    parser.add_argument("--seat", help="the side A plays (an id; the scenario's first side)")
    args = parser.parse_args()
    options = {"think": args.think, "temperament": "balanced", "seed": 1}
    try:
        setup = load_scenario(Path(args.scenario))
    except InputError as why:
        _refuse(str(why))
    if setup.ruleset.name != "necromunda":
        _refuse(f"{args.scenario}: not a Necromunda table (its rules: {setup.ruleset.name})")
    ids = [s.id for s in setup.sides]
    a_side = args.seat or ids[0]
    if a_side not in ids:
        _refuse(f"--seat {a_side}: the table's sides are {', '.join(ids)}")
    jobs = []
    seed = 1000
    while len({j[1] for j in jobs}) < args.seeds:
        game = opening(args.scenario, seed, args.side, args.a, args.b, options)
        if game.awaiting().side == a_side:
            n = len(openings(game, args.a, args.b, options, args.moves))
            jobs += [(args.scenario, seed, args.side, args.a, args.b, options, args.moves, k)
                     for k in range(n)]  # fmt: skip
        seed += 1
    print(f"{len(jobs)} games: {args.seeds} seeds, each of A's openings", flush=True)
    won: dict[str, dict[int, bool]] = defaultdict(dict)
    words: dict[str, str] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for done, (key, said, win) in enumerate(pool.map(_job, jobs), 1):
            won[key][jobs[done - 1][1]] = win
            words[key] = said
            if done % 200 == 0:
                print(f"  {done} of {len(jobs)} played", flush=True)
    shares = {key: sum(w.values()) / len(w) for key, w in won.items()}
    for key, share in sorted(shares.items(), key=lambda kv: -kv[1]):
        print(f"{share:.3f} of {len(won[key])}  {words[key]}")
    mean = statistics.fmean(shares.values())
    spread = statistics.pstdev(shares.values())
    seeds = sorted({j[1] for j in jobs})
    every = [key for key, w in won.items() if len(w) == len(seeds)]  # played on every seed
    results = np.array([[won[key][s] for s in seeds] for key in every], dtype=float)
    print(f"{len(shares)} openings, mean share {mean:.3f}, spread {spread:.3f}")
    if len(every) > 1:
        q, p_q, p_perm = differ(results, np.random.default_rng(1))
        print(f"do they differ? over the {len(every)} played on every seed: Cochran's Q "
              f"{q:.1f} on {len(every) - 1} degrees of freedom, p {p_q:.2f}; "
              f"the permutation test within seeds p {p_perm:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
