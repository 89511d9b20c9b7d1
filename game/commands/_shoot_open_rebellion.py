"""`skirmish shoot` for Open Rebellion: small arms fire from the attacker's unit at the
target's unit from the table as laid out, with both pools, the cover, the dice and the
markers placed, or the shares of markers over many trials beside the exact odds.

A damaged defender in the open or in light cover holds (in the open it takes the
morale check; failing it falls back before the damage converts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from game.commands._args import no_such_model
from game.commands.shoot import NO_REPLY, Shot, no_extra_hits, problem, refused
from game.errors import IllegalDeclaration
from game.scenario import Scenario
from game.sequencer.sentences import plural

SHOWN_FROM = 0.0005  # outcomes rarer than this are left out of the printed table


def resolve(shot: Shot) -> dict[str, Any]:
    """The registry's "shoot" part: one volley (or its trials) as a report."""
    if shot.at is not None:
        raise problem(shot.path, "--at", "Open Rebellion fires at a unit (--target)")
    no_extra_hits(shot, "Open Rebellion places no extra hits: a volley's hits fall on the unit")
    if shot.reply:
        raise problem(shot.path, "--reply", NO_REPLY.format(system="Open Rebellion"))
    if shot.weapon is not None:
        why = "an Open Rebellion unit fires every model's own weapon: none is chosen"
        raise problem(shot.path, "--weapon", why)
    return open_rebellion_shot(
        shot.scenario, shot.path, shot.attacker, shot.target, shot.trials, shot.seed
    )


def show(report: dict[str, Any]) -> None:
    print_open_rebellion(report)


def open_rebellion_shot(
    scenario: Scenario, path: Path, attacker: str, target: str | None, trials: int, seed: int
) -> dict[str, Any]:
    from collections import Counter

    from game.dice.rng import make_rng
    from game.rules.open_rebellion.odds import small_arms_fire
    from game.sequencer.events import event_dict
    from game.sequencer.game import Game
    from game.sequencer.open_rebellion import OpenRebellionEngine, tier_label
    from game.sequencer.open_rebellion_types import (
        Action,
        DamageConverted,
        FallBackChoice,
        OpenRebellionState,
        UnitAct,
    )

    ids = {m.id for m in scenario.models}
    if target is None:
        raise problem(path, "--target", "give a model of the target unit (--target)")
    for flag, value in (("--attacker", attacker), ("--target", target)):
        if value not in ids:
            raise problem(path, flag, no_such_model(value, ids))
    game = Game(scenario, seed)
    engine = game.engine
    assert isinstance(engine, OpenRebellionEngine)
    unit, enemy = engine.unit_of[attacker], engine.unit_of[target]
    state = engine.ready_to_fire(game.state, unit)
    declaration = UnitAct(unit, Action.fire(enemy))
    place = f"--attacker {attacker} --target {target}"
    try:
        game.state = state
        events = game.declare(declaration)  # the rules' refusals first: a friend, no sight
        plan = engine.pools(state, unit, enemy)
        if game.awaiting().kind == "fall-back":
            events += game.declare(FallBackChoice(enemy, False))
    except IllegalDeclaration as err:
        raise refused(scenario, path, place, err) from None
    exact = small_arms_fire(plan.attack, plan.defence, plan.tier)
    report: dict[str, Any] = {
        "ruleset": "open-rebellion",
        "attacker": attacker,
        "target": target,
        "attacking_unit": unit,
        "target_unit": enemy,
        "seed": seed,
        "firing": list(plan.firing),
        "attack_dice": plan.attack,
        "defence_dice": plan.defence,
        "range_bands": plan.bands,
        "cover": plan.cover.level.label,
        "cover_reason": plan.cover.reason,
        "tier": tier_label(plan.tier),
        "exact": {
            f"{m.wounds}w{m.pinned}p": ways / exact.total
            for m, ways in sorted(exact.counts.items())
        },
        "events": [event_dict(e) for e in events],
    }
    if trials:
        rng = make_rng(seed)
        seen: Counter[str] = Counter()
        for _ in range(trials):
            after, trial = engine.apply(state, declaration, rng=rng)
            assert isinstance(after, OpenRebellionState)
            if after.phase == "fall-back":
                after, more = engine.apply(after, FallBackChoice(enemy, False), rng=rng)
                trial = [*trial, *more]
            conv = [e for e in trial if isinstance(e, DamageConverted)]
            seen[f"{conv[0].wounds}w{conv[0].pins}p" if conv else "0w0p"] += 1
        report["trials"] = trials
        report["shares"] = {k: v / trials for k, v in sorted(seen.items())}
    return report


def print_open_rebellion(report: dict[str, Any]) -> None:
    from rich.table import Table

    from game.commands._console import for_people
    from game.rules.open_rebellion.cover import cover_said
    from game.rules.registry import find_ruleset
    from game.sequencer.open_rebellion_sentences import converts, defence_pool, markers
    from game.sequencer.sentences import Teller, ids_in, named, phrase_names, spoken_with, who

    console = for_people()
    ids = ids_in(report["events"]) | {report["attacking_unit"], report["target_unit"]}
    names = spoken_with(ids)  # the table's names, scenery too, where it is spoken
    pool = defence_pool(report["defence_dice"], report["range_bands"], report["cover"])
    console.print(
        f"[bold]{who(report['attacking_unit'])}[/] fires at {who(report['target_unit'])}: "
        f"{report['attack_dice']} attack dice ({plural(len(report['firing']), 'model')} in line of "
        f"sight) against {pool}"
    )
    # the count as the log below says it
    cover = named(cover_said(str(report["cover_reason"])), phrase_names(names))
    console.print(f"  cover: {cover}; {converts(report['tier'])}", markup=False)
    shown = {
        "SmallArmsFire", "BangTest", "FellBack", "Moved", "DamageConverted", "MarkersChanged",
    }  # fmt: skip
    teller = Teller(find_ruleset("open-rebellion"), names)  # told in order: what each means
    for e in report["events"]:
        said = teller.say(e)
        if e["event"] in shown:
            console.print(f"  {said}", markup=False)
    trials = f": {plural(report['trials'], 'trial')}" if "shares" in report else ""
    title = "markers placed" + trials
    table = Table(title=title)
    table.add_column("markers")
    table.add_column("exact", justify="right")
    if "shares" in report:
        table.add_column("seen", justify="right")
    for key, p in report["exact"].items():
        if p < SHOWN_FROM and not report.get("shares", {}).get(key):
            continue  # the long tail stays in --json
        wounds, pinned = key.rstrip("p").split("w")  # the --json key: "1w2p"
        row = [markers(int(wounds), int(pinned)), f"{p:.4f}"]
        if "shares" in report:
            row.append(f"{report['shares'].get(key, 0.0):.4f}")
        table.add_row(*row)
    console.print(table)
