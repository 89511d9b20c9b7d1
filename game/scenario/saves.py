"""Save files read back: a game's scenario, seed and declarations, checked before use.

A save (written by `Game.save`) names the scenario file it came from and, from format 2
on, carries that file's text and its SHA-256, so it replays from any folder and on any
machine; the file is looked for by the bundled table's name, by its path from the save,
by the path it came from, then beside the save (`_scenario_file`), and when it is found
and has changed since, `changes` says what changed. Format 1 saves (the scenario's path
only) still replay from the file.

A save records the version of the rules it was played under (`rules_version`; a save
without one was made before saves recorded it). When the rules have been corrected since
(the rule system's version is higher) and the declarations now give other events,
`SavedGame.play` replays them as far as the rules now allow and says where the game goes
differently (`Diverged`) instead of refusing the save; the save itself is never changed.

Everything is checked first, each problem one line naming the save and the place:
the size of the file, its JSON, the format, the rule system, the seed, the scenario
(the copy carried, against its hash), then each declaration; the rule system's engine
is imported before the declarations are decoded, since importing it is what registers
them."""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.dice import seed_refused
from game.errors import IllegalDeclaration, InputError, Problem
from game.files import MAX_PATH_CHARS, MAX_THINK, MEGABYTE, read_text
from game.paths import SCENARIOS_DIR, SUFFIX
from game.rules.registry import RULESETS, Ruleset, UnknownRuleset, find_ruleset
from game.scenario.load import MAX_FILE_BYTES, check_scenario_text, load_scenario
from game.scenario.model import AI, HUMAN, TEMPERAMENTS
from game.scenario.names import sides_listed, told_names
from game.scenario.scenario import Scenario
from game.sequencer.declarations import Declaration, decode
from game.sequencer.game import SAVE_FORMAT, Game, text_hash
from game.sequencer.sentences import told

MAX_SAVE_BYTES = 64 * MEGABYTE
FORMATS = (1, SAVE_FORMAT)
# How many changes of the scenario file a message lists before "and N more".
SHOWN_CHANGES = 4


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A save file, checked: `scenario_file` is where the scenario came from; `changes`
    what that file on disk changed since the save (empty when it is the same, or not on
    this machine: `on_disk`)."""

    path: Path
    format: int
    scenario: Scenario
    seed: int
    declarations: tuple[Declaration, ...]
    events: list[Any]
    scenario_file: Path
    on_disk: bool
    changes: tuple[str, ...] = ()
    rules_version: int = 0  # the save's; 0: made before saves recorded it
    # side -> its player ({"player": "search", "temperament": ..., "think": ...}), as
    # the window's and playtest's saves record them; empty in older saves
    players: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # side -> the computer's player of a side a person took over from it in the window
    # (T), which T hands it back to after loading; empty when no side was taken over
    taken_over: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def rules_corrected(self) -> bool:
        """Whether the rule system's rules have been corrected since the save was made."""
        return self.rules_version < self.scenario.ruleset.rules_version

    def replay(self) -> Game:
        """The game the declarations make from the seed (`play`, without saying where a
        save of older rules goes differently)."""
        return self.play()[0]

    def play(self) -> tuple[Game, Diverged | None]:
        """The game the declarations make from the seed, and where it goes differently
        from the save's events when the rules have been corrected since it was made
        (`Diverged`; the game then stops before the first declaration the rules now
        refuse). InputError naming the first declaration the rules refuse otherwise."""
        try:
            game = Game(self.scenario, self.seed)
        except IllegalDeclaration as why:
            raise InputError(Problem(str(self.path), "scenario", str(why))) from None
        refused: str | None = None
        for index, declaration in enumerate(self.declarations):
            try:
                game.declare(declaration)
            except IllegalDeclaration as why:
                problem = refused_declaration(self.path, index, why, self.scenario)
                if not self.rules_corrected:
                    raise InputError(problem) from None
                refused = problem.problem.removeprefix(REFUSED)
                break
        return game, self.diverged(game, refused)

    def diverged(self, game: Game, refused: str | None = None) -> Diverged | None:
        """Where `game` (the save's declarations, as far as the rules allow: the next one
        refused for `refused`) goes differently from the save's events, when the rules
        have been corrected since the save; None when they have not, or it does not."""
        if not self.rules_corrected:
            return None
        event = first_difference(game.log(), self.events)
        if event is None and refused is None:
            return None
        if event is None:  # the events agree as far as the game goes
            event = len(game.events)
        turn = turn_at(self.events, event)
        return Diverged(
            self.scenario.ruleset, self.rules_version, event, turn,
            len(game.declarations), len(self.declarations), refused,
        )  # fmt: skip

    def changes_sentence(self) -> str | None:
        """What changed in the scenario file since the save, as one sentence, or None."""
        if not self.changes:
            return None
        shown = "; ".join(self.changes[:SHOWN_CHANGES])
        more = len(self.changes) - SHOWN_CHANGES
        if more > 0:
            shown += f"; and {more} more"
        return f"{self.scenario_file} has changed since the save ({shown})"


