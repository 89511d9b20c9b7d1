"""`skirmish shoot` for Necromunda: one attack from the table as laid out, with its events
(hit roll, stray checks, scatter direction and distance, who was hit), or its shares over
many trials.

The attacker activates and turns to face its target (a Standing fighter may turn when
activated); a Blast weapon may aim at a point (`--at X,Y`); a Template weapon points at
the target or the point."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from game.commands._args import no_such_model
from game.commands.shoot import NO_REPLY, Shot, problem, refused, weapon_named
from game.errors import IllegalDeclaration
from game.scenario import Scenario
from game.sequencer.sentences import plural


def resolve(shot: Shot) -> dict[str, Any]:
    """The registry's "shoot" part: one shot (or blast) and its trials as a report."""
    if shot.reply:
        raise problem(shot.path, "--reply", NO_REPLY.format(system="Necromunda"))
    return necromunda_shot(
        shot.scenario, shot.path, shot.attacker, shot.target, shot.at, shot.weapon,
        shot.trials, shot.seed, shot.extra, shot.extra_at,
    )  # fmt: skip


def show(report: dict[str, Any]) -> None:
    print_necromunda(report)


def necromunda_shot(
    scenario: Scenario,
    path: Path,
    attacker: str,
    target: str | None,
    at: tuple[float, float] | None,
    weapon_name: str | None,
    trials: int,
    seed: int,
    extra: tuple[str, ...] = (),
    extra_at: tuple[tuple[float, float], ...] = (),
) -> dict[str, Any]:
    from game.dice.rng import make_rng
    from game.sequencer.events import Hit, Rolled, event_dict
    from game.sequencer.game import Game
    from game.sequencer.necromunda import Act, Action, NecromundaEngine, NecromundaState
    from game.sequencer.necromunda_types import UPRIGHT, Misfired

    ids = {m.id for m in scenario.models}
    for flag, value in (("--attacker", attacker), ("--target", target)):
        if value is not None and value not in ids:
            raise problem(path, flag, no_such_model(value, ids))
    for value in extra:
        if value not in ids:
            raise problem(path, "--extra", no_such_model(value, ids))
    if (target is None) == (at is None):
        raise problem(path, "--target", "give a target (--target) or a point (--at X,Y)")
    game = Game(scenario, seed)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine) and isinstance(game.state, NecromundaState)
    state = engine.ready_to_shoot(game.state, attacker)
    aimed = f"--target {target}" if target else f"--at {at[0]:g},{at[1]:g}" if at else ""
    place = f"--attacker {attacker} {aimed}"
    if extra:
        place += " --extra " + ",".join(extra)
    if extra_at:
        place += "".join(f" --extra-at {x:g},{y:g}" for x, y in extra_at)
    me = state.model(attacker)
    try:
        named = weapon_named(weapon_name, engine.weapons.get(attacker, ()))
        weapon = engine.weapon(attacker, named)
        aim_at = state.model(target).at if target is not None else at
        assert aim_at is not None
        facing = round(math.degrees(math.atan2(aim_at[1] - me.at[1], aim_at[0] - me.at[0])), 6)
        turn = facing if me.status in UPRIGHT and math.dist(aim_at, me.at) > 1e-9 else None
        if at is not None and math.dist(at, me.at) < engine.profiles[attacker].radius:
            raise IllegalDeclaration(f"{attacker} cannot aim at a point under its own base")
        if weapon.is_template and (extra or extra_at):
            raise IllegalDeclaration(f"the {weapon.name} lays a template: no extra hits to place")
        if extra and weapon.blast_diameter is not None and weapon.rapid_fire > 0:
            raise problem(
                path,
                "--extra",
                f"the {weapon.name} is a Rapid Fire Blast weapon: place its "
                'extra blasts at points with --extra-at X,Y (within 3" of the aimed point)',
            )
        if weapon.is_template:
            # laid toward the fighter named, which the engine refuses where no shot may
            # be aimed at it (a friend, one Out of Action: FACTS 2.3, 2.8)
            direction = facing if turn is not None else me.facing
            action = Action.flame(weapon.name, direction, target=target)
        else:
            blind = me.status == "pinned"
            action = Action.shoot(
                weapon.name, target, at=at, blind=blind, extra=extra, extra_at=extra_at
            )
        declaration = Act(attacker, action, turn_to=turn)
        aimed_state = state if turn is None else state.with_model(me.replace(facing=turn))
        game.state = state
        events = game.declare(declaration)
    except IllegalDeclaration as err:
        raise refused(scenario, path, place, err) from None
    report: dict[str, Any] = {
        "ruleset": "necromunda",
        "attacker": attacker,
        "target": target,
        "at": list(at) if at is not None else None,
        "weapon": weapon.name,
        "extra": list(extra),
        "extra_at": [list(p) for p in extra_at],
        "seed": seed,
        "rolls": [
            {
                "model": e.model,
                "purpose": e.purpose,
                "attribute": e.attribute,
                "base": e.base,
                "modifiers": [{"source": m.source, "value": m.value} for m in e.modifiers],
                "target": e.target,
                "faces": list(e.faces),
                "results": list(e.results),
            }
            for e in events
            if isinstance(e, Rolled)
        ],
        "events": [event_dict(e) for e in events],
        # every fighter on the table (a sentence may name one only passed over)
        "fighters": sorted(m.id for m in state.models),
        # how many of the placements the dice used (the rest of the hits go to the target)
        "extra_used": _extra_used(events, attacker, target, len(extra), len(extra_at)),
        # seed 004: who a miss may hit instead, in the order they are checked
        "at_risk": (
            engine.stray_risk(aimed_state, attacker, weapon, target, blind=me.status == "pinned")
            if target is not None
            else []
        ),
    }
    if trials:
        counts = {m.id: dict.fromkeys(KEYS, 0) for m in state.models}
        misfires = 0
        rng = make_rng(seed)
        for _ in range(trials):
            after, trial = engine.apply(state, declaration, rng=rng)
            for model in {e.target for e in trial if isinstance(e, Hit)}:
                counts[model]["hit"] += 1
            for m in after.models:
                fared = _fared(state.model(m.id), m)
                if fared != NOT_COUNTED:
                    counts[m.id][fared] += 1
            misfires += any(isinstance(e, Misfired) for e in trial)
        exact, why, strays = _exact(engine, aimed_state, attacker, target, weapon, events, extra)
        report["trials"] = trials
        # a row for the target and for every fighter the shot may reach (the attacker
        # only when it can be hit: a blast's misfire)
        report["models"] = {
            m: {k: v / trials for k, v in tally.items()}
            for m, tally in counts.items()
            if m == target or any(tally.values()) or any(exact.get(m, {}).values())
        }
        report["exact"] = exact
        if why:
            report["no_exact"] = why
        if strays:
            report["no_exact_for"] = strays
        report["blast"] = weapon.blast_diameter is not None
        report["misfires"] = misfires / trials
    return report


