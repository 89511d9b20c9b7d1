"""Die faces drawn exactly as `numpy.random.Generator.integers` draws them, for a
fraction of its cost per call.

`rng.integers(1, sides + 1)` spends microseconds on its arguments for one die (several
times that with `size=`), and a playtest rolls tens of thousands of dice. From a numpy
Generator the faces here are drawn from its own bit generator by numpy's own method for
a range under 2**32 (`random_bounded_uint64_fill`: Lemire's bounded integers on the bit
generator's 32-bit draws, one range of a single value drawing nothing): the same faces,
and the same stream after them, so a seeded game rolls as it did
(tests/sequencer/test_faces.py holds them against `integers` over many draws mixed with
the generator's other calls). Any other generator (a test's scripted dice) is asked
through `integers`. Like the rest of a game, not for one generator shared by threads
(numpy's lock is not taken)."""

from __future__ import annotations

import numpy as np

_WORD = 1 << 32
_LOW = _WORD - 1


def faces(rng: np.random.Generator, sides: int, n: int) -> list[int]:
    """`n` rolls of a die numbered 1 to `sides`: `rng.integers(1, sides + 1, size=n)`."""
    if type(rng) is not np.random.Generator or not 1 <= sides < _WORD - 1:
        return [int(f) for f in rng.integers(1, sides + 1, size=n)]
    if sides == 1:
        return [1] * n
    c = rng.bit_generator.ctypes
    draw, state = c.next_uint32, c.state
    threshold = _WORD % sides  # below it a draw is biased: numpy draws again
    out = []
    for _ in range(n):
        m = draw(state) * sides
        if (m & _LOW) < sides:
            while (m & _LOW) < threshold:
                m = draw(state) * sides
        out.append(1 + (m >> 32))
    return out


def face(rng: np.random.Generator, sides: int) -> int:
    """One roll of a die numbered 1 to `sides`: `int(rng.integers(1, sides + 1))`."""
    if type(rng) is not np.random.Generator:
        return int(rng.integers(1, sides + 1))
    return faces(rng, sides, 1)[0]
