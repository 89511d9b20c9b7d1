"""The last End phase's odds: how a Necromunda game at the turn limit ends, exactly.

At the turn limit the game goes to the side with the most points of fighters in the fight
(Standing or Pinned) after the last End phase (FACTS 2.8: "End phase (Bottle test ...;
fleeing = Cool test per fighter; Recovery: each SI fighter rolls an Injury die ...)"), so
the points standing when the last activation ends are not yet the result: a gang with
casualties may bottle and its fighters flee, a Seriously Injured fighter may recover. Here
every die of that phase is counted: the Bottle test by the engine's odds
(`NecromundaEngine.bottle_odds`), every fighter's Cool test to stay (`cool_odds`)
in a bottled gang, each subset of the fleeing taken apart (a friend who flees helps no
Recovery), and each Seriously Injured fighter still there by the engine's Recovery odds
(`NecromundaEngine.recovery_odds`: with a friend's help, the better of two dice). The gangs'
dice are apart, so the result is the two distributions of points weighed together."""

from __future__ import annotations

import itertools

from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_types import OUT_OF_ACTION, SERIOUSLY_INJURED, NecromundaState

MANY = 12  # fighters a gang's fleeing subsets are counted for (2**12 of them at most)


def _summed(chances: list[tuple[float, float]]) -> dict[float, float]:
    """The distribution of a sum of independent terms, each `points` with odds `p` and
    else nothing: each total with its odds."""
    total = {0.0: 1.0}
    for points, p in chances:
        nxt: dict[float, float] = {}
        for v, q in total.items():
            for w, r in ((v + points, q * p), (v, q * (1 - p))):
                if r > 0:
                    nxt[w] = nxt.get(w, 0.0) + r
        total = nxt
    return total


def points_after_end(
    engine: NecromundaEngine, state: NecromundaState, side: str
) -> dict[float, float]:
    """`side`'s points of fighters in the fight after this End phase, each total with its
    odds (Bottle test, fleeing, Recovery; see the module's note)."""
    there = [m for m in state.side_models(side) if m.status != OUT_OF_ACTION]
    bottled = engine.bottle_odds(state, side)
    out: dict[float, float] = {}

    def add(kept: NecromundaState, p: float, flee: dict[str, float] | None = None) -> None:
        # the ones still there: Standing or Pinned count; Seriously Injured by Recovery,
        # each by its odds of staying (`flee`) where the fleeing are not taken apart
        chances = [
            (
                float(engine.points[m.id] or 50),
                (engine.recovery_odds(kept, m) if m.status == SERIOUSLY_INJURED else 1.0)
                * (flee[m.id] if flee else 1.0),
            )
            for m in kept.side_models(side)
            if m.status != OUT_OF_ACTION
        ]
        for v, q in _summed(chances).items():
            out[v] = out.get(v, 0.0) + p * q

    if bottled < 1:
        add(state, 1 - bottled)
    if bottled > 0 and len(there) > MANY:  # too many to count each subset of the fleeing
        add(state, bottled, {m.id: engine.cool_odds(m.id) for m in there})
    elif bottled > 0:
        odds = [engine.cool_odds(m.id) for m in there]
        for stays in itertools.product((True, False), repeat=len(there)):
            p = bottled
            kept = state
            for s, c, m in zip(stays, odds, there, strict=True):
                p *= c if s else 1 - c
                if not s:
                    kept = kept.with_model(m.replace(status=OUT_OF_ACTION))
            if p > 0:
                add(kept, p)
    return out


def final_result(engine: NecromundaEngine, state: NecromundaState, side: str) -> float:
    """`side`'s expected result of a game at the turn limit once its last End phase is
    rolled: the odds of winning less the odds of losing (a draw is 0), every die of that
    phase counted (`points_after_end`)."""
    mine = points_after_end(engine, state, side)
    others = [points_after_end(engine, state, s) for s in state.sides if s != side]
    best: dict[float, float] = {0.0: 1.0}  # the best of the other gangs' points
    for dist in others:
        nxt: dict[float, float] = {}
        for a, p in best.items():
            for b, q in dist.items():
                v = max(a, b)
                nxt[v] = nxt.get(v, 0.0) + p * q
        best = nxt
    result = 0.0
    for a, p in mine.items():
        for b, q in best.items():
            result += p * q * ((a > b) - (a < b))
    return result
