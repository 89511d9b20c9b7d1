"""`skirmish odds necromunda ...`: exact hits, the ammo check and the target's
condition. The registry's "odds" part for Necromunda."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from game.commands.odds import JsonOpt, emit
from game.commands.odds import rows as outcome_rows
from game.dice.exact import Distribution
from game.rules.necromunda.odds import (
    AmmoState,
    Shot,
    Status,
    Target,
    TargetState,
    attack,
)


def necromunda(
    bs: Annotated[int, typer.Option(min=2, max=6, help="Shooter's BS as N for N+.")],
    strength: Annotated[int, typer.Option(min=1, max=10, help="Weapon Strength.")],
    toughness: Annotated[int, typer.Option(min=1, max=10, help="Target Toughness.")],
    mod: Annotated[int, typer.Option(help="Sum of hit modifiers (+1 improves 4+ to 3+).")] = 0,
    ap: Annotated[int, typer.Option(max=0, help="Weapon AP (0 or negative).")] = 0,
    damage_: Annotated[int, typer.Option("--damage", min=1, max=6, help="Weapon D.")] = 1,
    wounds: Annotated[int, typer.Option(min=1, max=6, help="Target Wounds.")] = 1,
    save: Annotated[int | None, typer.Option(min=2, max=6, help="Armour save N+.")] = None,
    save_bonus: Annotated[int, typer.Option(min=0, max=2, help="Cover bonus to the save.")] = 0,
    rapid_fire: Annotated[int, typer.Option(min=0, max=6, help="X of Rapid Fire (X).")] = 0,
    ammo: Annotated[int | None, typer.Option(min=2, max=7, help="Ammo test N+.")] = None,
    dice_file: Annotated[
        Path | None, typer.Option("--dice", help="Dice faces TOML (default: bundled).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Necromunda shooting: hits, the ammo check and the target's condition."""
    from game.rules.necromunda.assets import NECROMUNDA_DICE, load_necromunda_dice

    dice = load_necromunda_dice(dice_file or NECROMUNDA_DICE)
    shot = Shot(bs, strength, mod, ap, damage_, rapid_fire, ammo)
    target = Target(toughness, wounds, save, save_bonus)
    dist = attack(shot, target, dice)
    status_order = list(Status)

    def state_key(s: TargetState) -> tuple[int, int, int]:
        return (status_order.index(s.status), -s.wounds, s.flesh_wounds)

    states = dist.map(lambda o: o.target)
    states = Distribution(
        dict(sorted(states.items(), key=lambda kv: state_key(kv[0]))), states.total
    )
    hits = dist.map(lambda o: o.hits)
    hits = Distribution(dict(sorted(hits.items())), hits.total)
    ammo_states = dist.map(lambda o: o.ammo)
    ammo_states = Distribution(
        {a: ammo_states.counts[a] for a in AmmoState if a in ammo_states.counts}, ammo_states.total
    )
    doc: dict[str, Any] = {
        "ruleset": "necromunda",
        "outcomes": outcome_rows(
            states,
            lambda s: {
                "outcome": s.status.value,
                "wounds_left": s.wounds,
                "flesh_wounds": s.flesh_wounds,
            },
        ),
        "hits": outcome_rows(hits, lambda h: {"hits": h}),
        "ammo": outcome_rows(ammo_states, lambda a: {"ammo": a.value}),
        "unconfirmed_dice": sorted(dice.unconfirmed),
    }
    emit(
        doc,
        as_json,
        [
            (
                "Target after the attack",
                doc["outcomes"],
                ["outcome", "wounds_left", "flesh_wounds"],
            ),
            ("Hits", doc["hits"], ["hits"]),
            ("Ammo", doc["ammo"], ["ammo"]),
        ],
    )
    if not as_json and dice.unconfirmed:
        typer.echo(f"note: unconfirmed dice faces (data): {', '.join(sorted(dice.unconfirmed))}")


command = necromunda
