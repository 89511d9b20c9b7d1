"""Infinity attack resolution: how the skills of one Order and its AROs resolve.

BS Attack rolls with every MOD (range, Partial Cover, Mimetism, close combat), Normal
and Face-to-Face rolls, Dodges, Direct Template Weapons, shooting into close combat,
saves (N5 and Code One), wounds and the states they lead to (seeds 000/002/003, FACTS
3.2-3.6). Mixed into `InfinityEngine`, which runs the Order Expenditure Sequence.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from game.errors import IllegalDeclaration
from game.geometry import BodyId
from game.geometry.measures import blast_hits, template_hits
from game.rules.infinity.data import InfinityProfile, InfinityWeapon
from game.rules.infinity.odds import (
    CRIT,
    FACES,
    RollSide,
    Side,
    cap_mod,
    kept_ranks,
    resolve_ranks,
)
from game.rules.infinity.saves import (
    PARTIAL_COVER_SAVE,
    Ammo,
    SaveSystem,
    not_rolled,
    save_rolls,
    save_threshold,
    wounds_on,
    wounds_on_low,
)
from game.rules.infinity.saves import Defence as SaveDefence
from game.rules.infinity.saves import Weapon as SaveWeapon
from game.sequencer.declarations import carried
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
from game.sequencer.faces import faces as roll_faces
from game.sequencer.infinity_orders import (
    ARO_BURST,
    CLOSE_COMBAT_MOD,
    ENGAGED_GAP,
    PARTIAL_COVER_MOD,
    SPECULATIVE_MOD,
    CircleTemplatePlaced,
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
from game.sequencer.state import GameState, renew
from game.words import joined


def is_impact_template(weapon: InfinityWeapon) -> bool:
    """An Impact Template Weapon: an attack roll at a Main Target in LoF, then the
    Circular template centred on it; each trooper it covers is attacked (FACTS 3.6)."""
    return weapon.template == "circular" and bool(weapon.bands)


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
class Damage:
    """Hits one attacker scored on one trooper, and the placements of the moment the
    attack was made (the save reads its cover there)."""

    attacker: str
    target: str
    weapon: InfinityWeapon
    hits: int
    crits: int = 0
    placements: Mapping[str, Placement] | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class LaidTemplate:
    """A Direct Template where it lies: from `start` toward `direction` (degrees),
    whom it affects, and the placements it was laid in."""

    start: Point
    direction: float
    length: float
    width: float
    affected: tuple[str, ...]
    placements: Mapping[str, Placement] = field(compare=False)


@dataclass(frozen=True, slots=True)
class SavePlan:
    """A trooper's saving roll against one weapon, before the dice."""

    weapon: SaveWeapon
    defence: SaveDefence
    attribute: str  # ARM, ARM/2 (AP), BTS, PH...
    modifiers: tuple[Modifier, ...]


