"""Infinity's events in its own words: Orders and AROs, BS Attacks against a Success
Value (SV), the Active Turn's Order pool. The registry's "sentences" part for
Infinity; game.sequencer.sentences words the rest."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from game.sequencer.infinity_orders import ACTIVE_STATES
from game.sequencer.sentences import (
    EventData,
    centred,
    dice,
    game_over,
    inches,
    joined,
    listed,
    notebook,
    plural,
    roles_spoken,
    rolled,
    shared,
    sums,
    who,
    won_by,
)

Point = tuple[float, float]
# Two points of a route closer than this are the same place (a tenth of an inch rounds to
# the distances the log gives).
SAME_PLACE = 0.05


# an Order by its pool (FACTS 3.4: Regular, Irregular, the Lieutenant Special Order)
POOL_WORDS = {
    "regular": "a regular Order",
    "irregular": "an irregular Order",
    "lieutenant": "the Lieutenant Order",
}


def orders_said(regular: int, irregular: Sequence[str], chief: bool) -> str:
    """An Active Turn's Orders said apart, as FACTS 3.4 keeps them: the regular pool, each
    irregular trooper's own Order and the Lieutenant Order ("4 Orders, Fusilier 1's own
    Order and the Lieutenant Order"; the window's Orders line and the log's turn alike)."""
    parts = [plural(regular, "Order")] if regular or not (irregular or chief) else []
    parts += [f"{who(m)}'s own Order" for m in irregular]
    if chief:
        parts.append("the Lieutenant Order")
    return joined(parts)


def _turn_orders(e: EventData, told: dict[str, Any] | None) -> str:
    """A turn's Orders (the event's count) said apart by the roles the telling knows and
    the states it has told (`orders_said`); the count alone where it knows none (an event
    told on its own) or they do not add up."""
    total = int(e.get("orders", 0))
    roles = roles_spoken()
    if told is None or not roles:
        return plural(total, "Order")
    side = str(e.get("side"))
    able = [m for m, r in roles.items() if r.side == side and r.role and _able(m, told)]
    irregular = [m for m in able if roles[m].role == "irregular"]
    chief = [m for m in able if roles[m].role == "lieutenant"][:1]  # one Order for the side
    told["own_orders"] = irregular + chief  # unspent, each its trooper's alone
    return _orders_left(total, told)


def _able(model: str, told: dict[str, Any]) -> bool:
    """Whether a trooper the telling knows by its role can act, by the states told."""
    start = roles_spoken()[model].state
    return told.get("status", {}).get(model, start) in ACTIVE_STATES


def _spendable(model: str, told: dict[str, Any]) -> bool:
    """Whether a trooper's own Order, unspent, may still be spent: an irregular
    trooper's while it can act, the Lieutenant Order while a Lieutenant of its side can
    (a file with two gives the side one, either may spend it)."""
    roles = roles_spoken()
    own = roles[model]
    if own.role != "lieutenant":
        return _able(model, told)
    return any(r.side == own.side and r.role == own.role and _able(m, told)
               for m, r in roles.items())  # fmt: skip


def _orders_left(total: int, told: dict[str, Any] | None) -> str:
    """The event's count of Orders left said apart, as the window's Orders line says it:
    the troopers' own Orders unspent since the turn's start (`_turn_orders`) that may
    still be spent (one put out of the fight takes its own with it, and the count leaves
    it out: InfinityEngine.orders_usable); the count alone where the turn's start was
    not told."""
    own = None if told is None else told.get("own_orders")
    if own is None or told is None:
        return plural(total, "Order")
    roles = roles_spoken()
    able = [m for m in own if _spendable(m, told)]
    regular = total - len(able)
    if regular < 0:
        return plural(total, "Order")
    irregular = [m for m in able if roles[m].role == "irregular"]
    chief = any(roles[m].role == "lieutenant" for m in able)
    return orders_said(regular, irregular, chief)


