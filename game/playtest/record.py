"""One game of a batch, played and written down: who played which side, who won and
why, points and objectives, and every model taken out with where it stood and where the
shot that did it came from.

A model taken out is one still out of the fight when the game ends (as games.csv counts
them): a fighter that falls and recovers is not one, and one that falls a second time is
counted once, where and when it fell last.

Positions come from the event log read in order: every model starts where the game's
first state puts it and stands where its last `Moved` event left it. The shooter of a
model taken out is the attacker of the last event that hit it (an event with an
`attacker` and a `target` that gives no reason, as misses and changes of target do, and
did some damage), or hit its unit when
the rule system fires unit at unit; a unit's position is the centre of its models not
yet taken out."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from game.playtest.batch import lost_in_game, play_out
from game.playtest.players import Choice, build_player
from game.sequencer.events import Event, GameEnded, Moved, StateChanged, TurnStarted
from game.sequencer.game import Game
from game.sequencer.setup import Setup
from game.sequencer.state import GameState

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Job:
    """Game `index` of a batch: its seed, and whether the sides' players are exchanged."""

    index: int
    seed: int
    swapped: bool = False


@dataclass(frozen=True, slots=True)
class Casualty:
    """A model taken out: where it stood, and who shot it from where (None: no shot
    found in the log, e.g. a model lost to its own side's rules)."""

    model: str
    side: str
    turn: int
    at: Point
    by: str | None
    origin: Point | None


@dataclass(frozen=True, slots=True)
class GameRecord:
    index: int
    seed: int
    swapped: bool
    players: dict[str, str]  # side -> player as written (name and options)
    winner: str | None
    reason: str
    turn: int
    declarations: int
    down: dict[str, int]  # side -> models out of the fight at the end
    points: dict[str, int]  # side -> the scores the rule system ended the game with
    objectives: dict[str, tuple[str, ...]]  # side -> objectives it holds at the end
    casualties: tuple[Casualty, ...]
    save: dict[str, Any] | None = None

    @property
    def winner_player(self) -> str | None:
        return None if self.winner is None else self.players.get(self.winner)


def play_recorded(setup: Setup, job: Job, choice: Choice, keep_save: bool = False) -> GameRecord:
    """Play game `job` between the players of `choice` and write down what happened."""
    from game.playtest.players import describe, recorded_sides

    game = Game(setup, job.seed)
    start = game.state
    player = build_player(game.engine, choice)
    play_out(game, player)
    state = game.state
    lost = frozenset(setup.ruleset.out_of_fight)
    ended = next((e for e in reversed(game.events) if isinstance(e, GameEnded)), None)
    return GameRecord(
        index=job.index,
        seed=job.seed,
        swapped=job.swapped,
        players=describe(choice),
        winner=state.winner,
        reason=ended.reason if ended else "stopped: too many declarations",
        turn=state.turn,
        declarations=len(game.declarations),
        down=lost_in_game(start, state, lost),
        points={s: int(ended.scores.get(s, 0)) if ended else 0 for s in state.sides},
        objectives=objectives_held(setup, state),
        casualties=tuple(casualties(setup, start, game.events)),
        save=(
            {**game.to_save(), "players": recorded_sides(setup.ruleset, player, list(choice))}
            if keep_save
            else None
        ),
    )


def objectives_held(setup: Setup, state: GameState) -> dict[str, tuple[str, ...]]:
    """Each side's objectives at the end: a side holds one when more of its models not
    taken out have their base within its radius than any other side's. None where the
    rules score no objectives (they decide nothing there, `Ruleset.unscored`), the
    columns kept for those who read them."""
    radius = {m.id: m.radius for m in setup.models}
    lost = frozenset(setup.ruleset.out_of_fight)
    held: dict[str, list[str]] = {s: [] for s in state.sides}
    scored = setup.objectives if setup.ruleset.scores_objectives else ()
    for objective in scored:
        near: dict[str, int] = {}
        for m in state.models:
            gap = math.dist(m.at, objective.at) - radius.get(m.id, 0.0)
            if m.status not in lost and gap <= objective.radius:
                near[m.side] = near.get(m.side, 0) + 1
        if near:
            most = max(near.values())
            leaders = [s for s, n in near.items() if n == most]
            if len(leaders) == 1:
                held[leaders[0]].append(objective.id)
    return {s: tuple(ids) for s, ids in held.items()}


def casualties(setup: Setup, start: GameState, events: list[Event]) -> list[Casualty]:
    """Every model taken out and still out at the end, in the order of their last falls
    (see the module's docstring)."""
    at = {m.id: m.at for m in start.models}
    side = {m.id: m.side for m in start.models}
    unit = {m.id: m.unit for m in setup.models if m.unit}
    members: dict[str, list[str]] = {}
    for model, u in unit.items():
        members.setdefault(u, []).append(model)
    lost = frozenset(setup.ruleset.out_of_fight)
    down = {m.id for m in start.models if m.status in lost}
    shot_by: dict[str, tuple[str, Point | None]] = {}  # model or unit -> (attacker, from)
    turn = start.turn
    out: dict[str, Casualty] = {}  # model -> its last fall, while it stays down

    def where(who: str) -> Point | None:
        if who in at:
            return at[who]
        standing = [at[m] for m in members.get(who, ()) if m not in down]
        if not standing:
            return None
        return (
            sum(p[0] for p in standing) / len(standing),
            sum(p[1] for p in standing) / len(standing),
        )

    for event in events:
        if isinstance(event, TurnStarted):
            turn = event.turn
        elif isinstance(event, Moved) and event.path:
            at[event.model] = event.path[-1]
        elif isinstance(event, StateChanged):
            if event.after in lost and event.model not in down:
                down.add(event.model)
                shot = shot_by.get(event.model) or shot_by.get(unit.get(event.model, ""))
                by, origin = shot if shot else (None, None)
                out.pop(event.model, None)  # a second fall: in the order of the last
                out[event.model] = Casualty(
                    event.model, side.get(event.model, ""), turn, at[event.model], by, origin
                )
            elif event.after not in lost and event.model in down:
                # back in the fight (a Recovery roll): not taken out, unless it falls again
                down.discard(event.model)
                out.pop(event.model, None)
                shot_by.pop(event.model, None)
        else:
            attacker = getattr(event, "attacker", None)
            target = getattr(event, "target", None)
            if (
                isinstance(attacker, str)
                and isinstance(target, str)
                and not hasattr(event, "reason")
                and getattr(event, "damage", 1) != 0
            ):
                shot_by[target] = (attacker, where(attacker))
    return list(out.values())
