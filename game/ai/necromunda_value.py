"""What a Necromunda position says about how the game will end: the features the
search player's judgement weighs (`game.ai.necromunda_search`), one side's and the
other's apart, so that their weights can be fitted to how games end
(`benchmarks/fit_necromunda_value.py`, issue 17) rather than tuned by win rates.

From `side`'s view (`features`): each gang's worth in the fight (`_material`'s parts:
points, less wounds and Pinned, a Seriously Injured fighter by its odds of recovering,
each by its odds of not fleeing a bottled gang), each gang's side of the exchange of
fire (`_exchange`'s parts: its fighters' best shots times their activations left,
over `exchange_turns` rounds), the points of fighters Standing, Pinned and Seriously
Injured, activations left this round, the round, bottled gangs, priority, whether it
activates next; and the judgement's own value of the position as the hand weights
make it (`hand`).

`fit_logistic` fits a logistic regression (IRLS with an L2 penalty, numpy only) of a
game's result (won 1, drawn 0.5, lost 0) on such features."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from game.ai.necromunda_search import SearchNecromundaPlayer
from game.sequencer.necromunda_types import (
    OUT_OF_ACTION,
    PINNED,
    READY,
    SERIOUSLY_INJURED,
    UPRIGHT,
    NecromundaState,
)

FEATURES = (
    "mat_us",  # our gang's worth in the fight (`_material`, the enemy's left out)
    "mat_them",  # theirs
    "ex_us",  # our side of the exchange of fire (`_exchange`, theirs left out)
    "ex_them",  # theirs (unweighed: exchange_risk 1, no press)
    "up_us",  # points of our fighters Standing (or otherwise upright)
    "up_them",
    "pinned_us",  # points of our fighters Pinned
    "pinned_them",
    "si_us",  # points of our fighters Seriously Injured
    "si_them",
    "ready_us",  # our fighters yet to activate this round
    "ready_them",
    "round",  # the round (1 to the turn limit)
    "bottled_us",  # 1: our gang has bottled
    "bottled_them",
    "priority",  # 1: we have priority this round
    "to_act",  # 1: we activate next (else the enemy: as at the end of one of our activations)
    "hand",  # the judgement's value as the weights make it (material + exchange, press)
)


class ValueFeatures:
    """Features of positions in one game, by a search player's judgement (`player`: its
    engine, weights and temperament): the parts apart (`enemy` 0, `exchange` 1,
    `exchange_risk` 1, no press) and the hand-weighed whole."""

    def __init__(self, player: SearchNecromundaPlayer) -> None:
        self.hand = player
        parts = dict(player.weights.values)
        parts.update(enemy=0.0, exchange=1.0, exchange_risk=1.0, press=0.0)
        self.parts = SearchNecromundaPlayer(player.nec, temperament=player.temperament)
        self.parts.weights = replace(player.weights, values=parts)

    def features(self, state: NecromundaState, side: str) -> dict[str, float]:
        """The position's features from `side`'s view (FEATURES)."""
        return self.both(state)[side]

    def both(self, state: NecromundaState) -> dict[str, dict[str, float]]:
        """The position's features from each side's view (FEATURES), by side."""
        nec = self.parts.nec
        p = self.parts
        p._forget()
        p._risk = 0.0  # the enemies' side left out: a side's own
        mat = {s: p._material(state, s) for s in state.sides}
        ex = {s: p._exchange(state, s) for s in state.sides}
        own: dict[str, dict[str, float]] = {}
        for s in state.sides:
            pts = {"up": 0.0, "pinned": 0.0, "si": 0.0, "ready": 0.0}
            for m in state.side_models(s):
                if m.status == OUT_OF_ACTION:
                    continue
                points = float(nec.points[m.id] or 50)
                if m.status == SERIOUSLY_INJURED:
                    pts["si"] += points
                elif m.status == PINNED:
                    pts["pinned"] += points
                elif m.status in UPRIGHT:
                    pts["up"] += points
                pts["ready"] += READY in m.flags
            own[s] = pts | {"mat": mat[s], "ex": ex[s], "bottled": float(s in state.bottled)}
        h = self.hand.weights
        out = {}
        for side in state.sides:
            us, them = own[side], own[state.other_side(side)]
            f = {f"{k}_us": v for k, v in us.items()} | {f"{k}_them": v for k, v in them.items()}
            f["round"] = float(state.turn)
            f["priority"] = float(state.priority == side)
            f["to_act"] = float(state.active == side)
            # the judgement's value: `_material` + `_exchange`, both linear in the parts
            risk = h["exchange_risk"] * self.hand._pressing(state, side)
            f["hand"] = us["mat"] - h["enemy"] * them["mat"]
            f["hand"] += h["exchange"] * (us["ex"] - risk * them["ex"])
            out[side] = f
        return out


def log_loss(y: NDArray[np.float64], p: NDArray[np.float64]) -> float:
    """The mean log-loss of predictions `p` of results `y` (0 to 1, a draw 0.5)."""
    q = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))


def sigmoid(z: NDArray[np.float64]) -> NDArray[np.float64]:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))


def fit_logistic(
    x: NDArray[np.float64], y: NDArray[np.float64], l2: float = 1e-3, steps: int = 50
) -> NDArray[np.float64]:
    """Coefficients of a logistic regression of `y` (0 to 1) on the columns of `x` (an
    intercept is not added: give a column of ones), by iteratively reweighted least
    squares with an L2 penalty `l2` (per row) on every coefficient but a first column of
    ones."""
    n, k = x.shape
    beta = np.zeros(k)
    penalty = np.full(k, l2 * n)
    if np.all(x[:, 0] == 1.0):
        penalty[0] = 0.0
    for _ in range(steps):
        p = sigmoid(x @ beta)
        w = np.maximum(p * (1 - p), 1e-9)
        grad = x.T @ (y - p) - penalty * beta
        hess = (x * w[:, None]).T @ x + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        beta = beta + step
        if np.max(np.abs(step)) < 1e-10:
            break
    return beta
