"""Batch games between automatic players, and what they add up to.

Game i of a batch plays with a seed drawn from child i of the batch's SeedSequence,
so the results do not depend on how many workers share the work, and any single
game can be replayed from its own seed. Batches are run by `game.playtest.runner`
(here or on a cluster) and recorded by `game.playtest.record`."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from game.dice.rng import spawn_seeds
from game.errors import IllegalDeclaration
from game.rules.registry import ruleset_of
from game.sequencer.declarations import Declaration
from game.sequencer.engine import Awaiting, Engine
from game.sequencer.game import Game
from game.sequencer.setup import Setup
from game.sequencer.state import GameState

# States in which a model is out of the fight, whatever the rule system.
DECLARATION_LIMIT = 5000  # a game that has not ended by then is stopped and counted as a draw
Z95 = 1.959963984540054
T = TypeVar("T")


class Player(Protocol):
    def choose(self, state: GameState, awaiting: Awaiting) -> Declaration: ...


def automatic_player(
    engine: Engine, policy: str | Mapping[str, str] = "simple", **options: object
) -> Player:
    """The rule system's automatic player for both sides. `policy` names one of the
    players its registry entry lists ("simple" is fast, the playtests' default;
    "careful" weighs expected damage against risk with the exact odds), or maps side ->
    name to pit them against each other. `options` go to the player (when given)."""
    if not isinstance(policy, str):
        return BySide({side: automatic_player(engine, p, **options) for side, p in policy.items()})
    ruleset = ruleset_of(engine)
    if ruleset is None:
        raise IllegalDeclaration(f"no automatic player for {type(engine).__name__}")
    make = ruleset.player(policy)
    if make is None:
        known = ", ".join(ruleset.players) or "none"
        raise IllegalDeclaration(f"no automatic player {policy!r} (one of {known})")
    player: Player = make(engine, **options)
    return player


class BySide:
    """One automatic player per side: each declares when its side is awaited."""

    def __init__(self, players: Mapping[str, Player]) -> None:
        self.players = dict(players)

    def choose(self, state: GameState, awaiting: Awaiting) -> Declaration:
        side = awaiting.side
        if side is None or side not in self.players:
            raise IllegalDeclaration(f"no automatic player for side {side!r}")
        return self.players[side].choose(state, awaiting)


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game: who won and why, how long it took, who fell."""

    index: int
    seed: int
    winner: str | None
    reason: str
    turn: int
    declarations: int
    down: dict[str, int]  # side -> models out of the fight at the end


def game_seed(child: object) -> int:
    """A game's own integer seed from its child SeedSequence (as a save file keeps it)."""
    import numpy as np

    assert isinstance(child, np.random.SeedSequence)
    return int(child.generate_state(2, dtype=np.uint32).astype(np.uint64) @ [1, 1 << 32])


def play_out(game: Game, player: Player, limit: int = DECLARATION_LIMIT) -> Game:
    """Let `player` declare for whoever is awaited until the game ends (or `limit`)."""
    for _ in range(limit):
        if game.state.finished:
            break
        game.declare(player.choose(game.state, game.awaiting()))
    return game


def lost_in_game(start: GameState, end: GameState, lost: Iterable[str]) -> dict[str, int]:
    """Each side's models out of the fight at the end that were in it at the start: a
    fighter a table starts Out of Action is not lost in the game (tester16: "models
    lost (mean)" said 1.80 where the sentences counted 8 taken out in 10 games)."""
    lost = frozenset(lost)
    down = {m.id for m in start.models if m.status in lost}
    return {
        s: sum(1 for m in end.side_models(s) if m.status in lost and m.id not in down)
        for s in end.sides
    }


def play_one(
    setup: Setup, index: int, seed: int, policy: str | Mapping[str, str] = "simple"
) -> GameResult:
    game = Game(setup, seed)
    start = game.state
    play_out(game, automatic_player(game.engine, policy))
    state = game.state
    ended = next((e for e in reversed(game.events) if e.name == "GameEnded"), None)
    reason = str(getattr(ended, "reason", "stopped: too many declarations"))
    down = lost_in_game(start, state, setup.ruleset.out_of_fight)
    return GameResult(index, seed, state.winner, reason, state.turn, len(game.declarations), down)


def seeds_for(seed: int, games: int) -> list[tuple[int, int]]:
    return [(i, game_seed(child)) for i, child in enumerate(spawn_seeds(seed, games))]


def chunked(items: Sequence[T], size: int) -> list[Sequence[T]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


@dataclass(frozen=True, slots=True)
class Share:
    """A proportion with its 95% Wilson score interval."""

    count: int
    total: int
    low: float = field(init=False)
    high: float = field(init=False)

    def __post_init__(self) -> None:
        n, p = self.total, (self.count / self.total if self.total else 0.0)
        if n == 0:
            low, high = 0.0, 1.0
        else:
            centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
            half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
            low, high = max(0.0, centre - half), min(1.0, centre + half)
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)

    @property
    def share(self) -> float:
        return self.count / self.total if self.total else 0.0


@dataclass(frozen=True, slots=True)
class Summary:
    games: int
    wins: dict[str, Share]
    draws: Share
    mean_turn: float
    mean_down: dict[str, float]
    reasons: dict[str, int]


class Outcome(Protocol):
    """What a summary reads of a game (a GameResult, or a playtest record)."""

    @property
    def winner(self) -> str | None: ...
    @property
    def reason(self) -> str: ...
    @property
    def turn(self) -> int: ...
    @property
    def down(self) -> dict[str, int]: ...


def summarize(results: Iterable[Outcome], sides: Sequence[str]) -> Summary:
    done = list(results)
    n = len(done)
    winners = Counter(r.winner for r in done)
    reasons = Counter(r.reason for r in done)  # whole: what decided them at a limit too
    return Summary(
        games=n,
        wins={s: Share(winners.get(s, 0), n) for s in sides},
        draws=Share(winners.get(None, 0), n),
        mean_turn=sum(r.turn for r in done) / n if n else 0.0,
        mean_down={s: (sum(r.down.get(s, 0) for r in done) / n if n else 0.0) for s in sides},
        reasons=dict(reasons.most_common()),
    )