@dataclass(frozen=True, slots=True)
class Diverged:
    """A save of older rules that the rules as they are now play otherwise: from its
    event `event` (counted from 0) on, in turn `turn` (0: before the first); `played` of
    its `saved` declarations still play, the next refused for `refused` (None: all play)."""

    ruleset: Ruleset
    saved_version: int
    event: int
    turn: int
    played: int
    saved: int
    refused: str | None

    def sentence(self) -> str:
        """What the replay does, in one sentence."""
        rules = self.ruleset
        version = (
            f" (rules version {self.saved_version}, now {rules.rules_version})"
            if self.saved_version
            else ""
        )
        when = f"{rules.turn_word} {self.turn}" if self.turn else "the start"
        # a save from before saves recorded a version: known to go otherwise, not known why
        why = (
            f"the {rules.title} rules have been corrected since this game was saved{version}"
            if self.saved_version
            else (
                "this game was saved before saves recorded their rules' version, and the "
                f"{rules.title} rules as they are now play it otherwise"
            )
        )
        said = f"{why}: it goes differently from {when} (the save's event {self.event + 1})"
        if self.refused is None:
            return f"{said}; all {self.saved} of its declarations still play"
        return (
            f"{said}, and the rules now refuse its declaration {self.played + 1} of "
            f"{self.saved} ({self.refused}), so the replay stops after declaration "
            f"{self.played}; the save keeps all {self.saved}"
        )


def turn_at(events: list[Any], index: int) -> int:
    """The turn event `index` of a game's `events` falls in (0: before the first)."""
    turn = 0
    for event in events[: index + 1]:
        if isinstance(event, dict) and event.get("event") == "TurnStarted":
            turn = int(event.get("turn", turn))
    return turn


def first_difference(log: list[dict[str, Any]], saved: list[Any]) -> int | None:
    """The index of the first event a replay's `log` tells otherwise than the save's
    `saved` (where one ends before the other: the first event the other has more), or
    None when they agree. A field an event has gained since the save was written
    (FirepowerRolled.rapid_fire) is not a difference: the save has no word on it."""
    for i, (a, b) in enumerate(zip(log, saved, strict=False)):
        if isinstance(b, dict):
            a = {k: v for k, v in a.items() if k in b}
        if a != b:
            return i
    if len(log) != len(saved):
        return min(len(log), len(saved))
    return None


def _bad(path: Path, place: str, problem: str) -> InputError:
    return InputError(Problem(str(path), place, problem))


