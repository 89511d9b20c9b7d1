"""Necromunda's events in its own words: rounds with priority, fighters activated one
at a time, hit rolls against a target number on a D6 (3+), firepower and ammo
checks, blasts that scatter, flame templates, stray shots, injury dice and Bottle
tests. The registry's "sentences" part for Necromunda; game.sequencer.sentences
words the rest."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.rules.necromunda.dice import InjuryResult
from game.sequencer.necromunda import INJURY_RANK
from game.sequencer.necromunda_types import (
    FLEE_TEST,
    OUT_OF_ACTION,
    PINNED,
    STANDING,
    status_said,
)
from game.sequencer.sentences import (
    EventData,
    centred,
    dice,
    game_over,
    heading,
    inches,
    limit_said,
    listed,
    modifiers,
    notebook,
    plural,
    purpose,
    rolled,
    shared,
    signed,
    who,
    who_or_piece,
)
from game.words import joined


def action_words(action: Mapping[str, Any]) -> str:
    """What an action does, as the rulebook names it."""
    kind = str(action.get("kind", ""))
    weapon = action.get("weapon")
    if kind in ("shoot", "blind-fire"):
        how = "fires blind with" if kind == "blind-fire" else "shoots"
        if action.get("target"):
            aim = f"at {who(action['target'])}"
        elif action.get("at"):
            x, y = action["at"]
            aim = f"at the point ({float(x):.1f}, {float(y):.1f})"
        elif action.get("direction") is not None:
            aim = f"toward the {heading(action['direction'])}"
        else:
            aim = ""
        twin = f" and the {action['twin']}" if action.get("twin") else ""
        verb = "shoots" if kind == "shoot" else how
        extra = f", extra hits on {listed(action['extra'])}" if action.get("extra") else ""
        return f"{verb} the {weapon}{twin} {aim}".rstrip() + extra
    if kind == "move":
        return "moves"
    if kind == "aim":
        return "aims"
    if kind == "reload":
        return f"reloads the {weapon}"
    if kind == "take-cover":
        return "takes cover"
    if kind == "stand-up":
        return "stands up"
    if kind == "crawl":
        return "crawls"
    if kind == "run-for-cover":
        return "runs for cover"
    if kind == "coup-de-grace":  # FACTS 2.8: Coup de Grace (Simple)
        return f"takes a Coup de Grace on {who(action.get('target'))}"
    return kind.replace("-", " ") or "does nothing"


def _declared(side: str, d: Mapping[str, Any], told: dict[str, Any] | None) -> str:
    kind = d.get("declare")
    if kind == "Act":
        if told is not None:  # the fighter acting, and what it does
            told["acting"] = (str(d.get("model")), str((d.get("action") or {}).get("kind", "")))
        # A turn before the action is told by the Turned event that follows.
        return f"{who(side)}: {who(d.get('model'))} {action_words(d.get('action') or {})}"
    if kind == "EndActivation":
        if d.get("model"):
            if told is not None and d["model"] in told.get(BURNING, ()):
                # FACTS 2.9, Blaze: it does not do nothing: the flames take its activation
                return f"{who(side)}: {who(d['model'])} is activated on fire"
            return f"{who(side)}: {who(d['model'])} is activated and does nothing"
        acting = None if told is None else told.get("acting")
        if acting:  # told in order: the fighter whose activation it is
            return f"{who(side)} ends {who(acting[0])}'s activation"
        return f"{who(side)} ends its fighter's activation"
    return f"{who(side)}: {str(kind or 'a declaration').lower()}"


# The characteristics tested on 2D6 against the total (FACTS 2.1: Ld, Cl, Wil, Int
# "2D6 >= value"); the rest are a D6 against a target number.
TWO_DICE = frozenset({"Ld", "Cl", "Wil", "Int"})
# Profile columns said in words where a log line names them: a weapon's Am(mo) and a
# fighter's Sv (armour save); the rest are known by their letters (BS 4+, Cl 7+).
SAID = {"Am": "Ammo", "Sv": "armour"}


def _roll(e: EventData) -> str:
    """A D6 roll against a target number: "needs 3+"; a 2D6 test by its total:
    "rolled 5 + 1, a total of 6 against 5+: passed"."""
    mods = modifiers(e.get("modifiers", ()))
    # A characteristic rolled against (BS 4+, armour 5+); a wound roll's S and T are in
    # its purpose already.
    said = SAID.get(e["attribute"], e["attribute"])
    parts = [] if e["attribute"] in ("S", "T") else [f"{said} {e['base']}+"]
    reckoning = ", ".join(parts + ([mods] if mods else []))
    faces = [int(f) for f in e["faces"]]
    if e["attribute"] in TWO_DICE and len(faces) == 2:
        return _two_dice(e, reckoning, faces)
    said_roll = rolled(e, reckoning, f"needs {e['target']}+")
    if e["attribute"] == "S" and str(e["purpose"]).endswith(f" on {e['model']}"):
        # a wound roll on the fighter itself: the flames' hit (FACTS 2.9, Blaze) has no
        # firer, so no fighter is said to roll it ("Wound roll (the flames, ...) on ...")
        said_roll = said_roll.removeprefix(f"{who(e['model'])}, ")
        said_roll = said_roll[:1].upper() + said_roll[1:]
    return said_roll


def _two_dice(e: EventData, reckoning: str, faces: list[int]) -> str:
    """FACTS 2.1: a 2D6 test passes on the total of both dice; "a roll of 2 always
    fails a 2D6 test"."""
    total = sum(faces)
    passed = "success" in e["results"]
    outcome = "passed" if passed else "failed"
    if not passed and total == 2:
        outcome += " (a 2 always fails)"
    if e["purpose"] == FLEE_TEST:  # FACTS 2.8: a bottled gang's fighter stays or flees
        outcome += ": stays in the fight" if passed else ": flees the battle"
    head = f"{who(e['model'])}, {purpose(e['purpose'])}: " + (f"{reckoning}; " if reckoning else "")
    dice_total = f"{faces[0]} + {faces[1]}, a total of {total}"
    return f"{head}rolled {dice_total} against {e['target']}+: {outcome}"


