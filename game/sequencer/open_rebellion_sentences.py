"""Open Rebellion's events in its own words: squads activated in turn, bang dice (a 5
or 6 is a bang), Small Arms Fire as attack dice against defence dice, wound and pin
markers, falling back and taking position. The registry's "sentences" part for Open
Rebellion; game.sequencer.sentences words the rest."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from game.rules.open_rebellion.cover import counted_said
from game.rules.open_rebellion.odds import COVER_DICE
from game.sequencer.open_rebellion_types import TABLE_EDGE
from game.sequencer.sentences import (
    EventData,
    dice,
    game_over,
    heading,
    inches,
    listed,
    notebook,
    plural,
    who,
    who_or_piece,
)
from game.words import joined

TIERS = {
    "open": "in the open",
    "light": "in light cover",
    "hard": "in hard cover",
    "beyond-hard": "beyond hard cover",  # seed 001: "position improved beyond hard cover"
}


# Initiative ties (FACTS 1.2: "ties are settled informally"; the engine rolls again).
TIE = "a tie, both roll again"


def converts(tier: object) -> str:
    """How damage turns into markers where the unit is (seed 001, Damage Conversion):
    "damage converts as in hard cover if the unit stays put"."""
    where = TIERS.get(str(tier), f"in {tier} cover")
    return f"damage converts as {where} if the unit stays put"


def _cover(tier: object, reason: object = "") -> str:
    """A cover tier in words, with the reason after it, its count as a player says it
    (the reason the event keeps reads "open: only 0 of the 1 in sight in cover; 3 of 4 out
    of sight"): "in the open (only 2 of its 4 models are in cover)", "in the open (the one
    model in sight is not in cover; the other 3 are out of sight)"."""
    words = TIERS.get(str(tier), f"in {tier} cover")
    why = str(reason or "")
    said = counted_said(why)
    if said is not None:
        why = said
    elif why.startswith(f"{tier}:"):
        why = why.split(":", 1)[1].strip()
    return f"{words} ({why})" if why else words


# The tiers from worst to best (seed 001: in position and hidden improve one tier, blast
# weapons lower one).
TIER_ORDER = ("open", "light", "hard", "beyond-hard")


def markers(wounds: int, pinned: int) -> str:
    """Markers as seed 001 names them: "no wound or pinned markers" (a unit in position
    stays so: only the markers are gone), "1 wound marker", "2 wound markers and 1
    pinned marker"."""
    said = [plural(n, kind) for n, kind in ((wounds, "wound marker"), (pinned, "pinned marker"))
            if n]  # fmt: skip
    return " and ".join(said) or "no wound or pinned markers"


def defence_pool(defence: int, bands: int, cover: object) -> str:
    """The defender's dice and where they come from (seed 001: +1 per full range band,
    3-5 skill dice by quality, +4 in cover): "9 defence dice (1 range, 4 skill, 4
    cover)". The skill dice are what is left once range and cover are counted, so a unit
    whose skill dice changed (the quality most of its living models have) shows it."""
    covered = str(cover) in TIER_ORDER[1:]
    skill = defence - bands - (COVER_DICE if covered else 0)
    said = f"{defence} defence dice"
    if skill < 0 or bands < 0:
        return said  # not a pool the rules make: the total alone
    parts = [f"{bands} range"] if bands else []
    parts.append(f"{skill} skill")
    if covered:
        parts.append(f"{COVER_DICE} cover")
    return f"{said} ({', '.join(parts)})"


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


def _declared(side: str, d: Mapping[str, Any], told: dict[str, Any] | None) -> str:
    kind = d.get("declare")
    unit = who(d.get("unit"))
    if told is not None and kind == "UnitAct":
        _note_action(told, str(d.get("unit")), str((d.get("action") or {}).get("kind", "")))
    if told is not None and kind in ("ActivateUnit", "UnitAct"):
        told["activating"] = (str(d.get("unit")), kind == "UnitAct")
    if kind == "PickInitiative":
        return f"{who(side)}: {unit} goes forward to roll for the initiative"
    if kind == "ActivateUnit":
        return f"{who(side)}: {unit} is activated"
    if kind == "UnitAct":
        return f"{who(side)}: {unit} {action_words(d.get('action') or {})}"
    if kind == "EndUnit":
        return _ended(side, d.get("unit"), told)
    if kind == "FallBackChoice":
        cover = None if told is None else told.get("fired on", {}).get(str(d.get("unit")))
        return f"{who(side)}: {unit} {_fall_back_choice(bool(d.get('fall_back')), cover)}"
    return f"{who(side)}: {str(kind or 'a declaration').lower()}"


def _ended(side: str, unit: object, told: dict[str, Any] | None) -> str:
    """An EndUnit: it ends the activating unit's activation, or, with no unit activating,
    activates the unit it names and does nothing with it. Told in order, the notebook
    knows which (the unit activating, and whether it has acted); told on its own, a named
    unit's activation ends either way."""
    activating, acted = (None, False) if told is None else told.pop("activating", (None, False))
    if unit is None and activating is None:
        return f"{who(side)}: the squad's activation ends"
    if told is not None and unit not in (None, activating):
        return f"{who(side)}: {who(unit)} is activated and does nothing"
    said = f"{who(side)}: {who(unit or activating)}'s activation ends"
    return said if acted or told is None else f"{said} without an action"


def _fall_back_choice(fall_back: bool, cover: object) -> str:
    """The defender's answer to damage (seed 001): in the open it takes the morale check
    or fails it on purpose and falls back; in light cover no check is required, and it may
    fall back toward hard cover. Told on its own (the cover not known) it says only
    whether the unit chose to fall back."""
    if cover == "open":
        return "fails the morale check on purpose" if fall_back else "takes the morale check"
    if cover == "light":
        return "falls back toward hard cover" if fall_back else "stays in its light cover"
    return "chooses to fall back" if fall_back else "does not choose to fall back"


# Actions after which a unit is no longer in position (it moved).
MOVES = frozenset({"standard-move", "tactical-move"})


def _note_action(told: dict[str, Any], unit: str, kind: str) -> None:
    told.setdefault("last action", {})[unit] = kind
    if kind in MOVES:
        told.setdefault("in position", set()).discard(unit)


def _fell_back(e: EventData, told: dict[str, Any] | None) -> str:
    """A fall back: the tac-move's length and heading, why it fell back, and, where no
    heading reached the cover it fell back toward, that it fell back straight away from
    the fire (the choice was told "falls back toward hard cover")."""
    x, y = (float(v) for v in e["vector"])
    unit = str(e["unit"])
    if told is not None:
        told.setdefault("fell back", set()).add(unit)
        told.setdefault("in position", set()).discard(unit)
    length = math.hypot(x, y)
    stop = e.get("stopped_by")
    by = "the table's edge" if stop == TABLE_EDGE else who_or_piece(stop) if stop else ""
    if length < 0.05:
        blocked = f", blocked by {by}" if by else ""
        return (
            f"{who(unit)} falls back, but cannot move from where it stands{blocked}: {e['reason']}"
        )
    toward = heading(math.degrees(math.atan2(y, x)))
    of = f"of {inches(e['allowance'])}, " if e.get("allowance") else ""
    short = f" ({of}cut short by {by})" if by else ""
    said = f"{who(unit)} falls back {inches(length)} {toward}{short}: {e['reason']}"
    missed = e.get("out_of_reach")
    if not missed:
        return said
    sought = "cover" if missed == "light" else f"{missed} cover"
    return f"{said}; no {sought} in reach, so straight away from the fire"


def _converted(e: EventData, told: dict[str, Any] | None) -> str:
    """Damage into markers by the tier the unit converts as: its cover, one tier better in
    position or hidden, one worse against a blast weapon (seed 001). Told in order, the
    cover the volley was rolled in and why the tier differs are said; on its own, the
    tier it converts as."""
    unit, tier = str(e["unit"]), str(e["tier"])
    roll = f" ({e['roller']} rolls {dice(e['faces'])})" if e.get("roller") else ""
    placed = markers(int(e["wounds"]), int(e["pins"]))
    cover = None
    if told is not None and unit not in told.get("fell back", set()):
        cover = told.get("fired on", {}).get(unit)
    if cover == tier:
        return f"Damage on {who(unit)} {_cover(tier)}{roll}: {placed}"
    where = TIERS.get(tier, f"in {tier} cover")
    if cover not in TIER_ORDER or tier not in TIER_ORDER:
        return f"Damage on {who(unit)} converts as {where}{roll}: {placed}"
    shift = TIER_ORDER.index(tier) - TIER_ORDER.index(str(cover))
    why = []
    if told is not None and unit in told.get("in position", set()):
        why.append("in position")
        shift -= 1
    if shift > 0:
        why.append("hidden")
    elif shift < 0:
        why.append("against a blast weapon")
    return (
        f"Damage on {who(unit)}, {_cover(cover)} and {' and '.join(why)}, converts as "
        f"{where}{roll}: {placed}"
    )


def _markers_now(e: EventData, told: dict[str, Any] | None) -> str:
    """A unit's markers after a change; after its Initiative Action, whether it is still
    in position (the Initiative Action sheds pinned markers and does not move it)."""
    unit = str(e["unit"])
    said = f"{who(unit)} now has {markers(int(e['wounds']), int(e['pins']))}"
    if (
        told is not None
        and told.get("last action", {}).get(unit) == "initiative"
        and unit in told.get("in position", set())
    ):
        said += " and is still in position"
    return said


def _bang_test(e: EventData) -> str:
    """A bang-dice roll, its dice apart from their count, and a test's result (a morale
    check passes with morale_min_bangs bangs, FACTS 1.5): "Rebel squad a rolls for morale
    check: 5, 5, 6 and 5: 4 bangs, passed (1 bang needed)"."""
    n, needed = int(e["bangs"]), int(e.get("needed") or 0)
    said = f"{who(e['unit'])} rolls for {e['purpose']}: {dice(e['faces'])}: {plural(n, 'bang')}"
    if needed:
        said += f", {'passed' if n >= needed else 'failed'} ({plural(needed, 'bang')} needed)"
    return said


def sentence(e: EventData) -> str | None:
    """An event as Open Rebellion says it (None: the shared wording serves)."""
    kind = e.get("event")
    told = notebook(e)
    if kind == "GameEnded":  # the engine's score: the points of the models left
        return game_over(e, "points of models left")
    if kind == "Declared":
        return _declared(str(e["side"]), e["declaration"], told)
    if kind == "TurnStarted":
        return f"Turn {e['turn']} begins, {who(e['side'])} to pick first"
    if kind == "TurnEnded":
        if told is not None:
            told.pop("activating", None)
        return f"Turn {e['turn']} ends"
    if kind == "BangTest":
        return _bang_test(e)
    if kind == "InitiativeRolled":
        picks = [f"{who(unit)} {plural(int(b), 'bang')}" for (_, unit), b in
                 zip(e["picks"], e["bangs"], strict=False)]  # fmt: skip
        winner = f"the initiative goes to {who(e['winner'])}" if e.get("winner") else TIE
        return f"Initiative, turn {e['turn']}: {joined(picks)}; {winner}"
    if kind == "SmallArmsFire":
        bands = int(e["range_bands"])
        if told is not None:
            told.setdefault("fired on", {})[str(e["target"])] = str(e["cover"])
            told.setdefault("fell back", set()).discard(str(e["target"]))
        far = f", {plural(bands, 'range band')} away" if bands else ""
        pool = defence_pool(int(e["defence_dice"]), bands, e["cover"])
        return (
            f"{who(e['attacker'])} fires on {who(e['target'])} with "
            f"{plural(len(e['firing']), 'model')}{far}: {e['attack_dice']} attack dice "
            f"({dice(e['attack_faces'])}) against {pool.removesuffix(')')}"
            f"{': ' if pool.endswith(')') else ' ('}{dice(e['defence_faces'])}) "
            f"{_cover(e['cover'], e['cover_reason'])}; "
            f"{plural(int(e['damage']), 'damage', 'damage')} gets through"
        )
    if kind == "FellBack":
        return _fell_back(e, told)
    if kind == "DamageConverted":
        return _converted(e, told)
    if kind == "MarkersChanged":
        return _markers_now(e, told)
    if kind == "KillsRolled":
        killed = listed(e.get("killed", ()), "no one")
        return f"{who(e['unit'])} rolls its wound markers: {dice(e['faces'])}; killed: {killed}"
    if kind == "TookPosition":
        if told is not None:
            told.setdefault("in position", set()).add(str(e["unit"]))
        # the declaration said "takes position": the event says what it gives (seed 001:
        # support weapons in position add their dice; in position improves a tier)
        return (
            f"{who(e['unit'])} is in position until it moves: its support weapons add their "
            "dice, and damage on it converts a tier better"
        )
    if kind == "StateChanged" and e.get("after") == "dead":
        return f"{who(e['model'])} is killed"
    return None
