"""Infinity: what a BS Attack would be, before it is declared: its MODs, Success Value
and exact odds of hits, wounds, Unconscious and Dead for both models.

One computation for everyone who asks: `skirmish shoot --trials` prints it beside the
frequencies, the interactive table shows it while a target is hovered. The MODs and
SVs come from the engine's own roll construction, so they are the ones the dice would
be rolled against; the odds come from the exact Face-to-Face and save distributions
(game.rules.infinity.odds and saves)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from game.dice.exact import Distribution
from game.rules.infinity.data import InfinityWeapon
from game.rules.infinity.odds import F2FOutcome, RollSide, Side, face_to_face, normal_roll
from game.rules.infinity.saves import (
    Attack,
    Defence,
    Weapon,
    wounds_from_hits,
    wounds_taken,
)
from game.sequencer.events import Modifier
from game.sequencer.infinity import InfinityEngine, is_direct_template
from game.sequencer.sight import Cover, Placement
from game.sequencer.state import GameState

Point = tuple[float, float]

OUTCOMES = ("hit", "wounded", "unconscious", "dead")


@dataclass(frozen=True, slots=True)
class AttackRoll:
    """One side's roll of a BS Attack as the engine would build it."""

    model: str
    target: str
    weapon: str
    attribute: str
    base: int
    modifiers: tuple[Modifier, ...]
    sv: int
    burst: int
    auto_fail: str = ""


def attack_roll(
    engine: InfinityEngine,
    state: GameState,
    shooter: str,
    target: str,
    weapon: InfinityWeapon,
    *,
    reactive: bool = False,
    origin: Point | None = None,
) -> AttackRoll:
    """The MODs and SV of `shooter`'s BS Attack with `weapon` at `target` (full Burst;
    Burst 1 when `reactive`), from `origin` (default: where the shooter stands)."""
    roll = engine.planned_roll(
        state, shooter, target, weapon.name, reactive=reactive, origin=origin
    )
    return AttackRoll(
        shooter, target, weapon.name, roll.attribute, roll.base, roll.modifiers, roll.sv,
        roll.burst, roll.auto_fail,
    )  # fmt: skip


def reply_weapon(
    engine: InfinityEngine,
    state: GameState,
    target: str,
    attacker: str,
    moved: dict[str, Placement] | None = None,
) -> InfinityWeapon | None:
    """The first weapon `target` could shoot back at `attacker` with in ARO: it can act,
    sees the attacker inside its arc, and the weapon reaches (None: it cannot reply)."""
    t = state.model(target)
    if not engine.can_act(t):
        return None
    s = engine.sighting(state, target, attacker, moved)
    if not (s.lof and s.in_arc) or s.cover is Cover.TOTAL:
        return None
    for weapon in engine.weapons_of(target):
        if weapon.bands and weapon.range_mod(s.distance) is not None:
            return weapon
    return None


def _attack(engine: InfinityEngine, state: GameState, w: InfinityWeapon, shooter: str,
            victim: str) -> Attack:  # fmt: skip
    cover = engine.sighting(state, shooter, victim).cover is Cover.PARTIAL
    if w.template is not None:  # whether Partial Cover helps against a template is rule data
        cover = cover and bool(
            getattr(engine.setup, "rule_values", {}).get("template_partial_cover_save")
        )
    plan = engine.save_against(victim, w, cover)
    return Attack(plan.weapon, plan.defence)


def _hit_share(dist: Distribution[F2FOutcome], victim: Side) -> Fraction:
    """The chance that `victim` is hit at least once."""
    return sum(
        (Fraction(c, dist.total) for o, c in dist.items() if sum(o.hits_on(victim)) > 0),
        Fraction(0),
    )


def _parts(attack: Attack) -> tuple[Weapon, Defence]:
    return attack.weapon, attack.defence


def exact_odds(
    engine: InfinityEngine,
    state: GameState,
    attacker: str,
    target: str,
    weapon: InfinityWeapon,
    sv_attacker: int,
    reply: InfinityWeapon | None = None,
    sv_target: int = 0,
    burst: int | None = None,
) -> dict[str, dict[str, float]]:
    """Each model's chance to be hit, wounded, left Unconscious and Dead: `attacker`
    shoots `target` with `weapon` at `sv_attacker` (its full Burst unless `burst`);
    with `reply`, the target shoots back at `sv_target` with Burst 1 (Face-to-Face),
    otherwise it does not roll (a Normal roll)."""
    hits: dict[Side, Fraction] = {}
    wounds: dict[Side, Distribution[int]] = {}
    if is_direct_template(weapon):
        # Infinity: a Direct Template makes no roll; the target is hit, and its reply is
        # a Normal roll of its own (no Face-to-Face).
        hits[Side.TWO] = Fraction(1)
        wounds[Side.TWO] = wounds_from_hits(
            1, 0, *_parts(_attack(engine, state, weapon, attacker, target))
        )
        reply_roll = normal_roll(RollSide(sv_target, 1 if reply is not None else 0))
        # In the reply's Normal roll the target rolls as side one and hits side two.
        hits[Side.ONE] = Fraction(0) if reply is None else _hit_share(reply_roll, Side.TWO)
        wounds[Side.ONE] = (
            Distribution.certain(0)
            if reply is None
            else wounds_taken(
                reply_roll, {Side.ONE: _attack(engine, state, reply, target, attacker)}
            )[Side.TWO]
        )
    else:
        one = RollSide(sv_attacker, burst if burst is not None else weapon.burst)
        two = RollSide(sv_target, 1) if reply is not None else RollSide(0, 0)
        f2f = face_to_face(one, two)
        attacks = {Side.ONE: _attack(engine, state, weapon, attacker, target)}
        if reply is not None:
            attacks[Side.TWO] = _attack(engine, state, reply, target, attacker)
        wounds = wounds_taken(f2f, attacks)
        hits = {side: _hit_share(f2f, side) for side in Side}
    out: dict[str, dict[str, float]] = {}
    for model, side in ((attacker, Side.ONE), (target, Side.TWO)):
        m = state.model(model)
        vita = engine.profiles[model].wounds
        hit = hits[side]
        dist = wounds[side]
        p = {w: Fraction(c, dist.total) for w, c in dist.items()}
        wounded = sum((q for w, q in p.items() if w > 0), Fraction(0))
        # Infinity: Unconscious at exactly VITA wounds; Dead beyond, or hurt again
        # while Unconscious.
        if m.status == "unconscious":
            unconscious, dead = Fraction(0), wounded
        else:
            unconscious = sum((q for w, q in p.items() if m.wounds + w == vita), Fraction(0))
            dead = sum((q for w, q in p.items() if m.wounds + w > vita), Fraction(0))
        out[model] = {"hit": float(hit), "wounded": float(wounded),
                      "unconscious": float(unconscious), "dead": float(dead)}  # fmt: skip
    return out
