"""The pips test system on the interactive table: its `PlayRules` adapter (the
registry's "play" part for pips). M moves, S shoots, I passes, E ends the turn."""

from __future__ import annotations

from typing import Any

from game.errors import IllegalDeclaration
from game.render.play_rules import Intent, IntentKind, Marker, PlayRules, Prompt, game_over
from tests.pips.system import (
    MOVE,
    PipsEndTurn,
    PipsEngine,
    PipsMove,
    PipsPass,
    PipsShoot,
    SimplePipsPlayer,
    hit_chance,
)

Point = tuple[float, float]


class PipsPlay(PlayRules):
    name = "pips"
    keys_help = ("M move · S shoot · I pass · E end the turn",)

    def __init__(self, engine: PipsEngine) -> None:
        self.engine = engine
        self.player = SimplePipsPlayer(engine)

    def prompt(self, game: Any) -> Prompt:
        now = game.awaiting()
        if now.kind == "over":
            return game_over(game.state.winner)
        return Prompt(now.side, now.kind, now.models, f"{now.side}: one action for each model")

    def declaration(self, game: Any, intent: Intent) -> Any:
        if intent.kind is IntentKind.END:
            return PipsEndTurn()
        if intent.model is None:
            raise IllegalDeclaration("select a model first")
        if intent.kind is IntentKind.MOVE and intent.path:
            return PipsMove(intent.model, intent.path[-1])
        if intent.kind is IntentKind.SHOOT and intent.targets:
            return PipsShoot(intent.model, intent.targets[0][0])
        if intent.kind is IntentKind.IDLE:
            return PipsPass(intent.model)
        raise IllegalDeclaration(f"pips has no {intent.kind.value}")

    def allowance(self, game: Any, model: str) -> float | None:
        return MOVE if model in game.awaiting().models else None

    def path_start(self, game: Any, model: str) -> Point:
        at: Point = game.state.model(model).at
        return at

    def burst(self, game: Any, model: str, weapon: str) -> int:
        return 1

    def odds_lines(self, game: Any, shooter: str, target: str, weapon: str) -> list[str]:
        skill = self.engine.skill(shooter)
        return [f"hits on {skill} or less: {float(hit_chance(skill)):.0%}"]

    def markers(self, game: Any) -> dict[str, Marker]:
        return {m.id: Marker(m.status) for m in game.state.models}

    def choose(self, game: Any) -> Any:
        return self.player.choose(game.state, game.awaiting())
