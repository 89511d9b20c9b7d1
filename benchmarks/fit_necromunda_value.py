"""Fit the Necromunda search player's judgement to how games end (issue 17).

    python benchmarks/fit_necromunda_value.py [SCENARIO] [--games N] [--seed S]
        [--think 0.5] [--workers K] [--data FILE] [--load FILE] [--test-share 0.25]
        [--boot B]

Plays the scenario (default the mirror) search against careful and careful against
careful, each seed both ways (seeds_for(S, N): keep S away from 1-2 and 11-15, the
benchmark's seeds), and at every activation to choose records the position's features
from each side's view (game.ai.necromunda_value.FEATURES: each gang's worth in the
fight, its side of the exchange of fire, fighters Pinned and Seriously Injured,
activations left, the round, bottled gangs, priority, and the judgement's own value by
the hand weights) with that side's result (won 1, drawn 0.5, lost 0). `--data` keeps
the rows (.npz), `--load` fits rows kept before without playing.

Then fits logistic regressions of the result on the features, trained on three
quarters of the games and tested on the rest (split by game: a game's positions are
never on both sides), and prints each model's held-out log-loss and accuracy (decided
games) beside the hand weights' (the judgement's value, scaled by the fit), the fitted
coefficients, and what they say of the weights the judgement compares plans by: the
exchange against material (`exchange`), theirs against ours (`exchange_risk`), round by
round, with a bootstrap over games for the spread."""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.ai.necromunda_search import SearchNecromundaPlayer  # noqa: E402
from game.ai.necromunda_value import (  # noqa: E402
    FEATURES,
    ValueFeatures,
    fit_logistic,
    log_loss,
    sigmoid,
)
from game.playtest.batch import play_out, seeds_for  # noqa: E402
from game.scenario import load_scenario  # noqa: E402
from game.sequencer.game import Game  # noqa: E402

MATCHES = (("search", "careful"), ("careful", "careful"))


class Recorder:
    """Declares by each side's player and, at each activation to choose, keeps the
    position's features from both sides' views."""

    def __init__(self, players: dict[str, Any], values: ValueFeatures) -> None:
        self.players = players
        self.values = values
        self.rows: list[tuple[str, dict[str, float]]] = []

    def choose(self, state: Any, awaiting: Any) -> Any:
        if awaiting.kind == "activate":
            self.rows += list(self.values.both(state).items())
        return self.players[awaiting.side].choose(state, awaiting)


def play(args: tuple[str, int, bool, str, str, dict[str, Any]]) -> list[list[float]]:
    """One game's rows: the features (FEATURES, in order) and the result to that side."""
    path, seed, swap, a, b, options = args
    setup = load_scenario(Path(path))
    game = Game(setup, seed)
    sides = [s.id for s in setup.sides]
    a_side, b_side = (sides[1], sides[0]) if swap else (sides[0], sides[1])
    ruleset = setup.ruleset

    def make(policy: str) -> Any:
        cls = ruleset.player(policy)
        assert cls is not None
        return cls(game.engine, **options) if policy == "search" else cls(game.engine)

    judge = SearchNecromundaPlayer(game.engine, **options)
    recorder = Recorder({a_side: make(a), b_side: make(b)}, ValueFeatures(judge))
    play_out(game, recorder)
    winner = game.state.winner
    out = []
    for side, f in recorder.rows:
        result = 0.5 if winner is None else float(winner == side)
        out.append([f[name] for name in FEATURES] + [result])
    return out


def collect(
    path: str, seed: int, games: int, options: dict[str, Any], workers: int
) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]]:
    """(rows of FEATURES + result, the game of each row, the match of each row)."""
    jobs = [
        (path, s, swap, a, b, options)
        for a, b in MATCHES
        for _, s in seeds_for(seed, games)
        for swap in (False, True)
    ]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            played = list(pool.map(play, jobs))
    else:
        played = []
        for i, job in enumerate(jobs):
            played.append(play(job))
            print(f"  game {i + 1} of {len(jobs)} ({job[3]} v {job[4]})", flush=True)
    rows, game_of, match_of = [], [], []
    for g, (job, game_rows) in enumerate(zip(jobs, played, strict=True)):
        rows += game_rows
        game_of += [g] * len(game_rows)
        match_of += [MATCHES.index((job[3], job[4]))] * len(game_rows)
    return np.array(rows, dtype=float), np.array(game_of), np.array(match_of)


def column(data: NDArray[np.float64], name: str) -> NDArray[np.float64]:
    return data[:, FEATURES.index(name)]