def _firepower(e: EventData) -> str:
    """FACTS 2.6: every ranged attack rolls a Firepower die for its Ammo symbol; only a
    Rapid Fire weapon's hit scores the bullet holes it shows (an event saved before the
    event said which is told as Rapid Fire)."""
    count = int(e["ammo_symbols"])
    symbols = {0: "no Ammo symbol", 1: "an Ammo symbol"}.get(count, f"{count} Ammo symbols")
    rolls = "the Firepower die" if len(e["faces"]) == 1 else "the Firepower dice"
    said = f"{who(e['model'])} rolls {rolls} for the {e['weapon']}: {dice(e['faces'])}"
    if not int(e.get("rapid_fire", 1)):
        return f"{said}, {symbols}"
    return f"{said}; {plural(int(e['holes']), 'bullet hole')}, {symbols}"


def _wounded(e: EventData) -> str:
    """FACTS 2.4: "each point of D removes 1 Wound. At 0 W, roll one Injury die. Each
    further point of D beyond the last Wound adds one more Injury die": the event holds
    the hit's Damage and the Wounds lost in all (at most the fighter's W); told in order
    (`Teller`), Damage that finds no Wound left says so rather than the same total again."""
    total = int(e["total"])
    damage = f"{who(e['model'])} takes {e['wounds']} Damage"
    if e.get("lost_before") == total and total > 0:
        return f"{damage} with no Wound left to lose ({plural(total, 'Wound')} lost before)"
    return f"{damage} ({plural(total, 'Wound')} lost in all)"


def _injury(e: EventData) -> str:
    """Injury dice (FACTS 2.4); a Recovery roll with two dice (FACTS 2.8: "one Active
    friend within 1\" adds an extra die and the player picks one") says which it keeps."""
    results = [str(r) for r in e["results"]]
    said = joined([f"{face} ({result})" for face, result in zip(e["faces"], results, strict=False)])
    kind = str(e.get("purpose", "injury"))
    if kind == "recovery" and len(results) == 2:
        ranks = {r.value: n for r, n in INJURY_RANK.items()}
        dice_ = list(zip(e["faces"], results, strict=False))
        index = e.get("kept")  # the engine's pick; a save from before it says none
        face, kept = (
            dice_[index] if isinstance(index, int) and 0 <= index < len(dice_)
            else min(dice_, key=lambda d: ranks.get(d[1], 9))
        )  # fmt: skip
        return (
            f'{who(e["model"])} rolls two recovery dice, a friend being within 1": {said}; '
            f"keeps the {face} ({kept})"
        )
    return f"{who(e['model'])} rolls {kind} dice: {said}"