def _spent(e: EventData, told: dict[str, Any] | None) -> str:
    """An Order spent, and those left (`_orders_left`)."""
    pool = str(e.get("pool", "regular"))
    own = None if told is None else told.get("own_orders")
    if own is not None and pool in ("irregular", "lieutenant"):
        roles = roles_spoken()
        mine = [m for m in own if m == e.get("model") or roles[m].role == pool == "lieutenant"]
        own[:] = [m for m in own if m not in mine[:1]]
    if told is not None:
        told["orders_left"] = int(e["remaining"])
    left = _orders_left(int(e["remaining"]), told)
    spent = POOL_WORDS.get(pool, "an Order")
    return f"{who(e['side'])} spends {spent} on {who(e['model'])} ({left} left)"


def _targets(targets: Any) -> str:
    parts = [f"{who(t)} ({plural(int(n), 'die', 'dice')})" for t, n in targets or ()]
    return joined(parts, "nobody")


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


def _declared(side: str, d: Mapping[str, Any], told: dict[str, Any] | None) -> str:
    said = _declared_skill(side, d, told)
    if (d.get("skill") or {}).get("fail_guts"):
        return f"{said}, choosing to fail any Guts Roll this Order"
    return said


def _follow_order(d: Mapping[str, Any], told: dict[str, Any]) -> None:
    """Keep the Order's active trooper, its route so far (the waypoints after its start)
    and who dodges in it."""
    kind = d.get("declare")
    skill = d.get("skill") or {}
    if kind == "Activate":
        told["active"] = str(d.get("model"))
        told["route"] = []
    if kind in ("Activate", "Continue"):
        told.setdefault("route", []).extend(
            (float(x), float(y)) for x, y in skill.get("path") or ()
        )
        dodger = told.get("active")
    else:
        dodger = d.get("model")
    if kind in ("Activate", "Continue", "React") and skill.get("kind") == "dodge" and dodger:
        told.setdefault("dodging", []).append(str(dodger))


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    ax, ay = b[0] - a[0], b[1] - a[1]
    span = ax * ax + ay * ay
    t = 0.0 if span == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / span))
    return math.dist(p, (a[0] + t * ax, a[1] + t * ay)) < SAME_PLACE


def where_on_route(at: Point, route: Sequence[Point]) -> str:
    """Where the active trooper was when an ARO was taken, by its route so far (the
    waypoints after its start): "where it stands" (no move yet), "at the end of its move",
    "2.5\" short of the end of its move" (the distance along the route)."""
    if not route:
        return "where it stands"
    if math.dist(at, route[-1]) < SAME_PLACE:
        return "at the end of its move"
    left = 0.0
    for a, b in zip(reversed(route[:-1]), reversed(route[1:]), strict=True):
        if _on_segment(at, a, b):
            left += math.dist(at, b)
            break
        left += math.dist(a, b)
    else:  # on the first leg, from where it stood
        left += math.dist(at, route[0])
    return f"{inches(left)} short of the end of its move"


def at_on_route(at: Point, route: Sequence[Point]) -> str:
    """`where_on_route` after a name: "at the end of its move", "at 2.5\" short of the
    end of its move", "where it stands"."""
    where = where_on_route(at, route)
    return where if where.startswith(("at ", "where ")) else "at " + where


def _aro_taken(at: Any, skill: Mapping[str, Any], told: dict[str, Any] | None) -> str:
    """Where the ARO is taken: the active trooper's place on its route (told in order),
    else the point."""
    if not at:
        return ""
    point = (float(at[0]), float(at[1]))
    active = None if told is None else told.get("active")
    if active is None or told is None:
        return f" at ({point[0]:.1f}, {point[1]:.1f})"
    where = where_on_route(point, told.get("route", ()))
    if active in [str(t) for t, _ in skill.get("targets") or ()]:
        return f", {where}"  # "at Fusilier 1 (1 die), where it stands"
    return f", with {who(active)} {where}"


