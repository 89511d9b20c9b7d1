"""Stepping through a saved game on the table: `Replay` holds the save's declarations
and where the game stood after each one, so the window can show any step at once
(left/right one declaration, up/down a turn, Home/End) with that step's dice and
animations, and a person can take over at any step and play on as a new game.

The save file is only read: taking over starts a new branch, saved under a new name
beside it (`branch_path`), so the original stays byte-identical.

No pygame here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.errors import IllegalDeclaration
from game.render.session import (
    SAVE_NAME,
    Choice,
    Session,
    SessionError,
    read_checked_save,
    saved_seats,
    saved_taken,
)
from game.scenario import Scenario
from game.scenario.saves import REFUSED, Diverged, SavedGame, refused_declaration
from game.sequencer.declarations import Declaration
from game.sequencer.events import Event
from game.sequencer.game import Game

# what a save file says of its game's start: another value, another game
SAME_GAME = ("scenario", "scenario_sha256", "ruleset", "seed")


@dataclass(frozen=True, slots=True)
class Step:
    """The game after some declarations: its state, how many events it had logged, the
    dice stream's position and its turn."""

    state: Any
    events: int
    rng: Mapping[str, Any]
    turn: int


class Replay:
    """A saved game, played through once when opened; `at` is the step shown (the
    number of declarations made), from 0 (the start) to `last`."""

    def __init__(self, path: Path, scenario: Scenario, seed: int,
                 declarations: Sequence[Declaration],
                 saved: SavedGame | None = None) -> None:  # fmt: skip
        """`saved`: the save read, whose rules may have been corrected since (the game is
        then played as far as the rules now allow, and `diverged` says where it goes
        differently)."""
        self.path = path
        self.scenario = scenario
        # the computer sides' players and their options, as the save records them
        self.players: Choice = {}
        # the sides a person took over from the computer (T), with the computer's players
        self.taken: Choice = {}
        self.seed = seed
        self.declarations = list(declarations)
        game = Game(scenario, seed)
        self.steps = [self._step(game)]
        refused: str | None = None
        for index, declaration in enumerate(self.declarations):
            try:
                game.declare(declaration)
            except IllegalDeclaration as why:
                problem = refused_declaration(path, index, why, scenario)
                if saved is None or not saved.rules_corrected:
                    raise SessionError(str(problem), [problem]) from None
                refused = problem.problem.removeprefix(REFUSED)
                del self.declarations[index:]  # the save keeps them; this game stops
                break
            self.steps.append(self._step(game))
        self.diverged: Diverged | None = None if saved is None else saved.diverged(game, refused)
        self.events: list[Event] = list(game.events)
        self.full = game
        self.at = self.last

    @staticmethod
    def _step(game: Game) -> Step:
        return Step(game.state, len(game.events), game.rng.bit_generator.state,
                    int(getattr(game.state, "turn", 0)))  # fmt: skip

    @classmethod
    def open(cls, path: Path, person: str | None = None) -> Replay:
        """Read a save file; SessionError names what is wrong with it. `person`: the side
        a person plays (at its last step and when T takes over), the computer the others."""
        saved = read_checked_save(path)
        # who plays each side: the save's players, unless a person takes one
        scenario, choice = saved_seats(saved, person)
        replay = cls(path, scenario, saved.seed, saved.declarations, saved)
        replay.players = choice
        replay.taken = saved_taken(saved, person)
        return replay

    # -- where it stands

    @property
    def last(self) -> int:
        return len(self.declarations)

    @property
    def at_end(self) -> bool:
        return self.at == self.last

    def turn_of(self, step: int) -> int:
        return self.steps[step].turn

    def game_at(self, step: int) -> Game:
        """The game as it stood after `step` declarations (from the snapshots: nothing
        is replayed)."""
        snap = self.steps[step]
        game = Game(self.scenario, self.seed, engine=self.full.engine)
        game.state = snap.state
        game.events = list(self.events[: snap.events])
        game.declarations = list(self.declarations[:step])
        game.rng.bit_generator.state = snap.rng
        return game

    def session_at(self, step: int, rules: Any) -> Session:
        """A session playing the game as it stood after `step` declarations (the save's:
        undo leaves them)."""
        session = Session.resume(self.scenario, self.game_at(step), rules)
        session.use_players(self.players)
        session.hold(self.taken)
        return session

    def events_of(self, step: int) -> list[Event]:
        """The events the `step`-th declaration brought (none for step 0)."""
        if step <= 0:
            return []
        return self.events[self.steps[step - 1].events : self.steps[step].events]

    # -- moving

    def target(self, move: str) -> int:
        """The step a move goes to: "next" / "back" one declaration, "turn" / "turn-back"
        (the first step of the next turn; the start of this turn, or of the one before
        when already there), "first" / "last"."""
        at = self.at
        if move == "next":
            return min(self.last, at + 1)
        if move == "back":
            return max(0, at - 1)
        if move == "first":
            return 0
        if move == "last":
            return self.last
        turn = self.turn_of(at)
        if move == "turn":
            later = [k for k in range(at + 1, self.last + 1) if self.turn_of(k) > turn]
            return later[0] if later else self.last
        start = self.turn_start(at)
        if start < at:
            return start
        return self.turn_start(at - 1) if at > 0 else 0

    def turn_start(self, step: int) -> int:
        """The first step of the turn `step` is in."""
        turn = self.turn_of(step)
        while step > 0 and self.turn_of(step - 1) == turn:
            step -= 1
        return step

    def describe(self) -> str:
        """Where the replay stands, for the panel."""
        return (
            f"Replay of {self.path.name}: declaration {self.at} of {self.last}, "
            f"{self.scenario.ruleset.turn_word} {self.turn_of(self.at)}"
        )


def branch_path(save: Path, step: int) -> Path:
    """A new file beside `save` for a game taken over at `step` (never the save itself,
    never a file that exists)."""
    stem = save.stem
    path = save.with_name(f"{stem}-from-{step}.json")
    n = 2
    while path.exists():
        path = save.with_name(f"{stem}-from-{step}-{n}.json")
        n += 1
    return path


def kept_apart(replay: Replay) -> Path:
    """Where Ctrl+S saves a game played on from a replay's last step: the save itself
    (the save is the game: playing on only adds to it), or beside it (`branch_path`)
    when the rules now play it otherwise (its events, or declarations they refuse),
    which the save keeps, as `play --load` does."""
    if replay.diverged is None:
        return replay.path
    return branch_path(replay.path, replay.last)


def new_game_path(folder: Path, game: Game) -> Path:
    """Where Ctrl+S first saves a new game: `SAVE_NAME` in `folder`, unless that file
    holds another game (`holds_another_game`), which is never replaced: then
    skirmish-save-2.json, -3 and so on, the first free or holding this game."""
    path = folder / SAVE_NAME
    n = 2
    while path.exists() and holds_another_game(path, game):
        path = folder / f"{Path(SAVE_NAME).stem}-{n}.json"
        n += 1
    return path


def holds_another_game(path: Path, game: Game) -> bool:
    """Whether the file at `path` holds something other than `game` or an earlier step of
    it: another scenario, seed or rule system, declarations `game` does not continue, or
    no save at all (a file that does not read is not ours to replace either)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return True
    if not isinstance(data, dict):
        return True
    ours = game.to_save(path.parent)
    theirs = data.get("declarations")
    same = all(data.get(key) == ours.get(key) for key in SAME_GAME)
    return not (same and isinstance(theirs, list) and theirs == ours["declarations"][: len(theirs)])