# The notebook's fighters pinned by a hit not yet told (the hit tells the pin).
PIN_DUE = "pin due"
# The notebook's fighter just finished off with a Coup de Grace (its change of state to
# Out of Action is told with it).
FINISHED_OFF = "finished off"
# The notebook's fighters on fire (FACTS 2.9, Blaze): set by a roll that catches fire,
# cleared by one that puts it out.
BURNING = "burning"


# The fighters ready as the first round told started, with how many had gone out of
# action by then; the fighters out of action, told as they go (`sentence`)
FIRST_READY = "first ready"
DOWN = "down"


def _ready(e: EventData, told: dict[str, Any] | None) -> int:
    """A round's fighters ready: every fighter still in the fight. The TurnStarted event
    counts the fighters flagged Ready; under rules version 1 and 2 one taken Out of
    Action before it activated kept its flag and was counted (saves keep the count as
    played), so after the first round it is counted from the log told: the first round's
    fighters less those gone out of action since (none comes back), when that is fewer.
    A log carries no rules version; a version-3 log's count is the fighters in the
    fight, never more than that, so it is told as stored."""
    stored = int(e.get("orders", 0))
    if told is None:
        return stored
    down = len(told.get(DOWN, ()))
    first, down_then = told.setdefault(FIRST_READY, (stored, down))
    return min(stored, int(first) - (down - int(down_then)))


def _state_changed(e: EventData, told: dict[str, Any] | None) -> str | None:
    """A change of state with its cause, told in order: a hit pins a Standing fighter
    (FACTS 2.5: "A hit Pins"; told with the hit, before its wound roll); Flesh Wounds that
    take Toughness to 0 put a fighter Out of Action (FACTS 2.4: "At T 0 the fighter goes
    Out of Action")."""
    if told is None:
        return None
    model, before, after = str(e["model"]), str(e["before"]), str(e["after"])
    said = shared(e)
    if after == OUT_OF_ACTION and told.pop(FINISHED_OFF, None) == model:
        return ""  # the Coup de Grace said it (`CoupDeGrace`)
    if after == PINNED and before == STANDING:
        if told.get("acting") != (model, "take-cover"):
            # the engine pins the fighters hit before it tells each hit: the pin is told
            # with the hit that caused it (`_hit`), in the order they happen
            told.setdefault(PIN_DUE, {})[model] = before
            return ""
        return said
    if after == OUT_OF_ACTION and told.get("fled") == model:  # FACTS 2.8: fleeing
        return f"{who(model)} is out of action: fled the battle (was {status_said(before)})"
    last = told.get("injured")
    if after == OUT_OF_ACTION and last and last[0] == model:
        results = last[1]
        if InjuryResult.OUT_OF_ACTION.value not in results and (
            InjuryResult.FLESH_WOUND.value in results
        ):
            return f"{said}: its Flesh Wounds took its Toughness to 0"
    return said


def _blaze(e: EventData) -> str:
    """FACTS 2.9, Blaze: the D6 to catch fire after a hit, or to put the fire out."""
    mods = "".join(f", {source} {signed(int(value))}" for source, value in e.get("modifiers", ()))
    roll = f"D6 {e['face']}{mods}, needs {e['need']}+"
    if e.get("weapon"):
        outcome = "catches fire" if e.get("success") else "does not catch fire"
        return f"{who(e['model'])} rolls for the {e['weapon']}'s Blaze: {roll}: {outcome}"
    outcome = "the fire goes out" if e.get("success") else "it burns on"
    return f"{who(e['model'])} rolls to put the fire out: {roll}: {outcome}"


def _forced(e: EventData) -> str:
    """A burning fighter's run (FACTS 2.9, Blaze: "moves 2D6\" at random") or a
    Knockback push ("hit roll >= target S pushes it 1\" (+1 D if blocked)"); the move
    itself is told here, not again by the Moved event after it."""
    name = who(e["model"])
    went = float(e["distance"])
    if e.get("blocked"):
        by = f"by {who_or_piece(e['stopped_by'])}" if e.get("stopped_by") else "at the table's edge"
        where = f"stopped {by} " + (f"after {inches(went)}" if went >= 0.05 else "at once")
    else:
        where = f"{inches(went)}"
    toward = heading(e["direction"])
    if e.get("cause") == "blaze":
        faces = [int(f) for f in e["faces"]]
        roll = " + ".join(str(f) for f in faces)
        # the whole of the 2D6" run is said once; where it was stopped short, that too
        stopped = f"; {where}" if e.get("blocked") else ""
        return (
            f"{name} runs burning toward the {toward}: {len(faces)}D6 {roll}, "
            f"{inches(e['wanted'])}{stopped}"
        )
    face, strength = int(e["faces"][0]), int(e["strength"])
    head = f"Knockback on {name}: {face} against its Strength {strength}"
    if float(e["wanted"]) <= 0:
        return f"{head}: not pushed"
    # the Damage the push added, as the event carries it; a log of rules before version
    # 3 has none: a push stopped short there added 1 (the bundled traits.toml's)
    added = int(e.get("damage", 1 if e.get("blocked") else 0))
    damage = f": the hit's Damage +{added}" if added else ""
    return f"{head}: pushed toward the {toward}, {where}{damage}"


