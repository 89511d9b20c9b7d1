"""Infinity's events in its own words: Orders and AROs, BS Attacks against a Success
Value (SV), the Active Turn's Order pool. The registry's "sentences" part for
Infinity; game.sequencer.sentences words the rest."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.sequencer.sentences import (
    EventData,
    listed,
    plural,
    rolled,
    sums,
    who,
)


def _targets(targets: Any) -> str:
    parts = [f"{who(t)} ({plural(int(n), 'die', 'dice')})" for t, n in targets or ()]
    return listed([], "nobody") if not parts else ", ".join(parts)


def skill_words(skill: Mapping[str, Any]) -> str:
    """What a skill does: "shoots the HMG at Fusilier 1 (4 dice)", "moves", "dodges"."""
    kind = str(skill.get("kind", ""))
    if kind == "attack":
        return f"shoots the {skill.get('weapon')} at {_targets(skill.get('targets'))}"
    if kind == "move":
        points = len(skill.get("path") or ())
        return "moves" + (f" ({plural(points, 'waypoint')})" if points > 1 else "")
    if kind == "dodge":
        return "dodges"
    if kind == "idle":
        return "stays idle"
    return kind.replace("-", " ") or "does nothing"


def _declared(side: str, d: Mapping[str, Any]) -> str:
    said = _declared_skill(side, d)
    if (d.get("skill") or {}).get("fail_guts"):
        return f"{said}, choosing to fail any Guts Roll this Order"
    return said


def _declared_skill(side: str, d: Mapping[str, Any]) -> str:
    kind = d.get("declare")
    skill = d.get("skill") or {}
    if kind == "Activate":
        return f"{who(side)}: Order to {who(d.get('model'))}, who {skill_words(skill)}"
    if kind == "React":
        at = d.get("at")
        where = f" at ({float(at[0]):.1f}, {float(at[1]):.1f})" if at else ""
        if str(skill.get("kind")) == "idle":
            return f"{who(side)}: {who(d.get('model'))} declares no ARO"
        return f"{who(side)}: ARO, {who(d.get('model'))} {skill_words(skill)}{where}"
    if kind == "Continue":
        return f"{who(side)}: second skill, {skill_words(skill)}"
    if kind == "EndTurn":
        return f"{who(side)} ends the Active Turn"
    return f"{who(side)}: {str(kind or 'a declaration').lower()}"


def sentence(e: EventData) -> str | None:
    """An event as Infinity says it (None: the shared wording serves)."""
    kind = e.get("event")
    if kind == "Declared":
        return _declared(str(e["side"]), e["declaration"])
    if kind == "CircleTemplatePlaced":
        x, y = e["centre"]
        return (
            f"{who(e['model'])} lays the {e['weapon']}'s Circular template "
            f'({float(e["diameter"]):g}") at ({float(x):.1f}, {float(y):.1f}): it covers '
            f"{listed(e.get('affected', ()))}"
        )
    if kind == "GutsFailed":
        return f"{who(e['model'])} chooses to fail its Guts Roll (no die rolled)"
    if kind == "TurnStarted":
        orders = plural(int(e.get("orders", 0)), "Order")
        return f"Turn {e['turn']}: {who(e['side'])}'s Active Turn, {orders} in the pool"
    if kind == "TurnEnded":
        return f"{who(e['side'])}'s Active Turn {e['turn']} ends"
    if kind == "OrderSpent":
        pool = str(e.get("pool", "regular")).replace("-", " ")
        left = plural(int(e["remaining"]), "Order")
        return f"{who(e['side'])} spends a {pool} Order on {who(e['model'])} ({left} left)"
    if kind == "Rolled":
        return rolled(e, sums(e), f"SV {e['target']}")
    if kind == "SaveRolled":
        wounds = int(e["wounds"])
        outcome = "no wound" if wounds == 0 else plural(wounds, "wound")
        if e.get("wound_on_low"):
            rule = f"a die of {e['target']} or less wounds"
        else:
            rule = f"a die of {e['target']} or less saves"
        faces = ", ".join(str(f) for f in e["faces"])
        return f"{who(e['model'])} rolls saves ({rule}): {faces}, {outcome}"
    return None
