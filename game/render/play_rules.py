"""What the table asks of a rule system to be played on it: a `PlayRules` adapter.

The window collects what the player means in rule-free terms, an `Intent` (move along
these points, shoot these targets with these dice, dodge, stay idle, end the turn),
and the rule system's adapter turns it into its own declaration for whatever the game
awaits now (an activation's first action, a second one, or a reaction). The adapter
also says what is awaited (`Prompt`), how far a model may move, how many dice it
splits, the odds of a shot, the markers on each base and what the automatic player
would declare.

`rules_for(game)` asks the rule-system registry (game.rules.registry) for the game's
"play" part; a new rule system on the sequencer names its adapter there, and the
window plays it unchanged.

No pygame here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from game.errors import IllegalDeclaration
from game.files import WINDOW_THINK
from game.render.dice_log import Aimed, Effect
from game.rules.registry import Ruleset
from game.sequencer.sentences import who, won_by

Point = tuple[float, float]


class IntentKind(StrEnum):
    MOVE = "move"
    SHOOT = "shoot"
    DODGE = "dodge"
    IDLE = "idle"
    END = "end"
    AIM = "aim"
    RELOAD = "reload"
    TAKE_COVER = "take-cover"
    STAND_UP = "stand-up"
    COUP_DE_GRACE = "coup-de-grace"

    @property
    def said(self) -> str:
        """The intent in words, as a refusal names it ("coup de grace", not the id)."""
        return self.value.replace("-", " ")


class AimKind(StrEnum):
    """How a weapon is pointed: at models (`DIRECT`), a marker at a model or a point
    (`BLAST`), or a template laid in a direction from the base (`TEMPLATE`)."""

    DIRECT = "direct"
    BLAST = "blast"
    TEMPLATE = "template"


@dataclass(frozen=True, slots=True)
class Intent:
    """What the player means, before the rules name it. `targets` are (model, dice);
    `at` is the point of the opponent's route a reaction is taken at (None: its end);
    `point` a blast aimed at the table, `direction` a template's heading in degrees;
    `blind` a shot fired blind (where the rules allow it); `extra` the other models the
    hits after the first go to (where the rules let a shot place them); `toggled` the
    keys of the options switched on for it (`PlayRules.toggles`); `group` the models
    nominated to activate with it (`PlayRules.group_candidates`)."""

    kind: IntentKind
    model: str | None = None
    path: tuple[Point, ...] = ()
    weapon: str | None = None
    targets: tuple[tuple[str, int], ...] = ()
    at: Point | None = None
    point: Point | None = None
    direction: float | None = None
    blind: bool = False
    extra: tuple[str, ...] = ()
    toggled: frozenset[str] = frozenset()
    group: tuple[str, ...] = ()


# What a move being laid out takes, unless the step says otherwise (`Prompt.move_keys`).
MOVE_KEYS = (
    "click: add a point to the path (the inches left are shown)",
    "Backspace: take the last point back · Enter: declare · Esc: cancel",
)
# The same in short, after the panel's line of the move ("Fusilier 1 moves 2.0\" of 4\": ...").
MOVE_HINT = "click points, Backspace undoes one, Enter"
# What Enter asks for with nothing laid out, unless the step says otherwise (`Prompt.enter`).
LAY_OUT_FIRST = "M move or S shoot first"


@dataclass(frozen=True, slots=True)
class Prompt:
    """Who must declare next and what. `kind` is the rule system's step ("order",
    "aro", "second", "over", ...); `models` may declare; `mover` and `route` are the
    model being reacted to and its route so far (drawn, and clicked to pick a point);
    `choices` the keys of an answer a side gives out of its turn (a reaction), which
    the window asks for in a banner no one misses. `status` says what is awaited
    without the keys ("1 Order left"), for a side the computer plays; `when_on` the
    choice shown instead of a toggle key's own (`PlayRules.toggles`) once it is switched
    on: (key, words). `enter` is what Enter asks for at this step while nothing is laid
    out ("nothing to confirm: ..."), `move_keys` the keys of a move laid out now (F1) and
    `move_hint` the same in short (the panel's line of the move); `reach_hint` the panel's
    words for a move laid out past what Enter moves, within `PlayRules.reach`; `lays_out`
    False where the step takes no move or shot (M and S say `enter` instead); `keys` the
    declaration keys this step takes where they are fewer than the rule system's
    (`PlayRules.keys_help`, F1's "Declaring" section and the panel's help lines);
    `unselected` the text while none of `models` is selected, where it asks for one to be
    ("select it"; `said`); `shown` what the table draws for this step (F1)."""

    side: str | None
    kind: str
    models: tuple[str, ...]
    text: str
    mover: str | None = None
    route: tuple[Point, ...] = ()
    choices: tuple[str, ...] = ()  # an answer awaited out of turn (an ARO): its keys
    status: str = ""
    when_on: tuple[tuple[str, str], ...] = ()
    enter: str = LAY_OUT_FIRST
    move_keys: tuple[str, ...] = MOVE_KEYS
    move_hint: str = MOVE_HINT
    reach_hint: str = ""
    lays_out: bool = True
    keys: tuple[str, ...] = ()
    unselected: str = ""
    shown: tuple[str, ...] = ()

    def said(self, selected: str | None) -> str:
        """The text as shown with `selected` the selected model: it asks to select one of
        `models` only while none is."""
        return self.unselected if self.unselected and selected not in self.models else self.text

    @property
    def over(self) -> bool:
        return self.kind == "over"

    def choices_with(self, toggled: frozenset[str]) -> tuple[str, ...]:
        """The choices as shown with the options `toggled` on: a switched-on key's
        choice says it is on and how to cancel it."""
        on = dict(self.when_on)
        return tuple(
            on.get(c.split(" ", 1)[0].lower(), c)
            if c.split(" ", 1)[0].lower() in toggled else c
            for c in self.choices
        )  # fmt: skip

    @property
    def answers(self) -> tuple[str, ...]:
        """The keys of the answer awaited out of turn, in the choices' own words ("S
        shoot at B1", "D dodge", "I no ARO"): `choices` without the toggles' (`when_on`)."""
        toggles = {key for key, _ in self.when_on}
        return tuple(c for c in self.choices if c.split(" ", 1)[0].lower() not in toggles)

    @property
    def reacting(self) -> bool:
        """The models listed answer another model's action (they do not pick targets)."""
        return self.mover is not None and self.kind != "second"

    @property
    def answering(self) -> bool:
        """The models listed answer out of turn (a reaction, or an answer asked in the
        banner, `choices`, such as a fall back): the window selects them as it asks."""
        return self.reacting or bool(self.choices)


@dataclass(frozen=True, slots=True)
class Marker:
    """What is drawn on a base: its state, the wounds it has taken of how many, and
    short tags for counters and flags (pinned, flesh wounds, out of ammo, blaze...)."""

    status: str
    wounds: int = 0
    vitality: int = 0
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Ahead:
    """Where `model` would go by an answer a person is asked for, before it is chosen
    (a squad's fall back): from `start` to each of `ends`, one for each way its
    dice may fall, nearest first; on one model of those going, `said` says what the ends
    are and `ends_said` each end (as many, nearest first)."""

    model: str
    start: Point
    ends: tuple[Point, ...]
    said: str = ""
    ends_said: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Preview:
    """Where a blast marker or a template would land, before the shot is declared.

    Blast: `centre` and `radius` of the marker, `scatter` the radius a miss may carry
    it (a ring around the centre). Template: `outline` is its polygon, `direction` its
    heading. `under` are the models it would hit (friend and foe); `refused` says why
    this placement is illegal ("" when it is legal); `odds` the exact odds of those under
    it, where the rules have them, and what they leave out (the panel's Odds while no
    enemy is pointed at)."""

    kind: AimKind
    centre: Point
    radius: float = 0.0
    scatter: float = 0.0
    outline: tuple[Point, ...] = ()
    direction: float | None = None
    under: tuple[str, ...] = ()
    refused: str = ""
    target: str | None = None
    odds: tuple[str, ...] = ()  # the exact odds the rules have for it, as panel lines


@dataclass(frozen=True, slots=True)
class Laid:
    """What a weapon laid rather than aimed along a line of fire (a template laid toward
    the enemy pointed at) does to that enemy, or why a weapon, laid or aimed, may not
    fire at all (jammed, out of ammo), said in the line-of-fire ruling's place: `hits`
    whether the rules hit it, `said` what they do and why, by ids."""

    hits: bool
    said: str


@dataclass(frozen=True, slots=True)
class ShotPlace:
    """Where the rules have a model when a shot is taken now, though it still stands
    where it started: the active trooper at the end of its move so far, or at the point
    of its route a reaction is taken at. `where` says which point in the rule system's
    words ("at the end of its move", "1.5\" short of the end of its move")."""

    model: str
    at: Point
    facing: float
    where: str

    def told(self, shooter: str, target: str) -> str:
        """The point, as the shot between `shooter` and `target` reads it: "from the end
        of its move" (the shooter is the one moving), "with X 1.5\" short of the end of
        its move" (its target is)."""
        if shooter == self.model:
            return "from " + self.where.removeprefix("at ")
        return f"with {who(target)} {self.where}"


@dataclass(frozen=True, slots=True)
class Rings:
    """Range rings the rules count otherwise than by the chosen weapon around the
    model's own base: the weapon whose band they are, the models the range is measured
    from (each ring the edge of their circles taken together), and what the first
    ring's label says after its band ("SAW band, while Reb a3 sees the target")."""

    weapon: str
    bases: tuple[str, ...]
    said: str


def activating_now(activating: str | None) -> str:
    """A declaration for another than the one activating, refused: who is, and how to end it."""
    return f"{who(activating)} is activating: E ends its activation"


def game_over(winner: str | None) -> Prompt:
    """The end of the game, awaiting nothing: "game over: won by PanOceania", "game over: a
    draw" (it read "nobody (a draw) wins"), as the dice log says it."""
    said = f"game over: {won_by(winner)}"
    return Prompt(None, "over", (), said)


class PlayRules(Protocol):
    """A rule system's adapter for the interactive table. Adapters subclass it; aiming,
    previews and stray-shot risk default to plain direct fire."""

    @property
    def name(self) -> str: ...

    def prompt(self, game: Any) -> Prompt: ...

    def ahead(self, game: Any) -> tuple[Ahead, ...]:
        """Where the models would go by the answer awaited now, where the rules move them
        by it (none here: no answer moves a model)."""
        return ()

    def declaration(self, game: Any, intent: Intent) -> Any:
        """The declaration `intent` means now; raises IllegalDeclaration with the reason."""
        ...

    def first_step(self, game: Any, declaration: Any) -> str:
        """Where `declaration` is a step the rules take before the one a person asked for
        (a unit activating first, its wound markers rolled, before it acts, where the
        rules roll them), the sentence saying so; "" where it is the one asked for. The window
        then declares what was asked, if the game still takes it."""
        return ""

    def why_not_start(self, game: Any, model: str) -> str:
        """Why `model` may not declare anything now, where the rules say so before any
        skill is laid out ("" when it may, or where only the declaration can tell)."""
        return ""

    def allowance(self, game: Any, model: str) -> float | None:
        """Inches `model` may move with the skill Enter would declare now (None: no move)."""
        ...

    def move_words(self, game: Any, model: str) -> tuple[str, str]:
        """How the panel says `model`'s move laid out now: its verb ("moves") and its
        keys in short ("": the prompt's `move_hint`)."""
        return "moves", ""

    def move_keys(self, game: Any, model: str) -> tuple[str, ...]:
        """The keys of `model`'s move laid out now as F1 lists them (none: the prompt's
        `move_keys`), where the rules move it otherwise (a Crawl, say)."""
        return ()

    # a move is one vector, not a path, where the rules move by one: a click sets its one
    # end point (a new click moves it) and its inches are counted straight
    one_vector: bool = False

    def reach(self, game: Any, model: str) -> float | None:
        """The most inches a move laid out for `model` may take by another key, where the
        rules have a move that goes further than the one Enter declares (None: none does;
        a move is laid out as far as `allowance`)."""
        return None

    def path_start(self, game: Any, model: str) -> Point: ...

    def burst(self, game: Any, model: str, weapon: str) -> int:
        """Dice `model` splits between its targets with `weapon` now."""
        ...

    def odds_lines(
        self, game: Any, shooter: str, target: str, weapon: str, at: Point | None = None,
        *, blind: bool = False,
    ) -> list[str]:  # fmt: skip
        """Every MOD, the final SV or target number, and the exact odds, as panel lines,
        the models placed as `shot_place(game, at)` has them (`at` is passed only while
        it places one: an adapter without `shot_place` may leave `at` out); `blind` a
        shot fired blind (B, where the rules have it: its modifier in the odds; passed
        only when True, so an adapter whose rules have no B may leave it out)."""
        ...

    def shot_place(self, game: Any, at: Point | None = None) -> ShotPlace | None:
        """Where the rules have a model that has not got there yet when a shot is taken
        now (`at`: the point of the mover's route a reaction is taken at, None for its
        end); None when every model shoots and is shot at where it stands."""
        return None

    def markers(self, game: Any) -> dict[str, Marker]: ...

    def choose(self, game: Any) -> Any:
        """What the automatic player declares now."""
        ...

    def aim_kind(self, game: Any, model: str, weapon: str) -> AimKind:
        """How `weapon` is pointed (direct fire, a blast marker or a template)."""
        return AimKind.DIRECT

    def preview(
        self,
        game: Any,
        model: str,
        weapon: str,
        *,
        target: str | None = None,
        point: Point | None = None,
        direction: float | None = None,
        blind: bool = False,
    ) -> Preview | None:
        """Where a blast or template would land and who is under it (None: direct fire)."""
        return None

    def laid(
        self, game: Any, model: str, weapon: str, target: str, *, blind: bool = False
    ) -> Laid | None:
        """What `weapon`, where it is laid rather than aimed along a line of fire (a
        template), does to `target` laid toward it now, in the rules' words, or why the
        weapon may not fire at all; None where the weapon is aimed and may fire, and the
        line-of-fire ruling stands (none here)."""
        return None

    def turns_to(self, game: Any, model: str, target: str, *, blind: bool = False) -> float | None:
        """The facing `model` turns to as it shoots at `target` now, where the rules turn
        it as it activates (its line of fire then ruled so); None where it may not turn
        or need not (none here)."""
        return None

    def why_not_move(self, game: Any, model: str) -> str:
        """Why `model` may take no move now, said as M is pressed, before a path is laid
        out ("": it may)."""
        return ""

    def why_not_shoot(self, game: Any, model: str, weapon: str, *, blind: bool = False) -> str:
        """Why `model` may not shoot `weapon` now (`blind`: fire it blind) whatever it
        aims at, said as S or B is pressed, before a shot is laid out ("": it may)."""
        return ""

    def at_risk(
        self, game: Any, shooter: str, target: str, weapon: str | None = None, *,
        blind: bool = False,
    ) -> tuple[str, ...]:  # fmt: skip
        """Models a miss may hit instead (stray shots, where the rules have them), nearest
        first; with `weapon`, none when that shot can make no stray (out of range, a
        target it may not shoot, a weapon whose miss does something else); `blind` as
        `odds_lines` has it."""
        return ()

    def gone(self, game: Any, model: str) -> bool:
        """Whether `model` is out of the fight for good: it declares nothing more, so the
        window does not keep it selected (default: a state the rules count as lost)."""
        status = next((m.status for m in game.state.models if m.id == model), None)
        return status in game.setup.ruleset.out_of_fight

    def rings_from(self, game: Any) -> dict[str, Rings]:
        """Each model whose range rings are not its chosen weapon's around its own base:
        model id -> the rings the rules count its range by (`Rings`); none where a
        model's shot is its own chosen weapon's."""
        return {}

    def keys_of(self, game: Any) -> dict[str, tuple[str, ...]]:
        """Each model that may take fewer declarations now than `keys_help` lists (one
        action only, say): model id -> its keys, which F1 and the panel's foot list
        while it is selected (none here: every model takes the rule system's keys)."""
        return {}

    def unarmed(self, game: Any) -> frozenset[str]:
        """The models that may fire no weapon now: no range rings are drawn about them
        (none here)."""
        return frozenset()

    def rings_at(self, game: Any, shooter: str, target: str) -> Rings | None:
        """The rings of `shooter`'s shot at `target` where they differ from its
        `rings_from` (the rules count the range by the models that see the target, say);
        None: as `rings_from`, or no shot."""
        return None

    def holding(self, game: Any) -> dict[str, str]:
        """Each objective a side holds now, as the rules would score it at the turn
        limit: objective id -> side (none where the rules score no objectives)."""
        return {}

    def states(self, game: Any) -> dict[str, str]:
        """Each model whose state the panel says in other words than its status, as the
        rules say it: model id -> words (none here: its status is its state)."""
        return {}

    def toggles(self, game: Any) -> tuple[tuple[str, str], ...]:
        """Options a person may switch on (by its key, a lower-case letter) for the next
        declaration now, with what each does in the rule system's words."""
        return ()

    # the key that nominates models for a group activation ("" where the rules have none)
    group_key: str = ""

    def group_candidates(self, game: Any, model: str) -> tuple[tuple[str, ...], int]:
        """The models `model` may take along in a group activation as it activates now,
        nearest first, and how many it may take; raises IllegalDeclaration with the
        reason when it may lead none now."""
        raise IllegalDeclaration("these rules have no group activations")

    def why_not_join(self, game: Any, leader: str, model: str) -> str:
        """Why `model` may not join `leader`'s group activation now ("" when it may)."""
        return "these rules have no group activations"

    def firing_unit(self, game: Any, model: str) -> str | None:
        """The unit `model` fires with where the rules fire unit at unit (None: the model
        fires alone)."""
        return None

    def extra_hits(
        self, game: Any, model: str, weapon: str, target: str, *, blind: bool = False
    ) -> tuple[int, tuple[str, ...]]:
        """How many hits after the first a shot at `target` may place on other models,
        and the models that may take them (0 and none where the rules have no such hits)."""
        return 0, ()

    def why_not_extra(
        self, game: Any, model: str, weapon: str, target: str, extra: str, *, blind: bool = False
    ) -> str:
        """Why a hit after the first may not go to `extra` ("" when it may)."""
        return "this shot places no extra hits"

    def extra_prompt(self, count: int, target: str, candidates: tuple[str, ...]) -> str:
        """The sentence asking for the extra hits' models, in the rule system's words."""
        return ""

    def effects(self, events: Sequence[object], where: dict[str, Point],
                frames: int) -> list[Effect]:  # fmt: skip
        """Animations of this system's own events (blasts, scatter, templates...);
        `where` is each model's position before the events."""
        return []

    def aimed(self, history: Sequence[object]) -> Aimed:
        """Where the shots of the game's last events were fired from and at, when the
        events' order does not say it (`dice_log.Aimed`); `history` is every event of
        the game so far. None here: each shot is where the events have the models."""
        return {}

    @property
    def keys_help(self) -> tuple[str, ...]:
        """The declaration keys this rule system takes, for the panel's help lines."""
        ...

    @property
    def hover_hint(self) -> str:
        """The panel's hint, in this system's words, while no enemy is pointed at."""
        return HOVER_HINT


HOVER_HINT = "point at an enemy for the odds"  # a system's adapter may say more

# The window's computer player: the registry's search player at WINDOW_THINK seconds a
# declaration (converted to a step budget, so its choices do not depend on the machine).
WINDOW_POLICY = "search"
THINKING_SHOWN = 0.2  # seconds: a player expected to take longer shows "thinking" first


def window_player(engine: Any, policy: str = WINDOW_POLICY) -> Any:
    """The automatic player the window gives the `ai` sides: the rule system's `policy`
    (the search player unless asked otherwise; the careful one where it has none)."""
    ruleset = engine.setup.ruleset
    cls = ruleset.player(policy) or ruleset.player("careful")
    if policy == "search" and ruleset.player("search") is not None:
        return cls(engine, think=WINDOW_THINK, seed=0)
    return cls(engine)


def side_player(engine: Any, name: str, temperament: str | None = None, **options: Any) -> Any:
    """The automatic player a scenario's [[side]] (`player = "careful"`; "ai" is the
    window's own choice) or `skirmish play --ai` names for the window, with the
    temperament and `options` it takes, thinking as long as the window's player does
    unless told otherwise."""
    from game.rules.registry import takes

    ruleset = engine.setup.ruleset
    cls = ruleset.player(WINDOW_POLICY if name == "ai" else name) or ruleset.player("careful")
    given = {"think": WINDOW_THINK, "seed": 0, "temperament": temperament} | options
    return cls(engine, **{k: v for k, v in given.items() if v is not None and takes(cls, k)})


def rules_for(game: Any) -> PlayRules | None:
    """The adapter for `game`'s rule system (its registry entry's "play" part), or None
    when the table cannot play it."""
    engine = getattr(game, "engine", None)
    ruleset = getattr(getattr(game, "setup", None), "ruleset", None)
    if engine is None or not isinstance(ruleset, Ruleset):
        return None
    make = ruleset.load("play")
    if make is None:
        return None
    rules: PlayRules = make(engine)
    return rules
