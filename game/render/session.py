"""A game being played at the table: the sequencer's Game with its rules adapter, the
automatic players, undo and redo, save and load.

DESIGN.md: a game is its scenario + seed + declarations. Undo replays the list less
the last declaration a person made at this table (with the automatic players' answers
after it), never one made before the game was opened here (a save's: the computer may
have made it for the side a person has taken since), and seats the sides as they were
when it was made (a side handed back to the computer since is the person's again); redo
replays it back, seats and all. Save is
the sequencer's save file, written atomically; load replays it.

No pygame here.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

from game.errors import IllegalDeclaration, InputError, Problem
from game.files import write_json_atomic
from game.render.play_rules import (
    THINKING_SHOWN,
    PlayRules,
    Prompt,
    rules_for,
    side_player,
)
from game.scenario import Scenario, saves
from game.scenario.model import AI, HUMAN, SideEntry
from game.scenario.names import sides_listed, table_names
from game.sequencer.declarations import Declaration
from game.sequencer.events import Event
from game.sequencer.game import Game
from game.sequencer.sentences import joined, speaking

SAVE_NAME = "skirmish-save.json"


class SeatChange(NamedTuple):
    """A side a person took over here (T, `taken`) or handed back to the computer, when
    the game had logged `events` events and made `declarations` declarations; `said` is
    the dice log's sentence for it."""

    events: int
    said: str
    declarations: int
    side: str
    taken: bool


class SessionError(Exception):
    """A game that cannot be started or loaded; the message says why (and `problems`,
    when it is bad input, name the file and the place)."""

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


class Taken(NamedTuple):
    """A declaration undo took back, for redo: who made it (`Session.made_by`) and
    whether a person made it with the one before (`Session.with_last`)."""

    declaration: Declaration
    made_by: bool | None
    with_last: bool