def sentence(e: EventData) -> str | None:
    """An event as Necromunda says it (None: the shared wording serves)."""
    told = notebook(e)
    said = _sentence(e, told)
    if told is None:
        return said
    kind = e.get("event")
    # a failed flee test (a bottled gang, FACTS 2.8), for the change of state after it
    failed = kind == "Rolled" and e.get("purpose") == FLEE_TEST and "fail" in e["results"]
    told["fled"] = str(e["model"]) if failed else None
    # the Injury dice just rolled, for the change of state that follows them
    told["injured"] = (
        (str(e["model"]), [str(r) for r in e["results"]]) if kind == "InjuryRolled" else None
    )
    if kind == "StateChanged" and e.get("after") == OUT_OF_ACTION:
        told.setdefault(DOWN, set()).add(str(e["model"]))  # for `_ready`
    # a forced move is told whole: the Moved event after it says nothing more
    forced = told.pop("forced", None)
    if kind == "ForcedMove":
        told["forced"] = str(e["model"])
    elif kind == "Moved" and e.get("model") == forced:
        return ""
    # a fighter that ran for cover and is not moved next stayed where it was
    ran = told.pop("ran", None)
    if kind == "RanForCover":
        told["ran"] = str(e["model"])
    elif ran and not (kind == "Moved" and e.get("model") == ran):
        rest = said if said is not None else (shared(e) or "")
        return f"{who(ran)} stays where it stands\n{rest}".rstrip()
    return said


