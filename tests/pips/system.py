"""Pips: a tiny fourth rule system that exists only in the tests (issue #10).

A d6 at or under the shooter's `skill` hits and takes the target out; every model has
one action a turn (shoot, move up to 4" or pass); sight is all round and models do not
block it. It registers itself with `register_pips()` and brings every part a system
brings (data models, cover, ruling, engine, players, shoot, odds, sentences, the
window's adapter), so the tests can show that nothing under game/ has to name it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer
from pydantic import Field

from game.errors import IllegalDeclaration
from game.geometry import Table
from game.geometry.lof import Sight
from game.rules.cover import Cover, CoverRuling, SightOf
from game.rules.data import Profile, Weapon
from game.rules.registry import Ruleset, register, unregister
from game.sequencer.declarations import Declaration, declaration
from game.sequencer.engine import Awaiting
from game.sequencer.events import (
    Declared,
    Event,
    GameEnded,
    Hit,
    Missed,
    Moved,
    Rolled,
    StateChanged,
    TurnEnded,
    TurnStarted,
)
from game.sequencer.setup import Setup
from game.sequencer.sight import Placement
from game.sequencer.state import GameState

NAME = "pips"
HERE = Path(__file__).resolve().parent
SCENARIO = HERE / "pips-duel.toml"
MOVE = 4.0  # inches a move may cover
READY, DOWN = "ready", "down"
ACTED = "acted"

Point = tuple[float, float]


class PipsProfile(Profile):
    skill: int = Field(ge=1, le=6)


class PipsWeapon(Weapon):
    range: float = Field(gt=0)


# --- cover and rulings: any hidden share is partial cover, none seen is total ---


def sequencer_cover(table: Table, sight: Sight, rule_values: dict[str, float]) -> tuple[Cover, str]:
    if not sight.clear:
        return Cover.TOTAL, "out of sight"
    if sight.visible_fraction < 0.995:
        return Cover.PARTIAL, f"{1 - sight.visible_fraction:.0%} hidden"
    return Cover.NONE, "all seen"


def scenario_ruling(
    table: Table, sight: Sight, rule_values: dict[str, float], sight_of: SightOf
) -> CoverRuling:
    level, reason = sequencer_cover(table, sight, rule_values)
    return CoverRuling(level.value, reason)


# --- declarations ---


@declaration
@dataclass(frozen=True, slots=True)
class PipsShoot(Declaration):
    model: str
    target: str


@declaration
@dataclass(frozen=True, slots=True)
class PipsMove(Declaration):
    model: str
    to: Point


@declaration
@dataclass(frozen=True, slots=True)
class PipsPass(Declaration):
    model: str


@declaration
@dataclass(frozen=True, slots=True)
class PipsEndTurn(Declaration):
    pass


# --- the engine ---


class PipsEngine:
    """Sides take turns; each model of the side in turn acts once."""

    def __init__(self, setup: Setup) -> None:
        from game.sequencer.table_sight import TableSight

        self.setup = setup
        self.sight = TableSight(setup)
        self.profiles = {m.id: setup.profiles[m.profile] for m in setup.models}
        self.turns = setup.header.turns

    def start(self, *, rng: np.random.Generator) -> tuple[GameState, list[Event]]:
        from game.sequencer.state import ModelState

        sides = tuple(s.id for s in self.setup.sides)
        models = tuple(
            ModelState(m.id, m.side, m.at, m.facing, m.state or READY) for m in self.setup.models
        )
        return GameState(1, sides[0], sides, models), [TurnStarted(1, sides[0])]

    def awaiting(self, state: GameState) -> Awaiting:
        if state.finished:
            return Awaiting(None, "over")
        ready = tuple(
            m.id
            for m in state.side_models(state.active)
            if m.status == READY and ACTED not in m.flags
        )
        return Awaiting(state.active, "action", ready)

    def placements(self, state: GameState) -> dict[str, Placement]:
        return {m.id: Placement(m.at, m.facing, m.status != DOWN) for m in state.models}

    def skill(self, model: str) -> int:
        profile = self.profiles[model]
        assert isinstance(profile, PipsProfile)
        return profile.skill

    def weapon(self, model: str) -> PipsWeapon:
        weapon = self.setup.weapons[self.profiles[model].weapons[0]]
        assert isinstance(weapon, PipsWeapon)
        return weapon

    def shot_problem(self, state: GameState, model: str, target: str) -> str | None:
        """Why `model` cannot shoot `target` now, or None."""
        try:
            them = state.model(target)
        except KeyError:
            return f"there is no model {target!r}"
        if them.side == state.model(model).side:
            return f"{target} is on {model}'s own side"
        if them.status == DOWN:
            return f"{target} is already down"
        placed = self.placements(state)
        if not self.sight.sighting(placed, model, target).lof:
            return f"{model} cannot see {target}"
        if self.sight.distance(placed, model, target) > self.weapon(model).range:
            return f"{target} is out of range"
        return None

    def apply(
        self, state: GameState, declaration: Declaration, *, rng: np.random.Generator
    ) -> tuple[GameState, list[Event]]:
        if state.finished:
            raise IllegalDeclaration("the game is over")
        events: list[Event] = [Declared(state.active, declaration.to_dict())]
        if isinstance(declaration, PipsEndTurn):
            return self._end_turn(state, events)
        model = getattr(declaration, "model", None)
        if not isinstance(model, str) or model not in self.awaiting(state).models:
            raise IllegalDeclaration(f"{model} cannot act now")
        me = state.model(model)
        if isinstance(declaration, PipsShoot):
            problem = self.shot_problem(state, model, declaration.target)
            if problem:
                raise IllegalDeclaration(problem)
            state = self._shoot(state, model, declaration.target, events, rng)
        elif isinstance(declaration, PipsMove):
            to = declaration.to
            if not all(math.isfinite(v) for v in to):
                raise IllegalDeclaration("a move needs a point on the table")
            if math.dist(me.at, to) > MOVE + 1e-9:
                raise IllegalDeclaration(f'a move is at most {MOVE:g}"')
            why = self.sight.path_blocked(self.placements(state), model, (me.at, to))
            if why:
                raise IllegalDeclaration(why.why)
            state = state.with_model(me.replace(at=to))
            events.append(Moved(model, (me.at, to), math.dist(me.at, to)))
        elif not isinstance(declaration, PipsPass):
            raise IllegalDeclaration(f"pips has no declaration {type(declaration).__name__}")
        me = state.model(model)
        return self._won(state.with_model(me.replace(flags=me.flags | {ACTED})), events)

    def _shoot(
        self, state: GameState, model: str, target: str, events: list[Event], rng: Any
    ) -> GameState:
        skill = self.skill(model)
        face = int(rng.integers(1, 7))
        # Pips: a d6 at or under the skill hits
        result = "success" if face <= skill else "fail"
        events.append(Rolled(model, "shot", "skill", skill, (), skill, (face,), (result,)))
        weapon = self.weapon(model).name
        if result == "fail":
            events.append(Missed(model, target, weapon, f"rolled {face} over {skill}"))
            return state
        events.append(Hit(model, target, weapon))
        events.append(StateChanged(target, READY, DOWN))
        return state.with_model(state.model(target).replace(status=DOWN))

    def _end_turn(self, state: GameState, events: list[Event]) -> tuple[GameState, list[Event]]:
        events.append(TurnEnded(state.turn, state.active))
        following = state.sides[(state.sides.index(state.active) + 1) % len(state.sides)]
        turn = state.turn + (1 if following == state.sides[0] else 0)
        models = tuple(m.replace(flags=m.flags - {ACTED}) for m in state.models)
        state = state.replace(active=following, turn=turn, models=models)
        if turn > self.turns:
            return self._finish(state, events, "the last turn is over")
        events.append(TurnStarted(turn, following))
        return state, events

    def _scores(self, state: GameState) -> dict[str, int]:
        return {s: sum(m.status != DOWN for m in state.side_models(s)) for s in state.sides}

    def _won(self, state: GameState, events: list[Event]) -> tuple[GameState, list[Event]]:
        if any(score == 0 for score in self._scores(state).values()):
            return self._finish(state, events, "a side has no model standing")
        return state, events

    def _finish(
        self, state: GameState, events: list[Event], reason: str
    ) -> tuple[GameState, list[Event]]:
        scores = self._scores(state)
        best = max(scores.values())
        leaders = [s for s, v in scores.items() if v == best]
        winner = leaders[0] if len(leaders) == 1 else None
        events.append(GameEnded(winner, reason, scores))
        return state.replace(finished=True, winner=winner), events


# --- an automatic player ---


class SimplePipsPlayer:
    """Shoots the first enemy it may, else steps toward the nearest, else passes."""

    def __init__(self, engine: PipsEngine, **options: object) -> None:
        self.engine = engine

    def choose(self, state: GameState, awaiting: Awaiting) -> Declaration:
        for model in awaiting.models:
            me = state.model(model)
            enemies = [m for m in state.models if m.side != me.side and m.status != DOWN]
            for enemy in enemies:
                if self.engine.shot_problem(state, model, enemy.id) is None:
                    return PipsShoot(model, enemy.id)
            if enemies:
                near = min(enemies, key=lambda e: math.dist(me.at, e.at))
                gap = math.dist(me.at, near.at)
                step = min(MOVE, max(0.0, gap - 2.0)) / gap if gap else 0.0
                to = (
                    me.at[0] + (near.at[0] - me.at[0]) * step,
                    me.at[1] + (near.at[1] - me.at[1]) * step,
                )
                move = PipsMove(model, to)
                try:
                    self.engine.apply(state, move, rng=np.random.default_rng(0))
                    return move
                except IllegalDeclaration:
                    pass
            return PipsPass(model)
        return PipsEndTurn()


# --- `skirmish shoot`, `skirmish odds`, sentences ---


def _at_attackers_turn(shot: Any) -> Any:
    from game.sequencer.game import Game

    game = Game(shot.scenario, shot.seed)
    if game.state.active != game.state.model(shot.attacker).side:
        game.declare(PipsEndTurn())
    return game


def resolve(shot: Any) -> dict[str, Any]:
    """`skirmish shoot` on a pips table: one shot and its roll, or its trials."""
    from game.commands.shoot import problem
    from game.dice.rng import make_rng
    from game.sequencer.events import event_dict

    if shot.target is None:
        raise problem(shot.path, "--target", "give the target's id")
    game = _at_attackers_turn(shot)
    before, declared = game.state, PipsShoot(shot.attacker, shot.target)
    try:
        events = game.declare(declared)
    except IllegalDeclaration as err:
        raise problem(shot.path, f"--attacker {shot.attacker}", str(err)) from None
    report: dict[str, Any] = {
        "ruleset": NAME,
        "attacker": shot.attacker,
        "target": shot.target,
        "events": [event_dict(e) for e in events],
        "sentences": [s for s in map(sentence, events) if s],
    }
    if shot.trials:
        rng = make_rng(shot.seed)
        hits = sum(
            any(isinstance(e, Hit) for e in game.engine.apply(before, declared, rng=rng)[1])
            for _ in range(shot.trials)
        )
        report["trials"] = shot.trials
        report["hit"] = hits / shot.trials
        report["exact_hit"] = float(hit_chance(game.engine.skill(shot.attacker)))
    return report


def show(report: dict[str, Any]) -> None:
    for line in report["sentences"]:
        typer.echo(line)
    if "trials" in report:
        typer.echo(
            f"{report['trials']} shots: hit {report['hit']:.3f} (exact {report['exact_hit']:.3f})"
        )


def hit_chance(skill: int) -> Fraction:
    """Pips: a d6 at or under the skill hits."""
    return Fraction(max(0, min(skill, 6)), 6)


def odds(
    skill: Annotated[int, typer.Option("--skill", min=1, max=6, help="The shooter's skill.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Pips: the chance that one shot hits."""
    from game.commands.odds import emit, rows
    from game.dice.exact import Distribution

    p = hit_chance(skill)
    dist = Distribution({True: p.numerator, False: p.denominator - p.numerator}, p.denominator)
    found = rows(dist, lambda hit: {"outcome": "hit" if hit else "miss"})
    emit(
        {"ruleset": NAME, "skill": skill, "outcomes": found},
        as_json,
        [("Pips", found, ["outcome"])],
    )