class Session:
    """The game the table plays: `scenario` is the table as set up (the game moves the
    models), `game` the sequencer's Game, `rules` the adapter the window talks to."""

    def __init__(self, scenario: Scenario, game: Game, rules: PlayRules) -> None:
        self.scenario = scenario
        self.game = game
        self.rules = rules
        # Who made each declaration: True a person at this table, False the computer,
        # None made before the game was opened here (a save's, a replay's steps), by
        # whoever played then. Undo takes back a person's only, never one made before.
        self.made_by: list[bool | None] = []
        # The declarations (by their place in the game's) a person made with the one
        # before, by the same key (an action after the step the rules take first,
        # `PlayRules.first_step`): undo takes them back together, redo makes them again.
        self.with_last: set[int] = set()
        # What each undo took back: the declarations with who made them and whether each
        # came with the one before, and the seat changes made after the first of them
        # (undo rewinds those too; redo makes them again).
        self.redo_stack: list[tuple[list[Taken], list[SeatChange]]] = []
        # Said when a loaded save's scenario file has changed since it was saved.
        self.note: str | None = None
        # A loaded save of older rules that goes differently now (game.scenario.saves).
        self.diverged: saves.Diverged | None = None
        # What the dice log says of who plays besides the game's events: who the
        # computer played when the game was opened here (`opening`), then each side a
        # person took over here or handed back (T), at the number of events logged when
        # it happened (undo takes back those made after the declaration it takes back: the
        # side is played again by whoever played it when that declaration was made).
        self.first_seats: list[str] | None = None
        self.seat_changes: list[SeatChange] = []
        # Who plays the sides the last undo or redo seated otherwise ("" when none).
        self.reseated = ""
        # Sides a person took over here (T), with who played each before: its [[side]]
        # and its own automatic player (None: the window's), for T to hand it back.
        self.taken: dict[str, tuple[SideEntry, Any]] = {}
        # Sides whose [[side]] names their automatic player or its temperament; the
        # other computer sides play the adapter's own (the window's default).
        self.players: dict[str, Any] = {
            s.id: side_player(game.engine, s.player, s.temperament)
            for s in scenario.sides
            if s.player not in (HUMAN, AI) or (s.player == AI and s.temperament)
        }
        if game.declarations:
            self._replay(list(game.declarations), [None] * len(game.declarations))
        # The declarations a file holds: the save opened, the last Ctrl+S (none for a
        # new game). Quitting asks first while a person's are not among them.
        self.saved: tuple[Declaration, ...] = tuple(game.declarations)
        # The table was edited in the window (F2) and no file holds it: neither the
        # editor's Ctrl+S nor a save of this game (which carries its table).
        self.table_unsaved = False

    @classmethod
    def start(cls, scenario: Scenario, seed: int = 1) -> Session:
        """A new game; SessionError when the sequencer does not play this rule system,
        or the table is one no game starts on (`Scenario.unplayable`: one side only)."""
        if scenario.unplayable:
            first = scenario.unplayable[0]
            raise SessionError(f"{first.place} {first.problem}")
        try:
            game = Game(scenario, seed)
        except IllegalDeclaration as why:
            raise SessionError(str(why)) from None
        rules = rules_for(game)
        if rules is None:
            raise SessionError(f"the table cannot play {scenario.ruleset.name} yet")
        return cls(scenario, game, rules)

    @classmethod
    def resume(cls, scenario: Scenario, game: Game, rules: PlayRules) -> Session:
        """A game already under way (a replay's step): taken as it is, not replayed; its
        declarations were made before it was opened here (undo leaves them)."""
        session = cls(scenario, Game(scenario, game.seed, engine=game.engine), rules)
        session.game = game
        session.made_by = [None] * len(game.declarations)
        session.saved = tuple(game.declarations)
        return session

    @classmethod
    def load(cls, path: Path, person: str | None = None) -> Session:
        """Replay a save file (game.scenario.saves: any rule system, any format, the
        scenario the save carries); SessionError names what is wrong with it. `note`
        says when the scenario file has changed since the save; `diverged` where a save
        of older rules goes differently now (it is played as far as the rules allow).
        `person`: the side a person plays, the computer the others (`saved_seats`)."""
        saved = read_checked_save(path)
        try:
            game, diverged = saved.play()
        except InputError as err:
            raise SessionError(str(err), err.problems) from None
        rules = rules_for(game)
        if rules is None:
            raise SessionError(f"the table cannot play {saved.scenario.ruleset.name} yet")
        scenario, choice = saved_seats(saved, person)
        session = cls(scenario, game, rules)
        session.note = saved.changes_sentence()
        session.diverged = diverged
        session.use_players(choice)
        session.hold(saved_taken(saved, person))
        return session

    # -- who plays

    def use_players(self, choice: Mapping[str, tuple[str, Sequence[tuple[str, Any]]]]) -> None:
        """Play the computer sides with the players of `choice` (side -> player name and
        its options, as `skirmish play --ai` chooses them); human sides stay people's."""
        for side, (name, options) in choice.items():
            if self.is_ai(side):
                self.players[side] = side_player(self.game.engine, name, **dict(options))

    def player(self, side: str) -> Any:
        """The automatic player of computer side `side`: its own, else the window's."""
        return self.players.get(side, getattr(self.rules, "ai", None))

    def recorded_players(self) -> dict[str, dict[str, Any]]:
        """Who plays each side, as a save records it: {"player": "human"}, or the
        automatic player with its temperament and thinking time (playtest.players)."""
        from game.playtest.players import recorded

        ruleset = self.scenario.ruleset
        return {
            s.id: recorded(ruleset, self.player(s.id)) if self.is_ai(s.id) else {"player": HUMAN}
            for s in self.scenario.sides
        }

    def recorded_taken(self) -> dict[str, dict[str, Any]]:
        """The computer's players of the sides a person took over here (T), as a save
        records them (its `taken_over`), so that T hands them back after loading."""
        from game.playtest.players import recorded

        ai = getattr(self.rules, "ai", None)
        return {
            side: recorded(self.scenario.ruleset, ai if player is None else player)
            for side, (_, player) in self.taken.items()
        }

    def hold(self, taken: Choice) -> None:
        """The sides of `taken`, a person's now, were taken over from the computer, which
        played each with the player named (a save's `taken_over`): T hands them back."""
        for side, (name, options) in taken.items():
            given = dict(options)
            entry = self.scenario.side(side).model_copy(
                update={"player": name, "temperament": given.get("temperament")}
            )
            self.taken[side] = (entry, side_player(self.game.engine, name, **given))

    def who_plays(self) -> list[str]:
        """A sentence for each side the computer plays: "the computer plays Yu Jing
        (search, balanced, 0.5 s a declaration)"."""
        from game.playtest.players import said

        names = table_names(self.scenario)
        return [
            f"the computer plays {names.get(side, side)} ({said(record)})"
            for side, record in self.recorded_players().items()
            if record["player"] != HUMAN
        ]

    def opening(self) -> list[str]:
        """Who the computer played when the game was opened here (`who_plays` as it was
        first asked, before any side was taken over): the dice log's first lines."""
        if self.first_seats is None:
            self.first_seats = self.who_plays()
        return self.first_seats

    def computer_plays_all(self) -> bool:
        """Whether the computer plays every side (a playtest's save loaded, say)."""
        return all(self.is_ai(s.id) for s in self.scenario.sides)

    def watching(self) -> str:
        """When the computer plays every side of a game still going on, nobody is asked
        for anything: how a person takes a side, in a sentence ("" otherwise)."""
        sides = self.scenario.sides
        if len(sides) < 2 or not self.computer_plays_all() or self.game.state.finished:
            return ""
        names = [table_names(self.scenario).get(s.id, s.id) for s in sides]
        # the sides by the names the scenario gives them, as the rule system's words would
        # have them; "side" is only the option's word
        options = " or ".join(
            f"--side {s.id} ({name})" for s, name in zip(sides, names, strict=True)
        )
        # which side T takes now is at the panel's foot (panel.foot_keys)
        return (
            f"the computer plays {joined(names)}, you watch: T takes one over, as skirmish "
            f"play {options} does"
        )

    def take(self, side: str) -> str:
        """A person plays `side` from here on and the computer the others, each with its
        player (T while the computer plays every side); what the computer declared for
        it stays the computer's (undo leaves it). Who plays what, in a sentence; the dice
        log's is the last of `seat_changes`."""
        self.opening()  # who played before
        self._take(side)
        self._seat_change(side, f"a person plays {self._seats(side)}", taken=True)
        return f"you play {self._seats(side)}"

    def _take(self, side: str) -> None:
        self.taken[side] = (self.scenario.side(side), self.players.pop(side, None))
        self.scenario = seated(self.scenario, side)

    def taken_names(self) -> str:
        """The sides a person took over here (T hands them back), by their names."""
        names = table_names(self.scenario)
        return joined([names.get(side, side) for side in self.taken])

    def hand_back(self, side: str) -> str:
        """The computer plays `side` again, a side a person took over here (`take`), with
        the player it had; what the person declared for it stays theirs (undo takes it
        back). Who plays it, in a sentence; the dice log's is the last of `seat_changes`."""
        self._hand_back(side)
        said = f"the computer plays {table_names(self.scenario).get(side, side)} again"
        self._seat_change(side, said, taken=False)
        return said

    def _hand_back(self, side: str) -> None:
        entry, player = self.taken.pop(side)
        sides = tuple(entry if s.id == side else s for s in self.scenario.sides)
        self.scenario = replace(self.scenario, sides=sides)
        if player is not None:
            self.players[side] = player

    def _seat_change(self, side: str, said: str, *, taken: bool) -> None:
        """The dice log's sentence for who plays now, where it happened: "Turn 2: a
        person plays Yu Jing from here, the computer PanOceania". What undo took back
        before it is not redone over it (redo would declare for a side seated otherwise)."""
        turn = f"{self.scenario.ruleset.turn_word.capitalize()} {self.game.state.turn}"
        change = SeatChange(
            len(self.game.events), f"{turn}: {said}", len(self.game.declarations), side, taken
        )
        self.seat_changes.append(change)
        self.redo_stack.clear()

    def _reseat(self, changes: Sequence[SeatChange], *, back: bool) -> str:
        """Make `changes` again (redo), or take them back in the reverse order (`back`:
        undo); who plays each side they changed now, in a sentence ("you play Yu Jing
        again"; "" when they change nothing)."""
        before = {s.id: self.is_ai(s.id) for s in self.scenario.sides}
        for change in reversed(changes) if back else changes:
            if change.taken != back:
                self._take(change.side)
            else:
                self._hand_back(change.side)
        names = table_names(self.scenario)
        return "; ".join(
            f"the computer plays {names.get(s.id, s.id)} again"
            if self.is_ai(s.id)
            else f"you play {names.get(s.id, s.id)} again"
            for s in self.scenario.sides
            if self.is_ai(s.id) != before[s.id]
        )

    def _seats(self, side: str) -> str:
        """ "Yu Jing from here, the computer PanOceania": a person's side, the others."""
        names = table_names(self.scenario)
        others = [names.get(s.id, s.id) for s in self.scenario.sides if s.id != side]
        return f"{names.get(side, side)} from here, the computer {joined(others)}"

    def is_ai(self, side: str | None) -> bool:
        if side is None:
            return False
        return any(s.id == side and s.player != HUMAN for s in self.scenario.sides)

    def prompt(self) -> Prompt:
        """What the game awaits (the banner, the panel), its words naming the table's
        models, units and sides as the rules make them (`who`, while `speaking`): no pass
        over the finished sentence, which would name a piece whose id is a plain word
        wherever the word is ("C cover", "still to activate")."""
        with speaking(table_names(self.scenario)):
            return self.rules.prompt(self.game)

    @property
    def undoable(self) -> bool:
        """Whether `undo` takes something back now: a declaration a person made here."""
        return True in self.made_by

    def after_the_end(self) -> str:
        """What a person can still do once the game is over, in a sentence (a key that
        would declare says it; the panel says already who won)."""
        undo = ", Ctrl+Z takes back your last declaration" if self.undoable else ""
        return (
            f"nothing more to declare: Ctrl+S saves the game{undo}, Q quits; click a base "
            "or point at an enemy to look at the table"
        )

    def ai_due(self) -> bool:
        prompt = self.prompt()
        return not prompt.over and self.is_ai(prompt.side)

    def ai_slow(self) -> bool:
        """Whether the automatic player's budget is over THINKING_SHOWN seconds (the
        window then shows that it is thinking before it asks)."""
        player = self.player(self.game.awaiting().side or "")
        return float(getattr(player, "expected_seconds", 0.0)) > THINKING_SHOWN

    # -- declarations

    def declare(self, declaration: Any, *, with_last: bool = False) -> list[Event]:
        """Hand one declaration to the game (IllegalDeclaration: nothing changes);
        `with_last`: made by the same key as the last one (undo takes both back)."""
        side = self.game.awaiting().side
        events = self.game.declare(declaration)
        if with_last:
            self.with_last.add(len(self.made_by))
        self.made_by.append(not self.is_ai(side))
        self.redo_stack.clear()
        return events

    def step_ai(self) -> list[Event]:
        """The automatic player's declaration for the side awaited now."""
        return self.declare_ai(self.ai_choice())

    def ai_choice(self) -> Any:
        """What the automatic player declares now, worked out without changing the game
        (the window asks it on a worker thread, then hands it to `declare_ai`)."""
        awaiting = self.game.awaiting()
        own = self.players.get(awaiting.side or "")
        return (
            self.rules.choose(self.game) if own is None else own.choose(self.game.state, awaiting)
        )

    def declare_ai(self, choice: Any) -> list[Event]:
        """Hand the automatic player's `choice` to the game. What undo took back no longer
        follows (the computer plays on where a person undid a declaration of a side it
        was handed back since): there is nothing to redo."""
        events = self.game.declare(choice)
        self.made_by.append(False)
        self.redo_stack.clear()
        return events

    def undo(self) -> bool:
        """Take back the last declaration a person made at this table (and the automatic
        answers after it). False when there is none (`nothing_to_undo` says why): one
        made before the game was opened here is never taken back. A side taken over or
        handed back (T) after that declaration is played again by whoever played it then
        (a side the person declared for is theirs again, to declare afresh: the computer
        does not declare in their place); `reseated` says who plays it now."""
        kept = len(self.made_by)
        while kept and self.made_by[kept - 1] is False:
            kept -= 1
        if not kept or self.made_by[kept - 1] is None:
            return False
        kept -= 1
        while kept in self.with_last:  # made by the same key as the one before it
            kept -= 1
        declarations = list(self.game.declarations)
        taken = [
            Taken(declaration, made_by, i in self.with_last)
            for i, (declaration, made_by) in enumerate(
                zip(declarations[kept:], self.made_by[kept:], strict=True), kept
            )
        ]
        self._replay(declarations[:kept], self.made_by[:kept])
        self.with_last = {i for i in self.with_last if i < kept}
        later = [c for c in self.seat_changes if c.declarations > kept]
        self.seat_changes = [c for c in self.seat_changes if c.declarations <= kept]
        self.reseated = self._reseat(later, back=True)
        self.redo_stack.append((taken, later))
        return True

    def nothing_to_undo(self) -> str:
        """Why `undo` takes nothing back, in a sentence."""
        if None in self.made_by:
            return (
                "nothing to undo: what came before this game was opened here is the "
                "save's (skirmish replay SAVE --window steps back through it)"
            )
        if self.made_by:
            return "nothing to undo: the computer made every declaration so far"
        return "nothing to undo"

    def redo(self) -> list[Event]:
        """Declare again what the last undo took back, and seat the sides as they were
        before it (`reseated` says who plays them now); [] when there is nothing to redo."""
        if not self.redo_stack:
            return []
        taken, changes = self.redo_stack.pop()
        start = len(self.game.events)
        for declaration, made_by, with_last in taken:
            self.game.declare(declaration)
            if with_last:
                self.with_last.add(len(self.made_by))
            self.made_by.append(made_by)
        self.seat_changes += changes
        self.reseated = self._reseat(changes, back=False)
        return self.game.events[start:]

    def _replay(self, declarations: Sequence[Declaration], made_by: Sequence[bool | None]) -> None:
        """A fresh game from the seed with `declarations`, each made by whom `made_by`
        says."""
        game = Game(self.scenario, self.game.seed)
        for declaration in declarations:
            game.declare(declaration)
        self.game, self.made_by = game, list(made_by)
        self.rules = rules_for(game) or self.rules

    # -- files

    def save(self, path: Path) -> None:
        """The sequencer's save file with who played each side (`recorded_players`),
        written atomically."""
        data = self.game.to_save(path.parent)
        data["players"] = self.recorded_players()
        if self.taken:  # said only when a side was taken over (older saves lack it)
            data["taken_over"] = self.recorded_taken()
        write_json_atomic(path, data)
        self.saved = tuple(self.game.declarations)
        self.table_unsaved = False

    def unsaved(self) -> tuple[object, ...]:
        """What quitting now would lose: a person's declarations made here that no file
        holds (`unsaved_declarations`), and the table itself while it was edited here
        and no file holds it (`table_unsaved`)."""
        lost = self.unsaved_declarations()
        return (self.scenario, *lost) if self.table_unsaved else lost

    def unsaved_declarations(self) -> tuple[object, ...]:
        """A person's declarations made here that no file holds (since the game was
        opened or last saved). The computer's declarations need no keeping: the same
        seed and declarations give them again."""
        held, now = self.saved, list(self.game.declarations)
        same = 0
        while same < min(len(held), len(now)) and held[same] == now[same]:
            same += 1
        lost = tuple(d for d, person in zip(now[same:], self.made_by[same:], strict=True)
                     if person)  # fmt: skip
        return lost


