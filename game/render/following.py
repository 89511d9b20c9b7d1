"""The window's hold on the game it plays: attaching a session, handing it
declarations, and copying what the game did into the window's state (the turn, the
prompt, the markers on the bases, the dice log and the shot animations).

`Following` sits between `Pointing` (the pointer's questions) and `App` (the pygame
window); actions and input handlers are given one and call `perform` on it.

No pygame here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from game.errors import IllegalDeclaration
from game.render import dice_log
from game.render.link import placed
from game.render.play_rules import HOVER_HINT, PlayRules, rules_for
from game.render.pointing import Impossible, Pointing, Said
from game.render.replay import Replay, branch_path, kept_apart
from game.render.session import Session
from game.render.state import initial_state, side_to_take
from game.scenario.names import table_names, told_names
from game.sequencer.sentences import Teller, names_of, speaking, told

LOG_LINES = 200  # kept in the state; the panel shows the last few
SHOT_FRAMES = 45  # frames a shot line stays on the table
EFFECT_FRAMES = 40  # frames a blast, scatter path, stray shot or template is animated
SEATS = "turn"  # the log's colour for who plays a side from here
# Frames a notice a person asked for ("saved ...") stays on the panel while the computer
# declares on (each of its declarations gives the panel its own words): 3 s at the
# window's 60 frames a second
KEPT_FRAMES = 180


class Doable(Protocol):
    """An action (game.render.actions.Action): changes the state or raises Impossible."""

    def perform(self, app: Following) -> None: ...


class Following(Pointing):
    """The window's state, the game it follows and the actions done on it."""

    ai_stuck: bool
    teller: Teller | None = None  # tells the game's events in order (the dice log)
    replay: Replay | None  # a saved game being stepped through
    # the game's own file, where Ctrl+S saves and Ctrl+O opens (None: a new game not
    # saved yet: replay.new_game_path names its file at the first Ctrl+S)
    save_path: Path | None
    opened_from: Path | None  # the save this game was opened from (Ctrl+O, --load)
    frames: int = 0  # frames drawn so far (the window counts them)
    notice: tuple[str, int] | None = None  # a notice and the frame it stays until
    terminated: bool = False  # SIGTERM came (game.render.recovery): the loop ends

    def tell(self, text: str) -> None:
        """A notice a person asked for (Ctrl+S's "saved ..."): on the panel for
        `KEPT_FRAMES` even while the computer declares on, and in the dice log."""
        self.notice = (text, self.frames + KEPT_FRAMES)
        log = (*self.state.log, dice_log.LogLine(text))[-LOG_LINES:]
        self.state = replace(self.state, message=text, log=log)

    def noticed(self) -> str:
        """The notice still to show ("" when none is)."""
        if self.notice is None or self.frames >= self.notice[1]:
            return ""
        return self.notice[0]

    @property
    def replaying(self) -> bool:
        """A replay is open at a step before its last: nobody declares until T."""
        return self.replay is not None and not self.replay.at_end

    def open_replay(self, replay: Replay, step: int) -> None:
        """Step through `replay` from now on, showing `step`."""
        self.replay = replay
        self.save_path = kept_apart(replay)
        self.opened_from = replay.path
        replay.at = step
        self.attach(replay.session_at(step, self._rules_for_replay(replay)))

    def _rules_for_replay(self, replay: Replay) -> PlayRules:
        session = self.session
        if session is not None and session.scenario is replay.scenario:
            return session.rules
        rules = rules_for(replay.full)
        if rules is None:
            raise Impossible(f"the table cannot play {replay.scenario.ruleset.title} yet")
        return rules

    def show_step(self, step: int) -> None:
        """Show the replay's game after `step` declarations: one step forward plays that
        declaration's dice and animations; any other move redraws the table as it stood."""
        replay = self.replay
        if replay is None:
            raise Impossible("no replay open: Ctrl+O opens a saved game")
        forward = step == replay.at + 1
        replay.at = step
        self.session = replay.session_at(step, self._rules_for_replay(replay))
        if forward:
            self.follow_game(replay.events_of(step))
        else:
            self.restart_view()

    def take_over(self) -> Path | None:
        """Play on from the replay's step: after its last step the same game goes on;
        before it (or where the rules now stop short of the save) a new game branches
        off, saved under a new name (returned) so the save stays as it was; None: Ctrl+S
        saves the save itself, which playing on only adds to."""
        replay = self.replay
        if replay is None:
            raise Impossible("no replay open: Ctrl+O opens a saved game")
        self.replay = None
        branch = None if replay.at_end else branch_path(replay.path, replay.at)
        self.save_path = branch or kept_apart(replay)
        self.follow_game([], animate=False)
        return None if self.save_path == replay.path else self.save_path

    def take_side(self) -> str:
        """A person takes over a side the computer plays (`side_to_take`: the selected
        model's, else the active side), the computer playing on the others. Who plays
        what, in a sentence."""
        session = self.require_session()
        said = session.take(side_to_take(self.scenario, self.state))
        self._seated(session)
        return said

    def hand_back(self) -> str:
        """The computer plays again the side a person took over here (T again). Who plays
        it, in a sentence."""
        session = self.require_session()
        said = session.hand_back(next(iter(session.taken)))
        self._seated(session)
        return said

    def _seated(self, session: Session) -> None:
        """Follow the game with its sides seated anew, and log who plays now where it
        happened."""
        self.base_scenario = session.scenario  # the same table, seated otherwise
        self.follow_game([], animate=False)
        said = dice_log.LogLine(session.seat_changes[-1].said, SEATS)
        self.state = replace(self.state, log=(*self.state.log, said)[-LOG_LINES:])

    def attach(self, session: Session) -> None:
        """Play `session` from now on (a new game, or one loaded from a save)."""
        self.session = session
        self.ai_stuck = False
        if session.scenario is not self.base_scenario:
            self.base_scenario = session.scenario
            self.state = replace(
                initial_state(session.scenario, self.state.size),
                running=self.state.running, hint=self.state.hint,
            )  # fmt: skip
        self.restart_view()

    def restart_view(self) -> None:
        """Follow the game afresh (after undo or load): the log is its whole event log."""
        self.state = replace(
            self.state, log=(), shots=(), effects=(), draft=None, aro_at=None, preview=None
        )
        game = self.game
        events = list(getattr(game, "events", ()))
        self.teller = None  # told afresh from the game's first event
        self.follow_game(events, animate=False)

    def require_session(self) -> Session:
        if self.session is None:
            raise Impossible("no game attached: this table is a viewer")
        return self.session

    def require_turn(self) -> PlayRules:
        """The rules adapter, when a person may declare now."""
        session = self.require_session()
        if self.replay is not None and self.replaying:
            raise Impossible(
                f"{self.replay.describe()}: T takes over here as a new game, End goes "
                "to the last declaration"
            )
        prompt = session.prompt()
        if prompt.over:  # the panel says who won: say once what is left to do
            raise Impossible(session.after_the_end())
        if session.is_ai(prompt.side):
            side = names_of(self.scenario).get(str(prompt.side), str(prompt.side))
            raise Impossible(f"the computer plays {side}: wait for it")
        return session.rules

    def declare(self, declaration: object, *, with_last: bool = False) -> None:
        """Hand a declaration to the game; an illegal one is explained with the reason.
        `with_last`: made by the same key as the last one (Ctrl+Z takes both back)."""
        game = self.game
        if game is None:
            raise Impossible("no game attached: declarations are not taken yet")
        try:
            if self.session is not None:
                events: Sequence[object] = self.session.declare(declaration, with_last=with_last)
            else:
                events = game.declare(declaration)
        except IllegalDeclaration as why:
            raise Impossible(str(why)) from None
        self.replay = None  # declared at a replay's last step: the game goes on
        self.follow_game(events)

    def follow_game(self, events: Sequence[object], *, animate: bool = True) -> None:
        """Copy the game's turn, active side, models, what it awaits and the markers on
        the bases; log its events and animate its shots."""
        game = self.game
        if game is None:
            return
        now = game.state
        before = {m.id: m.at for m in self.scenario.models}
        self.scenario = placed(self.base_scenario, now)
        state = self.state
        rules = self.rules
        lines = []
        if self.teller is None:  # told afresh from the first event: who the computer plays
            self.teller = Teller(self.scenario.ruleset, told_names(self.scenario))
            lines += self._told_afresh(self.teller, events)
        else:
            lines += dice_log.tell_all(self.teller, events)
        ids = {m.id for m in self.scenario.models}
        shots = []
        if animate:
            aimed = rules.aimed(getattr(game, "events", ())) if rules else None
            shots = dice_log.shots(events, before, SHOT_FRAMES, aimed)
        effects = rules.effects(events, before, EFFECT_FRAMES) if animate and rules else []
        session = self.session
        watching = session.watching() if session is not None and not self.replaying else ""
        prompt = session.prompt() if session is not None else None
        human = prompt is not None and not session.is_ai(prompt.side) if session else True
        markers = tuple(sorted(session.rules.markers(session.game).items())) if session else ()
        holding = tuple(sorted(session.rules.holding(session.game).items())) if session else ()
        states = tuple(sorted(session.rules.states(session.game).items())) if session else ()
        with speaking(names_of(self.scenario)):  # the rings' labels name their models
            rings = tuple(sorted(session.rules.rings_from(session.game).items())) if session else ()
        # where an answer a person is asked for would take the models, before it is given
        ahead = session.rules.ahead(session.game) if session and human else ()
        selected = state.selected if state.selected in ids else None
        message = self.noticed()
        if selected is not None and self.out_of_fight(selected):
            # out of the fight: it neither shoots nor is shot at, so its ruling goes too
            name = names_of(self.scenario).get(selected, selected)
            gone = str(self.scenario.model(selected).state).replace("-", " ")  # out of action
            message = f"{name} is {gone}: no longer selected"
            selected = None
        if prompt is not None and human and not prompt.over:
            if prompt.kind == "second" and prompt.mover is not None:
                selected = prompt.mover
            elif prompt.answering and selected not in prompt.models and prompt.models:
                # the models that answer, not the shooter whose rings and line of fire
                # would crowd what the answer shows (`AppState.ahead`: a fall back)
                selected = prompt.models[0]
        keep_point = (
            prompt is not None and state.prompt is not None and (prompt.route == state.prompt.route)
        )
        self.state = replace(
            state,
            turn=now.turn,
            active_side=now.active,
            hover=None,
            log=(*state.log, *lines)[-LOG_LINES:],
            message=message,
            prompt=prompt,
            human=human,
            draft=None,
            aro_at=state.aro_at if keep_point else None,
            markers=markers,
            holding=holding,
            states=states,
            rings_from=rings,
            shots=(*state.shots, *shots),
            effects=(*state.effects, *effects),
            preview=None,
            ahead=ahead,
            log_scroll=0,
            replay=self.replay.describe() if self.replay is not None else "",
            watching=watching,
            taken_here=session.taken_names() if session else "",
            # a replay before its end takes its own keys (on the panel), not declarations,
            # and nobody declares while the computer plays every side, or once it is over
            keys_help=(prompt and prompt.keys) or session.rules.keys_help
            if session and not (self.replaying or watching or (prompt and prompt.over))
            else (),
            keys_of=tuple(sorted(session.rules.keys_of(session.game).items())) if session else (),
            unarmed=session.rules.unarmed(session.game) if session else frozenset(),
            undoable=session is not None and session.undoable,
            redoable=session is not None and bool(session.redo_stack),
            hover_hint=session.rules.hover_hint if session else HOVER_HINT,
            selected=selected,
            weapon=state.weapon if selected == state.selected else 0,
        )
        self.refresh_hover()

    def _told_afresh(self, teller: Teller, events: Sequence[object]) -> list[dice_log.LogLine]:
        """The dice log of the game's events from its first, told afresh (after undo, on
        opening it): who the computer played when it was opened here, then each side
        taken over or handed back here in its place among the events."""
        session = self.session
        if session is None:
            return dice_log.tell_all(teller, events)
        lines = [dice_log.LogLine(said) for said in session.opening()]
        told = 0
        for change in session.seat_changes:
            lines += dice_log.tell_all(teller, events[told : change.events])
            lines.append(dice_log.LogLine(change.said, SEATS))
            told = max(told, change.events)
        return lines + dice_log.tell_all(teller, events[told:])

    def out_of_fight(self, model_id: str) -> bool:
        """Whether the game has taken `model_id` out of the fight for good (its rules
        adapter says: dead, out of action); a table with no game attached has none."""
        rules = self.rules
        return rules is not None and rules.gone(self.game, model_id)

    def log_scroll_limit(self) -> int:
        """How far back the dice log scrolls (the window knows, having drawn it)."""
        return len(self.state.log)

    def resized(self) -> None:
        """Follow a new `state.size` (the window resizes itself; off screen, nothing)."""

    def save_screenshot(self, path: Path) -> None:
        """Save the frame as a PNG (the drawing window does)."""
        raise Impossible("nothing drawn to save")

    def perform(self, action: Doable) -> None:
        """Do `action`; what it says is made naming the table's models, units and sides
        (`who`, while `speaking`). A refusal it passes on from the rules, written with ids,
        is named as the dice log names them (`told`): a piece whose id is a plain word
        ("still", "cover") only where the rules' cover readings put scenery."""
        try:
            with speaking(table_names(self.scenario)):
                action.perform(self)
        except Said as said:
            self.state = replace(self.state, message=str(said), refusal=str(said))
        except Impossible as why:
            named = told(str(why), told_names(self.scenario))
            self.state = replace(self.state, message=named, refusal=named)