# What each fighter's trials count, beside "hit": how it fared (`_fared`).
KEYS = ("hit", "wounded", "seriously_injured", "out_of_action")
# The columns' headings: a Wound or Flesh Wound taken by a fighter still up is "wounded,
# not down" (a 2-Wound leader hit read hit 0.478, SI 0, OOA 0: tester9).
HEADINGS = {"wounded": "wounded, not down"}
NOT_COUNTED = "unchanged"


def _fared(before: Any, after: Any) -> str:
    """How a fighter fared in one trial, as a key of KEYS (NOT_COUNTED: as it was, or
    pinned only): out of action or seriously injured where it went so, else "wounded"
    where it took a Wound or a Flesh Wound and is still up."""
    from game.sequencer.necromunda_types import FLESH_WOUNDS, OUT_OF_ACTION, SERIOUSLY_INJURED

    if after.status != before.status and after.status == OUT_OF_ACTION:
        return "out_of_action"
    if after.status != before.status and after.status == SERIOUSLY_INJURED:
        return "seriously_injured"
    down = after.status in (OUT_OF_ACTION, SERIOUSLY_INJURED)
    hurt = after.wounds > before.wounds or after.marker(FLESH_WOUNDS) > before.marker(FLESH_WOUNDS)
    return "wounded" if hurt and not down else NOT_COUNTED


