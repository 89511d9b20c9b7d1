"""Roll records: what was rolled, for what, against what. The dice log and replays use them.

A record keeps the raw face values (1-based for numbered dice, the face index for
special dice such as a firepower die), so a replay can check that the
same seed gave the same dice and a log can show them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import numpy as np


class DieKind(enum.Enum):
    """The kinds of dice the rule systems roll."""

    D6 = "d6"
    D20 = "d20"
    BANG = "bang"  # a d6 of a bang-dice pool: 5-6 is a bang
    FIREPOWER = "firepower"  # a special die: face index into the firepower die data
    INJURY = "injury"  # a special die: face index into the injury die data
    SCATTER = "scatter"  # a special die: face index into the scatter die data

    @property
    def sides(self) -> int:
        return 20 if self is DieKind.D20 else 6


@dataclass(frozen=True, slots=True)
class RollRecord:
    """One roll of one or more dice of the same kind.

    `faces` are 1-based face numbers. `target` is the number the roll is tested
    against when there is one (a d20 Success Value, a d6 4+ as 4). `rerolled`
    holds dice replaced by a re-roll and `discarded` dice thrown away by a rule
    such as an extra die where the best counts ("+1 SD"), both for the log.
    """

    kind: DieKind
    faces: tuple[int, ...]
    purpose: str = ""
    target: int | None = None
    rerolled: tuple[int, ...] = ()
    discarded: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        for face in (*self.faces, *self.rerolled, *self.discarded):
            if not 1 <= face <= self.kind.sides:
                raise ValueError(f"face {face} is not on a {self.kind.value} die")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form for the dice log and save files."""
        out: dict[str, Any] = {"kind": self.kind.value, "faces": list(self.faces)}
        if self.purpose:
            out["purpose"] = self.purpose
        if self.target is not None:
            out["target"] = self.target
        if self.rerolled:
            out["rerolled"] = list(self.rerolled)
        if self.discarded:
            out["discarded"] = list(self.discarded)
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> RollRecord:
        """The inverse of `to_dict`."""
        return RollRecord(
            kind=DieKind(data["kind"]),
            faces=tuple(int(f) for f in data["faces"]),
            purpose=str(data.get("purpose", "")),
            target=None if data.get("target") is None else int(data["target"]),
            rerolled=tuple(int(f) for f in data.get("rerolled", ())),
            discarded=tuple(int(f) for f in data.get("discarded", ())),
        )


def roll(
    kind: DieKind,
    n: int,
    *,
    rng: np.random.Generator,
    purpose: str = "",
    target: int | None = None,
) -> RollRecord:
    """Roll `n` dice of `kind` and record them."""
    if n < 0:
        raise ValueError(f"cannot roll {n} dice")
    faces = rng.integers(1, kind.sides + 1, size=n)
    return RollRecord(kind, tuple(int(f) for f in faces), purpose, target)