def _json(path: Path) -> dict[str, Any]:
    text = read_text(path, MAX_SAVE_BYTES, "save file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        if not text.strip():
            raise _bad(path, "", "the file is empty: not a save file") from None
        said = err.msg[:1].lower() + err.msg[1:]
        problem = f"not valid JSON: {said} (column {err.colno})"
        raise InputError(Problem(str(path), "", problem, err.lineno)) from None
    except RecursionError:
        raise _bad(path, "JSON", "values nested too deeply") from None
    except ValueError as err:  # e.g. an integer of thousands of digits
        raise _bad(path, "JSON", str(err).split(";")[0]) from None
    if not isinstance(data, dict):
        raise _bad(path, "", "a save file is a JSON object")
    return data


# What a save's field holds, as a problem names it.
_KINDS: dict[type, str] = {int: "a whole number", str: "text", list: "a list"}


def _field(path: Path, data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if key not in data:
        raise _bad(path, key, f"missing: a save gives it as {_KINDS[kind]}")
    if not isinstance(value, kind) or isinstance(value, bool):
        raise _bad(path, key, f"expected {_KINDS[kind]}, not {_given(value)}")
    return value


def declaration_place(index: int) -> str:
    """Where the declaration at `index` of a save's list is, as a person counts them."""
    return f"declaration {index + 1}"


# How a problem with a declaration the rules refuse begins (`refused_declaration`).
REFUSED = "the rules refuse it: "


def refused_declaration(path: Path, index: int, why: Exception, scenario: Scenario) -> Problem:
    """A save's declaration the rules refuse, named as a person counts it, the reason
    calling the table's models, sides and scenery by name."""
    reason = told(str(why), told_names(scenario))
    return Problem(str(path), declaration_place(index), f"{REFUSED}{reason}")


def _decoded(path: Path, index: int, raw: Any, ruleset: str) -> Declaration:
    """The save's declaration at `index`; InputError naming it and saying what is wrong."""
    place = declaration_place(index)
    if not isinstance(raw, dict):
        shown = json.dumps(raw)[:40]
        raise _bad(path, place, f"expected a JSON object with its kind in 'declare', not {shown}")
    kind = raw.get("declare")
    if not isinstance(kind, str):
        problem = "its kind is missing (a declaration names it in 'declare')"
        raise _bad(path, place, problem if kind is None else f"'declare' must be text, not {kind}")
    try:
        return decode(raw)
    except (ValueError, TypeError, AttributeError, KeyError, RecursionError) as err:
        said = str(err)[:300]
        if said.startswith("unknown declaration"):
            said = f"{ruleset} has no declaration called {kind[:64]!r}"
        raise _bad(path, place, said.removeprefix(f"{kind}: ")) from None


def read_save(path: Path) -> SavedGame:
    """The checked save file at `path`; InputError naming the first problem."""
    data = _json(path)
    if "format" not in data:
        raise _bad(path, "format", "missing: is this a skirmish save file?")
    number = _field(path, data, "format", int)  # "2" is text: not said as format 2
    if number not in FORMATS:
        known = " and ".join(str(f) for f in FORMATS)
        raise _bad(path, "format", f"{_shown(number)}: this skirmish reads save formats {known}")
    name = _field(path, data, "ruleset", str)
    try:
        ruleset = find_ruleset(name)
    except UnknownRuleset:
        known = ", ".join(RULESETS)
        raise _bad(path, "ruleset", f"unknown ruleset {name[:64]!r} (known: {known})") from None
    version = data.get("rules_version", 0)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        shown = json.dumps(version)[:20]
        raise _bad(path, "rules_version", f"expected a whole number from 0 up, not {shown}")
    if version > ruleset.rules_version:  # its declarations are of rules not written here yet
        problem = (
            f"made with newer {ruleset.title} rules (version {version}) than this skirmish "
            f"knows ({ruleset.rules_version}): update skirmish"
        )
        raise _bad(path, "rules_version", problem)
    seed = _field(path, data, "seed", int)
    if (refused := seed_refused(seed)) is not None:
        raise _bad(path, "seed", refused)
    where = _field(path, data, "scenario", str)
    if len(where) > MAX_PATH_CHARS:
        raise _bad(path, "scenario", f"the file name is over {MAX_PATH_CHARS} characters")
    raw_declarations = _field(path, data, "declarations", list)
    events = _field(path, data, "events", list)

    scenario_file = _scenario_file(path, data, where)
    text = data.get("scenario_text") if number >= 2 else None
    changes: tuple[str, ...] = ()
    if text is None:
        # Format 1 (or a save of a table that was never a file): read it from disk.
        scenario = load_scenario(scenario_file)
        on_disk = True
    else:
        scenario, on_disk, changes = _carried(path, data, scenario_file)
    if scenario.ruleset.name != ruleset.name:
        problem = f"the save is of {ruleset.name}, its scenario of {scenario.ruleset.name}"
        raise _bad(path, "ruleset", problem)
    # Importing the rule system's engine is what registers its declarations.
    scenario.ruleset.load("engine")
    declarations = []
    for index, raw in enumerate(raw_declarations):
        declarations.append(_decoded(path, index, raw, scenario.ruleset.title))
    players = _players(path, data.get("players"), scenario)
    return SavedGame(
        path, number, scenario, seed, tuple(declarations), events, scenario_file, on_disk,
        changes, version, players, _taken_over(path, data.get("taken_over"), scenario, players),
    )  # fmt: skip


def _players(path: Path, raw: Any, scenario: Scenario) -> dict[str, dict[str, Any]]:
    """The sides' players a save records (format 2, extended: none in older saves; a
    playtest's older saves gave each in words, "search (temperament cautious)", which
    are read as none), each of a side of its scenario (`player_problem`). Every command
    that reads a save refuses the same save in the same line."""
    out: dict[str, dict[str, Any]] = {}
    for side, entry, place in _by_side(path, "players", raw, scenario):
        if isinstance(entry, str):
            continue
        wrong = player_problem(scenario.ruleset, entry)
        if wrong is not None:
            raise _bad(path, place, wrong)
        out[side] = dict(entry)
    return out


def _taken_over(
    path: Path, raw: Any, scenario: Scenario, players: Mapping[str, Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """The computer's players of the sides a person took over from it in the window (T),
    as a save records them (format 2, extended: none when no side was taken over): each
    side a person plays in the save (its `players`, else its scenario), each player the
    computer's (`player_problem`, not "human")."""
    out: dict[str, dict[str, Any]] = {}
    seats = {s.id: s.player for s in scenario.sides}
    for side, entry, place in _by_side(path, "taken_over", raw, scenario):
        if players.get(side, {"player": seats[side]})["player"] != HUMAN:
            problem = "the save has the computer play it: only a person's side is taken over"
            raise _bad(path, place, problem)
        wrong = player_problem(scenario.ruleset, entry)
        if wrong is None and entry["player"] == HUMAN:
            wrong = 'expected the player the computer had, not "human"'
        if wrong is not None:
            raise _bad(path, place, wrong)
        out[side] = dict(entry)
    return out


def _by_side(path: Path, key: str, raw: Any, scenario: Scenario) -> list[tuple[str, Any, str]]:
    """A save's object of side: player at `key` (None: none), as (side, its entry, the
    place that names it), each side one of its scenario's."""
    if raw is None:
        return []
    if not isinstance(raw, dict):
        raise _bad(path, key, f"expected an object of side: player, not {_given(raw)}")
    sides = [s.id for s in scenario.sides]
    out = []
    for side, entry in raw.items():
        place = f"{key} {side[:64]!r}"
        if side not in sides:
            listed = sides_listed(scenario)
            problem = f"the scenario has no side {side[:64]!r} (its sides: {listed})"
            raise _bad(path, place, problem)
        out.append((side, entry, place))
    return out


def player_problem(ruleset: Ruleset, entry: Any) -> str | None:
    """What is wrong with a save's record of a side's player (`{"player": "search",
    "temperament": "cautious", "think": 0.5}`), in one sentence, or None: a person
    ("human"), the computer ("ai": the command's own player) or an automatic player
    the rule system has, given a temperament or a thinking time only if it takes one,
    a temperament of TEMPERAMENTS, a think of 0 to MAX_THINK seconds."""
    if not isinstance(entry, dict) or not isinstance(entry.get("player"), str):
        return f'expected {{"player": "NAME", ...}}, not {_given(entry)}'
    name = entry["player"]
    if name not in (HUMAN, AI, *ruleset.players):
        known = ", ".join(ruleset.players)
        return f"{ruleset.title} has no automatic player {name[:64]!r} (one of {known})"
    temperament, think = entry.get("temperament"), entry.get("think")
    if temperament is not None and not isinstance(temperament, str):
        return f"temperament: expected text, not {_given(temperament)}"
    if think is not None and (
        isinstance(think, bool) or not isinstance(think, int | float)
        or not 0 <= think <= MAX_THINK  # NaN too
    ):  # fmt: skip
        return f"think: expected seconds from 0 to {MAX_THINK:g}, not {_given(think)}"
    if name == HUMAN:
        return None  # a person's side: what a computer would take is not read
    for option, given in (("temperament", temperament), ("think", think)):
        if given is not None and name != AI and not ruleset.player_takes(name, option):
            return f"{name} takes no {option} (it was given {given!r})"
    if temperament is not None and temperament not in TEMPERAMENTS:
        return f"no temperament {temperament[:64]!r} (one of {', '.join(TEMPERAMENTS)})"
    return None


def _scenario_file(path: Path, data: dict[str, Any], where: str) -> Path:
    """The scenario file on this machine, the first found of: the bundled table the save
    names ("scenario_bundled"); the path from the save's folder ("scenario_relative": a
    save moved with its table); the path the save was made from ("scenario", from the
    current folder or, for a relative one, the save's); a file of that name beside the
    save. None found: the path the save was made from, as it names it."""
    candidates: list[Path] = []
    name = data.get("scenario_bundled")
    if isinstance(name, str) and name and Path(name).name == name:
        candidates.append(SCENARIOS_DIR / f"{name}{SUFFIX}")
    relative = data.get("scenario_relative")
    if isinstance(relative, str) and relative and len(relative) <= MAX_PATH_CHARS:
        candidates.append(Path(os.path.normpath(path.parent / relative)))
    given = Path(where)
    candidates += [given, path.parent / given, path.parent / given.name]
    for candidate in candidates:
        try:
            if candidate.is_file():
                return candidate
        except OSError:  # a name this system cannot hold
            continue
    return given


def _carried(
    path: Path, data: dict[str, Any], scenario_file: Path
) -> tuple[Scenario, bool, tuple[str, ...]]:
    """The scenario a format-2 save carries, whether its file is on this machine, and
    what that file changed since."""
    text = _field(path, data, "scenario_text", str)
    if data.get("scenario_sha256") != text_hash(text):
        problem = "does not match scenario_sha256: the copy of the scenario was edited"
        raise _bad(path, "scenario_text", problem)
    scenario, problems = check_scenario_text(text, scenario_file)
    if problems or scenario is None:
        raise InputError([Problem(str(path), "scenario_text", str(p)) for p in problems])
    try:
        on_disk = scenario_file.is_file()
    except OSError:
        on_disk = False
    changes: tuple[str, ...] = ()
    if on_disk:
        try:
            now = read_text(scenario_file, MAX_FILE_BYTES, "TOML file")
        except InputError as err:
            changes = (err.problems[0].problem,)
        else:
            if text_hash(now) != text_hash(text):
                changes = tuple(scenario_changes(text, now))
    return scenario, on_disk, changes


def _given(value: Any) -> str:
    """A value given where another kind was expected, as the save spells it (JSON): a text
    quoted, so that it reads as the text given ('not "fast"', 'not 99')."""
    text = json.dumps(value, separators=(", ", ": "))
    return text if len(text) <= 40 else text[:37] + "..."


def _shown(value: Any) -> str:
    if value is None:
        return "(none)"
    # a text as it reads, unless it could break the one-line refusal: then quoted
    if isinstance(value, str) and value.isprintable():
        return value if len(value) <= 40 else value[:37] + "..."
    return _given(value)


def _keyed(entries: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for index, entry in enumerate(entries):
        key = None
        if isinstance(entry, dict):
            key = entry.get("id", entry.get("name"))
        out[repr(key) if isinstance(key, str) else f"#{index + 1}"] = entry
    return out


def _fields(place: str, old: Any, new: Any, out: list[str]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*old, *(k for k in new if k not in old)]:
            if old.get(key) != new.get(key):
                out.append(f"{place} {key}: {_shown(old.get(key))} -> {_shown(new.get(key))}")
    elif old != new:
        out.append(f"{place}: {_shown(old)} -> {_shown(new)}")


def scenario_changes(saved: str, now: str) -> list[str]:
    """What differs between the scenario text a save carries and the file's text now, in
    the file's own terms ("model 'fusilier-1' at: [6, 40] -> [6.5, 40]"); empty when
    only comments or layout differ."""
    try:
        old, new = tomllib.loads(saved), tomllib.loads(now)
    except (tomllib.TOMLDecodeError, RecursionError):
        return ["it no longer reads as TOML"]
    out: list[str] = []
    for table in [*old, *(t for t in new if t not in old)]:
        before, after = old.get(table), new.get(table)
        if before == after:
            continue
        if isinstance(before, list | type(None)) and isinstance(after, list | type(None)):
            a, b = _keyed(before or []), _keyed(after or [])
            for key in [*a, *(k for k in b if k not in a)]:
                if key not in b:
                    out.append(f"{table} {key} removed")
                elif key not in a:
                    out.append(f"{table} {key} added")
                else:
                    _fields(f"{table} {key}", a[key], b[key], out)
        else:
            _fields(f"[{table}]", before, after, out)
    return out
