"""Necromunda's nerve: Nerve tests when a friend goes down, the Broken condition,
Running for Cover and Rally (FACTS 2.4, 2.8).

- Nerve test: when a fighter goes Seriously Injured or Out of Action, each friend
  within 3" of it takes a Cool test (2D6 >= Cl; a roll of 2 always fails), +1 for each
  other friend within 3" of the tester that is not Broken or Seriously Injured. A
  failure: Broken.
- A Broken fighter's only action is Running for Cover (Double): 2D6" (half its M when
  Prone), ending, in this order of wishes, more than 3" from every enemy, out of every
  enemy's line of sight, in cover from the enemies that still see it, and as far from
  the enemies as it can.
- Rally, in the End phase: each Broken fighter takes a Cool test with the same +1s; a
  pass ends the condition.

Readings where the sources are silent (README): the tests follow the attack (or the
Recovery roll) that took the fighter down, one fallen fighter at a time in the order
they fell; a fighter already Broken, Seriously Injured or Out of Action takes no Nerve
test; fleeing a bottled gang is not "going Out of Action" for Nerve tests; Running
for Cover goes in a straight line, the engine trying 16 headings at the full and half
distance and staying put when nothing is better.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from game.sequencer.events import Event, Modifier, Moved, Rolled, StateChanged
from game.sequencer.necromunda_fire import NecromundaFire, d6, heading
from game.sequencer.necromunda_types import (
    BROKEN,
    OUT_OF_ACTION,
    PRONE,
    SERIOUSLY_INJURED,
    BrokenChanged,
    NecromundaState,
    RanForCover,
)
from game.sequencer.sight import Cover, Placement
from game.sequencer.state import ModelState

Point = tuple[float, float]

NERVE_REACH = 3.0  # Necromunda: friends within 3" test, and help (FACTS 2.4)
SAFE_DISTANCE = 3.0  # Running for Cover: first wish, more than 3" from enemies
RUN_HEADINGS = 16
RUN_SHARES = (1.0, 0.5)
DOWN = (SERIOUSLY_INJURED, OUT_OF_ACTION)


def fallen(events: Sequence[Event]) -> list[str]:
    """Fighters the events took down to Seriously Injured or Out of Action, in order."""
    out: list[str] = []
    for e in events:
        if not isinstance(e, StateChanged):
            continue
        if e.after in DOWN and e.before != e.after and e.model not in out:
            out.append(e.model)
    return out


class NecromundaNerve(NecromundaFire):
    """Nerve tests, Broken, Running for Cover and Rally (mixed into the engine)."""

    def _friends_near(self, state: NecromundaState, m: ModelState) -> list[ModelState]:
        """Friends within 3" of `m` that steady it: not Broken, Seriously Injured or
        Out of Action."""
        return [
            f for f in state.side_models(m.side)
            if f.id != m.id and f.status not in DOWN and BROKEN not in f.flags
            and self._gap(f, m) <= NERVE_REACH + 1e-9
        ]  # fmt: skip

    def _cool_test(
        self,
        state: NecromundaState,
        m: ModelState,
        purpose: str,
        events: list[Event],
        rng: np.random.Generator,
    ) -> bool:
        """A Cool test, 2D6 >= Cl, +1 per steadying friend within 3" (each +1 lowers the
        number needed by one); a 2 always fails."""
        cl = self.profiles[m.id].cl
        helpers = len(self._friends_near(state, m))
        mods = (Modifier('friends within 3"', helpers),) if helpers else ()
        need = cl - helpers
        faces = (d6(rng), d6(rng))
        ok = sum(faces) >= need and sum(faces) > 2
        result = "success" if ok else "fail"
        events.append(Rolled(m.id, purpose, "Cl", cl, mods, need, faces, (result, result)))
        return ok

    def nerve_tests(
        self, state: NecromundaState, down: Sequence[str], events: list[Event],
        rng: np.random.Generator,
    ) -> NecromundaState:  # fmt: skip
        """For each fighter in `down`, its friends within 3" take a Nerve test."""
        for fighter in down:
            f = state.model(fighter)
            for m in state.side_models(f.side):
                if m.id == f.id or m.status in DOWN or BROKEN in m.flags:
                    continue
                if self._gap(m, f) > NERVE_REACH + 1e-9:
                    continue
                if not self._cool_test(state, m, f"Nerve test ({fighter} went down)", events, rng):
                    events.append(BrokenChanged(m.id, True, f"failed a Nerve test ({fighter})"))
                    state = state.with_model(m.replace(flags=m.flags | {BROKEN}))
        return state

    def rally(
        self, state: NecromundaState, events: list[Event], rng: np.random.Generator
    ) -> NecromundaState:
        """End phase: each Broken fighter still in the fight tests Cool to Rally."""
        for m in state.models:
            if BROKEN not in m.flags or m.status in DOWN:
                continue
            if self._cool_test(state, m, "Rally", events, rng):
                events.append(BrokenChanged(m.id, False, "rallied"))
                state = state.with_model(m.replace(flags=m.flags - {BROKEN}))
        return state

    # -- Running for Cover -------------------------------------------------------------

    def run_for_cover(
        self, state: NecromundaState, m: ModelState, events: list[Event], rng: np.random.Generator
    ) -> NecromundaState:
        """Running for Cover: 2D6" (half M when Prone), the end chosen by the wishes in
        order: beyond 3" of every enemy, out of their sight, in cover, far from them."""
        if m.status in PRONE:
            faces: tuple[int, ...] = ()
            allowance = self.profiles[m.id].m / 2
        else:
            faces = (d6(rng), d6(rng))
            allowance = float(sum(faces))
        end, meets = self._refuge(state, m, allowance)
        events.append(RanForCover(m.id, faces, allowance, end, meets))
        if math.dist(end, m.at) <= 1e-9:
            return state
        facing = heading(m.at, end)
        events.append(Moved(m.id, (m.at, end), math.dist(m.at, end)))
        return state.with_model(m.replace(at=end, facing=facing))

    def _refuge(
        self, state: NecromundaState, m: ModelState, allowance: float
    ) -> tuple[Point, tuple[str, ...]]:
        """Where the fighter runs: of the points it can reach straight (staying put
        first, then RUN_HEADINGS headings at each of RUN_SHARES of the allowance), those
        more than 3" from every enemy if any; of those, the ones out of every enemy's
        sight if any, else the ones in cover from every enemy that sees them if any; the
        farthest from the enemies (ties: the first). Asked farthest first, so a point
        is checked (its path, sight lines, cover) only until the answer is known."""
        enemies = [e for e in state.models if e.side != m.side and e.status != OUT_OF_ACTION]
        if not enemies:
            return m.at, ()
        width, depth = self.table_size
        r = self.profiles[m.id].radius
        ends: list[Point] = [m.at]
        # the other ends on the same heading, nearer and farther (by index in `ends`)
        nearer: dict[int, list[int]] = {}
        farther: dict[int, list[int]] = {}
        for k in range(RUN_HEADINGS):
            angle = 2 * math.pi * k / RUN_HEADINGS
            heading_ends: list[tuple[float, int]] = []
            for share in RUN_SHARES:
                d = allowance * share
                end = (m.at[0] + math.cos(angle) * d, m.at[1] + math.sin(angle) * d)
                if r <= end[0] <= width - r and r <= end[1] <= depth - r:
                    heading_ends.append((d, len(ends)))
                    ends.append(end)
            for d, i in heading_ends:
                nearer[i] = [j for dj, j in heading_ends if dj < d]
                farther[i] = [j for dj, j in heading_ends if dj > d]
        placements = self._placed(state)

        def gap(end: Point) -> float:
            return min(math.dist(end, e.at) - r - self.profiles[e.id].radius for e in enemies)

        reach = {i: gap(p) for i, p in enumerate(ends)}
        farthest_first = sorted(reach, key=lambda i: (-reach[i], i))
        free: dict[int, bool] = {0: True}  # staying put needs no path

        def can_reach(i: int) -> bool:
            """A straight run sweeps all a shorter one on its heading does: blocked when
            a shorter one is, free when a longer one is; asked the shortest first."""
            if i not in free:
                if any(not can_reach(j) for j in nearer.get(i, ())):
                    free[i] = False
                elif any(free.get(j) for j in farther.get(i, ())):
                    free[i] = True
                else:
                    free[i] = self.sight.path_blocked(placements, m.id, (m.at, ends[i])) is None
            return free[i]

        def nearest(i: int) -> list[ModelState]:
            return sorted(enemies, key=lambda e: (math.dist(e.at, ends[i]), e.id))

        def sees(e: ModelState, i: int) -> bool:
            """Whether the enemy has any clear line to the point (no arc; the sight keeps
            the answer)."""
            return self.sight.clear_to(placements, [(e.id, m.id, ends[i])])[0]

        def unseen(i: int) -> bool:
            """No enemy has any clear line to the point: asked one enemy at a time, the
            nearest first, until one has."""
            return not any(sees(e, i) for e in nearest(i))

        def in_cover(i: int) -> bool:
            """In cover from every enemy with a clear line to the point, the nearest first:
            one it is in the open to decides, and the farther ones are not asked."""
            return all(
                not sees(e, i) or self._in_cover(state, m, ends[i], [e.id]) for e in nearest(i)
            )

        # first wish: more than 3" from every enemy (the farthest come first)
        far = any(can_reach(i) for i in farthest_first if reach[i] > SAFE_DISTANCE + 1e-9)
        pool = [i for i in farthest_first if not far or reach[i] > SAFE_DISTANCE + 1e-9]
        # second: out of every enemy's line of sight; third: in cover from every enemy
        # that still sees it; last: as far from the enemies as it can
        hidden = next((i for i in pool if can_reach(i) and unseen(i)), None)
        covered = None
        if hidden is None:
            covered = next((i for i in pool if can_reach(i) and in_cover(i)), None)
        best = hidden if hidden is not None else covered
        if best is None:
            best = next(i for i in pool if can_reach(i))
        meets = []
        if reach[best] > SAFE_DISTANCE + 1e-9:
            meets.append('more than 3" from every enemy')
        if hidden is not None:
            meets.append("out of sight of every enemy")
        elif covered is not None:
            meets.append("in cover")
        return ends[best], tuple(meets)

    def _in_cover(
        self, state: NecromundaState, m: ModelState, at: Point, watchers: Sequence[str]
    ) -> bool:
        moved = state.with_model(m.replace(at=at))
        # the nearest first: one in the open is found sooner (any one decides)
        nearest = sorted(watchers, key=lambda e: (math.dist(state.model(e).at, at), e))
        for e in nearest:
            placements = self.placements(moved, e, m.id, facing=False)  # cover only
            placements[m.id] = Placement(at, 0.0, True)
            if self.sight.sighting(placements, e, m.id).cover is Cover.NONE:
                return False
        return True
