"""`skirmish shoot` for Infinity: the attacker's BS Attack with its full Burst at the
target; with --reply the target answers with a BS Attack ARO (Face-to-Face), otherwise
it stays idle (Normal roll). With --trials N the attack is resolved N times from the
same declarations and the frequencies are printed beside the exact odds. The registry's
"shoot" part for Infinity."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from game.commands._args import no_such_model
from game.commands.shoot import Shot, no_extra_hits, problem, refused, weapon_named
from game.errors import IllegalDeclaration
from game.scenario import Scenario
from game.sequencer.sentences import plural


def resolve(shot: Shot) -> dict[str, Any]:
    """One attack (or its trials) as a JSON-ready report."""
    if shot.at is not None:
        why = "Infinity attacks a model, not a point"
        said = f"{why}: leave --at out" if shot.target else f"{why}: give it as --target ID"
        raise problem(shot.path, "--at", said)
    if shot.target is None:
        raise problem(shot.path, "--target", "give the target's id")
    no_extra_hits(shot, "Infinity has no Rapid Fire extra hits: a Burst splits at declaration")
    ids = {m.id for m in shot.scenario.models}
    for flag, value in (("--attacker", shot.attacker), ("--target", shot.target)):
        if value not in ids:
            raise problem(shot.path, flag, no_such_model(value, ids))
    return _infinity(
        shot.scenario, shot.path, shot.attacker, shot.target, shot.weapon, shot.reply,
        shot.trials, shot.seed,
    )  # fmt: skip


def _rolls(events: list[Any]) -> list[dict[str, Any]]:
    from game.sequencer.events import Rolled

    return [
        {
            "model": e.model,
            "purpose": e.purpose,
            "attribute": e.attribute,
            "base": e.base,
            "modifiers": [{"source": m.source, "value": m.value} for m in e.modifiers],
            "success_value": e.target,
            "burst": len(e.faces),
            "faces": list(e.faces),
            "results": list(e.results),
        }
        for e in events
        if isinstance(e, Rolled)
    ]


def _infinity(
    scenario: Scenario, path: Path, attacker: str, target: str, weapon_name: str | None,
    reply: bool, trials: int, seed: int,
) -> dict[str, Any]:  # fmt: skip
    from game.dice.rng import make_rng
    from game.sequencer.events import Hit, StateChanged, Wounded, event_dict
    from game.sequencer.game import Game
    from game.sequencer.infinity import (
        Activate,
        Continue,
        EndTurn,
        InfinityEngine,
        React,
        Skill,
    )

    game = Game(scenario, seed)
    engine = game.engine
    assert isinstance(engine, InfinityEngine)
    if game.state.active != game.state.model(attacker).side:
        game.declare(EndTurn())
    place = f"--attacker {attacker} --target {target}"
    try:
        named = weapon_named(weapon_name, engine.weapons.get(attacker, ()))
        weapon = engine.weapon(attacker, named)
        game.declare(Activate(attacker, Skill.attack(weapon.name, (target, weapon.burst))))
        reply_weapon = None
        for reactor in game.awaiting().models:
            if reactor == target and reply:
                sighting = engine.sighting(game.state, target, attacker)
                usable = [
                    w
                    for w in engine.weapons_of(target)
                    if w.range_mod(sighting.distance) is not None
                ]
                if not usable:
                    raise IllegalDeclaration(f"{target} has no weapon in range to reply with")
                reply_weapon = usable[0]
                game.declare(React(target, Skill.attack(reply_weapon.name, (attacker, 1))))
            else:
                game.declare(React(reactor, Skill.idle()))
        if reply and reply_weapon is None:
            raise IllegalDeclaration(
                f"{target} cannot reply: no line of fire to {attacker} in its arc"
            )
        before = game.state
        events = game.declare(Continue(Skill.idle()))
    except IllegalDeclaration as err:
        raise refused(scenario, path, place, err) from None
    report: dict[str, Any] = {
        "ruleset": "infinity",
        "attacker": attacker,
        "target": target,
        "weapon": weapon.name,
        "reply": reply_weapon.name if reply_weapon else None,
        "seed": seed,
        "rolls": _rolls(events),
        "events": [event_dict(e) for e in events],
    }
    if trials:
        counts = {
            m: {"hit": 0, "wounded": 0, "unconscious": 0, "dead": 0} for m in (attacker, target)
        }
        rng = make_rng(seed)
        for _ in range(trials):
            _, trial = engine.apply(before, Continue(Skill.idle()), rng=rng)
            for model, tally in counts.items():
                if any(isinstance(e, Hit) and e.target == model for e in trial):
                    tally["hit"] += 1
                if any(isinstance(e, Wounded) and e.model == model for e in trial):
                    tally["wounded"] += 1
                final = [e.after for e in trial if isinstance(e, StateChanged) and e.model == model]
                if final and final[-1] in ("unconscious", "dead"):
                    tally[final[-1]] += 1
        report["trials"] = trials
        report["models"] = {m: {k: v / trials for k, v in t.items()} for m, t in counts.items()}
        report["exact"] = _exact(
            engine, before, report["rolls"], attacker, target, weapon, reply_weapon
        )
    return report


def _exact(engine: Any, state: Any, rolls: list[dict[str, Any]], attacker: str, target: str,
           weapon: Any, reply_weapon: Any) -> dict[str, dict[str, float]]:  # fmt: skip
    """The exact chances from the odds engine, with the success values the roll used."""
    from game.sequencer.infinity_odds import exact_odds

    sv: dict[str, int] = {}
    for r in rolls:  # each model's attack roll comes first (a Guts Roll may follow)
        sv.setdefault(r["model"], r["success_value"])
    reply_sv = sv[target] if reply_weapon is not None else 0
    # A Direct Template rolls nothing: the attacker has no success value.
    return exact_odds(
        engine, state, attacker, target, weapon, sv.get(attacker, 0), reply_weapon, reply_sv
    )


def show(report: dict[str, Any]) -> None:
    from rich.table import Table

    from game.commands._console import for_people
    from game.rules.registry import find_ruleset
    from game.sequencer.sentences import ids_in, say, spoken_with, who

    console = for_people()
    attacker, target = who(report["attacker"]), who(report["target"])
    title = f"[bold]{attacker}[/] shoots [bold]{target}[/] with {report['weapon']}"
    if report["reply"]:
        title += f"; {target} replies with {report['reply']}"
    ids = spoken_with(ids_in(report["events"]) | {report["attacker"], report["target"]})
    console.print(title)
    words = find_ruleset("infinity")
    for e in report["events"]:
        if e["event"] in ("Rolled", "Hit", "SaveRolled", "Wounded", "StateChanged", "Missed") or (
            e["event"] == "Moved"  # a Guts Roll's move at the end of the Order
        ):
            console.print(f"  {say(e, words, ids)}", markup=False)
    if "models" in report:
        table = Table(title=f"{plural(report['trials'], 'trial')} (exact in brackets)")
        table.add_column("model")
        for key in ("hit", "wounded", "unconscious", "dead"):
            table.add_column(key, justify="right")
        for model, freq in report["models"].items():
            exact = report["exact"][model]
            if model != report["target"] and not any((*freq.values(), *exact.values())):
                continue  # an attacker nothing can reach (no reply): no row of zeros
            table.add_row(
                who(model),
                *(
                    f"{freq[k]:.3f} ({exact[k]:.3f})"
                    for k in ("hit", "wounded", "unconscious", "dead")
                ),
            )
        console.print(table)