def design(data: NDArray[np.float64], model: str, turns: int) -> tuple[list[str], NDArray[Any]]:
    """The columns of a model (its names and values), an intercept first."""
    c = {name: column(data, name) for name in FEATURES}
    cols: dict[str, NDArray[np.float64]] = {"1": np.ones(len(data))}
    mat = c["mat_us"] - c["mat_them"]
    if model == "hand":
        cols["hand"] = c["hand"]
    elif model == "material":
        cols["mat"] = mat
    elif model == "split":
        cols |= {"mat": mat, "ex_us": c["ex_us"], "ex_them": c["ex_them"]}
    elif model in ("rounds", "extra"):
        for r in range(1, turns + 1):
            at = (c["round"] == r).astype(float)
            cols |= {f"mat@{r}": mat * at, f"ex_us@{r}": c["ex_us"] * at}
            cols[f"ex_them@{r}"] = c["ex_them"] * at
        if model == "extra":
            cols["ready"] = c["ready_us"] - c["ready_them"]
            cols["pinned"] = c["pinned_us"] - c["pinned_them"]
            cols["si"] = c["si_us"] - c["si_them"]
            cols["bottled"] = c["bottled_us"] - c["bottled_them"]
            cols["priority"] = c["priority"] - 0.5
    return list(cols), np.column_stack(list(cols.values()))


def report(
    data: NDArray[np.float64], game_of: NDArray[np.int64], test_share: float, boot: int, seed: int
) -> None:
    y = data[:, -1]
    turns = int(column(data, "round").max())
    rng = np.random.default_rng(seed)
    games = np.unique(game_of)
    test_games = rng.choice(games, size=max(1, int(len(games) * test_share)), replace=False)
    test = np.isin(game_of, test_games)
    train = ~test
    decided = test & (y != 0.5)
    print(
        f"{len(data)} positions from {len(games)} games ({int(train.sum())} to fit, "
        f"{int(test.sum())} to test from {len(test_games)} games); won {np.mean(y == 1):.3f}, "
        f"drawn {np.mean(y == 0.5):.3f}"
    )
    print("held-out log-loss (lower is better) and accuracy on decided games:")
    fitted: dict[str, tuple[list[str], NDArray[np.float64]]] = {}
    for model in ("none", "material", "hand", "split", "rounds", "extra"):
        if model == "none":
            names, x = ["1"], np.ones((len(data), 1))
        else:
            names, x = design(data, model, turns)
        beta = fit_logistic(x[train], y[train])
        p = sigmoid(x[test] @ beta)
        acc = np.mean((p[decided[test]] > 0.5) == (y[test][decided[test]] == 1))
        print(f"  {model:9s} log-loss {log_loss(y[test], p):.4f}  accuracy {acc:.3f}")
        fitted[model] = (names, beta)
    for model in ("hand", "split", "rounds", "extra"):
        names, beta = fitted[model]
        said = ", ".join(f"{n} {b:+.4f}" for n, b in zip(names, beta, strict=True))
        print(f"  {model}: {said}")
    print(
        "what the fit says of the weights, points of the exchange against points of material\n"
        "(the positions after one side's activation, the other to act next, as the judgement\n"
        "weighs them; bootstrap over games, 5th-95th percentile):"
    )
    acted = column(data, "to_act") == 0.0
    ratios = []
    for i in range(boot + 1):
        pick = games if i == 0 else rng.choice(games, size=len(games))
        idx = np.concatenate([np.flatnonzero((game_of == g) & acted) for g in pick])
        names_s, xs = design(data[idx], "split", turns)
        split = dict(zip(names_s, fit_logistic(xs, y[idx]), strict=True))
        row = [split["ex_us"] / split["mat"], -split["ex_them"] / split["mat"]]
        names, x = design(data[idx], "rounds", turns)
        beta = dict(zip(names, fit_logistic(x, y[idx]), strict=True))
        for r in range(1, turns + 1):
            row += [beta[f"ex_us@{r}"] / beta[f"mat@{r}"], -beta[f"ex_them@{r}"] / beta[f"mat@{r}"]]
        ratios.append(row)
    arr = np.array(ratios)
    labels = ["ours (exchange)", "theirs (exchange x exchange_risk)"]
    for r in range(1, turns + 1):
        labels += [f"round {r}: ours", f"round {r}: theirs"]
    for j, label in enumerate(labels):
        lo, hi = np.percentile(arr[1:, j], [5, 95]) if boot else (np.nan, np.nan)
        print(f"  {label:34s} {arr[0, j]:+.3f}  [{lo:+.3f}, {hi:+.3f}]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario", nargs="?", default="scenarios/necromunda-mirror.toml")
    ap.add_argument("--games", type=int, default=50, help="seeds per match (each both ways)")
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument("--think", type=float, default=0.5)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--data", default="", help="keep the rows in this .npz file")
    ap.add_argument("--load", default="", help="fit the rows of this .npz file, no play")
    ap.add_argument("--test-share", type=float, default=0.25)
    ap.add_argument("--boot", type=int, default=100, help="bootstrap resamples of games")
    args = ap.parse_args()
    if args.load:
        kept = np.load(args.load)
        data, game_of = kept["data"], kept["game"]
    else:
        if args.seed in (1, 2, *range(11, 16)):
            raise SystemExit(f"--seed {args.seed}: kept for the benchmarks, give another")
        path = str(ROOT / args.scenario)
        options = {"temperament": "balanced", "seed": args.seed, "think": args.think}
        data, game_of, match_of = collect(path, args.seed, args.games, options, args.workers)
        if args.data:
            np.savez(args.data, data=data, game=game_of, match=match_of)
    report(data, game_of, args.test_share, args.boot, args.seed)


if __name__ == "__main__":
    main()