Choice = dict[str, tuple[str, tuple[tuple[str, Any], ...]]]


def saved_seats(saved: saves.SavedGame, person: str | None = None) -> tuple[Scenario, Choice]:
    """Who plays each side as the save records it (`players`; a save without them: the
    scenario's): its scenario with each side recorded seated as the save has it (a
    person's, or the computer's with the automatic player and temperament named), and
    each computer side's player with its options, for `Session.use_players` (the save's
    players are checked as it is read: `saves.player_problem`). `person`: a person plays
    that side instead, and the computer every other (`seated`)."""
    choice: Choice = {}
    seats: dict[str, tuple[str, str | None]] = {}
    # --side seats the sides anew: those taken over (T) from the computer go back to it
    records = {**saved.players, **(saved.taken_over if person is not None else {})}
    for side, record in records.items():
        name = str(record["player"])
        if name == HUMAN:
            seats[side] = (HUMAN, None)
            continue
        seats[side] = (name, record.get("temperament"))
        choice[side] = (name, _options(record))
    sides = tuple(
        s.model_copy(update={"player": seats[s.id][0], "temperament": seats[s.id][1]})
        if s.id in seats
        else s
        for s in saved.scenario.sides
    )
    scenario = replace(saved.scenario, sides=sides)
    if person is None:
        return scenario, choice
    return seated(scenario, person), {k: v for k, v in choice.items() if k != person}


