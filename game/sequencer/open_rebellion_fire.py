"""Open Rebellion small arms fire (seed 001, FACTS 1.4): who fires, both dice pools,
the target unit's cover and tier, the fall back, and the damage converted into wound
or pin markers. Mixed into `OpenRebellionEngine`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np

from game.errors import IllegalDeclaration
from game.geometry import Table
from game.geometry import sight as geometry_sight
from game.geometry.lof import Sight as GeometrySight
from game.rules.open_rebellion.cover import OpenRebellionCover, SquadCover, squad_cover
from game.rules.open_rebellion.odds import (
    CoverTier,
    attacker_pool,
    defender_pool,
    shifted_tier,
)
from game.sequencer.events import (
    Event,
)
from game.sequencer.open_rebellion_types import (
    IN_POSITION,
    DamageConverted,
    FellBack,
    OpenRebellionState,
    PendingFire,
    SmallArmsFire,
)
from game.sequencer.open_rebellion_units import OpenRebellionUnits, bang_dice, bangs
from game.sequencer.setup import Setup
from game.sequencer.state import GameState

Point = tuple[float, float]
FALL_BACK_SPREAD = 75.0  # degrees either side of straight away: "generally away"
FALL_BACK_STEP = 25.0


def _spread(limit: float, step: float) -> list[float]:
    """0, +step, -step, +2 step, ... up to +-limit (degrees)."""
    out = [0.0]
    k = 1
    while k * step <= limit + 1e-9:
        out += [k * step, -k * step]
        k += 1
    return out


SIGHT_CACHE = 65536


SightKey = tuple[str, Point, str, Point]
CoverKey = tuple[str, Point, tuple[tuple[str, Point], ...]]
_SHARED: dict[int, tuple[object, dict[SightKey, GeometrySight], dict[CoverKey, SquadCover]]] = {}
SHARED_SETUPS = 8


def _caches_for(
    setup: Setup,
) -> tuple[dict[SightKey, GeometrySight], dict[CoverKey, SquadCover]]:
    """Sightings and cover readings shared by every engine of the same setup (a batch
    plays many games on one table; the scenery never moves and models never block)."""
    found = _SHARED.get(id(setup))
    if found is None or found[0] is not setup:
        if len(_SHARED) >= SHARED_SETUPS:
            _SHARED.clear()
        found = (setup, {}, {})
        _SHARED[id(setup)] = found
    return found[1], found[2]


def tier_label(tier: CoverTier) -> str:
    return tier.name.lower().replace("_", "-")


class OpenRebellionFire(OpenRebellionUnits):
    """Small arms fire, the fall back and damage conversion (mixed into the engine)."""

    _sights: dict[SightKey, GeometrySight]
    _covers: dict[CoverKey, SquadCover]

    def sights(self, state: GameState, shooter: str, unit: str) -> list[GeometrySight]:
        """Sight from one model to each living model of `unit` (models never block)."""
        table: Table | None = None
        out = []
        at = state.model(shooter).at
        for m in self.alive(state, unit):
            # models never block in Open Rebellion: a sight depends on the two places only
            key = (shooter, at, m.id, m.at)
            found = self._sights.get(key)
            if found is None:
                if table is None:
                    table = self.sight.table_at(self.placements(state))
                found = geometry_sight(table, shooter, m.id, arc_degrees=360.0, models_block=False)
                if len(self._sights) > SIGHT_CACHE:
                    self._sights.clear()
                self._sights[key] = found
            out.append(found)
        return out

    def firing_models(self, state: GameState, unit: str, target: str) -> list[str]:
        """Models of `unit` with line of sight to at least one model of `target`."""
        return [
            m.id
            for m in self.alive(state, unit)
            if self.weapon[m.id] is not None
            and any(s.clear for s in self.sights(state, m.id, target))
        ]

    def cover_shooter(self, state: GameState, unit: str, target: str) -> str | None:
        """The attacking model cover is read from: the one that sees the most of the
        target unit's models (ties: the first in the scenario's order)."""
        best: tuple[int, str] | None = None
        for m in self.alive(state, unit):
            seen = sum(1 for x in self.sights(state, m.id, target) if x.clear)
            if best is None or seen > best[0]:
                best = (seen, m.id)
        return None if best is None else best[1]

    def cover(self, state: GameState, unit: str, target: str) -> SquadCover:
        """The target unit's cover from the attacking unit: read from the attacking model
        that sees the most of its models."""
        shooter = self.cover_shooter(state, unit, target)
        if shooter is None:
            return SquadCover(OpenRebellionCover.OPEN, "no attacker", ())
        return self.cover_from(state, shooter, target)

    def cover_from(self, state: GameState, shooter: str, target: str) -> SquadCover:
        """The target unit's cover as one attacking model sees it."""
        sights = self.sights(state, shooter, target)
        # a model's cover depends on the scenery, the shooter's place and its own
        key = (
            shooter,
            state.model(shooter).at,
            tuple((m.id, m.at) for m in self.alive(state, target)),
        )
        found = self._covers.get(key)
        if found is None:
            found = squad_cover(self.sight.table_at(self.placements(state)), sights)
            if len(self._covers) > SIGHT_CACHE:
                self._covers.clear()
            self._covers[key] = found
        return found

    def range_bands(self, state: GameState, firing: Sequence[str], target: str) -> int:
        weapons = [self.weapon[f] for f in firing]
        band = max(w.band for w in weapons if w is not None)
        placements = self.placements(state)
        gap = min(
            self.sight.distance(placements, f, m.id)
            for f in firing
            for m in self.alive(state, target)
        )
        return math.floor(gap / band + 1e-9)

    def pools(self, state: GameState, unit: str, target: str) -> FirePlan:
        """Both dice pools of small arms fire from `unit` at `target` as things stand."""
        firing = self.firing_models(state, unit, target)
        if not firing:
            raise IllegalDeclaration(f"no model of {unit} has line of sight to {target}")
        in_position = self.has_flag(state, unit, IN_POSITION)
        rof = [w.rof for w in (self.weapon[f] for f in firing) if w is not None]
        support = (
            sum(w.support_dice for w in (self.weapon[f] for f in firing) if w is not None)
            if in_position
            else 0
        )
        attack = attacker_pool(rof, self.skill_dice(state, unit), support)
        cover = self.cover(state, unit, target)
        bands = self.range_bands(state, firing, target)
        defence = defender_pool(
            bands, self.skill_dice(state, target), cover.level >= OpenRebellionCover.LIGHT
        )
        lowers = any(w is not None and w.lowers_tier for w in (self.weapon[f] for f in firing))
        tier = self.conversion_tier(state, target, CoverTier(int(cover.level)), lowers)
        return FirePlan(tuple(firing), attack, defence, bands, cover, lowers, tier)

    def conversion_tier(
        self, state: GameState, target: str, base: CoverTier, lowers: bool
    ) -> CoverTier:
        """Open Rebellion tier shifts: in position +1, hidden +1, blast -1 (seed 001)."""
        return shifted_tier(
            base,
            in_position=self.has_flag(state, target, IN_POSITION),
            hidden=self.hidden(state, target),
            blast=lowers,
        )

    # -- small arms fire -------------------------------------------------------------

    def _fire(
        self,
        state: OpenRebellionState,
        unit: str,
        target: str,
        events: list[Event],
        rng: np.random.Generator,
    ) -> OpenRebellionState:
        plan = self.pools(state, unit, target)
        attack = bang_dice(plan.attack, rng)
        defence = bang_dice(plan.defence, rng)
        # Open Rebellion: each defender bang cancels one attacker bang
        hurt = max(0, bangs(attack) - bangs(defence))
        events.append(
            SmallArmsFire(
                unit, target, plan.firing, plan.attack, plan.defence, plan.bands,
                plan.cover.level.label, plan.cover.reason, attack, defence, hurt,
            )
        )  # fmt: skip
        pending = PendingFire(unit, target, hurt, plan.lowers, int(plan.cover.level))
        if hurt and plan.cover.level <= OpenRebellionCover.LIGHT:
            # the defender chooses: take the morale check / fall back (FallBackChoice)
            return dataclasses.replace(state, phase="fall-back", pending=pending)
        return self._convert(state, pending, events, rng)

    def fall_back(
        self,
        state: OpenRebellionState,
        unit: str,
        away_from: str,
        reason: str,
        events: list[Event],
        rng: np.random.Generator,
    ) -> OpenRebellionState:
        """A tac-move generally away from the shooting unit, toward cover (seed 001: "fall
        back toward cover" from the open, "toward hard cover" from light cover), every
        model by the same vector, stopping short of scenery and other units.

        Reading: of the headings within FALL_BACK_SPREAD degrees of straight away from the
        shooters' centre (every FALL_BACK_STEP degrees, nearest straight away first), the
        unit takes the first that ends it in the cover it falls back toward, as seen from
        the shooter (any cover from the open, hard cover from light cover); when none
        does, straight away."""
        allowance = self.tac_allowance(state, unit, "fall back", events, rng)
        mine, theirs = self.centre(state, unit), self.centre(state, away_from)
        away = math.atan2(mine[1] - theirs[1], mine[0] - theirs[0])
        if math.hypot(mine[0] - theirs[0], mine[1] - theirs[1]) <= 1e-9:
            away = math.pi / 2
        # each heading is judged from the attacking model cover is read from now (one
        # model's sights, not the whole unit's, for each heading tried)
        shooter = self.cover_shooter(state, away_from, unit)
        now = self.cover(state, away_from, unit).level
        goal = (
            OpenRebellionCover.HARD if now >= OpenRebellionCover.LIGHT else OpenRebellionCover.LIGHT
        )
        best: tuple[OpenRebellionCover, Point] | None = None
        for turn in _spread(FALL_BACK_SPREAD, FALL_BACK_STEP):
            heading = away + math.radians(turn)
            vector = (math.cos(heading) * allowance, math.sin(heading) * allowance)
            share = self.farthest(state, unit, vector)
            moved = (vector[0] * share, vector[1] * share)
            if turn == 0:
                straight = moved
            after = self._move_by(state, unit, moved, [])
            if shooter is not None and self.cover_from(after, shooter, unit).level >= goal:
                best = (goal, moved)
                break
        chosen = best[1] if best is not None else straight
        events.append(FellBack(unit, reason, chosen))
        return self._move_by(state, unit, chosen, events)

    def _convert(
        self,
        state: OpenRebellionState,
        pending: PendingFire,
        events: list[Event],
        rng: np.random.Generator,
    ) -> OpenRebellionState:
        """Damage into wound or pin markers by the defender's tier after any fall back."""
        if pending.damage == 0 or not self.alive(state, pending.target):
            return state
        cover = self.cover(state, pending.attacker, pending.target)
        tier = self.conversion_tier(
            state, pending.target, CoverTier(int(cover.level)), pending.lowers_tier
        )
        n = pending.damage
        faces: tuple[int, ...] = ()
        roller = ""
        if tier is CoverTier.OPEN:
            wounds = n
        elif tier is CoverTier.BEYOND_HARD:
            wounds = 0
        else:
            faces = bang_dice(n, rng)
            if tier is CoverTier.LIGHT:
                roller = "defender"  # each bang shifts a wound marker to a pinned marker
                wounds = n - bangs(faces)
            else:
                roller = "attacker"  # each bang shifts a pinned marker to a wound marker
                wounds = bangs(faces)
        pins = n - wounds
        events.append(
            DamageConverted(pending.target, tier_label(tier), roller, faces, wounds, pins)
        )
        w, p = self.markers(state, pending.target)
        return self._set_markers(state, pending.target, w + wounds, p + pins, events)


@dataclasses.dataclass(frozen=True, slots=True)
class FirePlan:
    """Small arms fire before the dice: who fires, both pools, the cover and the tier the
    damage would convert at if the defender stays put."""

    firing: tuple[str, ...]
    attack: int
    defence: int
    bands: int
    cover: SquadCover
    lowers: bool
    tier: CoverTier
