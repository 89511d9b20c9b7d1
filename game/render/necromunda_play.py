"""Necromunda on the interactive table: intents become `Act` and `EndActivation`
declarations; blasts and flame templates are previewed before the shot; the hover
shows the hit roll's modifiers and target number, cover, the exact odds of a hit,
Seriously Injured and Out of Action, and the fighters a miss may hit instead.

A Standing fighter may turn when activated (Necromunda), so a shot or a template as
its first action turns it to face the aim: the hover, the preview and the declaration
all see the fighter turned, as `skirmish shoot` does.

No pygame here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from game.ai.necromunda import attack_outcome, template_outcome
from game.errors import IllegalDeclaration
from game.geometry import Table
from game.geometry.measures import blast_hits, teardrop
from game.render import necromunda_play_log
from game.render.dice_log import Effect
from game.render.play_rules import (
    WINDOW_POLICY,
    AimKind,
    Intent,
    IntentKind,
    Laid,
    Marker,
    PlayRules,
    Preview,
    Prompt,
    activating_now,
    game_over,
    window_player,
)
from game.rules.necromunda.data import NecromundaWeapon
from game.rules.necromunda.dice import Traits
from game.rules.necromunda.odds import hit_chance
from game.sequencer.declarations import Declaration
from game.sequencer.game import Game
from game.sequencer.necromunda import FIRST_ACTION, NecromundaEngine
from game.sequencer.necromunda_fire import ARC, SAVE_BONUS, heading
from game.sequencer.necromunda_targeting import RAPID_FIRE_REACH
from game.sequencer.necromunda_types import (
    ACTIONS_PER_ACTIVATION,
    AIMED,
    BLAZE,
    BROKEN,
    FLESH_WOUNDS,
    OUT_OF_ACTION,
    PRONE,
    READY,
    UPRIGHT,
    Act,
    Action,
    ActionKind,
    EndActivation,
    NecromundaState,
    jammed_flag,
    out_of_ammo_flag,
)
from game.sequencer.sentences import listed, plural, who
from game.sequencer.sight import Cover
from game.sequencer.state import ModelState
from game.words import over

Point = tuple[float, float]

SCATTER_REACH = 6.0  # Necromunda: a missed blast scatters D6 inches (seed 004)
STATUS_SHOWN = {"standing": "normal"}
# a fighter's status as the rules write it (the Selected heading, the prompt)
STATUS_WORDS = {
    "standing": "Standing", "engaged": "Engaged", "pinned": "Pinned",
    "seriously-injured": "Seriously Injured", "out-of-action": "Out of Action",
}  # fmt: skip
COVER_WORDS = {Cover.NONE: "none", Cover.PARTIAL: "partial", Cover.TOTAL: "full"}


def _pct(p: float) -> str:
    if 0 < p < 0.005:
        return "<1%"
    return f"{p:.0%}"


# Necromunda: C with a path laid out takes cover along it, as far as half the fighter's
# Move, and leaves it Pinned (FACTS 2.8: Take Cover, ½ M then Pinned).
MOVE_KEYS = (
    "click: add a point to the path (the inches left are shown)",
    "Backspace: take the last point back · Enter: declare · Esc: cancel",
    "C: take cover along the path (half the Move at most; the fighter is then Pinned)",
)
MOVE_HINT = "click points, Backspace undoes one, Enter, C takes cover (half the Move)"
# a Prone fighter's move is a Crawl (FACTS 2.4: "Crawl (Double, 1/2 M)"); it takes no
# cover (C is refused: "... is pinned and cannot Take Cover"), so F1 offers no C
CRAWL_HINT = "click points, Backspace undoes one, Enter (a Double action)"
CRAWL_KEYS = (
    "click: add a point to the path (a Crawl: half the Move; the inches left are shown)",
    "Backspace: take the last point back · Enter: declare (a Crawl is a Double action) · "
    "Esc: cancel",
)

# the keys of a fighter that may take one action only (FACTS 2.4: a Seriously Injured
# fighter "may only Crawl (Double, 1/2 M)"; a Broken one may only Run for Cover): F1 and
# the panel's foot list these while it is selected, and it shows no range rings
# (a Leader or Champion among them still leads a group activation: G)
GROUP_KEYS = 'G group (Leader, Champion): the friend within 3" nearest the pointer, in or out'
CONFIRM_KEYS = "Enter confirm · Esc cancel · Ctrl+Z/Y undo/redo"
ONLY_KEYS = {
    ActionKind.CRAWL: (
        "M crawl (it may only Crawl: a Double action, half the Move) · E end activation",
        GROUP_KEYS,
        CONFIRM_KEYS,
    ),
    ActionKind.RUN_FOR_COVER: (
        "C run for cover (it is Broken: it may only Run for Cover) · E end activation",
        GROUP_KEYS,
        CONFIRM_KEYS,
    ),
}


class NecromundaRules(PlayRules):
    """The `PlayRules` adapter of Necromunda (game.sequencer.necromunda)."""

    name = "necromunda"
    keys_help = (
        "M move · S shoot · A aim · R reload · C take cover (Broken: run for cover)",
        "U stand up · B blind fire · K coup de grace · E end activation",
        GROUP_KEYS,
        CONFIRM_KEYS,
    )
    group_key = "g"
    hover_hint = "point at an enemy for the modifiers, target number and odds"

    def __init__(self, engine: NecromundaEngine, policy: str = WINDOW_POLICY) -> None:
        # Solo play: the computer looks ahead (the search player; see play_rules).
        self.engine = engine
        self.ai = window_player(engine, policy)
        self._table: tuple[object, Table] | None = None

    # -- helpers ---------------------------------------------------------------------

    @staticmethod
    def _state(game: Game) -> NecromundaState:
        state = game.state
        assert isinstance(state, NecromundaState)
        return state

    def table(self, state: NecromundaState) -> Table:
        """The table with the fighters where they stand (kept while none moves or falls:
        a fighter turning to aim does not change it)."""
        key = tuple((m.id, m.at, m.status) for m in state.models)
        if self._table is None or self._table[0] != key:
            self._table = (key, self.engine.table_at(state))
        return self._table[1]

    def _weapon(self, model: str, name: str) -> NecromundaWeapon:
        return self.engine.weapon(model, name)

    def may_turn(self, game: Game, model: str) -> bool:
        """A Standing fighter turns as it activates: before its first action only."""
        awaiting = game.awaiting()
        m = game.state.model(model)
        return awaiting.kind == "activate" and model in awaiting.models and m.status in UPRIGHT

    def _turned(
        self, game: Game, model: str, facing: float | None
    ) -> tuple[NecromundaState, float | None]:
        """The state with `model` facing `facing` when it may turn now (and the turn)."""
        state = self._state(game)
        m = state.model(model)
        if facing is None or not self.may_turn(game, model):
            return state, None
        facing = round(facing, 6)
        if abs(facing - m.facing) < 1e-9:
            return state, None
        return state.with_model(m.replace(facing=facing)), facing

    def turns_to(self, game: Game, model: str, target: str, *, blind: bool = False) -> float | None:
        """A Standing fighter turns to face its target as it activates, as the odds have
        it (`_turned`); not one firing blind (a Pinned fighter does not turn)."""
        if blind:
            return None
        facing = self._facing_to(game, model, game.state.model(target).at)
        return self._turned(game, model, facing)[1]

    def _facing_to(self, game: Game, model: str, aim: Point | None) -> float | None:
        m = game.state.model(model)
        if aim is None or math.dist(aim, m.at) < 1e-9:
            return None
        return heading(m.at, aim)

    # -- the PlayRules interface -------------------------------------------------------

    def prompt(self, game: Game) -> Prompt:
        awaiting = game.awaiting()
        state = self._state(game)
        side = awaiting.side
        if awaiting.kind == "over" or state.finished:
            return game_over(state.winner)
        if awaiting.kind == "activate":
            text = (
                f"{who(side)}: activate a Ready fighter ({len(awaiting.models)} ready): "
                "M move, S shoot, A aim, R reload, C cover, U stand up, B blind fire, "
                "K coup de grace, E pass; G first: a Leader or Champion's group"
            )
            if state.group:  # FACTS 2.8: the group activates before play passes on
                assert state.leading is not None
                pick = "pick one" if len(state.group) > 1 else "select it"
                text = (
                    f"{who(side)}: {listed(state.group)} still to activate in "
                    f"{who(state.leading)}'s group activation: {pick}"
                )
            coups = self._coups(state, awaiting.models)
            if coups:
                text += "; " + coups
            burning = [f for f in awaiting.models if BLAZE in state.model(f).flags]
            if burning:  # FACTS 2.9, Blaze: the fire takes a burning fighter's activation
                are = "is" if len(burning) == 1 else "are"
                text += f"; {listed(burning)} {are} on fire: E, and the flames take the activation"
            status = f"activating a fighter ({len(awaiting.models)} ready)"
            return Prompt(side, "activate", awaiting.models, text, status=status,
                          move_keys=MOVE_KEYS, move_hint=MOVE_HINT)  # fmt: skip
        model = awaiting.models[0]
        left = state.actions_left
        status = _status_said(state.model(model))
        doing = f"{who(model)} ({status}): {left} action{'s' if left != 1 else ''} left"
        text = f"{doing}; E ends the activation"
        coups = self._coups(state, (model,))
        if coups:
            text += "; " + coups
        return Prompt(side, "action", awaiting.models, text, status=doing, move_keys=MOVE_KEYS,
                      move_hint=MOVE_HINT)  # fmt: skip

    def _coups(self, state: NecromundaState, fighters: tuple[str, ...]) -> str:
        """The Coups de Grace `fighters` may take now, as the prompt offers them (K), or ""
        (FACTS 2.4: a Seriously Injured enemy within 1")."""
        offers = [
            f"{who(f)} on {listed(targets)}" for f in fighters
            if (targets := self.engine.coup_de_grace_targets(state, f))
        ]  # fmt: skip
        if not offers:
            return ""
        return f"K Coup de Grace: {listed(offers)}"

    def _coup_target(self, state: NecromundaState, model: str, intent: Intent) -> str:
        """Whom K finishes off: the enemy pointed at, else the Seriously Injured enemy
        within 1" the rules take nearest the pointer (refused with the reason when the
        fighter may take none)."""
        me = state.model(model)
        pointed = intent.targets[0][0] if intent.targets else None
        if pointed is not None and state.model(pointed).side != me.side:
            return pointed
        targets = self.engine.coup_de_grace_targets(state, model)
        if not targets:
            refused = self.engine.coup_de_grace_unable(me)
            if refused:
                raise IllegalDeclaration(refused)
            raise IllegalDeclaration(
                f'no Seriously Injured enemy is within 1" of {who(model)} for a Coup de Grace'
            )
        point = intent.point
        if point is None:
            return targets[0]
        return min(targets, key=lambda t: math.dist(state.model(t).at, point))

    def declaration(self, game: Game, intent: Intent) -> Declaration:
        awaiting = game.awaiting()
        state = self._state(game)
        if awaiting.kind == "over":
            raise IllegalDeclaration("the game is over")
        if intent.kind in (IntentKind.DODGE, IntentKind.IDLE):
            raise IllegalDeclaration(
                f"Necromunda has no {intent.kind.value}: E ends the activation"
            )
        if intent.kind is IntentKind.END:
            if awaiting.kind == "action":
                return EndActivation()
            if intent.model is None:
                raise IllegalDeclaration("select a Ready fighter to pass with")
            self._check_ready(state, awaiting.models, intent.model)
            # FACTS 2.8: a leader that does nothing may still lead its group (G then E)
            return EndActivation(intent.model, group=intent.group)
        if intent.model is None:
            raise IllegalDeclaration("select a fighter first")
        if awaiting.kind == "activate":
            self._check_ready(state, awaiting.models, intent.model)
        elif intent.model != state.activating:
            raise IllegalDeclaration(activating_now(state.activating))
        m = state.model(intent.model)
        turn: float | None = None
        kind = intent.kind
        if kind is IntentKind.MOVE:
            action = Action.crawl(*intent.path) if m.status in PRONE else Action.move(*intent.path)
        elif kind is IntentKind.TAKE_COVER:
            # a Broken fighter's only action is Running for Cover (FACTS 2.4): C takes it
            broken = BROKEN in m.flags
            action = Action.run_for_cover() if broken else Action.take_cover(*intent.path)
        elif kind is IntentKind.AIM:
            action = Action.aim()
        elif kind is IntentKind.STAND_UP:
            action = Action.stand_up()
        elif kind is IntentKind.RELOAD:
            action = Action.reload(self._to_reload(game, intent))
        elif kind is IntentKind.COUP_DE_GRACE:  # FACTS 2.4, 2.8: K
            action = Action.coup_de_grace(self._coup_target(state, m.id, intent))
        else:
            action, turn = self._shot(game, intent)
        group = intent.group if awaiting.kind == "activate" else ()
        return Act(m.id, action, turn_to=turn, group=group)

    def group_candidates(self, game: Game, model: str) -> tuple[tuple[str, ...], int]:
        """FACTS 2.8: "Leaders may group-activate 2 fighters within 3", Champions 1": the
        Ready friends `model` may nominate as it activates now, nearest first, and how
        many it may take."""
        awaiting = game.awaiting()
        if awaiting.kind == "action" and model in awaiting.models:
            raise IllegalDeclaration(f"{who(model)} has activated already: {FIRST_ACTION}")
        if awaiting.kind != "activate" or model not in awaiting.models:
            raise IllegalDeclaration(
                f"{who(model)} is not about to activate: a Leader or Champion nominates its "
                "group as it activates"
            )
        state = self._state(game)
        refused = self.engine.group_refused(state, model, ())
        if refused:
            raise IllegalDeclaration(refused)
        me = state.model(model)
        near = [
            f for f in state.side_models(me.side)
            if f.id != model and self.engine.may_join(state, model, f.id) is None
        ]  # fmt: skip
        near.sort(key=lambda f: (math.dist(f.at, me.at), f.id))
        return tuple(f.id for f in near), self.engine.group_size(model)

    def why_not_start(self, game: Game, model: str) -> str:
        """A fighter that may not activate now (not Ready, another side's, outside the
        group activation that goes on): the engine's refusal of its activation; while
        another is activating, who is."""
        awaiting = game.awaiting()
        if awaiting.kind == "action" and model not in awaiting.models:
            return activating_now(self._state(game).activating)
        if awaiting.kind != "activate":
            return ""
        return game.refusal(EndActivation(model))

    def why_not_join(self, game: Game, leader: str, model: str) -> str:
        return self.engine.may_join(self._state(game), leader, model) or ""

    def _check_ready(self, state: NecromundaState, ready: tuple[str, ...], model: str) -> None:
        if state.group:  # a group activation goes on: the engine says who may come next
            return
        if model not in ready:
            names = listed(ready, "none")
            raise IllegalDeclaration(
                f"{who(model)} is not a Ready fighter of the active side ({names})"
            )

    def _to_reload(self, game: Game, intent: Intent) -> str:
        """The chosen weapon; if it has ammo, the first weapon that is out of it."""
        assert intent.model is not None
        weapons = self.engine.weapons[intent.model]
        if not weapons:
            raise IllegalDeclaration(f"{who(intent.model)} has no weapons")
        flags = game.state.model(intent.model).flags
        empty = [w for w in weapons if f"out-of-ammo:{w}" in flags]
        if intent.weapon in empty or not empty:
            return intent.weapon or weapons[0]
        return empty[0]

    def _shot(self, game: Game, intent: Intent) -> tuple[Action, float | None]:
        assert intent.model is not None
        if intent.weapon is None:
            raise IllegalDeclaration("choose a weapon to shoot with")
        weapon = self._weapon(intent.model, intent.weapon)
        kind = self.aim_kind(game, intent.model, weapon.name)
        target = intent.targets[0][0] if intent.targets else None
        if kind is AimKind.TEMPLATE:
            if intent.direction is None:
                raise IllegalDeclaration(f"{weapon.name} is a template: point it and click")
            turn = None if intent.blind else self._turned(game, intent.model, intent.direction)[1]
            return Action.flame(weapon.name, round(intent.direction, 6), blind=intent.blind), turn
        if kind is AimKind.BLAST and intent.point is not None and target is None:
            aim: Point | None = intent.point
        else:
            if target is None:
                what = "an enemy or a point" if kind is AimKind.BLAST else "an enemy"
                raise IllegalDeclaration(f"click {what} to shoot at first")
            aim = game.state.model(target).at
        turn = None
        if not intent.blind:
            turn = self._turned(game, intent.model, self._facing_to(game, intent.model, aim))[1]
        point = intent.point if target is None else None
        action = Action.shoot(weapon.name, target, at=point, blind=intent.blind,
                              extra=intent.extra)  # fmt: skip
        return action, turn

    def why_not_move(self, game: Game, model: str) -> str:
        """A Broken fighter may only Run for Cover (FACTS 2.4: C), so M is refused at once;
        a Prone one's M is a Crawl, a Double action (FACTS 2.8): refused with one left."""
        state = self._state(game)
        m = state.model(model)
        action = Action.crawl() if m.status in PRONE else Action.move()
        first = game.awaiting().kind == "activate"
        return self.engine.action_refused(state, m, action, first=first) or ""

    def why_not_shoot(self, game: Game, model: str, weapon: str, *, blind: bool = False) -> str:
        """A fighter that may take no shot now (Seriously Injured, Broken: FACTS 2.4), or
        not this one: the weapon jammed or out of ammo, Blind Fire by one not Pinned, an
        Unwieldy weapon with one action left (FACTS 2.9), a Shoot taken already."""
        state = self._state(game)
        m = state.model(model)
        w = self._weapon(model, weapon)
        first = game.awaiting().kind == "activate"
        action = Action.shoot(w.name, blind=blind)
        refused = self.engine.action_refused(state, m, action, first=first)
        return refused or self.engine.shooter_refused(m, w, blind) or ""

    # -- Rapid Fire extra hits (FACTS 2.6) ----------------------------------------------

    def extra_hits(
        self, game: Game, model: str, weapon: str, target: str, *, blind: bool = False
    ) -> tuple[int, tuple[str, ...]]:
        """A Rapid Fire gun's hits after the first (as many as its Firepower dice can
        show, less one) and the enemies within 3" of `target` that may take them."""
        w = self._weapon(model, weapon)
        if w.rapid_fire <= 0 or w.blast_diameter is not None or w.is_template:
            return 0, ()
        most = max(face.holes for face in self.engine.dice.firepower)
        state = self._state(game)
        if OUT_OF_ACTION in (state.model(model).status, state.model(target).status):
            return 0, ()  # off the table: no shot, no hits to place
        side = state.model(model).side
        near = [
            m.id for m in state.models
            if m.side != side and m.id != target and m.status != OUT_OF_ACTION
            and self.engine.distance(state, target, m.id) <= RAPID_FIRE_REACH + 1e-9
        ]  # fmt: skip
        fit = tuple(
            m for m in near if not self.why_not_extra(game, model, weapon, target, m, blind=blind)
        )
        return w.rapid_fire * most - 1, fit

    def why_not_extra(
        self, game: Game, model: str, weapon: str, target: str, extra: str, *, blind: bool = False
    ) -> str:
        w = self._weapon(model, weapon)
        state = self._state(game)
        if not blind:
            facing = self._facing_to(game, model, state.model(target).at)
            state, _ = self._turned(game, model, facing)
        action = Action.shoot(w.name, target, blind=blind, extra=(extra,))
        return self._refused(state, model, action)

    def extra_prompt(self, count: int, target: str, candidates: tuple[str, ...]) -> str:
        if not candidates:
            return f'Rapid Fire: no other enemy within 3" of {who(target)} may take extra hits'
        return (
            f"Rapid Fire: the first hit goes to {who(target)}; the hits after it (up to "
            f'{count}) may go to {listed(candidates)}, within 3": click to place them, '
            "Enter shoots"
        )

    def allowance(self, game: Game, model: str) -> float | None:
        m = game.state.model(model)
        move = float(self.engine.profiles[model].m)
        if m.status == OUT_OF_ACTION:
            return None
        if m.status in PRONE:
            return move / 2  # Necromunda: a Prone fighter Crawls half its Move
        return move

    def move_words(self, game: Game, model: str) -> tuple[str, str]:
        """A Prone fighter (Pinned, Seriously Injured) Crawls, and C takes no cover then."""
        if game.state.model(model).status in PRONE:
            return "crawls", CRAWL_HINT
        return "moves", ""

    def move_keys(self, game: Game, model: str) -> tuple[str, ...]:
        return CRAWL_KEYS if game.state.model(model).status in PRONE else ()

    def keys_of(self, game: Game) -> dict[str, tuple[str, ...]]:
        """A fighter that may take one action only: its key, E and the confirming keys;
        one carrying a weapon jammed, out of ammo or Unwieldy: the keys with what that
        does to its Shoot now, under the first line (FACTS 2.6, 2.9)."""
        state = self._state(game)
        left = ACTIONS_PER_ACTIVATION if game.awaiting().kind == "activate" else state.actions_left
        out: dict[str, tuple[str, ...]] = {}
        for m in state.models:
            only = self.engine.only_action(m)
            said = () if m.status == OUT_OF_ACTION else self._weapons_said(m, left)
            if only is not None:
                out[m.id] = ONLY_KEYS[only[0]]
            elif said:
                out[m.id] = (self.keys_help[0], *said, *self.keys_help[1:])
        return out

    def _weapons_said(self, m: ModelState, left: int) -> tuple[str, ...]:
        """What each of `m`'s weapons that is jammed or out of ammo (FACTS 2.6), or is
        Unwieldy (FACTS 2.9: Shoot becomes a Double action), does to its Shoot now, `left`
        actions left, in the engine's words of "its" weapon."""
        out: list[str] = []
        for name in self.engine.weapons[m.id]:
            w = self._weapon(m.id, name)
            if {jammed_flag(name), out_of_ammo_flag(name)} & m.flags:
                why = self.engine.shooter_refused(m, w, False) or ""
                out.append("its " + why.removeprefix(f"{m.id}'s "))
            elif w.trait("Unwieldy") is not None:
                dear = self.engine.cost_refused(m, Action.shoot(name), left)
                tail = f", and it has {plural(left, 'action')} left" if dear else ""
                out.append(f"its {name} is Unwieldy: Shoot takes both actions{tail}")
        return tuple(out)

    def unarmed(self, game: Game) -> frozenset[str]:
        """The fighters that may take one action only, none of it a shot (FACTS 2.4:
        Seriously Injured, "cannot attack"; Broken), and those Out of Action."""
        return frozenset(
            m.id for m in game.state.models
            if m.status == OUT_OF_ACTION or self.engine.only_action(m) is not None
        )  # fmt: skip

    def path_start(self, game: Game, model: str) -> Point:
        return game.state.model(model).at

    def burst(self, game: Game, model: str, weapon: str) -> int:
        return 1

    def aim_kind(self, game: Game, model: str, weapon: str) -> AimKind:
        w = self._weapon(model, weapon)
        if w.is_template:
            return AimKind.TEMPLATE
        if w.blast_diameter is not None:
            return AimKind.BLAST
        return AimKind.DIRECT

    def preview(
        self,
        game: Game,
        model: str,
        weapon: str,
        *,
        target: str | None = None,
        point: Point | None = None,
        direction: float | None = None,
        blind: bool = False,
    ) -> Preview | None:
        w = self._weapon(model, weapon)
        kind = self.aim_kind(game, model, weapon)
        if kind is AimKind.DIRECT or game.state.model(model).status == OUT_OF_ACTION:
            return None  # a fighter Out of Action is off the table: it aims nothing
        engine = self.engine
        if kind is AimKind.TEMPLATE:
            if direction is None:
                return None
            state, _ = (self._state(game), None) if blind else self._turned(game, model, direction)
            action = Action.flame(w.name, direction, blind=blind)
            me = state.model(model)
            r = engine.profiles[model].radius
            ang = math.radians(direction)
            origin = (me.at[0] + r * math.cos(ang), me.at[1] + r * math.sin(ang))
            shape = teardrop(origin, direction, engine.flame.length, engine.flame.width)
            # who is under it, the arc aside: a template leaving it is `refused` below
            hit = engine.template_under(state, model, w, direction, 360.0)
            outline = tuple((float(x), float(y)) for x, y in shape.exterior.coords)
            return Preview(
                AimKind.TEMPLATE, origin, outline=outline, direction=direction, under=hit,
                refused=self._refused(state, model, action),
                odds=self._template_odds(state, model, w, hit),
            )  # fmt: skip
        aim = game.state.model(target).at if target is not None else point
        if aim is None:
            return None
        state = self._state(game)
        if not blind:
            state, _ = self._turned(game, model, self._facing_to(game, model, aim))
        diameter = w.blast_diameter
        assert diameter is not None
        centre, _ = engine.blast_centre(state, model, w, aim)
        covered = tuple(str(b) for b in blast_hits(self.table(state), centre, diameter / 2))
        at = None if target is not None else point
        action = Action.shoot(w.name, target, at=at, blind=blind)
        refused = self._refused(state, model, action)
        odds = () if refused else self._blast_odds(state, model, w, target, centre, covered, blind)
        return Preview(
            AimKind.BLAST, centre, radius=diameter / 2, scatter=SCATTER_REACH,
            under=covered, refused=refused, target=target, odds=odds,
        )  # fmt: skip

    def _template_odds(
        self, state: NecromundaState, model: str, w: NecromundaWeapon, under: tuple[str, ...]
    ) -> tuple[str, ...]:
        """A template hits everyone under it (no hit roll): each one's exact odds, Flak 5+
        against it and its cover from the firer adding to its save (FACTS 2.5), as
        `skirmish shoot --trials` gives them."""
        if not under:
            return (f"{w.name} (a template: no hit roll): nobody under it",)
        lines = [f"{w.name} (a template: no hit roll), each fighter under it hit:"]
        for fighter in under:
            said = _said(template_outcome(self.engine, state, model, w, state.model(fighter)))
            lines.append(f"{fighter}: {said}")
        if w.trait("Blaze") is not None:
            lines.append("catching fire (Blaze) is not in the odds")
        return tuple(lines)

    def _blast_odds(
        self, state: NecromundaState, model: str, w: NecromundaWeapon, target: str | None,
        centre: Point, under: tuple[str, ...], blind: bool,
    ) -> tuple[str, ...]:  # fmt: skip
        """The hit roll of a blast where it is aimed (FACTS 2.7: at a point -2) and, on a
        hit, the exact odds of each fighter under the marker, its save with the cover
        from the centre (seed 004); a miss scatters, and where it lands is not in them."""
        engine = self.engine
        # pulled back to long range off the fighter aimed at, a shot at a point (seed 004)
        aimed = target if target in under else None
        plan = engine.hit_plan(state, model, w, target=aimed, at=centre, blind=blind)
        bs = engine.profiles[model].bs
        chance = 0.0 if plan.out_of_range else _hit(bs, bs - plan.need)
        mods = "".join(f", {m.source} {m.value:+d}" for m in plan.modifiers)
        improbable = f" (improbable: a 6, then {max(bs, 2)}+)" if plan.need > 6 else ""
        # the hit roll in one line, then the fighters under it, what is left out last:
        # the panel at 800x600 has room for few
        lines = [f"BS {bs}+{mods} -> {plan.need}+ to hit{improbable}: {_pct(chance)}"]
        for fighter in under:
            victim = state.model(fighter)
            bonus = SAVE_BONUS.get(engine.cover_from_point(state, centre, fighter), 0)
            lines.append(f"{fighter}: {_said(attack_outcome(engine, w, victim, chance, bonus))}")
        if not under:
            lines.append("nobody under it where it is aimed")
        lines.append('a miss scatters up to 6": where it lands is not in the odds')
        if w.rapid_fire > 0:
            lines.append("the extra blasts of its Firepower dice are not in the odds")
        return tuple(lines)

    def _refused(self, state: NecromundaState, model: str, action: Action) -> str:
        try:
            self.engine.check_shot(state, model, action)
        except IllegalDeclaration as why:
            return str(why)
        return ""

    def _laid_toward(
        self, game: Game, shooter: str, w: NecromundaWeapon, target: str, blind: bool
    ) -> tuple[NecromundaState, str, bool]:
        """The state with `shooter` turned to lay its template toward `target` (where it
        may turn; not when firing `blind`), why the engine's template then misses
        `target` ("": it is hit), and whether the engine refuses it outright (the
        template leaving the arc), said as the engine says it."""
        aim = game.state.model(target).at
        direction = self._facing_to(game, shooter, aim)
        turned, _ = self._turned(game, shooter, None if blind else direction)
        if direction is None:
            direction = turned.model(shooter).facing
        arc = 360.0 if blind else ARC
        try:
            laid = (w, direction, arc)
            return turned, self.engine.why_not_under(turned, shooter, target, laid), False
        except IllegalDeclaration as why:
            return turned, str(why), True

    def laid(
        self, game: Game, model: str, weapon: str, target: str, *, blind: bool = False
    ) -> Laid | None:
        """A Flame template laid toward `target`: hit if under it with no wall or solid
        terrain in the way, whatever its line of sight or cover (FACTS 2.7: it ignores
        LoS, so "hidden", FACTS 2.3, does not stop it); None for a weapon aimed that may
        fire. A weapon jammed or out of ammo, aimed or laid, fires at nobody: the engine's
        refusal of S (`shooter_refused`, FACTS 2.6) stands in the ruling's place."""
        w = self._weapon(model, weapon)
        if self.engine.why_not_aimed_at(game.state, model, target):
            return None  # no shot at all (out of action): the ruling says it
        refused = self.engine.shooter_refused(game.state.model(model), w, blind)
        if refused:
            return Laid(False, f"no shot: {refused}")
        if not w.is_template:
            return None  # aimed: the line-of-fire ruling stands
        _, why, outright = self._laid_toward(game, model, w, target, blind)
        if outright:  # no shot at all, as the engine refuses it (S too)
            return Laid(False, f"no shot: {why}")
        if why:
            return Laid(False, f"{w.name} template: {why}")
        return Laid(True, f"{w.name} template: {target} under it, hit (it ignores line of sight)")

    def at_risk(
        self, game: Game, shooter: str, target: str, weapon: str | None = None, *,
        blind: bool = False,
    ) -> tuple[str, ...]:  # fmt: skip
        """Seed 004: a missed shot may hit a fighter near the line instead. Only a shot
        that is rolled for strays: not a blast (it scatters) or a template (no hit
        roll), not a target out of range (FACTS 2.3: it simply misses) or one the
        fighter may not shoot (fired `blind`, in any direction, the fighter unturned)."""
        state = self._state(game)
        try:
            if weapon is not None:
                w = self._weapon(shooter, weapon)
                if not blind:
                    facing = self._facing_to(game, shooter, state.model(target).at)
                    state, _ = self._turned(game, shooter, facing)
                return tuple(self.engine.stray_risk(state, shooter, w, target, blind=blind))
            return tuple(self.engine.at_risk(state, shooter, target))
        except (IllegalDeclaration, KeyError):
            return ()

    def odds_lines(
        self, game: Game, shooter: str, target: str, weapon: str, at: Point | None = None,
        *, blind: bool = False,
    ) -> list[str]:  # fmt: skip
        """The hit roll's modifiers (Blind Fire's with them when `blind`: FACTS 2.8), its
        target number, cover and the exact odds, the fighter turned to face the target
        as it activates (not when firing blind: a Pinned fighter does not turn)."""
        engine = self.engine
        w = self._weapon(shooter, weapon)
        kind = self.aim_kind(game, shooter, weapon)
        victim = game.state.model(target)
        facing = None if blind else self._facing_to(game, shooter, victim.at)
        # off the table: nothing to aim at or lay over, and nobody to shoot
        gone = [m for m in (shooter, target) if game.state.model(m).status == OUT_OF_ACTION]
        if gone:
            return [f"{w.name} at {target}", f"no shot: {gone[0]} is out of action"]
        # the weapon jammed or out of ammo: the engine's refusal of S, whatever the target
        refused = engine.shooter_refused(game.state.model(shooter), w, blind)
        if refused:
            return [f"{w.name} at {target}", f"no shot: {refused}"]
        if kind is AimKind.TEMPLATE:
            # the firer turns to lay it toward the target; the target's cover from the
            # firer adds to its save; under it or not as the engine lays it (FACTS 2.7)
            turned, why, refused_laid = self._laid_toward(game, shooter, w, target, blind)
            if refused_laid:
                return [f"{w.name} at {target}", f"no shot: {why}"]
            if why:
                return [f"{w.name} (a template: no hit roll): {why}: no hit"]
            odds = _said(template_outcome(engine, turned, shooter, w, turned.model(target)))
            return [
                f"{w.name} (a template: no hit roll), {target} under it: {odds}",
                *_not_in_the_odds(w, engine.traits),
            ]
        state, turn = self._turned(game, shooter, facing)
        why = engine.why_not_target(state, shooter, target, 360.0 if blind else ARC)
        if why:  # only why: a hit roll's modifiers and target number read as a shot
            return [f"{w.name} at {target}", f"no shot: {why}"]
        plan = engine.hit_plan(state, shooter, w, target=target, blind=blind)
        bs = engine.profiles[shooter].bs
        mods = ", ".join(f"{m.source} {m.value:+d}" for m in plan.modifiers) or "none"
        total = sum(m.value for m in plan.modifiers)
        lines = [f"{w.name} at {target}"]
        if turn is not None:
            lines.append(f"{shooter} turns to face {target} as it activates")
        lines.append(f"modifiers: {mods}")
        if plan.need > 6:
            lines.append(
                f"BS {bs}+ {total:+d} -> {plan.need}+: improbable: a 6, then {max(bs, 2)}+"
            )
        else:
            lines.append(f"BS {bs}+ {total:+d} -> {plan.need}+ to hit")
        seen = engine.sighting(state, shooter, target)
        lines.append(f"cover: {COVER_WORDS.get(seen.cover, str(seen.cover))}")
        if plan.out_of_range:
            reach = engine.long_range(shooter, w)
            lines.append(f'out of range: {over(plan.distance, reach)} > {reach:g}" (a miss)')
        chance = 0.0 if plan.out_of_range else float(_hit(bs, bs - plan.need))
        bonus = 0
        if kind is AimKind.BLAST:
            centre, _ = engine.blast_centre(state, shooter, w, victim.at)
            bonus = SAVE_BONUS.get(engine.cover_from_point(state, centre, target), 0)
        lines.append(f"{target}: {self.hit_odds(w, target, chance, bonus, game)}")
        # who a stray shot may hit is the panel's own line ("at risk of a stray shot"),
        # from `at_risk`, beside the rings it draws: not said twice here
        if kind is AimKind.BLAST:
            lines.append('a miss scatters up to 6" (not in the odds)')
        return lines + _not_in_the_odds(w, engine.traits)

    def hit_odds(self, w: NecromundaWeapon, target: str, chance: float, bonus: int,
                 game: Game) -> str:  # fmt: skip
        """ "hit p · seriously injured p · out of action p", exact (game.ai.necromunda's
        `attack_outcome`, from game.rules.necromunda.odds). `chance`: the hit roll's."""
        return _said(attack_outcome(self.engine, w, game.state.model(target), chance, bonus))

    def gone(self, game: Game, model: str) -> bool:
        """Necromunda: out of action; a seriously injured fighter still crawls."""
        return bool(game.state.model(model).status == OUT_OF_ACTION)

    def markers(self, game: Game) -> dict[str, Marker]:
        out: dict[str, Marker] = {}
        group = self._state(game).group
        for m in game.state.models:
            tags: list[str] = []
            flesh = m.marker(FLESH_WOUNDS)
            if flesh:
                tags.append(plural(flesh, "flesh wound"))
            if AIMED in m.flags:
                tags.append("aimed")
            for flag in sorted(m.flags):
                if flag.startswith("out-of-ammo:"):
                    # one clause, so that "Orlock heavy: Heavy stubber out of ammo",
                    # the marker saying whose it is, reads as one sentence
                    tags.append(f"{flag.split(':', 1)[1]} out of ammo")
                elif flag.startswith("jammed:"):
                    tags.append(f"{flag.split(':', 1)[1]} jammed")
            if BLAZE in m.flags and m.status != OUT_OF_ACTION:  # FACTS 2.9: till put out
                tags.append("on fire")
            if BROKEN in m.flags and m.status != OUT_OF_ACTION:
                tags.append("Broken")  # FACTS 2.4: it may only Run for Cover
            if m.status != OUT_OF_ACTION and READY not in m.flags and not game.state.finished:
                tags.append("done")  # at the game's end every fighter is: said of none
            if m.id in group:  # FACTS 2.8: to activate next, in a group activation
                tags.append("group: to act")
            status = STATUS_SHOWN.get(m.status, m.status)
            out[m.id] = Marker(status, m.wounds, self.engine.profiles[m.id].w, tuple(tags))
        return out

    def states(self, game: Game) -> dict[str, str]:
        """Each fighter's status as the rules write it, and Broken (FACTS 2.4) beside
        it: "Seriously Injured", "Standing, Broken"."""
        return {m.id: _status_said(m) for m in self._state(game).models}

    def effects(self, events: Sequence[object], where: dict[str, Point],
                frames: int) -> list[Effect]:  # fmt: skip
        return necromunda_play_log.effects(events, where, frames)

    def choose(self, game: Game) -> Any:
        return self.ai.choose(game.state, game.awaiting())


def _status_said(m: ModelState) -> str:
    """`m`'s status in the rules' words, with Broken beside it where it is."""
    said = STATUS_WORDS.get(m.status, m.status)
    return f"{said}, Broken" if BROKEN in m.flags and m.status != OUT_OF_ACTION else said


def _not_in_the_odds(w: NecromundaWeapon, traits: Traits) -> list[str]:
    """FACTS 2.9's traits played after the hit that the exact odds leave out: Knockback's
    +1 Damage for a push stopped short (where it is stopped is known only as it goes),
    and the fire Blaze may start (it burns at the fighter's next activation); their
    figures as the engine plays them (assets/necromunda/traits.toml)."""
    out = []
    if w.trait("Knockback") is not None:
        more = traits.knockback.blocked_damage
        out.append(f"Knockback: a push stopped short adds {more} Damage (not in the odds)")
    if w.trait("Blaze") is not None:
        need = traits.blaze.catches_fire_on
        out.append(f"Blaze: a fighter hit catches fire on a {need}+ (not in the odds)")
    return out


def _said(outcome: tuple[float, float, float]) -> str:
    hit, si, ooa = outcome
    return f"hit {_pct(hit)} · seriously injured {_pct(si)} · out of action {_pct(ooa)}"


def _hit(bs: int, modifier: int) -> float:
    return float(hit_chance(bs, modifier))