def _sentence(e: EventData, told: dict[str, Any] | None) -> str | None:
    kind = e.get("event")
    if kind == "Declared":
        return _declared(str(e["side"]), e["declaration"], told)
    if kind == "StateChanged":
        return _state_changed(e, told)
    if kind == "GameEnded":  # Necromunda plays rounds: "round limit (4)"
        reason = limit_said(str(e["reason"]), "round")
        return game_over({**e, "reason": reason}, "points of fighters still in the fight")
    if kind == "TurnStarted":
        ready = plural(_ready(e, told), "fighter")
        return f"Round {e['turn']}: {who(e['side'])} has priority; {ready} ready"
    if kind == "TurnEnded":
        return f"Round {e['turn']} ends"
    if kind == "Rolled":
        return _roll(e)
    if kind == "Wounded":
        return _wounded(e)
    if kind == "Hit" and told is not None and str(e["target"]) in told.get(PIN_DUE, {}):
        before = told[PIN_DUE].pop(str(e["target"]))
        return f"{shared(e)}; {who(e['target'])} is pinned (was {status_said(before)})"
    if kind == "Hit" and e.get("target_was") == OUT_OF_ACTION:
        # FACTS 2.6: a Rapid Fire weapon's hits are all allocated before rolling to wound;
        # one that comes after its target went out of action does nothing
        return (
            f"Another hit from {who(e['attacker'])}'s {e['weapon']} is lost: "
            f"{who(e['target'])} is already out of action"
        )
    if kind == "SaveRolled":
        wounds = int(e["wounds"])
        outcome = "no wound" if wounds == 0 else plural(wounds, "wound") + " go through"
        return f"{who(e['model'])} rolls a save ({e['target']}+): {dice(e['faces'])}, {outcome}"
    if kind == "PriorityRolled":
        faces = joined([f"{who(side)} {face}" for side, face in e["faces"]])
        winner = f"{who(e['side'])} has priority" if e.get("side") else "a tie, both roll again"
        return f"Round {e['turn']} priority roll: {faces}; {winner}"
    if kind == "Turned":
        return f"{who(e['model'])} turns to face {heading(e['facing'])}"
    if kind == "GroupNominated":  # FACTS 2.8: "Leaders may group-activate 2 fighters"
        return f"{who(e['model'])} leads a group activation with {listed(e['group'])}"
    if kind == "GroupMemberActivated":
        return f"{who(e['model'])} activates in {who(e['leader'])}'s group activation"
    if kind == "GroupMemberSkipped":
        return (
            f"{who(e['model'])} is {e['reason']}: it is passed over in "
            f"{who(e['leader'])}'s group activation"
        )
    if kind == "TargetChanged":
        return (
            f"{who(e['attacker'])} must shoot {who(e['target'])} instead of "
            f"{who(e['declared'])}: {e['reason']}"
        )
    if kind == "FirepowerRolled":
        return _firepower(e)
    if kind == "AmmoChanged":
        return f"{who(e['model'])}'s {e['weapon']}: {e['state']}"
    if kind == "StrayChecked":
        result = "hit instead" if e.get("hit") else "missed"
        return f"Stray shot check on {who(e['model'])}: D6 {e['face']}, {result}"
    if kind == "BlastPlaced":
        why = f" ({e['reason']})" if e.get("reason") else ""
        return (
            f"{who(e['attacker'])} places the {e['weapon']}'s {float(e['diameter']):g}\" blast "
            f"{centred(e)}{why}"
        )
    if kind == "ScatterRolled":
        face = "a Hit" if e.get("hit_face") else "an arrow"
        return f"Scatter dice: {face}, D6 {e['distance']}"
    if kind == "Scattered":
        x, y = e["end"]
        where = "off the table" if e.get("left_table") else f"to ({float(x):.1f}, {float(y):.1f})"
        stop = f", stopped by {who_or_piece(e['stopped_by'])}" if e.get("stopped_by") else ""
        return f"The blast scatters {inches(e['distance'])} {heading(e['direction'])} {where}{stop}"
    if kind == "Misfired":
        return f"The {e['weapon']} misfires: D6 {e['face']}, {e['result']}"
    if kind == "BlastRemoved":
        return f"The {e['weapon']}'s blast is removed: {e['reason']}"
    if kind == "TemplatePlaced" and "attacker" in e:  # Necromunda's own, not the shared one
        return (
            f"{who(e['attacker'])} lays the {e['weapon']}'s template toward the "
            f"{heading(e['direction'])}: it covers {listed(e.get('under', ()))}"
        )
    if kind == "InjuryRolled":
        return _injury(e)
    if kind == "CoupDeGrace":  # FACTS 2.4: "Coup de Grace ... which takes it OOA"
        if told is not None:
            told[FINISHED_OFF] = str(e["target"])
        return (
            f"{who(e['model'])} finishes off the Seriously Injured {who(e['target'])} with a "
            "Coup de Grace: Out of Action"
        )
    if kind == "BottleTested":
        result = "bottles out" if e.get("bottled") else "holds"
        return (
            f"{who(e['side'])} takes a Bottle test: D6 {e['face']} plus "
            f"{plural(int(e['casualties']), 'casualty', 'casualties')} against a crew of "
            f"{e['crew']}; the gang {result}"
        )
    if kind == "BrokenChanged":
        if e.get("broken"):
            return f"{who(e['model'])} is Broken: {e['reason']}"
        return f"{who(e['model'])} rallies and is no longer Broken"
    if kind == "BlazeRolled":
        if told is not None:
            burning = told.setdefault(BURNING, set())
            if e.get("weapon") and e.get("success"):
                burning.add(str(e["model"]))
            elif not e.get("weapon") and e.get("success"):
                burning.discard(str(e["model"]))
        return _blaze(e)
    if kind == "Burned":  # FACTS 2.9: "when it next activates it takes an S3 AP-1 hit"
        return (
            f"{who(e['model'])} is on fire, and the flames take its activation: a Strength "
            f"{e['strength']}, AP {signed(int(e['ap']))}, Damage {e['damage']} hit"
        )
    if kind == "ForcedMove":
        return _forced(e)
    if kind == "RanForCover":
        # where it ends is told by the Moved event that follows (none: it stays put)
        roll = f"2D6 {dice(e['faces'])}, " if e.get("faces") else "Prone, "
        meets = ": " + joined(e["meets"]) if e.get("meets") else ""
        return f"{who(e['model'])} runs for cover ({roll}up to {inches(e['allowance'])}){meets}"
    return None
