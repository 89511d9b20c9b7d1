"""`skirmish odds open-rebellion ...`: exact damage and wound / pin markers of small
arms fire. The registry's "odds" part for Open Rebellion."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from game.commands.odds import JsonOpt, bad, emit
from game.commands.odds import rows as outcome_rows
from game.dice.exact import Distribution
from game.rules.open_rebellion.odds import (
    CoverTier,
    Markers,
    damage,
    shifted_tier,
    small_arms_fire,
)

TIERS = {"open": CoverTier.OPEN, "light": CoverTier.LIGHT, "hard": CoverTier.HARD}
TIERS["beyond-hard"] = CoverTier.BEYOND_HARD


def open_rebellion(
    attack_dice: Annotated[
        int, typer.Option("--attack", min=0, max=60, help="Attacker's bang dice.")
    ],
    defence_dice: Annotated[
        int, typer.Option("--defence", min=0, max=60, help="Defender's bang dice.")
    ],
    cover: Annotated[str, typer.Option(help="open, light, hard or beyond-hard.")] = "open",
    in_position: Annotated[bool, typer.Option(help="Defender in position (+1 tier).")] = False,
    hidden: Annotated[bool, typer.Option(help="Defender hidden as a card (+1 tier).")] = False,
    blast: Annotated[bool, typer.Option(help="Blast or bad-ass gun (-1 tier).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Open Rebellion small arms fire: damage and wound / pinned markers."""
    if cover not in TIERS:
        raise bad("open-rebellion", "--cover", f"{cover!r} is not one of {', '.join(TIERS)}")
    tier = shifted_tier(TIERS[cover], in_position=in_position, hidden=hidden, blast=blast)
    markers = small_arms_fire(attack_dice, defence_dice, tier)
    markers = Distribution(dict(sorted(markers.items())), markers.total)
    dmg = damage(attack_dice, defence_dice).reduced()
    dmg = Distribution(dict(sorted(dmg.items())), dmg.total)

    def fields(m: Markers) -> dict[str, Any]:
        return {"wounds": m.wounds, "pinned": m.pinned}

    doc: dict[str, Any] = {
        "ruleset": "open-rebellion",
        "tier": tier.name.lower().replace("_", "-"),
        "outcomes": outcome_rows(markers, fields),
        "damage": outcome_rows(dmg, lambda d: {"damage": d}),
    }
    emit(
        doc,
        as_json,
        [("Markers", doc["outcomes"], ["wounds", "pinned"]), ("Damage", doc["damage"], ["damage"])],
    )


command = open_rebellion
