"""One SIGTERM ends `skirmish play` (tester16 finding 5: with a declaration unsaved,
SDL's handler turned it into a close, which asked "changes not saved: close the window
again ..." and waited for a second signal). The game not saved goes, atomically, to a
recovery file beside where Ctrl+S would save it, said in one line on stderr; exit 0."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from game.cli import main
from game.playtest.batch import automatic_player
from game.render.app import App
from game.render.session import Session


def _play_then_terminate(monkeypatch: pytest.MonkeyPatch, declare: bool) -> list[App]:
    """`play` whose window, as it opens, takes a person's first Order (`declare`) and
    then a SIGTERM, as a logout or a service manager sends it."""
    seen: list[App] = []

    def opened(app: App) -> None:
        session = app.session
        assert session is not None
        if declare:
            careful = automatic_player(session.game.engine, "careful")
            awaiting = session.game.awaiting()
            app.declare(careful.choose(session.game.state, awaiting))
            assert session.unsaved()
        seen.append(app)
        signal.raise_signal(signal.SIGTERM)

    monkeypatch.setattr(App, "prepare_line_of_fire", opened)
    return seen


def test_one_sigterm_ends_play_keeping_the_unsaved_game_in_a_recovery_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    seen = _play_then_terminate(monkeypatch, declare=True)
    argv = ["play", "infinity-demo", "--seed", "3", "--frames", "600", "--screenshot", "s.png"]
    assert main([*argv, "--size", "800x600"]) == 0
    [app] = seen
    assert app.frames <= 1  # ended at once, not after the 600 frames asked
    assert not (tmp_path / "s.png").exists()  # nothing more after the signal
    kept = tmp_path / "skirmish-save.recovery.json"
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == (
        f"skirmish play: ended by SIGTERM; the game not saved is in {kept} "
        f"(skirmish play --load {kept} plays on)"
    )
    assert not (tmp_path / "skirmish-save.json").exists()  # Ctrl+S's file untouched
    again = Session.load(kept)
    assert again.game.declarations == app.session.game.declarations  # type: ignore[union-attr]
    assert signal.getsignal(signal.SIGTERM) is not None  # the handler before, restored


def test_one_sigterm_ends_play_with_nothing_unsaved_saying_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _play_then_terminate(monkeypatch, declare=False)
    argv = ["play", "infinity-demo", "--frames", "600", "--screenshot", "s.png"]
    assert main(argv) == 0
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "skirmish play: ended by SIGTERM, nothing unsaved"
    )
    assert list(tmp_path.iterdir()) == []
