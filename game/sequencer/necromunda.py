"""Necromunda (pre-2023) on the sequencer: rounds, activations, actions and shooting.

A round (FACTS 2.8):

1. Priority phase: each side rolls a D6 (ties again); the highest has priority and
   every fighter not Out of Action becomes Ready.
2. Action phase: from the side with priority, the sides alternate activating one Ready
   fighter for two actions (`Act`, one declaration per action; `EndActivation` gives
   up the rest). A side with no Ready fighters left passes; the other goes on.
   Basic actions once per activation, Simple ones repeatable, Double ones both.
   A Leader or a Champion may lead a group activation: its first `Act` (or, when it
   does nothing, its `EndActivation`) nominates other Ready fighters of its side
   within 3" (`Act.group`, `EndActivation.group`; how many, by role, and how near
   are data: assets/necromunda/activation.toml). After its activation they activate
   one at a time, in the order the side picks, before play passes on; one taken out of
   action meanwhile is passed over.
3. End phase, in the order of FACTS 2.8: each side with casualties takes a Bottle test
   (D6 + fighters Seriously Injured or Out of Action > starting crew); a bottled gang's
   fighters each take a Cool test or flee, whatever their state; then Recovery (each
   Seriously Injured fighter rolls an Injury die, with an extra die picked from when a
   Standing friend is within 1"); then Rally. Sides go in the order the scenario lists
   them (who starts is not in FACTS).

A burning fighter (FACTS 2.9, Blaze) activates only to burn, by `EndActivation` naming
it: the flames' hit, a Pinned one standing, a Standing Active one's 2D6" run in a random
direction, the D6 to put the fire out; then its activation ends (`_burn`).

The game ends when a side has nothing left standing or pinned, or after the turn limit
(points of fighters still fighting). Shooting is in `necromunda_fire` (Knockback and
catching fire in `necromunda_traits`); Nerve tests, Broken, Running for Cover and Rally
in `necromunda_nerve`.
"""

from __future__ import annotations

import itertools
import math
import weakref

import numpy as np

from game.errors import IllegalDeclaration
from game.rules.necromunda.assets import (
    load_flame_template,
    load_group_activation,
    load_necromunda_dice,
    load_traits,
)
from game.rules.necromunda.data import ENGAGED_GAP, NecromundaProfile, NecromundaWeapon
from game.rules.necromunda.dice import (
    FlameTemplate,
    GroupActivation,
    InjuryResult,
    NecromundaDice,
    Traits,
)
from game.sequencer.declarations import Declaration, check_numbers
from game.sequencer.engine import Awaiting
from game.sequencer.events import (
    Declared,
    Event,
    GameEnded,
    Moved,
    Rolled,
    StateChanged,
    TurnEnded,
    TurnStarted,
    beaten_reason,
)
from game.sequencer.necromunda_fire import d6, heading
from game.sequencer.necromunda_nerve import NecromundaNerve, fallen
from game.sequencer.necromunda_types import (
    ACTIONS_PER_ACTIVATION,
    AIMED,
    BASIC,
    BLAZE,
    BROKEN,
    DOUBLE,
    ENGAGED,
    FLED,
    FLEE_TEST,
    FLESH_WOUNDS,
    OUT_OF_ACTION,
    PINNED,
    PRONE,
    READY,
    SERIOUSLY_INJURED,
    STANDING,
    UPRIGHT,
    Act,
    Action,
    ActionKind,
    AmmoChanged,
    BottleTested,
    Burned,
    CoupDeGrace,
    EndActivation,
    ForcedMove,
    GroupMemberActivated,
    GroupMemberSkipped,
    GroupNominated,
    InjuryRolled,
    NecromundaState,
    PriorityRolled,
    Turned,
    jammed_flag,
    out_of_ammo_flag,
    status_said,
)
from game.sequencer.sentences import joined
from game.sequencer.setup import Setup
from game.sequencer.sight import Blocked, Sight
from game.sequencer.state import GameState, ModelState, renew
from game.words import over

__all__ = ["Act", "Action", "ActionKind", "EndActivation", "NecromundaEngine", "NecromundaState"]

Point = tuple[float, float]
RECOVERY_HELP = 1.0  # Necromunda: an Active friend within 1" adds a Recovery die
COUP_DE_GRACE_REACH = 1.0  # FACTS 2.4: Coup de Grace, "Simple action from within 1\""
CONTACT_SLACK = 1e-6  # inches: far more than the rounding of a distance on the table
# FACTS 2.8: a group activation is nominated as its leader activates (its first action,
# or its activating and doing nothing), never later in the activation
FIRST_ACTION = "a group activation is nominated with the first action of an activation"
# Recovery: with two dice the player keeps the best result.
INJURY_RANK = {
    InjuryResult.FLESH_WOUND: 0,
    InjuryResult.SERIOUSLY_INJURED: 1,
    InjuryResult.OUT_OF_ACTION: 2,
}


PathKey = tuple[str, tuple[Point, ...], tuple[tuple[str, Point], ...]]
# path answers kept per table sight (a shared sight is shared by the games on its table)
_PATHS: weakref.WeakKeyDictionary[Sight, dict[PathKey, Blocked | None]] = (
    weakref.WeakKeyDictionary()
)
PATHS_KEPT = 16384  # each key holds every fighter's place


def _length(path: tuple[Point, ...]) -> float:
    return sum(math.dist(a, b) for a, b in itertools.pairwise(path))


