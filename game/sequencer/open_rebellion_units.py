"""Open Rebellion units as the engine reads and changes them: living models, markers
and flags, skill dice, the unit's centre, and moves by one vector (tac-moves included).

The base of the engine (`OpenRebellionFire` builds small arms fire on it,
`OpenRebellionEngine` the turn structure).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from game.errors import IllegalDeclaration
from game.geometry import Table
from game.rules.open_rebellion.data import OpenRebellionProfile, OpenRebellionWeapon
from game.rules.open_rebellion.odds import (
    BANG_FACES,
    D6,
)
from game.sequencer.events import (
    Event,
    Moved,
)
from game.sequencer.faces import faces
from game.sequencer.open_rebellion_types import (
    ACTIVATED,
    DEAD,
    HIDDEN,
    IN_POSITION,
    PIN,
    TABLE_EDGE,
    WOUND,
    BangTest,
    MarkersChanged,
    OpenRebellionState,
)
from game.sequencer.setup import Setup
from game.sequencer.sight import Blocked, Placement, Sight
from game.sequencer.state import GameState, ModelState

Point = tuple[float, float]
BISECT_STEPS = 14
EDGE_SLACK = 1e-9  # the path check lets a base lie this far over the table's edge
GONE = frozenset((DEAD,))  # the statuses that take a model off the table
TABLES_KEPT = 1024


def bang_dice(n: int, rng: np.random.Generator) -> tuple[int, ...]:
    return tuple(faces(rng, D6, n))


def bangs(faces: Sequence[int]) -> int:
    """Open Rebellion: a 5 or 6 is a bang."""
    return sum(1 for f in faces if f > D6 - BANG_FACES)


class OpenRebellionUnits:
    """What a unit is and holds, and how it moves (the engine's base)."""

    setup: Setup
    sight: Sight
    values: dict[str, float]
    profiles: dict[str, OpenRebellionProfile]
    weapon: dict[str, OpenRebellionWeapon | None]
    unit_of: dict[str, str]
    side_of_unit: dict[str, str]
    units: dict[str, tuple[str, ...]]
    radius: dict[str, float]  # each model's base radius on the table
    tables: dict[tuple[tuple[Point, float, bool], ...], Table]  # `table`'s, by places

    # -- reading the state ---------------------------------------------------------

    def value(self, name: str) -> float:
        return self.values[name]

    def alive(self, state: GameState, unit: str) -> tuple[ModelState, ...]:
        if isinstance(state, OpenRebellionState):
            return state.alive_in(unit, self.units[unit])
        return tuple(m for m in (state.model(i) for i in self.units[unit]) if m.status != DEAD)

    def side_units(self, state: GameState, side: str) -> list[str]:
        """The side's units with a model left (a fresh list; worked out once per state)."""
        known = state.asked().side_units if isinstance(state, OpenRebellionState) else {}
        found = known.get(side)
        if found is None:
            found = known[side] = [
                u for u, s in self.side_of_unit.items() if s == side and self.alive(state, u)
            ]
        return list(found)

    def ready_units(self, state: GameState, side: str) -> list[str]:
        return [u for u in self.side_units(state, side) if not self.has_flag(state, u, ACTIVATED)]

    def has_flag(self, state: GameState, unit: str, flag: str) -> bool:
        alive = self.alive(state, unit)
        return bool(alive) and flag in alive[0].flags

    def hidden(self, state: GameState, unit: str) -> bool:
        """The unit is still represented by a card (seed 001: "Units that are hidden and
        represented on table by cards improve their position by one tier")."""
        alive = self.alive(state, unit)
        return bool(alive) and all(m.status == HIDDEN for m in alive)

    def markers(self, state: GameState, unit: str) -> tuple[int, int]:
        """(wound markers, pin markers) on the unit."""
        alive = self.alive(state, unit)
        if not alive:
            return 0, 0
        return alive[0].marker(WOUND), alive[0].marker(PIN)

    def skill_dice(self, state: GameState, unit: str) -> int:
        alive = self.alive(state, unit) or [state.model(i) for i in self.units[unit]]
        dice = [self._quality_dice(self.profiles[m.id].quality) for m in alive]
        counts = Counter(dice)
        return max(counts, key=lambda d: (counts[d], d))

    def _quality_dice(self, quality: str) -> int:
        key = f"skill_dice_{quality}"
        if key not in self.values:
            raise IllegalDeclaration(f"no skill dice for quality {quality!r} (rules.toml {key})")
        return int(self.values[key])

    def centre(self, state: GameState, unit: str) -> Point:
        alive = self.alive(state, unit)
        return (
            sum(m.at[0] for m in alive) / len(alive),
            sum(m.at[1] for m in alive) / len(alive),
        )

    def placements(self, state: GameState) -> dict[str, Placement]:
        """Where every model stands, the dead off the table (a fresh dict)."""
        return state.placements(GONE)

    def table(self, state: GameState) -> Table:
        """The table with the models where they stand (once per state)."""
        asked = state.asked() if isinstance(state, OpenRebellionState) else None
        if asked is not None and asked.table is not None and asked.table[0] is self.sight:
            return asked.table[1]
        # states with every model where it was share the table (most actions move none)
        key = tuple((m.at, m.facing, m.status != DEAD) for m in state.models)
        table = self.tables.get(key)
        if table is None:
            table = self.sight.table_at(state.placed(GONE))
            if len(self.tables) > TABLES_KEPT:
                self.tables.clear()
            self.tables[key] = table
        if asked is not None:
            asked.table = (self.sight, table)
        return table

    def _set_markers(
        self, state: OpenRebellionState, unit: str, wounds: int, pins: int, events: list[Event]
    ) -> OpenRebellionState:
        if self.markers(state, unit) == (wounds, pins):
            return state
        state = self._with_models(
            state,
            [m.with_marker(WOUND, wounds).with_marker(PIN, pins) for m in self.alive(state, unit)],
        )
        if self.alive(state, unit):
            events.append(MarkersChanged(unit, wounds, pins))
        return state

    def _set_flag(
        self, state: OpenRebellionState, unit: str, flag: str, on: bool
    ) -> OpenRebellionState:
        changed = [
            m.replace(flags=m.flags | {flag} if on else m.flags - {flag})
            for m in self.alive(state, unit)
            if (flag in m.flags) != on
        ]
        return self._with_models(state, changed)

    @staticmethod
    def _with_models(state: OpenRebellionState, changed: list[ModelState]) -> OpenRebellionState:
        """The state with these models replaced (one new state, not one per model)."""
        if not changed:
            return state
        new = {m.id: m for m in changed}
        return state.replace(models=tuple(new.get(m.id, m) for m in state.models))

    def tac_allowance(
        self,
        state: GameState,
        unit: str,
        purpose: str,
        events: list[Event],
        rng: np.random.Generator,
    ) -> float:
        """Tac-move: a skill test, 5" + bangs; no bangs only 3" (FACTS 1.3)."""
        faces = bang_dice(self.skill_dice(state, unit), rng)
        n = bangs(faces)
        events.append(BangTest(unit, purpose, faces, n))
        return self.tac_length(n)

    def tac_length(self, n: int) -> float:
        """The inches a tac-move's skill test of `n` bangs gives (FACTS 1.3)."""
        if n == 0:
            return self.value("tactical_move_no_bangs")
        return self.value("tactical_move_base") + n

    def tac_lengths(self, state: GameState, unit: str) -> tuple[float, ...]:
        """Every length `unit`'s tac-move may have, before its skill test: no bangs up to
        every die a bang, shortest first."""
        return tuple(self.tac_length(n) for n in range(self.skill_dice(state, unit) + 1))

    def move_blocked(self, state: GameState, unit: str, vector: Point) -> str | None:
        """Why the unit cannot move by `vector` (each model the same), or None. The
        unit's own models move together, so they do not block each other."""
        placements = self._others(state, unit)
        for m in self.alive(state, unit):
            why = self._path_blocked(placements, m, vector, 1.0)
            if why:
                return f"{m.id}: {why.why}"
        # the moved models must not overlap each other (they keep their spacing)
        return None

    def _others(self, state: GameState, unit: str) -> Mapping[str, Placement]:
        """The placements a move of `unit` is checked against: its own models left out
        (once per state and unit; only to read)."""
        known = state.asked().others if isinstance(state, OpenRebellionState) else {}
        placements = known.get(unit)
        if placements is None:
            placements = known[unit] = self.placements(state)
            for m in self.alive(state, unit):
                placements[m.id] = Placement(m.at, 0.0, False)
        return placements

    def _path_blocked(
        self, placements: Mapping[str, Placement], m: ModelState, vector: Point, share: float
    ) -> Blocked | None:
        end = (m.at[0] + vector[0] * share, m.at[1] + vector[1] * share)
        return self.sight.path_blocked(placements, m.id, (m.at, end))

    def stopped_by(self, state: GameState, unit: str, vector: Point, share: float) -> str:
        """What cuts the unit's move by `vector` short at `share` of it (`farthest`): the
        id of the piece or model the first model stopped would pass through next, or
        TABLE_EDGE; "" when it makes the whole move."""
        if share >= 1.0:
            return ""
        placements = self._others(state, unit)
        further = min(1.0, share + 1.0 / (1 << BISECT_STEPS))
        for m in self.alive(state, unit):
            why = self._path_blocked(placements, m, vector, further)
            if why is not None:
                return TABLE_EDGE if why.by is None else why.by
        return ""

    def farthest(self, state: GameState, unit: str, vector: Point) -> float:
        """The largest share of `vector` the unit can move before something blocks it:
        1, or found by halving (BISECT_STEPS times) when the whole vector is blocked.

        Each model's move is blocked from some share on (a longer straight move sweeps
        everything a shorter one does), so the halving's answer is the largest multiple
        k / 2**BISECT_STEPS below 1 that no model is blocked at (0 when there is none),
        the smallest of the models' own: found model by model, each asked only whether
        it is blocked before the answer so far."""
        placements = self._others(state, unit)
        alive = self.alive(state, unit)
        stopped = [m for m in alive if self._path_blocked(placements, m, vector, 1.0)]
        if not stopped:
            return 1.0
        grid = 1 << BISECT_STEPS
        best = grid - 1  # the halving never reaches the whole vector

        def blocked(m: ModelState, k: int) -> bool:
            return self._path_blocked(placements, m, vector, k / grid) is not None

        for m in stopped:
            if best == 0 or not blocked(m, best):
                continue  # this model goes at least as far as the answer so far
            lo, hi = 0, best  # free at lo (or lo = 0), blocked at hi
            # Most often the table's edge stops it: the last multiple that leaves its base
            # on the table is asked first (and the next one), narrowing the halving to
            # the answer itself when the path is free up to there
            edge = self._edge_multiple(m, vector, hi, grid)
            if edge is not None and lo <= edge < hi:
                if edge > lo and blocked(m, edge):
                    hi = edge
                else:
                    lo = edge  # free there (or 0)
                    if edge + 1 < hi:
                        if blocked(m, edge + 1):
                            hi = edge + 1
                        else:
                            lo = edge + 1
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if blocked(m, mid):
                    hi = mid
                else:
                    lo = mid
            best = lo
        return best / grid

    def _edge_multiple(self, m: ModelState, vector: Point, hi: int, grid: int) -> int | None:
        """The largest k below `hi` whose move by k / grid of `vector` leaves the model's
        base on the table, where the move by hi / grid does not (None when it does): a
        guess `farthest` asks the table about, the path check staying the judge."""
        width, depth = self.setup.header.table
        r = self.radius[m.id]

        def on_table(k: int) -> bool:
            x = m.at[0] + vector[0] * (k / grid)
            y = m.at[1] + vector[1] * (k / grid)
            slack = EDGE_SLACK
            return (
                x - r >= -slack
                and y - r >= -slack
                and x + r <= width + slack
                and (y + r <= depth + slack)
            )

        if on_table(hi) or not on_table(0):
            return None
        lo = 0
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if on_table(mid):
                lo = mid
            else:
                hi = mid
        return lo

    def _move_by(
        self, state: OpenRebellionState, unit: str, vector: Point, events: list[Event]
    ) -> OpenRebellionState:
        length = math.hypot(*vector)
        if length <= 1e-12:
            return state
        moved = []
        for m in self.alive(state, unit):
            end = (m.at[0] + vector[0], m.at[1] + vector[1])
            events.append(Moved(m.id, (m.at, end), length))
            moved.append(m.replace(at=end))
        state = self._with_models(state, moved)
        # Open Rebellion: a unit that moves is no longer in position
        return self._set_flag(state, unit, IN_POSITION, False)
