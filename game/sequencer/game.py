"""A game: a setup, a seed and the declarations made so far.

`Game.declare` hands a declaration to the rule system's engine; an illegal one is
refused with the reason (`IllegalDeclaration`) and leaves the state, the log and
the dice stream exactly as they were. Replaying the same declarations from the
same seed gives the identical event log."""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from game.dice.rng import make_rng
from game.errors import IllegalDeclaration
from game.files import write_json_atomic
from game.sequencer.declarations import Declaration, check_numbers, decode
from game.sequencer.engine import Awaiting, Engine
from game.sequencer.events import Event, event_dict
from game.sequencer.setup import NO_MODELS, NO_SIDES, Setup

# Save files: format 1 named the scenario file; format 2 also carries its text (and,
# added since, names the table so a moved save still finds it: `scenario_fields`; and
# the version of the rules it was played under, Ruleset.rules_version).
SAVE_FORMAT = 2


def scenario_fields(scenario: Path, folder: Path | None = None) -> dict[str, str]:
    """How a save names its scenario file: "scenario", the absolute path (as every save
    always has); "scenario_bundled", the bundled table's name when it is one, found by
    name on any machine; "scenario_relative", its path from `folder`, where the save is
    written (a save moved with its table still finds it)."""
    from game.paths import SCENARIOS_DIR, SUFFIX

    where = Path(os.path.abspath(scenario))
    out = {"scenario": str(where)}
    if where.suffix == SUFFIX and where.parent.resolve() == SCENARIOS_DIR.resolve():
        out["scenario_bundled"] = where.stem
    if folder is not None:
        with contextlib.suppress(ValueError):  # another drive: no path leads there
            out["scenario_relative"] = Path(os.path.relpath(where, folder)).as_posix()
    return out


def text_hash(text: str) -> str:
    """The SHA-256 of a scenario's text (UTF-8), as a save keeps it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def engine_for(setup: Setup) -> Engine:
    """The engine of the setup's rule system (its registry entry's `engine` part)."""
    make = setup.ruleset.load("engine")
    if make is None:
        raise IllegalDeclaration(f"the sequencer does not play {setup.ruleset.name} yet")
    if not setup.sides:  # a table may be laid out before its sides are
        raise IllegalDeclaration(NO_SIDES)
    for side in setup.sides:
        # A table may be laid out before its models are; a game needs them.
        if not any(model.side == side.id for model in setup.models):
            raise IllegalDeclaration(f"side {side.id!r} {NO_MODELS}")
    engine: Engine = make(setup)
    return engine


class Game:
    """A game in progress. `events` is the whole log; `declarations` what made it."""

    def __init__(self, setup: Setup, seed: int, engine: Engine | None = None) -> None:
        self.setup = setup
        self.seed = seed
        self.engine = engine or engine_for(setup)
        self.rng = make_rng(seed)
        self.state, self.events = self.engine.start(rng=self.rng)
        self.declarations: list[Declaration] = []

    def awaiting(self) -> Awaiting:
        return self.engine.awaiting(self.state)

    def declare(self, declaration: Declaration) -> list[Event]:
        """Apply one declaration; on IllegalDeclaration nothing changes, dice included."""
        self._checked(declaration)
        saved = self.rng.bit_generator.state
        try:
            self.state, events = self.engine.apply(self.state, declaration, rng=self.rng)
        except IllegalDeclaration:
            self.rng.bit_generator.state = saved
            raise
        self.declarations.append(declaration)
        self.events.extend(events)
        return events

    def refusal(self, declaration: Declaration) -> str:
        """Why `declaration` would be refused now, in the rules' words ("" if the game would
        take it): tried on the state as it is with dice of its own; nothing changes."""
        try:
            self._checked(declaration)
            self.engine.apply(self.state, declaration, rng=make_rng(0))
        except IllegalDeclaration as why:
            return str(why)
        return ""

    def _checked(self, declaration: Declaration) -> None:
        """What the game refuses before its engine is asked: any declaration once it is
        over, numbers off the table (where the engine's apply does not check them)."""
        if self.state.finished:
            raise IllegalDeclaration("the game is over")
        if not getattr(self.engine, "checks_numbers", False):
            check_numbers(declaration, self.setup.header.table)

    def log(self) -> list[dict[str, Any]]:
        return [event_dict(e) for e in self.events]

    def to_save(self, folder: Path | None = None) -> dict[str, Any]:
        """The save file (format 2): where the scenario came from (`scenario_fields`;
        `folder`: where the save is written) and, so that the game replays on any
        machine, its text and that text's SHA-256; the seed, the declarations and the
        event log they gave."""
        data: dict[str, Any] = {
            "format": SAVE_FORMAT,
            **scenario_fields(self.setup.path, folder),
            "ruleset": self.setup.ruleset.name,
            "rules_version": self.setup.ruleset.rules_version,
            "seed": self.seed,
        }
        text = getattr(self.setup, "text", "")
        if text:
            data["scenario_sha256"] = text_hash(text)
            data["scenario_text"] = text
        data["declarations"] = [d.to_dict() for d in self.declarations]
        data["events"] = self.log()
        return data

    def save(self, path: Path) -> None:
        """Write the save file atomically: a temporary file in the same folder, then rename."""
        write_json_atomic(path, self.to_save(path.parent))

    @classmethod
    def replay(cls, setup: Setup, seed: int, declarations: Iterable[Declaration]) -> Game:
        game = cls(setup, seed)
        for declaration in declarations:
            game.declare(declaration)
        return game


def decode_declarations(raw: Iterable[dict[str, Any]]) -> list[Declaration]:
    return [decode(item) for item in raw]
