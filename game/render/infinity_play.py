"""Infinity on the interactive table: intents become Orders, second skills and AROs;
the hover shows every MOD, the SV and the exact odds of the shot.

No pygame here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.errors import IllegalDeclaration
from game.render.dice_log import Aimed
from game.render.play_rules import (
    WINDOW_POLICY,
    Intent,
    IntentKind,
    Marker,
    PlayRules,
    Prompt,
    ShotPlace,
    game_over,
    window_player,
)
from game.rules.infinity.data import InfinityWeapon
from game.sequencer.declarations import Declaration
from game.sequencer.events import Declared, Moved
from game.sequencer.game import Game
from game.sequencer.infinity import (
    ARO_BURST,
    MAX_BURST,
    Activate,
    Continue,
    EndTurn,
    InfinityEngine,
    InfinityState,
    React,
    Skill,
    SkillKind,
)
from game.sequencer.infinity_odds import AttackRoll, attack_roll, exact_odds, reply_weapon
from game.sequencer.infinity_sentences import orders_said, where_on_route
from game.sequencer.sentences import listed, who
from game.sequencer.sight import Cover

Point = tuple[float, float]


def _pct(p: float) -> str:
    if 0 < p < 0.005:
        return "<1%"
    return f"{p:.0%}"


def odds_text(odds: dict[str, float]) -> str:
    return (
        f"hit {_pct(odds['hit'])} · wound {_pct(odds['wounded'])} · "
        f"unconscious {_pct(odds['unconscious'])} · dead {_pct(odds['dead'])}"
    )


def roll_text(roll: AttackRoll) -> list[str]:
    """The MODs one by one, then the attribute, total MOD and SV."""
    mods = ", ".join(f"{m.source} {m.value:+d}" for m in roll.modifiers) or "none"
    total = sum(m.value for m in roll.modifiers)
    lines = [f"MODs: {mods}"]
    if roll.auto_fail:
        lines.append(f"{roll.attribute} {roll.base}: {roll.auto_fail}, SV 0")
    else:
        lines.append(f"{roll.attribute} {roll.base} {total:+d} -> SV {roll.sv}, Burst {roll.burst}")
    return lines


# An Order's skills, as a refusal lists them (an ARO's: its prompt's `answers`)
ORDER_KEYS = ("M move", "S shoot", "D dodge", "I idle")
NOT_INFINITY = frozenset(
    {IntentKind.AIM, IntentKind.RELOAD, IntentKind.TAKE_COVER, IntentKind.STAND_UP,
     IntentKind.COUP_DE_GRACE}
)  # fmt: skip


# an Order's second skill, by key (the rules say which may follow its first)
SECOND_SKILLS = (
    ("M move", SkillKind.MOVE),
    ("S shoot", SkillKind.ATTACK),
    ("D dodge", SkillKind.DODGE),
    ("I idle", SkillKind.IDLE),
)

GUTS_KEY = "g"
GUTS_TOGGLE = "fail a Guts Roll on purpose this Order"
GUTS_ON = "Guts Roll: failing on purpose (G to cancel)"
GUTS_HELP = "G with the next skill: fail a Guts Roll on purpose this Order"
CONFIRM_KEYS = "Enter confirm · Esc cancel · Ctrl+Z/Y undo/redo"


def orders_left(regular: int, irregular: Sequence[str], chief: bool) -> str:
    """The Orders line: those a trooper able to act can still spend, each irregular
    trooper's own and the Lieutenant Order said apart as the log's turn says them
    (`orders_said`; FACTS 3.4: they are the trooper's alone, spent first when it acts)."""
    return f"{orders_said(regular, irregular, chief)} left"


def step_keys(skills: Sequence[str]) -> tuple[str, ...]:
    """F1's keys of a step inside an Order (its second skill, an ARO): the skills it takes,
    G and Enter; no E, which ends the turn only between Orders."""
    return (" · ".join(skills), GUTS_HELP, CONFIRM_KEYS)


class InfinityRules(PlayRules):
    """The `PlayRules` adapter of Infinity (game.sequencer.infinity)."""

    name = "infinity"

    keys_help = (
        "M move · S shoot · D dodge · I idle · E end turn",
        GUTS_HELP,
        CONFIRM_KEYS,
    )

    hover_hint = "point at an enemy for MODs, SV and odds"

    def __init__(self, engine: InfinityEngine, policy: str = WINDOW_POLICY) -> None:
        self.engine = engine
        self.ai = window_player(engine, policy)

    def aimed(self, history: Sequence[object]) -> Aimed:
        """Infinity resolves an Order's skills once its move is over (its Moved event
        comes first), each shot where it was declared: the active trooper's from the
        point it names (`origin`), else from the route's start when the attack was the
        first skill and from its end when the second; an ARO's at the active trooper
        where it was on the route (`at`). The last Order in `history`."""
        begun = next((i for i in range(len(history) - 1, -1, -1) if _declared(history[i],
                      "Activate")), None)  # fmt: skip
        if begun is None:
            return {}
        order = history[begun:]
        active = str(_declaration(history[begun]).get("model"))
        route = next((e.path for e in order if isinstance(e, Moved) and e.model == active), ())
        out: dict[tuple[str, str], tuple[Point | None, Point | None]] = {}
        for e in order:
            d = _declaration(e)
            skill = d.get("skill") or {}
            if skill.get("kind") != SkillKind.ATTACK:
                continue
            if d.get("declare") in ("Activate", "Continue"):
                origin = skill.get("origin")
                if origin is None and route:
                    origin = route[0] if d.get("declare") == "Activate" else route[-1]
                for target, _ in skill.get("targets") or ():
                    out[(active, str(target))] = (_point(origin), None)
            elif d.get("declare") == "React" and d.get("at") is not None:
                out[(str(d.get("model")), active)] = (None, _point(d["at"]))
        return out

    @staticmethod
    def _state(game: Game) -> InfinityState:
        state = game.state
        assert isinstance(state, InfinityState)
        return state

    def prompt(self, game: Game) -> Prompt:
        awaiting = game.awaiting()
        state = self._state(game)
        order = state.order
        side = awaiting.side
        if awaiting.kind == "over" or state.finished:
            return game_over(state.winner)
        if awaiting.kind == "order":
            status = orders_left(*self.engine.orders_apart(state))
            text = f"{who(side)}: {status}; select a trooper: M/S/D/I, E ends the turn"
            return Prompt(side, "order", awaiting.models, text, status=status)
        assert order is not None
        if awaiting.kind == "second":
            status = f"{who(order.model)}'s second skill"
            # the skills the rules let follow the first (after an attack: no dodge)
            offered = [key for key, kind in SECOND_SKILLS
                       if not self.engine.second_refused(state, kind)]  # fmt: skip
            text = f"{who(order.model)}: second skill: {', '.join(offered)}"
            return Prompt(side, "second", awaiting.models, text, order.model, order.route,
                          status=status, keys=step_keys(offered))  # fmt: skip
        status = f"ARO to {who(order.model)} from {listed(awaiting.models)}"
        text = f"{who(side)}: {status}: pick one, then S/D/I"
        aros = (f"S shoot at {who(order.model)}", "D dodge", "I no ARO")
        choices = (*aros, "G first: fail a Guts Roll on purpose")
        enter = f"S shoot at {who(order.model)} first, or D dodge, I no ARO"
        return Prompt(side, awaiting.kind, awaiting.models, text, order.model, order.route,
                      choices, status, ((GUTS_KEY, GUTS_ON),), enter,
                      keys=step_keys(aros))  # fmt: skip

    def toggles(self, game: Game) -> tuple[tuple[str, str], ...]:
        """G: the trooper declaring its skill fails any Guts Roll of this Order on
        purpose (FACTS 3.3: "The player may choose to fail")."""
        if game.awaiting().kind in ("order", "second", "aro"):
            return ((GUTS_KEY, GUTS_TOGGLE),)
        return ()

    def _skill(self, intent: Intent, mover: str | None = None) -> Skill:
        skill = self._plain_skill(intent, mover)
        return skill.failing_guts() if GUTS_KEY in intent.toggled else skill

    def _plain_skill(self, intent: Intent, mover: str | None = None) -> Skill:
        if intent.kind is IntentKind.MOVE:
            return Skill.move(*intent.path)
        if intent.kind is IntentKind.SHOOT:
            if intent.weapon is None:
                raise IllegalDeclaration("choose a weapon to shoot with")
            if mover is not None:  # Infinity: an ARO targets the active trooper, Burst 1
                return Skill.attack(intent.weapon, (mover, ARO_BURST))
            return Skill.attack(intent.weapon, *intent.targets)
        if intent.kind is IntentKind.DODGE:
            return Skill.dodge()
        return Skill.idle()

    def declaration(self, game: Game, intent: Intent) -> Declaration:
        awaiting = game.awaiting()
        state = self._state(game)
        if awaiting.kind == "over":
            raise IllegalDeclaration("the game is over")
        if intent.kind in NOT_INFINITY:  # an ARO's keys as its banner words them
            keys = self.prompt(game).answers if awaiting.kind == "aro" else ORDER_KEYS
            raise IllegalDeclaration(f"Infinity has no {intent.kind.said} here: {', '.join(keys)}")
        if intent.blind or intent.point is not None or intent.direction is not None:
            raise IllegalDeclaration("Infinity shoots at troopers here: S and click an enemy")
        if intent.kind is IntentKind.END:
            if awaiting.kind != "order":
                raise IllegalDeclaration("finish the Order in progress before ending the turn")
            return EndTurn()
        if awaiting.kind == "order":
            if intent.model is None:
                raise IllegalDeclaration("select a trooper to give the Order to")
            return Activate(intent.model, self._skill(intent))
        if awaiting.kind == "second":
            return Continue(self._skill(intent))
        order = state.order
        assert order is not None
        if intent.model not in awaiting.models:
            raise IllegalDeclaration(
                f"pick a trooper that may react to {who(order.model)}: {listed(awaiting.models)}"
            )
        if intent.kind is IntentKind.MOVE:
            raise IllegalDeclaration("Move is not an ARO here; declare Dodge, a BS Attack or Idle")
        return React(intent.model, self._skill(intent, order.model), at=intent.at)

    def allowance(self, game: Game, model: str) -> float | None:
        awaiting = game.awaiting()
        mov = self.engine.profiles[model].mov
        if awaiting.kind == "order":
            return float(mov[0])
        order = self._state(game).order
        if awaiting.kind == "second" and order is not None:
            # Infinity: the second Move of an Order uses the second MOV value.
            return float(mov[1] if order.first.kind is SkillKind.MOVE else mov[0])
        return None

    def path_start(self, game: Game, model: str) -> Point:
        order = self._state(game).order
        if order is not None and order.model == model:
            return order.route[-1]
        return game.state.model(model).at

    def _weapon(self, name: str) -> InfinityWeapon:
        weapon = self.engine.setup.weapons[name]
        assert isinstance(weapon, InfinityWeapon)
        return weapon

    def burst(self, game: Game, model: str, weapon: str) -> int:
        awaiting = game.awaiting()
        if awaiting.kind == "aro":
            return ARO_BURST
        return min(self._weapon(weapon).burst, MAX_BURST)

    def shot_place(self, game: Game, at: Point | None = None) -> ShotPlace | None:
        """Infinity: the skills of an Order are simultaneous and the active trooper is
        placed at the end of its declared route (FACTS 3.4, step 1.2): a BS Attack after
        a move is taken from there, an ARO at the point of the route it names (`at`, the
        end by default)."""
        awaiting = game.awaiting()
        order = self._state(game).order
        if order is None or len(order.route) < 2 or awaiting.kind not in ("second", "aro"):
            return None
        point = at if at is not None and awaiting.kind == "aro" else order.route[-1]
        return ShotPlace(order.model, point, order.facing, where_on_route(point, order.route[1:]))

    def odds_lines(
        self, game: Game, shooter: str, target: str, weapon: str, at: Point | None = None,
        *, blind: bool = False,
    ) -> list[str]:  # fmt: skip
        w = self._weapon(weapon)
        if not w.bands:
            return [f"{w.name}: a template weapon (no roll to hit)"]
        state = self._state(game)
        awaiting = game.awaiting()
        reactive = awaiting.kind == "aro" and shooter in awaiting.models
        place = self.shot_place(game, at)
        if place is not None and place.model in (shooter, target):
            # the mover where the rules take the shot: range, cover, odds and replies
            moved = state.model(place.model).replace(at=place.at, facing=place.facing)
            state = state.with_model(moved)
        roll = attack_roll(self.engine, state, shooter, target, w, reactive=reactive)
        lines = [f"{w.name} at {target}", *roll_text(roll)]
        seen = self.engine.sighting(state, shooter, target)
        if not seen.in_arc:
            return [*lines, f"no BS Attack: {target} is outside {shooter}'s arc"]
        if not seen.lof or seen.cover is Cover.TOTAL:
            return [*lines, f"no BS Attack: no line of fire to {target}"]
        alone = exact_odds(self.engine, state, shooter, target, w, roll.sv, burst=roll.burst)
        lines.append(f"{target} idle: {odds_text(alone[target])}")
        reply = None if reactive else reply_weapon(self.engine, state, target, shooter)
        if reply is None:
            lines.append(f"{target} cannot shoot back")
            return lines
        back = attack_roll(self.engine, state, target, shooter, reply, reactive=True)
        duel = exact_odds(
            self.engine, state, shooter, target, w, roll.sv, reply, back.sv, burst=roll.burst
        )
        lines.append(f"{target} replies ({reply.name}, SV {back.sv}):")
        lines.append(f"  {target}: {odds_text(duel[target])}")
        lines.append(f"  {shooter}: {odds_text(duel[shooter])}")
        return lines

    def markers(self, game: Game) -> dict[str, Marker]:
        return {
            m.id: Marker(m.status, m.wounds, self.engine.profiles[m.id].wounds)
            for m in game.state.models
        }

    def holding(self, game: Game) -> dict[str, str]:
        return {objective: side for side, objective, _ in self.engine.objectives_held(game.state)}

    def choose(self, game: Game) -> Any:
        return self.ai.choose(game.state, game.awaiting())


def _declaration(event: object) -> dict[str, Any]:
    """A Declared event's declaration ({} for any other event)."""
    return event.declaration if isinstance(event, Declared) else {}


def _declared(event: object, kind: str) -> bool:
    return _declaration(event).get("declare") == kind


def _point(value: Any) -> Point | None:
    """A point as a declaration records it (a pair, or a list from a save), or None."""
    return None if value is None else (float(value[0]), float(value[1]))
