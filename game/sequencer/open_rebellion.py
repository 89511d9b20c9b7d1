"""Open Rebellion on the sequencer: initiative, unit activations and actions.

Small arms fire, the fall back and damage conversion are in `open_rebellion_fire`;
what a unit holds and how it moves in `open_rebellion_units`.

A turn (FACTS 1.2):

1. Initiative: each side names a unit (`PickInitiative`); both units make a skill test;
   more bangs activates first (a tie is rolled again).
2. From that side the sides alternate activating one unit (`ActivateUnit`, or the
   unit's first `UnitAct` when it has no wound markers) for two actions (`UnitAct`,
   one declaration per action, the same action may repeat; `EndUnit` gives up the
   rest, or passes with a named unit). A side with no unit left to activate passes.
   When every unit has activated the turn ends.
3. At the start of a unit's activation each wound marker rolls one bang die; a bang is
   a kill (rule value kill_on_bang); the markers are cleared. Pin markers have no
   other effect here than what the Initiative Action sheds (FACTS 1.5: unknown).

Actions (FACTS 1.2-1.4, seed 001): Standard Move (each model up to 5", the unit by one
vector), Tactical Move (skill test: 5" + bangs, 0 bangs only 3"), Small Arms Fire,
Initiative Action (sheds pin markers: rule value initiative_action_sheds), Take
Position (support weapons in position; the unit loses it when it moves).

Small arms fire: attacker dice = ROF of each model with LOS + skill dice + support
dice of in-position support weapons with LOS; defender dice = one per full range band
of the attacker's weapon + skill dice + 4 in cover. Defender bangs cancel attacker
bangs. With damage, a defender in the open takes a morale check (a skill test needing
morale_min_bangs bangs) or fails it on purpose and falls back; from light cover it may
fall back. The defender answers with `FallBackChoice`. Then damage converts into
wound or pin markers by the cover tier from the shooter after the fall back.

Choices this engine makes where the sources are silent (say so, change them here):
- a unit's skill dice come from the quality most of its living models have (ties: the
  better one);
- the weapon band is the longest band among the firing models' weapons; the range is
  the shortest edge-to-edge distance between a firing model and a target model;
- a weapon that lowers the tier (blast) lowers it for the whole volley;
- cover is read from the attacking model that sees the most target models (ties: the
  first in the scenario's order);
- fall back moves every model by the same vector, a tac-move long, stopping short
  where scenery or another unit would block it: along the heading within 75 degrees
  of straight away from the shooters' centre (nearest straight away first) that ends
  it in the cover it falls back toward as the shooter sees it (any cover from the
  open, hard cover from light), or straight away when none does;
- cover is judged on the target's models the shooter sees (one it cannot see has no
  say); hard cover needs a wall the model touches;
- a hidden unit (scenario state "hidden") is one tier better until it takes an action;
- kills take the cheapest models first (profile points, then the last listed);
- in position: support weapons add their dice and the unit's tier is one better as a
  defender (seed 001); Take Position costs take_position_actions and moving ends it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from game.errors import IllegalDeclaration
from game.rules.open_rebellion.cover import OpenRebellionCover
from game.rules.open_rebellion.data import OpenRebellionProfile, OpenRebellionWeapon
from game.sequencer.declarations import Declaration, check_numbers
from game.sequencer.engine import Awaiting
from game.sequencer.events import (
    Declared,
    Event,
    GameEnded,
    StateChanged,
    TurnEnded,
    TurnStarted,
    beaten_reason,
)
from game.sequencer.open_rebellion_fire import (
    Caches,
    FirePlan,
    OpenRebellionFire,
    caches_for,
    tier_label,
)
from game.sequencer.open_rebellion_types import (
    ACTIVATED,
    ALIVE,
    DEAD,
    HIDDEN,
    IN_POSITION,
    Action,
    ActionKind,
    ActivateUnit,
    BangTest,
    EndUnit,
    FallBackChoice,
    InitiativeRolled,
    KillsRolled,
    OpenRebellionState,
    PickInitiative,
    TookPosition,
    UnitAct,
)
from game.sequencer.open_rebellion_units import bang_dice, bangs
from game.sequencer.setup import Setup
from game.sequencer.sight import Sight
from game.sequencer.state import GameState, ModelState, renew
from game.words import over

__all__ = [
    "Action",
    "ActionKind",
    "ActivateUnit",
    "EndUnit",
    "FallBackChoice",
    "FirePlan",
    "OpenRebellionEngine",
    "OpenRebellionState",
    "PickInitiative",
    "UnitAct",
    "bang_dice",
    "bangs",
    "tier_label",
]

Point = tuple[float, float]
ACTIONS_PER_ACTIVATION = 2  # Open Rebellion: two actions per activation (FACTS 1.2)
INITIATIVE_REROLLS = 100  # ties are rolled again; give up (first side) after this many
# Defaults when the scenario carries no rule values (assets/open-rebellion/rules.toml).
DEFAULTS = {
    "skill_dice_green": 3.0,
    "skill_dice_regular": 4.0,
    "skill_dice_veteran": 5.0,
    "skill_dice_elite": 5.0,
    "morale_min_bangs": 1.0,
    "kill_on_bang": 1.0,
    "standard_move": 5.0,
    "tactical_move_base": 5.0,
    "tactical_move_no_bangs": 3.0,
    "initiative_action_sheds": 99.0,
    "take_position_actions": 1.0,
}


class OpenRebellionEngine(OpenRebellionFire):
    """Open Rebellion's turn structure and actions on the order sequencer."""

    checks_numbers = True  # `apply` refuses bad numbers first: Game.declare need not

    def __init__(self, setup: Setup, sight: Sight | None = None) -> None:
        self.setup = setup
        shared = sight is None
        if sight is None:
            from game.sequencer.table_sight import shared_sight

            sight = shared_sight(setup)  # one for the games this process plays on the table
        self.sight = sight
        self.turns = setup.header.turns
        values = dict(DEFAULTS)
        values.update(getattr(setup, "rule_values", {}) or {})
        self.values = values
        self.profiles: dict[str, OpenRebellionProfile] = {}
        self.weapon: dict[str, OpenRebellionWeapon | None] = {}
        self.unit_of: dict[str, str] = {}
        units: dict[str, list[str]] = {}
        self.side_of_unit: dict[str, str] = {}
        for m in setup.models:
            profile = setup.profiles[m.profile]
            assert isinstance(profile, OpenRebellionProfile)
            self.profiles[m.id] = profile
            names = m.weapons or tuple(profile.weapons)
            w = setup.weapons.get(names[0]) if names else None
            assert w is None or isinstance(w, OpenRebellionWeapon)
            self.weapon[m.id] = w
            unit = m.unit or m.id
            self.unit_of[m.id] = unit
            units.setdefault(unit, []).append(m.id)
            self.side_of_unit[unit] = m.side
        self.units = {u: tuple(ms) for u, ms in units.items()}
        self.radius = {m.id: m.radius for m in setup.models}
        self.tables = {}
        # shared by the engines of one setup unless the sight is the caller's own
        self.caches = caches_for(sight) if shared else Caches()
        self.army = (
            tuple(sorted(self.units.items())),
            tuple(sorted(self.weapon.items(), key=lambda item: item[0])),
            tuple(sorted((m, p.quality) for m, p in self.profiles.items())),
            tuple(sorted(values.items())),
        )
        # this army's plans and edges (looked up once: the key hashes every weapon)
        self.plans = self.caches.plans.setdefault(self.army, {})
        self.edges = self.caches.edges.setdefault(self.army, {})

    # -- the engine protocol ---------------------------------------------------------

    def start(self, *, rng: np.random.Generator) -> tuple[GameState, list[Event]]:
        models = tuple(
            ModelState(
                m.id,
                m.side,
                m.at,
                m.facing,
                m.state if m.state in (DEAD, HIDDEN) else ALIVE,
                flags=frozenset(f for f in (m.state,) if f in (ACTIVATED, IN_POSITION)),
            )
            for m in self.setup.models
        )
        sides = tuple(s.id for s in self.setup.sides)
        state = OpenRebellionState(turn=1, active=sides[0], sides=sides, models=models)
        events: list[Event] = [TurnStarted(1, sides[0])]
        return state, events

    def awaiting(self, state: GameState) -> Awaiting:
        assert isinstance(state, OpenRebellionState)
        if state.finished:
            return Awaiting(None, "over")
        if state.phase == "initiative":
            side = self._next_picker(state)
            return Awaiting(
                side, "initiative", self._unit_models(state, self.side_units(state, side))
            )
        if state.phase == "fall-back":
            assert state.pending is not None
            target = state.pending.target
            side = self.side_of_unit[target]
            return Awaiting(side, "fall-back", tuple(m.id for m in self.alive(state, target)))
        if state.activating is not None:
            return Awaiting(
                state.active, "action", tuple(m.id for m in self.alive(state, state.activating))
            )
        return Awaiting(
            state.active,
            "activate",
            self._unit_models(state, self.ready_units(state, state.active)),
        )

    def _unit_models(self, state: GameState, units: Sequence[str]) -> tuple[str, ...]:
        return tuple(m.id for u in units for m in self.alive(state, u))

    def _next_picker(self, state: OpenRebellionState) -> str:
        picked = {s for s, _ in state.picks}
        return next(s for s in state.sides if s not in picked)

    def apply(
        self, state: GameState, declaration: Declaration, *, rng: np.random.Generator
    ) -> tuple[GameState, list[Event]]:
        assert isinstance(state, OpenRebellionState)
        check_numbers(declaration, self.setup.header.table)
        events: list[Event] = []
        if isinstance(declaration, PickInitiative):
            state = self._pick(state, declaration, events, rng)
        elif isinstance(declaration, FallBackChoice):
            state = self._fall_back_choice(state, declaration, events, rng)
        elif isinstance(declaration, ActivateUnit):
            events.append(Declared(state.active, declaration.to_dict()))
            state = self._begin(state, declaration.unit, events, rng)
            if not self.alive(state, declaration.unit):
                state = self._after_activation(state, events, rng)
        elif isinstance(declaration, UnitAct):
            state = self._act(state, declaration, events, rng)
        elif isinstance(declaration, EndUnit):
            state = self._end_declared(state, declaration, events, rng)
        else:
            raise IllegalDeclaration(
                f"Open Rebellion has no declaration {type(declaration).__name__}"
            )
        return state, events

    # -- initiative ------------------------------------------------------------------

    def _unit(self, unit: str) -> str:
        if unit not in self.units:
            raise IllegalDeclaration(f"there is no unit {unit!r}")
        return unit

    def _pick(
        self,
        state: OpenRebellionState,
        d: PickInitiative,
        events: list[Event],
        rng: np.random.Generator,
    ) -> OpenRebellionState:
        if state.phase != "initiative":
            raise IllegalDeclaration("initiative is picked only at the start of a turn")
        side = self._next_picker(state)
        unit = self._unit(d.unit)
        if self.side_of_unit[unit] != side or not self.alive(state, unit):
            raise IllegalDeclaration(f"{unit} is not a unit of {side} on the table")
        events.append(Declared(side, d.to_dict()))
        picks = (*state.picks, (side, unit))
        state = renew(state, picks=picks)
        if len(picks) < len(state.sides):
            return state
        # Open Rebellion: both units make a skill test; more bangs activates first
        winner = picks[0][0]
        for _ in range(INITIATIVE_REROLLS):
            results = []
            for _, u in picks:
                faces = bang_dice(self.skill_dice(state, u), rng)
                events.append(BangTest(u, "initiative", faces, bangs(faces)))
                results.append(bangs(faces))
            best = max(results)
            top = [s for (s, _), b in zip(picks, results, strict=True) if b == best]
            events.append(
                InitiativeRolled(state.turn, picks, tuple(results), top[0] if len(top) == 1 else "")
            )
            if len(top) == 1:
                winner = top[0]
                break
        state = renew(state, phase="activate", picks=(), active=winner)
        return self._next_side(state, events, rng, start=winner)

    # -- activations -----------------------------------------------------------------

    def _begin(
        self, state: OpenRebellionState, unit: str, events: list[Event], rng: np.random.Generator
    ) -> OpenRebellionState:
        if state.phase != "activate":
            raise IllegalDeclaration(f"no unit can activate now ({state.phase})")
        unit = self._unit(unit)
        if self.side_of_unit[unit] != state.active:
            # a side's name may be a plural ("Rebels") or not: no possessive, no verb with it
            raise IllegalDeclaration(
                f"{unit} is a unit of {self.side_of_unit[unit]}, not of {state.active}, "
                "whose turn it is to activate"
            )
        if not self.alive(state, unit):
            raise IllegalDeclaration(f"{unit} has no models left")
        if self.has_flag(state, unit, ACTIVATED):
            raise IllegalDeclaration(f"{unit} has activated this turn")
        state = renew(state, phase="action", activating=unit, actions_left=ACTIONS_PER_ACTIVATION)
        return self._kills(state, unit, events, rng)

    def _kills(
        self, state: OpenRebellionState, unit: str, events: list[Event], rng: np.random.Generator
    ) -> OpenRebellionState:
        """At the start of its activation a unit's wound markers become kills or nothing:
        one bang die each, a bang is a kill (kill_on_bang); the markers are cleared."""
        wounds, pins = self.markers(state, unit)
        if not wounds:
            return state
        faces = bang_dice(wounds, rng)
        per_kill = max(1, int(self.value("kill_on_bang")))
        kills = bangs(faces) // per_kill
        alive = self.alive(state, unit)
        order = sorted(range(len(alive)), key=lambda i: (self.profiles[alive[i].id].points, -i))
        killed = tuple(alive[i].id for i in order[:kills])
        events.append(KillsRolled(unit, faces, killed))
        for mid in killed:
            m = state.model(mid)
            events.append(StateChanged(mid, m.status, DEAD))
            state = state.with_model(m.replace(status=DEAD, markers=(), flags=frozenset()))
        state = self._set_markers(state, unit, 0, pins, events)
        return state

    def _end_declared(
        self, state: OpenRebellionState, d: EndUnit, events: list[Event], rng: np.random.Generator
    ) -> OpenRebellionState:
        if state.activating is None:
            if d.unit is None:
                raise IllegalDeclaration("no unit is activating: name one to pass with")
            events.append(Declared(state.active, d.to_dict()))
            state = self._begin(state, d.unit, events, rng)
        elif state.phase != "action":
            raise IllegalDeclaration(self._unanswered(state))
        elif d.unit not in (None, state.activating):
            raise IllegalDeclaration(f"{state.activating} is activating, not {self._unit(d.unit)}")
        else:
            events.append(Declared(state.active, d.to_dict()))
        return self._after_activation(state, events, rng)

    @staticmethod
    def _unanswered(state: OpenRebellionState) -> str:
        """Why nothing but the defender's answer may be declared now (a fire's damage
        waits for it to fall back or not)."""
        if state.pending is None:  # no phase but the fall back's waits so
            return f"the defender must answer first ({state.phase})"
        return f"{state.pending.target} must answer the fire first: fall back or not"

    def _act(
        self, state: OpenRebellionState, d: UnitAct, events: list[Event], rng: np.random.Generator
    ) -> OpenRebellionState:
        if state.activating is None:
            # a unit with no wound markers has nothing to roll as it activates, so its
            # first action may activate it; one with markers rolls them first
            if d.unit in self.units and self.markers(state, d.unit)[0]:
                raise IllegalDeclaration(
                    f"{d.unit} has wound markers: activate it first (they may be kills)"
                )
            state = self._begin(state, d.unit, events, rng)
        if state.phase != "action":
            raise IllegalDeclaration(self._unanswered(state))
        if state.activating != d.unit:
            raise IllegalDeclaration(f"{state.activating} is activating, not {self._unit(d.unit)}")
        self._check(state, d.action, d.unit)
        events.append(Declared(state.active, d.to_dict()))
        state = self._reveal(state, d.unit, events)
        state = self._do(state, d.unit, d.action, events, rng)
        cost = self.cost(d.action)
        state = renew(state, actions_left=state.actions_left - cost)
        return self._after_action(state, events, rng)

    def _reveal(
        self, state: OpenRebellionState, unit: str, events: list[Event]
    ) -> OpenRebellionState:
        """A hidden unit's card is replaced by its models when it takes an action (our
        reading: the seed says only that hidden units are shown by cards)."""
        for m in self.alive(state, unit):
            if m.status == HIDDEN:
                events.append(StateChanged(m.id, HIDDEN, ALIVE))
                state = state.with_model(m.replace(status=ALIVE))
        return state

    def _after_action(
        self, state: OpenRebellionState, events: list[Event], rng: np.random.Generator
    ) -> OpenRebellionState:
        if state.phase == "fall-back":
            return state
        ended = self._victory(state, events)
        if ended is not None:
            return ended
        assert state.activating is not None
        if state.actions_left <= 0 or not self.alive(state, state.activating):
            return self._after_activation(state, events, rng)
        return state

    def _after_activation(
        self, state: OpenRebellionState, events: list[Event], rng: np.random.Generator
    ) -> OpenRebellionState:
        unit = state.activating
        assert unit is not None
        state = self._set_flag(state, unit, ACTIVATED, True)
        state = renew(state, activating=None, actions_left=0, phase="activate")
        ended = self._victory(state, events)
        if ended is not None:
            return ended
        return self._next_side(state, events, rng, after=state.active)

    def _next_side(
        self,
        state: OpenRebellionState,
        events: list[Event],
        rng: np.random.Generator,
        *,
        start: str | None = None,
        after: str | None = None,
    ) -> OpenRebellionState:
        """Sides alternate; a side with no unit left to activate passes."""
        order = list(state.sides)
        first = order.index(start) if start is not None else order.index(after or order[0]) + 1
        for k in range(len(order)):
            side = order[(first + k) % len(order)]
            if self.ready_units(state, side):
                return renew(state, active=side)
        return self._end_turn(state, events)

    def _end_turn(self, state: OpenRebellionState, events: list[Event]) -> OpenRebellionState:
        events.append(TurnEnded(state.turn, state.active))
        ended = self._victory(state, events, final=state.turn >= self.turns)
        if ended is not None:
            return ended
        # every unit's living models, at once
        state = self._with_models(
            state,
            [
                m.replace(flags=m.flags - {ACTIVATED})
                for m in state.models
                if ACTIVATED in m.flags and m.status != DEAD
            ],
        )
        turn = state.turn + 1
        events.append(TurnStarted(turn, state.sides[0]))
        return renew(state, turn=turn, phase="initiative", picks=(), active=state.sides[0])

    # -- actions ---------------------------------------------------------------------

    def _check(self, state: OpenRebellionState, action: Action, unit: str) -> None:
        """Refuse an impossible action before any die is rolled."""
        kind = action.kind
        if kind in (ActionKind.STANDARD_MOVE, ActionKind.TACTICAL_MOVE):
            if action.vector is None:
                raise IllegalDeclaration("a move needs a vector")
            length = math.hypot(*action.vector)
            most = (
                self.value("standard_move")
                if kind is ActionKind.STANDARD_MOVE
                else self.value("tactical_move_base") + self.skill_dice(state, unit)
            )
            if length > most + 1e-5:
                said = f'{unit} moves {over(length, most)} but may move {most:g}"'
                raise IllegalDeclaration(said)
            why = self.move_blocked(state, unit, action.vector)
            if why:
                raise IllegalDeclaration(why)
        elif kind is ActionKind.FIRE:
            if action.target is None:
                raise IllegalDeclaration("small arms fire needs a target unit")
            target = self._unit(action.target)
            why = self.why_not_fire_at(unit, target)
            if why:
                raise IllegalDeclaration(why)
            if not self.alive(state, target):
                raise IllegalDeclaration(f"{target} has no models left")
            self.pools(state, unit, target)
        elif kind is ActionKind.TAKE_POSITION:
            if self.cost(action) > state.actions_left:
                raise IllegalDeclaration(
                    f"Take Position takes {self.cost(action)} actions; {state.actions_left} left"
                )
            if not any(
                (w := self.weapon[m.id]) is not None and w.support_dice
                for m in self.alive(state, unit)
            ):
                raise IllegalDeclaration(f"{unit} has no support weapon to put in position")
            if self.has_flag(state, unit, IN_POSITION):
                raise IllegalDeclaration(f"{unit} is in position already")

    def why_not_fire_at(self, unit: str, target: str) -> str:
        """Why `unit` may not fire at `target` whoever stands where ("": it may), in the
        rules' words: small arms fire is at an enemy unit (seed 001)."""
        if target == unit:
            return f"{unit} cannot fire at itself"
        side = self.side_of_unit[unit]
        if self.side_of_unit[target] == side:
            return f"{target} is a friendly unit ({side}), not an enemy unit"
        return ""

    def cost(self, action: Action) -> int:
        """Actions an action takes: one, Take Position as many as take_position_actions
        (unconfirmed)."""
        if action.kind is ActionKind.TAKE_POSITION:
            return max(1, int(self.value("take_position_actions")))
        return 1

    def _do(
        self,
        state: OpenRebellionState,
        unit: str,
        action: Action,
        events: list[Event],
        rng: np.random.Generator,
    ) -> OpenRebellionState:
        kind = action.kind
        if kind is ActionKind.STANDARD_MOVE:
            assert action.vector is not None
            return self._move_by(state, unit, action.vector, events)
        if kind is ActionKind.TACTICAL_MOVE:
            assert action.vector is not None
            allowance = self.tac_allowance(state, unit, "tactical move", events, rng)
            length = math.hypot(*action.vector)
            scale = min(1.0, allowance / length) if length > 1e-12 else 0.0
            vector = (action.vector[0] * scale, action.vector[1] * scale)
            return self._move_by(state, unit, vector, events)
        if kind is ActionKind.FIRE:
            assert action.target is not None
            return self._fire(state, unit, action.target, events, rng)
        if kind is ActionKind.INITIATIVE:
            wounds, pins = self.markers(state, unit)
            shed = min(pins, int(self.value("initiative_action_sheds")))
            return self._set_markers(state, unit, wounds, pins - shed, events)
        if kind is ActionKind.TAKE_POSITION:
            events.append(TookPosition(unit))
            return self._set_flag(state, unit, IN_POSITION, True)
        raise IllegalDeclaration(f"unknown action {kind}")

    def _fall_back_choice(
        self,
        state: OpenRebellionState,
        d: FallBackChoice,
        events: list[Event],
        rng: np.random.Generator,
    ) -> OpenRebellionState:
        pending = state.pending
        if state.phase != "fall-back" or pending is None:
            raise IllegalDeclaration("no unit has a fall back to choose")
        if d.unit != pending.target:
            self._unit(d.unit)  # a name that is no unit is said quoted, as elsewhere
            raise IllegalDeclaration(f"{pending.target} chooses, not {d.unit}")
        events.append(Declared(self.side_of_unit[pending.target], d.to_dict()))
        target = pending.target
        go = d.fall_back
        reason = "falls back from light cover" if go else ""
        if pending.tier == OpenRebellionCover.OPEN:
            if go:
                reason = "fails the morale check on purpose"
            else:
                # morale check: a skill test needing morale_min_bangs bangs (unconfirmed)
                faces = bang_dice(self.skill_dice(state, target), rng)
                n, needed = bangs(faces), int(self.value("morale_min_bangs"))
                events.append(BangTest(target, "morale check", faces, n, needed))
                go = n < needed
                reason = "failed the morale check"
        if go:
            state = self.fall_back(state, target, pending.attacker, reason, events, rng)
        state = renew(state, phase="action", pending=None)
        state = self._convert(state, pending, events, rng)
        return self._after_action(state, events, rng)

    def ready_to_fire(self, state: GameState, unit: str) -> OpenRebellionState:
        """The state with `unit` activating with two actions (for `skirmish shoot`: one
        small arms fire from the table as laid out)."""
        assert isinstance(state, OpenRebellionState)
        return renew(
            state,
            phase="action",
            picks=(),
            active=self.side_of_unit[unit],
            activating=unit,
            actions_left=ACTIONS_PER_ACTIVATION,
        )

    # -- the end ---------------------------------------------------------------------

    def score(self, state: GameState, side: str) -> int:
        return sum(self.profiles[m.id].points for m in state.side_models(side) if m.status != DEAD)

    def _victory(
        self, state: OpenRebellionState, events: list[Event], *, final: bool = False
    ) -> OpenRebellionState | None:
        beaten = [s for s in state.sides if not any(m.status != DEAD for m in state.side_models(s))]
        if not beaten and not final:
            return None
        scores = {s: self.score(state, s) for s in state.sides}
        if beaten:
            standing = [s for s in state.sides if s not in beaten]
            winner = standing[0] if len(standing) == 1 else None
            reason = beaten_reason(beaten, "no models left")
        else:
            best = max(scores.values())
            leaders = [s for s, v in scores.items() if v == best]
            winner = leaders[0] if len(leaders) == 1 else None
            reason = f"turn limit ({self.turns}): points of models left"
        events.append(GameEnded(winner, reason, scores))
        return renew(state, finished=True, winner=winner, activating=None, pending=None)