def _declared_skill(side: str, d: Mapping[str, Any], told: dict[str, Any] | None) -> str:
    kind = d.get("declare")
    skill = d.get("skill") or {}
    if kind == "Activate":
        return f"{who(side)}: Order to {who(d.get('model'))}, who {skill_words(skill)}"
    if kind == "React":
        where = _aro_taken(d.get("at"), skill, told)
        if str(skill.get("kind")) == "idle":
            return f"{who(side)}: {who(d.get('model'))} declares no ARO"
        return f"{who(side)}: ARO, {who(d.get('model'))} {skill_words(skill)}{where}"
    if kind == "Continue":
        active = None if told is None else told.get("active")
        if active is None:  # told without its Order (no trooper to name)
            return f"{who(side)}: second skill, {skill_words(skill)}"
        return f"{who(side)}: second skill of {who(active)}, who {skill_words(skill)}"
    if kind == "EndTurn":
        return _turn_given_up(side, told)
    return f"{who(side)}: {str(kind or 'a declaration').lower()}"


def _turn_given_up(side: str, told: dict[str, Any] | None) -> str:
    """The player ending its Active Turn (EndTurn): told in order, with the turn and the
    Orders it leaves unspent, and the turn's end that follows it says nothing more
    (`_turn_ended`): one line for one end ("Yj ends its Active Turn 1, 1 Order
    unspent")."""
    if told is None or "turn" not in told:
        return f"{who(side)} ends the Active Turn"
    told["given_up"] = True
    left = int(told.get("orders_left", 0))
    unspent = f", {_orders_left(left, told)} unspent" if left > 0 else ""
    return f"{who(side)} ends its Active Turn {told['turn']}{unspent}"


def _turn_ended(e: EventData, told: dict[str, Any] | None) -> str:
    """An Active Turn's end: nothing where the player ended it (`_turn_given_up` said
    it); where it ended with Orders the last one spent left (a trooper put out of the
    fight since took its own with it: FACTS 3.4, Infinity's rules version 3), why: those
    Orders, none of which a trooper able to act may spend."""
    said = f"{who(e['side'])}'s Active Turn {e['turn']} ends"
    if told is None:
        return said
    if told.pop("given_up", False):
        return ""  # told with the EndTurn declared
    if int(told.get("orders_left", 0)) <= 0:
        return said  # every Order spent
    roles = roles_spoken()
    lost = [m for m in told.get("own_orders", ()) if not _spendable(m, told)]
    irregular = [m for m in lost if roles[m].role == "irregular"]
    chief = any(roles[m].role == "lieutenant" for m in lost)
    if not (irregular or chief):
        return f"{said}: no Order left that a trooper able to act can spend"
    one = len(irregular) + chief == 1
    return (
        f"{said}: {orders_said(0, irregular, chief)} {'is' if one else 'are'} left, and no "
        f"trooper able to act may spend {'it' if one else 'them'}"
    )


# Where one Order ends and what follows begins: a new Order, the end of the Active Turn
# or of the game.
ORDER_ENDS = frozenset({"Activate", "EndTurn"})


def _undodged(e: EventData, told: dict[str, Any]) -> list[str]:
    """A Dodge with no attack to dodge is not rolled (the engine's reading): said once
    its Order is over, for each trooper that declared one and made no Dodge roll."""
    kind = e.get("event")
    if kind == "Rolled" and str(e.get("purpose", "")).startswith("Dodge"):
        dodging = told.get("dodging", [])
        if e.get("model") in dodging:
            dodging.remove(e.get("model"))
        return []
    ends = kind in ("TurnEnded", "GameEnded") or (
        kind == "Declared" and (e.get("declaration") or {}).get("declare") in ORDER_ENDS
    )
    if not ends:
        return []
    left = list(dict.fromkeys(told.pop("dodging", [])))
    return [f"{who(m)}'s Dodge: no attack to dodge, no roll" for m in left]


