"""Infinity on the order sequencer: the Order Expenditure Sequence and the turn structure.

The Order Expenditure Sequence (FACTS 3.4) as declarations:

1. `Activate(model, skill)`: the active player spends an Order and declares the
   first skill (Move, BS Attack, Dodge or Idle).
2. `React(model, skill, at)`: each enemy trooper eligible for an ARO declares one
   (Idle = no ARO). Eligible: the active trooper acts in its LoF and inside its
   180 degree arc (any skill), or inside its 8" Zone of Control (Dodge only).
3. `Continue(skill)`: the second skill (Idle if none).
4. `React(...)` again, for troopers that first became eligible now.
5-7. Resolution: moves, rolls (Face-to-Face where both attacks affect each
   other, Normal otherwise), saves, wounds and states; then the next Order.

`EndTurn()` gives up the Orders left; the turn also ends when no Order left can be
spent by a trooper able to act (FACTS 3.4). A game round is one turn of each side.

The declarations and the state of an Order are in `infinity_orders`; how the rolls of
steps 5-7 resolve (BS Attacks, Face-to-Face, templates, saves) is in `infinity_attacks`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from game.errors import IllegalDeclaration
from game.geometry import Body, BodyId
from game.geometry.measures import pieces_near
from game.rules.infinity.data import InfinityProfile, InfinityWeapon
from game.rules.infinity.saves import SaveSystem
from game.sequencer.declarations import Declaration, check_numbers
from game.sequencer.engine import Awaiting
from game.sequencer.events import (
    Declared,
    Event,
    GameEnded,
    Moved,
    OrderSpent,
    TurnEnded,
    TurnStarted,
    beaten_reason,
)
from game.sequencer.infinity_attacks import (
    InfinityAttacks,
    PlannedRoll,
    is_direct_template,
    is_impact_template,
)
from game.sequencer.infinity_guts import guts_rolls
from game.sequencer.infinity_orders import (
    ACTIVE_STATES,
    ARO_BURST,
    CLOSE_COMBAT_MOD,
    ENGAGED_GAP,
    MAX_BURST,
    PARTIAL_COVER_MOD,
    PATH_STEP,
    ZONE_OF_CONTROL,
    Activate,
    Continue,
    EndTurn,
    InfinityState,
    OrderInProgress,
    Point,
    React,
    Reaction,
    Skill,
    SkillKind,
    Stage,
    _along,
    _heading,
    _length,
    _on_route,
    _skill_dict,
)
from game.sequencer.infinity_sentences import at_on_route
from game.sequencer.setup import Setup
from game.sequencer.sight import Blocked, Cover, Placement, Sight, Sighting
from game.sequencer.state import GameState, ModelState, renew
from game.words import joined, over

__all__ = [
    "ACTIVE_STATES", "ARO_BURST", "CLOSE_COMBAT_MOD", "ENGAGED_GAP", "MAX_BURST",
    "PARTIAL_COVER_MOD", "PATH_STEP", "ZONE_OF_CONTROL", "Activate", "Continue", "EndTurn",
    "InfinityEngine", "InfinityState", "OrderInProgress", "PlannedRoll", "React", "Reaction",
    "Skill", "SkillKind", "Stage", "_along", "is_direct_template",
]  # fmt: skip


class InfinityEngine(InfinityAttacks):
    """Infinity's Order Expenditure Sequence and turns (attacks: `InfinityAttacks`)."""

    checks_numbers = True  # `apply` refuses bad numbers first: Game.declare need not

    def __init__(self, setup: Setup, sight: Sight | None = None) -> None:
        self.setup = setup
        if sight is None:
            from game.sequencer.table_sight import shared_sight

            sight = shared_sight(setup)
        self.sight = sight
        self.profiles: dict[str, InfinityProfile] = {}
        self.weapons: dict[str, tuple[str, ...]] = {}
        self.lieutenants: set[str] = set()
        self.points: dict[str, int] = {}
        self.radii: dict[str, float] = {}
        self._weapons_of: dict[str, tuple[InfinityWeapon, ...]] = {}  # weapons_of's, once
        for m in setup.models:
            profile = setup.profiles[m.profile]
            assert isinstance(profile, InfinityProfile)
            self.profiles[m.id] = profile
            self.weapons[m.id] = m.weapons
            self.points[m.id] = profile.points
            self.radii[m.id] = m.radius
            if m.lieutenant:
                self.lieutenants.add(m.id)
        self.system = SaveSystem.CODEONE if setup.header.saves == "codeone" else SaveSystem.N5
        self.turns = setup.header.turns

    # -- state ---------------------------------------------------------------

    def start(self, *, rng: np.random.Generator) -> tuple[GameState, list[Event]]:
        models = tuple(
            ModelState(m.id, m.side, m.at, m.facing, m.state or "normal") for m in self.setup.models
        )
        sides = tuple(s.id for s in self.setup.sides)
        state = InfinityState(turn=1, active=sides[0], sides=sides, models=models)
        return self._begin_turn(state, [])

    def _can_act(self, m: ModelState) -> bool:
        return m.status in ACTIVE_STATES

    def _begin_turn(
        self, state: InfinityState, events: list[Event]
    ) -> tuple[InfinityState, list[Event]]:
        """Infinity Tactical Phase: one Order per trooper able to act, plus the Lieutenant's."""
        able = [m for m in state.side_models(state.active) if self._can_act(m)]
        irregular = frozenset(m.id for m in able if self.profiles[m.id].irregular)
        regular = sum(1 for m in able if m.id not in irregular)
        lieutenant = any(m.id in self.lieutenants for m in able)
        state = renew(
            state, orders=regular, irregular=irregular, lieutenant_order=lieutenant, order=None
        )
        events.append(
            TurnStarted(state.turn, state.active, regular + len(irregular) + int(lieutenant))
        )
        return state, events

    def _pool_for(self, state: InfinityState, model_id: str) -> str | None:
        """Which Order pays for this trooper: its own Irregular Order, then the regular
        pool; the Lieutenant its Lieutenant Order first, then the pool. FACTS 3.4: an
        irregular trooper may spend regular pool Orders too once its own is spent; the
        Lieutenant Special Order is for the Lieutenant only, so a player spends it before
        an Order any trooper could use (one left unspent goes with a Lieutenant put out
        of the fight; an irregular trooper is never Lieutenant)."""
        if model_id in state.irregular:
            return "irregular"
        if model_id in self.lieutenants and state.lieutenant_order:
            return "lieutenant"
        if state.orders > 0:
            return "regular"
        return None

    def _none_left(self, state: InfinityState, model_id: str) -> str:
        """Why a trooper able to act has no Order to spend: none left, or only Orders
        that are other troopers' alone (FACTS 3.4), said with who may spend them (ids,
        named where the refusal is shown)."""
        _, irregular, chief = self.orders_apart(state)
        if not (irregular or chief):
            return f"no Order left for {model_id}"
        if not irregular:
            chief_id = next(m.id for m in state.side_models(state.active)
                            if m.id in self.lieutenants and self._can_act(m))  # fmt: skip
            return f"only the Lieutenant Order is left: {chief_id}, the Lieutenant, may spend it"
        if len(irregular) == 1 and not chief:
            return f"only {irregular[0]}'s own Order is left: {irregular[0]} alone may spend it"
        own = [f"{m}'s own Order" for m in irregular]
        own += ["the Lieutenant Order"] if chief else []
        return f"only {joined(own)} are left, each for its own trooper alone"

    def _orders_left(self, state: InfinityState) -> int:
        """The Orders left that a trooper of the active side can still spend
        (`orders_usable`): those of a trooper put out of the fight are nobody's (FACTS
        3.4), so they are not counted, and the turn ends when none is left (rules
        version 3: before, they were, and the turn waited for an Order nobody could
        spend until the player ended it)."""
        return self.orders_usable(state)[0]

    def awaiting(self, state: GameState) -> Awaiting:
        assert isinstance(state, InfinityState)
        if state.finished:
            return Awaiting(None, "over")
        order = state.order
        if order is None:
            able = tuple(
                m.id
                for m in state.side_models(state.active)
                if self._can_act(m) and self._pool_for(state, m.id) is not None
            )
            return Awaiting(state.active, "order", able)
        if order.stage is Stage.SECOND:
            return Awaiting(state.active, "second", (order.model,))
        reacted = {r.model for r in order.reactions}
        waiting = tuple(r for r, _ in order.eligible if r not in reacted)
        return Awaiting(state.other_side(state.active), "aro", waiting)

    # -- questions players (and AI) ask ---------------------------------------

    def can_act(self, model: ModelState) -> bool:
        return self._can_act(model)

    def orders_usable(self, state: InfinityState) -> tuple[int, bool]:
        """The active side's Orders left that a trooper able to act can spend (the pool,
        the Irregular Orders of those still able, the Lieutenant Order while its
        Lieutenant is: FACTS 3.4, one put out of the fight takes it with it) and
        whether the Lieutenant Order is among them (the Lieutenant spends it first)."""
        regular, irregular, chief = self.orders_apart(state)
        return regular + len(irregular) + int(chief), chief

    def orders_apart(self, state: InfinityState) -> tuple[int, tuple[str, ...], bool]:
        """`orders_usable` said apart (FACTS 3.4): the regular pool, the troopers able to
        act whose own Irregular Order is unspent (in the side's order), and whether the
        Lieutenant Order is among them."""
        able = [m.id for m in state.side_models(state.active) if self._can_act(m)]
        chief = state.lieutenant_order and not self.lieutenants.isdisjoint(able)
        return state.orders, tuple(m for m in able if m in state.irregular), chief

    def sighting(
        self,
        state: GameState,
        shooter: str,
        target: str,
        moved: Mapping[str, Placement] | None = None,
    ) -> Sighting:
        """Line of fire, arc, cover and distance, the models placed by `state` and `moved`."""
        return self.sight.sighting(self._placements(state, moved), shooter, target)

    def surely_seen(
        self,
        state: GameState,
        shooter: str,
        target: str,
        moved: Mapping[str, Placement] | None = None,
    ) -> bool:
        """True when `sighting(...).lof` surely holds, found without the visible
        fraction (a sight that cannot tell says False); False: ask `sighting`."""
        ask = getattr(self.sight, "surely_seen", None)
        return bool(ask(self._placements(state, moved), shooter, target)) if ask else False

    def lof_possible(
        self,
        state: GameState,
        asks: Sequence[tuple[str, str, Point | None]],
        moved: Mapping[str, Placement] | None = None,
    ) -> list[bool]:
        """For each (shooter, target, where the target stands; None: where `state` and
        `moved` put it): False when surely no line of fire (the cheap exact question,
        batched); True: ask `sighting`."""
        placements = self._placements(state, moved)
        return self.sight.clear_to(
            placements, [(a, b, at if at is not None else placements[b].at) for a, b, at in asks]
        )

    def in_arc(
        self,
        state: GameState,
        shooter: str,
        target: str,
        moved: Mapping[str, Placement] | None = None,
    ) -> bool:
        """Whether the target is at least partly in the shooter's arc (cheap: no sight lines)."""
        return self.sight.in_arc(self._two(state, shooter, target, moved), shooter, target)

    def arcs_and_distances(
        self,
        state: GameState,
        shooter: str,
        targets: Sequence[str],
        moved: Mapping[str, Placement] | None = None,
    ) -> list[tuple[bool, float]]:
        """`in_arc` and `distance` from the shooter to each target at once."""
        placed = state.placed(("dead",))
        a = moved[shooter] if moved and shooter in moved else placed[shooter]
        where = [(t, moved[t] if moved and t in moved else placed[t]) for t in targets]
        many = getattr(self.sight, "arcs_and_distances", None)
        if many is not None:
            return list(many(shooter, a, where))
        out = []
        for t, b in where:
            pair = {shooter: a, t: b}
            out.append((self.sight.in_arc(pair, shooter, t), self.sight.distance(pair, shooter, t)))
        return out

    def distance(
        self, state: GameState, a: str, b: str, moved: Mapping[str, Placement] | None = None
    ) -> float:
        """Edge to edge, in inches."""
        return self.sight.distance(self._two(state, a, b, moved), a, b)

    def _two(
        self, state: GameState, a: str, b: str, moved: Mapping[str, Placement] | None
    ) -> dict[str, Placement]:
        """The placements of `a` and `b` alone, as `_placements` has them: all that an arc
        or a distance reads."""
        placed = state.placed(("dead",))
        if not moved:
            return {a: placed[a], b: placed[b]}
        return {x: moved[x] if x in moved else placed[x] for x in (a, b)}

    def weapon(self, model_id: str, name: str | None = None) -> InfinityWeapon:
        """The trooper's weapon called `name` (its first when None); IllegalDeclaration
        if it has no such weapon."""
        return self._weapon(model_id, name)

    def planned_roll(
        self,
        state: GameState,
        shooter: str,
        target: str,
        weapon: str,
        *,
        reactive: bool = False,
        origin: Point | None = None,
    ) -> PlannedRoll:
        """The roll `shooter` would make with `weapon` at `target` (full Burst; Burst 1
        when `reactive`) from `origin` (default: where it stands): MODs, SV, Burst."""
        m = state.model(shooter)
        w = self._weapon(shooter, weapon)
        skill = Skill.attack(w.name, (target, w.burst))
        rolls = self._attack_rolls(
            state, shooter, origin or m.at, m.facing, skill, reactive=reactive
        )
        return rolls[target]

    def weapons_of(self, model_id: str) -> list[InfinityWeapon]:
        found = self._weapons_of.get(model_id)
        if found is None:
            found = self._weapons_of[model_id] = tuple(
                self._weapon(model_id, name) for name in self.weapons[model_id]
            )
        return list(found)

    def path_blocked(
        self, state: GameState, model_id: str, path: tuple[Point, ...]
    ) -> Blocked | None:
        return self.sight.path_blocked(self._placements(state), model_id, path)

    # -- declarations ----------------------------------------------------------

    def apply(
        self, state: GameState, declaration: Declaration, *, rng: np.random.Generator
    ) -> tuple[GameState, list[Event]]:
        assert isinstance(state, InfinityState)
        check_numbers(declaration, self.setup.header.table)
        events: list[Event] = []
        if isinstance(declaration, Activate):
            state = self._activate(state, declaration, events)
        elif isinstance(declaration, React):
            state = self._react(state, declaration, events)
        elif isinstance(declaration, Continue):
            state = self._continue(state, declaration, events)
        elif isinstance(declaration, EndTurn):
            if state.order is not None:
                raise IllegalDeclaration("finish the Order in progress before ending the turn")
            events.append(Declared(state.active, declaration.to_dict()))
            return self._end_turn(state, events)
        else:
            raise IllegalDeclaration(f"Infinity has no declaration {type(declaration).__name__}")
        order = state.order
        if order is not None and order.stage in (Stage.ARO_FIRST, Stage.ARO_SECOND):
            reacted = {r.model for r in order.reactions}
            if all(r in reacted for r, _ in order.eligible):
                if order.stage is Stage.ARO_FIRST:
                    state = renew(state, order=renew(order, stage=Stage.SECOND))
                else:
                    state = self._resolve(state, events, rng)
        return state, events

    def _model(self, state: GameState, model_id: str) -> ModelState:
        try:
            return state.model(model_id)
        except KeyError:
            raise IllegalDeclaration(f"there is no model {model_id!r}") from None

    def _activate(self, state: InfinityState, d: Activate, events: list[Event]) -> InfinityState:
        if state.order is not None:
            raise IllegalDeclaration(f"{state.order.model} is still carrying out its Order")
        m = self._model(state, d.model)
        if m.side != state.active:
            raise IllegalDeclaration(f"{m.id} is not on the active side ({state.active})")
        if not self._can_act(m):
            raise IllegalDeclaration(f"{m.id} is {m.status} and cannot act")
        pool = self._pool_for(state, m.id)
        if pool == "irregular":
            state2 = renew(state, irregular=state.irregular - {m.id})
        elif pool == "regular":
            state2 = renew(state, orders=state.orders - 1)
        elif pool == "lieutenant":
            state2 = renew(state, lieutenant_order=False)
        else:
            raise IllegalDeclaration(self._none_left(state, m.id))
        route, facing = self._route_after(state, m, (m.at,), m.facing, d.skill, first=True)
        order = OrderInProgress(m.id, m.at, d.skill, route, facing, Stage.ARO_FIRST, ())
        eligible = self._eligible(state2, order, d.skill, route, already=())
        order = renew(order, eligible=eligible)
        events.append(
            Declared(m.side, {"declare": "Activate", "model": m.id, "skill": _skill_dict(d.skill)})
        )
        events.append(OrderSpent(m.side, m.id, pool, self._orders_left(state2)))
        return renew(state2, order=order)

    def _route_after(
        self,
        state: GameState,
        m: ModelState,
        route: tuple[Point, ...],
        facing: float,
        skill: Skill,
        *,
        first: bool,
    ) -> tuple[tuple[Point, ...], float]:
        """Check a skill against the route so far; return the route and facing after it."""
        profile = self.profiles[m.id]
        if skill.kind is SkillKind.MOVE:
            if not skill.path:
                raise IllegalDeclaration("a Move needs at least one point to move to")
            allowance = profile.mov[0] if first else profile.mov[1]
            legs = (route[-1], *skill.path)
            length = _length(legs)
            if length > allowance + 1e-6:
                raise IllegalDeclaration(
                    f'{m.id} can move {allowance:g}" with this Move, not {over(length, allowance)}'
                )
            placements = self._placements(state, {m.id: Placement(route[-1], facing)})
            blocked = self.sight.path_blocked(placements, m.id, legs)
            if blocked:
                raise IllegalDeclaration(f"{m.id} cannot move there: {blocked.why}")
            end_facing = (
                skill.facing if skill.facing is not None else _heading(legs[-2], legs[-1], facing)
            )
            return (*route, *skill.path), end_facing
        if skill.kind is SkillKind.ATTACK:
            self._check_attack(state, m, route, facing, skill)
        return route, facing

    def _check_attack(
        self, state: GameState, m: ModelState, route: tuple[Point, ...], facing: float, skill: Skill
    ) -> None:
        weapon = self._weapon(m.id, skill.weapon)
        if not skill.targets:
            raise IllegalDeclaration("a BS Attack needs at least one target")
        if is_impact_template(weapon) and len(skill.targets) != 1:
            raise IllegalDeclaration(
                f"{weapon.name}: an Impact Template attack has one Main Target"
            )
        dice = sum(n for _, n in skill.targets)
        burst = 1 if skill.speculative else min(weapon.burst, MAX_BURST)
        if any(n < 1 for _, n in skill.targets):
            raise IllegalDeclaration("each target needs at least one die")
        if dice != burst:
            # Infinity: in the Active Turn a trooper uses its full Burst (seed 002).
            raise IllegalDeclaration(f"{weapon.name} has Burst {burst}; {dice} dice were assigned")
        origin = skill.origin if skill.origin is not None else route[-1]
        if not _on_route(route, origin):
            raise IllegalDeclaration(f"the attack's origin {origin} is not on {m.id}'s route")
        placements = self._placements(state, {m.id: Placement(origin, facing)})
        seen: set[str] = set()
        for target_id, _ in skill.targets:
            if target_id in seen:
                raise IllegalDeclaration(
                    f"{target_id} is named twice; give it all its dice at once"
                )
            seen.add(target_id)
            t = self._model(state, target_id)
            if t.id == m.id:
                raise IllegalDeclaration(f"{m.id} cannot target itself")
            if t.side == m.side:
                # Infinity: a BS Attack is declared against an enemy Trooper (seed 000)
                raise IllegalDeclaration(f"{t.id} is an allied trooper ({m.side}), not an enemy")
            if t.status == "dead":
                raise IllegalDeclaration(f"{t.id} is dead")
            s = self.sight.sighting(placements, m.id, t.id)
            if not s.in_arc:
                raise IllegalDeclaration(f"{t.id} is outside {m.id}'s 180 degree arc")
            if skill.speculative:
                self._check_speculative(state, m, weapon, t, skill, s, placements)
                continue
            if not s.lof or s.cover is Cover.TOTAL:
                raise IllegalDeclaration(
                    f"{m.id} has no line of fire to {t.id}"
                    + (f" ({s.reason})" if s.reason else " (total cover)")
                )
            if is_direct_template(weapon):
                self._template(state, m.id, origin, facing, weapon, t.id)

    def _speculative_entire(self) -> bool:
        """Whether a Speculative Attack is an Entire Order (rule data, unconfirmed)."""
        return bool(getattr(self.setup, "rule_values", {}).get("speculative_entire_order", 1))

    def _check_speculative(
        self,
        state: GameState,
        m: ModelState,
        weapon: InfinityWeapon,
        t: ModelState,
        skill: Skill,
        s: Sighting,
        placements: Mapping[str, Placement],
    ) -> None:
        """Infinity Speculative Attack (FACTS 3.7): one BS Attack, Burst 1, at a target
        outside LoF, with an Impact Template weapon whose centre lies on the floor (not
        on or in scenery: the trajectory is read as clear there) with the target under
        the template; in range."""
        if not is_impact_template(weapon):
            raise IllegalDeclaration(
                f"{weapon.name} has no Circular Impact Template: no Speculative Attack"
            )
        if s.lof and s.cover is not Cover.TOTAL:
            raise IllegalDeclaration(f"{m.id} has line of fire to {t.id}: shoot it directly")
        if weapon.range_mod(s.distance) is None:
            raise IllegalDeclaration(f"{t.id} is out of range of the {weapon.name}")
        centre = skill.at if skill.at is not None else placements[t.id].at
        width, depth = self.setup.header.table
        if not (0 <= centre[0] <= width and 0 <= centre[1] <= depth):
            raise IllegalDeclaration(f"the template's centre {centre} is off the table")
        table = self.sight.table_at(dict(placements))
        spot = Body(BodyId("\x00speculative"), centre, 1e-6, 1e-6)
        on = pieces_near(table, spot, 0.0)
        if on:
            raise IllegalDeclaration(
                f"the template's centre {centre} is on {on[0]}: a Speculative Attack lands "
                "on the floor"
            )
        if t.id not in self.under_circle(m.id, weapon, centre, placements):
            raise IllegalDeclaration(f"{t.id} is not under the template centred at {centre}")

    def _eligible(
        self,
        state: GameState,
        order: OrderInProgress,
        skill: Skill,
        route: tuple[Point, ...],
        already: Iterable[str],
    ) -> tuple[tuple[str, bool], ...]:
        """Enemy troopers that may declare an ARO, with whether any ARO (True) or only Dodge."""
        done = set(already)
        under = self._under_template(state, order, skill, route)
        path = route if skill.kind is SkillKind.MOVE else (route[-1],)
        active = state.model(order.model)
        reactors = [
            r
            for r in state.models
            if r.side != active.side and r.id not in done and self._can_act(r)
        ]
        if not reactors:
            return ()
        base = self._placements(state)
        out: list[tuple[str, bool]] = []
        for r in reactors:
            # Infinity: an ARO needs LoF (in the arc, enough of the trooper seen, not total
            # cover: the cover reading is Total exactly where not enough is seen, so the
            # sight's own "line of fire in the arc") at any point along the movement, or
            # the trooper inside its Zone of Control (8"): the whole route is swept, leg
            # by leg
            seen = self.sight.route_sight(
                base,
                r.id,
                active.id,
                path,
                order.facing,
                reach=ZONE_OF_CONTROL,
                first=True,
            )
            lof = seen.seen_at is not None
            zoc = lof or bool(seen.near)
            # Infinity: or under a template, even out of LoF and ZoC (FACTS 3.4)
            if lof or zoc or r.id in under:
                out.append((r.id, lof))
        return tuple(out)

    def aro_points(self, state: GameState, reactor: str) -> list[Point]:
        """Points of the order's route from which `reactor` may have line of fire to the
        active trooper, for an ARO's `at`: the first is one where the full sighting has
        it, then the middle and the points PATH_STEP apart of each stretch the sweep
        finds (the caller reads the sighting there); empty when there is none."""
        order = getattr(state, "order", None)
        if order is None:
            return []
        seen = self.sight.route_sight(
            self._placements(state), reactor, order.model, order.route, order.facing
        )
        if seen.seen_at is None:
            return []
        points: list[Point] = [seen.seen_at]
        for a, b in seen.seen:
            middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            points += [middle, *_along((a, b))] if a != b else [a]
        return list(dict.fromkeys(points))

    def _under_template(
        self, state: GameState, order: OrderInProgress, skill: Skill, route: tuple[Point, ...]
    ) -> frozenset[str]:
        """The troopers a template declared by `skill` lies over."""
        if skill.kind is not SkillKind.ATTACK or not skill.targets:
            return frozenset()
        weapon = self._weapon(order.model, skill.weapon)
        origin = skill.origin if skill.origin is not None else route[-1]
        if is_impact_template(weapon):
            placements = self._placements(state, {order.model: Placement(origin, order.facing)})
            main = skill.targets[0][0]
            return frozenset(self.under_circle(order.model, weapon, placements[main].at,
                                               placements))  # fmt: skip
        if not is_direct_template(weapon):
            return frozenset()
        laid = self._template(state, order.model, origin, order.facing, weapon, skill.targets[0][0])
        return frozenset(laid.affected)

    def _react(self, state: InfinityState, d: React, events: list[Event]) -> InfinityState:
        order = state.order
        if order is None or order.stage not in (Stage.ARO_FIRST, Stage.ARO_SECOND):
            raise IllegalDeclaration("no ARO can be declared now")
        eligible = dict(order.eligible)
        if d.model not in eligible:
            raise IllegalDeclaration(
                f"{d.model} cannot react to {order.model} now "
                "(no line of fire, not in its Zone of Control)"
            )
        if any(r.model == d.model for r in order.reactions):
            raise IllegalDeclaration(f"{d.model} has already declared its ARO")
        at = d.at if d.at is not None else order.route[-1]
        if not _on_route(order.route, at):
            x, y = at
            raise IllegalDeclaration(
                f'the point picked ({x:.1f}", {y:.1f}") is not on {order.model}\'s route'
            )
        kind = d.skill.kind
        if kind is SkillKind.MOVE:
            raise IllegalDeclaration("Move is not an ARO here; declare Dodge, a BS Attack or Idle")
        if kind is SkillKind.ATTACK:
            if not eligible[d.model]:
                raise IllegalDeclaration(
                    f"{d.model} has no line of fire to {order.model}: "
                    "inside its Zone of Control it may only Dodge"
                )
            if d.skill.speculative:
                raise IllegalDeclaration("a Speculative Attack is not played as an ARO")
            if len(d.skill.targets) != 1 or d.skill.targets[0][0] != order.model:
                raise IllegalDeclaration(f"an ARO must target the active trooper, {order.model}")
            if d.skill.targets[0][1] != ARO_BURST:
                raise IllegalDeclaration("in ARO the Burst is 1")
            weapon = self._weapon(d.model, d.skill.weapon)
            moved = {order.model: Placement(at, order.facing)}
            placements = self._placements(state, moved)
            s = self.sight.sighting(placements, d.model, order.model)
            if not (s.lof and s.in_arc) or s.cover is Cover.TOTAL:
                where = at_on_route(at, order.route[1:])
                raise IllegalDeclaration(f"{d.model} has no line of fire to {order.model} {where}")
            if is_direct_template(weapon):
                reactor = state.model(d.model)
                self._template(
                    state, d.model, reactor.at, reactor.facing, weapon, order.model, moved
                )
        reactor = state.model(d.model)
        events.append(Declared(reactor.side, d.to_dict()))
        order = renew(order, reactions=(*order.reactions, Reaction(d.model, d.skill, at)))
        return renew(state, order=order)

    def second_refused(
        self, state: InfinityState, kind: SkillKind, *, speculative: bool = False
    ) -> str:
        """Why a second skill of `kind` may not follow the Order's first ("" when it may):
        the Order's skills as they pair, not where the skill goes or at whom."""
        order = state.order
        if order is None or order.stage is not Stage.SECOND:
            return "no second skill can be declared now"
        first = order.first.kind
        both = first is not SkillKind.IDLE and kind is not SkillKind.IDLE
        if (order.first.speculative or speculative) and both and self._speculative_entire():
            return "a Speculative Attack takes the entire Order: the other skill is Idle"
        actions = {SkillKind.ATTACK, SkillKind.DODGE}
        # Infinity: Short Movement + Short Movement, or Short Movement + Short Skill.
        if first in actions and kind in actions:
            return f"{first} and {kind} cannot share one Order (one Short Skill at most)"
        return ""

    def _continue(self, state: InfinityState, d: Continue, events: list[Event]) -> InfinityState:
        order = state.order
        why = self.second_refused(state, d.skill.kind, speculative=d.skill.speculative)
        if why:
            raise IllegalDeclaration(why)
        assert order is not None
        first, second = order.first.kind, d.skill.kind
        m = state.model(order.model)
        route, facing = self._route_after(
            state, m, order.route, order.facing, d.skill, first=first is not SkillKind.MOVE
        )
        order = renew(order, route=route, facing=facing, second=d.skill)
        done = [r for r, _ in order.eligible]
        lays_template = (
            second is SkillKind.ATTACK and self._weapon(m.id, d.skill.weapon).template is not None
        )
        new = (
            self._eligible(state, order, d.skill, route, already=done)
            if second is SkillKind.MOVE or lays_template
            else ()
        )
        order = renew(order, eligible=(*order.eligible, *new), stage=Stage.ARO_SECOND)
        events.append(
            Declared(state.active, {"declare": "Continue", "skill": _skill_dict(d.skill)})
        )
        return renew(state, order=order)

    # -- resolution ------------------------------------------------------------

    def _resolve(
        self, state: InfinityState, events: list[Event], rng: np.random.Generator
    ) -> InfinityState:
        order = state.order
        assert order is not None
        active = state.model(order.model)
        if len(order.route) > 1:
            events.append(Moved(active.id, order.route, _length(order.route)))
        end = order.route[-1]
        state = renew(state.with_model(active.replace(at=end, facing=order.facing)), order=None)
        made = len(events)
        state = self._resolve_skills(state, order, events, rng)
        if self.system is SaveSystem.N5:
            # 7. Conclusion: Guts Rolls (N5 only, FACTS 3.3)
            state, guts = guts_rolls(self, state, events[made:], rng, order)
            events.extend(guts)
        return self._after_order(state, events)

    # -- turns and victory -----------------------------------------------------

    def _after_order(self, state: InfinityState, events: list[Event]) -> InfinityState:
        ended = self._victory(state, events)
        if ended is not None:
            return ended
        able = [m for m in state.side_models(state.active) if self._can_act(m)]
        if self._orders_left(state) == 0 or not able:
            new, _ = self._end_turn(state, events)
            assert isinstance(new, InfinityState)
            return new
        return state

    def _victory(
        self, state: InfinityState, events: list[Event], *, final: bool = False
    ) -> InfinityState | None:
        alive = {s: [m for m in state.side_models(s) if self._can_act(m)] for s in state.sides}
        beaten = [s for s, models in alive.items() if not models]
        scores = {s: sum(self.points[m.id] for m in alive[s]) for s in state.sides}
        if beaten:
            standing = [s for s in state.sides if s not in beaten]
            winner = standing[0] if len(standing) == 1 else None
            reason = beaten_reason(beaten, "nothing left able to act")
        elif final:
            held = self.objectives_held(state)
            if self.setup.objectives:
                # Scenario objectives decide; the points of troopers left break a tie.
                scores = {s: sum(p for side, _, p in held if side == s) for s in state.sides}
                left = {s: sum(self.points[m.id] for m in alive[s]) for s in state.sides}
                ranking = {s: (scores[s], left[s]) for s in state.sides}
                what = (
                    "objective points ("
                    + (", ".join(f"{o} to {side}" for side, o, _ in held) or "none held")
                    + "), then points of troopers still able to act"
                )
            else:
                ranking = {s: (scores[s], 0) for s in state.sides}
                what = "points of troopers still able to act"
            best = max(ranking.values())
            leaders = [s for s, v in ranking.items() if v == best]
            winner = leaders[0] if len(leaders) == 1 else None
            reason = f"turn limit ({self.turns}): {what}"
        else:
            return None
        events.append(GameEnded(winner, reason, scores))
        return renew(state, finished=True, winner=winner, order=None)

    def objectives_held(self, state: GameState) -> list[tuple[str, str, int]]:
        """(side, objective, points) for each objective a side holds: more of its troopers
        able to act with their base within the objective's radius than any other side."""
        held = []
        for objective in self.setup.objectives:
            near: dict[str, int] = {}
            for m in state.models:
                radius = self.radii[m.id]
                gap = math.dist(m.at, objective.at) - radius
                if self._can_act(m) and gap <= objective.radius:
                    near[m.side] = near.get(m.side, 0) + 1
            if near:
                most = max(near.values())
                leaders = [side for side, n in near.items() if n == most]
                if len(leaders) == 1:
                    held.append((leaders[0], objective.id, objective.points))
        return held

    def _end_turn(
        self, state: InfinityState, events: list[Event]
    ) -> tuple[InfinityState, list[Event]]:
        events.append(TurnEnded(state.turn, state.active))
        index = state.sides.index(state.active)
        if index + 1 < len(state.sides):
            state = renew(state, active=state.sides[index + 1])
        else:
            if state.turn >= self.turns:
                ended = self._victory(state, events, final=True)
                assert ended is not None
                return ended, events
            state = renew(state, turn=state.turn + 1, active=state.sides[0])
        state, events = self._begin_turn(state, events)
        if self._orders_left(state) == 0:
            return self._end_turn(state, events)
        return state, events
