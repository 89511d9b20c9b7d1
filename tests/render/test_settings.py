"""The window remembers that its opening hint was seen (issue 15's leftover): a small
settings file in the user's config folder, written atomically; a broken, unreadable or
unwritable one never stops the window. Every test has a settings folder of its own
(tests/conftest.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pygame
import pytest

from game.render import settings
from game.render.app import App
from game.scenario import load_scenario
from tests.conftest import SCENARIOS
from tests.render.driving import press

DEMO = SCENARIOS / "infinity-demo.toml"


def test_the_hint_shows_the_first_time_only(settings_folder: Path) -> None:
    scenario = load_scenario(DEMO)
    first = App(scenario)
    assert first.state.hint
    first.draw()
    assert not (settings_folder / settings.FILE_NAME).exists()  # not seen until dismissed
    press(first, pygame.K_h)  # any key dismisses it
    assert not first.state.hint
    data = json.loads((settings_folder / settings.FILE_NAME).read_text(encoding="utf-8"))
    assert data == {"hint_seen": True}
    again = App(scenario)
    assert not again.state.hint


def test_help_dismisses_and_remembers_it(settings_folder: Path) -> None:
    app = App(load_scenario(DEMO))
    press(app, pygame.K_F1)
    assert app.state.help and not app.state.hint
    assert settings.hint_seen()
    assert not [p for p in settings_folder.iterdir() if p.name != settings.FILE_NAME]


@pytest.mark.parametrize(
    "content",
    [b"{not json", b"[1, 2]", b"\xff\xfe\x00", b'{"hint_seen": "yes"}', b"", b"[" * 100_000],
)
def test_a_broken_settings_file_is_ignored(settings_folder: Path, content: bytes) -> None:
    (settings_folder / settings.FILE_NAME).write_bytes(content)
    app = App(load_scenario(DEMO))
    assert app.state.hint  # as if nothing was remembered
    press(app, pygame.K_h)
    assert settings.hint_seen()  # written afresh, whole
    assert json.loads((settings_folder / settings.FILE_NAME).read_text())["hint_seen"] is True


def test_other_settings_are_kept(settings_folder: Path) -> None:
    (settings_folder / settings.FILE_NAME).write_text('{"theme": "dark"}', encoding="utf-8")
    assert settings.remember(settings.HINT_SEEN, True)
    data = json.loads((settings_folder / settings.FILE_NAME).read_text(encoding="utf-8"))
    assert data == {"theme": "dark", "hint_seen": True}


def test_an_unreadable_or_unwritable_folder_never_stops_the_window(
    settings_folder: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # a folder where the file should be: unreadable as a file, and cannot be replaced
    (settings_folder / settings.FILE_NAME).mkdir()
    app = App(load_scenario(DEMO))
    assert app.state.hint
    press(app, pygame.K_h)
    assert not app.state.hint and not settings.hint_seen()
    # a config "folder" that is a file: nothing can be created under it
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv(settings.FOLDER_VARIABLE, str(blocker / "skirmish"))
    assert settings.remember(settings.HINT_SEEN, True) is False
    press(App(load_scenario(DEMO)), pygame.K_h)


def test_the_folder_is_the_platforms_config_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    from platformdirs import user_config_dir

    monkeypatch.delenv(settings.FOLDER_VARIABLE)
    assert settings.folder() == Path(user_config_dir("skirmish", appauthor=False, roaming=True))
    assert os.environ.get(settings.FOLDER_VARIABLE) is None
