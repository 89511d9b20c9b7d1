"""Necromunda on the sequencer: the declarations, the state and the events it adds.

Statuses (FACTS 2.8) are `ModelState.status` values: "standing" (Standing Active),
"engaged" (Standing Engaged), "pinned" (Prone Pinned), "seriously-injured" (Prone
Seriously Injured) and "out-of-action". Flags: "ready" (may still activate this round),
"aimed", "out-of-ammo:<weapon>", "jammed:<weapon>", "fled", "broken" (the Broken
condition: only Running for Cover until it Rallies), "blaze" (on fire, FACTS 2.9's
Blaze, until it is put out). Markers: "flesh-wounds".
`ModelState.wounds` counts the Wounds lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from game.sequencer.declarations import Declaration, declaration
from game.sequencer.events import OMIT_DEFAULT, Event, _plain
from game.sequencer.sight import Placement, Sighting
from game.sequencer.state import GameState, kept

Point = tuple[float, float]

STANDING = "standing"
ENGAGED = "engaged"
PINNED = "pinned"
SERIOUSLY_INJURED = "seriously-injured"
OUT_OF_ACTION = "out-of-action"
PRONE = (PINNED, SERIOUSLY_INJURED)
UPRIGHT = (STANDING, ENGAGED)

READY = "ready"
ACTIONS_PER_ACTIVATION = 2  # Necromunda: two actions per activation (FACTS 2.8)
AIMED = "aimed"
FLED = "fled"
# The purpose of the Cool test a bottled gang's fighter stays by, or flees (FACTS 2.8).
FLEE_TEST = "Cool test (bottled)"
FLESH_WOUNDS = "flesh-wounds"
BROKEN = "broken"
BLAZE = "blaze"  # on fire (FACTS 2.9: Blaze), added in session 14


def status_said(status: str) -> str:
    """A status in a refusal as the dice log writes it ("seriously injured", not the id
    "seriously-injured")."""
    return status.replace("-", " ")


def out_of_ammo_flag(weapon: str) -> str:
    return f"out-of-ammo:{weapon}"


def jammed_flag(weapon: str) -> str:
    return f"jammed:{weapon}"


class ActionKind(StrEnum):
    MOVE = "move"
    SHOOT = "shoot"
    AIM = "aim"
    BLIND_FIRE = "blind-fire"
    RELOAD = "reload"
    TAKE_COVER = "take-cover"
    STAND_UP = "stand-up"
    CRAWL = "crawl"
    RUN_FOR_COVER = "run-for-cover"
    COUP_DE_GRACE = "coup-de-grace"  # added in session 14


# Necromunda: Basic actions once per activation, Simple ones repeatable, Double ones
# take both actions (FACTS 2.8). Shoot with an Unwieldy weapon is Double (FACTS 2.9).
BASIC = frozenset({ActionKind.SHOOT, ActionKind.AIM, ActionKind.TAKE_COVER, ActionKind.STAND_UP})
SIMPLE = frozenset({ActionKind.MOVE, ActionKind.RELOAD, ActionKind.COUP_DE_GRACE})
DOUBLE = frozenset({ActionKind.BLIND_FIRE, ActionKind.CRAWL, ActionKind.RUN_FOR_COVER})


@dataclass(frozen=True, slots=True)
class Action:
    """One action of an activation.

    Move, Take Cover, Crawl: `path` (waypoints after the start) and the `facing` at the
    end (default: the last leg's direction). Shoot and Blind Fire: `weapon` and either a
    `target` fighter or, for a Blast weapon, a point `at`; a Template weapon takes a
    `direction` (degrees) instead, and `hit_order` is the order its hits are resolved
    in (the firer's choice; the rest nearest first); its `target`, where given, is the
    fighter it is laid toward, refused where no shot may be aimed at it (Out of Action,
    a friend). Reload: `weapon`. Stand Up: the
    `facing` after standing. `twin`: a second Sidearm fired at the same target in the
    same Shoot action (Twin Guns Blazing, -1 to each hit roll). `extra`: where a Rapid
    Fire weapon's hits after the first go, in order (other enemies within 3" of the
    target, in range and sight, no harder to hit); hits left over stay on the target.
    `extra_at`: for a Blast weapon with Rapid Fire, where the extra blasts go (each
    within 3" of the aimed point; the ones not named land on the first blast).
    Coup de Grace: the Seriously Injured enemy `target` within 1" it takes Out of
    Action (FACTS 2.4, 2.8)."""

    kind: ActionKind
    path: tuple[Point, ...] = ()
    facing: float | None = None
    weapon: str | None = None
    target: str | None = None
    at: Point | None = None
    direction: float | None = None
    hit_order: tuple[str, ...] = ()
    twin: str | None = None
    extra: tuple[str, ...] = ()
    extra_at: tuple[Point, ...] = ()

    @staticmethod
    def move(*path: Point, facing: float | None = None) -> Action:
        return Action(ActionKind.MOVE, path=tuple(path), facing=facing)

    @staticmethod
    def shoot(
        weapon: str,
        target: str | None = None,
        *,
        at: Point | None = None,
        blind: bool = False,
        twin: str | None = None,
        extra: tuple[str, ...] = (),
        extra_at: tuple[Point, ...] = (),
    ) -> Action:
        kind = ActionKind.BLIND_FIRE if blind else ActionKind.SHOOT
        return Action(kind, weapon=weapon, target=target, at=at, twin=twin, extra=extra,
                      extra_at=extra_at)  # fmt: skip

    @staticmethod
    def flame(
        weapon: str,
        direction: float,
        hit_order: tuple[str, ...] = (),
        *,
        blind: bool = False,
        target: str | None = None,
    ) -> Action:
        kind = ActionKind.BLIND_FIRE if blind else ActionKind.SHOOT
        return Action(kind, weapon=weapon, direction=direction, hit_order=hit_order,
                      target=target)  # fmt: skip

    @staticmethod
    def aim() -> Action:
        return Action(ActionKind.AIM)

    @staticmethod
    def reload(weapon: str) -> Action:
        return Action(ActionKind.RELOAD, weapon=weapon)

    @staticmethod
    def stand_up(facing: float | None = None) -> Action:
        return Action(ActionKind.STAND_UP, facing=facing)

    @staticmethod
    def take_cover(*path: Point, facing: float | None = None) -> Action:
        return Action(ActionKind.TAKE_COVER, path=tuple(path), facing=facing)

    @staticmethod
    def run_for_cover() -> Action:
        """Running for Cover (Double), a Broken fighter's only action: the engine rolls
        the distance and picks where it ends by the rule's order of wishes."""
        return Action(ActionKind.RUN_FOR_COVER)

    @staticmethod
    def coup_de_grace(target: str) -> Action:
        """Coup de Grace (Simple, FACTS 2.8): a Seriously Injured enemy within 1" goes
        Out of Action (FACTS 2.4)."""
        return Action(ActionKind.COUP_DE_GRACE, target=target)

    @staticmethod
    def crawl(*path: Point, facing: float | None = None) -> Action:
        return Action(ActionKind.CRAWL, path=tuple(path), facing=facing)


def _exact(value: Any) -> Any:
    """`_plain(value, exact=True)`, the plain values and tuples of them worked here."""
    if value is None or isinstance(value, str | int | float):
        return value
    if isinstance(value, tuple):
        return [_exact(v) for v in value]
    return _plain(value, exact=True)


@declaration
@dataclass(frozen=True, slots=True)
class Act(Declaration):
    """One action by a fighter of the side whose turn it is to activate. The first
    action of an activation picks a Ready fighter; `turn_to` turns a Standing fighter to
    face any way before its first action (Necromunda: a Standing Active fighter may turn
    when activated). `group`: with the first action of a Leader's or a Champion's
    activation, the other Ready fighters of its side within 3" it nominates for a group
    activation (FACTS 2.8: "Leaders may group-activate 2 fighters within 3\", Champions
    1"); they activate after it, in the order the side picks, before play passes on.
    Left out of the saved form when empty (saves made before it read the same)."""

    model: str
    action: Action
    turn_to: float | None = None
    group: tuple[str, ...] = field(default=(), metadata=OMIT_DEFAULT)  # added in session 10

    def to_dict(self) -> dict[str, Any]:
        """`Declaration.to_dict`'s dict, the same to the last key and value, made field by
        field (it is made for every action a game declares)."""
        a = self.action
        return {
            "declare": "Act",
            "model": _exact(self.model),
            "action": {
                "kind": _exact(a.kind),
                "path": _exact(a.path),
                "facing": _exact(a.facing),
                "weapon": _exact(a.weapon),
                "target": _exact(a.target),
                "at": _exact(a.at),
                "direction": _exact(a.direction),
                "hit_order": _exact(a.hit_order),
                "twin": _exact(a.twin),
                "extra": _exact(a.extra),
                "extra_at": _exact(a.extra_at),
            },
            "turn_to": _exact(self.turn_to),
            **({"group": list(self.group)} if self.group else {}),
        }


@declaration
@dataclass(frozen=True, slots=True)
class EndActivation(Declaration):
    """Give up the actions left (or activate a Ready fighter and do nothing: `model`).
    `group`: a Leader or a Champion that activates and does nothing may still lead a
    group activation, nominating it as `Act.group` does (FACTS 2.8 says nothing of the
    leader's own actions); left out of the saved form when empty."""

    model: str | None = None
    group: tuple[str, ...] = field(default=(), metadata=OMIT_DEFAULT)  # added in session 11


@dataclass(slots=True)
class Asked:
    """What has been asked of one state, kept while it lives: sightings by (shooter,
    target) and placements by (shooter, target, facing) (`NecromundaTargeting`), and
    where the fighters on the table stand (the engine's path answers' key)."""

    sightings: dict[tuple[str, str], Sighting] = field(default_factory=dict)
    placements: dict[tuple[str | None, str | None, bool], Mapping[str, Placement]] = field(
        default_factory=dict
    )
    standing: tuple[tuple[str, tuple[float, float]], ...] | None = None


@dataclass(frozen=True, slots=True)
class NecromundaState(GameState):
    """`active` is the side to activate next; `activating` the fighter mid-activation."""

    priority: str = ""
    activating: str | None = None
    actions_left: int = 0
    used: tuple[str, ...] = ()  # Basic actions taken in this activation
    bottled: frozenset[str] = frozenset()
    # a group activation (FACTS 2.8): the fighter leading it and the nominated fighters
    # still to activate in it
    leading: str | None = None
    group: tuple[str, ...] = ()
    # built on first use, never compared or copied: a replaced state asks afresh
    _asked: Asked | None = field(default=None, init=False, repr=False, compare=False)

    def asked(self) -> Asked:
        return kept(self, "_asked", Asked)


# -- events ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PriorityRolled(Event):
    """Necromunda Priority phase: a D6 each (ties roll again); the highest has priority."""

    turn: int
    faces: tuple[tuple[str, int], ...]
    side: str


@dataclass(frozen=True, slots=True)
class GroupNominated(Event):
    """A Leader or Champion leads a group activation (FACTS 2.8): `group`, the fighters
    it nominates, to activate after it."""

    side: str
    model: str
    group: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GroupMemberActivated(Event):
    """A nominated fighter's activation in `leader`'s group activation starts."""

    model: str
    leader: str


@dataclass(frozen=True, slots=True)
class GroupMemberSkipped(Event):
    """A nominated fighter that can no longer be activated when its turn in the group
    comes (taken out of action meanwhile) is passed over."""

    model: str
    leader: str
    reason: str


@dataclass(frozen=True, slots=True)
class Turned(Event):
    model: str
    facing: float


@dataclass(frozen=True, slots=True)
class TargetChanged(Event):
    """Target priority: a failed Cool test makes the fighter shoot the closest target."""

    attacker: str
    declared: str
    target: str
    reason: str


@dataclass(frozen=True, slots=True)
class FirepowerRolled(Event):
    """FACTS 2.6: a Firepower die with every ranged attack (its Ammo symbol); a Rapid
    Fire (X) weapon rolls X, a hit scoring the bullet holes shown."""

    model: str
    weapon: str
    faces: tuple[int, ...]
    holes: int
    ammo_symbols: int
    rapid_fire: int = 0  # X of the weapon's Rapid Fire (X); 0: the holes count for nothing


@dataclass(frozen=True, slots=True)
class AmmoChanged(Event):
    """A weapon ran out of ammo, jammed, or was reloaded."""

    model: str
    weapon: str
    state: str


@dataclass(frozen=True, slots=True)
class StrayChecked(Event):
    """A stray shot check on a fighter at risk: D6 1-3 hits it instead of the target."""

    attacker: str
    model: str
    face: int
    hit: bool
    shot: int  # which of the attack's hits this check is for (from 1)


@dataclass(frozen=True, slots=True)
class BlastPlaced(Event):
    """A blast marker's centre hole placed: on the fighter `on` where it is that fighter's
    place (a shot at a fighter, not pulled back), else only at `centre`."""

    attacker: str
    weapon: str
    centre: Point
    diameter: float
    reason: str = ""
    on: str = field(default="", metadata=OMIT_DEFAULT)  # added in session 9


@dataclass(frozen=True, slots=True)
class ScatterRolled(Event):
    """The scatter die (its face: a "hit" or an "arrow") and the D6 of distance."""

    attacker: str
    face: int
    hit_face: bool
    distance: int


@dataclass(frozen=True, slots=True)
class Scattered(Event):
    attacker: str
    start: Point
    end: Point
    direction: float
    distance: float
    stopped_by: str | None
    left_table: bool


@dataclass(frozen=True, slots=True)
class Misfired(Event):
    """Scatter die Hit and a 1: D6 1 centres the blast on the firer, 2-6 a dud."""

    attacker: str
    weapon: str
    face: int
    result: str


@dataclass(frozen=True, slots=True)
class BlastRemoved(Event):
    attacker: str
    weapon: str
    reason: str


@dataclass(frozen=True, slots=True)
class TemplatePlaced(Event):
    attacker: str
    weapon: str
    origin: Point
    direction: float
    length: float
    width: float
    under: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InjuryRolled(Event):
    model: str
    faces: tuple[int, ...]
    results: tuple[str, ...]
    purpose: str = "injury"
    # a Recovery roll of two dice: which one the player kept (FACTS 2.8); None otherwise
    kept: int | None = None


@dataclass(frozen=True, slots=True)
class CoupDeGrace(Event):
    """`model` finishes off the Seriously Injured enemy `target` with a Coup de Grace
    (FACTS 2.4: "Vulnerable to Coup de Grace (Simple action from within 1\", which
    takes it OOA)"); the change of state to Out of Action follows."""

    model: str
    target: str


@dataclass(frozen=True, slots=True)
class BottleTested(Event):
    """End phase: D6 + fighters Seriously Injured or Out of Action > starting crew."""

    side: str
    face: int
    casualties: int
    crew: int
    bottled: bool


@dataclass(frozen=True, slots=True)
class BrokenChanged(Event):
    """A fighter became Broken (a failed Nerve test) or Rallied (`broken` False)."""

    model: str
    broken: bool
    reason: str


@dataclass(frozen=True, slots=True)
class RanForCover(Event):
    """Running for Cover: the distance it could run (`faces`: the 2D6, none when Prone
    moves half its M), where it ended and which of the rule's wishes that end meets."""

    model: str
    faces: tuple[int, ...]
    allowance: float
    end: Point
    meets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BlazeRolled(Event):
    """FACTS 2.9, Blaze: the D6 after a Blaze weapon's hit that leaves `model` in the
    fight (`weapon` names it; `success`: it catches fire), or the D6 to put the fire out
    as it burns (`weapon` empty; `success`: the fire goes out), with its modifiers."""

    model: str
    weapon: str
    face: int
    modifiers: tuple[tuple[str, int], ...]
    need: int
    success: bool


@dataclass(frozen=True, slots=True)
class Burned(Event):
    """A burning fighter activates (FACTS 2.9, Blaze): it takes a hit of `strength`,
    `ap`, `damage` from the flames (the wound roll, save and Injury dice follow)."""

    model: str
    strength: int
    ap: int
    damage: int


@dataclass(frozen=True, slots=True)
class ForcedMove(Event):
    """A fighter moved by the rules, not by its side: a burning fighter's 2D6" run in a
    random direction (`cause` "blaze", `faces` the 2D6) or a Knockback push (`cause`
    "knockback", `faces` the roll set against its Strength `strength`: the hit roll, or
    a D6 for a fighter under a blast). From `start` toward `direction` degrees, `wanted`
    inches; it went `distance` to `end`, stopped short by `stopped_by` (a piece or a
    fighter) or the table's edge (`stopped_by` None, `blocked`). A roll below the
    Strength pushes nothing (`wanted` 0). `damage`: what the move adds to the hit's
    Damage (a Knockback push stopped short: traits.toml's `blocked_damage`; rules version
    3 on: a log of older rules has none, and a push stopped short there added 1)."""

    model: str
    cause: str
    faces: tuple[int, ...]
    strength: int
    start: Point
    direction: float
    wanted: float
    end: Point
    distance: float
    stopped_by: str | None
    blocked: bool
    damage: int = 0
