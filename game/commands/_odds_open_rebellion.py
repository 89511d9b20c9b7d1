"""`skirmish odds open-rebellion ...`: exact damage and wound / pin markers of small
arms fire. The registry's "odds" part for Open Rebellion."""

from __future__ import annotations

from collections.abc import Callable
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

    # each kind of marker on its own, as the window's odds say it (tester14: the joint
    # rows alone, 40 of them, gave no total for "1 wound marker")
    wounds = _each(markers, lambda m: m.wounds)
    pinned = _each(markers, lambda m: m.pinned)
    doc: dict[str, Any] = {
        "ruleset": "open-rebellion",
        "tier": tier.name.lower().replace("_", "-"),
        "outcomes": outcome_rows(markers, fields),
        "wound_markers": outcome_rows(wounds, lambda n: {"wound_markers": n}),
        "pinned_markers": outcome_rows(pinned, lambda n: {"pinned_markers": n}),
        "expected": {"wound_markers": _mean(wounds), "pinned_markers": _mean(pinned)},
        "damage": outcome_rows(dmg, lambda d: {"damage": d}),
    }
    emit(
        doc,
        as_json,
        [
            ("Wound markers", doc["wound_markers"], ["wound_markers"]),
            ("Pinned markers", doc["pinned_markers"], ["pinned_markers"]),
            ("Both markers together", doc["outcomes"], ["wounds", "pinned"]),
            ("Damage", doc["damage"], ["damage"]),
        ],
    )
    if not as_json:
        expected = doc["expected"]
        typer.echo(
            f"expected: {expected['wound_markers']:.2f} wound markers, "
            f"{expected['pinned_markers']:.2f} pinned markers"
        )


def _each(markers: Distribution[Markers], count: Callable[[Markers], int]) -> Distribution[int]:
    """The chances of each number of one kind of marker, whatever the other kind."""
    ways: dict[int, int] = {}
    for m, n in markers.items():
        ways[count(m)] = ways.get(count(m), 0) + n
    return Distribution(dict(sorted(ways.items())), markers.total)


def _mean(found: Distribution[int]) -> float:
    return sum(k * n for k, n in found.items()) / found.total


command = open_rebellion
