"""Tester's finding 19: the window froze while the computer thought (up to a minute a
declaration with --think 60, and it could not be closed). A live window works the
choice out on a worker thread and keeps taking its events; the choice is the same."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pygame
import pytest

from game.render.app import App
from game.render.play_rules import side_player
from game.render.session import Session
from game.scenario import load_scenario
from tests.conftest import SCENARIOS


def computer_only(tmp_path: Path) -> Session:
    text = (SCENARIOS / "infinity-demo.toml").read_text(encoding="utf-8")
    path = tmp_path / "both.toml"
    path.write_text(text.replace('player = "human"', 'player = "ai"'), encoding="utf-8")
    scenario = load_scenario(path)
    session = Session.start(scenario, seed=5)
    for side in scenario.sides:
        session.players[side.id] = side_player(session.game.engine, "simple")
    return session


def play_until(app: App, declarations: int, seconds: float = 60.0) -> None:
    assert app.session is not None
    stop = time.monotonic() + seconds
    while len(app.session.game.declarations) < declarations:
        assert time.monotonic() < stop, "the computer never declared"
        app.frame()


def test_a_live_window_makes_the_same_declarations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Session, "ai_slow", lambda self: True)  # every choice on the thread
    waited = App(computer_only(tmp_path).scenario, session=computer_only(tmp_path))
    play_until(waited, 4)
    live = App(computer_only(tmp_path).scenario, session=computer_only(tmp_path))
    live.live = True
    threads: list[object] = []
    while live.session is not None and len(live.session.game.declarations) < 4:
        live.frame()
        if live.thinking is not None and not any(t is live.thinking for t in threads):
            threads.append(live.thinking)
    assert waited.session is not None and live.session is not None
    assert live.session.game.declarations[:4] == waited.session.game.declarations[:4]
    assert len(threads) >= 4  # each declaration was thought out beside the window


def test_the_window_closes_while_the_computer_thinks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Session, "ai_slow", lambda self: True)
    session = computer_only(tmp_path)
    release = threading.Event()
    monkeypatch.setattr(session, "ai_choice", lambda: release.wait(30) and None)
    app = App(session.scenario, session=session)
    app.live = True
    while app.thinking is None:
        app.frame()
    assert "thinking" in app.state.message
    # a click or a key that would change the game is not taken; closing is
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e, mod=0, unicode="e"))
    app.frame()
    assert app.state.running and not session.game.declarations
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.frame()
    assert not app.state.running
    assert app.thinking is not None and not app.thinking.done  # closed without waiting
    release.set()
