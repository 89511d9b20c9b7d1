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


def points_after_end(
    engine: NecromundaEngine, state: NecromundaState, side: str
) -> dict[float, float]:
    """`side`'s points of fighters in the fight after this End phase, each total with its
    odds (Bottle test, fleeing, Recovery; see the module's note)."""

    def worth(id_: str) -> float:
        return float(engine.points[id_] or 50)

    there = [m for m in state.side_models(side) if m.status != OUT_OF_ACTION]
    bottled = engine.bottle_odds(state, side)
    out: dict[float, float] = {}

    def add(total: dict[float, float], p: float) -> None:
        for v, q in total.items():
            out[v] = out.get(v, 0.0) + p * q

    def staying(kept: NecromundaState, stay: list[str]) -> dict[float, float]:
        # the ones who stay: Standing or Pinned count; Seriously Injured by Recovery
        total = {0.0: 1.0}
        for id_ in stay:
            m = kept.model(id_)
            back = engine.recovery_odds(kept, m) if m.status == SERIOUSLY_INJURED else 1.0
            nxt: dict[float, float] = {}
            for v, q in total.items():
                if back > 0:
                    nxt[v + worth(id_)] = nxt.get(v + worth(id_), 0.0) + q * back
                if back < 1:
                    nxt[v] = nxt.get(v, 0.0) + q * (1 - back)
            total = nxt
        return total

    if bottled < 1:
        add(staying(state, [m.id for m in there]), 1 - bottled)
    if bottled > 0:
        if len(there) > MANY:  # too many to count each subset: each stays by its odds
            keep = {m.id: engine.cool_odds(m.id) for m in there}
            total = {0.0: 1.0}
            for m in there:
                back = 1.0 if m.status != SERIOUSLY_INJURED else engine.recovery_odds(state, m)
                p = keep[m.id] * back
                nxt: dict[float, float] = {}
                for v, q in total.items():
                    nxt[v + worth(m.id)] = nxt.get(v + worth(m.id), 0.0) + q * p
                    nxt[v] = nxt.get(v, 0.0) + q * (1 - p)
                total = nxt
            add(total, bottled)
        else:
            odds = [engine.cool_odds(m.id) for m in there]
            for stays in itertools.product((True, False), repeat=len(there)):
                p = bottled
                for s, c in zip(stays, odds, strict=True):
                    p *= c if s else 1 - c
                if p <= 0:
                    continue
                kept = state
                for s, m in zip(stays, there, strict=True):
                    if not s:
                        kept = kept.with_model(m.replace(status=OUT_OF_ACTION))
                add(staying(kept, [m.id for s, m in zip(stays, there, strict=True) if s]), p)
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