def _exact(
    engine: Any, state: Any, attacker: str, target: str | None, weapon: Any,
    events: list[Any], extra: tuple[str, ...],
) -> tuple[dict[str, dict[str, float]], str, list[str]]:  # fmt: skip
    """The exact chances (hit, Seriously Injured, Out of Action) of the fighters a shot
    at a model may reach, where the exact odds follow the dice the trials roll: the
    Cool test of target priority (FACTS 2.3: 2D6 >= Cl, else the closer enemy is shot),
    the hit roll, a Rapid Fire weapon's Firepower holes, wound, save and Injury dice,
    and for a weapon without Rapid Fire each fighter a miss may stray into (seed 004:
    D6 1-3 hits it, checked nearest first); for a template, each fighter under it (no hit
    roll; Flak 5+ against it and the cover from the firer, `template_outcome`). None,
    and why, for a blast (it scatters) or placed extra hits. A Rapid Fire miss strays
    once per bullet hole, so a fighter may take several; that is not in them: those
    fighters (the third value) get no exact figure, and the second value says why. None
    for a Knockback weapon (FACTS 2.9: its +1 Damage for a push stopped short is known
    only as the push goes). Blaze's fire burns later, at the fighter's activation: the
    figures are the attack's."""
    from game.sequencer.necromunda_fire import ARC

    knockback = weapon.trait("Knockback") is not None  # FACTS 2.9: "+1 D if blocked"
    if knockback and weapon.blast_diameter is None:  # a blast's scatter is said first
        return {}, "Knockback's +1 Damage for a push stopped short is not in them", []
    if weapon.is_template:  # no hit roll: everyone under it is hit (FACTS 2.5 saves)
        from game.ai.necromunda import cover_bonus
        from game.sequencer.necromunda_types import TemplatePlaced

        placed = next((e for e in events if isinstance(e, TemplatePlaced)), None)
        under = placed.under if placed is not None else ()
        odds = {
            m: _outcome(engine, weapon, state.model(m), 1.0,
                        cover_bonus(engine, state, attacker, state.model(m)))
            for m in under
        }  # fmt: skip
        return {m: dict(zip(KEYS, v, strict=True)) for m, v in odds.items()}, "", []
    if target is None or weapon.blast_diameter is not None:
        return {}, "a blast's scatter is not in them", []
    if extra:
        return {}, "placed extra hits are not in them", []
    blind = state.model(attacker).status == "pinned"
    closer = engine.closer_target(state, attacker, weapon, target, 360.0 if blind else ARC, blind)
    shots = [(target, 1.0)]
    if closer is not None:
        cl = engine.profiles[attacker].cl
        passed = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= max(cl, 3)) / 36
        shots = [(target, passed), (closer, 1.0 - passed)]
    out: dict[str, list[float]] = {}
    strays: list[str] = []
    for aimed, weight in shots:
        for m, shares in _one_shot(engine, state, attacker, aimed, weapon, blind).items():
            tally = out.setdefault(m, [0.0] * len(KEYS))
            for i, share in enumerate(shares):
                tally[i] += weight * share
        if weapon.rapid_fire:
            risk = engine.stray_risk(state, attacker, weapon, aimed, blind=blind)
            strays += [m for m in risk if m not in strays]
    exact = {m: dict(zip(KEYS, v, strict=True)) for m, v in out.items() if m not in strays}
    why = "a Rapid Fire weapon's stray shots (a check per bullet hole) are not in them"
    return exact, why if strays else "", strays


def _outcome(
    engine: Any, weapon: Any, victim: Any, chance: float, bonus: int = 0
) -> tuple[float, ...]:
    """The chances of KEYS of one attack on `victim` whose hit roll passes with `chance`
    (game.ai.necromunda: `attack_outcome` and `wounded_outcome`)."""
    from game.ai.necromunda import attack_outcome, wounded_outcome

    hit, si, ooa = attack_outcome(engine, weapon, victim, chance, bonus)
    return hit, wounded_outcome(engine, weapon, victim, chance, bonus), si, ooa


def _one_shot(
    engine: Any, state: Any, attacker: str, target: str, weapon: Any, blind: bool
) -> dict[str, tuple[float, ...]]:
    """`_exact` of a shot at `target` with no Cool test before it."""
    from game.rules.necromunda.odds import hit_chance
    from game.sequencer.necromunda_targeting import STRAY_HITS_ON

    plan = engine.hit_plan(state, attacker, weapon, target=target, blind=blind)
    bs = engine.profiles[attacker].bs
    chance = 0.0 if plan.out_of_range else float(hit_chance(bs, bs - plan.need))
    out = {target: _outcome(engine, weapon, state.model(target), chance)}
    if not weapon.rapid_fire:
        stray = STRAY_HITS_ON / 6
        left = 1.0 - chance  # a miss, not yet gone astray
        for m in engine.stray_risk(state, attacker, weapon, target, blind=blind):
            out[m] = _outcome(engine, weapon, state.model(m), left * stray)
            left *= 1.0 - stray
    return out


