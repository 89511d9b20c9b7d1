"""Open Rebellion's events in its own words: squads activated in turn, bang dice (a 5
or 6 is a bang), Small Arms Fire as attack dice against defence dice, wound and pin
markers, falling back and taking position. The registry's "sentences" part for Open
Rebellion; game.sequencer.sentences words the rest."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.sequencer.sentences import EventData, dice, listed, plural, who

TIERS = {
    "open": "in the open",
    "light": "in light cover",
    "hard": "in hard cover",
    "beyond-hard": "beyond hard cover",  # seed 001: "position improved beyond hard cover"
}


def converts(tier: object) -> str:
    """How damage turns into markers where the unit is (seed 001, Damage Conversion):
    "damage converts as in hard cover if the unit stays put"."""
    where = TIERS.get(str(tier), f"in {tier} cover")
    return f"damage converts as {where} if the unit stays put"


def _cover(tier: object, reason: object = "") -> str:
    """A cover tier in words, with the reason after it: "in the open (only 2 of 4 in
    cover)"."""
    words = TIERS.get(str(tier), f"in {tier} cover")
    why = str(reason or "")
    if why.startswith(f"{tier}:"):
        why = why.split(":", 1)[1].strip()
    return f"{words} ({why})" if why else words


def markers(wounds: int, pinned: int) -> str:
    """Markers as seed 001 names them: "no markers", "1 wound marker", "2 wound markers
    and 1 pinned marker"."""
    said = [plural(n, kind) for n, kind in ((wounds, "wound marker"), (pinned, "pinned marker"))
            if n]  # fmt: skip
    return " and ".join(said) or "no markers"


def action_words(action: Mapping[str, Any]) -> str:
    kind = str(action.get("kind", ""))
    if kind == "standard-move":
        return "makes a standard move"
    if kind == "tactical-move":
        return "makes a tactical move"
    if kind == "fire":
        return f"fires at {who(action.get('target'))}"
    if kind == "initiative":
        return "uses its initiative"
    if kind == "take-position":
        return "takes position"
    return kind.replace("-", " ") or "does nothing"


def _declared(side: str, d: Mapping[str, Any]) -> str:
    kind = d.get("declare")
    unit = who(d.get("unit"))
    if kind == "PickInitiative":
        return f"{who(side)} put {unit} forward to roll for the initiative"
    if kind == "ActivateUnit":
        return f"{who(side)} activate {unit}"
    if kind == "UnitAct":
        return f"{who(side)}: {unit} {action_words(d.get('action') or {})}"
    if kind == "EndUnit":
        if d.get("unit"):
            return f"{who(side)} activate {unit}, which does nothing"
        return f"{who(side)} end the squad's activation"
    if kind == "FallBackChoice":
        choice = "falls back" if d.get("fall_back") else "stands its ground"
        return f"{who(side)}: {unit} {choice}"
    return f"{who(side)}: {str(kind or 'a declaration').lower()}"


def sentence(e: EventData) -> str | None:
    """An event as Open Rebellion says it (None: the shared wording serves)."""
    kind = e.get("event")
    if kind == "Declared":
        return _declared(str(e["side"]), e["declaration"])
    if kind == "TurnStarted":
        return f"Turn {e['turn']} begins: {who(e['side'])} pick first"
    if kind == "TurnEnded":
        return f"Turn {e['turn']} ends"
    if kind == "BangTest":
        return (
            f"{who(e['unit'])} rolls for {e['purpose']}: {dice(e['faces'])}, "
            f"{plural(int(e['bangs']), 'bang')}"
        )
    if kind == "InitiativeRolled":
        picks = [f"{who(unit)} {plural(int(b), 'bang')}" for (_, unit), b in
                 zip(e["picks"], e["bangs"], strict=False)]  # fmt: skip
        winner = f"{who(e['winner'])} have the initiative" if e.get("winner") else "a tie, again"
        return f"Initiative, turn {e['turn']}: {', '.join(picks)}; {winner}"
    if kind == "SmallArmsFire":
        bands = int(e["range_bands"])
        far = f", {plural(bands, 'range band')} away" if bands else ""
        return (
            f"{who(e['attacker'])} fires on {who(e['target'])} with "
            f"{plural(len(e['firing']), 'model')}{far}: {e['attack_dice']} attack dice "
            f"({dice(e['attack_faces'])}) against {e['defence_dice']} defence dice "
            f"({dice(e['defence_faces'])}) {_cover(e['cover'], e['cover_reason'])}; "
            f"{plural(int(e['damage']), 'damage', 'damage')} gets through"
        )
    if kind == "FellBack":
        return f"{who(e['unit'])} falls back: {e['reason']}"
    if kind == "DamageConverted":
        roll = f" ({e['roller']} rolls {dice(e['faces'])})" if e.get("roller") else ""
        placed = markers(int(e["wounds"]), int(e["pins"]))
        return f"Damage on {who(e['unit'])} {_cover(e['tier'])}{roll}: {placed}"
    if kind == "MarkersChanged":
        return f"{who(e['unit'])} now has {markers(int(e['wounds']), int(e['pins']))}"
    if kind == "KillsRolled":
        killed = listed(e.get("killed", ()), "no one")
        return f"{who(e['unit'])} rolls its wound markers: {dice(e['faces'])}; killed: {killed}"
    if kind == "TookPosition":
        return f"{who(e['unit'])} takes position"
    if kind == "StateChanged" and e.get("after") == "dead":
        return f"{who(e['model'])} is killed"
    return None
