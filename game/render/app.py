"""The interactive table (`skirmish play`): the pygame-ce window and its frame loop.

Three parts, after the tcod habit (STYLE.md):

- **State** is one frozen `AppState` (game.render.state): view (zoom/pan), selection,
  chosen weapon, the hovered target with its ruling, the ruler, the panel's message.
- **Input** goes through handlers (game.render.handlers), a small state machine: each
  `Handler` takes a pygame event and returns the next handler. Handlers turn events
  into `Action` objects (game.render.actions, .declaring, .game_actions); `perform`
  runs an action, which replaces the state or raises `Impossible` with the reason
  shown to the player.
- **Drawing** is `draw_frame(surface, scenario, state, ...)` (game.render.frame), a
  function of the state and its view.

The window's state, what lies under the pointer and the game it follows are the
classes below `App`: `Pointing` (game.render.pointing) and `Following`
(game.render.following). Rules plug in from outside: line-of-fire rulings through a
`RulingProvider` (game.render.ruling), declarations through the rule system's
`PlayRules` adapter, found in the registry.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame

from game.geometry.compiled import PREPARING
from game.render import settings
from game.render.actions import Measure, PointAt, Select, warns_first
from game.render.declaring import Confirm, Declare, StartShoot
from game.render.editor import Editor
from game.render.editor_mode import leave_editor, open_editor
from game.render.following import EFFECT_FRAMES, LOG_LINES, SHOT_FRAMES, Following
from game.render.frame import FrameCache, draw_frame
from game.render.game_actions import StepAI, TakeSide
from game.render.handlers import Handler, Idle, Measuring, Panning, Pressing
from game.render.link import TableGame
from game.render.pointing import Impossible
from game.render.replay import Replay
from game.render.ruling import RulingProvider, default_provider
from game.render.session import Session
from game.render.state import (
    DEFAULT_SIZE,
    UNSAVED,
    AppState,
    Size,
    initial_state,
)
from game.render.table import keep_least, save_png
from game.render.thinking import Thinking, taken_while_thinking
from game.render.unsaved import disarmed, disarms
from game.scenario import Scenario

# Tests and commands import these from here.
__all__ = [
    "AI_FRAMES", "EFFECT_FRAMES", "LOG_LINES", "SHOT_FRAMES", "App", "AppState", "Confirm",
    "Declare", "Handler", "Idle", "Impossible", "Measure", "Measuring", "Panning", "PointAt",
    "Pressing", "Select", "StartShoot",
]  # fmt: skip

FPS = 60
AI_FRAMES = 20  # frames between the automatic player's declarations, so a person can follow


class App(Following):
    """The window shell: owns the state, the input handler and the frame cache.

    Made with a surface it draws off screen (tests, benchmarks); `App.window` opens a
    resizable pygame window instead. A `session` (game.render.session) is a game the
    table plays: declarations by mouse and keyboard, automatic players, undo, save.
    A bare `game` (any `TableGame`) is followed and takes `Declare` actions only.
    """

    def __init__(
        self,
        scenario: Scenario,
        *,
        size: Size = DEFAULT_SIZE,
        provider: RulingProvider | None = None,
        surface: pygame.Surface | None = None,
        game: TableGame | None = None,
        session: Session | None = None,
    ) -> None:
        self.scenario = scenario
        self.base_scenario = scenario
        self.provider: RulingProvider = provider or default_provider()
        self.session = session
        self._game = game
        self.state = initial_state(scenario, size)
        if settings.hint_seen():  # the opening hint shows the first time only
            self.state = replace(self.state, hint=False)
        self.handler: Handler = Idle()
        self.cache = FrameCache()
        self.windowed = False
        self._surface = surface
        self._drawn: AppState | None = None
        self.frames = 0
        self.ai_wait = 0
        self.ai_stuck = False
        self.replay = None
        self.save_path = None
        self.opened_from = None
        self._preview_key: tuple[object, ...] | None = None
        self.editor: Editor | None = None  # F2: the table editor in this window
        self.shot_size: tuple[int, int] | None = None  # the last screenshot's, in pixels
        self.live = False  # run without a frame limit: the computer thinks beside it
        self.thinking: Thinking | None = None  # its choice being worked out
        self.take_due = False  # T pressed while it thought: a person takes a side after
        if session is not None:
            self.attach(session)
        elif game is not None:
            self.follow_game(())

    @classmethod
    def window(cls, scenario: Scenario, *, size: Size = DEFAULT_SIZE,
               provider: RulingProvider | None = None,
               session: Session | None = None) -> App:  # fmt: skip
        pygame.display.init()
        pygame.display.set_caption(f"skirmish: {scenario.header.name}")
        pygame.display.set_mode(size, pygame.RESIZABLE)
        keep_least()
        app = cls(scenario, size=size, provider=provider, session=session)
        app.windowed = True
        return app

    # -- the surface

    @property
    def surface(self) -> pygame.Surface:
        if self.windowed:
            window = pygame.display.get_surface()
            if window is not None:
                return window
        if self._surface is None or self._surface.get_size() != self.state.size:
            self._surface = pygame.Surface(self.state.size)
        return self._surface

    def resized(self) -> None:
        if self.windowed:
            current = pygame.display.get_surface()
            if current is None or current.get_size() != self.state.size:
                # -- running

                pygame.display.set_mode(self.state.size, pygame.RESIZABLE)
                keep_least()

    # -- the game

    def handle(self, event: pygame.event.Event) -> None:
        f2 = event.type == pygame.KEYDOWN and event.key == pygame.K_F2
        if self.state.asked is not None and disarms(event, self.state.asked[0]):
            self.disarm_unsaved()
        if f2 and self.thinking is None:
            # a changed table starts a new game: the declarations no file holds are lost
            session = self.session
            lost = session.unsaved_declarations() if session is not None else ()
            said = UNSAVED.format(again="F2 again", doing=EDIT_ANEW)
            if warns_first(self, "edit", lost, said):
                return
            self.state = replace(self.state, asked=None)
            self.editor = open_editor(self, self.surface)
            return
        if event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
            self._drawn = None  # the window lost its pixels: draw again
        if self.thinking is not None and not taken_while_thinking(event):
            if event.type == pygame.KEYDOWN and event.key == pygame.K_t:
                self.take_due = True  # a side taken over once the choice is in (tick)
            return  # the game stays as the computer found it until its choice is in
        hinted = self.state.hint
        if hinted and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.state = replace(self.state, hint=False)
        self.handler = self.handler.handle(event, self)
        if hinted and not self.state.hint:
            settings.remember(settings.HINT_SEEN, True)

    def disarm_unsaved(self) -> None:
        """Any key but the one warned of (Q, Ctrl+O, F2) and the modifiers, or any click,
        after a "changes not saved" warning: that key warns again later, and the warning,
        no longer true, goes (retest13's finding 1: armed through Esc, Tab and clicks, a
        Q pressed much later quit at once and lost the declarations, as the editor did
        before 77dce61)."""
        self.state = replace(self.state, asked=None, message=disarmed(self.state.message))

    def draw(self) -> pygame.Surface:
        surface = self.surface
        draw_frame(
            surface,
            self.scenario,
            self.state,
            self.cache,
            engine_loaded=self.provider.engine_loaded,
            provider_name=self.provider.name,
        )
        self._drawn = self.state
        return surface

    def frame(self) -> None:
        """Take the queued events, then draw if anything changed."""
        if self.editor is not None:
            self.editor.frame()
            if not self.editor.state.running:
                editor, self.editor = self.editor, None
                if not leave_editor(self, editor):
                    self.editor = editor  # no game on the edited table: it says why
                self._drawn = None
            self.frames += 1
            return
        for event in pygame.event.get():
            self.handle(event)
            if not self.state.running:
                return
        self.tick()
        if self._drawn is not self.state:
            self.draw()
            if self.windowed:
                pygame.display.flip()
        self.frames += 1

    def tick(self) -> None:
        """Per frame: shot lines fade, blasts, scatter paths, stray shots and templates
        play on, and the automatic player declares every few frames."""
        if self.state.shots:
            shots = tuple(
                replace(shot, frames=shot.frames - 1)
                for shot in self.state.shots
                if shot.frames > 1
            )
            self.state = replace(self.state, shots=shots)
        if self.state.effects:
            effects = tuple(
                replace(effect, frames=effect.frames - 1)
                for effect in self.state.effects
                if effect.frames > 1
            )
            self.state = replace(self.state, effects=effects)
        if self.thinking is not None:
            if self.thinking.done:
                thinking, self.thinking = self.thinking, None
                choice = thinking.take()
                if self.take_due:
                    self.take_due = False
                    self.perform(TakeSide())
                if self.session is not None and self.session.ai_due():
                    self.perform(StepAI(choice, chosen=True))  # else the person's side now
            return
        session = self.session
        if session is None or self.ai_stuck or self.replay is not None or not session.ai_due():
            self.ai_wait = 0
            return
        self.ai_wait += 1
        if self.ai_wait >= AI_FRAMES:
            self.ai_wait = 0
            if session.ai_slow():
                self.show_thinking()
                if self.live:
                    self.thinking = Thinking(session.ai_choice)
                    return
            self.perform(StepAI())

    def show_thinking(self) -> None:
        """A line on the panel, drawn at once: the automatic player is about to take a
        while over its choice. A live window goes on taking its events meanwhile (the
        choice is worked out on a worker thread: game.render.thinking); a window run for
        a number of frames (scripts, tests) waits for it, so that its frames do not
        depend on how fast the machine is."""
        message = "the computer is thinking..." + (" (Q quits)" if self.live else "")
        kept = self.noticed()
        message = f"{kept}; {message}" if kept else message
        self.state = replace(self.state, message=message)
        self.draw()
        if self.windowed:
            pygame.display.flip()

    def prepare_line_of_fire(self) -> None:
        """The first run after an install compiles the line-of-fire loops (about 6 s of
        one core, once; later runs load them from numba's cache): the window says so on
        its first frame and then compiles them, with one throwaway game of simple players
        on the table (as playtest does), rather than freeze unsaid at its first sight
        line. Nothing is said or done when they are cached, or the table is not played."""
        from game.geometry.compiled import compile_due

        if self.session is None or not self.scenario.ruleset.plays or not compile_due():
            return
        from game.playtest.batch import play_one

        said = self.state.message
        self.state = replace(self.state, message=PREPARING)
        self.draw()
        if self.windowed:
            pygame.display.flip()
        play_one(self.session.scenario, 0, 0)
        self.state = replace(self.state, message=said)

    def run(self, frames: int | None = None) -> None:
        self.live = self.windowed and frames is None
        clock = pygame.time.Clock()
        while (
            self.state.running and not self.terminated and (frames is None or self.frames < frames)
        ):
            self.frame()
            if self.windowed:
                clock.tick(FPS)

    def log_scroll_limit(self) -> int:
        return self.cache.panel.max_scroll

    def save_screenshot(self, path: Path) -> None:
        try:
            picture = self.draw()
            save_png(picture, path)
        except pygame.error as err:
            raise OSError(str(err)) from None
        self.shot_size = picture.get_size()


def replay_window(save: Path, *, size: Size = DEFAULT_SIZE, frames: int | None = None,
                  screenshot: Path | None = None, person: str | None = None) -> App:  # fmt: skip
    """`skirmish replay SAVE --window`: the saved game on the table at its first step,
    to step through (Left/Right, Up/Down, Home/End) and take over (T; `person`: as that
    side, the computer playing the others). Raises SessionError when the save cannot be
    opened."""
    replay = Replay.open(save, person)
    app = App.window(replay.scenario, size=size)
    try:
        app.open_replay(replay, 0)
        message = "Right steps through the game; F1 shows every key"
        if replay.diverged is not None:
            said = replay.diverged.sentence()
            message = f"{said[:1].upper()}{said[1:]}. {message}"
        app.state = replace(app.state, message=message)
        app.run(frames)
        if screenshot is not None:
            app.save_screenshot(screenshot)
    finally:
        pygame.display.quit()
    return app


# F2's warning: what F2 again does
EDIT_ANEW = "edit the table (a changed table starts a new game)"