# How the engine's end reason at the turn limit says the tie-break (InfinityEngine._victory).
TROOPERS = "points of troopers still able to act"
TIE_BREAK = f", then {TROOPERS}"


def _game_over(e: EventData, told: dict[str, Any] | None) -> str:
    """The end of the game (its objectives named where it is told: `named`); where the
    objective points tied and the troopers' points decided (or tied too), said so with
    those points, which the event does not keep: counted from the states told ("Game
    over: won by Yu Jing; turn limit (3): objective points tied at 0 (none held), then points
    of troopers still able to act: PanOceania 12, Yu Jing 38", not "won by Yu
    Jing (PanOceania 0, Yu Jing 0)", which read as a win at 0-0)."""
    reason = str(e["reason"])  # its objectives named as the telling names every sentence
    scores = dict(e.get("scores") or {})
    tied = len(set(scores.values())) == 1
    if not (tied and reason.endswith(TIE_BREAK) and "objective points (" in reason):
        # the scores: the objective points where objectives decided, else the troopers'
        counted = "objective points" if "objective points (" in reason else TROOPERS
        return game_over({**e, "reason": reason}, counted)
    level = next(iter(scores.values()))
    reason = reason.replace("objective points (", f"objective points tied at {level} (", 1)
    roles = roles_spoken()
    if told is not None and roles:
        left = {s: sum(r.points for m, r in roles.items() if r.side == s and _able(m, told))
                for s in scores}  # fmt: skip
        reason += ": " + ", ".join(f"{who(s)} {n}" for s, n in left.items())
    return f"Game over: {won_by(e.get('winner'))}; {reason}"


def sentence(e: EventData) -> str | None:
    """An event as Infinity says it (None: the shared wording serves); told in order, a
    Dodge that had nothing to dodge is said before what follows its Order."""
    told = notebook(e)
    if told is not None and e.get("event") == "StateChanged":  # who can act at a turn's start
        told.setdefault("status", {})[str(e.get("model"))] = str(e.get("after"))
    before = _undodged(e, told) if told is not None else []
    said = _sentence(e, told)
    if before:
        return "\n".join([*before, said if said is not None else shared(e) or ""]).rstrip()
    return said


def _sentence(e: EventData, told: dict[str, Any] | None) -> str | None:
    kind = e.get("event")
    if kind == "Declared":
        if told is not None:
            _follow_order(e["declaration"], told)
        return _declared(str(e["side"]), e["declaration"], told)
    if kind == "CircleTemplatePlaced":
        return (
            f"{who(e['model'])} lays the {e['weapon']}'s Circular template "
            f'({float(e["diameter"]):g}") {centred(e)}: it covers '
            f"{listed(e.get('affected', ()))}"
        )
    if kind == "GutsFailed":
        return f"{who(e['model'])} chooses to fail its Guts Roll (no die rolled)"
    if kind == "TurnStarted":
        if told is not None:  # the turn, and its Orders left (`_turn_ended`)
            told.update(turn=int(e["turn"]), orders_left=int(e.get("orders", 0)))
            told.pop("given_up", None)
        return f"Turn {e['turn']}: {who(e['side'])}'s Active Turn, {_turn_orders(e, told)}"
    if kind == "GameEnded":
        return _game_over(e, told)
    if kind == "TurnEnded":
        return _turn_ended(e, told)
    if kind == "OrderSpent":
        return _spent(e, told)
    if kind == "Rolled":
        return rolled(e, sums(e), f"SV {e['target']}")
    if kind == "SaveRolled":
        wounds = int(e["wounds"])
        outcome = "no wound" if wounds == 0 else plural(wounds, "wound")
        if e.get("wound_on_low"):
            rule = f"a die of {e['target']} or less wounds"
        else:
            rule = f"a die of {e['target']} or less saves"
        return f"{who(e['model'])} rolls saves ({rule}): {dice(e['faces'])}, {outcome}"
    return None
