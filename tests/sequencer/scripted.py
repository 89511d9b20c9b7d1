"""A stand-in for numpy's Generator that deals out scripted dice (python-chess habit:
tests force a critical by choosing the die)."""

from __future__ import annotations

from typing import Any

import numpy as np


class ScriptedDice:
    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.position = 0

    @property
    def bit_generator(self) -> ScriptedDice:
        return self

    @property
    def state(self) -> int:
        return self.position

    @state.setter
    def state(self, value: int) -> None:
        self.position = value

    def integers(self, low: int, high: int, size: Any = None) -> Any:
        n = 1 if size is None else int(np.prod(size))
        out = self.faces[self.position : self.position + n]
        if len(out) < n:
            raise AssertionError(f"the script ran out of dice after {self.faces}")
        for f in out:
            assert low <= f < high, f"scripted die {f} is not in [{low}, {high})"
        self.position += n
        return out[0] if size is None else np.array(out).reshape(size)

    def left(self) -> list[int]:
        return self.faces[self.position :]
