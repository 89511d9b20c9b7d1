"""Infinity attack resolution: how the skills of one Order and its AROs resolve.

BS Attack rolls with every MOD (range, Partial Cover, Mimetism, close combat), Normal
and Face-to-Face rolls, Dodges, Direct Template Weapons, shooting into close combat,
saves (N5 and Code One), wounds and the states they lead to (seeds 000/002/003, FACTS
3.2-3.6). Mixed into `InfinityEngine`, which runs the Order Expenditure Sequence.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from game.errors import IllegalDeclaration
from game.geometry import BodyId
from game.geometry.measures import template_hits
from game.rules.infinity.data import InfinityProfile, InfinityWeapon
from game.rules.infinity.odds import CRIT, RollSide, Side, cap_mod, kept_ranks, resolve_ranks
from game.rules.infinity.saves import Defence as SaveDefence
from game.rules.infinity.saves import SaveSystem, save_rolls, save_threshold, wounds_on
from game.rules.infinity.saves import Weapon as SaveWeapon
from game.sequencer.events import (
    Event,
    Hit,
    Missed,
    Modifier,
    Rolled,
    SaveRolled,
    StateChanged,
    TemplatePlaced,
    Wounded,
)
from game.sequencer.infinity_orders import (
    ARO_BURST,
    CLOSE_COMBAT_MOD,
    ENGAGED_GAP,
    PARTIAL_COVER_MOD,
    InfinityState,
    OrderInProgress,
    Point,
    Reaction,
    Skill,
    SkillKind,
    _heading,
)
from game.sequencer.setup import Setup
from game.sequencer.sight import Cover, Placement, Sight
from game.sequencer.state import GameState


def is_direct_template(weapon: InfinityWeapon) -> bool:
    """A Direct Template Weapon: a teardrop laid from the user, no attack roll."""
    return weapon.template in ("small-teardrop", "large-teardrop")


def _results(ranks: list[int], survivors: int | None) -> tuple[str, ...]:
    """Each die's result for the log: critical, success, fail; "cancelled" for
    successes beaten in a Face-to-Face (survivors: the opponent's best rank)."""
    out = []
    for r in ranks:
        if r == 0:
            out.append("fail")
        elif survivors is not None and r <= survivors:
            out.append("cancelled")
        else:
            out.append("critical" if r == CRIT else "success")
    return tuple(out)


@dataclass(frozen=True, slots=True)
class PlannedRoll:
    """One side's dice against one opponent (or none), with every MOD, before rolling."""

    model: str
    purpose: str
    attribute: str
    base: int
    modifiers: tuple[Modifier, ...]
    burst: int
    weapon: InfinityWeapon | None  # None: Dodge
    target: str
    auto_fail: str = ""  # reason the dice cannot succeed (out of range)

    @property
    def sv(self) -> int:
        if self.auto_fail:
            return 0
        return self.base + cap_mod(sum(m.value for m in self.modifiers))


class InfinityAttacks:
    """The attack half of the Infinity engine (mixed into `InfinityEngine`)."""

    setup: Setup
    sight: Sight
    profiles: dict[str, InfinityProfile]
    weapons: dict[str, tuple[str, ...]]
    radii: dict[str, float]
    system: SaveSystem

    def _placements(
        self, state: GameState, moved: Mapping[str, Placement] | None = None
    ) -> dict[str, Placement]:
        out = {m.id: Placement(m.at, m.facing, m.status != "dead") for m in state.models}
        if moved:
            out.update(moved)
        return out

    def _weapon(self, model_id: str, name: str | None) -> InfinityWeapon:
        names = self.weapons[model_id]
        if name is None:
            if not names:
                raise IllegalDeclaration(f"{model_id} has no weapon")
            name = names[0]
        if name not in names:
            raise IllegalDeclaration(f"{model_id} has no {name} (it has {', '.join(names)})")
        weapon = self.setup.weapons[name]
        assert isinstance(weapon, InfinityWeapon)
        return weapon

    # -- resolution ------------------------------------------------------------

    def _resolve_skills(
        self,
        state: InfinityState,
        order: OrderInProgress,
        events: list[Event],
        rng: np.random.Generator,
    ) -> InfinityState:
        """Steps 5-7 of the Order: every roll, save and wound of the Order's skills and
        its AROs, the active trooper already at the end of its route in `state`."""
        active = state.model(order.model)
        end = order.route[-1]
        skills = [s for s in (order.first, order.second) if s is not None]
        attack = next((s for s in skills if s.kind is SkillKind.ATTACK), None)
        dodging = any(s.kind is SkillKind.DODGE for s in skills)
        # The active trooper's rolls against each target, and each reactor's roll.
        active_rolls: dict[str, PlannedRoll] = {}
        template_attack: tuple[InfinityWeapon, Point, str] | None = None
        if attack is not None:
            origin = (
                attack.origin
                if attack.origin is not None
                else (order.start if attack is order.first else end)
            )
            weapon = self._weapon(active.id, attack.weapon)
            if is_direct_template(weapon):
                template_attack = (weapon, origin, attack.targets[0][0])
            else:
                active_rolls = self._attack_rolls(
                    state, active.id, origin, order.facing, attack, reactive=False
                )
        reaction_rolls: dict[str, PlannedRoll] = {}
        template_aros: list[Reaction] = []
        for r in order.reactions:
            if r.skill.kind is SkillKind.ATTACK and is_direct_template(
                self._weapon(r.model, r.skill.weapon)
            ):
                # Infinity: a Direct Template makes no roll, so no Face-to-Face with it.
                template_aros.append(r)
            elif r.skill.kind is SkillKind.ATTACK:
                reaction_rolls[r.model] = self._attack_rolls(
                    state,
                    r.model,
                    state.model(r.model).at,
                    state.model(r.model).facing,
                    r.skill,
                    reactive=True,
                    target_at=r.at,
                )[active.id]
            elif r.skill.kind is SkillKind.DODGE:
                reaction_rolls[r.model] = self._dodge_roll(r.model, active.id)
        damage: list[
            tuple[str, str, InfinityWeapon, int, int]
        ] = []  # attacker, target, weapon, hits, crits
        if template_attack is not None:
            weapon, origin, main = template_attack
            affected = self._lay_template(
                state, active.id, origin, order.facing, weapon, main, {}, events
            )
            for a in affected:
                theirs = reaction_rolls.get(a)
                if theirs is not None and theirs.weapon is None:  # it Dodges the template
                    del reaction_rolls[a]
                    if self._dodges_template(state, a, active.id, events, rng):
                        continue
                damage.append((active.id, a, weapon, 1, 0))
        for r in template_aros:
            weapon = self._weapon(r.model, r.skill.weapon)
            user = state.model(r.model)
            moved = {active.id: Placement(r.at, order.facing)}
            affected = self._lay_template(
                state, r.model, user.at, user.facing, weapon, active.id, moved, events
            )
            for a in affected:
                if (
                    a == active.id
                    and dodging
                    and self._dodges_template(state, a, r.model, events, rng)
                ):
                    continue
                damage.append((r.model, a, weapon, 1, 0))
        order_of_targets = list(active_rolls)
        for target in order_of_targets:
            mine = active_rolls[target]
            theirs = reaction_rolls.pop(target, None)
            if theirs is not None:  # both affect each other: Face-to-Face
                hits_me, hits_them, fails = self._face_to_face(mine, theirs, events, rng)
                if theirs.weapon is not None:
                    damage.append((theirs.model, active.id, theirs.weapon, *hits_me))
            else:
                hits_them, fails = self._normal(mine, events, rng)
            if mine.weapon is not None:
                damage.append((active.id, target, mine.weapon, *hits_them))
                # Infinity: shooting into close combat, every failed die hits an allied
                # trooper engaged with the target, the shooter's player choosing which.
                allies = self._engaged_allies(state, active.id, target)
                if allies and fails and not mine.auto_fail:
                    chosen = [a for a in attack.allies_hit if a in allies] if attack else []
                    pick = chosen + [a for a in allies if a not in chosen]
                    for i in range(fails):
                        damage.append((active.id, pick[i % len(pick)], mine.weapon, 1, 0))
        for reactor, roll in reaction_rolls.items():
            if roll.weapon is None:  # a Dodge against an attack that was not made: no roll
                continue
            if dodging:
                # The active trooper's Dodge against an attack that targets it: Face-to-Face.
                dodge = self._dodge_roll(active.id, reactor)
                _, hits_me, _ = self._face_to_face(roll, dodge, events, rng)
                damage.append((reactor, active.id, roll.weapon, *hits_me))
            else:
                reactor_hits, _ = self._normal(roll, events, rng)
                damage.append((reactor, active.id, roll.weapon, *reactor_hits))
        for attacker, target, weapon, hits, crits in damage:
            if hits + crits:
                state = self._hit(state, attacker, target, weapon, hits, crits, events, rng)
        return state

    def _attack_rolls(
        self,
        state: GameState,
        shooter: str,
        origin: Point,
        facing: float,
        skill: Skill,
        *,
        reactive: bool,
        target_at: Point | None = None,
    ) -> dict[str, PlannedRoll]:
        weapon = self._weapon(shooter, skill.weapon)
        profile = self.profiles[shooter]
        moved = {shooter: Placement(origin, facing)}
        out: dict[str, PlannedRoll] = {}
        for target_id, dice in skill.targets:
            placements = self._placements(state, moved)
            if target_at is not None:
                placements[target_id] = Placement(target_at, placements[target_id].facing)
            s = self.sight.sighting(placements, shooter, target_id)
            mods: list[Modifier] = []
            band = weapon.range_mod(s.distance)
            auto_fail = ""
            if band is None:
                # Infinity: beyond the weapon's longest band the attack fails (seed 000).
                auto_fail = f'out of range ({s.distance:.1f}" > {weapon.max_range:g}")'
            else:
                mods.append(Modifier(f'range {s.distance:.1f}"', band))
            if s.cover is Cover.PARTIAL:
                mods.append(Modifier("partial cover", PARTIAL_COVER_MOD))
            mimetism = self.profiles[target_id].mimetism
            if mimetism:
                mods.append(Modifier("mimetism", mimetism))
            engaged = self._engaged_allies(state, shooter, target_id)
            if engaged:
                mods.append(
                    Modifier(
                        f"close combat ({len(engaged)} allies)", CLOSE_COMBAT_MOD * len(engaged)
                    )
                )
            out[target_id] = PlannedRoll(
                shooter, f"BS Attack ({weapon.name}) at {target_id}", "BS", profile.bs, tuple(mods),
                ARO_BURST if reactive else dice, weapon, target_id, auto_fail,
            )  # fmt: skip
        return out

    # -- Direct Template Weapons (FACTS 3.6) --------------------------------------

    def _template_size(self, weapon: InfinityWeapon) -> tuple[float, float]:
        """Length and width of the weapon's teardrop, from the rule data."""
        values = getattr(self.setup, "rule_values", {})
        key = (weapon.template or "").replace("-", "_")
        try:
            return float(values[f"{key}_length"]), float(values[f"{key}_width"])
        except KeyError:
            raise IllegalDeclaration(
                f"the size of a {weapon.template} template is not in the rule data"
            ) from None

    def _template(
        self,
        state: GameState,
        shooter: str,
        at: Point,
        facing: float,
        weapon: InfinityWeapon,
        target: str,
        moved: Mapping[str, Placement] | None = None,
    ) -> tuple[Point, float, float, float, tuple[str, ...]]:
        """Infinity: a teardrop with its narrow end touching the edge of the user's base,
        laid toward the target; everyone it touches with no wall between is affected,
        and it may not cover a friend. (start, direction, length, width, affected)."""
        length, width = self._template_size(weapon)
        placements = self._placements(state, {shooter: Placement(at, facing), **(moved or {})})
        direction = _heading(at, placements[target].at, facing)
        rad = math.radians(direction)
        r = self.radii[shooter]
        start = (at[0] + math.cos(rad) * r, at[1] + math.sin(rad) * r)
        table = self.sight.table_at(placements)
        hits = template_hits(table, start, direction, length, width, exclude=(BodyId(shooter),))
        affected = tuple(str(b) for b in hits)
        if target not in affected:
            raise IllegalDeclaration(
                f"{weapon.name}'s template ({length:g}\") does not reach {target}"
            )
        side = state.model(shooter).side
        friends = [a for a in affected if state.model(a).side == side]
        if friends:
            raise IllegalDeclaration(
                f"{weapon.name}'s template would cover {', '.join(friends)}, on {shooter}'s side"
            )
        return start, direction, length, width, affected

    def _lay_template(
        self,
        state: GameState,
        shooter: str,
        at: Point,
        facing: float,
        weapon: InfinityWeapon,
        target: str,
        moved: Mapping[str, Placement],
        events: list[Event],
    ) -> tuple[str, ...]:
        start, direction, length, width, affected = self._template(
            state, shooter, at, facing, weapon, target, moved
        )
        events.append(
            TemplatePlaced(shooter, weapon.name, start, direction, length, width, affected)
        )
        return affected

    def _dodges_template(
        self, state: GameState, model: str, user: str, events: list[Event], rng: np.random.Generator
    ) -> bool:
        """Infinity: Dodging a Direct Template is a Normal PH roll (with a MOD from the
        rule data when the dodger has no LoF to the template's user)."""
        mods: list[Modifier] = []
        value = getattr(self.setup, "rule_values", {}).get("dodge_template_without_lof_mod")
        if value and not self.sight.sighting(self._placements(state), model, user).lof:
            mods.append(Modifier(f"no line of fire to {user}", int(value)))
        roll = PlannedRoll(
            model, f"Dodge the template of {user}", "PH", self.profiles[model].ph,
            tuple(mods), 1, None, user,
        )  # fmt: skip
        (hits, crits), _ = self._normal(roll, events, rng)
        return hits + crits > 0

    def _dodge_roll(self, model: str, against: str) -> PlannedRoll:
        # Infinity: Dodge is a PH roll (Face-to-Face against the attack).
        return PlannedRoll(
            model, f"Dodge against {against}", "PH", self.profiles[model].ph, (), 1, None, against
        )

    def _engaged_allies(self, state: GameState, shooter: str, target: str) -> list[str]:
        placements = self._placements(state)
        side = state.model(shooter).side
        return [
            m.id for m in state.models
            if m.side == side and m.id != shooter and m.status != "dead"
            and self.sight.distance(placements, m.id, target) <= ENGAGED_GAP
        ]  # fmt: skip

    def _roll_dice(
        self, roll: PlannedRoll, rng: np.random.Generator
    ) -> tuple[list[int], list[int]]:
        side = RollSide(roll.sv, roll.burst)
        faces = [int(f) for f in rng.integers(1, 21, size=side.dice)]
        return faces, kept_ranks(side, faces)

    def _log(
        self,
        roll: PlannedRoll,
        faces: list[int],
        ranks: list[int],
        beaten_by: int | None,
        events: list[Event],
    ) -> None:
        events.append(
            Rolled(
                roll.model,
                roll.purpose,
                roll.attribute,
                roll.base,
                roll.modifiers,
                roll.sv,
                tuple(faces),
                _results(ranks, beaten_by),
            )
        )
        if roll.auto_fail:
            events.append(
                Missed(
                    roll.model, roll.target, roll.weapon.name if roll.weapon else "", roll.auto_fail
                )
            )

    def _normal(
        self, roll: PlannedRoll, events: list[Event], rng: np.random.Generator
    ) -> tuple[tuple[int, int], int]:
        """(non-critical hits, critical hits) and the number of failed dice."""
        faces, ranks = self._roll_dice(roll, rng)
        self._log(roll, faces, ranks, None, events)
        crits = sum(1 for r in ranks if r == CRIT)
        return (sum(1 for r in ranks if 0 < r < CRIT), crits), ranks.count(0)

    def _face_to_face(
        self, one: PlannedRoll, two: PlannedRoll, events: list[Event], rng: np.random.Generator
    ) -> tuple[tuple[int, int], tuple[int, int], int]:
        """Hits (non-critical, critical) that `one` takes and that `two` takes, and the
        number of `one`'s dice that failed."""
        faces1, ranks1 = self._roll_dice(one, rng)
        faces2, ranks2 = self._roll_dice(two, rng)
        outcome = resolve_ranks(ranks1, ranks2)
        self._log(one, faces1, ranks1, max(ranks2, default=0), events)
        self._log(two, faces2, ranks2, max(ranks1, default=0), events)
        return outcome.hits_on(Side.ONE), outcome.hits_on(Side.TWO), ranks1.count(0)

    def _hit(
        self,
        state: InfinityState,
        attacker: str,
        target: str,
        weapon: InfinityWeapon,
        hits: int,
        crits: int,
        events: list[Event],
        rng: np.random.Generator,
    ) -> InfinityState:
        for i in range(hits + crits):
            events.append(Hit(attacker, target, weapon.name, critical=i >= hits))
        t = state.model(target)
        profile = self.profiles[target]
        # Infinity: the exchange is simultaneous; a model dropped by an earlier hit of the
        # same Order still stands for the cover of the others.
        placements = self._placements(state)
        for model_id in (attacker, target):
            placements[model_id] = dataclasses.replace(placements[model_id], present=True)
        cover = self.sight.sighting(placements, attacker, target).cover is Cover.PARTIAL
        if is_direct_template(weapon):
            # Whether Partial Cover helps saves against a template is rule data (FACTS 3.6).
            cover = cover and bool(
                getattr(self.setup, "rule_values", {}).get("template_partial_cover_save")
            )
        ammo = weapon.ammo
        arm = profile.bts if weapon.save == "BTS" else profile.arm
        value = (
            weapon.damage if self.system is SaveSystem.CODEONE else weapon.possibility_of_survival
        )
        save_weapon = SaveWeapon(self.system, value, ammo)
        defence = SaveDefence(arm, cover)
        rolls = save_rolls(hits, crits, ammo)
        faces = [int(f) for f in rng.integers(1, 21, size=rolls)]
        wounds = sum(1 for f in faces if wounds_on(f, save_weapon, defence))
        threshold = save_threshold(save_weapon, defence)
        low = self.system is SaveSystem.CODEONE
        events.append(SaveRolled(target, tuple(faces), threshold, wounds, wound_on_low=low))
        if wounds == 0:
            return state
        total = t.wounds + wounds
        events.append(Wounded(target, wounds, total))
        # Infinity: Unconscious at exactly VITA/STR wounds; Dead beyond, or wounded
        # again while Unconscious.
        if t.status == "unconscious" or total > profile.wounds:
            after = "dead"
        elif total == profile.wounds:
            after = "unconscious"
        else:
            after = t.status
        if after != t.status:
            events.append(StateChanged(target, t.status, after))
        return state.with_model(t.replace(wounds=total, status=after))