def _extra_used(
    events: list[Any], attacker: str, target: str | None, hits: int, blasts: int
) -> int:
    """How many placed extra hits (or blasts) the shot made: Rapid Fire scores a hit per
    bullet hole on a hit, the first on the target (FACTS 2.6); the extra blasts placed on
    a hit (FACTS 2.7)."""
    from game.sequencer.events import Missed
    from game.sequencer.necromunda_types import BlastPlaced, FirepowerRolled

    if blasts:
        return sum(
            1 for e in events if isinstance(e, BlastPlaced) and e.reason == "extra Rapid Fire blast"
        )
    missed = any(isinstance(e, Missed) and e.attacker == attacker for e in events)
    holes = next((e.holes for e in events if isinstance(e, FirepowerRolled)), 0)
    return 0 if missed or target is None else min(hits, max(0, holes - 1))


def _placements(report: dict[str, Any]) -> list[str]:
    """The placements asked for and what the dice made of them, as lines."""
    from game.sequencer.sentences import listed, who

    lines = []
    asked = report.get("extra") or []
    points = [f"({x:g}, {y:g})" for x, y in report.get("extra_at") or []]
    used = report.get("extra_used", 0)
    if asked:
        counts = {m: asked.count(m) for m in asked}
        shares = listed(f"{n} on {who(m)}" if n > 1 else who(m) for m, n in counts.items())
        lines.append(f"extra hits to place, in order: {shares}")
        kind = "extra hit"
    elif points:
        lines.append(f"extra blasts to place, in order, at {listed(points)}")
        kind = "extra blast"
    else:
        return lines
    placed = len(asked) or len(points)
    if used < placed:
        lines.append(f"the dice made {used} of the {placed} placed {kind}s")
    return lines


# The events the first line says (who shoots what, turned to face it); the text tells
# every other event the shot made, whatever its kind: a push, a fire caught, a Nerve test
# (an allow-list of kinds left Knockback and Blaze out: retest14).
SAID_ABOVE = frozenset({"Declared", "Turned"})


def print_necromunda(report: dict[str, Any]) -> None:
    from rich.table import Table

    from game.commands._console import for_people
    from game.rules.registry import find_ruleset
    from game.sequencer.sentences import Teller, ids_in, listed, spoken_with, who

    console = for_people()
    ids = ids_in(report["events"]) | {report["attacker"], *report["at_risk"]}
    ids |= set(report.get("fighters", ()))
    point = report["at"]
    aimed = who(report["target"]) if report["target"] else f"the point ({point[0]:g}, {point[1]:g})"
    console.print(f"[bold]{who(report['attacker'])}[/] shoots {aimed} with {report['weapon']}")
    placements = _placements(report)
    for line in placements[:1]:
        console.print(f"  {line}", markup=False)
    if report["at_risk"]:
        at_risk = listed(report["at_risk"])
        console.print(f"  a miss may stray into, nearest first: {at_risk}", markup=False)
    # every event, in order: what it means, with the table's names (scenery too)
    teller = Teller(find_ruleset("necromunda"), spoken_with(ids))
    for e in report["events"]:
        said = teller.say(e)
        if said and e["event"] not in SAID_ABOVE:
            console.print(f"  {said}", markup=False)
    for line in placements[1:]:
        console.print(f"  {line}", markup=False)
    if "models" in report:
        exact = report.get("exact") or {}
        title = plural(report["trials"], "trial") + (" (exact in brackets)" if exact else "")
        if report.get("blast"):
            title += f"; misfires {report['misfires']:.3f}"
        table = Table(title=title)
        table.add_column("fighter")
        for key in KEYS:
            table.add_column(HEADINGS.get(key, key.replace("_", " ")), justify="right")
        for model, share in report["models"].items():
            known = exact.get(model)
            shares = (f"{share[k]:.3f}" + (f" ({known[k]:.3f})" if known else "") for k in KEYS)
            table.add_row(who(model), *shares)
        console.print(table)
        if report.get("no_exact_for"):
            fighters = listed(who(m) for m in report["no_exact_for"])
            console.print(f"  no exact odds for {fighters}: {report['no_exact']}", markup=False)
        elif report.get("no_exact"):
            console.print(f"  no exact odds beside the shares: {report['no_exact']}")
