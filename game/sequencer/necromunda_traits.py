"""Necromunda's weapon traits played after the hit roll (FACTS 2.9 [S], trait notes),
their figures data (assets/necromunda/traits.toml):

- Knockback: "hit roll >= target S pushes it 1" (+1 D if blocked)". A fighter hit by the
  firer's own hit roll (the target, a Rapid Fire hit placed beside it) compares that
  roll's die; one under a blast or a template, or struck by a stray shot, rolls a D6 of
  its own (the rulebook's way for a blast: its one hit roll was at the aimed spot). The
  push is directly away from the firer, from the blast's centre for a blast (a random
  direction when the centre is on the fighter's own centre); a push stopped short by
  scenery, a fighter or the table's edge adds the hit's +1 Damage.
- Blaze: "target catches fire on 4+" after a hit that leaves it in the fight; the fire
  itself is played as the fighter activates (`NecromundaEngine`).

Forced moves (a push, a burning fighter's run) go in a straight line and stop where the
base would first meet scenery, another fighter or the table's edge, as a scattering
blast stops at a wall.
"""

from __future__ import annotations

import math

import numpy as np

from game.rules.necromunda.data import NecromundaWeapon
from game.rules.necromunda.dice import Traits
from game.sequencer.events import Event, Moved
from game.sequencer.necromunda_targeting import NecromundaTargeting, Point, d6, heading
from game.sequencer.necromunda_types import (
    BLAZE,
    OUT_OF_ACTION,
    PRONE,
    STANDING,
    BlazeRolled,
    ForcedMove,
    NecromundaState,
    status_said,
)

STEPS = 24  # halvings of a blocked forced move: its end within a millionth of its length
ON_CENTRE = 1e-6  # inches: a blast's centre this near a fighter's centre is on it
# `knockback`'s roll for a fighter's later hits from the one hit roll that pushed it
# already (Rapid Fire): FACTS 2.9, "hit roll >= target S pushes it 1"": once a roll
PUSHED = -1


class NecromundaTraits(NecromundaTargeting):
    """Knockback, catching fire and putting it out, and the forced moves they make
    (mixed into `NecromundaFire`)."""

    traits: Traits
    table_size: tuple[float, float]

    def forced_move(
        self, state: NecromundaState, model_id: str, direction: float, wanted: float
    ) -> tuple[Point, float, str | None, bool]:
        """Where `model_id` ends moved `wanted` inches toward `direction` degrees in a
        straight line: (end, distance, what stopped it (None: nothing, or the table's
        edge), whether it was stopped short)."""
        start = state.model(model_id).at
        a = math.radians(direction)
        dx, dy = wanted * math.cos(a), wanted * math.sin(a)
        placements = self._placed(state)

        def blocked(t: float) -> str | bool | None:
            end = (start[0] + dx * t, start[1] + dy * t)
            why = self.sight.path_blocked(placements, model_id, (start, end))
            return False if why is None else why.by

        if wanted <= 0 or blocked(1.0) is False:
            end = (start[0] + dx, start[1] + dy)
            return end, wanted, None, False
        lo, hi = 0.0, 1.0
        for _ in range(STEPS):
            mid = (lo + hi) / 2
            if blocked(mid) is False:
                lo = mid
            else:
                hi = mid
        by = blocked(hi)
        end = (start[0] + dx * lo, start[1] + dy * lo)
        return end, wanted * lo, by if isinstance(by, str) else None, True

    def knockback(
        self,
        state: NecromundaState,
        weapon: NecromundaWeapon,
        victim: str,
        away: Point,
        roll: int,
        events: list[Event],
        rng: np.random.Generator,
    ) -> tuple[NecromundaState, int]:
        """FACTS 2.9, Knockback: the roll (`roll`, the hit roll's die; 0: a D6 now;
        PUSHED: that roll has pushed it already) at or above the victim's Strength pushes
        it away from `away`; the state and the hit's extra Damage (stopped short: the
        rule's `blocked_damage`, told in the ForcedMove event)."""
        v = state.model(victim)
        if weapon.trait("Knockback") is None or v.status == OUT_OF_ACTION or roll == PUSHED:
            return state, 0
        face = roll or d6(rng)
        strength = self.profiles[victim].s
        rule = self.traits.knockback
        on_centre = math.dist(away, v.at) <= ON_CENTRE  # a blast's centre on its own
        direction = 0.0 if on_centre else heading(away, v.at)
        if face < strength:
            events.append(ForcedMove(victim, "knockback", (face,), strength, v.at, direction,
                                     0.0, v.at, 0.0, None, False))  # fmt: skip
            return state, 0
        if on_centre:  # any way: the scatter die's arrow, as a scattering blast's
            direction = float(rng.uniform(0.0, 360.0))
        end, went, by, short = self.forced_move(state, victim, direction, rule.distance)
        damage = rule.blocked_damage if short else 0
        events.append(ForcedMove(victim, "knockback", (face,), strength, v.at, direction,
                                 rule.distance, end, went, by, short, damage))  # fmt: skip
        if went > 0:
            events.append(Moved(victim, (v.at, end), went))
            state = state.with_model(v.replace(at=end))
        return state, damage

    def catch_fire(
        self,
        state: NecromundaState,
        weapon: NecromundaWeapon,
        victim: str,
        events: list[Event],
        rng: np.random.Generator,
    ) -> NecromundaState:
        """FACTS 2.9, Blaze: after a hit that leaves the fighter in the fight, a D6 at or
        above 4 sets it on fire (one already burning rolls none)."""
        v = state.model(victim)
        if weapon.trait("Blaze") is None or v.status == OUT_OF_ACTION or BLAZE in v.flags:
            return state
        need = self.traits.blaze.catches_fire_on
        face = d6(rng)
        caught = face >= need
        events.append(BlazeRolled(victim, weapon.name, face, (), need, caught))
        return state.with_model(v.replace(flags=v.flags | {BLAZE})) if caught else state

    def fire_out(
        self, state: NecromundaState, model_id: str, events: list[Event], rng: np.random.Generator
    ) -> NecromundaState:
        """FACTS 2.9, Blaze: the D6 to put the fire out, 6+: +2 Pinned or Seriously
        Injured, +1 per Active (Standing) friend within 1" (base edge to base edge)."""
        m = state.model(model_id)
        rule = self.traits.blaze
        mods: list[tuple[str, int]] = []
        if m.status in PRONE:
            mods.append((status_said(m.status), rule.prone_bonus))
        friends = sum(
            1 for f in state.side_models(m.side)
            if f.id != m.id and f.status == STANDING and self._gap(f, m) <= rule.friend_reach + 1e-9
        )  # fmt: skip
        if friends:
            mods.append((f'friends within {rule.friend_reach:g}"', friends * rule.friend_bonus))
        face = d6(rng)
        out = face + sum(v for _, v in mods) >= rule.out_on
        events.append(BlazeRolled(m.id, "", face, tuple(mods), rule.out_on, out))
        return state.with_model(m.replace(flags=m.flags - {BLAZE})) if out else state