def saved_taken(saved: saves.SavedGame, person: str | None = None) -> Choice:
    """The sides a person took over from the computer (T) in the game saved, with the
    computer's player for each and its options (`Session.hold`); none when `person`
    (`--side`) seats the sides anew."""
    if person is not None:
        return {}
    return {
        side: (str(record["player"]), _options(record)) for side, record in saved.taken_over.items()
    }


def _options(record: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A recorded player's options, as `Session.use_players` takes them."""
    return tuple((k, record[k]) for k in ("temperament", "think") if k in record)


def seated(scenario: Scenario, person: str) -> Scenario:
    """`scenario` with a person playing side `person` and the computer every other side
    (`skirmish play --side`): a side the scenario gave a person goes to the computer's
    own player (AI), a side it gave an automatic player keeps it. InputError when the
    scenario has no such side."""
    if person not in [s.id for s in scenario.sides]:
        problem = f"no side {person!r} in the scenario (its sides: {sides_listed(scenario)})"
        raise InputError(Problem("<command line>", "--side", problem))
    sides = tuple(
        s.model_copy(update={"player": HUMAN, "temperament": None})
        if s.id == person
        else s.model_copy(update={"player": AI})
        if s.player == HUMAN
        else s
        for s in scenario.sides
    )
    return replace(scenario, sides=sides)


def computer_plays(scenario: Scenario, sides: Collection[str]) -> Scenario:
    """`scenario` with the computer playing `sides` too, as `player = "ai"` in their
    [[side]] would (`skirmish play --ai SIDE=PLAYER` for a side it gave a person: the
    computer playing both sides, watched)."""
    turned = tuple(
        s.model_copy(update={"player": AI}) if s.id in sides and s.player == HUMAN else s
        for s in scenario.sides
    )
    return replace(scenario, sides=turned)


def read_checked_save(path: Path) -> saves.SavedGame:
    """A save file, checked (game.scenario.saves); SessionError names what is wrong, with
    the problems as bad input."""
    try:
        return saves.read_save(path)
    except InputError as err:
        raise SessionError(str(err), err.problems) from None