@dataclass(frozen=True, slots=True)
class PlannedRoll:
    """One side's dice against one opponent (or none), with every MOD, before rolling.

    `engaged`: the roller's allies in base contact with the target where the roll is
    made (each gives -6; failed dice hit them); `placements`: where everyone stood when
    the roll was made, which the target's save reads its cover from."""

    model: str
    purpose: str
    attribute: str
    base: int
    modifiers: tuple[Modifier, ...]
    burst: int
    weapon: InfinityWeapon | None  # None: Dodge
    target: str
    auto_fail: str = ""  # reason the dice cannot succeed (out of range)
    engaged: tuple[str, ...] = ()
    placements: Mapping[str, Placement] | None = field(default=None, compare=False, repr=False)
    centre: Point | None = None  # an Impact Template's centre when not on the target

    @property
    def sv(self) -> int:
        if self.auto_fail:
            return 0
        return self.base + cap_mod(sum(m.value for m in self.modifiers))

    @property
    def rolled(self) -> bool:
        """Whether any die is rolled: not beyond the weapon's range (seed 000), not at a
        Success Value below 1 (seed 003: "the player does not roll the dice")."""
        return not self.auto_fail and self.sv >= 1 and self.burst > 0

    @property
    def not_rolled_because(self) -> str:
        return self.auto_fail or f"SV {self.sv}: an automatic failure, not rolled"

    def damage(self, hits: tuple[int, int]) -> Damage:
        """The hits (non-critical, critical) this roll scored on its target."""
        assert self.weapon is not None
        return Damage(self.model, self.target, self.weapon, *hits, self.placements)

    def into_close_combat(self, fails: int, skill: Skill | None) -> list[Damage]:
        """Infinity: shooting into close combat, every failed BS Attack roll hits an
        allied trooper engaged with the target, the shooter's player choosing which
        (seed 000; `skill.allies_hit` gives the order, the rest follow)."""
        if not self.engaged or not fails or self.weapon is None:
            return []
        chosen = [a for a in (skill.allies_hit if skill else ()) if a in self.engaged]
        pick = chosen + [a for a in self.engaged if a not in chosen]
        return [
            Damage(self.model, pick[i % len(pick)], self.weapon, 1, 0, self.placements)
            for i in range(fails)
        ]


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
        out = state.placements(("dead",))  # built once per state
        if moved:
            out.update(moved)
        return out

    def _weapon(self, model_id: str, name: str | None) -> InfinityWeapon:
        weapon = self.setup.weapons[carried(self.weapons[model_id], model_id, name)]
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
                if is_impact_template(weapon):
                    active_rolls = self._impact(active_rolls, events)
        reaction_rolls: dict[str, PlannedRoll] = {}
        under_aro_templates: list[PlannedRoll] = []
        reaction_skills = {r.model: r.skill for r in order.reactions}
        template_aros: list[Reaction] = []
        for r in order.reactions:
            if r.skill.kind is SkillKind.ATTACK and is_direct_template(
                self._weapon(r.model, r.skill.weapon)
            ):
                # Infinity: a Direct Template makes no roll, so no Face-to-Face with it.
                template_aros.append(r)
            elif r.skill.kind is SkillKind.ATTACK:
                rolls = self._attack_rolls(
                    state,
                    r.model,
                    state.model(r.model).at,
                    state.model(r.model).facing,
                    r.skill,
                    reactive=True,
                    target_at=r.at,
                )
                if is_impact_template(self._weapon(r.model, r.skill.weapon)):
                    rolls = self._impact(rolls, events)
                reaction_rolls[r.model] = rolls.pop(active.id)
                under_aro_templates.extend(rolls.values())
            elif r.skill.kind is SkillKind.DODGE:
                reaction_rolls[r.model] = self._dodge_roll(r.model, active.id)
        damage: list[Damage] = []
        if template_attack is not None:
            weapon, origin, main = template_attack
            affected, where = self._lay_template(
                state, active.id, origin, order.facing, weapon, main, {}, events
            )
            for a in affected:
                theirs = reaction_rolls.get(a)
                if theirs is not None and theirs.weapon is None:  # it Dodges the template
                    del reaction_rolls[a]
                    if self._dodges_template(a, active.id, where, events, rng):
                        continue
                damage.append(Damage(active.id, a, weapon, 1, 0, where))
        for r in template_aros:
            weapon = self._weapon(r.model, r.skill.weapon)
            user = state.model(r.model)
            moved = {active.id: Placement(r.at, order.facing)}
            affected, where = self._lay_template(
                state, r.model, user.at, user.facing, weapon, active.id, moved, events
            )
            for a in affected:
                if (
                    a == active.id
                    and dodging
                    and self._dodges_template(a, r.model, where, events, rng)
                ):
                    continue
                damage.append(Damage(r.model, a, weapon, 1, 0, where))
        for target, mine in active_rolls.items():
            theirs = reaction_rolls.pop(target, None)
            if theirs is not None:  # both affect each other: Face-to-Face
                hits_me, hits_them, fails, their_fails = self._face_to_face(
                    mine, theirs, events, rng
                )
                if theirs.weapon is not None:
                    damage.append(theirs.damage(hits_me))
                    damage.extend(
                        theirs.into_close_combat(their_fails, reaction_skills[theirs.model])
                    )
            else:
                hits_them, fails = self._normal(mine, events, rng)
            if mine.weapon is not None:
                damage.append(mine.damage(hits_them))
                damage.extend(mine.into_close_combat(fails, attack))
        for reactor, roll in reaction_rolls.items():
            if roll.weapon is None:  # a Dodge against an attack that was not made: no roll
                continue
            if dodging:
                # The active trooper's Dodge against an attack that targets it: Face-to-Face.
                dodge = self._dodge_roll(active.id, reactor)
                _, hits_me, fails, _ = self._face_to_face(roll, dodge, events, rng)
            else:
                hits_me, fails = self._normal(roll, events, rng)
            damage.append(roll.damage(hits_me))
            damage.extend(roll.into_close_combat(fails, reaction_skills[reactor]))
        for roll in under_aro_templates:  # the others under an ARO's Impact Template
            hits, _ = self._normal(roll, events, rng)
            damage.append(roll.damage(hits))
        for d in damage:
            if d.hits + d.crits:
                state = self._hit(state, d, events, rng)
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
        """The rolls of a BS Attack from `origin`, each target where `target_at` puts it
        (default: where it stands): the situation its MODs, the engaged allies and the
        target's save are all read from."""
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
            if skill.speculative:
                # Infinity: a Speculative Attack, -6 plus range; no LoF, so no cover MOD
                mods.append(Modifier("speculative attack", SPECULATIVE_MOD))
            elif s.cover is Cover.PARTIAL:
                mods.append(Modifier("partial cover", PARTIAL_COVER_MOD))
            mimetism = self.profiles[target_id].mimetism
            if mimetism:
                mods.append(Modifier("mimetism", mimetism))
            # Infinity: -6 per allied trooper engaged with the target (seed 000), judged
            # where the shot is taken (an ARO: where the active trooper was then).
            engaged = self._engaged_allies(state, shooter, target_id, placements)
            if engaged:
                mods.append(
                    Modifier(
                        f"close combat ({len(engaged)} allies)", CLOSE_COMBAT_MOD * len(engaged)
                    )
                )
            out[target_id] = PlannedRoll(
                shooter, f"BS Attack ({weapon.name}) at {target_id}", "BS", profile.bs, tuple(mods),
                ARO_BURST if reactive else dice, weapon, target_id, auto_fail,
                tuple(engaged), placements, skill.at,
            )  # fmt: skip
        return out

    # -- Impact Template Weapons (FACTS 3.6) ----------------------------------------

    def _circle_radius(self, weapon: InfinityWeapon) -> float:
        """Half the Circular template's diameter, from the rule data."""
        values = getattr(self.setup, "rule_values", {})
        try:
            return float(values["circular_template_diameter"]) / 2
        except KeyError:
            raise IllegalDeclaration(
                f"the size of {weapon.name}'s Circular template is not in the rule data"
            ) from None

    def under_circle(
        self,
        shooter: str,
        weapon: InfinityWeapon,
        centre: Point,
        placements: Mapping[str, Placement],
    ) -> tuple[str, ...]:
        """Troopers whose base the Circular template centred at `centre` touches, with no
        wall between them and the centre (the user itself is never under its own)."""
        table = self.sight.table_at(dict(placements))
        radius = self._circle_radius(weapon)
        hits = blast_hits(table, centre, radius, exclude=(BodyId(shooter),))
        return tuple(str(b) for b in hits)

    def _impact(self, rolls: dict[str, PlannedRoll], events: list[Event]) -> dict[str, PlannedRoll]:
        """Infinity Impact Template: the Circular template is centred on the Main
        Target where the attack is made; every other trooper it covers is attacked by a
        roll of its own, with the MODs of the attack at the Main Target (FACTS 3.6)."""
        [(main, roll)] = rolls.items()
        assert roll.weapon is not None and roll.placements is not None
        centre = roll.centre if roll.centre is not None else roll.placements[main].at
        affected = self.under_circle(roll.model, roll.weapon, centre, roll.placements)
        diameter = 2 * self._circle_radius(roll.weapon)
        on = main if roll.centre is None else ""  # centred on the Main Target's place
        events.append(CircleTemplatePlaced(roll.model, roll.weapon.name, centre, diameter,
                                           affected, on))  # fmt: skip
        out = {main: roll}
        for a in affected:
            if a != main:
                out[a] = renew(
                    roll, purpose=f"{roll.purpose.split(' at ')[0]} at {a} (under the template)",
                    target=a, engaged=(),
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
    ) -> LaidTemplate:
        """Infinity: a teardrop with its narrow end touching the edge of the user's base,
        laid toward the target; everyone it touches with no wall between is affected,
        and it may not cover a friend."""
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
        if friends:  # FACTS: friendly troopers may not be covered
            allied = "an allied trooper" if len(friends) == 1 else "allied troopers"
            raise IllegalDeclaration(
                f"{weapon.name}'s template would cover {joined(friends)}, {allied} ({side})"
            )
        return LaidTemplate(start, direction, length, width, affected, placements)

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
    ) -> tuple[tuple[str, ...], Mapping[str, Placement]]:
        """Lay the template and log it: who it affects, and the placements it was laid in
        (the saves read their cover there)."""
        t = self._template(state, shooter, at, facing, weapon, target, moved)
        events.append(
            TemplatePlaced(shooter, weapon.name, t.start, t.direction, t.length, t.width,
                           t.affected)
        )  # fmt: skip
        return t.affected, t.placements

    def _dodges_template(
        self,
        model: str,
        user: str,
        placements: Mapping[str, Placement],
        events: list[Event],
        rng: np.random.Generator,
    ) -> bool:
        """Infinity: Dodging a Direct Template is a Normal PH roll (with a MOD from the
        rule data when the dodger has no LoF to the template's user where it is laid)."""
        mods: list[Modifier] = []
        value = getattr(self.setup, "rule_values", {}).get("dodge_template_without_lof_mod")
        if value and not self.sight.sighting(dict(placements), model, user).lof:
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

    def _engaged_allies(
        self,
        state: GameState,
        shooter: str,
        target: str,
        placements: Mapping[str, Placement] | None = None,
    ) -> list[str]:
        """The shooter's allies in base contact with the target, placed by `placements`
        (default: where `state` has them)."""
        where = dict(placements) if placements is not None else self._placements(state)
        side = state.model(shooter).side
        return [
            m.id for m in state.models
            if m.side == side and m.id != shooter and m.status != "dead"
            and self.sight.distance(where, m.id, target) <= ENGAGED_GAP
        ]  # fmt: skip

    def _roll_dice(
        self, roll: PlannedRoll, rng: np.random.Generator
    ) -> tuple[list[int], list[int]]:
        """Faces and kept ranks; no dice at all when the roll is not made (out of range,
        SV below 1: the rules say they fail without rolling)."""
        if not roll.rolled:
            return [], []
        side = RollSide(roll.sv, roll.burst)
        faces = roll_faces(rng, FACES, side.dice)
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
        if not roll.rolled:
            events.append(
                Missed(
                    roll.model, roll.target, roll.weapon.name if roll.weapon else "",
                    roll.not_rolled_because,
                )
            )  # fmt: skip

    def _normal(
        self, roll: PlannedRoll, events: list[Event], rng: np.random.Generator
    ) -> tuple[tuple[int, int], int]:
        """(non-critical hits, critical hits) and the number of dice rolled that failed."""
        faces, ranks = self._roll_dice(roll, rng)
        self._log(roll, faces, ranks, None, events)
        crits = sum(1 for r in ranks if r == CRIT)
        return (sum(1 for r in ranks if 0 < r < CRIT), crits), ranks.count(0)

    def _face_to_face(
        self, one: PlannedRoll, two: PlannedRoll, events: list[Event], rng: np.random.Generator
    ) -> tuple[tuple[int, int], tuple[int, int], int, int]:
        """Hits (non-critical, critical) that `one` takes and that `two` takes, and the
        number of dice rolled that failed on each side."""
        faces1, ranks1 = self._roll_dice(one, rng)
        faces2, ranks2 = self._roll_dice(two, rng)
        outcome = resolve_ranks(ranks1, ranks2)
        self._log(one, faces1, ranks1, max(ranks2, default=0), events)
        self._log(two, faces2, ranks2, max(ranks1, default=0), events)
        return (
            outcome.hits_on(Side.ONE), outcome.hits_on(Side.TWO), ranks1.count(0),
            ranks2.count(0),
        )  # fmt: skip

    # -- saves and wounds (FACTS 3.2, 3.3) ---------------------------------------

    def save_against(self, target: str, weapon: InfinityWeapon, partial_cover: bool) -> SavePlan:
        """What `target` saves a hit of `weapon` with: ARM or BTS against the weapon's
        DAM/PS, or a Normal roll against another attribute plus the weapon's MOD."""
        profile = self.profiles[target]
        value = (
            weapon.damage if self.system is SaveSystem.CODEONE else weapon.possibility_of_survival
        )
        save_weapon = SaveWeapon(self.system, value, weapon.ammo)
        mods: list[Modifier] = []
        if weapon.save in ("ARM", "BTS"):
            arm = profile.bts if weapon.save == "BTS" else profile.arm
            defence = SaveDefence(arm, partial_cover)
            attribute = f"{weapon.save}/2" if weapon.ammo is Ammo.AP else weapon.save
            if partial_cover:
                # N5: +3 to the save; CodeOne: -3 to the Attack Damage (FACTS 3.2)
                low = self.system is SaveSystem.CODEONE
                mods.append(
                    Modifier("partial cover", -PARTIAL_COVER_SAVE if low else PARTIAL_COVER_SAVE)
                )
            return SavePlan(save_weapon, defence, attribute, tuple(mods))
        # Infinity: a save against another attribute is a Normal roll against the
        # attribute plus MOD (FACTS 3.2: PH-6), Partial Cover adding its +3.
        if weapon.save_mod:
            mods.append(Modifier(weapon.name, weapon.save_mod))
        sv = getattr(profile, weapon.save.lower()) + cap_mod(sum(m.value for m in mods))
        if partial_cover:
            mods.append(Modifier("partial cover", PARTIAL_COVER_SAVE))
        defence = SaveDefence(sv, partial_cover, attribute=True)
        return SavePlan(save_weapon, defence, weapon.save, tuple(mods))

    def _hit(
        self, state: InfinityState, d: Damage, events: list[Event], rng: np.random.Generator
    ) -> InfinityState:
        attacker, target, weapon = d.attacker, d.target, d.weapon
        for i in range(d.hits + d.crits):
            events.append(Hit(attacker, target, weapon.name, critical=i >= d.hits))
        t = state.model(target)
        profile = self.profiles[target]
        # Infinity: one shot, one cover: the save reads Partial Cover where the attack was
        # made, as its BS MOD did (seed 000). The exchange is simultaneous: a model
        # dropped by an earlier hit of the same Order still stands for the cover of the
        # others.
        placements = dict(d.placements) if d.placements is not None else self._placements(state)
        for model_id in (attacker, target):
            placements[model_id] = renew(placements[model_id], present=True)
        cover = self.sight.sighting(placements, attacker, target).cover is Cover.PARTIAL
        if weapon.template is not None:
            # Whether Partial Cover helps saves against a template is rule data (FACTS 3.6).
            cover = cover and bool(
                getattr(self.setup, "rule_values", {}).get("template_partial_cover_save")
            )
        plan = self.save_against(target, weapon, cover)
        rolls = save_rolls(d.hits, d.crits, weapon.ammo)
        if not_rolled(plan.weapon, plan.defence):
            # Infinity: a Success Value below 1 fails without rolling.
            faces: list[int] = []
            wounds = rolls
        else:
            faces = roll_faces(rng, FACES, rolls)
            wounds = sum(1 for f in faces if wounds_on(f, plan.weapon, plan.defence))
        threshold = save_threshold(plan.weapon, plan.defence)
        low = wounds_on_low(plan.weapon, plan.defence)
        events.append(
            SaveRolled(target, tuple(faces), threshold, wounds, low, plan.attribute,
                       plan.modifiers)
        )  # fmt: skip
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
