"""Die faces drawn from a Generator's bit generator are exactly `Generator.integers`'
faces, and leave the stream where `integers` leaves it (game.sequencer.faces)."""

from __future__ import annotations

import random

import numpy as np

from game.dice.rng import make_rng
from game.sequencer.faces import face, faces


def test_faces_are_those_of_integers_amid_the_generators_other_draws() -> None:
    # the same seed drawn both ways, each die roll mixed with the other draws the game
    # and its players make (64-bit integers, doubles), which share the bit generator's
    # state and its kept half of a 64-bit draw
    script = random.Random(13)
    for seed in range(60):
        ours, theirs = make_rng(seed), make_rng(seed)
        for _ in range(200):
            pick = script.random()
            # 3 * 2**30 sides: a quarter of the draws are biased and drawn again
            sides = script.choice((1, 2, 3, 6, 20, 100, 7919, 2**31 - 1, 3 * 2**30))
            n = script.randint(0, 6)
            if pick < 0.35:
                assert faces(ours, sides, n) == [
                    int(f) for f in theirs.integers(1, sides + 1, size=n)
                ]
            elif pick < 0.7:
                assert face(ours, sides) == int(theirs.integers(1, sides + 1))
            elif pick < 0.85:
                assert ours.uniform(0.0, 360.0) == theirs.uniform(0.0, 360.0)
            else:
                mine = ours.integers(0, 2**63 - 1, size=3)
                assert np.array_equal(mine, theirs.integers(0, 2**63 - 1, size=3))
        assert ours.bit_generator.state == theirs.bit_generator.state


def test_a_die_of_one_face_draws_nothing_as_integers_draws_nothing() -> None:
    rng = make_rng(5)
    before = rng.bit_generator.state
    assert faces(rng, 1, 4) == [1, 1, 1, 1]
    assert rng.bit_generator.state == before


class Scripted:
    """Not a numpy Generator: asked through `integers`, as the tests' scripted dice are."""

    def __init__(self, script: list[int]) -> None:
        self.script = script
        self.asked: list[tuple[int, int, object]] = []

    def integers(self, low: int, high: int, size: object = None) -> object:
        self.asked.append((low, high, size))
        if size is None:
            return self.script.pop(0)
        n = int(size)  # type: ignore[call-overload]
        out, self.script = self.script[:n], self.script[n:]
        return np.array(out)


def test_other_generators_are_asked_through_integers() -> None:
    rng = Scripted([20, 1, 7])
    assert faces(rng, 20, 2) == [20, 1]  # type: ignore[arg-type]
    assert face(rng, 20) == 7  # type: ignore[arg-type]
    assert rng.asked == [(1, 21, 2), (1, 21, None)]