class NecromundaEngine(NecromundaNerve):
    """Necromunda's round structure and actions on the order sequencer."""

    checks_numbers = True  # `apply` refuses bad numbers first: Game.declare need not

    def __init__(
        self,
        setup: Setup,
        sight: Sight | None = None,
        *,
        dice: NecromundaDice | None = None,
        flame: FlameTemplate | None = None,
        groups: GroupActivation | None = None,
        traits: Traits | None = None,
    ) -> None:
        self.setup = setup
        if sight is None:
            from game.sequencer.table_sight import shared_sight

            sight = shared_sight(setup)  # one for the games this process plays on the table
        self.sight = sight
        # the special dice faces and the flame template are bundled rule data (assets/)
        self.dice = dice or load_necromunda_dice()
        self.flame = flame or load_flame_template()
        # who may lead a group activation, how many it takes and how near (FACTS 2.8)
        self.groups = groups or load_group_activation()
        # Blaze and Knockback (FACTS 2.9): assets/necromunda/traits.toml
        self.traits = traits or load_traits()
        rule = self.traits.blaze
        self.flames = NecromundaWeapon(
            name="the flames", long=0.0, strength=rule.strength, ap=rule.ap, damage=rule.damage
        )
        self.all_weapons = setup.weapons
        self.table_size = setup.header.table
        self.turns = setup.header.turns
        self.profiles: dict[str, NecromundaProfile] = {}
        self.weapons: dict[str, tuple[str, ...]] = {}
        self.points: dict[str, int] = {}
        for m in setup.models:
            profile = setup.profiles[m.profile]
            assert isinstance(profile, NecromundaProfile)
            if abs(profile.radius - m.radius) > 1e-9 or abs(profile.height - m.height) > 1e-9:
                profile = profile.model_copy(
                    update={"base": m.radius * 2 * 25.4, "height": m.height}
                )
            self.profiles[m.id] = profile
            self.weapons[m.id] = m.weapons
            self.points[m.id] = profile.points
        self.crew = {s.id: sum(1 for m in setup.models if m.side == s.id) for s in setup.sides}
        self.radius = {m: p.radius for m, p in self.profiles.items()}
        self.shapes = {m.id: (m.radius, m.height) for m in setup.models}
        self._bodies = {}
        self._placements = {}

    # -- state -------------------------------------------------------------------

    def start(self, *, rng: np.random.Generator) -> tuple[GameState, list[Event]]:
        models = tuple(
            ModelState(m.id, m.side, m.at, m.facing, m.state or STANDING) for m in self.setup.models
        )
        sides = tuple(s.id for s in self.setup.sides)
        state = NecromundaState(turn=1, active=sides[0], sides=sides, models=models)
        events: list[Event] = []
        state = self._update_engaged(state, events)
        return self._priority_phase(state, events, rng), events

    def awaiting(self, state: GameState) -> Awaiting:
        assert isinstance(state, NecromundaState)
        if state.finished:
            return Awaiting(None, "over")
        if state.activating is not None:
            return Awaiting(state.active, "action", (state.activating,))
        if state.group:  # a group activation goes on: one of its fighters next
            return Awaiting(state.active, "activate", state.group)
        return Awaiting(state.active, "activate", self.ready(state, state.active))

    def ready(self, state: GameState, side: str) -> tuple[str, ...]:
        return tuple(
            m.id for m in state.side_models(side) if READY in m.flags and m.status != OUT_OF_ACTION
        )

    def weapons_of(self, model_id: str) -> list[NecromundaWeapon]:
        return [self.weapon(model_id, name) for name in self.weapons[model_id]]

    def path_blocked(
        self, state: GameState, model_id: str, path: tuple[Point, ...]
    ) -> Blocked | None:
        """Why the fighter cannot move along `path`, or None; remembered by what it
        depends on (the path and where every other fighter on the table stands), for
        the games on this table (a player asks, then the move is checked again)."""
        placements = self._placed(state)
        # where every fighter on the table stands (the mover too: a key no less exact)
        key = (model_id, path, self._standing(state))
        paths = _PATHS.setdefault(self.sight, {})
        if key in paths:
            return paths[key]
        why = self.sight.path_blocked(placements, model_id, path)
        if len(paths) > PATHS_KEPT:
            paths.clear()
        paths[key] = why
        return why

    def _standing(self, state: GameState) -> tuple[tuple[str, Point], ...]:
        """(id, place) of every fighter on the table, once per state."""
        asked = state.asked() if isinstance(state, NecromundaState) else None
        found = asked.standing if asked is not None else None
        if found is None:
            found = tuple((k, p.at) for k, p in self._placed(state).items() if p.present)
            if asked is not None:
                asked.standing = found
        return found

    # -- declarations ------------------------------------------------------------

    def apply(
        self, state: GameState, declaration: Declaration, *, rng: np.random.Generator
    ) -> tuple[GameState, list[Event]]:
        assert isinstance(state, NecromundaState)
        check_numbers(declaration, self.setup.header.table)
        events: list[Event] = []
        if isinstance(declaration, Act):
            state = self._act(state, declaration, events, rng)
        elif isinstance(declaration, EndActivation):
            first = state.activating is None
            state = self._end_declared(state, declaration, events)
            if first and BLAZE in state.model(declaration.model or "").flags:
                state = self._burn(state, state.model(declaration.model or ""), events, rng)
            state = self._after_activation(state, events, rng)
        else:
            raise IllegalDeclaration(f"Necromunda has no declaration {type(declaration).__name__}")
        return state, events

    def _model(self, state: GameState, model_id: str) -> ModelState:
        try:
            return state.model(model_id)
        except KeyError:
            raise IllegalDeclaration(f"there is no fighter {model_id!r}") from None

    def _end_declared(
        self, state: NecromundaState, d: EndActivation, events: list[Event]
    ) -> NecromundaState:
        if state.activating is None:
            if d.model is None:
                raise IllegalDeclaration("no fighter is activating: name one to pass with")
            m = self._model(state, d.model)
            if m.side == state.active and m.status == OUT_OF_ACTION:
                raise IllegalDeclaration(f"{m.id} is out of action")
            if m.side != state.active or READY not in m.flags:
                raise IllegalDeclaration(f"{m.id} is not a Ready fighter of {state.active}")
            state = self._nominated(self._group_turn(state, m, events), m, d.group, events)
            state = renew(state, activating=m.id)
        elif d.model not in (None, state.activating):
            raise IllegalDeclaration(
                f"{state.activating} is activating, not {self._model(state, d.model).id}"
            )
        elif d.group:
            raise IllegalDeclaration(FIRST_ACTION)
        events.append(Declared(state.active, d.to_dict()))
        return state

    def _act(
        self, state: NecromundaState, d: Act, events: list[Event], rng: np.random.Generator
    ) -> NecromundaState:
        m = self._model(state, d.model)
        first = state.activating is None
        if first:
            if m.side != state.active:
                # a gang's name may be a plural ("Goliaths"): no possessive of it
                raise IllegalDeclaration(
                    f"{m.id} is a fighter of {m.side}, not of {state.active}, "
                    "whose turn it is to activate"
                )
            if m.status == OUT_OF_ACTION:
                raise IllegalDeclaration(f"{m.id} is out of action")
            if READY not in m.flags:
                raise IllegalDeclaration(f"{m.id} is not Ready (it has activated this round)")
            if BLAZE in m.flags:
                raise IllegalDeclaration(self.burning_refusal(m.id))
            state = self._nominated(self._group_turn(state, m, events), m, d.group, events)
            state = renew(state, activating=m.id, actions_left=ACTIONS_PER_ACTIVATION, used=())
        elif state.activating != m.id:
            raise IllegalDeclaration(f"{state.activating} is activating, not {m.id}")
        elif d.turn_to is not None:
            raise IllegalDeclaration("a fighter turns only at the start of its activation")
        elif d.group:
            raise IllegalDeclaration(FIRST_ACTION)
        action = d.action
        cost = self._cost(m, action)
        refused = self.action_refused(state, m, action, first=first)
        if refused:
            raise IllegalDeclaration(refused)
        events.append(Declared(state.active, d.to_dict()))
        if d.turn_to is not None:
            if m.status not in UPRIGHT:
                raise IllegalDeclaration(
                    f"{m.id} is {status_said(m.status)} and has no facing to turn"
                )
            m = m.replace(facing=float(d.turn_to))
            state = state.with_model(m)
            events.append(Turned(m.id, m.facing))
        state = self._do(state, m, action, events, rng)
        used = (*state.used, action.kind.value) if action.kind in BASIC else state.used
        state = renew(state, actions_left=state.actions_left - cost, used=used)
        state = self._update_engaged(state, events)
        me = state.model(m.id)
        if state.actions_left <= 0 or me.status == OUT_OF_ACTION:
            state = self._after_activation(state, events, rng)
        return state

    # -- Blaze (FACTS 2.9) ----------------------------------------------------------

    @staticmethod
    def burning_refusal(model_id: str) -> str:
        """Why a burning fighter may not act: the fire takes its activation."""
        return (
            f"{model_id} is on fire: the flames take its activation (activate it doing "
            "nothing, and it burns)"
        )

    def _burn(
        self, state: NecromundaState, m: ModelState, events: list[Event], rng: np.random.Generator
    ) -> NecromundaState:
        """FACTS 2.9, Blaze: "when it next activates it takes an S3 AP-1 hit, moves 2D6"
        at random if Active, and the fire goes out on a 6+". The hit is resolved as any
        (wound, save, Injury dice; it pins no one); then a Pinned fighter stands
        (`pinned_stands`, the rulebook's reading), a Standing Active one runs 2D6" in a
        random direction (the scatter die's arrow, as a scattering blast's: uniform in
        angle), stopped short where its base would meet scenery, a fighter or the
        table's edge; then, still in the fight, the D6 to put the fire out. Its friends
        within 3" test their nerve if the flames take it down. The activation is the
        fire's (FACTS is silent; the rulebook's reading): it ends after."""
        rule = self.traits.blaze
        mark = len(events)
        events.append(Burned(m.id, rule.strength, rule.ap, rule.damage))
        state = self.wound(state, m.id, self.flames, m.id, 0, events, rng)
        m = state.model(m.id)
        if m.status != OUT_OF_ACTION:
            if m.status == PINNED and rule.pinned_stands:
                events.append(StateChanged(m.id, PINNED, STANDING))
                m = m.replace(status=STANDING)
                state = state.with_model(m)
            if m.status == STANDING:
                faces = tuple(d6(rng) for _ in range(rule.move_dice))
                direction = float(rng.uniform(0.0, 360.0))
                end, went, by, short = self.forced_move(state, m.id, direction, float(sum(faces)))
                events.append(ForcedMove(m.id, "blaze", faces, 0, m.at, direction,
                                         float(sum(faces)), end, went, by, short))  # fmt: skip
                if went > 0:
                    events.append(Moved(m.id, (m.at, end), went))
                    state = state.with_model(m.replace(at=end, facing=direction))
                state = self._update_engaged(state, events)
            state = self.fire_out(state, m.id, events, rng)
        return self.nerve_tests(state, fallen(events[mark:]), events, rng)

    # -- group activations (FACTS 2.8) ---------------------------------------------

    def group_size(self, model_id: str) -> int:
        """How many fighters `model_id` may nominate for a group activation (FACTS 2.8:
        "Leaders may group-activate 2 fighters within 3\", Champions 1"; by its
        profile's role, assets/necromunda/activation.toml); 0 when it leads none."""
        return self.groups.size(self.profiles[model_id].role)

    def may_join(self, state: NecromundaState, leader: str, model_id: str) -> str | None:
        """Why `model_id` may not join `leader`'s group activation, or None: it must be
        a Ready fighter of the leader's side (not out of action: one that could be
        activated now, Pinned, Seriously Injured or Broken ones too, each doing what it
        may), not the leader, within 3" of it, base edge to base edge (as every
        distance between fighters)."""
        me, other = state.model(leader), self._model(state, model_id)
        if other.id == me.id:
            return f"{me.id} cannot nominate itself for its own group activation"
        if other.side != me.side:
            return f"{other.id} is not a fighter of {me.side}"
        if other.status == OUT_OF_ACTION:
            return f"{other.id} is out of action"
        if READY not in other.flags:
            return f"{other.id} is not Ready (it has activated this round)"
        gap = self._gap(me, other)
        if gap > self.groups.within + 1e-9:
            return (
                f"{other.id} is {over(gap, self.groups.within)} from {me.id}: a group "
                f'activation takes fighters within {self.groups.within:g}"'
            )
        return None

    def group_refused(
        self, state: NecromundaState, leader: str, group: tuple[str, ...]
    ) -> str | None:
        """Why `leader` may not nominate `group` as it activates, or None (FACTS 2.8)."""
        most = self.group_size(leader)
        role = self.profiles[leader].role
        if most == 0:
            return f"{leader} is a {role}: only a Leader or a Champion leads a group activation"
        if state.leading is not None:
            return (
                f"{leader} activates in {state.leading}'s group activation: "
                "it cannot lead one of its own"
            )
        if len(group) > most:
            fighters = "fighter" if most == 1 else "fighters"
            return f"a {role} may group-activate {most} {fighters}, not {len(group)}"
        if len(set(group)) < len(group):
            twice = next(g for g in group if group.count(g) > 1)
            return f"{twice} is nominated twice"
        for g in group:
            why = self.may_join(state, leader, g)
            if why:
                return why
        return None

    def _nominated(
        self, state: NecromundaState, m: ModelState, group: tuple[str, ...], events: list[Event]
    ) -> NecromundaState:
        """`m` activating (with its first action, or doing nothing) nominates `group` for
        a group activation (FACTS 2.8), when it names one; IllegalDeclaration when it
        may not."""
        if not group:
            return state
        refused = self.group_refused(state, m.id, group)
        if refused:
            raise IllegalDeclaration(refused)
        events.append(GroupNominated(state.active, m.id, group))
        return renew(state, leading=m.id, group=group)

    def _group_turn(
        self, state: NecromundaState, m: ModelState, events: list[Event]
    ) -> NecromundaState:
        """A fighter starts its activation: in a group activation, one of the fighters
        still to activate in it, whose turn it now is."""
        if not state.group:
            return state
        assert state.leading is not None
        if m.id not in state.group:
            raise IllegalDeclaration(
                f"{state.leading}'s group activation goes on: {joined(state.group)} "
                f"{'is' if len(state.group) == 1 else 'are'} still to activate in it"
            )
        events.append(GroupMemberActivated(m.id, state.leading))
        return renew(state, group=tuple(g for g in state.group if g != m.id))

    def _next_in_group(self, state: NecromundaState, events: list[Event]) -> NecromundaState:
        """After an activation in a group activation: the nominated fighters that can no
        longer be activated are passed over; the group ends when none is left."""
        if not state.group:
            return renew(state, leading=None) if state.leading is not None else state
        assert state.leading is not None
        left = []
        for g in state.group:
            m = state.model(g)
            if m.status == OUT_OF_ACTION or READY not in m.flags:
                events.append(GroupMemberSkipped(g, state.leading, "out of action"))
            else:
                left.append(g)
        if left:
            return renew(state, group=tuple(left))
        return renew(state, group=(), leading=None)

    def action_refused(
        self, state: NecromundaState, m: ModelState, action: Action, *, first: bool
    ) -> str | None:
        """Why `m` may not take `action` now as its activation's first (`first`) or next
        action, or None: the actions it has left (`cost_refused`), a Basic action taken
        already this activation, or a fighter that may take only one action (FACTS 2.4:
        `only_action`), or a burning fighter, whose activation is the fire's (FACTS 2.9,
        Blaze). The action's own checks (where it goes, what it shoots at) are its own."""
        if first and BLAZE in m.flags:
            return self.burning_refusal(m.id)
        left = ACTIONS_PER_ACTIVATION if first else state.actions_left
        too_dear = self.cost_refused(m, action, left)
        if too_dear:
            return too_dear
        if not first and action.kind in BASIC and action.kind.value in state.used:
            return f"{action.kind} is a Basic action: once per activation"
        only = self.only_action(m)
        if only is not None and action.kind is not only[0]:
            return only[1]
        return None

    def cost_refused(self, m: ModelState, action: Action, left: int) -> str | None:
        """Why `m` may not take `action` with `left` actions left, or None: a Double
        action needs both, as does a Shoot with an Unwieldy weapon (FACTS 2.9)."""
        if self._cost(m, action) <= left:
            return None
        weapon = action.weapon
        has = f"{m.id} has {left} action{'s' if left != 1 else ''} left"
        if action.kind is ActionKind.SHOOT and weapon and self._unwieldy(m, weapon):
            return f"{m.id}'s {weapon} is Unwieldy: shooting it is a Double action, and {has}"
        return f"{action.kind.value.replace('-', ' ').capitalize()} is a Double action, and {has}"

    @staticmethod
    def only_action(m: ModelState) -> tuple[ActionKind, str] | None:
        """The one action a Seriously Injured fighter (Crawl) or a Broken one (Run for
        Cover) may take (FACTS 2.4), and the refusal of any other; None for another."""
        if m.status == SERIOUSLY_INJURED:
            return ActionKind.CRAWL, f"{m.id} is seriously injured: it may only Crawl"
        if BROKEN in m.flags:
            return ActionKind.RUN_FOR_COVER, f"{m.id} is Broken: it may only Run for Cover"
        return None

    def _unwieldy(self, m: ModelState, weapon: str) -> bool:
        return (
            weapon in self.weapons[m.id] and self.weapon(m.id, weapon).trait("Unwieldy") is not None
        )

    def _cost(self, m: ModelState, action: Action) -> int:
        if action.kind in DOUBLE:
            return 2
        if action.kind is ActionKind.SHOOT and action.weapon and self._unwieldy(m, action.weapon):
            return 2  # Necromunda Unwieldy: Shoot becomes a Double action
        return 1

    # -- actions -----------------------------------------------------------------

    def _do(
        self,
        state: NecromundaState,
        m: ModelState,
        action: Action,
        events: list[Event],
        rng: np.random.Generator,
    ) -> NecromundaState:
        kind = action.kind
        profile = self.profiles[m.id]
        only = self.only_action(m)
        if only is not None and kind is not only[0]:
            raise IllegalDeclaration(only[1])
        if only is not None and kind is ActionKind.RUN_FOR_COVER:
            # Necromunda: a Broken fighter must take Running for Cover (FACTS 2.4)
            return self.run_for_cover(state, m, events, rng)
        if kind is ActionKind.RUN_FOR_COVER:
            raise IllegalDeclaration(f"{m.id} is not Broken: only a Broken fighter Runs for Cover")
        if kind is ActionKind.COUP_DE_GRACE:
            return self._coup_de_grace(state, m, action.target, events, rng)
        if kind is ActionKind.MOVE:
            if m.status not in UPRIGHT:
                raise IllegalDeclaration(
                    f"{m.id} is {status_said(m.status)}: Stand Up or Crawl instead"
                )
            return self._move(state, m, action, profile.m, events)
        if kind is ActionKind.CRAWL:
            if m.status not in PRONE:
                raise IllegalDeclaration("only a Prone fighter Crawls")
            return self._move(state, m, action, profile.m / 2, events)
        if kind is ActionKind.TAKE_COVER:
            if m.status not in UPRIGHT:
                raise IllegalDeclaration(f"{m.id} is {status_said(m.status)} and cannot Take Cover")
            state = self._move(state, m, action, profile.m / 2, events) if action.path else state
            m = state.model(m.id)
            if m.status == STANDING:
                events.append(StateChanged(m.id, STANDING, PINNED))
                state = state.with_model(m.replace(status=PINNED))
            return state
        if kind is ActionKind.STAND_UP:
            if m.status != PINNED:
                raise IllegalDeclaration(
                    f"{m.id} is {status_said(m.status)}: only a Pinned fighter stands up"
                )
            events.append(StateChanged(m.id, PINNED, STANDING))
            facing = m.facing if action.facing is None else float(action.facing)
            if facing != m.facing:
                events.append(Turned(m.id, facing))
            return state.with_model(m.replace(status=STANDING, facing=facing))
        if kind is ActionKind.AIM:
            if m.status not in UPRIGHT:
                raise IllegalDeclaration(f"{m.id} is {status_said(m.status)} and cannot Aim")
            return state.with_model(m.replace(flags=m.flags | {AIMED}))
        if kind is ActionKind.RELOAD:
            weapon = self.weapon(m.id, action.weapon)
            refused = self.reload_refused(m, weapon)
            if refused is not None:
                raise IllegalDeclaration(refused)
            if self.ammo_test(m.id, weapon, events, rng):
                events.append(AmmoChanged(m.id, weapon.name, "reloaded"))
                m = m.replace(flags=m.flags - {out_of_ammo_flag(weapon.name)})
                return state.with_model(m)
            return state
        if kind in (ActionKind.SHOOT, ActionKind.BLIND_FIRE):
            mark = len(events)
            state = self.shoot(state, m.id, action, events, rng)
            # Necromunda: friends within 3" of a fighter taken down test their nerve
            return self.nerve_tests(state, fallen(events[mark:]), events, rng)
        raise IllegalDeclaration(f"unknown action {kind}")

    def coup_de_grace_refused(
        self, state: NecromundaState, model_id: str, target: str | None
    ) -> str | None:
        """Why `model_id` may not take a Coup de Grace on `target` now, or None. FACTS
        2.4: a Seriously Injured fighter is "Vulnerable to Coup de Grace (Simple action
        from within 1\", which takes it OOA)"; FACTS 2.8 lists it among the actions of a
        Standing Active fighter: not Pinned, not Seriously Injured, not Engaged, not
        Broken (a Broken fighter may only Run for Cover). Within 1" is measured base
        edge to base edge, as every distance between fighters. Whose activation it is
        and how many actions are left are the declaration's own checks."""
        m = self._model(state, model_id)
        unable = self.coup_de_grace_unable(m)
        if unable:
            return unable
        if not target:
            return "a Coup de Grace needs a Seriously Injured enemy to finish off"
        t = self._model(state, target)
        if t.side == m.side:
            return f"{t.id} is a fighter of {m.side}: a Coup de Grace finishes off an enemy"
        if t.status != SERIOUSLY_INJURED:
            return (
                f"{t.id} is {status_said(t.status)}"
                ": only a Seriously Injured fighter is finished off"
            )
        gap = self._gap(m, t)
        if gap > COUP_DE_GRACE_REACH + 1e-9:
            return (
                f"{t.id} is {over(gap, COUP_DE_GRACE_REACH)} from {m.id}: a Coup de Grace is "
                f'taken from within {COUP_DE_GRACE_REACH:g}"'
            )
        return None

    @staticmethod
    def coup_de_grace_unable(m: ModelState) -> str | None:
        """Why the fighter `m` may take no Coup de Grace as it stands, or None: only a
        Standing Active fighter may (FACTS 2.8), not one Broken (only Running for Cover),
        nor one on fire (FACTS 2.9, Blaze: the flames take its activation)."""
        if BLAZE in m.flags:
            return NecromundaEngine.burning_refusal(m.id)
        only = NecromundaEngine.only_action(m)
        if only is not None:
            return only[1]
        if m.status != STANDING:
            return (
                f"{m.id} is {status_said(m.status)}"
                ": only a Standing Active fighter takes a Coup de Grace"
            )
        return None

    def coup_de_grace_targets(self, state: NecromundaState, model_id: str) -> list[str]:
        """The Seriously Injured enemies `model_id` may take a Coup de Grace on now
        (`coup_de_grace_refused`), nearest first; none when it may take none."""
        m = state.model(model_id)
        if self.coup_de_grace_unable(m):
            return []
        near = [
            (self._gap(m, t), t.id) for t in state.models
            if t.side != m.side and t.status == SERIOUSLY_INJURED
        ]  # fmt: skip
        return [t for gap, t in sorted(near) if gap <= COUP_DE_GRACE_REACH + 1e-9]

    def _coup_de_grace(
        self,
        state: NecromundaState,
        m: ModelState,
        target: str | None,
        events: list[Event],
        rng: np.random.Generator,
    ) -> NecromundaState:
        """FACTS 2.4: the Seriously Injured target goes Out of Action; its friends within
        3" take the Nerve tests of a fighter going Out of Action (FACTS 2.4 step 4)."""
        refused = self.coup_de_grace_refused(state, m.id, target)
        if refused:
            raise IllegalDeclaration(refused)
        assert target is not None
        t = state.model(target)
        events.append(CoupDeGrace(m.id, t.id))
        events.append(StateChanged(t.id, t.status, OUT_OF_ACTION))
        state = state.with_model(t.replace(status=OUT_OF_ACTION))
        return self.nerve_tests(state, [t.id], events, rng)

    def _move(
        self,
        state: NecromundaState,
        m: ModelState,
        action: Action,
        allowance: float,
        events: list[Event],
    ) -> NecromundaState:
        if not action.path:
            raise IllegalDeclaration("a move needs at least one waypoint")
        route = (m.at, *action.path)
        length = _length(route)
        if length > allowance + 1e-5:
            raise IllegalDeclaration(
                f'{m.id} moves {over(length, allowance)} but may move {allowance:g}"'
            )
        why = self.path_blocked(state, m.id, route)
        if why:
            raise IllegalDeclaration(why.why)
        facing = action.facing
        if facing is None:
            facing = heading(route[-2], route[-1]) if length > 1e-9 else m.facing
        events.append(Moved(m.id, route, length))
        return state.with_model(m.replace(at=route[-1], facing=float(facing)))

    def _update_engaged(self, state: NecromundaState, events: list[Event]) -> NecromundaState:
        """Standing fighters in base contact with an enemy are Engaged; a Pinned fighter
        an enemy moves into contact with stands up (FACTS 2.8)."""
        # the enemies a fighter may be engaged with (engaged_with's, for every fighter)
        others = [m for m in state.models if m.status not in (OUT_OF_ACTION, SERIOUSLY_INJURED)]
        for m in state.models:
            if m.status not in (STANDING, ENGAGED, PINNED):
                continue
            engaged = self._touching_enemy(m, others)
            after = m.status
            if engaged and (m.status == STANDING or m.id != state.activating):
                after = ENGAGED
            elif m.status == ENGAGED and not engaged:
                after = STANDING
            if after != m.status:
                events.append(StateChanged(m.id, m.status, after))
                state = state.with_model(m.replace(status=after))
        return state

    def _touching_enemy(self, m: ModelState, others: list[ModelState]) -> bool:
        """Whether any of `others` on another side is in base contact with `m` (`_gap`
        within ENGAGED_GAP); a base farther off along x or y than both radii and the
        gap, by more than any rounding, cannot be (the distance is at least that)."""
        (x, y), side, radius = m.at, m.side, self.radius
        reach = radius[m.id] + ENGAGED_GAP + CONTACT_SLACK
        for o in others:
            if o.side == side:
                continue
            (ox, oy), far = o.at, reach + radius[o.id]
            if abs(ox - x) > far or abs(oy - y) > far:
                continue
            if self._gap(m, o) <= ENGAGED_GAP:
                return True
        return False

    # -- the round ---------------------------------------------------------------

    def _priority_phase(
        self, state: NecromundaState, events: list[Event], rng: np.random.Generator
    ) -> NecromundaState:
        while True:
            faces = tuple((s, d6(rng)) for s in state.sides)
            best = max(f for _, f in faces)
            top = [s for s, f in faces if f == best]
            events.append(PriorityRolled(state.turn, faces, top[0] if len(top) == 1 else ""))
            if len(top) == 1 or len(state.sides) < 2:
                break
        side = top[0]
        # every fighter in the fight is Ready; one Out of Action is not, also one taken
        # Out of Action before it activated last round (rules version 3: it kept its flag,
        # and the TurnStarted event counted it among the fighters ready)
        models = tuple(
            m.replace(flags=m.flags | {READY})
            if m.status != OUT_OF_ACTION
            else m.replace(flags=m.flags - {READY})
            for m in state.models
        )
        state = renew(state, models=models, priority=side, active=side, activating=None, used=())
        events.append(TurnStarted(state.turn, side, sum(1 for m in models if READY in m.flags)))
        if not self.ready(state, side):
            return self._next_side(state, events, rng)
        return state

    def _after_activation(
        self, state: NecromundaState, events: list[Event], rng: np.random.Generator
    ) -> NecromundaState:
        fighter = state.activating
        assert fighter is not None
        m = state.model(fighter)
        state = state.with_model(m.replace(flags=m.flags - {READY, AIMED}))
        state = renew(state, activating=None, actions_left=0, used=())
        ended = self._victory(state, events)
        if ended is not None:
            return renew(ended, group=(), leading=None)
        state = self._next_in_group(state, events)
        if state.group:  # FACTS 2.8: the group activates before play passes on
            return state
        return self._next_side(state, events, rng, passed=state.active)

    def _next_side(
        self,
        state: NecromundaState,
        events: list[Event],
        rng: np.random.Generator,
        passed: str | None = None,
    ) -> NecromundaState:
        """Sides alternate; a side with no Ready fighter passes. None left: End phase."""
        order = list(state.sides)
        start = order.index(passed) + 1 if passed is not None else order.index(state.active)
        for k in range(len(order)):
            side = order[(start + k) % len(order)]
            if self.ready(state, side):
                return renew(state, active=side)
        return self._end_phase(state, events, rng)

    def _end_phase(
        self, state: NecromundaState, events: list[Event], rng: np.random.Generator
    ) -> NecromundaState:
        # FACTS 2.8: "End phase (Bottle test ...; fleeing = Cool test per fighter;
        # Recovery: ...; then Rally tests)"
        state = self._bottle(state, events, rng)
        mark = len(events)
        state = self._recovery(state, events, rng)
        state = self.nerve_tests(state, fallen(events[mark:]), events, rng)
        state = self.rally(state, events, rng)
        events.append(TurnEnded(state.turn, state.priority))
        ended = self._victory(state, events, final=state.turn >= self.turns)
        if ended is not None:
            return ended
        state = renew(state, turn=state.turn + 1)
        return self._priority_phase(state, events, rng)

    def _recovery(
        self, state: NecromundaState, events: list[Event], rng: np.random.Generator
    ) -> NecromundaState:
        """End phase Recovery (FACTS 2.8): an Injury die per Seriously Injured fighter:
        Flesh Wound = a flesh wound and Pinned; Seriously Injured = no change; Out of
        Action = removed. An Active friend within 1" adds a die; the best is kept
        (`_kept`)."""
        for m in state.models:
            if m.status != SERIOUSLY_INJURED:
                continue
            helped = self.recovery_helped(state, m)
            faces = [d6(rng) for _ in range(2 if helped else 1)]
            results = [self.dice.injury[f - 1] for f in faces]
            best = self._kept(m, results)
            kept = results.index(best) if len(results) > 1 else None
            said = tuple(r.value for r in results)
            events.append(InjuryRolled(m.id, tuple(faces), said, "recovery", kept))
            if best is InjuryResult.FLESH_WOUND:
                flesh = m.marker(FLESH_WOUNDS) + 1
                after = OUT_OF_ACTION if self.profiles[m.id].t - flesh <= 0 else PINNED
                events.append(StateChanged(m.id, m.status, after))
                state = state.with_model(m.with_marker(FLESH_WOUNDS, flesh).replace(status=after))
            elif best is InjuryResult.OUT_OF_ACTION:
                events.append(StateChanged(m.id, m.status, OUT_OF_ACTION))
                state = state.with_model(m.replace(status=OUT_OF_ACTION))
        return state

    def recovery_helped(self, state: NecromundaState, m: ModelState) -> bool:
        """Whether an Active friend within 1" adds a die to `m`'s Recovery (FACTS 2.8)."""
        return any(
            f.side == m.side and f.id != m.id and f.status in UPRIGHT
            and self._gap(f, m) <= RECOVERY_HELP + 1e-9
            for f in state.models
        )  # fmt: skip

    def recovery_odds(self, state: NecromundaState, m: ModelState) -> float:
        """The odds that `m`, Seriously Injured, is back in the fight after its Recovery
        (`_recovery`): the die or dice it rolls, the one kept (`_kept`) a Flesh Wound it
        survives (then Pinned), every face counted."""
        if self.profiles[m.id].t - (m.marker(FLESH_WOUNDS) + 1) <= 0:
            return 0.0  # a Flesh Wound would take its Toughness to 0: Out of Action
        dice = 2 if self.recovery_helped(state, m) else 1
        faces = list(itertools.product(self.dice.injury, repeat=dice))
        back = sum(1 for roll in faces if self._kept(m, list(roll)) is InjuryResult.FLESH_WOUND)
        return back / len(faces)

    def cool_odds(self, model_id: str) -> float:
        """The odds of passing a Cool test: 2D6 >= Cl, a roll of 2 failing (FACTS 2.8)."""
        cl = self.profiles[model_id].cl
        return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= cl and a + b > 2) / 36

    def bottle_odds(self, state: NecromundaState, side: str) -> float:
        """The odds `side` is bottled after this End phase's Bottle test (`_bottle`): 1
        when it already is; else D6 + fighters down > its starting crew (FACTS 2.8)."""
        if side in state.bottled:
            return 1.0
        down = self.down_count(state, side)
        if not down:
            return 0.0
        return sum(1 for face in range(1, 7) if face + down > self.crew[side]) / 6

    def _kept(self, m: ModelState, results: list[InjuryResult]) -> InjuryResult:
        """The Recovery die kept: FACTS 2.8, "one Active friend within 1" adds an extra
        die and the player picks one". The owner keeps what leaves the fighter best off:
        back in the fight (a Flesh Wound it survives), then still down (Seriously
        Injured), then out (Out of Action, or a Flesh Wound that takes Toughness to 0)."""
        lethal = self.profiles[m.id].t - (m.marker(FLESH_WOUNDS) + 1) <= 0

        def rank(r: InjuryResult) -> int:
            if r is InjuryResult.FLESH_WOUND and lethal:
                return INJURY_RANK[InjuryResult.OUT_OF_ACTION]
            return INJURY_RANK[r]

        return min(results, key=rank)

    @staticmethod
    def down_count(state: NecromundaState, side: str) -> int:
        """`side`'s fighters Seriously Injured or Out of Action: the Bottle test's count."""
        return sum(
            1 for m in state.side_models(side) if m.status in (SERIOUSLY_INJURED, OUT_OF_ACTION)
        )

    @staticmethod
    def reload_refused(m: ModelState, weapon: NecromundaWeapon) -> str | None:
        """Why `m` may not Reload `weapon` (FACTS 2.6), or None: jammed for the rest of
        the battle, not out of ammo, or Scarce or a Grenade."""
        if jammed_flag(weapon.name) in m.flags:
            return f"{weapon.name} is jammed for the rest of the battle"
        if out_of_ammo_flag(weapon.name) not in m.flags:
            return f"{weapon.name} is not out of ammo"
        if weapon.trait("Scarce") is not None or weapon.trait("Grenade") is not None:
            return f"{weapon.name} cannot be reloaded"
        return None

    def _bottle(
        self, state: NecromundaState, events: list[Event], rng: np.random.Generator
    ) -> NecromundaState:
        """Bottle test: D6 + fighters Seriously Injured or Out of Action > starting crew;
        a bottled gang's fighters each pass a Cool test (2D6 >= Cl) or flee (FACTS 2.8:
        "fleeing = Cool test per fighter"), a Seriously Injured one too."""
        bottled = set(state.bottled)
        for side in state.sides:
            down = self.down_count(state, side)
            if side not in bottled and down:
                face = d6(rng)
                now = face + down > self.crew[side]
                events.append(BottleTested(side, face, down, self.crew[side], now))
                if now:
                    bottled.add(side)
            if side not in bottled:
                continue
            for m in state.side_models(side):
                if m.status == OUT_OF_ACTION:
                    continue
                cl = self.profiles[m.id].cl
                faces = (d6(rng), d6(rng))
                ok = sum(faces) >= cl and sum(faces) > 2
                events.append(
                    Rolled(m.id, FLEE_TEST, "Cl", cl, (), cl, faces,
                           ("success" if ok else "fail",) * 2)
                )  # fmt: skip
                if not ok:
                    events.append(StateChanged(m.id, m.status, OUT_OF_ACTION))
                    fled = m.replace(status=OUT_OF_ACTION, flags=m.flags | {FLED})
                    state = state.with_model(fled)
        return renew(state, bottled=frozenset(bottled))

    def fighting(self, state: GameState, side: str) -> list[ModelState]:
        """Fighters still in the fight: Standing or Pinned."""
        return [m for m in state.side_models(side) if m.status in (*UPRIGHT, PINNED)]

    def _victory(
        self, state: NecromundaState, events: list[Event], *, final: bool = False
    ) -> NecromundaState | None:
        fighting = {s: self.fighting(state, s) for s in state.sides}
        beaten = [s for s in state.sides if not fighting[s]]
        if not beaten and not final:
            return None
        scores = {s: sum(self.points[m.id] for m in fighting[s]) for s in state.sides}
        if beaten:
            standing = [s for s in state.sides if s not in beaten]
            winner = standing[0] if len(standing) == 1 else None
            reason = beaten_reason(beaten, "no fighter left standing or pinned")
        else:
            best = max(scores.values())
            leaders = [s for s, v in scores.items() if v == best]
            winner = leaders[0] if len(leaders) == 1 else None
            reason = f"turn limit ({self.turns}): points of fighters still in the fight"
        events.append(GameEnded(winner, reason, scores))
        return renew(state, finished=True, winner=winner, activating=None)

    # -- for players and tools ---------------------------------------------------

    def ready_to_shoot(self, state: NecromundaState, model_id: str) -> NecromundaState:
        """The state with `model_id`'s side to activate and the fighter Ready (for
        `skirmish shoot`: one attack from the table as laid out)."""
        m = state.model(model_id)
        if READY not in m.flags:
            state = state.with_model(m.replace(flags=m.flags | {READY}))
        return renew(state, active=m.side, activating=None, used=())
