"""Infinity d20 rolls: Normal and Face-to-Face rolls, exact and Monte Carlo.

Rules implemented (seeds 002/003, FACTS 3.1):

- A die succeeds when it is at most the Success Value (SV); a die equal to the SV
  is a Critical.
- SV below 1: automatic failure, no die can succeed.
- SV above 20: the SV counts as 20 and the excess is added to the die; any result
  of 20 or more is a Critical.
- Face-to-Face: each success cancels the opponent's successes with a lower result;
  equal results cancel each other; a Critical beats every non-critical; Criticals on
  both sides cancel everything (a tie, both fail).
- The total MOD on a roll is capped at +/-12.
- "+1 SD": roll one extra die, then discard one (we discard the worst, which is
  never worse for the roller). "ReRoll": reroll one die (we reroll one failure,
  when there is one, and keep the new result).

A die is reduced to its *rank*: 0 for a failure, the result 1..19 for a
non-critical success, `CRIT` (20) for a Critical. Ranks order dice from worst to
best, and the Face-to-Face rule becomes: a side's dice survive when their rank
is above the opponent's best rank (so nothing survives against a Critical, and
equal bests cancel). Hence the winner of a Face-to-Face keeps exactly its dice
ranked above the loser's best die.

The exact algorithm never enumerates the 20^(B1+B2) rolls. For each possible best
rank m of the loser (0..19: the loser rolled no Critical), it multiplies the
number of loser rolls whose best rank is exactly m by the number of winner rolls
with c Criticals and k non-critical results above m, a multinomial in three face
classes. That is O(20 * B^2) integer operations per side.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.dice.exact import Distribution

if TYPE_CHECKING:  # numpy is imported by the Monte Carlo functions: exact odds need none
    import numpy as np
    import numpy.typing as npt

    _I8 = npt.NDArray[np.int8]
    _I16 = npt.NDArray[np.int16]

FACES = 20
CRIT = 20  # rank of a Critical
MAX_MOD = 12  # Infinity: the sum of MODs on a roll never exceeds +12 or -12


class Side(enum.IntEnum):
    """The two sides of a Face-to-Face roll (1: usually the active trooper)."""

    ONE = 1
    TWO = 2

    @property
    def other(self) -> Side:
        return Side.TWO if self is Side.ONE else Side.ONE


class Extra(enum.Enum):
    """Dice rules in round brackets next to a skill or weapon (seed 002)."""

    NONE = "none"
    SPECIAL_DIE = "+1 SD"  # roll one extra die, discard one (the worst)
    REROLL = "reroll"  # reroll one die (one failure, if any)


def cap_mod(total: int) -> int:
    """Infinity: a sum of MODs above +12 or below -12 is replaced by +12 or -12."""
    return max(-MAX_MOD, min(MAX_MOD, total))


def success_value(attribute: int, mods: Iterable[int] = ()) -> int:
    """The SV of a roll: the attribute plus the capped sum of its MODs."""
    return attribute + cap_mod(sum(mods))


def rank(sv: int, face: int) -> int:
    """The rank of one d20 face (1..20) rolled against `sv`: 0 fail, 1..19, or CRIT."""
    if not 1 <= face <= FACES:
        raise ValueError(f"a d20 has no face {face}")
    if sv < 1:  # Infinity: SV below 1 fails without rolling
        return 0
    if sv <= FACES:
        if face == sv:  # Infinity: a roll equal to the SV is a Critical
            return CRIT
        return face if face < sv else 0
    # Infinity: SV above 20 adds the excess to the die; 20 or more is a Critical
    result = face + sv - FACES
    return CRIT if result >= FACES else result


def rank_table(sv: int) -> tuple[int, ...]:
    """Ranks of the faces 1..20 against `sv` (index 0 is face 1)."""
    return tuple(rank(sv, face) for face in range(1, FACES + 1))


@dataclass(frozen=True, slots=True)
class RollSide:
    """One side of a roll: its Success Value, Burst and any extra-die rule.

    Burst 0 means the side does not roll (its opponent makes a Normal roll).
    """

    sv: int
    burst: int = 1
    extra: Extra = Extra.NONE

    def __post_init__(self) -> None:
        if self.burst < 0:
            raise ValueError(f"Burst cannot be negative, got {self.burst}")

    @property
    def dice(self) -> int:
        """The d20s physically rolled (one more than the Burst with +1 SD or ReRoll)."""
        if self.burst == 0:
            return 0
        return self.burst + (0 if self.extra is Extra.NONE else 1)


@dataclass(frozen=True, slots=True)
class F2FOutcome:
    """The result of a Face-to-Face roll: the winner and its surviving dice.

    `winner` is None when nobody wins (both fail, equal bests, or Criticals on both
    sides); `successes` counts the winner's surviving non-critical successes and
    `crits` its surviving Criticals.
    """

    winner: Side | None
    successes: int = 0
    crits: int = 0

    def sort_key(self) -> tuple[int, int, int]:
        return (0 if self.winner is None else int(self.winner), -self.crits, -self.successes)

    def hits_on(self, target: Side) -> tuple[int, int]:
        """(non-critical hits, critical hits) that `target` suffers."""
        if self.winner is None or self.winner is target:
            return (0, 0)
        return (self.successes, self.crits)


NO_WINNER = F2FOutcome(None, 0, 0)


# ---------------------------------------------------------------------------
# exact distributions


@dataclass(frozen=True, slots=True)
class _Faces:
    """How the 20 faces of a die split by rank against one SV."""

    crit: int
    # above[m] = faces with a non-critical rank above m, for m = 0..19
    above: tuple[int, ...]
    fail: int


def _faces(sv: int) -> _Faces:
    ranks = rank_table(sv)
    crit = sum(1 for r in ranks if r == CRIT)
    above = tuple(sum(1 for r in ranks if m < r < CRIT) for m in range(CRIT))
    return _Faces(crit, above, sum(1 for r in ranks if r == 0))


def _multinomial(n: int, a: int, b: int) -> int:
    return math.comb(n, a) * math.comb(n - a, b)


@dataclass(frozen=True, slots=True)
class _SideTables:
    """Per side: the counts the Face-to-Face combination needs, over 20^dice.

    `survivors[m][(c, k)]`: rolls whose kept dice hold c Criticals and k
    non-critical results above m. `best[m]`: rolls with no Critical whose best
    non-critical rank is exactly m (m = 0: no success at all).
    """

    total: int
    survivors: tuple[dict[tuple[int, int], int], ...]
    best: tuple[int, ...]


def _side_tables(side: RollSide) -> _SideTables:
    faces = _faces(side.sv)
    burst, dice = side.burst, side.dice
    survivors: list[dict[tuple[int, int], int]] = []
    for m in range(CRIT):
        c_faces, h_faces = faces.crit, faces.above[m]
        o_faces = FACES - c_faces - h_faces
        table: dict[tuple[int, int], int] = {}
        if side.extra is Extra.REROLL and burst > 0:
            # ReRoll: if any die failed, one failure is rolled again (the extra die);
            # otherwise the extra die is not used (20 equally likely ways).
            f_faces = faces.fail
            l_faces = o_faces - f_faces
            for c in range(burst + 1):
                for h in range(burst - c + 1):
                    for f in range(burst - c - h + 1):
                        low = burst - c - h - f
                        ways = (
                            _multinomial(burst, c, h)
                            * math.comb(burst - c - h, f)
                            * c_faces**c
                            * h_faces**h
                            * f_faces**f
                            * l_faces**low
                        )
                        if ways == 0:
                            continue
                        if f == 0:
                            table[(c, h)] = table.get((c, h), 0) + ways * FACES
                        else:
                            for key, w in (((c + 1, h), c_faces), ((c, h + 1), h_faces)):
                                table[key] = table.get(key, 0) + ways * w
                            table[(c, h)] = table.get((c, h), 0) + ways * o_faces
        else:
            # Plain roll, or +1 SD: all dice rolled, the worst discarded (keep `burst`).
            for c in range(dice + 1):
                for k in range(dice - c + 1):
                    ways = _multinomial(dice, c, k) * c_faces**c * h_faces**k
                    if ways == 0:
                        continue
                    ways *= o_faces ** (dice - c - k)
                    kc = min(c, burst)
                    key = (kc, min(k, burst - kc))
                    table[key] = table.get(key, 0) + ways
        survivors.append(table)
    cumulative = [t.get((0, 0), 0) for t in survivors]
    best = tuple(cumulative[m] - (cumulative[m - 1] if m else 0) for m in range(CRIT))
    return _SideTables(FACES**dice, tuple(survivors), best)


def _wins(winner: _SideTables, loser: _SideTables, side: Side) -> dict[F2FOutcome, int]:
    counts: dict[tuple[int, int], int] = {}
    for m, loser_ways in enumerate(loser.best):
        if loser_ways == 0:
            continue
        for (c, k), ways in winner.survivors[m].items():
            if c + k:
                counts[(c, k)] = counts.get((c, k), 0) + loser_ways * ways
    return {F2FOutcome(side, k, c): v for (c, k), v in counts.items()}


def face_to_face(one: RollSide, two: RollSide) -> Distribution[F2FOutcome]:
    """Exact Face-to-Face distribution: counts over the 20^(dice1 + dice2) rolls.

    `two` with Burst 0 makes it a Normal roll of `one` (and the other way round).
    """
    t1, t2 = _side_tables(one), _side_tables(two)
    counts = _wins(t1, t2, Side.ONE)
    counts.update(_wins(t2, t1, Side.TWO))
    total = t1.total * t2.total
    counts[NO_WINNER] = total - sum(counts.values())
    return Distribution(counts, total)


def normal_roll(side: RollSide) -> Distribution[F2FOutcome]:
    """Exact Normal roll (no opponent): successes and Criticals, winner Side.ONE."""
    return face_to_face(side, RollSide(0, 0))


# ---------------------------------------------------------------------------
# resolving actual dice (the sequencer, the dice log, the brute-force tests)


def kept_ranks(side: RollSide, faces: Sequence[int]) -> list[int]:
    """Ranks of the dice that count, from the faces rolled (len == side.dice).

    +1 SD discards the worst die. ReRoll: the last face is the reroll, used in place
    of the first failure if there is one.
    """
    if len(faces) != side.dice:
        raise ValueError(f"expected {side.dice} dice, got {len(faces)}")
    ranks = [rank(side.sv, f) for f in faces]
    if side.extra is Extra.SPECIAL_DIE and ranks:
        ranks.remove(min(ranks))
    elif side.extra is Extra.REROLL and ranks:
        extra = ranks.pop()
        if 0 in ranks:
            ranks[ranks.index(0)] = extra
    return ranks


def resolve_ranks(ranks1: Sequence[int], ranks2: Sequence[int]) -> F2FOutcome:
    """The Face-to-Face outcome of two sets of kept ranks."""
    best1, best2 = max(ranks1, default=0), max(ranks2, default=0)
    if best1 == best2:  # ties cancel; Criticals on both sides cancel everything
        return NO_WINNER
    side, ranks, other_best = (
        (Side.ONE, ranks1, best2) if best1 > best2 else (Side.TWO, ranks2, best1)
    )
    crits = sum(1 for r in ranks if r == CRIT)
    successes = sum(1 for r in ranks if other_best < r < CRIT)
    return F2FOutcome(side, successes, crits)


def resolve(
    one: RollSide, faces1: Sequence[int], two: RollSide, faces2: Sequence[int]
) -> F2FOutcome:
    """The outcome of a Face-to-Face roll from the faces actually rolled."""
    return resolve_ranks(kept_ranks(one, faces1), kept_ranks(two, faces2))


# ---------------------------------------------------------------------------
# Monte Carlo


def _sample_ranks(side: RollSide, n: int, rng: np.random.Generator) -> _I8:
    """Kept ranks of n rolls of one side, one row per die (dice x n: fast column ops)."""
    import numpy as np

    if side.dice == 0:
        return np.zeros((1, n), dtype=np.int8)
    table = np.asarray(rank_table(side.sv), dtype=np.int8)
    ranks: _I8 = table.take(rng.integers(0, FACES, size=(side.dice, n), dtype=np.uint8))
    if side.extra is Extra.SPECIAL_DIE:
        ranks = np.sort(ranks, axis=0)[1:]  # +1 SD: discard the worst die
    elif side.extra is Extra.REROLL:
        extra, ranks = ranks[-1], ranks[:-1].copy()
        failed = ranks == 0
        cols = np.flatnonzero(failed.any(axis=0))
        ranks[failed[:, cols].argmax(axis=0), cols] = extra[cols]  # reroll one failure
    return ranks


def _count_above(ranks: _I8, level: _I8 | np.int8) -> _I16:
    import numpy as np

    acc = np.zeros(ranks.shape[1], dtype=np.int16)
    for row in ranks:
        acc += row > level
    return acc


def sample_face_to_face(
    one: RollSide, two: RollSide, trials: int, *, rng: np.random.Generator
) -> Distribution[F2FOutcome]:
    """Monte Carlo: roll the dice `trials` times; counts of each outcome over `trials`."""
    import numpy as np

    from game.dice.sampling import chunks

    if max(one.burst, two.burst) > 15:
        raise ValueError("Monte Carlo supports Burst up to 15")
    bins = np.zeros(512, dtype=np.int64)
    below_crit = np.int8(CRIT - 1)
    for n in chunks(trials):
        r1, r2 = _sample_ranks(one, n, rng), _sample_ranks(two, n, rng)
        best1, best2 = r1.max(axis=0), r2.max(axis=0)
        # the side with the higher best rank wins and keeps its dice above the other's best
        code1 = _count_above(r1, best2) + 15 * _count_above(r1, below_crit)
        code2 = _count_above(r2, best1) + 15 * _count_above(r2, below_crit)
        code = np.where(best1 > best2, code1, np.where(best2 > best1, 256 + code2, 0))
        bins += np.bincount(code, minlength=512)
    counts: dict[F2FOutcome, int] = {}
    for code_value in np.flatnonzero(bins):
        c = int(code_value)
        side = None if c == 0 else (Side.TWO if c >= 256 else Side.ONE)
        c &= 255
        counts[F2FOutcome(side, c % 16, c // 16)] = int(bins[code_value])
    return Distribution(counts, trials)
