"""The fast Face-to-Face algorithm against a brute-force enumeration of every roll.

The reference here is written from the rule text (seed 003) on its own: it rolls
every combination of faces, applies the SV rules to each die and the
Face-to-Face comparison to each pair of rolls, and counts.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

import numpy as np
import pytest

from game.rules.infinity.odds import Extra, RollSide, Side, face_to_face

SVS = range(-2, 26)
CRIT = 99  # the reference's own marker for a Critical


def ref_die(sv: int, face: int) -> int:
    """0 for a failure, the result for a non-critical success, CRIT for a Critical."""
    if sv < 1:
        return 0  # SV below 1: automatic failure
    if sv > 20:
        result = face + (sv - 20)  # excess added to the die
        return CRIT if result >= 20 else result
    if face == sv:
        return CRIT
    return face if face < sv else 0


@cache
def ref_side(sv: int, burst: int, extra: Extra) -> tuple[np.ndarray, np.ndarray]:
    """Every roll of the side reduced to its kept dice: (distinct rolls padded, weights)."""
    n = burst + (0 if extra is Extra.NONE or burst == 0 else 1)
    rolls: Counter[tuple[int, ...]] = Counter()
    for faces in itertools.product(range(1, 21), repeat=n):
        dice = [ref_die(sv, f) for f in faces]
        if extra is Extra.SPECIAL_DIE and dice:
            # +1 SD: discard the worst die (failure, then lowest result; Criticals last)
            dice.remove(min(dice))
        elif extra is Extra.REROLL and dice:
            new = dice.pop()
            if 0 in dice:  # reroll one failure
                dice[dice.index(0)] = new
        rolls[tuple(sorted(dice))] += 1
    keys = list(rolls)
    width = max(burst, 1)
    arr = np.full((len(keys), width), -1, dtype=np.int64)  # -1: no die
    for i, key in enumerate(keys):
        arr[i, : len(key)] = key
    return arr, np.array([rolls[k] for k in keys], dtype=np.int64)


def ref_face_to_face(
    one: tuple[int, int, Extra], two: tuple[int, int, Extra]
) -> dict[tuple[int | None, int, int], int]:
    a, wa = ref_side(*one)
    b, wb = ref_side(*two)
    a3, b3 = a[:, None, :], b[None, :, :]
    crit_a = (a3 == CRIT).sum(axis=2)
    crit_b = (b3 == CRIT).sum(axis=2)
    nc_a = np.where((a3 > 0) & (a3 < CRIT), a3, 0)
    nc_b = np.where((b3 > 0) & (b3 < CRIT), b3, 0)
    best_a, best_b = nc_a.max(axis=2), nc_b.max(axis=2)
    # successes above the opponent's best non-critical survive
    surv_a = (nc_a > best_b[:, :, None]).sum(axis=2)
    surv_b = (nc_b > best_a[:, :, None]).sum(axis=2)
    shape = (len(a), len(b))
    winner = np.zeros(shape, dtype=np.int64)
    succ = np.zeros(shape, dtype=np.int64)
    crits = np.zeros(shape, dtype=np.int64)
    # a Critical beats every non-critical; Criticals on both sides: nobody wins
    only_a_crit = (crit_a > 0) & (crit_b == 0)
    only_b_crit = (crit_b > 0) & (crit_a == 0)
    no_crit = (crit_a == 0) & (crit_b == 0)
    a_wins = only_a_crit | (no_crit & (best_a > best_b))
    b_wins = only_b_crit | (no_crit & (best_b > best_a))
    winner[a_wins], winner[b_wins] = 1, 2
    succ[a_wins], succ[b_wins] = surv_a[a_wins], surv_b[b_wins]
    crits[a_wins] = np.broadcast_to(crit_a, shape)[a_wins]
    crits[b_wins] = np.broadcast_to(crit_b, shape)[b_wins]
    weights = wa[:, None] * wb[None, :]
    code = (winner * 64 + succ * 8 + crits).ravel()
    sums = np.bincount(code, weights=weights.ravel().astype(np.float64), minlength=192)
    out: dict[tuple[int | None, int, int], int] = {}
    for c in np.flatnonzero(sums):
        w = int(c) // 64
        out[(None if w == 0 else w, (int(c) // 8) % 8, int(c) % 8)] = round(float(sums[c]))
    return out


def fast(
    one: tuple[int, int, Extra], two: tuple[int, int, Extra]
) -> dict[tuple[int | None, int, int], int]:
    dist = face_to_face(RollSide(*one), RollSide(*two))
    total = sum(dist.counts.values())
    assert total == dist.total == 20 ** (RollSide(*one).dice + RollSide(*two).dice)
    return {
        (None if o.winner is None else int(o.winner), o.successes, o.crits): v
        for o, v in dist.items()
    }


BURSTS = [(b1, b2) for b1 in range(4) for b2 in range(3)]


@pytest.mark.parametrize(("b1", "b2"), BURSTS)
def test_fast_equals_brute_force_every_sv(b1: int, b2: int) -> None:
    for sv1 in SVS:
        for sv2 in SVS:
            one, two = (sv1, b1, Extra.NONE), (sv2, b2, Extra.NONE)
            assert fast(one, two) == ref_face_to_face(one, two), (sv1, b1, sv2, b2)


EXTRA_SVS = [-1, 1, 2, 9, 12, 13, 19, 20, 21, 24, 40]


@pytest.mark.parametrize("extra1", [Extra.SPECIAL_DIE, Extra.REROLL])
@pytest.mark.parametrize("extra2", [Extra.NONE, Extra.SPECIAL_DIE, Extra.REROLL])
@pytest.mark.parametrize(("b1", "b2"), [(1, 1), (2, 1), (1, 0), (2, 2)])
def test_extra_dice_equal_brute_force(extra1: Extra, extra2: Extra, b1: int, b2: int) -> None:
    for sv1 in EXTRA_SVS:
        for sv2 in EXTRA_SVS:
            one, two = (sv1, b1, extra1), (sv2, b2, extra2)
            assert fast(one, two) == ref_face_to_face(one, two), (one, two)


def test_issue_example_count() -> None:
    # issue 4: SV 13 B3 against SV 12 B1, side 1 wins with 2 successes in 39966 of 160000
    dist = fast((13, 3, Extra.NONE), (12, 1, Extra.NONE))
    assert dist[(int(Side.ONE), 2, 0)] == 39966