def sentence(event: Event) -> str | None:
    """A pips event in pips words."""
    if isinstance(event, Rolled):
        return f"{event.model} rolls {event.faces[0]} needing {event.target} or less"
    if isinstance(event, Hit):
        return f"{event.attacker} hits {event.target}"
    if isinstance(event, Missed):
        return f"{event.attacker} misses {event.target}"
    if isinstance(event, StateChanged):
        return f"{event.model} is down"
    if isinstance(event, Moved):
        return f"{event.model} moves {event.distance:.1f} inches"
    if isinstance(event, GameEnded):
        return f"{event.winner or 'nobody'} wins: {event.reason}"
    return None


PIPS = Ruleset(
    NAME,
    "Pips (a test system)",
    360.0,
    False,
    str(HERE / "assets"),
    PipsProfile,
    PipsWeapon,
    (READY, DOWN),
    (DOWN,),
    parts={
        "engine": PipsEngine,
        "cover": sequencer_cover,
        "ruling": scenario_ruling,
        "play": "tests.pips.play:PipsPlay",
        "shoot": "tests.pips.system",
        "odds": odds,
        "sentences": sentence,
    },
    players={"simple": SimplePipsPlayer},
)


def register_pips() -> Ruleset:
    return register(PIPS)


def unregister_pips() -> None:
    unregister(NAME)
