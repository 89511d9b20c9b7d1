"""Necromunda: which fighters a shot is judged without, the one rule the engine's shots
and the line-of-fire ruling (`skirmish lof`, the window's) both read.

FACTS 2.3: "Prone fighters have no facing or arc and do not block LoS" and "Friendly
fighters touching the firer's base are ignored when judging cover"; FACTS 2.8: a
fighter Out of Action is removed from the table."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from game.rules.cover import Cover
from game.rules.necromunda.data import ENGAGED_GAP, STATES

Point = tuple[float, float]

STANDING, _, PINNED, SERIOUSLY_INJURED, OUT_OF_ACTION = STATES
PRONE = (PINNED, SERIOUSLY_INJURED)


class Fighter(Protocol):
    """A fighter where it stands, in the state the rules give it."""

    @property
    def id(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def at(self) -> Point: ...
    @property
    def status(self) -> str: ...


@dataclass(frozen=True, slots=True)
class _Standing:
    id: str
    side: str
    at: Point
    status: str


def on_table(status: str) -> bool:
    """Whether a fighter in `status` is on the table at all (Out of Action: removed)."""
    return status != OUT_OF_ACTION


def left_out(
    fighters: Iterable[Fighter],
    radius: Mapping[str, float],
    shooter: str,
    target: str | None = None,
) -> frozenset[str]:
    """The fighters a shot from `shooter` at `target` is judged without (they hide
    nothing and give no cover): every one Out of Action, and of the others but the
    shooter and its target the prone ones (Pinned, Seriously Injured) and the shooter's
    friends whose bases touch its own (within ENGAGED_GAP, as base contact is read
    everywhere). `target` None: for whichever target, which is then left out only
    where it is off the table (`on_table`). `radius`: each fighter's base radius."""
    placed = list(fighters)
    firer = next(f for f in placed if f.id == shooter)

    def in_the_way(f: Fighter) -> bool:
        if f.status in PRONE:
            return False
        gap = math.dist(f.at, firer.at) - radius[f.id] - radius[firer.id]
        return f.side != firer.side or gap > ENGAGED_GAP

    return frozenset(
        f.id
        for f in placed
        if not on_table(f.status) or (f.id not in (shooter, target) and not in_the_way(f))
    )


def scenario_left_out(models: Sequence[Any], attacker: str, target: str) -> dict[str, str]:
    """The registry's "left_out" part: `left_out` for a table's models (each with its
    id, side, place, radius and state, a state not given being Standing), as a
    line-of-fire ruling asks it of a pair: each fighter left out, with why in words
    ("pinned", "out of action", "touching escher-leader's base")."""
    fighters = [_Standing(m.id, m.side, m.at, m.state or STANDING) for m in models]
    gone = left_out(fighters, {m.id: m.radius for m in models}, attacker, target)
    return {
        f.id: f.status.replace("-", " ")
        if f.status in PRONE or not on_table(f.status)
        else f"touching {attacker}'s base"
        for f in fighters
        if f.id in gone
    }


def hidden(status: str, cover: Cover) -> bool:
    """FACTS 2.3: a Prone fighter (Pinned, Seriously Injured) in partial or full cover
    cannot be targeted (`cover`: the sequencer's level of the shot at it)."""
    return status in PRONE and cover is not Cover.NONE


def hidden_why(target: str) -> str:
    """Why a shot at a `hidden` fighter is refused, in the engine's words (by id; the
    engine adds the cover's reason in brackets)."""
    return f"{target} is hidden: prone and in cover"


def scenario_refused(target: str, state: str | None, cover: Cover) -> str | None:
    """The registry's "refused" part: why the engine refuses a shot that line of fire
    allows at `target` in `state` (a scenario's, None: Standing) with `cover`, in its
    words (`hidden_why`), else None."""
    return hidden_why(target) if hidden(state or STANDING, cover) else None
