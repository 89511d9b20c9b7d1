"""Infinity Guts Rolls at the very end of an Order (N5; not used in CodeOne, FACTS 3.3).

A trooper that suffered an Attack forcing a Saving Roll this Order, and is not Engaged,
Unconscious or Dead, makes a Normal WIP roll. On a failure it takes the first option it
can: (1) move up to 2" to leave the Line of Fire of every attacker; (2) otherwise move
up to 2" to gain Partial or Total Cover from them; (3) otherwise go Prone (an earlier
edition's option: the rule value `guts_goes_prone`, unconfirmed for N5). The move
triggers no AROs and never goes toward an attacker.

"The player may choose to fail": a trooper's own skill of the Order (the active
trooper's Order skill, or its ARO) may say so (`Skill.failing_guts()`); then no die is
rolled (`GutsFailed`) and the failure's move follows as for a failed roll.

Readings where the sources are silent: the points tried are on 16 headings at 0.5",
1", 1.5" and 2", shortest first; "toward an attacker" means ending nearer any of them;
the choice to fail is declared with the trooper's skill, before the dice of the Order
(a trooper that declared nothing this Order, such as one under a template that gave
no ARO, makes the roll)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from game.geometry import Body, BodyId
from game.geometry.measures import pieces_near
from game.rules.infinity.cover import CONTACT
from game.rules.infinity.odds import FACES
from game.sequencer.events import Event, Hit, Moved, Rolled, SaveRolled, StateChanged
from game.sequencer.faces import face as roll
from game.sequencer.infinity_orders import ENGAGED_GAP, InfinityState, OrderInProgress, Point
from game.sequencer.sight import Cover, Placement

GUTS_MOVE = 2.0  # inches (FACTS 3.3)
HEADINGS = 16
STEPS = (0.5, 1.0, 1.5, 2.0)
PRONE_KEY = "guts_goes_prone"  # assets/infinity/rules.toml
PRONE = "prone"
NORMAL = "normal"


@dataclass(frozen=True, slots=True)
class GutsFailed(Event):
    """Infinity: `model` chose to fail its Guts Roll (no die rolled; FACTS 3.3)."""

    model: str


def failing(order: OrderInProgress | None) -> frozenset[str]:
    """The troopers whose skill this Order says they fail a Guts Roll on purpose."""
    if order is None:
        return frozenset()
    own = [s for s in (order.first, order.second) if s is not None]
    chosen = {order.model} if any(s.fail_guts for s in own) else set()
    chosen |= {r.model for r in order.reactions if r.skill.fail_guts}
    return frozenset(chosen)


def guts_rolls(
    engine: Any,
    state: InfinityState,
    events: Sequence[Event],
    rng: np.random.Generator,
    order: OrderInProgress | None = None,
) -> tuple[InfinityState, list[Event]]:
    """The Guts Rolls of one Order's end; `events` are those its resolution made,
    `order` the Order (what its troopers declared)."""
    fail = failing(order)
    saved_by = {e.model for e in events if isinstance(e, SaveRolled)}
    attackers: dict[str, list[str]] = {}
    for e in events:
        if isinstance(e, Hit) and e.target in saved_by:
            attackers.setdefault(e.target, [])
            if e.attacker not in attackers[e.target]:
                attackers[e.target].append(e.attacker)
    out: list[Event] = []
    for model, by in attackers.items():
        me = state.model(model)
        if me.status not in (NORMAL, PRONE) or _engaged(engine, state, model):
            continue
        if model in fail:
            passed = False  # failed on purpose: no die is rolled
            out.append(GutsFailed(model))
        else:
            wip = engine.profiles[model].wip
            face = roll(rng, FACES)
            passed = face <= wip  # a Normal roll: at or under the attribute
            out.append(
                Rolled(model, "Guts Roll", "WIP", wip, (), wip, (face,),
                       ("success" if passed else "fail",))
            )  # fmt: skip
        # an attacker the exchange took down threatens nothing (and a dead one is off
        # the table): only standing attackers are moved away from
        by = [a for a in by if state.model(a).status in (NORMAL, PRONE)]
        if passed or not by:
            continue
        state = _fall_back(engine, state, model, by, out)
    return state, out


def _engaged(engine: Any, state: InfinityState, model: str) -> bool:
    me = state.model(model)
    return any(
        m.side != me.side
        and m.status in (NORMAL, PRONE)
        and math.dist(m.at, me.at) - engine.radii[m.id] - engine.radii[model] <= ENGAGED_GAP
        for m in state.models
    )


def _headings(state: InfinityState, model: str, by: list[str]) -> list[Point]:
    """The points tried, shortest step first, then by heading, that are no nearer any
    attacker (whether the base can reach them is asked apart: `_reach`)."""
    me = state.model(model)
    near = {a: math.dist(me.at, state.model(a).at) for a in by}
    out = []
    for step in STEPS:
        for k in range(HEADINGS):
            angle = 2 * math.pi * k / HEADINGS
            to = (me.at[0] + step * math.cos(angle), me.at[1] + step * math.sin(angle))
            if any(math.dist(to, state.model(a).at) < near[a] - 1e-9 for a in by):
                continue
            out.append(to)
    return out


def _reach(engine: Any, state: InfinityState, model: str, to: Point) -> bool:
    """Whether the base can move straight to `to`."""
    me = state.model(model)
    return bool(engine.path_blocked(state, model, (me.at, to)) is None)


def _fall_back(
    engine: Any, state: InfinityState, model: str, by: list[str], out: list[Event]
) -> InfinityState:
    """The failed roll's move: of the points the base can reach, in `_headings`' order,
    the first out of every attacker's Line of Fire; else the first in Partial or Total
    Cover from every one of them; else Prone where the rule value says so.

    The points are looked at in that order and only as far as the answer needs: a
    point's reach is checked only when it could be chosen; line of fire is first
    proved without the visible fraction where nothing tall enough is in the way
    (`surely_seen`: most points, in the open), else the cheap exact question (no
    clear line at all) is asked, and a full sighting only where a clear line was
    found. The same point as asking everything of every candidate
    (tests/sequencer/test_infinity_guts.py)."""
    me = state.model(model)
    tried = _headings(state, model, by)
    reach: dict[int, bool] = {}
    clear: dict[tuple[int, str], bool] = {}

    def reachable(i: int) -> bool:
        if i not in reach:
            reach[i] = _reach(engine, state, model, tried[i])
        return reach[i]

    def ask(ks: range) -> None:
        asks = [(a, model, tried[k]) for k in ks for a in by]
        answers = iter(engine.lof_possible(state, asks))
        for k in ks:
            for a in by:
                clear[k, a] = next(answers)

    def moved(to: Point) -> dict[str, Placement]:
        return {model: Placement(to, me.facing)}

    seen: dict[tuple[int, str], bool] = {}  # line of fire, where (1) found it

    def lof(i: int, a: str) -> bool:
        # surely seen (no visible fraction needed): yes; no clear line: none; else the
        # sighting says
        if (i, a) not in seen:
            to = moved(tried[i])
            if engine.surely_seen(state, a, model, to):
                seen[i, a] = True
            else:
                if (i, a) not in clear:
                    ask(range(i, i + 1))
                seen[i, a] = clear[i, a] and engine.sighting(state, a, model, to).lof
        return seen[i, a]

    def covered(i: int, a: str) -> bool:
        # Infinity: with line of fire, Partial Cover needs scenery in contact (the
        # cover reading's CONTACT): a point with none near is in no cover from `a`
        if seen.get((i, a)) and not pieces_near(table, _base(engine, model, tried[i]), CONTACT):
            return False
        return engine.sighting(state, a, model, moved(tried[i])).cover is not Cover.NONE

    # (1) out of every attacker's Line of Fire
    for i, to in enumerate(tried):
        if not reachable(i):
            continue
        if not any(lof(i, a) for a in by):
            return _move(state, model, to, out)
    # (2) into Partial or Total Cover from every attacker (each point failed (1) on a
    # line of fire; the sightings (1) made are kept by the table's sight)
    table = engine.sight.table_at({})  # the scenery: contact with it
    for i, to in enumerate(tried):
        if reachable(i) and all(covered(i, a) for a in by):
            return _move(state, model, to, out)
    # (3) Prone, where the rule value says so
    values = getattr(engine.setup, "rule_values", {}) or {}
    if values.get(PRONE_KEY, 0) and me.status == NORMAL:
        out.append(StateChanged(model, NORMAL, PRONE))
        return state.with_model(me.replace(status=PRONE))
    return state


def _base(engine: Any, model: str, at: Point) -> Body:
    """The trooper's base standing at `at` (for the scenery in contact with it)."""
    return Body(BodyId(model), at, engine.radii[model], 1.0)


def _move(state: InfinityState, model: str, to: Point, out: list[Event]) -> InfinityState:
    me = state.model(model)
    out.append(Moved(model, (me.at, to), math.dist(me.at, to)))
    return state.with_model(me.replace(at=to))
